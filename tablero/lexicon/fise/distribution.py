"""Reading the FISE-2 distribution: the zip "LEXICÓN FISE 2 - LISTAS" or its unpacked folder.

The distribution is a handful of plain-text lists (Latin-1, CR or CRLF line ends), each with a
header of notes, a line holding only ``#``, then the list under numbered section titles. The
format is specified in ``docs/fise-lexicon.md``; this module turns the files into plain data
(:class:`Distribution`) and says clearly what is wrong with a folder or zip that is not it.
Nothing here inflects a word: that is ``conjugation.py``, ``plurals.py`` and ``build.py``.

Files are recognised by what their names say, with case and accents ignored, because the
zip stores its names in an old code page (``ACTUALIZACI\\xd3N``) that unpacks differently on
every system.
"""

from __future__ import annotations

import re
import unicodedata
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .. import LexiconError

__all__ = [
    "MAX_FILE_BYTES",
    "Distribution",
    "NonVerbEntry",
    "NonVerbUpdates",
    "read_distribution",
]

MAX_FILE_BYTES = 16_000_000
"""The largest list read (unpacked). The real files are 4 KB to 1 MB; a larger one is not the
distribution, and a zip bomb stops here before it is inflated."""

MAX_ZIP_BYTES = 64_000_000
"""The largest zip or folder total accepted (the published zip is 466 KB)."""

DIGRAPH_DIGITS = {"1": "ch", "2": "ll", "3": "rr"}
"""How the two- and three-tile list writes the digraph tiles."""


@dataclass(frozen=True)
class NonVerbEntry:
    """One line of the non-verb list: a lemma, its feminine if the entry gives one (``abad
    abadesa``), and the dictionary's superscript (``acre 2``), which changes nothing here."""

    forms: tuple[str, ...]
    homograph: int | None = None
    line: int = 0


@dataclass(frozen=True)
class NonVerbUpdates:
    """What the update of non-verbs says, by section (see docs/fise-lexicon.md): new words
    that take a plural, new words that do not, words new only in the plural, removals, and
    plurals removed."""

    variable: frozenset[str] = frozenset()
    invariable: frozenset[str] = frozenset()
    plural_only: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()
    removed_plurals: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Distribution:
    """The lists of one FISE-2 distribution, as read (lowercase, accents as written)."""

    source: str
    verb_lines: tuple[tuple[int, int, str], ...]
    """(conjugation 1–3, line number, the line) for every verb line of TOTAL DE VERBOS."""
    non_verbs: tuple[NonVerbEntry, ...]
    two_tiles: frozenset[str]
    """Every word of two tiles (the TOTAL list), digraphs spelled ch/ll/rr."""
    three_tiles: frozenset[str]
    non_verb_updates: NonVerbUpdates = NonVerbUpdates()
    removed_verbs: frozenset[str] = frozenset()
    """Verbs the verb update lists as removed (SUPRIMIDOS), for the docs' figures."""
    files: dict[str, str] = field(default_factory=dict)
    """Which file each list was read from (for messages and the install record)."""


# -- which file is which ----------------------------------------------------------------------

_ROLES: dict[str, tuple[str, ...]] = {
    # role: words its name must contain (folded), in any order
    "verbs": ("total", "verbos", "clasificados"),
    "non_verbs": ("total", "no verbos"),
    "short": ("dos y tres fichas",),
    "verb_updates": ("actualizacion de verbos",),
    "non_verb_updates": ("actualizacion de no verbos",),
}
_REQUIRED = ("verbs", "non_verbs", "short")
_EXPECTED_TEXT = (
    "TOTAL DE VERBOS CLASIFICADOS.TXT, TOTAL DE NO VERBOS SIN PLURALES.txt and "
    "ACTUALIZACIÓN Y TOTAL DE DOS Y TRES FICHAS.txt (the update lists are read too when there)"
)


def _folded(text: str) -> str:
    """Lowercase without accents, and the undecodable byte of an old code page dropped."""
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9. ]+", "", text.replace("_", " "))


def _role_of(name: str) -> str | None:
    folded = _folded(Path(name).name)
    if not folded.endswith(".txt"):
        return None
    # "non_verbs" must be tested before "verbs": "total de no verbos" holds "verbos" too
    for role in ("non_verb_updates", "verb_updates", "non_verbs", "short", "verbs"):
        if all(_loose(word) in _loose(folded) for word in _ROLES[role]):
            if role == "verbs" and "no verbos" in folded:
                continue
            return role
    return None


def _loose(text: str) -> str:
    """Letters only: "ACTUALIZACI?N" unpacked from a code page may lose its Ó altogether."""
    return re.sub(r"[^a-z]", "", text).replace("actualizacin", "actualizacion")


def _decode(raw: bytes, where: str) -> str:
    """The lists are Latin-1; a copy re-saved as UTF-8 reads too."""
    if b"\x00" in raw[:4096]:
        raise LexiconError(f"{where}: a binary file, not one of the FISE-2 text lists")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _files_of(source: Path) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """{role: (file name, text)} and every file name seen, from a zip or a folder."""
    found: dict[str, tuple[str, str]] = {}
    names: list[str] = []
    if source.is_dir():
        paths = sorted(p for p in source.rglob("*") if p.is_file())
        total = sum(p.stat().st_size for p in paths)
        if total > MAX_ZIP_BYTES:
            raise LexiconError(
                f"{source}: {total:,} bytes of files; the FISE-2 lists are about 1.5 MB "
                f"(at most {MAX_ZIP_BYTES:,} read)"
            )
        for p in paths:
            rel = str(p.relative_to(source))
            names.append(rel)
            role = _role_of(rel)
            if role is None or role in found:
                continue
            size = p.stat().st_size
            if size > MAX_FILE_BYTES:
                raise LexiconError(
                    f"{p}: {size:,} bytes; a FISE-2 list has at most {MAX_FILE_BYTES:,}"
                )
            found[role] = (rel, _decode(p.read_bytes(), str(p)))
        return found, names
    size = source.stat().st_size
    if size > MAX_ZIP_BYTES:
        raise LexiconError(
            f"{source}: {size:,} bytes; the FISE-2 zip is about 0.5 MB "
            f"(at most {MAX_ZIP_BYTES:,} read)"
        )
    try:
        archive = zipfile.ZipFile(source)
    except zipfile.BadZipFile:
        raise LexiconError(
            f"{source}: not a zip file; expected the FISE-2 distribution "
            "(the zip as published, or its unpacked folder)"
        ) from None
    with archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            names.append(info.filename)
            role = _role_of(info.filename)
            if role is None or role in found:
                continue
            if info.file_size > MAX_FILE_BYTES:
                raise LexiconError(
                    f"{source}: {info.filename} unpacks to {info.file_size:,} bytes; a FISE-2 "
                    f"list has at most {MAX_FILE_BYTES:,}"
                )
            with archive.open(info) as f:
                raw = f.read(MAX_FILE_BYTES + 1)
            if len(raw) > MAX_FILE_BYTES:
                raise LexiconError(f"{source}: {info.filename} unpacks to more than it says")
            found[role] = (info.filename, _decode(raw, f"{source}: {info.filename}"))
    return found, names


def read_distribution(path: str | Path) -> Distribution:
    """Read the FISE-2 distribution at ``path`` (zip or folder); LexiconError if it is not."""
    source = Path(path)
    if not source.exists():
        raise LexiconError(f"{source}: no such file or folder")
    found, names = _files_of(source)
    missing = [role for role in _REQUIRED if role not in found]
    if missing:
        seen = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
        raise LexiconError(
            f"{source}: not the FISE-2 distribution. Expected {_EXPECTED_TEXT}; "
            f"found {seen or 'no files'}"
        )
    verb_name, verb_text = found["verbs"]
    non_verb_name, non_verb_text = found["non_verbs"]
    short_name, short_text = found["short"]
    two, three = _short_lists(short_text, short_name)
    updates = NonVerbUpdates()
    if "non_verb_updates" in found:
        updates = _non_verb_updates(*reversed(found["non_verb_updates"]))
    removed_verbs: frozenset[str] = frozenset()
    if "verb_updates" in found:
        removed_verbs = _removed_verbs(*reversed(found["verb_updates"]))
    return Distribution(
        source=str(source),
        verb_lines=tuple(_verb_lines(verb_text, verb_name)),
        non_verbs=tuple(_non_verbs(non_verb_text, non_verb_name)),
        two_tiles=two,
        three_tiles=three,
        non_verb_updates=updates,
        removed_verbs=removed_verbs,
        files={role: name for role, (name, _) in found.items()},
    )


# -- the lists --------------------------------------------------------------------------------

_SECTION = re.compile(r"^(\d{1,2})\.\s+(\S.*)$")
_WORD = re.compile(r"^[a-záéíóúüñàèìòùïîç]+$")


def _body(text: str, where: str) -> Iterator[tuple[int, str]]:
    """(line number, stripped line) between the header's lone ``#`` and the closing one (some
    lists end with another, before the compiler's signature); blank lines skipped."""
    lines = text.split("\n")
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "#")
    except StopIteration:
        raise LexiconError(
            f"{where}: no line holding only '#' (the FISE-2 lists end their notes with one)"
        ) from None
    for i in range(start + 1, len(lines)):
        line = lines[i].strip()
        if line == "#":
            return
        if line:
            yield i + 1, line


def _is_title(line: str) -> re.Match[str] | None:
    """A numbered section title: ``2. SEGUNDA CONJUGACIÓN``, ``4. BAJAS …`` (capitals)."""
    m = _SECTION.match(line)
    if m and m.group(2).upper() == m.group(2):
        return m
    return None


def _is_signature(line: str) -> bool:
    """The compiler's name and the date that close some lists (capitalised, not a lemma)."""
    return line[:1].isupper()


_VERB_LINE = re.compile(r"^\d{2}-\d-[.DIPR]-\S")


def _verb_lines(text: str, where: str) -> Iterator[tuple[int, int, str]]:
    conjugation = 0
    for number, line in _body(text, where):
        if title := _is_title(line):
            conjugation = int(title.group(1))
            continue
        if _is_signature(line):
            continue
        if not _VERB_LINE.match(line):
            raise LexiconError(
                f"{where}, line {number}: {line!r} is not a verb line "
                "(expected MM-V-X-infinitive, as 00-1-.-abacorar)"
            )
        if conjugation not in (1, 2, 3):
            raise LexiconError(
                f"{where}, line {number}: a verb before the title of its conjugation "
                "(1. PRIMERA CONJUGACIÓN)"
            )
        yield conjugation, number, line


def _non_verbs(text: str, where: str) -> Iterator[NonVerbEntry]:
    for number, line in _body(text, where):
        if _is_signature(line):
            continue
        parts = line.split()
        homograph = None
        if parts[-1].isdigit():
            homograph = int(parts.pop())
        if not parts or len(parts) > 2 or not all(_WORD.match(p) for p in parts):
            raise LexiconError(
                f"{where}, line {number}: {line!r} is not a lemma line "
                "(a word, its feminine if any, and a superscript number if any)"
            )
        yield NonVerbEntry(tuple(parts), homograph, number)


def _short_lists(text: str, where: str) -> tuple[frozenset[str], frozenset[str]]:
    """The TOTAL sections (3 and 4) of the two- and three-tile list."""
    totals: dict[int, set[str]] = {}
    current: set[str] | None = None
    for number, line in _body(text, where):
        if title := _is_title(line):
            heading = _folded(title.group(2))
            if heading.startswith("total"):
                tiles = 2 if "dos" in heading else 3
                current = totals.setdefault(tiles, set())
            else:
                current = None
            continue
        if current is None or _is_signature(line) or line.endswith(":"):
            continue
        word = "".join(DIGRAPH_DIGITS.get(c, c) for c in line.lower())
        if not _WORD.match(word):
            raise LexiconError(f"{where}, line {number}: {line!r} is not a word")
        current.add(word)
    if 2 not in totals or 3 not in totals:
        raise LexiconError(
            f"{where}: no 'TOTAL DE PALABRAS DE DOS FICHAS' and 'TOTAL DE PALABRAS DE TRES "
            "FICHAS' sections"
        )
    return frozenset(totals[2]), frozenset(totals[3])


def _sections(text: str, where: str) -> dict[str, list[str]]:
    """{folded section title: its word lines}, a line's first word only (notes follow it)."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for _number, line in _body(text, where):
        if title := _is_title(line):
            current = out.setdefault(_folded(title.group(2)), [])
            continue
        if current is None or _is_signature(line) or line.startswith("("):
            continue
        word = line.split()[0].lower()
        if _WORD.match(word):
            current.append(word)
    return out


def _non_verb_updates(text: str, where: str) -> NonVerbUpdates:
    sections = _sections(text, where)

    def words(*starts: str) -> frozenset[str]:
        return frozenset(
            w for title, ws in sections.items() if title.startswith(starts) for w in ws
        )

    return NonVerbUpdates(
        variable=words("altas variables"),
        invariable=words("altas invariables"),
        plural_only=words("altas en plural"),
        removed=words("bajas variables"),
        removed_plurals=words("bajas en plural"),
    )


def _removed_verbs(text: str, where: str) -> frozenset[str]:
    sections = _sections(text, where)
    return frozenset(
        w for title, ws in sections.items() if title.startswith("suprimidos") for w in ws
    )
