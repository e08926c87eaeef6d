"""The shipped dictionaries answer without any flag, through the command line."""

from __future__ import annotations

import json
import subprocess


def test_tablero_word_answers_from_the_shipped_spanish_dictionary() -> None:
    run = subprocess.run(
        ["tablero", "word", "--json", "CHILLAR", "cantábamos", "CÁNTALO", "MADRID"],
        capture_output=True,
        text=True,
        check=False,
    )
    results = json.loads(run.stdout)
    assert [r["valid"] for r in results] == [True, True, False, False]
    assert {r["lexicon"] for r in results} == {"es"}
    assert run.returncode == 1  # some word was not valid
