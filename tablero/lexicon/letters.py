"""Letter tables: which tile code stands for which letter in a KWG file.

A KWG node stores a tile *code*, not a letter, so a graph file means nothing without the table
that numbers its letters. Engines agree on the node layout but not always on the numbering: our
Spanish alphabet has K and W (RLA-ES lists words such as KIWI, and a club may play with a set
that has those tiles), so CH is 4 and LL is 14 here, while the engines that number only the 28
tiles of the FISE set (wolges' Spanish alphabet, and the files made for it) have LL at 13.
Read with the wrong table, the same file spells different words.

So every graph we write records its table in the ``.kwg.json`` sidecar (``letters``), a
foreign file gets one with ``tablero lexicon import``, and loading a graph whose table differs
from the language's alphabet renumbers its nodes once, in memory. Labels are tiles as our
alphabets write them (``CH``, ``Ñ``); code 0 is the blank / no tile, as in the format.
"""

from __future__ import annotations

import array
from dataclasses import dataclass
from pathlib import Path

from ..alphabet import ROMANIAN, SPANISH, Alphabet
from .kwg import ACCEPTS_FLAG, ARC_INDEX_MASK, IS_END_FLAG, TILE_SHIFT

__all__ = [
    "BUILTIN_TABLES",
    "LetterTable",
    "LetterTableError",
    "letter_table",
    "remap_nodes",
]


class LetterTableError(ValueError):
    """A letter table that is malformed, unknown, or does not fit the alphabet it is used with."""


@dataclass(frozen=True)
class LetterTable:
    """The letters of tile codes 1..N, in code order."""

    name: str
    labels: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.labels:
            raise LetterTableError(f"letter table {self.name}: no letters")
        if len(self.labels) > 63:
            raise LetterTableError(f"letter table {self.name}: more than 63 letters")
        if len(set(self.labels)) != len(self.labels):
            raise LetterTableError(f"letter table {self.name}: a letter is listed twice")

    @classmethod
    def of(cls, alphabet: Alphabet) -> LetterTable:
        """The table our own alphabet numbers its tiles by (code = alphabetical rank)."""
        return cls(f"tablero-{alphabet.name}", alphabet.letters)

    def codes_from(self, alphabet: Alphabet) -> dict[int, int]:
        """For each of the alphabet's codes this table also has, that letter's code here."""
        index = {label: i + 1 for i, label in enumerate(self.labels)}
        return {
            code: index[letter]
            for code, letter in enumerate(alphabet.letters, start=1)
            if letter in index
        }

    def codes_to(self, alphabet: Alphabet) -> dict[int, int]:
        """Each code of this table mapped to the alphabet's code for the same letter.

        Raises ``LetterTableError`` naming the letters the alphabet does not have: a graph
        spelling them could never be played with that language's tiles.
        """
        missing = [label for label in self.labels if not alphabet.is_letter(label)]
        if missing:
            raise LetterTableError(
                f"letter table {self.name} has letters the {alphabet.name} alphabet lacks: "
                + ", ".join(missing)
            )
        return {i + 1: alphabet.code(label) for i, label in enumerate(self.labels)}


FISE = LetterTable(
    "fise",
    tuple(letter for letter in SPANISH.letters if letter not in ("K", "W")),
)
"""The 28 tiles of the FISE Spanish set, numbered in order: the numbering of wolges' Spanish
alphabet (A=1, CH=4, LL=13, Ñ=16, RR=21, Z=28)."""

ENGLISH = LetterTable("english", tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
"""A..Z = 1..26, the numbering of English and of diacritic-free Latin alphabets."""

BUILTIN_TABLES: dict[str, LetterTable] = {
    t.name: t for t in (LetterTable.of(SPANISH), LetterTable.of(ROMANIAN), FISE, ENGLISH)
}


def letter_table(spec: str | list[str] | tuple[str, ...]) -> LetterTable:
    """A table by name (``fise``, ``tablero-es``…), from a file of labels, or from a label list.

    A file has one label per line for codes 1, 2, …; blank lines and ``#`` comments are skipped.
    """
    if isinstance(spec, (list, tuple)):
        return LetterTable("custom", tuple(str(x).strip().upper() for x in spec))
    if spec in BUILTIN_TABLES:
        return BUILTIN_TABLES[spec]
    path = Path(spec)
    if not path.is_file():
        raise LetterTableError(
            f"unknown letter table {spec!r}: give one of {', '.join(BUILTIN_TABLES)} "
            "or a file with one letter per line"
        )
    try:
        lines = path.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise LetterTableError(f"{path}: cannot read the letter table ({e})") from None
    labels = tuple(
        line.strip().upper() for line in lines if line.strip() and not line.startswith("#")
    )
    return LetterTable(path.name, labels)


def remap_nodes(nodes: array.array[int], mapping: dict[int, int]) -> array.array[int]:
    """A copy of KWG nodes with every tile code ``c`` replaced by ``mapping[c]``.

    The mapping must preserve order (it does between alphabetical numberings of the same
    letters), because readers rely on sibling lists being sorted by tile. Code 0 (the root
    pointers and the GADDAG separator) is kept.
    """
    codes = sorted(mapping)
    if [mapping[c] for c in codes] != sorted(mapping[c] for c in codes):
        raise LetterTableError("the two numberings order the letters differently")
    shifted = [-1] * 256
    shifted[0] = 0
    for old, new in mapping.items():
        shifted[old] = new << TILE_SHIFT
    keep = ARC_INDEX_MASK | ACCEPTS_FLAG | IS_END_FLAG
    out = array.array(nodes.typecode, nodes)
    for i, node in enumerate(nodes):
        tile = node >> TILE_SHIFT
        if shifted[tile] < 0:
            raise LetterTableError(f"node {i} has tile code {tile}, which the table does not have")
        out[i] = (node & keep) | shifted[tile]
    return out
