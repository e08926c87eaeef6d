"""``tablero serve``: run the web app with uvicorn."""

from __future__ import annotations

import click

from .config import Settings, default_db_url

__all__ = ["serve"]


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
def serve(host: str, port: int, db_url: str | None, bot_delay: float, log_level: str) -> None:
    """Play in the browser: tables for 2–4 people and computer players."""
    import uvicorn

    from .app import create_app
    from .store.db import normalize_url

    url = db_url or default_db_url()
    try:
        normalize_url(url)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--db") from None
    app = create_app(Settings(db_url=url, bot_delay=bot_delay))
    shown = url.split("@")[-1] if "@" in url else url
    click.echo(f"tablero: http://{host}:{port}/  (database: {shown})", err=True)
    # No access log: WebSocket URLs carry seat tokens, which must not end up in log files.
    uvicorn.run(
        app, host=host, port=port, log_level=log_level, ws_max_size=1 << 20, access_log=False
    )
