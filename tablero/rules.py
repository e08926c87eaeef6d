"""Whether a move is legal, and if not, which rule it breaks.

Every rejection is an ``IllegalMove`` carrying a short rule code (stable, for programs and
tests) and a sentence for people. The checks only read the board and rack; nothing here
changes any state, so a rejected move leaves everything exactly as it was.

Rule codes
----------
Placement: off_board, occupied, not_in_line, gap, not_on_board (parentheses or ``.`` on an empty
square), board_mismatch (the written letter differs from the board's), no_new_tiles,
word_incomplete (the word runs on past what was written), start_square, first_letter_on_start,
first_word_too_short, not_connected, no_word, not_on_rack, no_such_tile (the game has no tile
for that letter), digraph_spelling, not_in_lexicon.

Exchange: exchange_not_allowed, exchange_bag_too_small, exchange_too_many_tiles,
exchange_limit, exchange_only_when_blocked.

CAMBIO: no_cambio, cambio_limit, cambio_empty_square, cambio_blank, cambio_same_letter.

Game: challenge_not_allowed, nothing_to_challenge, game_over, out_of_time, no_clock.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .board import Board, SquareInWord, Tile, WordOnBoard
from .lexicon import Lexicon
from .moves import Cambio, Exchange, Move, Pass, Place
from .position import Position
from .scoring import MoveScore, score_cambio, score_placement
from .variant import BLANK, Coord, Variant, square_name

__all__ = [
    "IllegalMove",
    "PlacementCheck",
    "check_cambio",
    "check_cambio_limit",
    "check_exchange",
    "check_move",
    "check_placement",
    "check_rack_has",
    "check_words_in_lexicon",
    "placement_from_squares",
    "resolve_place",
]


class IllegalMove(ValueError):
    """A move that breaks a rule. ``rule`` is a stable code; ``str()`` the reason for people."""

    def __init__(
        self,
        rule: str,
        message: str,
        words: tuple[str, ...] = (),
        params: Mapping[str, str | int | list[str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.words = words
        """For ``not_in_lexicon``: the words the lexicon rejected."""
        self.params: dict[str, str | int | list[str]] = dict(params or {})
        """What the message names (squares, words, counts), for a client to say it in its own
        language: the keys of each rule are in docs/web-api.md."""
        if words and "words" not in self.params:
            self.params["words"] = list(words)


@dataclass(frozen=True)
class PlacementCheck:
    """A placement that passed every board and rack rule: what it puts down and forms."""

    new_tiles: tuple[tuple[Coord, Tile], ...]
    words: tuple[WordOnBoard, ...]
    """Main word first, then the cross words, each of two or more tiles."""
    across: bool

    @property
    def main_word(self) -> WordOnBoard:
        return self.words[0]


def resolve_place(place: Place, board: Board) -> tuple[list[tuple[Coord, Tile]], list[Coord]]:
    """Match a written placement to the board: (new tiles with squares, squares played through)."""
    dr, dc = (0, 1) if place.across else (1, 0)
    r0, c0 = place.start
    new: list[tuple[Coord, Tile]] = []
    through: list[Coord] = []
    for i, letter in enumerate(place.letters):
        coord = (r0 + i * dr, c0 + i * dc)
        if not board.on_board(coord):
            raise IllegalMove(
                "off_board", f"the word runs off the board after {len(through) + len(new)} letters"
            )
        existing = board[coord]
        if existing is not None:
            if letter.tile is not None and letter.tile.letter != existing.letter:
                raise IllegalMove(
                    "board_mismatch",
                    f"{square_name(coord)} holds {existing.notation()}, "
                    f"not {letter.tile.notation()}",
                )
            through.append(coord)
        else:
            if letter.on_board or letter.tile is None:
                raise IllegalMove(
                    "not_on_board",
                    f"{square_name(coord)} is empty: only letters already on the board go in "
                    "parentheses or as '.'",
                )
            new.append((coord, letter.tile))
    if not new:
        raise IllegalMove("no_new_tiles", "the move places no tile of yours")
    for coord in ((r0 - dr, c0 - dc), (r0 + len(place.letters) * dr, c0 + len(place.letters) * dc)):
        if board.on_board(coord) and (tile := board[coord]) is not None:
            raise IllegalMove(
                "word_incomplete",
                f"the word continues onto {square_name(coord)} ({tile.notation()}): write it whole",
                params={"square": square_name(coord)},
            )
    return new, through


def check_rack_has(variant: Variant, rack: Iterable[str], needed: Iterable[str]) -> None:
    """Raise not_on_rack unless the rack holds every needed tile (``?`` for a blank)."""
    have = Counter(rack)
    want = Counter(needed)
    for tile, n in want.items():
        if have[tile] < n:
            what = "a blank" if tile == BLANK else tile
            if have[tile] == 0:
                raise IllegalMove(
                    "not_on_rack", f"{what} is not on your rack", params={"tile": tile, "have": 0}
                )
            raise IllegalMove(
                "not_on_rack",
                f"your rack has {have[tile]} {what}, the move uses {n}",
                params={"tile": tile, "have": have[tile], "uses": n},
            )


def _check_tile_exists(variant: Variant, tile: Tile) -> None:
    if tile.letter not in variant.tiles:
        how = "a blank cannot stand for it" if tile.blank else "no such tile"
        raise IllegalMove(
            "no_such_tile",
            f"{variant.title} has no {tile.letter} tile ({how})",
            params={"letter": tile.letter},
        )
    if tile.blank and not variant.has_blanks:
        raise IllegalMove("no_such_tile", f"{variant.title} has no blanks")


def _check_spelling(variant: Variant, words: Iterable[WordOnBoard]) -> None:
    for w in words:
        if not variant.alphabet.is_canonical(w.letters):
            spelled = "·".join(w.letters)
            must = "·".join(variant.alphabet.tokenize(w.text))
            raise IllegalMove(
                "digraph_spelling",
                f"{w.text} must be spelled {must}, not {spelled}: CH, LL and RR are single tiles",
                params={"word": w.text},
            )


def check_placement(
    variant: Variant, board: Board, place: Place, rack: Iterable[str]
) -> PlacementCheck:
    """Every board and rack rule for a placement (not the dictionary: see check_words_in_lexicon).

    The first move is the one made on an empty board.
    """
    new, _through = resolve_place(place, board)
    new_coords = frozenset(c for c, _ in new)
    for _, tile in new:
        _check_tile_exists(variant, tile)
    check_rack_has(variant, rack, (t.rack_form for _, t in new))

    after = board.copy()
    for coord, tile in new:
        after[coord] = tile
    first_turn = board.is_empty()
    across = place.across
    main = after.word_through(new[0][0], across, new_coords)
    if len(main) == 1 and len(new) == 1:
        across = not across
        main = after.word_through(new[0][0], across, new_coords)
    cross = [after.word_through(c, not across, new_coords) for c, _ in new]
    words = [w for w in [main, *cross] if len(w) >= 2]

    if first_turn:
        _check_first_move(variant, new, main)
    elif not any(board.has_neighbour(c) for c in new_coords):
        raise IllegalMove(
            "not_connected", "the word must touch or cross a word already on the board"
        )
    if not words:
        raise IllegalMove("no_word", "a word needs at least two letters")
    _check_spelling(variant, words)
    return PlacementCheck(tuple(new), tuple(words), across)


def _check_first_move(variant: Variant, new: list[tuple[Coord, Tile]], main: WordOnBoard) -> None:
    starts = set(variant.start_squares)
    squares = [square_name(s) for s in variant.start_squares]
    names = " or ".join(squares)
    rule = variant.first_move
    if len(new) < rule.min_tiles:
        raise IllegalMove(
            "first_word_too_short",
            f"the first word needs at least {rule.min_tiles} letters",
            params={"min": rule.min_tiles},
        )
    if rule.anchor == "first_letter":
        if main.start not in starts:
            raise IllegalMove(
                "first_letter_on_start",
                f"the first word's first letter must be on {names}",
                params={"squares": squares},
            )
    elif not starts & {c for c, _ in new}:
        raise IllegalMove(
            "start_square", f"the first word must cover {names}", params={"squares": squares}
        )


def check_words_in_lexicon(words: Iterable[WordOnBoard], lexicon: Lexicon) -> None:
    """Raise not_in_lexicon naming every formed word the lexicon does not have."""
    bad = tuple(w.text for w in words if not lexicon.contains(w.text))
    if bad:
        listed = ", ".join(bad)
        raise IllegalMove(
            "not_in_lexicon",
            f"not in the dictionary: {listed}",
            words=bad,
        )


def check_cambio(
    variant: Variant, board: Board, cambio: Cambio, rack: Iterable[str]
) -> list[WordOnBoard]:
    """Crucigrama's CAMBIO: the words through the square after the replacement.

    The new letter must differ (the word must change); each word through the square (two if
    the letter joins two words) becomes the returned word; the dictionary check is separate.
    """
    if variant.cambio_per_game == 0:
        raise IllegalMove("no_cambio", f"{variant.title} has no CAMBIO move")
    old = board[cambio.square]
    where = square_name(cambio.square)
    if old is None:
        raise IllegalMove(
            "cambio_empty_square",
            f"{where} is empty: CAMBIO replaces a letter on the board",
            params={"square": where},
        )
    if old.blank:
        raise IllegalMove(
            "cambio_blank",
            f"{where} holds a blank, whose letter stays for the rest of the game",
            params={"square": where},
        )
    if cambio.tile.letter == old.letter:
        raise IllegalMove(
            "cambio_same_letter",
            f"{where} already holds {old.letter}: the word must change",
            params={"square": where, "letter": old.letter},
        )
    _check_tile_exists(variant, cambio.tile)
    check_rack_has(variant, rack, [cambio.tile.rack_form])
    after = board.copy()
    after[cambio.square] = cambio.tile
    changed = frozenset({cambio.square})
    words = [
        w
        for w in (after.word_through(cambio.square, a, changed) for a in (True, False))
        if len(w) >= 2
    ]
    _check_spelling(variant, words)
    return [
        WordOnBoard(tuple(SquareInWord(s.coord, s.tile, False) for s in w.squares), w.across)
        for w in words
    ]


def check_exchange(
    variant: Variant,
    rack: Iterable[str],
    bag_count: int,
    exchanges_used: int,
    tiles: tuple[str, ...],
) -> None:
    """Every exchange rule that the position alone decides (Intelect's "only when blocked"
    needs the move generator and is the game's to check)."""
    rules = variant.exchange
    if not rules.allowed:
        raise IllegalMove("exchange_not_allowed", f"{variant.title} has no exchanges")
    if len(tiles) > rules.max_tiles:
        raise IllegalMove(
            "exchange_too_many_tiles",
            f"{variant.title} allows exchanging at most {rules.max_tiles} tiles",
            params={"max": rules.max_tiles},
        )
    need = max(rules.min_bag, len(tiles))
    if bag_count < need:
        raise IllegalMove(
            "exchange_bag_too_small",
            f"exchanging needs {need} tiles in the bag; it holds {bag_count}",
            params={"need": need, "bag": bag_count},
        )
    if rules.per_game and exchanges_used >= rules.per_game:
        raise IllegalMove(
            "exchange_limit",
            f"each player may exchange {rules.per_game} times a game; all are used",
            params={"per_game": rules.per_game},
        )
    check_rack_has(variant, rack, tiles)


def check_cambio_limit(variant: Variant, cambios_used: int) -> None:
    if variant.cambio_per_game and cambios_used >= variant.cambio_per_game:
        raise IllegalMove(
            "cambio_limit",
            f"each player may make {variant.cambio_per_game} CAMBIOs a game; all are used",
            params={"per_game": variant.cambio_per_game},
        )


def check_move(position: Position, move: Move, lexicon: Lexicon | None) -> MoveScore | None:
    """Check a move by the player to move in a position and score it.

    Returns the breakdown of a placement or CAMBIO, None for a pass or an exchange. With no
    lexicon, words are not checked. Raises IllegalMove naming the broken rule.
    """
    v = position.variant
    match move:
        case Place():
            chk = check_placement(v, position.board, move, position.rack)
            if lexicon is not None:
                check_words_in_lexicon(chk.words, lexicon)
            return score_placement(v, list(chk.words), len(chk.new_tiles), position.first_turn)
        case Cambio():
            check_cambio_limit(v, position.cambios_used[0])
            words = check_cambio(v, position.board, move, position.rack)
            if lexicon is not None:
                check_words_in_lexicon(words, lexicon)
            return score_cambio(v, words)
        case Exchange():
            check_exchange(
                v, position.rack, position.bag_count(), position.exchanges_used[0], move.tiles
            )
            if v.exchange.only_when_blocked and lexicon is not None and lexicon.can_search:
                from .engine.movegen.reference import has_placement

                if has_placement(v, position.board, position.rack, lexicon):  # type: ignore[arg-type]
                    raise IllegalMove(
                        "exchange_only_when_blocked",
                        f"{v.title} allows an exchange only to a player who cannot form a word",
                    )
            return None
        case Pass():
            return None
    raise IllegalMove(
        "not_a_move", "only placements, exchanges, passes and CAMBIOs are checked here"
    )


def placement_from_squares(board: Board, tiles: Iterable[tuple[Coord, Tile]]) -> Place:
    """A placement from tiles put on squares (as a drag-and-drop interface gives them).

    The tiles must lie in one row or column on empty squares, and together with the tiles
    already between them leave no empty square. The result is written from the first square
    of the whole word, letters on the board marked as such, so it reads like typed notation.
    """
    from .moves import Letter

    placed = dict(tiles)
    if not placed:
        raise IllegalMove("no_new_tiles", "the move places no tile")
    for coord in placed:
        if not board.on_board(coord):
            raise IllegalMove("off_board", f"{coord} is not a square of the board")
        if board[coord] is not None:
            raise IllegalMove(
                "occupied",
                f"{square_name(coord)} already holds a tile",
                params={"square": square_name(coord)},
            )
    rows = {r for r, _ in placed}
    cols = {c for _, c in placed}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMove("not_in_line", "all the tiles of a move go in one row or one column")
    if len(placed) == 1:
        ((r, c),) = placed
        across_word = any(
            board.on_board(n) and board[n] is not None for n in ((r, c - 1), (r, c + 1))
        )
        across = across_word or not any(
            board.on_board(n) and board[n] is not None for n in ((r - 1, c), (r + 1, c))
        )
    else:
        across = len(rows) == 1
    dr, dc = (0, 1) if across else (1, 0)
    first = min(placed)
    last = max(placed)
    after = board.copy()
    for coord, tile in placed.items():
        after[coord] = tile
    r, c = first
    while (r, c) != last:
        r, c = r + dr, c + dc
        if after[(r, c)] is None:
            raise IllegalMove(
                "gap",
                f"{square_name((r, c))} is left empty between the tiles of the move",
                params={"square": square_name((r, c))},
            )
    word = after.word_through(first, across, frozenset(placed))
    letters = tuple(Letter(s.tile, None if s.new else True) for s in word.squares)
    return Place(word.start, across, letters)
