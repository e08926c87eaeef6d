"""The shipped dictionaries' word graphs come with the install (``lexicon/prebuilt.py``, run
by ``setup.py``): the first game loads one, it builds nothing. A graph is found by the digest
of its list, so one built from another list is never used."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from tablero.alphabet import SPANISH, alphabet_by_name
from tablero.lexicon import graph, prebuilt
from tablero.lexicon.graph import graph_file_name, graph_for_word_list


def test_the_install_built_every_shipped_graph() -> None:
    pairs = prebuilt.shipped_pairs()
    assert [name for name, _ in pairs] == ["es", "ro"]
    for name, path in pairs:
        found = prebuilt.PREBUILT_DIR / graph_file_name(path, alphabet_by_name(name), name)
        assert found.is_file(), f"{found} missing: reinstall with pip install -e ."
        assert found.with_name(found.name + ".json").is_file()


def _word_list(folder: Path, words: list[str]) -> Path:
    path = folder / "club.txt.xz"
    path.write_bytes(lzma.compress("\n".join(words).encode("utf-8")))
    return path


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Where the install puts graphs and where the cache keeps them, both empty, for a test."""
    shipped, cache = tmp_path / "graphs", tmp_path / "cache"
    monkeypatch.setattr(prebuilt, "PREBUILT_DIR", shipped)
    monkeypatch.setenv("TABLERO_CACHE", str(cache))
    return shipped, cache


def test_a_prebuilt_graph_is_used_before_the_cache_and_a_new_list_misses_it(
    tmp_path: Path, places: tuple[Path, Path]
) -> None:
    shipped, cache = places
    path = _word_list(tmp_path, ["CASA", "CHAL", "LLAVE"])
    name = graph_file_name(path, SPANISH, "club")
    built = graph_for_word_list(path, SPANISH, "club", show_progress=False, target=shipped / name)
    assert (shipped / name).is_file() and not cache.exists()
    loaded = graph_for_word_list(path, SPANISH, "club", show_progress=False)
    assert not cache.exists()  # found where the install put it: nothing built
    assert loaded.info() == built.info() and "LLAVE" in loaded and "CAS" not in loaded
    # Another list (one word more) has another digest: built into the cache, not mistaken.
    other = _word_list(tmp_path, ["CASA", "CHAL", "LLAVE", "CAS"])
    assert graph_file_name(other, SPANISH, "club") != name
    again = graph_for_word_list(other, SPANISH, "club", show_progress=False)
    assert "CAS" in again and (cache / graph_file_name(other, SPANISH, "club")).is_file()


def test_a_damaged_prebuilt_graph_is_rebuilt_into_the_cache(
    tmp_path: Path, places: tuple[Path, Path]
) -> None:
    shipped, cache = places
    path = _word_list(tmp_path, ["CASA", "MESA"])
    name = graph_file_name(path, SPANISH, "club")
    graph_for_word_list(path, SPANISH, "club", show_progress=False, target=shipped / name)
    (shipped / name).write_bytes(b"not a graph")
    lexicon = graph_for_word_list(path, SPANISH, "club", show_progress=False)
    assert "MESA" in lexicon and (cache / name).is_file()
    assert graph.cache_dir() == cache
