"""A puzzle: a position, the move to find in it, and what the position says about its difficulty.

One puzzle is one JSON object (docs/formats.md, "Puzzle files"); a set is a file of them, one
per line (JSON Lines). The answer is kept apart from what a solver may see before answering:
``public_dict`` leaves out the answers, the runner-up, the theme and the seeds.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..formats.cgp import read_cgp
from ..position import Position
from ..variant import Variant

__all__ = [
    "THEMES",
    "Answer",
    "Puzzle",
    "PuzzleFormatError",
    "Seeds",
    "puzzle_id",
    "read_puzzles",
    "write_puzzles",
]

THEMES = ("bingo", "big_score", "only_move")
"""What makes the answer stand out: a bingo (all the rack's tiles), a big score, or the only
good play (everything else is at least the margin behind)."""


class PuzzleFormatError(ValueError):
    """A puzzle file line, or a puzzle object, that is not what docs/formats.md describes."""


@dataclass(frozen=True)
class Answer:
    """A move of the position with what it is worth."""

    move: str
    """Canonical notation (``8H CA(S)A``: letters on the board in parentheses)."""
    score: int
    equity: float
    """Score plus the value of the tiles kept (the game's shipped leave values)."""

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "score": self.score, "equity": round(self.equity, 2)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Answer:
        move, score, equity = data.get("move"), data.get("score"), data.get("equity")
        if not isinstance(move, str) or not move:
            raise PuzzleFormatError(f"an answer's move must be notation text, not {move!r}")
        if isinstance(score, bool) or not isinstance(score, int):
            raise PuzzleFormatError(f"an answer's score must be a whole number, not {score!r}")
        if isinstance(equity, bool) or not isinstance(equity, int | float):
            raise PuzzleFormatError(f"an answer's equity must be a number, not {equity!r}")
        return cls(move, score, float(equity))


@dataclass(frozen=True)
class Seeds:
    """What the position says about how hard the answer is to see (docs/competition.md)."""

    tiles: int
    """Tiles the answer puts down."""
    length: int
    """Letters (tiles) of its main word, those on the board included."""
    words: int
    """Words it forms: the main word and each cross word."""
    rare: bool | None
    """Its main word is not among the language's 30,000 most common (None: no list ships)."""
    blank: bool
    """It puts down a blank."""
    moves: int
    """Placements the rack has on this board."""
    score_margin: int
    """Its score minus the best score of any other move."""
    equity_margin: float
    """Its equity minus the best equity of any other move (at least the selection margin)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "tiles": self.tiles,
            "length": self.length,
            "words": self.words,
            "rare": self.rare,
            "blank": self.blank,
            "moves": self.moves,
            "score_margin": self.score_margin,
            "equity_margin": round(self.equity_margin, 2),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seeds:
        try:
            rare = data["rare"]
            return cls(
                tiles=_int(data["tiles"]),
                length=_int(data["length"]),
                words=_int(data["words"]),
                rare=None if rare is None else bool(rare),
                blank=bool(data["blank"]),
                moves=_int(data["moves"]),
                score_margin=_int(data["score_margin"]),
                equity_margin=float(data["equity_margin"]),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise PuzzleFormatError(f"seeds: {e}") from None

    def start_rating(self) -> int:
        """A first guess at the puzzle's rating (the display scale, where a newcomer is 1500),
        which attempts then correct: 1100, plus 50 a tile put down, plus 100 for each word
        formed beyond the main one (at most 3), plus 150 for a rare word, plus 50 for a
        blank; kept within 800–2200. A seven-tile bingo of a rare word starts at 1600."""
        guess = 1100 + 50 * self.tiles + 100 * min(self.words - 1, 3)
        guess += 150 if self.rare else 0
        guess += 50 if self.blank else 0
        return max(800, min(2200, guess))


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{value!r} is not a whole number")
    return value


def puzzle_id(variant_name: str, cgp: str) -> str:
    """The puzzle's id: the game's name and 10 hex digits of the CGP's SHA-256, so that the
    same position found twice (two games, two runs) is one puzzle."""
    digest = hashlib.sha256(cgp.encode("utf-8")).hexdigest()
    return f"{variant_name}-{digest[:10]}"


@dataclass(frozen=True)
class Puzzle:
    id: str
    variant: str
    """The game's name (a built-in rule set)."""
    language: str
    cgp: str
    """The position: the board, the solver's rack (the opponents' unknown), the scores with
    the solver's first, the tiles in the bag (``bag N;``)."""
    answers: tuple[Answer, ...]
    """The move to find (one: a position with several equivalent tops is no puzzle)."""
    runner_up: Answer | None
    """The best move that is not an answer: the margin is measured against it."""
    theme: str
    seeds: Seeds
    rating: int
    """Where its rating starts (``Seeds.start_rating``)."""
    source: dict[str, Any] = field(default_factory=dict)
    """Where the position came from: ``{"kind": "selfplay", "seed": 12, "ply": 9}`` or
    ``{"kind": "game", "ply": 9}``."""

    @property
    def answer(self) -> Answer:
        return self.answers[0]

    def position(self, variant: Variant | None = None) -> Position:
        return read_cgp(self.cgp, variant)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "variant": self.variant,
            "language": self.language,
            "cgp": self.cgp,
            "answers": [a.to_dict() for a in self.answers],
            "runner_up": self.runner_up.to_dict() if self.runner_up else None,
            "theme": self.theme,
            "seeds": self.seeds.to_dict(),
            "rating": self.rating,
            "source": dict(self.source),
        }

    def public_dict(self) -> dict[str, Any]:
        """What a solver sees before answering: no answer, nothing that hints at it."""
        return {
            "id": self.id,
            "variant": self.variant,
            "language": self.language,
            "cgp": self.cgp,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Puzzle:
        if not isinstance(data, Mapping):
            raise PuzzleFormatError("a puzzle is a JSON object")
        try:
            pid, variant, language, cgp = (data[k] for k in ("id", "variant", "language", "cgp"))
            answers_data, theme, rating = data["answers"], data["theme"], data["rating"]
            seeds = Seeds.from_dict(data["seeds"])
        except KeyError as e:
            raise PuzzleFormatError(f"a puzzle needs {e.args[0]!r}") from None
        for name, value in (("id", pid), ("variant", variant), ("language", language)):
            if not isinstance(value, str) or not value:
                raise PuzzleFormatError(f"a puzzle's {name} must be text, not {value!r}")
        if not isinstance(cgp, str) or not cgp.strip():
            raise PuzzleFormatError("a puzzle's cgp must be a CGP line")
        if not isinstance(answers_data, list) or not answers_data:
            raise PuzzleFormatError(f"puzzle {pid}: answers must be a list of at least one move")
        if theme not in THEMES:
            raise PuzzleFormatError(f"puzzle {pid}: theme {theme!r} is not one of {THEMES}")
        if isinstance(rating, bool) or not isinstance(rating, int):
            raise PuzzleFormatError(f"puzzle {pid}: rating must be a whole number")
        runner = data.get("runner_up")
        source = data.get("source") or {}
        if not isinstance(source, dict):
            raise PuzzleFormatError(f"puzzle {pid}: source must be an object")
        return cls(
            id=pid,
            variant=variant,
            language=language,
            cgp=cgp,
            answers=tuple(Answer.from_dict(a) for a in answers_data),
            runner_up=Answer.from_dict(runner) if runner is not None else None,
            theme=theme,
            seeds=seeds,
            rating=rating,
            source=source,
        )


def read_puzzles(path: Path | str) -> list[Puzzle]:
    """Every puzzle of a JSON Lines file (blank lines skipped); PuzzleFormatError naming the
    line of the first bad one."""
    return list(_read_lines(Path(path).read_text("utf-8").splitlines(), str(path)))


def _read_lines(lines: Iterable[str], where: str) -> Iterator[Puzzle]:
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield Puzzle.from_dict(json.loads(line))
        except (ValueError, PuzzleFormatError) as e:
            raise PuzzleFormatError(f"{where}, line {number}: {e}") from None


def write_puzzles(path: Path | str, puzzles: Iterable[Puzzle]) -> None:
    """One puzzle a line, keys in the documented order, UTF-8 as is."""
    text = "".join(json.dumps(p.to_dict(), ensure_ascii=False) + "\n" for p in puzzles)
    Path(path).write_text(text, "utf-8")
