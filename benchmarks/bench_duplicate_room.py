"""A full duplicate room: 100 players, each with a WebSocket, sending their moves one after the
other, as the end of a round does.

    python benchmarks/bench_duplicate_room.py [--players 100] [--db sqlite|postgresql-url]

It starts the app in this process (``tests/server/harness.py``'s ``Server``, on a temporary
SQLite file unless ``--db`` names a database), creates a FISE room, joins the players over
HTTP, opens a socket for each (authenticated as that player) and starts the game. Then two
rounds: every player sends a move (round 1 a move the rack cannot play, round 2 nothing, so
that round 2's views carry round 1's results for every player); the last one closes the round.
It prints the seconds each round's submissions took in all (each stored and answered in
turn), the size of a view, and how many states each socket received. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.server.harness import Server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--db", default=None, help="a database URL (default: a temporary SQLite)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(args.db or f"sqlite:///{Path(tmp) / 'bench.db'}", {})
        server.start()
        try:
            run(server, args.players)
        finally:
            server.stop()


def run(server: Server, players: int) -> None:
    body = server.post(
        "/api/duplicate",
        {"variant": "fise", "nickname": "P0", "round_seconds": 900, "pause_seconds": 3},
    ).json()
    room, tokens = body["id"], [body["token"]]
    t = time.perf_counter()
    for i in range(1, players):
        r = server.post(f"/api/duplicate/{room}/join", {"nickname": f"P{i}"})
        tokens.append(r.json()["token"])
    print(f"{players} joins: {time.perf_counter() - t:.2f} s")
    received = [0] * players
    sockets: list[ClientConnection] = []
    for i, token in enumerate(tokens):
        sock = connect(f"ws://127.0.0.1:{server.port}/ws/duplicate/{room}").__enter__()
        sock.send(json.dumps({"type": "auth", "token": token}))
        sockets.append(sock)
        threading.Thread(target=listen, args=(sock, received, i), daemon=True).start()
    server.post(f"/api/duplicate/{room}/start", {}, tokens[0])
    for n, move in ((1, "8H ZZZ"), (2, "-")):
        wait_open(server, room, tokens[0], n)
        view = server.get(f"/api/duplicate/{room}", tokens[0]).json()
        t = time.perf_counter()
        for token in tokens:
            submitted = {"round": n, "move": {"kind": "notation", "text": move}}
            r = server.post(f"/api/duplicate/{room}/submit", submitted, token)
            assert r.status_code == 200, r.text
        took = time.perf_counter() - t
        size = len(json.dumps(view))
        print(
            f"round {n}: {players} submissions, the round closed: {took:.2f} s in all, "
            f"{1000 * took / players:.0f} ms each; a view {size / 1000:.0f} KB"
        )
    time.sleep(1)
    print(f"states received by each socket: {min(received)}–{max(received)}")
    for sock in sockets:
        sock.close()


def wait_open(server: Server, room: str, token: str, n: int) -> None:
    deadline = time.time() + 30
    while True:
        view: dict[str, Any] = server.get(f"/api/duplicate/{room}", token).json()
        if view["round"] == n and view["phase"] == "open":
            return
        if time.time() > deadline:
            raise RuntimeError(f"round {n} did not open")
        time.sleep(0.2)


def listen(sock: ClientConnection, received: list[int], i: int) -> None:
    try:
        for _ in sock:
            received[i] += 1
    except Exception:  # closed at the end
        return


if __name__ == "__main__":
    main()
