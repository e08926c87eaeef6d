"""The tournaments' tables: a tournament, its players, the boards of its rounds, and the
audit of what its director did.

A board of a round (Swiss, round robin) is a game at a table of its own (``game_tables``:
an ordinary game, the tournament's clock and rated flag) or a bye. Its result is copied from
the game when the game ends, or set by the director, whose every action is kept in
``tournament_audit`` with who, when and why.

A round of a duplicate series is one duplicate room of the whole field
(``tournament_series_games``) and each player's result in it a row of
``tournament_series_scores``, copied from the room's game when it ends or set by the director.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..store.models import Base

__all__ = [
    "TournamentAuditRow",
    "TournamentGameRow",
    "TournamentPlayerRow",
    "TournamentRow",
    "TournamentSeriesGameRow",
    "TournamentSeriesScoreRow",
]


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    director_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    variant: Mapped[str] = mapped_column(String(32))
    lexicon: Mapped[str | None] = mapped_column(String(32))
    """A dictionary installed on the server for every game of the tournament (None: the
    game's own)."""
    format: Mapped[str] = mapped_column(String(16))
    """swiss, round_robin, duplicate (a duplicate series)."""
    rounds: Mapped[int | None] = mapped_column(Integer)
    """Swiss: as the director set it. Round robin: None until it starts, then as many as the
    players need to meet each other once."""
    clock_minutes: Mapped[int | None] = mapped_column(Integer)
    """Each player's time in each game (None: untimed)."""
    round_seconds: Mapped[int | None] = mapped_column(Integer)
    """A duplicate series: each duplicate round's time (None for Swiss and round robin)."""
    game_rounds: Mapped[int | None] = mapped_column(Integer)
    """A duplicate series: each game stops after this many rounds (None: played to the end)."""
    rated: Mapped[bool] = mapped_column(Boolean)
    max_players: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(12), index=True)
    """registering, playing (from the first round on), finished (the last round is over)."""
    paused: Mapped[bool] = mapped_column(Boolean)
    """No new round starts while paused (the games in play go on)."""
    round: Mapped[int] = mapped_column(Integer)
    """Rounds started: 0 while registering."""
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)


class TournamentPlayerRow(Base):
    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    registered_at: Mapped[float] = mapped_column(Float)
    seed: Mapped[int | None] = mapped_column(Integer)
    """1 for the first seed; set when the tournament starts."""
    removed_after: Mapped[int | None] = mapped_column(Integer)
    """Removed by the director when this many rounds had started: paired in no later one."""


class TournamentGameRow(Base):
    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    first_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    """The player who moves first (at seat 0), or the one who has the bye."""
    second_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    """None: a bye."""
    table_id: Mapped[str | None] = mapped_column(ForeignKey("game_tables.id"), unique=True)
    state: Mapped[str] = mapped_column(String(12))
    """playing, over."""
    first_score: Mapped[int | None] = mapped_column(Integer)
    second_score: Mapped[int | None] = mapped_column(Integer)
    points: Mapped[float | None] = mapped_column(Float)
    """The first player's result: 1, 0.5 or 0 (a bye: 1)."""
    spread: Mapped[int | None] = mapped_column(Integer)
    """The first player's score minus the second's, as counted (a bye: its spread)."""
    source: Mapped[str | None] = mapped_column(String(12))
    """Where the result came from: game, bye, director."""
    ended_at: Mapped[float | None] = mapped_column(Float)

    __table_args__ = (
        UniqueConstraint("tournament_id", "round", "board", name="uq_tournament_games_board"),
    )


class TournamentAuditRow(Base):
    __tablename__ = "tournament_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[float] = mapped_column(Float)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    """Who did it (the director)."""
    action: Mapped[str] = mapped_column(String(24))
    """start_round, pause, resume, fix_result, remove_player."""
    round: Mapped[int | None] = mapped_column(Integer)
    board: Mapped[int | None] = mapped_column(Integer)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    """The player removed."""
    reason: Mapped[str | None] = mapped_column(String(200))
    before: Mapped[str | None] = mapped_column(Text)
    """The result before a fix, as JSON."""
    after: Mapped[str | None] = mapped_column(Text)
    """The result after a fix, as JSON."""


class TournamentSeriesGameRow(Base):
    """A game of a duplicate series: the round of the tournament and its duplicate room."""

    __tablename__ = "tournament_series_games"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(
        ForeignKey("duplicate_rooms.id", ondelete="CASCADE"), unique=True
    )
    state: Mapped[str] = mapped_column(String(12))
    """playing, over (the room's game is over and its scores are recorded)."""
    ended_at: Mapped[float | None] = mapped_column(Float)


class TournamentSeriesScoreRow(Base):
    """A player's result in a game of a duplicate series."""

    __tablename__ = "tournament_series_scores"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    score: Mapped[int | None] = mapped_column(Integer)
    """The player's total in the game, solo bonuses included (None while it is played)."""
    top_total: Mapped[int | None] = mapped_column(Integer)
    tops: Mapped[int | None] = mapped_column(Integer)
    """Rounds of the game in which the player found a top."""
    source: Mapped[str | None] = mapped_column(String(12))
    """Where the result came from: game, director."""
