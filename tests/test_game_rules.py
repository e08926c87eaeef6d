"""Game-level rules of each variant: exchanges, CAMBIO, EX, challenges, who starts, turn
order, clocks, and every way a game ends with its final adjustments.

Every rejected action is checked to leave the whole game state unchanged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tablero
from tablero.alphabet import ROMANIAN
from tablero.game import Game
from tablero.lexicon import AnyWordLexicon
from tablero.rules import IllegalMove
from tablero.variant import load_variant
from tests.helpers import empty_bag, lay, rig, words

ES = words("CASA", "CASAS", "AS", "SA", "TRABAJO", "TRABADO", "TRAMADO", "BOTA", "MOTA")
RO = words("CASA", "CASAS", "CAS", "MASA", "AS", alphabet=ROMANIAN)


def rejected(game: Game, move: str, rule: str) -> None:
    """The move is rejected for that rule and the game is exactly as before."""
    before = game.state()
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert info.value.rule == rule, info.value.message
    assert game.state() == before


# -- exchanges ----------------------------------------------------------------------------------


def test_cuvinte_allows_three_exchanges_a_player_not_four() -> None:
    game = Game("cuvinte", ["Ana", "Ion"], RO, seed=4)
    ana = game.to_move
    for _ in range(3):
        assert game.play("-" + game.current.rack[0]).kind == "exchanged"
        game.play("-")  # Ion passes
    assert game.players[ana].exchanges == 3
    rejected(game, "-" + game.current.rack[0], "exchange_limit")


def test_exchange_needs_seven_tiles_in_the_bag() -> None:
    game = Game("cuvinte", ["Ana", "Ion"], RO, seed=4)
    empty_bag(game, leave=6)
    rejected(game, "-" + game.current.rack[0], "exchange_bag_too_small")


def test_exchange_returns_tiles_and_draws_as_many() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    seat = game.to_move
    rack = list(game.current.rack)
    bag_before = len(game.bag)
    result = game.play("-" + "".join(f"[{t}]" if len(t) > 1 else t for t in rack[:3]))
    assert result.kind == "exchanged" and result.score == 0
    assert len(game.players[seat].rack) == 7 and len(game.bag) == bag_before


def test_crucigrama_exchanges_at_most_three_tiles() -> None:
    game = Game("crucigrama", ["Ana", "Luis"], ES, seed=4)
    rig(game, game.to_move, "AEIOUSL")
    rejected(game, "-AEIO", "exchange_too_many_tiles")
    assert game.play("-AEI").kind == "exchanged"


def test_intelect_exchanges_only_when_no_word_can_be_formed() -> None:
    game = Game("intelect", ["Ana", "Luis"], ES, seed=4)
    rig(game, game.to_move, "CASAXYZ")  # CASA can be played
    rejected(game, "-XYZ", "exchange_only_when_blocked")
    rig(game, game.to_move, "BDFGJLM")  # nothing in ES can be formed
    assert game.play("-BDF").kind == "exchanged"


def test_exchange_of_a_tile_not_on_the_rack() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    rig(game, game.to_move, "AEIOUSL")
    rejected(game, "-Z", "not_on_rack")


# -- CAMBIO ------------------------------------------------------------------------------------


def _cambio_game() -> Game:
    game = Game("crucigrama", ["Ana", "Luis"], ES, seed=4)
    lay(game, "8E TRABAJO")
    rig(game, game.to_move, "DXYZ")
    return game


def test_cambio_puts_the_replaced_tile_on_the_rack() -> None:
    game = _cambio_game()
    seat = game.to_move
    result = game.play("CAMBIO J8 D")
    assert (result.kind, result.score) == ("cambio", 11)
    assert "J" in game.players[seat].rack and "D" not in game.players[seat].rack
    assert game.board[(7, 9)] is not None and game.board[(7, 9)].letter == "D"


def test_a_fourth_cambio_is_refused() -> None:
    game = _cambio_game()
    seat = game.to_move
    for letter in ("D", "J", "D"):
        assert game.play(f"CAMBIO J8 {letter}").kind == "cambio"
        game.play("-")
    assert game.players[seat].cambios == 3
    rejected(game, "CAMBIO J8 J", "cambio_limit")


def test_a_cambio_that_does_not_change_the_word_is_refused() -> None:
    game = _cambio_game()  # the only J is on J8 already: the same letter is refused first
    rejected(game, "CAMBIO J8 J", "cambio_same_letter")


def test_a_cambio_to_a_word_not_in_the_dictionary_loses_the_turn() -> None:
    game = _cambio_game()
    seat = game.to_move
    rack = list(game.current.rack)
    result = game.play("CAMBIO J8 X")
    assert (result.kind, result.score) == ("lost_turn", 0)
    assert game.players[seat].rack == rack and game.players[seat].cambios == 0
    assert game.board[(7, 9)] is not None and game.board[(7, 9)].letter == "J"


def test_a_cambio_joining_two_words_must_keep_both_valid() -> None:
    game = Game("crucigrama", ["Ana", "Luis"], ES, seed=4)
    lay(game, "8E TRABADO")
    lay(game, "H8 (B)OTA")
    rig(game, game.to_move, "MXYZ")
    assert game.play("CAMBIO H8 M").score == 10 + 6
    game2 = Game("crucigrama", ["Ana", "Luis"], words("TRABADO", "TRAMADO", "BOTA"), seed=4)
    lay(game2, "8E TRABADO")
    lay(game2, "H8 (B)OTA")
    rig(game2, game2.to_move, "MXYZ")
    assert game2.play("CAMBIO H8 M").kind == "lost_turn"  # MOTA is not in this dictionary


def test_cambio_only_in_crucigrama() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    lay(game, "8E TRABAJO")
    rig(game, game.to_move, "DXYZ")
    rejected(game, "CAMBIO J8 D", "no_cambio")


# -- EX (cuvinte) --------------------------------------------------------------------------------


def _ex_game() -> Game:
    game = Game("cuvinte", ["Ana", "Ion"], RO, seed=8)
    lay(game, "H6 AS")  # A on H6 below the EX square H5
    rig(game, game.to_move, "CXZ")
    return game


def test_ex_shuffles_the_next_players_rack() -> None:
    game = _ex_game()
    mover = game.to_move
    victim = game.next_seat(mover)
    before = sorted(game.players[victim].rack)
    total = game.tiles_in_play()
    result = game.play("H5 C(AS)")  # C lands on H5, an EX square
    assert result.breakdown is not None and result.breakdown.shuffles_next_rack
    assert sorted(game.players[victim].rack) != before
    assert len(game.players[victim].rack) == 7
    assert game.tiles_in_play() == total
    assert {"type": "shuffle", "seat": victim} in game.log
    # logged after the move that caused it, so histories credit the right player
    assert [e["type"] for e in game.log[-2:]] == ["move", "shuffle"]


def test_ex_does_nothing_with_fewer_than_seven_tiles_in_the_bag() -> None:
    game = _ex_game()
    victim = game.next_seat(game.to_move)
    empty_bag(game, leave=7)  # the mover draws one: six are left
    before = list(game.players[victim].rack)
    game.play("H5 C(AS)")
    assert game.players[victim].rack == before
    assert not any(e["type"] == "shuffle" for e in game.log)


# -- words and challenges ------------------------------------------------------------------------


def test_an_invalid_word_loses_the_turn() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    seat = game.to_move
    rig(game, seat, "CASXYZA")
    rack = list(game.current.rack)
    result = game.play("8H CASX")
    assert (result.kind, result.score) == ("lost_turn", 0)
    assert "CASX" in result.reason
    assert game.players[seat].rack == rack and game.board.is_empty()
    assert game.to_move != seat


def test_bisonte_challenge_of_an_invalid_word_takes_the_play_back() -> None:
    game = Game("bisonte", ["Ana", "Luis"], ES, seed=4)
    ana = game.to_move
    rig(game, ana, "CASXYZA")
    bag = sorted(game.bag)
    assert game.play("8H CASX").kind == "placed"  # words are checked only when challenged
    luis = game.to_move
    result = game.play("CHALLENGE")
    assert result.kind == "challenge_upheld"
    assert game.board.is_empty() and game.players[ana].score == 0
    assert sorted(game.players[ana].rack) == sorted("CASXYZA")
    assert sorted(game.bag) == bag
    assert game.to_move == luis  # Ana's turn was lost; Luis plays


def test_bisonte_challenge_of_a_valid_word_costs_the_challenger_a_turn() -> None:
    game = Game("bisonte", ["Ana", "Luis", "Eva"], ES, seed=4)
    first = game.to_move
    rig(game, first, "CASAXYZ")
    game.play("8H CASA")
    challenger = game.to_move
    result = game.play("CHALLENGE")
    assert result.kind == "challenge_failed"
    assert game.to_move not in (first, challenger)  # the challenger's turn is skipped
    assert {"type": "skip", "seat": challenger, "reason": "challenge_penalty"} in game.log


def test_only_bisonte_has_challenges() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    rejected(game, "CHALLENGE", "challenge_not_allowed")


def test_nothing_to_challenge_at_the_start() -> None:
    game = Game("bisonte", ["Ana", "Luis"], ES, seed=4)
    rejected(game, "CHALLENGE", "nothing_to_challenge")


# -- who starts and turn order -------------------------------------------------------------------


RANK = {
    "fise": lambda v, t: -1 if t == "?" else v.alphabet.code(t),
    "bisonte": lambda v, t: -1 if t == "?" else v.alphabet.code(t),
    "letras_top": lambda v, t: -1 if t == "?" else v.alphabet.code(t),
    "crucigrama": lambda v, t: -v.value(t) if t != "?" else 1,
}
"""The games whose players draw a tile to start (Intelect's dealt racks decide: see
tests/test_start_rule.py)."""


@pytest.mark.parametrize("variant", sorted(RANK))
@pytest.mark.parametrize("seed", range(6))
def test_the_drawing_rule_picks_who_starts(variant: str, seed: int) -> None:
    game = Game(variant, ["A", "B", "C"], ES, seed=seed)
    start = game.log[0]
    last_round = start["draws"][-1]
    ranks = {seat: RANK[variant](game.variant, tile) for seat, tile in last_round}
    best = min(ranks.values())
    assert [s for s, r in ranks.items() if r == best] == [start["first"]]
    assert game.to_move == start["first"]
    # reproducible from the seed
    assert Game(variant, ["A", "B", "C"], ES, seed=seed).log[0] == start


def test_intelect_turns_pass_to_the_right() -> None:
    game = Game("intelect", ["A", "B", "C"], ES, seed=1)
    first = game.to_move
    game.play("-")
    assert game.to_move == (first - 1) % 3


def test_fise_turns_pass_clockwise() -> None:
    game = Game("fise", ["A", "B", "C"], ES, seed=1)
    first = game.to_move
    game.play("-")
    assert game.to_move == (first + 1) % 3


# -- clocks --------------------------------------------------------------------------------------


def test_elapsed_time_is_charged_to_the_mover() -> None:
    game = Game("cuvinte", ["Ana", "Ion"], RO, seed=1)
    seat = game.to_move
    game.play("-", elapsed=30.5)
    assert game.players[seat].clock == pytest.approx(900 - 30.5)


def test_a_move_after_the_time_ran_out_is_refused_then_timeout_skips() -> None:
    game = Game("cuvinte", ["Ana", "Ion"], RO, seed=1)
    seat = game.to_move
    before = game.state()
    with pytest.raises(IllegalMove) as info:
        game.play("-", elapsed=901)
    assert info.value.rule == "out_of_time" and game.state() == before
    game.timeout()
    assert game.players[seat].out_of_time and game.to_move != seat
    game.play("-")  # Ion passes; Ana, out of time, is passed over
    assert game.to_move != seat


# -- the end -------------------------------------------------------------------------------------


def _endgame(variant: str, lexicon=ES, laid: str = "", **racks: str) -> Game:  # type: ignore[no-untyped-def]
    game = Game(variant, ["Ana", "Luis"], lexicon, seed=3)
    if laid:
        lay(game, laid)
    mover = game.to_move
    other = 1 - mover
    rig(game, mover, racks["mover"])
    rig(game, other, racks["other"])
    empty_bag(game)
    return game


@pytest.mark.parametrize(
    ("variant", "transfer"),
    [
        ("fise", True),
        ("bisonte", True),
        ("intelect", True),
        ("cuvinte", True),
        ("crucigrama", False),
    ],
)
def test_going_out(variant: str, transfer: bool) -> None:
    lexicon = RO if variant == "cuvinte" else ES
    game = _endgame(variant, lexicon, mover="CASA", other="DEL")
    mover = game.to_move
    v = game.variant
    move = "8I CASA" if variant == "cuvinte" else "8H CASA"
    score = game.play(move).score
    if variant == "bisonte":
        assert game.is_over  # a challenge of the final play could still reopen it
    assert game.result is not None and game.result.reason == "going_out"
    left = sum(v.value(t) for t in "DEL")
    assert game.players[mover].score == score + (left if transfer else 0)
    assert game.players[1 - mover].score == -left


def test_letras_top_unplayed_blanks_cost_thirty() -> None:
    game = _endgame("letras_top", words("ROSAS"), mover="ROSAS", other="?E")
    mover = game.to_move
    game.play("H5 ROSAS")
    assert game.result is not None
    assert game.players[1 - mover].score == -1 - 30  # E is 1, the blank 0 plus 30
    assert game.players[mover].score == 15  # no transfer in Letras Top


def test_cuvinte_ends_when_everyone_passes_twice_in_a_row() -> None:
    game = Game("cuvinte", ["Ana", "Ion"], RO, seed=1)
    racks = [list(p.rack) for p in game.players]
    for _ in range(3):
        game.play("-")
        assert not game.is_over
    game.play("-")
    assert game.result is not None and game.result.reason == "scoreless_rounds"
    for p, rack in zip(game.players, racks, strict=True):
        assert p.score == -sum(game.variant.value(t) for t in rack)


def test_the_game_ends_when_no_one_can_play() -> None:
    game = _endgame("crucigrama", ES, laid="8G CASA", mover="XYZ", other="QJV")
    game.play("-")
    assert game.result is not None and game.result.reason == "no_one_can_play"


def test_cuvinte_ends_when_everyone_is_out_of_time() -> None:
    game = Game("cuvinte", ["Ana", "Ion"], RO, seed=1)
    game.timeout()
    assert not game.is_over
    game.timeout()
    assert game.result is not None and game.result.reason == "all_out_of_time"


def test_fise_overtime_costs_ten_points_a_started_minute() -> None:
    game = _endgame("fise", ES, mover="CASA", other="DE")
    mover = game.to_move
    score = game.play("8H CASA", elapsed=1500 + 61).score
    assert game.result is not None
    adj = dict(game.result.adjustments[mover])
    assert adj["over time"] == -20
    assert game.players[mover].score == score + 3 - 20


def test_bisonte_tie_goes_to_the_higher_score_before_adjustments() -> None:
    game = _endgame("bisonte", ES, mover="CASA", other="DE")
    mover, other = game.to_move, 1 - game.to_move
    move_score = game.check("8H CASA")
    assert move_score is not None
    rest = 2 + 1  # D and E
    game.players[other].score = move_score.total + 2 * rest
    game.play("8H CASA")
    assert game.result is not None
    assert game.result.final_scores[mover] == game.result.final_scores[other]
    assert game.result.winners == (other,)


def test_a_tampered_log_does_not_replay() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    game.play("-" + game.current.rack[0], elapsed=3.0)
    game.play("-")
    assert Game.replay(game.log, ES).state() == game.state()
    log = [dict(e) for e in game.log]
    log[1]["score"] += 1
    with pytest.raises(ValueError, match="event 1"):
        Game.replay(log, ES)



def test_a_bag_of_one_letter_cannot_tie_forever_so_lots_decide(tmp_path: Path) -> None:
    """Draws for the start never break a tie when every tile ranks alike; lots decide then."""
    fise = (Path(tablero.__file__).parent / "variants" / "fise.toml").read_text("utf-8")
    start = fise.index("[tiles]")
    end = fise.index("\n[", start + 1)
    one_letter = fise[:start] + "[tiles]\nA = [100, 1]\n" + fise[end:]
    path = tmp_path / "one_letter.toml"
    path.write_text(one_letter, "utf-8")
    variant = load_variant(str(path))
    assert variant.start_rule != "random" and set(variant.tiles) == {"A"}
    lexicon = AnyWordLexicon(variant.alphabet)
    firsts = {Game(variant, ["A", "B"], lexicon, seed=s).to_move for s in range(12)}
    assert firsts == {0, 1}


def test_extend_catches_up_with_a_longer_log_of_the_same_game() -> None:
    """A game held in memory plays the actions another copy stored after it, and refuses a
    log that is not its own continuation."""
    from tablero.alphabet import SPANISH
    from tablero.engine.players import Bot
    from tablero.lexicon import load_lexicon

    lexicon = load_lexicon("es", SPANISH)
    ahead = Game("fise", ["A", "B"], lexicon, seed=5)
    behind = Game.replay(list(ahead.log), lexicon)
    bot = Bot("greedy", ahead.variant, lexicon)
    for _ in range(6):
        ahead.play(bot.choose(ahead))
    behind.extend(ahead.log)
    assert behind.log == ahead.log
    assert behind.state() == ahead.state()
    forged = [*ahead.log[:-1], {**ahead.log[-1], "score": 999}]
    other = Game.replay(ahead.log[:3], lexicon)
    with pytest.raises(ValueError, match="does not replay the same"):
        other.extend(forged)
