"""A word list of one's own at the speed of a shipped dictionary (issue 15, item 4).

    python benchmarks/bench_own_list.py

Writes the shipped Spanish list out as a plain ``words.txt``, then times
``tablero moves --lexicon words.txt CGP`` (once to build and cache its graph, then cached)
against ``tablero moves CGP`` with the shipped dictionary, each run as a command three times
(the best run counts). Asserts that both list the same moves; prints the times and their
ratio (the goal: the cached list within 1.5× of the shipped dictionary). Never asserts a time.
"""

from __future__ import annotations

import json
import lzma
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tablero.lexicon import shipped_list_path

CGP = "15/15/15/15/15/15/15/7CASA4/15/15/15/15/15/15/15 AEIRST?/ 0/0 0 var fise;"


def run(env: dict[str, str], *lexicon: str) -> tuple[float, str]:
    start = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "tablero.cli", "moves", "--all", "--json", *lexicon, CGP],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return time.perf_counter() - start, r.stdout


def moves_of(listed: str) -> list[tuple[str, int, float]]:
    """The moves with their scores and equities, in one order (ties come in any)."""
    return sorted((m["move"], m["score"], m["equity"]) for m in json.loads(listed))


def main() -> None:
    source = shipped_list_path("es")
    assert source is not None
    with tempfile.TemporaryDirectory() as folder:
        words = Path(folder) / "words.txt"
        words.write_bytes(lzma.decompress(source.read_bytes()))
        env = dict(os.environ, TABLERO_CACHE=str(Path(folder) / "cache"))
        first, listed = run(env, "--lexicon", str(words))
        own = min(run(env, "--lexicon", str(words))[0] for _ in range(3))
        shipped_times, shipped_moves = zip(*(run(env) for _ in range(3)), strict=True)
        shipped = min(shipped_times)
    ours, theirs = moves_of(listed), moves_of(shipped_moves[0])
    assert ours == theirs, "the own list and the shipped dictionary differ"
    print(f"moves listed: {len(ours)} (the same with both)")
    print(f"tablero moves --lexicon words.txt, first call (builds the graph): {first:.2f} s")
    print(f"tablero moves --lexicon words.txt, cached: {own:.2f} s")
    print(f"tablero moves with the shipped dictionary: {shipped:.2f} s")
    print(f"ratio: {own / shipped:.2f} (goal: at most 1.5)")


if __name__ == "__main__":
    main()
