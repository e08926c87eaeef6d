"""Every legal placement of a small rack, found the slow way: by asking the rules engine.

This is the oracle the move generators are checked against (issue 4, "exactness"). It knows
nothing of anchors, cross-sets or word graphs and imports nothing from ``tablero.engine``, so
a mistake there cannot hide here.

A legal placement leaves no gap, so its new tiles are the first k empty squares of a row or
column counted from its first new tile. Hence the enumeration: for every empty square, in both
directions, for k = 1 .. len(rack), the k empty squares from there on get every ordered choice
of k rack tiles, a blank standing for every letter of the alphabet. Each candidate is written
as the whole word it lies in and handed to ``rules.check_move`` (the placement rules, the
dictionary and the score: the same functions ``Game`` plays through), which decides whether it
is legal and what it scores.

That is too slow for anything but small racks, so by default two filters skip candidates the
rules engine would certainly reject; neither uses more than the board and the set of words:

* a *shape* (first square, direction, k) is put to the engine once with dummy letters; if it is
  rejected for a reason no choice of letters can change (off the board, not connected, not on
  a start square, first word too short or not starting on it, no word of two letters), every
  filling of the shape is skipped;
* every word a placement forms must be in the dictionary: a letter whose perpendicular word is
  not, and a filling whose main word is not, are skipped before the engine is asked.

``prune=False`` turns both off; the tests run it on a few positions to show the filters lose
nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from tablero.board import Board, Tile
from tablero.lexicon import Lexicon
from tablero.moves import Letter, Place, format_move
from tablero.position import Position
from tablero.rules import IllegalMove, check_move, check_placement, resolve_place
from tablero.variant import BLANK, Coord

__all__ = [
    "SHAPE_RULES",
    "Key",
    "brute_force",
    "describe",
    "differences",
    "engine_scores",
    "placement_key",
    "single_tile_across",
]

Key = frozenset[tuple[Coord, Tile]]
"""A placement as what it puts down: the new tiles with their squares (blanks marked)."""

SHAPE_RULES = frozenset(
    {
        "off_board",
        "not_connected",
        "start_square",
        "first_letter_on_start",
        "first_word_too_short",
        "no_word",
    }
)
"""Rule codes of ``rules.check_placement`` that depend only on which squares get tiles."""


def placement_key(board: Board, place: Place) -> Key:
    """What a written placement puts down, as the rules engine reads it off the board."""
    new, _through = resolve_place(place, board)
    return frozenset(new)


def describe(key: Key) -> str:
    """A placement for people: ``H8=C H9=a`` (lowercase: a blank), in board order."""
    return " ".join(
        f"{chr(ord('A') + c)}{r + 1}={t.letter.lower() if t.blank else t.letter}"
        for (r, c), t in sorted(key)
    )


def single_tile_across(board: Board, square: Coord) -> bool:
    """How a one-tile placement is written (the convention of ``engine.reference`` and of the
    reference positions): along the word it forms; if it forms words both ways, down when a
    tile lies directly above it, else across."""
    r, c = square

    def occupied(s: Coord) -> bool:
        return board.on_board(s) and board[s] is not None

    across_word = occupied((r, c - 1)) or occupied((r, c + 1))
    down_word = occupied((r - 1, c)) or occupied((r + 1, c))
    if across_word and down_word:
        return not occupied((r - 1, c))
    return across_word


def brute_force(position: Position, lexicon: Lexicon, *, prune: bool = True) -> dict[Key, int]:
    """Every legal placement of the mover's rack with its score, according to the rules engine.

    Keys are the new tiles (each blank designation its own placement); values the points
    ``rules.check_move`` gives. Meant for racks of up to four tiles: the work grows with the
    number of orderings of the rack times 26-30 letters per blank.
    """
    board, rack = position.board, position.rack
    words = _word_set(lexicon) if prune else None
    found: dict[Key, int] = {}
    for across in (True, False):
        step = (0, 1) if across else (1, 0)
        for r in range(board.rows):
            for c in range(board.columns):
                if board[(r, c)] is not None:
                    continue
                run = _empty_squares(board, (r, c), step, len(rack))
                for k in range(1, len(run) + 1):
                    squares = run[:k]
                    if prune and not _shape_can_be_legal(position, squares, across):
                        continue
                    for tiles in _fillings(position, squares, across, words):
                        new = dict(zip(squares, tiles, strict=True))
                        place = _whole_word(board, new, across)
                        try:
                            score = check_move(position, place, lexicon)
                        except IllegalMove:
                            continue
                        assert score is not None
                        key = frozenset(new.items())
                        if key in found and found[key] != score.total:
                            raise AssertionError(
                                f"{describe(key)} scores {found[key]} one way and "
                                f"{score.total} the other"
                            )
                        found[key] = score.total
    return found


def _empty_squares(board: Board, start: Coord, step: Coord, n: int) -> list[Coord]:
    """Up to n empty squares from ``start`` on, stepping over occupied ones, to the edge."""
    out: list[Coord] = []
    r, c = start
    while len(out) < n and board.on_board((r, c)):
        if board[(r, c)] is None:
            out.append((r, c))
        r, c = r + step[0], c + step[1]
    return out


def _whole_word(board: Board, new: dict[Coord, Tile], across: bool) -> Place:
    """The placement written as the whole run of tiles it lies in, old tiles marked."""
    dr, dc = (0, 1) if across else (1, 0)
    r, c = min(new)
    while board.on_board((r - dr, c - dc)) and board[(r - dr, c - dc)] is not None:
        r, c = r - dr, c - dc
    start = (r, c)
    letters: list[Letter] = []
    while board.on_board((r, c)):
        old = board[(r, c)]
        if old is not None:
            letters.append(Letter(old, True))
        elif (r, c) in new:
            letters.append(Letter(new[(r, c)], False))
        else:
            break
        r, c = r + dr, c + dc
    return Place(start, across, tuple(letters))


def _shape_can_be_legal(position: Position, squares: list[Coord], across: bool) -> bool:
    """Ask the engine about the shape filled with one ordinary letter: a rejection for a
    reason in SHAPE_RULES holds for every filling."""
    variant = position.variant
    dummy = variant.letters()[0]
    place = _whole_word(position.board, {s: Tile(dummy) for s in squares}, across)
    try:
        check_placement(variant, position.board, place, [dummy] * len(squares))
    except IllegalMove as e:
        return e.rule not in SHAPE_RULES
    return True


def _fillings(
    position: Position, squares: list[Coord], across: bool, words: frozenset[str] | None
) -> Iterator[tuple[Tile, ...]]:
    """Every ordered choice of rack tiles for the squares, blanks as every letter; with
    ``words``, only those whose main and perpendicular words are all in it."""
    board, rack = position.board, position.rack
    letters = position.variant.alphabet.letters
    allowed: list[frozenset[str] | None] = [None] * len(squares)
    main: list[str | int] = []
    if words is not None:
        for i, square in enumerate(squares):
            before, after = _run_texts(board, square, not across)
            if before or after:
                allowed[i] = frozenset(x for x in letters if before + x + after in words)
        main = _skeleton(board, squares, across)
    counts = Counter(rack)
    chosen: list[Tile] = []

    def walk(i: int) -> Iterator[tuple[Tile, ...]]:
        if i == len(squares):
            if words is not None and len(main) >= 2:
                text = "".join(x if isinstance(x, str) else chosen[x].letter for x in main)
                if text not in words:
                    return
            yield tuple(chosen)
            return
        ok = allowed[i]
        for tile in list(counts):
            if counts[tile] == 0:
                continue
            counts[tile] -= 1
            options = [Tile(x, True) for x in letters] if tile == BLANK else [Tile(tile)]
            for t in options:
                if ok is None or t.letter in ok:
                    chosen.append(t)
                    yield from walk(i + 1)
                    chosen.pop()
            counts[tile] += 1

    yield from walk(0)


def _run_texts(board: Board, square: Coord, across: bool) -> tuple[str, str]:
    """The letters of the tiles directly before and after an empty square along a line."""
    dr, dc = (0, 1) if across else (1, 0)
    before: list[str] = []
    r, c = square[0] - dr, square[1] - dc
    while board.on_board((r, c)) and (t := board[(r, c)]) is not None:
        before.append(t.letter)
        r, c = r - dr, c - dc
    after: list[str] = []
    r, c = square[0] + dr, square[1] + dc
    while board.on_board((r, c)) and (t := board[(r, c)]) is not None:
        after.append(t.letter)
        r, c = r + dr, c + dc
    return "".join(reversed(before)), "".join(after)


def _skeleton(board: Board, squares: list[Coord], across: bool) -> list[str | int]:
    """The main word's squares: a board letter, or the index of the new tile that goes there."""
    index = {s: i for i, s in enumerate(squares)}
    place = _whole_word(board, {s: Tile("?") for s in squares}, across)
    dr, dc = (0, 1) if across else (1, 0)
    out: list[str | int] = []
    for j, letter in enumerate(place.letters):
        square = (place.start[0] + j * dr, place.start[1] + j * dc)
        if square in index:
            out.append(index[square])
        else:
            assert letter.tile is not None
            out.append(letter.tile.letter)
    return out


_WORD_SETS: dict[int, tuple[Lexicon, frozenset[str]]] = {}


def _word_set(lexicon: Lexicon) -> frozenset[str]:
    """The lexicon's words as text, for the filters (kept per lexicon object)."""
    cached = _WORD_SETS.get(id(lexicon))
    if cached is not None and cached[0] is lexicon:
        return cached[1]
    source: Iterable[str] | None = None
    if hasattr(lexicon, "words"):
        source = lexicon.words()
    elif hasattr(lexicon, "__iter__"):
        source = iter(lexicon)  # type: ignore[call-overload]
    if source is None:
        raise TypeError(f"cannot list the words of {lexicon!r}: use prune=False")
    words = frozenset(source)
    _WORD_SETS[id(lexicon)] = (lexicon, words)
    return words


def engine_scores(position: Position, lexicon: Lexicon, places: Iterable[Place]) -> dict[Key, int]:
    """A generator's placements as the rules engine reads and scores them, to compare with
    ``brute_force``. Raises AssertionError for a placement the engine rejects (as written)
    or one given twice."""
    out: dict[Key, int] = {}
    for place in places:
        try:
            score = check_move(position, place, lexicon)
        except IllegalMove as e:
            raise AssertionError(f"{format_move(place)} is illegal: {e.rule}: {e}") from None
        assert score is not None
        key = placement_key(position.board, place)
        if key in out:
            raise AssertionError(f"{format_move(place)} ({describe(key)}) is given twice")
        out[key] = score.total
    return out


def differences(expected: dict[Key, int], got: dict[Key, int], limit: int = 8) -> list[str]:
    """What ``got`` misses, adds, or scores differently from ``expected``, for messages."""
    out = [f"missing {describe(k)} ({expected[k]})" for k in expected.keys() - got.keys()]
    out += [f"extra {describe(k)} ({got[k]})" for k in got.keys() - expected.keys()]
    out += [
        f"{describe(k)} scores {got[k]}, not {expected[k]}"
        for k in expected.keys() & got.keys()
        if expected[k] != got[k]
    ]
    return sorted(out)[:limit] + ([f"... {len(out) - limit} more"] if len(out) > limit else [])
