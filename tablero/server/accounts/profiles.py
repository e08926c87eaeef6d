"""What anyone may read about a player: ratings per game, rating history, finished games,
puzzle ratings per game; and the computer levels' ratings. Public data only: no prefs, no
sessions, nothing of a game in progress (a rack is never in a game that is not over).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request

from ...puzzles.rating import solver_json
from ..errors import ApiError
from ..puzzles import store as puzzle_store
from ..ratings import store as ratings_store
from ..ratings.players import account_player_key, bot_player_key
from ..store import tables as table_store
from ..tables.views import iso_time
from ..workers.bots import LEVEL_NAMES, LEVELS
from . import store
from .names import UsernameError, normalize_username, username_key

__all__ = ["install_profile_routes", "puzzle_ratings_for_account", "ratings_for_account"]


async def ratings_for_account(engine: Any, account_id: int) -> dict[str, Any]:
    ratings = await asyncio.to_thread(
        ratings_store.ratings_of, engine, account_player_key(account_id)
    )
    return ratings_store.ratings_json(ratings)


async def puzzle_ratings_for_account(engine: Any, account_id: int) -> dict[str, Any]:
    """``{variant: solver}`` (``solver_json``: rating, provisional, attempts, solved,
    streaks) for each game in which the account has a rated puzzle attempt, by name."""
    solvers = await asyncio.to_thread(puzzle_store.solvers, engine, account_player_key(account_id))
    return {variant: solver_json(s) for variant, s in sorted(solvers.items()) if s.rating.games > 0}


def _game_json(game: table_store.FinishedGame) -> dict[str, Any]:
    ranks = game.final.get("ranks") or []
    finals = game.final.get("final") or []
    place = int(ranks[game.seat]) if game.seat < len(ranks) else None
    firsts = sum(1 for r in ranks if r == 1)
    if place is None:
        result = "unknown"
    elif place == 1:
        result = "win" if firsts == 1 else "draw"
    else:
        result = "loss"
    return {
        "id": game.table_id,
        "variant": game.variant_ref,
        "result": result,
        "place": place,
        "seats": game.seats,
        "score": int(finals[game.seat]) if game.seat < len(finals) else None,
        "scores": [int(x) for x in finals],
        "reason": game.final.get("reason"),
        "rated": game.rating == "rated",
        "finished": iso_time(game.finished),
    }


def install_profile_routes(app: FastAPI) -> None:
    @app.get("/api/players/{username}")
    async def player(username: str, request: Request) -> dict[str, Any]:
        engine = request.app.state.hub.engine
        try:
            key = username_key(normalize_username(username))
        except UsernameError:
            key = None
        account = await asyncio.to_thread(store.find_account, engine, key) if key else None
        if account is None:
            raise ApiError(404, "no_such_player", "there is no player of that name")
        player_key = account_player_key(account.id)
        history = await asyncio.to_thread(ratings_store.rating_history, engine, player_key)
        games = await asyncio.to_thread(table_store.account_finished_games, engine, account.id, 50)
        return {
            "username": account.username,
            "member_since": iso_time(account.created_at),
            "ratings": await ratings_for_account(engine, account.id),
            "puzzle_ratings": await puzzle_ratings_for_account(engine, account.id),
            "rating_history": [
                {
                    "table": c.table_id,
                    "variant": c.variant,
                    "place": c.place,
                    "before": c.before,
                    "rating": c.after,
                    "games": c.games,
                    "at": iso_time(c.at),
                }
                for c in history
            ],
            "games": [_game_json(g) for g in games],
        }

    @app.get("/api/ratings/bots")
    async def bot_ratings(request: Request) -> list[dict[str, Any]]:
        """Each computer level's rating per game: how strong a level plays against people."""
        engine = request.app.state.hub.engine
        out = []
        for level in LEVELS:
            ratings = await asyncio.to_thread(
                ratings_store.ratings_of, engine, bot_player_key(level)
            )
            out.append(
                {
                    "level": level,
                    "name": LEVEL_NAMES[level - 1],
                    "ratings": ratings_store.ratings_json(ratings),
                }
            )
        return out
