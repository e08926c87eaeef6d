"""A throwaway PostgreSQL cluster for the server tests.

``start_cluster`` runs ``initdb`` and ``pg_ctl`` from Debian's ``postgresql`` package in a
temporary directory (as the ``postgres`` user when run as root, since PostgreSQL refuses to
run as root), listening on 127.0.0.1 on a free port, with trust authentication. CI starts one
with ``python3 tests/server/pgcluster.py start`` (which prints shell ``export`` lines) and the
test fixtures use it through ``TABLERO_TEST_PG_URL``; without that variable the fixtures start
their own.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

USER = "tablero"


def find_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def available() -> bool:
    return find_bin("initdb") is not None and find_bin("pg_ctl") is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(cmd: list[str], owner: str | None) -> list[str]:
    return ["runuser", "-u", owner, "--", *cmd] if owner else cmd


def start_cluster(base: str | None = None) -> tuple[str, Callable[[], None]]:
    """Start a cluster; returns (SQLAlchemy URL of the ``postgres`` database, stop)."""
    initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise RuntimeError("PostgreSQL is not installed (no initdb / pg_ctl)")
    root = Path(base or tempfile.mkdtemp(prefix="tablero-pg-"))
    owner = None
    if os.geteuid() == 0:
        owner = "postgres"
        pwd.getpwnam(owner)  # KeyError if the package did not create the user
        os.chown(root, pwd.getpwnam(owner).pw_uid, pwd.getpwnam(owner).pw_gid)
    data = root / "data"
    port = _free_port()
    run = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
    subprocess.run(
        _as_owner(
            [initdb, "-D", str(data), "-A", "trust", "-U", USER, "-E", "UTF8", "--no-sync"], owner
        ),
        **run,  # type: ignore[arg-type]
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        _as_owner(
            [pg_ctl, "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"], owner
        ),
        **run,  # type: ignore[arg-type]
    )

    def stop() -> None:
        subprocess.run(
            _as_owner([pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"], owner),
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(root, ignore_errors=True)

    return f"postgresql+psycopg://{USER}@127.0.0.1:{port}/postgres", stop


def main(argv: list[str]) -> int:
    """``start``: print ``export TABLERO_TEST_PG_URL=...`` and the data dir for ``stop DIR``."""
    if argv[:1] == ["start"]:
        root = tempfile.mkdtemp(prefix="tablero-pg-")
        url, _stop = start_cluster(root)
        print(f"export TABLERO_TEST_PG_URL='{url}'")
        print(f"export TABLERO_TEST_PG_DIR='{root}'")
        return 0
    if argv[:1] == ["stop"] and len(argv) == 2:
        root = Path(argv[1])
        pg_ctl = find_bin("pg_ctl")
        owner = "postgres" if os.geteuid() == 0 else None
        if pg_ctl:
            subprocess.run(
                _as_owner([pg_ctl, "-D", str(root / "data"), "-m", "fast", "-w", "stop"], owner),
                check=False,
            )
        shutil.rmtree(root, ignore_errors=True)
        return 0
    print("usage: pgcluster.py start | stop DIR", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
