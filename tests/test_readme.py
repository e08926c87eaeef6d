"""The README's library example runs as written on a fresh clone: every ```python block is run
in a fresh interpreter, in an empty folder (so it cannot lean on files of the checkout)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text("utf-8"), re.S)


def test_the_readme_has_a_library_example() -> None:
    assert BLOCKS, "README.md has no ```python block"


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_a_python_block_of_the_readme_runs_as_written(number: int, tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-c", BLOCKS[number]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    # The example prints the breakdown as text, ending with the total.
    if "explain()" in BLOCKS[number]:
        assert re.search(r"^total \d+$", r.stdout, re.M), r.stdout
