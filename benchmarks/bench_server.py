"""Load benchmark of the web server: simulated people at live tables, over real WebSockets.

    python benchmarks/bench_server.py [--tables 100] [--interval 10] [--duration 60]
        [--warmup 10] [--spectators 1] [--bot-tables 0] [--variant fise]
        [--backend sqlite|postgresql] [--processes 1] [--url http://host:port]

It starts ``tablero serve`` (SQLite, one process; or ``--backend postgresql --processes 2``
on a throwaway PostgreSQL cluster and Redis server, as the tests start them), then:

* creates ``--tables`` tables of 2, 3 and 4 seats in turn (the first ``--bot-tables`` have one
  person and computer players in the other seats), sits a person in every open seat and adds
  ``--spectators`` spectators to each; every person and spectator opens a WebSocket of their
  own from an address of their own (127.x.y.z), so the server's limits per address apply as
  they would to people;
* each table moves about once every ``--interval`` seconds: the person to move waits, finds a
  legal move with the engine (the ``hard`` level, on what their seat sees) and sends it;
  a finished game is replaced by a new table;
* it measures, after ``--warmup`` seconds, for ``--duration`` seconds: moves/s; the round trip
  of each move (sent → every seat and spectator of the table has the new state) at p50, p95,
  p99 and max; errors by code; and CPU and memory of every server process.

Checked at the end, not timed: every acknowledged move is stored (each table's ``seq`` at the
server is at least the last one acknowledged) and every connection still open has seen it;
the run fails if an acknowledged move is missing. Nothing asserts a time: the figures go in
the ledger of docs/deploy.md with the command that measured them.

``--url`` measures a server already running (anywhere): nothing is started, and the CPU
figures are the client's only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tablero.board import Board, Tile  # noqa: E402
from tablero.engine.players import Bot  # noqa: E402
from tablero.moves import format_move  # noqa: E402
from tablero.position import Position  # noqa: E402
from tablero.server.lexicons import LexiconProvider  # noqa: E402
from tablero.variant import Variant, load_variant  # noqa: E402

ROUND_TRIP_TIMEOUT = 30.0
"""A move not seen by every connection of its table within this many seconds is an error."""


# -- addresses ------------------------------------------------------------------------------


def address(k: int) -> str:
    """The ``k``-th simulated person's loopback address (127.1.0.1, 127.1.0.2, …)."""
    return f"127.{1 + k // 62_500}.{(k // 250) % 250}.{k % 250 + 1}"


# -- figures --------------------------------------------------------------------------------


@dataclass
class Figures:
    measuring: bool = False
    round_trips: list[float] = field(default_factory=list)
    moves: int = 0
    bot_moves: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0
    client_stalls: list[float] = field(default_factory=list)

    def error(self, code: str) -> None:
        if self.measuring:
            self.errors[code] += 1


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# -- one connection -------------------------------------------------------------------------


class Listener:
    """One WebSocket to a table (a seat or a spectator): remembers when each ``seq`` arrived."""

    def __init__(self, table: LiveTable, seat: int | None, ws: ClientConnection) -> None:
        self.table = table
        self.seat = seat
        self.ws = ws
        self.seq = -1
        self.state: dict[str, Any] | None = None
        self.arrived: dict[int, float] = {}
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.open = True

    def handle(self, message: dict[str, Any], now: float) -> None:
        kind = message.get("type")
        if kind == "state":
            table = message["table"]
            seq = table["seq"]
            if seq > self.seq:
                self.seq = seq
                self.arrived[seq] = now
                if len(self.arrived) > 64:
                    for old in sorted(self.arrived)[:32]:
                        del self.arrived[old]
            if self.seat is not None:
                self.state = table
            self.table.news.set()
        elif kind in ("ack", "error"):
            future = self.replies.pop(message.get("id"), None)
            if future is not None and not future.done():
                future.set_result(message)
            elif kind == "error":
                self.table.figures.error(message.get("error", {}).get("code", "error"))

    async def run(self) -> None:
        try:
            async for text in self.ws:
                self.handle(json.loads(text), time.perf_counter())
        except ConnectionClosed:
            pass
        finally:
            self.open = False
            self.table.news.set()
            for future in self.replies.values():
                if not future.done():
                    future.set_result({"type": "error", "code": "closed"})

    def arrival(self, seq: int) -> float | None:
        """When this connection first had ``seq`` or later."""
        times = [t for s, t in self.arrived.items() if s >= seq]
        return min(times) if times else None

    async def request(self, message: dict[str, Any], msg_id: int) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[msg_id] = future
        await self.ws.send(json.dumps({**message, "id": msg_id}))
        return await asyncio.wait_for(future, ROUND_TRIP_TIMEOUT)


# -- one table ------------------------------------------------------------------------------


@dataclass
class People:
    """Where the simulated people connect from, handed out one address each."""

    next: int = 0

    def take(self) -> str:
        self.next += 1
        return address(self.next)


class LiveTable:
    def __init__(self, bench: Bench, seats: int, bots: bool) -> None:
        self.bench = bench
        self.seats = seats
        self.bots = bots
        self.figures = bench.figures
        self.news = asyncio.Event()
        self.id = ""
        self.listeners: list[Listener] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.acked = 0
        self.next_id = 0

    async def open(self) -> None:
        """Create the table, sit everyone, open every WebSocket."""
        b = self.bench
        spec = [{"kind": "open"}] + [
            {"kind": "bot", "level": b.bot_level} if self.bots else {"kind": "open"}
            for _ in range(self.seats - 1)
        ]
        async with b.http(b.people.take()) as client:
            r = await b.post(client, "/api/tables", {"variant": b.variant.name, "seats": spec})
            self.id = r.json()["id"]
        humans = [i for i, s in enumerate(spec) if s["kind"] == "open"]
        tokens: dict[int, str] = {}
        addresses: dict[int, str] = {}
        for seat in humans:
            addresses[seat] = b.people.take()
            async with b.http(addresses[seat]) as client:
                r = await b.post(
                    client, f"/api/tables/{self.id}/sit", {"seat": seat, "nickname": f"p{seat}"}
                )
                tokens[seat] = r.json()["token"]
        for seat in humans:
            await self._listen(seat, addresses[seat], tokens[seat])
        for _ in range(b.spectators):
            await self._listen(None, b.people.take(), None)

    async def _listen(self, seat: int | None, addr: str, token: str | None) -> None:
        for _ in range(60):
            ws = await connect(
                f"{self.bench.ws_url}/ws/tables/{self.id}",
                local_addr=(addr, 0),
                compression=None,
                max_size=2**23,
                open_timeout=60,
            )
            first = json.loads(await ws.recv())
            if first.get("type") != "error" or first["error"]["code"] != "busy":
                break
            # told the server is busy: come back as asked (the socket is closed with 1013)
            self.bench.busy_at_setup += 1
            await ws.close()
            await asyncio.sleep(float(first["error"].get("retry_after", 2)))
        else:
            raise RuntimeError("the server stayed busy for minutes")
        listener = Listener(self, seat, ws)
        listener.handle(first, time.perf_counter())
        if token is not None:
            await ws.send(json.dumps({"type": "auth", "token": token}))
        self.listeners.append(listener)
        self.tasks.append(asyncio.create_task(listener.run()))

    async def play(self, stop: float) -> None:
        """Move about once every interval until ``stop``; a finished game is replaced."""
        b = self.bench
        await asyncio.sleep(random.uniform(0, b.interval))
        while time.perf_counter() < stop:
            state = self._current_state()
            if state is None:
                await self._wait_news(1.0)
                continue
            if state["state"] == "over":
                self.figures.games_finished += b.measuring_now()
                await self.close()
                await self.reopen()
                continue
            mover = state["to_move"]
            me = next((x for x in self.listeners if x.seat == mover and x.open), None)
            if me is None or me.state is None or me.state["seq"] != state["seq"]:
                await self._wait_news(1.0)  # a bot's turn, or the mover has not seen it yet
                continue
            await asyncio.sleep(b.interval * random.uniform(0.8, 1.2))
            if time.perf_counter() >= stop:
                break
            await self._move(me)

    def _current_state(self) -> dict[str, Any] | None:
        states = [x.state for x in self.listeners if x.state is not None and x.open]
        return max(states, key=lambda s: s["seq"]) if states else None

    async def _wait_news(self, timeout: float) -> None:
        self.news.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.news.wait(), timeout)

    async def _move(self, me: Listener) -> None:
        b = self.bench
        assert me.state is not None and me.seat is not None
        seq = me.state["seq"]
        text = await b.choose(me.state, me.seat)
        self.next_id += 1
        sent = time.perf_counter()
        measuring = b.figures.measuring
        try:
            reply = await me.request(
                {"type": "move", "seq": seq, "move": {"kind": "notation", "text": text}},
                self.next_id,
            )
        except TimeoutError:
            self.figures.error("no_answer")
            return
        if reply["type"] != "ack":
            code = reply.get("error", {}).get("code") or reply.get("code", "error")
            self.figures.error(code)
            if code == "busy":  # the server sheds load: the person tries again as asked
                await asyncio.sleep(float(reply["error"].get("retry_after", 2)))
            elif code not in ("stale_seq", "closed"):
                # refused (a bug in the client's move choice?): pass instead
                self.next_id += 1
                with contextlib.suppress(TimeoutError):
                    await me.request(
                        {"type": "move", "seq": seq, "move": {"kind": "pass"}}, self.next_id
                    )
            return
        target = reply["seq"]
        self.acked = max(self.acked, target)
        deadline = sent + ROUND_TRIP_TIMEOUT
        while True:
            arrivals = [x.arrival(target) for x in self.listeners if x.open]
            if all(a is not None for a in arrivals):
                if measuring and b.figures.measuring:
                    b.figures.moves += 1
                    b.figures.round_trips.append(max(a for a in arrivals if a) - sent)
                return
            if time.perf_counter() > deadline:
                self.figures.error("not_delivered")
                return
            await self._wait_news(1.0)

    async def reopen(self) -> None:
        self.listeners, self.tasks, self.acked = [], [], 0
        await self.open()

    async def close(self) -> None:
        for x in self.listeners:
            with contextlib.suppress(Exception):
                await x.ws.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


# -- the run --------------------------------------------------------------------------------


class Bench:
    def __init__(self, args: argparse.Namespace, base_url: str) -> None:
        self.args = args
        self.base_url = base_url
        self.ws_url = base_url.replace("http", "ws", 1)
        self.variant: Variant = load_variant(args.variant)
        self.chooser = ProcessPoolExecutor(
            1, initializer=_start_chooser, initargs=(self.variant.name,)
        )
        self.interval: float = args.interval
        self.spectators: int = args.spectators
        self.bot_level: int = args.bot_level
        self.people = People()
        self.tls = ssl.create_default_context()
        self.busy_at_setup = 0
        self.figures = Figures()

    def measuring_now(self) -> int:
        return 1 if self.figures.measuring else 0

    @contextlib.asynccontextmanager
    async def http(self, addr: str) -> AsyncIterator[httpx2.AsyncClient]:
        # one TLS context for all (plain HTTP needs none, but a transport makes one if not given)
        transport = httpx2.AsyncHTTPTransport(local_address=addr, verify=self.tls)
        async with httpx2.AsyncClient(
            base_url=self.base_url, transport=transport, timeout=60
        ) as client:
            yield client

    async def post(
        self, client: httpx2.AsyncClient, path: str, body: dict[str, Any]
    ) -> httpx2.Response:
        """POST as a person would: told the server is busy, wait as long as it asks and
        try again (counted, as ``busy at setup``)."""
        for _ in range(60):
            r = await client.post(path, json=body)
            if r.status_code != 503 or r.json()["error"]["code"] != "busy":
                r.raise_for_status()
                return r
            self.busy_at_setup += 1
            await asyncio.sleep(float(r.headers.get("Retry-After", "2")))
        raise RuntimeError(f"{path}: the server stayed busy for minutes")

    async def choose(self, state: dict[str, Any], seat: int) -> str:
        """A legal move for ``seat`` from what its state shows, found in a process of its own
        so that the clients' event loop keeps reading sockets (and timing arrivals) meanwhile."""
        loop = asyncio.get_running_loop()
        seen = {k: state[k] for k in ("board", "seats", "bag_count", "you")}
        return await loop.run_in_executor(self.chooser, choose_move, seen, seat)


_chooser: tuple[Variant, Bot] | None = None


def _start_chooser(variant_name: str) -> None:
    global _chooser
    variant = load_variant(variant_name)
    lexicon = LexiconProvider({}).lexicon_for(variant)
    _chooser = (variant, Bot("hard", variant, lexicon, seed=1))


def choose_move(state: dict[str, Any], seat: int) -> str:
    """The engine's ``hard`` move for the seat whose view ``state`` is (in the chooser)."""
    assert _chooser is not None
    v, bot = _chooser
    board = Board(v.rows, v.columns)
    for r, row in enumerate(state["board"]):
        for c, cell in enumerate(row):
            if cell is not None:
                board[r, c] = Tile(cell["letter"], cell["blank"])
    seats = state["seats"]
    n = len(seats)
    order = [(seat + i) % n for i in range(n)]
    position = Position(
        v,
        board,
        [tuple(state["you"]["rack"])] + [()] * (n - 1),
        [seats[i]["score"] for i in order],
        exchanges_used=[seats[i]["exchanges_used"] for i in order],
        cambios_used=[seats[i]["cambios_used"] for i in order],
        bag=state["bag_count"],
    )
    return format_move(bot.choose_in(position, players=n).move)


async def run(args: argparse.Namespace, base_url: str, server: ServerProcesses | None) -> int:
    bench = Bench(args, base_url)
    tables = [
        LiveTable(bench, seats=(2, 3, 4)[i % 3], bots=i < args.bot_tables)
        for i in range(args.tables)
    ]
    t0 = time.perf_counter()
    batch = 10
    for i in range(0, len(tables), batch):
        await asyncio.gather(*(t.open() for t in tables[i : i + batch]))
    sockets = sum(len(t.listeners) for t in tables)
    print(
        f"{len(tables)} tables open ({args.bot_tables} with bots), {sockets} WebSockets, "
        f"in {time.perf_counter() - t0:.1f} s ({bench.busy_at_setup} times told busy)",
        flush=True,
    )
    # The clients are the measuring instrument: their own garbage collections would delay
    # the reading of arrivals and be counted as the server's. Not collected while measuring.
    gc.collect()
    gc.freeze()
    gc.disable()
    start = time.perf_counter()
    stop = start + args.warmup + args.duration
    players = [asyncio.create_task(t.play(stop)) for t in tables]
    watch = asyncio.create_task(watch_loop(bench.figures))
    await asyncio.sleep(args.warmup)
    cpu_before = server.cpu_times() if server else {}
    client_before = client_cpu(bench.chooser)
    bench.figures.measuring = True
    measured_from = time.perf_counter()
    await asyncio.sleep(args.duration)
    bench.figures.measuring = False
    elapsed = time.perf_counter() - measured_from
    cpu_after = server.cpu_times() if server else {}
    client_after = client_cpu(bench.chooser)
    memory = server.memory() if server else {}
    watch.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    lost = await check_stored(bench, tables)
    for t in tables:
        await t.close()
    bench.chooser.shutdown()

    f = bench.figures
    rts = [x * 1000 for x in f.round_trips]
    print(f"measured {elapsed:.1f} s after {args.warmup:.0f} s of warm-up")
    print(f"moves/s (people's moves, round trip measured): {f.moves / elapsed:8.1f}")
    print(
        f"round trip ms: p50 {percentile(rts, 50):7.1f}  p95 {percentile(rts, 95):7.1f}  "
        f"p99 {percentile(rts, 99):7.1f}  max {max(rts, default=float('nan')):7.1f}  "
        f"(n={len(rts)}, mean {statistics.fmean(rts) if rts else float('nan'):.1f})"
    )
    print(f"games finished: {f.games_finished}")
    print("errors: " + (", ".join(f"{k} {v}" for k, v in f.errors.most_common()) or "none"))
    print(
        f"client: CPU {100 * (client_after[0] - client_before[0]) / elapsed:5.1f} % "
        f"(its move chooser {100 * (client_after[1] - client_before[1]) / elapsed:5.1f} %); "
        f"its event loop late by > {STALL * 1000:.0f} ms {len(f.client_stalls)} times "
        f"(max {max(f.client_stalls, default=0.0) * 1000:.0f} ms)"
    )
    used: dict[str, float] = {}
    for (name, pid), after in cpu_after.items():
        # a process started while measuring (a database connection) counts from zero
        used[name] = used.get(name, 0.0) + after - cpu_before.get((name, pid), 0.0)
    for name, seconds in used.items():
        count, rss = memory.get(name, (0, 0))
        print(
            f"{name:<12} ×{count:<3} CPU {100 * seconds / elapsed:5.1f} %   "
            f"RSS {rss / 2**20:7.1f} MiB"
        )
    if lost:
        print(f"LOST: {len(lost)} tables lack an acknowledged move: {lost[:5]}")
        return 1
    assert f.moves > 0, "no move was measured"
    return 0


STALL = 0.02
"""A late wake of the clients' event loop worth reporting (seconds)."""


async def watch_loop(figures: Figures) -> None:
    """Record how late the clients' own event loop wakes while measuring: a client that falls
    behind reads arrivals late and adds its delay to the server's round trips, so the report
    says how often that happened."""
    loop = asyncio.get_running_loop()
    tick = 0.005
    while True:
        asked = loop.time()
        await asyncio.sleep(tick)
        late = loop.time() - asked - tick
        if figures.measuring and late > STALL:
            figures.client_stalls.append(late)


def client_cpu(chooser: ProcessPoolExecutor) -> tuple[float, float]:
    """CPU seconds of the clients' process and of its move chooser (not of the server, which
    is a child process too)."""
    own = psutil.Process().cpu_times()
    chooser_cpu = 0.0
    for pid in list(getattr(chooser, "_processes", {}) or {}):
        with contextlib.suppress(psutil.Error):
            t = psutil.Process(pid).cpu_times()
            chooser_cpu += t.user + t.system
    return own.user + own.system, chooser_cpu


async def check_stored(bench: Bench, tables: list[LiveTable]) -> list[str]:
    """Tables whose stored ``seq`` is below the last move acknowledged to a client."""
    lost = []
    async with bench.http(bench.people.take()) as client:
        for t in tables:
            if not t.acked:
                continue
            r = await client.get(f"/api/tables/{t.id}")
            if r.status_code != 200 or r.json()["seq"] < t.acked:
                lost.append(t.id)
    return lost


# -- the server under test ------------------------------------------------------------------


class ServerProcesses:
    """``tablero serve`` and, for PostgreSQL, a throwaway cluster and Redis server."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="bench-server-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = _free_port()
        self.services: list[Any] = []

    def __enter__(self) -> ServerProcesses:
        args = self.args
        command = [
            *_tablero(),
            "serve",
            "--port",
            str(self.port),
            "--log-level",
            "warning",
            "--bot-delay",
            "0.6",
            "--workers",
            str(args.processes),
        ]
        if args.backend == "postgresql":
            sys.path.insert(0, str(ROOT))
            from tests.server.services import PgCluster, RedisServer

            pg = PgCluster()
            redis = RedisServer()
            self.services = [pg, redis]
            command += ["--db", pg.new_database("bench"), "--redis", redis.url]
        else:
            command += ["--db", str(self.tmp / "bench.db")]
        self.proc = subprocess.Popen(command, stdout=sys.stdout, stderr=sys.stderr)
        deadline = time.monotonic() + 120
        while True:
            try:
                with httpx2.Client(timeout=2) as c:
                    if c.get(f"{self.url}/api/variants").status_code == 200:
                        break
            except httpx2.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("tablero serve did not start")
            time.sleep(0.3)
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def processes(self) -> Iterator[tuple[str, psutil.Process]]:
        """Every process of the server, by role: web processes (those listening on the
        server's port), bot workers, the database and Redis."""
        assert self.proc is not None
        root = psutil.Process(self.proc.pid)
        yield ("web process" if self.args.processes == 1 else "supervisor"), root
        for child in root.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if "resource_tracker" in " ".join(child.cmdline()):
                    continue
                yield ("web process" if self._listens(child) else "bot worker"), child
        for service in self.services:
            proc = getattr(service, "proc", None)
            if proc is not None:
                yield "redis", psutil.Process(proc.pid)
            data = getattr(service, "data", None)
            if data is not None:
                for p in psutil.process_iter(["cmdline"]):
                    if str(data) in " ".join(p.info["cmdline"] or []):  # the postmaster
                        yield "postgresql", p
                        for backend in p.children():
                            yield "postgresql", backend

    def _listens(self, process: psutil.Process) -> bool:
        return any(
            c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == self.port
            for c in process.net_connections(kind="tcp")
        )

    def cpu_times(self) -> dict[tuple[str, int], float]:
        """CPU seconds of every process so far, by (role, pid)."""
        out: dict[tuple[str, int], float] = {}
        for name, p in self.processes():
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                out[name, p.pid] = t.user + t.system
        return out

    def memory(self) -> dict[str, tuple[int, int]]:
        """Per role: the number of processes and their resident memory in all."""
        out: dict[str, tuple[int, int]] = {}
        for name, p in self.processes():
            with contextlib.suppress(psutil.Error):
                count, rss = out.get(name, (0, 0))
                out[name] = (count + 1, rss + p.memory_info().rss)
        return out

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        for service in reversed(self.services):
            service.destroy()
        shutil.rmtree(self.tmp, ignore_errors=True)


def _tablero() -> list[str]:
    found = shutil.which("tablero")
    if found:
        return [found]
    return [sys.executable, "-c", "from tablero.cli import main; main()"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--interval", type=float, default=10.0, help="seconds between moves")
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--spectators", type=int, default=1, help="per table")
    parser.add_argument("--bot-tables", type=int, default=0, help="tables with computer players")
    parser.add_argument("--bot-level", type=int, default=3, choices=range(1, 6))
    parser.add_argument("--variant", default="fise")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--processes", type=int, default=1, help="tablero serve --workers")
    parser.add_argument("--url", help="measure a server already running here instead")
    args = parser.parse_args()
    if args.processes > 1 and args.backend != "postgresql":
        parser.error("more than one process needs --backend postgresql")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    os.environ.setdefault("PYTHONHASHSEED", "0")
    random.seed(7)
    print(
        f"bench_server: {args.tables} tables, a move every {args.interval:g} s each, "
        f"{args.spectators} spectator(s) each, {args.bot_tables} with bots; "
        f"{args.backend}, {args.processes} process(es)",
        flush=True,
    )
    if args.url:
        return asyncio.run(run(args, args.url.rstrip("/"), None))
    with ServerProcesses(args) as server:
        return asyncio.run(run(args, server.url, server))


if __name__ == "__main__":
    raise SystemExit(main())
