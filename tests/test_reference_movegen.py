"""The reference move generator against an independent engine.

The 50 FISE positions in ``data/bench`` list every legal placement with its score, from
Quackle with the same word list. Ours must find exactly the same moves, scored by the rules
engine to exactly the same points. A sample runs by default; all 50 with ``-m slow``.
"""

from __future__ import annotations

import json
import lzma
from pathlib import Path
from typing import Any

import pytest

from tablero.engine.movegen.reference import generate_placements
from tablero.formats.cgp import read_cgp
from tablero.lexicon import WordListLexicon
from tablero.moves import format_move
from tablero.rules import check_placement
from tablero.scoring import score_placement


def _positions() -> list[dict[str, Any]]:
    path = Path(__file__).parent / "data" / "bench" / "fise_positions.jsonl.xz"
    with lzma.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


POSITIONS = _positions()
SAMPLE = [0, 1, 2, 3, 5, 8, 13, 21, 34, 49]


def our_moves(cgp: str, lexicon: WordListLexicon) -> dict[str, int]:
    p = read_cgp(cgp)
    moves: dict[str, int] = {}
    for place in generate_placements(p.variant, p.board, p.rack, lexicon):
        chk = check_placement(p.variant, p.board, place, p.rack)
        score = score_placement(p.variant, list(chk.words), len(chk.new_tiles), p.first_turn)
        moves[format_move(place, through="plain")] = score.total
    if p.first_turn:  # the reference lists only across plays on an empty board
        moves = {m: s for m, s in moves.items() if m[0].isdigit()}
    return moves


def check(index: int, lexicon: WordListLexicon) -> None:
    expected = POSITIONS[index]
    got = our_moves(expected["cgp"], lexicon)
    want = {m: s for m, s in expected["moves"]}
    assert len(got) == expected["n_moves"]
    assert set(got) == set(want), (set(want) - set(got), set(got) - set(want))
    assert got == want
    assert max(got.values(), default=0) == expected["best_score"]


@pytest.mark.parametrize("index", SAMPLE)
def test_sample_matches_the_reference_engine(index: int, es_words: WordListLexicon) -> None:
    check(index, es_words)


@pytest.mark.slow
@pytest.mark.parametrize("index", [i for i in range(len(POSITIONS)) if i not in SAMPLE])
def test_every_position_matches_the_reference_engine(index: int, es_words: WordListLexicon) -> None:
    check(index, es_words)
