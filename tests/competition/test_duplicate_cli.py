"""``tablero duplicate``: the JSON of a game played with no person, the top each round against
``tablero moves``, the practice session at the terminal (scripted input, a fake clock)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from tablero.alphabet import SPANISH
from tablero.cli import main
from tablero.competition.duplicate import DuplicateGame, DuplicateOptions
from tablero.competition.duplicate_gcg import read_duplicate_gcg
from tablero.competition.practice import Practice
from tablero.formats.cgp import read_cgp
from tablero.lexicon import load_lexicon
from tablero.variant import builtin_variant_names


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.output


def test_play_top_json_has_the_stated_shape_and_scores_100_percent() -> None:
    code, out = run("duplicate", "--variant", "fise", "--seed", "7", "--play", "top", "--json")
    assert code == 0, out
    game = json.loads(out)
    assert set(game) == {"rounds", "total", "top_total", "percent"}
    rounds = game["rounds"]
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1)) and len(rounds) > 10
    for r in rounds:
        assert set(r) == {"round", "rack", "cgp", "top", "played"}
        assert set(r["top"]) == set(r["played"]) == {"move", "score"}
        assert r["played"] == r["top"]
        position = read_cgp(r["cgp"])  # the position before the round, with its rack
        assert "".join(f"[{t}]" if len(t) > 1 else t for t in position.rack) == r["rack"]
        assert position.scores == [sum(x["top"]["score"] for x in rounds[: r["round"] - 1])]
    assert read_cgp(rounds[0]["cgp"]).board.is_empty()
    assert game["total"] == game["top_total"] == sum(r["top"]["score"] for r in rounds)
    assert game["percent"] == 100.0


def test_play_pass_json_totals_zero() -> None:
    code, out = run("duplicate", "--variant", "cuvinte", "--seed", "3", "--play", "pass", "--json")
    assert code == 0, out
    game = json.loads(out)
    assert game["total"] == 0 and game["percent"] == 0.0 and game["top_total"] > 0
    assert all(r["played"] == {"move": "-", "score": 0} for r in game["rounds"])
    assert read_cgp(game["rounds"][0]["cgp"]).variant.columns == 17


@pytest.mark.parametrize("name", builtin_variant_names())
def test_the_top_placed_is_tablero_moves_top_1_on_the_round_cgp(name: str) -> None:
    code, out = run("duplicate", "--variant", name, "--seed", "2", "--rounds", "4", "--play",
                    "top", "--json")  # fmt: skip
    assert code == 0, out
    rounds = json.loads(out)["rounds"]
    assert len(rounds) == 4
    for r in rounds:
        code, listed = run("moves", "--by", "score", "--top", "1", "--json", r["cgp"])
        assert code == 0, listed
        (best,) = json.loads(listed)
        assert (best["move"], best["score"]) == (r["top"]["move"], r["top"]["score"]), r["cgp"]


def test_json_needs_a_game_with_no_person() -> None:
    code, out = run("duplicate", "--json")
    assert code == 2 and "--play" in out


def test_a_practice_session_at_the_terminal_and_its_gcg(tmp_path: Path) -> None:
    gcg = tmp_path / "practice.gcg"
    script = "help\nnot a move\n8H QQ\n\n-\n\nquit\ny\n"
    code, out = run("duplicate", "--seed", "5", "--seconds", "0", "--name", "Ana", "--gcg",
                    str(gcg), stdin=script)  # fmt: skip
    assert code == 0, out
    assert "Round 1> " in out and "Type a move" in out  # no limit: no time in the prompt
    assert "'not a move' is not a move" in out
    assert "Your move: 8H QQ: illegal" in out and "Top: 8F VEZ, 30 points" in out
    assert "Your move: nothing, 0 points" in out
    assert "Game over (stopped): 0 of 91, 0.00 % of the top." in out
    assert "--seed 5 deals the same racks again" in out
    record = read_duplicate_gcg(gcg.read_text("utf-8"))
    assert record.totals == {"Ana": 0} and record.settings["end"] == "stopped"
    assert [p.move for p in record.plays] == ["8H QQ", "-"]


def test_a_move_typed_after_the_time_is_refused_and_the_round_goes_on() -> None:
    lexicon = load_lexicon("es", SPANISH)
    game = DuplicateGame("fise", lexicon, ["Ana"], seed=5, options=DuplicateOptions(60, 0, 2))
    # Round 1: the rack shown at 0 s, the prompt at 10 s, the move entered at 100 s. Round 2:
    # shown at 0 s, the prompt at 1 s, the move entered at 2 s.
    clock = iter([0.0, 10.0, 100.0, 0.0, 1.0, 2.0])
    typed: Iterator[str] = iter(["8F VEZ", "", "8F VEZ"])
    out = io.StringIO()

    def ask(prompt: str) -> str:
        text = next(typed)
        out.write(prompt + text + "\n")
        return text

    practice = Practice(game, "Ana", Console(file=out, width=120), ask, lambda: next(clock))
    assert practice.run() == "over"
    text = out.getvalue()
    assert "Round 1 (0:50 left)> " in text  # 10 s after the rack was shown
    assert "Too late: Ana's move came 100.0 s into round 1; the round's limit is 60 s" in text
    assert "Your move: nothing, 0 points" in text and "you missed 30 points" in text
    first, second = game.results
    assert first.play_of("Ana").move == "-" and second.play_of("Ana").at == 2.0
    assert "Game over (the rounds asked for are played)" in text
