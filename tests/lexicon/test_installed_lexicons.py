"""Dictionaries installed by name (``tablero lexicon add``): built once into the data
directory, found by name everywhere, replaced only when asked, and refused whole — nothing
half-installed — when the source is wrong."""

from __future__ import annotations

import gzip
import json
import lzma
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tablero.alphabet import SPANISH, alphabet_by_name
from tablero.lexicon import _CACHE, MAX_WORD_LIST_BYTES, Lexicon, LexiconError, load_lexicon
from tablero.lexicon.graph import GraphLexicon, build_graph_file
from tablero.lexicon.installed import (
    add_lexicon,
    find_installed,
    installed_lexicons,
    remove_lexicon,
)
from tablero.lexicon.letters import letter_table


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("TABLERO_DATA", str(folder))
    _CACHE.clear()
    return folder


def club_list(tmp_path: Path) -> Path:
    path = tmp_path / "club.txt"
    path.write_text("casa\nCHILLAR\n[CH]ICO\nñandú\n", encoding="utf-8")
    return path


def leftovers(data: Path) -> list[str]:
    root = data / "lexicons"
    return sorted(p.name for p in root.iterdir()) if root.is_dir() else []


def test_a_word_list_installs_by_name_and_plays_everywhere(tmp_path: Path, data: Path) -> None:
    record = add_lexicon("club", club_list(tmp_path))
    assert (record.name, record.kind, record.alphabet, record.word_count) == (
        "club",
        "words",
        "es",
        4,
    )
    assert record.folder == data / "lexicons" / "club"
    assert sorted(p.name for p in record.folder.iterdir()) == [
        "lexicon.json",
        "words.kwg",
        "words.kwg.json",
        "words.txt.xz",
    ]
    assert [r.name for r in installed_lexicons()] == ["club"]
    lexicon = Lexicon.named("club")
    assert isinstance(lexicon, GraphLexicon)
    assert "CHICO" in lexicon and "ÑANDU" in lexicon and "CASAS" not in lexicon
    assert lexicon.info().name == "club"
    assert load_lexicon("CLUB", SPANISH).info() == lexicon.info()  # a GCG may write it so
    stored = lzma.decompress((record.folder / "words.txt.xz").read_bytes()).decode()
    assert stored.split() == ["CASA", "CHICO", "CHILLAR", "ÑANDU"]


def test_a_name_taken_is_refused_unless_replace(tmp_path: Path, data: Path) -> None:
    add_lexicon("club", club_list(tmp_path))
    other = tmp_path / "other.txt"
    other.write_text("mesa\nsilla\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=r"installed already .* give --replace"):
        add_lexicon("club", other)
    assert Lexicon.named("club").info().word_count == 4  # untouched
    record = add_lexicon("club", other, replace=True)
    assert record.word_count == 2
    assert "MESA" in Lexicon.named("club") and "CASA" not in Lexicon.named("club")
    assert leftovers(data) == ["club"]  # the old folder is gone, no temporary one left


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "no words in it"),
        (b"casa\nmesa\nhouse1\n", r"club\.txt, line 3"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a binary file"),
    ],
)
def test_a_bad_list_installs_nothing(
    tmp_path: Path, data: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "club.txt"
    path.write_bytes(content)
    with pytest.raises(LexiconError, match=message):
        add_lexicon("club", path)
    assert find_installed("club") is None and leftovers(data) == []


def test_an_oversized_list_is_refused_with_its_size(tmp_path: Path, data: Path) -> None:
    path = tmp_path / "huge.txt"
    with path.open("wb") as f:
        f.truncate(200_000_000)
    with pytest.raises(
        LexiconError, match=f"200,000,000 bytes; a word list may have {MAX_WORD_LIST_BYTES:,}"
    ):
        add_lexicon("huge", path)
    assert leftovers(data) == []


@pytest.mark.parametrize("name", ["es", "none", "../x", "", "a b", "x" * 33])
def test_a_bad_or_shipped_name_is_refused(tmp_path: Path, data: Path, name: str) -> None:
    with pytest.raises(LexiconError):
        add_lexicon(name, club_list(tmp_path))
    assert leftovers(data) == []


@pytest.mark.parametrize("packing", ["xz", "gz", "zip", "latin-1"])
def test_packed_and_old_encoded_lists_read_the_same(
    tmp_path: Path, data: Path, packing: str
) -> None:
    text = "casa\nchillar\nñandú\n"
    path = tmp_path / f"list.{packing}"
    if packing == "xz":
        path.write_bytes(lzma.compress(text.encode()))
    elif packing == "gz":
        path.write_bytes(gzip.compress(text.encode()))
    elif packing == "zip":
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("FILE2017.txt", text)
    else:
        path.write_bytes(text.encode("latin-1"))
    record = add_lexicon("packed", path)
    assert record.word_count == 3 and "ÑANDU" in Lexicon.named("packed")


def test_a_kwg_from_another_engine_installs_with_its_letter_table(
    tmp_path: Path, data: Path
) -> None:
    graph = tmp_path / "other.kwg"
    build_graph_file(
        ["CASA", "CHILLAR", "ÑANDU"],
        SPANISH,
        graph,
        "other",
        show_progress=False,
        letters=letter_table("fise"),
    )
    graph.with_name("other.kwg.json").unlink()  # as another engine ships it: no sidecar
    record = add_lexicon("otro", graph)  # Spanish graphs are read with the FISE table
    assert (record.kind, record.word_count) == ("kwg", 3)
    assert "CHILLAR" in Lexicon.named("otro") and "CHILLA" not in Lexicon.named("otro")


def test_remove_takes_the_folder_away(tmp_path: Path, data: Path) -> None:
    add_lexicon("club", club_list(tmp_path))
    assert remove_lexicon("club").name == "club"
    assert leftovers(data) == [] and find_installed("club") is None
    with pytest.raises(LexiconError, match="no installed dictionary 'club'"):
        remove_lexicon("club")
    with pytest.raises(LexiconError, match="no dictionary 'club'"):
        Lexicon.named("club")


def test_another_alphabet_gets_its_own_graph_from_the_stored_words(
    tmp_path: Path, data: Path
) -> None:
    record = add_lexicon("club", club_list(tmp_path))
    from dataclasses import replace

    no_digraphs = replace(
        alphabet_by_name("es"),
        name="es-plain",
        letters=tuple(x for x in SPANISH.letters if len(x) == 1),
    )
    lexicon = load_lexicon("club", no_digraphs)
    assert lexicon.alphabet.name == "es-plain" and lexicon.info().word_count == record.word_count


def run_cli(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    import os

    env = os.environ | {"TABLERO_DATA": str(data)}
    return subprocess.run(
        [sys.executable, "-m", "tablero.cli", *args], capture_output=True, text=True, env=env
    )


def test_the_command_line_adds_lists_uses_and_removes(tmp_path: Path, data: Path) -> None:
    added = run_cli("lexicon", "add", "club", str(club_list(tmp_path)), "--json", data=data)
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["word_count"] == 4
    listed = json.loads(run_cli("lexicon", "list", "--json", data=data).stdout)
    assert [(r["name"], r["kind"], r["word_count"]) for r in listed] == [("club", "words", 4)]
    word = run_cli("word", "--lexicon", "club", "--json", "chillar", "mesa", data=data)
    assert word.returncode == 1, word.stderr  # one word of the two is not in the dictionary
    assert [(w["valid"], w["lexicon"]) for w in json.loads(word.stdout)] == [
        (True, "club"),
        (False, "club"),
    ]
    again = run_cli("lexicon", "add", "club", str(club_list(tmp_path)), data=data)
    assert again.returncode == 2 and "give --replace" in again.stderr
    removed = run_cli("lexicon", "remove", "club", data=data)
    assert removed.returncode == 0 and "removed club" in removed.stdout
    assert json.loads(run_cli("lexicon", "list", "--json", data=data).stdout) == []


def test_a_log_gets_one_line_a_step(tmp_path: Path, data: Path) -> None:
    added = run_cli("lexicon", "add", "club", str(club_list(tmp_path)), data=data)
    assert added.returncode == 0
    assert added.stderr.splitlines() == [
        "installing club: reading the word list",
        "installing club: building the word graph (4 words)",
    ]
    assert "installed club: 4 words" in added.stdout
