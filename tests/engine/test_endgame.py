"""The exact endgame search: sound (an answer marked exact is the best the game allows) on a
position where it used to be wrong, and against a search with no pruning and no table on
small endgames from real games, where the game itself is the referee. Both implementations
(the C search and the Python reference) are held to that, and to each other on larger
endgames of every game, with a table large enough to keep everything and one small enough to
lose entries."""

from __future__ import annotations

import copy
import math
from functools import cache

import pytest

from tablero.engine.movegen.candidates import candidates, generator_for
from tablero.engine.search.endgame import solve_endgame
from tablero.formats.cgp import read_cgp
from tablero.game import Game
from tablero.lexicon import Lexicon, load_lexicon
from tablero.moves import Pass

from .small_lexicons import small_graph

# Racks BLRZ (to move) and YQT, spread +67, bag empty. The search once answered 9C B(EN)
# for a final spread of +108, marked exact, where the best line reaches +110: the alpha-beta
# window of a reply left out the score of the move it replied to.
POSITION = (
    "7C7/1ÑO4U2C4/1AHELEArE1O4/7I2L4/3FUNDO2i4/7S2[LL]4/7E1TA3G/3PUNCE1ES3O/3EN4X4M/"
    "1REGIRE2T4A/3AD1DI[CH]OS3[RR]/2UTA4REVENA/2PIS3HILADOS/2EN1CAMAO5/3ADURI1SOBAJO "
    "BLRZ/YQT 466/399 0 var fise; lex es; bag 0;"
)


def game_at(cgp: str, lexicon: Lexicon) -> Game:
    """A game of the position's rules standing exactly at the position, player 0 to move."""
    position = read_cgp(cgp)
    game = Game(position.variant, ["Ana", "Luis"], lexicon, seed=1)
    game.board = position.board.copy()
    game.bag.clear()
    for player, rack, score in zip(game.players, position.racks, position.scores, strict=True):
        player.rack, player.score = list(rack), score
    game.to_move, game.scoreless_streak = 0, position.scoreless_turns
    return game


ENGINES = ["native", "python"]


def final_spread_of_line(game: Game, line: tuple[str, ...]) -> float:
    """Play a principal line out in the game (which checks and scores every move)."""
    for move in line:
        if game.is_over:
            break
        game.play(move)
    assert game.is_over, line
    return game.players[0].score - game.players[1].score


@pytest.mark.parametrize("engine", ENGINES)
def test_the_position_that_was_answered_wrong_is_answered_exactly(engine: str) -> None:
    lexicon = load_lexicon("es", read_cgp(POSITION).variant.alphabet)
    result = solve_endgame(read_cgp(POSITION), lexicon, time_limit=120, engine=engine)
    assert result is not None and result.exact
    assert result.spread == 110
    # The line it gives reaches that spread when the game plays it out.
    assert final_spread_of_line(game_at(POSITION, lexicon), result.line) == 110


def test_a_table_that_loses_entries_gives_the_same_answer() -> None:
    """1,024 entries for a search of some 75,000 nodes: most results are overwritten, and
    what is lost is searched again, never guessed."""
    lexicon = load_lexicon("es", read_cgp(POSITION).variant.alphabet)
    result = solve_endgame(
        read_cgp(POSITION), lexicon, time_limit=120, engine="native", table_bits=10
    )
    assert result is not None and result.exact and result.spread == 110


def _best_final_spread(game: Game, memo: dict[tuple[object, ...], float]) -> float:
    """Player 0's final spread with best play by both, by trying every move (every placement,
    every CAMBIO while one is left, and the pass) and letting the game score it: no pruning,
    no depth limit. The memo holds what the rest of the game adds to the spread, which the
    scores so far do not change (no end rule looks at them)."""
    spread = game.players[0].score - game.players[1].score
    if game.is_over:
        return spread
    key = (
        tuple(sorted((c, t.letter, t.blank) for c, t in game.board.tiles())),
        tuple(tuple(sorted(p.rack)) for p in game.players),
        game.to_move,
        game.scoreless_streak,
        tuple(p.cambios for p in game.players),
    )
    if key in memo:
        return spread + memo[key]
    kinds = ("place", "cambio")  # a CAMBIO is offered only while the mover has one left
    moves = [c.move for c in candidates(game.position(), game.lexicon) if c.kind in kinds]
    values = []
    for move in [*moves, Pass()]:
        child = copy.deepcopy(game)
        child.play(move)
        values.append(_best_final_spread(child, memo))
    value = max(values) if game.to_move == 0 else min(values)
    memo[key] = value - spread
    return value


@cache
def _endgames(
    variant: str, language: str, count: int, max_tiles: int, cambios_left: int = 0
) -> list[Game]:
    """Endgames from self-play with a small dictionary: the bag empty and at most
    ``max_tiles`` tiles on the two racks together, player 0 to move, each player with
    ``cambios_left`` CAMBIOs to make (in Crucigrama; none by default, which keeps the
    exhaustive search small)."""
    lexicon = small_graph(language)
    found: list[Game] = []
    seed = 0
    while len(found) < count:
        seed += 1
        game = Game(variant, ["Ana", "Luis"], lexicon, seed=seed)
        while not game.is_over:
            racks = sum(len(p.rack) for p in game.players)
            if not game.bag and racks <= max_tiles and all(p.rack for p in game.players):
                if game.to_move == 1:  # the searching side is player 0, as a position puts it
                    game.play(Pass())
                    continue
                for player in game.players:
                    player.cambios = max(game.variant.cambio_per_game - cambios_left, 0)
                found.append(game)
                break
            best = [c for c in candidates(game.position(), lexicon, top=3) if c.kind != "cambio"]
            game.play(best[0].move if best else Pass())
    return found


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("index", range(10))
def test_exact_answers_match_trying_every_line(index: int, engine: str) -> None:
    game = copy.deepcopy(_endgames("fise", "es", 10, 3)[index])
    truth = _best_final_spread(game, {})
    result = solve_endgame(game.position(), game.lexicon, time_limit=None, engine=engine)
    assert result is not None and result.exact
    assert math.isclose(result.spread, truth), (game.position(), result, truth)


# Every game's end rules: Letras Top charges 30 a blank left and gives the one who goes out
# nothing, so does Crucigrama; Cuvinte (17x15) never ends because no one can play; Intelect
# has no blanks, Bisonte checks words only when challenged.
GAMES = [
    ("fise", "es"),
    ("letras_top", "es"),
    ("crucigrama", "es"),
    ("cuvinte", "ro"),
    ("intelect", "es"),
    ("bisonte", "es"),
]


@pytest.mark.parametrize(("variant", "language"), GAMES)
def test_the_c_search_matches_trying_every_line_in_every_game(variant: str, language: str) -> None:
    for game in _endgames(variant, language, 3, 3):
        truth = _best_final_spread(copy.deepcopy(game), {})
        result = solve_endgame(game.position(), game.lexicon, time_limit=None, engine="native")
        assert result is not None and result.exact
        assert math.isclose(result.spread, truth), (variant, game.position(), result, truth)


@pytest.mark.parametrize(("variant", "language"), GAMES)
def test_the_c_search_and_the_reference_agree(variant: str, language: str) -> None:
    """Larger endgames (up to eight tiles on the racks): the same value, both exact, and the
    C search's line reaches that value when the game plays it; with a table of 1,024 entries
    too."""
    for game in _endgames(variant, language, 6, 8):
        _assert_the_c_search_matches_the_reference(game)


def _assert_the_c_search_matches_the_reference(game: Game) -> None:
    """Both exact with the same spread, with a table of 4 Mi entries and one of 1,024, and
    the C line reaching that spread when the game plays it."""
    position = game.position()
    reference = solve_endgame(position, game.lexicon, time_limit=None, width=10**9, engine="python")
    assert reference is not None and reference.exact
    for bits in (22, 10):
        native = solve_endgame(
            position, game.lexicon, time_limit=None, width=10**9, engine="native", table_bits=bits
        )
        assert native is not None and native.exact, (position, bits)
        assert native.spread == reference.spread, (position, bits)
        played = final_spread_of_line(copy.deepcopy(game), native.line)
        assert played == native.spread, (position, native.line)


@pytest.mark.parametrize("stuck", [0, 1])
def test_a_player_stuck_with_a_tile_it_cannot_play(stuck: int) -> None:
    """One side holds a Q (seldom playable in the small dictionary): it passes, often with no
    choice, which the C search plays without spending a ply, and the other side's own pass
    it values as the game's end. The reference, which does neither, agrees."""
    for game in _endgames("fise", "es", 6, 6):
        game = copy.deepcopy(game)
        player = game.players[stuck]
        player.rack = ["Q", *player.rack[:2]]
        position = game.position()
        reference = solve_endgame(
            position, game.lexicon, time_limit=None, width=10**9, engine="python"
        )
        native = solve_endgame(position, game.lexicon, time_limit=None, width=10**9)
        assert reference is not None and native is not None
        assert reference.exact and native.exact
        assert native.spread == reference.spread, (position, native, reference)
        assert final_spread_of_line(game, native.line) == native.spread


def test_a_budget_that_runs_out_gives_a_move_not_marked_exact() -> None:
    lexicon = load_lexicon("es", read_cgp(POSITION).variant.alphabet)
    for engine in ENGINES:
        result = solve_endgame(read_cgp(POSITION), lexicon, max_nodes=500, engine=engine)
        assert result is not None and not result.exact
        assert result.best.kind in ("place", "pass")


def test_cambios_are_searched_and_match_trying_every_line() -> None:
    """Crucigrama with one CAMBIO left to each side: both searches play CAMBIOs (a letter of
    the board swapped for one of the rack, which keeps its size) and reach the value of
    trying every move, and the C search's line, CAMBIOs included, reaches it in the game."""
    cambio_lines = 0
    for game in _endgames("crucigrama", "es", 4, 2, cambios_left=1):
        truth = _best_final_spread(copy.deepcopy(game), {})
        for engine in ENGINES:
            result = solve_endgame(game.position(), game.lexicon, time_limit=None, engine=engine)
            assert result is not None and result.exact, (engine, game.position())
            assert math.isclose(result.spread, truth), (engine, game.position(), result, truth)
        assert final_spread_of_line(copy.deepcopy(game), result.line) == truth
        cambio_lines += any(move.startswith("CAMBIO") for move in result.line)
    assert cambio_lines, "no line used a CAMBIO: the test no longer tests them"


def test_the_c_search_with_cambios_agrees_with_the_reference() -> None:
    """Larger Crucigrama endgames (up to four tiles on the racks) with two CAMBIOs left to
    each side: the same value from the C search and the reference, with a table of 1,024
    entries too, and the C line reaches it in the game."""
    for game in _endgames("crucigrama", "es", 6, 4, cambios_left=2):
        _assert_the_c_search_matches_the_reference(game)


@pytest.mark.parametrize("cambios", [(8, 0), (0, -1), (1,)])
def test_the_c_search_refuses_impossible_cambio_counts(cambios: tuple[int, ...]) -> None:
    game = _endgames("crucigrama", "es", 1, 3)[0]
    position = game.position()
    core = generator_for(position.variant, game.lexicon).core  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"cambios: two counts of 0\.\.7"):
        core.endgame(position.board, position.racks[0], position.racks[1], cambios=cambios)


def test_a_best_cambio_past_the_count_of_placements_is_the_answer() -> None:
    """In this endgame (N N against I, one CAMBIO left a side) the root has one placement and
    thirteen CAMBIOs, and the best move is a CAMBIO that the search's order puts second or
    later. The C search once read the root's options as its placements only, so any option
    past the first was a pass to it: it answered a pass, with a line that did not reach the
    end of the game."""
    game = _endgames("crucigrama", "es", 9, 3, cambios_left=1)[8]
    position = game.position()
    kinds = [c.kind for c in candidates(position, game.lexicon)]
    assert kinds.count("place") == 1 and kinds.count("cambio") == 13
    native = solve_endgame(position, game.lexicon, time_limit=None, engine="native")
    reference = solve_endgame(position, game.lexicon, time_limit=None, engine="python")
    assert native is not None and reference is not None and native.exact and reference.exact
    assert native.best.kind == "cambio"
    assert native.spread == reference.spread
    assert final_spread_of_line(copy.deepcopy(game), native.line) == native.spread
