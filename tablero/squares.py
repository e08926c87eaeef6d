"""Square kinds: what a premium square does to the score of the words through it.

A rule file names a kind for every square code it uses::

    [squares]
    "2L"  = { kind = "letter", factor = 2 }      # the new tile's value ×2 in every word
    "3W"  = { kind = "word", factor = 3 }        # every word through the new tile ×3
    "4W"  = { kind = "word_end", factor = 4 }    # ×4, but only for a word that starts or ends here
    "+10" = { kind = "word_add", amount = 10 }   # added to each word after multiplication
    "EX"  = { kind = "shuffle_next_rack", min_bag = 7 }   # no points; shuffles a rack

Premiums act only on the turn a tile first covers the square; the scorer asks a kind only about
newly placed tiles. Each kind answers three questions: the factor for the tile's letter, the
factor and the addend for a word through it (which may depend on whether the square is at one
of the word's ends), and whether covering it shuffles the next player's rack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "PLAIN",
    "LetterPremium",
    "ShuffleNextRack",
    "SquareKind",
    "WordAddend",
    "WordEndPremium",
    "WordPremium",
    "square_colour",
    "square_kind",
]


@dataclass(frozen=True)
class SquareKind:
    """A plain square: no effect. The base of every kind."""

    code: str = "."

    kind_name = "plain"

    def letter_factor(self) -> int:
        return 1

    def word_effect(self, at_word_end: bool) -> tuple[int, int]:
        """(factor, addend) for a word through a new tile here; at_word_end: first or last."""
        return 1, 0

    @property
    def shuffles_next_rack(self) -> bool:
        return False

    def describe(self) -> str:
        return "plain square"

    def spec(self) -> dict[str, Any]:
        """The TOML table that defines this kind (round-trips through ``square_kind``)."""
        return {"kind": self.kind_name}


@dataclass(frozen=True)
class LetterPremium(SquareKind):
    factor: int = 2
    kind_name = "letter"

    def letter_factor(self) -> int:
        return self.factor

    def describe(self) -> str:
        return f"letter ×{self.factor}"

    def spec(self) -> dict[str, Any]:
        return {"kind": self.kind_name, "factor": self.factor}


@dataclass(frozen=True)
class WordPremium(SquareKind):
    factor: int = 2
    kind_name = "word"

    def word_effect(self, at_word_end: bool) -> tuple[int, int]:
        return self.factor, 0

    def describe(self) -> str:
        return f"word ×{self.factor}"

    def spec(self) -> dict[str, Any]:
        return {"kind": self.kind_name, "factor": self.factor}


@dataclass(frozen=True)
class WordEndPremium(SquareKind):
    """Cuvinte în Cutie's 4W: multiplies a word only if the word starts or ends on it."""

    factor: int = 4
    kind_name = "word_end"

    def word_effect(self, at_word_end: bool) -> tuple[int, int]:
        return (self.factor, 0) if at_word_end else (1, 0)

    def describe(self) -> str:
        return f"word ×{self.factor} if the word starts or ends here"

    def spec(self) -> dict[str, Any]:
        return {"kind": self.kind_name, "factor": self.factor}


@dataclass(frozen=True)
class WordAddend(SquareKind):
    """Letras Top's +10 and −5: added to the word after all multiplication."""

    amount: int = 10
    kind_name = "word_add"

    def word_effect(self, at_word_end: bool) -> tuple[int, int]:
        return 1, self.amount

    def describe(self) -> str:
        return f"{self.amount:+d} to the word, after multiplying"

    def spec(self) -> dict[str, Any]:
        return {"kind": self.kind_name, "amount": self.amount}


@dataclass(frozen=True)
class ShuffleNextRack(SquareKind):
    """Cuvinte în Cutie's EX: the next opponent's rack is exchanged with the bag at random,
    unless the bag then holds fewer than ``min_bag`` tiles. No points."""

    min_bag: int = 7
    kind_name = "shuffle_next_rack"

    @property
    def shuffles_next_rack(self) -> bool:
        return True

    def describe(self) -> str:
        return f"shuffles the next player's rack (if the bag has {self.min_bag}+ tiles)"

    def spec(self) -> dict[str, Any]:
        return {"kind": self.kind_name, "min_bag": self.min_bag}


PLAIN = SquareKind()

_KINDS: dict[str, tuple[type[SquareKind], str | None]] = {
    "letter": (LetterPremium, "factor"),
    "word": (WordPremium, "factor"),
    "word_end": (WordEndPremium, "factor"),
    "word_add": (WordAddend, "amount"),
    "shuffle_next_rack": (ShuffleNextRack, "min_bag"),
}


_COLOURS = {
    ("letter", 2): "#a8d8ea",
    ("letter", 3): "#3f8fc4",
    ("word", 2): "#f4b6c2",
    ("word", 3): "#e0474c",
    ("word_end", 4): "#8e2c48",
}


def square_colour(kind: SquareKind) -> str:
    """The colour a board drawing gives a square of this kind (the web app, reports): the
    classic light and dark blues and pinks and reds, gold or grey for +N/−N, green for EX."""
    spec = kind.spec()
    name = spec["kind"]
    if name == "shuffle_next_rack":
        return "#4caf50"
    if name == "word_add":
        return "#f2c94c" if spec["amount"] >= 0 else "#9e9e9e"
    factor = spec.get("factor", 1)
    return _COLOURS.get((name, factor)) or _COLOURS.get((name, min(factor, 3)), "#d0d0d0")


def square_kind(code: str, spec: dict[str, Any]) -> SquareKind:
    """Build a square kind from its rule-file table; ValueError says what is wrong."""
    name = spec.get("kind")
    if name not in _KINDS:
        raise ValueError(f"kind must be one of {', '.join(_KINDS)}, got {name!r}")
    cls, param = _KINDS[name]
    extra = set(spec) - {"kind", param}
    if extra:
        raise ValueError(f"unknown key(s) {', '.join(sorted(extra))} for kind {name!r}")
    if param is None or param not in spec:
        raise ValueError(f"kind {name!r} needs {param!r}")
    value = spec[param]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{param} must be a whole number, got {value!r}")
    if param == "factor" and value < 1:
        raise ValueError(f"factor must be at least 1, got {value}")
    return cls(code, value)  # type: ignore[call-arg]
