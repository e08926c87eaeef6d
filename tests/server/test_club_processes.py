"""The club across two processes on one PostgreSQL and one Redis: an account made on one
process logs in on the other; a seek offered on one is accepted on the other; a chat line
said on one reaches a socket on the other; a rematch asked on both starts one table; the
finished game is rated once."""

from __future__ import annotations

import time
from typing import Any

import httpx2

from tablero.server.accounts.sessions import COOKIE

from .harness import Server
from .test_accounts import login, sign_up
from .test_processes import pair, services  # noqa: F401  (two processes on PostgreSQL + Redis)


def browser(server: Server) -> httpx2.Client:
    return httpx2.Client(base_url=server.base, headers={"Origin": server.base}, timeout=30)


def wait_for(predicate: Any, what: str) -> None:
    deadline = time.time() + 20
    while not predicate():
        assert time.time() < deadline, what
        time.sleep(0.05)


def test_seek_chat_resign_rating_and_rematch_across_processes(
    pair: tuple[Server, Server],  # noqa: F811  (the fixture imported above)
) -> None:
    a, b = pair
    ana_a, luis_b = browser(a), browser(b)
    assert sign_up(ana_a, "ana").status_code == 201
    assert sign_up(luis_b, "luis").status_code == 201
    ana_b = browser(b)  # the same account on the other process
    assert login(ana_b, "ana").status_code == 200
    r = ana_a.post("/api/seeks", json={"variant": "fise", "seats": 2, "clock_minutes": None})
    seek = r.json()["id"]
    assert seek in {s["id"] for s in b.get("/api/seeks").json()}
    r = luis_b.post(f"/api/seeks/{seek}/accept")
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert ana_a.get(f"/api/seeks/{seek}").json()["table"] == table
    # Chat said through A reaches Luis's socket on B.
    session = luis_b.cookies.get(COOKIE)
    with b.ws_connect(table, headers={"Cookie": f"{COOKIE}={session}", "Origin": b.base}) as sock:
        sock.until(lambda m: m["type"] == "chat_history")
        sock.send({"type": "auth"})
        sock.until(lambda m: m["type"] == "chat_history")
        r = ana_a.post(f"/api/tables/{table}/chat", json={"text": "¡Hola desde A!"})
        assert r.status_code == 201, r.text
        heard = sock.until(lambda m: m["type"] == "chat")["line"]
        assert heard["text"] == "¡Hola desde A!" and heard["author"] == "ana"
    # Ana resigns through B; the game is rated once, whichever process finishes it.
    seq = b.view(table)["seq"]
    r = ana_b.post(f"/api/tables/{table}/move", json={"seq": seq, "move": {"kind": "resign"}})
    assert r.status_code == 200, r.text
    wait_for(
        lambda: luis_b.get("/api/me").json()["ratings"].get("fise", {}).get("games") == 1,
        "the game was not rated",
    )
    assert ana_a.get("/api/me").json()["ratings"]["fise"]["rating"] == 1422
    history = a.get("/api/players/luis").json()["rating_history"]
    assert len(history) == 1 and history[0]["rating"] == 1578
    # Rematch asked on A by Ana and on B by Luis: one new table.
    first = ana_a.post(f"/api/tables/{table}/rematch").json()
    second = luis_b.post(f"/api/tables/{table}/rematch").json()
    new = first["table"] or second["table"]
    assert new and (first["table"] in (None, new))
    wait_for(lambda: a.view(table)["rematch"]["table"] == new, "A does not know the rematch")
    seats = a.view(new)["seats"]
    assert [s["nickname"] for s in seats] == ["luis", "ana"]
    for c in (ana_a, luis_b, ana_b):
        c.close()
