"""Self-play smoke tests: computer players finish games of all six rule sets.

Every game is played through ``Game.play`` and must then replay from its log with
``Game.replay`` (so every event, every draw, every adjustment came from the game's own rules),
hold exactly the game's tile set at the end (bag + racks + board), and end for one of the
game's reasons with the winners the scores say. Tables of three and four are played too.
"""

from __future__ import annotations

import dataclasses
import itertools
import statistics
from collections import Counter
from pathlib import Path

import pytest

from tablero.engine.players import Bot
from tablero.engine.selfplay import (
    SelfplayReport,
    iter_selfplay,
    play_bot_game,
    resolve_engine,
    run_selfplay,
)
from tablero.game import Game
from tablero.variant import builtin_variant_names, load_variant

from .small_lexicons import save_graph, small_graph

GAMES = builtin_variant_names()


def test_the_six_games_are_covered() -> None:
    assert sorted(GAMES) == ["bisonte", "crucigrama", "cuvinte", "fise", "intelect", "letras_top"]


def check_finished(game: Game) -> None:
    v = game.variant
    assert game.is_over and game.result is not None
    full = Counter({t: count for t, (count, _) in v.tiles.items()})
    assert game.tiles_in_play() == full
    replayed = Game.replay(game.log, game.lexicon)
    assert replayed.log == game.log
    assert replayed.state() == game.state()
    final = game.result.final_scores
    assert list(final) == [p.score for p in game.players]
    best = max(final)
    assert set(game.result.winners) <= {i for i, s in enumerate(final) if s == best}
    assert game.result.reason in ("going_out", "scoreless_rounds", "no_one_can_play")


@pytest.mark.parametrize("name", GAMES)
def test_bots_finish_games_that_replay(name: str) -> None:
    v = load_variant(name)
    lexicon = small_graph(v.lexicon)
    for seed in (1, 2):
        bots = [Bot("hard", v, lexicon, seed=seed), Bot("medium", v, lexicon, seed=seed + 10)]
        game, summary = play_bot_game(v, lexicon, bots, seed=seed, keep_records=True)
        check_finished(game)
        assert summary.final == list(game.result.final_scores)  # type: ignore[union-attr]
        placed = sum(1 for e in game.log if e["type"] == "move" and e["result"] == "placed")
        assert placed >= 10, "a game between bots is mostly placements"
        assert len(summary.records) == summary.actions
        assert sum(summary.exchanges) == sum(
            1 for e in game.log if e["type"] == "move" and e["result"] == "exchanged"
        )


@pytest.mark.parametrize(("name", "players"), [("crucigrama", 3), ("cuvinte", 4), ("intelect", 3)])
def test_bots_play_at_tables_of_three_and_four(name: str, players: int) -> None:
    v = load_variant(name)
    lexicon = small_graph(v.lexicon)
    levels = ["hard", "medium", "easy", "beginner"][:players]
    bots = [Bot(level, v, lexicon, seed=i) for i, level in enumerate(levels)]
    game, _ = play_bot_game(v, lexicon, bots, seed=5)
    check_finished(game)
    movers = {e["seat"] for e in game.log if e["type"] == "move"}
    assert movers == set(range(players))
    if name == "intelect":  # counter-clockwise: seat 0 is followed by the last seat
        moves = [e["seat"] for e in game.log if e["type"] == "move"]
        assert all(b == (a - 1) % players for a, b in itertools.pairwise(moves))


def test_cuvinte_ex_squares_shuffle_racks_in_self_play() -> None:
    """Bots play onto EX squares; the game logs each shuffle it then made."""
    v = load_variant("cuvinte")
    lexicon = small_graph("ro")
    shuffles = 0
    for seed in range(1, 5):
        bots = [Bot("hard", v, lexicon, seed=seed), Bot("hard", v, lexicon, seed=seed + 1)]
        game, _ = play_bot_game(v, lexicon, bots, seed=seed)
        check_finished(game)
        shuffles += sum(1 for e in game.log if e["type"] == "shuffle")
    assert shuffles >= 1


def test_selfplay_report_over_two_processes(tmp_path: Path) -> None:
    """``iter_selfplay`` with jobs=2 plays in worker processes; the report adds them up."""
    graph = save_graph(small_graph("es"), tmp_path / "es-sample.kwg")
    report = SelfplayReport("fise", ["hard", "easy"])
    for summary in iter_selfplay(
        "fise", ["hard", "easy"], 4, lexicon=str(graph), jobs=2, seed=3, chunk=1
    ):
        assert summary.variant == "fise" and summary.end_reason
        report.add(summary)
    data = report.to_dict()
    assert data["games"] == 4
    assert set(data["bots"]) == {"hard", "easy"}
    assert data["bots"]["hard"]["seats_played"] == 4  # one seat per game, rotated
    assert sum(o["win_rate"] for o in data["by_order_of_play"]) == pytest.approx(1.0)
    # The spread's standard deviation, from the four games' first-player spreads.
    assert len(report.spreads) == 4
    assert data["spread_sd"] == round(statistics.stdev(report.spreads), 1) > 0
    seeds = sorted(
        s.seed for s in iter_selfplay("fise", ["hard", "easy"], 2, lexicon=str(graph), seed=3)
    )
    again = sorted(
        s.seed for s in iter_selfplay("fise", ["hard", "easy"], 2, lexicon=str(graph), seed=3)
    )
    assert seeds == again


# -- the C game loop ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_native_engine_plays_hard_against_greedy(name: str, tmp_path: Path) -> None:
    """``auto`` takes the C loop for hard and greedy; every level sits at every seat in turn,
    each game ends for one of the game's reasons, and the same seed gives the same games,
    in one process or two."""
    v = load_variant(name)
    graph = str(save_graph(small_graph(v.lexicon), tmp_path / f"{name}.kwg"))
    report = run_selfplay(name, ["hard", "greedy"], 6, lexicon=graph, seed=4)
    data = report.to_dict()
    assert data["engine"] == "native" and data["games"] == 6
    assert {b: r["seats_played"] for b, r in data["bots"].items()} == {"hard": 6, "greedy": 6}
    assert sum(report.wins.values()) == pytest.approx(6.0)
    assert set(data["end_reasons"]) <= {"going_out", "scoreless_rounds", "no_one_can_play"}
    assert data["actions_per_game"] > 10
    one = list(iter_selfplay(name, ["hard", "greedy"], 6, lexicon=graph, seed=4, engine="auto"))
    two = iter_selfplay(name, ["hard", "greedy"], 6, lexicon=graph, seed=4, jobs=2, engine="auto")
    assert sorted(two, key=lambda s: s.seed) == one
    for s in one:
        assert s.bots[0] != s.bots[1]
        assert max(s.final) == min(s.final[w] for w in s.winners)


def test_the_c_loop_keeps_records_of_the_same_games(tmp_path: Path) -> None:
    """Records for the leave learner come from the C loop too, for the very games it plays
    without them: the summaries are equal but for the records, and the records add up to the
    moves' points (before the end's adjustments) seat by seat."""
    graph = str(save_graph(small_graph("es"), tmp_path / "es.kwg"))
    bare = list(iter_selfplay("fise", ["hard", "greedy"], 4, lexicon=graph, seed=9))
    kept = list(
        iter_selfplay("fise", ["hard", "greedy"], 4, lexicon=graph, seed=9, keep_records=True)
    )
    assert [dataclasses.replace(s, records=[]) for s in kept] == bare
    for s in kept:
        assert len(s.records) == s.actions
        points = [sum(r.score for r in s.records if r.seat == seat) for seat in (0, 1)]
        assert points == s.move_points
        assert {r.kind for r in s.records} <= {"place", "exchange", "pass"}


def test_the_engine_is_chosen_and_refused_with_reasons(tmp_path: Path) -> None:
    graph = str(save_graph(small_graph("es"), tmp_path / "es.kwg"))
    report = run_selfplay("fise", ["hard", "medium"], 2, lexicon=graph, seed=1)
    assert report.engine == "game"  # medium needs the Python bot
    assert run_selfplay("fise", ["hard"] * 2, 2, lexicon=graph, seed=1, engine="game").engine == (
        "game"
    )
    with pytest.raises(ValueError, match="not medium"):
        run_selfplay("fise", ["hard", "medium"], 2, lexicon=graph, engine="native")
    with pytest.raises(ValueError, match="engine 'fast'"):
        run_selfplay("fise", ["hard", "hard"], 2, lexicon=graph, engine="fast")
    v = load_variant("fise")
    assert resolve_engine("auto", v, ["hard", "hard"], small_graph("es")) == "native"
    assert resolve_engine("auto", v, ["hard", "club"], small_graph("es")) == "game"
    with pytest.raises(ValueError, match="not club"):
        resolve_engine("native", v, ["hard", "club"], small_graph("es"))
