"""Alphabets as data: the shipped files for ten languages, and a rule file's own alphabet."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablero.alphabet import (
    SHIPPED_ALPHABETS,
    AlphabetError,
    SpellingError,
    alphabet_by_name,
    alphabet_from_table,
)
from tablero.game import Game
from tablero.lexicon import load_lexicon
from tablero.variant import VariantError, load_variant, variant_from_toml

ENGLISH_RULES = Path(__file__).parent / "data" / "english" / "english.toml"


def test_every_shipped_alphabet_loads_with_its_vowels_among_its_letters() -> None:
    for name in SHIPPED_ALPHABETS:
        alphabet = alphabet_by_name(name)
        assert alphabet.name == name
        assert alphabet.vowels and alphabet.vowels <= set(alphabet.letters)
        assert alphabet.keep <= set(alphabet.letters)
    assert len(alphabet_by_name("en").letters) == 26
    assert len(alphabet_by_name("pl").letters) == 32


@pytest.mark.parametrize(
    ("language", "word", "tiles"),
    [
        ("en", "church", ["C", "H", "U", "R", "C", "H"]),
        ("en", "barrel", ["B", "A", "R", "R", "E", "L"]),
        ("en", "café", ["C", "A", "F", "E"]),
        ("en", "Œuvre", ["O", "E", "U", "V", "R", "E"]),
        ("ca", "col·lecció", ["C", "O", "L·L", "E", "C", "C", "I", "O"]),
        ("ca", "canyella", ["C", "A", "NY", "E", "L", "L", "A"]),
        ("ca", "qüestió", ["QU", "E", "S", "T", "I", "O"]),
        ("ca", "coŀlegi", ["C", "O", "L·L", "E", "G", "I"]),
        ("ca", "plaça", ["P", "L", "A", "Ç", "A"]),
        ("pt", "ação", ["A", "Ç", "A", "O"]),
        ("fr", "garçon", ["G", "A", "R", "C", "O", "N"]),
        ("fr", "cœur", ["C", "O", "E", "U", "R"]),
        ("it", "città", ["C", "I", "T", "T", "A"]),
        ("de", "Mädchen", ["M", "Ä", "D", "C", "H", "E", "N"]),
        ("de", "Straße", ["S", "T", "R", "A", "S", "S", "E"]),
        ("nl", "zeeën", ["Z", "E", "E", "E", "N"]),
        ("pl", "żółć", ["Ż", "Ó", "Ł", "Ć"]),
        ("ro", "ştiinţă", ["S", "T", "I", "I", "N", "T", "A"]),
    ],
)
def test_words_become_the_tiles_each_language_plays(
    language: str, word: str, tiles: list[str]
) -> None:
    assert alphabet_by_name(language).tokenize(word) == tiles


def test_sort_order_follows_the_data_file() -> None:
    de = alphabet_by_name("de")
    assert de.sort_key("A") < de.sort_key("Ä") < de.sort_key("B")
    pl = alphabet_by_name("pl")
    assert pl.sort_key("L") < pl.sort_key("Ł") < pl.sort_key("M")
    assert pl.letters[-1] == "Ż"


@pytest.mark.parametrize(
    ("language", "text", "missing"),
    [
        ("ca", "YA", "Y"),  # Y occurs only inside the NY tile
        ("ca", "QATAR", "Q"),  # Q only as QU
        ("pl", "VIXEN", "V"),
        ("en", "ØL", "Ø"),  # Ñ folds to N in English; Ø does not fold
    ],
)
def test_a_character_that_is_no_tile_is_named(language: str, text: str, missing: str) -> None:
    with pytest.raises(SpellingError, match=f"'{missing}' is not a letter of the {language}"):
        alphabet_by_name(language).tokenize(text)


def test_vowels_are_the_data_files() -> None:
    assert alphabet_by_name("pl").is_vowel("Ą") and alphabet_by_name("pl").is_vowel("Y")
    assert alphabet_by_name("de").is_vowel("Ü")
    assert not alphabet_by_name("es").is_vowel("Y")
    assert not alphabet_by_name("es").is_vowel("CH")


def test_an_unknown_language_names_the_shipped_ones() -> None:
    with pytest.raises(AlphabetError, match=r"no alphabet for language 'xx'.*ca, de, en"):
        alphabet_by_name("xx")


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ({}, "letters: expected the tiles"),
        ({"letters": ["A", "B"]}, "letters: expected tiles separated by spaces"),
        ({"letters": "A B A"}, "A listed twice"),
        ({"letters": "A B ?"}, "'?' is notation"),
        ({"letters": "A B", "vowels": "A E"}, "vowels: E not among the letters"),
        ({"letters": "A B", "keep": "Ñ"}, "keep: Ñ not among the letters"),
        ({"letters": "A B", "folds": {"Œ": 5}}, "folds: expected a table"),
        ({"letters": "A B", "sort": "B A"}, "unknown key 'sort'"),
        ({"letters": " ".join(f"T{i}" for i in range(64))}, "64 letters, at most 63"),
    ],
)
def test_a_malformed_alphabet_says_what_is_wrong(table: dict[str, object], problem: str) -> None:
    with pytest.raises(AlphabetError, match=problem):
        alphabet_from_table(table, "xx")


def _rules(language: str, alphabet: str = "") -> str:
    """A small rule file: 5×5, a few tiles of the given letters."""
    return f'''
name = "tiny"
language = "{language}"
lexicon = "none"
players = [2, 2]
{alphabet}
[board]
rows = 5
columns = 5
start = ["C3"]
layout = """
. . . . .
. . . . .
. . . . .
. . . . .
. . . . .
"""
[tiles]
A = [6, 1]
"TH" = [4, 3]
E = [6, 1]
"?" = [1, 0]
'''


def test_a_rule_file_may_define_its_own_alphabet_and_play_with_it() -> None:
    own = '[alphabet]\nletters = "A E TH"\nvowels = "A E"\ntitle = "Tiny"'
    variant = variant_from_toml(_rules("xx", own), source="tiny.toml")
    assert variant.alphabet.letters == ("A", "E", "TH")
    assert variant.alphabet.name == "xx"
    assert variant.alphabet.tokenize("thetha") == ["TH", "E", "TH", "A"]
    game = Game(variant, ["Ana", "Luis"], load_lexicon("none", variant.alphabet), seed=1)
    assert sum(len(p.rack) for p in game.players) == 14


def test_a_rule_file_for_an_unknown_language_without_an_alphabet_is_refused() -> None:
    with pytest.raises(VariantError, match=r"tiny.toml: language: no alphabet for language 'xx'"):
        variant_from_toml(_rules("xx"), source="tiny.toml")


def test_a_rule_file_alphabet_error_names_the_table() -> None:
    bad = '[alphabet]\nletters = "A E"\nvowels = "O"'
    with pytest.raises(VariantError, match=r"tiny.toml: alphabet: vowels: O not among"):
        variant_from_toml(_rules("xx", bad), source="tiny.toml")


def test_tiles_the_alphabet_lacks_are_refused_by_the_rule_file() -> None:
    with pytest.raises(VariantError, match="TH"):
        variant_from_toml(_rules("en"), source="tiny.toml")


def test_english_rules_load_without_a_shipped_dictionary() -> None:
    variant = load_variant(ENGLISH_RULES)
    assert variant.language == "en" and variant.lexicon == "none"
    assert variant.alphabet.digraphs == ()
    assert sum(count for count, _ in variant.tiles.values()) == 100
