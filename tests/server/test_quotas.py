"""What one address may hold on a shared server: waiting tables in the lobby, uploaded rule
files, tables of computer players only; and no memory kept for tables that do not exist."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from tablero.lexicon import WordListLexicon
from tablero.server.config import Quotas
from tablero.server.store import tables as store

from .games import mini_toml, upload
from .harness import Server


@pytest.fixture
def strict(db_url: str, mini_es: WordListLexicon, mini_ro: WordListLexicon) -> Iterator[Server]:
    quotas = Quotas(
        lobby_waiting_per_address=3,
        uploads_per_address=2,
        bot_tables_per_address=1,
        bot_tables_total=2,
    )
    s = Server(db_url, {"es": mini_es, "ro": mini_ro}, bot_delay=5.0, quotas=quotas)
    s.start()
    try:
        yield s
    finally:
        s.stop()


def test_the_lobby_shows_a_few_waiting_tables_per_address(strict: Server) -> None:
    made = [strict.create("fise", [{"kind": "open"}] * 2) for _ in range(6)]
    lobby = strict.get("/api/tables").json()
    waiting = [t["id"] for t in lobby if t["state"] == "waiting"]
    assert waiting == list(reversed(made))[:3]  # the newest three of this address
    # The others still exist and can be joined by their link.
    assert strict.view(made[0])["state"] == "waiting"


def test_uploads_have_a_quota_per_address_and_expire_when_unused(strict: Server) -> None:
    used = upload(strict)
    upload(strict, mini_toml().replace('title = "Mini (tests)"', 'title = "Other"'))
    r = strict.post("/api/variants/upload", {"toml": mini_toml()})
    assert r.status_code == 429 and r.json()["error"]["code"] == "quota_exceeded"
    strict.create(used, [{"kind": "open"}] * 2)
    engine = create_engine(strict.db_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        removed = store.expire_uploads(engine, unused_since=time.time() + 1)
        with engine.connect() as conn:
            left = {r[0] for r in conn.execute(text("SELECT id FROM uploaded_variants"))}
    finally:
        engine.dispose()
    assert removed == 1 and left == {used}  # a rule file a table uses is kept


def test_tables_of_bots_only_are_limited(strict: Server) -> None:
    bots = [{"kind": "bot", "level": 1}] * 2
    strict.create("fise", bots)
    r = strict.post("/api/tables", {"variant": "fise", "seats": bots})
    assert r.status_code == 429 and r.json()["error"]["code"] == "quota_exceeded"
    # A table with a person at it is not limited.
    strict.create("fise", [{"kind": "open"}, {"kind": "bot", "level": 1}])


def test_unknown_table_ids_leave_nothing_behind(strict: Server) -> None:
    hub = strict.app.state.hub
    for i in range(300):
        r = strict.get(f"/api/tables/{'z' * 16}{i}")
        assert r.status_code == 404
        r = strict.get(f"/api/tables/nosuch{i:05d}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert hub._loading == {} and len(hub.rooms) == 0
