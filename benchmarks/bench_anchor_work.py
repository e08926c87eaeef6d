"""Where the ranked search's walk goes: anchors that pay off, and anchors searched for nothing.

    python benchmarks/bench_anchor_work.py            # both workloads below
    python benchmarks/bench_anchor_work.py --iterations 100

The best-move search (docs/movegen.md §8) orders the anchors by an upper bound on the equity
of any move from them and walks the GADDAG from each until the next bound is below the n-th
best move found. This benchmark counts where that walk's nodes (calls of gen_left and
gen_right) go, to say which better bound would save what:

* anchors searched, of those with a finite bound;
* the share of nodes in the anchor that last improved the best move (work no bound can save);
* the share in anchors that added no move to the best n (work an exact bound would save);
* the share in anchors that a no-bingo oracle would skip (the best move is no bingo, and the
  anchor's bound without its bingo spans is below the final n-th best): what knowing, per
  search, that the rack makes no bingo there would save;
* of the anchors that added no move, how many nodes sit in those that spans through no board
  tile (through at most one) would still have sent the walk to: the rest is the most that a
  word check of the rack alone (of the rack and one board letter) could save; what remains
  beyond it is there only for spans through two or more board tiles.

The counts come from a build of the C core with ``-DTB_STATS``, compiled here into a temporary
directory with the flags of setup.py (gcc and Python's headers are needed); the shipped build
counts nothing. Two workloads, one thread: the best move by equity on the 50 shared FISE
positions (each answer asserted equal to the exhaustive search's), and the replies of a
2-ply simulation (4 mid-game positions of ``bench_sim_threads.py``, 8 candidates), whose
answers are asserted equal to the shipped build's (run in a child process). Nothing asserts a
count or a time.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "tablero" / "engine" / "movegen" / "native"
MODULE = "tablero.engine.movegen._native"
sys.path.insert(0, str(ROOT / "benchmarks"))  # bench_movegen's and bench_sim_threads' positions


def build_stats_core(out: Path) -> Path:
    """The C core compiled with -DTB_STATS into ``out``."""
    target = out / f"_native{sysconfig.get_config_var('EXT_SUFFIX')}"
    command = [
        "gcc", "-shared", "-fPIC", "-O3", "-std=c11", "-DTB_STATS",
        f"-I{NATIVE}", f"-I{sysconfig.get_paths()['include']}",
        *map(str, sorted(NATIVE.glob("*.c"))), "-lm", "-o", str(target),
    ]  # fmt: skip
    subprocess.run(command, check=True)
    return target


def load_stats_core(path: Path) -> ModuleType:
    """Put the stats build in place of the shipped one, before tablero imports it."""
    if MODULE in sys.modules:
        raise RuntimeError("the shipped C core is already imported")
    spec = importlib.util.spec_from_file_location(MODULE, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[MODULE] = module
    return module


def simulation_answers(iterations: int) -> list[list[tuple[str, float]]]:
    """Each candidate's mean in the 2-ply simulation of bench_sim_threads' positions."""
    from bench_sim_threads import positions

    from tablero.engine.movegen.candidates import candidates, generator_for
    from tablero.engine.players import shipped_leaves
    from tablero.engine.search.simulate import simulate
    from tablero.lexicon import load_lexicon
    from tablero.variant import load_variant

    v = load_variant("fise")
    lexicon = load_lexicon("es", v.alphabet)
    leaves = shipped_leaves("fise")
    gen = generator_for(v, lexicon)
    answers = []
    for p in positions(4):
        top = candidates(p, lexicon, leaves, generator=gen, top=8)
        sims = simulate(p, top, lexicon, leaves, iterations=iterations, seed=7, generator=gen)
        answers.append([(r.candidate.notation, round(r.mean, 9)) for r in sims])
    return answers


def best_moves_checked() -> int:
    """The best move on the 50 shared positions, each equal to the exhaustive search's."""
    from bench_movegen import load, synthetic_leaves

    gen, _, positions = load()
    leaves = synthetic_leaves()
    for p in positions:
        ranked = gen.best(p.board, p.rack, 1, leaves)
        every = gen.best(p.board, p.rack, 1, leaves, exhaustive=True)
        assert [(m.score, m.equity) for m in ranked] == [(m.score, m.equity) for m in every], p
    return len(positions)


def report(label: str, stats: dict[str, int]) -> None:
    nodes = max(stats["nodes"], 1)
    searches = max(stats["searches"], 1)
    print(
        f"{label}: {stats['searches']:,} searches; a search: {stats['anchors'] / searches:.1f}"
        f" anchors with a bound, {stats['searched'] / searches:.1f} searched,"
        f" {stats['nodes'] / searches:,.0f} walk nodes"
    )
    print(
        f"  nodes in the anchor that last improved the best move {stats['nodes_top'] / nodes:.1%};"
        f" in anchors that added no move {stats['nodes_no_insert'] / nodes:.1%};"
        f" in anchors a no-bingo oracle would skip {stats['nodes_bingo'] / nodes:.1%}"
    )
    no_board = stats["nodes_no_insert_no_board"] / nodes
    one_board = stats["nodes_no_insert_one_board"] / nodes
    print(
        f"  of those that added no move: {one_board:.1%} of all nodes in anchors that spans"
        f" through at most one board tile reach ({no_board:.1%} through none), the most a"
        f" word check of the rack with one board letter could save;"
        f" {stats['nodes_no_insert'] / nodes - one_board:.1%} only for spans through two or more"
    )


def main() -> None:
    # What the GADDAG walk does: the word map (docs/movegen.md §13) would take its place.
    os.environ["TABLERO_WORDMAP"] = "off"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300, help="deals a candidate")
    parser.add_argument("--answers", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.answers:  # the child process: the shipped build's simulation answers
        print(json.dumps(simulation_answers(args.iterations)))
        return
    child = subprocess.run(
        [sys.executable, __file__, "--answers", "--iterations", str(args.iterations)],
        check=True,
        capture_output=True,
        text=True,
    )
    shipped = [[(n, m) for n, m in pos] for pos in json.loads(child.stdout)]
    with tempfile.TemporaryDirectory() as tmp:
        core = load_stats_core(build_stats_core(Path(tmp)))
    core.reset_search_stats()
    n = best_moves_checked()
    report(f"best move, {n} shared positions, synthetic leaves", core.search_stats())
    core.reset_search_stats()
    answers = simulation_answers(args.iterations)
    assert answers == shipped, "the stats build simulated differently from the shipped one"
    report(
        f"2-ply simulation replies (4 positions, 8 candidates x {args.iterations} deals)",
        core.search_stats(),
    )


if __name__ == "__main__":
    main()
