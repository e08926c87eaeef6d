"""A lexicon backed by a KWG word graph: loads in milliseconds, keeps no word set in memory.

Word lists are what people edit and ship; the graph is what programs use. The first time a
list is used its graph is built (with a progress bar) and cached under ``cache_dir()``, keyed
by the list's checksum, so later runs map the cached file instead of rebuilding it. Each
``.kwg`` file has a sidecar ``.kwg.json`` with the lexicon's name, version, word count,
checksum, alphabet and letter table (which tile code is which letter; see ``letters.py``), so
a game can record exactly which dictionary judged it, and a graph numbered by another engine's
table reads as the same words here.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict
from pathlib import Path

from ..alphabet import Alphabet, SpellingError, alphabet_by_name
from . import Lexicon, LexiconError, LexiconInfo
from .kwg import Kwg, build_kwg
from .letters import LetterTable, LetterTableError, letter_table, remap_nodes

__all__ = [
    "GraphLexicon",
    "build_graph_file",
    "cache_dir",
    "graph_for_word_list",
    "import_graph_file",
    "word_list_checksum",
]

GRAPH_FORMAT = 1
"""Bumped when the way we build graphs changes, so old cache files are not reused."""


ANNOUNCED_BUILD_WORDS = 50_000
"""Lists from this size up take a second or more to build, so the build says it is running
(a spinner on a terminal, a line in a log); smaller ones build before anyone would wonder."""


def cache_dir() -> Path:
    """Where built graphs are kept: $TABLERO_CACHE, else $XDG_CACHE_HOME/tablero, else ~/.cache."""
    if env := os.environ.get("TABLERO_CACHE"):
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tablero"


class GraphLexicon(Lexicon):
    """Look-ups, prefixes, anagrams and patterns over the DAWG half of a KWG."""

    def __init__(self, kwg: Kwg, alphabet: Alphabet, info: LexiconInfo) -> None:
        self.kwg = kwg
        self.alphabet = alphabet
        self._info = info

    @classmethod
    def load(cls, path: str | Path, alphabet: Alphabet | None = None) -> GraphLexicon:
        """A ``.kwg`` file with its ``.kwg.json`` sidecar (one read; no rebuild).

        The alphabet is the one the sidecar names unless given (a rule file's own alphabet has
        no shipped file to name). A graph numbered by another table than the alphabet's
        (``letters`` in the sidecar) is renumbered once, in memory, so that look-ups and move
        generation see our codes.
        """
        p = Path(path)
        meta_path = p.with_name(p.name + ".json")
        if not meta_path.is_file() and p.is_file():
            raise LexiconError(
                f"{p} has no {meta_path.name} saying which letter each tile code is; "
                f"describe it once with: tablero lexicon import {p} --letters TABLE"
            )
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
            if alphabet is None or alphabet.name != meta["alphabet"]:
                alphabet = alphabet_by_name(meta["alphabet"])
            info = LexiconInfo(meta["name"], meta["version"], meta["word_count"], meta["checksum"])
            labels = meta.get("letters")
            table = letter_table(labels) if labels else LetterTable.of(alphabet)
        except (OSError, KeyError, ValueError) as e:
            raise LexiconError(f"{meta_path}: cannot read the graph's description ({e})") from None
        try:
            kwg = Kwg.load(p)
        except (OSError, ValueError) as e:
            raise LexiconError(f"{p}: not a readable KWG word graph ({e})") from None
        if table.labels != alphabet.letters:
            try:
                kwg = Kwg(remap_nodes(kwg.nodes, table.codes_to(alphabet)))
            except (LetterTableError, ValueError) as e:
                raise LexiconError(f"{p}: {e}") from None
        return cls(kwg, alphabet, info)

    def info(self) -> LexiconInfo:
        return self._info

    def __len__(self) -> int:
        return self._info.word_count

    # -- look-ups -------------------------------------------------------------------------------

    def contains(self, word: str) -> bool:
        try:
            codes = self.alphabet.encode(word)
        except SpellingError:
            return False
        return self.kwg.contains(codes)

    def is_word(self, codes: bytes) -> bool:
        return self.kwg.contains(codes)

    def has_prefix(self, codes: bytes) -> bool:
        """Whether some word starts with these tiles."""
        kwg = self.kwg
        siblings = kwg.dawg_root
        for tile in codes:
            node = kwg.child(siblings, tile)
            if not node:
                return False
            siblings = kwg.arc_index(node)
        return True

    def words(self) -> Iterator[str]:
        """Every word, in alphabetical (tile) order."""
        for codes in self.kwg.words():
            yield self.alphabet.decode(codes)

    # -- anagrams and patterns -----------------------------------------------------------------

    def anagrams(self, tiles: Iterable[str], *, partial: bool = False) -> list[str]:
        """Words made of exactly these tiles (``?`` stands for any letter); with ``partial``,
        words made of any of them (what a rack can spell)."""
        counts: Counter[int] = Counter()
        for t in tiles:
            counts[0 if t == "?" else self.alphabet.code(t)] += 1
        need = sum(counts.values())
        found: list[str] = []
        path: list[int] = []
        kwg = self.kwg

        def walk(siblings: int) -> None:
            for tile, node in kwg.children(siblings):
                use = tile if counts[tile] > 0 else (0 if counts[0] > 0 else -1)
                if use < 0:
                    continue
                counts[use] -= 1
                path.append(tile)
                if kwg.accepts(node) and (partial or len(path) == need) and len(path) >= 2:
                    found.append(self.alphabet.decode(path))
                if len(path) < need:
                    walk(kwg.arc_index(node))
                path.pop()
                counts[use] += 1

        walk(kwg.dawg_root)
        return sorted(set(found), key=lambda w: (-len(self.alphabet.tokenize(w)), w))

    def pattern(self, tokens: list[str]) -> list[str]:
        """Words matching a pattern: a letter matches itself, ``?`` any one letter, ``*`` any
        run of letters (also none): ``CA??``, ``*CION``."""
        kwg = self.kwg
        codes = [t if t in ("?", "*") else self.alphabet.code(t) for t in tokens]
        found: list[str] = []
        path: list[int] = []

        def walk(siblings: int, i: int) -> None:
            if i < len(codes) and codes[i] == "*":
                walk(siblings, i + 1)  # the star matches nothing more
            for tile, node in kwg.children(siblings):
                if i >= len(codes):
                    return
                want = codes[i]
                if want == "*":
                    path.append(tile)
                    if kwg.accepts(node) and i == len(codes) - 1:
                        found.append(self.alphabet.decode(path))
                    walk(kwg.arc_index(node), i)
                    path.pop()
                    continue
                if want != "?" and want != tile:
                    continue
                path.append(tile)
                if kwg.accepts(node) and _rest_can_be_empty(codes, i + 1):
                    found.append(self.alphabet.decode(path))
                walk(kwg.arc_index(node), i + 1)
                path.pop()

        walk(kwg.dawg_root, 0)
        return sorted(set(found))


def _rest_can_be_empty(codes: list[int | str], i: int) -> bool:
    return all(c == "*" for c in codes[i:])


# -- building and caching ---------------------------------------------------------------------


def word_list_checksum(words: Iterable[str]) -> str:
    """sha256 of the sorted words, one per line: the same list gives the same sum anywhere."""
    return hashlib.sha256("".join(w + "\n" for w in sorted(words)).encode("utf-8")).hexdigest()


def build_graph_file(
    words: list[str],
    alphabet: Alphabet,
    out: Path,
    name: str,
    version: str = "",
    show_progress: bool = True,
    letters: LetterTable | None = None,
) -> GraphLexicon:
    """Build the KWG of a word list and write it with its sidecar, atomically.

    ``letters`` numbers the file's tiles by another engine's table; words spelled with a
    letter that table lacks (K and W for ``fise``) cannot be stored and are left out, so
    the returned lexicon's word count says how many went in.
    """
    table = letters or LetterTable.of(alphabet)
    if table.labels != alphabet.letters:
        mapping = table.codes_from(alphabet)
        pairs = [(w, alphabet.encode(w)) for w in words]
        kept = [(w, codes) for w, codes in pairs if all(c in mapping for c in codes)]
        words = [w for w, _ in kept]
        encoded = [bytes(mapping[c] for c in codes) for _, codes in kept]
    else:
        encoded = [alphabet.encode(w) for w in words]
    checksum = word_list_checksum(words)
    if show_progress and len(words) >= ANNOUNCED_BUILD_WORDS:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        console = Console(stderr=True)  # stderr: stdout may be a command's JSON
        what = f"building the {name} word graph ({len(words):,} words)"
        if not console.is_terminal:  # a log: one line, not a bar's leftovers
            console.print(f"{what}…", highlight=False)
        with Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            transient=True,
            console=console,
            disable=not console.is_terminal,
        ) as progress:
            progress.add_task(what, total=None)
            kwg = build_kwg(encoded)
    else:
        kwg = build_kwg(encoded)
    info = LexiconInfo(name, version, len(words), checksum)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(out, kwg.to_bytes())
    _write_sidecar(out, info, alphabet, table)
    if table.labels != alphabet.letters:
        kwg = Kwg(remap_nodes(kwg.nodes, table.codes_to(alphabet)))
    return GraphLexicon(kwg, alphabet, info)


def import_graph_file(
    path: Path, alphabet: Alphabet, letters: LetterTable, name: str, version: str = ""
) -> GraphLexicon:
    """Describe a KWG made elsewhere: write its sidecar, with the table that numbers its tiles.

    The words are read back through the table to count them and to compute the same checksum
    a build from the plain list would record, so a game records which dictionary it used
    whichever engine built the file.
    """
    try:
        kwg = Kwg.load(path)
        ours = Kwg(remap_nodes(kwg.nodes, letters.codes_to(alphabet)))
    except (OSError, ValueError) as e:
        raise LexiconError(f"{path}: {e}") from None
    words = [alphabet.decode(bytes(codes)) for codes in ours.words()]
    info = LexiconInfo(name, version, len(words), word_list_checksum(words))
    _write_sidecar(path, info, alphabet, letters)
    return GraphLexicon(ours, alphabet, info)


def _write_sidecar(out: Path, info: LexiconInfo, alphabet: Alphabet, table: LetterTable) -> None:
    meta = asdict(info) | {
        "alphabet": alphabet.name,
        "letter_table": table.name,
        "letters": list(table.labels),
        "format": GRAPH_FORMAT,
    }
    data = json.dumps(meta, indent=1, ensure_ascii=False).encode("utf-8")
    atomic_write(out.with_name(out.name + ".json"), data)


def spelling_key(alphabet: Alphabet) -> str:
    """How an alphabet turns words into tiles (letters, kept accents, folds), for the names
    of cached graphs: the same list spelled otherwise is another graph."""
    return repr((alphabet.letters, sorted(alphabet.keep), alphabet.folds))


def load_cached_graph(path: Path, alphabet: Alphabet) -> GraphLexicon | None:
    """A graph built before, if its file and sidecar are there and read whole; None for a
    missing or damaged one (the caller builds it again)."""
    if not (path.is_file() and path.with_name(path.name + ".json").is_file()):
        return None
    try:
        return GraphLexicon.load(path, alphabet)
    except LexiconError:
        return None


def graph_file_name(path: Path, alphabet: Alphabet, name: str) -> str:
    """The file name of a word list's graph: its name, alphabet, a digest of the list's bytes
    and of how the alphabet spells (its letters and folds), and the graph format, so that a
    file built from another list, for other tiles or in another format is never taken for it."""
    digest = hashlib.sha256(path.read_bytes())
    digest.update(spelling_key(alphabet).encode())
    return f"{name}-{alphabet.name}-{digest.hexdigest()[:16]}-g{GRAPH_FORMAT}.kwg"


def graph_for_word_list(
    path: Path,
    alphabet: Alphabet,
    name: str,
    version: str = "",
    show_progress: bool = True,
    target: Path | None = None,
) -> GraphLexicon:
    """The graph of a word list: the one built at install time (``prebuilt.py``), else the
    one in the cache, else built now into the cache (or into ``target``) with a progress bar."""
    file_name = graph_file_name(path, alphabet, name)
    if target is None:
        from .prebuilt import PREBUILT_DIR

        places = [PREBUILT_DIR / file_name, cache_dir() / file_name]
        target = places[-1]
    else:
        places = [target]
    for place in places:
        cached = load_cached_graph(place, alphabet)  # a damaged file is rebuilt (into the cache)
        if cached is not None:
            return cached
    from . import WordListLexicon

    words = sorted(WordListLexicon.from_file(path, alphabet, name=name))
    return build_graph_file(words, alphabet, target, name, version, show_progress)


def atomic_write(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (a temporary file beside it, then renamed): a reader,
    or a build cut short, never meets half a file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
