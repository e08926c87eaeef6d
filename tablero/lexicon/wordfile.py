"""Reading a full-form word list as clubs and federations hand them out.

Such lists come in every shape: plain or packed (``.xz``, ``.gz``, a zip holding one list),
UTF-8 or Latin-1, digraph tiles written as letters (``CHILLAR``) or in brackets
(``[CH]I[LL]AR``, as some engines write FILE2017). This module reads them all into the
alphabet's normal spelling, with the same guarantees as a list of one's own (``WordListLexicon``):
a line that the game's tiles cannot spell is an error naming the file and line, an empty list
and an oversized file are refused with what was found, and nothing is half-read.
"""

from __future__ import annotations

import gzip
import io
import lzma
import re
import zipfile
from pathlib import Path

from ..alphabet import Alphabet
from . import MAX_WORD_LIST_BYTES, LexiconError, _normalised

__all__ = ["read_word_file"]

_BRACKETED = re.compile(r"\[([^\[\]]{1,3})\]")


def _unpacked(path: Path, raw: bytes) -> tuple[bytes, str]:
    """The list's bytes, unpacked by what the file starts with, and where to say it was."""
    where = str(path)
    limit = MAX_WORD_LIST_BYTES
    try:
        if raw.startswith(b"\xfd7zXZ"):
            out = lzma.LZMADecompressor().decompress(raw, max_length=limit + 1)
        elif raw.startswith(b"\x1f\x8b"):
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as f:
                out = f.read(limit + 1)
        elif raw.startswith(b"PK\x03\x04"):
            with zipfile.ZipFile(io.BytesIO(raw)) as archive:
                lists = [i for i in archive.infolist() if not i.is_dir()]
                if len(lists) != 1:
                    names = ", ".join(i.filename for i in lists[:5]) or "nothing"
                    raise LexiconError(
                        f"{where}: a zip of a word list holds one file; this one holds {names}"
                    )
                where = f"{path}: {lists[0].filename}"
                with archive.open(lists[0]) as f:
                    out = f.read(limit + 1)
        else:
            return raw, where
    except (lzma.LZMAError, OSError, EOFError, zipfile.BadZipFile) as e:
        raise LexiconError(f"{where}: cannot unpack ({e})") from None
    if len(out) > limit:
        raise LexiconError(
            f"{where}: more than {limit:,} bytes unpacked; a word list may have that many at most"
        )
    return out, where


def read_word_file(path: str | Path, alphabet: Alphabet) -> list[str]:
    """The words of a list file, normalised and sorted, without duplicates."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as e:
        raise LexiconError(f"cannot read word list {p}: {e.strerror}") from None
    if size > MAX_WORD_LIST_BYTES:
        raise LexiconError(
            f"{p}: {size:,} bytes; a word list may have {MAX_WORD_LIST_BYTES:,} at most"
        )
    raw, where = _unpacked(p, p.read_bytes())
    if b"\x00" in raw[:65536]:
        raise LexiconError(f"{where}: a binary file, not a word list (one word per line)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # every byte is a Latin-1 character: old lists are
    text = _BRACKETED.sub(r"\1", text.lstrip("\ufeff"))
    words = sorted(set(_normalised(enumerate(text.splitlines(), 1), alphabet, where)))
    if not words:
        raise LexiconError(f"{where}: no words in it (one word per line)")
    return words
