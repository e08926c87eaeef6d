"""Installing the FISE-2 lexicon from the federation's distribution (issue 38).

    python benchmarks/bench_fise_lexicon.py PATH/TO/LISTAS.zip [--lemmas fise-2.txt]
    python benchmarks/bench_fise_lexicon.py            # the project's own sample distribution

Runs ``tablero lexicon add fise2 SOURCE`` as a command into a temporary data folder, on one
core (``taskset`` where there is one; the build is single-threaded anyway), three times, and
prints the best wall time with the form count and each build step's count. The goal is under
a minute. With ``--lemmas`` it also checks that the dictionary accepts the plain lemma list's
lemmas except the updates' removals, and prints that share (the goal: 0.999). Asserts the
answers — the sample's exact word count, every official two- and three-tile word accepted —
never a time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tablero.alphabet import SPANISH  # noqa: E402
from tablero.lexicon import _CACHE, Lexicon  # noqa: E402
from tablero.lexicon.fise.distribution import read_distribution  # noqa: E402


def install(source: Path, data: Path) -> float:
    shutil.rmtree(data, ignore_errors=True)
    command = [sys.executable, "-m", "tablero.cli", "lexicon", "add", "fise2", str(source)]
    if shutil.which("taskset"):
        command = ["taskset", "-c", "0", *command]
    env = os.environ | {"TABLERO_DATA": str(data)}
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", type=Path, help="The FISE-2 zip or folder.")
    parser.add_argument("--lemmas", type=Path, help="A plain list of FISE-2 lemmas.")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = args.source
        if source is None:
            sys.path.insert(0, str(REPO / "tests"))
            from lexicon.fise_sample import expected_words, write_zip

            source = write_zip(Path(tmp) / "LISTAS.zip")
        data = Path(tmp) / "data"
        times = [install(source, data) for _ in range(args.runs)]
        record = json.loads((data / "lexicons" / "fise2" / "lexicon.json").read_text("utf-8"))
        print(
            f"tablero lexicon add fise2 {source.name}: best of {args.runs} "
            f"{min(times):.1f} s (all: {', '.join(f'{t:.1f}' for t in times)}); "
            f"{record['word_count']:,} words"
        )
        for step, count in record["steps"].items():
            print(f"  {step}: {count:,}")
        os.environ["TABLERO_DATA"] = str(data)
        _CACHE.clear()
        lexicon = Lexicon.named("fise2")
        d = read_distribution(source)
        short = d.two_tiles | d.three_tiles
        refused = sorted(w for w in short if not lexicon.contains(w))
        assert not refused, f"official short words refused: {refused}"
        print(f"  official two- and three-tile words accepted: {len(short)} of {len(short)}")
        if args.source is None:
            assert record["word_count"] == len(expected_words()), record["word_count"]
            print("  the sample's words: as written by hand")
        if args.lemmas:
            updates = d.non_verb_updates
            removed = updates.removed | d.removed_verbs | updates.removed_plurals
            lemmas = [
                w
                for w in args.lemmas.read_text("utf-8").split()
                if "k" not in w and "w" not in w and 2 <= len(SPANISH.tokenize(w)) <= 15
            ]
            kept = [w for w in lemmas if w not in removed]
            accepted = sum(1 for w in kept if lexicon.contains(w))
            print(
                f"  lemmas accepted: {accepted:,} of {len(kept):,} ({accepted / len(kept):.4f}); "
                f"{len(lemmas) - len(kept):,} more are the updates' removals"
            )
            assert accepted / len(kept) >= 0.999, "fewer than 0.999 of the kept lemmas accepted"


if __name__ == "__main__":
    main()
