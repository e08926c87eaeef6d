"""Post-game analysis (``tablero analyze``): its values are the move list's (``tablero moves``)
on the same positions, the best move loses nothing, and every game, seat count and rule file
can be judged."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import tablero
from tablero.analysis import analyse_gcg
from tablero.cli import main
from tablero.engine.evaluation.leaves import leave_key
from tablero.engine.players import make_bot, shipped_leaves
from tablero.formats.gcg import decode_gcg, read_gcg, write_gcg
from tablero.game import Game
from tablero.lexicon import Lexicon, load_lexicon
from tablero.variant import Variant, load_variant
from tests.helpers import rig

VARIANTS = Path(tablero.__file__).parent / "variants"


@cache
def lexicon_for(variant_name: str) -> Lexicon:
    v = load_variant(variant_name)
    return load_lexicon(v.lexicon, v.alphabet)


def bot_game(variant: Variant | str, levels: list[str], seed: int = 7) -> Game:
    """A whole game between computer players of these levels."""
    v = load_variant(variant) if isinstance(variant, str) else variant
    lex = lexicon_for(v.name if v.source.startswith("builtin:") else "fise")
    game = Game(v, [f"P{i}" for i in range(len(levels))], lex, seed=seed)
    bots = [make_bot(level, v, lex, seed=seed + i) for i, level in enumerate(levels)]
    while not game.is_over:
        game.play(bots[game.to_move].choose(game))
    return game


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def fise_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = bot_game("fise", ["medium", "hard"])
    path = tmp_path_factory.mktemp("gcg") / "fise.gcg"
    path.write_text(write_gcg(game), encoding="utf-8")
    return path


def test_the_analysis_agrees_with_the_move_list_on_every_position(fise_game: Path) -> None:
    code, out, err = run("analyze", str(fise_game), "--json")
    assert code == 0, err
    analysis = json.loads(out)
    assert analysis["method"] == "static" and analysis["variant"] == "fise"
    assert len(analysis["moves"]) >= 15
    for m in analysis["moves"]:
        code, listed, err = run("moves", m["cgp"], "--json", "--top", "5")
        assert code == 0, err
        top = json.loads(listed)
        assert [(a["move"], a["score"], a["equity"]) for a in m["top"]] == [
            (c["move"], c["score"], c["equity"]) for c in top
        ]
        assert (m["best"], m["best_score"], m["best_equity"]) == (
            top[0]["move"],
            top[0]["score"],
            top[0]["equity"],
        )
        assert m["equity_loss"] == pytest.approx(m["best_equity"] - m["equity"], abs=0.011)
        assert m["equity_loss"] >= 0 and (m["equity_loss"] == 0) == (m["rank"] == 1)


def test_the_player_who_always_plays_the_best_move_loses_nothing(fise_game: Path) -> None:
    """``hard`` plays the best static equity with the same leave values: rank 1 every time;
    ``medium`` counts half the leave's value, so it sometimes plays another move."""
    analysis = json.loads(run("analyze", str(fise_game), "--json")[1])
    hard = [m for m in analysis["moves"] if m["player"] == "P1"]
    assert hard and all(m["rank"] == 1 and m["equity_loss"] == 0 for m in hard)
    players = {p["name"]: p for p in analysis["players"]}
    assert players["P1"]["mean_equity_loss"] == 0
    assert players["P1"]["mistakes"] == {"large": 0, "medium": 0, "small": 0}
    medium = [m for m in analysis["moves"] if m["player"] == "P0"]
    mean = round(sum(m["equity_loss"] for m in medium) / len(medium), 2)
    assert players["P0"]["mean_equity_loss"] == mean
    for m in medium:
        if m["rank"] > 1:  # the move played is worth what the move list says it is
            (listed,) = [a for a in m["top"] if a["played"]] or [None]
            if listed is not None:
                assert listed["equity"] == m["equity"]


def test_a_pass_with_good_moves_on_the_rack_is_ranked_below_them() -> None:
    v = load_variant("fise")
    game = Game(v, ["Ana", "Luis"], lexicon_for("fise"), seed=3)
    game.play("-")  # Ana passes on the first turn
    bot = make_bot("hard", v, lexicon_for("fise"))
    while not game.is_over and len(game.log) < 6:
        game.play(bot.choose(game))
    analysis = analyse_gcg(
        read_gcg(write_gcg(game)), v, lexicon_for("fise"), shipped_leaves("fise")
    )
    first = analysis.moves[0]
    assert first.played == "-" and first.score == 0
    every = json.loads(run("moves", first.cgp, "--json", "--all")[1])
    (passing,) = [c for c in every if c["kind"] == "pass"]
    assert first.equity == passing["equity"]
    assert first.rank == 1 + sum(1 for c in every if c["equity"] > passing["equity"])
    assert first.rank > 100
    assert first.equity_loss == pytest.approx(every[0]["equity"] - passing["equity"], abs=0.011)


@pytest.mark.parametrize(
    ("variant", "levels"),
    [
        ("bisonte", ["medium", "hard", "easy"]),
        ("crucigrama", ["hard", "medium", "hard", "easy"]),
        ("cuvinte", ["easy", "hard", "medium", "hard"]),
        ("intelect", ["hard", "medium"]),
        ("letras_top", ["medium", "hard", "hard"]),
    ],
)
def test_every_game_and_seat_count_is_judged(variant: str, levels: list[str]) -> None:
    game = bot_game(variant, levels)
    v = game.variant
    gcg = read_gcg(write_gcg(game))
    analysis = analyse_gcg(gcg, v, lexicon_for(variant), shipped_leaves(variant))
    assert len(analysis.moves) == sum(1 for e in game.log if e["type"] == "move")
    assert [p.name for p in analysis.players] == [p.name for p in game.players]
    for m in analysis.moves:
        assert m.equity_loss is not None and m.rank is not None
        assert m.equity_loss >= 0 and (m.rank == 1) == (m.equity_loss == 0)
        assert len(m.cgp.split(" ")[1].split("/")) == len(levels), "the others' racks, unknown"
    # The hard players never lose equity (at three and four seats too).
    hard_names = {f"P{i}" for i, level in enumerate(levels) if level == "hard"}
    assert all(m.equity_loss == 0 for m in analysis.moves if m.player in hard_names)


def test_a_rule_file_of_ones_own_is_judged(tmp_path: Path) -> None:
    text = (VARIANTS / "fise.toml").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^name = "fise"', 'name = "club"', text)
    text = re.sub(r"(?m)^bingo_bonus = \d+", "bingo_bonus = 20", text)
    rules = tmp_path / "club.toml"
    rules.write_text(text, encoding="utf-8")
    v = load_variant(str(rules))
    assert v.bingo_bonus == 20
    game = bot_game(v, ["hard", "hard"], seed=11)
    path = tmp_path / "club.gcg"
    path.write_text(write_gcg(game), encoding="utf-8")
    code, out, err = run("analyze", str(path), "--variant", str(rules), "--lexicon", "es", "--json")
    assert code == 0, err
    analysis = json.loads(out)
    assert analysis["variant"] == "club"
    # No leave values ship for a game of one's own: equity is the score (until the bag is
    # empty, when the tiles kept count what they will cost at the end).
    opening = analysis["moves"][:5]
    assert all(a["equity"] == a["score"] for m in opening for a in m["top"])


WOOGLES_STYLE = """#character-encoding UTF-8
#description Created with Macondo
#id io.woogles 9aFw2xkQ
#lexicon FILE2017
#player1 ana Ana García
#player2 luis Luis Pérez
"""


def test_a_file_from_another_program_is_read_with_its_names(tmp_path: Path) -> None:
    """Quackle/Woogles style: its own header lines, nicks in ``>nick:`` lines, an unknown
    dictionary name (judged with the game's own, with a note)."""
    game = bot_game("fise", ["hard", "medium"], seed=5)
    ours = write_gcg(game).splitlines()
    moves = [
        line.replace(">P0:", ">ana:").replace(">P1:", ">luis:")
        for line in ours
        if line.startswith(">")
    ]
    path = tmp_path / "woogles.gcg"
    path.write_text(WOOGLES_STYLE + "\n".join(moves) + "\n", encoding="utf-8")
    code, out, err = run("analyze", str(path), "--json")
    assert code == 0, err
    analysis = json.loads(out)
    assert [p["name"] for p in analysis["players"]] == ["Ana García", "Luis Pérez"]
    assert analysis["lexicon"] == "es"
    assert all(m["equity_loss"] == 0 for m in analysis["moves"] if m["player"] == "Ana García")
    code, out, err = run("analyze", str(path))
    assert code == 0 and "FILE2017" in err and "Ana García" in out


def test_a_latin1_file_with_dos_line_ends_and_a_note_over_several_lines(tmp_path: Path) -> None:
    """As older Windows programs write GCG: Latin-1 bytes (no #character-encoding line),
    CR LF line ends, and a #note that goes on over the next lines."""
    game = bot_game("fise", ["hard", "medium"], seed=5)
    moves = [
        line.replace(">P0:", ">ana:").replace(">P1:", ">luis:")
        for line in write_gcg(game).splitlines()
        if line.startswith(">")
    ]
    header = WOOGLES_STYLE.replace("#character-encoding UTF-8\n", "").splitlines()
    note = ["#note Buena apertura de Ana;", "Luis dudó y pensó en cambiar.", "Año 2026."]
    text = "\r\n".join([*header, moves[0], *note, *moves[1:]]) + "\r\n"
    path = tmp_path / "latin1.gcg"
    path.write_bytes(text.encode("latin-1"))
    code, out, err = run("analyze", str(path), "--json")
    assert code == 0, err
    analysis = json.loads(out)
    assert [p["name"] for p in analysis["players"]] == ["Ana García", "Luis Pérez"]
    plain = tmp_path / "plain.gcg"
    plain.write_text(WOOGLES_STYLE + "\n".join(moves) + "\n", encoding="utf-8")
    code, same, err = run("analyze", str(plain), "--json")
    assert code == 0, err

    def judged(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:  # lines differ, not moves
        return [{k: v for k, v in m.items() if k != "line"} for m in moves]

    assert judged(json.loads(same)["moves"]) == judged(analysis["moves"])
    read = read_gcg(decode_gcg(text.encode("latin-1")))
    assert ("note", "\n".join(n.removeprefix("#note ") for n in note)) in read.pragmas
    # A #character-encoding line is obeyed; one naming no encoding is an error that says so.
    named = ("#character-encoding ISO-8859-1\n" + text).encode("latin-1")
    assert read_gcg(decode_gcg(named)).players[1].name == "Luis Pérez"
    path.write_bytes(("#character-encoding klingon\n" + text).encode("latin-1"))
    code, out, err = run("analyze", str(path))
    assert code != 0 and "#character-encoding klingon: not an encoding we know" in err


def _phony_opening(challenged: bool) -> tuple[str, int]:
    """A Bisonte game's record whose first move is ZAX, not a word, then challenged off or
    let stand; and its score. (Written by hand: a rigged game cannot be replayed from its
    seed, which is how ``write_gcg`` writes a record.)"""
    v = load_variant("bisonte")
    game = Game(v, ["Ana", "Luis"], lexicon_for("bisonte"), seed=2)
    rig(game, game.to_move, "ZXQCVAE")
    score = game.play("8H ZAX").score
    lines = ["#variant bisonte", "#player1 ana Ana", "#player2 luis Luis"]
    lines.append(f">ana: ZXQCVAE 8H ZAX +{score} {score}")
    if challenged:
        lines.append(f">ana: ZXQCVAE -- -{score} 0")
    else:
        lines.append(">luis: ABCDEFG - +0 0")
    return "\n".join(lines) + "\n", score


def test_a_word_challenged_off_is_judged_as_the_lost_turn_it_became() -> None:
    text, _ = _phony_opening(challenged=True)
    lex = lexicon_for("bisonte")
    v = load_variant("bisonte")
    analysis = analyse_gcg(read_gcg(text), v, lex, shipped_leaves("bisonte"))
    first = analysis.moves[0]
    assert (first.player, first.played, first.note) == ("Ana", "8H ZAX", "withdrawn")
    every = json.loads(run("moves", first.cgp, "--json", "--all")[1])
    (passing,) = [c for c in every if c["kind"] == "pass"]
    assert first.equity == passing["equity"]
    assert first.rank == 1 + sum(1 for c in every if c["equity"] > passing["equity"])


def test_a_word_not_in_the_dictionary_that_stood_is_its_score_and_leave() -> None:
    text, score = _phony_opening(challenged=False)
    v = load_variant("bisonte")
    leaves = shipped_leaves("bisonte")
    analysis = analyse_gcg(read_gcg(text), v, lexicon_for("bisonte"), leaves)
    first = analysis.moves[0]
    assert (first.note, first.score) == ("not_listed", score)
    assert leaves is not None
    kept = leaves.for_rack(tuple("ZXQCVAE"))[leave_key("QCVE", v.alphabet)]
    assert first.equity == pytest.approx(score + kept, abs=0.011)
    every = json.loads(run("moves", first.cgp, "--json", "--all")[1])
    assert first.rank == 1 + sum(1 for c in every if c["equity"] > first.equity + 1e-6)
    assert analysis.moves[1].played == "-"


def test_an_exchange_of_unknown_tiles_is_not_judged(tmp_path: Path) -> None:
    path = tmp_path / "count.gcg"
    path.write_text(
        "#player1 ana Ana\n#player2 luis Luis\n>ana: AEIRSTZ -7 +0 0\n", encoding="utf-8"
    )
    code, out, err = run("analyze", str(path), "--json")
    assert code == 0, err
    (move,) = json.loads(out)["moves"]
    assert (move["note"], move["equity"], move["rank"], move["equity_loss"]) == (
        "tiles_unknown",
        None,
        None,
        None,
    )
    assert json.loads(out)["players"][0]["moves"] == 0


def test_an_inconsistent_file_gets_one_error_naming_its_line(
    fise_game: Path, tmp_path: Path
) -> None:
    lines = fise_game.read_text(encoding="utf-8").splitlines()
    first_move = next(i for i, line in enumerate(lines) if line.startswith(">"))
    broken = lines.copy()
    broken[first_move] = re.sub(
        r"\+(\d+) (\d+)$", lambda m: f"+{int(m[1]) + 1} {int(m[2]) + 1}", broken[first_move]
    )
    path = tmp_path / "broken.gcg"
    path.write_text("\n".join(broken) + "\n", encoding="utf-8")
    code, out, err = run("analyze", str(path), "--json")
    assert code == 2 and out == ""
    said = " ".join(err.split())  # the terminal wraps long messages
    assert f"line {first_move + 1}:" in said and "by the rules" in said
    path.write_text("#player1 a A\n>a: this is not a move\n", encoding="utf-8")
    code, _, err = run("analyze", str(path))
    assert code == 2 and "line 2:" in " ".join(err.split())
    code, _, err = run("analyze", str(tmp_path / "missing.gcg"))
    assert code == 2 and "cannot read" in err
    code, _, err = run("analyze", str(fise_game), "--json", "--html", str(tmp_path / "x.html"))
    assert code == 2 and "not both" in err


def test_the_web_page_draws_every_move(fise_game: Path, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    code, _, err = run("analyze", str(fise_game), "--html", str(page))
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    analysis = json.loads(run("analyze", str(fise_game), "--json")[1])
    assert html.count("<svg") == len(analysis["moves"])
    assert html.count('<tr class="played">') == sum(
        1 for m in analysis["moves"] if m["equity"] is not None
    )
    first = analysis["moves"][0]
    assert f'id="ply-{first["ply"]}"' in html and first["best"] in html
    assert "<script" not in html
