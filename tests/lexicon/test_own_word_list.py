"""A word list of one's own: compiled once to a word graph, cached by the list's digest and
searched by the native generator; bad lists refused with a clear error, no cache file left
half-written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tablero.alphabet import SPANISH
from tablero.engine.movegen.candidates import generator_for, native_available
from tablero.lexicon import _CACHE, MAX_WORD_LIST_BYTES, LexiconError, load_lexicon
from tablero.lexicon.graph import GraphLexicon, graph_file_name
from tablero.variant import load_variant


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TABLERO_CACHE", str(folder))
    _CACHE.clear()  # load_lexicon keeps what it loaded per process
    return folder


def test_a_word_list_becomes_a_cached_graph(tmp_path: Path, cache: Path) -> None:
    words = tmp_path / "club.txt"
    words.write_text("casa\nCHILLAR\n# a comment\n\nñandú\n", encoding="utf-8")
    lexicon = load_lexicon(str(words), SPANISH)
    assert isinstance(lexicon, GraphLexicon)
    assert lexicon.info().name == "club" and lexicon.info().word_count == 3
    assert "CASA" in lexicon and "ÑANDU" in lexicon and "CAS" not in lexicon
    built = cache / graph_file_name(words, SPANISH, "club")
    assert built.is_file()
    if native_available():
        assert "Native" in type(generator_for(load_variant("fise"), lexicon)).__name__
    # Loaded again (another process would): the same file, nothing built.
    _CACHE.clear()
    stamp = built.stat().st_mtime_ns
    again = load_lexicon(str(words), SPANISH)
    assert again.info() == lexicon.info() and built.stat().st_mtime_ns == stamp


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "no words in it"),
        (b"# only a comment\n\n", "no words in it"),
        (b"casa\nmesa\nhouse1\n", "line 3"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "not a UTF-8 word list"),
    ],
)
def test_a_bad_list_is_refused_and_leaves_no_cache_file(
    tmp_path: Path, cache: Path, content: bytes, message: str
) -> None:
    words = tmp_path / "bad.txt"
    words.write_bytes(content)
    with pytest.raises(LexiconError, match=message) as info:
        load_lexicon(str(words), SPANISH)
    assert str(words) in str(info.value)
    assert not cache.exists() or list(cache.iterdir()) == []


def test_a_huge_file_is_refused_by_its_size(tmp_path: Path, cache: Path) -> None:
    words = tmp_path / "huge.txt"
    with words.open("wb") as f:  # 100 MB, sparse: nothing is written to the disk
        f.truncate(100_000_000)
    with pytest.raises(LexiconError) as info:
        load_lexicon(str(words), SPANISH)
    assert "100,000,000 bytes" in str(info.value)
    assert f"{MAX_WORD_LIST_BYTES:,} at most" in str(info.value)
    assert not cache.exists() or list(cache.iterdir()) == []


def test_without_a_writable_cache_the_plain_list_serves(tmp_path: Path, cache: Path) -> None:
    cache.write_text("a file where the cache folder should be")
    words = tmp_path / "club.txt"
    words.write_text("CASA\nMESA\n", encoding="utf-8")
    lexicon = load_lexicon(str(words), SPANISH)
    assert "MESA" in lexicon and lexicon.info().word_count == 2
    assert os.path.isfile(cache) and not isinstance(lexicon, GraphLexicon)
