"""Exact endgame search: the bag is empty, two players, both racks known.

Once the bag is empty nothing is hidden: the opponent holds exactly the unseen tiles. The best
move is then a matter of search, not estimate: negamax with alpha-beta pruning over both
players' moves (every placement, the pass, and CAMBIOs where the game has them), a
transposition table keyed by the tiles put down since the root and both racks, and iterative
deepening so that a time or node budget always leaves the best move of the deepest search
completed. A search whose every line reached the end of the game is exact.

The end of the game and its adjustments are the game's own rules (``Variant.end``): going out
with the bag empty, the others' tiles subtracted and perhaps given to the one who went out,
unplayed-blank penalties, the scoreless-turns limit, and "no one can play".

Two implementations of the one search (``docs/endgame.md``): this module's, in Python, is the
readable reference; the native core's (``native/endgame.c``, CAMBIOs in ``native/cambio.c``)
runs the whole search in C and is the one used whenever the native generator is there.
``engine="python"`` (or ``TABLERO_ENDGAME=python`` in the environment) forces the reference.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...board import Tile
from ...lexicon import Lexicon
from ...moves import Cambio, Letter, Move, Pass, Place, format_move
from ...position import Position
from ...variant import BLANK, Coord, Variant
from ..evaluation.leaves import leave_key
from ..movegen.candidates import (
    Candidate,
    MoveGenerator,
    PlacementLike,
    PlayBoard,
    cambio_candidates,
    generator_for,
)

if TYPE_CHECKING:
    from ..movegen.native import NativeCambio

__all__ = ["EndgameResult", "end_adjustment", "solve_endgame"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_TERMINAL_DEPTH = 1000


class _OutOfBudget(Exception):
    pass


def end_adjustment(
    variant: Variant,
    me: Sequence[str],
    them: Sequence[str],
    went_out: bool,
    rack_value: Callable[[Sequence[str]], int] | None = None,
) -> float:
    """What the game's end adds to the spread of ``me`` over ``them`` (two players, the racks
    each holds at the end; ``went_out``: ``me`` just went out): the rules of ``Variant.end``."""
    end = variant.end
    worth = rack_value or (lambda rack: sum(variant.value(t) for t in rack))
    value = 0.0
    if end.subtract_own_rack:
        value += worth(them) - worth(me)
    value += end.unplayed_blank_penalty * (them.count(BLANK) - me.count(BLANK))
    if went_out and end.going_out_gains_others:
        value += worth(them)
    return value


@dataclass(frozen=True)
class EndgameResult:
    best: Candidate
    spread: float
    """The final spread (us minus them, adjustments included) the line leads to."""
    line: tuple[str, ...]
    """The principal variation: our move, their answer, ..."""
    exact: bool
    """Every line was searched to the end of the game within the budget, with every move."""
    depth: int
    nodes: int
    seconds: float


@dataclass(frozen=True)
class _Move:
    kind: str
    move: Move
    score: int
    used: tuple[str, ...]
    """Rack tiles it uses (for CAMBIO: the tile given; the board tile comes back)."""
    gained: str | None = None
    """CAMBIO: the tile taken from the board into the rack."""
    tiles: tuple[tuple[Coord, Tile], ...] = ()
    encoded: object = None
    """A placement as the native board applies it (``encoded_place``), made once with the
    move: the search applies the same moves over and over."""


class _Search:
    def __init__(
        self,
        position: Position,
        lexicon: Lexicon,
        gen: MoveGenerator,
        deadline: float | None,
        max_nodes: int | None,
        width: int,
    ) -> None:
        self.v: Variant = position.variant
        self.lexicon = lexicon
        self.gen = gen
        self.core = getattr(gen, "core", None)
        """The native generator, when there is one: it encodes each move for its board."""
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.horizon_hit = False
        self.tt: dict[tuple[object, ...], tuple[int, float, int, int, bool]] = {}
        """Per position: (depth searched, value, bound flag, best option's index, complete).
        ``complete``: no line below it stopped at the depth horizon, so the value holds at any
        depth; an incomplete value is used only at a depth it was searched to, and using it
        makes the search that uses it incomplete too."""
        self.move_cache: dict[tuple[object, ...], list[_Move]] = {}
        self.cambios_used = list(position.cambios_used[:2])
        self.width = width
        self._rack_values: dict[tuple[str, ...], int] = {}
        self.truncated = False
        """Some node had more placements than ``width``: the answer is not proven exact."""

    # -- the game's end -------------------------------------------------------------------

    def rack_value(self, rack: Sequence[str]) -> int:
        key = tuple(rack)
        value = self._rack_values.get(key)
        if value is None:
            value = self._rack_values[key] = sum(self.v.value(t) for t in rack)
        return value

    def finish(self, me: Sequence[str], them: Sequence[str], went_out: bool) -> float:
        """Adjustments from the view of ``me``; ``went_out``: ``me`` just went out."""
        return end_adjustment(self.v, me, them, went_out, self.rack_value)

    def horizon(self, me: Sequence[str], them: Sequence[str]) -> float:
        """A guess at an unfinished line: whoever holds less loses less at the end."""
        self.horizon_hit = True
        return 0.5 * self.finish(me, them, False) + 0.5 * (
            self.rack_value(them) - self.rack_value(me)
        )

    # -- moves ----------------------------------------------------------------------------

    def moves(
        self, board: PlayBoard, sig: frozenset[tuple[Coord, Tile]], rack: tuple[str, ...], seat: int
    ) -> list[_Move]:
        key = (sig, rack, seat, tuple(self.cambios_used))
        cached = self.move_cache.get(key)
        if cached is None:
            cached = self._moves(board, rack, seat)
            if len(self.move_cache) > 50_000:
                self.move_cache.clear()
            self.move_cache[key] = cached
        return cached

    def _moves(self, board: PlayBoard, rack: tuple[str, ...], seat: int) -> list[_Move]:
        """Every placement (or, past ``width`` of them, the ``width`` best-scoring: a rack
        with a blank can have thousands), CAMBIOs, best first."""
        out: list[_Move] = []
        if self.gen.count(board, rack, False) > self.width:
            self.truncated = True
            placements = self.gen.best(board, rack, self.width, None, False)
        else:
            placements = self.gen.placements(board, rack, False)
        core = self.core
        for p in placements:
            used = tuple(x.tile.rack_form for x in p.place.letters if not x.on_board and x.tile)
            encoded = core.encoded_place(p.place) if core is not None else None
            out.append(_Move("place", p.place, p.score, used, encoded=encoded))
        v = self.v
        if v.cambio_per_game and self.cambios_used[seat] < v.cambio_per_game:
            pos = Position(v, board.to_board(), [rack, ()], [0, 0], bag=0)
            for c in cambio_candidates(pos, self.lexicon, None):
                assert isinstance(c.move, Cambio)
                old = pos.board[c.move.square]
                assert old is not None
                out.append(_Move("cambio", c.move, c.score, (c.move.tile.rack_form,), old.letter))
        # Going out first, then the most points: the usual best-first order.
        out.sort(key=lambda m: (m.kind != "place" or len(m.used) != len(rack), -m.score))
        if len(out) > self.width:
            self.truncated = True
            del out[self.width :]
        return out

    def apply(self, board: PlayBoard, m: _Move) -> PlayBoard:
        child = board.copy()
        if isinstance(m.move, Place):
            if m.encoded is not None:
                child.apply_encoded(m.encoded)  # type: ignore[attr-defined]  # native board
            else:
                child.apply(m.move)
        elif isinstance(m.move, Cambio):
            plain = child.to_board()
            plain[m.move.square] = m.move.tile
            child.set(plain)
        return child

    # -- negamax ----------------------------------------------------------------------------

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfBudget
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _OutOfBudget

    def negamax(
        self,
        board: PlayBoard,
        sig: frozenset[tuple[Coord, Tile]],
        me: tuple[str, ...],
        them: tuple[str, ...],
        seat: int,
        scoreless: int,
        depth: int,
        alpha: float,
        beta: float,
    ) -> float:
        """Best achievable (our points − theirs) from here on, for the side to move."""
        self.tick()
        key = (sig, me, them, seat, scoreless, tuple(self.cambios_used))
        entry = self.tt.get(key)
        guessed = False
        """Whether what the table told (a value, or a narrower window) rests on a guess made
        at the depth horizon: then so does what this search finds."""
        if entry is not None and (entry[4] or entry[0] >= depth):
            _, value, flag, _, complete = entry
            window = (alpha, beta)
            if flag == _LOWER:
                alpha = max(alpha, value)
            elif flag == _UPPER:
                beta = min(beta, value)
            guessed = not complete and (flag == _EXACT or (alpha, beta) != window)
            if flag == _EXACT or alpha >= beta:
                self.horizon_hit = self.horizon_hit or guessed
                return value
        outer_hit, self.horizon_hit = self.horizon_hit, guessed
        try:
            return self._expand(board, sig, me, them, seat, scoreless, depth, alpha, beta, key)
        finally:
            self.horizon_hit = outer_hit or self.horizon_hit

    def _expand(
        self,
        board: PlayBoard,
        sig: frozenset[tuple[Coord, Tile]],
        me: tuple[str, ...],
        them: tuple[str, ...],
        seat: int,
        scoreless: int,
        depth: int,
        alpha: float,
        beta: float,
        key: tuple[object, ...],
    ) -> float:
        """Search a position's moves; store what was found with whether it is complete."""
        entry = self.tt.get(key)
        moves = self.moves(board, sig, me, seat)
        end = self.v.end
        has_place = any(m.kind == "place" for m in moves)
        if (
            not has_place
            and end.no_one_can_play
            and not any(m.kind == "place" for m in self.moves(board, sig, them, 1 - seat))
        ):
            # Nobody can place a tile: the game is over (Game checks this after every turn).
            # The opponent's moves come from the cache its own turn here reads too.
            return self.finish(me, them, False)
        if depth == 0:
            return self.horizon(me, them)
        limit = end.scoreless_rounds * 2 if end.scoreless_rounds else 0
        best = -math.inf
        best_index = -1
        alpha0 = alpha
        options: list[_Move | None] = list(moves)
        options.append(None)  # the pass
        if entry is not None and 0 <= entry[3] < len(options):
            options.insert(0, options.pop(entry[3]))
        for index, m in enumerate(options):
            if m is None:
                after = end.scoreless_run(scoreless, "pass")
                if limit and after >= limit:
                    value = self.finish(me, them, False)
                else:
                    value = -self.negamax(
                        board, sig, them, me, 1 - seat, after, depth - 1, -beta, -alpha
                    )
            else:
                rack = list(me)
                for t in m.used:
                    rack.remove(t)
                if m.gained is not None:
                    rack.append(m.gained)
                left = tuple(sorted(rack))
                if not left:
                    value = m.score + self.finish(left, them, True)
                else:
                    child = self.apply(board, m)
                    child_sig = _signature(sig, m)
                    if m.kind == "cambio":
                        self.cambios_used[seat] += 1
                    try:
                        # The reply's window in its own terms: m.score − reply in (alpha, beta).
                        value = m.score - self.negamax(
                            child,
                            child_sig,
                            them,
                            left,
                            1 - seat,
                            0,
                            depth - 1,
                            m.score - beta,
                            m.score - alpha,
                        )
                    finally:
                        if m.kind == "cambio":
                            self.cambios_used[seat] -= 1
            if value > best:
                best, best_index = value, index
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        flag = _EXACT if alpha0 < best < beta else (_LOWER if best >= beta else _UPPER)
        stored_index = _index_in(options, best_index, moves)
        self.tt[key] = (depth, best, flag, stored_index, not self.horizon_hit)
        return best


def _index_in(options: list[_Move | None], best_index: int, moves: list[_Move]) -> int:
    """The best option's position in the unreordered list (moves, then the pass)."""
    chosen = options[best_index] if best_index >= 0 else None
    if chosen is None:
        return len(moves)
    return moves.index(chosen)


def _signature(sig: frozenset[tuple[Coord, Tile]], m: _Move) -> frozenset[tuple[Coord, Tile]]:
    if isinstance(m.move, Place):
        r0, c0 = m.move.start
        added = {
            ((r0, c0 + i) if m.move.across else (r0 + i, c0), x.tile)
            for i, x in enumerate(m.move.letters)
            if not x.on_board and x.tile is not None
        }
        return sig | added
    if isinstance(m.move, Cambio):
        square = m.move.square
        return frozenset({e for e in sig if e[0] != square} | {(square, m.move.tile)})
    return sig


def solve_endgame(
    position: Position,
    lexicon: Lexicon,
    *,
    time_limit: float | None = 5.0,
    max_nodes: int | None = None,
    max_depth: int = 30,
    width: int = 60,
    generator: MoveGenerator | None = None,
    engine: str | None = None,
    table_bits: int = 22,
) -> EndgameResult | None:
    """The best move with the bag empty and one opponent, or None if that is not the case.

    Deepens one ply at a time until the search is exact or the budget (``time_limit``
    seconds, ``max_nodes`` nodes) runs out, and answers from the deepest completed search.
    ``engine``: ``native`` (the search in C), ``python`` (the reference) or None: native
    when it can be (the native generator), unless ``TABLERO_ENDGAME=python``.
    ``table_bits``: the C search's transposition table holds ``2**table_bits`` entries of 16
    bytes (64 MiB at 22).
    """
    if len(position.racks) != 2 or position.bag_count() != 0 or not position.rack:
        return None
    if engine not in (None, "native", "python"):
        raise ValueError(f"engine {engine!r}: native, python or None")
    v = position.variant
    them_known = position.racks[1]
    them = tuple(them_known) if them_known else tuple(position.unseen().elements())
    me = tuple(sorted(position.rack))
    them = tuple(sorted(them))
    gen = generator or generator_for(v, lexicon)
    start = time.monotonic()
    core = getattr(gen, "core", None)
    if engine is None:
        forced = os.environ.get("TABLERO_ENDGAME") == "python"
        native = core is not None and max_depth <= 64
        engine = "native" if native and not forced else "python"
    if engine == "native":
        if core is None:
            raise ValueError("the native endgame search needs the native generator")
        return _solve_native(
            core, position, me, them, start, time_limit, max_nodes, max_depth, width, table_bits
        )
    deadline = None if time_limit is None else start + time_limit
    search = _Search(position, lexicon, gen, deadline, max_nodes, width)
    root = gen.board(position.board)
    spread0 = position.scores[0] - position.scores[1] if len(position.scores) > 1 else 0
    best: tuple[float, int, bool] | None = None
    root_moves = search.moves(root, frozenset(), me, 0)
    options: list[_Move | None] = [*root_moves, None]
    completed = 0
    for depth in range(1, max_depth + 1):
        search.horizon_hit = False
        try:
            alpha = -math.inf
            found: tuple[float, int] | None = None
            order = list(range(len(options)))
            if best is not None:
                order.remove(best[1])
                order.insert(0, best[1])
            for i in order:
                m = options[i]
                value = _root_value(search, root, m, me, them, position, depth, alpha)
                # Strictly better only: an option that ties the best so far failed low, and
                # its value is a bound, not proof that it reaches as much.
                if found is None or value > found[0]:
                    found = (value, i)
                alpha = max(alpha, value)
        except _OutOfBudget:
            break
        assert found is not None
        value, index = found
        best = (value, index, not search.horizon_hit and not search.truncated)
        completed = depth
        if not search.horizon_hit:
            break
    if best is None:
        # Not even one ply in the budget: the first in move order (going out, else most points).
        first = options[0]
        best = (float(first.score) if first is not None else 0.0, 0, False)
    value, index, exact = best
    chosen = options[index]
    candidate = _as_candidate(chosen, me, v, value)
    line = _principal_line(search, root, chosen, me, them)
    return EndgameResult(
        best=candidate,
        spread=spread0 + value if math.isfinite(value) else float(spread0),
        line=line,
        exact=exact,
        depth=completed,
        nodes=search.nodes,
        seconds=time.monotonic() - start,
    )


def _solve_native(
    core: Any,
    position: Position,
    me: tuple[str, ...],
    them: tuple[str, ...],
    start: float,
    time_limit: float | None,
    max_nodes: int | None,
    max_depth: int,
    width: int,
    table_bits: int,
) -> EndgameResult:
    """The same search run in C (``NativeGenerator.endgame``), its answer in this module's
    terms."""
    v = position.variant
    remaining = None if time_limit is None else max(time_limit - (time.monotonic() - start), 0.0)
    per_game = v.cambio_per_game or 0
    cambios = tuple(max(per_game - used, 0) for used in position.cambios_used[:2])
    found = core.endgame(
        position.board,
        me,
        them,
        scoreless=position.scoreless_turns,
        max_depth=max_depth,
        width=width if width < 2**31 else 0,
        time_limit=remaining,
        max_nodes=max_nodes,
        table_bits=table_bits,
        cambios=cambios,
    )
    moves = [_native_move(step) for step in found.line]
    chosen = moves[0]
    spread0 = position.scores[0] - position.scores[1] if len(position.scores) > 1 else 0
    return EndgameResult(
        best=_as_candidate(chosen, me, v, found.value),
        spread=spread0 + found.value,
        line=tuple(format_move(m.move) if m is not None else "-" for m in moves),
        exact=found.exact,
        depth=found.depth,
        nodes=found.nodes,
        seconds=time.monotonic() - start,
    )


def _native_move(step: PlacementLike | NativeCambio | Pass) -> _Move | None:
    from ..movegen.native import NativeCambio  # only the native search gives these

    if isinstance(step, Pass):
        return None
    if isinstance(step, NativeCambio):
        return _Move("cambio", step.move, step.score, (step.move.tile.rack_form,), step.taken)
    used = tuple(x.tile.rack_form for x in step.place.letters if not x.on_board and x.tile)
    return _Move("place", step.place, step.score, used)


def _root_value(
    search: _Search,
    root: PlayBoard,
    m: _Move | None,
    me: tuple[str, ...],
    them: tuple[str, ...],
    position: Position,
    depth: int,
    alpha: float,
) -> float:
    end = search.v.end
    limit = end.scoreless_rounds * 2 if end.scoreless_rounds else 0
    after = end.scoreless_run(position.scoreless_turns, "pass")
    if m is None:
        if limit and after >= limit:
            return search.finish(me, them, False)
        return -search.negamax(root, frozenset(), them, me, 1, after, depth - 1, -math.inf, -alpha)
    rack = list(me)
    for t in m.used:
        rack.remove(t)
    if m.gained is not None:
        rack.append(m.gained)
    left = tuple(sorted(rack))
    if not left:
        return m.score + search.finish(left, them, True)
    if m.kind == "cambio":
        search.cambios_used[0] += 1
    try:
        return m.score - search.negamax(
            search.apply(root, m),
            _signature(frozenset(), m),
            them,
            left,
            1,
            0,
            depth - 1,
            -math.inf,
            m.score - alpha,  # the reply's window in its own terms: m.score − reply > alpha
        )
    finally:
        if m.kind == "cambio":
            search.cambios_used[0] -= 1


def _as_candidate(m: _Move | None, rack: tuple[str, ...], v: Variant, value: float) -> Candidate:
    if m is None:
        return Candidate("pass", Pass(), "-", 0, leave_key(rack, v.alphabet), value)
    left = list(rack)
    for t in m.used:
        left.remove(t)
    if m.gained is not None:
        left.append(m.gained)
    move = m.move
    if isinstance(move, Place):
        move = Place(move.start, move.across, tuple(_plain(x) for x in move.letters))
    return Candidate(
        m.kind,
        move,
        format_move(move),
        m.score,
        leave_key(left, v.alphabet),
        value,
        len(m.used) if m.kind == "place" else 0,
    )


def _plain(letter: Letter) -> Letter:
    return Letter(letter.tile, True if letter.on_board else None)


def _principal_line(
    search: _Search,
    root: PlayBoard,
    first: _Move | None,
    me: tuple[str, ...],
    them: tuple[str, ...],
) -> tuple[str, ...]:
    """Our move, then each side's best reply as the transposition table remembers it."""
    line = [format_move(first.move) if first is not None else "-"]
    board, sig = root, frozenset[tuple[Coord, Tile]]()
    racks = [list(me), list(them)]
    seat = 0
    m = first
    for _ in range(20):
        if m is not None:
            for t in m.used:
                racks[seat].remove(t)
            if m.gained is not None:
                racks[seat].append(m.gained)
            board = search.apply(board, m)
            sig = _signature(sig, m)
            if not racks[seat]:
                break
        seat = 1 - seat
        mover, other = tuple(sorted(racks[seat])), tuple(sorted(racks[1 - seat]))
        key_prefix = (sig, mover, other, seat)
        entry = next(
            (e for k, e in search.tt.items() if k[:4] == key_prefix),
            None,
        )
        if entry is None:
            break
        moves = search.moves(board, sig, mover, seat)
        index = entry[3]
        m = moves[index] if index < len(moves) else None
        line.append(format_move(m.move) if m is not None else "-")
    return tuple(line)
