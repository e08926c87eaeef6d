"""Personal options kept with an account, so they follow the player to any browser.

The same options the browser keeps for guests (``static/js/prefs.js``), with the same
values: language, sound, tile colours, board size on screen, and the colour theme.
An option left out means the browser's default.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["Prefs"]


class Prefs(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    lang: Literal["es", "ro", "en"] | None = None
    sound: bool | None = None
    tiles: Literal["value", "classic", "contrast"] | None = None
    boardSize: Literal["fit", "small", "medium", "large"] | None = None
    theme: Literal["auto", "light", "dark"] | None = None
    chat: bool | None = None
    """Whether this player sees table chat (off: the chat is hidden for them alone)."""
    squareLabels: Literal["game", "interface"] | None = None
    """The board's square labels in the game's language (DL in a Spanish game) or the page's."""

    def stored(self) -> dict[str, object]:
        return self.model_dump(exclude_none=True)
