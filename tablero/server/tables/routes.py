"""The table routes: the HTTP API (docs/web-api.md) and the WebSocket per table.

Handlers only translate between the wire and the rooms: they parse and validate the request,
find the room and the seat, and turn refusals into ``{"error": {...}}`` bodies.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, TypeVar

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, ValidationError

from ...formats.gcg import write_gcg
from ...variant import builtin_variant_names
from .. import catalog
from ..errors import ApiError
from .hub import Hub
from .protocol import (
    CreateTableRequest,
    MoveRequest,
    PreviewRequest,
    SitRequest,
    validation_error,
)
from .room import Room

__all__ = ["install_routes", "result_json"]

MAX_BODY = 64 * 1024

M = TypeVar("M", bound=BaseModel)


def install_routes(app: FastAPI) -> None:
    _install_api(app)
    _install_websocket(app)


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _read_json(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiError(413, "too_large", f"a request body may have at most {MAX_BODY} bytes")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad_json", "the body is not JSON") from None


async def _body(request: Request, model: type[M]) -> tuple[M, dict[str, Any]]:
    data = await _read_json(request)
    if not isinstance(data, dict):
        raise ApiError(400, "bad_json", "the body must be a JSON object")
    try:
        return model.model_validate(data), data
    except ValidationError as e:
        raise validation_error(e) from None


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


async def _room_and_seat(
    request: Request, table_id: str, required: bool
) -> tuple[Room, int | None]:
    room = await _hub(request).room(table_id)
    return room, room.seat_for_token(_token(request), required=required)


def _install_api(app: FastAPI) -> None:
    @app.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        return [catalog.variant_summary(catalog.builtin(n), n) for n in builtin_variant_names()]

    @app.get("/api/variants/{name}")
    async def variant(name: str, request: Request) -> dict[str, Any]:
        v, source = await _hub(request).variant(name)
        if source == "upload":
            return catalog.variant_json(v, v.name, source) | {"id": name}
        return catalog.variant_json(v, name, source)

    @app.post("/api/variants/upload", status_code=201)
    async def upload(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > catalog.MAX_UPLOAD_BYTES:
            raise ApiError(
                413, "too_large", f"a rule file may have at most {catalog.MAX_UPLOAD_BYTES} bytes"
            )
        if "json" in request.headers.get("content-type", ""):
            data = await _read_json(request)
            if not isinstance(data, dict) or not isinstance(data.get("toml"), str):
                raise ApiError(422, "invalid_request", 'toml: expected {"toml": "<rule file>"}')
            text = data["toml"]
        else:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ApiError(422, "bad_variant_file", "the rule file is not UTF-8 text") from None
        ref, v = await _hub(request).upload(text)
        return catalog.variant_json(v, v.name, "upload") | {"id": ref}

    @app.get("/api/tables")
    async def tables(request: Request) -> list[dict[str, Any]]:
        return await _hub(request).lobby()

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        req, data = await _body(request, CreateTableRequest)
        room = await _hub(request).create_table(req, clock_given="clock_minutes" in data)
        async with room.lock:
            return {"id": room.info.id, "table": room.view(None)}

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str, request: Request) -> dict[str, Any]:
        room, seat = await _room_and_seat(request, table_id, required=False)
        async with room.lock:
            return room.view(seat)

    @app.post("/api/tables/{table_id}/sit")
    async def sit(table_id: str, request: Request) -> dict[str, Any]:
        req, _ = await _body(request, SitRequest)
        room = await _hub(request).room(table_id)
        token = await room.sit(req.seat, req.nickname)
        async with room.lock:
            return {"token": token, "seat": req.seat, "table": room.view(req.seat)}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, request: Request) -> dict[str, Any]:
        room, seat = await _room_and_seat(request, table_id, required=True)
        assert seat is not None
        await room.leave(seat)
        return {"ok": True}

    @app.post("/api/tables/{table_id}/preview")
    async def preview(table_id: str, request: Request) -> dict[str, Any]:
        room, seat = await _room_and_seat(request, table_id, required=True)
        assert seat is not None
        req, _ = await _body(request, PreviewRequest)
        return await room.preview(seat, req)

    @app.post("/api/tables/{table_id}/move")
    async def move(table_id: str, request: Request) -> dict[str, Any]:
        room, seat = await _room_and_seat(request, table_id, required=True)
        assert seat is not None
        req, _ = await _body(request, MoveRequest)
        result, seq = await room.move(seat, req.seq, req.move)
        async with room.lock:
            return {"ok": True, "seq": seq, "result": result_json(result), "table": room.view(seat)}

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
        "breakdown": result.breakdown.explain() if result.breakdown else [],
        "reason": result.reason,
        "drawn": result.drawn,
    }


class _WsConnection:
    """One WebSocket; sends are serialized (a broadcast and a reply may overlap)."""

    def __init__(self, websocket: WebSocket, seat: int | None) -> None:
        self.websocket = websocket
        self.seat = seat
        self._lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        async with self._lock:
            await self.websocket.send_text(json.dumps(message, ensure_ascii=False))


def _install_websocket(app: FastAPI) -> None:
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        hub = _hub(websocket)
        token = websocket.query_params.get("token") or None
        try:
            room = await hub.room(table_id)
        except ApiError as e:
            await websocket.send_text(json.dumps({"type": "error", "id": None, **e.body()}))
            await websocket.close(code=4404)
            return
        try:
            seat = room.seat_for_token(token, required=False)
        except ApiError as e:
            await websocket.send_text(json.dumps({"type": "error", "id": None, **e.body()}))
            await websocket.close(code=4401)
            return
        conn = _WsConnection(websocket, seat)
        await room.attach(conn)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                reply = await _handle_message(room, conn, message.get("text"))
                if reply is not None:
                    await conn.send(reply)
        except WebSocketDisconnect:
            pass
        finally:
            await room.detach(conn)


async def _handle_message(room: Room, conn: _WsConnection, text: str | None) -> dict[str, Any]:
    msg_id: Any = None
    try:
        if text is None or len(text) > MAX_BODY:
            raise ApiError(400, "bad_json", "messages are JSON text of at most 64 KiB")
        try:
            data = json.loads(text)
        except ValueError:
            raise ApiError(400, "bad_json", "the message is not JSON") from None
        if not isinstance(data, dict):
            raise ApiError(400, "bad_json", "a message is a JSON object")
        raw_id = data.get("id")
        if isinstance(raw_id, str | int | float) and len(str(raw_id)) <= 64:
            msg_id = raw_id
        kind = data.get("type")
        if kind == "ping":
            return {"type": "pong", "id": msg_id}
        if kind not in ("move", "preview"):
            raise ApiError(422, "invalid_request", "type: one of move, preview, ping")
        if conn.seat is None:
            raise ApiError(401, "token_required", "spectators cannot move; sit down first")
        if kind == "preview":
            try:
                preq = PreviewRequest.model_validate(data)
            except ValidationError as e:
                raise validation_error(e) from None
            return {"type": "preview", "id": msg_id, "preview": await room.preview(conn.seat, preq)}
        try:
            mreq = MoveRequest.model_validate(data)
        except ValidationError as e:
            raise validation_error(e) from None
        result, seq = await room.move(conn.seat, mreq.seq, mreq.move)
        return {"type": "ack", "id": msg_id, "seq": seq, "result": result_json(result)}
    except ApiError as e:
        return {"type": "error", "id": msg_id, **e.body()}
