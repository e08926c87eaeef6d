"""The games a table can be for: the six built-in rule sets and rule files people upload.

Also what the browser needs to draw a game (``variant_json``). A rule file from the network
is validated by the library's own reader and then held to limits a shared server needs
(a tile set of a billion tiles would fill memory; a ``lexicon`` path would read a server file).
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any

from ..squares import SquareKind
from ..variant import (
    BLANK,
    Clock,
    Variant,
    VariantError,
    builtin_variant_names,
    load_variant,
    square_name,
    variant_from_toml,
)
from .errors import ApiError

__all__ = [
    "MAX_UPLOAD_BYTES",
    "SERVER_LEXICONS",
    "is_upload_id",
    "new_upload_id",
    "parse_upload",
    "variant_json",
    "variant_summary",
    "with_clock",
]

MAX_UPLOAD_BYTES = 64 * 1024
SERVER_LEXICONS = ("es", "ro", "none")
"""The dictionaries a table can use; anything else in a rule file is refused."""
_MAX_TILES = 400
_MAX_RACK = 12


def builtin(name: str) -> Variant:
    if name not in builtin_variant_names():
        raise ApiError(404, "not_found", f"no game called {name!r}")
    return load_variant(name)


def is_upload_id(ref: str) -> bool:
    return ref.startswith("u-") and len(ref) == 12 and ref[2:].isalnum()


def new_upload_id() -> str:
    return "u-" + secrets.token_hex(5)


def parse_upload(text: str, source: str = "upload") -> Variant:
    """A user's rule file, or ApiError(422, bad_variant_file) saying what is wrong with it."""
    if len(text.encode("utf-8")) > MAX_UPLOAD_BYTES:
        raise ApiError(413, "too_large", f"a rule file may have at most {MAX_UPLOAD_BYTES} bytes")
    try:
        v = variant_from_toml(text, source=source)
    except VariantError as e:
        raise ApiError(422, "bad_variant_file", str(e)) from None
    problems = []
    if v.max_players < 2:
        problems.append("players: a table needs at least 2 players ([min, max] with max ≥ 2)")
    if v.rows > 26:
        problems.append(f"board.rows: at most 26 on this server, got {v.rows}")
    if v.tile_count > _MAX_TILES:
        problems.append(f"tiles: at most {_MAX_TILES} tiles on this server, got {v.tile_count}")
    if v.rack_size > _MAX_RACK:
        problems.append(f"rack_size: at most {_MAX_RACK} on this server, got {v.rack_size}")
    if v.lexicon not in SERVER_LEXICONS:
        problems.append(f"lexicon: must be one of {', '.join(SERVER_LEXICONS)}, got {v.lexicon!r}")
    if v.tile_count - v.tiles.get(BLANK, (0, 0))[0] == 0:
        problems.append("tiles: the set has no letter tiles")
    kinds = [t for t, (count, _) in v.tiles.items() if count > 0]
    if v.start_rule != "random" and len(kinds) < 2:
        # Players draw tiles to decide who starts; with one kind of tile they tie forever.
        problems.append(
            'start.rule: drawing for the start needs at least two different tiles; use "random"'
        )
    if problems:
        raise ApiError(422, "bad_variant_file", f"{source}: " + "; ".join(problems))
    return v


def with_clock(variant: Variant, seconds: int | None) -> Variant:
    """The variant with a table's time control: None untimed, else seconds per player."""
    if seconds is None:
        return dataclasses.replace(variant, clock=None)
    base = variant.clock or Clock(initial_seconds=seconds)
    return dataclasses.replace(variant, clock=dataclasses.replace(base, initial_seconds=seconds))


def variant_summary(v: Variant, ref: str) -> dict[str, Any]:
    return {
        "name": ref,
        "title": v.title,
        "language": v.language,
        "rows": v.rows,
        "columns": v.columns,
        "min_players": v.min_players,
        "max_players": v.max_players,
    }


def variant_json(v: Variant, ref: str, source: str) -> dict[str, Any]:
    """Everything a client needs to draw the board and rack and offer the right buttons."""
    clock = v.clock
    return {
        **variant_summary(v, ref),
        "lexicon": v.lexicon,
        "source": source,
        "squares": [[None if code == "." else code for code in row] for row in v.layout],
        "square_kinds": {code: _kind_json(kind) for code, kind in v.squares.items()},
        "start_squares": [square_name(s) for s in v.start_squares],
        "tiles": [
            {"letter": letter, "count": count, "value": value}
            for letter, (count, value) in v.tiles.items()
        ],
        "tile_count": v.tile_count,
        "rack_size": v.rack_size,
        "bingo_bonus": v.bingo_bonus,
        "letters": v.letters(),
        "has_blanks": v.has_blanks,
        "has_cambio": v.cambio_per_game > 0,
        "cambio_per_game": v.cambio_per_game,
        "has_challenge": v.word_check == "challenge",
        "exchange": dataclasses.asdict(v.exchange),
        "first_move": dataclasses.asdict(v.first_move),
        "clock": None if clock is None else dataclasses.asdict(clock),
        "turn_direction": v.turn_direction,
    }


_COLOURS = {
    ("letter", 2): "#a8d8ea",
    ("letter", 3): "#3f8fc4",
    ("word", 2): "#f4b6c2",
    ("word", 3): "#e0474c",
    ("word_end", 4): "#8e2c48",
}


def _kind_json(kind: SquareKind) -> dict[str, Any]:
    spec = kind.spec()
    name = spec["kind"]
    if name == "shuffle_next_rack":
        colour = "#4caf50"
    elif name == "word_add":
        colour = "#f2c94c" if spec["amount"] >= 0 else "#9e9e9e"
    else:
        factor = spec.get("factor", 1)
        colour = _COLOURS.get((name, factor)) or _COLOURS.get((name, min(factor, 3)), "#d0d0d0")
    return {"label": kind.code, **spec, "colour": colour, "description": kind.describe()}
