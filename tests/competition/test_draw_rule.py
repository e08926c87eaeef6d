"""Duplicate's rack rule: the rule file's ``[duplicate]`` table, and the racks drawn under it.

Every rack a game draws meets the minimum of its round while the tiles left allow one, and
the game ends exactly when they do not: checked over many seeded draws of every game (the
tiles each round takes out of play chosen at random, fast), and over real seeded games where
the board takes the engine's top every round.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from tablero.alphabet import ROMANIAN, SPANISH
from tablero.competition.draw_rule import DrawRule, RackCount, count_tiles, meets_minimum
from tablero.competition.duplicate import DuplicateGame, DuplicateOptions
from tablero.lexicon import Lexicon, load_lexicon
from tablero.variant import (
    DuplicateRules,
    Variant,
    VariantError,
    builtin_variant_names,
    load_variant,
)

BUILTIN = Path(__file__).parents[2] / "tablero" / "variants"
GAMES = builtin_variant_names()


# -- the rule file ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_every_shipped_game_states_its_duplicate_rule(name: str) -> None:
    v = load_variant(name)
    text = (BUILTIN / f"{name}.toml").read_text("utf-8")
    assert "\n[duplicate]\n" in text  # stated in the file, not left to the defaults
    assert v.duplicate == DuplicateRules(15, 2, 2, 1, 1, "either", 0, 180)
    assert v.is_assumed("duplicate.blanks")  # no rule book of the six has duplicate
    assert v.duplicate.minimum(15) == (2, 2) and v.duplicate.minimum(16) == (1, 1)


@pytest.mark.parametrize(
    ("edit", "key", "problem"),
    [
        (("early_vowels = 2", "early_vowel = 2"), "duplicate.early_vowel", "unknown key"),
        (('blanks = "either"', 'blanks = "both"'), "duplicate.blanks", "not one of"),
        (("early_vowels = 2", "early_vowels = -1"), "duplicate.early_vowels", "at least 0"),
        (("late_consonants = 1", 'late_consonants = "one"'), "duplicate.late_consonants", "number"),
        (("solo_bonus = 0", "solo_bonus = true"), "duplicate.solo_bonus", "number"),
        (("early_consonants = 2", "early_consonants = 6"), "duplicate.early_vowels", "rack of 7"),
        (("[duplicate]\n", "[unused]\n"), "duplicate", "expected a table"),
    ],
)
def test_a_malformed_duplicate_table_names_the_key(
    tmp_path: Path, edit: tuple[str, str], key: str, problem: str
) -> None:
    text = (BUILTIN / "fise.toml").read_text("utf-8")
    assert edit[0] in text
    bad = tmp_path / "bad.toml"
    prefix = "duplicate = 3\n" if edit[1] == "[unused]\n" else ""  # not a table at all
    bad.write_text(prefix + text.replace(edit[0], edit[1], 1), "utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(str(bad))
    message = str(info.value)
    assert f"bad.toml: {key}:" in message and problem in message


def test_a_rule_file_without_the_table_takes_the_defaults(tmp_path: Path) -> None:
    text = (BUILTIN / "fise.toml").read_text("utf-8")
    start = text.index("[duplicate]")
    plain = tmp_path / "plain.toml"
    plain.write_text(text[:start] + text[text.index("[assumed]") :], "utf-8")
    assert load_variant(str(plain)).duplicate == DuplicateRules()


def test_the_defaults_shrink_to_a_small_rack_and_given_values_do_not(tmp_path: Path) -> None:
    """A club's game of three-tile racks that says nothing about duplicate still loads (the
    default 2 + 2 cannot fit: 1 vowel and 2 consonants); a rule it states must fit."""
    mini = Path(__file__).resolve().parents[1] / "browser" / "data" / "mini.toml"
    text = mini.read_text("utf-8")
    assert "[duplicate]" not in text and "rack_size = 3" in text
    v = load_variant(str(mini))
    assert v.duplicate.minimum(1) == (1, 2) and v.duplicate.minimum(16) == (1, 1)
    stated = tmp_path / "mini-stated.toml"
    stated.write_text(text + "\n[duplicate]\nearly_vowels = 2\nearly_consonants = 2\n")
    with pytest.raises(VariantError, match=r"duplicate\.early_vowels: .*more than a rack of 3"):
        load_variant(str(stated))


# -- counting vowels and consonants -----------------------------------------------------------


def test_digraphs_enye_and_y_are_consonants_vowels_come_from_the_alphabet() -> None:
    assert count_tiles(["CH", "LL", "RR", "Ñ", "Y", "A", "?"], SPANISH) == RackCount(1, 5, 1)
    assert count_tiles(["A", "E", "I", "O", "U", "W"], ROMANIAN) == RackCount(5, 1, 0)


@pytest.mark.parametrize(
    ("count", "blanks", "meets"),
    [
        # two vowels and two consonants wanted
        (RackCount(2, 2, 0), "neither", True),
        (RackCount(1, 5, 1), "neither", False),
        (RackCount(1, 5, 1), "either", True),  # the blank is the second vowel
        (RackCount(1, 1, 1), "either", False),  # one blank cannot be both
        (RackCount(0, 3, 2), "either", True),
        (RackCount(1, 5, 1), "vowel", True),
        (RackCount(1, 5, 1), "consonant", False),
        (RackCount(5, 1, 1), "consonant", True),
    ],
)
def test_how_a_blank_counts(count: RackCount, blanks: str, meets: bool) -> None:
    assert meets_minimum(count, 2, 2, blanks) is meets  # type: ignore[arg-type]


def test_the_leave_stays_when_the_filled_rack_meets_the_rule() -> None:
    rule = DrawRule(DuplicateRules(), SPANISH, 7)
    bag = ["B", "C", "D", "F", "G", "T", "N", "R"]
    rack = rule.draw(["A", "E"], bag, random.Random(1), round_number=1)
    assert rack is not None and rack[:2] == ["A", "E"] and len(rack) == 7
    assert len(bag) == 3


def test_a_rack_that_fails_goes_back_whole_and_is_drawn_again() -> None:
    # Six consonants kept and a one-tile complement: only the vowel completes the rack, so the
    # rule redraws whole racks until one has two vowels, wherever the leave's tiles end up.
    rule = DrawRule(DuplicateRules(), SPANISH, 7)
    leave = ["B", "C", "D", "F", "G", "T"]
    bag = ["N"] * 20 + ["A", "E"]
    rng = random.Random(3)
    rack = rule.draw(leave, bag, rng, round_number=1)
    assert rack is not None and rule.accepts(rack, 1)
    assert Counter(rack) + Counter(bag) == Counter(leave) + Counter(["N"] * 20 + ["A", "E"])
    assert {"A", "E"} <= set(rack)


def test_when_no_rack_can_meet_the_rule_nothing_is_drawn() -> None:
    rule = DrawRule(DuplicateRules(), SPANISH, 7)
    bag = ["A", "B", "C", "D", "F", "G", "H", "J"]  # one vowel: round 1 wants two
    assert not rule.possible(["T", *bag], 1)
    assert rule.draw(["T"], bag, random.Random(1), round_number=1) is None
    assert bag == ["A", "B", "C", "D", "F", "G", "H", "J"]  # untouched
    assert rule.draw(["T"], bag, random.Random(1), round_number=16) is not None  # 1 and 1
    with_blank = DrawRule(DuplicateRules(blanks="either"), SPANISH, 7)
    assert with_blank.possible(["?", "A", "B", "C"], 1)  # A ? and B C: a 4-tile rack
    assert not DrawRule(DuplicateRules(blanks="neither"), SPANISH, 7).possible(
        ["?", "A", "B", "C"], 1
    )
    assert not rule.possible([], 16)


def test_keep_leave_false_sends_the_leave_back_first() -> None:
    rule = DrawRule(DuplicateRules(late_vowels=0, late_consonants=0), SPANISH, 7)
    bag = ["B"] * 30
    rack = rule.draw(["A", "E", "I"], bag, random.Random(2), 16, keep_leave=False)
    assert rack is not None and len(rack) == 7 and len(bag) == 26  # 33 tiles, 7 drawn


# -- many seeded games --------------------------------------------------------------------------


def _simulate(variant: Variant, seed: int) -> None:
    """A game's draws with the board left out: each round takes a random 1 to 7 tiles of the
    rack out of play (as a top would), until the rule ends the game. Every rack meets the rule
    and has as many tiles as the pool allows; the end comes exactly when the pool cannot."""
    rule = DrawRule(variant.duplicate, variant.alphabet, variant.rack_size)
    rng = random.Random(seed)
    played = random.Random(seed + 1)
    bag = [t for t, (count, _) in variant.tiles.items() for _ in range(count)]
    leave: list[str] = []
    for round_number in range(1, 200):
        pool = [*leave, *bag]
        rack = rule.draw(leave, bag, rng, round_number)
        if rack is None:
            assert not rule.possible(pool, round_number)
            return
        assert rule.accepts(rack, round_number), (seed, round_number, rack)
        assert len(rack) == min(variant.rack_size, len(pool))
        assert Counter(rack) + Counter(bag) == Counter(pool)
        keep = played.randrange(len(rack))  # 0..len-1 tiles stay: at least one is played
        played.shuffle(rack)
        leave = rack[:keep]
    raise AssertionError("a game must end")


@pytest.mark.parametrize("name", GAMES)
def test_many_seeded_draws_meet_the_rule_until_the_pool_cannot(name: str) -> None:
    v = load_variant(name)
    for seed in range(300):
        _simulate(v, seed)


@pytest.fixture(scope="module")
def lexicons() -> dict[str, Lexicon]:
    return {"es": load_lexicon("es", SPANISH), "ro": load_lexicon("ro", ROMANIAN)}


@pytest.mark.parametrize("name", GAMES)
def test_real_games_draw_by_the_rule_and_end_when_it_cannot(
    name: str, lexicons: dict[str, Lexicon]
) -> None:
    v = load_variant(name)
    lexicon = lexicons[v.lexicon]
    rule = DrawRule(v.duplicate, v.alphabet, v.rack_size)
    tile_set = Counter({t: count for t, (count, _) in v.tiles.items()})
    for seed in range(6):
        game = DuplicateGame(v, lexicon, ["A"], seed=seed, options=DuplicateOptions(None))
        while not game.is_over:
            assert rule.accepts(game.rack, game.round)
            game.close_round()
            on_board = Counter(t.rack_form for _, t in game.board.tiles())
            assert on_board + Counter(game.rack) + Counter(game.bag) == tile_set
        assert game.results and [r.round for r in game.results] == list(
            range(1, len(game.results) + 1)
        )
        pool = [*game.rack, *game.bag]
        if game.end_reason == "draw_rule":
            assert pool and not rule.possible(pool, len(game.results) + 1)
        else:  # the rack had no move, or every tile is on the board
            assert game.end_reason in ("no_move", "no_tiles"), game.end_reason
