"""Choosing puzzles, on positions worked out by hand: a tiny word list, leave values that are all
0 (so equity is the score) unless a test gives some, and every move of each position counted on
the FISE board below.

Row 8 of the FISE board: 3W A8, 2L D8, 2W H8 (the start), 2L L8, 3W O8. Column I: 2L on I3, I7,
I9 (and I13), the rest plain down to I12. Tile values: A E I O U S N L R T 1, D G 2, C B M P 3.
"""

from __future__ import annotations

import pytest

from tablero.alphabet import SPANISH
from tablero.engine.evaluation.leaves import LeaveTable
from tablero.formats.cgp import read_cgp
from tablero.game import Game
from tablero.lexicon import load_lexicon
from tablero.puzzles.judge import PuzzleMoveError, judge
from tablero.puzzles.model import Puzzle, puzzle_id, read_puzzles, write_puzzles
from tablero.puzzles.selection import EQUITY_MARGIN, examine, puzzles_from_gcg
from tablero.variant import load_variant

from ..helpers import words

ZERO = LeaveTable.empty(SPANISH)
EMPTY_ROW = "15"


def board(rows: dict[int, str]) -> str:
    """A FISE board in CGP: the given rows (1-based) as written, the others empty."""
    return "/".join(rows.get(r, EMPTY_ROW) for r in range(1, 16))


# OS on G8-H8. The only words: OSO and CASERON.
OS_BOARD = board({8: "6OS7"})


def test_a_position_whose_top_is_a_bingo_becomes_a_puzzle_with_that_answer() -> None:
    # Rack A C E N O R S. Every move (tablero moves lists the same six):
    #   I3 CASERON  down I3-I9, all seven tiles, its O on I8 making OS into OSO:
    #               C 3×2 (I3 2L) + A + S + E + R 1×2 (I7 2L) + O + N 1×2 (I9 2L) = 14,
    #               OSO = 3, bingo 50:                                              67
    #   G3 CASER(O)N down G3-G9 through the O of G8: C 6 (G3 2L) + 1 + 1 + 1 + R 2 (G7 2L)
    #               + O 1 + N 2 (G9 2L):                                             14
    #   H6 CA(S)ERON down H6-H12 through the S: 3 + 1 + 1 + 1 + 1 + 1 + 1:          10
    #   G6 OS(O), G8 (O)SO: 4 each (an S or O on a 2L); 8G (OS)O: 3.
    # The bingo is 53 ahead of the next: a puzzle, whose answer is the bingo.
    lexicon = words("OSO", "CASERON")
    position = read_cgp(f"{OS_BOARD} ACENORS/ 0/0 0 var fise; bag 60;")
    found = examine(position, lexicon, ZERO, source={"kind": "test"})
    assert found.reason == "puzzle", found.detail
    p = found.puzzle
    assert p is not None
    assert [(a.move, a.score, a.equity) for a in p.answers] == [("I3 CASERON", 67, 67.0)]
    assert p.runner_up is not None and (p.runner_up.move, p.runner_up.score) == (
        "G3 CASER(O)N",
        14,
    )
    assert p.theme == "bingo"
    seeds = p.seeds.to_dict()
    assert seeds == {
        "tiles": 7,
        "length": 7,
        "words": 2,  # CASERON and OSO
        "rare": True,  # not among the 30,000 most common Spanish words
        "blank": False,
        "moves": 6,
        "score_margin": 53,
        "equity_margin": 53.0,
    }
    # 1100 + 50 × 7 tiles + 100 for the cross word + 150 for a rare word
    assert p.rating == 1700
    # The solver's view: the opponent's rack unknown, the bag counted, the dictionary named.
    assert p.cgp == f"{OS_BOARD} ACENORS/ 0/0 0 var fise; lex test; bag 60;"
    assert p.id == puzzle_id("fise", p.cgp) and p.id.startswith("fise-") and len(p.id) == 15
    assert p.variant == "fise" and p.language == "es" and p.source == {"kind": "test"}
    # Before an attempt a solver sees the position and nothing of the answer.
    assert set(p.public_dict()) == {"id", "variant", "language", "cgp"}


def test_two_moves_within_the_margin_make_no_puzzle() -> None:
    # Rack D T E E I I U; the only words OSD and OST. The moves: 8G (OS)D = 1 + 1 + 2 = 4 and
    # 8G (OS)T = 3, I8 being plain (no word goes down: neither has its O or S on the rack);
    # an exchange or a pass keeps tiles worth 0. The best is 1 ahead of the next: not
    # clearly best.
    lexicon = words("OSD", "OST")
    position = read_cgp(f"{OS_BOARD} DTEEIIU/ 0/0 0 var fise; bag 60;")
    found = examine(position, lexicon, ZERO)
    assert (found.puzzle, found.reason) == (None, "too_close")
    assert found.detail == "8G (OS)T is 1.00 behind 8G (OS)D, less than 15"
    # With a margin of 1 it would be one (the margin is a parameter; 15 is the default).
    assert EQUITY_MARGIN == 15.0
    found = examine(position, lexicon, ZERO, margin=1.0)
    assert found.puzzle is not None and found.puzzle.answer.move == "8G (OS)D"
    assert found.puzzle.theme == "only_move"


def test_the_same_word_placed_two_ways_worth_the_same_is_no_puzzle() -> None:
    # An S alone on H8, the only word SO: an O on I8 (SO across) or on H9 (SO down), each
    # 1 + 1 = 2 points on plain squares. Two answers of the same worth: skipped.
    lexicon = words("SO")
    position = read_cgp(f"{board({8: '7S7'})} OEEIIUU/ 0/0 0 var fise; bag 60;")
    found = examine(position, lexicon, ZERO)
    assert found.reason == "several_answers"
    assert found.detail == "8H (S)O and H8 (S)O are worth the same (2.00)"


def test_the_answer_must_also_be_the_top_by_score() -> None:
    # As the too-close position, with the bag at 5 (no exchange: FISE needs 7 in the bag) and
    # the tiles (OS)T keeps, D E E I I U, worth 20: (OS)T has equity 3 + 20 = 23, 19 ahead of
    # (OS)D (4 + 0), but (OS)D scores more. "The move worth the most" would mean two things.
    lexicon = words("OSD", "OST")
    leaves = LeaveTable.from_values({("D", "E", "E", "I", "I", "U"): 20.0}, SPANISH)
    position = read_cgp(f"{OS_BOARD} DTEEIIU/ 0/0 0 var fise; bag 5;")
    found = examine(position, lexicon, leaves)
    assert (found.reason, found.detail) == ("not_top_score", "8G (OS)D scores 4, 8G (OS)T 3")


def test_no_puzzle_from_an_endgame_or_without_a_rack() -> None:
    lexicon = words("OSO", "CASERON")
    endgame = read_cgp(f"{OS_BOARD} ACENORS/ 0/0 0 var fise; bag 0;")
    assert examine(endgame, lexicon, ZERO).reason == "endgame"
    no_rack = read_cgp(f"{OS_BOARD} / 0/0 0 var fise; bag 60;")
    assert examine(no_rack, lexicon, ZERO).reason == "no_rack"


def _os_puzzle() -> Puzzle:
    position = read_cgp(f"{OS_BOARD} ACENORS/ 0/0 0 var fise; bag 60;")
    found = examine(position, words("OSO", "CASERON"), ZERO).puzzle
    assert found is not None
    return found


def test_judging_answers() -> None:
    p = _os_puzzle()
    lexicon = words("OSO", "CASERON")
    # Right, however it is written.
    for text in ("I3 CASERON", "i3 caseron".upper(), "I3 CASERON "):
        v = judge(p, text, lexicon)
        assert (v.correct, v.move, v.score, v.legal) == (True, "I3 CASERON", 67, True)
    # Wrong: a legal move that is not the top, and a placement whose word is no word.
    v = judge(p, "G3 CASERON", lexicon)  # the O of G8 written plainly
    assert (v.correct, v.move, v.score, v.legal) == (False, "G3 CASER(O)N", 14, True)
    v = judge(p, "8G (OS)A", lexicon)
    assert (v.correct, v.score, v.legal, v.rule) == (False, 3, False, "not_in_lexicon")
    # Without a dictionary, words are not checked: it is wrong, and legal as far as known.
    assert judge(p, "8G (OS)A").legal is True
    # A pass and an exchange are wrong answers (every answer is a placement).
    assert judge(p, "-", lexicon).correct is False
    v = judge(p, "-CA", lexicon)
    assert (v.correct, v.move, v.score, v.legal) == (False, "-CA", 0, True)
    # Giving up.
    v = judge(p, None, lexicon)
    assert (v.correct, v.gave_up, v.move) == (False, True, None)
    # Refused, not judged: no move in the notation, tiles not on the rack, a gap.
    for text, code in (
        ("I3", "notation"),
        ("hello world", "notation"),
        ("I3 CASEROZ", "not_on_rack"),
        ("1A CA", "not_connected"),
        ("CHALLENGE", "not_a_move"),
    ):
        with pytest.raises(PuzzleMoveError) as e:
            judge(p, text, lexicon)
        assert e.value.code == code, text


def test_puzzle_files_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    p = _os_puzzle()
    path = tmp_path / "set.jsonl"
    write_puzzles(path, [p, p])
    assert read_puzzles(path) == [p, p]
    path.write_text(path.read_text() + '{"id": "x"}\n', "utf-8")
    with pytest.raises(ValueError, match="line 3: a puzzle needs 'variant'"):
        read_puzzles(path)


def test_a_recorded_game_gives_the_puzzles_of_its_positions() -> None:
    # A self-play game of FISE (two hard players), its record written as GCG and read back:
    # the puzzles found from the record are those examined position by position as it was
    # played (the same ids: the same positions as the solver sees them).
    from tablero.engine.players import Bot, seat_view
    from tablero.formats.gcg import write_gcg

    v = load_variant("fise")
    lexicon = load_lexicon("es", v.alphabet)
    game = Game(v, ["Ana", "Luis"], lexicon, seed=5)
    bots = [Bot("hard", v, lexicon, seed=k) for k in range(2)]
    during: list[str] = []
    while not game.is_over:
        found = examine(seat_view(game), lexicon).puzzle
        if found is not None:
            during.append(found.id)
        game.play(bots[game.to_move].choose(game))
    from_record = puzzles_from_gcg(write_gcg(game), v, lexicon)
    assert during and [p.id for p in from_record] == during
    assert all(p.source["kind"] == "game" and p.source["ply"] >= 1 for p in from_record)
