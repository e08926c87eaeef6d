"""Word lists uploaded to the server, for rule files to play with (``lexicon = "wl-…"``).

A list is checked as any word list is (``WordListLexicon.from_bytes``: UTF-8, one word per
line, every word spelled with the language's tiles, a line that cannot be is named), then
kept in its canonical form: the words normalised, sorted, one per line, packed with xz. Its
id is a digest of that form and its language, so the same list uploaded twice is one list,
and whoever holds the id can play with it but learns nothing else.

Every process that judges words keeps the list as a file in its cache
(``$TABLERO_CACHE/wordlists/<id>.txt.xz``), compiled once to a word graph cached by its
digest like any list of one's own (``lexicon/graph.py``): the web process writes it from the
database, a bot worker elsewhere from Redis (``workers/queue.py`` shares it there).
"""

from __future__ import annotations

import hashlib
import lzma
import re
from dataclasses import dataclass
from pathlib import Path

from ..alphabet import Alphabet
from ..lexicon import LexiconError, WordListLexicon
from ..lexicon.graph import atomic_write, cache_dir

__all__ = [
    "MAX_WORD_LIST_UPLOAD_BYTES",
    "CanonicalList",
    "canonical_list",
    "is_word_list_id",
    "word_list_file",
    "write_word_list_file",
]

MAX_WORD_LIST_UPLOAD_BYTES = 16_000_000
"""The largest list the server takes, as sent: twice the shipped Spanish list."""

_ID = re.compile(r"wl-[0-9a-f]{16}")


def is_word_list_id(name: str) -> bool:
    """Whether a lexicon name is an uploaded list's id (``wl-`` and 16 hex digits)."""
    return _ID.fullmatch(name) is not None


@dataclass(frozen=True)
class CanonicalList:
    """A list as the server keeps it."""

    id: str
    packed: bytes
    """The words, normalised and sorted, one per line, packed with xz."""
    word_count: int


def canonical_list(raw: bytes, alphabet: Alphabet, name: str) -> CanonicalList:
    """The canonical form of an uploaded list; LexiconError says what is wrong with it."""
    words = WordListLexicon.from_bytes(raw, alphabet, name, limit=MAX_WORD_LIST_UPLOAD_BYTES)
    text = "".join(f"{w}\n" for w in words).encode("utf-8")
    digest = hashlib.sha256(alphabet.name.encode() + b"\n" + text).hexdigest()[:16]
    packed = lzma.compress(text, preset=6)
    return CanonicalList(f"wl-{digest}", packed, len(words))


def word_list_file(list_id: str) -> Path:
    """Where this process keeps an uploaded list."""
    if not is_word_list_id(list_id):
        raise LexiconError(f"{list_id!r} is not an uploaded word list's id")
    return cache_dir() / "wordlists" / f"{list_id}.txt.xz"


def write_word_list_file(list_id: str, packed: bytes) -> Path:
    """Keep a list's packed words as this process's file (atomically: a reader never sees
    half a list)."""
    path = word_list_file(list_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, packed)
    return path
