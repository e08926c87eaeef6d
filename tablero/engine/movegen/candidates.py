"""Every move of a position, each with its score, leave and equity, best first.

A player's options are the placements (from the move generator), the exchanges the rules allow
(``ExchangeRules``: tiles in the bag, tiles per exchange, exchanges per game, "only when
blocked"), a pass, and in Crucigrama the CAMBIO replacements. ``candidates()`` lists them all
as ``Candidate`` records with ``kind`` (``place``, ``exchange``, ``pass``, ``cambio``), the
notation, the points, the tiles kept and the equity: points plus what the kept tiles are worth.

The move generator sits behind one seam, ``generator_for``: the native C generator
(``tablero.engine.movegen.native``) when it is built and the lexicon is a word graph, otherwise the
readable reference generator scored by the rules engine. Everything above the seam (bots,
simulation, the ``moves`` command) works the same with either; ``TABLERO_GENERATOR=reference``
forces the reference one.
"""

from __future__ import annotations

import array
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from ...alphabet import Alphabet
from ...board import Board, Tile
from ...lexicon import Lexicon
from ...lexicon.graph import GraphLexicon
from ...lexicon.kwg import ACCEPTS_FLAG, ARC_INDEX_MASK, IS_END_FLAG, TILE_SHIFT
from ...moves import Cambio, Exchange, Letter, Move, Pass, Place, format_move
from ...position import Position
from ...rules import IllegalMove, check_cambio, check_placement, check_words_in_lexicon
from ...scoring import score_cambio, score_placement
from ...variant import BLANK, Variant
from ..evaluation.leaves import Leave, LeaveTable, leave_key, sub_leaves

__all__ = [
    "Candidate",
    "MoveGenerator",
    "PlacementLike",
    "PlainBoard",
    "PlayBoard",
    "ScoredPlacement",
    "candidate_order",
    "candidates",
    "end_leave_value",
    "generator_for",
    "native_available",
    "placement_candidate",
    "score_order",
]


class PlacementLike(Protocol):
    """A generated placement: what both generators return."""

    @property
    def place(self) -> Place: ...
    @property
    def score(self) -> int: ...
    @property
    def leave(self) -> tuple[str, ...]: ...
    @property
    def shuffles_next_rack(self) -> bool: ...


@dataclass(frozen=True)
class ScoredPlacement:
    """A placement from the reference generator, scored by the rules engine."""

    place: Place
    score: int
    leave: tuple[str, ...]
    shuffles_next_rack: bool


class PlayBoard(Protocol):
    """A board a generator reads fast and a playout changes move by move."""

    def copy(self) -> PlayBoard: ...
    def apply(self, move: Place) -> None: ...
    def to_board(self) -> Board: ...
    def set(self, board: Board) -> None: ...


class PlainBoard:
    """A ``Board`` behind the ``PlayBoard`` operations (what the reference generator reads)."""

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def copy(self) -> PlainBoard:
        return PlainBoard(self.board.copy())

    def apply(self, move: Place) -> None:
        r0, c0 = move.start
        for i, letter in enumerate(move.letters):
            if not letter.on_board and letter.tile is not None:
                self.board[(r0, c0 + i) if move.across else (r0 + i, c0)] = letter.tile

    def to_board(self) -> Board:
        return self.board.copy()

    def set(self, board: Board) -> None:
        self.board = board.copy()


class MoveGenerator(Protocol):
    name: str

    def board(self, board: Board) -> PlayBoard:
        """The board in the form this generator reads fastest, for playouts."""
        ...

    def placements(
        self, board: Board | PlayBoard, rack: Sequence[str], first_turn: bool | None = None
    ) -> Sequence[PlacementLike]: ...

    def count(
        self, board: Board | PlayBoard, rack: Sequence[str], first_turn: bool | None = None
    ) -> int:
        """How many placements there are (without building them, where the generator can)."""
        ...

    def best(
        self,
        board: Board | PlayBoard,
        rack: Sequence[str],
        n: int = 1,
        values: dict[Leave, float] | None = None,
        first_turn: bool | None = None,
    ) -> Sequence[PlacementLike]:
        """The n placements of highest score + ``values[leave]`` (leaves in canonical order)."""
        ...


# -- the seam -----------------------------------------------------------------------------------


def native_available() -> bool:
    """Whether the compiled generator can be imported (``pip install`` builds it)."""
    if os.environ.get("TABLERO_GENERATOR") == "reference":
        return False
    try:
        from . import native
    except (ImportError, AssertionError, OSError):  # not built, or built from other sources
        return False
    return hasattr(native, "NativeGenerator")


_GENERATORS: dict[tuple[int, int, str], MoveGenerator] = {}


def generator_for(variant: Variant, lexicon: Lexicon, kind: str | None = None) -> MoveGenerator:
    """The move generator for a game and dictionary: native when it can be, else reference.

    ``kind`` forces ``native`` or ``reference``. Generators are cached per (variant,
    lexicon), since the native one prepares tables once.
    """
    if kind is None:
        kind = "native" if native_available() and isinstance(lexicon, GraphLexicon) else "reference"
    key = (id(variant), id(lexicon), kind)
    gen = _GENERATORS.get(key)
    if gen is None:
        if kind == "native":
            if not isinstance(lexicon, GraphLexicon):
                raise ValueError("the native generator works on a word graph (a .kwg lexicon)")
            gen = _NativeAdapter(variant, lexicon)
        elif kind == "reference":
            gen = ReferenceGenerator(variant, lexicon)
        else:
            raise ValueError(f"generator {kind!r}: native or reference")
        if len(_GENERATORS) >= 64:  # the cache keeps its keys' objects alive: bound it
            _GENERATORS.pop(next(iter(_GENERATORS)))
        _GENERATORS[key] = gen
    return gen


class ReferenceGenerator:
    """The pure-Python generator, each placement scored by ``rules`` + ``scoring``."""

    name = "reference"

    def __init__(self, variant: Variant, lexicon: Lexicon) -> None:
        if not lexicon.can_search:
            raise ValueError("move generation needs a dictionary that can search prefixes")
        self.variant = variant
        self.lexicon = lexicon

    def board(self, board: Board) -> PlainBoard:
        return PlainBoard(board.copy())

    def placements(
        self, board: Board | PlayBoard, rack: Sequence[str], first_turn: bool | None = None
    ) -> list[ScoredPlacement]:
        from .reference import generate_placements

        if isinstance(board, PlainBoard):
            board = board.board
        if not isinstance(board, Board):
            raise TypeError("the reference generator reads a Board")
        v = self.variant
        first = board.is_empty() if first_turn is None else first_turn
        out: list[ScoredPlacement] = []
        for place in generate_placements(v, board, tuple(rack), self.lexicon):  # type: ignore[arg-type]
            chk = check_placement(v, board, place, rack)
            score = score_placement(v, list(chk.words), len(chk.new_tiles), first)
            left = Counter(rack)
            left.subtract(t.rack_form for _, t in chk.new_tiles)
            leave = leave_key(left.elements(), v.alphabet)
            out.append(ScoredPlacement(place, score.total, leave, score.shuffles_next_rack))
        return out

    def count(
        self, board: Board | PlayBoard, rack: Sequence[str], first_turn: bool | None = None
    ) -> int:
        return len(self.placements(board, rack, first_turn))

    def best(
        self,
        board: Board | PlayBoard,
        rack: Sequence[str],
        n: int = 1,
        values: dict[Leave, float] | None = None,
        first_turn: bool | None = None,
    ) -> list[ScoredPlacement]:
        moves = self.placements(board, rack, first_turn)
        table = values or {}
        moves.sort(key=lambda m: (-(m.score + table.get(m.leave, 0.0)), -m.score))
        return moves[:n]


class _NativeAdapter:
    """The C generator behind the same interface (leaves handed over per rack).

    A ``Board`` is copied into a fresh native board on every call rather than into the
    generator's one scratch board: the web server's bots share generators between threads,
    and a scratch board filled by one thread could be read by another.
    """

    name = "native"

    def __init__(self, variant: Variant, lexicon: GraphLexicon) -> None:
        from . import native

        self._native: Any = native
        self._gen: Any = self._native.NativeGenerator(variant, lexicon)
        self.variant = variant

    @property
    def core(self) -> Any:
        """The ``native.NativeGenerator`` itself, for the loops that run in C (simulation)."""
        return self._gen

    def board(self, board: Board) -> PlayBoard:
        result: PlayBoard = self._gen.board(board)
        return result

    def _own(self, board: Board | PlayBoard) -> Any:
        return self._gen.board(board) if isinstance(board, Board) else board

    def placements(
        self, board: Board | PlayBoard, rack: Sequence[str], first_turn: bool | None = None
    ) -> Sequence[PlacementLike]:
        result: Sequence[PlacementLike] = self._gen.placements(
            self._own(board), list(rack), first_turn
        )
        return result

    def count(
        self, board: Board | PlayBoard, rack: Sequence[str], first_turn: bool | None = None
    ) -> int:
        return int(self._gen.count(self._own(board), list(rack), first_turn))

    def best(
        self,
        board: Board | PlayBoard,
        rack: Sequence[str],
        n: int = 1,
        values: dict[Leave, float] | None = None,
        first_turn: bool | None = None,
    ) -> Sequence[PlacementLike]:
        native_values = _RackLeaves(self._native, values, self.variant) if values else None
        result: Sequence[PlacementLike] = self._gen.best(
            self._own(board), list(rack), n=n, leaves=native_values, first_turn=first_turn
        )
        return result


class _RackLeaves:
    """The values of one rack's sub-leaves as the C table ``NativeGenerator.best`` reads.

    Stands in for ``native.LeaveValues`` (it answers ``table(alphabet)``), built straight from
    canonical leaves: a rack has at most 128 of them, so this is cheap enough for every turn.
    """

    def __init__(self, native: Any, values: dict[Leave, float], variant: Variant) -> None:
        codes = _plus_one(variant.alphabet)
        keys = array.array("Q")
        vals = array.array("d")
        for leave, value in values.items():
            key = 0
            for i, t in enumerate(leave):  # canonical leaves are already sorted by code
                key |= codes[t] << (6 * i)
            keys.append(key)
            vals.append(value)
        self._table = native._native.LeaveTable(keys, vals)

    def table(self, alphabet: object) -> Any:
        return self._table


@cache
def _plus_one(alphabet: Alphabet) -> dict[str, int]:
    return {BLANK: 1, **{t: alphabet.code(t) + 1 for t in alphabet.letters}}


# -- candidates ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """One move a player could make, with what it is worth."""

    kind: str
    """place, exchange, pass or cambio"""
    move: Move
    notation: str
    score: int
    leave: Leave
    """The tiles kept on the rack, blanks first then alphabetical."""
    equity: float
    """Score plus the value of the leave (and of the side effects the evaluation counts)."""
    tiles_played: int = 0
    shuffles_next_rack: bool = False
    """A placement covering an EX square (Cuvinte), when the bag lets it shuffle."""

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.notation,
            "kind": self.kind,
            "score": self.score,
            "leave": "".join(f"[{t}]" if len(t) > 1 else t for t in self.leave),
            "equity": round(self.equity, 2),
            "tiles_played": self.tiles_played,
            "shuffles_next_rack": self.shuffles_next_rack,
        }


def placement_candidate(
    p: PlacementLike,
    variant: Variant,
    values: dict[Leave, float] | None,
    end_values: dict[Leave, float] | None = None,
    ex_bonus: float = 0.0,
    ex_fires: bool = True,
) -> Candidate:
    """A generated placement as a candidate, its equity from the rack's leave values."""
    leave = leave_key(p.leave, variant.alphabet)
    table = end_values if end_values is not None else values
    leave_value = table.get(leave, 0.0) if table is not None else 0.0
    played = sum(1 for x in p.place.letters if not x.on_board)
    shuffles = p.shuffles_next_rack and ex_fires
    return Candidate(
        "place",
        _canonical(p.place),
        format_move(p.place),
        p.score,
        leave,
        p.score + leave_value + (ex_bonus if shuffles else 0.0),
        played,
        shuffles,
    )


def _canonical(place: Place) -> Place:
    """Letters on the board marked True, new ones None: how ``format_move`` writes them."""
    return Place(
        place.start,
        place.across,
        tuple(Letter(x.tile, True if x.on_board else None) for x in place.letters),
    )


def candidates(
    position: Position,
    lexicon: Lexicon,
    leaves: LeaveTable | None = None,
    *,
    generator: MoveGenerator | None = None,
    ex_bonus: float = 0.0,
    top: int | None = None,
    include_exchanges: bool = True,
    leave_weight: float = 1.0,
) -> list[Candidate]:
    """Every move of the player to move, best equity first.

    Exchanges are listed as each distinct multiset of tiles returned (up to the game's
    maximum). ``ex_bonus`` is added to placements that shuffle the next player's rack.
    ``top`` keeps only that many placements, found by the generator's best-first search, and
    the four best exchanges (the pass and CAMBIOs are always listed): what a computer player
    needs. ``leave_weight`` scales the leave values (a player who half cares).
    """
    v = position.variant
    rack = tuple(position.rack)
    gen = generator or generator_for(v, lexicon)
    bag = position.bag_count()
    values = leaves.for_rack(rack) if leaves is not None else None
    if values is not None and leave_weight != 1.0:
        values = {k: leave_weight * x for k, x in values.items()}
    end_values = end_leave_values(position) if bag == 0 else None
    table = end_values if end_values is not None else values
    placements: Sequence[PlacementLike] = []
    if rack:
        if top is None:
            placements = gen.placements(position.board, rack, position.first_turn)
        else:
            # EX squares are re-ranked here, so ask for more than needed where the game has them.
            extra = 10 if ex_bonus and _ex_min_bag(v) else 0
            placements = gen.best(position.board, rack, top + extra, table, position.first_turn)
    out: list[Candidate] = []
    ex_min = _ex_min_bag(v)
    for p in placements:
        played = sum(1 for x in p.place.letters if not x.on_board)
        fires = bag - min(bag, played) >= ex_min
        out.append(placement_candidate(p, v, values, end_values, ex_bonus, fires))
    if top is not None:
        out.sort(key=candidate_order)
        del out[top:]
    has_placement = bool(placements) or (
        top is not None and v.exchange.only_when_blocked and _has_any(gen, position)
    )
    if include_exchanges:
        # Exchanges differ only in what they keep: a few of the best stand for them all.
        out.extend(exchange_candidates(position, values, has_placement, top and min(top, 4)))
    out.append(pass_candidate(position, values, end_values))
    out.extend(cambio_candidates(position, lexicon, leaves, end_values, leave_weight))
    out.sort(key=candidate_order)
    return out


def _has_any(gen: MoveGenerator, position: Position) -> bool:
    return bool(gen.best(position.board, position.rack, 1, None, position.first_turn))


def _ex_min_bag(v: Variant) -> int:
    """The bag an EX square needs after the mover drew (0 when the game has no EX square)."""
    mins = [getattr(k, "min_bag", 7) for k in v.squares.values() if k.shuffles_next_rack]
    return min(mins) if mins else 0


_KIND_RANK = {"place": 0, "cambio": 1, "exchange": 2, "pass": 3}


def candidate_order(c: Candidate) -> tuple[float, int, int, int, str]:
    """Best equity first; at equal equity more points, a play before an exchange before a
    pass, and the exchange of more tiles (with no leave values, a stuck player renews all)."""
    returned = len(c.move.tiles) if isinstance(c.move, Exchange) else 0
    return (-c.equity, -c.score, _KIND_RANK[c.kind], -returned, c.notation)


def score_order(c: Candidate) -> tuple[int, int, int, str]:
    """Most points first, whatever is kept (duplicate's top: docs/competition.md); at equal
    points a placement before a CAMBIO before an exchange before a pass, the exchange of
    more tiles first, then the notation as text (Unicode order), so that a tie always
    resolves the same way."""
    returned = len(c.move.tiles) if isinstance(c.move, Exchange) else 0
    return (-c.score, _KIND_RANK[c.kind], -returned, c.notation)


def exchange_allowed(position: Position, has_placement: bool) -> bool:
    """Whether the player to move may exchange at all (any number of tiles)."""
    rules = position.variant.exchange
    return (
        rules.allowed
        and bool(position.rack)
        and position.bag_count() >= max(rules.min_bag, 1)
        and not (rules.per_game and position.exchanges_used[0] >= rules.per_game)
        and not (rules.only_when_blocked and has_placement)
    )


def exchange_candidates(
    position: Position,
    values: dict[Leave, float] | None,
    has_placement: bool,
    top: int | None = None,
) -> list[Candidate]:
    """One candidate per distinct multiset of tiles the rules let the player return (only
    the ``top`` best kept leaves when given: a rack has up to 127 exchanges)."""
    if not exchange_allowed(position, has_placement):
        return []
    v = position.variant
    rack = leave_key(position.rack, v.alphabet)
    bag = position.bag_count()
    limit = min(v.exchange.max_tiles, bag, len(rack))
    kept_options = [k for k in sub_leaves(rack, v.alphabet) if 1 <= len(rack) - len(k) <= limit]
    table = values or {}
    if top is not None:
        kept_options.sort(key=lambda k: -table.get(k, 0.0))
        del kept_options[top:]
    out = []
    for kept in kept_options:
        returned = Counter(rack)
        returned.subtract(kept)
        move = Exchange(leave_key(returned.elements(), v.alphabet))
        out.append(Candidate("exchange", move, format_move(move), 0, kept, table.get(kept, 0.0)))
    return out


def pass_candidate(
    position: Position,
    values: dict[Leave, float] | None,
    end_values: dict[Leave, float] | None = None,
) -> Candidate:
    """A pass keeps the whole rack and scores nothing, so its equity is the rack's value
    (estimated: tables stop a tile short of a rack), or its cost once the bag is empty.

    On an empty board, passing the opening lets the opponent open for us (Letras Top allows
    it on purpose): the rack is kept for the board the opponent opens, and the opening bonus is
    handed over. Once one player has passed it, the next does not pass it back. A game whose
    first turn is multiplied would give that away too, so there the opening is never passed.
    """
    v = position.variant
    rack = leave_key(position.rack, v.alphabet)
    value = 0.0
    if end_values is not None:
        value = end_values.get(rack, 0.0)
    elif values is not None:
        value = values.get(rack, 0.0)
        if position.first_turn:
            if position.scoreless_turns == 0 and v.first_move.multiplier == 1:
                value -= v.first_move.bonus
            else:
                value = min(value, 0.0) - 1000.0  # open now
    return Candidate("pass", Pass(), "-", 0, rack, value)


def cambio_candidates(
    position: Position,
    lexicon: Lexicon,
    leaves: LeaveTable | None,
    end_values: dict[Leave, float] | None = None,
    leave_weight: float = 1.0,
) -> list[Candidate]:
    """Crucigrama's CAMBIO: each letter on the board replaced by one from the rack (a blank
    as any letter) so that every word through the square stays a word.

    Words are checked as tile codes against the dictionary, so a replacement that would spell
    a digraph with two tiles (C then H for CH) is never a word; the score is the plain face
    values of those words, as ``scoring.score_cambio`` counts them. (Tests compare every
    candidate with ``Game.check``.)
    """
    v = position.variant
    if not v.cambio_per_game or position.cambios_used[0] >= v.cambio_per_game:
        return []
    rack = tuple(position.rack)
    if not rack:
        return []
    board = position.board
    if not lexicon.can_search:
        return _checked_cambios(position, lexicon, leaves, end_values)
    options: list[Tile] = sorted({Tile(t) for t in rack if t != BLANK})
    if BLANK in rack:
        options += [Tile(letter, True) for letter in v.letters()]
    code = _code_of(v.alphabet)
    wanted = {code[t.letter] for t in options}
    rows, cols = board.rows, board.columns
    grid = [board.row(r) for r in range(rows)]
    out: list[Candidate] = []
    for (r, c), old in board.tiles():
        if old.blank:
            continue
        runs: list[tuple[bytes, bytes]] = []
        base = 0
        for dr, dc in ((0, 1), (1, 0)):
            before: list[Tile] = []
            rr, cc = r - dr, c - dc
            while 0 <= rr < rows and 0 <= cc < cols and (t := grid[rr][cc]) is not None:
                before.append(t)
                rr, cc = rr - dr, cc - dc
            before.reverse()
            after: list[Tile] = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < rows and 0 <= cc < cols and (t := grid[rr][cc]) is not None:
                after.append(t)
                rr, cc = rr + dr, cc + dc
            if before or after:
                runs.append(
                    (bytes(code[t.letter] for t in before), bytes(code[t.letter] for t in after))
                )
                base += sum(0 if t.blank else v.value(t.letter) for t in (*before, *after))
        if not runs:
            continue
        fits = set(wanted)
        for before_codes, after_codes in runs:
            fits &= _fitting(lexicon, before_codes, after_codes, fits)
        for tile in options:
            if tile.letter == old.letter or code[tile.letter] not in fits:
                continue
            move = Cambio((r, c), tile)
            score = base + len(runs) * (0 if tile.blank else v.value(tile.letter))
            kept = Counter(rack)
            kept[tile.rack_form] -= 1
            kept[old.letter] += 1
            leave = leave_key(kept.elements(), v.alphabet)
            if end_values is not None:
                value = _end_value(position, leave)
            else:
                value = leave_weight * leaves.value(leave) if leaves is not None else 0.0
            out.append(Candidate("cambio", move, format_move(move), score, leave, score + value))
    return out


@cache
def _code_of(alphabet: Alphabet) -> dict[str, int]:
    return {letter: alphabet.code(letter) for letter in alphabet.letters}


def _checked_cambios(
    position: Position,
    lexicon: Lexicon,
    leaves: LeaveTable | None,
    end_values: dict[Leave, float] | None,
) -> list[Candidate]:
    """Without a searchable dictionary: every replacement the board and rack rules allow."""
    v = position.variant
    rack = tuple(position.rack)
    options: list[Tile] = sorted({Tile(t) for t in rack if t != BLANK})
    if BLANK in rack:
        options += [Tile(letter, True) for letter in v.letters()]
    out: list[Candidate] = []
    for coord, old in position.board.tiles():
        for tile in options:
            move = Cambio(coord, tile)
            try:
                words = check_cambio(v, position.board, move, rack)
                check_words_in_lexicon(words, lexicon)
            except IllegalMove:
                continue
            if not words:
                continue
            score = score_cambio(v, words).total
            kept = Counter(rack)
            kept[tile.rack_form] -= 1
            kept[old.letter] += 1
            leave = leave_key(kept.elements(), v.alphabet)
            value = leaves.value(leave) if leaves is not None else 0.0
            if end_values is not None:
                value = _end_value(position, leave)
            out.append(Candidate("cambio", move, format_move(move), score, leave, score + value))
    return out


def _fitting(lexicon: Lexicon, before: bytes, after: bytes, among: set[int]) -> set[int]:
    """The tile codes x (of ``among``) for which before + x + after is a word.

    Over a word graph this is one walk: down ``before``, one scan of the next sibling list,
    then ``after`` from each candidate letter (the cross-set computation of move generators),
    reading the node array directly.
    """
    if not among:
        return set()
    if isinstance(lexicon, GraphLexicon):
        nodes = lexicon.kwg.nodes
        p = lexicon.kwg.dawg_root
        for t in before:
            p = _child(nodes, p, t)
            if not p:
                return set()
            p = nodes[p] & ARC_INDEX_MASK
        out = set()
        while p:
            node = nodes[p]
            x = node >> TILE_SHIFT
            if x in among:
                q = p
                for t in after:
                    q = _child(nodes, nodes[q] & ARC_INDEX_MASK, t)
                    if not q:
                        break
                if q and nodes[q] & ACCEPTS_FLAG:
                    out.add(x)
            if node & IS_END_FLAG:
                break
            p += 1
        return out
    is_word = getattr(lexicon, "is_word", None)
    if is_word is None:  # pragma: no cover - searchable lexicons have is_word
        return set(among)
    return {x for x in among if is_word(before + bytes([x]) + after)}


def _child(nodes: Sequence[int], p: int, tile: int) -> int:
    """The node for ``tile`` in the sibling list at ``p`` (0 if none)."""
    while p:
        node = nodes[p]
        if node >> TILE_SHIFT == tile:
            return p
        if node & IS_END_FLAG:
            return 0
        p += 1
    return 0


# -- the end of the game ------------------------------------------------------------------------


def end_leave_values(position: Position) -> dict[Leave, float]:
    """With the bag empty, tiles kept are no asset but a debt: each sub-leave of the rack valued
    by what it costs at the end (see ``end_leave_value``)."""
    v = position.variant
    others = _opponents_tiles(position)
    return {
        leave: end_leave_value(v, leave, others) for leave in sub_leaves(position.rack, v.alphabet)
    }


def _end_value(position: Position, leave: Leave) -> float:
    return end_leave_value(position.variant, leave, _opponents_tiles(position))


def _opponents_tiles(position: Position) -> list[str]:
    known = [t for rack in position.racks[1:] for t in rack]
    return known if known else list(position.unseen().elements())


def end_leave_value(variant: Variant, leave: Sequence[str], others: Sequence[str]) -> float:
    """A static estimate, once the bag is empty, of keeping ``leave`` when the others hold
    ``others``: going out ends the game (the others lose, and may pay us, their tiles); a kept
    tile costs its value (twice where the one who goes out gains it) plus a tempo penalty; a
    kept blank costs the game's unplayed-blank penalty."""
    end = variant.end
    others_value = sum(variant.value(t) for t in others)
    if not leave:
        gain = (1 if end.going_out_gains_others else 0) + (1 if end.subtract_own_rack else 0)
        blanks = sum(1 for t in others if t == BLANK) * end.unplayed_blank_penalty
        return float(gain * others_value + blanks)
    kept = sum(variant.value(t) for t in leave)
    factor = (1 if end.subtract_own_rack else 0) + (1 if end.going_out_gains_others else 0)
    blanks = sum(1 for t in leave if t == BLANK) * end.unplayed_blank_penalty
    return -float(10 + factor * kept + blanks)
