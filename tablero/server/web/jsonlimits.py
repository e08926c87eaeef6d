"""JSON from the network, read within limits: size, nesting depth, length of numbers, text.

Python's ``json`` parser is recursive: ``[[[[…]]]]`` twenty thousand deep raises
``RecursionError`` deep inside it (a 500, and a crash risk in threads with small stacks). So
the depth is measured *before* parsing, by a linear scan of the brackets outside strings.
Python also refuses to convert integers of more than 4,300 digits (``ValueError``), and a
huge number has no use in this API, so numbers are capped far below that. Lone surrogates
(``"\\ud800"``) are valid JSON but not text a database can store, so they are refused too.

Every refusal is an ``ApiError`` with a sentence saying what is wrong; nothing else escapes.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ..errors import ApiError

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_DEPTH",
    "MAX_MESSAGE_BYTES",
    "MAX_NUMBER_CHARS",
    "WS_MAX_FRAME_BYTES",
    "depth_exceeds",
    "loads",
]

MAX_BODY_BYTES = 64 * 1024
"""An HTTP request body (a rule file as JSON included)."""
MAX_MESSAGE_BYTES = 8 * 1024
"""A WebSocket message; a move or a preview of a full rack is well under 2 KiB."""
WS_MAX_FRAME_BYTES = 64 * 1024
"""uvicorn's ``ws_max_size``: a bigger frame closes the socket (1009) before it is read."""
MAX_DEPTH = 32
"""Nesting of arrays and objects; the deepest request the API knows is 4 levels."""
MAX_NUMBER_CHARS = 32
"""Characters in one JSON number (a table's ``seq`` needs a handful)."""

_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def depth_exceeds(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays and objects nest deeper than ``limit`` (brackets in strings do not
    count). Linear in the text; unbalanced brackets are left for the parser to refuse."""
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token == "[" or token == "{":
            depth += 1
            if depth > limit:
                return True
        elif token == "]" or token == "}":
            depth -= 1
    return False


class _NumberTooLong(ValueError):
    pass


def _int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise _NumberTooLong
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if len(text) > MAX_NUMBER_CHARS or not math.isfinite(value):
        raise _NumberTooLong
    return value


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(data: str | bytes, *, max_bytes: int = MAX_BODY_BYTES, what: str = "the body") -> Any:
    """The JSON value of ``data`` (UTF-8 if bytes), or ApiError: 413 ``too_large``,
    422 ``too_deep``, 400 ``bad_json`` (not JSON, not UTF-8, a number too long, bad text)."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise ApiError(413, "too_large", f"{what} has {size} bytes; at most {max_bytes} are taken")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(400, "bad_json", f"{what} is not UTF-8 text") from None
    else:
        text = data
    if depth_exceeds(text):
        raise ApiError(
            422, "too_deep", f"{what} nests arrays and objects more than {MAX_DEPTH} levels deep"
        )
    try:
        value = json.loads(
            text,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
        )
    except _NumberTooLong:
        raise ApiError(
            400,
            "bad_json",
            f"{what} has a number too long or too large (at most {MAX_NUMBER_CHARS} characters)",
        ) from None
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_json", f"{what} is not JSON") from None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(
            400, "bad_json", f"{what} holds a lone surrogate (\\ud800–\\udfff): not valid text"
        ) from None
    return value
