"""Dictionaries: which words are valid.

``Lexicon`` is what the rules engine asks ("is CHILLAR a word?"). ``WordListLexicon`` reads a
plain list, one word per line, so a club can play with the list it agreed on. Every lexicon
has an ``info()`` (name, version, word count, checksum) that a game records, so a game record
says exactly which dictionary judged it.

Words are stored normalised by the alphabet (uppercase, accents folded, Ñ kept) as text; the
compact word graphs for move generation are built from the same words.
"""

from __future__ import annotations

import bisect
import hashlib
import lzma
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from ..alphabet import Alphabet, SpellingError

if TYPE_CHECKING:
    from .amend import WordChanges

__all__ = [
    "AnyWordLexicon",
    "Lexicon",
    "LexiconError",
    "LexiconInfo",
    "WordListLexicon",
    "dictionary_language",
    "load_lexicon",
]


class LexiconError(ValueError):
    """A word list that cannot be read, or a dictionary name that is not known."""


@dataclass(frozen=True)
class LexiconInfo:
    name: str
    version: str
    word_count: int
    checksum: str
    """sha256 of the sorted, normalised words joined by newlines: same words, same checksum."""


class Lexicon(ABC):
    """The words a game accepts."""

    alphabet: Alphabet

    @abstractmethod
    def contains(self, word: str) -> bool:
        """Whether a word (any case, accents allowed) is valid."""

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.contains(word)

    @abstractmethod
    def info(self) -> LexiconInfo: ...

    applied_changes: WordChanges | None = None
    """The club's word changes this dictionary was built with (``amend.py``), if any: a game
    does not apply its rule set's changes again over a dictionary that already has them."""

    @property
    def checks_words(self) -> bool:
        """False for a lexicon that accepts everything (play without a dictionary)."""
        return True

    @property
    def can_search(self) -> bool:
        """Whether it offers ``is_word`` and ``has_prefix`` over tile codes (move generation)."""
        return hasattr(self, "has_prefix") and hasattr(self, "is_word")

    @staticmethod
    def named(name: str, alphabet: Alphabet | str | None = None) -> Lexicon:
        """A dictionary by name: a shipped one (``es``, ``ro``), one installed with ``tablero
        lexicon add`` (``fise2``), or ``none``; loaded once per process.

        ``alphabet`` (an ``Alphabet`` or a language code) defaults to the dictionary's own
        language. Raises LexiconError for a name that is neither shipped nor installed.
        """
        from ..alphabet import alphabet_by_name
        from .installed import find_installed

        if isinstance(alphabet, str):
            alphabet = alphabet_by_name(alphabet)
        if alphabet is None:
            record = find_installed(name)
            if record is not None:
                alphabet = alphabet_by_name(record.alphabet)
            elif shipped_list_path(name) is not None:
                alphabet = alphabet_by_name(name)
            else:
                raise LexiconError(_unknown_name(name))
        return load_lexicon(name, alphabet)


class WordListLexicon(Lexicon):
    """A lexicon held as a set of normalised words, with sorted tile codes for prefix search."""

    def __init__(
        self, words: Iterable[str], alphabet: Alphabet, name: str, version: str = ""
    ) -> None:
        self.alphabet = alphabet
        self.name = name
        self.version = version
        self._words = frozenset(words)

    @classmethod
    def from_words(
        cls, words: Iterable[str], alphabet: Alphabet, name: str = "words", version: str = ""
    ) -> WordListLexicon:
        """Normalise and keep the given words; raises LexiconError for one that is not spellable."""
        return cls(_normalised(enumerate(words, 1), alphabet, name), alphabet, name, version)

    @classmethod
    def from_file(
        cls, path: str | Path, alphabet: Alphabet, name: str | None = None
    ) -> WordListLexicon:
        """One word per line; blank lines and lines starting with ``#`` are skipped.

        ``.xz`` files are decompressed. A line that the alphabet cannot spell is an error
        naming the file and line, not a silent skip: a club's list should be what it says.
        """
        p = Path(path)
        try:
            size = p.stat().st_size
            if size > MAX_WORD_LIST_BYTES:
                raise LexiconError(
                    f"{p}: {size:,} bytes; a word list may have {MAX_WORD_LIST_BYTES:,} at most"
                )
            raw = p.read_bytes()
        except OSError as e:
            raise LexiconError(f"cannot read word list {p}: {e.strerror}") from None
        label = name or p.name.removesuffix(".xz").removesuffix(".txt")
        return cls.from_bytes(raw, alphabet, label, where=str(p), packed=p.suffix == ".xz")

    @classmethod
    def from_bytes(
        cls,
        raw: bytes,
        alphabet: Alphabet,
        name: str,
        *,
        where: str | None = None,
        packed: bool = False,
        limit: int | None = None,
    ) -> WordListLexicon:
        """A list's bytes (an upload's, a file's): UTF-8, one word per line, ``packed`` with
        xz. Errors name ``where`` (default: the name), the line, and a size over ``limit``
        (default ``MAX_WORD_LIST_BYTES``), unpacked or not."""
        where = where or name
        limit = MAX_WORD_LIST_BYTES if limit is None else limit
        if len(raw) > limit:
            raise LexiconError(
                f"{where}: {len(raw):,} bytes; a word list may have {limit:,} at most"
            )
        try:
            if packed:
                unpacker = lzma.LZMADecompressor()
                raw = unpacker.decompress(raw, max_length=limit + 1)
                if len(raw) > limit:
                    raise LexiconError(
                        f"{where}: more than {limit:,} bytes unpacked; a word list may have that "
                        "many at most"
                    )
            text = raw.decode("utf-8")
        except (lzma.LZMAError, UnicodeDecodeError) as e:
            raise LexiconError(f"{where}: not a UTF-8 word list ({e})") from None
        lines = enumerate(text.splitlines(), 1)
        lexicon = cls(_normalised(lines, alphabet, where), alphabet, name)
        if not len(lexicon):
            raise LexiconError(f"{where}: no words in it (one word per line)")
        return lexicon

    def contains(self, word: str) -> bool:
        return self.alphabet.normalize(word) in self._words

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._words))

    @cached_property
    def _checksum(self) -> str:
        h = hashlib.sha256()
        for w in sorted(self._words):
            h.update(w.encode("utf-8") + b"\n")
        return h.hexdigest()

    def info(self) -> LexiconInfo:
        return LexiconInfo(self.name, self.version, len(self._words), self._checksum)

    # -- prefix search, for the reference move generator -------------------------------------

    @cached_property
    def sorted_codes(self) -> list[bytes]:
        """Every word as tile codes, sorted: a prefix is valid iff bisect finds a word with it."""
        out = []
        for w in self._words:
            try:
                out.append(self.alphabet.encode(w))
            except SpellingError:  # pragma: no cover - words were checked on load
                continue
        out.sort()
        return out

    @cached_property
    def code_set(self) -> frozenset[bytes]:
        return frozenset(self.sorted_codes)

    def is_word(self, codes: bytes) -> bool:
        return codes in self.code_set

    def has_prefix(self, prefix: bytes) -> bool:
        codes = self.sorted_codes
        i = bisect.bisect_left(codes, prefix)
        return i < len(codes) and codes[i].startswith(prefix)


class AnyWordLexicon(Lexicon):
    """Accepts every word: for playing without a dictionary, players judging words themselves."""

    def __init__(self, alphabet: Alphabet) -> None:
        self.alphabet = alphabet

    def contains(self, word: str) -> bool:
        return True

    def info(self) -> LexiconInfo:
        return LexiconInfo("none", "", 0, "")

    @property
    def checks_words(self) -> bool:
        return False


def _normalised(lines: Iterable[tuple[int, str]], alphabet: Alphabet, where: str) -> Iterator[str]:
    for number, line in lines:
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        if alphabet.is_normal(word):
            yield word
            continue
        try:
            tiles = alphabet.tokenize(word)
        except SpellingError as e:
            raise LexiconError(f"{where}, line {number}: {e}") from None
        yield "".join(tiles)


def shipped_list_path(name: str) -> Path | None:
    """The word list shipped with the package for a dictionary name (``es``, ``ro``), if any."""
    candidate = resources.files("tablero") / "data" / "lexicon" / f"{name}.txt.xz"
    path = Path(str(candidate))
    return path if path.is_file() else None


def dictionary_language(name: str) -> str | None:
    """The language of a shipped (``es``) or installed (``fise2``) dictionary name, else None:
    what a command spells words with when no alphabet is given."""
    if "/" in name or "." in name:
        return None
    if shipped_list_path(name) is not None:
        return name
    from .installed import find_installed

    record = find_installed(name)
    return record.alphabet if record else None


def load_lexicon(name_or_path: str | Path, alphabet: Alphabet) -> Lexicon:
    """A shipped dictionary by name (``es``, ``ro``), an installed one (``fise2``: see
    ``installed.py``), ``none`` for no checking, or a word list.

    Loaded lexicons are cached per (name, alphabet): a game server opens each once.
    """
    key = str(name_or_path)
    if key == "none":
        return AnyWordLexicon(alphabet)
    plain_name = "/" not in key and "." not in key
    record = None
    if plain_name and shipped_list_path(key) is None:
        from .installed import find_installed

        record = find_installed(key)
    # an installed dictionary replaced (lexicon add --replace) is a new one: its words' sum
    cache_key = (f"{key}@{record.checksum}" if record else key, alphabet.name)
    cached = _CACHE.get(cache_key)
    if cached is not None:
        return cached
    lexicon: Lexicon
    shipped = shipped_list_path(key) if plain_name else None
    if shipped is not None:
        from .graph import graph_for_word_list

        lexicon = graph_for_word_list(shipped, alphabet, key, _shipped_version(key))
    elif record is not None:
        from .installed import load_installed

        lexicon = load_installed(record, alphabet)
    elif key.endswith(".kwg") and Path(key).is_file():
        from .graph import GraphLexicon

        lexicon = GraphLexicon.load(key)
    elif Path(key).is_file():
        lexicon = _word_list(Path(key), alphabet)
    else:
        raise LexiconError(_unknown_name(key))
    _CACHE[cache_key] = lexicon
    return lexicon


def _unknown_name(name: str) -> str:
    from .installed import installed_lexicons

    names = ", ".join(r.name for r in installed_lexicons())
    return (
        f"no dictionary {name!r}: give a shipped name (es, ro), an installed one "
        f"({names or 'none installed'}; tablero lexicon add NAME SOURCE), 'none', "
        "or a word-list file"
    )


_CACHE: dict[tuple[str, str], Lexicon] = {}

MAX_WORD_LIST_BYTES = 64_000_000
"""The largest word list read (unpacked): the shipped Spanish list is 7 MB, the Romanian 9."""


def _word_list(path: Path, alphabet: Alphabet) -> Lexicon:
    """A word list of one's own as a word graph, built once and cached by the list's digest
    (``graph.graph_for_word_list``), so the native move generator searches it. Where no cache
    can be written the plain list serves (the reference generator searches it, slower)."""
    from .graph import graph_for_word_list

    label = path.name.removesuffix(".xz").removesuffix(".txt")
    try:
        return graph_for_word_list(path, alphabet, label)
    except OSError:
        return WordListLexicon.from_file(path, alphabet)


def _shipped_version(name: str) -> str:
    """The version recorded next to a shipped list (``es.json``), if any."""
    import json

    meta = resources.files("tablero") / "data" / "lexicon" / f"{name}.json"
    try:
        return str(json.loads(meta.read_text("utf-8")).get("version", ""))
    except (OSError, ValueError):
        return ""
