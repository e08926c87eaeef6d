"""The table routes: the HTTP API (docs/web-api.md) and the WebSocket per table.

Handlers only translate between the wire and the rooms: they count the request against its
rate limit, parse and validate it within limits (``web/jsonlimits.py``), find the room and
the seat, and turn refusals into ``{"error": {...}}`` bodies. A WebSocket survives anything a
single message does: a refusal or even a bug becomes an ``error`` message.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse, Response
from pydantic import ValidationError

from ...formats.gcg import write_gcg
from ...variant import builtin_variant_names
from .. import catalog
from ..accounts.sessions import account_of, current_account, require_account
from ..errors import ApiError
from ..web import jsonlimits
from ..web.load import LoadGuard
from ..web.openapi import json_body, request_body
from ..web.ratelimit import RateLimiter
from ..web.requests import (
    JSON,
    client_address,
    load_guard,
    media_type,
    rate_limit,
    read_body,
    read_model,
    validation_error,
)
from ..web.sockets import (
    WsConnection,
    answer_messages,
    error_message,
    open_socket,
    refuse_socket,
    send_watch,
)
from . import archive
from .hub import Hub
from .protocol import (
    AuthMessage,
    ChatRequest,
    CreateTableRequest,
    HintRequest,
    MoveRequest,
    PreviewRequest,
    SitRequest,
    check_title,
)
from .room import Room

__all__ = ["install_routes", "result_json"]

log = logging.getLogger("tablero.server")


TOML_TYPES = ("text/plain", "application/toml")
"""Media types of a raw rule file upload (besides JSON ``{"toml": …}``)."""


CREATE_TABLE_BODY_BYTES = 256 * 1024
"""A new table's request: room for a club's 2,000 words added and 2,000 banned."""


def install_routes(app: FastAPI) -> None:
    _install_api(app)
    _install_websocket(app)


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


async def _room_and_seat(
    request: Request, table_id: str, required: bool
) -> tuple[Room, int | None]:
    """The table, and the seat the request acts for: by its ``Authorization: Bearer`` seat
    token, or else by the account of its session cookie."""
    room = await _hub(request).room(table_id)
    token = _token(request)
    account = None if token else await current_account(request)
    return room, room.seat_for(token, account.id if account else None, required=required)


_UPLOAD_BODY = request_body(
    {
        JSON: {
            "type": "object",
            "properties": {"toml": {"type": "string", "maxLength": catalog.MAX_UPLOAD_BYTES}},
            "required": ["toml"],
        },
        "text/plain": {"type": "string", "maxLength": catalog.MAX_UPLOAD_BYTES},
    }
)


def _install_api(app: FastAPI) -> None:
    @app.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        return [catalog.variant_summary(catalog.builtin(n), n) for n in builtin_variant_names()]

    @app.get("/api/lexicons")
    async def lexicons(language: str | None = None) -> list[dict[str, Any]]:
        """The dictionaries a table may choose: shipped and installed, for one language."""
        if language is not None and len(language) > 16:
            raise ApiError(422, "bad_language", "language: a language code (es, ro)")
        return await asyncio.to_thread(catalog.server_dictionaries, language)

    @app.get("/api/variants/{name}")
    async def variant(name: str, request: Request) -> dict[str, Any]:
        v, source = await _hub(request).variant(name)
        if source == "upload":
            return catalog.variant_json(v, v.name, source) | {"id": name}
        return catalog.variant_json(v, name, source)

    @app.post("/api/variants/upload", status_code=201, openapi_extra=_UPLOAD_BODY)
    async def upload(request: Request) -> dict[str, Any]:
        rate_limit(request, "upload")
        load_guard(request).admit("rule files")
        media = media_type(request)
        if media != JSON and media not in (*TOML_TYPES, ""):
            raise ApiError(
                415,
                "unsupported_media_type",
                "send the rule file as text/plain or application/toml, "
                'or as JSON {"toml": "..."} with Content-Type: application/json',
            )
        # JSON escapes may take more room than the file itself: a little more for its envelope.
        raw = await read_body(request, catalog.MAX_UPLOAD_BYTES + 1024)
        if media == JSON:
            data = jsonlimits.loads(raw, max_bytes=catalog.MAX_UPLOAD_BYTES + 1024)
            if not isinstance(data, dict) or not isinstance(data.get("toml"), str):
                raise ApiError(
                    422, "invalid_request", 'toml: expected {"toml": "<rule file>"}', field="toml"
                )
            text = data["toml"]
        else:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ApiError(422, "bad_variant_file", "the rule file is not UTF-8 text") from None
        ref, v = await _hub(request).upload(text, client=client_address(request))
        return catalog.variant_json(v, v.name, "upload") | {"id": ref}

    @app.get("/api/tables")
    async def tables(request: Request) -> list[dict[str, Any]]:
        return await _hub(request).lobby()

    @app.post(
        "/api/tables",
        status_code=201,
        openapi_extra=request_body({JSON: json_body(CreateTableRequest)}),
    )
    async def create_table(request: Request) -> dict[str, Any]:
        rate_limit(request, "create_table")
        load_guard(request).admit("tables")
        req, data = await read_model(request, CreateTableRequest, CREATE_TABLE_BODY_BYTES)
        check_title(req.title)
        with load_guard(request).action("table"):
            room = await _hub(request).create_table(
                req, clock_given="clock_minutes" in data, client=client_address(request)
            )
        async with room.lock:
            return {"id": room.info.id, "table": room.view(None)}

    @app.get("/api/me/games")
    async def my_games(request: Request) -> list[dict[str, Any]]:
        """The logged-in player's tables waiting or in play, newest first, each saying
        whether it is their turn."""
        account = await require_account(request)
        return await _hub(request).games_of(account.id)

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str, request: Request) -> dict[str, Any]:
        room, seat = await _room_and_seat(request, table_id, required=False)
        async with room.lock:
            return room.view(seat)

    @app.post(
        "/api/tables/{table_id}/sit", openapi_extra=request_body({JSON: json_body(SitRequest)})
    )
    async def sit(table_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "seats")
        load_guard(request).admit("seats")
        req, _ = await read_model(request, SitRequest)
        account = await current_account(request)
        if account is None and req.nickname is None:
            raise ApiError(
                422, "invalid_request", "nickname: your name at the table", field="nickname"
            )
        room = await _hub(request).room(table_id)
        with load_guard(request).action("seat"):
            if account is not None:
                token = await room.sit(req.seat, account.username, account.id)
            else:
                assert req.nickname is not None
                token = await room.sit(req.seat, req.nickname)
        async with room.lock:
            return {"token": token, "seat": req.seat, "table": room.view(req.seat)}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "seats")
        room, seat = await _room_and_seat(request, table_id, required=True)
        assert seat is not None
        await room.leave(seat)
        return {"ok": True}

    @app.post(
        "/api/tables/{table_id}/preview",
        openapi_extra=request_body({JSON: json_body(PreviewRequest)}),
    )
    async def preview(table_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "play")
        load_guard(request).admit("previews")
        room, seat = await _room_and_seat(request, table_id, required=True)
        assert seat is not None
        req, _ = await read_model(request, PreviewRequest)
        return await room.preview(seat, req)

    @app.post(
        "/api/tables/{table_id}/hint", openapi_extra=request_body({JSON: json_body(HintRequest)})
    )
    async def hint(table_id: str, request: Request) -> dict[str, Any]:
        """The seat's best moves, at a table that allows hints (``tables/hints.py``)."""
        rate_limit(request, "play")
        load_guard(request).admit("hints")
        room, seat = await _room_and_seat(request, table_id, required=True)
        assert seat is not None
        req, _ = await read_model(request, HintRequest)
        return {"moves": await room.hint(seat, req.count)}

    @app.post(
        "/api/tables/{table_id}/move", openapi_extra=request_body({JSON: json_body(MoveRequest)})
    )
    async def move(table_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "play")
        room, seat = await _room_and_seat(request, table_id, required=True)
        assert seat is not None
        req, _ = await read_model(request, MoveRequest)
        with load_guard(request).action("move"):
            result, seq = await room.move(seat, req.seq, req.move)
        async with room.lock:
            return {"ok": True, "seq": seq, "result": result_json(result), "table": room.view(seat)}

    @app.get("/api/tables/{table_id}/chat")
    async def chat_lines(table_id: str, request: Request) -> dict[str, Any]:
        """The lines so far that this viewer may see (a seat by token or cookie, or not)."""
        room, seat = await _room_and_seat(request, table_id, required=False)
        return {"lines": await room.chat_for(seat)}

    @app.post(
        "/api/tables/{table_id}/chat",
        status_code=201,
        openapi_extra=request_body({JSON: json_body(ChatRequest)}),
    )
    async def chat_say(table_id: str, request: Request) -> dict[str, Any]:
        """A line of chat: a seated player's (token or cookie), or a logged-in spectator's."""
        limiter: RateLimiter = request.app.state.limiter
        limiter.check_chat(client_address(request))
        room, seat = await _room_and_seat(request, table_id, required=False)
        req, _ = await read_model(request, ChatRequest)
        account = await current_account(request) if seat is None else None
        line = await room.say(
            seat,
            account.id if account else None,
            account.username if account else None,
            req.text,
        )
        return {"line": line.json()}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> dict[str, Any]:
        """A seated player asks for a rematch; the new table once every player has."""
        rate_limit(request, "seats")
        room, seat = await _room_and_seat(request, table_id, required=True)
        assert seat is not None
        with load_guard(request).action("table"):
            new = await room.rematch(seat)
        return {"table": new, "asked": list(room.info.rematch_asked)}

    async def finished_game(
        request: Request, table_id: str, what: str
    ) -> tuple[dict[str, Any], archive.Finished]:
        """A finished game's spectator view and what the archive replays it from (a copy
        taken under the table's lock); 409 ``not_over`` while it is played."""
        room = await _hub(request).room(table_id)
        async with room.lock:
            game = room.game
            if game is None or not game.is_over:
                raise ApiError(409, "not_over", f"{what} once the game is over")
            return room.view(None), archive.Finished.of(game, room.info.names)

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, request: Request) -> dict[str, Any]:
        """A finished game step by step (``archive.replay_frames``); 409 before its end."""
        view, finished = await finished_game(request, table_id, "a game is replayed")
        frames = await asyncio.to_thread(archive.replay_frames, finished)
        keep = ("id", "variant", "variant_title", "title", "rows", "columns", "seats")
        return {k: view[k] for k in keep} | frames

    @app.get("/api/tables/{table_id}/cgp")
    async def cgp(table_id: str, request: Request, ply: int = 0) -> Response:
        """The position after ``ply`` steps of a finished game, as its player to move saw it
        (their rack only), in CGP: for the engine (``tablero analyze``, ``tablero moves``)."""
        _, finished = await finished_game(request, table_id, "positions are given")
        try:
            text = await asyncio.to_thread(archive.cgp_at, finished, ply)
        except ValueError as e:
            raise ApiError(422, "invalid_request", str(e), field="ply") from None
        return PlainTextResponse(text + "\n")

    @app.get("/api/tables/{table_id}/gcg")
    async def gcg(table_id: str, request: Request) -> Response:
        room = await _hub(request).room(table_id)
        async with room.lock:
            game = room.game
            if game is None:
                raise ApiError(409, "not_started", "the game starts when every seat is taken")
            text = await asyncio.to_thread(
                write_gcg, game, hide_racks=not game.is_over, title=room.info.title
            )
        return PlainTextResponse(
            text,
            headers={"Content-Disposition": f'attachment; filename="tablero-{table_id}.gcg"'},
        )


def result_json(result: Any) -> dict[str, Any]:
    """What a move did, for the mover (exchanges say how many tiles, not which)."""
    return {
        "seat": result.seat,
        "kind": result.kind,
        "move": result.notation,
        "score": result.score,
        "breakdown": result.breakdown.explain_lines() if result.breakdown else [],
        "reason": result.reason,
        "drawn": result.drawn,
    }


def _install_websocket(app: FastAPI) -> None:
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        address = await open_socket(websocket)
        if address is None:
            return
        hub = _hub(websocket)
        try:
            load_guard(websocket).admit("connections")
            room = await hub.room(table_id)
        except ApiError as e:
            await refuse_socket(websocket, e)
            return
        conn = WsConnection(websocket, None, send_watch(websocket))
        session = _Session(hub, load_guard(websocket), room, table_id, conn)
        await room.attach(session.conn)
        try:
            await answer_messages(websocket, address, session.handle, session.conn.send)
        except WebSocketDisconnect:
            pass
        except Exception as e:  # the socket broke while sending: nothing to answer to
            log.debug("table %s: a WebSocket closed: %s", table_id, type(e).__name__)
        finally:
            await session.room.detach(session.conn)


class _Session:
    """One WebSocket's conversation with a table: answers each message, never raises."""

    def __init__(
        self, hub: Hub, load: LoadGuard, room: Room, table_id: str, conn: WsConnection
    ) -> None:
        self.websocket = conn.websocket
        self.hub = hub
        self.load = load
        self.room = room
        self.table_id = table_id
        self.conn = conn

    async def handle(self, text: str | None) -> dict[str, Any] | None:
        """The reply to one message (None: the reply was a ``state``, already sent)."""
        msg_id: Any = None
        try:
            if text is None:
                raise ApiError(400, "bad_json", "messages are JSON text, not binary")
            data = jsonlimits.loads(
                text, max_bytes=jsonlimits.MAX_MESSAGE_BYTES, what="the message"
            )
            if not isinstance(data, dict):
                raise ApiError(400, "bad_json", "a message is a JSON object")
            raw_id = data.get("id")
            if isinstance(raw_id, str | int | float) and len(str(raw_id)) <= 64:
                msg_id = raw_id
            return await self._dispatch(data, msg_id)
        except ApiError as e:
            return error_message(msg_id, e)
        except Exception:
            # A bug must not cost the player their connection; the message text is not
            # logged (it may hold a seat token).
            log.exception("table %s: a WebSocket message failed", self.table_id)
            return error_message(
                msg_id, ApiError(500, "internal", "the server failed; nothing was changed")
            )
        finally:
            self.conn.stop_holding()

    async def _dispatch(self, data: dict[str, Any], msg_id: Any) -> dict[str, Any] | None:
        kind = data.get("type")
        if kind == "ping":
            return {"type": "pong", "id": msg_id}
        if kind == "auth":
            await self._auth(data)
            return None
        if kind == "chat":
            limiter: RateLimiter = self.websocket.app.state.limiter
            limiter.check_chat(client_address(self.websocket))
            account = None
            if self.conn.seat is None:
                account = await account_of(self.websocket)
            await self.room.say(
                self.conn.seat,
                account.id if account else None,
                account.username if account else None,
                data.get("text"),
            )
            return None
        if kind not in ("move", "preview"):
            raise ApiError(422, "invalid_request", "type: one of auth, move, preview, chat, ping")
        seat = self.conn.seat
        if seat is None:
            raise ApiError(
                401, "token_required", "spectators cannot move; sit down and send auth first"
            )
        if kind == "preview":
            self.load.admit("previews")
            try:
                preq = PreviewRequest.model_validate(data)
            except ValidationError as e:
                raise validation_error(e) from None
            return {"type": "preview", "id": msg_id, "preview": await self.room.preview(seat, preq)}
        try:
            mreq = MoveRequest.model_validate(data)
        except ValidationError as e:
            raise validation_error(e) from None
        with self.load.action("move"):
            result, seq = await self.room.move(seat, mreq.seq, mreq.move)
        return {"type": "ack", "id": msg_id, "seq": seq, "result": result_json(result)}

    async def _auth(self, data: dict[str, Any]) -> None:
        """Seat this connection: the room sends the seat's ``state`` (and tells the others the
        seat is connected). A wrong token leaves the connection what it was."""
        try:
            token = AuthMessage.model_validate(data).token
        except ValidationError:
            raise ApiError(
                422, "invalid_request", "token: the seat's token, as text", field="token"
            ) from None
        account = None
        if not token:
            account = await account_of(self.websocket)
            if account is not None and "origin" not in self.websocket.headers:
                raise ApiError(
                    403, "origin_required", "a socket signed in by cookie needs an Origin header"
                )
        seat = self.room.seat_for(token, account.id if account else None, required=True)
        await self.room.detach(self.conn)
        # Detaching the last viewer of a finished game unloads its room: look it up again.
        self.room = await self.hub.room(self.table_id)
        self.conn.seat = seat
        self.conn.authenticated()
        await self.room.attach(self.conn)
