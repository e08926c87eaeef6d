"""Judging an answer to a puzzle.

A move is **right** when it puts down the same tiles on the same squares as an answer, however
it is written (``8H CASA``, ``8H CA(S)A``, ``H8 C`` for a one-tile play across or down).
Anything else is **wrong**, including a move the dictionary refuses (a word that is not one),
an exchange, a pass or a CAMBIO. Giving up is wrong too.

Some input is **refused** rather than judged (``PuzzleMoveError``), as a typing slip: text that
is not a move in the notation, and a placement the board or the rack rules out before any
dictionary is asked (tiles not on the rack, a gap, squares already taken, not touching the
words on the board…). A refused move changes nothing: it is not an attempt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..lexicon import Lexicon
from ..moves import Challenge, Move, NotationError, Place, format_move, parse_move
from ..position import Position
from ..rules import IllegalMove, check_move, check_placement, placement_from_squares
from .model import Answer, Puzzle
from .selection import tiles_key

__all__ = ["PuzzleMoveError", "Verdict", "judge"]


class PuzzleMoveError(ValueError):
    """An answer refused before judging: ``code`` is ``notation`` or the rule it breaks
    (``tablero.rules``), ``params`` what the message names."""

    def __init__(
        self, code: str, message: str, params: Mapping[str, str | int | list[str]] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = dict(params or {})


@dataclass(frozen=True)
class Verdict:
    correct: bool
    move: str | None
    """The move judged, in canonical notation: the answer's own when it is right (None: the
    solver gave up)."""
    score: int | None
    """What the move scores on the position (None: gave up, or not a scoring move)."""
    legal: bool
    """Whether the game would take it (its words in the dictionary, when one was given)."""
    rule: str | None
    reason: str | None
    """Why it is not legal (``not_in_lexicon``: the words that are not)."""
    answers: tuple[Answer, ...]

    @property
    def gave_up(self) -> bool:
        return self.move is None

    def to_dict(self) -> dict[str, object]:
        return {
            "correct": self.correct,
            "move": self.move,
            "score": self.score,
            "legal": self.legal,
            "rule": self.rule,
            "reason": self.reason,
        }


def judge(
    puzzle: Puzzle,
    move: str | Move | None,
    lexicon: Lexicon | None = None,
    position: Position | None = None,
) -> Verdict:
    """The verdict on ``move`` (notation or a parsed move; None gives up). ``lexicon``
    checks the words of a wrong move (to say whether it was at least a valid play); without
    one, words are not checked. PuzzleMoveError for input that is refused (module text)."""
    pos = position if position is not None else puzzle.position()
    v = pos.variant
    if move is None:
        return Verdict(False, None, None, False, None, None, puzzle.answers)
    if isinstance(move, str):
        try:
            move = parse_move(move, v.alphabet, v.rows, v.columns)
        except NotationError as e:
            raise PuzzleMoveError("notation", str(e)) from None
    if isinstance(move, Challenge):
        raise PuzzleMoveError("not_a_move", "a challenge is no answer: give a move")
    if not isinstance(move, Place):
        return _not_a_placement(puzzle, pos, move, lexicon)
    try:
        chk = check_placement(v, pos.board, move, pos.rack)
    except IllegalMove as e:
        raise PuzzleMoveError(e.rule, e.message, e.params) from None
    canonical = format_move(placement_from_squares(pos.board, chk.new_tiles))
    key = frozenset((c, t.letter, t.blank) for c, t in chk.new_tiles)
    for answer in puzzle.answers:
        if key == _answer_key(answer, pos):  # written as the answer is (a one-tile play's
            # direction, letters on the board in parentheses)
            return Verdict(True, answer.move, answer.score, True, None, None, puzzle.answers)
    try:
        score = check_move(pos, move, lexicon)
        legal, rule, reason = True, None, None
    except IllegalMove as e:
        score = check_move(pos, move, None)
        legal, rule, reason = False, e.rule, e.message
    return Verdict(
        False,
        canonical,
        score.total if score is not None else None,
        legal,
        rule,
        reason,
        puzzle.answers,
    )


def _answer_key(answer: Answer, pos: Position) -> frozenset[tuple[tuple[int, int], str, bool]]:
    v = pos.variant
    parsed = parse_move(answer.move, v.alphabet, v.rows, v.columns)
    assert isinstance(parsed, Place), f"an answer is a placement, not {answer.move!r}"
    return tiles_key(parsed, pos.board)


def _not_a_placement(puzzle: Puzzle, pos: Position, move: Move, lexicon: Lexicon | None) -> Verdict:
    """An exchange, a pass or a CAMBIO: wrong (every answer is a placement), once the rules
    allow it at all (else refused, as a placement the board rules out)."""
    try:
        plain = check_move(pos, move, None)
    except IllegalMove as e:
        raise PuzzleMoveError(e.rule, e.message, e.params) from None
    points = plain.total if plain is not None else 0
    try:
        check_move(pos, move, lexicon)
    except IllegalMove as e:
        return Verdict(False, format_move(move), points, False, e.rule, e.message, puzzle.answers)
    return Verdict(False, format_move(move), points, True, None, None, puzzle.answers)
