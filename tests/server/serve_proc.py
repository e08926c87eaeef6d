"""A tablero server in a process of its own, for tests that kill it with ``kill -9``:
``python -m tests.server.serve_proc DB_URL REDIS_URL PORT``. It serves the test
dictionaries of ``conftest`` (built the same way), generous limits, and no bot delay."""

from __future__ import annotations

import sys

import uvicorn

from tablero.server import Settings, create_app

from .conftest import mini_lexicons
from .harness import GENEROUS, ROOMY


def main(db_url: str, redis_url: str, port: int) -> None:
    settings = Settings(
        db_url=db_url, lexicons=mini_lexicons(), bot_delay=0.2, redis_url=redis_url, quotas=ROOMY
    )
    app = create_app(settings, rate_limits=GENEROUS)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
