"""Accounts: sign up, log in, log out, change password, personal options; the session cookie,
and what it must never do (leak, be fixed by an attacker, work cross-site, outlive logout)."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tablero.lexicon import WordListLexicon
from tablero.server.accounts.sessions import COOKIE

from .harness import GENEROUS, Server, server_logs


@contextlib.contextmanager
def browser(server: Server) -> Iterator[httpx2.Client]:
    """A client that keeps cookies and sends this site's ``Origin`` on writes, as a browser
    does (each ``browser`` is a browser of its own: its own cookie jar)."""
    with httpx2.Client(base_url=server.base, headers={"Origin": server.base}, timeout=30) as c:
        yield c


_names = iter(f"user{i}" for i in range(10_000))


def fresh_name() -> str:
    return next(_names)


def sign_up(client: httpx2.Client, username: str, password: str = "correct horse") -> Any:
    return client.post("/api/accounts", json={"username": username, "password": password})


def login(client: httpx2.Client, username: str, password: str = "correct horse") -> Any:
    return client.post("/api/login", json={"username": username, "password": password})


def error(r: Any) -> dict[str, Any]:
    body = r.json()
    assert set(body) == {"error"}, body
    return dict(body["error"])


def session_of(client: httpx2.Client) -> str | None:
    return client.cookies.get(COOKIE)


# -- signing up -------------------------------------------------------------------------------


def test_sign_up_logs_in_with_a_safe_cookie(server: Server) -> None:
    name = fresh_name()
    with browser(server) as b:
        r = sign_up(b, name)
        assert r.status_code == 201, r.text
        assert r.json() == {"username": name}
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{COOKIE}=")
        flags = {part.strip().lower() for part in cookie.split(";")[1:]}
        assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
        assert "secure" not in flags  # plain HTTP here; behind HTTPS the cookie is Secure
        session = session_of(b)
        assert session and session not in r.text
        me = b.get("/api/me")
        assert me.status_code == 200, me.text
        assert me.json() == {"username": name, "ratings": {}, "prefs": {}}
        assert session not in me.text


def test_usernames_in_any_script_unique_without_regard_to_case(server: Server) -> None:
    with browser(server) as b:
        for name in ("Ñandú", "Ștefan_ro", "Țuică-42", "Ăla"):
            r = sign_up(b, name)
            assert r.status_code == 201, r.text
            assert r.json()["username"] == name
        # Another case, or the same letters written decomposed, is the same name.
        for same in ("ñANDÚ", "N\u0303andu\u0301", "ștefan_RO", "S\u0326tefan_ro"):
            r = sign_up(b, same)
            assert r.status_code == 409, (same, r.text)
            assert error(r)["code"] == "username_taken"


@pytest.mark.parametrize(
    "name",
    [
        "ab",  # too short
        "a" * 21,  # too long
        "ana maría",  # a space
        "ana\u202etxt",  # a bidi override
        "bad!name",
        "emoji😀x",
        "ana\u0301\u0301",  # combining marks that no letter absorbs
        "",
        "１２３",  # fullwidth digits
    ],
)
def test_malformed_usernames_are_refused_with_the_field(server: Server, name: str) -> None:
    with browser(server) as b:
        r = sign_up(b, name)
        assert r.status_code == 422, r.text
        assert error(r)["field"] == "username"
        assert session_of(b) is None


def test_passwords_of_8_to_256_characters(server: Server) -> None:
    with browser(server) as b:
        for password in ("short12", "x" * 257):
            r = sign_up(b, fresh_name(), password)
            assert r.status_code == 422, r.text
            assert error(r)["field"] == "password"
            assert password not in r.text
        assert sign_up(b, fresh_name(), "x" * 256).status_code == 201
        assert sign_up(b, fresh_name(), "ocho 8ch").status_code == 201


def test_a_refused_sign_up_creates_nothing(server: Server) -> None:
    name = fresh_name()
    with browser(server) as b:
        assert sign_up(b, name, "short").status_code == 422
        assert login(b, name, "short").status_code == 401
        assert sign_up(b, name).status_code == 201


# -- logging in and out -----------------------------------------------------------------------


def test_unknown_user_and_wrong_password_get_the_same_answer(server: Server) -> None:
    name = fresh_name()
    with browser(server) as b:
        assert sign_up(b, name).status_code == 201
    with browser(server) as b:
        wrong = login(b, name, "wrong password")
        unknown = login(b, fresh_name(), "wrong password")
        malformed = login(b, "no such name!", "wrong password")
        for r in (wrong, unknown, malformed):
            assert r.status_code == 401, r.text
            assert r.json() == wrong.json()
            assert error(r)["code"] == "bad_credentials"
            assert "set-cookie" not in r.headers
        assert b.get("/api/me").status_code == 401


def test_login_gives_a_new_session_id_and_logout_ends_it_on_the_server(server: Server) -> None:
    name = fresh_name()
    with browser(server) as b:
        assert sign_up(b, name).status_code == 201
        first = session_of(b)
        r = login(b, name.upper())  # any case
        assert r.status_code == 200, r.text
        assert r.json() == {"username": name}
        second = session_of(b)
        assert second and second != first
    with browser(server) as other:
        # The session id of before the login is dead: no one can fix it in advance.
        other.cookies.set(COOKIE, first or "")
        assert other.get("/api/me").status_code == 401
        other.cookies.set(COOKIE, second)
        assert other.get("/api/me").json()["username"] == name
        r = other.post("/api/logout")
        assert r.status_code == 200, r.text
        cleared = r.headers["set-cookie"].lower()
        assert cleared.startswith(f"{COOKIE}=") and "max-age=0" in cleared
    with browser(server) as replay:
        replay.cookies.set(COOKIE, second)  # sent again after logout: worth nothing
        assert replay.get("/api/me").status_code == 401


def test_a_forged_or_huge_cookie_is_no_one(server: Server) -> None:
    with browser(server) as b:
        for value in ("x", "A" * 43, "B" * 5000):
            b.cookies.set(COOKIE, value)
            r = b.get("/api/me")
            assert r.status_code == 401 and error(r)["code"] == "login_required"


def test_changing_the_password_ends_every_other_session(server: Server) -> None:
    name = fresh_name()
    with browser(server) as laptop, browser(server) as phone:
        assert sign_up(laptop, name).status_code == 201
        assert login(phone, name).status_code == 200
        before = session_of(laptop)
        r = laptop.post(
            "/api/me/password", json={"password": "wrong one", "new_password": "brand new pw"}
        )
        assert r.status_code == 401 and error(r)["field"] == "password"
        r = laptop.post(
            "/api/me/password", json={"password": "correct horse", "new_password": "short"}
        )
        assert r.status_code == 422 and error(r)["field"] == "new_password"
        assert phone.get("/api/me").status_code == 200  # nothing changed yet
        r = laptop.post(
            "/api/me/password",
            json={"password": "correct horse", "new_password": "brand new pw"},
        )
        assert r.status_code == 200, r.text
        assert session_of(laptop) != before
        assert laptop.get("/api/me").status_code == 200
        assert phone.get("/api/me").status_code == 401
        assert login(phone, name).status_code == 401
        assert login(phone, name, "brand new pw").status_code == 200


# -- cross-site requests ----------------------------------------------------------------------


def test_cookie_writes_need_this_sites_origin(server: Server) -> None:
    name = fresh_name()
    with browser(server) as b:
        assert sign_up(b, name).status_code == 201
        session = session_of(b)
    assert session
    with httpx2.Client(base_url=server.base, timeout=30) as bare:
        bare.cookies.set(COOKIE, session)
        assert bare.get("/api/me").status_code == 200  # reads need no Origin
        r = bare.put("/api/me/prefs", json={"lang": "ro"})
        assert r.status_code == 403 and error(r)["code"] == "origin_required"
        r = bare.put(
            "/api/me/prefs", json={"lang": "ro"}, headers={"Origin": "https://evil.example"}
        )
        assert r.status_code == 403 and error(r)["code"] == "bad_origin"
        assert bare.get("/api/me").json()["prefs"] == {}


# -- personal options -------------------------------------------------------------------------


def test_personal_options_follow_the_account(server: Server) -> None:
    name = fresh_name()
    with browser(server) as laptop:
        assert sign_up(laptop, name).status_code == 201
        prefs = {"lang": "ro", "sound": False, "tiles": "contrast", "boardSize": "large"}
        r = laptop.put("/api/me/prefs", json=prefs)
        assert r.status_code == 200 and r.json() == {"prefs": prefs}
        for bad in (
            {"lang": "fr"},
            {"sound": "yes"},
            {"colour": "red"},
            {"tiles": None} | {"x": 1},
        ):
            r = laptop.put("/api/me/prefs", json=bad)
            assert r.status_code == 422, (bad, r.text)
    with browser(server) as phone:
        assert login(phone, name).status_code == 200
        assert phone.get("/api/me").json()["prefs"] == prefs
    with browser(server) as guest:
        r = guest.put("/api/me/prefs", json={"lang": "es"})
        assert r.status_code == 401 and error(r)["code"] == "login_required"


# -- limits -----------------------------------------------------------------------------------

STRICT_LOGINS = dataclasses.replace(
    GENEROUS,
    login_failures_account="3/minute",
    login_failures_address="6/minute",
    signup="4/minute",
)


@pytest.fixture
def strict_server(
    tmp_path: Path, mini_es: WordListLexicon, mini_ro: WordListLexicon
) -> Iterator[Server]:
    s = Server(
        f"sqlite:///{tmp_path / 'strict.db'}",
        {"es": mini_es, "ro": mini_ro},
        rate_limits=STRICT_LOGINS,
    )
    s.start()
    yield s
    s.stop()


def test_failed_logins_are_limited_per_account_and_per_address(strict_server: Server) -> None:
    server = strict_server
    with browser(server) as b:
        for name in ("target", "bystander", "third"):
            assert sign_up(b, name).status_code == 201
    with browser(server) as attacker:
        for _ in range(3):
            assert login(attacker, "target", "guess guess").status_code == 401
        r = login(attacker, "target", "correct horse")  # even the right password, for now
        assert r.status_code == 429, r.text
        assert error(r)["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
        assert session_of(attacker) is None
        # Other accounts from this address still work, up to the address's own limit.
        assert login(attacker, "bystander").status_code == 200
        for name in ("bystander", "bystander", "third"):
            assert login(attacker, name, "guess guess").status_code == 401
        r = login(attacker, "bystander")  # 2 failures of its own, but 6 from the address
        assert r.status_code == 429, r.text
        # Sign-ups from one address: 3 above, one more, then no more this minute.
        assert sign_up(attacker, fresh_name()).status_code == 201
        r = sign_up(attacker, fresh_name())
        assert r.status_code == 429 and error(r)["code"] == "rate_limited"


def test_no_password_or_session_id_in_any_log_line(
    tmp_path: Path, mini_es: WordListLexicon, mini_ro: WordListLexicon
) -> None:
    server = Server(
        f"sqlite:///{tmp_path / 'logs.db'}", {"es": mini_es, "ro": mini_ro}, log_level="debug"
    )
    server.start()
    try:
        with server_logs() as records, browser(server) as b:
            assert sign_up(b, "logged", "secret password 1").status_code == 201
            first = session_of(b)
            assert login(b, "logged", "wrong password 2").status_code == 401
            assert login(b, "logged", "secret password 1").status_code == 200
            second = session_of(b)
            assert b.get("/api/me").status_code == 200
            r = b.post(
                "/api/me/password",
                json={"password": "secret password 1", "new_password": "secret password 3"},
            )
            assert r.status_code == 200
            third = session_of(b)
            assert b.post("/api/logout").status_code == 200
    finally:
        server.stop()
    text = "\n".join(f"{r.name} {r.getMessage()}" for r in records)
    assert "POST /api/login" in text or "/api/login" in text, "the log was not captured"
    secrets = ["secret password 1", "wrong password 2", "secret password 3", first, second, third]
    for secret in secrets:
        assert secret and secret not in text
