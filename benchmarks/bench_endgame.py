"""Exact endgame solving times on a fixed set of FISE positions, with their answers checked.

    python benchmarks/bench_endgame.py                 # 20 positions, 60 s each at most
    python benchmarks/bench_endgame.py --cap 10 --only 0,6,18
    python benchmarks/bench_endgame.py --engine python # the reference search in Python

``benchmarks/data/endgames.jsonl``: 20 positions with the bag empty (from the side-by-side
kit's set, ``../shared/magpie/positions/endgame.cgp``) and, for each one MAGPIE solved
exactly, its final spread with best play on both sides (MAGPIE's ``endgame``, 25 plies, the
same Spanish word list: the ``lexicon`` field is that list's checksum). Each is solved with
``solve_endgame`` (the C search unless ``--engine python``) and no width limit; an answer
marked exact must give that spread (the benchmark stops with an error otherwise), and a
position not solved within ``--cap`` seconds is counted as such. Printed: each position's
time, nodes and depth, and the total over the positions solved. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tablero.engine.movegen.candidates import generator_for
from tablero.engine.search.endgame import solve_endgame
from tablero.formats.cgp import read_cgp
from tablero.lexicon import load_lexicon

DATA = Path(__file__).parent / "data" / "endgames.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per position at most")
    parser.add_argument("--only", help="positions to solve, by index (0,6,18)")
    parser.add_argument(
        "--engine", choices=("native", "python"), help="the search (default: solve_endgame's)"
    )
    args = parser.parse_args()
    cases = [json.loads(line) for line in DATA.read_text("utf-8").splitlines() if line]
    chosen = [int(i) for i in args.only.split(",")] if args.only else range(len(cases))
    first = read_cgp(cases[0]["cgp"])
    lexicon = load_lexicon("es", first.variant.alphabet)
    generator = generator_for(first.variant, lexicon)
    same_list = lexicon.info().checksum.startswith(cases[0]["lexicon"])
    if not same_list:
        print(
            "note: the shipped es list is not the one the answers were found with; "
            "answers are not checked"
        )
    solved_time, solved, checked = 0.0, 0, 0
    for i in chosen:
        case = cases[i]
        position = read_cgp(case["cgp"])
        start = time.process_time()
        result = solve_endgame(
            position,
            lexicon,
            time_limit=args.cap,
            width=10**9,
            generator=generator,
            engine=args.engine,
        )
        seconds = time.process_time() - start
        assert result is not None
        expected = case["spread"]
        if result.exact and same_list and expected is not None:
            assert result.spread == expected, (i, result.best.notation, result.spread, expected)
            checked += 1
        if result.exact:
            solved += 1
            solved_time += seconds
        status = "exact" if result.exact else f"not exact in {args.cap:g} s"
        print(
            f"{i:2d}  {result.best.notation:<16} {result.spread:+6.0f}  {status:<18} "
            f"depth {result.depth:2d}  {result.nodes:>9,} nodes  {seconds:7.2f} s"
        )
    print(
        f"solved {solved} of {len(chosen)} in {solved_time:.2f} s of CPU "
        f"({checked} answers checked against MAGPIE's)"
    )


if __name__ == "__main__":
    main()
