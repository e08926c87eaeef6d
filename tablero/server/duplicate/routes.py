"""Duplicate rooms over HTTP and WebSocket: ``/api/duplicate…`` and ``/ws/duplicate/{id}``
(docs/web-api.md, "Duplicate rooms").

Anyone may create a room (a guest with a nickname, an account under its username) and becomes
its first player and its creator; anyone joins by the room's link until the game is over.
A guest acts with the secret token the server gave when they joined (``Authorization:
Bearer``, and the WebSocket's ``auth`` message), an account with its session cookie; tokens
and submissions never go in a URL. Only the creator starts the game, opens the next round
before the pause is over, and stops the game (``403 not_creator`` for anyone else).
Submissions travel in request bodies and are never logged.
"""

from __future__ import annotations

import logging
import unicodedata
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...variant import builtin_variant_names
from .. import catalog
from ..accounts.sessions import account_of, current_account
from ..errors import ApiError
from ..tables.info import hash_token, new_token
from ..tables.protocol import (
    AuthMessage,
    MoveIn,
    PreviewRequest,
    check_nickname,
    disguising_character,
)
from ..web import jsonlimits
from ..web.openapi import json_body, request_body
from ..web.requests import JSON, load_guard, rate_limit, read_model
from ..web.sockets import (
    WsConnection,
    answer_messages,
    error_message,
    open_socket,
    refuse_socket,
    send_watch,
)
from .service import DuplicateRooms, RoomOptions, Viewer

__all__ = [
    "PAUSE_SECONDS",
    "ROUNDS",
    "ROUND_SECONDS",
    "SOLO_BONUS",
    "TITLE_MAX",
    "install_duplicate_routes",
]

log = logging.getLogger("tablero.server.duplicate")

ROUND_SECONDS = (10, 900)
"""A round's time, in seconds (the shipped rule files say 180)."""
ROUNDS = (1, 100)
"""Rounds a room may be limited to (without a limit: until the rack rule ends the game)."""
PAUSE_SECONDS = (3, 300)
"""Between a round's results and the next rack (the creator may open it sooner)."""
DEFAULT_PAUSE = 20
SOLO_BONUS = (0, 100)
TITLE_MAX = 60


class CreateRoomRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    variant: str = Field(max_length=32)
    title: str | None = Field(default=None, max_length=500)
    round_seconds: int | None = None
    """Seconds a round lasts, 10–900; absent: the rule file's (180 in the shipped games)."""
    rounds: int | None = None
    """Stop after this many rounds, 1–100; absent or null: play to the end."""
    solo_bonus: int | None = None
    """Points for the only player who found a top, 0–100; absent: the rule file's."""
    pause_seconds: int = DEFAULT_PAUSE
    """Seconds between a round's close and the next round's rack, 3–300."""
    nickname: str | None = Field(default=None, max_length=200)
    """A guest creator's name in the room; an account plays under its username."""
    lexicon: str | None = Field(default=None, max_length=32)
    """A dictionary installed on the server for the game's language (``GET /api/lexicons``);
    absent or null: the game's own."""


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    nickname: str | None = Field(default=None, max_length=200)


class SubmitRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    round: int = Field(ge=1, le=100_000)
    """The round the move is for (a move that arrives after its round closed is refused)."""
    move: MoveIn


def _rooms(request: Request | WebSocket) -> DuplicateRooms:
    rooms: DuplicateRooms = request.app.state.duplicate
    return rooms


def _token(request: Request) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()[:200]
    return None


async def _who(request: Request, write: bool) -> tuple[str | None, int | None]:
    """The request's token, else its account (a write by cookie needs an ``Origin``)."""
    token = _token(request)
    if token:
        return token, None
    account = await (current_account(request) if write else account_of(request))
    return None, account.id if account else None


def _in_range(value: int | None, bounds: tuple[int, int], field: str, what: str) -> None:
    low, high = bounds
    if value is not None and not low <= value <= high:
        raise ApiError(422, f"bad_{field}", f"{field}: {what} {low} to {high}", field=field)


def _title(value: str | None) -> str | None:
    text = unicodedata.normalize("NFC", (value or "").strip())
    if not text:
        return None
    if len(text) > TITLE_MAX:
        raise ApiError(
            422, "invalid_request", f"title: at most {TITLE_MAX} characters", field="title"
        )
    ch = disguising_character(text)
    if ch is not None:
        raise ApiError(
            422,
            "invalid_request",
            f"title: no control or invisible formatting characters such as U+{ord(ch):04X}",
            field="title",
        )
    return text


async def _identity(request: Request, nickname: str | None) -> tuple[str, int | None, str | None]:
    """Who joins: an account under its username, else a guest with a nickname and a new
    token. Returns the name, the account id, and the guest's token (None for an account)."""
    account = await current_account(request)
    if account is not None:
        return account.username, account.id, None
    if nickname is None:
        raise ApiError(422, "invalid_request", "nickname: your name in the room", field="nickname")
    return check_nickname(nickname), None, new_token()


def install_duplicate_routes(app: FastAPI) -> None:
    _install_api(app)
    _install_websocket(app)


def _install_api(app: FastAPI) -> None:
    @app.get("/api/duplicate")
    async def rooms(request: Request) -> list[dict[str, Any]]:
        """Rooms waiting or in play (of the last day), newest first."""
        return await _rooms(request).list_rooms()

    @app.post(
        "/api/duplicate",
        status_code=201,
        openapi_extra=request_body({JSON: json_body(CreateRoomRequest)}),
    )
    async def create(request: Request) -> dict[str, Any]:
        rate_limit(request, "create_table")
        load_guard(request).admit("rooms")
        req, _ = await read_model(request, CreateRoomRequest)
        if req.variant not in builtin_variant_names():
            raise ApiError(
                422,
                "bad_variant",
                f"variant: one of the built-in games ({', '.join(builtin_variant_names())})",
                field="variant",
            )
        _in_range(req.round_seconds, ROUND_SECONDS, "round_seconds", "seconds, from")
        _in_range(req.rounds, ROUNDS, "rounds", "from")
        _in_range(req.solo_bonus, SOLO_BONUS, "solo_bonus", "points, from")
        _in_range(req.pause_seconds, PAUSE_SECONDS, "pause_seconds", "seconds, from")
        title = _title(req.title)
        name, account_id, token = await _identity(request, req.nickname)
        hub_rooms = _rooms(request)
        variant = await request.app.state.hub.variant(req.variant)
        chosen = catalog.with_lexicon(variant[0], req.lexicon)
        rules = variant[0].duplicate
        options = RoomOptions(
            variant=req.variant,
            lexicon=chosen.lexicon if req.lexicon else None,
            title=title,
            round_seconds=req.round_seconds or rules.round_seconds or 180,
            rounds=req.rounds,
            solo_bonus=rules.solo_bonus if req.solo_bonus is None else req.solo_bonus,
            pause_seconds=req.pause_seconds,
        )
        with load_guard(request).action("room"):
            room_id, name = await hub_rooms.create(
                options, name, account_id, None if token is None else hash_token(token)
            )
        view = await hub_rooms.view_for(room_id, token, account_id)
        return {"id": room_id, "name": name, "token": token, "room": view}

    @app.get("/api/duplicate/{room_id}")
    async def room(room_id: str, request: Request) -> dict[str, Any]:
        token, account_id = await _who(request, write=False)
        return await _rooms(request).view_for(room_id, token, account_id)

    @app.post(
        "/api/duplicate/{room_id}/join", openapi_extra=request_body({JSON: json_body(JoinRequest)})
    )
    async def join(room_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "seats")
        load_guard(request).admit("players")
        req, _ = await read_model(request, JoinRequest)
        name, account_id, token = await _identity(request, req.nickname)
        hub_rooms = _rooms(request)
        with load_guard(request).action("join"):
            entry, player = await hub_rooms.join(
                room_id, name, account_id, None if token is None else hash_token(token)
            )
        return {"name": player.name, "token": token, "room": hub_rooms.view(entry, player)}

    async def creator_action(room_id: str, request: Request, action: str) -> dict[str, Any]:
        rate_limit(request, "seats")
        token, account_id = await _who(request, write=True)
        hub_rooms = _rooms(request)
        do = {
            "start": hub_rooms.start_game,
            "next": hub_rooms.next_round,
            "stop": hub_rooms.stop_game,
        }[action]
        with load_guard(request).action(action):
            entry = await do(room_id, token, account_id)
        return {"room": hub_rooms.view(entry, hub_rooms.player_of(entry, token, account_id))}

    @app.post("/api/duplicate/{room_id}/start")
    async def start(room_id: str, request: Request) -> dict[str, Any]:
        return await creator_action(room_id, request, "start")

    @app.post("/api/duplicate/{room_id}/next")
    async def next_round(room_id: str, request: Request) -> dict[str, Any]:
        return await creator_action(room_id, request, "next")

    @app.post("/api/duplicate/{room_id}/stop")
    async def stop(room_id: str, request: Request) -> dict[str, Any]:
        return await creator_action(room_id, request, "stop")

    @app.post(
        "/api/duplicate/{room_id}/submit",
        openapi_extra=request_body({JSON: json_body(SubmitRequest)}),
    )
    async def submit(room_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "play")
        token, account_id = await _who(request, write=True)
        req, _ = await read_model(request, SubmitRequest)
        hub_rooms = _rooms(request)
        with load_guard(request).action("move"):
            entry, player, sub = await hub_rooms.submit(
                room_id, token, account_id, req.round, req.move
            )
        return {
            "ok": True,
            "round": sub.round,
            "move": sub.move,
            "at": round(sub.at, 1),
            "room": hub_rooms.view(entry, player),
        }

    @app.post(
        "/api/duplicate/{room_id}/preview",
        openapi_extra=request_body({JSON: json_body(PreviewRequest)}),
    )
    async def preview(room_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "play")
        load_guard(request).admit("previews")
        token, account_id = await _who(request, write=True)
        req, _ = await read_model(request, PreviewRequest)
        return await _rooms(request).preview(room_id, token, account_id, req)

    @app.get("/api/duplicate/{room_id}/rounds/{number}")
    async def one_round(room_id: str, number: str, request: Request) -> dict[str, Any]:
        n = int(number) if number.isascii() and number.isdigit() and len(number) < 6 else 0
        if n < 1:
            raise ApiError(404, "no_such_round", f"round {number[:8]!r} has not been closed")
        return await _rooms(request).round_json(room_id, n)

    @app.get("/api/duplicate/{room_id}/gcg")
    async def gcg(room_id: str, request: Request) -> Response:
        text = await _rooms(request).gcg(room_id)
        return PlainTextResponse(
            text,
            headers={
                "Content-Disposition": f'attachment; filename="tablero-duplicate-{room_id}.gcg"'
            },
        )


def _install_websocket(app: FastAPI) -> None:
    @app.websocket("/ws/duplicate/{room_id}")
    async def room_socket(websocket: WebSocket, room_id: str) -> None:
        address = await open_socket(websocket)
        if address is None:
            return
        rooms = _rooms(websocket)
        viewer = Viewer(WsConnection(websocket, None, send_watch(websocket)))
        try:
            load_guard(websocket).admit("connections")
            entry = await rooms.attach(room_id, viewer)
        except ApiError as e:
            await refuse_socket(websocket, e)
            return

        async def handle(text: str | None) -> dict[str, Any] | None:
            return await _handle(rooms, entry, viewer, websocket, text)

        try:
            await answer_messages(websocket, address, handle, viewer.conn.send)
        except WebSocketDisconnect:
            pass
        except Exception as e:  # the socket broke while sending: nothing to answer to
            log.debug("duplicate room %s: a WebSocket closed: %s", room_id, type(e).__name__)
        finally:
            rooms.detach(entry, viewer)


async def _handle(
    rooms: DuplicateRooms, entry: Any, viewer: Viewer, websocket: WebSocket, text: str | None
) -> dict[str, Any] | None:
    """The reply to one message: ``ping``, or ``auth`` (answered with the player's state).
    Never raises; the message's text is never logged (it may hold a token)."""
    msg_id: Any = None
    try:
        if text is None:
            raise ApiError(400, "bad_json", "messages are JSON text, not binary")
        data = jsonlimits.loads(text, max_bytes=jsonlimits.MAX_MESSAGE_BYTES, what="the message")
        if not isinstance(data, dict):
            raise ApiError(400, "bad_json", "a message is a JSON object")
        raw_id = data.get("id")
        if isinstance(raw_id, str | int | float) and len(str(raw_id)) <= 64:
            msg_id = raw_id
        kind = data.get("type")
        if kind == "ping":
            return {"type": "pong", "id": msg_id}
        if kind != "auth":
            raise ApiError(422, "invalid_request", "type: auth or ping (moves go by HTTP)")
        try:
            token = AuthMessage.model_validate(data).token
        except ValidationError:
            raise ApiError(
                422, "invalid_request", "token: the player's token, as text", field="token"
            ) from None
        account_id = None
        if not token:
            account = await account_of(websocket)
            if account is not None and "origin" not in websocket.headers:
                raise ApiError(
                    403, "origin_required", "a socket signed in by cookie needs an Origin header"
                )
            account_id = account.id if account else None
        fresh = await rooms.current(entry.id)
        viewer.player = rooms.player_of(fresh, token, account_id)
        viewer.conn.authenticated()
        viewer.conn.offer_state(rooms.state_text(fresh, viewer))
        return None
    except ApiError as e:
        return error_message(msg_id, e)
    except Exception:
        log.exception("duplicate room %s: a WebSocket message failed", entry.id)
        return error_message(
            msg_id, ApiError(500, "internal", "the server failed; nothing was changed")
        )
    finally:
        viewer.conn.stop_holding()
