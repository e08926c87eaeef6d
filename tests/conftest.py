"""Shared fixtures: the reference word list (loaded once) and small games set up exactly."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tablero.alphabet import SPANISH
from tablero.lexicon import WordListLexicon

DATA = Path(__file__).parent / "data"

# Built word graphs are cached; tests keep theirs out of the user's home (also for the
# `tablero` processes they start, which inherit the environment).
# Under pytest-xdist the workers of one run share a cache (graphs are written atomically), so
# each test word list is compiled once per run rather than once per worker.
_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID")
if _RUN:
    _shared = Path(tempfile.gettempdir()) / f"tablero-test-cache-{_RUN}"
    _shared.mkdir(exist_ok=True)
    os.environ.setdefault("TABLERO_CACHE", str(_shared))
else:
    os.environ.setdefault("TABLERO_CACHE", tempfile.mkdtemp(prefix="tablero-test-cache-"))


@pytest.fixture(scope="session")
def es_words() -> WordListLexicon:
    """587,771 Spanish words (RLA-ES + wspanish), the lexicon of the reference positions."""
    return WordListLexicon.from_file(DATA / "bench" / "es_words.txt.xz", SPANISH, name="es_words")
