"""Limits and hardening (docs/web-api.md, "Limits"): what a server on the open internet must
survive or refuse, each through a real server, over real HTTP and WebSockets, on SQLite.

Seat tokens out of URLs and logs, security headers, cross-site requests, JSON-only bodies,
depth and size limits, rule files the engine cannot play, per-socket limits, rate limits,
disguising nicknames and the OpenAPI schema.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tablero.lexicon import WordListLexicon
from tablero.server.errors import ApiError
from tablero.server.tables.room import Room
from tablero.server.web import sockets
from tablero.server.web.ratelimit import RateLimits

from .games import MINI_TOML, mini_toml, two_players, upload, zeta_toml
from .harness import Server, Socket, server_logs

VARIANTS = Path(__file__).resolve().parents[2] / "tablero" / "variants"
DEEP = 20_000


@pytest.fixture(scope="module")
def module_db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """These tests run on SQLite only: nothing here depends on the database."""
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'tablero.db'}"


@pytest.fixture
def fresh_server(
    tmp_path: Path, mini_es: WordListLexicon, mini_ro: WordListLexicon
) -> Iterator[Any]:
    """A server of one's own (other limits or options) on a fresh SQLite file."""
    started: list[Server] = []

    def make(**options: Any) -> Server:
        s = Server(
            f"sqlite:///{tmp_path / f'own{len(started)}.db'}",
            {"es": mini_es, "ro": mini_ro},
            **options,
        )
        s.start()
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()


def error(r: Any) -> dict[str, Any]:
    body = r.json()
    assert set(body) == {"error"}, body
    return dict(body["error"])


def next_of(sock: Socket, kind: str) -> dict[str, Any]:
    return sock.until(lambda m: m["type"] == kind)


def still_answers(sock: Socket, ping_id: str = "alive") -> None:
    sock.send({"type": "ping", "id": ping_id})
    assert next_of(sock, "pong")["id"] == ping_id


def table_with_players(server: Server) -> tuple[str, dict[int, str]]:
    return two_players(server, upload(server))


# -- 1. WebSocket authentication by message, never by URL -----------------------------------


def test_a_socket_opens_as_a_spectator_and_auth_seats_it(server: Server) -> None:
    table, tokens = table_with_players(server)
    with server.ws_connect(table) as sock, server.ws(table) as watcher:
        watcher.recv()
        first = sock.recv()
        assert first["type"] == "state" and first["table"]["you"] is None
        sock.send({"type": "auth", "id": 1, "token": tokens[1]})
        state = sock.state_until(lambda t: t["you"] is not None)
        assert state["you"]["seat"] == 1 and len(state["you"]["rack"]) == 5
        assert state["seats"][1]["connected"] is True
        # The others are told the seat is now connected; they still see no rack.
        seen = watcher.state_until(lambda t: t["seats"][1]["connected"])
        assert seen["you"] is None
        # Now it may play (or be told it is not its turn: it is a seat, not a spectator).
        sock.send({"type": "preview", "id": 2, "tiles": []})
        assert next_of(sock, "preview")["preview"]["rule"] == "no_new_tiles"


def test_a_token_in_the_url_seats_nobody(server: Server) -> None:
    table, tokens = table_with_players(server)
    view = server.view(table)
    mover = tokens[view["to_move"]]
    with server.ws_connect(table, query=f"token={mover}") as sock:
        first = sock.recv()
        assert first["type"] == "state" and first["table"]["you"] is None
        assert first["table"]["seats"][view["to_move"]]["connected"] is False
        sock.send({"type": "move", "id": 1, "seq": view["seq"], "move": {"kind": "pass"}})
        err = next_of(sock, "error")
        assert err["id"] == 1 and err["error"]["code"] == "token_required"
    assert server.view(table)["seq"] == view["seq"]


def test_a_wrong_token_is_refused_and_the_socket_stays_a_spectator(server: Server) -> None:
    table, tokens = table_with_players(server)
    with server.ws_connect(table) as sock:
        sock.recv()
        sock.send({"type": "auth", "id": "a", "token": "forged-token"})
        err = next_of(sock, "error")
        assert err["id"] == "a" and err["error"]["code"] == "bad_token"
        sock.send({"type": "auth", "id": "b", "token": 12345})
        err = next_of(sock, "error")
        assert err["id"] == "b" and err["error"]["code"] == "invalid_request"
        assert err["error"]["field"] == "token"
        still_answers(sock)
        sock.send({"type": "preview", "id": "c", "tiles": []})
        assert next_of(sock, "error")["error"]["code"] == "token_required"
        # A right token after a wrong one still works.
        sock.send({"type": "auth", "token": tokens[0]})
        assert sock.state_until(lambda t: t["you"] is not None)["you"]["seat"] == 0


# -- 2. No seat token in any log line -----------------------------------------------------------


def test_no_seat_token_in_any_log_record_at_debug(fresh_server: Any) -> None:
    server = fresh_server(log_level="debug")
    with server_logs() as server_records:
        table, tokens = table_with_players(server)
        view = server.view(table, tokens[0])
        mover = view["to_move"]
        with server.ws(table, tokens[mover]) as sock:
            sock.recv()
            sock.send({"type": "move", "id": 1, "seq": view["seq"], "move": {"kind": "pass"}})
            assert next_of(sock, "ack")["seq"] == view["seq"] + 1
        r = server.move(table, tokens[1 - mover], {"kind": "pass"}, view["seq"] + 1)
        assert r.status_code == 200, r.text
        # An outdated client that still puts its token in the URL.
        with server.ws_connect(table, query=f"token={tokens[0]}") as old:
            old.recv()
            still_answers(old)
    messages = [(r.name, r.levelname, r.getMessage()) for r in server_records]
    # The debug logs were really on: uvicorn logged the WebSocket frames themselves.
    assert any(name.startswith("uvicorn") and level == "DEBUG" for name, level, _ in messages)
    assert any("TEXT" in text for _, _, text in messages), messages
    for token in tokens.values():
        leaks = [m for m in messages if token in m[2]]
        assert not leaks, leaks


def test_a_client_gone_while_its_answer_is_on_the_way_leaves_no_traceback(
    fresh_server: Any,
) -> None:
    server = fresh_server(log_level="debug")
    with server_logs() as server_records:
        table, tokens = table_with_players(server)
        for _ in range(4):
            view = server.view(table)
            sock = server.ws(table, tokens[view["to_move"]])
            sock.send({"type": "move", "id": 1, "seq": view["seq"], "move": {"kind": "pass"}})
            sock.send({"type": "ping", "id": 2})
            sock.conn.socket.close()  # gone, without a closing handshake
            deadline = time.time() + 5
            while server.view(table)["seq"] == view["seq"] and time.time() < deadline:
                time.sleep(0.05)
        time.sleep(0.3)
    assert server_records, "the debug logs were not on"
    noisy = [
        (r.name, r.levelname, r.getMessage())
        for r in server_records
        if r.exc_info or r.levelno >= logging.ERROR
    ]
    assert not noisy, noisy


# -- 3. Security headers on every response ------------------------------------------------------

HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
        "form-action 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
}


def test_security_headers_on_every_kind_of_response(server: Server) -> None:
    assert server.http is not None
    responses = {
        "page": server.get("/"),
        "table page": server.get("/t/abc123"),
        "json": server.get("/api/variants"),
        "static js": server.get("/static/js/live.js"),
        "static css": server.get("/static/css/app.css"),
        "missing static": server.get("/static/js/nothing.js"),
        "api 404": server.get("/api/nothing"),
        "400": server.post(
            "/api/tables", content=b"{", headers={"Content-Type": "application/json"}
        ),
        "405": server.http.delete("/api/tables"),
        "415": server.post("/api/tables", content=b"{}", headers={"Content-Type": "text/plain"}),
        "openapi": server.get("/api/openapi.json"),
    }
    statuses = {name: r.status_code for name, r in responses.items()}
    assert statuses == {
        "page": 200,
        "table page": 200,
        "json": 200,
        "static js": 200,
        "static css": 200,
        "missing static": 404,
        "api 404": 404,
        "400": 400,
        "405": 405,
        "415": 415,
        "openapi": 200,
    }
    for name, r in responses.items():
        for header, value in HEADERS.items():
            assert r.headers.get(header) == value, (name, header, r.headers.get(header))


def test_security_headers_on_a_crash(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(self: Room, seat: int | None) -> dict[str, Any]:
        raise RuntimeError("a bug")

    table, _ = table_with_players(server)
    monkeypatch.setattr(Room, "view", crash)
    r = server.get(f"/api/tables/{table}")
    assert r.status_code == 500 and error(r)["code"] == "internal"
    for header, value in HEADERS.items():
        assert r.headers.get(header) == value, header


def test_the_static_ui_needs_nothing_the_policy_forbids() -> None:
    """No inline script, style attribute or handler attribute in the shipped UI (element.style
    from script is allowed by the policy, attributes are not)."""
    static = Path(__file__).resolve().parents[2] / "tablero" / "server" / "static"
    page = (static / "index.html").read_text()
    assert "<script>" not in page and "<style" not in page and " style=" not in page
    assert not re.search(r"\son[a-z]+\s*=", page)  # no onload= / onclick= attributes
    for path in (static / "js").glob("*.js"):
        code = path.read_text()
        for forbidden in ('setAttribute("style"', ".innerHTML", "eval(", "new Function("):
            assert forbidden not in code, (path.name, forbidden)
        assert "style: `" not in code and 'style: "' not in code, path.name


# -- 4. and 5. Cross-site requests; JSON bodies only --------------------------------------------


def test_a_websocket_from_another_site_is_refused(fresh_server: Any) -> None:
    server = fresh_server(allowed_origins=("https://tablero.example",))
    table, _ = table_with_players(server)
    own = f"http://127.0.0.1:{server.port}"
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{server.port + 1}"):
        with pytest.raises(InvalidStatus) as refused:
            server.ws(table, headers={"Origin": origin})
        assert refused.value.response.status_code == 403, origin
    # Its own origin (any scheme), an allowed one, and no Origin at all (not a browser).
    for headers in (
        {"Origin": own},
        {"Origin": f"https://127.0.0.1:{server.port}"},
        {"Origin": "https://tablero.example"},
        {},
    ):
        with server.ws(table, headers=headers) as sock:
            assert sock.recv()["type"] == "state", headers


def test_a_write_from_another_site_is_refused(server: Server) -> None:
    table, tokens = table_with_players(server)
    evil = {"Origin": "https://evil.example"}
    body = {"variant": "fise", "seats": [{"kind": "open"}, {"kind": "open"}]}
    r = server.post("/api/tables", body, headers=evil)
    assert r.status_code == 403 and error(r)["code"] == "bad_origin"
    r = server.post(
        "/api/variants/upload",
        content=MINI_TOML.encode(),
        headers=evil | {"Content-Type": "text/plain"},
    )
    assert r.status_code == 403 and error(r)["code"] == "bad_origin"
    view = server.view(table)
    r = server.move(table, tokens[view["to_move"]], {"kind": "pass"}, view["seq"])
    assert r.status_code == 200  # no Origin: a program, allowed
    r = server.post(
        f"/api/tables/{table}/move",
        {"seq": view["seq"] + 1, "move": {"kind": "pass"}},
        tokens[1 - view["to_move"]],
        headers=evil,
    )
    assert r.status_code == 403 and server.view(table)["seq"] == view["seq"] + 1
    # Reading is not a write: a foreign page may look (CORS keeps the answer from it anyway).
    assert server.http is not None
    assert server.http.get("/api/variants", headers=evil).status_code == 200
    own = {"Origin": server.base}
    assert server.post("/api/tables", body, headers=own).status_code == 201


def test_json_bodies_need_the_json_content_type(server: Server) -> None:
    table, tokens = table_with_players(server)
    body = json.dumps({"variant": "fise", "seats": [{"kind": "open"}, {"kind": "open"}]})
    for content_type in (
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data",
        None,
    ):
        headers = {"Content-Type": content_type} if content_type else {}
        r = server.post("/api/tables", content=body.encode(), headers=headers)
        assert r.status_code == 415, (content_type, r.text)
        e = error(r)
        assert e["code"] == "unsupported_media_type" and "application/json" in e["message"]
    r = server.post(
        f"/api/tables/{table}/sit",
        content=b'{"seat": 0, "nickname": "Eve"}',
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 415
    view = server.view(table)
    r = server.post(
        f"/api/tables/{table}/move",
        content=json.dumps({"seq": view["seq"], "move": {"kind": "pass"}}).encode(),
        token=tokens[view["to_move"]],
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 415 and server.view(table)["seq"] == view["seq"]
    r = server.post(
        "/api/variants/upload",
        content=MINI_TOML.encode(),
        headers={"Content-Type": "multipart/form-data; boundary=x"},
    )
    assert r.status_code == 415
    # The right type works, charset and all; the raw rule file upload keeps its text types.
    r = server.post(
        "/api/tables",
        content=body.encode(),
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert r.status_code == 201
    for content_type in ("text/plain; charset=utf-8", "application/toml"):
        r = server.post(
            "/api/variants/upload",
            content=MINI_TOML.encode(),
            headers={"Content-Type": content_type},
        )
        assert r.status_code == 201, r.text


# -- 6. JSON depth and number limits ------------------------------------------------------------


def test_deep_and_huge_json_bodies_are_refused_not_crashed(server: Server) -> None:
    table, tokens = table_with_players(server)
    json_type = {"Content-Type": "application/json"}
    deep = "[" * DEEP + "]" * DEEP
    cases = {
        "/api/tables": deep,
        f"/api/tables/{table}/sit": '{"seat": 0, "nickname": ' + deep + "}",
        f"/api/tables/{table}/move": '{"seq": 0, "move": {"kind": "place", "tiles": ' + deep + "}}",
    }
    for path, body in cases.items():
        r = server.post(path, content=body.encode(), token=tokens[0], headers=json_type)
        assert r.status_code == 422, (path, r.status_code, r.text[:200])
        e = error(r)
        assert e["code"] == "too_deep" and "more than 32 levels" in e["message"], e
    # Brackets inside strings do not count.
    r = server.post(
        "/api/tables",
        {"variant": "fise", "title": "[[[[" * 15, "seats": [{"kind": "open"}, {"kind": "open"}]},
    )
    assert r.status_code == 201, r.text
    for number in ("1" * 5000, "1" * 40, "1e999"):
        r = server.post(
            f"/api/tables/{table}/move",
            content=f'{{"seq": {number}, "move": {{"kind": "pass"}}}}'.encode(),
            token=tokens[0],
            headers=json_type,
        )
        assert r.status_code == 400, (number[:10], r.text)
        assert error(r)["code"] == "bad_json" and "number" in error(r)["message"]
    r = server.post(f"/api/tables/{table}/sit", content=b"[" * (70 * 1024), headers=json_type)
    assert r.status_code == 413 and error(r)["code"] == "too_large"
    # A new table takes a club's word lists: longer bodies, up to a limit of their own.
    r = server.post("/api/tables", content=b"[" * (300 * 1024), headers=json_type)
    assert r.status_code == 413 and error(r)["code"] == "too_large"
    r = server.post(
        "/api/tables",
        content=b'{"variant": "fise", "title": "\\ud800", "seats": []}',
        headers=json_type,
    )
    assert r.status_code == 400 and "surrogate" in error(r)["message"]


def test_deep_and_huge_json_messages_keep_the_socket(server: Server) -> None:
    table, tokens = table_with_players(server)
    with server.ws(table, tokens[0]) as sock:
        sock.recv()
        for depth, code in ((4000, "too_deep"), (DEEP, "too_large")):  # 8 KiB a message
            nested = "[" * depth + "]" * depth
            sock.conn.send('{"type": "preview", "id": 1, "tiles": ' + nested + "}")
            err = next_of(sock, "error")
            assert err["error"]["code"] == code, err
            still_answers(sock, f"after-{depth}")
        sock.conn.send('{"type": "ping", "id": ' + "9" * 5000 + "}")
        assert next_of(sock, "error")["error"]["code"] == "bad_json"
        still_answers(sock, "after-number")


# -- 7. Rule files -------------------------------------------------------------------------------


def upload_error(server: Server, text: str) -> str:
    r = server.post(
        "/api/variants/upload", content=text.encode(), headers={"Content-Type": "text/plain"}
    )
    assert r.status_code == 422, r.text[:300]
    e = error(r)
    assert e["code"] == "bad_variant_file", e
    assert len(e["message"]) < 1000
    return str(e["message"])


def test_rule_files_that_would_crash_the_parser_are_refused(server: Server) -> None:
    assert "nested more than 32" in upload_error(server, mini_toml("\nx = " + "[" * DEEP))
    assert "nested more than 32" in upload_error(server, mini_toml("\ny = " + "{a=" * DEEP))
    # Brackets in strings and comments are not nesting.
    text = mini_toml('\n[assumed]\nnote = "' + "[" * 40 + '"\n# ' + "{" * 40 + "\n")
    r = server.post("/api/variants/upload", {"toml": text})
    assert r.status_code == 201, r.text
    message = upload_error(server, mini_toml(**{"A = [8, 1]": "A = [8, " + "7" * 5000 + "]"}))
    assert "a number is too long" in message


def test_rule_files_the_engine_cannot_play_are_refused(server: Server) -> None:
    cases = {
        ("A = [8, 1]", "A = [8, 32768]"): "tiles.A: at most 32767 for a tile's value (16 bits)",
        ("rack_size = 5", "rack_size = 11"): "rack_size: at most 10 (the engine's rack)",
        ('"3W" = { kind = "word", factor = 3 }', '"3W" = { kind = "word", factor = 40000 }'): (
            "squares.3W.factor: at most 32767 (16 bits)"
        ),
        (
            '"2L" = { kind = "letter", factor = 2 }',
            '"2L" = { kind = "word_add", amount = -40000 }',
        ): ("squares.2L.amount: between -32768 and 32767"),
        ("bingo_bonus = 20", "bingo_bonus = 2000000"): "bingo_bonus: at most 1000000",
        ("A = [8, 1]", "A = [250, 1]"): "tiles: at most 255 tiles in all (the engine's bag)",
        ("min_bag = 5", "min_bag = 5\nper_game = 100000"): "exchange.per_game: at most 1000",
        # Every field in range, but scores beyond the engine's: two 3W ×1000 in a row.
        ('"3W" = { kind = "word", factor = 3 }', '"3W" = { kind = "word", factor = 1000 }'): (
            "scores: a move could score up to"
        ),
    }
    for (old, new), expected in cases.items():
        message = upload_error(server, mini_toml(**{old: new}))
        assert expected in message, (expected, message)
    start, end = MINI_TOML.index("layout = "), MINI_TOML.index("[squares]")
    tall = (
        MINI_TOML[:start]
        + "layout = '''\n"
        + ". . . . . . . . .\n" * 27
        + "'''\n\n"
        + MINI_TOML[end:]
    )
    message = upload_error(server, tall.replace("rows = 9", "rows = 27"))
    assert "board.rows: at most 26, got 27" in message
    message = upload_error(server, mini_toml("\n[clock]\ninitial_seconds = 99999999999\n"))
    assert "clock.initial_seconds: at most 10800" in message
    message = upload_error(server, mini_toml(**{'name = "mini"': 'name = "mini\\u202e"'}))
    assert "name: no control or invisible formatting characters (U+202E)" in message
    # A number too big for 64 bits is named by its length, not printed.
    message = upload_error(server, mini_toml(**{"rack_size = 5": "rack_size = " + "9" * 300}))
    assert "rack_size: at most 10 (the engine's rack), got a number of 300 digits" in message


def test_one_kind_of_tile_needs_a_start_rule_that_cannot_tie_forever(server: Server) -> None:
    """Drawing tiles to decide who starts would tie forever with one kind of tile; the random
    rule and the rack rules (racks alike draw lots) cannot."""
    ones = zeta_toml()
    for rule in ("nearest_z", "highest_value"):
        message = upload_error(server, ones.replace('rule = "random"', f'rule = "{rule}"'))
        assert "start.rule: drawing for the start needs at least two different tiles" in message
    for rule in ("random", "rack_nearest_z"):
        r = server.post(
            "/api/variants/upload", {"toml": ones.replace('rule = "random"', f'rule = "{rule}"')}
        )
        assert r.status_code == 201, (rule, r.text)


def test_the_built_in_rule_files_pass_the_upload_limits(server: Server) -> None:
    files = sorted(VARIANTS.glob("*.toml"))
    assert len(files) == 6
    for path in files:
        r = server.post("/api/variants/upload", {"toml": path.read_text("utf-8")})
        assert r.status_code == 201, (path.name, r.text)


# -- 8. Per-socket limits; a failing message does not cost the socket ---------------------------


def test_message_and_frame_size_limits(server: Server) -> None:
    table, tokens = table_with_players(server)
    with server.ws(table, tokens[0]) as sock:
        sock.recv()
        sock.send({"type": "ping", "id": 1, "pad": "x" * 9000})
        err = next_of(sock, "error")
        assert err["error"]["code"] == "too_large" and "8192" in err["error"]["message"]
        still_answers(sock)
        sock.send({"type": "ping", "id": 2, "pad": "x" * 8000})  # under 8 KiB: fine
        assert next_of(sock, "pong")["id"] == 2
        sock.conn.send(b"\x00binary")
        assert next_of(sock, "error")["error"]["code"] == "bad_json"
        still_answers(sock)
        # Over uvicorn's frame limit (64 KiB) the socket is closed before the frame is read.
        sock.conn.send("x" * (100 * 1024))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                sock.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_failing_message_is_answered_and_the_socket_stays(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, tokens = table_with_players(server)

    async def bug(self: Room, seat: int, req: Any) -> dict[str, Any]:
        raise KeyError("a bug in the room")

    async def storage_down(self: Room, seat: int, seq: int, move: Any) -> Any:
        raise ApiError(503, "storage_unavailable", "the database is not answering; try again")

    with server.ws(table, tokens[0]) as sock:
        sock.recv()
        monkeypatch.setattr(Room, "preview", bug)
        monkeypatch.setattr(Room, "move", storage_down)
        sock.send({"type": "preview", "id": 7, "tiles": []})
        err = next_of(sock, "error")
        assert err["id"] == 7 and err["error"]["code"] == "internal"
        sock.send({"type": "move", "id": 8, "seq": 0, "move": {"kind": "pass"}})
        err = next_of(sock, "error")
        assert err["id"] == 8 and err["error"]["code"] == "storage_unavailable"
        still_answers(sock)
        monkeypatch.undo()
        sock.send({"type": "preview", "id": 9, "tiles": []})
        assert next_of(sock, "preview")["id"] == 9


# -- 9. Rate limits --------------------------------------------------------------------------------

STRICT = RateLimits(
    create_table="3/minute",
    upload="2/minute",
    seats="4/minute",
    play="5/minute",
    connect="6/minute",
    socket_messages="5/minute",
    address_messages="8/minute",
    close_factor=3,
)


def test_http_writes_are_rate_limited_per_address(fresh_server: Any) -> None:
    server = fresh_server(rate_limits=STRICT)
    body = {"variant": "fise", "seats": [{"kind": "open"}, {"kind": "open"}]}
    assert [server.post("/api/tables", body).status_code for _ in range(3)] == [201] * 3
    r = server.post("/api/tables", body)
    assert r.status_code == 429
    e = error(r)
    assert e["code"] == "rate_limited" and "at most 3 per minute" in e["message"]
    assert 1 <= int(r.headers["Retry-After"]) <= 60 and e["retry_after"] == int(
        r.headers["Retry-After"]
    )
    # Other kinds of writes have budgets of their own; reads are not limited.
    assert server.post("/api/variants/upload", {"toml": MINI_TOML}).status_code == 201
    assert all(server.get("/api/tables").status_code == 200 for _ in range(20))
    table = server.get("/api/tables").json()[0]["id"]
    codes = [
        server.post(f"/api/tables/{table}/sit", {"seat": 9, "nickname": "Ana"}).status_code
        for _ in range(5)
    ]
    assert codes == [422, 422, 422, 422, 429]
    codes = [
        server.post(f"/api/tables/{table}/preview", {"tiles": []}).status_code for _ in range(6)
    ]
    assert codes == [401] * 5 + [429]


def test_websocket_messages_are_rate_limited(fresh_server: Any) -> None:
    server = fresh_server(rate_limits=STRICT)
    table = server.create("fise", [{"kind": "open"}, {"kind": "open"}])
    with server.ws(table) as sock:
        sock.recv()
        answers = []
        for i in range(7):
            sock.send({"type": "ping", "id": i})
            answers.append(sock.until(lambda m: m["type"] in ("pong", "error")))
        assert [m["type"] for m in answers] == ["pong"] * 5 + ["error"] * 2
        assert answers[5]["error"]["code"] == "rate_limited"
        assert "at most 5 per minute" in answers[5]["error"]["message"]
        # Three times the limit in the window (15): the 16th message closes the socket (4429).
        for i in range(9):
            sock.send({"type": "ping", "id": 10 + i})
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                sock.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429


def test_websocket_messages_are_limited_per_address_across_sockets(fresh_server: Any) -> None:
    server = fresh_server(rate_limits=STRICT)
    table = server.create("fise", [{"kind": "open"}, {"kind": "open"}])
    with server.ws(table) as one, server.ws(table) as two:
        one.recv()
        two.recv()
        kinds = []
        for i in range(5):
            for sock in (one, two):
                sock.send({"type": "ping", "id": i})
                kinds.append(sock.until(lambda m: m["type"] in ("pong", "error"))["type"])
        # Each socket sent 5 (its own limit), but the address only has 8.
        assert kinds == ["pong"] * 8 + ["error"] * 2
    # Connecting is limited too: 6 per minute; two were made, four more may be.
    refused = 0
    for _ in range(5):
        try:
            server.ws(table).close()
        except InvalidStatus as e:
            assert e.response.status_code == 403
            refused += 1
    assert refused == 1


# -- 10. Nicknames and titles -------------------------------------------------------------------


def test_nicknames_cannot_hide_bidi_or_format_characters(server: Server) -> None:
    table = server.create("fise", [{"kind": "open"}, {"kind": "open"}])
    for nickname in (
        "Ana\u202egnp.exe",  # RIGHT-TO-LEFT OVERRIDE
        "\u2066Luis\u2069",  # isolates
        "Eva\u200f",  # RIGHT-TO-LEFT MARK
        "Eva\u200e",
        "Eva\u061c",  # ARABIC LETTER MARK
        "Ad\u00admin",  # SOFT HYPHEN (Cf)
        "\ufeffBOM",
        "Ana\u202a",
    ):
        r = server.post(f"/api/tables/{table}/sit", {"seat": 0, "nickname": nickname})
        assert r.status_code == 422, nickname
        e = error(r)
        assert e["code"] == "bad_nickname" and "U+" in e["message"], (nickname, e)
    r = server.post(f"/api/tables/{table}/sit", {"seat": 0, "nickname": "\u0915\u094d\u200d\u0937"})
    assert r.status_code == 200, r.text  # a joiner, as Indic scripts write it: fine
    body = {"variant": "fise", "title": "Partida\u202e", "seats": [{"kind": "open"}] * 2}
    r = server.post("/api/tables", body)
    assert r.status_code == 422 and error(r)["field"] == "title"


# -- 11. The OpenAPI schema ---------------------------------------------------------------------


def test_the_openapi_schema_describes_the_request_bodies(server: Server) -> None:
    r = server.get("/api/openapi.json")
    assert r.status_code == 200
    schema = r.json()
    paths = schema["paths"]
    create = paths["/api/tables"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(create["required"]) == {"variant", "seats"}
    assert create["properties"]["seats"]["items"]["properties"]["kind"]["enum"] == ["open", "bot"]
    move = paths["/api/tables/{table_id}/move"]["post"]["requestBody"]["content"]
    assert set(move["application/json"]["schema"]["required"]) == {"seq", "move"}
    upload_body = paths["/api/variants/upload"]["post"]["requestBody"]["content"]
    assert set(upload_body) == {"application/json", "text/plain"}
    assert "/ws/tables/{table_id}" not in paths and "/" not in paths
    assert "$defs" not in json.dumps(schema)


def spectators(server: Server, table: str) -> int:
    r = server.get("/api/tables")
    assert r.status_code == 200, r.text
    return int(next(t["spectators"] for t in r.json() if t["id"] == table))


def test_a_client_that_stops_reading_is_closed_and_the_table_goes_on(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator that opens its WebSocket and then reads nothing (a tiny receive buffer)
    leaves the table once a state has waited ``SEND_TIMEOUT`` to be taken; the player's
    states keep coming meanwhile, and after."""
    monkeypatch.setattr(sockets, "SEND_TIMEOUT", 1.0)
    table = server.create("fise", [{"kind": "open"}] * 4)
    token = server.sit(table, 0, "Ana")
    player = server.ws(table, token)
    player.recv()  # its state
    with socket.socket() as slow:
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        slow.connect(("127.0.0.1", server.port))
        key = base64.b64encode(os.urandom(16)).decode()
        slow.sendall(
            f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        assert slow.recv(12) == b"HTTP/1.1 101"  # and from now on it reads nothing
        deadline = time.monotonic() + 30
        while spectators(server, table) != 1:
            assert time.monotonic() < deadline, "the spectator never showed up"
            time.sleep(0.05)
        i = 0
        while spectators(server, table) == 1:
            assert time.monotonic() < deadline, "a socket that reads nothing is still at the table"
            i += 1
            r = server.post(f"/api/tables/{table}/sit", {"seat": 1, "nickname": f"p{i}"})
            assert r.status_code == 200, r.text
            r = server.post(f"/api/tables/{table}/leave", token=r.json()["token"])
            assert r.status_code == 200, r.text
    # The player was told of every change all along, and still is.
    last = player.until(
        lambda m: m["type"] == "state" and m["table"]["seats"][1]["nickname"] == f"p{i}"
    )
    assert last["table"]["seats"][0]["nickname"] == "Ana"
    still_answers(player)
