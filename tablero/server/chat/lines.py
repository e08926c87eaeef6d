"""What a chat line may be, and who may see it.

A line is plain text of 1–300 characters, without control or invisible formatting characters
(the same rule as nicknames, so a line cannot reorder what is shown around it); the server
never builds HTML from it, the browser shows it as text.

Who sees what: everyone who can see the table sees its lines, with one exception the rule
books ask for (no help while playing): at a table created with ``quiet_spectators``, the
players do not get the spectators' lines while the game is in play; they see them all once
it is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ApiError
from ..tables.protocol import disguising_character

__all__ = ["MAX_CHARS", "ChatLine", "check_text", "visible_to"]

MAX_CHARS = 300


@dataclass(frozen=True)
class ChatLine:
    n: int
    seat: int | None
    author: str
    text: str
    at: float

    def json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "author": self.author,
            "seat": self.seat,
            "text": self.text,
            "at": round(self.at, 3),
        }


def check_text(text: object) -> str:
    """The line as it will be kept (surrounding spaces trimmed), or an ``ApiError``."""
    if not isinstance(text, str):
        raise ApiError(422, "invalid_request", "text: the line, as text", field="text")
    line = text.strip()
    if not line:
        raise ApiError(422, "chat_empty", "say something", field="text")
    if len(line) > MAX_CHARS:
        raise ApiError(
            422, "chat_too_long", f"a line has at most {MAX_CHARS} characters", field="text"
        )
    bad = disguising_character(line)
    if bad is not None:
        raise ApiError(
            422,
            "invalid_request",
            f"text: no control or invisible formatting characters (U+{ord(bad):04X})",
            field="text",
        )
    return line


def visible_to(line: ChatLine, viewer: int | None, quiet_spectators: bool, playing: bool) -> bool:
    """Whether the viewer (a seat, or None for a spectator) sees the line now."""
    return not (quiet_spectators and playing and viewer is not None and line.seat is None)
