"""The native (C) move generator: every legal placement, exactly scored, fast.

The C core (``tablero/engine/movegen/native/``, compiled into
``tablero.engine.movegen._native`` by the package's build) walks the GADDAG half of the KWG
word graph over flat arrays and scores while it places tiles; ``docs/movegen.md`` describes
it. This module is its typed face:

* ``NativeGenerator(variant, lexicon)`` converts a game's rules and a ``GraphLexicon``'s graph
  once; then ``placements()`` lists every legal placement (the same set, with the same scores,
  as ``reference.generate_placements`` + ``scoring.score_placement``), ``count()`` counts them
  without building Python objects, and ``best()`` finds the n best by equity (score + leave
  value) with per-anchor upper bounds, skipping the anchors that cannot beat the n-th best.
* ``selfplay()`` plays whole games of static best-equity play in C, for statistics.
* ``simulate()`` plays candidate moves out a few plies against random draws of the unseen
  tiles, in C, with the same draw for every candidate of an iteration (``NativeSimResult``).
* ``LeaveValues`` holds leave values (a multiset of kept tiles → points) for ``best()``.
* ``NativeBoard`` is a board held in C (tiles, cross-sets, anchors) that a move updates
  incrementally: what game loops and playouts use instead of re-reading a ``Board``.

Every call accepts a ``Board`` (converted on each call) or a ``NativeBoard`` (no conversion).
A generator holds a scratch board for ``Board`` arguments: share one across threads only
under a lock (the C calls hold the GIL, so that is the default).
"""

from __future__ import annotations

import array
import math
import os
import struct
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple, TypeVar

from ...alphabet import Alphabet
from ...board import Board, Tile
from ...lexicon.graph import GraphLexicon
from ...moves import Cambio, Exchange, Letter, Pass, Place
from ...variant import BLANK, Coord, Variant
from ..evaluation.leaves import LeaveTable
from . import _native

__all__ = [
    "GeneratedPlacement",
    "LearnedLeaveValues",
    "LeaveValues",
    "NativeBoard",
    "NativeCambio",
    "NativeEndgame",
    "NativeGameResult",
    "NativeGenerator",
    "NativeRecord",
    "NativeSimResult",
    "NativeTurn",
    "SimCandidate",
    "learned_leave_values",
    "leave_table_key",
]

_Frozen = TypeVar("_Frozen")
_BLANK_FLAG = 0x80
_RECORD = struct.Struct("<6B2xid32s")
assert _RECORD.size == _native.RECORD_SIZE


@dataclass(frozen=True)
class GeneratedPlacement:
    """One legal placement with its exact score, as the generator found it."""

    place: Place
    """Shaped as ``reference.generate_placements`` yields it: the whole main word from its
    first square, letters on the board marked ``on_board=True``, new ones ``False``."""
    score: int
    leave: tuple[str, ...]
    """The rack tiles kept, in rack order; a blank is ``?``."""
    shuffles_next_rack: bool
    """The move covers an EX square (Cuvinte): the next player's rack may be shuffled."""
    equity: float
    """Score plus the leave's value (just the score when no leave values were given)."""


SimCandidate = GeneratedPlacement | Place | Exchange | Pass
"""What ``NativeGenerator.simulate`` can play out: a placement (generated, or a ``Place``
that is legal for the rack), an exchange of some rack tiles, or a pass."""


@dataclass(frozen=True)
class NativeSimResult:
    """How one candidate fared in ``NativeGenerator.simulate``."""

    candidate: GeneratedPlacement | Exchange | Pass
    """The candidate; a ``Place`` given in is returned as the ``GeneratedPlacement`` it is."""
    mean: float
    """Mean playout value: the mover's points minus the opponents' (their mean at a bigger
    table) over the plies, plus the leave value of the mover's last rack."""
    sd: float
    """Sample standard deviation of the playout values (0.0 with fewer than 2)."""
    iterations: int
    values: array.array[float] | None = None
    """With ``per_deal``: each playout's value, deal by deal (the same deals for every
    candidate of the call, so two candidates' values may be compared deal by deal)."""
    unseen_end: bytes | None = None
    """With ``per_deal``: the tiles the mover could not see at each playout's end (the bag
    and the opponents' racks), or 255 where the game ended in it."""

    @property
    def stderr(self) -> float:
        """Standard error of ``mean`` (inf with fewer than 2 iterations). Candidates share
        their draws, so the error of a *difference* of two means is usually much smaller."""
        return self.sd / math.sqrt(self.iterations) if self.iterations > 1 else math.inf


@dataclass(frozen=True)
class NativeCambio:
    """A CAMBIO in an endgame line: the move, its points and the letter it takes back."""

    move: Cambio
    score: int
    taken: str
    """The letter that was on the square, now on the mover's rack."""


@dataclass(frozen=True)
class NativeEndgame:
    """What ``NativeGenerator.endgame`` found (the search of docs/endgame.md, run in C)."""

    found: bool
    """At least one pass of the deepening finished within the budget (else ``line`` holds
    only the first option in the search's order: going out, else the most points)."""
    exact: bool
    """The deepest finished pass saw every line to the end of the game, with every move."""
    depth: int
    """Plies of the deepest finished pass."""
    value: float
    """For the side to move: its points minus the other's from now to the end of the game,
    adjustments included (a half point where the horizon was guessed)."""
    nodes: int
    line: tuple[GeneratedPlacement | NativeCambio | Pass, ...]
    """The best move, then each side's best reply as the search's table remembers them."""


_EG_PLACE = 0


_CAND_PLACE, _CAND_EXCHANGE, _CAND_PASS = 0, 1, 2


# The word map (docs/movegen.md §13) costs about 0.4 s to build and saves 25-50 µs of each
# ranked search: a generator builds it once it has been asked for about as many searches as
# pay for it (the rule that never loses more than twice what knowing the future would).
WORDMAP_AFTER = 10_000
SEARCHES_A_GAME = 30  # a self-play game's ranked searches, about (for WORDMAP_AFTER)


def wordmap_setting() -> bool | None:
    """The word map's default from the environment, ``TABLERO_WORDMAP``: ``on`` builds it with
    every generator (no first searches without it: a server that plays bots), ``off`` never
    (the least memory), ``auto`` or unset after ``WORDMAP_AFTER`` searches."""
    value = os.environ.get("TABLERO_WORDMAP", "auto").strip().lower()
    if value in ("", "auto"):
        return None
    if value in ("on", "1", "true", "yes"):
        return True
    if value in ("off", "0", "false", "no"):
        return False
    raise ValueError(f"TABLERO_WORDMAP={value!r}: on, off or auto")


_END_REASONS = ("going_out", "scoreless_rounds", "no_one_can_play", "turn_limit")


@dataclass(frozen=True)
class NativeGameResult:
    """One game of static self-play played in C (``NativeGenerator.selfplay``)."""

    first: int
    """The seat that moved first."""
    reason: str
    """How it ended: going_out, scoreless_rounds, no_one_can_play (or turn_limit: a bug)."""
    turns: int
    went_out: int | None
    scores: tuple[int, ...]
    """Final scores by seat, after the end-of-game adjustments."""
    scores_before_adjustments: tuple[int, ...]
    moves: tuple[int, ...]
    bingos: tuple[int, ...]
    exchanges: tuple[int, ...]
    passes: tuple[int, ...]
    shuffled: tuple[int, ...]
    """Times each seat's rack was shuffled by an opponent's EX move."""
    tiles_left: tuple[int, ...]


@dataclass(frozen=True)
class NativeTurn:
    """One turn of a native self-play game (``NativeGenerator.selfplay_turns``)."""

    seat: int
    kind: str
    """place, exchange or pass"""
    rack: tuple[str, ...]
    """The mover's rack before the turn, sorted by tile code (blanks first)."""
    bag: int
    """Tiles in the bag before the turn."""
    board: Board
    """The board before the turn (a copy)."""
    placement: GeneratedPlacement | None
    kept: tuple[str, ...] | None
    """For an exchange, the tiles kept."""


class NativeRecord(NamedTuple):
    """One turn of a native self-play game as a leave learner sees it
    (``NativeGenerator.selfplay_records``)."""

    seat: int
    kind: str
    """place, exchange or pass"""
    leave: tuple[str, ...]
    """What the mover kept, sorted by tile code (blanks first): a pass keeps the whole rack."""
    score: int
    bag_before: int
    tiles_played: int
    """Tiles put on the board (0 for an exchange or a pass)."""


def leave_table_key(codes: Sequence[int]) -> int:
    """The C table's key of a multiset of rack codes (blank = 0): the codes sorted ascending,
    each as code + 1 in six bits, the first lowest. Mirrors ``tb_leave_key`` in movegen.h."""
    key = 0
    for i, code in enumerate(sorted(codes)):
        key |= (code + 1) << (6 * i)
    return key


class LeaveValues:
    """Leave values for equity: what keeping a multiset of tiles is worth, in points.

    Built from ``{leave: value}`` where a leave is a tuple of tiles as on a rack (``?`` for a
    blank, digraphs as ``CH``); order inside a tuple does not matter. A leave not in the table
    is worth 0.0. The C table (a hash of 64-bit multiset keys) is built on first use for an
    alphabet and kept, so build one ``LeaveValues`` and reuse it across calls.
    """

    def __init__(self, values: Mapping[tuple[str, ...], float]) -> None:
        normal: dict[tuple[str, ...], float] = {}
        for leave, value in values.items():
            if not isinstance(leave, tuple) or not all(isinstance(t, str) for t in leave):
                raise ValueError(f"a leave is a tuple of tiles, got {leave!r}")
            if len(leave) > _native.MAX_RACK:
                raise ValueError(f"leave {leave!r}: at most {_native.MAX_RACK} tiles")
            key = tuple(sorted(leave))
            v = float(value)
            if key in normal and normal[key] != v:
                raise ValueError(f"leave {key!r} is given twice with different values")
            normal[key] = v
        self._values = normal
        self._tables: dict[str, _native.LeaveTable] = {}

    def __len__(self) -> int:
        return len(self._values)

    def value(self, leave: Sequence[str]) -> float:
        """The value of a leave (any order), 0.0 if the table does not have it."""
        return self._values.get(tuple(sorted(leave)), 0.0)

    def table(self, alphabet: Alphabet) -> _native.LeaveTable:
        """The C table for an alphabet's tile codes (built once, then cached)."""
        table = self._tables.get(alphabet.name)
        if table is None:
            keys: array.array[int] = array.array("Q")
            vals: array.array[float] = array.array("d")
            for leave, value in self._values.items():
                try:
                    codes = [0 if t == BLANK else alphabet.code(t) for t in leave]
                except ValueError as e:
                    raise ValueError(f"leave {leave!r}: {e}") from None
                keys.append(leave_table_key(codes))
                vals.append(value)
            table = _native.LeaveTable(keys, vals)
            self._tables[alphabet.name] = table
        return table


class LearnedLeaveValues(LeaveValues):
    """A learned ``LeaveTable`` (a KLV file, a million leaves) as the C table, without the
    dictionary of tuples ``LeaveValues`` keeps: the keys come straight from the KLV's sorted
    tile codes. Building the C table walks every leave once, in C (``_native.leave_keys``), so
    get one through ``learned_leave_values``, which keeps it."""

    def __init__(self, learned: LeaveTable) -> None:
        self._learned = learned
        self._values = {}
        self._tables = {}

    def __len__(self) -> int:
        return len(self._learned)

    def value(self, leave: Sequence[str]) -> float:
        return self._learned.value(leave)

    def table(self, alphabet: Alphabet) -> _native.LeaveTable:
        if alphabet.name != self._learned.alphabet.name:
            raise ValueError(
                f"these leave values are for {self._learned.alphabet.name}, not {alphabet.name}"
            )
        table = self._tables.get(alphabet.name)
        if table is None:
            kwg = self._learned.kwg  # its leaves are tile codes, the blank 0
            keys = array.array("Q")
            keys.frombytes(_native.leave_keys(kwg.nodes, kwg.dawg_root))
            values = array.array("d", self._learned.raw_values())
            table = _native.LeaveTable(keys, values)
            self._tables[alphabet.name] = table
        return table


@lru_cache(maxsize=16)
def learned_leave_values(learned: LeaveTable) -> LearnedLeaveValues:
    """The C form of a learned table, built once per table and kept."""
    values = LearnedLeaveValues(learned)
    values.table(learned.alphabet)
    return values


class NativeBoard:
    """A board held in C with its cross-sets and anchors, updated incrementally by moves.

    Made by ``NativeGenerator.board()``; used for game loops and playouts, where converting a
    ``Board`` on every call would cost more than generating.
    """

    __slots__ = ("_c", "generator")

    def __init__(self, generator: NativeGenerator, c_board: _native.Board) -> None:
        self.generator = generator
        self._c = c_board

    @property
    def is_empty(self) -> bool:
        return self._c.n_tiles == 0

    @property
    def tile_count(self) -> int:
        return self._c.n_tiles

    def copy(self) -> NativeBoard:
        """An independent copy (a memory copy in C): branch a playout from it."""
        return NativeBoard(self.generator, self._c.copy())

    def set(self, board: Board) -> None:
        """Replace every tile with those of a ``Board`` (cross-sets recomputed)."""
        self._c.set_tiles(self.generator.encode_board(board))

    def apply(self, move: GeneratedPlacement | Place) -> None:
        """Put a placement's new tiles on the board; cross-sets and anchors follow.

        The placement must fit this board: new tiles on empty squares, letters written as
        on the board where they say ``on_board`` (checked; a ValueError changes nothing).
        It is not checked against the dictionary: apply only generated or checked moves.
        """
        place = move.place if isinstance(move, GeneratedPlacement) else move
        g = self.generator
        rows, cols = g.variant.rows, g.variant.columns
        current = self._c.tiles()
        r0, c0 = place.start
        tiles = bytearray()
        for i, letter in enumerate(place.letters):
            r, c = (r0, c0 + i) if place.across else (r0 + i, c0)
            if not (0 <= r < rows and 0 <= c < cols):
                raise ValueError("the placement runs off the board")
            here = current[r * cols + c]
            if letter.on_board:
                if not here:
                    raise ValueError(f"square {(r, c)} is empty but marked on the board")
                if letter.tile is not None and g.tile_byte(letter.tile) & 0x7F != here & 0x7F:
                    raise ValueError(f"square {(r, c)} holds another letter")
                tiles.append(0)
            else:
                if letter.tile is None:
                    raise ValueError("a new tile needs a letter")
                if here:
                    raise ValueError(f"square {(r, c)} is occupied")
                tiles.append(g.tile_byte(letter.tile))
        if not any(tiles):
            raise ValueError("the placement puts down no tile")
        line, start = (r0, c0) if place.across else (c0, r0)
        self._c.apply(0 if place.across else 1, line, start, bytes(tiles))

    def apply_encoded(self, encoded: tuple[int, int, int, bytes]) -> None:
        """Put down a placement the generator made for this very position, in the form
        ``NativeGenerator.encoded_place`` gives, as a search does over and over: not checked.
        Anything else goes through ``apply``."""
        self._c.apply(*encoded)

    def anchors(self) -> frozenset[Coord]:
        """The anchor squares: where a move must put a tile (next to a tile, or a start
        square on an empty board)."""
        cols = self.generator.variant.columns
        return frozenset((i // cols, i % cols) for i, a in enumerate(self._c.anchors()) if a)

    def cross_set(self, square: Coord, across: bool) -> tuple[frozenset[str], int, int, bool]:
        """What the C core knows of an empty square for a move in one direction: the letters
        allowed there (cross-set), the cross word's score without the new tile, how many
        times the new tile's face value counts in it, and whether a cross word is formed."""
        r, c = square
        mask, base, factor, formed = self._c.cross_set(0 if across else 1, r, c)
        g = self.generator
        letters = frozenset(g.tile_of(code).letter for code in range(1, 32) if mask >> code & 1)
        return letters, base, factor, formed

    def extension_set(self, square: Coord, across: bool) -> frozenset[str]:
        """The letters the tiles beside an empty square in the move's own line allow there:
        those x for which the run of tiles before it, x and the run after it are consecutive
        letters of some word (every letter where no tile adjoins; none on a taken square).
        The search places a tile only where it is in both this set and the cross-set."""
        r, c = square
        mask = self._c.extension_set(0 if across else 1, r, c)
        g = self.generator
        return frozenset(g.tile_of(code).letter for code in range(1, 32) if mask >> code & 1)

    def to_board(self) -> Board:
        """The tiles as a ``Board``."""
        g = self.generator
        board = Board(g.variant.rows, g.variant.columns)
        raw = self._c.tiles()
        cols = g.variant.columns
        for i, t in enumerate(raw):
            if t:
                board[(i // cols, i % cols)] = g.tile_of(t)
        return board


class NativeGenerator:
    """Every legal placement for a rack in a position, generated in C.

    Converts the variant (square premiums by kind, tile values, start squares, first-move
    rules, bingo) and the lexicon's KWG once. Needs a ``GraphLexicon`` (a KWG with its GADDAG)
    in the variant's alphabet.
    """

    def __init__(
        self, variant: Variant, lexicon: GraphLexicon, *, wordmap: bool | None = None
    ) -> None:
        if lexicon.alphabet.name != variant.alphabet.name:
            raise ValueError(
                f"the lexicon is {lexicon.alphabet.name}; {variant.title} is played in "
                f"{variant.alphabet.name}"
            )
        kwg = lexicon.kwg
        if not kwg.has_gaddag or kwg.gaddag_root == 0:
            raise ValueError("the lexicon's word graph has no GADDAG: rebuild it with one")
        if variant.rows > _native.MAX_DIM or variant.columns > _native.MAX_DIM:
            raise ValueError(f"the native generator handles boards up to {_native.MAX_DIM} a side")
        if variant.rack_size > _native.MAX_RACK:
            raise ValueError(f"the native generator handles racks up to {_native.MAX_RACK} tiles")
        alphabet = variant.alphabet
        if len(alphabet.letters) > _native.MAX_CODE:
            raise ValueError(f"the native generator handles up to {_native.MAX_CODE} letters")
        self.variant = variant
        self.lexicon = lexicon
        self.alphabet = alphabet
        self._letters = variant.letters()
        letters_mask = 0
        values = array.array("h", [0] * (_native.MAX_CODE + 1))
        for letter in self._letters:
            code = alphabet.code(letter)
            letters_mask |= 1 << code
            values[code] = _int16(variant.value(letter), f"value of {letter}")
        n = variant.rows * variant.columns
        lf = array.array("h", [1] * n)
        wmid = array.array("h", [1] * n)
        wend = array.array("h", [1] * n)
        add = array.array("h", [0] * n)
        ex = bytearray(n)
        start = bytearray(n)
        for r in range(variant.rows):
            for c in range(variant.columns):
                i = r * variant.columns + c
                kind = variant.square_kind((r, c))
                f_mid, a_mid = kind.word_effect(False)
                f_end, a_end = kind.word_effect(True)
                if a_mid != a_end or f_mid < 1 or f_end % f_mid:
                    raise ValueError(
                        f"square kind {kind.code!r}: the native generator needs the same addend "
                        "at a word's end and a word-end factor that is a multiple of the other"
                    )
                lf[i] = _int16(kind.letter_factor(), f"letter factor of {kind.code}")
                wmid[i] = _int16(f_mid, f"word factor of {kind.code}")
                wend[i] = _int16(f_end // f_mid, f"word-end factor of {kind.code}")
                add[i] = _int16(a_mid, f"addend of {kind.code}")
                ex[i] = kind.shuffles_next_rack
        for r, c in variant.start_squares:
            start[r * variant.columns + c] = 1
        rule = variant.first_move
        self._gen = _native.Generator(
            nodes=kwg.nodes,
            rows=variant.rows,
            cols=variant.columns,
            letters=letters_mask,
            values=values,
            lf=lf,
            wmid=wmid,
            wend=wend,
            add=add,
            ex=bytes(ex),
            start=bytes(start),
            rack_size=variant.rack_size,
            bingo_bonus=variant.bingo_bonus,
            first_letter=rule.anchor == "first_letter",
            min_tiles=rule.min_tiles,
            first_mult=rule.multiplier,
            first_bonus=rule.bonus,
        )
        self._wordmap = wordmap if wordmap is not None else wordmap_setting()
        self._searches = 0
        if self._wordmap:
            self.use_wordmap(True)
        self._scratch = self._gen.new_board()
        self._game_set = False
        # every tile of the game by its rack code: a search encodes its rack first
        self._rack_codes = {
            tile: 0 if tile == BLANK else alphabet.code(tile) for tile in variant.tiles
        }

    def encoded_place(self, place: Place) -> tuple[int, int, int, bytes]:
        """A placement as the C core applies it (``NativeBoard.apply_encoded``): direction,
        line, first square, and each square's new tile byte (0 where the board's tile stays)."""
        tiles = bytes(
            0 if letter.on_board or letter.tile is None else self.tile_byte(letter.tile)
            for letter in place.letters
        )
        r0, c0 = place.start
        line, start = (r0, c0) if place.across else (c0, r0)
        return (0 if place.across else 1, line, start, tiles)

    # -- tiles ------------------------------------------------------------------------------

    def tile_byte(self, tile: Tile) -> int:
        """A tile as the C core writes it: the letter's code, | 0x80 for a blank."""
        if tile.letter not in self.variant.tiles or tile.letter == BLANK:
            raise ValueError(f"{self.variant.title} has no {tile.letter} tile")
        return self.alphabet.code(tile.letter) | (_BLANK_FLAG if tile.blank else 0)

    def tile_of(self, byte: int) -> Tile:
        return self._tiles[byte]

    @cached_property
    def _tiles(self) -> dict[int, Tile]:
        out: dict[int, Tile] = {}
        for letter in self._letters:
            code = self.alphabet.code(letter)
            out[code] = Tile(letter)
            out[code | _BLANK_FLAG] = Tile(letter, True)
        return out

    @cached_property
    def _tile_bytes(self) -> dict[Tile, int]:
        return {t: b for b, t in self._tiles.items()}

    @cached_property
    def _new_letters(self) -> dict[int, Letter]:
        return {b: Letter(t, False) for b, t in self._tiles.items()}

    @cached_property
    def _board_letters(self) -> dict[int, Letter]:
        return {b: Letter(t, True) for b, t in self._tiles.items()}

    @cached_property
    def _rack_forms(self) -> dict[int, str]:
        return {b: BLANK if b & _BLANK_FLAG else t.letter for b, t in self._tiles.items()}

    def encode_board(self, board: Board) -> bytes:
        """A ``Board``'s tiles as row-major tile bytes (0 = empty)."""
        if (board.rows, board.columns) != (self.variant.rows, self.variant.columns):
            raise ValueError(
                f"a {board.rows}×{board.columns} board; {self.variant.title} is "
                f"{self.variant.rows}×{self.variant.columns}"
            )
        out = bytearray(board.rows * board.columns)
        cols = board.columns
        known = self._tile_bytes
        for (r, c), tile in board.tiles():
            byte = known.get(tile)
            out[r * cols + c] = self.tile_byte(tile) if byte is None else byte
        return bytes(out)

    def encode_rack(self, rack: Sequence[str]) -> bytes:
        """A rack as 64 tile counts by code (index 0 = blanks); ValueError for a tile the game
        does not have or a rack larger than the C core takes."""
        if isinstance(rack, str):
            raise ValueError("a rack is a sequence of tiles, e.g. ['C', 'A', '?'], not a string")
        counts = bytearray(_native.MAX_CODE + 1)
        codes = self._rack_codes
        for t in rack:
            code = codes.get(t)
            if code is None:
                raise ValueError(f"{t!r} is not a tile of {self.variant.title}")
            counts[code] += 1
        if len(rack) > _native.MAX_RACK:
            raise ValueError(f"a rack of {len(rack)} tiles; at most {_native.MAX_RACK}")
        return bytes(counts)

    # -- boards -----------------------------------------------------------------------------

    def board(self, board: Board | None = None) -> NativeBoard:
        """A native board: empty, or holding the tiles of ``board``."""
        nb = NativeBoard(self, self._gen.new_board())
        if board is not None:
            nb.set(board)
        return nb

    def _c_board(self, board: Board | NativeBoard) -> _native.Board:
        if isinstance(board, NativeBoard):
            if board.generator is not self:
                raise ValueError("this NativeBoard belongs to another generator")
            return board._c
        self._scratch.set_tiles(self.encode_board(board))
        return self._scratch

    def _first(self, c_board: _native.Board, first_turn: bool | None) -> bool:
        return c_board.n_tiles == 0 if first_turn is None else first_turn

    # -- generation -------------------------------------------------------------------------

    def placements(
        self,
        board: Board | NativeBoard,
        rack: Sequence[str],
        first_turn: bool | None = None,
        leaves: LeaveValues | None = None,
    ) -> list[GeneratedPlacement]:
        """Every legal placement, in board order (across lines first, then down).

        ``first_turn`` (default: the board is empty) scores with the first turn's multiplier
        and bonus; the first move's geometry (start squares, fewest tiles) applies whenever
        the board is empty. With ``leaves``, ``equity`` is score + leave value.
        """
        counts = self.encode_rack(rack)
        cb = self._c_board(board)
        raw = self._gen.generate(cb, counts, self._first(cb, first_turn))
        return list(self._decode(raw, cb.tiles(), rack, leaves))

    def count(
        self, board: Board | NativeBoard, rack: Sequence[str], first_turn: bool | None = None
    ) -> int:
        """How many placements ``placements()`` would list, found and scored in C only."""
        return self.count_and_score_sum(board, rack, first_turn)[0]

    def count_and_score_sum(
        self, board: Board | NativeBoard, rack: Sequence[str], first_turn: bool | None = None
    ) -> tuple[int, int]:
        """(number of placements, sum of their scores): a cheap checksum of a whole list."""
        counts = self.encode_rack(rack)
        cb = self._c_board(board)
        n, total = self._gen.count(cb, counts, self._first(cb, first_turn))
        return n, total

    def use_wordmap(self, on: bool = True) -> bool:
        """Let the ranked searches (``best``, self-play, simulation) find words by the word map
        (docs/movegen.md §13), or go back to the GADDAG walk; both give the same answers.
        The map is built the first time (about 0.5 s and 59 MB for the Spanish list) and
        kept. Returns whether the map is in use (False if it could not be built).

        By default (``wordmap=None`` when the generator was made, and ``TABLERO_WORDMAP``
        unset) it is built once the generator has been asked for about ``WORDMAP_AFTER``
        ranked searches, about what it saves; ``wordmap=True`` builds it at once, ``False``
        never (a one-off ``tablero moves`` keeps its quick start and small memory)."""
        used: bool = self._gen.use_wordmap(on)
        self._wordmap = used  # an explicit choice: the automatic rule no longer applies
        return used

    def _will_search(self, searches: int) -> None:
        """Count ranked searches about to run; past ``WORDMAP_AFTER``, build the word map."""
        if self._wordmap is not None:
            return
        self._searches += searches
        if self._searches >= WORDMAP_AFTER:
            self._wordmap = self.use_wordmap(True)

    def best(
        self,
        board: Board | NativeBoard,
        rack: Sequence[str],
        n: int = 1,
        leaves: LeaveValues | None = None,
        first_turn: bool | None = None,
        *,
        exhaustive: bool = False,
    ) -> list[GeneratedPlacement]:
        """The ``n`` best placements by equity (score + leave value), best first.

        Ties are ordered by ``rank_key``: higher score, then across before down, then the
        line, the first square and the tiles. Anchors are searched from the highest upper
        bound down and the search stops when no remaining anchor can beat the n-th best;
        ``exhaustive=True`` searches every anchor (same answer; for tests).
        """
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        raw, cb = self._best_records(board, rack, n, leaves, first_turn, exhaustive)
        return list(self._decode(raw, cb.tiles(), rack, None))

    def best_equity(
        self,
        board: Board | NativeBoard,
        rack: Sequence[str],
        leaves: LeaveValues | None = None,
        first_turn: bool | None = None,
    ) -> float | None:
        """The equity of the best placement of ``rack`` (None: it has none), read straight
        from the C record: rack inference asks this hundreds of times a move, and nothing
        else of the placement is needed."""
        raw, _ = self._best_records(board, rack, 1, leaves, first_turn, False)
        if not raw:
            return None
        equity: float = _RECORD.unpack_from(raw)[7]
        return equity

    def _best_records(
        self,
        board: Board | NativeBoard,
        rack: Sequence[str],
        n: int,
        leaves: LeaveValues | None,
        first_turn: bool | None,
        exhaustive: bool,
    ) -> tuple[bytes, _native.Board]:
        """The C ranked search's packed records of the ``n`` best, and the board it ran on."""
        counts = self.encode_rack(rack)
        cb = self._c_board(board)
        table = leaves.table(self.alphabet) if leaves is not None else None
        self._will_search(1)
        return self._gen.best(cb, counts, self._first(cb, first_turn), n, table, exhaustive), cb

    def rank_key(self, p: GeneratedPlacement) -> tuple[float, int, int, int, int, bytes]:
        """The order ``best()`` ranks by (smallest first): equity and score descending, then
        across before down, line (row or column), first square, and the tile bytes of the word
        (0 for a letter on the board, the code, | 0x80 for a blank) compared as bytes."""
        place = p.place
        r, c = place.start
        line, start = (r, c) if place.across else (c, r)
        tiles = bytes(
            0 if x.on_board or x.tile is None else self.tile_byte(x.tile) for x in place.letters
        )
        return (-p.equity, -p.score, 0 if place.across else 1, line, start, tiles)

    # -- self-play --------------------------------------------------------------------------

    def selfplay(
        self,
        games: int,
        seed: int = 0,
        players: int = 2,
        leaves: LeaveValues | Sequence[LeaveValues | None] | None = None,
    ) -> list[NativeGameResult]:
        """Whole games of static play, all in C: each turn the mover makes the best placement
        by equity, or an exchange if its leave is worth more (only when blocked, if the game
        says so), or passes. Seat ``i % players`` moves first in game ``i``; the same seed
        gives the same games.

        ``leaves``: one table for everyone, or one per seat (None: equity is the score).
        The loop mirrors ``Game`` for what such players do (the deal, EX shuffles, the end of
        the game and its adjustments) but knows no clocks, challenges or CAMBIO: ``Game``
        stays the authority on the rules; this is for statistics, where speed counts. The
        GIL is released while the games run.
        """
        if games < 0:
            raise ValueError(f"games must be 0 or more, got {games}")
        tables = self._seat_tables(players, leaves)
        self._set_game()
        self._will_search(SEARCHES_A_GAME * games)
        raw = self._gen.selfplay(games, seed & 0xFFFF_FFFF_FFFF_FFFF, players, tables)
        return [
            NativeGameResult(
                i % players,
                _END_REASONS[reason],
                turns,
                None if went_out < 0 else went_out,
                *lists,
            )
            for i, (reason, turns, went_out, *lists) in enumerate(raw)
        ]

    def _seat_tables(
        self, players: int, leaves: LeaveValues | Sequence[LeaveValues | None] | None
    ) -> list[_native.LeaveTable | None]:
        """The C leave table of each seat: ``leaves`` is one table for everyone or one per
        seat (None: that seat plays on score)."""
        if not 1 <= players <= 4:
            raise ValueError(f"1 to 4 players, not {players}")
        if leaves is None or isinstance(leaves, LeaveValues):
            per_seat: list[LeaveValues | None] = [leaves] * players
        else:
            per_seat = list(leaves)
            if len(per_seat) != players:
                raise ValueError(f"leaves: one table per seat ({players}), got {len(per_seat)}")
        return [t.table(self.alphabet) if t is not None else None for t in per_seat]

    def _selfplay_log(
        self,
        seed: int,
        players: int,
        first: int,
        leaves: LeaveValues | Sequence[LeaveValues | None] | None,
    ) -> tuple[NativeGameResult, list[tuple[int, int, bytes, int, bytes, bytes]]]:
        """One game of ``selfplay`` with the C loop's record of every turn: (seat, kind, rack
        counts, bag, move record, kept counts)."""
        if not 1 <= players <= 4 or not 0 <= first < players:
            raise ValueError(f"1 to 4 players and a first seat among them, not {players}/{first}")
        tables = self._seat_tables(players, leaves)
        self._set_game()
        self._will_search(SEARCHES_A_GAME)
        result, raw_turns = self._gen.selfplay_log(
            seed & 0xFFFF_FFFF_FFFF_FFFF, players, first, tables
        )
        reason, n_turns, went_out, *lists = result
        game = NativeGameResult(
            first, _END_REASONS[reason], n_turns, None if went_out < 0 else went_out, *lists
        )
        return game, raw_turns

    def selfplay_turns(
        self,
        seed: int,
        players: int = 2,
        first: int = 0,
        leaves: LeaveValues | Sequence[LeaveValues | None] | None = None,
    ) -> tuple[NativeGameResult, list[NativeTurn]]:
        """One game of ``selfplay`` with every turn, to check the loop against the rules."""
        game, raw_turns = self._selfplay_log(seed, players, first, leaves)
        board = Board(self.variant.rows, self.variant.columns)
        turns: list[NativeTurn] = []
        for seat, kind, counts, bag, record, kept_counts in raw_turns:
            rack = self._rack_of(counts)
            placement = None
            kept = None
            if kind == 0:
                (placement,) = self._decode(record, self.encode_board(board), rack, None)
                turns.append(NativeTurn(seat, "place", rack, bag, board.copy(), placement, None))
                r, c = placement.place.start
                for i, letter in enumerate(placement.place.letters):
                    if not letter.on_board and letter.tile is not None:
                        board[(r, c + i) if placement.place.across else (r + i, c)] = letter.tile
                continue
            if kind == 1:
                kept = self._rack_of(kept_counts)
            name = "exchange" if kind == 1 else "pass"
            turns.append(NativeTurn(seat, name, rack, bag, board.copy(), placement, kept))
        return game, turns

    def selfplay_moves(
        self,
        seed: int,
        players: int = 2,
        first: int = 0,
        leaves: LeaveValues | Sequence[LeaveValues | None] | None = None,
    ) -> tuple[NativeGameResult, list[tuple[int, str, int, int, int]]]:
        """One game of ``selfplay`` as its turns' bare facts, for learning from many games:
        each turn's (seat, kind, points scored, tiles put down, tiles in the bag before it),
        from ``selfplay_records``. Unlike ``selfplay_turns`` nothing is decoded into a board,
        so it costs little more than the game itself."""
        game, records = self.selfplay_records(seed, players, first, leaves)
        return game, [(r.seat, r.kind, r.score, r.tiles_played, r.bag_before) for r in records]

    @staticmethod
    def game_seed(seed: int, index: int) -> int:
        """The seed of game ``index`` (from 0) of ``selfplay(games, seed)``: the seed that
        ``selfplay_log`` and ``selfplay_records`` take to replay that one game (seat
        ``index % players`` first)."""
        return (seed + _native.GAME_SEED_STEP * (index + 1)) & 0xFFFF_FFFF_FFFF_FFFF

    def selfplay_records(
        self,
        seed: int,
        players: int = 2,
        first: int = 0,
        leaves: LeaveValues | Sequence[LeaveValues | None] | None = None,
    ) -> tuple[NativeGameResult, list[NativeRecord]]:
        """One game of ``selfplay`` with what each turn kept: the facts a leave learner
        needs (``evaluation.learn``), decoded from the C loop's record without a board."""
        game, raw_turns = self._selfplay_log(seed, players, first, leaves)
        kinds = ("place", "exchange", "pass")
        out: list[NativeRecord] = []
        for seat, kind, counts, bag, record, kept_counts in raw_turns:
            if kind == 0:
                _, _, _, length, ntiles, _, score, _, tiles = _RECORD.unpack_from(record)
                left = bytearray(counts)
                for byte in tiles[:length]:
                    if byte:
                        left[0 if byte & _BLANK_FLAG else byte] -= 1
                leave = self._rack_of(bytes(left))
            elif kind == 1:
                ntiles, score, leave = 0, 0, self._rack_of(kept_counts)
            else:
                ntiles, score, leave = 0, 0, self._rack_of(counts)
            out.append(NativeRecord(seat, kinds[kind], leave, score, bag, ntiles))
        return game, out

    # -- the exact endgame ------------------------------------------------------------------

    def endgame(
        self,
        board: Board | NativeBoard,
        rack: Sequence[str],
        other: Sequence[str],
        *,
        scoreless: int = 0,
        max_depth: int = 30,
        width: int = 0,
        time_limit: float | None = None,
        max_nodes: int | None = None,
        table_bits: int = 22,
        cambios: tuple[int, int] = (0, 0),
    ) -> NativeEndgame:
        """The exact endgame, searched in C: the bag is empty, ``rack`` is to move and
        ``other`` is the opponent's whole rack. The search of ``docs/endgame.md``: negamax
        over every placement and the pass, a transposition table of ``2**table_bits`` entries
        (16 bytes each: 64 MiB at 22) that knows which values are proven, and iterative
        deepening up to ``max_depth`` plies or the budget (``time_limit`` seconds,
        ``max_nodes``). ``width`` (0: no limit) keeps the best that many placements by score
        at each node; a node that had more makes the answer inexact. ``scoreless`` is the run
        of scoreless turns before this one. The GIL is released while it runs.

        The end rules are the game's (going out, the scoreless-turns limit, no one able to
        play, the adjustments). ``cambios``: the CAMBIOs each side may still make (Crucigrama;
        the side to move first), searched as moves like placements.
        """
        if not rack:
            raise ValueError("the side to move has no tiles: the game is over")
        if not 1 <= max_depth <= 64:
            raise ValueError(f"max_depth 1..64, not {max_depth}")
        if not 10 <= table_bits <= 30:
            raise ValueError(f"table_bits 10..30, not {table_bits}")
        if width < 0 or scoreless < 0:
            raise ValueError("width and scoreless are 0 or more")
        most = _native.EG_MAX_CAMBIOS
        if len(cambios) != 2 or not all(0 <= c <= most for c in cambios):
            raise ValueError(f"cambios: two counts of 0..{most}, not {cambios!r}")
        cb = self._c_board(board)
        if isinstance(board, Board):
            cb = cb.copy()  # the scratch board is read again below
        self._set_game()
        found, exact, depth, value2, nodes, raw_line = self._gen.endgame(
            cb,
            self.encode_rack(rack),
            self.encode_rack(other),
            scoreless,
            max_depth,
            width,
            0.0 if time_limit is None else max(float(time_limit), 1e-9),
            max_nodes or 0,
            table_bits,
            cambios[0],
            cambios[1],
        )
        tiles = bytearray(cb.tiles())
        cols = self.variant.columns
        racks = [list(rack), list(other)]
        line: list[GeneratedPlacement | NativeCambio | Pass] = []
        for i, (kind, record) in enumerate(raw_line):
            mover = racks[i % 2]
            if isinstance(record, tuple):  # kind _EG_CAMBIO
                row, col, byte, old, score = record
                tile, taken = self.tile_of(byte), self.tile_of(old).letter
                line.append(NativeCambio(Cambio((row, col), tile), score, taken))
                mover.remove(tile.rack_form)
                mover.append(taken)
                tiles[row * cols + col] = byte
                continue
            if kind != _EG_PLACE:
                line.append(Pass())
                continue
            (placement,) = self._decode(record, bytes(tiles), mover, None)
            line.append(placement)
            mover[:] = placement.leave
            r0, c0 = placement.place.start
            for j, letter in enumerate(placement.place.letters):
                if not letter.on_board and letter.tile is not None:
                    r, c = (r0, c0 + j) if placement.place.across else (r0 + j, c0)
                    tiles[r * cols + c] = self.tile_byte(letter.tile)
        return NativeEndgame(found, exact, depth, value2 / 2, nodes, tuple(line))

    # -- simulation -------------------------------------------------------------------------

    def simulate(
        self,
        board: Board | NativeBoard,
        rack: Sequence[str],
        unseen: Sequence[str] | Mapping[str, int],
        candidates: Sequence[SimCandidate],
        plies: int = 2,
        iterations: int = 1000,
        seed: int = 0,
        leaves: LeaveValues | None = None,
        players: int = 2,
        scoreless: int = 0,
        behind: Sequence[int] | None = None,
        per_deal: bool = False,
        known: Sequence[Sequence[str]] | None = None,
        known_seat: int = 1,
    ) -> list[NativeSimResult]:
        """Monte-Carlo simulation of candidate moves, the playouts run in C; one result per
        candidate, in the candidates' order.

        ``unseen`` is what the mover cannot see: the bag plus the opponents' racks, as tiles
        (``["A", "?", "CH"]``) or counts. Each iteration shuffles it once; the opponents'
        racks are dealt first (a full rack each while tiles last), the rest is the bag in
        draw order, and **every candidate is played out on that same draw** (common random
        numbers: candidates compared on equal luck). A playout: the candidate, the mover's
        refill, then ``plies`` rounds of static best-equity replies (``leaves``; each reply a
        placement, an exchange worth more where the game allows, or a pass); a round is every
        opponent in turn order then the mover, and an odd last ply the opponents only. Its
        value is the mover's points minus those of the opponent who leads after it (``behind``:
        each player's score minus the mover's, the mover first; by default all level), less
        the most any opponent led by before it: with one opponent, the points difference; at a
        larger table, the race against whoever will be ahead. Plus the leave value of the
        mover's last rack, or, if someone went out, the game's end adjustments instead. Once
        the bag is empty, kept tiles are valued as a debt (``candidates.end_leave_value``), in
        the replies and in the last rack.
        ``per_deal``: each result also carries every playout's value and the tiles unseen at
        its end (``NativeSimResult.values``, ``unseen_end``), for win probabilities and paired
        comparisons.
        ``scoreless`` is the run of scoreless turns before the candidate: a playout ends the
        game when the run reaches the game's limit. Same seed, same answer (and a
        candidate's result does not depend on the others in the list).
        ``known``: tiles the opponent at ``known_seat`` (1 = the next to play) is taken to hold,
        one partial rack per deal in turn (deal ``i`` takes ``known[i % len(known)]``), e.g.
        samples of what it kept after its last play (``search.inference``); the rest of its
        rack is dealt at random. Each must be part of ``unseen``.

        ValueError for a candidate that is not legal for the rack on this board, an exchange
        the game or the bag does not allow, unseen tiles the tile set cannot hold next to the
        board and the rack, and bad counts.
        """
        if not 1 <= players <= 4:
            raise ValueError(f"1 to 4 players, not {players}")
        if plies < 0:
            raise ValueError(f"plies must be 0 or more, got {plies}")
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if scoreless < -1:
            raise ValueError(f"scoreless must be -1 or more, got {scoreless}")
        if not candidates:
            raise ValueError("no candidates to simulate")
        if behind is not None and len(behind) != players:
            raise ValueError(f"behind: one score difference per player ({players}), got {behind}")
        if known and not 1 <= known_seat < players:
            raise ValueError(f"known_seat: an opponent's seat, 1 to {players - 1}")
        counts = self.encode_rack(rack)
        cb = self._c_board(board)
        unseen_counts = self._unseen_counts(unseen, cb.tiles(), rack)
        known_counts = bytearray()
        for part in known or ():
            encoded = self.encode_rack(part)
            if len(part) > self.variant.rack_size or any(
                n > have for n, have in zip(encoded, unseen_counts, strict=True)
            ):
                raise ValueError(f"known rack {list(part)}: not a part of the unseen tiles")
            known_counts += encoded
        n_unseen = sum(unseen_counts)
        bag = n_unseen - min(n_unseen, (players - 1) * self.variant.rack_size)
        legal: dict[bytes, bytes] | None = None
        records = bytearray()
        chosen: list[GeneratedPlacement | Exchange | Pass] = []
        for cand in candidates:
            if isinstance(cand, Pass):
                records += _special_record(_CAND_PASS, b"")
                chosen.append(cand)
            elif isinstance(cand, Exchange):
                if self.variant.exchange.only_when_blocked and self._gen.best(
                    cb, counts, cb.n_tiles == 0, 1, None
                ):
                    raise ValueError(f"{self.variant.title} allows an exchange only when blocked")
                records += self._exchange_record(cand, rack, bag)
                chosen.append(cand)
            elif isinstance(cand, GeneratedPlacement | Place):
                if legal is None:
                    first = cb.n_tiles == 0
                    raw = self._gen.generate(cb, counts, first)
                    legal = {
                        raw[i : i + 4] + raw[i + 20 : i + _RECORD.size]: raw[i : i + _RECORD.size]
                        for i in range(0, len(raw), _RECORD.size)
                    }
                place = cand.place if isinstance(cand, GeneratedPlacement) else cand
                record = legal.get(self._place_key(place, cb.tiles()))
                if record is None:
                    raise ValueError(
                        f"candidate {place} is not a legal placement of this rack on this board"
                    )
                records += record
                (found,) = self._decode(record, cb.tiles(), rack, leaves)
                chosen.append(found)
            else:
                raise ValueError(f"cannot simulate {cand!r}: a placement, exchange or pass")
        self._set_game()
        table = leaves.table(self.alphabet) if leaves is not None else None
        self._will_search(len(chosen) * iterations * (plies + 1))
        raw_stats = self._gen.simulate(
            cb,
            counts,
            bytes(unseen_counts),
            players,
            bytes(records),
            plies,
            iterations,
            seed & 0xFFFF_FFFF_FFFF_FFFF,
            table,
            scoreless,
            None if behind is None else [int(x) for x in behind],
            per_deal,
            bytes(known_counts) if known_counts else None,
            known_seat,
        )
        out = []
        for c, row in zip(chosen, raw_stats, strict=True):
            n, mean, sd = row[:3]
            if not per_deal:
                out.append(NativeSimResult(c, mean, sd, n))
                continue
            values = array.array("d")
            values.frombytes(row[3])
            out.append(NativeSimResult(c, mean, sd, n, values, row[4]))
        return out

    def _unseen_counts(
        self, unseen: Sequence[str] | Mapping[str, int], board_tiles: bytes, rack: Sequence[str]
    ) -> bytearray:
        """Unseen tiles as counts by code, checked against the tile set: what the board and
        the rack hold plus the unseen tiles cannot exceed the game's tiles."""
        if isinstance(unseen, str):
            raise ValueError("unseen is a sequence of tiles or a mapping of counts, not a string")
        wanted: Counter[str] = Counter()
        if isinstance(unseen, Mapping):
            for tile, n in unseen.items():
                if not isinstance(n, int) or n < 0:
                    raise ValueError(f"unseen {tile!r}: a count of 0 or more, got {n!r}")
                wanted[tile] += n
        else:
            wanted.update(unseen)
        seen: Counter[str] = Counter(rack)
        for byte in board_tiles:
            if byte:
                seen[BLANK if byte & _BLANK_FLAG else self.tile_of(byte).letter] += 1
        out = bytearray(_native.MAX_CODE + 1)
        for tile, n in wanted.items():
            if tile not in self.variant.tiles:
                raise ValueError(f"unseen {tile!r} is not a tile of {self.variant.title}")
            have = self.variant.tiles[tile][0]
            if seen[tile] + n > have:
                raise ValueError(
                    f"{n} unseen {tile!r}: {self.variant.title} has {have}, and the board and "
                    f"the rack hold {seen[tile]}"
                )
            out[0 if tile == BLANK else self.alphabet.code(tile)] = n
        return out

    def _place_key(self, place: Place, board_tiles: bytes) -> bytes:
        """(dir, line, start, len, tile bytes padded to 32): how generated records are keyed."""
        r0, c0 = place.start
        cols = self.variant.columns
        rows = self.variant.rows
        line, start = (r0, c0) if place.across else (c0, r0)
        tiles = bytearray()
        for i, letter in enumerate(place.letters):
            r, c = (r0, c0 + i) if place.across else (r0 + i, c0)
            occupied = 0 <= r < rows and 0 <= c < cols and board_tiles[r * cols + c] != 0
            if letter.on_board or (letter.on_board is None and occupied):
                tiles.append(0)
            elif letter.tile is None:
                tiles.append(0xFF)  # matches nothing: a new tile needs a letter
            else:
                try:
                    tiles.append(self.tile_byte(letter.tile))
                except ValueError:
                    tiles.append(0xFF)
        if not (0 <= line < 256 and 0 <= start < 256 and len(tiles) <= _native.MAX_DIM):
            return b""
        head = bytes((0 if place.across else 1, line, start, len(tiles)))
        return head + bytes(tiles).ljust(_native.MAX_DIM, b"\0")

    def _exchange_record(self, move: Exchange, rack: Sequence[str], bag: int) -> bytes:
        rules = self.variant.exchange
        if not rules.allowed:
            raise ValueError(f"{self.variant.title} has no exchanges")
        if not move.tiles:
            raise ValueError("an exchange returns at least one tile")
        if len(move.tiles) > rules.max_tiles:
            raise ValueError(f"an exchange returns at most {rules.max_tiles} tiles")
        if bag < max(rules.min_bag, len(move.tiles)):
            raise ValueError(
                f"an exchange of {len(move.tiles)} needs a bag of {max(rules.min_bag, 1)} and "
                f"at least as many tiles as returned; the bag holds {bag}"
            )
        missing = Counter(move.tiles) - Counter(rack)
        if missing:
            raise ValueError(f"the exchange returns {sorted(missing.elements())}, not on the rack")
        back = bytearray(_native.MAX_CODE + 1)
        for t in move.tiles:
            back[0 if t == BLANK else self.alphabet.code(t)] += 1
        return _special_record(_CAND_EXCHANGE, bytes(back))

    def _rack_of(self, counts: bytes) -> tuple[str, ...]:
        out: list[str] = []
        for code, n in enumerate(counts):
            if n:
                out.extend([BLANK if code == 0 else self.alphabet.letter(code)] * n)
        return tuple(out)

    def _set_game(self) -> None:
        if self._game_set:
            return
        v = self.variant
        tiles = bytearray(_native.MAX_CODE + 1)
        for tile, (count, _) in v.tiles.items():
            tiles[0 if tile == BLANK else self.alphabet.code(tile)] = count
        ex_bags = [
            getattr(kind, "min_bag", 7) for kind in v.squares.values() if kind.shuffles_next_rack
        ]
        end = v.end
        self._gen.set_game(
            tiles=bytes(tiles),
            blank_value=v.tiles.get(BLANK, (0, 0))[1],
            counterclockwise=v.turn_direction == "counterclockwise",
            exchange_allowed=v.exchange.allowed,
            exchange_min_bag=v.exchange.min_bag,
            exchange_max_tiles=v.exchange.max_tiles,
            exchange_per_game=v.exchange.per_game,
            exchange_only_when_blocked=v.exchange.only_when_blocked,
            ex_min_bag=min(ex_bags, default=7),
            going_out=end.going_out,
            no_one_can_play=end.no_one_can_play,
            scoreless_rounds=end.scoreless_rounds,
            scoreless_passes="pass" in end.scoreless_kinds,
            scoreless_exchanges="exchange" in end.scoreless_kinds,
            subtract_own_rack=end.subtract_own_rack,
            going_out_gains_others=end.going_out_gains_others,
            unplayed_blank_penalty=end.unplayed_blank_penalty,
        )
        self._game_set = True

    # -- decoding ---------------------------------------------------------------------------

    def _decode(
        self,
        raw: bytes,
        board_tiles: bytes,
        rack: Sequence[str],
        add_leaves: LeaveValues | None,
    ) -> Iterator[GeneratedPlacement]:
        """Packed C records to placements; ``add_leaves`` adds leave values to the equity
        (records from ``best()`` already carry theirs)."""
        cols = self.variant.columns
        new_letters = self._new_letters
        board_letters = self._board_letters
        rack_forms = self._rack_forms
        rack_list = list(rack)
        for d, line, start, length, _ntiles, shuffle, score, equity, tiles in _RECORD.iter_unpack(
            raw
        ):
            across = d == 0
            # the board square of the word's i-th letter is first + i * step, row-major
            first, step = (line * cols + start, 1) if across else (start * cols + line, cols)
            letters: list[Letter] = []
            kept = rack_list.copy()
            for i in range(length):
                t = tiles[i]
                if t:
                    letters.append(new_letters[t])
                    kept.remove(rack_forms[t])
                else:
                    letters.append(board_letters[board_tiles[first + i * step]])
            leave = tuple(kept)
            if add_leaves is not None:
                equity = score + add_leaves.value(leave)
            place = _made(
                Place,
                {
                    "start": (line, start) if across else (start, line),
                    "across": across,
                    "letters": tuple(letters),
                },
            )
            yield _made(
                GeneratedPlacement,
                {
                    "place": place,
                    "score": score,
                    "leave": leave,
                    "shuffles_next_rack": bool(shuffle),
                    "equity": equity,
                },
            )


def _made(cls: type[_Frozen], fields: dict[str, object]) -> _Frozen:
    """An instance of a frozen dataclass with these fields, without its ``__init__``.

    Why: a frozen dataclass sets each field through ``object.__setattr__``, about 0.3 µs a
    field, which made building the answer's objects an eighth of a best-move search seen from
    Python. Only for ``Place`` and ``GeneratedPlacement``, whose ``__init__`` does nothing else
    (no ``__post_init__``, no defaults), and only with all their fields."""
    made: _Frozen = object.__new__(cls)
    made.__dict__.update(fields)
    return made


def _special_record(kind: int, tiles: bytes) -> bytes:
    """A candidate record for C that is no placement: the kind in the padding byte 6 (see
    ``read_candidate`` in module.c), an exchange's returned tiles as counts by code."""
    record = bytearray(_RECORD.pack(0, 0, 0, 0, 0, 0, 0, 0.0, tiles))
    record[6] = kind
    return bytes(record)


def _int16(value: int, what: str) -> int:
    if not -32768 <= value <= 32767:
        raise ValueError(f"{what} is {value}: the native generator takes -32768..32767")
    return value
