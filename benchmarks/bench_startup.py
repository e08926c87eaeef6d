"""A cold start from the command line: how long the first answer takes, and how much memory.

    python benchmarks/bench_startup.py            # 5 cold runs of `tablero moves --top 1`
    python benchmarks/bench_startup.py --runs 9

Each run is a new process (`python -m tablero.cli moves --top 1 --json CGP` on a FISE
mid-game position): Python starts, the package and the C core load, the shipped Spanish word
graph (built at install) and the leave table are read, the best move is found and printed.
Printed: the median wall time and the peak resident memory of the runs (GNU ``time``'s
``%M`` when it is installed, else the children's high-water mark from ``getrusage``). Before
the figures, the answer is checked: every run prints the same best move, the one the library
gives in this process. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tablero.engine.movegen.candidates import candidates
from tablero.engine.players import shipped_leaves
from tablero.formats.cgp import read_cgp
from tablero.lexicon import load_lexicon

CGP = (
    "HE[CH]A3H7/1SUBLEVE7/FE[RR]EO1eD7/O1E3NO7/[LL]1S1PUDRO6/E5A8/T2A2M8/A2GLUON7/3O2S8/3S11/"
    "3T4CAÑI3/3I3CELaRON1/1BIZCARON6/3A3LEGRADA1/3SEXMA7 ITAOSNU/ 362/426 0 var fise; lex es; "
    "bag 8; exch 3/2;"
)
"""A mid-game FISE position with eight tiles in the bag (the side-by-side kit's mid.cgp)."""


def one_run(gnu_time: str | None) -> tuple[float, int | None, str]:
    """Wall seconds, peak memory in KiB (None without GNU time) and the best move."""
    command = [sys.executable, "-m", "tablero.cli", "moves", "--top", "1", "--json", CGP]
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        if gnu_time:
            command = [gnu_time, "-o", report.name, "-f", "%M", *command]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        rss = int(report.read().split()[-1]) if gnu_time else None
    return wall, rss, json.loads(done.stdout)[0]["move"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    position = read_cgp(CGP)
    lexicon = load_lexicon("es", position.variant.alphabet)
    expected = candidates(position, lexicon, shipped_leaves("fise"), top=1)[0].notation
    gnu_time = shutil.which("time")
    gnu_time = gnu_time if gnu_time and Path(gnu_time).is_file() else None
    walls, peaks = [], []
    for _ in range(args.runs):
        wall, rss, move = one_run(gnu_time)
        assert move == expected, (move, expected)
        walls.append(wall)
        if rss is not None:
            peaks.append(rss)
    peak = max(peaks) if peaks else resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"best move {expected} in every run ({args.runs} cold runs)")
    print(f"wall: median {statistics.median(walls):.3f} s, best {min(walls):.3f} s")
    print(f"peak memory: {peak / 1024:.0f} MiB ({'GNU time' if peaks else 'getrusage'})")


if __name__ == "__main__":
    main()
