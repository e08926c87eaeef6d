"""``tablero serve`` itself: the command starts the app on the default data path or --db."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _when_serving(proc: subprocess.Popen[bytes], port: int, timeout: float) -> httpx2.Response:
    """Wait for ``tablero serve`` to answer; its answer to ``GET /api/variants``."""
    deadline = time.time() + timeout
    while True:
        try:
            return httpx2.get(f"http://127.0.0.1:{port}/api/variants", timeout=5)
        except httpx2.TransportError:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.time() < deadline, "tablero serve did not start"
            time.sleep(0.2)


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
        r = _when_serving(proc, port, 60)
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


def _serve_refusal(*options: str, command: str = "serve", code: int = 2) -> str:
    """``tablero serve`` (or another command) with options it must refuse before starting:
    its error text, in one line, no traceback (exit code 2, as for any bad argument)."""
    r = subprocess.run(
        [sys.executable, "-m", "tablero.cli", command, *options],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == code, r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    return r.stderr


def test_serve_says_in_one_line_that_it_cannot_write_the_database(tmp_path: Path) -> None:
    path = tmp_path / "tablero.db"
    sqlite3.connect(path).close()
    err = _serve_refusal("--db", f"sqlite:///file:{path}?mode=ro&uri=true")
    assert err.strip().splitlines() == [
        f"Error: cannot use the database sqlite:///file:{path}?mode=ro&uri=true: "
        "attempt to write a readonly database"
    ]


def test_serve_rejects_a_bad_database_url() -> None:
    assert "--db" in _serve_refusal("--db", "  ")
    err = _serve_refusal("--db", "bogus://x")
    assert err.strip().splitlines() == [
        "Error: cannot use the database bogus://x: Can't load plugin: sqlalchemy.dialects:bogus"
    ]


def test_serve_says_in_one_line_that_postgresql_does_not_answer() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    err = _serve_refusal("--db", f"postgresql://tablero:secret@127.0.0.1:{port}/tablero")
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"Error: cannot use the database 127.0.0.1:{port}/tablero: connection failed"
    )
    assert "secret" not in err


def test_serve_with_several_workers_needs_redis_and_postgresql() -> None:
    err = _serve_refusal("--workers", "2")
    assert "--workers" in err and "Redis" in err


def test_serve_refuses_a_bad_allowed_origin() -> None:
    assert "--allow-origin" in _serve_refusal("--allow-origin", "not an origin")


def test_worker_refuses_a_url_that_is_not_redis() -> None:
    err = _serve_refusal("--redis", "http://:secret@example.org/", command="worker")
    assert "--redis" in err and "secret" not in err


def test_serve_with_two_workers_shares_tables(tmp_path: Path) -> None:
    """``--workers 2 --redis``: two processes behind one port; a table made through one is
    played through whichever answers, and both show the same game."""
    import redis as redis_client

    from .services import PgCluster, RedisServer, need

    need(postgresql=True, redis=True)
    pg, redis = PgCluster(), RedisServer()
    port = _free_port()
    db = pg.new_database("workers")
    args = [sys.executable, "-m", "tablero.cli", "serve", "--port", str(port), "--workers", "2"]
    args += ["--db", db, "--redis", redis.url, "--log-level", "warning", "--bot-delay", "0"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _when_serving(proc, port, 90)
        # The first game of a language in each process loads its dictionary: allow for it.
        http = httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=120)
        base = ""
        bots = [{"kind": "bot", "level": 1}] * 2
        # Each request may reach either process: the game still goes on as one.
        r = http.post(
            f"{base}/api/tables",
            json={"variant": "fise", "seats": [{"kind": "open"}, {"kind": "open"}]},
        )
        table = r.json()["id"]
        tokens = [
            http.post(
                f"{base}/api/tables/{table}/sit", json={"seat": s, "nickname": f"P{s}"}
            ).json()["token"]
            for s in (0, 1)
        ]
        for _ in range(6):
            view = http.get(f"{base}/api/tables/{table}").json()
            r = http.post(
                f"{base}/api/tables/{table}/move",
                json={"seq": view["seq"], "move": {"kind": "pass"}},
                headers={"Authorization": f"Bearer {tokens[view['to_move']]}"},
            )
            if r.status_code == 409 and r.json()["error"]["code"] == "stale_seq":
                continue  # this process had not heard of the last move yet: look again
            assert r.status_code == 200, r.text
        history = http.get(f"{base}/api/tables/{table}").json()["history"]
        assert len(history) >= 4 and all(h["kind"] == "passed" for h in history)
        # Bots think in the machine's one queue worker (--bot-workers 1), which the command
        # started once, not once per web process.
        r = http.post(f"{base}/api/tables", json={"variant": "fise", "seats": bots})
        table = r.json()["id"]
        deadline = time.time() + 60
        while http.get(f"{base}/api/tables/{table}").json()["seq"] < 3:
            assert time.time() < deadline, "the bots did not move"
            time.sleep(0.2)
        with redis_client.Redis.from_url(redis.url) as r:
            assert len(r.keys("saq:tablero-bots:worker_info:*")) == 1
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
        redis.destroy()
        pg.destroy()
    assert proc.returncode == 0, err.decode()
    assert "2 processes" in err.decode()
