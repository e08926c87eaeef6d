"""The ranked search by the word map against the GADDAG walk, in every game: same answers, times.

    python benchmarks/bench_wordmap.py                   # 40 self-play games a game
    python benchmarks/bench_wordmap.py --games 200 --variants fise,cuvinte

For each game, the positions are every turn of ``--games`` games of static self-play in C
(shipped dictionary and leave values), each with the rack the mover held, and, in games with
blanks, the same rack with its first tile made a blank (and, every tenth turn, with its first two
made blanks). First the answers: on every position
``best`` by the word map equals ``best`` by the walk, with leave values (n = 1 and 3) and by
score (n = 2), move for move. Then the figures, one thread, CPU time, the two interleaved
(best of ``--rounds``): best moves a second by each, and whole self-play games a second by
each, which must be the same games. Printed per game with the ratio; nothing asserts a time.
docs/movegen.md §13 says what the word map is.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from tablero.board import Board
from tablero.engine.movegen.native import LearnedLeaveValues, NativeBoard, NativeGenerator
from tablero.engine.players import shipped_leaves
from tablero.lexicon import load_lexicon
from tablero.lexicon.graph import GraphLexicon
from tablero.variant import builtin_variant_names, load_variant


def positions(
    gen: NativeGenerator, games: int, leaves: LearnedLeaveValues, blanks: bool
) -> list[tuple[Board, tuple[str, ...]]]:
    """Every turn's board and rack of ``games`` self-play games (and the rack with a blank, and
    every tenth with two)."""
    found: list[tuple[Board, tuple[str, ...]]] = []
    for seed in range(games):
        _, turns = gen.selfplay_turns(seed=seed, players=2, leaves=leaves)
        for i, turn in enumerate(turns):
            rack = tuple(turn.rack)
            if not rack:
                continue
            found.append((turn.board, rack))
            if blanks:
                found.append((turn.board, ("?", *rack[1:])))
            if blanks and i % 10 == 0 and len(rack) >= 2:
                found.append((turn.board, ("?", "?", *rack[2:])))
    return found


def check(
    gen: NativeGenerator, work: list[tuple[Board, tuple[str, ...]]], leaves: LearnedLeaveValues
) -> None:
    """Assert that the word map's answers are the walk's on every position."""
    for board, rack in work:
        for n, table in ((1, leaves), (3, leaves), (2, None)):
            gen.use_wordmap(False)
            walked = gen.best(board, rack, n, table)
            gen.use_wordmap(True)
            mapped = gen.best(board, rack, n, table)
            assert mapped == walked, f"{''.join(rack)}: {mapped[:1]} against {walked[:1]}"


def best_of(rounds: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(rounds):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="self-play games a game")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--variants", default=",".join(builtin_variant_names()))
    args = parser.parse_args()
    print(f"one thread, CPU time, best of {args.rounds} rounds, walk and map interleaved")
    for name in args.variants.split(","):
        v = load_variant(name)
        lexicon = load_lexicon(v.lexicon, v.alphabet)
        assert isinstance(lexicon, GraphLexicon), "the shipped dictionaries are word graphs"
        table = shipped_leaves(name)
        assert table is not None, name
        leaves = LearnedLeaveValues(table)
        gen = NativeGenerator(v, lexicon, wordmap=False)
        work = positions(gen, args.games, leaves, "?" in v.tiles)
        check(gen, work, leaves)
        boards: list[tuple[NativeBoard, tuple[str, ...]]] = [
            (gen.board(b), rack) for b, rack in work
        ]

        def searches(
            gen: NativeGenerator = gen,
            boards: list[tuple[NativeBoard, tuple[str, ...]]] = boards,
            leaves: LearnedLeaveValues = leaves,
        ) -> None:
            for b, rack in boards:
                gen.best(b, rack, 1, leaves)

        def games(
            gen: NativeGenerator = gen, leaves: LearnedLeaveValues = leaves, n: int = args.games
        ) -> object:
            return gen.selfplay(n, 1, 2, leaves)

        seconds: dict[str, list[float]] = {"walk": [], "map": []}
        played = {}
        for _ in range(2):
            for method in ("walk", "map"):
                gen.use_wordmap(method == "map")
                seconds[method].append(best_of(args.rounds, searches))
                played[method] = games()
        assert played["walk"] == played["map"], f"{name}: the word map changed a game"
        play_time = {}
        for method in ("walk", "map"):
            gen.use_wordmap(method == "map")
            play_time[method] = best_of(max(1, args.rounds // 2), games)
        walk, mapped = min(seconds["walk"]), min(seconds["map"])
        n = len(boards)
        print(
            f"{name:11} {n:6,} positions, answers equal; best move: walk {n / walk:7,.0f}/s,"
            f" map {n / mapped:7,.0f}/s ({walk / mapped:.2f}x); self-play: walk"
            f" {args.games / play_time['walk']:5,.0f} games/s, map"
            f" {args.games / play_time['map']:5,.0f} ({play_time['walk'] / play_time['map']:.2f}x)"
        )


if __name__ == "__main__":
    main()
