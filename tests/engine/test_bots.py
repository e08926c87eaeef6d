"""Computer players' choices on hand-made positions, where the right move is known.

Each position is set up in a real ``Game`` (tiles moved between bag, racks and board), with a
small word list so that every legal move can be checked by hand, and the chosen move is then
played through ``Game.play``: a bot's choice is only as good as the game says it is.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tablero.engine.evaluation.leaves import LeaveTable, sub_leaves
from tablero.engine.movegen.candidates import candidates
from tablero.engine.players import LEVELS, Bot, common_words, make_bot, seat_view
from tablero.game import Game
from tablero.moves import Challenge, Exchange, Pass, Place
from tablero.position import Position
from tablero.terminal import hint_lines, play_game, seat_players
from tablero.variant import load_variant

from ..helpers import empty_bag, lay, rig, words

SPANISH_WORDS = words(
    "ACTORES", "COSTA", "COSTAR", "CASO", "ARCO", "ROSA", "ESTA", "TOSER", "RESTO", "OSA",
    "ASE", "SE", "ES", "OS", "JA", "CASA", "CASAS",
)  # fmt: skip


def tile_values(rack: str, game: Game, per_tile: float) -> LeaveTable:
    """Every leave of ``rack`` worth ``per_tile`` a tile: a table made by hand for a test."""
    alphabet = game.variant.alphabet
    return LeaveTable.from_values(
        {leave: per_tile * len(leave) for leave in sub_leaves(list(rack), alphabet) if leave},
        alphabet,
    )


@pytest.mark.parametrize("level", ["medium", "club", "hard", "expert"])
def test_the_obvious_bingo(level: str) -> None:
    game = Game("fise", ["a", "b"], SPANISH_WORDS, seed=1)
    rig(game, game.to_move, "ACEORST")
    bot = Bot(level, game.variant, SPANISH_WORDS, seed=1, sim_iterations=20, time_limit=30)
    move = bot.choose(game)
    result = game.play(move)
    assert result.kind == "placed" and len(result.placed) == 7
    assert result.breakdown is not None and result.breakdown.bingo_bonus == 50
    assert "ACTORES" in [w.word for w in result.breakdown.words]


def test_the_simulation_depth_is_a_setting_checked_at_construction() -> None:
    """Four plies (two rounds of replies) still find the bingo; fewer than one is refused."""
    game = Game("fise", ["a", "b"], SPANISH_WORDS, seed=1)
    rig(game, game.to_move, "ACEORST")
    bot = Bot("expert", game.variant, SPANISH_WORDS, seed=1, sim_iterations=20, sim_plies=4)
    assert bot.sim_plies == 4 and Bot("expert", game.variant, SPANISH_WORDS).sim_plies == 2
    result = game.play(bot.choose(game))
    assert result.kind == "placed" and len(result.placed) == 7
    with pytest.raises(ValueError, match="sim_plies must be at least 1, not 0"):
        Bot("expert", game.variant, SPANISH_WORDS, sim_plies=0)


def test_the_expert_simulates_on_two_threads_unless_told_otherwise() -> None:
    """The level's thread count is a default a caller may change; fewer than one is refused
    at construction, not at the first move."""
    fise = load_variant("fise")
    assert Bot("expert", fise, SPANISH_WORDS).threads == 2
    assert Bot("expert", fise, SPANISH_WORDS, threads=1).threads == 1
    assert Bot("hard", fise, SPANISH_WORDS).threads == 1
    with pytest.raises(ValueError, match="threads must be at least 1, not 0"):
        Bot("expert", fise, SPANISH_WORDS, threads=0)


def test_the_pre_endgame_starts_where_the_bag_holds_a_rack_unless_told_otherwise() -> None:
    """At three or four seats the expert's playouts go eight plies deep once the bag holds a
    rack or less (seven tiles in FISE), two before; at two seats twelve from 14 tiles on, four
    from 40 (``EXPERT_TWO_SEATS``). ``preendgame_bag`` moves that line at every table, and a
    negative one is refused."""
    fise = load_variant("fise")
    expert = Bot("expert", fise, SPANISH_WORDS)
    assert [expert.plies_at(n, players=4) for n in (1, 7, 8, 14, 15, 90)] == [8, 8, 2, 2, 2, 2]
    assert [expert.plies_at(n) for n in (1, 7, 14, 15, 40, 41, 90)] == [12, 12, 12, 4, 4, 2, 2]
    earlier = Bot("expert", fise, SPANISH_WORDS, preendgame_bag=20, preendgame_plies=10)
    assert [earlier.plies_at(n, players=3) for n in (1, 20, 21, 90)] == [10, 10, 2, 2]
    assert [earlier.plies_at(n) for n in (1, 20, 21, 40, 41)] == [10, 10, 4, 4, 2]
    shallow = Bot("expert", fise, SPANISH_WORDS, preendgame_plies=0, late_plies=0)
    assert [shallow.plies_at(n) for n in (1, 7, 8, 40)] == [2, 2, 2, 2]
    with pytest.raises(ValueError, match="preendgame_bag must be at least 0, not -1"):
        Bot("expert", fise, SPANISH_WORDS, preendgame_bag=-1)


def test_the_expert_samples_more_at_a_table_of_two() -> None:
    """At two seats the expert decides with ``EXPERT_TWO_SEATS`` (twice the playouts); at three
    or four with ``EXPERT_SIM``. An option given to the bot holds at every table."""
    fise = load_variant("fise")
    expert = Bot("expert", fise, SPANISH_WORDS)
    assert (expert.at_table(2).sim_playouts, expert.at_table(2).sim_iterations) == (9600, 2400)
    assert (expert.at_table(4).sim_playouts, expert.at_table(4).sim_iterations) == (4800, 1200)
    assert expert.at_table(3) is expert and expert.at_table(2) is not expert
    told = Bot("expert", fise, SPANISH_WORDS, threads=1, sim_playouts=300)
    assert [told.at_table(n).threads for n in (2, 3, 4)] == [1, 1, 1]
    assert [told.at_table(n).sim_playouts for n in (2, 3, 4)] == [300, 300, 300]
    hard = Bot("hard", fise, SPANISH_WORDS)
    assert hard.at_table(2) is hard


def test_the_late_game_looks_further_at_two_seats_only() -> None:
    """``late_plies`` deepens the playouts once the bag holds ``late_bag`` tiles or fewer, up to
    the pre-endgame, whose plies still rule below a rack; at four seats the depth stays, a round
    of replies being already four turns; 0 turns it off; a negative depth or line is refused."""
    fise = load_variant("fise")
    late = Bot("expert", fise, SPANISH_WORDS, late_plies=6)
    assert [late.plies_at(n) for n in (1, 14, 15, 40, 41, 90)] == [12, 12, 6, 6, 2, 2]
    assert [late.plies_at(n, players=4) for n in (7, 8, 40, 41)] == [8, 2, 2, 2]
    earlier = Bot("expert", fise, SPANISH_WORDS, late_plies=6, late_bag=60)
    assert [earlier.plies_at(n) for n in (15, 60, 61)] == [6, 6, 2]
    with pytest.raises(ValueError, match="late_bag must be at least 0, not -1"):
        Bot("expert", fise, SPANISH_WORDS, late_plies=4, late_bag=-1)
    off = Bot("expert", fise, SPANISH_WORDS, late_plies=0)
    assert [off.plies_at(n) for n in (15, 40, 41)] == [2, 2, 2]
    with pytest.raises(ValueError, match="late_plies must be at least 0, not -2"):
        Bot("expert", fise, SPANISH_WORDS, late_plies=-2)


def test_a_hopeless_rack_is_exchanged() -> None:
    """ÑQXJHVZ can only make JA for 9 points and keep six awkward tiles: the equity player
    exchanges all seven; a player who counts only points plays JA."""
    game = Game("fise", ["a", "b"], SPANISH_WORDS, seed=1)
    seat = game.to_move
    lay(game, "8G CASA")
    rig(game, seat, "ÑQXJHVZ")
    table = tile_values("ÑQXJHVZ", game, -6.0)
    places = [c for c in candidates(seat_view(game), SPANISH_WORDS, table) if c.kind == "place"]
    assert places and max(c.score for c in places) <= 9
    for level in ("hard", "easy"):  # easy counts the leave a little (0.3): still -10.8
        move = Bot(level, game.variant, SPANISH_WORDS, leaves=table, seed=1).choose(game)
        assert isinstance(move, Exchange) and len(move.tiles) == 7, level
    for level in ("greedy", "medium", "beginner"):
        points_only = Bot(level, game.variant, SPANISH_WORDS, leaves=table, seed=3)
        assert isinstance(points_only.choose(game), Place), level
    assert game.play(Bot("hard", game.variant, SPANISH_WORDS, leaves=table).choose(game)).kind == (
        "exchanged"
    )


def test_the_cambio_that_wins() -> None:
    """Crucigrama, bag empty, 10 behind: no tile can be placed, but CAMBIO I8 Z turns PASO
    into PAZO for 15 and ends the game (nobody can place) with the bot ahead; passing would
    end it too, and lose."""
    lexicon = words("PASO", "PAZO")
    for level in ("hard", "expert"):
        game = Game("crucigrama", ["bot", "rival"], lexicon, seed=1)
        seat = game.to_move
        lay(game, "8G PASO")
        rig(game, seat, "Z")
        rig(game, 1 - seat, "Ñ")
        empty_bag(game)
        game.players[seat].score, game.players[1 - seat].score = 100, 110
        v = game.variant
        position = Position(v, game.board.copy(), [("Z",), ("Ñ",)], [100, 110], bag=0)
        bot = Bot(level, v, lexicon, seed=1)
        choice = bot.choose_in(position)
        assert choice.kind == "cambio" and choice.notation == "CAMBIO I8 Z", level
        result = game.play(choice.move)
        assert result.score == 15 and game.is_over and game.result is not None
        assert game.result.reason == "no_one_can_play"
        assert game.result.winners == (seat,)
        # Passing instead: the game ends the same way, 100 - 10 (Z) against 110 - 8 (Ñ).
        other = Game("crucigrama", ["bot", "rival"], lexicon, seed=1)
        lay(other, "8G PASO")
        rig(other, seat, "Z")
        rig(other, 1 - seat, "Ñ")
        empty_bag(other)
        other.players[seat].score, other.players[1 - seat].score = 100, 110
        other.play(Pass())
        assert other.result is not None and other.result.winners == (1 - seat,)


# Made-up words: only the search is under test. CASA lies on G8-J8.
ENDGAME_WORDS = words("CASA", "CASAS", "JS", "OS", "JZ", "AJO")


def endgame(scores: tuple[int, int]) -> tuple[Game, int]:
    game = Game("fise", ["bot", "rival"], ENDGAME_WORDS, seed=1)
    seat = game.to_move
    lay(game, "8G CASA")
    rig(game, seat, "OJ")
    rig(game, 1 - seat, "AS")
    empty_bag(game)
    game.players[seat].score, game.players[1 - seat].score = scores
    return game, seat


def play_out(game: Game, first: Place | None = None) -> None:
    """Play to the end, each side with the exact endgame search (the first move given)."""
    if first is not None:
        game.play(first)
    while not game.is_over:
        s = game.to_move
        pos = Position(
            game.variant,
            game.board.copy(),
            [tuple(game.players[s].rack), tuple(game.players[1 - s].rack)],
            [game.players[s].score, game.players[1 - s].score],
            game.scoreless_streak,
            bag=0,
        )
        game.play(Bot("expert", game.variant, ENDGAME_WORDS).choose_in(pos).move)


def test_the_endgame_win_that_a_greedy_move_misses() -> None:
    """J on I7 makes JS for 17, the most points; but the O is then stuck until the rival has
    played CASAS, and the rival scores on the way. AJO for 12 goes out at once and takes the
    rival's A and S: 15 behind, the search wins by one where the greedy move loses by one."""
    game, seat = endgame((100, 115))
    pos = Position(game.variant, game.board.copy(), [("O", "J"), ("A", "S")], [100, 115], bag=0)
    found = [c for c in candidates(pos, ENDGAME_WORDS) if c.kind == "place"]
    greedy = max(found, key=lambda c: c.score)
    assert greedy.notation == "I7 J(S)" and greedy.score == 17 and greedy.leave == ("O",)
    expert = Bot("expert", game.variant, ENDGAME_WORDS)
    choice = expert.choose_in(pos)
    assert choice.notation == "J8 (A)JO" and choice.score == 12
    play_out(game, choice.move)  # type: ignore[arg-type]
    assert game.result is not None and game.result.winners == (seat,)
    assert game.result.final_scores[seat] - game.result.final_scores[1 - seat] == 1
    again, seat = endgame((100, 115))
    assert isinstance(greedy.move, Place)
    play_out(again, greedy.move)
    assert again.result is not None and again.result.winners == (1 - seat,)


def test_letras_top_passes_the_opening_with_a_rack_worth_keeping() -> None:
    lexicon = words("OSA", "ASE")
    game = Game("letras_top", ["a", "b"], lexicon, seed=1)
    seat = game.to_move
    rig(game, seat, "?AEORSS")
    # A rack one draw from a bingo: whole, it is worth 60; any part of it, 3 a tile.
    alphabet = game.variant.alphabet
    values = {leave: 3.0 * len(leave) for leave in sub_leaves(list("?AEORSS"), alphabet) if leave}
    values[tuple(sorted("?AEORSS"))] = 60.0
    table = LeaveTable.from_values(values, alphabet)
    opening = max(
        c.equity for c in candidates(seat_view(game), lexicon, table) if c.kind == "place"
    )
    assert opening < 60 - 10  # the best opening (bonus included) is worth less than the rack
    bot = Bot("hard", game.variant, lexicon, leaves=table)
    assert isinstance(bot.choose(game), Pass)
    game.play(Pass())
    # The other player may pass it back once, but not forever: the next opener opens.
    rig(game, game.to_move, "OSABCDE")
    other = Bot("hard", game.variant, lexicon, leaves=tile_values("OSABCDE", game, 6.0))
    assert isinstance(other.choose(game), Place)


def test_ex_squares_are_worth_their_shuffle() -> None:
    """Cuvinte: J11 is an EX square. LACE down from the L of CAL covers it and shuffles the
    next player's rack, which the bot counts as worth ``ex_bonus``; LAC does not reach it.
    With fewer than seven tiles left in the bag after the draw there is no shuffle to count."""
    from tablero.alphabet import ROMANIAN

    lexicon = words("CAL", "LAC", "LACE", alphabet=ROMANIAN)
    game = Game("cuvinte", ["a", "b"], lexicon, seed=1)
    seat = game.to_move
    lay(game, "8H CAL")
    rig(game, seat, "ACEBDFG")
    found = {c.notation: c for c in candidates(seat_view(game), lexicon, ex_bonus=7.0)}
    lace, lac = found["J8 (L)ACE"], found["J8 (L)AC"]
    assert lace.shuffles_next_rack and lace.equity == lace.score + 7.0
    assert not lac.shuffles_next_rack and lac.equity == lac.score
    # Leaves valued at zero: the choice is about the EX bonus, not about the learned table.
    flat = LeaveTable.from_values({("A",): 0.0}, ROMANIAN)
    bot = Bot("hard", game.variant, lexicon, leaves=flat, seed=1)
    bot.ex_bonus = 7.0
    assert bot.choose_in(seat_view(game)).notation == "J8 (L)ACE"
    game.play("J8 (L)ACE")
    assert {"type": "shuffle", "seat": 1 - seat} in game.log[-2:]  # logged as it happens
    late = Game("cuvinte", ["a", "b"], lexicon, seed=1)
    lay(late, "8H CAL")
    rig(late, late.to_move, "ACEBDFG")
    empty_bag(late, leave=9)  # after drawing three, six remain: too few for the shuffle
    late_lace = next(
        c for c in candidates(seat_view(late), lexicon, ex_bonus=7.0) if c.notation == "J8 (L)ACE"
    )
    assert not late_lace.shuffles_next_rack and late_lace.equity == late_lace.score


def test_bisonte_bots_challenge_invalid_words_only() -> None:
    lexicon = words("CASA", "CASAS", "ASA")
    for word, challenged in (("8G CASA", False), ("8G CASX", True)):
        game = Game("bisonte", ["person", "bot"], lexicon, seed=2)
        person = game.to_move
        rig(game, person, "CASAX" if "X" in word else "CASA")
        game.play(word)
        bot = Bot("hard", game.variant, lexicon)
        move = bot.choose(game)
        assert isinstance(move, Challenge) == challenged, word
        result = game.play(move)
        if challenged:
            assert result.kind == "challenge_upheld" and game.board.is_empty()


def test_levels_and_specs() -> None:
    game = Game("fise", ["a", "b"], SPANISH_WORDS, seed=1)
    assert set(LEVELS) >= {"beginner", "easy", "medium", "club", "hard", "expert", "strongest"}
    assert make_bot("bot:medium", game.variant, SPANISH_WORDS).name == "medium"
    assert make_bot("bot", game.variant, SPANISH_WORDS).name == "hard"
    with pytest.raises(ValueError, match="no bot level"):
        make_bot("bot:grandmaster", game.variant, SPANISH_WORDS)
    from tablero.lexicon import AnyWordLexicon

    with pytest.raises(ValueError, match="dictionary"):
        Bot("hard", game.variant, AnyWordLexicon(game.variant.alphabet))


@pytest.mark.parametrize(("level", "known"), [("beginner", 20000), ("easy", 30000)])
def test_the_first_levels_play_common_words_only(level: str, known: int) -> None:
    """ASERTO (an assertion) scores more than any word they know: they never play it."""
    vocabulary = common_words("es", known)
    assert vocabulary is not None and "ASERTO" not in vocabulary and "ROSA" in vocabulary
    lexicon = words("ASERTO", "ROSA", "OSA", "ASE", "SE", "ES", "OS", "CASA")
    assert LEVELS[level].vocabulary == known
    game = Game("fise", ["a", "b"], lexicon, seed=1)
    rig(game, game.to_move, "TOSERAJ")
    bot = Bot(level, game.variant, lexicon, seed=1)
    ranked = Bot("greedy", game.variant, lexicon).rank(seat_view(game))
    assert ranked[0].notation.endswith("ASERTO"), "the best score is the word they do not know"
    places = [c for c in bot.rank(seat_view(game)) if c.kind == "place"]
    assert places, "it has moves it knows"
    for c in places:
        word = "".join(x.tile.letter for x in c.move.letters)  # type: ignore[union-attr]
        assert word in vocabulary and word != "ASERTO", word


def test_common_words_come_most_frequent_first() -> None:
    few, many = common_words("es", 100), common_words("es", 30000)
    assert few is not None and many is not None and few < many
    assert {"DE", "LA", "QUE", "CASA"} <= many and {"DE", "LA"} <= few and "ALMOHADA" not in few
    ro = common_words("ro", 30000)
    assert ro is not None and {"ESTE", "CASA", "ROMANIA"} <= ro  # Romanian tiles: no diacritics
    assert common_words("xx", 100) is None


# -- at the terminal ------------------------------------------------------------------------------


def test_a_person_plays_a_computer_at_the_terminal() -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False, color_system=None)
    answers = iter(["hint", "quit", "y"])
    game = play_game(
        load_variant("fise"),
        ["Ana", "bot:hard"],
        SPANISH_WORDS,
        seed=4,
        console=console,
        input_fn=lambda prompt: next(answers, "-"),
    )
    text = out.getvalue()
    assert [p.name for p in game.players] == ["Ana", "Hard bot"]
    assert "Pass the keyboard" not in text  # one person: nobody to hand the keyboard to
    if game.log[0]["first"] == 1:  # the bot opened: its move is in the log
        assert game.log[1]["seat"] == 1
    assert "Best moves for Ana" in text
    bot_rack = game.players[1].rack
    assert "Hard bot's rack" not in text and bot_rack  # never shown


def test_hint_lines_rank_the_moves() -> None:
    game = Game("fise", ["a", "b"], SPANISH_WORDS, seed=1)
    rig(game, game.to_move, "ACEORST")
    lines = hint_lines(game, Bot("hard", game.variant, SPANISH_WORDS), 3)
    assert lines[0].startswith("Best moves for")
    assert "ACTORES" in lines[1] and "keeps nothing" in lines[1]
    assert len(lines) == 4


def test_seats_for_bots_are_named_and_checked() -> None:
    v = load_variant("fise")
    names, bots = seat_players(["Ana", "bot:easy", "bot:easy"], v, SPANISH_WORDS, 1)
    assert names == ["Ana", "Easy bot", "Easy bot 2"] and set(bots) == {1, 2}
    with pytest.raises(ValueError, match="no bot level"):
        seat_players(["Ana", "bot:wizard"], v, SPANISH_WORDS, 1)


def test_simulation_plays_every_candidate_on_the_same_deals() -> None:
    from tablero.engine.search.simulate import deal_unseen, simulate

    game = Game("fise", ["a", "b"], SPANISH_WORDS, seed=1)
    rig(game, game.to_move, "ACEORST")
    pos = seat_view(game)
    ranked = Bot("hard", game.variant, SPANISH_WORDS).rank(pos)
    bingo = next(c for c in ranked if c.tiles_played == 7)
    small = min((c for c in ranked if c.kind == "place"), key=lambda c: c.score)
    results = simulate(pos, [small, bingo], SPANISH_WORDS, None, iterations=6, seed=9)
    assert [r.candidate for r in results] == [bingo, small]
    assert all(r.iterations == 6 for r in results)
    again = simulate(pos, [small, bingo], SPANISH_WORDS, None, iterations=6, seed=9)
    assert [r.mean for r in again] == [r.mean for r in results]  # same seed, same deals
    import random

    deal = deal_unseen(pos, 2, random.Random(1))
    assert [len(r) for r in deal.opponents] == [7]  # the opponent's rack, at random
    assert len(deal.bag) == pos.bag_count()  # the bag keeps its known size
    dealt = sorted([*deal.bag, *deal.opponents[0]])
    assert dealt == sorted(pos.unseen().elements())
