"""Who starts under a rack rule (``start.rule = "rack_nearest_z"`` and its kin): the racks are
dealt first, and the player holding the best rack starts, racks compared from their best tile
down, tile by tile; racks alike tile for tile draw lots from the game's seeded draws.

Intelect's rule book: "Comienza el juego el jugador que tiene la letra más próxima al final
del alfabeto, decidiendo, en caso de igualdad, por las inmediatas precedentes."
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablero.game import Game
from tablero.moves import parse_rack
from tablero.terminal import start_lines
from tablero.variant import BLANK, Variant, load_variant, variant_from_toml
from tests.helpers import rig, words

LEXICON = words("CASA")
NAMES = ["Ana", "Luis", "Eva", "Iker"]


def decide(racks: list[str], seed: int = 1, variant: Variant | str = "intelect") -> Game:
    """A game whose dealt racks are these (rack notation), with who starts decided on them.

    The racks are rigged after the deal (``rig`` keeps the tile set whole), then the start is
    decided again on them with the game's own draws, as the constructor decides it."""
    game = Game(variant, NAMES[: len(racks)], LEXICON, seed=seed)
    for seat, rack in enumerate(racks):
        rig(game, seat, rack)
    first, rack_start = game._best_rack()
    game.to_move = first
    game.log[0] = game.log[0] | {"first": first, "rack_start": rack_start}
    return game


def shown(game: Game) -> dict[int, str]:
    """Per seat, the tiles it showed, as one string (digraphs in brackets)."""
    return {
        seat: "".join(f"[{t}]" if len(t) > 1 else t for t in tiles)
        for seat, tiles in game.log[0]["rack_start"]["shown"]
    }


def z_key(variant: Variant, rack: list[str]) -> tuple[int, ...]:
    """The rule book's order, written independently: the letters' places in the alphabet,
    highest first; the bigger key holds the letter nearer the end of the alphabet."""
    return tuple(sorted((variant.alphabet.code(t) for t in rack), reverse=True))


# -- Intelect -----------------------------------------------------------------------------------


def test_intelect_uses_the_rack_rule() -> None:
    v = load_variant("intelect")
    assert v.start_rule == "rack_nearest_z"
    assert "lots" in v.assumed["start"]  # the assumption: the text says nothing of equal racks
    game = Game("intelect", NAMES[:2], LEXICON, seed=3)
    start = game.log[0]
    assert start["draws"] == []  # no tile was drawn to decide
    assert set(start["rack_start"]) == {"shown", "lots"}
    assert game.to_move == start["first"]
    assert sum(len(p.rack) for p in game.players) + len(game.bag) == v.tile_count


def test_the_highest_letter_starts() -> None:
    game = decide(["XAAEEIO", "ZAAEEIO"])
    assert game.to_move == 1
    assert shown(game) == {0: "X", 1: "Z"}  # one letter each decided it
    assert game.log[0]["rack_start"]["lots"] == []


def test_a_tie_is_broken_by_the_next_letter_down() -> None:
    game = decide(["USAAEEI", "UTAAEEI"])
    assert game.to_move == 1
    assert shown(game) == {0: "US", 1: "UT"}


def test_a_tie_three_letters_deep() -> None:
    game = decide(["UTSAEEI", "UTRAEEI"])
    assert game.to_move == 0
    assert shown(game) == {0: "UTS", 1: "UTR"}


def test_a_player_out_early_shows_only_what_put_them_out() -> None:
    """Three players: Eva's T loses at once; Ana and Luis tie on U and T and S; Luis's R
    beats Ana's O."""
    game = decide(["UTSOAEI", "UTSRAEI", "TAAEEIO"])
    assert game.to_move == 1
    assert shown(game) == {0: "UTSO", 1: "UTSR", 2: "T"}


def test_four_players_two_letters_deep() -> None:
    game = decide(["SNAAEEI", "SOAAEEI", "SRAAEEI", "RAAEEIO"])
    assert game.to_move == 2
    assert shown(game) == {0: "SN", 1: "SO", 2: "SR", 3: "R"}


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("C", "[CH]"),
        ("[CH]", "D"),
        ("L", "[LL]"),
        ("[LL]", "M"),
        ("N", "Ñ"),
        ("Ñ", "O"),
        ("R", "[RR]"),
        ("[RR]", "S"),
    ],
)
def test_digraph_tiles_sit_where_the_spanish_alphabet_puts_them(lower: str, higher: str) -> None:
    for racks, first in (
        ([lower + "AAAAAA", higher + "AAAAAA"], 1),
        ([higher + "AAAAAA", lower + "AAAAAA"], 0),
    ):
        game = decide(racks)
        assert game.to_move == first, racks
        assert len(game.log[0]["rack_start"]["shown"][0][1]) == 1


def test_racks_alike_letter_for_letter_draw_lots_by_the_seed() -> None:
    racks = ["UTSRAEI", "UTSRAEI", "UTAAEEO"]
    firsts = set()
    for seed in range(20):
        game = decide(racks, seed)
        again = decide(racks, seed)
        assert game.to_move == again.to_move  # the same seed draws the same lots
        assert game.log[0]["rack_start"]["lots"] == [0, 1]
        assert shown(game) == {0: "UTSRIEA", 1: "UTSRIEA", 2: "UTO"}
        firsts.add(game.to_move)
    assert firsts == {0, 1}  # and either tied player can win them, never the third


def test_three_of_four_alike_draw_lots_among_the_three() -> None:
    racks = ["UTSRAEI", "SAAEEIO", "UTSRAEI", "UTSRAEI"]
    firsts = {decide(racks, seed).to_move for seed in range(30)}
    assert firsts == {0, 2, 3}
    assert decide(racks, 4).log[0]["rack_start"]["lots"] == [0, 2, 3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_over_40_seeded_intelect_games_the_starter_holds_the_best_rack(players: int) -> None:
    v = load_variant("intelect")
    ties = 0
    for seed in range(40):
        game = Game(v, NAMES[:players], LEXICON, seed=seed)
        keys = [z_key(v, p.rack) for p in game.players]
        best = max(keys)
        starter = game.to_move
        assert keys[starter] == best, (seed, keys, starter)
        holders = [s for s, k in enumerate(keys) if k == best]
        assert game.log[0]["rack_start"]["lots"] == (holders if len(holders) > 1 else [])
        for seat, tiles in game.log[0]["rack_start"]["shown"]:  # the tops of the racks
            assert list(z_key(v, tiles)) == list(keys[seat][: len(tiles)])
        ties += sum(k[0] == best[0] for k in keys) > 1
        # reproducible from the seed
        assert Game(v, NAMES[:players], LEXICON, seed=seed).log == game.log
    assert ties > 0  # some games needed more than one letter


def test_the_start_replays() -> None:
    game = Game("intelect", NAMES[:3], LEXICON, seed=11)
    game.play("-")
    again = Game.replay(json.loads(json.dumps(game.log)), LEXICON)
    assert again.log == game.log
    assert again.state() == game.state()


def test_a_game_of_one_is_not_decided_by_racks() -> None:
    game = Game("intelect", ["Ana"], LEXICON, seed=3)
    assert game.to_move == 0
    assert "rack_start" not in game.log[0]


# -- a log from before: Intelect drew tiles to start --------------------------------------------

OLD_INTELECT_LOG: list[dict[str, Any]] = json.loads("""
[{"type": "start", "variant": "intelect", "variant_source": "builtin:intelect",
  "players": ["Ana", "Luis", "Eva"], "seed": 2,
  "lexicon": {"name": "test", "version": "", "word_count": 1,
              "checksum": "15305cb6d5a2ef9d767d97d2aff029572914c8990b52851d5e59223ec90d9271"},
  "draws": [[[0, "A"], [1, "A"], [2, "A"]], [[0, "I"], [1, "D"], [2, "V"]]], "first": 2},
 {"type": "move", "seat": 2, "move": "-", "elapsed": 0.0, "result": "passed", "score": 0},
 {"type": "move", "seat": 1, "move": "-", "elapsed": 0.0, "result": "passed", "score": 0},
 {"type": "move", "seat": 0, "move": "-", "elapsed": 0.0, "result": "passed", "score": 0},
 {"type": "move", "seat": 2, "move": "-", "elapsed": 0.0, "result": "passed", "score": 0},
 {"type": "move", "seat": 1, "move": "-", "elapsed": 0.0, "result": "passed", "score": 0},
 {"type": "move", "seat": 0, "move": "-", "elapsed": 0.0, "result": "passed", "score": 0},
 {"type": "end", "reason": "scoreless_rounds", "final": [-14, -8, -10],
  "adjustments": [[["tiles left on the rack", -14]], [["tiles left on the rack", -8]],
                  [["tiles left on the rack", -10]]],
  "winners": [1], "ranks": [3, 1, 2]}]
""")
"""Written by tablero before issue 15 (Intelect's ``start.rule`` was ``nearest_z``: every
player drew a tile, the tied drew again), as the database stores it."""

OLD_RACKS = ["JONOEUA", "RTDNSLO", "THEREAA"]
"""The racks that old code dealt for that log."""


def test_an_old_intelect_log_still_replays_the_same() -> None:
    game = Game.replay(OLD_INTELECT_LOG, LEXICON)
    assert game.log == OLD_INTELECT_LOG
    assert game.start_rule == "nearest_z"
    first = Game.replay(OLD_INTELECT_LOG[:1], LEXICON)
    alphabet = first.variant.alphabet
    assert [p.rack for p in first.players] == [list(parse_rack(r, alphabet)) for r in OLD_RACKS]
    assert first.to_move == 2
    assert start_lines(first) == [
        "Draw for the first turn: Ana A, Luis A, Eva A.",
        "Draw for the first turn: Ana I, Luis D, Eva V.",
        "Eva plays first.",
    ]


def test_an_old_log_and_a_new_one_of_the_same_seed_differ_only_by_the_rule() -> None:
    new = Game("intelect", ["Ana", "Luis", "Eva"], LEXICON, seed=2)
    assert "rack_start" in new.log[0] and "rack_start" not in OLD_INTELECT_LOG[0]
    with pytest.raises(ValueError, match="does not match"):
        Game.replay([{**OLD_INTELECT_LOG[0], "rack_start": new.log[0]["rack_start"]}], LEXICON)


# -- the terminal says what decided -------------------------------------------------------------


def test_the_terminal_tells_the_tiles_shown_not_a_draw() -> None:
    game = decide(["UTSOAEI", "UTSRAEI", "TAAEEIO"])
    lines = start_lines(game)
    assert lines == [
        "Tiles shown from the racks for the first turn (the letter nearest the end of the "
        "alphabet first): Ana U, T, S, O; Luis U, T, S, R; Eva T.",
        "Luis plays first.",
    ]
    assert not any("Draw" in line for line in lines)


def test_the_terminal_tells_lots() -> None:
    game = decide(["UTSRAEI", "UTSRAEI"], seed=3)
    lines = start_lines(game)
    assert lines[1] == "Ana and Luis hold racks that tie tile for tile: lots decide."
    assert lines[2] == f"{NAMES[game.to_move]} plays first."


# -- a rule file of one's own -------------------------------------------------------------------

OWN_TOML = """
name = "own"
title = "Own rules (tests)"
language = "es"
players = [2, 4]
rack_size = 3

[board]
rows = 9
columns = 9
start = ["E5"]
layout = '''
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . 2W . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
'''

[squares]
"2W" = { kind = "word", factor = 2 }

[tiles]
A = [10, 1]
E = [8, 1]
O = [6, 2]
S = [6, 1]
L = [4, 3]
Z = [3, 10]
"?" = [2, 0]

[start]
rule = "RULE"
blank_first = BLANK_FIRST
"""


def own(rule: str, blank_first: bool = True) -> Variant:
    text = OWN_TOML.replace("RULE", rule).replace("BLANK_FIRST", str(blank_first).lower())
    return variant_from_toml(text, source="own.toml")


@pytest.mark.parametrize(
    ("rule", "blank_first", "racks", "first", "seen"),
    [
        ("rack_nearest_z", True, ["ZZA", "?AE"], 1, {0: "Z", 1: "?"}),  # a blank before Z
        ("rack_nearest_z", False, ["?ZA", "ZAE"], 1, {0: "ZA", 1: "ZE"}),  # a blank last
        ("rack_nearest_z", False, ["?ZE", "?ZE"], None, {0: "ZE?", 1: "ZE?"}),
        ("rack_nearest_a", True, ["AES", "AEO"], 1, {0: "AES", 1: "AEO"}),
        ("rack_nearest_a", True, ["?SZ", "AAA"], 0, {0: "?", 1: "A"}),
        ("rack_nearest_a", False, ["?SZ", "AAA"], 1, {0: "S", 1: "A"}),
        ("rack_highest_value", False, ["ZLA", "ZOS"], 0, {0: "ZL", 1: "ZO"}),
        # A and E are both worth 1: OEA and OAE are alike, value for value (lots)
        ("rack_highest_value", False, ["OEA", "OAE"], None, {0: "OAE", 1: "OAE"}),
        ("rack_highest_value", True, ["?AA", "ZZZ"], 0, {0: "?", 1: "Z"}),
    ],
)
def test_an_own_rule_file(
    rule: str, blank_first: bool, racks: list[str], first: int | None, seen: dict[int, str]
) -> None:
    v = own(rule, blank_first)
    assert v.start_rule == rule
    game = decide(racks, variant=v)
    if first is None:
        assert game.log[0]["rack_start"]["lots"] == [0, 1]
    else:
        assert game.to_move == first
        assert game.log[0]["rack_start"]["lots"] == []
    assert shown(game) == seen


@pytest.mark.parametrize("rule", ["rack_nearest_z", "rack_nearest_a", "rack_highest_value"])
@pytest.mark.parametrize("blank_first", [True, False])
def test_an_own_rule_file_over_seeded_games(rule: str, blank_first: bool) -> None:
    """With a small tile set and racks of three, ties are common; the starter always holds a
    best rack by the rule, written here independently of the engine."""
    v = own(rule, blank_first)

    def key(tile: str) -> int:  # bigger is better
        if tile == BLANK:
            return 1000 if blank_first else -1000
        if rule == "rack_nearest_z":
            return v.alphabet.code(tile)
        if rule == "rack_nearest_a":
            return -v.alphabet.code(tile)
        return v.value(tile)

    lots = 0
    for players in (2, 3, 4):
        for seed in range(40):
            game = Game(v, NAMES[:players], LEXICON, seed=seed)
            keys = [tuple(sorted(map(key, p.rack), reverse=True)) for p in game.players]
            assert keys[game.to_move] == max(keys)
            holders = [s for s, k in enumerate(keys) if k == max(keys)]
            assert game.log[0]["rack_start"]["lots"] == (holders if len(holders) > 1 else [])
            lots += len(holders) > 1
    assert lots > 0


def test_the_rule_names_are_checked() -> None:
    with pytest.raises(ValueError, match=r"start\.rule"):
        own("rack_nearest_q")


def test_an_old_intelect_log_writes_its_racks_to_gcg() -> None:
    """GCG export steps a fresh game through the log: it must deal as the old game dealt."""
    from tablero.formats.gcg import write_gcg

    text = write_gcg(Game.replay(OLD_INTELECT_LOG, LEXICON))
    assert ">Eva: THEREAA - +0 0" in text.splitlines()


# -- a drawn blank under start.blank_first ------------------------------------------------------


@pytest.mark.parametrize("rule", ["nearest_z", "highest_value"])
def test_a_drawn_blank_ranks_before_every_tile(rule: str) -> None:
    """Over seeded games, each round of draws is won by the blank when one is drawn alone,
    and otherwise by the tile the rule puts first (written here independently)."""
    v = own(rule, blank_first=True)

    def key(tile: str) -> int:  # bigger is better
        if tile == BLANK:
            return 1000
        return v.alphabet.code(tile) if rule == "nearest_z" else v.value(tile)

    blank_rounds = 0
    for seed in range(200):
        game = Game(v, NAMES[:3], LEXICON, seed=seed)
        assert game.log[0]["blank_rank"] == 2
        last = game.log[0]["draws"][-1]
        best = max(key(tile) for _, tile in last)
        winners = [seat for seat, tile in last if key(tile) == best]
        assert winners == [game.to_move]
        blank_rounds += any(tile == BLANK for _, tile in last)
    assert blank_rounds > 5


def test_a_log_from_before_the_blank_was_ranked_first_replays_as_it_was() -> None:
    """Logs without ``blank_rank`` ranked a drawn blank as A: they replay so, unchanged."""
    v = own("nearest_z", blank_first=True)
    differ = 0
    for seed in range(200):
        old = Game(v, NAMES[:3], LEXICON, seed=seed, blank_rank=1)
        assert "blank_rank" not in old.log[0]
        again = Game.replay(old.log, LEXICON, lambda _name: v)
        assert again.to_move == old.to_move and again.log[0] == old.log[0]
        differ += Game(v, NAMES[:3], LEXICON, seed=seed).to_move != old.to_move
    assert differ > 0  # some deals start otherwise under the corrected rank


def test_games_where_the_blank_rank_makes_no_difference_do_not_record_it() -> None:
    for name in ("fise", "crucigrama", "letras_top", "intelect"):
        assert "blank_rank" not in Game(name, NAMES[:2], LEXICON, seed=5).log[0]


# -- a start assigned from outside the game (a tournament's pairing) ----------------------------


@pytest.mark.parametrize("name", ["fise", "intelect", "bisonte"])
def test_an_assigned_first_seat_starts_whatever_the_rule_and_replays(name: str) -> None:
    from tablero.formats.gcg import read_gcg, write_gcg

    for seed in range(20):
        for first in (0, 1):
            game = Game(name, NAMES[:2], LEXICON, seed=seed, first=first)
            start = game.log[0]
            rack = list(game.players[first].rack)
            assert game.to_move == first and start["first"] == first
            assert start["assigned"] is True and start["draws"] == []
            assert "rack_start" not in start
            assert all(len(p.rack) == game.variant.rack_size for p in game.players)
            game.play("-")  # the seat that starts passes: the other is to move
            again = Game.replay(game.log, LEXICON)
            assert again.log == game.log and again.to_move == 1 - first
            assert again.assigned_first == first
            # The GCG steps a fresh game with the same start: it writes the starter's rack.
            (turn,) = read_gcg(write_gcg(game)).turns
            assert turn.player == first
            assert turn.rack == "".join(f"[{t}]" if len(t) > 1 else t for t in rack)
    unassigned = Game("fise", NAMES[:2], LEXICON, seed=3)
    assert "assigned" not in unassigned.log[0] and unassigned.assigned_first is None


def test_an_assigned_first_seat_must_be_at_the_table() -> None:
    with pytest.raises(ValueError, match="first"):
        Game("fise", NAMES[:2], LEXICON, seed=1, first=2)
