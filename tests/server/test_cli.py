"""``tablero serve`` itself: the command starts the app on the default data path or --db."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_tablero_serve(db_url: str, tmp_path: Path) -> None:
    port = _free_port()
    env = dict(os.environ, TABLERO_DATA=str(tmp_path / "data"))
    args = [
        sys.executable,
        "-m",
        "tablero.cli",
        "serve",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    if not db_url.startswith("sqlite"):
        args += ["--db", db_url]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 60
        while True:
            try:
                r = httpx2.get(f"http://127.0.0.1:{port}/api/variants", timeout=5)
                break
            except httpx2.TransportError:
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
                assert time.time() < deadline, "tablero serve did not start"
                time.sleep(0.2)
        assert r.status_code == 200 and len(r.json()) == 6
        r = httpx2.post(
            f"http://127.0.0.1:{port}/api/tables",
            json={"variant": "fise", "seats": [{"kind": "open"}, {"kind": "open"}]},
        )
        assert r.status_code == 201
    finally:
        proc.send_signal(signal.SIGINT)  # a clean shutdown, as Ctrl+C
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err.decode()
    assert "tablero: http://127.0.0.1:" in err.decode()
    if db_url.startswith("sqlite"):
        assert (tmp_path / "data" / "tablero.db").is_file()


def test_serve_rejects_a_bad_database_url() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "tablero.cli", "serve", "--db", "  "],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "--db" in r.stderr
