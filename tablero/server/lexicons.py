"""The dictionary a table's game is judged by: the shipped one for the variant's language
unless the settings supply another (a club's list, or a small list in tests), or a list
uploaded to the server (``lexicon = "wl-…"``, ``wordlists.py``), which this process keeps
as a file once ``fetch_word_list`` has given it (the database's copy, or Redis's).

Loading the shipped graph can take seconds the first time on a machine (it is built and
cached), so callers run ``lexicon_for`` in a worker thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping

from ..alphabet import Alphabet
from ..lexicon import AnyWordLexicon, Lexicon, LexiconError, load_lexicon
from ..lexicon.amend import amended_lexicon
from ..variant import Variant
from .wordlists import is_word_list_id, word_list_file, write_word_list_file

FetchWordList = Callable[[str], bytes | None]
"""An uploaded list's packed words by its id, or None if there is no such list."""

__all__ = ["LexiconProvider"]


class LexiconProvider:
    def __init__(
        self, overrides: Mapping[str, Lexicon], fetch_word_list: FetchWordList | None = None
    ) -> None:
        self._overrides = dict(overrides)
        self._lock = threading.Lock()
        self.fetch_word_list = fetch_word_list
        """Where this process gets an uploaded list it does not hold yet (None: only the
        lists another process of this machine has written, as a pool's processes do)."""

    @property
    def overrides(self) -> dict[str, Lexicon]:
        """The dictionaries given in place of the shipped ones (bot workers get them too)."""
        return dict(self._overrides)

    def lexicon_for(self, variant: Variant) -> Lexicon:
        """The variant's dictionary with its club's word changes applied (a graph built once
        and cached, like the shipped ones)."""
        name = variant.lexicon
        if name == "none":
            return AnyWordLexicon(variant.alphabet)
        with self._lock:  # one build at a time; load_lexicon and amend cache what they built
            base = self._overrides.get(name)
            if base is None:
                source = self._word_list_path(name) if is_word_list_id(name) else name
                base = load_lexicon(source, variant.alphabet)
            return amended_lexicon(base, variant.word_changes, show_progress=False)

    def uploaded_list(self, list_id: str, alphabet: Alphabet) -> Lexicon:
        """An uploaded list as a word graph (built now the first time, then cached)."""
        with self._lock:
            return load_lexicon(self._word_list_path(list_id), alphabet)

    def _word_list_path(self, list_id: str) -> str:
        """The file of an uploaded list, written from ``fetch_word_list`` the first time."""
        path = word_list_file(list_id)
        if not path.is_file():
            packed = self.fetch_word_list(list_id) if self.fetch_word_list else None
            if packed is None:
                raise LexiconError(f"no uploaded word list {list_id} on this server")
            write_word_list_file(list_id, packed)
        return str(path)
