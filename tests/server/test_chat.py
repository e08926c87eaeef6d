"""Table chat: players and logged-in spectators, each line with its author, kept with the
game; the quiet-spectators option; refusals (too long, empty, hidden characters, guests who
are not seated, floods) that change nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablero.lexicon import WordListLexicon
from tablero.server.accounts.sessions import COOKIE

from .games import two_players
from .harness import GENEROUS, Server
from .test_ratings_server import Player


def error(r: Any) -> dict[str, Any]:
    return dict(r.json()["error"])


def say(server: Server, table: str, token: str | None, text: str) -> Any:
    return server.post(f"/api/tables/{table}/chat", {"text": text}, token)


def lines(server: Server, table: str, token: str | None = None) -> list[dict[str, Any]]:
    r = server.get(f"/api/tables/{table}/chat", token)
    assert r.status_code == 200, r.text
    return list(r.json()["lines"])


def test_players_and_a_logged_in_spectator_talk(server: Server) -> None:
    table, tokens = two_players(server, "fise")
    fan = Player(server)
    session = fan.http.cookies.get(COOKIE)
    with (
        server.ws(table, tokens[0]) as ana,
        server.ws_connect(
            table, headers={"Cookie": f"{COOKIE}={session}", "Origin": server.base}
        ) as watcher,
    ):
        assert ana.until(lambda m: m["type"] == "chat_history")["lines"] == []
        watcher.until(lambda m: m["type"] == "chat_history")
        r = say(server, table, tokens[1], "  ¡Suerte, <b>Ana</b>!  ")
        assert r.status_code == 201, r.text
        line = r.json()["line"]
        assert line | {"at": 0} == {
            "n": 1,
            "author": "Luis",
            "seat": 1,
            "text": "¡Suerte, <b>Ana</b>!",
            "at": 0,
        }
        assert ana.until(lambda m: m["type"] == "chat")["line"] == line
        assert watcher.until(lambda m: m["type"] == "chat")["line"] == line
        watcher.send({"type": "chat", "id": 7, "text": "Buena partida"})
        heard = ana.until(lambda m: m["type"] == "chat")["line"]
        assert heard["author"] == fan.name and heard["seat"] is None and heard["n"] == 2
    # Kept with the game, readable by whoever can see the table.
    assert [x["text"] for x in lines(server, table)] == ["¡Suerte, <b>Ana</b>!", "Buena partida"]
    with server.ws_connect(table) as late:
        history = late.until(lambda m: m["type"] == "chat_history")["lines"]
        assert [x["n"] for x in history] == [1, 2]


def test_chat_refusals_change_nothing(server: Server) -> None:
    table, tokens = two_players(server, "fise")
    for text, code in (
        ("x" * 301, "chat_too_long"),
        ("   ", "chat_empty"),
        ("gnp\u202eexe", "invalid_request"),
    ):
        r = say(server, table, tokens[0], text)
        assert r.status_code == 422 and error(r)["code"] == code, r.text
    r = say(server, table, None, "hola")  # a guest who is not seated
    assert r.status_code == 401 and error(r)["code"] == "chat_login_required"
    with server.ws_connect(table) as guest:
        guest.until(lambda m: m["type"] == "chat_history")
        guest.send({"type": "chat", "id": 3, "text": "hola"})
        refused = guest.until(lambda m: m["type"] == "error")
        assert refused["id"] == 3 and refused["error"]["code"] == "chat_login_required"
    assert lines(server, table) == []
    assert say(server, table, tokens[0], "x" * 300).status_code == 201


def test_quiet_spectators_are_heard_by_the_players_only_after_the_game(server: Server) -> None:
    table, tokens = two_players(server, "fise", quiet_spectators=True)
    assert server.view(table)["quiet_spectators"] is True
    fan = Player(server)
    r = fan.http.post(f"/api/tables/{table}/chat", json={"text": "juega la Z"})
    assert r.status_code == 201, r.text
    assert say(server, table, tokens[0], "shh").status_code == 201
    assert [x["text"] for x in lines(server, table, tokens[1])] == ["shh"]
    assert [x["text"] for x in lines(server, table)] == ["juega la Z", "shh"]
    with server.ws(table, tokens[1]) as luis:
        assert [x["text"] for x in luis.until(lambda m: m["type"] == "chat_history")["lines"]] == [
            "shh"
        ]
        seq = server.view(table)["seq"]
        r = server.move(table, tokens[0], {"kind": "resign"}, seq)
        assert r.status_code == 200, r.text
        after = luis.until(lambda m: m["type"] == "chat_history")
        assert [x["text"] for x in after["lines"]] == ["juega la Z", "shh"]
    assert len(lines(server, table, tokens[1])) == 2


@pytest.fixture
def strict_chat(
    tmp_path: Path, mini_es: WordListLexicon, mini_ro: WordListLexicon
) -> Iterator[Server]:
    s = Server(
        f"sqlite:///{tmp_path / 'chat.db'}",
        {"es": mini_es, "ro": mini_ro},
        rate_limits=dataclasses.replace(GENEROUS, chat="3/10 seconds"),
    )
    s.start()
    yield s
    s.stop()


def test_a_chat_flood_is_refused(strict_chat: Server) -> None:
    server = strict_chat
    table, tokens = two_players(server, "fise")
    for i in range(3):
        assert say(server, table, tokens[0], f"línea {i}").status_code == 201
    r = say(server, table, tokens[1], "una más")
    assert r.status_code == 429 and error(r)["code"] == "rate_limited"
    assert int(r.headers["Retry-After"]) >= 1
    with server.ws(table, tokens[1]) as sock:
        sock.until(lambda m: m["type"] == "chat_history")
        sock.send({"type": "chat", "id": 9, "text": "¿y ahora?"})
        assert sock.until(lambda m: m["type"] == "error")["error"]["code"] == "rate_limited"
    assert len(lines(server, table)) == 3
