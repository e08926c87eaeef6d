"""Build the puzzle sets that ship with tablero (``tablero/data/puzzles/<game>.jsonl``).

    python scripts/build_puzzles.py                   # every game, the shipped sizes
    python scripts/build_puzzles.py --games fise --count 40 --out /tmp/puzzles

For each game, the engine plays itself (two ``hard`` players: best static equity with the
shipped leave values) from seed ``--seed``, ``--seed`` + 1, … and every position before a move
is examined as a puzzle (``tablero.puzzles.selection.examine``: the rules in
docs/competition.md, "Puzzles"). A game gives about two; most are bingos, so bingos are kept
to at most ``--bingo-share`` of the set while other puzzles can still come, and the set is
filled up with bingos when ``--max-games`` are played. The same arguments give the same files:
the games depend only on their seeds, and the puzzles are kept in the order found.

Each line records where its position came from (``"source": {"kind": "selfplay", "seed": S,
"ply": P}``): replaying that game with the same bots reaches it again.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

try:
    from tablero.game import Game
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tablero.game import Game

from tablero.engine.players import Bot, seat_view, shipped_leaves
from tablero.lexicon import load_lexicon
from tablero.puzzles.model import Puzzle, write_puzzles
from tablero.puzzles.selection import examine
from tablero.variant import load_variant

OUT = Path(__file__).resolve().parents[1] / "tablero" / "data" / "puzzles"
GAMES = ("fise", "bisonte", "crucigrama", "intelect", "letras_top", "cuvinte")
COUNT = 120
"""Puzzles per game: a few minutes of self-play each, about 50 kB a file."""


def play_for_puzzles(
    name: str, count: int, seed: int, max_games: int, bingo_share: float, quiet: bool
) -> list[Puzzle]:
    v = load_variant(name)
    lexicon = load_lexicon(v.lexicon, v.alphabet)
    leaves = shipped_leaves(name)
    bingo_cap = int(count * bingo_share)
    kept: list[Puzzle] = []
    spare: list[Puzzle] = []
    seen: set[str] = set()
    start = time.monotonic()
    games = 0
    for game_seed in range(seed, seed + max_games):
        games += 1
        game = Game(v, ["A", "B"], lexicon, seed=game_seed)
        bots = [Bot("hard", v, lexicon, seed=game_seed * 2 + k) for k in range(2)]
        ply = 0
        while not game.is_over:
            ply += 1
            source = {"kind": "selfplay", "seed": game_seed, "ply": ply}
            found = examine(seat_view(game), lexicon, leaves, source=source).puzzle
            if found is not None and found.id not in seen:
                seen.add(found.id)
                bingos = sum(1 for p in kept if p.theme == "bingo")
                if found.theme != "bingo" or bingos < bingo_cap:
                    kept.append(found)
                else:
                    spare.append(found)
            game.play(bots[game.to_move].choose(game))
        if len(kept) >= count:
            break
    kept += spare[: max(0, count - len(kept))]
    kept = kept[:count]
    if not quiet:
        themes = {
            t: sum(1 for p in kept if p.theme == t) for t in ("bingo", "big_score", "only_move")
        }
        print(
            f"{name}: {len(kept)} puzzles from {games} games in {time.monotonic() - start:.0f} s "
            f"({themes})",
            file=sys.stderr,
        )
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="Games, comma-separated.")
    parser.add_argument("--count", type=int, default=COUNT, help="Puzzles per game.")
    parser.add_argument("--seed", type=int, default=1, help="The first game's seed.")
    parser.add_argument("--max-games", type=int, default=400, help="Games at most per game.")
    parser.add_argument("--bingo-share", type=float, default=0.5, help="Bingos at most, 0-1.")
    parser.add_argument("--out", type=Path, default=OUT, help="The directory of the files.")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in [g.strip() for g in args.games.split(",") if g.strip()]:
        puzzles = play_for_puzzles(
            name, args.count, args.seed, args.max_games, args.bingo_share, args.quiet
        )
        write_puzzles(args.out / f"{name}.jsonl", puzzles)


if __name__ == "__main__":
    main()
