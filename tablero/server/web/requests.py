"""Reading a request the same way in every domain's routes: who sent it, its limits, and its
JSON body within bounds, refusals in the API's own error form.

The handlers read their bodies themselves rather than through FastAPI's parameters, so that
the size and depth limits apply before anything is parsed, the media type is checked (a
cross-site form can post ``text/plain`` without asking; it cannot post JSON), and every
refusal is ``{"error": {"code", "message", "field"}}``. ``web/openapi.py`` puts the bodies
back in the schema.
"""

from __future__ import annotations

from typing import Any, TypeVar

from fastapi import Request, WebSocket
from pydantic import BaseModel, ValidationError

from ..errors import ApiError
from . import jsonlimits
from .load import LoadGuard
from .ratelimit import RateLimiter

__all__ = [
    "JSON",
    "client_address",
    "load_guard",
    "media_type",
    "rate_limit",
    "read_body",
    "read_json",
    "read_model",
    "validation_error",
]

M = TypeVar("M", bound=BaseModel)

JSON = "application/json"


def client_address(request: Request | WebSocket) -> str:
    """The client's address (uvicorn takes it from X-Forwarded-For for trusted proxies)."""
    return request.client.host if request.client else "unknown"


def rate_limit(request: Request | WebSocket, action: str) -> None:
    """Count one ``action`` by the client's address; 429 past its limit (``RateLimits``)."""
    limiter: RateLimiter = request.app.state.limiter
    limiter.check(action, client_address(request))


def load_guard(request: Request | WebSocket) -> LoadGuard:
    guard: LoadGuard = request.app.state.load
    return guard


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


async def read_body(request: Request, limit: int) -> bytes:
    """The body, read no further than ``limit`` bytes (a huge body is refused, not stored)."""
    too_large = ApiError(413, "too_large", f"a request body may have at most {limit} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request, limit: int = jsonlimits.MAX_BODY_BYTES) -> Any:
    """The JSON body: ``Content-Type: application/json`` only, within limits (``limit``
    bytes: ``MAX_BODY_BYTES`` unless the route takes longer bodies)."""
    if media_type(request) != JSON:
        raise ApiError(
            415,
            "unsupported_media_type",
            "this request takes a JSON body with the header Content-Type: application/json",
        )
    return jsonlimits.loads(await read_body(request, limit), max_bytes=limit)


async def read_model(
    request: Request, model: type[M], limit: int = jsonlimits.MAX_BODY_BYTES
) -> tuple[M, dict[str, Any]]:
    """The JSON body as ``model`` (422 naming the first bad field), and the raw object."""
    data = await read_json(request, limit)
    if not isinstance(data, dict):
        raise ApiError(400, "bad_json", "the body must be a JSON object")
    try:
        return model.model_validate(data), data
    except ValidationError as e:
        raise validation_error(e) from None


def validation_error(e: ValidationError | list[Any]) -> ApiError:
    """The first problem pydantic found, as invalid_request naming the field."""
    errors = e.errors() if isinstance(e, ValidationError) else e
    if not errors:
        return ApiError(422, "invalid_request", "the request is not valid")
    first = errors[0]
    loc = [str(x) for x in first.get("loc", ()) if x != "body"]
    field = ""
    for part in loc:
        field += f"[{part}]" if part.isdigit() else (f".{part}" if field else part)
    message = str(first.get("msg", "invalid"))
    return ApiError(422, "invalid_request", f"{field or 'body'}: {message}", field=field or "body")
