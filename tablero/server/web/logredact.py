"""Seat tokens never reach a log, at any level.

A seat token is the only proof of a seat, so it must not be written where an operator, a log
shipper or a backup could read it. The server's own code never logs one (nor the text of a
WebSocket message), but the libraries under it can:

- uvicorn's WebSocket protocol logs every frame at DEBUG (``< TEXT '{"type": "auth",
  "token": …}'``): frames are reduced to their kind and size here;
- uvicorn logs each request's path and query (the access log, and the WebSocket handshake at
  INFO): a ``token=`` in a query string (only an outdated client still sends one) is blanked.

The filter sits on the loggers themselves, so it works whatever handlers the deployment's
logging configuration installs (and ``logging.config.dictConfig`` keeps logger filters).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from websockets.frames import Frame

__all__ = ["REDACTED_LOGGERS", "RedactSecrets", "install_log_redaction"]

REDACTED_LOGGERS = (
    "uvicorn",
    "uvicorn.error",
    "uvicorn.access",
    "uvicorn.asgi",
    "websockets",
    "websockets.server",
    "websockets.protocol",
)
"""Loggers whose records can carry a request's path or a WebSocket frame."""

_TOKEN_IN_QUERY = re.compile(r"((?:^|[?&])token=)[^&\s\"']*", re.IGNORECASE)


def _clean(value: Any) -> Any:
    if isinstance(value, Frame):
        return f"{value.opcode.name} [{len(value.data)} bytes]"
    if isinstance(value, str) and "token=" in value.lower():
        return _TOKEN_IN_QUERY.sub(r"\1[redacted]", value)
    return value


class RedactSecrets(logging.Filter):
    """Rewrites a record's arguments: frames become ``TEXT [72 bytes]``, ``token=…`` in a
    query string becomes ``token=[redacted]``. Never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = _clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        return True


_FILTER = RedactSecrets()


def install_log_redaction() -> None:
    """Put the filter on ``REDACTED_LOGGERS`` (once; calling again changes nothing)."""
    for name in REDACTED_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
