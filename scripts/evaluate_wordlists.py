#!/usr/bin/env python3
"""Measure the shipped Spanish list against an independent open dictionary.

The official FISE-2 lists are not available here, so recall against them cannot be
measured.  As a stand-in, the ispell/aspell Spanish dictionary of Santiago Rodríguez and
Jesús Carretero (Debian ``aspell-es``, the same word list as ``ispanish``) is expanded by
aspell itself, and two figures are computed:

* verb recall: the share of its infinitives (entries in -ar/-er/-ir/-ír whose expansion
  has a gerund) that our list contains;
* 3-tile recall and precision: our 3-tile words against its 3-tile words.

Usage (from the repository root; needs ``apt-get install aspell-es``)::

    python scripts/evaluate_wordlists.py --before REV

``REV`` is the git revision holding the list before a rebuild; the working-tree list is
"after".  The figures replace the evaluation section of ``docs/wordlists.md``.
"""

from __future__ import annotations

import argparse
import lzma
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_wordlists import DOCS, OUT_DIR, REPO, es_normalise, es_tiles

BEGIN = "<!-- BEGIN GENERATED EVALUATION (scripts/evaluate_wordlists.py) -->"
END = "<!-- END GENERATED EVALUATION -->"
LIST_PATH = "tablero/data/lexicon/es.txt.xz"
GERUND = re.compile(r"(ando|iendo|yendo)$")
INFINITIVE = re.compile(r"[a-zñü]+(ar|er|ir|ír)")


@dataclass(frozen=True)
class Reference:
    """What the independent dictionary says: its infinitives and its 3-tile words."""

    infinitives: frozenset[str]
    three_tiles: frozenset[str]
    version: str


def aspell_expansion() -> list[list[str]]:
    """``aspell -d es dump master | aspell -l es expand``: one line per entry, root first."""
    dump = subprocess.run(
        ["aspell", "-d", "es", "dump", "master"], capture_output=True, check=True
    ).stdout
    expanded = subprocess.run(
        ["aspell", "-l", "es", "expand"], input=dump, capture_output=True, check=True
    ).stdout
    return [line.split() for line in expanded.decode("utf-8").splitlines() if line.strip()]


def build_reference(lines: list[list[str]], version: str) -> Reference:
    """Infinitives and 3-tile words of the lowercase (common-word) entries."""
    infinitives = set()
    three = set()
    for forms in lines:
        root = forms[0]
        if root != root.lower() or "." in root:
            continue
        if INFINITIVE.fullmatch(root) and any(GERUND.search(f) for f in forms[1:]):
            infinitives.add(es_normalise(root))
        for form in forms:
            word = es_normalise(form)
            if word is not None and es_tiles(word) == 3:
                three.add(word)
    return Reference(frozenset(i for i in infinitives if i), frozenset(three), version)


def read_list(data: bytes) -> frozenset[str]:
    """A shipped list (xz) as a set."""
    return frozenset(lzma.decompress(data).decode("utf-8").split())


def list_at(rev: str | None) -> frozenset[str]:
    """The list at a git revision, or in the working tree when ``rev`` is None."""
    if rev is None:
        return read_list((OUT_DIR / "es.txt.xz").read_bytes())
    shown = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{rev}:{LIST_PATH}"], capture_output=True, check=True
    )
    return read_list(shown.stdout)


def measure(words: frozenset[str], ref: Reference) -> dict[str, str]:
    """Verb recall, 3-tile recall and precision (with the counts behind them)."""
    ours3 = {w for w in words if es_tiles(w) == 3}
    verbs = len(ref.infinitives & words)
    both = len(ref.three_tiles & ours3)
    return {
        "verb recall": _ratio(verbs, len(ref.infinitives)),
        "3-tile recall": _ratio(both, len(ref.three_tiles)),
        "3-tile precision": _ratio(both, len(ours3)),
    }


def _ratio(part: int, whole: int) -> str:
    """``93.1 % (1,234 / 1,325)``."""
    return f"{100.0 * part / whole:.1f} % ({part:,} / {whole:,})" if whole else "n/a"


def report_lines(
    ref: Reference, before: dict[str, str], after: dict[str, str], rev: str
) -> list[str]:
    """The markdown section."""
    lines = [
        f"Reference: Debian `aspell-es` {ref.version} (Rodríguez–Carretero), expanded by aspell; "
        f"{len(ref.infinitives):,} infinitives, {len(ref.three_tiles):,} 3-tile words. "
        f"Command: `python scripts/evaluate_wordlists.py --before {rev}`.",
        "",
        f"| figure | before (`{rev}`) | after |",
        "|---|---:|---:|",
    ]
    lines += [f"| {name} | {before[name]} | {after[name]} |" for name in before]
    return lines


def update_docs(lines: list[str]) -> None:
    """Replace the evaluation section of docs/wordlists.md between its markers."""
    text = DOCS.read_text("utf-8")
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"markers not found in {DOCS}")
    body = "\n".join([BEGIN, "", *lines, "", END])
    DOCS.write_text(text[:start] + body + text[end + len(END) :], "utf-8")


def package_version(package: str) -> str:
    """Installed Debian version of the reference dictionary."""
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    """Compute the figures before and after, print them and write them to the docs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="HEAD", help="git revision of the earlier list")
    parser.add_argument("--no-docs", action="store_true", help="print only")
    args = parser.parse_args(argv)
    ref = build_reference(aspell_expansion(), package_version("aspell-es"))
    before = measure(list_at(args.before), ref)
    after = measure(list_at(None), ref)
    lines = report_lines(ref, before, after, args.before)
    print("\n".join(lines))
    if not args.no_docs:
        update_docs(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
