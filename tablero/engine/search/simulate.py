"""Monte Carlo simulation: which of a few good moves does best over the next turns.

Static equity judges a move by its score and the tiles kept; it cannot see that a move opens
a triple-word lane, or that a rack kept for a bingo will usually get one. Simulation plays each
candidate out: the unseen tiles are dealt at random to the opponents' racks and the bag, each
opponent replies with its best static move, then we reply, and the result is our points minus
theirs plus what we keep. Averaged over many deals, with **the same deal for every candidate**
in an iteration (common random numbers), so the differences between candidates are not
drowned by the luck of the draw.

Where the native core is built, the whole loop runs in C (``NativeGenerator.simulate``): the
deals, the playouts and the statistics, in batches so that a time limit is kept. A CAMBIO
candidate is simulated in C as what it leaves behind: the board with the tile replaced and the
rack with the old tile, on which the mover makes no further move, with the same deals (same
seed, same unseen tiles) as the other candidates, plus its points. Otherwise the playout of
one candidate in one deal is a ``Playout``: ``PythonPlayout`` drives the move generator from
Python, and is the readable statement of what the C loop does.

Tables of three or four: each opponent replies in turn order, and the result is our gain
against the opponent who will lead.

**Playing to win.** With a win-probability table (``evaluation.winprob``) for the table's number
of players and the native core, each playout also counts as the chance that it leads to a win:
the lead after it (over the best of the others) and the tiles still unseen, read in the table
(or the result itself, where the game ended in the playout). Candidates are then ranked by that
chance, with a little weight on points (``POINT_WORTH``) so that a decided game is still played
for spread.

**Stopping weak candidates early.** With ``prune``, after each batch of deals a candidate whose
paired difference from the leader (the same deals, deal by deal) is below zero by more than
``PRUNE_Z`` standard errors plays no more deals: the time goes to the candidates still in
contention, and the simulation stops as soon as one is left.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...board import Board
from ...lexicon import Lexicon
from ...moves import Cambio, Exchange, Move, Pass, Place
from ...position import Position
from ...variant import BLANK, Variant
from ..evaluation.leaves import LeaveTable, leave_key, sub_leaves
from ..evaluation.winprob import WinTable
from ..movegen.candidates import Candidate, MoveGenerator, PlayBoard, end_leave_value, generator_for
from .inference import Inference

__all__ = ["Deal", "Playout", "PythonPlayout", "SimResult", "simulate"]


@dataclass(frozen=True)
class Deal:
    """One random deal of the unseen tiles: each opponent's rack, then the bag in draw order."""

    opponents: tuple[tuple[str, ...], ...]
    bag: tuple[str, ...]


POINT_WORTH = 0.0005
"""Win probability a point is worth when candidates are ranked by their chance of winning:
about a tenth of what a point changes that chance in a level game, so that winning comes
first and spread decides between moves that all win (or all lose)."""

PRUNE_Z = 2.5
"""Standard errors of the paired difference below the leader that drop a candidate."""

PRUNE_AFTER = 64
"""Deals every candidate plays before any is dropped."""


@dataclass
class SimResult:
    candidate: Candidate
    iterations: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    bonus: float = 0.0
    """Added to every outcome: what the playout cannot see (an EX shuffle's worth)."""
    wins: float | None = None
    """The sum of the playouts' chances of winning, when a win table is used."""
    pruned: bool = False
    """Dropped before the end as clearly worse than the leader (its figures are then over
    fewer deals than the others')."""
    per_deal: list[float] = field(default_factory=list, repr=False)
    """Each deal's ranking value (``rank_value``), kept for paired comparisons when pruning."""

    @property
    def mean(self) -> float:
        return self.total / self.iterations + self.bonus if self.iterations else -math.inf

    @property
    def win_rate(self) -> float | None:
        """The mean chance of winning over the playouts (None without a win table)."""
        if self.wins is None or not self.iterations:
            return None
        return self.wins / self.iterations

    @property
    def rank_value(self) -> float:
        """What candidates are ranked by: the chance of winning plus ``POINT_WORTH`` a point
        with a win table, else the mean points."""
        rate = self.win_rate
        return self.mean if rate is None else rate + POINT_WORTH * self.mean

    @property
    def stderr(self) -> float:
        if self.iterations < 2:
            return math.inf
        m = self.total / self.iterations
        var = max(0.0, self.total_sq / self.iterations - m * m)
        return math.sqrt(var / (self.iterations - 1))


class Playout(Protocol):
    """Plays one candidate out in one deal and returns its value for the player to move."""

    def __call__(self, candidate: Candidate, deal: Deal) -> float: ...


def deal_unseen(
    position: Position,
    players: int,
    rng: random.Random,
    known: tuple[str, ...] = (),
    known_seat: int = 1,
) -> Deal:
    """Deal the tiles the player to move cannot see: opponents' racks first, the rest the bag.

    The bag keeps its known size; the opponents share the other unseen tiles, a full rack
    each while there are enough (the rack sizes at a table are public, and full but for the
    very end). ``known``: tiles the opponent at ``known_seat`` is taken to hold (what rack
    inference says it kept), its rack filled from the shuffle like the others.
    """
    left = position.unseen()
    left.subtract(known)
    unseen = list(left.elements())
    rng.shuffle(unseen)
    bag = position.bag_count()
    held = len(unseen) + len(known) - bag
    racks = []
    size = position.variant.rack_size
    for seat in range(1, players):
        rack = known if seat == known_seat else ()
        k = min(size, held) - len(rack)
        racks.append(rack + tuple(unseen[:k]))
        unseen = unseen[k:]
        held -= k + len(rack)
    return Deal(tuple(racks), tuple(unseen))


class _Side:
    """A player during a playout."""

    __slots__ = ("gain", "rack")

    def __init__(self, rack: list[str]) -> None:
        self.rack = rack
        self.gain = 0


class PythonPlayout:
    """The playout loop in Python over the move generator: each reply the best static move
    (placement, or an exchange when its kept tiles are worth more).

    ``plies`` counts the moves after the candidate as in a two-player game: 2 is the
    opponent's reply and ours. At a larger table a ply is every opponent's reply in turn, so
    2 plies are all the replies and then ours.
    """

    def __init__(
        self,
        position: Position,
        lexicon: Lexicon,
        leaves: LeaveTable | None,
        players: int = 2,
        plies: int = 2,
        generator: MoveGenerator | None = None,
    ) -> None:
        self.position = position
        self.variant = position.variant
        self.lexicon = lexicon
        self.leaves = leaves
        self.players = players
        self.plies = plies
        self.gen = generator or generator_for(position.variant, lexicon)
        self._base = self.gen.board(position.board)
        self.behind = standings(position, players)

    # -- one playout ------------------------------------------------------------------------

    def __call__(self, candidate: Candidate, deal: Deal) -> float:
        v = self.variant
        pos = self.position
        board = self._base.copy()
        bag = list(deal.bag)
        me = _Side(list(pos.rack))
        sides = [me] + [_Side(list(r)) for r in deal.opponents]
        limit = v.end.scoreless_rounds * self.players
        # Our candidate first.
        over = self._apply_candidate(board, me, candidate, bag, sides)
        scoreless = self._streak(pos.scoreless_turns, candidate.kind)
        if not over and limit and scoreless >= limit:
            over = True
            self._finish(sides, out=None)
        turn = 1
        # Two plies: every opponent replies, then we do (one ply: only the replies).
        n = self.players
        total_moves = n * (self.plies // 2) + (n - 1) * (self.plies % 2)
        moves = 0
        while not over and moves < total_moves:
            side = sides[turn % self.players]
            over, kind = self._reply(board, side, bag, sides, turn % self.players)
            scoreless = self._streak(scoreless, kind)
            if not over and limit and scoreless >= limit:
                over = True
                self._finish(sides, out=None)
            turn += 1
            moves += 1
        value = me.gain - rival_gain(self.behind, [s.gain for s in sides[1:]])
        if not over:
            value += self._keep_value(me.rack, bag, sides)
        return float(value)

    def _streak(self, streak: int, kind: str) -> int:
        """The run of scoreless turns after a move of this kind, by the game's own rule."""
        return self.variant.end.scoreless_run(streak, None if kind in ("place", "cambio") else kind)

    def _apply_candidate(
        self, board: PlayBoard, me: _Side, c: Candidate, bag: list[str], sides: list[_Side]
    ) -> bool:
        move = c.move
        if isinstance(move, Place):
            self._place(board, move)
            _remove_played(me.rack, move)
            me.gain += c.score
            _draw(me.rack, bag, self.variant.rack_size)
            if c.shuffles_next_rack and len(sides) > 1:
                victim = sides[1]
                fresh = bag[: len(victim.rack)]
                del bag[: len(victim.rack)]
                bag.extend(victim.rack)
                victim.rack = fresh
            if not me.rack and not bag:
                self._finish(sides, out=me)
                return True
        elif isinstance(move, Exchange):
            for t in move.tiles:
                me.rack.remove(t)
            _draw(me.rack, bag, self.variant.rack_size)
            bag.extend(move.tiles)
        elif isinstance(move, Cambio):
            old = self._cambio(board, move)
            me.rack.remove(move.tile.rack_form)
            me.rack.append(old)
            me.gain += c.score
        elif not isinstance(move, Pass):  # pragma: no cover - candidates are these four
            raise TypeError(f"cannot simulate {move!r}")
        return False

    def _place(self, board: PlayBoard, place: Place) -> None:
        board.apply(place)

    def _cambio(self, board: PlayBoard, move: Cambio) -> str:
        plain = board.to_board()
        old = plain[move.square]
        assert old is not None
        plain[move.square] = move.tile
        board.set(plain)
        return str(old.letter)

    def _reply(
        self, board: PlayBoard, side: _Side, bag: list[str], sides: list[_Side], seat: int
    ) -> tuple[bool, str]:
        """The best static move for ``side``; returns (game over, the kind of move made)."""
        v = self.variant
        if not side.rack:
            return False, "pass"
        values = self.leaves.for_rack(side.rack) if self.leaves is not None and bag else None
        if not bag:
            others = [t for s in sides if s is not side for t in s.rack]
            values = {
                leave: end_leave_value(v, leave, others)
                for leave in sub_leaves(side.rack, v.alphabet)
            }
        best = self.gen.best(board, side.rack, 1, values, None)
        place_equity = -math.inf
        if best:
            p = best[0]
            place_equity = p.score + (values or {}).get(leave_key(p.leave, v.alphabet), 0.0)
        exch = self._best_exchange(side.rack, bag, values, blocked=not best)
        if best and (exch is None or place_equity >= exch[1]):
            p = best[0]
            self._place(board, p.place)
            _remove_played(side.rack, p.place)
            side.gain += p.score
            _draw(side.rack, bag, v.rack_size)
            if p.shuffles_next_rack and len(sides) > 1 and len(bag) >= _ex_min(v):
                victim = sides[(seat + 1) % len(sides)]
                fresh = bag[: len(victim.rack)]
                del bag[: len(victim.rack)]
                bag.extend(victim.rack)
                victim.rack = fresh
            if not side.rack and not bag:
                self._finish(sides, out=side)
                return True, "place"
            return False, "place"
        if exch is not None:
            returned = exch[0]
            for t in returned:
                side.rack.remove(t)
            _draw(side.rack, bag, v.rack_size)
            bag.extend(returned)
            return False, "exchange"
        return False, "pass"

    def _best_exchange(
        self,
        rack: list[str],
        bag: list[str],
        values: dict[tuple[str, ...], float] | None,
        blocked: bool,
    ) -> tuple[list[str], float] | None:
        """The tiles to keep in the best exchange and their value; ties keep fewer tiles.
        Without leave values every leave is worth 0, so a blocked player changes all it may."""
        rules = self.variant.exchange
        if not rules.allowed or len(bag) < max(rules.min_bag, 1):
            return None
        if rules.only_when_blocked and not blocked:
            return None
        if values is None:
            values = {kept: 0.0 for kept in sub_leaves(rack, self.variant.alphabet)}
        size = len(rack)
        low = size - min(rules.max_tiles, len(bag))
        best_kept: tuple[str, ...] | None = None
        best_value = -math.inf
        for kept, value in values.items():
            if not low <= len(kept) < size:
                continue
            if value > best_value or (
                value == best_value and best_kept is not None and len(kept) < len(best_kept)
            ):
                best_kept, best_value = kept, value
        if best_kept is None:
            return None
        returned = Counter(rack)
        returned.subtract(best_kept)
        return list(returned.elements()), best_value

    def _keep_value(self, rack: list[str], bag: list[str], sides: list[_Side]) -> float:
        if not rack:
            return 0.0
        if not bag:
            others = [t for s in sides[1:] for t in s.rack]
            return end_leave_value(self.variant, rack, others)
        return self.leaves.value(rack) if self.leaves is not None else 0.0

    def _finish(self, sides: list[_Side], out: _Side | None) -> None:
        """End-of-game adjustments, as ``Game`` makes them."""
        v = self.variant
        end = v.end
        for s in sides:
            if end.subtract_own_rack:
                s.gain -= sum(v.value(t) for t in s.rack)
            s.gain -= end.unplayed_blank_penalty * s.rack.count(BLANK)
        if out is not None and end.going_out_gains_others:
            out.gain += sum(v.value(t) for s in sides for t in s.rack)


def standings(position: Position, players: int) -> list[int]:
    """Each player's score minus the mover's (the mover first), for the first ``players``
    seats in turn order; seats the position does not score count as level."""
    scores = list(position.scores[:players]) + [0] * max(0, players - len(position.scores))
    mover = scores[0] if scores else 0
    return [score - mover for score in scores]


def rival_gain(behind: Sequence[int], gains: Sequence[float]) -> float:
    """What the mover's points in a playout are measured against: the points of the opponent
    who leads after it (its standing counted), less the most any opponent led by before it.
    With one opponent, that opponent's points; at a larger table only the one who will be
    ahead matters, as for who wins. The C core computes the same (``simulate.c``)."""
    if not gains:
        return 0.0
    leads = behind[1 : 1 + len(gains)]
    after = max(lead + gain for lead, gain in zip(leads, gains, strict=True))
    return after - max(leads)


def _ex_min(v: Variant) -> int:
    mins = [getattr(k, "min_bag", 7) for k in v.squares.values() if k.shuffles_next_rack]
    return min(mins) if mins else 0


def _remove_played(rack: list[str], place: Place) -> None:
    for letter in place.letters:
        if not letter.on_board and letter.tile is not None:
            rack.remove(letter.tile.rack_form)


def _draw(rack: list[str], bag: list[str], size: int) -> None:
    need = min(size - len(rack), len(bag))
    if need > 0:
        rack.extend(bag[:need])
        del bag[:need]


def simulate(
    position: Position,
    cands: Sequence[Candidate],
    lexicon: Lexicon,
    leaves: LeaveTable | None,
    *,
    players: int = 2,
    iterations: int = 300,
    plies: int = 2,
    seed: int | None = None,
    time_limit: float | None = None,
    ex_bonus: float = 0.0,
    generator: MoveGenerator | None = None,
    playout: Playout | None = None,
    threads: int = 1,
    win_table: WinTable | None = None,
    prune: bool = False,
    max_playouts: int | None = None,
    inference: Inference | None = None,
) -> list[SimResult]:
    """Simulate each candidate over the same random deals; best first.

    Stops after ``iterations`` deals, or at the end of the deal during which ``time_limit``
    seconds ran out (every candidate always has the same number of playouts). With the native
    core, ``threads`` share out the candidates (the C loop runs without the interpreter's
    lock): the same answer, sooner on as many cores.

    With the native core only: ``win_table`` (for this many players) ranks by the chance of winning
    (``SimResult.rank_value``); ``prune`` drops candidates clearly behind the leader after each
    batch and stops when one is left; ``max_playouts`` stops once that many playouts (all
    candidates together) are done. Best first: the candidates that ran to the end by rank, then
    the dropped ones.

    ``inference`` (``search.inference``): each deal gives that opponent one of the leaves its
    last play was consistent with, drawn at random, and the rest of its rack at random.
    """
    if threads < 1:
        raise ValueError(f"threads: at least 1, got {threads}")
    rng = random.Random(seed)
    results = [SimResult(c, bonus=ex_bonus if c.shuffles_next_rack else 0.0) for c in cands]
    deadline = None if time_limit is None else time.monotonic() + time_limit
    gen = generator or generator_for(position.variant, lexicon)
    core = getattr(gen, "core", None)
    if playout is None and core is not None:
        table = win_table if win_table is not None and win_table.players == players else None
        for r in results:
            r.wins = 0.0 if table is not None else None
        _simulate_native(
            position,
            results,
            core,
            leaves,
            players,
            plies,
            iterations,
            rng,
            deadline,
            threads,
            _NativeOptions(table, prune, max_playouts, inference),
        )
        results.sort(key=lambda r: (r.pruned, -r.rank_value, -r.candidate.equity))
        return results
    run = playout or PythonPlayout(position, lexicon, leaves, players, plies, gen)
    for _ in range(iterations):
        if inference is not None:
            deal = deal_unseen(position, players, rng, rng.choice(inference.kept), inference.seat)
        else:
            deal = deal_unseen(position, players, rng)
        for r in results:
            value = run(r.candidate, deal)
            r.iterations += 1
            r.total += value
            r.total_sq += value * value
        if deadline is not None and time.monotonic() > deadline:
            break
    results.sort(key=lambda r: (-r.mean, -r.candidate.equity))
    return results


NATIVE_BATCH = 32
"""Deals per C call: small enough to stop soon after a time limit, large enough that the
call's own cost (checking the candidates) does not count."""


@dataclass
class _NativeGroup:
    """Candidates the C loop plays out from one board and rack."""

    board: Board
    rack: tuple[str, ...]
    indices: list[int]
    moves: list[Move]
    scoreless: int
    points: int = 0
    """Added to every playout: a CAMBIO's own score (its group starts after it)."""


@dataclass(frozen=True)
class _NativeOptions:
    win_table: WinTable | None = None
    prune: bool = False
    max_playouts: int | None = None
    inference: Inference | None = None


def _simulate_native(
    position: Position,
    results: list[SimResult],
    core: Any,
    leaves: LeaveTable | None,
    players: int,
    plies: int,
    iterations: int,
    rng: random.Random,
    deadline: float | None,
    threads: int = 1,
    options: _NativeOptions = _NativeOptions(),
) -> None:
    """``simulate`` with the playouts in C, batch by batch, every group on the same deals.

    A candidate's playouts depend only on the deal's seed, not on the candidates beside it
    (``NativeGenerator.simulate``), so a group's candidates may be cut into ``threads`` slices,
    each simulated in a thread of its own: the results are those of one call; and a candidate
    dropped by pruning changes nothing for the others."""
    from ..movegen.native import learned_leave_values

    values = learned_leave_values(leaves) if leaves is not None else None
    plain = _NativeGroup(position.board, position.rack, [], [], position.scoreless_turns)
    groups = [plain]
    for i, r in enumerate(results):
        move = r.candidate.move
        if isinstance(move, Cambio):
            board = position.board.copy()
            board[move.square] = move.tile
            # -1: the pass that stands for the CAMBIO brings the scoreless run to 0, as a
            # scoring move does.
            groups.append(
                _NativeGroup(board, r.candidate.leave, [i], [Pass()], -1, r.candidate.score)
            )
        else:
            plain.indices.append(i)
            plain.moves.append(move)
    unseen = position.unseen()
    behind = standings(position, players)
    lead = -max(behind[1:]) if len(behind) > 1 else 0
    table = options.win_table
    per_deal = table is not None or options.prune
    # A board of its own for each group: the generator's scratch board is shared by every
    # thread that uses it (bots at several web tables), a NativeBoard is not.
    boards = [core.board(g.board) for g in groups]
    pool = ThreadPoolExecutor(threads) if threads > 1 else None

    inference = options.inference

    def playouts(
        board: Any,
        g: _NativeGroup,
        moves: list[Move],
        n: int,
        seed: int,
        known: list[tuple[str, ...]] | None,
    ) -> list[Any]:
        """``n`` deals of some of a group's candidates, cut among the threads."""

        def run(part: list[Move]) -> list[Any]:
            stats: list[Any] = core.simulate(
                board,
                g.rack,
                unseen,
                part,
                plies=plies,
                iterations=n,
                seed=seed,
                leaves=values,
                players=players,
                scoreless=g.scoreless,
                behind=behind,
                per_deal=per_deal,
                known=known,
                known_seat=inference.seat if inference is not None else 1,
            )
            return stats

        slices = _slices(moves, threads)
        if pool is None or len(slices) < 2:
            return run(moves)
        return [st for part in pool.map(run, slices) for st in part]

    def record(r: SimResult, st: Any, points: int, n: int) -> None:
        mean = st.mean + points
        r.iterations += n
        r.total += mean * n
        r.total_sq += st.sd * st.sd * (n - 1) + n * mean * mean
        if not per_deal:
            return
        for value, hidden in zip(st.values, st.unseen_end, strict=True):
            value += points
            if table is None:
                r.per_deal.append(value + r.bonus)
                continue
            final = lead + value
            if hidden == 255:  # the game ended in the playout: its result, not a guess
                win = 1.0 if final > 0 else 0.5 if final == 0 else 0.0
            else:
                win = table.probability(final, hidden)
            assert r.wins is not None
            r.wins += win
            r.per_deal.append(win + POINT_WORTH * (value + r.bonus))

    try:
        done = playouts_run = 0
        while done < iterations:
            n = min(NATIVE_BATCH, iterations - done)
            batch_seed = rng.randrange(2**64)
            known = None if inference is None else [rng.choice(inference.kept) for _ in range(n)]
            for g, board in zip(groups, boards, strict=True):
                live = [
                    (i, m) for i, m in zip(g.indices, g.moves, strict=True) if not results[i].pruned
                ]
                if not live:
                    continue
                stats = playouts(board, g, [m for _, m in live], n, batch_seed, known)
                for (i, _), st in zip(live, stats, strict=True):
                    record(results[i], st, g.points, n)
                playouts_run += n * len(live)
            done += n
            if options.prune and done >= PRUNE_AFTER and _prune(results) <= 1:
                break
            if options.max_playouts is not None and playouts_run >= options.max_playouts:
                break
            if deadline is not None and time.monotonic() > deadline:
                break
    finally:
        if pool is not None:
            pool.shutdown()


def _prune(results: list[SimResult]) -> int:
    """Drop the candidates clearly behind the leader, deal by deal; how many remain."""
    live = [r for r in results if not r.pruned]
    leader = max(live, key=lambda r: sum(r.per_deal) / len(r.per_deal))
    for r in live:
        if r is leader:
            continue
        diffs = [a - b for a, b in zip(r.per_deal, leader.per_deal, strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean + PRUNE_Z * math.sqrt(var / n) < 0:
            r.pruned = True
    return sum(1 for r in results if not r.pruned)


def _slices(moves: list[Move], parts: int) -> list[list[Move]]:
    """The moves cut into at most ``parts`` runs of nearly equal length, in order."""
    parts = max(1, min(parts, len(moves)))
    size, extra = divmod(len(moves), parts)
    out, start = [], 0
    for k in range(parts):
        end = start + size + (1 if k < extra else 0)
        out.append(moves[start:end])
        start = end
    return out
