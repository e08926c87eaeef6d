"""Sign up, log in, log out, and the account's own page of data (``/api/me``).

Every answer about credentials is the same whether the username exists or not: an unknown
name and a wrong password both get ``401 bad_credentials`` after the same work (see
``passwords.verify_nobody``). Failed logins are counted per address and per username
(``RateLimiter.check_login``). No handler logs a password or a session id, and neither is
ever in a response body or a URL: the session id travels only in its cookie.

Signing up or logging in on a browser that solved puzzles as a guest carries those attempts
and ratings to the account (``puzzles.routes.carry_guest_puzzles``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..errors import ApiError
from ..puzzles.routes import carry_guest_puzzles
from ..web.openapi import json_body, request_body
from ..web.ratelimit import RateLimiter
from ..web.requests import JSON, client_address, rate_limit, read_model
from . import store
from .names import UsernameError, normalize_username, username_key
from .passwords import (
    MAX_PASSWORD,
    PasswordError,
    check_password,
    hash_password,
    verify_nobody,
    verify_password,
)
from .prefs import Prefs
from .profiles import ratings_for_account
from .sessions import (
    IDLE_DAYS,
    clear_cookie,
    hash_session,
    new_session_id,
    require_account,
    session_id,
    set_cookie,
)

__all__ = ["install_account_routes"]


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(max_length=200)
    password: str = Field(max_length=MAX_PASSWORD * 4)


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    password: str = Field(max_length=MAX_PASSWORD * 4)
    """The current password."""
    new_password: str = Field(max_length=MAX_PASSWORD * 4)


def _engine(request: Request) -> Any:
    return request.app.state.hub.engine


def _limiter(request: Request) -> RateLimiter:
    limiter: RateLimiter = request.app.state.limiter
    return limiter


def _bad_credentials() -> ApiError:
    return ApiError(401, "bad_credentials", "wrong username or password")


async def _start_session(request: Request, response: Response, account_id: int) -> None:
    """A new session id (never one the browser brought), in the cookie."""
    old = session_id(request)
    engine = _engine(request)
    if old is not None:
        await asyncio.to_thread(store.delete_session, engine, hash_session(old))
    session = new_session_id()
    now = time.time()
    await asyncio.to_thread(
        store.create_session,
        engine,
        hash_session(session),
        account_id,
        now,
        now + IDLE_DAYS * 86400,
    )
    set_cookie(response, request, session)


async def me_json(request: Request, account: store.Account) -> dict[str, Any]:
    ratings = await ratings_for_account(_engine(request), account.id)
    return {"username": account.username, "ratings": ratings, "prefs": account.prefs}


def install_account_routes(app: FastAPI) -> None:
    creds_body = request_body({JSON: json_body(Credentials)})

    @app.post("/api/accounts", status_code=201, openapi_extra=creds_body)
    async def sign_up(request: Request, response: Response) -> dict[str, Any]:
        """A new account, logged in at once."""
        rate_limit(request, "signup")
        req, _ = await read_model(request, Credentials)
        try:
            name = normalize_username(req.username)
        except UsernameError as e:
            raise ApiError(422, "invalid_request", f"username: {e}", field="username") from None
        try:
            password = check_password(req.password)
        except PasswordError as e:
            raise ApiError(422, "invalid_request", f"password: {e}", field="password") from None
        password_hash = await hash_password(password)
        account = await asyncio.to_thread(
            store.create_account,
            _engine(request),
            name,
            username_key(name),
            password_hash,
            time.time(),
        )
        if account is None:
            raise ApiError(409, "username_taken", f"the username {name!r} is taken")
        await _start_session(request, response, account.id)
        await carry_guest_puzzles(request, response, account.id)
        return {"username": account.username}

    @app.post("/api/login", openapi_extra=creds_body)
    async def login(request: Request, response: Response) -> dict[str, Any]:
        req, _ = await read_model(request, Credentials)
        limiter = _limiter(request)
        address = client_address(request)
        try:
            key = username_key(normalize_username(req.username))
        except UsernameError:
            key = None  # no such account can exist; answered like any wrong password
        limiter.check_login(address, key or "-")
        account = (
            await asyncio.to_thread(store.find_account, _engine(request), key) if key else None
        )
        if account is None:
            await verify_nobody(req.password)
            limiter.login_failed(address, key or "-")
            raise _bad_credentials()
        ok, rehashed = await verify_password(req.password, account.password_hash)
        if not ok:
            limiter.login_failed(address, key or "-")
            raise _bad_credentials()
        if rehashed is not None:
            await asyncio.to_thread(store.set_password, _engine(request), account.id, rehashed)
        await _start_session(request, response, account.id)
        await carry_guest_puzzles(request, response, account.id)
        return {"username": account.username}

    @app.post("/api/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        """Ends the session on the server (whatever state the cookie was in)."""
        session = session_id(request)
        if session is not None:
            await asyncio.to_thread(store.delete_session, _engine(request), hash_session(session))
        clear_cookie(response, request)
        return {"ok": True}

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        account = await require_account(request)
        return await me_json(request, account)

    @app.post("/api/me/password", openapi_extra=request_body({JSON: json_body(PasswordChange)}))
    async def change_password(request: Request, response: Response) -> dict[str, Any]:
        """A new password; every other session of the account ends, and this one gets a
        new id."""
        account = await require_account(request)
        req, _ = await read_model(request, PasswordChange)
        limiter = _limiter(request)
        address = client_address(request)
        key = username_key(account.username)
        limiter.check_login(address, key)
        ok, _ = await verify_password(req.password, account.password_hash)
        if not ok:
            limiter.login_failed(address, key)
            raise ApiError(
                401, "bad_credentials", "the current password is wrong", field="password"
            )
        try:
            password = check_password(req.new_password)
        except PasswordError as e:
            raise ApiError(
                422, "invalid_request", f"new_password: {e}", field="new_password"
            ) from None
        password_hash = await hash_password(password)
        await asyncio.to_thread(store.set_password, _engine(request), account.id, password_hash)
        await _start_session(request, response, account.id)
        return {"ok": True}

    @app.put("/api/me/prefs", openapi_extra=request_body({JSON: json_body(Prefs)}))
    async def put_prefs(request: Request) -> dict[str, Any]:
        account = await require_account(request)
        prefs, _ = await read_model(request, Prefs)
        stored = prefs.stored()
        await asyncio.to_thread(store.set_prefs, _engine(request), account.id, stored)
        return {"prefs": stored}
