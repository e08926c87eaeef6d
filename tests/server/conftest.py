"""Fixtures for the server tests: a real uvicorn server on a free port, on a real database.

Every test that takes ``db_url`` runs twice: on a fresh SQLite file and on a fresh PostgreSQL
database (a throwaway cluster: ``TABLERO_TEST_PG_URL`` from CI, else one started here). The
PostgreSQL runs are skipped only when PostgreSQL is not installed, and never when
``TABLERO_REQUIRE_PG`` is set (CI sets it), so CI fails rather than quietly testing less.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tablero.alphabet import ROMANIAN, SPANISH
from tablero.lexicon import Lexicon, WordListLexicon, load_lexicon
from tablero.variant import load_variant

from . import pgcluster
from .harness import Server
from .services import RedisServer, need

_counter = itertools.count()


@pytest.fixture(scope="session")
def pg_base_url() -> Iterator[str | None]:
    url = os.environ.get("TABLERO_TEST_PG_URL")
    if url:
        yield url
        return
    if not pgcluster.available():
        if os.environ.get("TABLERO_REQUIRE_PG"):
            pytest.fail("PostgreSQL is required (TABLERO_REQUIRE_PG) but not installed")
        yield None
        return
    url, stop = pgcluster.start_cluster()
    try:
        yield url
    finally:
        stop()


@contextmanager
def _fresh_database(kind: str, directory: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{directory / 'tablero.db'}"
        return
    base = request.getfixturevalue("pg_base_url")
    if base is None:
        pytest.skip("PostgreSQL is not installed")
    import psycopg

    name = f"t{os.getpid()}_{next(_counter)}"
    admin = base.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind, for one test."""
    with _fresh_database(request.param, tmp_path, request) as url:
        yield url


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def module_db_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A fresh database of each kind, shared by the tests of one module."""
    with _fresh_database(request.param, tmp_path_factory.mktemp("db"), request) as url:
        yield url


def _combos(letters: str, lengths: range) -> list[str]:
    return ["".join(p) for n in lengths for p in itertools.product(letters, repeat=n)]


MINI_LETTERS = "AEOSLR"


def mini_lexicons() -> dict[str, WordListLexicon]:
    """The test dictionaries by language (for servers started outside a fixture)."""
    letters = [t for t in ROMANIAN.letters]
    ro_words = ["".join(p) for n in (2, 3) for p in itertools.product(letters, repeat=n)]
    return {
        "es": WordListLexicon.from_words(
            _combos(MINI_LETTERS, range(2, 6)), SPANISH, name="mini-es"
        ),
        "ro": WordListLexicon.from_words(ro_words, ROMANIAN, name="mini-ro"),
    }


@pytest.fixture(scope="session")
def mini_es() -> WordListLexicon:
    """Every string of 2–5 of the letters A E O S L R: on the small test game nearly every
    placement is a word (six letters and more are not), so games go on to the end."""
    return mini_lexicons()["es"]


@pytest.fixture(scope="session")
def mini_ro() -> WordListLexicon:
    """Every string of 2–3 Romanian letters: a small dictionary for bot games at cuvinte."""
    return mini_lexicons()["ro"]


@pytest.fixture(scope="module")
def server(
    module_db_url: str, mini_es: WordListLexicon, mini_ro: WordListLexicon
) -> Iterator[Server]:
    """One server (one app instance, restarted by some tests) per module and database kind;
    each test makes its own tables."""
    s = Server(module_db_url, {"es": mini_es, "ro": mini_ro})
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="session")
def fise_lexicon() -> Lexicon:
    """FISE's shipped dictionary (the duplicate rooms' tests find each round's moves in it)."""
    fise = load_variant("fise")
    return load_lexicon(fise.lexicon, fise.alphabet)


@pytest.fixture(scope="module")
def shipped_server(module_db_url: str) -> Iterator[Server]:
    """A server with the shipped dictionaries (no test lists), per module and database kind."""
    s = Server(module_db_url, {})
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    """A Redis of its own for one test module (the job queue, the word lists it shares)."""
    need(redis=True)
    server = RedisServer()
    try:
        yield server
    finally:
        server.destroy()
