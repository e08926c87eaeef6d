#!/usr/bin/env python3
"""What an open source would add to the shipped Spanish list, measured against FISE-2.

Issue 38 asks the shipped ``es`` closer to the federation's lexicon with words from open
sources only. This script measures a candidate before anyone builds it in: the lemmas of
simplemma's Spanish table (Wiktionary and lemmatization lists, CC BY-SA / ODbL) that the
shipped list lacks, taken with their forms when

* the lemma is attested in wordfreq's Spanish frequency list (CC BY-SA 4.0 data) at or above
  ``--bucket`` (wordfreq's centibel buckets: 600 is about once in 10^6 words, 800 once in
  10^8), and not more frequent in English by more than ``--english-margin`` buckets;
* its forms fit a Spanish noun or adjective paradigm (the lemma, its plural in -s/-es/-ces,
  the feminine of -o and of -or/-ón/-és…): no verb, no odd form;
* it has at least ``--min-tiles`` tiles (short words decide games and are measured apart).

and prints, for each setting: the lemmas and forms added, the share of the added forms that
FISE-2 accepts (its *precision*; the shipped list's own is printed first), and the lemma
recall the list would reach. FISE-2 is read only to measure, from the paths given, never a
source: ``--fise-forms`` is the word list ``tablero lexicon add fise2 LISTAS.zip`` installs
(``$TABLERO_DATA/lexicons/fise2/words.txt.xz``), ``--lemmas`` the plain lemma list.

    python3 scripts/es_open_candidates.py --wordfreq-wheel wordfreq-3.1.1-py3-none-any.whl \\
        --fise-forms ~/.local/share/tablero/lexicons/fise2/words.txt.xz --lemmas fise-2.txt

Needs ``pip install simplemma==2.0.0 msgpack`` and wordfreq's wheel (``pip download
--no-deps wordfreq``; its data files are read from the wheel, the package is not imported).
"""

from __future__ import annotations

import argparse
import gzip
import io
import lzma
import re
import sys
import unicodedata
import zipfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHIPPED = REPO / "tablero" / "data" / "lexicon" / "es.txt.xz"
LETTERS = set("abcdefghijklmnopqrstuvwxyzñáéíóúü")
VOWELS = set("aeiouáéíóú")


def fold(word: str) -> str:
    """The game's spelling: uppercase, accents and diaeresis folded, Ñ kept."""
    word = word.replace("ñ", "\0")
    word = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
    return word.replace("\0", "Ñ").upper()


def tiles(word: str) -> int:
    """Tiles of a folded word, CH, LL and RR one each."""
    count = i = 0
    while i < len(word):
        i += 2 if word[i : i + 2] in ("CH", "LL", "RR") else 1
        count += 1
    return count


def wordfreq_buckets(wheel: Path, language: str) -> dict[str, int]:
    """word → its wordfreq bucket (0 the most frequent), from the wheel's data file."""
    import msgpack

    with zipfile.ZipFile(wheel) as z:
        data = z.read(f"wordfreq/data/large_{language}.msgpack.gz")
    buckets = msgpack.unpackb(gzip.GzipFile(fileobj=io.BytesIO(data)).read(), raw=False)
    out: dict[str, int] = {}
    for number, words in enumerate(buckets[1:]):  # the first item is a header
        for word in words:
            out.setdefault(word, number)
    return out


def nominal_paradigm(lemma: str, forms: set[str]) -> bool:
    """Whether every form is the lemma, its plural or its feminine (a noun or adjective)."""
    allowed = {lemma, lemma + "s", lemma + "es"}
    plain = fold(lemma).lower()
    if lemma.endswith("o"):
        allowed |= {lemma[:-1] + "a", lemma[:-1] + "os", lemma[:-1] + "as"}
    if lemma.endswith("z"):
        allowed.add(lemma[:-1] + "ces")
    if re.search(r"(ón|án|és|ín|ún)$", lemma):
        allowed |= {plain + "es", plain + "a", plain + "as"}
    if re.search(r"(or|ol|al|il|el|ar|er)$", lemma):
        allowed |= {lemma + "a", lemma + "as"}
    folded = {fold(a) for a in allowed}
    return all(fold(f) in folded for f in forms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordfreq-wheel", type=Path, required=True)
    parser.add_argument("--fise-forms", type=Path, required=True)
    parser.add_argument("--lemmas", type=Path, required=True)
    parser.add_argument("--bucket", type=int, nargs="*", default=[650, 700, 750, 800])
    parser.add_argument("--english-margin", type=int, default=0)
    parser.add_argument("--min-tiles", type=int, default=4)
    args = parser.parse_args()

    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    shipped = set(lzma.decompress(SHIPPED.read_bytes()).decode("utf-8").split())
    raw = args.fise_forms.read_bytes()
    fise = set((lzma.decompress(raw) if args.fise_forms.suffix == ".xz" else raw).decode().split())
    lemmas = [w for w in args.lemmas.read_text("utf-8").split() if "k" not in w and "w" not in w]
    missing = {fold(w) for w in lemmas if fold(w) not in shipped}
    spanish = wordfreq_buckets(args.wordfreq_wheel, "es")
    english = wordfreq_buckets(args.wordfreq_wheel, "en")
    table = DefaultDictionaryFactory().get_dictionary("es")
    paradigms: dict[str, set[str]] = defaultdict(set)
    for form, lemma in table.items():
        paradigms[lemma].add(form)

    share = len(shipped & fise) / len(shipped)
    recall_now = (len(lemmas) - len(missing)) / len(lemmas)
    print(
        f"shipped es: {len(shipped):,} words, FISE-2 accepts {share:.3f}; "
        f"lemma recall {recall_now:.4f}"
    )
    for bucket in args.bucket:
        added: set[str] = set()
        taken = 0
        for lemma, forms in paradigms.items():
            if not lemma or not set(lemma) <= LETTERS or not set(lemma) & VOWELS:
                continue
            if "k" in lemma or "w" in lemma:
                continue
            folded = fold(lemma)
            if folded in shipped or tiles(folded) < args.min_tiles:
                continue
            rank = spanish.get(lemma, 10**6)
            if rank > bucket or english.get(lemma, 10**6) + args.english_margin < rank:
                continue
            good = {f for f in forms | {lemma} if f and set(f) <= LETTERS}
            if not nominal_paradigm(lemma, good):
                continue
            taken += 1
            added |= {w for f in good if (w := fold(f)) not in shipped and 2 <= tiles(w) <= 15}
        gain = len(added & missing)
        precision = len(added & fise) / max(1, len(added))
        recall = (len(lemmas) - len(missing) + gain) / len(lemmas)
        print(
            f"bucket <= {bucket}: {taken:,} lemmas, {len(added):,} forms added, FISE-2 accepts "
            f"{precision:.3f} of them; lemma recall {recall:.4f} (+{gain:,})"
        )


if __name__ == "__main__":
    sys.exit(main())
