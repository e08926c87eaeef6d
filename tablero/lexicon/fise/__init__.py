"""The FISE-2 lexicon built from the federation's own distribution.

The federation (FISE) publishes its official Spanish lexicon as plain lists of lemmas: every
verb with its conjugation model, every non-verb without its plural, the two- and three-tile
words, and the updates from the previous edition, with a rule book that says how the lemmas
are inflected. This package reads those files (``distribution.py``), inflects them by the rule
book (``conjugation.py`` for verbs, ``plurals.py`` for nouns and adjectives) and gives every
playable form (``build.py``). The rules are written out in ``docs/fise-lexicon.md`` and
``docs/fise-conjugation.md``. The lists themselves never ship with tablero: a club that has
them installs them (``tablero lexicon add``).
"""
