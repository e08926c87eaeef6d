"""Who a rating belongs to, and which games are rated.

A rating is kept per (player key, variant). A player key is a short string, so that it fits
one column: ``account:42`` for an account, ``bot:hard`` for a bot level. Each bot level is a
player of its own, rated like anyone, so its number tells people how strong the level is.

A bot key names the level as the engine does (``beginner`` … ``expert``), not by the number a
table stores (1–5): if the numbering ever changes, a level keeps its rating.
"""

from __future__ import annotations

from typing import Literal

from ..workers.bots import LEVEL_NAMES, LEVELS

__all__ = [
    "RATED_VARIANTS",
    "account_player_key",
    "bot_player_key",
    "is_rated_variant",
    "parse_player_key",
]

RATED_VARIANTS: frozenset[str] = frozenset(
    {"fise", "bisonte", "crucigrama", "intelect", "letras_top", "cuvinte"}
)
"""The six built-in games, by name; each is rated on its own. Listed, not read from the
variants folder, so that a seventh built-in game is rated only when someone decides so."""

_ACCOUNT = "account:"
_BOT = "bot:"


def account_player_key(account_id: int) -> str:
    """The key of an account's ratings."""
    if isinstance(account_id, bool) or not isinstance(account_id, int) or account_id < 1:
        raise ValueError(f"an account id is a whole number ≥ 1, not {account_id!r}")
    return f"{_ACCOUNT}{account_id}"


def bot_player_key(level: int) -> str:
    """The key of a bot level's ratings, from the level a table stores (1–5)."""
    if isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"a bot's level is {LEVELS[0]} to {LEVELS[-1]}, not {level!r}")
    return f"{_BOT}{LEVEL_NAMES[level - 1]}"


def parse_player_key(key: str) -> tuple[Literal["account", "bot"], int]:
    """``("account", id)`` or ``("bot", level)`` from a key; ValueError for anything else."""
    if key.startswith(_ACCOUNT):
        digits = key.removeprefix(_ACCOUNT)
        if digits.isascii() and digits.isdigit() and not digits.startswith("0"):
            return "account", int(digits)
    elif key.startswith(_BOT):
        name = key.removeprefix(_BOT)
        if name in LEVEL_NAMES:
            return "bot", LEVEL_NAMES.index(name) + 1
    raise ValueError(f"not a player key: {key!r} (account:<id> or bot:<level name>)")


def is_rated_variant(variant_ref: str) -> bool:
    """Whether a table's games are rated, from its variant reference (``TableInfo.variant_ref``).

    Pass the reference, never the ``name`` inside a rule file: an uploaded file may call itself
    ``fise``, and uploaded rule files are never rated. Their references (``u-…``) are not in
    the list, so they are refused here.
    """
    return variant_ref in RATED_VARIANTS
