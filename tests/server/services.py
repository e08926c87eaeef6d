"""Real services that fault tests stop and start: a PostgreSQL cluster of their own and a
Redis server, both from Debian's packages, on free loopback ports in a temporary directory.

Unlike the session's shared cluster (``pgcluster``), these belong to one test module, so a
test may take them down under a running tablero server and bring them back on the same port.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from .pgcluster import USER, _as_owner, _free_port, find_bin

__all__ = ["PgCluster", "RedisServer", "need", "redis_available"]


class PgCluster:
    def __init__(self) -> None:
        initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise RuntimeError("PostgreSQL is not installed (no initdb / pg_ctl)")
        self.pg_ctl = pg_ctl
        self.root = Path(tempfile.mkdtemp(prefix="tablero-pgf-"))
        self.owner: str | None = None
        if os.geteuid() == 0:
            self.owner = "postgres"
            entry = pwd.getpwnam(self.owner)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.data = self.root / "data"
        self.port = _free_port()
        initdb_args = ["-D", str(self.data), "-A", "trust", "-U", USER, "-E", "UTF8", "--no-sync"]
        self._run([initdb, *initdb_args])
        self.start()

    @property
    def admin_url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"

    def new_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{name}"

    def _run(self, command: list[str], check: bool = True) -> None:
        """A PostgreSQL program as the cluster's owner (PostgreSQL refuses to run as root)."""
        subprocess.run(
            _as_owner(command, self.owner),
            check=check,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE if check else subprocess.DEVNULL,
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.root / "log")
        self._run([self.pg_ctl, "-D", str(self.data), "-o", options, "-l", log, "-w", "start"])

    def stop(self) -> None:
        """A fast shutdown: open connections are cut, as in an outage."""
        self._run([self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop"], check=False)

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def redis_available() -> bool:
    return shutil.which("redis-server") is not None


def need(postgresql: bool = False, redis: bool = False) -> None:
    """Skip the test when a service it starts is not installed, or fail it where CI requires
    them (``TABLERO_REQUIRE_PG``, set by ``.ci/run``, which installs both)."""
    from .pgcluster import available

    missing = [
        name
        for name, wanted, present in (
            ("PostgreSQL", postgresql, available),
            ("Redis", redis, redis_available),
        )
        if wanted and not present()
    ]
    if not missing:
        return
    what = " and ".join(missing)
    if os.environ.get("TABLERO_REQUIRE_PG"):
        pytest.fail(f"{what} required here (TABLERO_REQUIRE_PG) but not installed")
    pytest.skip(f"{what} not installed")


class RedisServer:
    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("Redis is not installed (no redis-server)")
        self.binary = binary
        self.dir = Path(tempfile.mkdtemp(prefix="tablero-redis-"))
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
