"""Benchmark of the KWG builder and reader on the shared Spanish word list.

Prints build time, peak memory, node count, file size, load time and ``contains()`` look-ups
per second, and checks the answers (every word is found, near misses are not, ``words()`` gives
back exactly the input, the GADDAG holds exactly every word's forms, bytes round-trip).  No
timing is asserted: the figures depend on the machine.

    python benchmarks/bench_kwg.py [--words PATH] [--limit N] [--no-gaddag-check]

Tiles for the benchmark are A..Z = 1..26 and Ñ = 27; the real alphabets (with the CH, LL, RR
digraphs) live elsewhere, and the KWG code only ever sees integers.
"""

from __future__ import annotations

import argparse
import lzma
import resource
import sys
import tempfile
import time
from pathlib import Path

try:
    from tablero.lexicon.kwg import SEPARATOR, Kwg, build_kwg
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tablero.lexicon.kwg import SEPARATOR, Kwg, build_kwg

DEFAULT_WORDS = Path("/work/shared/bench/es_words.txt.xz")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÑ"
TILE_OF = {letter: i + 1 for i, letter in enumerate(LETTERS)}


def read_words(path: Path, limit: int | None) -> list[tuple[int, ...]]:
    """The word list as tile tuples (``.xz`` or plain text, one uppercase word per line)."""
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    words = [tuple(TILE_OF[c] for c in line) for line in lines if line]
    return words[:limit] if limit else words


def peak_rss_mib() -> float:
    """Peak resident set size of this process so far (ru_maxrss is KiB on Linux, B on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def check_gaddag(kwg: Kwg, lexicon: set[tuple[int, ...]]) -> int:
    """Stream the GADDAG and prove it holds exactly the forms of every word, each once.

    Paths arrive in strictly increasing order (sorted sibling lists), so they are distinct;
    each must decode to a word of the lexicon; and their number must equal the number of forms
    (a word of length n has n forms and no two words share one).  Together: equal sets.
    """
    count = 0
    previous: tuple[int, ...] = ()
    for path in kwg.gaddag_paths():
        assert path > previous, f"GADDAG paths out of order or repeated at {path}"
        previous = path
        if SEPARATOR in path:
            cut = path.index(SEPARATOR)
            assert 0 < cut < len(path) - 1, f"misplaced separator in {path}"
            assert SEPARATOR not in path[cut + 1 :], f"two separators in {path}"
            word = path[cut - 1 :: -1] + path[cut + 1 :]
        else:
            word = path[::-1]
        assert word in lexicon, f"GADDAG path {path} is not a form of any word"
        count += 1
    expected = sum(len(w) for w in lexicon)
    assert count == expected, f"GADDAG has {count} paths, expected {expected}"
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=Path, default=DEFAULT_WORDS)
    parser.add_argument("--limit", type=int, default=None, help="use only the first N words")
    parser.add_argument("--no-gaddag-check", action="store_true")
    args = parser.parse_args()

    words = read_words(args.words, args.limit)
    lexicon = set(words)
    print(f"words: {len(words):,} ({len(lexicon):,} distinct) from {args.words}")
    base_rss = peak_rss_mib()

    t0 = time.perf_counter()
    kwg = build_kwg(words)
    build_s = time.perf_counter() - t0
    build_rss = peak_rss_mib()
    data = kwg.to_bytes()
    print(
        f"build (DAWG+GADDAG): {build_s:.2f} s, peak RSS {build_rss:,.0f} MiB "
        f"(before build {base_rss:,.0f} MiB)"
    )
    print(f"nodes: {len(kwg):,}  file: {len(data):,} bytes ({len(data) / 2**20:.2f} MiB)")

    t0 = time.perf_counter()
    dawg_only = build_kwg(words, gaddag=False)
    print(f"build (DAWG only): {time.perf_counter() - t0:.2f} s, {len(dawg_only):,} nodes")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "es.kwg"
        kwg.save(path)
        t0 = time.perf_counter()
        loaded = Kwg.load(path)
        load_s = time.perf_counter() - t0
    assert loaded.to_bytes() == data, "save/load changed the bytes"
    print(f"load (read + validate): {load_s * 1000:.1f} ms")

    t0 = time.perf_counter()
    found = sum(1 for w in words if loaded.contains(w))
    hit_s = time.perf_counter() - t0
    assert found == len(words), f"only {found} of {len(words)} words found"
    # Near misses: each word with its last tile bumped; count them against the lexicon.
    misses = [(*w[:-1], w[-1] % len(LETTERS) + 1) for w in words]
    t0 = time.perf_counter()
    hits = sum(1 for w in misses if loaded.contains(w))
    miss_s = time.perf_counter() - t0
    assert hits == sum(1 for w in misses if w in lexicon), "contains() wrong on near misses"
    print(
        f"contains(): {len(words) / hit_s:,.0f} look-ups/s on words, "
        f"{len(misses) / miss_s:,.0f} look-ups/s on near misses"
    )

    t0 = time.perf_counter()
    listed = list(loaded.words())
    assert listed == sorted(lexicon), "words() does not give back exactly the input"
    assert list(dawg_only.words()) == listed, "DAWG-only build disagrees"
    print(f"words(): {len(listed):,} words in {time.perf_counter() - t0:.2f} s, exact match")

    if not args.no_gaddag_check:
        t0 = time.perf_counter()
        paths = check_gaddag(loaded, lexicon)
        print(f"GADDAG: {paths:,} paths verified in {time.perf_counter() - t0:.2f} s")
    print(f"peak RSS at end: {peak_rss_mib():,.0f} MiB")


if __name__ == "__main__":
    main()
