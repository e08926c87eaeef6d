"""Analyses in the database: each function one transaction, in a worker thread.

One process runs an analysis at a time: ``claim`` gives it to the caller only if nobody runs
it (no row, a failed one, or a running one whose owner has not written for ``stale_after``
seconds: that process stopped), and every write checks the caller still owns it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session

from ..store.tables import guard
from .models import AnalysisRow

__all__ = ["Analysis", "claim", "fail", "finish", "get", "save_progress"]


@dataclass(frozen=True)
class Analysis:
    table_id: str
    method: str
    state: str
    done: int
    total: int
    moves: list[dict[str, Any]]
    result: dict[str, Any] | None
    error: str | None
    owner: str | None
    beat_at: float


def _analysis(row: AnalysisRow) -> Analysis:
    return Analysis(
        row.table_id,
        row.method,
        row.state,
        row.done,
        row.total,
        json.loads(row.moves),
        json.loads(row.result) if row.result else None,
        row.error,
        row.owner,
        row.beat_at,
    )


def get(engine: Engine, table_id: str, method: str) -> Analysis | None:
    with guard(engine), Session(engine) as s:
        row = s.get(AnalysisRow, (table_id, method))
        return None if row is None else _analysis(row)


def claim(
    engine: Engine,
    table_id: str,
    method: str,
    owner: str,
    total: int,
    now: float,
    stale_after: float,
) -> tuple[bool, Analysis]:
    """(whether the caller now runs it, the analysis as it stands). A finished one is never
    claimed again: it runs once."""
    for _ in range(3):
        try:
            with guard(engine), Session(engine) as s, s.begin():
                row = s.get(AnalysisRow, (table_id, method), with_for_update=True)
                if row is None:
                    row = AnalysisRow(
                        table_id=table_id,
                        method=method,
                        state="running",
                        done=0,
                        total=total,
                        moves="[]",
                        result=None,
                        error=None,
                        owner=owner,
                        beat_at=now,
                        created_at=now,
                    )
                    s.add(row)
                    s.flush()
                    return True, _analysis(row)
                abandoned = row.state == "running" and now - row.beat_at > stale_after
                if row.state == "failed" or abandoned:
                    row.state, row.owner, row.beat_at, row.error = "running", owner, now, None
                    s.flush()
                    return True, _analysis(row)
                return False, _analysis(row)
        except sa_exc.IntegrityError:  # another process inserted it first: read it
            continue
    raise RuntimeError("could not claim an analysis")  # pragma: no cover


def _write_if_owner(
    engine: Engine,
    table_id: str,
    method: str,
    owner: str,
    values: dict[str, Any],
    running_only: bool = False,
) -> bool:
    """One UPDATE of the analysis, made only while ``owner`` still runs it (another process
    may have taken it over since); whether it was made."""
    where = [
        AnalysisRow.table_id == table_id,
        AnalysisRow.method == method,
        AnalysisRow.owner == owner,
    ]
    if running_only:
        where.append(AnalysisRow.state == "running")
    with guard(engine), Session(engine) as s, s.begin():
        done = s.execute(update(AnalysisRow).where(*where).values(**values))
        return bool(done.rowcount)  # type: ignore[attr-defined]


def save_progress(
    engine: Engine, table_id: str, method: str, owner: str, moves: list[dict[str, Any]], now: float
) -> bool:
    """Store the moves judged so far; False if another process has taken the analysis over."""
    values = {"moves": json.dumps(moves, ensure_ascii=False), "done": len(moves), "beat_at": now}
    return _write_if_owner(engine, table_id, method, owner, values, running_only=True)


def finish(
    engine: Engine, table_id: str, method: str, owner: str, result: dict[str, Any], now: float
) -> bool:
    """Store the finished analysis; False if another process has taken it over."""
    values = {
        "state": "done",
        "result": json.dumps(result, ensure_ascii=False),
        "done": len(result["moves"]),
        "beat_at": now,
    }
    return _write_if_owner(engine, table_id, method, owner, values)


def fail(engine: Engine, table_id: str, method: str, owner: str, error: str, now: float) -> None:
    """The analysis could not run (asked again later, it starts from the moves stored)."""
    values = {"state": "failed", "error": error[:500], "beat_at": now}
    _write_if_owner(engine, table_id, method, owner, values)
