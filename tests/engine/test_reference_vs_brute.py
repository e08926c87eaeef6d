"""The reference move generator against the brute force, in all six games (issue 4).

The brute force (``brute.py``) asks the rules engine about every way of putting a small rack
on the board, so it finds exactly the legal placements and their scores by definition. The
reference generator must find the same set, write each one so the engine accepts it as
written (whole word, single tiles in the documented orientation), score the same, give none
twice, and ``has_placement`` must agree. Positions come from self-play (``positions.py``).

By default a sample of each game runs, chosen so that the moves compared include a first
move through each start square, a blank, a tile in an edge column, and a tile on each 4W /
±N / EX square kind the game has; ``-m slow`` runs thousands of positions a game. First-move
rules that no built-in game exercises (three-tile minimum, first letter on one of several
start squares, two start squares in one line) run on variants derived from FISE.
"""

from __future__ import annotations

import dataclasses

import pytest

from tablero.alphabet import SPANISH
from tablero.board import Board, Tile
from tablero.engine.movegen.reference import generate_placements, has_placement
from tablero.formats.cgp import write_cgp
from tablero.lexicon import WordListLexicon
from tablero.position import Position
from tablero.rules import resolve_place
from tablero.variant import FirstMove, Variant, builtin_variant_names, load_variant
from tests.engine.brute import (
    Key,
    brute_force,
    describe,
    differences,
    engine_scores,
    single_tile_across,
)
from tests.engine.positions import (
    covering_sample,
    move_features,
    possible_features,
    random_positions,
    word_list,
)

GAMES = builtin_variant_names()
SAMPLE_POOL = 24
SAMPLE_SIZE = 12
SLOW_COUNT = 2000


@pytest.fixture(scope="module")
def lexicons(es_words: WordListLexicon) -> dict[str, WordListLexicon]:
    return {"es": es_words, "ro": word_list("ro")}


def reference_problems(position: Position, lexicon: WordListLexicon) -> list[str]:
    """Every way the reference generator is wrong on a position (none when exact)."""
    return compare(position, lexicon, brute_force(position, lexicon))


def compare(position: Position, lexicon: WordListLexicon, expected: dict[Key, int]) -> list[str]:
    """The reference generator's errors against the brute force's placements and scores."""
    places = list(generate_placements(position.variant, position.board, position.rack, lexicon))
    try:
        got = engine_scores(position, lexicon, places)
    except AssertionError as e:
        return [f"{write_cgp(position)}: {e}"]
    problems = differences(expected, got)
    for place in places:
        new, _ = resolve_place(place, position.board)
        if len(new) == 1 and place.across != single_tile_across(position.board, new[0][0]):
            way = "across" if place.across else "down"
            problems.append(f"{describe(frozenset(new))} written {way}")
    if has_placement(position.variant, position.board, position.rack, lexicon) != bool(expected):
        problems.append(f"has_placement says {not expected}, the brute force finds {len(expected)}")
    return [f"{write_cgp(position)}: {p}" for p in problems]


@pytest.mark.parametrize("game", GAMES)
def test_reference_equals_brute_force_on_a_sample(
    game: str, lexicons: dict[str, WordListLexicon]
) -> None:
    variant = load_variant(game)
    lexicon = lexicons[variant.language]
    pool = random_positions(game, SAMPLE_POOL, seed=1, rack_size=(1, 4), lexicon=lexicon)
    found: dict[int, dict[Key, int]] = {}

    def brute(position: Position) -> dict[Key, int]:
        if id(position) not in found:
            found[id(position)] = brute_force(position, lexicon)
        return found[id(position)]

    sample = covering_sample(pool, SAMPLE_SIZE, seed=1, placements=brute)
    problems = [p for position in sample for p in compare(position, lexicon, brute(position))]
    assert problems == []
    # Among the moves compared: a first move through each start square, a blank, tiles in an
    # edge column and on each 4W, ±N and EX square kind the game has.
    used = set().union(*(move_features(p, brute(p)) for p in sample))
    assert used == possible_features(variant)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_reference_equals_brute_force_on_thousands(
    game: str, lexicons: dict[str, WordListLexicon]
) -> None:
    variant = load_variant(game)
    lexicon = lexicons[variant.language]
    positions = random_positions(game, SLOW_COUNT, seed=2, rack_size=(1, 4), lexicon=lexicon)
    problems: list[str] = []
    moves = 0
    for position in positions:
        expected = brute_force(position, lexicon)
        problems += compare(position, lexicon, expected)
        moves += len(expected)
    assert problems == []
    first = sum(p.first_turn for p in positions)
    blanks = sum("?" in p.rack for p in positions)
    print(
        f"{game}: reference == brute force on {len(positions)} positions "
        f"({first} first moves, {blanks} racks with a blank), {moves} placements"
    )


@pytest.mark.parametrize("game", ["letras_top", "cuvinte", "intelect"])
def test_brute_force_filters_lose_nothing(game: str, lexicons: dict[str, WordListLexicon]) -> None:
    variant = load_variant(game)
    lexicon = lexicons[variant.language]
    positions = random_positions(
        game,
        3,
        seed=3,
        rack_size=2,
        lexicon=lexicon,
        first_turn_every=3,
        blank_share=0.5,
        two_blank_share=0,
    )
    found = 0
    for p in positions:
        pruned = brute_force(p, lexicon)
        assert pruned == brute_force(p, lexicon, prune=False), write_cgp(p)
        found += len(pruned)
    assert found > 0


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_brute_force_filters_lose_nothing_on_more(
    game: str, lexicons: dict[str, WordListLexicon]
) -> None:
    variant = load_variant(game)
    lexicon = lexicons[variant.language]
    positions = random_positions(
        game, 30, seed=4, rack_size=(1, 3), lexicon=lexicon, two_blank_share=0
    )
    for p in positions:
        assert brute_force(p, lexicon) == brute_force(p, lexicon, prune=False), write_cgp(p)


# -- first-move rules no built-in game has ----------------------------------------------------


def derived(**changes: object) -> Variant:
    return dataclasses.replace(load_variant("fise"), **changes)  # type: ignore[arg-type]


FIRST_MOVE_VARIANTS = {
    "three_tiles": derived(name="three_tiles", first_move=FirstMove(min_tiles=3)),
    "first_letter_corner_and_edges": derived(
        name="first_letter_corner_and_edges",
        start_squares=((7, 7), (7, 14), (0, 0), (14, 3)),
        first_move=FirstMove(anchor="first_letter", min_tiles=3),
    ),
    "two_starts_in_a_row": derived(
        name="two_starts_in_a_row",
        start_squares=((7, 2), (7, 5), (3, 5)),
        first_move=FirstMove(anchor="cover", multiplier=3, bonus=7),
    ),
}


@pytest.mark.parametrize("name", sorted(FIRST_MOVE_VARIANTS))
def test_first_move_rules_of_derived_variants(
    name: str, lexicons: dict[str, WordListLexicon]
) -> None:
    variant = FIRST_MOVE_VARIANTS[name]
    lexicon = lexicons["es"]
    positions = random_positions(
        variant, 8, seed=5, rack_size=(2, 4), lexicon=lexicon, first_turn_every=2
    )
    problems = [p for position in positions for p in reference_problems(position, lexicon)]
    assert problems == []
    first = [p for p in positions if p.first_turn]
    moves = [key for p in first for key in brute_force(p, lexicon)]
    assert moves, "the first-move positions must have moves to compare"
    assert min(len(key) for key in moves) == max(2, variant.first_move.min_tiles)


def test_one_tile_by_hand() -> None:
    """AS on H8-I8 and an E: ASE across, ES and SE down through the S (each 3 points: I7
    and I9 are 2L squares), and nothing else."""
    lexicon = WordListLexicon.from_words(["AS", "ES", "SE", "ASE"], SPANISH, name="tiny")
    board = Board(15, 15)
    board[(7, 7)], board[(7, 8)] = Tile("A"), Tile("S")
    position = Position(load_variant("fise"), board, [("E",), ()], [0, 0])
    expected = brute_force(position, lexicon)
    assert {describe(k): score for k, score in expected.items()} == {
        "J8=E": 3,
        "I7=E": 3,
        "I9=E": 3,
    }
    assert reference_problems(position, lexicon) == []


def test_a_one_letter_word_is_no_first_move() -> None:
    """With "A" in the list, A alone on the start square forms no word of two letters."""
    lexicon = WordListLexicon.from_words(["A", "AS"], SPANISH, name="tiny")
    position = Position(load_variant("fise"), Board(15, 15), [("A", "S"), ()], [0, 0])
    expected = brute_force(position, lexicon)
    assert sorted(describe(k) for k in expected) == [
        "G8=A H8=S",
        "H7=A H8=S",
        "H8=A H9=S",
        "H8=A I8=S",
    ]
    assert reference_problems(position, lexicon) == []


def test_a_blank_stands_only_for_letters_the_game_has() -> None:
    """FISE has no K tile, so a blank cannot be one even where the list has KA."""
    lexicon = WordListLexicon.from_words(["KA", "LA"], SPANISH, name="tiny")
    position = Position(load_variant("fise"), Board(15, 15), [("?", "A"), ()], [0, 0])
    expected = brute_force(position, lexicon)
    assert {t.letter for key in expected for _, t in key if t.blank} == {"L"}
    assert len(expected) == 4
    assert reference_problems(position, lexicon) == []


# -- the positions themselves ----------------------------------------------------------------


def test_random_positions_are_reproducible_and_hold_real_tiles(
    lexicons: dict[str, WordListLexicon],
) -> None:
    def positions(seed: int) -> list[Position]:
        return random_positions(
            "letras_top", 6, seed, rack_size=(1, 4), lexicon=lexicons["es"], first_turn_every=3
        )

    a, b, c = positions(9), positions(9), positions(10)
    assert [write_cgp(p) for p in a] == [write_cgp(p) for p in b]
    assert [write_cgp(p) for p in a] != [write_cgp(p) for p in c]
    assert [p.first_turn for p in a] == [True, False, False, True, False, False]
    for p in a:
        assert 1 <= len(p.rack) <= 4
        p.check_tiles()


def test_random_positions_refuse_a_rack_the_game_cannot_hold() -> None:
    with pytest.raises(ValueError, match=r"rack_size must lie within 1\.\.7"):
        random_positions("fise", 1, seed=1, rack_size=8)


def test_single_tile_convention() -> None:
    """Both ways a word: down if a tile is above; one way only: that way."""
    board = Board(15, 15)
    for coord in ((6, 7), (7, 6)):
        board[coord] = Tile("A")
    assert single_tile_across(board, (7, 7)) is False  # tile above and to the left
    assert single_tile_across(board, (6, 6)) is True  # tile right (6,7) and below (7,6): across
    assert single_tile_across(board, (5, 7)) is False  # only below: down
    assert single_tile_across(board, (7, 5)) is True  # only to the right: across
