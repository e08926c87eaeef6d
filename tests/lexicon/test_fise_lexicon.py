"""The FISE-2 lexicon built from a distribution, end to end: the project's own sample in the
federation's format gives exactly the words written out by hand; ``lexicon add`` installs it
from the zip or the folder, nothing half-installed when the source is wrong; and a FISE game
is played with it to the end, from the library and from the terminal, its GCG naming the
dictionary and read back with it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tablero.alphabet import SPANISH
from tablero.engine.players import Bot
from tablero.formats.gcg import read_gcg, write_gcg
from tablero.game import Game
from tablero.lexicon import _CACHE, Lexicon, LexiconError
from tablero.lexicon.fise.build import build_forms
from tablero.lexicon.fise.distribution import read_distribution
from tablero.lexicon.installed import add_lexicon, find_installed
from tablero.variant import load_variant

from .fise_sample import FILES, expected_words, file_bytes, write_folder, write_zip


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("TABLERO_DATA", str(folder))
    _CACHE.clear()
    return folder


def test_the_sample_gives_exactly_the_words_written_by_hand(tmp_path: Path) -> None:
    built = build_forms(read_distribution(write_folder(tmp_path / "d")), SPANISH)
    expected = expected_words()
    assert set(built.words) - expected == set(), "made but not expected"
    assert expected - set(built.words) == set(), "expected but not made"
    assert built.words == sorted(built.words)
    # what each step did, as the install records it
    assert built.steps["words"] == len(expected)
    assert built.steps["plurals removed by the update"] == 1  # alegros
    assert built.steps["short words in the official lists, not generated"] == 4


def test_some_forms_by_their_rule() -> None:
    words = set(expected_words())
    assert {"CANTABAMOS", "CANTADAS", "CANTAS", "CANTA"} <= words  # voseo cantás folds to CANTAS
    assert "BOSTEZADO" in words and "BOSTEZADA" not in words  # intransitive: one participle
    assert {"DIGNAR", "DIGNARSE"} <= words and "DIGNAD" not in words  # pronominal: no imperative
    assert "ACARONAR" in words and "ACARONO" not in words  # regional: the infinitive only
    assert {"ABIERTO", "ABIERTAS"} <= words and "ABRIDO" not in words  # irregular participle
    assert {"ARBOLES", "LAPICES", "ABADESAS"} <= words
    assert "CRISIS" in words and "CRISISES" not in words
    assert "RAPIDAMENTES" not in words and "CHAOS" not in words and "ALEGROS" not in words
    assert "VIVERES" in words and "CANTARSE" not in words  # no enclitic


@pytest.mark.parametrize("packed", [True, False])
def test_lexicon_add_installs_the_distribution(
    tmp_path: Path, data: Path, packed: bool
) -> None:
    source = write_zip(tmp_path / "LISTAS.zip") if packed else write_folder(tmp_path / "LISTAS")
    record = add_lexicon("fise2", source)
    assert (record.kind, record.word_count) == ("fise2", len(expected_words()))
    assert record.steps["words"] == record.word_count
    assert record.source == source.name
    lexicon = Lexicon.named("fise2")
    assert "CANTABAMOS" in lexicon and "ARBOLES" in lexicon and "CASA" not in lexicon


def test_a_broken_distribution_installs_nothing(tmp_path: Path, data: Path) -> None:
    folder = write_folder(tmp_path / "LISTAS")
    name = "TOTAL DE VERBOS CLASIFICADOS.TXT"
    title, body = FILES[name]
    (folder / name).write_bytes(file_bytes(title, body.replace("00-1-.-cantar", "00-1-.-cant4r")))
    with pytest.raises(LexiconError, match=f"{name}, line 13"):
        add_lexicon("fise2", folder)
    assert find_installed("fise2") is None
    assert not (data / "lexicons").exists() or list((data / "lexicons").iterdir()) == []


def test_a_fise_game_with_fise2_from_the_library(tmp_path: Path, data: Path) -> None:
    add_lexicon("fise2", write_zip(tmp_path / "LISTAS.zip"))
    lexicon = Lexicon.named("fise2")
    fise = load_variant("fise")
    game = Game(fise, ["Ana", "Luis"], lexicon, seed=3)
    bots = [Bot("hard", fise, lexicon, seed=1), Bot("hard", fise, lexicon, seed=2)]
    for _ in range(200):
        if game.is_over:
            break
        game.play(bots[game.to_move].choose(game))
    assert game.is_over
    text = write_gcg(game)
    assert "#lexicon fise2\n" in text
    _CACHE.clear()
    again = read_gcg(text)
    assert again.lexicon == "fise2"
    assert Lexicon.named(again.lexicon).info() == lexicon.info()


def test_a_fise_game_with_fise2_from_the_terminal(tmp_path: Path, data: Path) -> None:
    add_lexicon("fise2", write_zip(tmp_path / "LISTAS.zip"))
    record = tmp_path / "partida.gcg"
    env = os.environ | {"TABLERO_DATA": str(data)}
    done = subprocess.run(
        [sys.executable, "-m", "tablero.cli", "play", "--variant", "fise", "--lexicon",
         "fise2", "--players", "Ana,bot:hard", "--seed", "4", "--gcg", str(record)],
        input="pass\n" * 100, capture_output=True, text=True, env=env, timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert f"the game's record is in {record}" in done.stdout
    gcg = read_gcg(record.read_text(encoding="utf-8"))
    assert gcg.lexicon == "fise2" and gcg.variant == "fise"
    assert Lexicon.named(gcg.lexicon).info().word_count == len(expected_words())
