"""Puzzles in the database: the shipped sets loaded, puzzles found in games added, the next
puzzle for a solver, an attempt rated once, the solver's history, the games scanned.

**An attempt is rated once, whatever happens.** ``record_attempt`` runs in one transaction that
locks the solver's row, then the puzzle's (always in that order), reads whether this solver
has attempted the puzzle before, and writes both ratings and the attempt. Two attempts of one
solver at once are thereby one after the other: the second finds the first and is not rated.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session

from ...puzzles.judge import Verdict
from ...puzzles.model import Puzzle
from ...puzzles.rating import NEAREST, Rating, choose_next, display, rate_attempt, rating_at
from ...puzzles.shipped import puzzle_games, shipped_puzzles
from ..store.tables import guard
from .models import PuzzleAttemptRow, PuzzleRow, PuzzleScanRow, PuzzleSolverRow

__all__ = [
    "AttemptResult",
    "GuestCarried",
    "Solver",
    "StoredPuzzle",
    "add_found",
    "carry_guest",
    "claim_scan",
    "counts",
    "finish_scan",
    "forget_idle_guests",
    "get",
    "history",
    "import_shipped",
    "next_puzzle",
    "record_attempt",
    "solver",
    "solvers",
    "unscanned_finished",
]


@dataclass(frozen=True)
class StoredPuzzle:
    puzzle: Puzzle
    rating: Rating
    attempts: int
    solved: int
    origin: str


@dataclass(frozen=True)
class Solver:
    rating: Rating
    solved: int = 0
    streak: int = 0
    best_streak: int = 0


@dataclass(frozen=True)
class AttemptResult:
    rated: bool
    solver_before: Solver
    solver_after: Solver
    puzzle_before: Rating
    puzzle_after: Rating
    attempts: int
    solved: int
    """The puzzle's rated attempts and solves, this one included."""


def _stored(row: PuzzleRow) -> StoredPuzzle:
    return StoredPuzzle(
        Puzzle.from_dict(json.loads(row.data)),
        Rating(row.mu, row.sigma, row.attempts),
        row.attempts,
        row.solved,
        row.origin,
    )


def _row(p: Puzzle, origin: str, table_id: str | None, now: float) -> PuzzleRow:
    start = rating_at(p.rating)
    return PuzzleRow(
        id=p.id,
        variant=p.variant,
        language=p.language,
        data=json.dumps(p.to_dict(), ensure_ascii=False),
        origin=origin,
        table_id=table_id,
        rating=p.rating,
        mu=start.mu,
        sigma=start.sigma,
        attempts=0,
        solved=0,
        created_at=now,
    )


def _insert_new(
    engine: Engine, puzzles: Iterable[Puzzle], origin: str, table_id: str | None, now: float
) -> int:
    """Store the puzzles whose ids are not stored yet; how many were new. Two processes
    adding the same ones at once: the one that loses the race finds them stored."""
    wanted = {p.id: p for p in puzzles}
    if not wanted:
        return 0
    for _ in range(3):
        try:
            with guard(engine), Session(engine) as s, s.begin():
                have = set(s.scalars(select(PuzzleRow.id).where(PuzzleRow.id.in_(list(wanted)))))
                new = [p for pid, p in wanted.items() if pid not in have]
                s.add_all(_row(p, origin, table_id, now) for p in new)
                return len(new)
        except sa_exc.IntegrityError:
            continue
    return 0


def import_shipped(engine: Engine, now: float) -> int:
    """The shipped sets (``tablero/data/puzzles``) into the database: the puzzles not there
    yet (a new release adds its new ones; a puzzle once stored keeps its rating)."""
    added = 0
    for name in puzzle_games():
        puzzles = shipped_puzzles(name)
        with guard(engine), Session(engine) as s:
            have = set(s.scalars(select(PuzzleRow.id).where(PuzzleRow.variant == name)))
        missing = [p for p in puzzles if p.id not in have]
        if missing:
            added += _insert_new(engine, missing, "shipped", None, now)
    return added


def add_found(engine: Engine, puzzles: list[Puzzle], table_id: str, now: float) -> int:
    """Puzzles found in a finished game; how many were new."""
    return _insert_new(engine, puzzles, "game", table_id, now)


def counts(engine: Engine) -> dict[str, int]:
    """Puzzles per game."""
    with guard(engine), Session(engine) as s:
        rows = s.execute(select(PuzzleRow.variant, func.count()).group_by(PuzzleRow.variant))
        return {variant: int(n) for variant, n in rows}


def get(engine: Engine, puzzle_id: str) -> StoredPuzzle | None:
    with guard(engine), Session(engine) as s:
        row = s.get(PuzzleRow, puzzle_id)
        return _stored(row) if row is not None else None


def solver(engine: Engine, player: str | None, variant: str) -> Solver:
    """A solver in a game (a newcomer's 1500 when unknown, or for no one)."""
    if player is None:
        return Solver(Rating.new())
    with guard(engine), Session(engine) as s:
        row = s.get(PuzzleSolverRow, (player, variant))
        return _solver(row)


def solvers(engine: Engine, player: str | None) -> dict[str, Solver]:
    """A solver in each game they have attempted."""
    if player is None:
        return {}
    with guard(engine), Session(engine) as s:
        rows = s.scalars(select(PuzzleSolverRow).where(PuzzleSolverRow.player == player))
        return {r.variant: _solver(r) for r in rows}


def _solver(row: PuzzleSolverRow | None) -> Solver:
    if row is None:
        return Solver(Rating.new())
    return Solver(Rating(row.mu, row.sigma, row.attempts), row.solved, row.streak, row.best_streak)


def next_puzzle(
    engine: Engine,
    variant: str,
    player: str | None,
    rng: random.Random,
    skip: str | None = None,
) -> StoredPuzzle | None:
    """A puzzle of the game near the solver's rating that they have not attempted (and not
    ``skip``, the one on their screen), drawn among the ``NEAREST`` nearest above and below
    (``puzzles.rating.choose_next``); when they have attempted every one, among all."""
    rating = display(solver(engine, player, variant).rating)
    with guard(engine), Session(engine) as s:
        played = (
            select(PuzzleAttemptRow.puzzle_id).where(PuzzleAttemptRow.player == player)
            if player is not None
            else None
        )

        def near(exclude_played: bool) -> list[tuple[str, int]]:
            base = select(PuzzleRow.id, PuzzleRow.rating).where(PuzzleRow.variant == variant)
            if skip is not None:
                base = base.where(PuzzleRow.id != skip)
            if exclude_played and played is not None:
                base = base.where(PuzzleRow.id.not_in(played))
            above = s.execute(
                base.where(PuzzleRow.rating >= rating)
                .order_by(PuzzleRow.rating, PuzzleRow.id)
                .limit(NEAREST)
            )
            below = s.execute(
                base.where(PuzzleRow.rating < rating)
                .order_by(PuzzleRow.rating.desc(), PuzzleRow.id)
                .limit(NEAREST)
            )
            return [(pid, r) for pid, r in [*above, *below]]

        options = near(True) or near(False)
        chosen = choose_next(options, rating, (), rng)
        if chosen is None:
            return None
        row = s.get(PuzzleRow, chosen)
        return _stored(row) if row is not None else None


def _ensure_solver(engine: Engine, player: str, variant: str, now: float) -> None:
    """The solver's row, made if it is not there (a first attempt), before the attempt's
    transaction locks it."""
    try:
        with guard(engine), Session(engine) as s, s.begin():
            if s.get(PuzzleSolverRow, (player, variant)) is None:
                new = Rating.new()
                s.add(
                    PuzzleSolverRow(
                        player=player,
                        variant=variant,
                        mu=new.mu,
                        sigma=new.sigma,
                        attempts=0,
                        solved=0,
                        streak=0,
                        best_streak=0,
                        updated_at=now,
                    )
                )
    except sa_exc.IntegrityError:
        pass  # made by an attempt of the same solver at the same moment


def record_attempt(
    engine: Engine, puzzle_id: str, player: str, verdict: Verdict, now: float
) -> AttemptResult | None:
    """Store an attempt (see the module's text); None if the puzzle is not there."""
    with guard(engine), Session(engine) as s:
        variant = s.scalar(select(PuzzleRow.variant).where(PuzzleRow.id == puzzle_id))
    if variant is None:
        return None
    _ensure_solver(engine, player, variant, now)
    with guard(engine), Session(engine) as s, s.begin():
        srow = s.get(PuzzleSolverRow, (player, variant), with_for_update=True)
        prow = s.get(PuzzleRow, puzzle_id, with_for_update=True)
        if srow is None or prow is None:
            return None
        before = _solver(srow)
        p_before = Rating(prow.mu, prow.sigma, prow.attempts)
        seen = s.scalar(
            select(PuzzleAttemptRow.id)
            .where(PuzzleAttemptRow.player == player, PuzzleAttemptRow.puzzle_id == puzzle_id)
            .limit(1)
        )
        rated = seen is None
        after, p_after = before, p_before
        if rated:
            change = rate_attempt(before.rating, p_before, verdict.correct)
            streak = before.streak + 1 if verdict.correct else 0
            after = Solver(
                change.solver_after,
                before.solved + (1 if verdict.correct else 0),
                streak,
                max(before.best_streak, streak),
            )
            p_after = change.puzzle_after
            srow.mu, srow.sigma = after.rating.mu, after.rating.sigma
            srow.attempts, srow.solved = after.rating.games, after.solved
            srow.streak, srow.best_streak = after.streak, after.best_streak
            prow.mu, prow.sigma, prow.attempts = p_after.mu, p_after.sigma, p_after.games
            prow.rating = display(p_after)
            prow.solved += 1 if verdict.correct else 0
        srow.updated_at = now
        s.add(
            PuzzleAttemptRow(
                puzzle_id=puzzle_id,
                player=player,
                variant=variant,
                move=verdict.move,
                correct=verdict.correct,
                rated=rated,
                solver_before=display(before.rating) if rated else None,
                solver_after=display(after.rating) if rated else None,
                puzzle_before=display(p_before) if rated else None,
                puzzle_after=display(p_after) if rated else None,
                created_at=now,
            )
        )
        return AttemptResult(rated, before, after, p_before, p_after, prow.attempts, prow.solved)


@dataclass(frozen=True)
class HistoryEntry:
    puzzle: str
    variant: str
    move: str | None
    correct: bool
    rated: bool
    rating_before: int | None
    rating_after: int | None
    at: float


def history(
    engine: Engine, player: str, variant: str | None = None, limit: int = 50
) -> list[HistoryEntry]:
    """The solver's attempts, newest first."""
    with guard(engine), Session(engine) as s:
        q = select(PuzzleAttemptRow).where(PuzzleAttemptRow.player == player)
        if variant is not None:
            q = q.where(PuzzleAttemptRow.variant == variant)
        rows = s.scalars(q.order_by(PuzzleAttemptRow.id.desc()).limit(limit))
        return [
            HistoryEntry(
                r.puzzle_id,
                r.variant,
                r.move,
                r.correct,
                r.rated,
                r.solver_before,
                r.solver_after,
                r.created_at,
            )
            for r in rows
        ]


def forget_idle_guests(engine: Engine, idle_since: float) -> int:
    """Delete the guests (their ratings and attempts) whose last attempt is older than
    ``idle_since``: their browser session is over. How many solvers were deleted."""
    with guard(engine), Session(engine) as s, s.begin():
        idle = select(PuzzleSolverRow.player).where(
            PuzzleSolverRow.player.like("guest:%"), PuzzleSolverRow.updated_at < idle_since
        )
        players = sorted(set(s.scalars(idle)))
        if not players:
            return 0
        s.execute(delete(PuzzleAttemptRow).where(PuzzleAttemptRow.player.in_(players)))
        s.execute(delete(PuzzleSolverRow).where(PuzzleSolverRow.player.in_(players)))
        return len(players)


@dataclass(frozen=True)
class GuestCarried:
    """What ``carry_guest`` moved: the guest's attempts, and the games whose rating became the
    account's (sorted) and those where the account kept its own."""

    attempts: int = 0
    adopted: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()


def carry_guest(engine: Engine, guest: str, account: str, now: float) -> GuestCarried:
    """Move a guest's puzzle history to an account (the guest has just signed up or logged
    in), in one transaction; afterwards the guest key has no rating and no attempt.

    Per game:

    - the account has **no puzzle rating** there: the guest's becomes the account's (its
      rating, rated attempts, solved, streaks), and the guest's attempts, re-keyed, keep their
      ``rated`` mark and their ratings before and after: they are the account's record now;
    - the account **has one**: the account's rating stays as it is (a guest's session is
      short, an account's record is not mixed with it), and the guest's attempts are added to
      the account's history **unrated** (``rated`` false, no solver ratings before and
      after): they did not move the account's rating. They still count as tried: the next
      puzzle skips them, and a new attempt at one of them is not rated.

    A puzzle attempted both as the guest and as the account is therefore in the account's
    history twice, the account's attempt the only rated one: the attempts table has no unique
    key, and what the code relies on, at most one rated attempt per solver and puzzle, still
    holds; the solvers' key (player, game) is never given twice, since a guest's row becomes
    the account's only where the account has none. The puzzles' own ratings and counts are
    left as they are: each attempt moved its puzzle when it was made.

    The guest's and the account's solver rows are locked (in key order) before anything
    moves, so an attempt of either at the same moment comes before or after, not between;
    the account's first attempt in a game at that very moment makes the row this would add a
    duplicate, and the whole transaction is tried again.
    """
    if guest == account:
        return GuestCarried()
    first, second = sorted((guest, account))
    for _ in range(3):
        try:
            with guard(engine), Session(engine) as s, s.begin():
                locked: dict[str, dict[str, PuzzleSolverRow]] = {}
                for player in (first, second):
                    rows = s.scalars(
                        select(PuzzleSolverRow)
                        .where(PuzzleSolverRow.player == player)
                        .order_by(PuzzleSolverRow.variant)
                        .with_for_update()
                    )
                    locked[player] = {r.variant: r for r in rows}
                theirs, mine = locked[guest], locked[account]
                adopted = sorted(v for v in theirs if v not in mine)
                kept = sorted(v for v in theirs if v in mine)
                if mine:
                    s.execute(
                        update(PuzzleAttemptRow)
                        .where(
                            PuzzleAttemptRow.player == guest,
                            PuzzleAttemptRow.variant.in_(sorted(mine)),
                        )
                        .values(rated=False, solver_before=None, solver_after=None)
                        .execution_options(synchronize_session=False)
                    )
                for variant in kept:
                    row = mine[variant]
                    row.updated_at = max(row.updated_at, theirs[variant].updated_at, now)
                    s.delete(theirs[variant])
                for variant in adopted:
                    # A new row under the account's key (the key is the primary key).
                    row = theirs[variant]
                    s.add(
                        PuzzleSolverRow(
                            player=account,
                            variant=variant,
                            mu=row.mu,
                            sigma=row.sigma,
                            attempts=row.attempts,
                            solved=row.solved,
                            streak=row.streak,
                            best_streak=row.best_streak,
                            updated_at=max(row.updated_at, now),
                        )
                    )
                    s.delete(row)
                moved = s.scalar(
                    select(func.count())
                    .select_from(PuzzleAttemptRow)
                    .where(PuzzleAttemptRow.player == guest)
                )
                s.execute(
                    update(PuzzleAttemptRow)
                    .where(PuzzleAttemptRow.player == guest)
                    .values(player=account)
                    .execution_options(synchronize_session=False)
                )
                return GuestCarried(int(moved or 0), tuple(adopted), tuple(kept))
        except sa_exc.IntegrityError:
            continue  # the account's first attempt in a game at the same moment: again
    raise RuntimeError("the guest's puzzles could not be carried to the account")


# -- the games scanned ----------------------------------------------------------------------------


def claim_scan(engine: Engine, table_id: str, owner: str, now: float, stale_after: float) -> bool:
    """Whether this process should scan the game: nobody has, or a scan under way has not
    been heard of for ``stale_after`` seconds (its process died)."""
    try:
        with guard(engine), Session(engine) as s, s.begin():
            row = s.get(PuzzleScanRow, table_id, with_for_update=True)
            if row is None:
                s.add(
                    PuzzleScanRow(
                        table_id=table_id, state="running", owner=owner, found=0, updated_at=now
                    )
                )
                return True
            if row.state == "running" and row.updated_at < now - stale_after:
                row.owner, row.updated_at = owner, now
                return True
            return False
    except sa_exc.IntegrityError:
        return False  # another process claimed it at the same moment


def finish_scan(
    engine: Engine, table_id: str, state: str, found: int, reason: str | None, now: float
) -> None:
    with guard(engine), Session(engine) as s, s.begin():
        s.execute(
            update(PuzzleScanRow)
            .where(PuzzleScanRow.table_id == table_id)
            .values(state=state, found=found, reason=(reason or "")[:200] or None, updated_at=now)
        )


def scan_state(engine: Engine, table_id: str) -> tuple[str, int] | None:
    """A game's scan: its state and the puzzles it gave (None: not scanned)."""
    with guard(engine), Session(engine) as s:
        row = s.get(PuzzleScanRow, table_id)
        return (row.state, row.found) if row is not None else None


def unscanned_finished(engine: Engine, since: float, limit: int) -> list[str]:
    """Finished games (ended after ``since``) never scanned: their end's hook did not run
    (their process stopped in between), oldest first."""
    from ..store.models import TableRow

    with guard(engine), Session(engine) as s:
        scanned = select(PuzzleScanRow.table_id)
        return list(
            s.scalars(
                select(TableRow.id)
                .where(
                    TableRow.state == "over",
                    TableRow.updated_at >= since,
                    TableRow.id.not_in(scanned),
                )
                .order_by(TableRow.updated_at)
                .limit(limit)
            )
        )
