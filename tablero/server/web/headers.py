"""Security headers on every HTTP response: pages, JSON, static files, errors and 404s alike.

The browser UI is plain files from ``/static/`` (ES modules, one stylesheet, JSON
translations, an SVG icon) that talk to this same server over ``fetch`` and a WebSocket, so
the policy can forbid everything else: no inline script or style attribute, no other site's
scripts, no framing (clickjacking), no plugins, no ``<base>`` tricks. A nickname that got into
markup by some future bug still could not run script.

Pure ASGI on purpose: Starlette's ``BaseHTTPMiddleware`` buffers streamed bodies and does not
see WebSockets. This one only edits the ``http.response.start`` message, whatever produced it.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "SecurityHeaders"]

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",  # styles set from script (element.style) are allowed, attributes not
        "img-src 'self' data:",
        "connect-src 'self'",  # fetch and the WebSocket to this host (CSP 3: 'self' covers ws:)
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ]
)

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
)

_RAW = [
    (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in SECURITY_HEADERS
]
_NAMES = {name for name, _ in _RAW}


class SecurityHeaders:
    """ASGI middleware: sets ``SECURITY_HEADERS`` on every HTTP response (replacing any
    value a handler set for the same header)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", ()) if h[0].lower() not in _NAMES]
                message = {**message, "headers": [*headers, *_RAW]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
