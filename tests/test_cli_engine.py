"""``tablero moves``, ``tablero selfplay`` and ``tablero bench`` from the command line."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablero.cli import main
from tablero.engine.movegen.reference import generate_placements
from tablero.formats.cgp import read_cgp

from .engine.small_lexicons import save_graph, small_graph

CGP = "15/15/15/15/15/15/15/6ABSORBE2/7I7/7E7/7N7/7V7/7I7/7v7/7E7 DEFLMOR/ 0/0 0 var fise;"
WORDS = ["ABSORBE", "ABSORBER", "ABSORBERE", "DEFORME", "FORME", "FEDOR", "MOLER", "REMOLDE", "OLE"]


@pytest.fixture(scope="module")
def word_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("words") / "words.txt"
    path.write_text("\n".join(WORDS) + "\n", "utf-8")
    return path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_moves_lists_the_best_first_as_json(word_file: Path) -> None:
    code, out = run("moves", "--json", "--top", "3", "--lexicon", str(word_file), CGP)
    assert code == 0, out
    moves = json.loads(out)
    assert len(moves) == 3
    assert {"move", "score", "kind", "leave", "equity"} <= set(moves[0])
    assert [m["equity"] for m in moves] == sorted((m["equity"] for m in moves), reverse=True)
    assert moves[0]["kind"] == "place"
    # The score of each is the one `tablero score` gives.
    for m in moves:
        code, scored = run("score", "--json", "--lexicon", str(word_file), CGP, m["move"])
        assert code == 0 and json.loads(scored)["score"] == m["score"]


def test_moves_by_score_puts_the_most_points_first(word_file: Path) -> None:
    """Duplicate's top: the most points whatever is kept; at equal points the notation."""
    code, out = run("moves", "--json", "--all", "--by", "score", "--lexicon", str(word_file), CGP)
    assert code == 0, out
    moves = json.loads(out)
    order = [
        (-m["score"], m["kind"] != "place", m["move"]) for m in moves if m["kind"] != "exchange"
    ]
    assert order == sorted(order)
    code, out = run("moves", "--json", "--all", "--lexicon", str(word_file), CGP)
    by_equity = json.loads(out)
    assert max(m["score"] for m in by_equity) == moves[0]["score"]
    assert by_equity[0]["move"] != moves[0]["move"]  # here the leave changes the order


def test_moves_all_lists_every_kind(word_file: Path) -> None:
    code, out = run("moves", "--all", "--json", "--lexicon", str(word_file), CGP)
    assert code == 0, out
    moves = json.loads(out)
    kinds = {k: sum(1 for m in moves if m["kind"] == k) for k in ("place", "exchange", "pass")}
    pos = read_cgp(CGP)
    from tablero.lexicon import WordListLexicon

    lexicon = WordListLexicon.from_file(word_file, pos.variant.alphabet)
    assert kinds["place"] == sum(
        1 for _ in generate_placements(pos.variant, pos.board, pos.rack, lexicon)
    )
    assert kinds["exchange"] == 2**7 - 1  # seven different tiles, the bag is full enough
    assert kinds["pass"] == 1
    code, table = run("moves", "--top", "2", "--lexicon", str(word_file), CGP)
    assert code == 0 and "equity" in table and "moves, the best 2" in table


def test_moves_refuses_bad_input(word_file: Path) -> None:
    code, out = run("moves", "--lexicon", str(word_file), "15/15 ABC/ 0/0 0")
    assert code == 2 and "CGP" in out
    code, out = run("moves", "--lexicon", "none", CGP)
    assert code == 2 and "dictionary" in out
    code, out = run("moves", "--lexicon", str(word_file), "--leaves", str(word_file), CGP)
    assert (code == 2 and "KLV" in out) or "bytes" in out


def test_selfplay_reports_the_games(tmp_path: Path) -> None:
    graph = save_graph(small_graph("es"), tmp_path / "es-sample.kwg")
    code, out = run(
        "selfplay", "--variant", "crucigrama", "--games", "2", "--bots", "hard,easy",
        "--seed", "5", "--lexicon", str(graph), "--json",
    )  # fmt: skip
    assert code == 0, out
    report = json.loads(out[out.index("{") :])
    assert report["games"] == 2 and report["variant"] == "crucigrama"
    assert set(report["bots"]) == {"hard", "easy"}
    assert report["games_per_second"] > 0
    assert {"bingos_per_game", "exchanges_per_game", "by_order_of_play"} <= set(report)
    assert report["engine"] == "game"  # easy is a Python bot
    code, text = run(
        "selfplay", "--variant", "fise", "--games", "2", "--lexicon", str(graph), "--seed", "1"
    )
    assert code == 0 and "win rate" in text and "games/s" in text
    assert "final spread, first player minus second: standard deviation" in text
    assert "native game" in text  # hard against hard: the C loop
    code, out = run(
        "selfplay", "--games", "4", "--bots", "hard,greedy", "--lexicon", str(graph),
        "--engine", "native", "--json",
    )  # fmt: skip
    report = json.loads(out[out.index("{") :])
    assert code == 0 and report["engine"] == "native" and report["games"] == 4
    assert report["bots"]["greedy"]["seats_played"] == 4 and report["spread_sd"] > 0
    code, out = run("selfplay", "--bots", "hard,medium", "--engine", "native")
    assert code == 2 and "not medium" in out


def test_selfplay_refuses_unknown_bots_and_table_sizes() -> None:
    code, out = run("selfplay", "--bots", "hard,wizard")
    assert code == 2 and "wizard" in out
    code, out = run("selfplay", "--bots", "hard,hard,hard,hard,hard")
    assert code == 2 and "players" in out


def test_bench_measures_a_shared_set_and_a_game(tmp_path: Path, word_file: Path) -> None:
    """A shared set in the layout of tests/data/bench, made small: the counts are checked."""
    from tablero.lexicon import WordListLexicon

    pos = read_cgp(CGP)
    lexicon = WordListLexicon.from_file(word_file, pos.variant.alphabet)
    n = sum(1 for _ in generate_placements(pos.variant, pos.board, pos.rack, lexicon))
    shared = tmp_path / "bench"
    shared.mkdir()
    line = json.dumps({"cgp": CGP, "n_moves": n, "best_score": 0, "moves": []})
    (shared / "fise_positions.jsonl.xz").write_bytes(lzma.compress((line + "\n").encode()))
    (shared / "es_words.txt.xz").write_bytes(lzma.compress(word_file.read_bytes()))
    graph = save_graph(small_graph("es"), tmp_path / "es-sample.kwg")
    code, out = run(
        "bench", "--shared", str(shared), "--games", "fise", "--positions", "4",
        "--seconds", "0.05", "--lexicon", str(graph), "--json",
    )  # fmt: skip
    assert code == 0, out
    figures = json.loads(out[out.index("[") :])
    assert [f["name"] for f in figures] == ["shared", "fise"]
    assert figures[0]["mismatches"] == 0 and figures[0]["moves"] == n
    for f in figures:
        assert f["count_moves_per_s"] > 0 and f["best_positions_per_s"] > 0
    assert figures[1]["positions"] == 4
