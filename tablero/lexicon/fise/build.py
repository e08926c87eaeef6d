"""Every playable form of the FISE-2 lexicon, from its distribution's lists.

The steps, in order (``docs/fise-lexicon.md`` gives each rule and its examples):

1. every verb entry conjugated by its model, valency and marks (``conjugation.py``);
2. every non-verb lemma, and its feminine where the entry gives one, with the update's
   additions (the total list lacks one of them);
3. the plurals of the lemmas that take one (``plurals.py``): a lemma takes a plural unless the
   rule book names it, the update lists it as invariable, or it is an adverb in *-mente*. The
   federation's lists carry no grammatical category, so a lemma whose category has no plural
   (an adverb, a preposition, an interjection) gets the plural its spelling would take when
   neither the rule book nor the update says otherwise; ``no_plural`` lets a caller name more
   such words;
4. the update's words that are new only in the plural, and its removed plurals taken out
   (unless a verb gives the same letters);
5. the forms spelled with the game's tiles (accents folded, CH/LL/RR one tile), K and W words
   left out (rule book, section 11), at most 15 tiles;
6. the two- and three-tile words replaced by the federation's own complete lists of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ...alphabet import Alphabet, SpellingError
from .. import LexiconError
from .conjugation import ConjugationError, parse_verb_line, verb_forms
from .distribution import Distribution
from .plurals import plurals

__all__ = ["FiseLexiconBuild", "build_forms"]

MAX_TILES = 15
"""The lexicon holds words of two to fifteen tiles (the board's width)."""


@dataclass
class FiseLexiconBuild:
    """The forms of one build and what each step contributed (for the docs and the log)."""

    words: list[str]
    """Every form, spelled in the alphabet's normal form, sorted."""
    steps: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def build_forms(
    distribution: Distribution,
    alphabet: Alphabet,
    *,
    no_plural: frozenset[str] = frozenset(),
    progress: Callable[[str], None] | None = None,
) -> FiseLexiconBuild:
    """Inflect the distribution by the rule book; LexiconError names a line that cannot be
    read. ``no_plural``: lemmas known to have no plural, besides those the lists name."""
    started = time.perf_counter()
    say = progress or (lambda _what: None)
    steps: dict[str, int] = {}

    say("conjugating the verbs")
    verb_words: set[str] = set()
    for conjugation, number, line in distribution.verb_lines:
        try:
            entry = parse_verb_line(line, conjugation)
            verb_words |= verb_forms(entry)
        except ConjugationError as e:
            where = distribution.files.get("verbs", "the verb list")
            raise LexiconError(f"{where}, line {number}: {e}") from None
    steps["verb forms"] = len(verb_words)

    say("inflecting the nouns and adjectives")
    updates = distribution.non_verb_updates
    lemmas: set[str] = set()
    plural_words: set[str] = set()
    # The update's additions count even when the total list lacks one (it lacks
    # broncodilatador, an addition variable in number).
    listed = [lemma for entry in distribution.non_verbs for lemma in entry.forms]
    for lemma in [*listed, *sorted(updates.variable | updates.invariable)]:
        if lemma in lemmas:
            continue
        lemmas.add(lemma)
        forms = plurals(lemma)
        if forms and _takes_plural(lemma, updates.variable, updates.invariable | no_plural):
            plural_words.update(forms)
    steps["non-verb lemmas"] = len(lemmas)
    steps["plurals"] = len(plural_words - lemmas)

    words = verb_words | lemmas | plural_words | set(updates.plural_only)
    removed = {w for w in updates.removed_plurals if w not in verb_words}
    words -= removed
    steps["plurals removed by the update"] = len(removed)

    say("spelling the forms with the game's tiles")
    spelled = _spelled(words, alphabet)
    short = _spelled(distribution.two_tiles | distribution.three_tiles, alphabet)
    generated_short = {w for w in spelled if len(alphabet.tokenize(w)) <= 3}
    steps["short words generated, not in the official lists"] = len(generated_short - short)
    steps["short words in the official lists, not generated"] = len(short - generated_short)
    final = (spelled - generated_short) | short
    steps["words"] = len(final)
    return FiseLexiconBuild(sorted(final), steps, time.perf_counter() - started)


def _takes_plural(lemma: str, variable: frozenset[str], invariable: frozenset[str]) -> bool:
    """Whether a lemma with a plural by its spelling takes it: the update's lists first."""
    if lemma in invariable:
        return False
    if lemma in variable:
        return True
    return not (lemma.endswith("mente") and len(lemma) > 6)  # adverbs (sections 2, 18.2.1)


def _spelled(words: Iterable[str], alphabet: Alphabet) -> set[str]:
    """The forms in the alphabet's spelling, K/W and over-long forms left out."""
    out: set[str] = set()
    for word in words:
        if "k" in word or "w" in word:
            continue
        try:
            tiles = alphabet.tokenize(word)
        except SpellingError as e:
            raise LexiconError(
                f"the form {word!r} cannot be spelled with the game's tiles: {e}"
            ) from None
        if 2 <= len(tiles) <= MAX_TILES:
            out.add("".join(tiles))
    return out
