"""A logged-in player's seat belongs to the account: the same game goes on from another
browser or device, by the session cookie, over HTTP and WebSocket; no account acts for
another's seat."""

from __future__ import annotations

from typing import Any

import httpx2

from tablero.server.accounts.sessions import COOKIE

from .harness import Server
from .test_accounts import browser, error, login, sign_up

_names = iter(f"seat{i}" for i in range(10_000))


def account(server: Server) -> tuple[str, httpx2.Client]:
    """A new account, logged in in a browser of its own (close it after)."""
    name = next(_names)
    b = httpx2.Client(base_url=server.base, headers={"Origin": server.base}, timeout=30)
    assert sign_up(b, name).status_code == 201
    return name, b


def sit(client: httpx2.Client, table: str, seat: int, **body: Any) -> Any:
    return client.post(f"/api/tables/{table}/sit", json={"seat": seat, **body})


def test_an_account_seat_follows_its_owner_to_another_browser(server: Server) -> None:
    name, laptop = account(server)
    table = server.create("fise", [{"kind": "open"}, {"kind": "open"}])
    r = sit(laptop, table, 0, nickname="ignored for accounts")
    assert r.status_code == 200, r.text
    seat0 = r.json()["table"]["seats"][0]
    assert seat0["nickname"] == name and seat0["account"] is True
    guest_token = server.sit(table, 1, "Invitada")
    with browser(server) as phone:
        assert login(phone, name).status_code == 200
        view = phone.get(f"/api/tables/{table}").json()
        assert view["you"]["seat"] == 0 and len(view["you"]["rack"]) == 7
        assert view["seats"][1]["account"] is False
        if view["to_move"] == 1:
            r = server.move(table, guest_token, {"kind": "pass"}, view["seq"])
            assert r.status_code == 200, r.text
            view = phone.get(f"/api/tables/{table}").json()
        r = phone.post(
            f"/api/tables/{table}/move", json={"seq": view["seq"], "move": {"kind": "pass"}}
        )
        assert r.status_code == 200, r.text
        assert r.json()["result"]["seat"] == 0
        # The socket of a third device: auth with no token takes the seat of the cookie.
        session = phone.cookies.get(COOKIE)
        with server.ws_connect(
            table, headers={"Cookie": f"{COOKIE}={session}", "Origin": server.base}
        ) as sock:
            sock.recv()  # the spectator's state
            sock.send({"type": "auth"})
            state = sock.until(lambda m: m["type"] == "state" and m["table"]["you"] is not None)
            assert state["table"]["you"]["seat"] == 0
    laptop.close()


def test_no_account_acts_for_another(server: Server) -> None:
    _, owner = account(server)
    _, other = account(server)
    table = server.create("fise", [{"kind": "open"}, {"kind": "open"}])
    assert sit(owner, table, 0).status_code == 200
    server.sit(table, 1, "Guest")
    view = server.view(table)
    seq = view["seq"]
    r = other.post(f"/api/tables/{table}/move", json={"seq": seq, "move": {"kind": "pass"}})
    assert r.status_code == 403 and error(r)["code"] == "not_seated"
    assert other.get(f"/api/tables/{table}").json()["you"] is None
    # Sending a token means that token, even with a cookie that has a seat.
    r = owner.post(
        f"/api/tables/{table}/move",
        json={"seq": seq, "move": {"kind": "pass"}},
        headers={"Authorization": "Bearer not-a-token"},
    )
    assert r.status_code == 401 and error(r)["code"] == "bad_token"
    # A socket with another account's cookie stays a spectator.
    session = other.cookies.get(COOKIE)
    with server.ws_connect(
        table, headers={"Cookie": f"{COOKIE}={session}", "Origin": server.base}
    ) as sock:
        sock.recv()
        sock.send({"type": "auth", "id": 1})
        assert sock.until(lambda m: m["type"] == "error")["error"]["code"] == "not_seated"
    assert server.view(table)["seq"] == seq
    owner.close()
    other.close()


def test_seat_refusals_change_nothing(server: Server) -> None:
    _, player = account(server)
    table = server.create("fise", [{"kind": "open"}] * 3)
    assert sit(player, table, 0).status_code == 200
    r = sit(player, table, 1)
    assert r.status_code == 409 and error(r)["code"] == "already_seated"
    with httpx2.Client(base_url=server.base, timeout=30) as guest:
        r = sit(guest, table, 1)  # a guest needs a nickname
        assert r.status_code == 422 and error(r)["field"] == "nickname"
    # A cookie write without Origin (not a browser, or a forged request) is refused.
    with httpx2.Client(base_url=server.base, timeout=30) as bare:
        bare.cookies.set(COOKIE, player.cookies.get(COOKIE) or "")
        r = bare.post(f"/api/tables/{table}/leave")
        assert r.status_code == 403 and error(r)["code"] == "origin_required"
    seats = server.view(table)["seats"]
    assert [s["kind"] for s in seats] == ["human", "open", "open"]
    # Leaving by cookie, with the Origin a browser sends.
    assert player.post(f"/api/tables/{table}/leave").status_code == 200
    assert server.view(table)["seats"][0]["kind"] == "open"
    player.close()


def test_my_games_lists_the_tables_in_play_and_whose_turn(server: Server) -> None:
    _, ana = account(server)
    _, luis = account(server)
    waiting = server.create("fise", [{"kind": "open"}] * 3)
    assert sit(ana, waiting, 2).status_code == 200
    table = server.create("fise", [{"kind": "open"}, {"kind": "open"}])
    assert sit(ana, table, 0).status_code == 200
    assert sit(luis, table, 1).status_code == 200
    games = {g["id"]: g for g in ana.get("/api/me/games").json()}
    assert set(games) == {waiting, table}
    assert games[waiting]["state"] == "waiting" and games[waiting]["your_turn"] is False
    assert games[waiting]["seat"] == 2 and games[waiting]["to_move"] is None
    view = server.view(table)
    mover, waiter = (ana, luis) if view["to_move"] == 0 else (luis, ana)
    (mine,) = [g for g in mover.get("/api/me/games").json() if g["id"] == table]
    (theirs,) = [g for g in waiter.get("/api/me/games").json() if g["id"] == table]
    assert mine["your_turn"] is True and theirs["your_turn"] is False
    assert mine["to_move"] == theirs["to_move"] == view["to_move"]
    r = mover.post(f"/api/tables/{table}/move", json={"seq": view["seq"], "move": {"kind": "pass"}})
    assert r.status_code == 200, r.text
    (theirs,) = [g for g in waiter.get("/api/me/games").json() if g["id"] == table]
    assert theirs["your_turn"] is True
    with httpx2.Client(base_url=server.base, timeout=30) as guest:
        r = guest.get("/api/me/games")
        assert r.status_code == 401 and error(r)["code"] == "login_required"
    ana.close()
    luis.close()
