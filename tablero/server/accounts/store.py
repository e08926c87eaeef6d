"""Accounts and sessions in the database: each function one transaction, called in a worker
thread (``asyncio.to_thread``), database failures turned into ``StorageUnavailable``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, select, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session

from ..store.tables import guard
from .models import AccountRow, SessionRow

__all__ = [
    "Account",
    "create_account",
    "create_session",
    "delete_session",
    "find_account",
    "get_account",
    "session_account",
    "set_password",
    "set_prefs",
]


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    password_hash: str
    prefs: dict[str, Any]
    created_at: float


def _account(row: AccountRow) -> Account:
    try:
        prefs = json.loads(row.prefs or "{}")
    except ValueError:
        prefs = {}
    return Account(
        row.id,
        row.username,
        row.password_hash,
        prefs if isinstance(prefs, dict) else {},
        row.created_at,
    )


def create_account(
    engine: Engine, username: str, key: str, password_hash: str, now: float
) -> Account | None:
    """The new account, or None if the name (its ``key``) is taken."""
    with guard(engine):
        try:
            with Session(engine) as s, s.begin():
                row = AccountRow(
                    username=username,
                    username_key=key,
                    password_hash=password_hash,
                    prefs="{}",
                    created_at=now,
                )
                s.add(row)
                s.flush()
                return _account(row)
        except sa_exc.IntegrityError:
            return None


def find_account(engine: Engine, key: str) -> Account | None:
    with guard(engine), Session(engine) as s:
        row = s.scalar(select(AccountRow).where(AccountRow.username_key == key))
        return _account(row) if row else None


def get_account(engine: Engine, account_id: int) -> Account | None:
    with guard(engine), Session(engine) as s:
        row = s.get(AccountRow, account_id)
        return _account(row) if row else None


def set_password(
    engine: Engine, account_id: int, password_hash: str, keep_session: str | None = None
) -> None:
    """A new hash; every session of the account ends but ``keep_session`` (a hash)."""
    with guard(engine), Session(engine) as s, s.begin():
        s.execute(
            update(AccountRow)
            .where(AccountRow.id == account_id)
            .values(password_hash=password_hash)
        )
        ending = delete(SessionRow).where(SessionRow.account_id == account_id)
        if keep_session is not None:
            ending = ending.where(SessionRow.id_hash != keep_session)
        s.execute(ending)


def set_prefs(engine: Engine, account_id: int, prefs: dict[str, Any]) -> None:
    with guard(engine), Session(engine) as s, s.begin():
        s.execute(
            update(AccountRow)
            .where(AccountRow.id == account_id)
            .values(prefs=json.dumps(prefs, ensure_ascii=False, sort_keys=True))
        )


def create_session(
    engine: Engine, id_hash: str, account_id: int, now: float, expires_at: float
) -> None:
    """A new session; the account's expired sessions are deleted on the way."""
    with guard(engine), Session(engine) as s, s.begin():
        s.execute(
            delete(SessionRow).where(
                SessionRow.account_id == account_id, SessionRow.expires_at <= now
            )
        )
        s.add(
            SessionRow(
                id_hash=id_hash, account_id=account_id, created_at=now, expires_at=expires_at
            )
        )


def session_account(
    engine: Engine, id_hash: str, now: float, extend_to: float | None
) -> Account | None:
    """The account of a live session (None if unknown or expired); ``extend_to``: push its
    expiry forward to that time (done at most once an hour by the caller's choice)."""
    with guard(engine), Session(engine) as s, s.begin():
        found = s.execute(
            select(SessionRow, AccountRow)
            .join(AccountRow, AccountRow.id == SessionRow.account_id)
            .where(SessionRow.id_hash == id_hash)
        ).first()
        if found is None:
            return None
        session, account = found
        if session.expires_at <= now:
            s.delete(session)
            return None
        if extend_to is not None and extend_to - session.expires_at > 3600:
            session.expires_at = extend_to
        return _account(account)


def delete_session(engine: Engine, id_hash: str) -> None:
    with guard(engine), Session(engine) as s, s.begin():
        s.execute(delete(SessionRow).where(SessionRow.id_hash == id_hash))
