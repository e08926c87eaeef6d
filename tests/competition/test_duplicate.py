"""The duplicate game as a library: a short game worked by hand, bad input, storage, GCG.

The hand-worked game (``mini``) is FISE's board with seven tiles in the bag, C A A S L O T, and
three words, CASA, CASAL and LO, so every rack and every move can be counted on paper.

Round 1: the rack is all seven tiles. The first word covers H8 (2W); on row 8 and column H the
only other premiums within reach are the 2L squares four away (D8, L8, H4, H12). CASAL
(C3 A1 S1 A1 L1 = 7) from D8 puts C on the 2L: (6 + 4) × 2 = 20; from H4 the same by symmetry;
from H8 the L reaches L8: (7 + 1) × 2 = 16; elsewhere 7 × 2 = 14. CASA at best 6 × 2 = 12 and
LO 4. So the top is 20, two moves tie, and the stated order places ``8D CASAL`` ("8" before
"H" in the notation's text).

Round 2: the leave O T is the rack (the bag is empty); rounds after the first need one vowel
and one consonant, which O T has. The only word O T can make is LO through the L on H8:
``H8 (L)O`` = L1 (already there) + O1 on H9 (plain) = 2.

Round 3: T alone has no vowel, so no rack can meet the rule: the game ends (``draw_rule``).

The players (solo bonus 10): Ana plays 8D CASAL (20, a top) and then LO (2, a top and the only
one: solo +10) = 32; Luis plays H4 CASAL (20, also a top: two found it, so no solo) and then
nothing = 20; Eva sends 8D CASAL, changes her mind to 8H CASA (the last counts: 12) and then
sends LOT (not a word: 0) = 12. The top's total is 22: Ana 32/22 = 145.45 %, Luis 90.91 %,
Eva 54.55 %.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tablero.alphabet import SPANISH
from tablero.competition.duplicate import DuplicateError, DuplicateGame, DuplicateOptions
from tablero.competition.duplicate_gcg import read_duplicate_gcg, write_duplicate_gcg
from tablero.formats.gcg import read_gcg, replay_gcg
from tablero.lexicon import WordListLexicon, load_lexicon
from tablero.variant import Variant, load_variant

FISE = Path(__file__).parents[2] / "tablero" / "variants" / "fise.toml"


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Variant:
    text = FISE.read_text("utf-8")
    tiles = "[tiles]\nC = [1, 3]\nA = [2, 1]\nS = [1, 1]\nL = [1, 1]\nO = [1, 1]\nT = [1, 1]\n\n"
    text = text[: text.index("[tiles]")] + tiles + text[text.index("[first_move]") :]
    for old, new in [
        ('name = "fise"', 'name = "mini"'),
        ("early_rounds = 15", "early_rounds = 1"),
        ("solo_bonus = 0", "solo_bonus = 10"),
        ("round_seconds = 180", "round_seconds = 60"),
    ]:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path_factory.mktemp("rules") / "mini.toml"
    path.write_text(text, "utf-8")
    return load_variant(str(path))


@pytest.fixture(scope="module")
def words() -> WordListLexicon:
    return WordListLexicon.from_words(["CASA", "CASAL", "LO"], SPANISH, name="mini")


def new_game(mini: Variant, words: WordListLexicon) -> DuplicateGame:
    return DuplicateGame(mini, words, ["Ana", "Luis", "Eva"], seed=1)


def play_by_hand(game: DuplicateGame) -> None:
    game.submit("Ana", "8D CASAL", 10.0)
    game.submit("Luis", "H4 CASAL", 20.0)
    game.submit("Eva", "8D CASAL", 5.0)
    game.submit("Eva", "8H CASA", 30.0)  # the last before the deadline counts
    game.close_round()
    game.submit("Ana", "H8 LO", 12.5)
    game.submit("Eva", "H8 LOT", 59.0)
    game.close_round()


def test_a_short_game_worked_by_hand(mini: Variant, words: WordListLexicon) -> None:
    game = new_game(mini, words)
    assert game.options == DuplicateOptions(round_seconds=60.0, solo_bonus=10)  # the rule file
    assert sorted(game.rack) == ["A", "A", "C", "L", "O", "S", "T"] and game.bag == []
    assert game.top().move == "8D CASAL" and game.top().score == 20
    play_by_hand(game)

    one, two = game.results
    assert [(m.move, m.score) for m in one.best] == [
        ("8D CASAL", 20),
        ("H4 CASAL", 20),
        ("8H CASAL", 16),
    ]
    assert (one.top.move, one.top.score) == ("8D CASAL", 20)
    assert [(p.player, p.move, p.score, p.found_top, p.solo) for p in one.plays] == [
        ("Ana", "8D CASAL", 20, True, 0),
        ("Luis", "H4 CASAL", 20, True, 0),  # two found a top: no solo
        ("Eva", "8H CASA", 12, False, 0),
    ]
    assert sorted(two.rack) == ["O", "T"]
    assert (two.top.move, two.top.score) == ("H8 (L)O", 2)
    ana, luis, eva = two.plays
    assert (ana.score, ana.found_top, ana.solo, ana.points, ana.total) == (2, True, 10, 12, 32)
    assert (luis.move, luis.score, luis.at, luis.total) == ("-", 0, None, 20)
    assert (eva.move, eva.score, eva.rule) == ("H8 LOT", 0, "not_in_lexicon")
    assert "LOT" in eva.reason and eva.total == 12

    assert game.is_over and game.end_reason == "draw_rule" and game.rack == ["T"]
    assert game.top_total == 22
    assert [(s.place, s.player, s.total, s.percent, s.tops, s.solos) for s in game.standings()] == [
        (1, "Ana", 32, 145.45, 2, 1),
        (2, "Luis", 20, 90.91, 1, 0),
        (3, "Eva", 12, 54.55, 0, 0),
    ]


def test_equal_totals_share_a_place(mini: Variant, words: WordListLexicon) -> None:
    game = DuplicateGame(mini, words, ["Ana", "Bea", "Ciro"], seed=1)
    game.submit("Bea", "8D CASAL", 1)
    game.submit("Ana", "H4 CASAL", 1)
    game.close_round()
    game.stop()
    assert [(s.place, s.player, s.total) for s in game.standings()] == [
        (1, "Ana", 20),
        (1, "Bea", 20),
        (3, "Ciro", 0),
    ]
    assert game.end_reason == "stopped" and len(game.results) == 1


def test_a_lone_player_earns_no_solo(mini: Variant, words: WordListLexicon) -> None:
    game = DuplicateGame(mini, words, ["Ana"], seed=1)
    game.submit("Ana", "8D CASAL", 1)
    assert game.close_round().plays[0].solo == 0


def test_a_player_who_joins_late_counts_from_then(mini: Variant, words: WordListLexicon) -> None:
    game = DuplicateGame(mini, words, seed=1)  # a room opens empty
    game.close_round()
    game.join("Eva")
    game.submit("Eva", "H8 LO", 3)
    game.close_round()
    assert game.totals == {"Eva": 2} and game.percent("Eva") == round(100 * 2 / 22, 2)


# -- bad input: refused, and nothing changes ---------------------------------------------------


def refused(game: DuplicateGame, code: str, action: object, *args: object) -> DuplicateError:
    before = game.state()
    with pytest.raises(DuplicateError) as info:
        action(*args)  # type: ignore[operator]
    assert info.value.code == code
    assert game.state() == before
    return info.value


def test_a_late_submission_is_refused_with_its_time_and_the_limit(
    mini: Variant, words: WordListLexicon
) -> None:
    game = new_game(mini, words)
    game.submit("Ana", "8H CASA", 10)
    e = refused(game, "late", game.submit, "Ana", "8D CASAL", 61.25)
    assert "61.2 s" in e.message and "limit is 60 s" in e.message and "Ana" in e.message
    assert e.params == {"player": "Ana", "round": 1, "at": 61.25, "limit": 60.0}
    game.submit("Luis", "8D CASAL", 60)  # the limit itself is in time
    result = game.close_round()
    assert result.play_of("Ana").move == "8H CASA"  # the earlier move stands


def test_an_illegal_move_scores_zero_and_keeps_the_reason(
    mini: Variant, words: WordListLexicon
) -> None:
    game = new_game(mini, words)
    receipt = game.submit("Ana", "8A CASA", 3)  # accepted: legality is judged at the end
    assert (receipt.move, receipt.round, receipt.at) == ("8A CASA", 1, 3.0)
    game.submit("Luis", "8H CASAS", 3)  # one S on the rack
    result = game.close_round()
    ana, luis, _ = result.plays
    assert (ana.score, ana.rule) == (0, "start_square") and "H8" in ana.reason
    assert (luis.score, luis.rule) == (0, "not_on_rack") and "1 S" in luis.reason


@pytest.mark.parametrize(
    ("player", "move", "at", "code"),
    [
        ("Ana", "8H", 1.0, "notation"),
        ("Ana", "-AC", 1.0, "not_a_duplicate_move"),
        ("Ana", "CHALLENGE", 1.0, "not_a_duplicate_move"),
        ("Zoe", "8H CASA", 1.0, "unknown_player"),
        ("Ana", "8H CASA", -1.0, "bad_time"),
        ("Ana", "8H CASA", float("nan"), "bad_time"),
    ],
)
def test_malformed_submissions_are_refused(
    mini: Variant, words: WordListLexicon, player: str, move: str, at: float, code: str
) -> None:
    game = new_game(mini, words)
    refused(game, code, game.submit, player, move, at)


def test_names_must_be_new_and_reasonable(mini: Variant, words: WordListLexicon) -> None:
    game = new_game(mini, words)
    refused(game, "name_taken", game.join, "  ana ")
    refused(game, "bad_name", game.join, "   ")
    refused(game, "bad_name", game.join, "x" * 41)
    with pytest.raises(DuplicateError, match="same name"):
        DuplicateGame(mini, words, ["Ana", "ANA"], seed=1)


def test_nothing_is_accepted_after_the_end(mini: Variant, words: WordListLexicon) -> None:
    game = new_game(mini, words)
    play_by_hand(game)
    for action, args in [
        (game.submit, ("Ana", "8H CASA", 1.0)),
        (game.close_round, ()),
        (game.join, ("Zoe",)),
        (game.stop, ()),
        (game.top, ()),
    ]:
        e = refused(game, "game_over", action, *args)
        assert "over" in e.message


def test_a_dictionary_is_needed(mini: Variant) -> None:
    from tablero.lexicon import AnyWordLexicon

    with pytest.raises(ValueError, match="dictionary"):
        DuplicateGame(mini, AnyWordLexicon(SPANISH), ["Ana"], seed=1)


# -- storage: JSON, replay, GCG -----------------------------------------------------------------


def test_the_log_stores_as_json_and_replays_to_the_same_game(
    mini: Variant, words: WordListLexicon
) -> None:
    game = new_game(mini, words)
    play_by_hand(game)
    stored = json.loads(json.dumps(game.to_json()))
    again = DuplicateGame.from_json(stored, words)
    assert again.state() == game.state() and again.results == game.results

    # Mid-round too: the submissions made so far come back (and stay hidden until the end).
    half = new_game(mini, words)
    half.submit("Ana", "8D CASAL", 4)
    resumed = DuplicateGame.from_json(json.loads(json.dumps(half.to_json())), words)
    assert resumed.submitted() == ["Ana"] and resumed.state() == half.state()

    tampered = json.loads(json.dumps(game.to_json()))
    round_event = next(e for e in tampered["log"] if e["type"] == "round")
    round_event["score"] = 21
    with pytest.raises(ValueError, match="does not replay the same"):
        DuplicateGame.from_json(tampered, words)
    with pytest.raises(ValueError, match="not a duplicate game"):
        DuplicateGame.from_json({"format": "other", "log": []}, words)


def test_the_same_seed_deals_the_same_game_whatever_is_submitted() -> None:
    lexicon = load_lexicon("es", SPANISH)
    a = DuplicateGame("fise", lexicon, ["A"], seed=11, options=DuplicateOptions(max_rounds=4))
    b = DuplicateGame("fise", lexicon, ["B"], seed=11, options=DuplicateOptions(max_rounds=4))
    while not a.is_over:
        a.submit("A", a.top().move, 1)
        a.close_round()
        b.close_round()
    assert [(r.rack, r.top) for r in a.results] == [(r.rack, r.top) for r in b.results]
    assert a.end_reason == b.end_reason == "rounds" and len(a.results) == 4


def test_gcg_export_replays_the_board_and_the_players_totals(
    mini: Variant, words: WordListLexicon
) -> None:
    game = new_game(mini, words)
    play_by_hand(game)
    text = write_duplicate_gcg(game, title="Club night")
    lines = text.splitlines()
    assert "#duplicate seed=1 end=draw_rule round_seconds=60 solo_bonus=10" in lines
    assert ">Top: " + "".join(game.results[0].rack) + " 8D CASAL +20 20" in lines
    assert ">Top: OT H8 .O +2 22" in lines
    assert "#duplicate-play 2 Ana H8 LO +2 22" in lines
    assert "#duplicate-solo 2 Ana +10 32" in lines
    assert "#duplicate-play 2 Eva H8 LOT +0 12 not_in_lexicon" in lines
    assert replay_gcg(read_gcg(text), mini) == [22]  # the board's game, checked by the rules
    record = read_duplicate_gcg(text)
    assert record.totals == {"Ana": 32, "Luis": 20, "Eva": 12}
    assert record.settings["end"] == "draw_rule" and record.players["Eva"] == "Eva"
    broken = text.replace("#duplicate-solo 2 Ana +10 32", "#duplicate-solo 2 Ana +10 33")
    with pytest.raises(ValueError, match="total comes to 32"):
        read_duplicate_gcg(broken)


# -- what the games' own squares and moves mean in duplicate -----------------------------------


def test_an_ex_square_under_the_top_sends_the_leave_back_for_a_whole_new_rack() -> None:
    """Cuvinte, seed 24: round 5's top J2 NESUP(REM) covers an EX square with five of the
    rack's seven tiles. With no opponent's rack to exchange, the shared next rack is: T and C
    go back to the bag and seven tiles are drawn, as ``DrawRule.draw`` does without the leave
    from the same bag and the same random state."""
    from tablero.alphabet import ROMANIAN
    from tablero.competition.draw_rule import DrawRule

    game = DuplicateGame("cuvinte", load_lexicon("ro", ROMANIAN), ["A"], seed=24)
    for _ in range(4):
        assert not game.close_round().redrawn
    assert game.top().move == "J2 NESUP(REM)" and sorted(game.rack) == sorted("TUNEPCS")
    before = game.state()
    result = game.close_round()
    assert result.redrawn and game.log[-1]["redrawn"] is True

    def next_rack(keep_leave: bool) -> list[str]:
        rng = random.Random()
        rng.setstate(before["rng"])
        bag = list(before["bag"])
        rule = DrawRule(game.variant.duplicate, game.variant.alphabet, 7)
        rack = rule.draw(["T", "C"], bag, rng, 6, keep_leave)
        assert rack is not None
        return rack

    assert game.rack == next_rack(keep_leave=False) != next_rack(keep_leave=True)


@pytest.fixture(scope="module")
def cambio_rules(tmp_path_factory: pytest.TempPathFactory) -> Variant:
    text = (FISE.parent / "crucigrama.toml").read_text("utf-8")
    tiles = "[tiles]\nT = [1, 1]\nR = [1, 1]\nA = [2, 1]\nB = [1, 4]\nJ = [1, 6]\nO = [1, 1]\n"
    tiles += "D = [1, 2]\nE = [1, 1]\n\n"
    text = text[: text.index("[tiles]")] + tiles + text[text.index("[first_move]") :]
    text = text.replace('name = "crucigrama"', 'name = "trabajo"')
    text = text.replace("early_rounds = 15", "early_rounds = 1")
    path = tmp_path_factory.mktemp("rules") / "trabajo.toml"
    path.write_text(text, "utf-8")
    return load_variant(str(path))


def test_cambio_is_a_duplicate_move_and_the_game_counts_the_limit(cambio_rules: Variant) -> None:
    """Crucigrama's worked example in duplicate. Nine tiles: a seed whose first rack is
    T R A B A J O (D and E left in the bag). Round 1: TRABAJO (15) with the J on the 2L of L8
    (from G8 across, or H7 down: 21) and the bonus for seven tiles (20) = 41; 8G comes before
    H7. Round 2, rack D E: no placement makes a word, but CAMBIO L8 D makes TRABADO, the plain
    values 1+1+1+4+1+2+1 = 11; the J comes to the rack. Round 3, rack E J: CAMBIO L8 J makes
    TRABAJO again, 15. Round 4: D again, 11. That is the game's third CAMBIO (three a game):
    round 5's rack E J has no move left, and the game ends."""
    words = WordListLexicon.from_words(["TRABAJO", "TRABADO"], SPANISH, name="trabajo")
    seed = next(
        s
        for s in range(200)
        if sorted(DuplicateGame(cambio_rules, words, seed=s).rack) == sorted("TRABAJO")
    )
    game = DuplicateGame(cambio_rules, words, ["Ana", "Luis"], seed=seed)
    assert (game.top().move, game.top().score) == ("8G TRABAJO", 41)
    game.close_round()
    game.submit("Ana", "CAMBIO L8 D", 1)
    game.submit("Luis", "CAMBIO L8 E", 1)  # TRABAEO: not a word
    second = game.close_round()
    assert (second.top.move, second.top.kind, second.top.score) == ("CAMBIO L8 D", "cambio", 11)
    assert [(p.score, p.found_top, p.rule) for p in second.plays] == [
        (11, True, ""),
        (0, False, "not_in_lexicon"),
    ]
    assert sorted(game.rack) == ["E", "J"] and game.cambios == 1
    assert (game.top().move, game.top().score) == ("CAMBIO L8 J", 15)
    game.close_round()
    assert (game.top().move, game.top().score) == ("CAMBIO L8 D", 11)
    game.close_round()
    assert game.cambios == 3 and game.end_reason == "no_move" and sorted(game.rack) == ["E", "J"]
    assert game.top_total == 41 + 11 + 15 + 11
