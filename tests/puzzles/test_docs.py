"""docs/competition.md's puzzle library example runs as written and prints what its comments
say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "competition.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.S)


def test_the_puzzle_library_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    (block,) = [b for b in BLOCKS if "tablero.puzzles" in b]
    exec(compile(block, "competition.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "puzzle I3 CASERON 67 bingo 1700",
        "False G3 CASER(O)N 14",
        "True",
    ]
    solver, puzzle = map(int, lines[3].split())
    assert solver > 1500 and puzzle < 1700
