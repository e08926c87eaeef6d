"""Letter tables: a KWG numbered by another engine's table reads as the same words here."""

from __future__ import annotations

import array
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablero.alphabet import SPANISH
from tablero.cli import main
from tablero.lexicon import LexiconError
from tablero.lexicon.graph import GraphLexicon
from tablero.lexicon.kwg import Kwg, build_kwg, pack_node
from tablero.lexicon.letters import FISE, LetterTable, LetterTableError, letter_table, remap_nodes

WORDS = ["CHILLAR", "LLAMA", "ÑANDU", "PERRO", "ZORRO", "KIWI", "WATERPOLO", "CASA"]
PLAYABLE = sorted(w for w in WORDS if "K" not in w and "W" not in w)


def fise_codes(word: str) -> bytes:
    """A word numbered as the FISE table numbers it, computed from the labels by hand."""
    return bytes(FISE.labels.index(t) + 1 for t in SPANISH.tokenize(word))


def test_fise_table_numbers_the_28_tiles_of_the_set() -> None:
    assert len(FISE.labels) == 28
    # The numbering of wolges' Spanish alphabet: A=1, CH=4, J=11, L=12, LL=13, Ñ=16, RR=21, Z=28.
    assert {label: FISE.labels.index(label) + 1 for label in ("A", "CH", "J", "L", "LL")} == {
        "A": 1,
        "CH": 4,
        "J": 11,
        "L": 12,
        "LL": 13,
    }
    assert (FISE.labels.index("Ñ") + 1, FISE.labels.index("RR") + 1, len(FISE.labels)) == (
        16,
        21,
        28,
    )
    # Our own numbering keeps K and W, so every letter from L on sits one or two codes higher.
    assert SPANISH.code("LL") == 14 and SPANISH.code("Z") == 30


def test_build_with_fise_letters_writes_their_codes_and_leaves_out_k_and_w(
    tmp_path: Path,
) -> None:
    source = tmp_path / "words.txt"
    source.write_text("\n".join(WORDS) + "\n", "utf-8")
    out = tmp_path / "fise.kwg"
    result = CliRunner().invoke(
        main, ["lexicon", "build", str(source), "--out", str(out), "--letters", "fise"]
    )
    assert result.exit_code == 0, result.output
    assert "2 words left out" in result.output

    raw = Kwg.load(out)  # the file itself, read with no table: FISE codes
    assert sorted(raw.words()) == sorted(tuple(fise_codes(w)) for w in PLAYABLE)
    meta = json.loads((tmp_path / "fise.kwg.json").read_text("utf-8"))
    assert meta["letter_table"] == "fise" and meta["letters"] == list(FISE.labels)
    assert meta["word_count"] == len(PLAYABLE)

    lexicon = GraphLexicon.load(out)  # renumbered to our codes on load
    assert sorted(lexicon.words()) == PLAYABLE
    assert lexicon.contains("chillar") and lexicon.contains("Ñandú")
    assert not lexicon.contains("KIWI")
    assert lexicon.has_prefix(SPANISH.encode("LLA"))


def foreign_graph(tmp_path: Path) -> Path:
    """A KWG as another engine would write it: FISE codes, no sidecar."""
    path = tmp_path / "foreign.kwg"
    build_kwg([fise_codes(w) for w in PLAYABLE]).save(path)
    return path


def test_a_graph_without_sidecar_is_refused_with_the_way_out(tmp_path: Path) -> None:
    path = foreign_graph(tmp_path)
    with pytest.raises(LexiconError, match="lexicon import"):
        GraphLexicon.load(path)


def test_import_describes_a_foreign_graph_so_it_loads_everywhere(tmp_path: Path) -> None:
    path = foreign_graph(tmp_path)
    result = CliRunner().invoke(main, ["lexicon", "import", str(path), "--letters", "fise"])
    assert result.exit_code == 0, result.output
    assert f"{len(PLAYABLE)} words" in result.output

    lexicon = GraphLexicon.load(path)
    assert sorted(lexicon.words()) == PLAYABLE
    # The checksum is that of the plain list, whichever engine built the file.
    built_here = tmp_path / "here.kwg"
    (tmp_path / "list.txt").write_text("\n".join(PLAYABLE), "utf-8")
    CliRunner().invoke(main, ["lexicon", "build", str(tmp_path / "list.txt"), "--out", built_here])
    assert GraphLexicon.load(built_here).info().checksum == lexicon.info().checksum

    info = CliRunner().invoke(main, ["lexicon", "info", str(path), "--json"])
    assert json.loads(info.output)["letter_table"] == "fise"

    # A game can use it: `tablero word` answers from the imported file.
    word = CliRunner().invoke(main, ["word", "--lexicon", str(path), "LLAMA", "LAMA"])
    assert word.exit_code == 1
    assert "LLAMA" in word.output and "LAMA" in word.output


def test_the_wrong_table_reads_other_words(tmp_path: Path) -> None:
    """Why the table matters: FISE's LL (13) is our L (13) — LLAMA would read as LAMA-ish."""
    path = foreign_graph(tmp_path)
    CliRunner().invoke(main, ["lexicon", "import", str(path), "--letters", "tablero-es"])
    misread = sorted(GraphLexicon.load(path).words())
    assert misread != PLAYABLE
    assert "LLAMA" not in misread


def test_letter_table_from_a_file_and_its_errors(tmp_path: Path) -> None:
    labels = tmp_path / "letters.txt"
    labels.write_text("# my club's tiles\nA\nB\nC\n\nCH\n", "utf-8")
    assert letter_table(str(labels)).labels == ("A", "B", "C", "CH")
    with pytest.raises(LetterTableError, match="unknown letter table 'klingon'"):
        letter_table("klingon")
    with pytest.raises(LetterTableError, match="listed twice"):
        LetterTable("twice", ("A", "A"))
    with pytest.raises(LetterTableError, match="lacks: Ç"):
        LetterTable("catalan", ("A", "Ç")).codes_to(SPANISH)


def test_remap_refuses_a_numbering_that_reorders_letters() -> None:
    nodes = array.array("I", [pack_node(0, accepts=False, is_end=True, arc_index=0)] * 2)
    with pytest.raises(LetterTableError, match="order"):
        remap_nodes(nodes, {1: 2, 2: 1})
