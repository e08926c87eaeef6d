"""Refusals the API gives: a stable code for programs, an English sentence for people.

Every refusal is raised as ``ApiError`` before any state changes, and becomes the body
``{"error": {"code", "message", ...}}`` (HTTP 4xx, or a WebSocket ``error`` message).
"""

from __future__ import annotations

from typing import Any

from ..moves import NotationError
from ..rules import IllegalMove

__all__ = ["ApiError", "from_illegal", "from_notation"]


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def from_illegal(e: IllegalMove) -> ApiError:
    """A game rule refused the move: 409 for "not now" rules, 422 for the move itself."""
    status = 409 if e.rule in ("game_over", "out_of_time", "already_resigned") else 422
    extra: dict[str, Any] = {"rule": e.rule}
    if e.words:
        extra["words"] = list(e.words)
    if e.params:
        extra["params"] = dict(e.params)
    return ApiError(status, e.rule, e.message, **extra)


def from_notation(e: NotationError) -> ApiError:
    return ApiError(422, "notation", str(e))
