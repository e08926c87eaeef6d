"""A finished game, step by step: the board, racks and scores after every action, for the
replay page; and the position before any action as CGP, for the engine.

A step is one action (a move, a challenge, a timeout, a resignation) with what followed it
(a skipped turn, an EX shuffle, the end). The frames are made by replaying the stored log
action by action (``Game.extend``), each checked as a reload is. Only finished games are
replayed: their racks are public at the end, as at a real table; a game in play shows its
position through the table view, to each viewer their own rack.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...formats.cgp import write_cgp
from ...game import Event, Game
from ...lexicon import Lexicon
from ...variant import Variant
from .views import board_json, history, result_json

__all__ = ["ACTIONS", "Finished", "cgp_at", "replay_frames", "steps"]

ACTIONS = frozenset({"move", "challenge", "timeout", "resign"})
"""Events a player (or the clock) caused; the others follow from them."""


@dataclass(frozen=True)
class Finished:
    """What a finished game is replayed from: its log (a copy), dictionary, rules, names."""

    log: list[Event]
    lexicon: Lexicon
    variant: Variant
    names: list[str]

    @classmethod
    def of(cls, game: Game, names: list[str]) -> Finished:
        return cls(list(game.log), game.lexicon, game.variant, list(names))

    def games(self) -> Iterator[Game]:
        """The game at the start and after each step (one game, extended: read each at once)."""
        variant = self.variant
        game = Game.replay(self.log[:1], self.lexicon, lambda _name: variant)
        yield game
        for end in steps(self.log):
            if end > len(game.log):
                game.extend(self.log[:end])
                yield game


def steps(log: list[Event]) -> list[int]:
    """The log's length after each step: ``log[:n]`` is the game after that many steps."""
    ends = [i for i in range(1, len(log)) if log[i].get("type") in ACTIONS]
    return [*ends[1:], len(log)] if ends else [len(log)]


def _frame(game: Game, ply: int, moves: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "ply": ply,
        "moves": moves,
        "board": board_json(game.board),
        "racks": [list(p.rack) for p in game.players],
        "scores": [p.score for p in game.players],
        "bag_count": len(game.bag),
        "to_move": None if game.is_over else game.to_move,
    }


def replay_frames(finished: Finished) -> dict[str, Any]:
    """Every frame of a finished game (frame 0: the racks first drawn, an empty board)."""
    frames: list[dict[str, Any]] = []
    seen = 0
    last: Game | None = None
    for ply, game in enumerate(finished.games()):
        entries = history(game, finished.names)
        frames.append(_frame(game, ply, entries[seen:]))
        seen = len(entries)
        last = game
    assert last is not None
    return {"frames": frames, "result": result_json(last, finished.names)}


def cgp_at(finished: Finished, ply: int) -> str:
    """The position after ``ply`` steps, as its player to move sees it (their rack only),
    in CGP. ``ValueError`` for a ply the game does not have."""
    total = len(steps(finished.log))
    if not 0 <= ply <= total:
        raise ValueError(f"ply: this game has steps 0 to {total}")
    for n, game in enumerate(finished.games()):
        if n == ply:
            position = game.position(game.to_move)
            position.racks = [position.racks[0]] + [() for _ in position.racks[1:]]
            return write_cgp(position)
    raise ValueError(f"ply: this game has steps 0 to {total}")  # pragma: no cover
