"""Real words, fewer of them: graph lexicons that build in a second, for games in tests.

Self-play tests need a dictionary per language that the native generator can walk (a word
graph) and that plays like the real one. Building the full shipped graphs costs 12 s each in
the tests' empty cache, so these take every word of up to three letters (the short words that
keep a game going) and a regular sample of the longer ones from the shipped lists, and build
the KWG in memory. The words are real; only the vocabulary is smaller.
"""

from __future__ import annotations

import json
import lzma
from dataclasses import asdict
from functools import cache
from pathlib import Path

from tablero.alphabet import ROMANIAN, SPANISH, Alphabet
from tablero.lexicon import LexiconInfo, shipped_list_path
from tablero.lexicon.graph import GRAPH_FORMAT, GraphLexicon
from tablero.lexicon.kwg import build_kwg


def save_graph(lexicon: GraphLexicon, path: Path) -> Path:
    """Write a graph with the ``.kwg.json`` sidecar that ``load_lexicon(path)`` reads."""
    lexicon.kwg.save(path)
    meta = asdict(lexicon.info()) | {"alphabet": lexicon.alphabet.name, "format": GRAPH_FORMAT}
    path.with_name(path.name + ".json").write_text(json.dumps(meta), "utf-8")
    return path


@cache
def small_graph(language: str, every: int = 12) -> GraphLexicon:
    """The shipped ``es`` or ``ro`` list: all words of 2–3 tiles, then every ``every``-th."""
    alphabet: Alphabet = {"es": SPANISH, "ro": ROMANIAN}[language]
    path = shipped_list_path(language)
    assert path is not None, f"the {language} word list ships with the package"
    words = lzma.decompress(path.read_bytes()).decode("utf-8").split()
    chosen = []
    for i, w in enumerate(words):
        sampled = i % every == 0
        if not sampled and len(w) > 6:  # more than three tiles even with digraphs
            continue
        codes = alphabet.encode(w)
        if 2 <= len(codes) <= 3 or (sampled and len(codes) <= 15):
            chosen.append(codes)
    kwg = build_kwg(chosen)
    info = LexiconInfo(f"{language}-sample", "test", len(chosen), f"sample-{every}")
    return GraphLexicon(kwg, alphabet, info)
