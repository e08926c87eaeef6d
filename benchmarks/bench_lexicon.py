"""Dictionary figures: word counts by length, graph build time and size, load time, memory
resident after load, look-ups per second, and anagram time for a 7-tile rack with two blanks.

    python benchmarks/bench_lexicon.py            # the shipped es and ro dictionaries
    python benchmarks/bench_lexicon.py LIST.txt   # any word list (Spanish alphabet)

Prints figures and asserts answers (every word found, known words in and out); never
asserts timings.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from tablero.alphabet import ROMANIAN, SPANISH, Alphabet
from tablero.lexicon import WordListLexicon, shipped_list_path
from tablero.lexicon.graph import GraphLexicon, build_graph_file

KNOWN = {
    "es": (
        ["CHILLAR", "CANTABAMOS", "CUPIERAN", "HUYERAIS", "LAPICES", "REGIMENES", "ÑANDU"],
        ["CANTALO", "XYZZY"],
    ),
    "ro": (["CASA", "CASELE"], ["NENEREPARATII"]),
}


LOAD_PROBE = """
import sys, time
t0 = time.perf_counter()
from tablero.lexicon.graph import GraphLexicon
t1 = time.perf_counter()
g = GraphLexicon.load(sys.argv[1])
t2 = time.perf_counter()
assert g.contains(sys.argv[2])
rss = int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
print(f"{(t2 - t1) * 1000:.1f} {rss:.0f}")
"""


def load_in_fresh_process(path: Path, word: str) -> tuple[float, float]:
    """(load ms, resident MiB) of a new interpreter that loads the graph and looks up a word."""
    out = subprocess.run(
        [sys.executable, "-c", LOAD_PROBE, str(path), word],
        capture_output=True,
        text=True,
        check=True,
    )
    ms, mib = out.stdout.split()
    return float(ms), float(mib)


def bench(path: Path, alphabet: Alphabet, name: str) -> None:
    print(f"== {name}: {path}")
    words = sorted(WordListLexicon.from_file(path, alphabet, name=name))
    lengths = Counter(len(alphabet.tokenize(w)) for w in words)
    print(f"words: {len(words):,}")
    print("by length (tiles): " + ", ".join(f"{n}:{lengths[n]:,}" for n in sorted(lengths)))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{name}.kwg"
        t = time.perf_counter()
        build_graph_file(words, alphabet, out, name, show_progress=False)
        print(f"graph build: {time.perf_counter() - t:.1f} s; file {out.stat().st_size:,} bytes")
        ms, mib = load_in_fresh_process(out, words[len(words) // 2])
        print(f"load (fresh process): {ms:.1f} ms; resident after load {mib:.0f} MiB")
        graph = GraphLexicon.load(out)
        sample = random.Random(1).sample(words, min(100_000, len(words)))
        t = time.perf_counter()
        found = sum(graph.contains(w) for w in sample)
        dt = time.perf_counter() - t
        print(f"look-ups: {len(sample) / dt:,.0f}/s")
        assert found == len(sample), "every word of the list must be found"
        assert sorted(graph.words()) == words, "the graph must list exactly the input"
        ins, outs = KNOWN.get(name, ([], []))
        assert all(graph.contains(w) for w in ins if w in set(words) or name in KNOWN), ins
        assert not any(graph.contains(w) for w in outs), outs
        rack = [*"AERST", "?", "?"]  # 7 tiles, two of them blanks
        t = time.perf_counter()
        anagrams = graph.anagrams(rack, partial=True)
        print(
            f"anagram {''.join(rack)} (7 tiles, 2 blanks, all lengths): "
            f"{(time.perf_counter() - t) * 1000:.0f} ms, {len(anagrams):,} words"
        )
        assert anagrams


def main() -> None:
    if len(sys.argv) > 1:
        bench(Path(sys.argv[1]), SPANISH, Path(sys.argv[1]).name)
        return
    for name, alphabet in (("es", SPANISH), ("ro", ROMANIAN)):
        path = shipped_list_path(name)
        if path is None:
            print(f"== {name}: no shipped list")
            continue
        bench(path, alphabet, name)


if __name__ == "__main__":
    main()
