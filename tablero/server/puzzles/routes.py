"""Puzzles over HTTP: ``/api/puzzles…`` (docs/web-api.md, "Puzzles").

Anyone may solve, an account or a guest. A solver is the account of the session cookie, or
else the guest of this browser session: a cookie of its own (``tablero_puzzles``, HttpOnly,
with no expiry date, so the browser drops it when it closes) set by the guest's first attempt;
the server keeps the guest's rating and attempts under a hash of it and deletes them two days
after the last attempt (``service.GUEST_IDLE``). An account's history is kept for good.
When the guest signs up or logs in, its attempts and ratings go to the account
(``carry_guest_puzzles``, ``store.carry_guest``) and the guest cookie is cleared.

No answer leaves the server before an attempt: the next puzzle and a puzzle by id carry the
position only. An attempt is judged in a thread (``tablero.puzzles.judge``: the game's own
dictionary says whether a wrong move was at least a valid play), then stored and rated in one
transaction (``store.record_attempt``); its answer has the verdict, the answer and the
ratings before and after. A refused move (not a move, or one the board or the rack rules
out) is an error and changes nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
import time
from typing import Any

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ...moves import Place, parse_move
from ...puzzles.judge import PuzzleMoveError, Verdict, judge
from ...puzzles.model import Puzzle
from ...puzzles.rating import Rating, display, solver_json
from ...rules import IllegalMove, placement_from_squares, resolve_place
from ...variant import builtin_variant_names, square_name
from ..accounts.sessions import account_of, current_account
from ..errors import ApiError
from ..ratings.players import account_player_key
from ..tables.hub import Hub
from ..tables.protocol import TileIn, decode_tiles
from ..tables.views import iso_time
from ..web.openapi import json_body, request_body
from ..web.requests import JSON, rate_limit, read_model
from . import store
from .service import PuzzleService
from .store import AttemptResult, Solver, StoredPuzzle

__all__ = ["GUEST_COOKIE", "carry_guest_puzzles", "install_puzzle_routes"]

log = logging.getLogger("tablero.server.puzzles")

GUEST_COOKIE = "tablero_puzzles"
HISTORY_LIMIT = 50


class AttemptRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move: str | None = Field(default=None, max_length=200)
    """The move in notation (``8H CASA``)."""
    tiles: list[TileIn] | None = Field(default=None, max_length=30)
    """Or the tiles put on the board, as the table's moves give them."""
    give_up: bool = False
    """Or nothing: show the answer (a miss)."""


async def _hub(request: Request) -> Hub:
    """The hub, once the shipped sets are stored (``PuzzleService.ready``)."""
    service: PuzzleService = request.app.state.puzzles
    await service.ready()
    return service.hub


def _guest_key(cookie: str) -> str:
    return "guest:" + hashlib.sha256(cookie.encode("utf-8")).hexdigest()[:32]


def _guest_cookie(request: Request) -> str | None:
    value = request.cookies.get(GUEST_COOKIE)
    if not value or len(value) > 100 or not value.isascii():
        return None
    return value


async def _reader(request: Request) -> str | None:
    """Who reads: an account's key, a guest session's, or None (a guest with no attempt yet)."""
    account = await account_of(request)
    if account is not None:
        return account_player_key(account.id)
    cookie = _guest_cookie(request)
    return _guest_key(cookie) if cookie else None


async def carry_guest_puzzles(request: Request, response: Response, account_id: int) -> None:
    """This browser's guest puzzles (its ``tablero_puzzles`` cookie) to the account that has
    just signed up or logged in on it (``store.carry_guest``: one transaction), then the
    guest cookie cleared. If the database fails, the login still stands: the failure is logged
    and the cookie left, so the next login tries again."""
    if GUEST_COOKIE not in request.cookies:
        return
    cookie = _guest_cookie(request)
    if cookie is not None:
        try:
            carried = await asyncio.to_thread(
                store.carry_guest,
                request.app.state.hub.engine,
                _guest_key(cookie),
                account_player_key(account_id),
                time.time(),
            )
        except Exception as e:
            log.warning("a guest's puzzles could not be carried to an account: %s", e)
            return
        if carried.attempts:
            log.info(
                "%d guest puzzle attempts carried to an account (ratings taken: %s; kept: %s)",
                carried.attempts,
                ", ".join(carried.adopted) or "none",
                ", ".join(carried.kept) or "none",
            )
    response.delete_cookie(
        GUEST_COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _variant(name: str | None) -> str:
    if not name or name not in builtin_variant_names():
        games = ", ".join(builtin_variant_names())
        raise ApiError(
            422, "invalid_request", f"variant: one of the built-in games ({games})", field="variant"
        )
    return name


def _valid_id(puzzle_id: str) -> str:
    if not (
        0 < len(puzzle_id) <= 48
        and puzzle_id.isascii()
        and all(ch.isalnum() or ch in "-_" for ch in puzzle_id)
    ):
        raise ApiError(404, "no_such_puzzle", "no such puzzle")
    return puzzle_id


def puzzle_json(sp: StoredPuzzle) -> dict[str, Any]:
    """A puzzle before an attempt: the position, nothing of the answer."""
    p = sp.puzzle
    position = p.position()
    return {
        **p.public_dict(),
        "rack": list(position.rack),
        "scores": list(position.scores),
        "bag": position.bag_count(),
        "rating": display(sp.rating),
        "attempts": sp.attempts,
        "solved": sp.solved,
    }


def _tiles_of(move: str, p: Puzzle) -> list[dict[str, Any]]:
    """The squares and tiles a placement puts down (for drawing the answer on the board)."""
    position = p.position()
    v = position.variant
    parsed = parse_move(move, v.alphabet, v.rows, v.columns)
    if not isinstance(parsed, Place):
        return []
    new, _ = resolve_place(parsed, position.board)
    return [{"square": square_name(c), "letter": t.letter, "blank": t.blank} for c, t in new]


def attempt_json(p: Puzzle, verdict: Verdict, result: AttemptResult) -> dict[str, Any]:
    runner = p.runner_up
    return {
        "id": p.id,
        "correct": verdict.correct,
        "rated": result.rated,
        "played": None
        if verdict.gave_up
        else {
            "move": verdict.move,
            "score": verdict.score,
            "legal": verdict.legal,
            "rule": verdict.rule,
            "reason": verdict.reason,
        },
        "answers": [
            {"move": a.move, "score": a.score, "tiles": _tiles_of(a.move, p)} for a in p.answers
        ],
        "runner_up": {"move": runner.move, "score": runner.score} if runner else None,
        "equity_margin": p.seeds.equity_margin,
        "theme": p.theme,
        "seeds": p.seeds.to_dict(),
        "solver": {
            **solver_json(result.solver_after),
            "rating_before": display(result.solver_before.rating),
        },
        "puzzle": {
            "rating_before": display(result.puzzle_before),
            "rating": display(result.puzzle_after),
            "attempts": result.attempts,
            "solved": result.solved,
        },
    }


def _judge(sp: StoredPuzzle, req: AttemptRequest, hub: Hub) -> Verdict:
    """The verdict (in a thread: the dictionary may be asked); ApiError for a refusal."""
    p = sp.puzzle
    position = p.position()
    v = position.variant
    given = sum(1 for x in (req.move is not None, req.tiles is not None, req.give_up) if x)
    if given != 1:
        raise ApiError(
            422, "invalid_request", "give one of move (notation), tiles, or give_up: true"
        )
    lexicon = hub.lexicons.lexicon_for(v)
    try:
        if req.give_up:
            return judge(p, None, lexicon, position)
        if req.tiles is not None:
            try:
                move = placement_from_squares(position.board, decode_tiles(req.tiles, v))
            except IllegalMove as e:
                raise PuzzleMoveError(e.rule, e.message, e.params) from None
            return judge(p, move, lexicon, position)
        return judge(p, req.move, lexicon, position)
    except PuzzleMoveError as e:
        extra: dict[str, Any] = {"rule": e.code} if e.code != "notation" else {}
        if e.params:
            extra["params"] = e.params
        raise ApiError(422, e.code, e.message, **extra) from None


_ATTEMPT_BODY = request_body({JSON: json_body(AttemptRequest)})


def install_puzzle_routes(app: FastAPI) -> None:
    @app.get("/api/puzzles")
    async def games(request: Request) -> dict[str, Any]:
        """The games with puzzles: how many, and the solver's rating in each."""
        hub = await _hub(request)
        reader = await _reader(request)
        counts = await asyncio.to_thread(store.counts, hub.engine)
        mine = await asyncio.to_thread(store.solvers, hub.engine, reader)
        out = []
        for name in builtin_variant_names():
            if not counts.get(name):
                continue
            v, _ = await hub.variant(name)
            out.append(
                {
                    "variant": name,
                    "language": v.language,
                    "puzzles": counts[name],
                    "solver": solver_json(mine.get(name) or Solver(Rating.new())),
                }
            )
        return {"games": out, "signed_in": reader is not None and reader.startswith("account:")}

    @app.get("/api/puzzles/next")
    async def next_puzzle(
        request: Request, variant: str | None = None, skip: str | None = None
    ) -> dict[str, Any]:
        """A puzzle of the game near the solver's rating that they have not tried."""
        hub = await _hub(request)
        name = _variant(variant)
        reader = await _reader(request)
        found = await asyncio.to_thread(
            store.next_puzzle, hub.engine, name, reader, random.Random(), skip
        )
        if found is None:
            raise ApiError(404, "no_puzzles", f"there are no puzzles for {name} yet")
        solver = await asyncio.to_thread(store.solver, hub.engine, reader, name)
        return {"puzzle": puzzle_json(found), "solver": solver_json(solver)}

    @app.get("/api/puzzles/history")
    async def history(
        request: Request, variant: str | None = None, limit: int = HISTORY_LIMIT
    ) -> dict[str, Any]:
        """The solver's attempts, newest first (a guest's: this browser session's)."""
        hub = await _hub(request)
        name = _variant(variant) if variant is not None else None
        reader = await _reader(request)
        limit = max(1, min(limit, 200))
        entries = (
            await asyncio.to_thread(store.history, hub.engine, reader, name, limit)
            if reader is not None
            else []
        )
        return {
            "attempts": [
                {
                    "puzzle": e.puzzle,
                    "variant": e.variant,
                    "move": e.move,
                    "correct": e.correct,
                    "rated": e.rated,
                    "rating_before": e.rating_before,
                    "rating_after": e.rating_after,
                    "at": iso_time(e.at),
                }
                for e in entries
            ]
        }

    @app.get("/api/puzzles/{puzzle_id}")
    async def one(puzzle_id: str, request: Request) -> dict[str, Any]:
        """A puzzle by id (a link to it), without its answer."""
        hub = await _hub(request)
        found = await asyncio.to_thread(store.get, hub.engine, _valid_id(puzzle_id))
        if found is None:
            raise ApiError(404, "no_such_puzzle", "no such puzzle")
        reader = await _reader(request)
        solver = await asyncio.to_thread(store.solver, hub.engine, reader, found.puzzle.variant)
        return {"puzzle": puzzle_json(found), "solver": solver_json(solver)}

    @app.post("/api/puzzles/{puzzle_id}/attempt", openapi_extra=_ATTEMPT_BODY)
    async def attempt(puzzle_id: str, request: Request, response: Response) -> dict[str, Any]:
        """Judge an answer, rate it (a solver's first attempt at the puzzle), keep it."""
        rate_limit(request, "play")
        hub = await _hub(request)
        req, _ = await read_model(request, AttemptRequest)
        found = await asyncio.to_thread(store.get, hub.engine, _valid_id(puzzle_id))
        if found is None:
            raise ApiError(404, "no_such_puzzle", "no such puzzle")
        verdict = await asyncio.to_thread(_judge, found, req, hub)
        account = await current_account(request)
        if account is not None:
            player = account_player_key(account.id)
        else:
            cookie = _guest_cookie(request)
            if cookie is None:
                cookie = secrets.token_urlsafe(32)
                response.set_cookie(
                    GUEST_COOKIE,
                    cookie,
                    path="/",
                    httponly=True,
                    samesite="lax",
                    secure=request.url.scheme == "https",
                )
            player = _guest_key(cookie)
        result = await asyncio.to_thread(
            store.record_attempt, hub.engine, found.puzzle.id, player, verdict, time.time()
        )
        if result is None:
            raise ApiError(404, "no_such_puzzle", "no such puzzle")
        return attempt_json(found.puzzle, verdict, result)
