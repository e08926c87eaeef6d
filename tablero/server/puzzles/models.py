"""The puzzles' tables: the puzzles served, their solvers' ratings, every attempt, and which
finished games have been scanned for puzzles.

A puzzle is stored whole as JSON (``data``: ``Puzzle.to_dict``, answer included: the server
never sends it before an attempt) with the columns it is chosen and rated by. A solver is a
player key: ``account:<id>``, or ``guest:<hash>`` for a guest's browser session (the hash of
the session's cookie; such rows are deleted a while after their last attempt, or moved to
the account the guest signs up or logs in as: ``store.carry_guest``).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..store.models import Base

__all__ = ["PuzzleAttemptRow", "PuzzleRow", "PuzzleScanRow", "PuzzleSolverRow"]


class PuzzleRow(Base):
    __tablename__ = "puzzles"

    id: Mapped[str] = mapped_column(String(48), primary_key=True)
    """``<game>-<10 hex digits>`` (``tablero.puzzles.model.puzzle_id``)."""
    variant: Mapped[str] = mapped_column(String(32))
    language: Mapped[str] = mapped_column(String(8))
    data: Mapped[str] = mapped_column(Text)
    """The puzzle as JSON (docs/formats.md, "Puzzle files")."""
    origin: Mapped[str] = mapped_column(String(12))
    """shipped (the set that ships) or game (found in a finished game here)."""
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="SET NULL"), index=True
    )
    """The game it was found in (never shown: a puzzle names no players)."""
    rating: Mapped[int] = mapped_column(Integer)
    """Its displayed rating now (what the next puzzle is chosen by)."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    """Rated attempts (each solver's first)."""
    solved: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_puzzles_variant_rating", "variant", "rating"),)


class PuzzleSolverRow(Base):
    __tablename__ = "puzzle_solvers"

    player: Mapped[str] = mapped_column(String(48), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    """Rated attempts."""
    solved: Mapped[int] = mapped_column(Integer)
    streak: Mapped[int] = mapped_column(Integer)
    best_streak: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float, index=True)


class PuzzleAttemptRow(Base):
    __tablename__ = "puzzle_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"))
    player: Mapped[str] = mapped_column(String(48))
    variant: Mapped[str] = mapped_column(String(32))
    move: Mapped[str | None] = mapped_column(String(200))
    """The move in canonical notation; None: the solver gave up."""
    correct: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)
    """The solver's first attempt at the puzzle (later ones are kept, not rated)."""
    solver_before: Mapped[int | None] = mapped_column(Integer)
    solver_after: Mapped[int | None] = mapped_column(Integer)
    puzzle_before: Mapped[int | None] = mapped_column(Integer)
    puzzle_after: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_puzzle_attempts_player_puzzle", "player", "puzzle_id"),)


class PuzzleScanRow(Base):
    __tablename__ = "puzzle_scans"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    state: Mapped[str] = mapped_column(String(12))
    """running, done, skipped (not a game puzzles are taken from), failed."""
    owner: Mapped[str | None] = mapped_column(String(64))
    found: Mapped[int] = mapped_column(Integer)
    """Puzzles the game gave (new ones and ones already stored)."""
    reason: Mapped[str | None] = mapped_column(String(200))
    updated_at: Mapped[float] = mapped_column(Float)
