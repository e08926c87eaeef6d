#!/usr/bin/env python3
"""Learn each two-player game's win-probability table by self-play and write
``tablero/data/winprob/<game>.toml``.

    python3 scripts/learn_winprob.py --variant fise --games 100000 --jobs 2
    python3 scripts/learn_winprob.py --variant all --games 50000 --jobs 2

The games are static self-play in C (best equity both sides, the shipped leave values); after
every turn but the last, the mover's tiles unseen, its lead and whether it won make one sample,
and each unseen count gets a logistic curve in the lead (tablero/engine/evaluation/winprob.py;
the file's format is in docs/formats.md, "Win-probability tables").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tablero.engine.evaluation.winprob import collect_samples, fit_win_table, table_file_name
from tablero.variant import builtin_variant_names

OUT = Path(__file__).resolve().parent.parent / "tablero" / "data" / "winprob"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", required=True, help="a game, or 'all'")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument(
        "--cluster", help="a Dask scheduler's address (tcp://HOST:8786), or 'local'"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (one per core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games: at least one game")
    names = builtin_variant_names() if args.variant == "all" else [args.variant]
    for name in names:
        start = time.perf_counter()
        done = 0

        def progress(n: int, name: str = name, start: float = start) -> None:
            nonlocal done
            done += n
            if done % 10_000 < n or done == args.games:
                rate = done / (time.perf_counter() - start)
                print(f"{name}: {done:,} games, {rate:,.0f} games/s", flush=True)

        counts = collect_samples(
            name,
            args.games,
            seed=args.seed,
            jobs=args.jobs,
            cluster=args.cluster,
            players=args.players,
            progress=progress,
        )
        seconds = time.perf_counter() - start
        samples = int(sum(n for n, _ in counts.values()))
        table = fit_win_table(
            name,
            counts,
            {
                "games": args.games,
                "samples": samples,
                "seed": args.seed,
                "bots": "hard at every seat: static best equity with the shipped leaves, in C",
                "command": f"python3 scripts/learn_winprob.py --variant {name} "
                f"--games {args.games} --jobs {args.jobs} --players {args.players}",
                "games_per_second": round(args.games / seconds, 1),
                "jobs": args.jobs,
                "cluster": args.cluster or "",
                "learned": time.strftime("%Y-%m-%d"),
            },
            args.players,
        )
        args.out.mkdir(parents=True, exist_ok=True)
        path = args.out / table_file_name(name, args.players)
        table.save(path)
        print(
            f"{name}: {samples:,} samples from {args.games:,} games in {seconds:.0f} s "
            f"({args.games / seconds:,.0f} games/s on {args.jobs} processes) -> {path}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
