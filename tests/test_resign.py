"""Resigning: a player gives up, on their turn or not.

At a table of two the other player wins at once; at three or four the game goes on without the
resigner, whose tiles are set aside, and who ranks below everyone who did not resign. Every
game here is a real game of a real variant, set up with the helpers the rule tests use.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from rich.console import Console

from tablero.alphabet import ROMANIAN, SPANISH
from tablero.engine.players import Bot
from tablero.formats.cgp import read_cgp, write_cgp
from tablero.formats.gcg import GcgError, read_gcg, replay_gcg, write_gcg
from tablero.game import Game, decide_ranks, decide_winners
from tablero.lexicon import WordListLexicon
from tablero.rules import IllegalMove
from tablero.terminal import HotSeat, history_entries
from tablero.variant import load_variant
from tests.helpers import empty_bag, lay, rig, words
from tests.test_gcg import _short_words, choose, play_out
from tests.test_terminal import LEXICON as TERMINAL_LEXICON
from tests.test_terminal import Script, output, recording_console

ES = words("CASA", "CASAS", "AS", "SA", "BOTA", "OSA", "ASE", "SE", "ES", "ACTORES", "COSTA")
RO = words("CASA", "CASAS", "CAS", "MASA", "AS", alphabet=ROMANIAN)


def tile_set(game: Game) -> Counter[str]:
    return Counter({t: n for t, (n, _) in game.variant.tiles.items() if n})


def refused(game: Game, seat: int, rule: str) -> None:
    """The resignation is refused for that rule and the game is exactly as it was."""
    before, log = game.state(), [dict(e) for e in game.log]
    with pytest.raises(IllegalMove) as info:
        game.resign(seat)
    assert info.value.rule == rule, info.value.message
    assert game.state() == before and game.log == log


def others(game: Game, seat: int) -> list[int]:
    return [s for s in range(len(game.players)) if s != seat]


# -- two players ---------------------------------------------------------------------------------


def test_resigning_on_turn_hands_the_game_to_the_other_player_even_when_behind() -> None:
    game = Game("fise", ["Ana", "Luis"], ES, seed=4)
    ana = game.to_move
    rig(game, ana, "CASAXYZ")
    game.play("8H CASA")
    luis = game.to_move
    assert game.players[ana].score > game.players[luis].score
    game.play("-")
    result = game.resign(ana, elapsed=7.5)  # Ana is ahead, and resigns on her turn
    assert (result.seat, result.kind) == (ana, "resigned")
    assert game.is_over and game.result is not None
    assert game.result.reason == "resigned"
    assert game.result.winners == (luis,)
    ranks = [0, 0]
    ranks[luis], ranks[ana] = 1, 2
    assert game.result.ranks == tuple(ranks)
    # No adjustments: the game was not played to its end; the scores stand.
    assert game.result.final_scores == game.result.scores_before
    assert game.result.adjustments == ((), ())
    assert game.players[ana].clock == pytest.approx(1500 - 7.5)
    assert game.log[-2] == {"type": "resign", "seat": ana, "elapsed": 7.5}
    assert game.log[-1]["type"] == "end" and game.log[-1]["ranks"] == ranks
    assert game.tiles_in_play() == tile_set(game)


def test_resigning_off_turn() -> None:
    game = Game("crucigrama", ["Ana", "Luis"], ES, seed=2)
    to_move = game.to_move
    other = 1 - to_move
    game.resign(other)
    assert game.result is not None and game.result.reason == "resigned"
    assert game.result.winners == (to_move,)
    assert game.result.ranks[to_move] == 1 and game.result.ranks[other] == 2
    refused(game, to_move, "game_over")
    with pytest.raises(IllegalMove, match="over"):
        game.play("-")


# -- three and four players ----------------------------------------------------------------------


def test_at_a_table_of_three_the_game_goes_on_without_the_resigner() -> None:
    game = Game("fise", ["Ana", "Luis", "Eva"], ES, seed=1)
    mover = game.to_move
    rack = list(game.players[mover].rack)
    bag = sorted(game.bag)
    game.resign(mover)
    assert not game.is_over
    p = game.players[mover]
    assert p.resigned and p.rack == [] and p.set_aside == rack
    assert sorted(game.bag) == bag  # set aside, not returned to the bag
    assert game.tiles_in_play() == tile_set(game)
    assert game.to_move == game.next_seat(mover)  # the turn passes on
    assert game.seats_in_game() == others(game, mover)
    for _ in range(5):  # the resigner is passed over, turn after turn (six would end it)
        game.play("-", elapsed=1.0)
        assert game.to_move != mover
    assert game.players[mover].clock == 1500  # never charged again
    assert game.tiles_in_play() == tile_set(game)


def test_a_resignation_off_turn_leaves_the_turn_where_it_is() -> None:
    game = Game("intelect", ["A", "B", "C"], ES, seed=1)
    mover = game.to_move
    skipped = game.next_seat(mover)
    game.resign(skipped)
    assert game.to_move == mover
    game.play("-")
    assert game.to_move == game.next_seat(skipped)  # counter-clockwise, past the resigner


def test_a_second_resignation_ends_a_game_of_three_and_later_resigners_rank_higher() -> None:
    game = Game("fise", ["Ana", "Luis", "Eva"], ES, seed=1)
    first = game.to_move
    rig(game, first, "CASAXYZ")
    game.play("8H CASA")  # the first to resign has the best score
    second = game.to_move
    game.resign(first)
    assert not game.is_over
    game.resign(second)
    assert game.result is not None and game.result.reason == "resigned"
    (last,) = [s for s in range(3) if s not in (first, second)]
    assert game.result.winners == (last,)
    assert game.result.ranks[last] == 1
    assert game.result.ranks[second] == 2
    assert game.result.ranks[first] == 3
    assert game.resignations == [first, second]
    assert game.tiles_in_play() == tile_set(game)


def test_four_players_two_resign_the_other_two_play_to_the_end() -> None:
    game = Game("cuvinte", ["Ana", "Ion", "Eva", "Dan"], RO, seed=8)
    mover = game.to_move
    rig(game, mover, "CASAXZ")
    game.play("8I CASA")  # the top score, for a player who will resign
    resigners = [mover, (mover + 2) % 4]
    game.resign(resigners[0], elapsed=3.0)
    game.resign(resigners[1])
    left = game.seats_in_game()
    assert len(left) == 2 and not game.is_over
    # Cuvinte ends after two scoreless rounds: of the two players left, four passes.
    for i in range(4):
        assert not game.is_over, i
        assert game.to_move in left
        game.play("-")
    assert game.result is not None and game.result.reason == "scoreless_rounds"
    final = game.result.final_scores
    assert final[resigners[0]] == max(final)  # still last: resigning ranks below playing on
    assert game.result.adjustments[resigners[0]] == game.result.adjustments[resigners[1]] == ()
    a, b = left
    if final[a] == final[b]:
        assert game.result.ranks[a] == game.result.ranks[b] == 1
    else:
        assert {game.result.ranks[a], game.result.ranks[b]} == {1, 2}
    assert game.result.ranks[resigners[1]] == 3 and game.result.ranks[resigners[0]] == 4
    assert set(game.result.winners) == {s for s in left if game.result.ranks[s] == 1}
    assert game.tiles_in_play() == tile_set(game)


def test_scoreless_rounds_count_the_players_left() -> None:
    game = Game("fise", ["Ana", "Luis", "Eva"], ES, seed=1)
    game.resign(game.next_seat(game.to_move))
    for _ in range(5):  # three rounds of two players: six passes
        game.play("-")
        assert not game.is_over
    game.play("-")
    assert game.result is not None and game.result.reason == "scoreless_rounds"


def test_a_run_long_enough_for_the_players_left_ends_at_the_resignation() -> None:
    game = Game("crucigrama", ["Ana", "Luis", "Eva"], ES, seed=1)
    for _ in range(4):  # two rounds for three players would be six passes
        game.play("-")
    assert not game.is_over
    game.resign(game.to_move)  # two players left: four passes were two rounds
    assert game.result is not None and game.result.reason == "scoreless_rounds"


def test_everyone_left_out_of_time_ends_the_game() -> None:
    game = Game("cuvinte", ["Ana", "Ion", "Eva"], RO, seed=1)
    game.resign(game.to_move)
    game.timeout()
    assert not game.is_over
    game.timeout()
    assert game.result is not None and game.result.reason == "all_out_of_time"


def test_no_one_left_can_play_once_the_only_player_who_could_resigns() -> None:
    game = Game("crucigrama", ["Ana", "Luis", "Eva"], ES, seed=3)
    lay(game, "8G CASA")
    mover = game.to_move
    second, third = game.next_seat(mover), game.next_seat(game.next_seat(mover))
    rig(game, mover, "Ñ")
    rig(game, second, "QJ")
    rig(game, third, "S")  # CASAS
    empty_bag(game)
    game.resign(third)
    assert game.result is not None and game.result.reason == "no_one_can_play"
    assert game.result.ranks[third] == 3


# -- going out -----------------------------------------------------------------------------------


def test_a_resigned_players_empty_rack_does_not_go_out_nor_count_at_the_end() -> None:
    game = Game("fise", ["Ana", "Luis", "Eva"], ES, seed=3)
    mover = game.to_move
    second, third = game.next_seat(mover), game.next_seat(game.next_seat(mover))
    rig(game, mover, "CASA")
    rig(game, second, "ÑXZ")
    rig(game, third, "L")
    empty_bag(game)
    game.resign(second)  # an empty rack and an empty bag: not a player going out
    assert not game.is_over
    score = game.play("8H CASA").score
    assert game.result is not None and game.result.reason == "going_out"
    values = game.variant.value
    assert game.result.adjustments[mover] == (("the others' tiles", values("L")),)
    assert game.result.adjustments[third] == (("tiles left on the rack", -values("L")),)
    assert game.result.adjustments[second] == ()  # no penalty for the tiles set aside
    assert game.players[mover].score == score + values("L")
    assert game.result.ranks[mover] == 1 and game.result.ranks[second] == 3


# -- refusals ------------------------------------------------------------------------------------


def test_refusals_change_nothing() -> None:
    game = Game("fise", ["Ana", "Luis", "Eva"], ES, seed=1)
    seat = game.to_move
    game.resign(seat)
    refused(game, seat, "already_resigned")
    for bad_seat in (-1, 3):
        before = game.state()
        with pytest.raises(ValueError, match="no seat"):
            game.resign(bad_seat)
        assert game.state() == before
    before = game.state()
    with pytest.raises(ValueError, match="elapsed"):
        game.resign(game.to_move, elapsed=-1.0)
    assert game.state() == before
    game.resign(game.to_move)
    assert game.is_over
    for s in range(3):
        refused(game, s, "game_over")


def test_a_resigned_player_cannot_challenge() -> None:
    game = Game("bisonte", ["Ana", "Luis", "Eva"], ES, seed=4)
    mover = game.to_move
    rig(game, mover, "CASXYZA")
    game.play("8H CASX")
    quitter = game.next_seat(game.to_move)  # not the player to move
    game.resign(quitter)
    assert not game.can_challenge(quitter)
    before = game.state()
    with pytest.raises(IllegalMove) as info:
        game.challenge(quitter)
    assert info.value.rule == "already_resigned" and game.state() == before


# -- Bisonte: a play open to a challenge ---------------------------------------------------------


def test_a_resignation_by_another_player_leaves_the_play_open_to_challenge() -> None:
    game = Game("bisonte", ["Ana", "Luis", "Eva"], ES, seed=4)
    ana = game.to_move
    rig(game, ana, "CASXYZA")
    game.play("8H CASX")
    luis = game.to_move
    game.resign(game.next_seat(luis))  # Eva resigns, off turn
    assert game.can_challenge(luis)
    assert game.play("CHALLENGE").kind == "challenge_upheld"
    assert game.board.is_empty()
    assert game.tiles_in_play() == tile_set(game)


def test_a_resignation_by_the_challenger_to_be_passes_the_right_on() -> None:
    game = Game("bisonte", ["Ana", "Luis", "Eva"], ES, seed=4)
    ana = game.to_move
    rig(game, ana, "CASXYZA")
    game.play("8H CASX")
    game.resign(game.to_move)  # Luis resigns on his turn; Eva may still challenge
    assert game.can_challenge(game.to_move)
    assert game.play("CHALLENGE").kind == "challenge_upheld"


def test_a_resignation_by_the_player_of_the_play_lets_it_stand() -> None:
    game = Game("bisonte", ["Ana", "Luis", "Eva"], ES, seed=4)
    ana = game.to_move
    rig(game, ana, "CASXYZA")
    game.play("8H CASX")
    game.resign(ana)
    assert not game.can_challenge()
    before = game.state()
    with pytest.raises(IllegalMove) as info:
        game.play("CHALLENGE")
    assert info.value.rule == "nothing_to_challenge" and game.state() == before
    assert not game.board.is_empty() and game.players[ana].score > 0
    assert game.tiles_in_play() == tile_set(game)


# -- ranks ---------------------------------------------------------------------------------------


def test_ranks_share_ties_and_skip_the_next_place() -> None:
    fise, bisonte = load_variant("fise"), load_variant("bisonte")
    assert decide_ranks(fise, [50, 80, 50, 80], [0, 0, 0, 0]) == [3, 1, 3, 1]
    # Bisonte breaks a tie by the scores before the adjustments, as for the winners.
    assert decide_ranks(bisonte, [50, 50, 40], [60, 55, 40]) == [1, 2, 3]
    assert decide_ranks(bisonte, [50, 50, 40], [55, 55, 40]) == [1, 1, 3]
    # Resigned seats rank last, the latest to resign highest, whatever their scores.
    assert decide_ranks(fise, [500, 10, 400, 20], [0, 0, 0, 0], [2, 0]) == [3, 2, 4, 1]


@pytest.mark.parametrize("variant", ["fise", "bisonte"])
@pytest.mark.parametrize(
    ("final", "before"),
    [([10, 10], [5, 8]), ([10, 12, 12], [0, 3, 3]), ([7, 7, 7, 7], [1, 2, 3, 3]), ([3], [3])],
)
def test_winners_are_the_seats_ranked_first(
    variant: str, final: list[int], before: list[int]
) -> None:
    v = load_variant(variant)
    ranks = decide_ranks(v, final, before)
    assert decide_winners(v, final, before) == [s for s, r in enumerate(ranks) if r == 1]


# -- replay --------------------------------------------------------------------------------------


def test_a_log_with_resignations_replays_to_the_same_game() -> None:
    fresh = Game("fise", ["Ana", "Luis", "Eva", "Dan"], ES, seed=6)
    fresh.play("-" + fresh.current.rack[0], elapsed=4.0)
    fresh.resign(fresh.next_seat(fresh.to_move), elapsed=1.5)  # off turn
    fresh.play("-", elapsed=2.0)
    fresh.resign(fresh.to_move)  # on turn
    replayed = Game.replay(fresh.log, ES)
    assert replayed.state() == fresh.state()
    # A game held in memory catches up with a longer log.
    part = Game.replay(fresh.log[:3], ES)
    part.extend(fresh.log)
    assert part.state() == fresh.state()
    fresh.resign(fresh.to_move)
    assert Game.replay(fresh.log, ES).state() == fresh.state()
    # A resignation by another seat does not replay.
    log = [dict(e) for e in fresh.log]
    i = next(i for i, e in enumerate(log) if e["type"] == "resign")
    log[i]["seat"] = (log[i]["seat"] + 1) % 4
    with pytest.raises(ValueError):
        Game.replay(log, ES)


def test_an_old_log_whose_end_has_no_ranks_still_replays() -> None:
    game = Game("crucigrama", ["Ana", "Luis"], ES, seed=1)
    for _ in range(4):
        game.play("-")
    assert game.is_over and "ranks" in game.log[-1]
    old = [dict(e) for e in game.log]
    del old[-1]["ranks"]  # as games were stored before ranks were recorded
    replayed = Game.replay(old, ES)
    assert replayed.state() == game.state()
    assert replayed.result is not None and replayed.result.ranks == game.result.ranks  # type: ignore[union-attr]
    wrong = [dict(e) for e in game.log]
    wrong[-1]["ranks"] = [2, 2]  # recorded ranks must be the ones the game gives
    with pytest.raises(ValueError, match="does not replay the same"):
        Game.replay(wrong, ES)


# -- what the engine sees ------------------------------------------------------------------------


def test_the_position_leaves_resigned_players_out() -> None:
    game = Game("fise", ["Ana", "Luis", "Eva"], ES, seed=1)
    quitter = game.next_seat(game.to_move)
    game.resign(quitter)
    position = game.position()
    assert len(position.racks) == 2 and len(position.scores) == 2
    assert position.racks[1] == tuple(game.players[game.next_seat(quitter)].rack)
    assert position.bag == len(game.bag)
    # The set-aside tiles are unseen: the bag and the other player's rack hold fewer.
    unseen = sum(position.unseen().values())
    assert unseen == len(game.bag) + 7 + len(game.players[quitter].set_aside)
    again = read_cgp(write_cgp(position))
    assert again.racks == position.racks and again.scores == position.scores


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_bot_moves_at_a_table_of_three_after_a_resignation(level: str) -> None:
    game = Game("fise", ["Ana", "bot", "Eva"], ES, seed=1)
    rig(game, game.to_move, "ACEORST")
    game.resign(game.next_seat(game.next_seat(game.to_move)))
    bot = Bot(level, game.variant, ES, seed=1, sim_iterations=20, time_limit=30)
    result = game.play(bot.choose(game))  # the obvious bingo
    assert result.kind == "placed" and len(result.placed) == 7
    assert not game.is_over
    game.play(bot.choose(game))  # and the next player, whoever the bot plays for
    assert game.tiles_in_play() == tile_set(game)


# -- GCG -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def es_short() -> WordListLexicon:
    """The shipped Spanish list, words of up to four letters (as tests/test_gcg.py plays)."""
    return _short_words("es", SPANISH, 4)


def _resigned_game(lexicon: WordListLexicon, players: int, seed: int) -> tuple[Game, list[int]]:
    """A real game: random play, a resignation off turn at the eleventh turn, at a table of
    four another on turn at the twentieth, then random play to the end."""
    game = Game("fise", ["Ana María", "Luis", "Eva", "Dan"][:players], lexicon, seed=seed)
    rng = random.Random(seed)
    resigned = []
    for turn in range(20):
        if turn == 10 or (turn == 19 and players == 4):
            seat = game.next_seat(game.to_move) if turn == 10 else game.to_move
            game.resign(seat, elapsed=2.0)
            resigned.append(seat)
            if game.is_over:
                break
        game.play(choose(game, rng), rng.uniform(0, 30))
        if game.is_over:
            break
    play_out(game, rng)
    return game, resigned


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_gcg_round_trip_with_resignations(
    es_short: WordListLexicon, players: int, seed: int
) -> None:
    game, resigned = _resigned_game(es_short, players, seed)
    assert game.result is not None and game.resignations == resigned
    assert len(resigned) == (2 if players == 4 else 1)
    text = write_gcg(game)
    gcg = read_gcg(text)
    nicks = [p.nick for p in gcg.players]
    assert [player for _, player in gcg.resignations] == resigned
    for line, player in gcg.resignations:
        assert text.splitlines()[line - 1] == f"#resign {nicks[player]}"
        assert all(t.line < line for t in gcg.turns if t.player == player)
    assert replay_gcg(gcg, game.variant) == list(game.result.final_scores)
    # At the place of the event: the next turn line is the next move of the log.
    for (line, player), i in zip(gcg.resignations, _resign_indices(game), strict=True):
        assert game.log[i]["seat"] == player
        next_move = next((e for e in game.log[i:] if e["type"] == "move"), None)
        next_line = next((t for t in gcg.turns if t.line > line and t.kind != "end"), None)
        assert (next_move is None) == (next_line is None)
        if next_move is not None and next_line is not None:
            assert next_line.player == next_move["seat"]
    if players == 2:
        assert game.result.reason == "resigned"
        assert not any(t.kind == "end" for t in gcg.turns)
    else:
        assert game.result.reason != "resigned"  # the others played on to the end
    hidden = read_gcg(write_gcg(game, hide_racks=True))
    assert hidden.resignations == gcg.resignations
    assert replay_gcg(hidden, game.variant) == list(game.result.final_scores)


def _resign_indices(game: Game) -> list[int]:
    return [i for i, e in enumerate(game.log) if e["type"] == "resign"]


def test_gcg_refuses_a_turn_after_a_resignation_and_a_bad_resign_line() -> None:
    text = """#player1 ana Ana
#player2 luis Luis
#player3 eva Eva
>ana: CASAXYZ 8H CASA +12 12
#resign luis
>eva: ABCDEFG - +0 0
"""
    gcg = read_gcg(text)
    assert gcg.resignations == [(5, 1)]
    assert replay_gcg(gcg) == [12, 0, 0]
    late = text + ">luis: AEIOUJL -AE +0 0\n"
    with pytest.raises(GcgError, match="line 7: luis resigned on line 5"):
        replay_gcg(read_gcg(late))
    with pytest.raises(GcgError, match="not a player"):
        read_gcg(text + "#resign pedro\n")
    with pytest.raises(GcgError, match="already resigned"):
        read_gcg(text + "#resign luis\n")


# -- the terminal game ---------------------------------------------------------------------------


def _hot_seat(players: list[str], answers: list[str], seed: int = 11) -> tuple[HotSeat, Console]:
    game = Game("fise", players, TERMINAL_LEXICON, seed=seed)
    console = recording_console()
    script = Script(console, list(answers))
    return HotSeat(game, console, script, script.clock), console


def test_typing_resign_asks_first_then_the_other_player_wins() -> None:
    hot, console = _hot_seat(["Ana", "Luis"], ["resign", "n", "resign", "y"])
    game = hot.game
    quitter = game.to_move
    assert hot.run() == "over"
    assert [e["type"] for e in game.log] == ["start", "resign", "end"]
    assert game.result is not None and game.result.reason == "resigned"
    assert game.result.winners == (1 - quitter,)
    text = output(console)
    name, winner = game.players[quitter].name, game.players[1 - quitter].name
    assert f"{name}, resign the game? (y/N)" in text
    assert f"The game ended: {name} resigned." in text
    assert f"Winner: {winner} with 0 points." in text


def test_at_a_table_of_three_the_others_play_on_at_the_terminal() -> None:
    hot, console = _hot_seat(["Ana", "Luis", "Eva"], ["resign", "y"])
    game = hot.game
    quitter = game.to_move
    assert hot.run() == "over"  # the two left pass to the end
    assert game.result is not None and game.result.reason == "scoreless_rounds"
    assert game.result.ranks[quitter] == 3
    text = output(console)
    name = game.players[quitter].name
    assert f"{name} resigns: their tiles are set aside and the others play on." in text
    assert "resigned" in text[text.rindex("Final scores") :]  # in the adjustments column
    assert [e.what for e in history_entries(game) if e.who == name] == ["resigns"]
