"""The expert's time per move, now and with the settings it had before, on the same positions.

    python benchmarks/bench_expert_time.py [--variant fise] [--games 6] [--every 2]

Positions: every ``--every``-th turn of ``--games`` seeded games between ``hard`` players, from
the first move to the endgame. On each, the expert chooses a move twice: with today's level
(``players.EXPERT_SIM``: sixteen candidates, 4,800 playouts at most on two threads, pruning,
the chance of winning, the pre-endgame played out, the opponent's rack inferred from its last
play, whose time is counted) and with the settings it had before 2026-11-25 (eight
candidates × 300 deals, by points, one thread). Printed: the CPU time a move of each, overall
and by phase (bag over a rack; bag a rack or less; bag empty: the endgame search, the same in
both), and the wall time a move overall, which is what a player waits.

Checked: every move chosen is legal in its game (``Game.check``). Times are printed, not
asserted; the ledger in docs/bots.md keeps them with their date.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

try:
    from tablero.engine.players import Bot, SimSettings, seat_view
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tablero.engine.players import Bot, SimSettings, seat_view
from tablero.game import Game
from tablero.lexicon import load_lexicon
from tablero.variant import load_variant

BEFORE = SimSettings(candidates=8, iterations=300)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="fise")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--against",
        metavar="JSON",
        help="Bot options to time beside today's level instead of the settings before "
        '2026-11-25, e.g. \'{"sim_plies": 4, "sim_playouts": 1200}\'',
    )
    args = parser.parse_args()
    variant = load_variant(args.variant)
    lexicon = load_lexicon(variant.lexicon, variant.alphabet)
    before = {
        "sim_candidates": BEFORE.candidates,
        "sim_iterations": BEFORE.iterations,
        "sim_playouts": 0,
        "prune": False,
        "win_table": False,
        "preendgame_plies": 0,
        "infer": False,
        "threads": 1,
    }
    try:
        other = json.loads(args.against) if args.against else before
    except json.JSONDecodeError as e:
        parser.error(f"--against: not JSON ({e})")
    if not isinstance(other, dict):
        parser.error("--against: a JSON object of Bot options")
    settings = {"now": {}, "before" if args.against is None else "other": other}
    phases = ("bag over a rack", "bag a rack or less", "bag empty")
    cpu = {name: dict.fromkeys(phases, 0.0) for name in settings}
    wall = dict.fromkeys(settings, 0.0)
    count = dict.fromkeys(phases, 0)
    for g in range(args.games):
        seed = args.seed + g
        game = Game(variant, ["a", "b"], lexicon, seed=seed)
        hard = Bot("hard", variant, lexicon, seed=seed)
        turn = 0
        while not game.is_over:
            if turn % args.every == 0:
                bag = len(game.bag)
                phase = phases[0 if bag > variant.rack_size else 1 if bag else 2]
                count[phase] += 1
                for name, options in settings.items():
                    expert = Bot("expert", variant, lexicon, seed=seed * 1000 + turn, **options)
                    start, start_wall = time.process_time(), time.perf_counter()
                    position = seat_view(game)
                    inference = expert.infer_from(game, position)
                    choice = expert.choose_in(position, players=2, inference=inference)
                    cpu[name][phase] += time.process_time() - start
                    wall[name] += time.perf_counter() - start_wall
                    checked = game.check(choice.move)  # IllegalMove if it is not legal
                    assert checked is None or checked.total == choice.score, choice.notation
            game.play(hard.choose(game))
            turn += 1
    total = sum(count.values())
    print(f"{args.variant}: {total} positions from {args.games} games (every {args.every} turns)")
    for name in settings:
        overall = sum(cpu[name].values()) / total
        parts = ", ".join(
            f"{phase} {cpu[name][phase] / count[phase]:.2f} s ({count[phase]})"
            for phase in phases
            if count[phase]
        )
        print(
            f"  {name:6}: {overall:.2f} s of CPU a move ({wall[name] / total:.2f} s of wall "
            f"time); {parts}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
