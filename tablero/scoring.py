"""The score of a move, with a breakdown a player can check square by square.

Order of operations, as every rule book of the family states it:

1. each tile's face value (a blank is 0), times the letter factor of its square if it was
   placed this turn;
2. the sum for the word, times the factor of every word square newly covered in it (4W only if
   the square is the word's first or last);
3. plus the addends (+10, −5) of newly covered squares in it, after all multiplication;
4. the words of the move added; the sum times the first turn's multiplier; plus the first turn's
   bonus; plus the bingo bonus when a full rack was placed.

CAMBIO (Crucigrama) scores the plain face values of the word or words through the changed square,
with no premium and no bonus.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import WordOnBoard
from .variant import Variant, square_name

__all__ = ["MoveScore", "SquareScore", "WordScore", "score_cambio", "score_placement", "score_word"]


@dataclass(frozen=True)
class SquareScore:
    square: str
    letter: str
    value: int
    """Points the tile adds to the word's sum (face value × letter factor)."""
    effect: str = ""
    """What the square did, for the breakdown ("2L", "3W", "4W not at an end: no effect")."""


@dataclass(frozen=True)
class WordScore:
    word: str
    notation: str
    squares: tuple[SquareScore, ...]
    letters_total: int
    factor: int
    addend: int
    score: int

    def explain(self) -> str:
        parts = " + ".join(
            f"{s.letter}{s.value}" + (f"[{s.effect}]" if s.effect else "") for s in self.squares
        )
        text = f"{self.word}: {parts} = {self.letters_total}"
        if self.factor != 1:
            text += f" ×{self.factor}"
        if self.addend:
            text += f" {self.addend:+d}"
        if self.factor != 1 or self.addend:
            text += f" = {self.score}"
        return text


@dataclass(frozen=True)
class MoveScore:
    words: tuple[WordScore, ...]
    first_turn_multiplier: int = 1
    first_turn_bonus: int = 0
    bingo_bonus: int = 0
    shuffles_next_rack: bool = False
    """An EX square was covered: the next player's rack will be exchanged with the bag."""
    premiums: bool = True
    """False for CAMBIO, which scores plain letter values."""
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def words_total(self) -> int:
        return sum(w.score for w in self.words)

    @property
    def total(self) -> int:
        return (
            self.words_total * self.first_turn_multiplier + self.first_turn_bonus + self.bingo_bonus
        )

    def explain(self) -> str:
        """How the total comes about, as text: a line for each word and each bonus, then the
        total (``explain_lines`` gives the lines)."""
        return "\n".join(self.explain_lines())

    def explain_lines(self) -> list[str]:
        """Line by line, how the total comes about."""
        lines = [w.explain() for w in self.words]
        if self.first_turn_multiplier != 1:
            lines.append(
                f"first turn ×{self.first_turn_multiplier}: {self.words_total} → "
                f"{self.words_total * self.first_turn_multiplier}"
            )
        if self.first_turn_bonus:
            lines.append(f"opening bonus {self.first_turn_bonus:+d}")
        if self.bingo_bonus:
            lines.append(f"all tiles played: {self.bingo_bonus:+d}")
        if self.shuffles_next_rack:
            lines.append("EX covered: the next player's rack is exchanged with the bag")
        lines.extend(self.notes)
        lines.append(f"total {self.total}")
        return lines

    def to_dict(self) -> dict[str, object]:
        return {
            "score": self.total,
            "words": [
                {
                    "word": w.word,
                    "notation": w.notation,
                    "score": w.score,
                    "letters": w.letters_total,
                    "factor": w.factor,
                    "addend": w.addend,
                    "squares": [
                        {
                            "square": s.square,
                            "letter": s.letter,
                            "value": s.value,
                            "effect": s.effect,
                        }
                        for s in w.squares
                    ],
                }
                for w in self.words
            ],
            "words_total": self.words_total,
            "first_turn_multiplier": self.first_turn_multiplier,
            "first_turn_bonus": self.first_turn_bonus,
            "bingo_bonus": self.bingo_bonus,
            "shuffles_next_rack": self.shuffles_next_rack,
            "premiums": self.premiums,
            "explanation": self.explain_lines(),
        }


def score_word(variant: Variant, word: WordOnBoard, premiums: bool = True) -> WordScore:
    """One word's score: premiums of newly covered squares only (and none for CAMBIO)."""
    squares: list[SquareScore] = []
    letters_total = 0
    factor = 1
    addend = 0
    last = len(word.squares) - 1
    for i, sq in enumerate(word.squares):
        face = 0 if sq.tile.blank else variant.value(sq.tile.letter)
        value = face
        effect = ""
        if sq.new and premiums:
            kind = variant.square_kind(sq.coord)
            lf = kind.letter_factor()
            value = face * lf
            f, a = kind.word_effect(i in (0, last))
            factor *= f
            addend += a
            effect = _effect_text(kind.code, lf, f, a, kind.kind_name)
        letter = sq.tile.letter.lower() if sq.tile.blank else sq.tile.letter
        squares.append(SquareScore(square_name(sq.coord), letter, value, effect))
        letters_total += value
    return WordScore(
        word=word.text,
        notation=word.notation(),
        squares=tuple(squares),
        letters_total=letters_total,
        factor=factor,
        addend=addend,
        score=letters_total * factor + addend,
    )


def _effect_text(code: str, letter_factor: int, word_factor: int, addend: int, kind: str) -> str:
    if kind == "plain":
        return ""
    if kind == "word_end" and word_factor == 1:
        return f"{code} not at an end: no effect"
    if kind == "shuffle_next_rack":
        return code
    if letter_factor == 1 and word_factor == 1 and addend == 0:
        return ""
    return code


def score_placement(
    variant: Variant, words: list[WordOnBoard], tiles_placed: int, first_turn: bool
) -> MoveScore:
    """Score a legal placement from the words it forms (see ``rules.check_placement``)."""
    scored = tuple(score_word(variant, w) for w in words)
    new_coords = {sq.coord for w in words for sq in w.squares if sq.new}
    shuffles = any(variant.square_kind(c).shuffles_next_rack for c in new_coords)
    return MoveScore(
        words=scored,
        first_turn_multiplier=variant.first_move.multiplier if first_turn else 1,
        first_turn_bonus=variant.first_move.bonus if first_turn else 0,
        bingo_bonus=variant.bingo_bonus if tiles_placed == variant.rack_size else 0,
        shuffles_next_rack=shuffles,
    )


def score_cambio(variant: Variant, words: list[WordOnBoard]) -> MoveScore:
    """CAMBIO: the plain letter values of the changed word(s), no premiums, no bonus."""
    return MoveScore(
        words=tuple(score_word(variant, w, premiums=False) for w in words),
        premiums=False,
        notes=("CAMBIO: premium squares do not count",),
    )
