"""Uploaded word lists in the database (``server/wordlists.py`` says what a list is)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from ..wordlists import CanonicalList
from .models import UploadedWordListRow
from .tables import guard

__all__ = ["StoredWordList", "get_word_list", "save_word_list", "stored_word_list"]


@dataclass(frozen=True)
class StoredWordList:
    id: str
    name: str
    language: str
    word_count: int
    packed: bytes


def save_word_list(
    engine: Engine,
    words: CanonicalList,
    name: str,
    language: str,
    now: float,
    creator: str | None,
    quota: int | None,
) -> StoredWordList | None:
    """Store a list, or find it stored already (the same words are one list, whoever sent
    them, and cost no quota). None, with nothing stored, when ``creator`` already has
    ``quota`` lists. Two processes storing the same new list at once: one of them gets the
    database's ``IntegrityError``, and reads the list the other stored."""
    with guard(engine), Session(engine) as s, s.begin():
        row = s.get(UploadedWordListRow, words.id)
        if row is None:
            if quota is not None and creator is not None:
                held = s.scalar(
                    select(func.count())
                    .select_from(UploadedWordListRow)
                    .where(UploadedWordListRow.creator == creator)
                )
                if (held or 0) >= quota:
                    return None
            row = UploadedWordListRow(
                id=words.id,
                name=name,
                language=language,
                word_count=words.word_count,
                packed=words.packed,
                created_at=now,
                creator=creator,
            )
            s.add(row)
        return _stored(row)


def get_word_list(engine: Engine, list_id: str) -> StoredWordList | None:
    with guard(engine), Session(engine) as s:
        row = s.get(UploadedWordListRow, list_id)
        return None if row is None else _stored(row)


def _stored(row: UploadedWordListRow) -> StoredWordList:
    return StoredWordList(row.id, row.name, row.language, row.word_count, row.packed)


def stored_word_list(engine: Engine) -> Callable[[str], bytes | None]:
    """A web process's source of uploaded lists for its dictionaries (``LexiconProvider``)."""

    def fetch(list_id: str) -> bytes | None:
        stored = get_word_list(engine, list_id)
        return None if stored is None else stored.packed

    return fetch
