"""Usernames: 3–20 letters (any script's), digits, ``_`` and ``-``; unique whatever their case.

A name is stored as typed, NFC-normalised (so "Ș" typed as S + combining comma is the same
name as the single letter Ș), and compared by a key: its case-folded form. "Ñandú" and
"ñANDÚ" are one account; the profile shows the name as its owner wrote it.

Letters are Unicode letters (general categories Lu, Ll, Lt, Lo: Ñ, Ș, Ț, Ă, Â, Î …), not
modifier letters or combining marks, which could make two names look alike. Digits are the
ASCII ones: other scripts' digits look like letters or like other digits.
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_LENGTH", "MIN_LENGTH", "UsernameError", "normalize_username", "username_key"]

MIN_LENGTH = 3
MAX_LENGTH = 20
_LETTERS = frozenset({"Lu", "Ll", "Lt", "Lo"})
_OTHERS = frozenset("0123456789_-")


class UsernameError(ValueError):
    """Why a username is refused (the message is shown to the person signing up)."""


def normalize_username(text: str) -> str:
    """The name as stored (NFC), or ``UsernameError`` saying what is wrong."""
    if not isinstance(text, str):
        raise UsernameError("a username is text")
    name = unicodedata.normalize("NFC", text)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise UsernameError(
            f"a username has {MIN_LENGTH} to {MAX_LENGTH} characters, not {len(name)}"
        )
    for ch in name:
        if ch not in _OTHERS and unicodedata.category(ch) not in _LETTERS:
            shown = ch if ch.isprintable() and not ch.isspace() else f"U+{ord(ch):04X}"
            raise UsernameError(f"a username has letters, digits, '_' and '-' only, not {shown!r}")
    return name


def username_key(name: str) -> str:
    """What makes two names the same account: the NFC form of the case-folded NFC name."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
