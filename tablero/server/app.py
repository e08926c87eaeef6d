"""The ASGI app: assembles the parts (the table routes, error bodies, the static UI, the
protections of ``web/``) and starts and stops the server's live state with the app.

The server returns JSON and plain text only; it never builds HTML, so no user text can end up
in markup. Outermost, around everything (error pages included), every response gets the
security headers and every cross-site write or WebSocket handshake is refused.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from .accounts.profiles import install_profile_routes
from .accounts.routes import install_account_routes
from .analysis.board import install_board_routes
from .analysis.routes import install_analysis_routes
from .analysis.service import Analyses
from .bus import make_bus, process_name
from .club.routes import install_club_routes
from .config import Settings
from .duplicate.routes import install_duplicate_routes
from .duplicate.service import DuplicateRooms
from .errors import ApiError
from .lexicons import LexiconProvider
from .puzzles.routes import install_puzzle_routes
from .puzzles.service import PuzzleService
from .store.db import make_engine, migrate
from .store.wordlists import stored_word_list
from .tables.hub import Hub
from .tables.routes import install_routes
from .tables.wordlist_routes import install_word_list_routes
from .tournaments.routes import install_tournament_hooks, install_tournament_routes
from .web.headers import SecurityHeaders
from .web.load import LoadGuard
from .web.logredact import install_log_redaction
from .web.origin import OriginGuard, OriginPolicy
from .web.ratelimit import DEFAULT_LIMITS, RateLimiter, RateLimits

__all__ = ["create_app"]

log = logging.getLogger("tablero.server")

STATIC = Path(str(resources.files("tablero.server") / "static"))


OPENAPI_URL = "/api/openapi.json"


class _App(FastAPI):
    """FastAPI with the protections outside its whole middleware stack: Starlette's error
    middleware answers a crash itself, outside any ``add_middleware`` layer."""

    origin_policy: OriginPolicy = OriginPolicy()

    def build_middleware_stack(self) -> ASGIApp:
        inner = super().build_middleware_stack()
        return SecurityHeaders(OriginGuard(inner, self.origin_policy))


GC_THRESHOLDS = (50_000, 20, 100)
"""The cyclic collector's thresholds in a server (Python's are 700, 10, 10).

A full collection walks every object the process holds and stops the event loop meanwhile:
at 1,000 live tables (4,000 WebSockets, 250,000–740,000 objects) each took 200–600 ms, and
with the defaults one came every few seconds: the moves caught behind one made the p99 round
trip 730 ms while the p50 was 9 ms (``benchmarks/bench_server.py --tables 1000``, pauses
timed with ``gc.callbacks``). With 50,000 / 20 / 100 a full collection waits for 100 middle
ones, each for 20 young ones. A young collection walks what survived since the last one
(dead objects are freed at once by reference counting): in steady play that is about one
collection every 30 s, of 50,000–100,000 objects, 90 ms. Smaller thresholds were measured
and are worse: at 10,000 / 5 a young collection still held 27,000–70,000 objects (the count
also goes down when old objects die) and took 30–65 ms every 5–8 s, and a middle one 130 ms
(p99 48–85 ms against 29–36 ms).
"""


def create_app(
    settings: Settings | None = None, *, rate_limits: RateLimits | None = None
) -> FastAPI:
    """A server on the settings' database; the schema is migrated when it starts.

    ``rate_limits``: how often an address may write (``web/ratelimit.py``; the documented
    defaults unless given, e.g. higher ones for tests that make many requests fast)."""
    settings = settings or Settings()
    install_log_redaction()
    engine = make_engine(settings.db_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate, engine)
        hub = Hub(
            engine,
            LexiconProvider(settings.lexicons, fetch_word_list=stored_word_list(engine)),
            settings.bot_delay,
            bus=make_bus(settings.redis_url, origin=process_name()),
            quotas=settings.quotas,
            bot_workers=settings.bot_workers,
            bot_queue=settings.redis_url,
        )
        app.state.hub = hub
        app.state.duplicate = DuplicateRooms(hub)
        install_tournament_hooks(hub, app.state.duplicate)
        app.state.analyses = Analyses(hub, settings.analysis_sim_iterations)
        app.state.load.start()
        await hub.resume(load_tables=settings.resume_on_start)
        app.state.puzzles = PuzzleService(hub)
        await app.state.puzzles.start()  # every finished game scanned for puzzles
        await app.state.duplicate.start()  # closes the rounds that ran out while stopped
        # What start-up loaded (code, dictionaries, rule sets) lives as long as the process:
        # keep it out of the collector's full passes, which otherwise stop the event loop
        # for longer the more it holds; and collect less often (see GC_THRESHOLDS).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            await app.state.load.stop()
            await app.state.puzzles.aclose()
            await app.state.duplicate.stop()
            await app.state.analyses.aclose()
            await hub.shutdown()
            engine.dispose()

    app = _App(
        title="tablero",
        summary="Crossword tile game tables: the HTTP API of docs/web-api.md",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=OPENAPI_URL,
    )
    app.origin_policy = OriginPolicy(settings.allowed_origins)
    shared = None
    if settings.redis_url:
        from limits.storage import RedisStorage

        shared = RedisStorage(settings.redis_url, socket_timeout=1, socket_connect_timeout=1)
    app.state.limiter = RateLimiter(
        rate_limits or DEFAULT_LIMITS.for_shared_address(settings.address_limit_scale),
        shared=shared,
    )
    app.state.load = LoadGuard(settings.capacity)
    _install_error_handlers(app)
    install_routes(app)
    install_word_list_routes(app)
    install_account_routes(app)
    install_profile_routes(app)
    install_club_routes(app)
    install_tournament_routes(app)
    install_puzzle_routes(app)
    install_duplicate_routes(app)
    install_analysis_routes(app)
    install_board_routes(app)
    _install_pages(app)
    return app


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        headers = {}
        if isinstance(exc.extra.get("retry_after"), int):
            headers["Retry-After"] = str(exc.extra["retry_after"])
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error", exc_info=exc)
        return JSONResponse(
            {"error": {"code": "internal", "message": "the server failed; nothing was changed"}},
            status_code=500,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = "no such page" if exc.status_code == 404 else str(exc.detail)
        return JSONResponse(
            {"error": {"code": code, "message": message}}, status_code=exc.status_code
        )


def _install_pages(app: FastAPI) -> None:
    """The single-page UI: the same index.html for the lobby and every table."""

    def index() -> Response:
        page = STATIC / "index.html"
        if not page.is_file():
            return PlainTextResponse(
                "tablero: the browser interface is not installed; the API is at /api/",
                status_code=503,
            )
        return FileResponse(page, media_type="text/html; charset=utf-8")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        return index()

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return index()

    @app.get("/t/{table_id}/replay", include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        return index()

    @app.get("/p/{username}", include_in_schema=False)
    async def player_page(username: str) -> Response:
        return index()

    @app.get("/analysis", include_in_schema=False)
    async def analysis_page() -> Response:
        return index()

    @app.get("/tournaments", include_in_schema=False)
    async def tournaments_page() -> Response:
        return index()

    @app.get("/tournaments/{tournament_id}", include_in_schema=False)
    async def tournament_page(tournament_id: str) -> Response:
        return index()

    @app.get("/tournaments/{tournament_id}/rounds/{number}", include_in_schema=False)
    async def tournament_round_page(tournament_id: str, number: str) -> Response:
        return index()

    @app.get("/puzzles", include_in_schema=False)
    async def puzzles_page() -> Response:
        return index()

    @app.get("/duplicate", include_in_schema=False)
    async def duplicate_rooms_page() -> Response:
        return index()

    @app.get("/d/{room_id}", include_in_schema=False)
    async def duplicate_room_page(room_id: str) -> Response:
        return index()

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
