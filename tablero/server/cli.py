"""``tablero serve``: run the web app with uvicorn, in one process or several; ``tablero
worker``: think for the computer players of every server on one Redis.

With ``--workers N`` uvicorn starts N processes; each builds its app with ``app_from_env``
from the settings this command puts in ``$TABLERO_SERVE_SETTINGS`` (JSON). Several processes
need Redis (``--redis``) to pass table news between them, and PostgreSQL to share. With Redis,
bots go through a job queue (``workers/queue.py``); the machine's ``--bot-workers`` queue
workers are started once by this command, not by each web process.
"""

from __future__ import annotations

import json
import os
import socket
from typing import Any

import click

from .bus import redis_address
from .config import Settings, default_db_url

__all__ = ["app_from_env", "serve", "tcp_listener", "worker"]

SETTINGS_ENV = "TABLERO_SERVE_SETTINGS"


def app_from_env() -> Any:
    """The app of one worker process (uvicorn's factory when ``--workers`` > 1)."""
    from .app import create_app

    data = json.loads(os.environ[SETTINGS_ENV])
    data["allowed_origins"] = tuple(data.get("allowed_origins", ()))
    return create_app(Settings(**data))


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--db",
    "db_url",
    default=None,
    help="Database: an SQLite file path or URL, or postgresql://user:pw@host/db. "
    "Default: $TABLERO_DATA/tablero.db (~/.local/share/tablero/tablero.db).",
)
@click.option(
    "--bot-delay",
    default=0.6,
    show_default=True,
    type=click.FloatRange(0, 30),
    help="Seconds a computer player waits before moving.",
)
@click.option("--log-level", default="info", show_default=True)
@click.option(
    "--allow-origin",
    "allow_origins",
    multiple=True,
    metavar="ORIGIN",
    help="Another site (https://host[:port]) whose pages may use this server's API and "
    "WebSockets; repeat or separate with commas. The server's own origin is always allowed.",
)
@click.option(
    "--forwarded-allow-ips",
    default=None,
    metavar="IPS",
    help="Comma-separated addresses of reverse proxies trusted to set X-Forwarded-For and "
    "X-Forwarded-Proto (the client address rate limits count by). Default: none.",
)
@click.option(
    "--address-limit-scale",
    default=1,
    show_default=True,
    type=click.IntRange(1, 1000),
    help='Multiply every per-address rate limit (docs/web-api.md, "Limits") for players '
    "who share one address, e.g. a club's Wi-Fi. Per-account and per-socket limits stay.",
)
@click.option(
    "--redis",
    "redis_url",
    default=None,
    envvar="TABLERO_REDIS",
    metavar="URL",
    help="redis://host:6379/0: pass table news between server processes (and machines) on "
    "one PostgreSQL database. Default: $TABLERO_REDIS, else one process.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on this machine (more than one needs --redis and PostgreSQL).",
)
@click.option(
    "--bot-workers",
    default=1,
    show_default=True,
    type=click.IntRange(0, 64),
    help="Processes in which computer players think. Without --redis: the server's pool "
    "(0: a thread of the server). With --redis: job-queue workers on this machine (0: only "
    "`tablero worker`s, here or on other machines).",
)
def serve(
    host: str,
    port: int,
    db_url: str | None,
    bot_delay: float,
    log_level: str,
    allow_origins: tuple[str, ...],
    forwarded_allow_ips: str | None,
    address_limit_scale: int,
    redis_url: str | None,
    workers: int,
    bot_workers: int,
) -> None:
    """Play in the browser: tables for 2–4 people and computer players."""
    import uvicorn

    from .app import create_app
    from .store.db import normalize_url
    from .web.jsonlimits import WS_MAX_FRAME_BYTES
    from .web.origin import normalize_origin

    url = db_url or default_db_url()
    try:
        normalize_url(url)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--db") from None
    origins = tuple(o.strip() for value in allow_origins for o in value.split(",") if o.strip())
    for origin in origins:
        if normalize_origin(origin) is None:
            raise click.BadParameter(
                f"{origin!r} is not an origin like https://example.org or http://host:8080",
                param_hint="--allow-origin",
            )
    if redis_url is not None:
        _check_redis_url(redis_url)
    if workers > 1 and (redis_url is None or not normalize_url(url).startswith("postgresql")):
        raise click.BadParameter(
            "several processes share one PostgreSQL database (--db postgresql://…) and pass "
            "table news through Redis (--redis redis://…)",
            param_hint="--workers",
        )
    settings: dict[str, Any] = {
        "db_url": url,
        "bot_delay": bot_delay,
        "allowed_origins": list(origins),
        "address_limit_scale": address_limit_scale,
        "redis_url": redis_url,
        # Several web processes share the machine's queue workers, started below.
        "bot_workers": bot_workers if workers == 1 else 0,
    }
    shown = url.split("@")[-1] if "@" in url else url
    _prepare_database(url, shown)
    _prepare_dictionaries()
    target: Any
    if workers > 1:
        os.environ[SETTINGS_ENV] = json.dumps(settings)
        target = "tablero.server.cli:app_from_env"
    else:
        target = create_app(Settings(**(settings | {"allowed_origins": origins})))
    bus = f", {workers} processes, Redis {redis_address(redis_url)}" if redis_url else ""
    click.echo(f"tablero: http://{host}:{port}/  (database: {shown}{bus})", err=True)
    # No access log: it would keep every player's address. (Seat tokens are never in URLs,
    # and web/logredact.py keeps them out of uvicorn's logs at any level.)
    config = uvicorn.Config(
        target,
        factory=workers > 1,
        workers=workers,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=WS_MAX_FRAME_BYTES,
        # Table messages are small JSON; compression would cost about 76 KB per socket.
        ws_per_message_deflate=False,
        access_log=False,
        # Without --forwarded-allow-ips no proxy is trusted: X-Forwarded-* are ignored (uvicorn
        # would otherwise trust 127.0.0.1, or $FORWARDED_ALLOW_IPS).
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    from uvicorn.supervisors import Multiprocess

    from .workers.worker import LocalWorkers

    bot_processes = None
    try:
        if workers == 1:
            uvicorn.Server(config).run()
        else:
            sockets = [tcp_listener(host, port)]
            if redis_url is not None and bot_workers > 0:
                bot_processes = LocalWorkers(bot_workers, redis_url)
                bot_processes.start()
            Multiprocess(config, sockets=sockets).run()
    except KeyboardInterrupt:  # Ctrl+C: the server has already shut down cleanly
        pass
    finally:
        if bot_processes is not None:
            bot_processes.stop()


def _prepare_database(url: str, shown: str) -> None:
    """Create or migrate the schema before serving, so a database the server cannot use is
    said in one line (not a traceback per process at start-up)."""
    from sqlalchemy.exc import SQLAlchemyError

    from .store.db import make_engine, migrate

    try:
        engine = make_engine(url)
    except OSError as e:  # the SQLite file's folder cannot be made
        raise DatabaseUnusable(f"cannot use the database {shown}: {e}") from None
    except SQLAlchemyError as e:  # not a database URL SQLAlchemy knows (bogus://x)
        reason = str(e).splitlines()[0]
        raise DatabaseUnusable(f"cannot use the database {shown}: {reason}") from None
    try:
        migrate(engine)
    except SQLAlchemyError as e:
        reason = str(getattr(e, "orig", None) or e).splitlines()[0]
        raise DatabaseUnusable(f"cannot use the database {shown}: {reason}") from None
    finally:
        engine.dispose()


def _prepare_dictionaries() -> None:
    """Load (and, if this install could not, build) the word graph of every built-in game's
    dictionary before the URL is printed: no first table waits for one."""
    from ..lexicon import load_lexicon
    from ..variant import builtin_variant_names, load_variant

    for name in builtin_variant_names():
        variant = load_variant(name)
        load_lexicon(variant.lexicon, variant.alphabet)


class DatabaseUnusable(click.ClickException):
    """``--db`` names a database the server cannot use: one line, exit status 2 (as for any
    other bad argument), never a traceback."""

    exit_code = 2


def _check_redis_url(url: str) -> None:
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise click.BadParameter(
            f"{url.split('@')[-1]!r} is not a Redis URL like redis://host:6379/0",
            param_hint="--redis",
        )


@click.command("worker")
@click.option(
    "--redis",
    "redis_url",
    required=True,
    envvar="TABLERO_REDIS",
    metavar="URL",
    help="redis://[:PASSWORD@]host:6379/0, the Redis of the servers (tablero serve --redis). "
    "Default: $TABLERO_REDIS.",
)
@click.option(
    "--processes",
    default=None,
    type=click.IntRange(1, 256),
    help="Worker processes, each thinking for one bot at a time. Default: one per core.",
)
@click.option(
    "--log-level",
    default="warning",
    show_default=True,
    type=click.Choice(["debug", "info", "warning", "error"]),
)
def worker(redis_url: str, processes: int | None, log_level: str) -> None:
    """Think for the computer players of every `tablero serve --redis` on this Redis, from
    this machine or another. Stops cleanly on SIGTERM or SIGINT."""
    import logging

    from .workers.worker import run_worker

    _check_redis_url(redis_url)
    count = processes or os.cpu_count() or 1
    level = getattr(logging, log_level.upper())
    plural = "process" if count == 1 else "processes"
    click.echo(f"tablero worker: {count} {plural}, Redis {redis_address(redis_url)}", err=True)
    if count == 1:
        run_worker(redis_url, log_level=level)  # SAQ stops it on SIGTERM and SIGINT
    else:
        _run_workers(count, redis_url)


def _run_workers(count: int, redis_url: str) -> None:
    """``count`` worker processes, kept running until SIGTERM or SIGINT."""
    import signal
    import threading

    from .workers.worker import LocalWorkers

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda _signum, _frame: stop.set())
    processes = LocalWorkers(count, redis_url)
    processes.start()
    try:
        while not stop.wait(1.0):
            pass
    finally:
        processes.stop()


def tcp_listener(host: str, port: int) -> socket.socket:
    """The listening socket the worker processes share.

    Made as a TCP socket by name (``IPPROTO_TCP``), so that asyncio sets ``TCP_NODELAY`` on
    every connection: without it a reply written in two parts (headers, then body) waits for
    the client's delayed ACK, 40 ms on every request of a kept-alive connection.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror}") from None
    sock.set_inheritable(True)
    return sock
