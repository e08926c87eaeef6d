"""Chat lines in the database: each function one transaction, in a worker thread."""

from __future__ import annotations

from sqlalchemy import Engine, func, select
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session

from ..store.tables import guard
from .lines import ChatLine
from .models import ChatLineRow

__all__ = ["add_line", "lines_since"]

KEEP = 500
"""Lines read back at most (the newest): a table's screen shows the last ones."""


def add_line(
    engine: Engine,
    table_id: str,
    seat: int | None,
    account_id: int | None,
    author: str,
    text: str,
    now: float,
) -> ChatLine:
    """The new line, numbered after the last one (two processes that number one line at
    once: the second tries the next number)."""
    for _ in range(5):
        try:
            with guard(engine), Session(engine) as s, s.begin():
                last = s.scalar(
                    select(func.max(ChatLineRow.n)).where(ChatLineRow.table_id == table_id)
                )
                n = int(last or 0) + 1
                s.add(
                    ChatLineRow(
                        table_id=table_id,
                        n=n,
                        seat=seat,
                        account_id=account_id,
                        author=author,
                        text=text,
                        created_at=now,
                    )
                )
            return ChatLine(n, seat, author, text, now)
        except sa_exc.IntegrityError:
            continue
    raise RuntimeError("could not number a chat line")  # pragma: no cover


def lines_since(engine: Engine, table_id: str, after: int) -> list[ChatLine]:
    """The lines numbered above ``after``, oldest first (the newest ``KEEP`` at most)."""
    with guard(engine), Session(engine) as s:
        rows = s.scalars(
            select(ChatLineRow)
            .where(ChatLineRow.table_id == table_id, ChatLineRow.n > after)
            .order_by(ChatLineRow.n.desc())
            .limit(KEEP)
        ).all()
        return [ChatLine(r.n, r.seat, r.author, r.text, r.created_at) for r in reversed(rows)]
