"""Duplicate's rack rule: how each round's shared rack is drawn.

In duplicate one rack serves every player, so a rack of seven consonants spoils a round for the
whole room. The rule file's ``[duplicate]`` table (``variant.DuplicateRules``) sets a minimum of
vowels and consonants per rack, one up to a stated round and another after it, and how a blank
counts. Vowels are the alphabet's (``tablero/data/alphabets/*.toml``: A E I O U in Spanish and
Romanian); every other letter is a consonant, so the digraph tiles CH, LL, RR and Ñ are.

Drawing, as a duplicate arbiter does at the table (docs/competition.md, "The rack"):

1. The pool is what is left of the rack after the top (the leave) plus the bag. A rack holds
   ``rack_size`` tiles, or the whole pool when it has fewer. If no rack of that size drawn
   from the pool could meet the minimum, the game is over: nothing is drawn.
2. The leave stays and the rack is filled from the bag. If it meets the minimum, that is the
   rack.
3. Otherwise the whole rack goes back to the bag and a full rack is drawn afresh, again and
   again, until one meets the minimum (step 1 made sure one can).

An EX square (Cuvinte) covered by the top skips step 2: the leave goes back first.

Tiles come out of the bag as ``Game`` draws them (a uniformly random index, swapped with the
last tile and popped; returned tiles appended), from a ``random.Random`` the caller seeds, so
the same seed draws the same racks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..alphabet import Alphabet
from ..variant import BLANK, BlankCount, DuplicateRules

__all__ = ["DrawRule", "RackCount", "count_tiles", "meets_minimum"]

MAX_REDRAWS = 100_000
"""Whole-rack redraws before giving up. Unreachable in practice: once step 1 has found that a
conforming rack exists, each redraw finds one with a probability of at least about 1 in 300
for a 100-tile bag (two vowels left among a hundred tiles)."""


@dataclass(frozen=True)
class RackCount:
    """Vowels, consonants and blanks among some tiles."""

    vowels: int
    consonants: int
    blanks: int


def count_tiles(tiles: Iterable[str], alphabet: Alphabet) -> RackCount:
    """Count a rack (or a pool) by the alphabet's vowels; a blank is neither, here."""
    vowels = consonants = blanks = 0
    for t in tiles:
        if t == BLANK:
            blanks += 1
        elif alphabet.is_vowel(t):
            vowels += 1
        else:
            consonants += 1
    return RackCount(vowels, consonants, blanks)


def meets_minimum(count: RackCount, vowels: int, consonants: int, blanks: BlankCount) -> bool:
    """Whether a rack with these counts has ``vowels`` vowels and ``consonants`` consonants,
    blanks counting as ``blanks`` says (``either``: each blank fills whichever is short)."""
    v, c = count.vowels, count.consonants
    if blanks == "vowel":
        v += count.blanks
    elif blanks == "consonant":
        c += count.blanks
    elif blanks == "either":
        return max(0, vowels - v) + max(0, consonants - c) <= count.blanks
    return v >= vowels and c >= consonants


class DrawRule:
    """The rack rule of one rule set: checks racks and draws them (see the module's text)."""

    def __init__(self, rules: DuplicateRules, alphabet: Alphabet, rack_size: int) -> None:
        self.rules = rules
        self.alphabet = alphabet
        self.rack_size = rack_size

    def minimum(self, round_number: int) -> tuple[int, int]:
        """(vowels, consonants) a rack of this round needs."""
        return self.rules.minimum(round_number)

    def accepts(self, rack: Sequence[str], round_number: int) -> bool:
        """Whether a rack meets the minimum of its round."""
        vowels, consonants = self.minimum(round_number)
        return meets_minimum(
            count_tiles(rack, self.alphabet), vowels, consonants, self.rules.blanks
        )

    def possible(self, pool: Sequence[str], round_number: int) -> bool:
        """Whether some rack drawn from ``pool`` (a full rack, or the whole pool when it holds
        fewer tiles) meets the round's minimum. An empty pool gives no rack at all."""
        size = min(self.rack_size, len(pool))
        if size == 0:
            return False
        have = count_tiles(pool, self.alphabet)
        vowels, consonants = self.minimum(round_number)
        for v in range(min(have.vowels, size) + 1):
            for b in range(min(have.blanks, size - v) + 1):
                c = size - v - b
                if c <= have.consonants and meets_minimum(
                    RackCount(v, c, b), vowels, consonants, self.rules.blanks
                ):
                    return True
        return False

    def draw(
        self,
        leave: Sequence[str],
        bag: list[str],
        rng: random.Random,
        round_number: int,
        keep_leave: bool = True,
    ) -> list[str] | None:
        """The rack of ``round_number``, drawn from ``bag`` (changed in place) around
        ``leave``; None, with the bag untouched, when no rack can meet the minimum."""
        if not self.possible([*leave, *bag], round_number):
            return None
        size = min(self.rack_size, len(leave) + len(bag))
        if keep_leave:
            rack = [*leave, *_draw(bag, rng, size - len(leave))]
            if self.accepts(rack, round_number):
                return rack
        else:
            rack = list(leave)
        for _ in range(MAX_REDRAWS):
            bag.extend(rack)
            rack = _draw(bag, rng, size)
            if self.accepts(rack, round_number):
                return rack
        raise RuntimeError(f"no rack met the minimum in {MAX_REDRAWS} draws")  # pragma: no cover


def _draw(bag: list[str], rng: random.Random, n: int) -> list[str]:
    """``n`` tiles from the bag (fewer if it holds fewer), as ``Game`` draws them."""
    out = []
    for _ in range(min(n, len(bag))):
        i = rng.randrange(len(bag))
        bag[i], bag[-1] = bag[-1], bag[i]
        out.append(bag.pop())
    return out
