"""The positions of a recorded game, each as its player saw it before moving.

A GCG file keeps each mover's rack, the moves and the totals, not the bag's order, so the
game cannot be replayed as a ``Game``. What a player knew is still all there: the board
(``walk_gcg`` rebuilds it and checks every score), their own rack, the scores, the exchanges
and CAMBIOs each player has used, the run of scoreless turns, and who has resigned. The
others' racks are unknown (empty in the position), and the bag's size follows from the unseen
tiles, since every opponent holds a full rack while the bag has tiles (``Position.bag_count``).

Only lines with a rack are positions to analyse: a move without its rack (a game written
while in play, or by a program that hides racks) cannot be judged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..formats.gcg import GcgError, GcgGame, GcgStep, GcgTurn, walk_gcg
from ..moves import NotationError, parse_rack
from ..position import Position
from ..variant import Variant

__all__ = ["GamePosition", "game_positions"]

ANALYSED_KINDS = ("place", "exchange", "pass", "cambio")
"""The lines that are a player's choice; ``--`` and end-of-game lines are consequences."""


@dataclass(frozen=True)
class GamePosition:
    ply: int
    """The choice's number in the game, from 1 (lines that are not choices are not counted)."""
    step: GcgStep
    position: Position
    """Before the move, seen by its player: their rack first, the others' unknown."""

    @property
    def turn(self) -> GcgTurn:
        return self.step.turn


def game_positions(
    gcg: GcgGame, variant: Variant, lexicon_name: str | None = None
) -> Iterator[GamePosition]:
    """Every choice of the game with a rack, in order, with the position before it."""
    players = len(gcg.players)
    exchanges = [0] * players
    cambios = [0] * players
    resigned: set[int] = set()
    resignations = sorted(gcg.resignations)
    scoreless = 0
    ply = 0
    for step in walk_gcg(gcg, variant):
        turn = step.turn
        while resignations and resignations[0][0] < turn.line:
            resigned.add(resignations.pop(0)[1])
        if turn.kind in ANALYSED_KINDS:
            ply += 1
            if turn.rack is not None:
                order = _turn_order(variant, players, turn.player, resigned)
                try:
                    rack = tuple(parse_rack(turn.rack, variant.alphabet))
                except NotationError as e:
                    raise GcgError(f"line {turn.line}: rack {turn.rack}: {e}") from None
                position = Position(
                    variant=variant,
                    board=step.board.copy(),
                    racks=[rack] + [() for _ in order[1:]],
                    scores=[step.totals[s] for s in order],
                    scoreless_turns=scoreless,
                    lexicon=lexicon_name,
                    exchanges_used=[exchanges[s] for s in order],
                    cambios_used=[cambios[s] for s in order],
                )
                yield GamePosition(ply, step, position)
        if turn.kind == "exchange":
            exchanges[turn.player] += 1
        elif turn.kind == "cambio":
            cambios[turn.player] += 1
        kind = {"pass": "pass", "exchange": "exchange"}.get(turn.kind)
        if turn.kind == "place" and step.withdrawn_next:
            kind = "lost"
        if turn.kind in ANALYSED_KINDS:
            scoreless = variant.end.scoreless_run(scoreless, kind)


def _turn_order(variant: Variant, players: int, seat: int, resigned: set[int]) -> list[int]:
    """The seats from ``seat`` in the game's direction, without those who have resigned."""
    step = 1 if variant.turn_direction == "clockwise" else -1
    order = [(seat + step * k) % players for k in range(players)]
    return [s for s in order if s == seat or s not in resigned]
