"""What an opponent's last play says about the tiles it kept.

A simulation deals the unseen tiles at random, as if the opponent's rack were any draw from
them. But the opponent chose its play from a full rack: the tiles it kept are those with which
that play was among its best. An opponent that played ``QI`` for 22 is unlikely to hold a U it
could have used for more; one that played off a single E keeps good tiles.

Inference turns this into samples, by rejection (the statement of the method, with its
numbers, is docs/bots.md, "Rack inference"):

1. draw a leave at random from the tiles the mover cannot see now (the bag and the others'
   racks hold the opponent's kept tiles, and the mover's own rack and the board cannot), of the
   size the play left: the rack size less the tiles played;
2. put the opponent back before its play with that leave plus the tiles it played, and find its
   best placement by static equity (score plus the leave value, ``movegen``);
3. keep the leave if the play it made is worth at most ``tolerance`` points less than that
   best: the play was one a good player makes from that rack.

The leaves kept are draws from the leaves consistent with the play, each as likely as the
draw made it (the uniform draw of step 1 is the prior, the test of step 3 the likelihood), so
the simulation can deal deal ``i`` the ``i``-th of them and the rest of that opponent's rack at
random (``NativeGenerator.simulate``'s ``known``). When too few are kept (a play no static
player would make: a human's, a fishing move), nothing is inferred and the deals stay uniform.

**A chain of plays.** The leave of step 1 need not be a uniform draw. The tiles an opponent
kept at one play are on its rack at the next, beside the tiles it drew, so what its earlier
play said it kept is a better prior for its rack before the last one. ``infer_recent`` reads
the same opponent's last few placements oldest first, each one's kept leaves the prior of the
next (``infer_kept``'s ``prior``; docs/bots.md, "Rack inference", states the weights): a
particle filter whose particles are leaves. A play a chain cannot explain falls back to the
uniform prior.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...board import Board
from ...game import Game
from ...moves import Place
from ...rules import IllegalMove, resolve_place
from ..evaluation.leaves import LeaveTable

if TYPE_CHECKING:
    from ..movegen.native import NativeGenerator

__all__ = ["Inference", "LastPlay", "infer_kept", "infer_recent", "last_play", "recent_plays"]

TOLERANCE = 3.0
"""Points of equity a play may fall short of the best one from a leave for the leave to be
kept: an opponent that simulates picks among moves a few points apart, and one that plays by
static equity is matched exactly."""

SAMPLES = 400
"""Leaves drawn at most per inference."""

MIN_KEPT = 16
"""Fewer consistent leaves than this, and nothing is inferred: a handful of samples would
stand for the opponent's rack in every deal."""

CHAIN = 3
"""Placements of the same opponent read at most, the last one included (``recent_plays``)."""


@dataclass(frozen=True)
class LastPlay:
    """An opponent's last placement, as the mover can reconstruct it."""

    seat: int
    """The opponent's place in the mover's turn order (1: the next to play)."""
    board: Board
    """The board before the play."""
    played: tuple[str, ...]
    """The tiles it took from its rack, as on a rack (``?`` for a blank)."""
    score: int


@dataclass(frozen=True)
class Inference:
    """Samples of what one opponent kept after its last play."""

    seat: int
    """The opponent's place in the mover's turn order (1: the next to play)."""
    kept: tuple[tuple[str, ...], ...]
    """Leaves consistent with the play, each a draw from them (repeats are expected)."""
    tried: int
    """Leaves drawn to find them."""

    def frequency(self, tile: str) -> float:
        """The share of the consistent leaves that hold ``tile``."""
        return sum(1 for leave in self.kept if tile in leave) / len(self.kept)


def last_play(game: Game) -> LastPlay | None:
    """The placement just made, if the player to move can learn from it: it was the last
    turn, by another player still in the game, a placement (not an exchange, a pass, a CAMBIO
    or a play taken back after a challenge), made from a full rack that the bag refilled."""
    plays = recent_plays(game, 1)
    return plays[0] if plays else None


def recent_plays(game: Game, depth: int = CHAIN) -> tuple[LastPlay, ...]:
    """The last play (``last_play``) and the same opponent's placements just before it, newest
    first, at most ``depth``: each with the board it was made on.

    The chain goes back only while each play's kept tiles are sure to be on the rack of the
    next: it stops at that opponent's exchange, pass or lost turn, at an EX square that
    shuffled its rack, and at anything that changed the board other than a placement (a
    CAMBIO, a play taken back after a challenge), before which the boards are not rebuilt."""
    log = game.log
    i = len(log) - 1
    while i >= 0 and log[i]["type"] == "shuffle":
        i -= 1  # the last play's own EX shuffle: the next rack's, not the player's
    if i < 1 or log[i]["type"] != "move" or log[i]["result"] != "placed" or not game.bag:
        return ()
    target = log[i]["seat"]
    order = game.seats_from(game.to_move)
    if target == game.to_move or target not in order:
        return ()
    board = game.board.copy()
    plays: list[LastPlay] = []
    for event in reversed(log[1 : i + 1]):
        if len(plays) == depth:
            break
        kind = event["type"]
        if kind == "shuffle":
            if event["seat"] == target:
                break
            continue
        if kind != "move":
            break
        result = event["result"]
        if result != "placed":
            if event["seat"] == target or result not in ("exchanged", "passed", "lost_turn"):
                break
            continue
        move = game.parse(event["move"])
        if not isinstance(move, Place):
            break
        played = _take_back(board, move)
        if played is None:
            break
        if event["seat"] == target:
            try:
                resolve_place(move, board)  # the play fits the board it was made on
            except IllegalMove:
                break
            plays.append(LastPlay(order.index(target), board.copy(), played, int(event["score"])))
    return tuple(plays)


def _take_back(board: Board, move: Place) -> tuple[str, ...] | None:
    """Lift the tiles ``move`` put down off ``board`` (as it is just after the move) and return
    them as on a rack; ``None`` (the board part-way) if a square the move names is empty.

    On the board after the play every letter of it lies in place; the ones the written play
    does not mark as already there are the tiles it put down."""
    dr, dc = (0, 1) if move.across else (1, 0)
    played = []
    for i, letter in enumerate(move.letters):
        if letter.on_board:
            continue
        coord = (move.start[0] + i * dr, move.start[1] + i * dc)
        tile = board[coord]
        if tile is None:
            return None
        played.append(tile.rack_form)
        board[coord] = None
    return tuple(played)


def infer_kept(
    play: LastPlay,
    unseen: Counter[str],
    generator: NativeGenerator,
    leaves: LeaveTable,
    rack_size: int,
    *,
    rng: random.Random,
    samples: int = SAMPLES,
    tolerance: float = TOLERANCE,
    time_limit: float | None = None,
    prior: Inference | None = None,
) -> Inference | None:
    """Samples of what the opponent kept after ``play`` (``None``: too few to say).

    ``unseen`` is what the mover cannot see now (the bag and the others' racks), which holds
    the opponent's kept tiles; ``generator`` the native ``NativeGenerator`` of the game and
    dictionary; ``leaves`` the leave values the opponent is taken to play by. ``prior``: what
    the same opponent kept at its play before this one (``infer_recent``), which was on the
    rack it made this play from; without it, or if no leave drawn from it passes, the leave
    is drawn uniformly from ``unseen``."""
    from ..movegen.native import learned_leave_values

    size = rack_size - len(play.played)
    pool = list(unseen.elements())
    if size <= 0 or size > len(pool):
        return None
    values = learned_leave_values(leaves)
    board = generator.board(play.board)
    first = play.board.is_empty()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    draw = _chained_draw(prior, play.played, unseen, rack_size, rng) if prior else None
    while True:
        kept: list[tuple[str, ...]] = []
        tried = 0
        while tried < samples:
            tried += 1
            leave = draw() if draw is not None else tuple(rng.sample(pool, size))
            best = generator.best_equity(board, play.played + leave, values, first)
            if best is not None and play.score + values.value(leave) >= best - tolerance:
                kept.append(leave)
            if deadline is not None and time.monotonic() > deadline:
                break
        if len(kept) >= MIN_KEPT:
            return Inference(play.seat, tuple(kept), tried)
        if draw is None:
            return None
        draw = None  # the chain cannot explain this play: back to the uniform prior


def _chained_draw(
    prior: Inference,
    played: Sequence[str],
    unseen: Counter[str],
    rack_size: int,
    rng: random.Random,
) -> Callable[[], tuple[str, ...]] | None:
    """A draw of the leave kept after a play of ``played``, given ``prior``, samples of what
    the player kept at its play before (``None``: no sample of it fits what is unseen now).

    The rack the play was made from was a kept leave ``K`` of the prior plus ``d`` tiles drawn
    after that earlier play, ``d = rack_size − |K|``; it held ``played``, so the draw held
    ``N = played − K``. ``K`` is weighed by the chance that a draw of ``d`` tiles from the
    tiles it could come from (the unseen tiles and ``played``, less ``K``) holds ``N``, counted
    as ``∏ C(c_t, n_t) · C(T − |N|, d − |N|)`` over the tiles ``t`` of ``N`` (the binomial of
    the total, the same for every ``K``, dropped); the rest of the draw, ``E``, comes uniformly
    from the tiles left. The leave kept is then ``(K − played) + E``.
    """
    need = Counter(played)
    available = unseen + need
    options: list[tuple[tuple[str, ...], list[str], int]] = []
    weights: list[float] = []
    for leave, count in Counter(prior.kept).items():
        keep = Counter(leave)
        if keep - available:
            continue  # a tile of K is now on the mover's rack or was played by another
        source = available - keep
        missing = need - keep
        drawn = rack_size - len(leave)
        short = drawn - missing.total()
        if short < 0 or missing - source:
            continue
        weight = math.comb(source.total() - missing.total(), short)
        for tile, n in missing.items():
            weight *= math.comb(source[tile], n)
        if weight:
            left = tuple((keep - need).elements())
            options.append((left, list((source - missing).elements()), short))
            weights.append(count * weight)
    if not options:
        return None
    cumulative = list(itertools.accumulate(weights))  # once, not at each of the draws

    def draw() -> tuple[str, ...]:
        left, source, short = rng.choices(options, cum_weights=cumulative)[0]
        return left + tuple(rng.sample(source, short))

    return draw


def infer_recent(
    plays: Sequence[LastPlay],
    unseen: Counter[str],
    generator: NativeGenerator,
    leaves: LeaveTable,
    rack_size: int,
    *,
    rng: random.Random,
    samples: int = SAMPLES,
    tolerance: float = TOLERANCE,
) -> Inference | None:
    """What the opponent kept after the first of ``plays`` (``recent_plays``: newest first),
    each earlier play's kept leaves the prior of the next.

    Every play's kept tiles are among what the mover cannot see now (``unseen``) and the tiles
    that opponent played since, so that is what each older play's leaves are drawn from."""
    inferred: Inference | None = None
    later: Counter[str] = Counter()
    pools = []
    for play in plays:
        pools.append(unseen + later)
        later.update(play.played)
    for play, pool in zip(reversed(plays), reversed(pools), strict=True):
        inferred = infer_kept(
            play,
            pool,
            generator,
            leaves,
            rack_size,
            rng=rng,
            samples=samples,
            tolerance=tolerance,
            prior=inferred,
        )
    return inferred
