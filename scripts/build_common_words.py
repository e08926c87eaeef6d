"""Build the lists of common words the beginner computer players know (``tablero/data/common``).

    pip install 'tablero[data]'      # wordfreq, only for this script
    python scripts/build_common_words.py [--top 30000]

For each shipped dictionary (es, ro): wordfreq's list of the language's words, most frequent
first, each folded as the game folds text (``Alphabet.normalize``: uppercase, accents dropped except
Ñ; Romanian tiles have no diacritics, so *casă* is CASA), kept if it spells tiles of the game, has
2 to 15 tiles and is in our dictionary, the first time it appears (so ``ESTÁ`` and ``ESTA``
count once, at the better rank), until ``--top`` words. One word per line in rank order; the
first line of the file is the header ``# wordfreq <version>, <language>, <count> words``.

wordfreq's data is CC BY-SA 4.0 (Robyn Speer and contributors); the lists are derived from it
and carry the same licence: ``tablero/data/common/README.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

try:
    from tablero.alphabet import ROMANIAN, SPANISH
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tablero.alphabet import ROMANIAN, SPANISH

from tablero.alphabet import Alphabet, SpellingError
from tablero.lexicon import load_lexicon

OUT = Path(__file__).resolve().parents[1] / "tablero" / "data" / "common"
LANGUAGES: dict[str, Alphabet] = {"es": SPANISH, "ro": ROMANIAN}
SOURCE_WORDS = 200_000
"""How far down wordfreq's list to read (Romanian's has about 43,000 words)."""


def common_words(language: str, alphabet: Alphabet, top: int) -> list[str]:
    from wordfreq import top_n_list

    lexicon = load_lexicon(language, alphabet)
    out: list[str] = []
    seen: set[str] = set()
    for raw in top_n_list(language, SOURCE_WORDS):
        word = alphabet.normalize(raw)
        if word in seen or not word.isalpha():
            continue
        try:
            tiles = alphabet.tokenize(word)
        except SpellingError:
            continue
        if not 2 <= len(tiles) <= 15 or not lexicon.contains(word):
            continue
        seen.add(word)
        out.append(word)
        if len(out) == top:
            break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=30_000)
    args = parser.parse_args()
    from importlib.metadata import version as package_version

    version = package_version("wordfreq")
    OUT.mkdir(parents=True, exist_ok=True)
    for language, alphabet in LANGUAGES.items():
        words = common_words(language, alphabet, args.top)
        path = OUT / f"{language}.txt"
        header = f"# wordfreq {version}, {language}, {len(words)} words"
        path.write_text(header + "\n" + "\n".join(words) + "\n", encoding="utf-8")
        print(f"{path}: {len(words)} words; the first: {' '.join(words[:12])}")


if __name__ == "__main__":
    main()
