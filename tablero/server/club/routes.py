"""Seeks: ``POST /api/seeks`` offers a game, ``GET /api/seeks`` lists the open ones with the
seeker's rating, ``POST /api/seeks/{id}/accept`` joins one (the last place starts the game
at a new table, every player seated), ``GET /api/seeks/{id}`` tells the seeker where the game
went, ``DELETE /api/seeks/{id}`` withdraws one. Seeks are for accounts: the players sit as
their accounts, so the game can be rated and each finds it from any browser.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from ..accounts.sessions import current_account, require_account
from ..errors import ApiError
from ..ratings import Rating, display, is_provisional
from ..ratings import store as ratings_store
from ..ratings.players import account_player_key
from ..tables.hub import Hub
from ..tables.protocol import CreateTableRequest, SeatSpec
from ..tables.views import iso_time
from ..web.openapi import json_body, request_body
from ..web.requests import JSON, client_address, load_guard, rate_limit, read_model
from . import store
from .store import Seek, SeekClash

__all__ = ["MAX_OPEN_SEEKS", "install_club_routes"]

MAX_OPEN_SEEKS = 3
"""Open seeks one account may have at once."""


class SeekRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    variant: str = Field(max_length=32)
    seats: int = Field(default=2, ge=2, le=4)
    clock_minutes: int | None = None
    """Each player's time (null: untimed)."""
    days_per_move: int | None = None
    """A correspondence game: 1–14 days for each move (then no ``clock_minutes``)."""
    rated: bool = True


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _table_request(seek: Seek | SeekRequest) -> CreateTableRequest:
    return CreateTableRequest(
        variant=seek.variant,
        seats=[SeatSpec(kind="open")] * seek.seats,
        clock_minutes=seek.clock_minutes,
        days_per_move=seek.days_per_move,
        rated=seek.rated,
    )


def _seek_json(seek: Seek, rating: Rating | None) -> dict[str, Any]:
    r = rating or Rating.new()
    return {
        "id": seek.id,
        "variant": seek.variant,
        "seats": seek.seats,
        "clock_minutes": seek.clock_minutes,
        "days_per_move": seek.days_per_move,
        "rated": seek.rated,
        "seeker": seek.seeker,
        "rating": display(r),
        "provisional": is_provisional(r),
        "players": [name for name, _ in seek.players],
        "state": seek.state,
        "table": seek.table_id,
        "created": iso_time(seek.created_at),
    }


async def _with_rating(hub: Hub, seek: Seek) -> dict[str, Any]:
    ratings = await asyncio.to_thread(
        ratings_store.ratings_of, hub.engine, account_player_key(seek.account_id)
    )
    return _seek_json(seek, ratings.get(seek.variant))


async def _find(hub: Hub, seek_id: str) -> Seek:
    if not (0 < len(seek_id) <= 16 and seek_id.isascii() and seek_id.isalnum()):
        raise ApiError(404, "not_found", "no such seek")
    seek = await asyncio.to_thread(store.get_seek, hub.engine, seek_id)
    if seek is None:
        raise ApiError(404, "not_found", "no such seek")
    return seek


def install_club_routes(app: FastAPI) -> None:
    @app.get("/api/seeks")
    async def seeks(request: Request) -> list[dict[str, Any]]:
        hub = _hub(request)
        found = await asyncio.to_thread(store.list_open, hub.engine)
        return [await _with_rating(hub, s) for s in found]

    @app.post(
        "/api/seeks", status_code=201, openapi_extra=request_body({JSON: json_body(SeekRequest)})
    )
    async def offer(request: Request) -> dict[str, Any]:
        rate_limit(request, "create_table")
        load_guard(request).admit("seeks")
        account = await require_account(request)
        req, _ = await read_model(request, SeekRequest)
        hub = _hub(request)
        # The same checks as a table's (the game exists, the seats and clock fit it).
        await hub.plan_table(_table_request(req), clock_given=True, client=client_address(request))
        if await asyncio.to_thread(store.count_open, hub.engine, account.id) >= MAX_OPEN_SEEKS:
            raise ApiError(
                409, "too_many_seeks", f"you have {MAX_OPEN_SEEKS} open seeks: withdraw one first"
            )
        seek_id = secrets.token_hex(5)
        await asyncio.to_thread(
            store.create_seek,
            hub.engine,
            seek_id,
            account.id,
            req.variant,
            req.seats,
            req.clock_minutes,
            req.days_per_move,
            req.rated,
            time.time(),
        )
        return {"id": seek_id}

    @app.get("/api/seeks/{seek_id}")
    async def seek(seek_id: str, request: Request) -> dict[str, Any]:
        hub = _hub(request)
        return await _with_rating(hub, await _find(hub, seek_id))

    @app.post("/api/seeks/{seek_id}/accept")
    async def accept(seek_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "seats")
        load_guard(request).admit("seats")
        account = await require_account(request)
        hub = _hub(request)
        for _ in range(5):  # another acceptor may join between our look and our accept
            found = await _find(hub, seek_id)
            if found.state != "open":
                raise ApiError(409, "seek_taken", "this seek is no longer open")
            if found.account_id == account.id:
                raise ApiError(409, "own_seek", "you cannot accept your own seek")
            if any(i == account.id for _, i in found.players):
                raise ApiError(409, "already_joined", "you have already joined this seek")
            players = [*found.players, (account.username, account.id)]
            planned = None
            if len(players) == found.seats:
                planned = await hub.plan_table(
                    _table_request(found), clock_given=True, players=players
                )
            rows = (
                (planned.row, planned.info.seats, planned.events) if planned is not None else None
            )
            try:
                with load_guard(request).action("seat"):
                    after = await asyncio.to_thread(
                        store.take_or_join,
                        hub.engine,
                        seek_id,
                        account.id,
                        len(found.players),
                        rows,
                        time.time(),
                    )
            except SeekClash:
                continue
            if after.state != "open" and planned is not None and after.table_id == planned.info.id:
                await hub.adopt(planned)
                return {"table": after.table_id, "players": [n for n, _ in after.players]}
            if after.state != "open":
                raise ApiError(409, "seek_taken", "this seek is no longer open")
            return {"table": None, "players": [n for n, _ in after.players]}
        raise ApiError(409, "seek_busy", "this seek is changing fast; look again")

    @app.delete("/api/seeks/{seek_id}")
    async def withdraw(seek_id: str, request: Request) -> dict[str, Any]:
        account = await current_account(request)
        if account is None:
            raise ApiError(401, "login_required", "log in first")
        hub = _hub(request)
        found = await _find(hub, seek_id)
        if found.account_id != account.id:
            raise ApiError(403, "not_yours", "only its seeker may withdraw a seek")
        if not await asyncio.to_thread(store.cancel_seek, hub.engine, seek_id):
            raise ApiError(409, "seek_taken", "this seek is no longer open")
        return {"ok": True}
