"""Every worked example printed in the rule books scores exactly as printed.

Crucigrama (Ruibal): PERLA 7, OCUPADO 11, ESE+AS+DE 8; CAMBIO TRABAJO→TRABADO 11 and
TRABADO→TRAMADO with MOTA 16. Letras Top: ROSAS 15, MORAS 37, SODA 5, SOLAPA 10.
Each is checked through the library and through the ``tablero score`` command.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tablero.formats.cgp import write_cgp
from tablero.game import Game
from tests.helpers import lay, rig, words

CRUCIGRAMA_WORDS = words(
    "PERLA", "OCUPADO", "ESE", "AS", "DE", "TRABAJO", "TRABADO", "TRAMADO", "BOTA", "MOTA"
)
LETRAS_WORDS = words("ROSAS", "MORAS", "SODA", "SOLAPA")

# (variant, words laid before, rack, move, expected total, expected words with scores)
EXAMPLES = [
    ("crucigrama", [], "PERLAXY", "H7 PERLA", 7, {"PERLA": 7}),
    ("crucigrama", ["H7 PERLA"], "OCUADOX", "7E OCU(P)ADO", 11, {"OCUPADO": 11}),
    (
        "crucigrama",
        ["H7 PERLA", "7E OCU(P)ADO"],
        "SEXYZ",
        "8H (E)SE",
        8,
        {"ESE": 3, "AS": 2, "DE": 3},
    ),
    ("crucigrama", ["8E TRABAJO"], "DXY", "CAMBIO J8 D", 11, {"TRABADO": 11}),
    (
        "crucigrama",
        ["8E TRABADO", "H8 (B)OTA"],
        "MXY",
        "CAMBIO H8 M",
        16,
        {"TRAMADO": 10, "MOTA": 6},
    ),
    ("letras_top", [], "ROSASXZ", "H5 ROSAS", 15, {"ROSAS": 5}),
    ("letras_top", ["H5 ROSAS"], "MRASXZY", "6G M(O)RAS", 37, {"MORAS": 37}),
    ("letras_top", ["H5 ROSAS", "6G M(O)RAS"], "ODAXZ", "9H (S)ODA", 5, {"SODA": 5}),
    (
        "letras_top",
        ["H5 ROSAS", "6G M(O)RAS", "9H (S)ODA"],
        "OLPAXZ",
        "K6 (S)OL(A)PA",
        10,
        {"SOLAPA": 10},
    ),
]


def _game(variant: str, laid: list[str], rack: str) -> Game:
    lexicon = CRUCIGRAMA_WORDS if variant == "crucigrama" else LETRAS_WORDS
    game = Game(variant, ["Ana", "Luis"], lexicon, seed=3)
    for notation in laid:
        lay(game, notation)
    rig(game, game.to_move, rack)
    return game


@pytest.mark.parametrize(("variant", "laid", "rack", "move", "total", "expected"), EXAMPLES)
def test_example_through_the_library(
    variant: str, laid: list[str], rack: str, move: str, total: int, expected: dict[str, int]
) -> None:
    game = _game(variant, laid, rack)
    before = game.current.score
    result = game.play(move)
    assert result.kind in ("placed", "cambio")
    assert result.score == total
    assert result.breakdown is not None
    assert {w.word: w.score for w in result.breakdown.words} == expected
    assert game.players[result.seat].score == before + total


@pytest.mark.parametrize(("variant", "laid", "rack", "move", "total", "expected"), EXAMPLES)
def test_example_through_the_command(
    tmp_path: Path,
    variant: str,
    laid: list[str],
    rack: str,
    move: str,
    total: int,
    expected: dict[str, int],
) -> None:
    game = _game(variant, laid, rack)
    cgp = write_cgp(game.position())
    word_file = tmp_path / "words.txt"
    lexicon = CRUCIGRAMA_WORDS if variant == "crucigrama" else LETRAS_WORDS
    word_file.write_text("\n".join(lexicon), encoding="utf-8")
    run = subprocess.run(
        ["tablero", "score", "--json", "--lexicon", str(word_file), cgp, move],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["score"] == total
    assert {w["word"]: w["score"] for w in out["words"]} == expected


def test_morass_breakdown_names_each_square() -> None:
    """MORAS: 7 points of letters, ×2 (M on 2W) ×3 (A on 3W), then −5 for the R's square."""
    game = _game("letras_top", ["H5 ROSAS"], "MRASXZY")
    result = game.play("6G M(O)RAS")
    assert result.breakdown is not None
    (word,) = result.breakdown.words
    assert (word.letters_total, word.factor, word.addend) == (7, 6, -5)
    assert [s.effect for s in word.squares] == ["2W", "", "-5", "3W", ""]


def test_illegal_move_exits_2_with_the_rule() -> None:
    game = _game("crucigrama", [], "PERLAXY")
    cgp = write_cgp(game.position())
    run = subprocess.run(
        ["tablero", "score", "--lexicon", "none", cgp, "H9 PERLA"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert "start_square" in run.stderr and "H8" in run.stderr
