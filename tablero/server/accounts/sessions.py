"""The session cookie, and which account a request or a WebSocket speaks for.

A session id is 256 random bits, sent to the browser once in a cookie that scripts cannot
read (``HttpOnly``), that other sites' pages do not get on their requests (``SameSite=Lax``)
and, behind HTTPS, that never travels in clear (``Secure``). The database keeps its SHA-256
only. The id changes at every login (a session fixed before login is worth nothing), logout
deletes it on the server, a password change ends every other session, and a session unused
for ``IDLE_DAYS`` is gone.

Cross-site requests: a cookie-authenticated write must carry an ``Origin`` header, and
``web/origin.py`` has already refused any ``Origin`` that is not this site's. Browsers send
``Origin`` with every ``POST``/``PUT``/``DELETE``, same-site or not, so the browser client
is unaffected; a page on another site cannot send a request that passes both checks, and a
program that is not a browser uses the cookie only if it sends ``Origin`` as well.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time

from fastapi import Request, Response, WebSocket

from ..errors import ApiError
from ..web.origin import SAFE_METHODS
from . import store
from .store import Account

__all__ = [
    "COOKIE",
    "IDLE_DAYS",
    "account_of",
    "clear_cookie",
    "current_account",
    "hash_session",
    "new_session_id",
    "require_account",
    "session_id",
    "set_cookie",
]

COOKIE = "tablero_session"
IDLE_DAYS = 30
_IDLE = IDLE_DAYS * 86400


def new_session_id() -> str:
    return secrets.token_urlsafe(32)


def hash_session(session: str) -> str:
    return hashlib.sha256(session.encode("utf-8")).hexdigest()


def _https(request: Request | WebSocket) -> bool:
    return request.url.scheme in ("https", "wss")


def set_cookie(response: Response, request: Request, session: str) -> None:
    response.set_cookie(
        COOKIE,
        session,
        max_age=_IDLE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=_https(request),
    )


def clear_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=_https(request))


def session_id(request: Request | WebSocket) -> str | None:
    value = request.cookies.get(COOKIE)
    if not value or len(value) > 100:
        return None
    return value


async def account_of(request: Request | WebSocket) -> Account | None:
    """The account of the request's session cookie, or None (no cookie, unknown, expired)."""
    session = session_id(request)
    if session is None:
        return None
    now = time.time()
    engine = request.app.state.hub.engine
    return await asyncio.to_thread(
        store.session_account, engine, hash_session(session), now, now + _IDLE
    )


async def current_account(request: Request) -> Account | None:
    """``account_of``, for a request that may change something: a write that relies on the
    cookie must come with this site's ``Origin`` (see the module's text)."""
    account = await account_of(request)
    if (
        account is not None
        and request.method not in SAFE_METHODS
        and "origin" not in request.headers
    ):
        raise ApiError(
            403,
            "origin_required",
            "a request signed in by cookie that changes something needs an Origin header",
        )
    return account


async def require_account(request: Request) -> Account:
    account = await current_account(request)
    if account is None:
        raise ApiError(401, "login_required", "log in first")
    return account
