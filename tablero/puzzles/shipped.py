"""The puzzle sets that ship with tablero: ``tablero/data/puzzles/<game>.jsonl``, one per game,
built from the engine's own self-play by ``scripts/build_puzzles.py``."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from .model import Puzzle, read_puzzles

__all__ = ["PUZZLE_DIR", "find_puzzle", "puzzle_games", "shipped_puzzles"]

PUZZLE_DIR = Path(str(resources.files("tablero") / "data" / "puzzles"))


def puzzle_games() -> list[str]:
    """The games with a shipped puzzle set, by name."""
    if not PUZZLE_DIR.is_dir():
        return []
    return sorted(p.stem for p in PUZZLE_DIR.glob("*.jsonl"))


@cache
def _shipped(variant_name: str) -> tuple[Puzzle, ...]:
    path = PUZZLE_DIR / f"{variant_name}.jsonl"
    if not path.is_file():
        return ()
    return tuple(read_puzzles(path))


def shipped_puzzles(variant_name: str) -> list[Puzzle]:
    """The game's shipped puzzles (none when it has no set)."""
    return list(_shipped(variant_name))


def find_puzzle(puzzle_id: str) -> Puzzle | None:
    """A shipped puzzle by its id (``fise-1a2b3c4d5e``: the game's name comes first)."""
    name, sep, _ = puzzle_id.rpartition("-")
    if not sep or "/" in name or name.startswith("."):
        return None
    return next((p for p in _shipped(name) if p.id == puzzle_id), None)
