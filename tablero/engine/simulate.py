"""Monte Carlo simulation: which of a few good moves does best over the next turns.

Static equity judges a move by its score and the tiles kept; it cannot see that a move opens
a triple-word lane, or that a rack kept for a bingo will usually get one. Simulation plays each
candidate out: the unseen tiles are dealt at random to the opponents' racks and the bag, each
opponent replies with its best static move, then we reply, and the result is our points minus
theirs plus what we keep. Averaged over many deals, with **the same deal for every candidate**
in an iteration (common random numbers), so the differences between candidates are not
drowned by the luck of the draw.

The playout of one candidate in one deal is a ``Playout``: ``PythonPlayout`` drives the move
generator (the native one when built) from Python; a playout written in the native core can
take its place without changing anything else here.

Tables of three or four: each opponent replies in turn order, and the result is our gain
minus the mean of theirs.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..lexicon import Lexicon
from ..moves import Cambio, Exchange, Pass, Place
from ..position import Position
from ..variant import BLANK, Variant
from .candidates import Candidate, MoveGenerator, PlayBoard, end_leave_value, generator_for
from .leaves import LeaveTable, leave_key, sub_leaves

__all__ = ["Deal", "Playout", "PythonPlayout", "SimResult", "simulate"]


@dataclass(frozen=True)
class Deal:
    """One random deal of the unseen tiles: each opponent's rack, then the bag in draw order."""

    opponents: tuple[tuple[str, ...], ...]
    bag: tuple[str, ...]


@dataclass
class SimResult:
    candidate: Candidate
    iterations: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    bonus: float = 0.0
    """Added to every outcome: what the playout cannot see (an EX shuffle's worth)."""

    @property
    def mean(self) -> float:
        return self.total / self.iterations + self.bonus if self.iterations else -math.inf

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


def deal_unseen(position: Position, players: int, rng: random.Random) -> Deal:
    """Deal the tiles the player to move cannot see: opponents' racks first, the rest the bag.

    The bag keeps its known size; the opponents share the other unseen tiles, a full rack
    each while there are enough (the rack sizes at a table are public, and full but for the
    very end).
    """
    unseen = list(position.unseen().elements())
    rng.shuffle(unseen)
    bag = position.bag_count()
    held = len(unseen) - bag
    racks = []
    size = position.variant.rack_size
    for _ in range(players - 1):
        k = min(size, held)
        racks.append(tuple(unseen[:k]))
        unseen = unseen[k:]
        held -= k
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

    # -- one playout ------------------------------------------------------------------------

    def __call__(self, candidate: Candidate, deal: Deal) -> float:
        v = self.variant
        pos = self.position
        board = self._base.copy()
        bag = list(deal.bag)
        me = _Side(list(pos.rack))
        sides = [me] + [_Side(list(r)) for r in deal.opponents]
        scoreless = pos.scoreless_turns
        # Our candidate first.
        over = self._apply_candidate(board, me, candidate, bag, sides)
        scoreless = 0 if candidate.kind in ("place", "cambio") else scoreless + 1
        turn = 1
        # Two plies: every opponent replies, then we do (one ply: only the replies).
        n = self.players
        total_moves = n * (self.plies // 2) + (n - 1) * (self.plies % 2)
        moves = 0
        while not over and moves < total_moves:
            side = sides[turn % self.players]
            over, scored = self._reply(board, side, bag, sides, turn % self.players)
            scoreless = 0 if scored else scoreless + 1
            if v.end.scoreless_rounds and scoreless >= v.end.scoreless_rounds * self.players:
                over = True
                self._finish(sides, out=None)
            turn += 1
            moves += 1
        others = [s.gain for s in sides[1:]]
        value = me.gain - (sum(others) / len(others) if others else 0.0)
        if not over:
            value += self._keep_value(me.rack, bag, sides)
        return float(value)

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
    ) -> tuple[bool, bool]:
        """The best static move for ``side``; returns (game over, scored)."""
        v = self.variant
        if not side.rack:
            return False, False
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
        exch = self._best_exchange(side.rack, bag, values)
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
                return True, True
            return False, True
        if exch is not None:
            returned = exch[0]
            for t in returned:
                side.rack.remove(t)
            _draw(side.rack, bag, v.rack_size)
            bag.extend(returned)
        return False, False

    def _best_exchange(
        self, rack: list[str], bag: list[str], values: dict[tuple[str, ...], float] | None
    ) -> tuple[list[str], float] | None:
        rules = self.variant.exchange
        if not rules.allowed or len(bag) < max(rules.min_bag, 1) or values is None:
            return None
        if rules.only_when_blocked:
            return None  # only a blocked player may: the reply found a placement or passes
        size = len(rack)
        low = size - min(rules.max_tiles, len(bag))
        best_kept: tuple[str, ...] | None = None
        best_value = -math.inf
        for kept, value in values.items():
            if low <= len(kept) < size and value > best_value:
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
) -> list[SimResult]:
    """Simulate each candidate over the same random deals; best mean first.

    Stops after ``iterations`` deals, or at the end of the deal during which ``time_limit``
    seconds ran out (every candidate always has the same number of playouts).
    """
    rng = random.Random(seed)
    run = playout or PythonPlayout(position, lexicon, leaves, players, plies, generator)
    results = [SimResult(c, bonus=ex_bonus if c.shuffles_next_rack else 0.0) for c in cands]
    deadline = None if time_limit is None else time.monotonic() + time_limit
    for _ in range(iterations):
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
