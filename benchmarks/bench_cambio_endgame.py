"""Crucigrama endgames with CAMBIOs left: the C search against the Python reference.

    python benchmarks/bench_cambio_endgame.py                       # 6 endgames, 5 tiles
    python benchmarks/bench_cambio_endgame.py --games 10 --tiles 6 --cambios 2 --cap 60

Positions: seeded games between ``hard`` players with the shipped dictionary, played on past
the empty bag until the two racks hold at most ``--tiles`` tiles with player 0 to move; each
player is then given ``--cambios`` CAMBIOs left. Each position is solved by both searches
(``solve_endgame``, no width limit, ``--cap`` seconds of budget each). Checked: where both
answers are exact they give the same final spread (the benchmark stops with an error
otherwise). Printed: each position's CPU time, nodes and whether the best line makes a
CAMBIO, and the totals. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import time

from tablero.engine.players import Bot
from tablero.engine.search.endgame import EndgameResult, solve_endgame
from tablero.game import Game
from tablero.lexicon import load_lexicon
from tablero.moves import Pass
from tablero.position import Position
from tablero.variant import load_variant


def endgame_positions(count: int, tiles: int, cambios_left: int) -> list[Position]:
    """``count`` endgames from ``hard`` self-play, as described in the module's docstring."""
    variant = load_variant("crucigrama")
    lexicon = load_lexicon(variant.lexicon, variant.alphabet)
    per_game = variant.cambio_per_game or 0
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        seed += 1
        game = Game(variant, ["a", "b"], lexicon, seed=seed)
        bot = Bot("hard", variant, lexicon, seed=seed)
        while not game.is_over:
            if not game.bag and sum(len(p.rack) for p in game.players) <= tiles:
                if game.to_move == 1:  # the searching side is player 0
                    game.play(Pass())
                    continue
                if all(p.rack for p in game.players):
                    for player in game.players:
                        player.cambios = max(per_game - cambios_left, 0)
                    found.append(game.position())
                break
            game.play(bot.choose(game))
    return found


def solve(position: Position, engine: str, cap: float) -> tuple[EndgameResult, float]:
    lexicon = load_lexicon(position.variant.lexicon, position.variant.alphabet)
    start = time.process_time()
    result = solve_endgame(position, lexicon, time_limit=cap, width=10**9, engine=engine)
    assert result is not None
    return result, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="endgames")
    parser.add_argument("--tiles", type=int, default=5, help="tiles on both racks, at most")
    parser.add_argument("--cambios", type=int, default=1, help="CAMBIOs left to each player")
    parser.add_argument("--cap", type=float, default=30.0, help="seconds per search at most")
    args = parser.parse_args()
    if args.games < 1 or args.tiles < 2 or not 0 <= args.cambios <= 3 or args.cap <= 0:
        parser.error("--games >= 1, --tiles >= 2, --cambios 0..3, --cap > 0")
    positions = endgame_positions(args.games, args.tiles, args.cambios)
    totals = {"native": 0.0, "python": 0.0}
    print(f"{len(positions)} Crucigrama endgames, {args.cambios} CAMBIO(s) left a side")
    for i, position in enumerate(positions):
        c, c_time = solve(position, "native", args.cap)
        py, py_time = solve(position, "python", args.cap)
        if c.exact and py.exact and c.spread != py.spread:
            raise SystemExit(f"position {i}: C {c.spread} but the reference {py.spread}")
        totals["native"] += c_time
        totals["python"] += py_time
        racks = " / ".join("".join(r) for r in position.racks[:2])
        uses = any(m.startswith("CAMBIO") for m in c.line)
        print(
            f"  {i}: {racks:15} spread {c.spread:+.0f}{' exact' if c.exact else ''}; "
            f"C {c_time:.3f} s ({c.nodes} nodes), reference {py_time:.2f} s ({py.nodes} nodes)"
            f"{'; the line makes a CAMBIO' if uses else ''}"
        )
    ratio = totals["python"] / max(totals["native"], 1e-9)
    print(
        f"total CPU: C {totals['native']:.2f} s, reference {totals['python']:.2f} s "
        f"({ratio:.0f} times as long)"
    )


if __name__ == "__main__":
    main()
