"""The graph-backed lexicon and the word, anagram and lexicon-build commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablero.alphabet import SPANISH
from tablero.cli import main
from tablero.engine.movegen.reference import generate_placements
from tablero.formats.cgp import read_cgp
from tablero.lexicon import WordListLexicon
from tablero.lexicon.graph import GraphLexicon, build_graph_file

WORDS = ["CASA", "CASAS", "ACASO", "SACA", "CHILLAR", "PERRO", "ACCION", "NACION", "CAS"]


@pytest.fixture
def graph(tmp_path: Path) -> GraphLexicon:
    words = sorted(WordListLexicon.from_words(WORDS, SPANISH))
    return build_graph_file(words, SPANISH, tmp_path / "t.kwg", "test", "1", show_progress=False)


def test_graph_holds_exactly_the_list(graph: GraphLexicon, tmp_path: Path) -> None:
    assert sorted(graph.words()) == sorted(WORDS)
    assert graph.contains("chillar") and graph.contains("Acción") and not graph.contains("CHILLA")
    assert graph.has_prefix(SPANISH.encode("CHI")) and not graph.has_prefix(SPANISH.encode("CHX"))
    again = GraphLexicon.load(tmp_path / "t.kwg")
    assert again.info() == graph.info()
    assert again.info().word_count == len(WORDS)


def test_anagrams_with_blanks_and_patterns(graph: GraphLexicon) -> None:
    assert graph.anagrams(["A", "S", "A", "C"]) == ["CASA", "SACA"]
    assert graph.anagrams(["A", "S", "A", "?"]) == ["CASA", "SACA"]
    assert graph.anagrams(["C", "A", "S", "A", "?"]) == ["ACASO", "CASAS"]
    assert "CAS" in graph.anagrams(["C", "A", "S", "A"], partial=True)
    assert graph.pattern(["C", "A", "?", "?"]) == ["CASA"]
    assert graph.pattern(["*", "C", "I", "O", "N"]) == ["ACCION", "NACION"]
    assert graph.pattern(["C", "A", "S", "*"]) == ["CAS", "CASA", "CASAS"]


def test_generator_gives_the_same_moves_over_the_graph(
    es_words: WordListLexicon, tmp_path: Path
) -> None:
    graph = build_graph_file(
        sorted(es_words), SPANISH, tmp_path / "es.kwg", "es", show_progress=False
    )
    cgp = "15/15/15/15/15/15/15/6ABSORBE2/7I7/7E7/7N7/7V7/7I7/7v7/7E7 DEFLMOR/ 0/0 0 var fise;"
    p = read_cgp(cgp)
    over_list = set(generate_placements(p.variant, p.board, p.rack, es_words))
    over_graph = set(generate_placements(p.variant, p.board, p.rack, graph))
    assert over_list == over_graph and len(over_graph) == 1407


def test_word_command(tmp_path: Path) -> None:
    src = tmp_path / "club.txt"
    src.write_text("casa\nchillar\nñandú\n", encoding="utf-8")
    runner = CliRunner()
    out = tmp_path / "club.kwg"
    built = runner.invoke(main, ["lexicon", "build", str(src), "--out", str(out)])
    assert built.exit_code == 0, built.output
    assert "3 words" in built.output
    ok = runner.invoke(main, ["word", "--json", "--lexicon", str(out), "CHILLAR", "Ñandú"])
    assert ok.exit_code == 0
    assert [r["valid"] for r in json.loads(ok.output)] == [True, True]
    bad = runner.invoke(main, ["word", "--lexicon", str(out)], input="CASA\nPERRO\n")
    assert bad.exit_code == 1
    assert "CASA: valid" in bad.output and "PERRO: not valid" in bad.output


def test_anagram_command(tmp_path: Path) -> None:
    src = tmp_path / "w.txt"
    src.write_text("\n".join(WORDS), encoding="utf-8")
    out = tmp_path / "w.kwg"
    runner = CliRunner()
    assert runner.invoke(main, ["lexicon", "build", str(src), "--out", str(out)]).exit_code == 0
    result = runner.invoke(main, ["anagram", "--json", "--lexicon", str(out), "*CION"])
    assert json.loads(result.output) == ["ACCION", "NACION"]
    result = runner.invoke(main, ["anagram", "--json", "--lexicon", str(out), "ASA?"])
    assert json.loads(result.output) == ["CASA", "SACA"]


def test_lexicon_build_reports_a_bad_line(tmp_path: Path) -> None:
    src = tmp_path / "bad.txt"
    src.write_text("casa\nca-sa\n", encoding="utf-8")
    result = CliRunner().invoke(
        main, ["lexicon", "build", str(src), "--out", str(tmp_path / "b.kwg")]
    )
    assert result.exit_code == 2
    assert "line 2" in result.output and not (tmp_path / "b.kwg").exists()


def _tablero(*args: str) -> subprocess.CompletedProcess[str]:
    """The command as a script runs it: output into pipes, not a terminal."""
    return subprocess.run(
        [sys.executable, "-m", "tablero.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "40"},
    )


def test_anagram_says_a_plain_ll_is_two_tiles_and_suggests_the_digraph_spelling() -> None:
    r = _tablero("anagram", "LLAVE")
    assert r.returncode == 0 and r.stdout == ""  # LLAVE needs the LL tile: two Ls make nothing
    assert r.stderr.splitlines() == [
        "0 words",
        "note: LL here is 2 tiles (L, L)",
        "with the digraph tiles: tablero anagram '[LL]AVE' finds LLAVE, LLEVA, VALLE",
    ]
    both = _tablero("anagram", "CHARR?").stderr.splitlines()
    assert both[1:3] == ["note: CH here is 2 tiles (C, H)", "note: RR here is 2 tiles (R, R)"]
    # One line however long, when the output is not a terminal (COLUMNS is 40 here).
    assert both[3].startswith("with the digraph tiles: tablero anagram '[CH]A[RR]?' finds ")
    assert both[3].endswith("CHARRO, CHORRA, CHURRA") and len(both) == 4
    assert _tablero("anagram", "[LL]AVE").stderr.splitlines() == ["3 words"]
