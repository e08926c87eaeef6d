"""Each illegal move names what its message names in ``params`` (squares, words, counts), for
a client to say the reason in its own language; the English message stays as it was."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tablero.alphabet import ROMANIAN
from tablero.board import Tile
from tablero.game import Game
from tablero.rules import IllegalMove, check_words_in_lexicon, placement_from_squares
from tablero.server.errors import from_illegal
from tests.helpers import empty_bag, lay, rig, words

ES = words("CASA", "CASAS", "AS", "SA", "TRABAJO", "TRABADO", "TRAMADO", "BOTA", "MOTA")
RO = words("CASA", "CASAS", "CAS", "MASA", "AS", alphabet=ROMANIAN)


def refusal(game: Game, move: str, rule: str, **kwargs: Any) -> IllegalMove:
    before = game.state()
    with pytest.raises(IllegalMove) as info:
        game.play(move, **kwargs)
    assert info.value.rule == rule, info.value.message
    assert game.state() == before
    return info.value


def test_first_move_off_the_start_square_names_the_start_squares() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    rig(game, game.to_move, "CASAXYZ")
    e = refusal(game, "1A CASA", "start_square")
    assert e.params == {"squares": ["H8"]}
    assert e.message == "the first word must cover H8"
    letras = Game("letras_top", ["Ana", "Luis"], ES, seed=4)
    rig(letras, letras.to_move, "CASAXYZ")
    assert refusal(letras, "1A CASA", "start_square").params == {"squares": ["H8", "J11"]}


def test_first_word_too_short_names_the_minimum() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    rig(game, game.to_move, "CASAXYZ")
    assert refusal(game, "8H C", "first_word_too_short").params == {"min": 2}


def test_occupied_and_gap_name_the_square() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    lay(game, "8G CASA")
    with pytest.raises(IllegalMove) as info:
        placement_from_squares(game.board, [((7, 6), Tile("S")), ((8, 6), Tile("A"))])
    assert (info.value.rule, info.value.params) == ("occupied", {"square": "G8"})
    with pytest.raises(IllegalMove) as info:
        placement_from_squares(game.board, [((0, 0), Tile("S")), ((0, 2), Tile("A"))])
    assert (info.value.rule, info.value.params) == ("gap", {"square": "B1"})


def test_not_on_rack_names_the_tile_and_counts() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    rig(game, game.to_move, "AEIOUSL")
    assert refusal(game, "-Z", "not_on_rack").params == {"tile": "Z", "have": 0}
    e = refusal(game, "-AA", "not_on_rack")
    assert e.params == {"tile": "A", "have": 1, "uses": 2}


def test_not_in_lexicon_names_the_words() -> None:
    with pytest.raises(IllegalMove) as info:
        check_words_in_lexicon([SimpleNamespace(text="CASA"), SimpleNamespace(text="XYZ")], ES)  # type: ignore[list-item]
    assert info.value.params == {"words": ["XYZ"]} and info.value.words == ("XYZ",)
    assert info.value.message == "not in the dictionary: XYZ"


def test_exchange_rules_name_their_numbers() -> None:
    game = Game("crucigrama", ["Ana", "Luis"], ES, seed=4)
    rig(game, game.to_move, "AEIOUSL")
    assert refusal(game, "-AEIO", "exchange_too_many_tiles").params == {"max": 3}
    cuvinte = Game("cuvinte", ["Ana", "Ion"], RO, seed=4)
    empty_bag(cuvinte, leave=6)
    e = refusal(cuvinte, "-" + cuvinte.current.rack[0], "exchange_bag_too_small")
    assert e.params == {"need": 7, "bag": 6}
    cuvinte = Game("cuvinte", ["Ana", "Ion"], RO, seed=4)
    for _ in range(3):
        cuvinte.play("-" + cuvinte.current.rack[0])
        cuvinte.play("-")
    e = refusal(cuvinte, "-" + cuvinte.current.rack[0], "exchange_limit")
    assert e.params == {"per_game": 3}


def test_cambio_rules_name_the_square() -> None:
    game = Game("crucigrama", ["Ana", "Luis"], ES, seed=4)
    lay(game, "8E TRABAJO")
    rig(game, game.to_move, "DXYZ")
    e = refusal(game, "CAMBIO J8 J", "cambio_same_letter")
    assert e.params == {"square": "J8", "letter": "J"}
    assert refusal(game, "CAMBIO A1 D", "cambio_empty_square").params == {"square": "A1"}
    for letter in ("D", "J", "D"):
        game.play(f"CAMBIO J8 {letter}")
        game.play("-")
    assert refusal(game, "CAMBIO J8 J", "cambio_limit").params == {"per_game": 3}


def test_out_of_time_names_the_player() -> None:
    game = Game("cuvinte", ["Ana", "Ion"], RO, seed=1)
    e = refusal(game, "-", "out_of_time", elapsed=901)
    assert e.params == {"player": game.current.name}


def test_the_api_error_body_carries_the_params_next_to_the_english_message() -> None:
    e = IllegalMove("start_square", "the first word must cover H8", params={"squares": ["H8"]})
    body = from_illegal(e).body()["error"]
    assert body == {
        "code": "start_square",
        "message": "the first word must cover H8",
        "rule": "start_square",
        "params": {"squares": ["H8"]},
    }
    assert "params" not in from_illegal(IllegalMove("no_word", "x")).body()["error"]
