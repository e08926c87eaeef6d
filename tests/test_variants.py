"""The six rule sets as data, a user's own rule file, and clear errors for broken ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tablero.cli import main
from tablero.game import Game
from tablero.lexicon import AnyWordLexicon
from tablero.variant import VariantError, builtin_variant_names, load_variant

BUILTIN = resources = Path(__file__).parent.parent / "tablero" / "variants"


def test_six_builtin_variants() -> None:
    assert builtin_variant_names() == [
        "bisonte",
        "crucigrama",
        "cuvinte",
        "fise",
        "intelect",
        "letras_top",
    ]


@pytest.mark.parametrize(
    ("name", "tiles", "blanks", "size", "bingo", "starts"),
    [
        ("fise", 100, 2, (15, 15), 50, ["H8"]),
        ("bisonte", 102, 2, (15, 15), 50, ["H8"]),
        ("crucigrama", 100, 2, (15, 15), 20, ["H8"]),
        ("intelect", 98, 0, (15, 15), 50, ["H8"]),
        ("letras_top", 100, 2, (15, 15), 50, ["H8", "J11"]),
        ("cuvinte", 115, 2, (17, 15), 50, ["I8"]),
    ],
)
def test_variant_values(
    name: str, tiles: int, blanks: int, size: tuple[int, int], bingo: int, starts: list[str]
) -> None:
    v = load_variant(name)
    assert v.tile_count == tiles
    assert v.tiles.get("?", (0, 0))[0] == blanks
    assert (v.columns, v.rows) == size
    assert v.bingo_bonus == bingo
    assert [f"{chr(65 + c)}{r + 1}" for r, c in v.start_squares] == starts


def test_rule_specific_values() -> None:
    assert load_variant("crucigrama").cambio_per_game == 3
    assert load_variant("crucigrama").exchange.max_tiles == 3
    assert "K" not in load_variant("crucigrama").tiles
    assert load_variant("cuvinte").exchange.per_game == 3
    assert load_variant("intelect").turn_direction == "counterclockwise"
    assert load_variant("intelect").exchange.only_when_blocked
    assert load_variant("bisonte").word_check == "challenge"
    assert load_variant("bisonte").end.tie_break == "before_adjustments"
    assert load_variant("letras_top").end.unplayed_blank_penalty == 30
    assert load_variant("letras_top").first_move.bonus == 10
    assert load_variant("cuvinte").first_move.anchor == "first_letter"
    assert {k.kind_name for k in load_variant("cuvinte").squares.values()} >= {
        "word_end",
        "shuffle_next_rack",
    }
    v = load_variant("crucigrama")
    assert (v.value("A"), v.value("B"), v.value("C"), v.value("J"), v.value("M")) == (1, 4, 2, 6, 3)


@pytest.mark.parametrize("name", ["bisonte", "crucigrama", "intelect", "letras_top", "cuvinte"])
def test_assumptions_are_marked(name: str) -> None:
    v = load_variant(name)
    assert (v.assumed and v.is_assumed("tiles")) or v.is_assumed("board")


def test_a_users_rule_file_works_where_a_name_does(tmp_path: Path) -> None:
    text = (BUILTIN / "fise.toml").read_text("utf-8")
    custom = tmp_path / "club.toml"
    custom.write_text(
        text.replace('name = "fise"', 'name = "club"').replace(
            "bingo_bonus = 50", "bingo_bonus = 40"
        )
    )
    v = load_variant(str(custom))
    assert (v.name, v.bingo_bonus) == ("club", 40)
    game = Game(str(custom), ["A", "B"], AnyWordLexicon(v.alphabet), seed=1)
    assert game.variant.bingo_bonus == 40
    result = CliRunner().invoke(main, ["variant", "show", str(custom)])
    assert result.exit_code == 0 and "40" in result.output


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("rows = 15", "rows = 14"), "board.layout: has 15 rows"),
        (('"3W" = { kind = "word", factor = 3 }', ""), "3W"),
        (
            ('"2L" = { kind = "letter", factor = 2 }', '"2L" = { kind = "lettre", factor = 2 }'),
            "kind must be",
        ),
        (("A = [12, 1]", 'A = ["doce", 1]'), "tiles.A"),
        (('start = ["H8"]', 'start = ["Z99"]'), "off the board"),
        (('name = "fise"', ""), "name: missing"),
        (("bingo_bonus = 50", "bingo_bonus = -1"), "at least 0"),
        (('rule = "nearest_a"', 'rule = "tallest"'), "start.rule"),
    ],
)
def test_broken_rule_files_say_what_is_wrong(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    text = (BUILTIN / "fise.toml").read_text("utf-8")
    assert edit[0] in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(edit[0], edit[1], 1))
    with pytest.raises(VariantError) as info:
        load_variant(str(bad))
    assert message in str(info.value) and "bad.toml" in str(info.value)


def test_unknown_variant() -> None:
    with pytest.raises(VariantError, match="unknown variant 'scrabbel'"):
        load_variant("scrabbel")


def test_variants_command_lists_all() -> None:
    result = CliRunner().invoke(main, ["variants"])
    assert result.exit_code == 0
    for name in builtin_variant_names():
        assert name in result.output
    assert "17×15" in result.output


def test_variant_show_draws_the_board_and_rules() -> None:
    result = CliRunner().invoke(main, ["variant", "show", "cuvinte"])
    assert result.exit_code == 0
    out = result.output
    assert "4W" in out and "EX" in out and "Q" in out  # 17 columns: A–Q
    assert "exchange.per_game" in out and "assumed" in out
    assert "115" in out
