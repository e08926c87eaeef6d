"""Monte-Carlo simulation in the native core (``NativeGenerator.simulate``).

The positions are hand-made on the FISE board with a tiny word list, so that what the
opponent can answer is known exactly:

* the board holds ASA down from H8; the mover holds T U D O R N I;
* TUDOR(ASA) (10 points, the best score) stretches the word up to H3, and the word list has
  SETUDORASA: two tiles more, over the triple word on H1;
* (ASA)DO (7 points) opens nothing;
* the unseen tiles are E and S, so the opponent nearly always holds the S and E it needs.

With the bag empty every playout is the same, so those values are checked to the point.
"""

from __future__ import annotations

import pytest

from tablero.alphabet import SPANISH
from tablero.board import Board, Tile
from tablero.engine.evaluation.leaves import sub_leaves
from tablero.engine.movegen.candidates import end_leave_value
from tablero.engine.movegen.native import (
    GeneratedPlacement,
    LeaveValues,
    NativeGenerator,
    NativeSimResult,
)
from tablero.lexicon import LexiconInfo
from tablero.lexicon.graph import GraphLexicon
from tablero.lexicon.kwg import build_kwg
from tablero.moves import Exchange, Letter, Pass, Place, format_move
from tablero.variant import load_variant

WORDS = ["ASA", "TUDORASA", "SETUDORASA", "ASADO", "ASAN", "NI", "ES", "SE"]
RACK = ("T", "U", "D", "O", "R", "N", "I")
UNSEEN = ["E"] * 12 + ["S"] * 5
LEAVES = LeaveValues({("N", "I"): 1.5, ("T", "U", "R", "N", "I"): -2.0, ("R",): 0.5})


@pytest.fixture(scope="module")
def gen() -> NativeGenerator:
    kwg = build_kwg([SPANISH.encode(w) for w in WORDS])
    lexicon = GraphLexicon(kwg, SPANISH, LexiconInfo("sim-test", "", len(WORDS), ""))
    return NativeGenerator(load_variant("fise"), lexicon)


@pytest.fixture(scope="module")
def board() -> Board:
    v = load_variant("fise")
    b = Board(v.rows, v.columns)
    for i, letter in enumerate("ASA"):
        b[(7 + i, 7)] = Tile(letter)
    return b


def by_notation(moves: list[GeneratedPlacement]) -> dict[str, GeneratedPlacement]:
    return {format_move(m.place): m for m in moves}


def test_the_position_is_what_the_tests_assume(gen: NativeGenerator, board: Board) -> None:
    moves = by_notation(gen.placements(board, RACK))
    assert {k: m.score for k, m in moves.items()} == {
        "H3 TUDOR(ASA)": 10,
        "H8 (ASA)DO": 7,
        "11H NI": 6,
        "H8 (ASA)N": 4,
    }


def test_a_move_that_opens_a_triple_word_ranks_below_a_safer_one(
    gen: NativeGenerator, board: Board
) -> None:
    moves = by_notation(gen.placements(board, RACK))
    risky, safe = moves["H3 TUDOR(ASA)"], moves["H8 (ASA)DO"]
    assert risky.score > safe.score
    results = gen.simulate(board, RACK, UNSEEN, [risky, safe], iterations=400, seed=11)
    assert [r.candidate for r in results] == [risky, safe]
    assert all(r.iterations == 400 for r in results)
    # The reply SETUDORASA over H1's triple word costs far more than the three points gained.
    assert results[0].mean < results[1].mean - 10
    assert results[0].sd > 0  # without an S the opponent cannot answer: the draws matter


def test_the_same_seed_gives_the_same_answer(gen: NativeGenerator, board: Board) -> None:
    cands = gen.placements(board, RACK)
    a = gen.simulate(board, RACK, UNSEEN, cands, iterations=200, seed=5, leaves=LEAVES)
    b = gen.simulate(board, RACK, UNSEEN, cands, iterations=200, seed=5, leaves=LEAVES)
    c = gen.simulate(board, RACK, UNSEEN, cands, iterations=200, seed=6, leaves=LEAVES)
    assert a == b
    assert [r.mean for r in a] != [r.mean for r in c]


def test_one_candidate_alone_gets_what_it_gets_among_others(
    gen: NativeGenerator, board: Board
) -> None:
    """The draw of an iteration depends on the seed and the iteration only, so a candidate's
    result does not depend on the list it is simulated in (common random numbers)."""
    cands = gen.placements(board, RACK)
    together = gen.simulate(board, RACK, UNSEEN, cands, iterations=150, seed=9, leaves=LEAVES)
    for i, cand in enumerate(cands):
        (alone,) = gen.simulate(board, RACK, UNSEEN, [cand], iterations=150, seed=9, leaves=LEAVES)
        assert isinstance(alone, NativeSimResult)
        assert alone == together[i]


def test_zero_plies_with_an_empty_bag_is_the_score_plus_the_end_value(
    gen: NativeGenerator, board: Board
) -> None:
    """Seven unseen tiles are the opponent's rack: no draw, nothing random. With the bag
    empty the tiles kept are a debt, valued as ``end_leave_value`` values them, not by the
    leave table."""
    opponent = ["E"] * 5 + ["S"] * 2
    cands = gen.placements(board, RACK, leaves=LEAVES)
    results = gen.simulate(board, RACK, opponent, cands, plies=0, leaves=LEAVES)
    v = load_variant("fise")
    for cand, r in zip(cands, results, strict=True):
        assert r.mean == pytest.approx(cand.score + end_leave_value(v, cand.leave, opponent))
        assert r.sd == 0.0
    # five kept tiles of 1 point, counted twice in FISE (lost, and gained by who goes out)
    assert end_leave_value(v, ("T", "U", "R", "N", "I"), opponent) == -(10 + 2 * 5)


def test_one_ply_with_an_empty_bag_subtracts_the_best_reply(
    gen: NativeGenerator, board: Board
) -> None:
    """The opponent, the bag empty, answers with its best placement by score plus end value
    (keeping E and S is a debt), and the mover's rack is then valued the same way."""
    v = load_variant("fise")
    opponent = ["E", "E", "S"]
    cands = gen.placements(board, RACK)
    results = gen.simulate(board, RACK, opponent, cands, plies=1, iterations=20, leaves=LEAVES)
    replies = {}
    for cand, r in zip(cands, results, strict=True):
        after = gen.board(board)
        after.apply(cand)
        debt = LeaveValues(
            {
                kept: end_leave_value(v, kept, cand.leave)
                for kept in sub_leaves(opponent, v.alphabet)
            }
        )
        (reply,) = gen.best(after, opponent, 1, debt)
        replies[format_move(cand.place)] = (format_move(reply.place), reply.score)
        assert reply.leave  # nobody goes out here: the game goes on after the reply
        assert r.mean == pytest.approx(
            cand.score - reply.score + end_leave_value(v, cand.leave, reply.leave)
        )
        assert r.sd == 0.0
    assert replies["H3 TUDOR(ASA)"] == ("H1 SE(TUDORASA)", 33)  # over H1's triple word


def test_going_out_applies_the_end_of_game_adjustments(gen: NativeGenerator, board: Board) -> None:
    """FISE: whoever goes out gains the others' tiles, which they lose: 2 × (E + S) here."""
    moves = by_notation(gen.placements(board, ["D", "O"]))
    (r,) = gen.simulate(board, ["D", "O"], ["E", "S"], [moves["H8 (ASA)DO"]], plies=2)
    assert r.mean == 7 + 2 * (1 + 1)
    assert r.sd == 0.0


def test_exchange_and_pass_candidates(gen: NativeGenerator, board: Board) -> None:
    """Fourteen unseen E and A: the opponent holds seven, the bag seven (FISE's least for an
    exchange), so an exchanged T comes back as an E or an A, worth the same in this table;
    with no ply after it the value is the new rack's leave value."""
    leaves = LeaveValues({("U", "D", "O", "R", "N", "I", e): 4.25 for e in ("E", "A")})
    unseen = ["E"] * 12 + ["A"] * 2
    ex, passed = gen.simulate(
        board, RACK, unseen, [Exchange(("T",)), Pass()], plies=0, leaves=leaves
    )
    assert ex.mean == 4.25 and ex.sd == 0.0
    assert passed.mean == 0.0  # the rack T U D O R N I has no value in this table
    # One ply after a pass: the opponent's best reply with seven E and the board as it is.
    (passed,) = gen.simulate(board, RACK, unseen, [Pass()], plies=1)
    assert passed.sd > 0  # the opponent's rack is E and A in varying numbers
    assert passed.mean < 0


def test_a_place_is_accepted_and_returned_as_the_generated_move(
    gen: NativeGenerator, board: Board
) -> None:
    safe = by_notation(gen.placements(board, RACK))["H8 (ASA)DO"]
    bare = Place(safe.place.start, False, tuple(Letter(x.tile) for x in safe.place.letters))
    (r,) = gen.simulate(board, RACK, UNSEEN, [bare], iterations=10)
    assert r.candidate == safe


def test_bad_input_is_a_clear_error(gen: NativeGenerator, board: Board) -> None:
    moves = by_notation(gen.placements(board, RACK))
    risky = moves["H3 TUDOR(ASA)"]
    with pytest.raises(ValueError, match="not a legal placement"):
        gen.simulate(board, ["D", "O"], UNSEEN, [risky])
    off_list = Place((0, 0), True, (Letter(Tile("N")), Letter(Tile("I"))))
    with pytest.raises(ValueError, match="not a legal placement"):
        gen.simulate(board, RACK, UNSEEN, [off_list])
    with pytest.raises(ValueError, match="not a tile"):
        gen.simulate(board, RACK, ["K"], [risky])
    with pytest.raises(ValueError, match="has 12"):
        gen.simulate(board, RACK, ["E"] * 13, [risky])
    with pytest.raises(ValueError, match="has 6"):  # one S is on the board
        gen.simulate(board, RACK, ["S"] * 6, [risky])
    with pytest.raises(ValueError, match="not a string"):
        gen.simulate(board, RACK, "EEE", [risky])
    with pytest.raises(ValueError, match="count"):
        gen.simulate(board, RACK, {"E": -1}, [risky])
    with pytest.raises(ValueError, match="no candidates"):
        gen.simulate(board, RACK, UNSEEN, [])
    with pytest.raises(ValueError, match="1 to 4 players"):
        gen.simulate(board, RACK, UNSEEN, [risky], players=5)
    with pytest.raises(ValueError, match="iterations"):
        gen.simulate(board, RACK, UNSEEN, [risky], iterations=0)
    with pytest.raises(ValueError, match="plies"):
        gen.simulate(board, RACK, UNSEEN, [risky], plies=-1)
    with pytest.raises(ValueError, match="not on the rack"):
        gen.simulate(board, RACK, UNSEEN, [Exchange(("E",))])
    with pytest.raises(ValueError, match="the bag holds 0"):
        gen.simulate(board, RACK, ["E"] * 7, [Exchange(("T",))])
    with pytest.raises(ValueError, match="cannot simulate"):
        gen.simulate(board, RACK, UNSEEN, ["H8 (ASA)DO"])  # type: ignore[list-item]


def test_counts_and_tiles_are_the_same_unseen_pool(gen: NativeGenerator, board: Board) -> None:
    cands = gen.placements(board, RACK)
    as_list = gen.simulate(board, RACK, UNSEEN, cands, iterations=50, seed=2)
    as_counts = gen.simulate(board, RACK, {"E": 12, "S": 5}, cands, iterations=50, seed=2)
    assert as_list == as_counts


def test_a_pass_that_completes_the_scoreless_run_ends_the_game(
    gen: NativeGenerator, board: Board
) -> None:
    """FISE ends after three scoreless rounds (six turns at two): with five behind, passing
    ends the game at once and each side loses its own rack (T U D O R N I: 8 points; the
    opponent's seven E: 7). With four behind the opponent answers and the game goes on."""
    opponent = ["E"] * 7
    (ended,) = gen.simulate(board, RACK, opponent, [Pass()], plies=2, scoreless=5)
    assert ended.mean == -8 - (-7)
    (going_on,) = gen.simulate(board, RACK, opponent, [Pass()], plies=2, scoreless=4)
    assert going_on.mean != ended.mean
    # -1 stands for "the candidate itself scores" (a CAMBIO simulated as a pass): no end
    (cambio_like,) = gen.simulate(board, RACK, opponent, [Pass()], plies=0, scoreless=-1)
    assert cambio_like.mean == -(10 + 2 * 8)  # the rack kept: a debt, counted twice in FISE
    with pytest.raises(ValueError, match="scoreless"):
        gen.simulate(board, RACK, opponent, [Pass()], scoreless=-2)


def test_known_tiles_fix_part_of_the_opponents_rack_deal_by_deal(
    gen: NativeGenerator, board: Board
) -> None:
    """Rack inference's hook: deal ``i`` gives the opponent ``known[i % len(known)]`` and
    the rest of its rack at random. Holding seven E, the opponent's best reply to TUDOR(ASA)
    is the same in every deal (no S for SETUDORASA); holding an S, it always has the big one;
    the two in turn average the two."""
    moves = by_notation(gen.placements(board, RACK))
    risky, safe = moves["H3 TUDOR(ASA)"], moves["H8 (ASA)DO"]
    after = gen.board(board)
    after.apply(risky)
    sevens = ("E",) * 7
    (reply,) = gen.best(after, sevens)

    def run(known: list[tuple[str, ...]] | None) -> list[NativeSimResult]:
        return gen.simulate(
            board, RACK, UNSEEN, [risky, safe], plies=1, iterations=200, seed=3, known=known
        )

    no_s = run([sevens])
    assert no_s[0].mean == risky.score - reply.score
    assert no_s[0].sd == 0.0
    with_s = run([("S",)])
    assert with_s[0].sd == 0.0
    assert with_s[0].mean < no_s[0].mean - 20  # SETUDORASA over the triple word, every time
    uniform = run(None)
    assert with_s[0].mean < uniform[0].mean < no_s[0].mean
    both = run([("S",), sevens])
    assert both[0].mean == pytest.approx((with_s[0].mean + no_s[0].mean) / 2)
    assert [r.mean for r in (no_s[1], with_s[1], both[1])] == [uniform[1].mean] * 3


def test_known_tiles_must_be_unseen_and_fit_an_opponents_rack(
    gen: NativeGenerator, board: Board
) -> None:
    risky = by_notation(gen.placements(board, RACK))["H3 TUDOR(ASA)"]
    with pytest.raises(ValueError, match="not a part of the unseen tiles"):
        gen.simulate(board, RACK, UNSEEN, [risky], known=[("Z",)])
    with pytest.raises(ValueError, match="not a part of the unseen tiles"):
        gen.simulate(board, RACK, UNSEEN, [risky], known=[("S",) * 6])
    with pytest.raises(ValueError, match="not a part of the unseen tiles"):
        gen.simulate(board, RACK, UNSEEN, [risky], known=[("E",) * 8])
    with pytest.raises(ValueError, match="known_seat"):
        gen.simulate(board, RACK, UNSEEN, [risky], known=[("S",)], known_seat=2)
