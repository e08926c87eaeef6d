"""Computer players: a person plays a bot at a 17×15 Cuvinte în Cutie table."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tablero.alphabet import ROMANIAN
from tablero.game import Game
from tablero.lexicon import WordListLexicon, load_lexicon
from tablero.moves import Move
from tablero.server.workers.bots import BotJob, choose_move, plan_move
from tablero.variant import load_variant

from .games import best_placement
from .harness import Server


@pytest.fixture(scope="module")
def romanian() -> object:
    """The shipped Romanian dictionary (its word graph is built on first use)."""
    return load_lexicon("ro", ROMANIAN)


@pytest.fixture
def real_server(db_url: str, mini_es: WordListLexicon, romanian: object) -> Iterator[Server]:
    s = Server(db_url, {"es": mini_es})  # Romanian: the real dictionary
    s.start()
    try:
        yield s
    finally:
        s.stop()


def test_a_person_plays_a_bot_at_cuvinte(real_server: Server, romanian: WordListLexicon) -> None:
    server = real_server
    table = server.create("cuvinte", [{"kind": "open"}, {"kind": "bot", "level": 3}])
    token = server.sit(table, 0, "Ana")
    variant = load_variant("cuvinte")
    bot_moves = []
    with server.ws(table, token) as ws:
        state = ws.recv()["table"]
        assert (state["rows"], state["columns"]) == (15, 17)
        while len(bot_moves) < 3:
            if state["to_move"] != 0:  # the bot's turn: wait for its move
                state = ws.state_until(
                    lambda t: t["to_move"] == 0 or t["state"] == "over", timeout=60
                )
            if state["state"] == "over":
                break
            bot_moves += [h for h in state["history"] if h["seat"] == 1 and h not in bot_moves]
            chosen = best_placement(state, variant, romanian)  # type: ignore[arg-type]
            move = chosen[0] if chosen else {"kind": "pass"}
            ws.send({"type": "move", "id": state["seq"], "seq": state["seq"], "move": move})
            ack = ws.until(lambda m: m["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            if chosen:
                assert ack["result"]["kind"] == "placed"
            state = ws.state_until(lambda t, seq=ack["seq"]: t["seq"] >= seq)
    assert len(bot_moves) >= 3
    placed = [h for h in bot_moves if h["kind"] == "placed"]
    assert placed, bot_moves  # a level-3 bot with a whole dictionary finds words
    assert all(h["score"] > 0 and h["squares"] for h in placed)
    view = server.view(table, token)
    assert view["seats"][1]["kind"] == "bot" and view["seats"][1]["rack_count"] == 7
    assert all(s["clock_remaining"] <= 900 for s in view["seats"])


def test_choose_move_seats_the_engines_levels(romanian: WordListLexicon) -> None:
    """Level 4 is the engine's club player, level 5 its expert; every level's move is legal
    (check raises if not)."""
    from tablero.engine.players import LEVELS as ENGINE_LEVELS
    from tablero.server.workers.bots import _bot

    game = Game("cuvinte", ["Ana", "Bot"], romanian, seed=11)
    seat = game.to_move
    assert _bot(game.variant, romanian, 4).level == ENGINE_LEVELS["club"]
    assert _bot(game.variant, romanian, 5).level == ENGINE_LEVELS["expert"]
    club = choose_move(game, seat, 4)
    for level in (1, 2, 3, 4):
        game.check(choose_move(game, seat, level))
    assert game.play(club).kind in ("placed", "exchanged")
    with pytest.raises(ValueError, match="level"):
        choose_move(game, game.to_move, 7)


def test_without_a_placement_a_bot_exchanges_or_passes() -> None:
    """With a dictionary it cannot search (``none``), a bot exchanges while it may, then passes."""
    from tablero.lexicon import AnyWordLexicon
    from tablero.moves import Exchange, Pass

    game = Game("cuvinte", ["Ana", "Bot"], AnyWordLexicon(ROMANIAN), seed=3)
    seat = game.to_move
    move = choose_move(game, seat, 2)
    assert isinstance(move, Exchange) and sorted(move.tiles) == sorted(game.players[seat].rack)
    game.players[seat].exchanges = game.variant.exchange.per_game  # all three used
    assert isinstance(choose_move(game, seat, 2), Pass)


@pytest.mark.slow
def test_a_whole_game_against_the_bot_at_cuvinte(
    real_server: Server, romanian: WordListLexicon
) -> None:
    """To the end, with the whole Romanian dictionary: about a minute."""
    server = real_server
    table = server.create(
        "cuvinte", [{"kind": "bot", "level": 3}, {"kind": "open"}], clock_minutes=None
    )
    token = server.sit(table, 1, "Ana")
    variant = load_variant("cuvinte")
    with server.ws(table, token) as ws:
        state = ws.recv()["table"]
        while True:
            state = ws.state_until(lambda t: t["to_move"] == 1 or t["state"] == "over", 120)
            if state["state"] == "over":
                break
            chosen = best_placement(state, variant, romanian)  # type: ignore[arg-type]
            if chosen:
                move = chosen[0]
            elif state["bag_count"] >= 7 and state["seats"][1]["exchanges_used"] < 3:
                move = {"kind": "exchange", "tiles": state["you"]["rack"]}
            else:
                move = {"kind": "pass"}
            ws.send({"type": "move", "id": state["seq"], "seq": state["seq"], "move": move})
            assert ws.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
    final = server.view(table, token)
    result = final["result"]
    assert result["final_scores"] == [s["score"] for s in final["seats"]]
    bot_placed = [h for h in final["history"] if h["seat"] == 0 and h["kind"] == "placed"]
    assert len(bot_placed) >= 5
    assert not any(h["kind"] == "lost_turn" for h in final["history"] if h["seat"] == 0)


def test_bots_think_in_a_worker_process(mini_es: WordListLexicon) -> None:
    """The web process hands a bot's job to a spawned worker process, which loads the same
    dictionary and answers with a legal move for the game."""
    from tablero.server.lexicons import LexiconProvider
    from tablero.server.workers.pool import BotPool

    from .games import mini_variant

    game = Game(mini_variant(), ["A", "B"], mini_es, seed=3)
    plan = plan_move(game, game.to_move, 3)
    assert isinstance(plan, BotJob)
    pool = BotPool(1, LexiconProvider({"es": mini_es}))
    try:
        # A thread of its own: other tests may leave an event loop running in this one.
        with ThreadPoolExecutor(1) as runner:
            move = runner.submit(asyncio.run, pool.think(plan)).result()
        executor = pool._executor
        assert executor is not None
        pids = {p.pid for p in executor._processes.values()}
        assert pids and os.getpid() not in pids
    finally:
        pool.close()
    game.check(move)  # legal in the live game (raises if not)
    assert game.play(move).kind == "placed"


def test_a_dead_bot_worker_is_replaced_and_its_job_not_lost(mini_es: WordListLexicon) -> None:
    """A worker process killed between jobs breaks the pool: the next job is refused with
    ``WorkersUnavailable`` (the room retries the turn, the bot does not pass), and the job
    after it runs in a new worker."""
    from tablero.server.lexicons import LexiconProvider
    from tablero.server.workers import WorkersUnavailable
    from tablero.server.workers.pool import BotPool

    from .games import mini_variant

    game = Game(mini_variant(), ["A", "B"], mini_es, seed=3)
    plan = plan_move(game, game.to_move, 3)
    assert isinstance(plan, BotJob)
    pool = BotPool(1, LexiconProvider({"es": mini_es}))

    async def scenario() -> tuple[str, Move]:
        await pool.think(plan)
        executor = pool._executor
        assert executor is not None
        for process in list(executor._processes.values()):
            os.kill(process.pid, signal.SIGKILL)
            process.join(10)
        try:
            await pool.think(plan)
            outcome = "answered"
        except WorkersUnavailable:
            outcome = "unavailable"
        return outcome, await pool.think(plan)

    try:
        with ThreadPoolExecutor(1) as runner:
            outcome, move = runner.submit(asyncio.run, scenario()).result()
    finally:
        pool.close()
    assert outcome == "unavailable"
    game.check(move)
