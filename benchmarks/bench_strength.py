"""A strength match between two computer players: seat-swapped pairs, a 95 % interval over pairs.

    python benchmarks/bench_strength.py --variant fise --a expert --b hard --pairs 200 --jobs 2
    python benchmarks/bench_strength.py --variant fise --a expert --b hard --pairs 50 \\
        --a-opts '{"sim_candidates": 16, "prune": true, "win_table": true}'

Each pair is two games with the same seed (the same draw of first player and the same bag
order), A in the first seat of one and in the second of the other, so the luck of the tiles
weighs on both sides equally. A pair scores 0, ½ or 1 for A (its wins in the two games, a draw
half); the win rate is the mean over pairs, its interval ±1.96 standard errors of the pair
scores (pairs are independent, the two games of a pair are not). The spread is A's final score
minus B's, averaged per game, with its interval over pairs too.

``--seats 4``: a set of four games per seed, A in each seat in turn and B in the three others;
A's share of the wins (par: 1/4, a win shared by k players counting 1/k) and its spread against
the best of the others. Time per move: wall clock and
the process's CPU time (the measure that other work on the machine does not change).

Options given as JSON go to ``Bot`` (``sim_iterations``, ``sim_candidates``, ``sim_playouts``,
``prune``, ``win_table`` (true: the game's shipped table), ``time_limit``, ``threads``,
``sim_plies``, ``preendgame_plies``, ``preendgame_bag``, ``infer``).
``--a-from-bag N`` asks where A's edge comes from: A plays as ``hard`` (the best static
equity) while the bag holds more than N tiles and as itself from then on, so the two games of a
pair are the same game until the bag comes down to N (``--a-from-bag 0``: only A's endgame).
``--a-sees-racks`` (two seats) tells A's simulation its opponent's rack: an upper bound on
what knowing it could be worth. ``--a-sees-kept`` tells it only the tiles the opponent kept
at its last play (the rest of its rack, drawn since, is dealt at random as ever), as if rack
inference were perfect: an upper bound on what any inference from the plays could be worth.
``--out FILE`` appends one JSON line per pair, so that runs can be split and added up
(``--report FILE`` prints the summary of such a file; ``--compare BEFORE AFTER`` the difference
of two such runs seed by seed, with its 95 % interval over the seeds they share).

Checked: every game ends, with the scores the referee (``Game``) computed; the result is a
measurement, printed, and written with its command in docs/bots.md.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

try:
    from tablero.engine.players import Bot, seat_view
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tablero.engine.players import Bot, seat_view
from tablero.engine.search.inference import Inference, last_play
from tablero.game import Game
from tablero.lexicon import load_lexicon
from tablero.variant import load_variant

_CACHE: dict[str, Any] = {}


def _bot(spec: str, options: dict[str, Any], variant: Any, lexicon: Any, seed: int) -> Bot:
    return Bot(spec, variant, lexicon, seed=seed, **options)


class SeesRacks:
    """``bot`` at two seats, its simulation told the opponent's rack, or with ``kept_only``
    what the opponent kept at its last play (diagnostics: what knowing them is worth). The
    endgame needs no telling: with the bag empty the rack is known."""

    def __init__(self, bot: Bot, kept_only: bool = False) -> None:
        self.bot = bot
        self.kept_only = kept_only
        self.variant, self.lexicon, self.leaves = bot.variant, bot.lexicon, bot.leaves

    def choose(self, game: Game) -> Any:
        seat = game.to_move
        position = seat_view(game, seat)
        theirs = tuple(game.position(seat).racks[1])
        if self.kept_only:
            # A rack keeps its tiles in order and the draw goes at its end (``Game._place``).
            play = last_play(game)
            theirs = theirs[: len(theirs) - len(play.played)] if play is not None else ()
        told = None
        if position.bag_count() and theirs:
            told = Inference(seat=1, kept=(theirs,), tried=1)
        return self.bot.choose_in(position, players=2, inference=told).move


class LatePlayer:
    """``hard`` while the bag holds more than ``from_bag`` tiles, then ``bot``."""

    def __init__(self, bot: Bot | SeesRacks, from_bag: int) -> None:
        self.bot = bot
        self.static = Bot("hard", bot.variant, bot.lexicon, leaves=bot.leaves)
        self.from_bag = from_bag

    def choose(self, game: Game) -> Any:
        player = self.bot if len(game.bag) <= self.from_bag else self.static
        return player.choose(game)


def play_pair(
    job: tuple[str, str, str, dict[str, Any], dict[str, Any], int, int, int | None, str | None],
) -> dict[str, Any]:
    """The games of one seed: A in each seat in turn, B in every other seat."""
    variant_name, a, b, a_opts, b_opts, seed, seats, a_from_bag, a_told = job
    if _CACHE.get("variant") != variant_name:
        variant = load_variant(variant_name)
        _CACHE.update(
            variant=variant_name,
            v=variant,
            lexicon=load_lexicon(variant.lexicon, variant.alphabet),
        )
    variant, lexicon = _CACHE["v"], _CACHE["lexicon"]
    games = []
    for a_seat in range(seats):
        a_bot = _bot(a, a_opts, variant, lexicon, seed * 8 + a_seat)
        told: Bot | SeesRacks = SeesRacks(a_bot, a_told == "kept") if a_told else a_bot
        a_player = told if a_from_bag is None else LatePlayer(told, a_from_bag)
        bots = [
            a_player if s == a_seat else _bot(b, b_opts, variant, lexicon, seed * 8 + s)
            for s in range(seats)
        ]
        game = Game(variant, [f"p{s}" for s in range(seats)], lexicon, seed=seed)
        seconds = [0.0] * seats
        cpu = [0.0] * seats
        moves = [0] * seats
        while not game.is_over:
            seat = game.to_move
            start, start_cpu = time.perf_counter(), time.process_time()
            move = bots[seat].choose(game)
            seconds[seat] += time.perf_counter() - start
            cpu[seat] += time.process_time() - start_cpu
            moves[seat] += 1
            game.play(move)
        assert game.result is not None
        final = list(game.result.final_scores)
        winners = list(game.result.winners)
        others = [s for s in range(seats) if s != a_seat]
        games.append(
            {
                "a_seat": a_seat,
                # A win shared among k winners counts 1/k: the shares of a game add up to 1.
                "score": 1.0 / len(winners) if a_seat in winners else 0.0,
                "spread": final[a_seat] - max(final[s] for s in others),
                "a_seconds": seconds[a_seat],
                "a_cpu": cpu[a_seat],
                "a_moves": moves[a_seat],
                "b_seconds": sum(seconds[s] for s in others),
                "b_moves": sum(moves[s] for s in others),
            }
        )
    return {"seed": seed, "games": games}


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its 95 % interval (1.96 standard errors)."""
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, math.inf
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    return m, 1.96 * sd / math.sqrt(len(xs))


def pair_result(pair: dict[str, Any]) -> tuple[float, float]:
    """A's mean over the games of one pair: its win score and its spread a game."""
    games = pair["games"]
    n = len(games)
    return sum(g["score"] for g in games) / n, sum(g["spread"] for g in games) / n


def summary(pairs: list[dict[str, Any]]) -> dict[str, float]:
    n = len(pairs)
    scores, spreads = zip(*(pair_result(p) for p in pairs), strict=True)

    win, win_half = mean_ci(scores)
    spread, spread_half = mean_ci(spreads)
    a_time = sum(g["a_seconds"] for p in pairs for g in p["games"])
    a_cpu = sum(g.get("a_cpu", g["a_seconds"]) for p in pairs for g in p["games"])
    a_moves = sum(g["a_moves"] for p in pairs for g in p["games"])
    b_time = sum(g["b_seconds"] for p in pairs for g in p["games"])
    b_moves = sum(g["b_moves"] for p in pairs for g in p["games"])
    return {
        "pairs": n,
        "games": sum(len(p["games"]) for p in pairs),
        "win_rate": win,
        "win_low": win - win_half,
        "win_high": win + win_half,
        "spread": spread,
        "spread_half": spread_half,
        "a_seconds_per_move": a_time / max(1, a_moves),
        "a_cpu_per_move": a_cpu / max(1, a_moves),
        "b_seconds_per_move": b_time / max(1, b_moves),
    }


def compare(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> str:
    """How much more the second run's A won than the first's, seed by seed (the same seeds:
    the same bags, and with ``--a-from-bag`` the same games until the bag comes down)."""
    a = {p["seed"]: pair_result(p) for p in before}
    b = {p["seed"]: pair_result(p) for p in after}
    seeds = sorted(set(a) & set(b))
    if len(seeds) < 2:
        raise ValueError(f"the two files share {len(seeds)} seeds: at least 2 are needed")
    win, win_half = mean_ci([b[s][0] - a[s][0] for s in seeds])
    spread, spread_half = mean_ci([b[s][1] - a[s][1] for s in seeds])
    return (
        f"over {len(seeds)} shared seeds: win rate {100 * win:+.1f} ± {100 * win_half:.1f} "
        f"points, spread {spread:+.1f} ± {spread_half:.1f} a game"
    )


def show(label: str, s: dict[str, float]) -> None:
    print(
        f"{label}: {s['win_rate']:.1%} [{s['win_low']:.1%}, {s['win_high']:.1%}] of "
        f"{int(s['pairs'])} sets of seats ({int(s['games'])} games); spread "
        f"{s['spread']:+.1f} ± {s['spread_half']:.1f} a game; "
        f"A {s['a_seconds_per_move']:.2f} s a move ({s['a_cpu_per_move']:.2f} s of CPU), "
        f"B {s['b_seconds_per_move']:.2f} s",
        flush=True,
    )


def _read_pairs(path: Path, parser: argparse.ArgumentParser) -> list[dict[str, Any]]:
    """The pairs of an ``--out`` file, or the parser's error saying what is wrong with it."""
    try:
        pairs = [json.loads(line) for line in path.read_text().splitlines() if line]
    except OSError as e:
        parser.error(f"cannot read {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        parser.error(f"{path} is not an --out file: line {e.lineno}: {e.msg}")
    if not pairs:
        parser.error(f"{path} holds no pairs")
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="fise")
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="hard")
    parser.add_argument("--a-opts", default="{}", help="JSON: Bot options of A")
    parser.add_argument("--b-opts", default="{}", help="JSON: Bot options of B")
    parser.add_argument("--pairs", type=int, default=100, help="seeds (sets of games)")
    parser.add_argument("--seats", type=int, default=2, help="players a game (A and the rest B)")
    parser.add_argument("--seed", type=int, default=1, help="the first pair's seed")
    parser.add_argument(
        "--a-from-bag", type=int, metavar="N", help="A plays as hard until the bag holds N tiles"
    )
    parser.add_argument(
        "--a-sees-racks",
        action="store_true",
        help="A's simulation is told its opponent's rack (two seats; a diagnostic)",
    )
    parser.add_argument(
        "--a-sees-kept",
        action="store_true",
        help="A's simulation is told what its opponent kept at its last play (a diagnostic)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="append each pair as a JSON line")
    parser.add_argument("--report", type=Path, help="only summarise this --out file")
    parser.add_argument(
        "--compare",
        type=Path,
        nargs=2,
        metavar=("BEFORE", "AFTER"),
        help="only compare two --out files seed by seed (AFTER's A less BEFORE's)",
    )
    args = parser.parse_args()
    if args.compare:
        before, after = (_read_pairs(f, parser) for f in args.compare)
        try:
            print(f"{args.compare[1]} less {args.compare[0]} {compare(before, after)}")
        except ValueError as e:
            parser.error(str(e))
        return 0
    if args.a_from_bag is not None and args.a_from_bag < 0:
        parser.error(f"--a-from-bag: a number of tiles, 0 or more, not {args.a_from_bag}")
    if (args.a_sees_racks or args.a_sees_kept) and args.seats != 2:
        parser.error(f"--a-sees-racks, --a-sees-kept: two seats only, not {args.seats}")
    if args.a_sees_racks and args.a_sees_kept:
        parser.error("--a-sees-racks or --a-sees-kept, not both")
    a_told = "rack" if args.a_sees_racks else "kept" if args.a_sees_kept else None
    if args.report:
        show(str(args.report), summary(_read_pairs(args.report, parser)))
        return 0
    try:
        a_opts, b_opts = json.loads(args.a_opts), json.loads(args.b_opts)
    except json.JSONDecodeError as e:
        parser.error(f"--a-opts/--b-opts: not JSON ({e})")
    jobs = [
        (
            args.variant,
            args.a,
            args.b,
            a_opts,
            b_opts,
            seed,
            args.seats,
            args.a_from_bag,
            a_told,
        )
        for seed in range(args.seed, args.seed + args.pairs)
    ]
    label = f"{args.variant}: {args.a} {a_opts or ''} vs {args.b} {b_opts or ''}".strip()
    if args.seats != 2:
        label += f" ({args.seats} seats)"
    if args.a_from_bag is not None:
        label += f" (A as hard until the bag holds {args.a_from_bag})"
    if a_told:
        label += " (A told B's rack)" if a_told == "rack" else " (A told what B kept)"
    pairs: list[dict[str, Any]] = []
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for pair in pool.map(play_pair, jobs):
            pairs.append(pair)
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps({**pair, "label": label}) + "\n")
            if len(pairs) % 10 == 0 or len(pairs) == len(jobs):
                show(f"{label} after {time.perf_counter() - start:.0f} s", summary(pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
