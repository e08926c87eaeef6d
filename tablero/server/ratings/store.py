"""Ratings in the database: rating a finished game once, and reading ratings and histories.

**When a game is rated.** A finished table is rated when its option ``rated`` is on, its game
is one of the six built-in ones (``is_rated_variant``; an uploaded rule file never is), every
seat is an account or a computer player, at least one seat is an account (computer players
alone prove nothing to anyone), and no player sits twice (the same computer level at two
seats: a player cannot be measured against itself). The ranks are the game's own
(``GameResult.ranks`` in the final event: ties as the rules break them, resignations last,
timeouts as the clock rule made them).

**Once, whatever happens.** ``rate_table`` reads everything from the database (the truth),
in one transaction that locks the table's row: two processes that finish the same game both
try, the second finds ``rating`` set and does nothing. A game whose rating failed (the
database went away) keeps ``rating`` empty, and the server's maintenance loop tries again
(``unrated_finished``). The ``(table_id, seat)`` key of the changes is a second guard.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from ..store.models import EventRow, SeatRow, TableRow
from ..store.tables import guard
from .model import Rating, display, is_provisional, update
from .models import RatingChangeRow, RatingRow
from .players import account_player_key, bot_player_key, is_rated_variant

__all__ = [
    "RatingChange",
    "player_keys",
    "rate_table",
    "rating_history",
    "ratings_json",
    "ratings_of",
    "unrated_finished",
]


@dataclass(frozen=True)
class RatingChange:
    table_id: str
    variant: str
    place: int
    before: int
    after: int
    games: int
    at: float


def player_keys(seats: Sequence[SeatRow]) -> list[str | None]:
    """Each seat's player key (None for a guest or an open seat)."""
    keys: list[str | None] = []
    for seat in seats:
        if seat.account_id is not None:
            keys.append(account_player_key(seat.account_id))
        elif seat.kind == "bot" and seat.bot_level is not None:
            keys.append(bot_player_key(seat.bot_level))
        else:
            keys.append(None)
    return keys


def _ratable(
    row: TableRow, seats: Sequence[SeatRow], keys: list[str | None], end: dict[str, Any] | None
) -> bool:
    return (
        bool(row.rated)
        and is_rated_variant(row.variant_ref)
        and len(seats) >= 2
        and all(k is not None for k in keys)
        and any(s.account_id is not None for s in seats)
        and len(set(keys)) == len(keys)
        and end is not None
        and end.get("type") == "end"
        and isinstance(end.get("ranks"), list)
        and len(end["ranks"]) == len(seats)
    )


def rate_table(engine: Engine, table_id: str, now: float) -> str | None:
    """Rate a finished game if it is to be rated, once: its ``rating`` afterwards
    (``rated`` / ``unrated``), or None if the table is not over (or not there)."""
    with guard(engine), Session(engine) as s, s.begin():
        row = s.get(TableRow, table_id, with_for_update=True)
        if row is None or row.state != "over":
            return None
        if row.rating is not None:
            return row.rating
        seats = list(
            s.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
        )
        last = s.scalar(
            select(EventRow.data).where(EventRow.table_id == table_id, EventRow.idx == row.seq - 1)
        )
        end = json.loads(last) if last else None
        seat_keys = player_keys(seats)
        if not _ratable(row, seats, seat_keys, end):
            row.rating = "unrated"
            return row.rating
        assert end is not None
        keys = [k for k in seat_keys if k is not None]
        variant = row.variant_ref
        stored = {
            r.player: r
            for r in s.scalars(
                select(RatingRow)
                .where(RatingRow.variant == variant, RatingRow.player.in_(keys))
                .with_for_update()
            )
        }
        before = [
            Rating(stored[k].mu, stored[k].sigma, stored[k].games) if k in stored else Rating.new()
            for k in keys
        ]
        ranks = [int(r) for r in end["ranks"]]
        after = update(before, ranks)
        for seat, key, old, new, place in zip(seats, keys, before, after, ranks, strict=True):
            current = stored.get(key)
            if current is None:
                s.add(
                    RatingRow(
                        player=key,
                        variant=variant,
                        mu=new.mu,
                        sigma=new.sigma,
                        games=new.games,
                        updated_at=now,
                    )
                )
            else:
                current.mu, current.sigma, current.games = new.mu, new.sigma, new.games
                current.updated_at = now
            s.add(
                RatingChangeRow(
                    table_id=table_id,
                    seat=seat.seat,
                    player=key,
                    variant=variant,
                    place=place,
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    rating_before=display(old),
                    rating_after=display(new),
                    games_after=new.games,
                    created_at=now,
                )
            )
        row.rating = "rated"
        return row.rating


def unrated_finished(engine: Engine, limit: int = 50) -> list[str]:
    """Finished tables whose rating has not been decided (a failed attempt, or a process
    that stopped between the last move and the rating)."""
    with guard(engine), Session(engine) as s:
        return list(
            s.scalars(
                select(TableRow.id)
                .where(TableRow.state == "over", TableRow.rating.is_(None))
                .order_by(TableRow.updated_at)
                .limit(limit)
            )
        )


def ratings_of(engine: Engine, player: str) -> dict[str, Rating]:
    """A player's rating in each game they have played rated."""
    with guard(engine), Session(engine) as s:
        return {
            r.variant: Rating(r.mu, r.sigma, r.games)
            for r in s.scalars(select(RatingRow).where(RatingRow.player == player))
        }


def ratings_json(ratings: dict[str, Rating]) -> dict[str, dict[str, Any]]:
    """``{variant: {"rating", "games", "provisional"}}``: what pages show."""
    return {
        variant: {
            "rating": display(r),
            "games": r.games,
            "provisional": is_provisional(r),
        }
        for variant, r in sorted(ratings.items())
    }


def rating_history(engine: Engine, player: str, limit: int = 200) -> list[RatingChange]:
    """The player's rating changes, oldest first (the last ``limit``)."""
    with guard(engine), Session(engine) as s:
        rows = list(
            s.scalars(
                select(RatingChangeRow)
                .where(RatingChangeRow.player == player)
                .order_by(RatingChangeRow.id.desc())
                .limit(limit)
            )
        )
    return [
        RatingChange(
            r.table_id,
            r.variant,
            r.place,
            r.rating_before,
            r.rating_after,
            r.games_after,
            r.created_at,
        )
        for r in reversed(rows)
    ]
