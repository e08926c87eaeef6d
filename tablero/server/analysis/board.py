"""The analysis board's API: every move of a position pasted as CGP, and simulation in rounds.

``POST /api/positions/moves`` ``{"cgp"}`` → every move with score, leave, equity and tiles.
``POST /api/positions/simulate`` ``{"cgp", "moves", "iterations", "seed"}`` → one round of
simulation of those moves; the page asks for rounds until it has enough or the person stops
(``workers/positions.py`` says why the server keeps nothing between rounds).

The rules are the CGP's ``var``: a built-in game or an uploaded rule file's id, never a path
(a CGP is user input). The dictionary is the game's own, as at its tables.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from ...formats.cgp import CgpError, cgp_ops, read_cgp
from ...position import Position
from ..errors import ApiError
from ..tables.hub import Hub
from ..web.openapi import json_body, request_body
from ..web.requests import JSON, load_guard, rate_limit, read_model
from ..workers.positions import MAX_SIM_MOVES, MAX_SIM_ROUND, PositionJob

__all__ = ["install_board_routes"]

CGP_MAX = 2000


class MovesRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cgp: str = Field(max_length=CGP_MAX)
    variant: str | None = Field(default=None, max_length=32)
    """The game (a built-in name or an upload's id) if not the CGP's ``var``: an uploaded
    game's CGP names the rule file's own name, which is not how the server finds it."""


class SimulateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cgp: str = Field(max_length=CGP_MAX)
    variant: str | None = Field(default=None, max_length=32)
    moves: list[str] = Field(min_length=1, max_length=MAX_SIM_MOVES)
    """Notations as ``moves`` lists them."""
    iterations: int = Field(default=50, ge=1, le=MAX_SIM_ROUND)
    seed: int = Field(default=0, ge=0, le=2**31 - 1)
    """A new seed each round: the same seed deals the same tiles."""


async def _position(hub: Hub, text: str, ref: str | None) -> Position:
    name = ref or cgp_ops(text).get("var", "fise")
    variant, _ = await hub.variant(name)  # a built-in game or an upload; 404 otherwise
    try:
        position = read_cgp(text, variant)
    except CgpError as e:
        raise ApiError(422, "bad_cgp", f"CGP: {e}", field="cgp") from None
    if not position.rack:
        raise ApiError(422, "bad_cgp", "CGP: the player to move has no rack", field="cgp")
    return position


def install_board_routes(app: FastAPI) -> None:
    @app.post("/api/positions/moves", openapi_extra=request_body({JSON: json_body(MovesRequest)}))
    async def moves(request: Request) -> dict[str, Any]:
        rate_limit(request, "play")
        load_guard(request).admit("positions")
        req, _ = await read_model(request, MovesRequest)
        hub: Hub = request.app.state.hub
        position = await _position(hub, req.cgp, req.variant)
        return await hub.bots.position(PositionJob("moves", position))

    @app.post(
        "/api/positions/simulate", openapi_extra=request_body({JSON: json_body(SimulateRequest)})
    )
    async def simulate(request: Request) -> dict[str, Any]:
        rate_limit(request, "play")
        load_guard(request).admit("simulations")
        req, _ = await read_model(request, SimulateRequest)
        hub: Hub = request.app.state.hub
        position = await _position(hub, req.cgp, req.variant)
        job = PositionJob("simulate", position, tuple(req.moves), req.iterations, req.seed)
        try:
            return await hub.bots.position(job)
        except ValueError as e:
            raise ApiError(422, "bad_move", str(e), field="moves") from None
