"""Dictionaries installed by name: ``tablero lexicon add fise2 LISTAS.zip``, then ``--lexicon
fise2`` anywhere.

A club or a federation holds lists that tablero may not ship (the FISE-2 lexicon's licence is
not stated). Installing one compiles it once into the user's data directory
(``$TABLERO_DATA/lexicons/NAME/``, next to the server's database), where every command, the
library (``Lexicon.named``) and the web server find it by name. Each dictionary is a folder:

- ``words.kwg`` and ``words.kwg.json``: the word graph the native move generator searches, for
  the alphabet it was built for, and its sidecar (``docs/kwg.md``);
- ``words.txt.xz``: every form, one a line, so a game with another alphabet (a rule file's
  own) can build its graph from the same words;
- ``lexicon.json``: what it is (name, language, where it came from and its digest, how many
  words, when, and for a FISE-2 build the count of each step).

An install is built in a temporary folder beside the others and renamed into place whole, so a
refused or interrupted install leaves nothing, and ``--replace`` swaps the old folder for the
new in one rename. The format is in ``docs/fise-lexicon.md`` ("An installed dictionary").
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..alphabet import Alphabet, alphabet_by_name
from ..paths import data_dir
from . import Lexicon, LexiconError, shipped_list_path

__all__ = [
    "InstalledLexicon",
    "add_lexicon",
    "find_installed",
    "installed_lexicons",
    "lexicons_dir",
    "load_installed",
    "remove_lexicon",
    "valid_name",
]

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
"""An installed dictionary's name: what GCG files and web tables record, so plain and short."""
RESERVED = frozenset({"none"})
"""Names that mean something else already (the shipped ones are checked as files)."""
RECORD = "lexicon.json"
RECORD_FORMAT = 1


def lexicons_dir() -> Path:
    """Where installed dictionaries live: ``lexicons/`` in the data directory."""
    return data_dir() / "lexicons"


@dataclass(frozen=True)
class InstalledLexicon:
    """What ``lexicon.json`` records of one installed dictionary."""

    name: str
    alphabet: str
    kind: str
    """``fise2`` (built from the federation's distribution), ``words`` or ``kwg``."""
    source: str
    """The file or folder it was installed from (its name only: no path of the machine)."""
    source_sha256: str
    word_count: int
    checksum: str
    installed: str
    """When, as an ISO 8601 UTC time."""
    build_seconds: float = 0.0
    steps: dict[str, int] = field(default_factory=dict)
    format: int = RECORD_FORMAT

    @property
    def folder(self) -> Path:
        return lexicons_dir() / self.name

    @property
    def language(self) -> str:
        return self.alphabet


def valid_name(name: str) -> str:
    """The name, checked: letters, digits, ``-`` and ``_``, not a shipped dictionary's."""
    if not NAME.fullmatch(name):
        raise LexiconError(
            f"{name!r} is not a dictionary name: use 1–32 letters, digits, '-' or '_', "
            "starting with a letter or digit (fise2, club-2024)"
        )
    if name.lower() in RESERVED or shipped_list_path(name.lower()) is not None:
        raise LexiconError(f"{name!r} is the name of a shipped dictionary; choose another")
    return name


def installed_lexicons() -> list[InstalledLexicon]:
    """Every installed dictionary, by name; a folder with an unreadable record is skipped."""
    root = lexicons_dir()
    if not root.is_dir():
        return []
    out = []
    for folder in sorted(root.iterdir()):
        if folder.name.startswith(".") or not folder.is_dir():
            continue
        record = _read_record(folder)
        if record is not None:
            out.append(record)
    return out


def find_installed(name: str) -> InstalledLexicon | None:
    """The installed dictionary of that name (any case: a GCG may write FISE2), if any."""
    if not NAME.fullmatch(name):
        return None
    root = lexicons_dir()
    exact = root / name
    if exact.is_dir():
        return _read_record(exact)
    for record in installed_lexicons():
        if record.name.lower() == name.lower():
            return record
    return None


def _read_record(folder: Path) -> InstalledLexicon | None:
    try:
        data = json.loads((folder / RECORD).read_text("utf-8"))
        return InstalledLexicon(**data)
    except (OSError, ValueError, TypeError):
        return None


def load_installed(record: InstalledLexicon, alphabet: Alphabet | None = None) -> Lexicon:
    """The dictionary's word graph for ``alphabet`` (default: its own). Another alphabet's
    graph is built once from the stored words and cached (``graph.graph_for_word_list``)."""
    from .graph import GraphLexicon, graph_for_word_list, spelling_key

    folder = record.folder
    own = alphabet_by_name(record.alphabet)
    if alphabet is None or spelling_key(alphabet) == spelling_key(own):
        return GraphLexicon.load(folder / "words.kwg", alphabet or own)
    return graph_for_word_list(folder / "words.txt.xz", alphabet, record.name)


def remove_lexicon(name: str) -> InstalledLexicon:
    """Uninstall a dictionary; LexiconError if there is none of that name."""
    record = find_installed(name)
    if record is None:
        raise LexiconError(f"no installed dictionary {name!r} (tablero lexicon list)")
    trash = _trash_name(record.folder)
    os.replace(record.folder, trash)
    shutil.rmtree(trash, ignore_errors=True)
    return record


def _trash_name(folder: Path) -> Path:
    return folder.with_name(f".{folder.name}.old-{os.getpid()}-{time.monotonic_ns()}")


def source_kind(source: Path) -> str:
    """``fise2``, ``kwg`` or ``words``, from what the source is (not only its name)."""
    if source.is_dir():
        return "fise2"
    if source.suffix.lower() == ".kwg":
        return "kwg"
    if source.suffix.lower() == ".zip":
        import zipfile

        from .fise.distribution import _role_of

        try:
            with zipfile.ZipFile(source) as archive:
                files = [i.filename for i in archive.infolist() if not i.is_dir()]
        except (OSError, zipfile.BadZipFile):
            return "words"  # read_word_file says what is wrong with it
        if any(_role_of(f) for f in files) or len(files) != 1:
            return "fise2"  # a zip of many files: read_distribution says if it is not
    return "words"


def add_lexicon(
    name: str,
    source: str | Path,
    *,
    alphabet: str = "es",
    replace: bool = False,
    kind: str | None = None,
    letters: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> InstalledLexicon:
    """Install ``source`` as the dictionary ``name``; see the module's text.

    ``kind`` is found from the source unless given. ``letters`` names the letter table of a
    KWG from another engine (default ``fise`` for Spanish, the alphabet's own otherwise).
    Raises LexiconError, with nothing left behind, for a name taken (unless ``replace``), a
    source that is not what it claims, or a word the alphabet cannot spell.
    """
    from .graph import atomic_write, build_graph_file, import_graph_file
    from .letters import LetterTable, LetterTableError, letter_table

    valid_name(name)
    say = progress or (lambda _what: None)
    src = Path(source)
    if not src.exists():
        raise LexiconError(f"{src}: no such file or folder")
    existing = find_installed(name)
    if existing is not None and not replace:
        raise LexiconError(
            f"a dictionary named {existing.name!r} is installed already "
            f"({existing.word_count:,} words from {existing.source}); "
            "give --replace to replace it"
        )
    abc = alphabet_by_name(alphabet)
    kind = kind or source_kind(src)
    started = time.perf_counter()
    steps: dict[str, int] = {}
    root = lexicons_dir()
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{name}.new-", dir=root))
    try:
        graph_path = work / "words.kwg"
        if kind == "fise2":
            from .fise.build import build_forms
            from .fise.distribution import read_distribution

            say("reading the FISE-2 lists")
            distribution = read_distribution(src)
            built = build_forms(distribution, abc, progress=say)
            words, steps = built.words, built.steps
            say(f"building the word graph ({len(words):,} words)")
            lexicon = build_graph_file(words, abc, graph_path, name, "FISE-2", False)
        elif kind == "words":
            from .wordfile import read_word_file

            say("reading the word list")
            words = read_word_file(src, abc)
            say(f"building the word graph ({len(words):,} words)")
            lexicon = build_graph_file(words, abc, graph_path, name, "", False)
        elif kind == "kwg":
            try:
                table = (
                    letter_table(letters)
                    if letters
                    else (letter_table("fise") if abc.name == "es" else LetterTable.of(abc))
                )
            except LetterTableError as e:
                raise LexiconError(str(e)) from None
            shutil.copyfile(src, graph_path)
            say("reading the word graph")
            lexicon = import_graph_file(graph_path, abc, table, name)
            words = sorted(lexicon.words())
            if not words:
                raise LexiconError(f"{src}: a word graph with no words")
        else:
            raise LexiconError(f"unknown kind of dictionary source {kind!r}")
        info = lexicon.info()
        packed = lzma.compress("".join(w + "\n" for w in words).encode("utf-8"), preset=6)
        atomic_write(work / "words.txt.xz", packed)
        record = InstalledLexicon(
            name=name,
            alphabet=abc.name,
            kind=kind,
            source=src.name,
            source_sha256=_digest(src),
            word_count=info.word_count,
            checksum=info.checksum,
            installed=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            build_seconds=round(time.perf_counter() - started, 2),
            steps=steps,
        )
        data = json.dumps(asdict(record), indent=1, ensure_ascii=False).encode("utf-8")
        atomic_write(work / RECORD, data)
        target = root / name
        if existing is not None:
            trash = _trash_name(existing.folder)
            os.replace(existing.folder, trash)
            os.replace(work, target)
            shutil.rmtree(trash, ignore_errors=True)
        else:
            os.replace(work, target)
        return record
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def _digest(source: Path) -> str:
    """sha256 of the source file, or of a folder's files (names and bytes, in order)."""
    h = hashlib.sha256()
    if source.is_dir():
        for p in sorted(q for q in source.rglob("*") if q.is_file()):
            h.update(str(p.relative_to(source)).encode("utf-8") + b"\0")
            h.update(p.read_bytes())
    else:
        with source.open("rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()
