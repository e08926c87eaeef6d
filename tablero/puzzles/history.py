"""A person's puzzle history at the terminal: one JSON file in their data directory.

``puzzles.json`` in ``$TABLERO_DATA`` if set (as ``tablero serve`` keeps its database there),
else platformdirs' user data directory for ``tablero`` when platformdirs is installed, else
``$XDG_DATA_HOME/tablero`` or ``~/.local/share/tablero``. docs/formats.md ("Puzzle history")
describes the file: the solver's rating and streak per game, each attempted puzzle's rating
(as this person's attempts have moved it), and the attempts, newest last (the last
``MAX_ATTEMPTS``). It is written whole to a temporary file that then replaces the old one, so
an interrupted write leaves the old file.
"""

from __future__ import annotations

import importlib
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .judge import Verdict
from .model import Puzzle
from .rating import Rated, Rating, display, rate_attempt, rating_at

__all__ = [
    "FORMAT",
    "HISTORY_FILE",
    "MAX_ATTEMPTS",
    "Attempt",
    "History",
    "HistoryError",
    "SolverRecord",
    "default_history_path",
]

FORMAT = "tablero-puzzle-history"
VERSION = 1
HISTORY_FILE = "puzzles.json"
MAX_ATTEMPTS = 2000
"""Attempts kept in the file (the ratings and the puzzles played are kept whatever the count)."""


class HistoryError(ValueError):
    """A history file that cannot be read as one (the message names the file and the fault)."""


def default_history_path() -> Path:
    """Where the history lives (see the module's text)."""
    if env := os.environ.get("TABLERO_DATA"):
        return Path(env) / HISTORY_FILE
    try:
        platformdirs: Any = importlib.import_module("platformdirs")
    except ImportError:
        xdg = os.environ.get("XDG_DATA_HOME")
        base = Path(xdg) if xdg else Path.home() / ".local" / "share"
        return base / "tablero" / HISTORY_FILE
    return Path(platformdirs.user_data_dir("tablero")) / HISTORY_FILE


@dataclass
class SolverRecord:
    """The solver in one game."""

    rating: Rating
    solved: int = 0
    streak: int = 0
    """Puzzles solved in a row at their first attempt (a miss sets it back to 0)."""
    best_streak: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "mu": self.rating.mu,
            "sigma": self.rating.sigma,
            "games": self.rating.games,
            "solved": self.solved,
            "streak": self.streak,
            "best_streak": self.best_streak,
        }


@dataclass(frozen=True)
class Attempt:
    """One attempt as the history keeps it."""

    at: float
    puzzle: str
    variant: str
    move: str | None
    correct: bool
    rated: bool
    rated_change: Rated | None

    def to_dict(self) -> dict[str, Any]:
        r = self.rated_change
        return {
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.at)),
            "puzzle": self.puzzle,
            "variant": self.variant,
            "move": self.move,
            "correct": self.correct,
            "rated": self.rated,
            "rating_before": display(r.solver_before) if r else None,
            "rating_after": display(r.solver_after) if r else None,
            "puzzle_before": display(r.puzzle_before) if r else None,
            "puzzle_after": display(r.puzzle_after) if r else None,
        }


class History:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.solvers: dict[str, SolverRecord] = {}
        self.puzzles: dict[str, Rating] = {}
        self.attempts: list[dict[str, Any]] = []

    @classmethod
    def load(cls, path: Path | None = None) -> History:
        """The history at ``path`` (default: ``default_history_path``), empty if there is no
        file yet; HistoryError if the file is not a history."""
        history = cls(path or default_history_path())
        try:
            text = history.path.read_text("utf-8")
        except FileNotFoundError:
            return history
        except OSError as e:
            raise HistoryError(f"{history.path}: {e.strerror or e}") from None
        try:
            history._read(json.loads(text))
        except (ValueError, KeyError, TypeError) as e:
            raise HistoryError(
                f"{history.path} is not a puzzle history ({e}); move it away to start afresh"
            ) from None
        return history

    def _read(self, data: Any) -> None:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f'"format" is not "{FORMAT}"')
        if data.get("version") != VERSION:
            raise ValueError(f"version {data.get('version')!r}, this tablero reads {VERSION}")
        for variant, s in dict(data.get("solvers", {})).items():
            rating = Rating(float(s["mu"]), float(s["sigma"]), int(s["games"]))
            self.solvers[str(variant)] = SolverRecord(
                rating, int(s["solved"]), int(s["streak"]), int(s["best_streak"])
            )
        for pid, p in dict(data.get("puzzles", {})).items():
            self.puzzles[str(pid)] = Rating(float(p["mu"]), float(p["sigma"]), int(p["games"]))
        attempts = data.get("attempts", [])
        if not isinstance(attempts, list):
            raise ValueError("attempts must be a list")
        self.attempts = [dict(a) for a in attempts]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "solvers": {v: s.to_dict() for v, s in sorted(self.solvers.items())},
            "puzzles": {
                pid: {"mu": r.mu, "sigma": r.sigma, "games": r.games}
                for pid, r in sorted(self.puzzles.items())
            },
            "attempts": self.attempts[-MAX_ATTEMPTS:],
        }

    def save(self) -> None:
        """Write the file whole, then put it in place (HistoryError if it cannot be)."""
        text = json.dumps(self.to_dict(), ensure_ascii=False, indent=1) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".puzzles-", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(tmp, self.path)
        except OSError as e:
            raise HistoryError(f"cannot write {self.path}: {e.strerror or e}") from None

    # -- reading --------------------------------------------------------------------------------

    def solver(self, variant: str) -> SolverRecord:
        """The solver in a game (a newcomer's 1500 the first time)."""
        return self.solvers.get(variant) or SolverRecord(Rating.new())

    def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        """The puzzle's rating as this history has it (its starting rating if never played)."""
        return self.puzzles.get(puzzle.id) or rating_at(puzzle.rating)

    def played(self, variant: str) -> set[str]:
        """The puzzles of a game this person has attempted."""
        prefix = f"{variant}-"
        return {pid for pid in self.puzzles if pid.startswith(prefix)}

    # -- writing --------------------------------------------------------------------------------

    def record(self, puzzle: Puzzle, verdict: Verdict, now: float | None = None) -> Attempt:
        """Add an attempt (the first at a puzzle moves both ratings and the streak; a later
        one is kept unrated). The caller saves."""
        at = time.time() if now is None else now
        rated = puzzle.id not in self.puzzles
        change = None
        if rated:
            solver = self.solver(puzzle.variant)
            change = rate_attempt(solver.rating, self.puzzle_rating(puzzle), verdict.correct)
            solver.rating = change.solver_after
            if verdict.correct:
                solver.solved += 1
                solver.streak += 1
                solver.best_streak = max(solver.best_streak, solver.streak)
            else:
                solver.streak = 0
            self.solvers[puzzle.variant] = solver
            self.puzzles[puzzle.id] = change.puzzle_after
        attempt = Attempt(
            at, puzzle.id, puzzle.variant, verdict.move, verdict.correct, rated, change
        )
        self.attempts.append(attempt.to_dict())
        del self.attempts[:-MAX_ATTEMPTS]
        return attempt
