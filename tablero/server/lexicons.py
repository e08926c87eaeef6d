"""The dictionary a table's game is judged by: the shipped one for the variant's language
unless the settings supply another (a club's list, or a small list in tests).

Loading the shipped graph can take seconds the first time on a machine (it is built and
cached), so callers run ``lexicon_for`` in a worker thread.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from ..lexicon import AnyWordLexicon, Lexicon, load_lexicon
from ..lexicon.amend import amended_lexicon
from ..variant import Variant

__all__ = ["LexiconProvider"]


class LexiconProvider:
    def __init__(self, overrides: Mapping[str, Lexicon]) -> None:
        self._overrides = dict(overrides)
        self._lock = threading.Lock()

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
            base = self._overrides.get(name) or load_lexicon(name, variant.alphabet)
            return amended_lexicon(base, variant.word_changes, show_progress=False)
