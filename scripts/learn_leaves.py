#!/usr/bin/env python3
"""Learn each game's leave values by self-play and write ``tablero/data/leaves/<game>.klv``.

    python3 scripts/learn_leaves.py --variant fise --games 3000,6000,6000 --jobs 2
    python3 scripts/learn_leaves.py --variant all --games 500,1000

Each comma-separated number is one generation of self-play games (the first plays on score
alone, each later one with the values the previous one learned). The file is KLV2 (f32
values), its tiles numbered 1..N in the alphabetical order of the game's own tile set with
the blank 0 (for the Spanish games that is wolges' and MAGPIE's Spanish numbering); the
sidecar ``<game>.json`` records that numbering, the games played, and the fit. The method is
described in docs/leaves.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import tempfile
import time
from pathlib import Path

from tablero.engine.evaluation.learn import RIDGE, learn_leaves
from tablero.engine.evaluation.leaves import LeaveTable
from tablero.engine.movegen.candidates import native_available
from tablero.variant import builtin_variant_names, load_variant

OUT = Path(__file__).resolve().parent.parent / "tablero" / "data" / "leaves"


class _Progress:
    """Prints a line every 200 games: which generation, how many games, how fast."""

    def __init__(self, name: str, start: float) -> None:
        self.name, self.start, self.done = name, start, 0

    def __call__(self, gen: int, _summary: object) -> None:
        self.done += 1
        if self.done % 200 == 0:
            rate = self.done / (time.perf_counter() - self.start)
            print(
                f"{self.name}: generation {gen + 1}, {self.done} games, {rate:.1f} games/s",
                flush=True,
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", required=True, help="a game, or 'all'")
    parser.add_argument("--games", default="1000,2000", help="games per generation, e.g. 1000,2000")
    parser.add_argument(
        "--cluster", help="a Dask scheduler's address (tcp://HOST:8786), or 'local'"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--engine",
        choices=("auto", "native", "game"),
        default="auto",
        help="native: the C self-play loop (the default when it can run); game: through Game",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--more",
        action="store_true",
        help="continue from the table already in --out (its generations are kept in the record)",
    )
    args = parser.parse_args()
    try:
        games = [int(x) for x in args.games.split(",") if x.strip()]
    except ValueError:
        parser.error(f"--games: {args.games!r} is not a list of numbers")
    if not games or min(games) < 1:
        parser.error("--games: give at least one generation of at least one game")
    names = builtin_variant_names() if args.variant == "all" else [args.variant]
    generator = "native" if native_available() else "reference"
    if generator == "reference":
        print("note: the native generator is not built; this will be slow", file=sys.stderr)
    for name in names:
        variant = load_variant(name)
        start = time.perf_counter()
        on_game = _Progress(name, start)

        start_table = None
        earlier: list[dict[str, object]] = []
        if args.more:
            old = json.loads((args.out / f"{name}.json").read_text("utf-8"))
            start_table = LeaveTable.load_learned(args.out / f"{name}.klv", variant.alphabet)
            earlier = old["generations"]
        with tempfile.TemporaryDirectory(prefix="tablero-leaves-") as work:
            table, history, fit = learn_leaves(
                name,
                games=games,
                jobs=args.jobs,
                cluster=args.cluster,
                seed=args.seed,
                workdir=work,
                on_game=on_game,
                start=start_table,
                engine=args.engine,
            )
        letters = variant.letters()
        args.out.mkdir(parents=True, exist_ok=True)
        table.save(args.out / f"{name}.klv", letters=letters)
        top = sorted(fit.weights.items(), key=lambda kv: -abs(kv[1]))[:40]
        meta = {
            "variant": name,
            "format": "KLV2",
            "letters": letters,
            "letters_note": "tile codes 1..N in this order; 0 is the blank",
            "leaves": len(table),
            "max_leave": variant.rack_size - 1,
            "games": sum(int(str(g["games"])) for g in earlier) + sum(h.games for h in history),
            "generations": [*earlier, *(h.__dict__ for h in history)],
            "moves_in_last_fit": fit.observations,
            "bot": "hard (static equity), two players",
            "generator": generator,
            "engine": args.engine,
            "lexicon": variant.lexicon,
            "mean_kept_leave_value": history[-1].mean_kept_leave_value,
            "fit": {
                "ridge": RIDGE,
                "shrink_k": round(fit.shrink_k, 3),
                "noise_sd": round(fit.noise_sd, 2),
                "between_leave_sd": round(fit.between_sd, 2),
                "intercept_next_turn_points": round(fit.intercept, 2),
                "largest_weights": {k: round(v, 2) for k, v in top},
            },
            "seconds": round(time.perf_counter() - start, 1),
            "date": datetime.date.today().isoformat(),
        }
        (args.out / f"{name}.json").write_text(
            json.dumps(meta, indent=1, ensure_ascii=False) + "\n", "utf-8"
        )
        print(
            f"{name}: {len(table):,} leaves from {meta['games']:,} games "
            f"in {meta['seconds']:.0f} s -> {args.out / (name + '.klv')}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
