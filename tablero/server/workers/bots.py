"""Computer players at web tables: the engine's bots (``tablero.engine.players``) behind two steps.

A table stores a bot's level as a number, 1 to 5, and shows it as one (``level 3``). The
numbers are the engine's levels in order of strength: beginner, easy, medium, hard, expert.

The bot thinks without holding the table: ``plan_move`` runs under the table's lock and takes a
snapshot of what the seat sees (copies, never the live game). The ``BotJob`` it returns is
plain, picklable data, thought about by ``think`` in a worker process (``workers/pool.py``) or,
for scripts and tests, in the caller. The room applies the move only if the table has not moved
on in the meantime. A preview or a spectator therefore never waits for an expert's simulation.

A table whose dictionary cannot be searched (``lexicon = "none"`` in a rule file) gives its bots
nothing to find words with. They exchange their whole rack if the rules allow it, else pass.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from ...engine.players import Bot, seat_view
from ...engine.search.inference import LastPlay
from ...game import Game
from ...lexicon import Lexicon
from ...moves import Challenge, Exchange, Move, Pass
from ...position import Position
from ...rules import IllegalMove
from ...variant import Variant

__all__ = ["LEVELS", "LEVEL_NAMES", "BotJob", "choose_move", "plan_move", "think"]

LEVEL_NAMES = ("beginner", "easy", "medium", "club", "expert")
LEVELS = tuple(range(1, len(LEVEL_NAMES) + 1))

SERVER_TIME_LIMIT = 5.0
"""Seconds an expert may simulate or search an endgame before it must answer at a table."""


_bots: OrderedDict[tuple[str, str, int, int], tuple[Variant, Lexicon, Bot]] = OrderedDict()
_bots_lock = threading.Lock()
BOTS_KEPT = 32
"""Bots a process keeps (the most recently used): each holds its dictionary, and every club's
list of words is a dictionary of its own (tens of megabytes for a shipped one)."""


def _bot(variant: Variant, lexicon: Lexicon, level: int) -> Bot:
    """One bot per rule set, dictionary and level, kept so its leave table loads once.

    Keyed by the rule set's source and name (a worker process receives a new copy of the
    rule set with every job) and the dictionary's identity; the entry holds the objects, so an
    identity is never reused while cached.
    """
    key = (variant.source, variant.name, id(lexicon), level)
    with _bots_lock:
        if key not in _bots:
            bot = Bot(LEVEL_NAMES[level - 1], variant, lexicon, time_limit=SERVER_TIME_LIMIT)
            _bots[key] = (variant, lexicon, bot)
            while len(_bots) > BOTS_KEPT:
                _bots.popitem(last=False)
        _bots.move_to_end(key)
        return _bots[key][2]


@dataclass(frozen=True)
class BotJob:
    """What a bot needs to choose a move, and nothing of the live game: picklable, so it can
    be thought about in another process (which finds the dictionary by the rule set's name)."""

    position: Position
    level: int
    players: int
    plays: tuple[LastPlay, ...] = ()
    """The last opponent's recent placements, newest first, for a level that infers its
    rack from them (``Bot.plays_to_read``): boards and tiles everyone at the table has seen."""


def plan_move(game: Game, seat: int, level: int) -> Move | BotJob:
    """Snapshot what ``seat`` sees (call under the table's lock): the move itself when no
    thinking is needed (a challenge, no dictionary), else the job that finds it."""
    if level not in LEVELS:
        raise ValueError(f"bot level must be one of {LEVELS}, not {level}")
    if game.to_move != seat:
        raise ValueError(f"seat {seat} is not to move")
    if not game.lexicon.can_search:
        return _without_dictionary(game, seat)
    bot = _bot(game.variant, game.lexicon, level)
    if bot.should_challenge(game, seat):
        return Challenge()
    view = seat_view(game, seat)  # the players still in the game (resigned ones left out)
    return BotJob(view, level, len(view.racks), bot.plays_to_read(game))


def think(job: BotJob, lexicon: Lexicon) -> Move:
    """The bot's move for a job (slow: a worker process or thread calls it)."""
    bot = _bot(job.position.variant, lexicon, job.level)
    inference = bot.infer_from_plays(job.plays, job.position)
    return bot.choose_in(job.position, players=job.players, inference=inference).move


def choose_move(game: Game, seat: int, level: int) -> Move:
    """The move in one step, for callers that hold the game alone (tests, scripts)."""
    plan = plan_move(game, seat, level)
    return think(plan, game.lexicon) if isinstance(plan, BotJob) else plan


def _without_dictionary(game: Game, seat: int) -> Move:
    rack = list(game.players[seat].rack)
    if rack and game.variant.exchange.allowed:
        exchange = Exchange(tuple(rack[: game.variant.exchange.max_tiles]))
        try:
            game.check(exchange)
            return exchange
        except IllegalMove:
            pass
    return Pass()
