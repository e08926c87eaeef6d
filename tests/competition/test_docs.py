"""docs/competition.md's library example runs as written, in a fresh interpreter and an empty
folder, and says what the page says it prints."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "competition.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.S)


def test_the_library_example_runs(tmp_path: Path) -> None:
    (block,) = [b for b in BLOCKS if "DuplicateGame" in b]
    r = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("1 [") and " var fise; lex es; bag 93;" in lines[0]
    assert lines[1] == "late Luis's move came 61.0 s into round 1; the round's limit is 60 s"
    assert "('Ana', '8H CASA', 0, 'C is not on your rack')" in lines[2]
    assert lines[-2:] == ["1 Luis 80 114.29", "2 Ana 0 0.0"]  # as the page's comments say
