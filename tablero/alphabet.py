"""The letters of a language as tiles.

A tile game does not spell with characters but with tiles. In the Spanish games CH, LL and RR
are single tiles, so CHILLAR is five tiles (CH I LL A R), and a word that contains CH must be
spelled with the CH tile. This module turns text into tiles and back, and folds accents the way
each language's word games do (Spanish keeps Ñ; Romanian drops every diacritic).

An alphabet is data: ``tablero/data/alphabets/<code>.toml`` (es, ro, en, ca, pt, fr, it, de,
nl, pl) or an ``[alphabet]`` table in a rule file, both specified in docs/formats.md
("Alphabet files"). Tiles are plain strings ("A", "CH", "Ñ", "L·L"). Each also has a code,
1..N in alphabetical order, for the compact structures (word graphs, move generators) that want
small integers; code 0 is reserved, as in the KWG word-graph format.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

__all__ = [
    "ROMANIAN",
    "SHIPPED_ALPHABETS",
    "SPANISH",
    "Alphabet",
    "AlphabetError",
    "SpellingError",
    "alphabet_by_name",
    "alphabet_from_table",
]


class SpellingError(ValueError):
    """Text that cannot be written with the tiles of an alphabet."""


class AlphabetError(ValueError):
    """An alphabet description (a data file or a rule file's ``[alphabet]``) that is malformed."""


@dataclass(frozen=True)
class Alphabet:
    """The tiles of one language, in alphabetical order, and how text maps onto them.

    ``keep`` lists the accented capitals that are letters of their own (Ñ in Spanish) and must
    survive accent folding; every other accent is dropped. ``folds`` rewrite what the accent
    rule cannot (ß → SS, Œ → OE), longest first, before it applies.
    """

    name: str
    letters: tuple[str, ...]
    keep: frozenset[str] = field(default_factory=frozenset)
    folds: tuple[tuple[str, str], ...] = ()
    vowels: frozenset[str] = frozenset("AEIOU")
    title: str = ""

    def __post_init__(self) -> None:
        if not self.letters:
            raise AlphabetError(f"alphabet {self.name}: no letters")
        if len(self.letters) > 63:
            raise AlphabetError(
                f"alphabet {self.name}: {len(self.letters)} letters, at most 63 (a tile code "
                "has six bits in the word-graph format)"
            )
        twice = sorted({t for t in self.letters if self.letters.count(t) > 1})
        if twice:
            raise AlphabetError(f"alphabet {self.name}: {', '.join(twice)} listed twice")
        for tile in self.letters:
            if not tile or tile != tile.upper() or any(c.isspace() for c in tile):
                raise AlphabetError(
                    f"alphabet {self.name}: {tile!r} is not a tile (capital letters, no spaces)"
                )
            if tile in ("?", "[", "]", ".", "/"):
                raise AlphabetError(
                    f"alphabet {self.name}: {tile!r} is notation (blank, digraph brackets, a "
                    "played-through square), not a letter"
                )

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
        """Whether a tile is one of the alphabet's vowels (its data file lists them); digraphs
        and the blank are not. Players count their vowels so (the unseen-tiles panel)."""
        return tile.upper() in self.vowels

    def sort_key(self, letter: str) -> int:
        """Alphabetical rank of a tile (CH after C, Ñ after N)."""
        return self.code(letter)

    # -- text to tiles ------------------------------------------------------------------------

    def normalize(self, text: str) -> str:
        """Uppercase with accents folded as the language's word games do (Á→A, Ș→S, Ñ kept)."""
        text = unicodedata.normalize("NFC", text.strip().upper())
        for written, tiles in self.folds:
            text = text.replace(written, tiles)
        out: list[str] = []
        for ch in text:
            if ch in self.keep:
                out.append(ch)
                continue
            base = unicodedata.normalize("NFD", ch)
            out.append("".join(c for c in base if not unicodedata.combining(c)))
        return unicodedata.normalize("NFC", "".join(out))

    def is_normal(self, text: str) -> bool:
        """Whether text is already uppercase letters of this alphabet (skips slow folding)."""
        return _plain_pattern(self).fullmatch(text) is not None

    def tokenize(self, word: str) -> list[str]:
        """Split a word into tiles, digraphs greedily: CHILLAR → [CH, I, LL, A, R].

        Greedy is right for the Spanish and Catalan sets: a word that contains CH, LL or RR
        (L·L, NY, QU) must be spelled with that tile. Raises SpellingError naming the first
        character that is no tile.
        """
        if self.is_normal(word):
            found: list[str] = _tile_pattern(self).findall(word)
            if sum(map(len, found)) == len(word):
                return found  # else a character only occurs inside a digraph (Y of NY)
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
    parts = [re.escape(d) for d in alphabet.digraphs] + [
        "[" + "".join(map(re.escape, singles)) + "]"
    ]
    return re.compile("|".join(parts))


@cache
def _plain_pattern(alphabet: Alphabet) -> re.Pattern[str]:
    chars = sorted({ch for t in alphabet.letters for ch in t})
    return re.compile("[" + "".join(map(re.escape, chars)) + "]+")


@cache
def _codes(alphabet: Alphabet) -> dict[str, int]:
    return {letter: i + 1 for i, letter in enumerate(alphabet.letters)}


SHIPPED_ALPHABETS = ("es", "ro", "en", "ca", "pt", "fr", "it", "de", "nl", "pl")
"""The languages whose alphabet ships as ``tablero/data/alphabets/<code>.toml``."""


def alphabet_from_table(table: Mapping[str, Any], name: str | None = None) -> Alphabet:
    """An alphabet from its description: a data file's keys, or a rule file's ``[alphabet]``.

    ``letters`` (required), ``vowels`` (default: those of A E I O U it has) and ``keep`` are
    tiles separated by spaces, ``folds`` a table of written text to tiles; ``name`` defaults
    to the table's (a rule file passes its language). Raises AlphabetError naming the key
    that is wrong.
    """
    known = {"name", "title", "letters", "vowels", "keep", "folds"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise AlphabetError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")
    label = name or table.get("name")
    if not isinstance(label, str) or not label:
        raise AlphabetError("name: expected the language code, such as 'en'")

    def tiles(key: str, default: str = "") -> tuple[str, ...]:
        value = table.get(key, default)
        if not isinstance(value, str):
            raise AlphabetError(f"{key}: expected tiles separated by spaces, got {value!r}")
        return tuple(unicodedata.normalize("NFC", t).upper() for t in value.split())

    letters = tiles("letters")
    if not letters:
        raise AlphabetError("letters: expected the tiles in alphabetical order, such as 'A B C'")
    folds = table.get("folds", {})
    if not isinstance(folds, Mapping) or not all(
        isinstance(k, str) and k and isinstance(v, str) for k, v in folds.items()
    ):
        raise AlphabetError('folds: expected a table of text = tiles, such as "Œ" = "OE"')
    pairs = {unicodedata.normalize("NFC", k).upper(): v.upper() for k, v in folds.items()}
    ordered = tuple(
        sorted(((k, v) for k, v in pairs.items() if k != v), key=lambda kv: -len(kv[0]))
    )
    title = table.get("title", label)
    if not isinstance(title, str):
        raise AlphabetError(f"title: expected text, got {title!r}")
    alphabet = Alphabet(name=label, letters=letters, folds=ordered, title=title)
    vowels = tiles("vowels") if "vowels" in table else tuple(v for v in "AEIOU" if v in letters)
    for key, group in (("vowels", vowels), ("keep", tiles("keep"))):
        strangers = [t for t in group if t not in letters]
        if strangers:
            raise AlphabetError(f"{key}: {', '.join(strangers)} not among the letters")
    return replace(alphabet, keep=frozenset(tiles("keep")), vowels=frozenset(vowels))


@cache
def alphabet_by_name(name: str) -> Alphabet:
    """The shipped alphabet of a language code (``es``, ``ro``, ``en``…)."""
    if name not in SHIPPED_ALPHABETS:
        known = ", ".join(sorted(SHIPPED_ALPHABETS))
        raise AlphabetError(
            f"no alphabet for language {name!r} (shipped: {known}); a rule file may define "
            "its own in an [alphabet] table"
        )
    data = resources.files("tablero") / "data" / "alphabets" / f"{name}.toml"
    try:
        return alphabet_from_table(tomllib.loads(data.read_text("utf-8")))
    except (OSError, tomllib.TOMLDecodeError, AlphabetError) as e:
        raise AlphabetError(f"alphabets/{name}.toml: {e}") from None


SPANISH = alphabet_by_name("es")
ROMANIAN = alphabet_by_name("ro")
