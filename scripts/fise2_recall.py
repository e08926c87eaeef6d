#!/usr/bin/env python3
"""Measure a Spanish dictionary against the federation's FISE-2 lists.

Reads the FISE-2 distribution (the zip "LEXICÓN FISE 2 - LISTAS" or its folder) from the path
given, never from the repository, and prints for each dictionary measured:

* lemma recall: the share of the FISE-2 lemmas (the plain list given with ``--lemmas``, one
  lemma a line; else the distribution's own lemmas: every non-verb and every infinitive) that
  the dictionary accepts, overall and by length in tiles (K/W lemmas and lemmas over 15
  tiles left out, as the game cannot play them);
* two- and three-tile recall and precision against the distribution's complete lists of them;
* for the dictionary built from the distribution, every lemma it refuses, sorted into the
  updates' removals (words FISE-2 took out: a plain list that still holds them is older than
  the lists) and the rest.

Dictionaries measured: the shipped ``es`` always; ``--installed NAME`` an installed one;
``--build`` the dictionary ``tablero lexicon add`` would build from the distribution, built
here in memory. ``--markdown`` prints the tables for ``docs/wordlists.md``.

    python3 scripts/fise2_recall.py PATH/TO/LISTAS.zip --lemmas fise-2.txt --build
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tablero.alphabet import Alphabet, SpellingError, alphabet_by_name  # noqa: E402
from tablero.lexicon import Lexicon, load_lexicon  # noqa: E402
from tablero.lexicon.fise.build import build_forms  # noqa: E402
from tablero.lexicon.fise.conjugation import parse_verb_line  # noqa: E402
from tablero.lexicon.fise.distribution import Distribution, read_distribution  # noqa: E402

LENGTH_BANDS = ((2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9), (10, 15))


def tiles_of(word: str, alphabet: Alphabet) -> int | None:
    """How many tiles a lemma takes, None for one the game cannot play (K, W, > 15)."""
    if "k" in word.lower() or "w" in word.lower():
        return None
    try:
        n = len(alphabet.tokenize(word))
    except SpellingError:
        return None
    return n if 2 <= n <= 15 else None


def distribution_lemmas(d: Distribution) -> set[str]:
    lemmas = {form for entry in d.non_verbs for form in entry.forms}
    for conjugation, _number, line in d.verb_lines:
        lemmas.add(parse_verb_line(line, conjugation).infinitive)
    return lemmas


class Judge:
    """A dictionary's accept test over folded spellings."""

    def __init__(self, name: str, accepts: Lexicon | set[str], alphabet: Alphabet) -> None:
        self.name = name
        self.accepts = accepts
        self.alphabet = alphabet

    def __call__(self, word: str) -> bool:
        folded = "".join(self.alphabet.tokenize(word))
        if isinstance(self.accepts, set):
            return folded in self.accepts
        return self.accepts.contains(folded)


def lemma_recall(
    judge: Judge, lemmas: dict[str, int]
) -> tuple[dict[str, tuple[int, int]], set[str]]:
    """{band: (accepted, total)} with "all", and the refused lemmas."""
    by_band: Counter[str] = Counter()
    ok: Counter[str] = Counter()
    refused = set()
    for lemma, n in lemmas.items():
        band = next(f"{lo}" if lo == hi else f"{lo}+" for lo, hi in LENGTH_BANDS if lo <= n <= hi)
        by_band[band] += 1
        by_band["all"] += 1
        if judge(lemma):
            ok[band] += 1
            ok["all"] += 1
        else:
            refused.add(lemma)
    return {b: (ok[b], by_band[b]) for b in by_band}, refused


def short_figures(
    judge: Judge, official: set[str], words_of_length: set[str]
) -> tuple[int, int, int]:
    """(official accepted, official total, dictionary's words of that length in the list)."""
    accepted = sum(1 for w in official if judge(w))
    return accepted, len(official), len(words_of_length & official)


def words_with_tiles(lexicon: Lexicon | set[str], alphabet: Alphabet, n: int) -> set[str]:
    words = lexicon if isinstance(lexicon, set) else set(lexicon.words())  # type: ignore[attr-defined]
    return {w for w in words if len(alphabet.tokenize(w)) == n}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("distribution", type=Path, help="The FISE-2 zip or its folder.")
    parser.add_argument("--lemmas", type=Path, help="A plain list of FISE-2 lemmas.")
    parser.add_argument("--installed", help="Also measure this installed dictionary.")
    parser.add_argument("--build", action="store_true", help="Also measure a fresh build.")
    parser.add_argument("--markdown", action="store_true", help="Tables for the docs.")
    args = parser.parse_args()

    alphabet = alphabet_by_name("es")
    d = read_distribution(args.distribution)
    if args.lemmas:
        raw = args.lemmas.read_text("utf-8").split()
        source = f"{args.lemmas.name} ({len(raw):,} lemmas)"
    else:
        raw = sorted(distribution_lemmas(d))
        source = f"the distribution's lemmas ({len(raw):,})"
    lemmas = {w: n for w in raw if (n := tiles_of(w, alphabet)) is not None}
    short = {
        2: {"".join(alphabet.tokenize(w)) for w in d.two_tiles},
        3: {"".join(alphabet.tokenize(w)) for w in d.three_tiles},
    }

    judges: list[tuple[Judge, Lexicon | set[str]]] = []
    es = load_lexicon("es", alphabet)
    judges.append((Judge("es (shipped)", es, alphabet), es))
    if args.installed:
        lex = load_lexicon(args.installed, alphabet)
        judges.append((Judge(args.installed, lex, alphabet), lex))
    built_refused: set[str] | None = None
    if args.build:
        started = time.perf_counter()
        built = build_forms(d, alphabet)
        words = set(built.words)
        print(
            f"built {len(words):,} forms in {time.perf_counter() - started:.1f} s", file=sys.stderr
        )
        judges.append((Judge("built from the distribution", words, alphabet), words))

    commit = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    print(
        f"FISE-2 lemmas: {source}, {len(lemmas):,} playable; {time.strftime('%Y-%m-%d')}, {commit}"
    )
    bands = ["all"] + [f"{lo}" if lo == hi else f"{lo}+" for lo, hi in LENGTH_BANDS]
    rows = []
    for judge, lexicon in judges:
        recall, refused = lemma_recall(judge, lemmas)
        two = short_figures(judge, short[2], words_with_tiles(lexicon, alphabet, 2))
        three = short_figures(judge, short[3], words_with_tiles(lexicon, alphabet, 3))
        n2 = len(words_with_tiles(lexicon, alphabet, 2))
        n3 = len(words_with_tiles(lexicon, alphabet, 3))
        rows.append((judge.name, recall, two, three, n2, n3))
        if judge.name.startswith("built") or judge.name == args.installed:
            built_refused = refused

    if args.markdown:
        print("| dictionary | " + " | ".join(f"lemmas {b}" for b in bands) + " |")
        print("|---|" + "---:|" * len(bands))
        for name, recall, *_ in rows:
            cells = [f"{recall[b][0] / recall[b][1]:.3f}" if b in recall else "–" for b in bands]
            print(f"| {name} | " + " | ".join(cells) + " |")
        print()
        print(
            "| dictionary | 2-tile recall | 2-tile precision | 3-tile recall | 3-tile precision |"
        )
        print("|---|---:|---:|---:|---:|")
        for name, _recall, two, three, n2, n3 in rows:
            print(
                f"| {name} | {two[0]}/{two[1]} = {two[0] / two[1]:.3f} | "
                f"{two[2]}/{n2} = {two[2] / max(n2, 1):.3f} | "
                f"{three[0]}/{three[1]} = {three[0] / three[1]:.3f} | "
                f"{three[2]}/{n3} = {three[2] / max(n3, 1):.3f} |"
            )
    else:
        for name, recall, two, three, n2, n3 in rows:
            print(f"\n{name}")
            for b in bands:
                if b in recall:
                    ok, total = recall[b]
                    print(f"  lemmas {b:>4} tiles: {ok / total:.4f} ({ok:,} / {total:,})")
            print(f"  2 tiles: recall {two[0]}/{two[1]}, precision {two[2]}/{n2}")
            print(f"  3 tiles: recall {three[0]}/{three[1]}, precision {three[2]}/{n3}")
            refused_short = sorted(
                w for w in short[3] if not Judge(name, _lexicon_of(judges, name), alphabet)(w)
            )
            if refused_short:
                print(
                    f"  3-tile words refused ({len(refused_short)}): {' '.join(refused_short[:80])}"
                )
    if built_refused is not None:
        removed = d.non_verb_updates.removed | d.removed_verbs
        removed_plurals = d.non_verb_updates.removed_plurals
        by_update = sorted(w for w in built_refused if w in removed)
        plurals = sorted(w for w in built_refused if w in removed_plurals and w not in removed)
        rest = sorted(w for w in built_refused if w not in removed | removed_plurals)
        kept = len(lemmas) - len(by_update) - len(plurals)
        print(f"\nrefused lemmas: {len(built_refused):,}")
        print(f"  removed by the FISE-2 update ({len(by_update):,}): {' '.join(by_update[:40])} …")
        print(f"  plurals the update removed ({len(plurals):,}): {' '.join(plurals)}")
        print(f"  others ({len(rest):,}): {' '.join(rest[:200])}")
        print(
            f"  recall of the lemmas the update kept: {(kept - len(rest)) / kept:.4f}"
            f" ({kept - len(rest):,} / {kept:,})"
        )


def _lexicon_of(judges: list[tuple[Judge, Lexicon | set[str]]], name: str) -> Lexicon | set[str]:
    return next(lex for judge, lex in judges if judge.name == name)


if __name__ == "__main__":
    main()
