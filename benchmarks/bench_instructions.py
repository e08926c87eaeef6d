"""Instructions a best-move search executes, counted by valgrind: a figure that noise does not move.

    python benchmarks/bench_instructions.py                # the word map, 50 positions, 2 rounds
    python benchmarks/bench_instructions.py --walk --by-function

Timings on a shared machine wander by 15 % from one run to the next, which hides the few per
cent a change to the search is worth. The number of instructions the search executes does not
wander: this runs the ranked search (``best``, n = 1, FISE with the shipped ``es`` list and
leave values) on the 50 shared positions of ``tests/data/bench`` under valgrind's callgrind,
counting only inside the C search (``best_common`` and what it calls), and prints instructions
a search; ``--by-function`` adds the functions that execute the most. Instructions are not
time (a cache miss costs more than a hundred of them), so a change is kept when both its count
and its interleaved timings agree (docs/movegen.md §13.5).

Before counting, it asserts the answers: on every position the word map's best move equals
the walk's. Needs valgrind (``apt-get install valgrind``); nothing here asserts a count.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tablero.engine.movegen import _native
    from tablero.engine.movegen.native import NativeGenerator

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "tests" / "data" / "bench" / "fise_positions.jsonl.xz"


def searches(
    walk: bool,
) -> tuple[NativeGenerator, list[tuple[_native.Board, bytes, bool]], _native.LeaveTable]:
    """The generator, each position as (C board, rack counts, first turn), and the C leave
    table: what the counted loop needs, made ready outside it."""
    from tablero.engine.movegen.native import NativeGenerator, learned_leave_values
    from tablero.engine.players import shipped_leaves
    from tablero.formats.cgp import read_cgp
    from tablero.lexicon import load_lexicon
    from tablero.lexicon.graph import GraphLexicon
    from tablero.variant import load_variant

    variant = load_variant("fise")
    lexicon = load_lexicon("es", variant.alphabet)
    assert isinstance(lexicon, GraphLexicon), "the shipped dictionary is a word graph"
    gen = NativeGenerator(variant, lexicon, wordmap=not walk)
    table = shipped_leaves("fise")
    assert table is not None
    leaves = learned_leave_values(table)
    work = []
    with lzma.open(BENCH, "rt", encoding="utf-8") as f:
        for line in f:
            position = read_cgp(json.loads(line)["cgp"])
            board = gen.board(position.board)
            c_board = gen._c_board(board)
            work.append((c_board, gen.encode_rack(position.rack), gen._first(c_board, None)))
    return gen, work, leaves.table(variant.alphabet)


def check() -> int:
    """Assert that the word map and the walk give the same best move on every position."""
    gen, work, table = searches(walk=False)
    native = gen._gen
    for c_board, rack, first in work:
        native.use_wordmap(False)
        walked = native.best(c_board, rack, first, 1, table, False)
        native.use_wordmap(True)
        assert native.best(c_board, rack, first, 1, table, False) == walked
    return len(work)


def inner(rounds: int, walk: bool) -> None:
    """The counted loop (run under valgrind by ``main``)."""
    gen, work, table = searches(walk)
    native = gen._gen
    for _ in range(rounds):
        for c_board, rack, first in work:
            native.best(c_board, rack, first, 1, table, False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=2, help="searches of each position")
    ap.add_argument("--walk", action="store_true", help="the GADDAG walk instead of the map")
    ap.add_argument("--by-function", action="store_true", help="the functions that count most")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        inner(args.rounds, args.walk)
        return
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    n = check()
    print(f"answers: the word map's best move is the walk's on all {n} positions")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            "--toggle-collect=best_common", sys.executable, __file__, "--inner",
            "--rounds", str(args.rounds), *(["--walk"] if args.walk else []),
        ]  # fmt: skip
        subprocess.run(command, check=True, capture_output=True)
        report = subprocess.run(
            ["callgrind_annotate", out], check=True, capture_output=True, text=True
        ).stdout
    total = re.search(r"([\d,]+) \([^)]*\)\s+PROGRAM TOTALS", report)
    assert total, "callgrind_annotate printed no total"
    count = int(total.group(1).replace(",", ""))
    calls = n * args.rounds
    how = "the walk" if args.walk else "the word map"
    print(f"{how}: {count:,} instructions in {calls} searches, {count / calls:,.0f} a search")
    if args.by_function:
        rows = re.findall(r"^\s*([\d,]+) \(\s*([\d.]+)%\)\s+\S*:(\w+) ", report, re.M)
        for instructions, share, name in rows[:12]:
            per = int(instructions.replace(",", "")) / calls
            print(f"  {name:32s} {per:10,.0f} a search ({share} %)")


if __name__ == "__main__":
    main()
