"""A club's own changes to a dictionary: the words it adds and the words it bans.

Clubs play by the federation's list with a few house rules: a regional word accepted, an
offensive one refused. ``WordChanges`` holds those two lists, normalised by the game's
alphabet; ``amended_lexicon`` gives the dictionary with them applied as a word graph of its
own, so look-ups and the native move generator see one dictionary and run at full speed.

The graph is built once (about as long as building the base list's graph: seconds for the
shipped lists) and cached on disk under a digest of the base list's checksum, the changes and
the alphabet; a process keeps the last few in memory. A game records the changes with the
rules (``[words] add`` / ``remove`` in a rule file, ``#words-added`` / ``#words-removed`` in
its GCG), so its record says exactly which words were valid.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from threading import Lock

from ..alphabet import Alphabet, SpellingError
from . import AnyWordLexicon, Lexicon, LexiconError, WordListLexicon
from .graph import (
    GRAPH_FORMAT,
    GraphLexicon,
    build_graph_file,
    cache_dir,
    load_cached_graph,
    spelling_key,
)

__all__ = ["MAX_CHANGED_WORDS", "WordChanges", "amended_lexicon"]

MAX_CHANGED_WORDS = 20_000
"""The most words a club may add, and as many it may ban: house rules, not a second list
(a list of one's own is given whole, with ``--lexicon FILE``)."""

_KEPT_IN_MEMORY = 4
"""Amended graphs a process keeps loaded: each is a whole dictionary (tens of megabytes)."""


@dataclass(frozen=True)
class WordChanges:
    """Words added to a dictionary and words removed from it, as tiles spell them."""

    added: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)

    @classmethod
    def of(cls, added: Iterable[str], removed: Iterable[str], alphabet: Alphabet) -> WordChanges:
        """Normalise both lists (accents folded, digraphs as tiles). Raises LexiconError for a
        word the alphabet cannot spell (named with its place in its list), for a word in both
        lists, and for lists over ``MAX_CHANGED_WORDS``."""
        plus = cls(added=_normalised("added", added, alphabet))
        return plus.merged(cls(removed=_normalised("removed", removed, alphabet)))

    @property
    def digest(self) -> str:
        """Sixteen hex digits that name these changes (cache files, a lexicon's name)."""
        h = hashlib.sha256()
        for sign, words in (("+", self.added), ("-", self.removed)):
            for word in sorted(words):
                h.update(f"{sign}{word}\n".encode())
        return h.hexdigest()[:16]

    def covers(self, other: WordChanges) -> bool:
        """Whether a dictionary with these changes applied has ``other``'s too."""
        return other.added <= self.added and other.removed <= self.removed

    def merged(self, other: WordChanges) -> WordChanges:
        """Both sets of changes (a rule file's and the command line's); a word one adds and
        the other removes is an error."""
        added, removed = self.added | other.added, self.removed | other.removed
        both = sorted(added & removed)
        if both:
            raise LexiconError(
                f"{', '.join(both[:5])}: both added and removed; a word is one or the other"
            )
        return WordChanges(added, removed)

    def describe(self) -> str:
        """``+3 −2 words``: for a lexicon's name in a listing."""
        return f"+{len(self.added)} −{len(self.removed)} words"


def _normalised(which: str, words: Iterable[str], alphabet: Alphabet) -> frozenset[str]:
    out: set[str] = set()
    for number, raw in enumerate(words, 1):
        word = raw.strip()
        if not word:
            continue
        try:
            tiles = alphabet.tokenize(word)
        except SpellingError as e:
            raise LexiconError(f"words {which}, #{number}: {e}") from None
        if len(tiles) < 2:
            raise LexiconError(f"words {which}, #{number}: {word!r} has fewer than 2 tiles")
        out.add("".join(tiles))
        if len(out) > MAX_CHANGED_WORDS:
            raise LexiconError(f"words {which}: more than {MAX_CHANGED_WORDS:,} words")
    return frozenset(out)


_memory: OrderedDict[tuple[str, str, str], Lexicon] = OrderedDict()
_memory_lock = Lock()


def amended_lexicon(base: Lexicon, changes: WordChanges, show_progress: bool = True) -> Lexicon:
    """``base`` with the club's words added and its banned words removed, as a word graph.

    No changes: ``base`` itself. Raises LexiconError for a base that checks no words (a game
    without a dictionary has nothing to change) or cannot list its words.
    """
    if not changes or (base.applied_changes and base.applied_changes.covers(changes)):
        return base
    if isinstance(base, AnyWordLexicon) or not base.checks_words:
        raise LexiconError(
            "a game without a dictionary cannot add or ban words: name a dictionary first"
        )
    info = base.info()
    key = (info.checksum, changes.digest, base.alphabet.name)
    with _memory_lock:
        if key in _memory:
            _memory.move_to_end(key)
            return _memory[key]
    lexicon = _load_or_build(base, changes, show_progress)
    with _memory_lock:
        _memory[key] = lexicon
        while len(_memory) > _KEPT_IN_MEMORY:
            _memory.popitem(last=False)
    return lexicon


def _load_or_build(base: Lexicon, changes: WordChanges, show_progress: bool) -> GraphLexicon:
    info = base.info()
    alphabet = base.alphabet
    key = f"{info.checksum}\n{changes.digest}\n{spelling_key(alphabet)}"
    digest = hashlib.sha256(key.encode())
    name = f"{info.name}+{changes.digest[:8]}"
    path = cache_dir() / f"{name}-{alphabet.name}-{digest.hexdigest()[:16]}-g{GRAPH_FORMAT}.kwg"
    cached = load_cached_graph(path, alphabet)  # a damaged file is built again
    if cached is not None:
        return _marked(cached, changes)
    words = sorted((set(_words_of(base)) | changes.added) - changes.removed)
    built = build_graph_file(words, alphabet, path, name, info.version, show_progress)
    return _marked(built, changes)


def _marked(lexicon: GraphLexicon, changes: WordChanges) -> GraphLexicon:
    lexicon.applied_changes = changes
    return lexicon


def _words_of(base: Lexicon) -> Iterator[str]:
    if isinstance(base, GraphLexicon):
        return base.words()
    if isinstance(base, WordListLexicon):
        return iter(base)
    raise LexiconError(f"the {base.info().name} dictionary cannot list its words to amend them")
