"""Letters as tiles: digraphs, accents, codes."""

from __future__ import annotations

import pytest

from tablero.alphabet import ROMANIAN, SPANISH, SpellingError


@pytest.mark.parametrize(
    ("word", "tiles"),
    [
        ("CHILLAR", ["CH", "I", "LL", "A", "R"]),
        ("perro", ["P", "E", "RR", "O"]),
        ("ñandú", ["Ñ", "A", "N", "D", "U"]),
        ("pingüino", ["P", "I", "N", "G", "U", "I", "N", "O"]),
        ("Lápices", ["L", "A", "P", "I", "C", "E", "S"]),
    ],
)
def test_spanish_tokenize(word: str, tiles: list[str]) -> None:
    assert SPANISH.tokenize(word) == tiles
    assert SPANISH.join(SPANISH.tokenize(word)) == SPANISH.normalize(word)


def test_romanian_folds_every_diacritic() -> None:
    assert ROMANIAN.normalize("Împărțită ştiinţă ȘȚ") == "IMPARTITA STIINTA ST"
    assert ROMANIAN.tokenize("casă") == ["C", "A", "S", "A"]


def test_codes_round_trip_and_order() -> None:
    assert SPANISH.decode(SPANISH.encode("CHILLAR")) == "CHILLAR"
    assert SPANISH.code("C") < SPANISH.code("CH") < SPANISH.code("D")
    assert SPANISH.code("N") < SPANISH.code("Ñ") < SPANISH.code("O")
    assert len(SPANISH.letters) == 30 and len(ROMANIAN.letters) == 26


def test_canonical_spelling() -> None:
    assert SPANISH.is_canonical(["CH", "E"])
    assert not SPANISH.is_canonical(["C", "H", "E"])


@pytest.mark.parametrize("bad", ["CA-SA", "ØA", "A1", "Ə"])
def test_unspellable_text_is_an_error(bad: str) -> None:
    with pytest.raises(SpellingError):
        SPANISH.tokenize(bad)
