"""``/api/wordlists``: word lists uploaded for rule files to play with (docs/web-api.md).

``POST /api/wordlists?language=es&name=club`` takes the list as UTF-8 text, one word per line
(``#`` comments), checks it with the language's tiles, stores it and builds its word graph;
the answer's ``id`` (``wl-`` and 16 hex digits) goes in a rule file as ``lexicon = "wl-…"``.
``GET /api/wordlists/{id}`` describes a stored list.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request

from ..errors import ApiError
from ..store.wordlists import StoredWordList, get_word_list
from ..web.openapi import request_body
from ..web.requests import client_address, load_guard, media_type, rate_limit, read_body
from ..wordlists import MAX_WORD_LIST_UPLOAD_BYTES, is_word_list_id
from .hub import Hub
from .protocol import disguising_character

__all__ = ["install_word_list_routes"]

MAX_LIST_NAME = 60
"""Characters in a list's name (shown with the rules that use it)."""

_LIST_BODY = request_body(
    {"text/plain": {"type": "string", "maxLength": MAX_WORD_LIST_UPLOAD_BYTES}}
)


def _described(stored: StoredWordList) -> dict[str, Any]:
    return {
        "id": stored.id,
        "name": stored.name,
        "language": stored.language,
        "words": stored.word_count,
        "lexicon": f'lexicon = "{stored.id}"',
    }


def install_word_list_routes(app: FastAPI) -> None:
    @app.post("/api/wordlists", status_code=201, openapi_extra=_LIST_BODY)
    async def upload_word_list(
        request: Request, language: str = "es", name: str = "word list"
    ) -> dict[str, Any]:
        rate_limit(request, "upload")
        load_guard(request).admit("word lists")
        if media_type(request) not in ("text/plain", ""):
            raise ApiError(
                415,
                "unsupported_media_type",
                "send the word list as UTF-8 text, one word per line, with Content-Type: "
                "text/plain",
            )
        name = name.strip() or "word list"
        if len(name) > MAX_LIST_NAME or disguising_character(name) is not None:
            raise ApiError(
                422,
                "bad_word_list",
                f"name: at most {MAX_LIST_NAME} visible characters",
                field="name",
            )
        raw = await read_body(request, MAX_WORD_LIST_UPLOAD_BYTES)
        hub: Hub = request.app.state.hub
        stored = await hub.upload_word_list(raw, language, name, client_address(request))
        return _described(stored)

    @app.get("/api/wordlists/{list_id}")
    async def word_list(list_id: str, request: Request) -> dict[str, Any]:
        hub: Hub = request.app.state.hub
        stored = None
        if is_word_list_id(list_id):
            stored = await asyncio.to_thread(get_word_list, hub.engine, list_id)
        if stored is None:
            raise ApiError(404, "not_found", f"no uploaded word list {list_id!r}")
        return _described(stored)
