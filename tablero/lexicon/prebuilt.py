"""Word graphs of the shipped dictionaries, built when tablero is installed.

A word graph (KWG, ``docs/kwg.md``) takes 9–12 s to build from a shipped list. Nobody should
wait for that on first use, so ``pip install`` builds them as it compiles the C extension
(``setup.py`` runs ``python -m tablero.lexicon.prebuilt OUT``) into ``tablero/data/graphs/``,
inside the installed package. ``graph.graph_for_word_list`` looks there first, then in the
user's cache (``graph.cache_dir``), and only then builds, with a progress bar.

A graph's file name carries the digest of the list it was built from and the graph format
(``graph.graph_file_name``), so a stale file is never used: a new list or format simply
misses it. A failed build at install time is not an error: the graph is built on first use.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..alphabet import alphabet_by_name

__all__ = ["PREBUILT_DIR", "build_shipped_graphs", "shipped_pairs"]

PREBUILT_DIR = Path(__file__).resolve().parent.parent / "data" / "graphs"
"""Where the installed package keeps the graphs built at install time."""


def shipped_pairs() -> list[tuple[str, Path]]:
    """Each shipped dictionary's name and word list (``data/lexicon/<name>.txt.xz``); its
    alphabet has the same name (``es``, ``ro``)."""
    lists = Path(__file__).resolve().parent.parent / "data" / "lexicon"
    return [(p.name.removesuffix(".txt.xz"), p) for p in sorted(lists.glob("*.txt.xz"))]


def build_shipped_graphs(out: Path, quiet: bool = False) -> list[Path]:
    """Build the graph of every shipped dictionary into ``out``; the files written."""
    from . import _shipped_version
    from .graph import graph_file_name, graph_for_word_list

    written = []
    for name, path in shipped_pairs():
        alphabet = alphabet_by_name(name)
        target = out / graph_file_name(path, alphabet, name)
        start = time.perf_counter()
        graph_for_word_list(path, alphabet, name, _shipped_version(name), False, target=target)
        for done in (target, target.with_name(target.name + ".json")):
            done.chmod(0o644)  # read by every user of the installed package
        if not quiet:
            print(f"tablero: {name} word graph built ({time.perf_counter() - start:.1f} s)")
        written.append(target)
    return written


if __name__ == "__main__":  # setup.py, at install time
    build_shipped_graphs(Path(sys.argv[1]))
