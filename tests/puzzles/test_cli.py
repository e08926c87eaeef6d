"""``tablero puzzle``: the JSON verdicts and exit codes, the history file and its ratings, the
next puzzle near the solver's rating, a session at the terminal with scripted input."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tablero.cli import main
from tablero.engine.movegen.candidates import candidates
from tablero.engine.players import shipped_leaves
from tablero.lexicon import load_lexicon
from tablero.puzzles.history import History
from tablero.puzzles.rating import (
    NEAREST,
    Rating,
    choose_next,
    display,
    rate_attempt,
    rating_at,
)
from tablero.puzzles.shipped import shipped_puzzles


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's history in a directory of its own (``$TABLERO_DATA``)."""
    monkeypatch.setenv("TABLERO_DATA", str(tmp_path))
    return tmp_path


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["puzzle", *args], input=stdin)
    return result.exit_code, result.output


def run_json(*args: str) -> tuple[int, dict[str, Any]]:
    code, out = run(*args, "--json")
    return code, json.loads(out)


def a_wrong_move(puzzle_cgp: str) -> tuple[str, int]:
    """A legal move of the position that is not its top: the engine's second best."""
    from tablero.formats.cgp import read_cgp

    position = read_cgp(puzzle_cgp)
    v = position.variant
    found = candidates(position, load_lexicon(v.lexicon, v.alphabet), shipped_leaves(v.name))
    second = next(c for c in found[1:] if c.kind == "place")
    return second.notation, second.score


def test_a_right_answer_then_a_wrong_one(data_dir: Path) -> None:
    first, second = shipped_puzzles("fise")[:2]
    code, verdict = run_json("--id", first.id, "--answer", first.answer.move)
    assert code == 0, verdict
    assert verdict["correct"] is True and verdict["rated"] is True
    assert (verdict["move"], verdict["score"]) == (first.answer.move, first.answer.score)
    assert verdict["answers"] == [a.to_dict() for a in first.answers]
    assert verdict["theme"] == first.theme
    # A newcomer (1500) who solves: up; the puzzle, beaten: down.
    assert verdict["solver"]["rating_before"] == 1500 < verdict["solver"]["rating"]
    assert verdict["solver"]["streak"] == 1 and verdict["solver"]["solved"] == 1
    assert verdict["puzzle"]["rating_before"] == first.rating > verdict["puzzle"]["rating"]

    wrong, score = a_wrong_move(second.cgp)
    code, verdict = run_json("--id", second.id, "--answer", wrong)
    assert code == 1
    assert (verdict["correct"], verdict["move"], verdict["score"]) == (False, wrong, score)
    assert verdict["legal"] is True and verdict["answers"][0]["move"] == second.answer.move
    # A miss: the solver down from where the solve left them, the puzzle up; no streak.
    solver_after_one = verdict["solver"]["rating_before"]
    assert verdict["solver"]["rating"] < solver_after_one
    assert verdict["puzzle"]["rating"] > second.rating
    assert verdict["solver"]["streak"] == 0 and verdict["solver"]["best_streak"] == 1

    # The history file: both ratings, the puzzles' ratings, the attempts (docs/formats.md).
    history = json.loads((data_dir / "puzzles.json").read_text("utf-8"))
    assert history["format"] == "tablero-puzzle-history" and history["version"] == 1
    solver = history["solvers"]["fise"]
    assert (solver["games"], solver["solved"], solver["streak"], solver["best_streak"]) == (
        2,
        1,
        0,
        1,
    )
    assert set(history["puzzles"]) == {first.id, second.id}
    assert [(a["puzzle"], a["correct"], a["rated"]) for a in history["attempts"]] == [
        (first.id, True, True),
        (second.id, False, True),
    ]
    assert history["attempts"][1]["rating_after"] == verdict["solver"]["rating"]

    # A second attempt at a puzzle is judged but not rated again.
    code, again = run_json("--id", first.id, "--answer", first.answer.move)
    assert code == 0 and again["rated"] is False
    assert again["solver"]["rating"] == verdict["solver"]["rating"]


def test_giving_up_is_a_miss_and_bad_input_is_refused(data_dir: Path) -> None:
    p = shipped_puzzles("cuvinte")[0]
    assert p.answer.move == "F2 (R)EMAIATA" and "Z" not in p.position().rack
    code, verdict = run_json("--id", p.id, "--give-up")
    assert code == 1 and verdict["correct"] is False and verdict["move"] is None
    for args, error in (
        (["--id", "fise-0000000000", "--answer", "8H CASA"], "no_such_puzzle"),
        (["--id", p.id, "--answer", "8H"], "notation"),
        (["--id", p.id, "--answer", "F2 (R)EMAIATZ"], "not_on_rack"),
        (["--id", p.id, "--answer", "F3 EMAIATA"], "word_incomplete"),  # the R of F2
        (["--answer", "8H CASA"], "usage"),
    ):
        code, out = run_json(*args)
        assert code == 2 and out["error"]["code"] == error, (args, out)
    # Refusals are not attempts: the history holds the give-up alone.
    history = json.loads((data_dir / "puzzles.json").read_text("utf-8"))
    assert len(history["attempts"]) == 1
    # Without --json the refusal is a message.
    code, out = run("--id", "fise-0000000000", "--answer", "8H CASA")
    assert code == 2 and "no puzzle 'fise-0000000000'" in out


def test_the_next_puzzle_is_near_the_solvers_rating_and_hides_its_answer() -> None:
    code, shown = run_json("--variant", "intelect", "--seed", "3")
    assert code == 0
    puzzle = shown["puzzle"]
    assert set(puzzle) == {"id", "variant", "language", "cgp", "rack", "rating"}
    assert shown["solver"]["rating"] == 1500
    puzzles = shipped_puzzles("intelect")
    by_distance = sorted(puzzles, key=lambda p: (abs(p.rating - 1500), p.id))
    assert puzzle["id"] in {p.id for p in by_distance[:NEAREST]}


def test_ratings_move_the_right_way() -> None:
    solver, puzzle = Rating.new(), rating_at(1700)
    assert display(puzzle) == 1700
    solved = rate_attempt(solver, puzzle, solved=True)
    assert display(solved.solver_after) > 1500 and display(solved.puzzle_after) < 1700
    missed = rate_attempt(solver, puzzle, solved=False)
    assert display(missed.solver_after) < 1500 and display(missed.puzzle_after) > 1700
    # Beating a harder puzzle is worth more than beating an easier one.
    easy = rate_attempt(solver, rating_at(1300), solved=True)
    assert display(solved.solver_after) > display(easy.solver_after)
    assert solved.solver_after.games == solved.puzzle_after.games == 1


def test_choose_next_skips_what_was_played() -> None:
    puzzles = [(f"p{i}", 1000 + 100 * i) for i in range(12)]  # 1000 … 2100
    rng = random.Random(1)
    for _ in range(20):
        chosen = choose_next(puzzles, 1500, played={"p5"}, rng=rng)
        assert chosen is not None and chosen != "p5"
        # The eight nearest to 1500 once p5 is out: 1400 and 1600, 1300 and 1700, ...
        assert chosen in {"p1", "p2", "p3", "p4", "p6", "p7", "p8", "p9"}
    assert choose_next(puzzles, 1500, played={p for p, _ in puzzles}, rng=rng) is not None
    assert choose_next([], 1500) is None


def test_a_session_at_the_terminal(data_dir: Path) -> None:
    p = shipped_puzzles("fise")[3]
    # help, a malformed move (refused), the answer, then quit at the prompt for the next.
    code, out = run("--id", p.id, stdin=f"help\n8H\n{p.answer.move}\n")
    assert code == 0, out
    assert "Find the top" in out and p.id in out
    assert "a square and a word are needed" in out
    assert f"Right! {p.answer.move}, {p.answer.score} points" in out
    assert "Your rating 1500 →" in out and "Streak: 1." in out
    history = History.load(data_dir / "puzzles.json")
    assert history.solver("fise").solved == 1 and history.played("fise") == {p.id}
    # The next session offers other puzzles; "answer" gives up, q quits.
    code, out = run("--variant", "fise", "--seed", "1", stdin="answer\nq\n")
    assert code == 0 and "The answer:" in out and "The top:" in out
    history = History.load(data_dir / "puzzles.json")
    assert len(history.played("fise")) == 2 and history.solver("fise").streak == 0


def test_a_history_that_is_not_one_is_refused(data_dir: Path) -> None:
    (data_dir / "puzzles.json").write_text("[1, 2]", "utf-8")
    p = shipped_puzzles("fise")[0]
    code, out = run_json("--id", p.id, "--answer", p.answer.move)
    assert code == 2 and out["error"]["code"] == "bad_history"
    assert "is not a puzzle history" in out["error"]["message"]
    assert (data_dir / "puzzles.json").read_text("utf-8") == "[1, 2]"  # left as it was


def test_a_phony_is_a_wrong_answer_and_not_a_valid_play() -> None:
    p = shipped_puzzles("fise")[0]
    assert p.answer.move == "H7 (SE)mEJASTE"  # SEMEJASTE, with a blank for the M
    code, verdict = run_json("--id", p.id, "--answer", "H7 (SE)mEJATSE")  # T and S swapped
    assert code == 1
    assert (verdict["correct"], verdict["legal"], verdict["rule"]) == (
        False,
        False,
        "not_in_lexicon",
    )
    assert "SEMEJATSE" in verdict["reason"] and verdict["score"] > 0
