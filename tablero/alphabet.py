"""The letters of a language as tiles.

A tile game does not spell with characters but with tiles. In the Spanish games CH, LL and RR
are single tiles, so CHILLAR is five tiles (CH I LL A R), and a word that contains CH must be
spelled with the CH tile. This module turns text into tiles and back, and folds accents the way
each language's word games do (Spanish keeps Ñ; Romanian drops every diacritic).

Tiles are plain strings ("A", "CH", "Ñ"). Each also has a code, 1..N in alphabetical order,
for the compact structures (word graphs, move generators) that want small integers; code 0 is
reserved, as in the KWG word-graph format.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache

__all__ = ["ROMANIAN", "SPANISH", "Alphabet", "SpellingError", "alphabet_by_name"]


class SpellingError(ValueError):
    """Text that cannot be written with the tiles of an alphabet."""


@dataclass(frozen=True)
class Alphabet:
    """The tiles of one language, in alphabetical order, and how text maps onto them.

    ``keep`` lists the accented capitals that are letters of their own (Ñ in Spanish) and must
    survive accent folding; every other accent is dropped.
    """

    name: str
    letters: tuple[str, ...]
    keep: frozenset[str] = field(default_factory=frozenset)
    extra_folds: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if len(set(self.letters)) != len(self.letters):
            raise ValueError(f"alphabet {self.name}: a letter is listed twice")

    # -- letters and codes -------------------------------------------------------------------

    @property
    def digraphs(self) -> tuple[str, ...]:
        """Tiles written with more than one character, longest first (the tokeniser's order)."""
        return tuple(sorted((t for t in self.letters if len(t) > 1), key=len, reverse=True))

    def code(self, letter: str) -> int:
        """The tile code of a letter, 1..N; raises SpellingError for a letter not in the set."""
        try:
            return _codes(self)[letter.upper()]
        except KeyError:
            raise SpellingError(f"{letter!r} is not a letter of the {self.name} alphabet") from None

    def letter(self, code: int) -> str:
        """The letter of a tile code."""
        if not 1 <= code <= len(self.letters):
            raise SpellingError(f"{code} is not a tile code of the {self.name} alphabet")
        return self.letters[code - 1]

    def is_letter(self, letter: str) -> bool:
        return letter.upper() in _codes(self)

    def is_vowel(self, tile: str) -> bool:
        """A, E, I, O, U with or without accents (Ă, Â, Î in Romanian); digraphs and the blank
        are not. Players count their vowels so (the unseen-tiles panel, rack balance)."""
        if len(tile) != 1:
            return False
        base = unicodedata.normalize("NFD", tile.upper())[0]
        return base in "AEIOU"

    def sort_key(self, letter: str) -> int:
        """Alphabetical rank of a tile (CH after C, Ñ after N)."""
        return self.code(letter)

    # -- text to tiles ------------------------------------------------------------------------

    def normalize(self, text: str) -> str:
        """Uppercase with accents folded as the language's word games do (Á→A, Ș→S, Ñ kept)."""
        out: list[str] = []
        for ch in text.strip().upper():
            if ch in self.keep:
                out.append(ch)
                continue
            folded = dict(self.extra_folds).get(ch)
            if folded is not None:
                out.append(folded)
                continue
            base = unicodedata.normalize("NFD", ch)
            out.append("".join(c for c in base if not unicodedata.combining(c)))
        return unicodedata.normalize("NFC", "".join(out))

    def is_normal(self, text: str) -> bool:
        """Whether text is already uppercase letters of this alphabet (skips slow folding)."""
        return _plain_pattern(self).fullmatch(text) is not None

    def tokenize(self, word: str) -> list[str]:
        """Split a word into tiles, digraphs greedily: CHILLAR → [CH, I, LL, A, R].

        Greedy is right for the Spanish sets: a word that contains CH, LL or RR must be spelled
        with that tile. Raises SpellingError naming the first character that is no tile.
        """
        if self.is_normal(word):
            return _tile_pattern(self).findall(word)
        text = self.normalize(word)
        tiles: list[str] = []
        i = 0
        digraphs = self.digraphs
        while i < len(text):
            for d in digraphs:
                if text.startswith(d, i):
                    tiles.append(d)
                    i += len(d)
                    break
            else:
                ch = text[i]
                if ch not in _codes(self):
                    raise SpellingError(
                        f"{word!r}: {ch!r} is not a letter of the {self.name} alphabet"
                    )
                tiles.append(ch)
                i += 1
        return tiles

    def join(self, tiles: list[str] | tuple[str, ...]) -> str:
        """Tiles back to text: [CH, I, LL, A, R] → CHILLAR."""
        return "".join(tiles)

    def is_canonical(self, tiles: list[str] | tuple[str, ...]) -> bool:
        """True if these tiles are how the word must be spelled (C+H where CH exists is not)."""
        return list(tiles) == self.tokenize(self.join(tiles))

    def encode(self, word: str) -> bytes:
        """A word as tile codes, one byte each: the compact form for graphs and sets."""
        codes = _codes(self)
        return bytes(codes[t] for t in self.tokenize(word))

    def decode(self, codes: bytes | list[int] | tuple[int, ...]) -> str:
        return "".join(self.letter(c) for c in codes)


@cache
def _tile_pattern(alphabet: Alphabet) -> re.Pattern[str]:
    """Digraphs first, then single letters: findall() is the greedy tokenisation."""
    singles = [t for t in alphabet.letters if len(t) == 1]
    parts = [re.escape(d) for d in alphabet.digraphs] + ["[" + "".join(singles) + "]"]
    return re.compile("|".join(parts))


@cache
def _plain_pattern(alphabet: Alphabet) -> re.Pattern[str]:
    chars = sorted({ch for t in alphabet.letters for ch in t})
    return re.compile("[" + "".join(chars) + "]+")


@cache
def _codes(alphabet: Alphabet) -> dict[str, int]:
    return {letter: i + 1 for i, letter in enumerate(alphabet.letters)}


SPANISH = Alphabet(
    name="es",
    letters=(
        "A",
        "B",
        "C",
        "CH",
        "D",
        "E",
        "F",
        "G",
        "H",
        "I",
        "J",
        "K",
        "L",
        "LL",
        "M",
        "N",
        "Ñ",
        "O",
        "P",
        "Q",
        "R",
        "RR",
        "S",
        "T",
        "U",
        "V",
        "W",
        "X",
        "Y",
        "Z",
    ),
    keep=frozenset({"Ñ"}),
)

ROMANIAN = Alphabet(
    name="ro",
    letters=tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    # Cedilla forms are common in older Romanian text; NFD folds them too, listed for clarity.
    extra_folds=(("Ş", "S"), ("Ţ", "T")),
)

_ALPHABETS = {a.name: a for a in (SPANISH, ROMANIAN)}


def alphabet_by_name(name: str) -> Alphabet:
    """The alphabet of a language code (``es``, ``ro``)."""
    try:
        return _ALPHABETS[name]
    except KeyError:
        known = ", ".join(sorted(_ALPHABETS))
        raise ValueError(f"unknown alphabet {name!r} (known: {known})") from None
