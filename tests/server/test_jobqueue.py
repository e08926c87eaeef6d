"""Bots through the job queue on Redis: a job crosses as JSON, a server with no worker of its
own waits for one, and ``tablero worker`` processes (another machine, as far as the server can
tell) think for it, even when one is killed in the middle of a search.

The server here uses the shipped Spanish dictionary, as ``tablero worker`` does (a worker and
its servers must judge words alike); its graph is cached after the first build.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import redis

from tablero.board import Tile
from tablero.engine.players import Bot, seat_view
from tablero.game import Game
from tablero.lexicon import AnyWordLexicon, load_lexicon
from tablero.moves import Move
from tablero.server import catalog
from tablero.server.workers.bots import BotJob, plan_move
from tablero.server.workers.kinds import KINDS, THINK
from tablero.server.workers.queue import QUEUE_NAME, BotQueue, rules_variant
from tablero.variant import Variant, builtin_variant_names, load_variant

from .games import MINI_TOML
from .harness import Server
from .services import RedisServer
from .test_faults import _wait

ROOT = Path(__file__).resolve().parents[2]


# -- the job as JSON --------------------------------------------------------------------------


def job_to_dict(job: BotJob, rules: str) -> dict[str, Any]:
    return THINK.to_dict(job, rules)


def job_from_dict(data: dict[str, Any]) -> BotJob:
    """As a worker reads it (``KINDS`` by the job's function name)."""
    job: BotJob = KINDS["tablero.think"].from_dict(data, rules_variant)
    return job


def _job(variant: Variant, players: int = 2) -> BotJob:
    """A seat's view after a few tiles went down (one a blank, where the game has blanks)."""
    game = Game(variant, [f"P{i}" for i in range(players)], AnyWordLexicon(variant.alphabet), 7)
    position = seat_view(game, game.to_move)
    rack = list(position.racks[0])
    r, c = variant.start_squares[0] if variant.start_squares else variant.center
    for i, tile in enumerate(rack[:2]):
        blank = tile == "?"
        letter = variant.letters()[0] if blank else tile
        position.board[(r, c + i)] = Tile(letter, blank)
        rack.remove(tile)
    position.racks[0] = tuple(rack)
    position.scores = [12, -3, 0, 5][:players]
    return BotJob(position, level=4, players=players)


@pytest.mark.parametrize("name", builtin_variant_names())
def test_a_job_crosses_as_json_for_every_builtin_game(name: str) -> None:
    variant = load_variant(name)
    job = _job(variant, players=max(2, variant.min_players))
    data = json.loads(json.dumps(job_to_dict(job, f"builtin:{name}")))
    assert set(data) == {"cgp", "rules", "level", "players", "plays"}
    assert data["rules"] == f"builtin:{name}" and data["plays"] == []
    assert job_from_dict(data) == job


def test_an_uploaded_game_crosses_as_its_rule_file() -> None:
    variant = catalog.parse_upload(MINI_TOML, source="upload:u-0123456789")
    job = _job(variant, players=3)
    data = json.loads(json.dumps(job_to_dict(job, MINI_TOML)))
    back = job_from_dict(data)
    # The same rules, parsed on the worker's side (named after the text's hash).
    assert dataclasses.replace(back.position.variant, source=variant.source) == variant
    assert dataclasses.replace(back, position=job.position) == job
    assert back.position == dataclasses.replace(job.position, variant=back.position.variant)
    assert rules_variant(MINI_TOML) is back.position.variant  # parsed once per text


def expert_job() -> BotJob:
    """The expert's job after its opponent's placements: it carries them, for rack inference."""
    variant = load_variant("fise")
    lexicon = load_lexicon(variant.lexicon, variant.alphabet)
    game = Game(variant, ["a", "b"], lexicon, seed=5)
    hard = Bot("hard", variant, lexicon, seed=5)
    for _ in range(5):
        game.play(hard.choose(game))
    plan = plan_move(game, game.to_move, 5)
    assert isinstance(plan, BotJob)
    return plan


def test_the_experts_job_carries_the_opponents_plays_across() -> None:
    job = expert_job()
    assert job.plays and all(p.seat == 1 for p in job.plays)
    assert job.plays[0].board != job.position.board  # the board before the play
    data = json.loads(json.dumps(job_to_dict(job, "builtin:fise")))
    assert len(data["plays"]) == len(job.plays)
    back = job_from_dict(data)
    assert back == job
    # On the worker's side the expert reads the opponent's rack from them.
    variant = back.position.variant
    expert = Bot("expert", variant, load_lexicon(variant.lexicon, variant.alphabet), seed=1)
    inference = expert.infer_from_plays(back.plays, back.position)
    assert inference is not None and inference.seat == 1


def test_a_malformed_job_is_refused() -> None:
    data = job_to_dict(expert_job(), "builtin:fise")
    play = data["plays"][0]
    bad_plays = [
        "none",
        [play] * 9,
        [{**play, "played": ["Ж"]}],
        [{**play, "played": []}],
        [{**play, "seat": 0}],
        [{**play, "score": "12"}],
        [{**play, "board": "15/15"}],
    ]
    for bad in (
        {"level": 9},
        {"players": "2"},
        {"cgp": None},
        {"rules": 3},
        *({"plays": plays} for plays in bad_plays),
    ):
        with pytest.raises(ValueError):
            job_from_dict({**data, **bad})


# -- a queue on a real Redis ------------------------------------------------------------------


class Worker:
    """``tablero worker`` in a process of its own, as on another machine."""

    def __init__(self, redis_url: str, log: Path) -> None:
        self.log = log
        command = [sys.executable, "-m", "tablero.cli", "worker", "--redis", redis_url]
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [*command, "--processes", "1"], cwd=ROOT, stdout=out, stderr=out
            )

    def stop(self) -> int:
        """SIGTERM, as systemd stops it: its exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(20)

    def kill(self) -> None:
        self.proc.kill()  # SIGKILL
        self.proc.wait(10)


StartWorker = Callable[[], Worker]


@pytest.fixture
def start_worker(redis_server: RedisServer, tmp_path: Path) -> Iterator[StartWorker]:
    workers: list[Worker] = []

    def start() -> Worker:
        workers.append(Worker(redis_server.url, tmp_path / "worker.log"))
        return workers[-1]

    yield start
    for worker in workers:
        worker.stop()


def _queue_length(url: str, which: str) -> int:
    with redis.Redis.from_url(url) as r:
        return int(r.llen(f"saq:{QUEUE_NAME}:{which}"))


def test_a_job_nobody_takes_is_asked_again_not_left_behind(
    redis_server: RedisServer, start_worker: StartWorker, tmp_path: Path
) -> None:
    """No worker: the job is withdrawn each ``take_within`` and asked again (one job waits,
    never a pile); the answer comes from the first worker that starts."""
    variant = load_variant("fise")
    game = Game(variant, ["A", "B"], load_lexicon("es", variant.alphabet), seed=3)
    job = plan_move(game, game.to_move, 2)
    assert isinstance(job, BotJob)

    async def think() -> Move:
        queue = BotQueue(redis_server.url, lambda v: v.source, take_within=1.0)
        try:
            # Bounded, so that a worker that never answers fails the test instead of hanging
            # it (the executor below waits for this thread).
            return await asyncio.wait_for(queue.think(job), 40)
        finally:
            await queue.aclose()

    with ThreadPoolExecutor(1) as runner:  # its own event loop, in a thread
        move = runner.submit(asyncio.run, think())
        time.sleep(3.5)  # three withdrawals
        assert not move.done()
        assert _queue_length(redis_server.url, "queued") == 1
        worker = start_worker()
        answer = move.result(timeout=45)
    game.check(answer)  # legal in the live game (raises if not)
    assert _queue_length(redis_server.url, "queued") == 0
    assert worker.stop() == 0  # SIGTERM: a clean stop
    first = (tmp_path / "worker.log").read_text().splitlines()[0]
    assert first == f"tablero worker: 1 process, Redis 127.0.0.1:{redis_server.port}"


@pytest.fixture
def server(redis_server: RedisServer, tmp_path: Path) -> Iterator[Server]:
    """A server whose bots think only in ``tablero worker``s (``--bot-workers 0``), on an
    empty Redis."""
    with redis.Redis.from_url(redis_server.url) as r:
        r.flushdb()
    s = Server(f"sqlite:///{tmp_path / 'db.sqlite'}", {}, redis_url=redis_server.url, bot_workers=0)
    s.start()
    try:
        yield s
    finally:
        s.stop()


def _seq(server: Server, table: str) -> int:
    return int(server.view(table)["seq"])


def test_a_bot_table_waits_for_a_worker_then_goes_on(
    server: Server, start_worker: StartWorker
) -> None:
    """An uploaded game (its rule file crosses to the worker): nothing moves, and nobody passes,
    until a worker runs; then the bots keep playing."""
    r = server.post("/api/variants/upload", {"toml": MINI_TOML})
    assert r.status_code == 201, r.text
    table = server.create(r.json()["id"], [{"kind": "bot", "level": 1}] * 2)
    seq = _seq(server, table)
    time.sleep(3)
    assert _seq(server, table) == seq
    start_worker()
    _wait(lambda: _seq(server, table) >= seq + 4, 40, "the bots to play four moves")
    history = server.view(table)["history"]
    # each bot's first turn was thought out in the worker: a placement, or an exchange when a
    # beginner's common words make nothing of its rack (the table's deal is random), never the
    # pass a bot left without a worker would make
    assert [h["kind"] in ("placed", "exchanged") for h in history[:2]] == [True, True], history


def test_a_worker_killed_while_thinking_is_replaced(
    server: Server, start_worker: StartWorker, redis_server: RedisServer
) -> None:
    """``kill -9`` during an expert's search: its job is given up once its heartbeat stops,
    asked again, and answered by the worker that starts next."""
    table = server.create("fise", [{"kind": "bot", "level": 5}] * 2)
    first = start_worker()
    _wait(lambda: _seq(server, table) >= 2, 40, "the first move")
    _wait(lambda: _queue_length(redis_server.url, "active") > 0, 20, "a search to begin")
    first.kill()
    seq = _seq(server, table)
    time.sleep(1)
    assert _seq(server, table) == seq  # its move is not made, nor passed
    start_worker()
    _wait(lambda: _seq(server, table) > seq, 40, "the table to go on")
    history = server.view(table)["history"]
    assert not [h for h in history if h["kind"] == "passed"], history  # for want of a worker
