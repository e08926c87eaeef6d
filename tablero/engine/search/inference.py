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
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...board import Board
from ...game import Game
from ...moves import Place
from ...rules import IllegalMove, resolve_place
from ..evaluation.leaves import LeaveTable

if TYPE_CHECKING:
    from ..movegen.native import NativeGenerator

__all__ = ["Inference", "LastPlay", "infer_kept", "last_play"]

TOLERANCE = 3.0
"""Points of equity a play may fall short of the best one from a leave for the leave to be
kept: an opponent that simulates picks among moves a few points apart, and one that plays by
static equity is matched exactly."""

SAMPLES = 400
"""Leaves drawn at most per inference."""

MIN_KEPT = 16
"""Fewer consistent leaves than this, and nothing is inferred: a handful of samples would
stand for the opponent's rack in every deal."""


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
    events = [e for e in game.log if e["type"] != "shuffle"]
    if not events or events[-1]["type"] != "move" or events[-1]["result"] != "placed":
        return None
    event = events[-1]
    mover = game.to_move
    if event["seat"] == mover or not game.bag:
        return None
    order = game.seats_from(mover)
    if event["seat"] not in order:
        return None
    move = game.parse(event["move"])
    if not isinstance(move, Place):
        return None
    # On the board as it is now every letter of the play lies in place; the ones the written
    # play does not mark as already there are the tiles it put down.
    before = game.board.copy()
    dr, dc = (0, 1) if move.across else (1, 0)
    played = []
    for i, letter in enumerate(move.letters):
        if letter.on_board:
            continue
        coord = (move.start[0] + i * dr, move.start[1] + i * dc)
        tile = before[coord]
        if tile is None:
            return None
        played.append(tile.rack_form)
        before[coord] = None
    try:
        resolve_place(move, before)  # the play fits the board it was made on
    except IllegalMove:
        return None
    return LastPlay(order.index(event["seat"]), before, tuple(played), int(event["score"]))


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
) -> Inference | None:
    """Samples of what the opponent kept after ``play`` (``None``: too few to say).

    ``unseen`` is what the mover cannot see now (the bag and the others' racks), which holds
    the opponent's kept tiles; ``generator`` the native ``NativeGenerator`` of the game and
    dictionary; ``leaves`` the leave values the opponent is taken to play by."""
    from ..movegen.native import learned_leave_values

    size = rack_size - len(play.played)
    pool = list(unseen.elements())
    if size <= 0 or size > len(pool):
        return None
    values = learned_leave_values(leaves)
    board = generator.board(play.board)
    first = play.board.is_empty()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    kept: list[tuple[str, ...]] = []
    tried = 0
    while tried < samples:
        tried += 1
        leave = tuple(rng.sample(pool, size))
        best = generator.best_equity(board, play.played + leave, values, first)
        if best is not None and play.score + values.value(leave) >= best - tolerance:
            kept.append(leave)
        if deadline is not None and time.monotonic() > deadline:
            break
    if len(kept) < MIN_KEPT:
        return None
    return Inference(play.seat, tuple(kept), tried)
