"""Every legal placement for a rack: the readable reference move generator.

This is the classic anchor-and-extend algorithm (Appel & Jacobson, 1988), written for clarity,
not speed; the fast generator is tested against it. Per line of the board:

* **cross-sets**: for every empty square, the letters that make a valid word with the tiles
  above and below it (any letter if there are none);
* **anchors**: empty squares next to a tile (on an empty board, the start squares). Every
  placement covers at least one anchor; to find each placement once, it is generated from its
  leftmost anchor: the part left of that anchor holds no other anchor;
* **left part, then extend right**: the word's part left of the anchor comes from the rack
  (or, if the square left of the anchor is occupied, is the tiles already there); then letters
  are added to the right, from the rack or the board, while the text so far is the prefix of
  some word.

Words are worked on as tile codes (``Alphabet.encode``), so CH is one step and a C followed by
an H never spells the CH of a dictionary word. The dictionary is anything with
``is_word(codes)`` and ``has_prefix(codes)``: ``WordListLexicon`` and ``GraphLexicon``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Protocol

from ...board import Board, Tile
from ...moves import Letter, Place
from ...variant import BLANK, Coord, Variant

__all__ = ["PrefixLexicon", "generate_placements", "has_placement"]


class PrefixLexicon(Protocol):
    """What the generator needs of a dictionary, over words as tile codes."""

    def is_word(self, codes: bytes) -> bool: ...

    def has_prefix(self, codes: bytes) -> bool: ...


class _Line:
    """One row (or, transposed, one column) of the board, as the generator sees it."""

    def __init__(self, cells: list[Tile | None], coords: list[Coord], cross: list[set[int] | None]):
        self.cells = cells
        self.coords = coords
        self.cross = cross
        """Per empty square: allowed letter codes, or None when no tile is above or below."""


def generate_placements(
    variant: Variant, board: Board, rack: list[str] | tuple[str, ...], lexicon: PrefixLexicon
) -> Iterator[Place]:
    """Every legal placement, once each (a blank's every letter is its own placement).

    Placements are yielded with the letters already on the board marked ``on_board``. A
    single tile that forms words both ways is yielded once: as a down move if a tile lies
    directly above it, else across (the convention of the reference positions).
    """
    seen: set[frozenset[tuple[Coord, Tile]]] = set()
    for place in _generate(variant, board, rack, lexicon):
        if len(place.letters) - sum(bool(x.on_board) for x in place.letters) == 1:
            place = _single_tile_orientation(board, place)
        key = frozenset(
            (_square(place, i), letter.tile)
            for i, letter in enumerate(place.letters)
            if not letter.on_board and letter.tile is not None
        )
        if key in seen:
            continue
        seen.add(key)
        yield place


def _single_tile_orientation(board: Board, place: Place) -> Place:
    i = next(i for i, x in enumerate(place.letters) if not x.on_board)
    coord = _square(place, i)
    tile = place.letters[i].tile
    assert tile is not None
    after = board.copy()
    after[coord] = tile
    words = {
        across: after.word_through(coord, across, frozenset({coord})) for across in (True, False)
    }
    above = (coord[0] - 1, coord[1])
    hangs_below = board.on_board(above) and board[above] is not None
    best = (
        not hangs_below
        if len(words[True]) >= 2 and len(words[False]) >= 2
        else len(words[True]) >= 2
    )
    word = words[best]
    letters = tuple(Letter(s.tile, None if s.new else True) for s in word.squares)
    return Place(word.start, best, tuple(Letter(x.tile, bool(x.on_board)) for x in letters))


def has_placement(
    variant: Variant, board: Board, rack: list[str] | tuple[str, ...], lexicon: PrefixLexicon
) -> bool:
    """Whether the rack has any legal placement (stops at the first one found)."""
    return next(_generate(variant, board, rack, lexicon), None) is not None


def _square(place: Place, i: int) -> Coord:
    r, c = place.start
    return (r, c + i) if place.across else (r + i, c)


def _generate(
    variant: Variant, board: Board, rack: list[str] | tuple[str, ...], lexicon: PrefixLexicon
) -> Iterator[Place]:
    alphabet = variant.alphabet
    letters = [alphabet.code(t) for t in variant.letters()]
    counts: Counter[int] = Counter()
    for t in rack:
        counts[0 if t == BLANK else alphabet.code(t)] += 1
    if not variant.has_blanks:
        counts.pop(0, None)
    empty = board.is_empty()
    for across in (True, False):
        n_lines = board.rows if across else board.columns
        for i in range(n_lines):
            line = _make_line(variant, board, across, i, letters, lexicon)
            anchors = _anchors(variant, board, line, empty)
            yield from _line_moves(variant, line, anchors, counts, letters, lexicon, across, empty)


def _make_line(
    variant: Variant,
    board: Board,
    across: bool,
    index: int,
    letters: list[int],
    lexicon: PrefixLexicon,
) -> _Line:
    alphabet = variant.alphabet
    length = board.columns if across else board.rows
    coords = [(index, j) if across else (j, index) for j in range(length)]
    cells = [board[c] for c in coords]
    cross: list[set[int] | None] = []
    for coord, cell in zip(coords, cells, strict=True):
        if cell is not None:
            cross.append(None)
            continue
        before, after = _perpendicular(board, coord, across)
        if not before and not after:
            cross.append(None)
            continue
        b = bytes(alphabet.code(t.letter) for t in before)
        a = bytes(alphabet.code(t.letter) for t in after)
        cross.append({code for code in letters if lexicon.is_word(b + bytes([code]) + a)})
    return _Line(cells, coords, cross)


def _perpendicular(board: Board, coord: Coord, across: bool) -> tuple[list[Tile], list[Tile]]:
    """Tiles directly above and below (for an across line) an empty square."""
    dr, dc = (1, 0) if across else (0, 1)
    before: list[Tile] = []
    r, c = coord[0] - dr, coord[1] - dc
    while board.on_board((r, c)) and (t := board[(r, c)]) is not None:
        before.append(t)
        r, c = r - dr, c - dc
    before.reverse()
    after: list[Tile] = []
    r, c = coord[0] + dr, coord[1] + dc
    while board.on_board((r, c)) and (t := board[(r, c)]) is not None:
        after.append(t)
        r, c = r + dr, c + dc
    return before, after


def _anchors(variant: Variant, board: Board, line: _Line, empty: bool) -> list[int]:
    if empty:
        starts = set(variant.start_squares)
        return [j for j, c in enumerate(line.coords) if c in starts]
    return [
        j
        for j, (coord, cell) in enumerate(zip(line.coords, line.cells, strict=True))
        if cell is None and board.has_neighbour(coord)
    ]


def _line_moves(
    variant: Variant,
    line: _Line,
    anchors: list[int],
    counts: Counter[int],
    letters: list[int],
    lexicon: PrefixLexicon,
    across: bool,
    empty: bool,
) -> Iterator[Place]:
    alphabet = variant.alphabet
    first_letter_only = empty and variant.first_move.anchor == "first_letter"
    # The first word places at least first_move.min_tiles tiles, and at least two: on an empty
    # board no cross word can make a one-tile placement a word (even if the list has "A").
    min_tiles = max(2, variant.first_move.min_tiles) if empty else 1
    anchor_set = set(anchors)
    # placed[j] = (code, blank) for squares filled this turn
    placed: dict[int, tuple[int, bool]] = {}

    def emit(start: int, end: int) -> Place:
        out: list[Letter] = []
        for j in range(start, end):
            cell = line.cells[j]
            if cell is not None:
                out.append(Letter(cell, True))
            else:
                code, blank = placed[j]
                out.append(Letter(Tile(alphabet.letter(code), blank), False))
        return Place(line.coords[start], across, tuple(out))

    def options(j: int) -> Iterator[tuple[int, bool]]:
        allowed = line.cross[j]
        for code in letters:
            if allowed is not None and code not in allowed:
                continue
            if counts[code] > 0:
                yield code, False
            if counts[0] > 0:
                yield code, True

    def extend_right(prefix: bytes, start: int, j: int, anchor: int) -> Iterator[Place]:
        n = len(line.cells)
        if j >= n or line.cells[j] is None:
            if j > anchor and len(placed) >= min_tiles and lexicon.is_word(prefix):
                yield emit(start, j)
            if j >= n:
                return
        cell = line.cells[j]
        if cell is not None:
            p = prefix + bytes([alphabet.code(cell.letter)])
            if lexicon.has_prefix(p):
                yield from extend_right(p, start, j + 1, anchor)
            return
        for code, blank in options(j):
            p = prefix + bytes([code])
            if not lexicon.has_prefix(p):
                continue
            counts[0 if blank else code] -= 1
            placed[j] = (code, blank)
            yield from extend_right(p, start, j + 1, anchor)
            del placed[j]
            counts[0 if blank else code] += 1

    def left_part(prefix: list[tuple[int, bool]], anchor: int, limit: int) -> Iterator[Place]:
        """Left parts are built left to right from the rack; the squares they will occupy
        (just before the anchor) are no anchors, so no cross-set applies to them."""
        start = anchor - len(prefix)
        for k, tile in enumerate(prefix):
            placed[start + k] = tile
        yield from extend_right(bytes(c for c, _ in prefix), start, anchor, anchor)
        for k in range(len(prefix)):
            del placed[start + k]
        if limit == 0:
            return
        for code in letters:
            for blank in (False, True):
                key = 0 if blank else code
                if counts[key] <= 0 or not lexicon.has_prefix(
                    bytes(c for c, _ in prefix) + bytes([code])
                ):
                    continue
                counts[key] -= 1
                yield from left_part([*prefix, (code, blank)], anchor, limit - 1)
                counts[key] += 1

    for anchor in anchors:
        if anchor > 0 and line.cells[anchor - 1] is not None:
            # The word's left part is the tiles already there.
            k = anchor
            while k > 0 and line.cells[k - 1] is not None:
                k -= 1
            prefix = bytes(alphabet.code(t.letter) for t in line.cells[k:anchor] if t is not None)
            if lexicon.has_prefix(prefix):
                yield from extend_right(prefix, k, anchor, anchor)
            continue
        if first_letter_only:
            yield from extend_right(b"", anchor, anchor, anchor)
            continue
        limit = 0
        k = anchor - 1
        while k >= 0 and line.cells[k] is None and k not in anchor_set:
            # the square left of the left part must stay empty: stop one short of a tile
            if k > 0 and line.cells[k - 1] is not None:
                break
            limit += 1
            k -= 1
        yield from left_part([], anchor, limit)
