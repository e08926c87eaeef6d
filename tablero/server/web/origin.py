"""Cross-site requests are refused: the ``Origin`` header must be this server's own.

A browser sends ``Origin`` with every WebSocket handshake and every cross-site ``POST``, and a
page on another site cannot forge it. Without this check any web page a player visits could
open a socket to a table or post a move from the player's browser (cross-site WebSocket
hijacking, CSRF). Programs that are not browsers send no ``Origin`` and are let through: they
could send any header anyway, and the seat token is what authorizes a move.

"Own origin" means the ``Origin``'s host and port equal the request's ``Host`` header, the
scheme aside (``http``/``https``, ``ws``/``wss``: a TLS proxy in front changes the scheme, not
the host). A proxy that rewrites ``Host``, or a UI served from another host, needs its origin
in the allow-list (``Settings.allowed_origins``, ``tablero serve --allow-origin``).
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["SAFE_METHODS", "WS_CLOSE_BAD_ORIGIN", "OriginGuard", "OriginPolicy", "normalize_origin"]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing; everything else is a write and is checked."""

WS_CLOSE_BAD_ORIGIN = 4403
"""Close code of a refused handshake (the server answers the handshake with HTTP 403)."""

_DEFAULT_PORTS = (":80", ":443")


def _strip_default_port(netloc: str) -> str:
    for port in _DEFAULT_PORTS:
        if netloc.endswith(port):
            return netloc[: -len(port)]
    return netloc


def normalize_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` in lower case without a default port, or None if the text is
    not an origin (``null`` from sandboxed frames and files, garbage)."""
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or "@" in parts.netloc:
        return None
    return f"{parts.scheme}://{_strip_default_port(parts.netloc.lower())}"


class OriginPolicy:
    """Which ``Origin`` headers a request may carry: none, the server's own, or an allowed one."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = frozenset(o for o in (normalize_origin(a) for a in allowed) if o)

    def allows(self, headers: Headers) -> bool:
        origin = headers.get("origin")
        if origin is None:
            return True
        normal = normalize_origin(origin)
        if normal is None:
            return False
        if normal in self.allowed:
            return True
        host = headers.get("host", "").strip().lower()
        return bool(host) and normal.split("://", 1)[1] == _strip_default_port(host)


class OriginGuard:
    """ASGI middleware: a foreign ``Origin`` on a WebSocket handshake closes it with 4403
    before it is accepted; on a write (``POST`` …) it gets ``403 bad_origin``."""

    def __init__(self, app: ASGIApp, policy: OriginPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" and not self.policy.allows(Headers(scope=scope)):
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": WS_CLOSE_BAD_ORIGIN, "reason": ""})
            return
        if (
            kind == "http"
            and scope["method"] not in SAFE_METHODS
            and not self.policy.allows(Headers(scope=scope))
        ):
            response = JSONResponse(
                {
                    "error": {
                        "code": "bad_origin",
                        "message": "requests from another web site are not accepted; "
                        "use the page this server serves",
                    }
                },
                status_code=403,
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
