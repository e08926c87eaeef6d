"""The games a table can be for: the six built-in rule sets and rule files people upload.

Also what the browser needs to draw a game (``variant_json``). A rule file from the network
is validated by the library's own reader and then held to limits a shared server needs
(a tile set of a billion tiles would fill memory; a ``lexicon`` path would read a server file)
and to the limits of the native engine the computer players use (``tablero/engine/movegen/native/
movegen.h``): a tile value that does not fit its 16 bits, or a score beyond its 32-bit
integers, would make every bot move fail, and a bot that fails passes, for the whole game.
Before the TOML parser runs, the file's nesting is measured (the parser is recursive), and
numbers too long for Python to convert are refused with the reason.
"""

from __future__ import annotations

import dataclasses
import math
import secrets
from typing import Any

from ..lexicon import LexiconError
from ..lexicon.amend import WordChanges
from ..squares import SquareKind, square_colour
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
from .tables.protocol import disguising_character
from .wordlists import is_word_list_id

__all__ = [
    "MAX_MOVE_SCORE",
    "MAX_UPLOAD_BYTES",
    "SERVER_LEXICONS",
    "is_upload_id",
    "max_move_score",
    "new_upload_id",
    "parse_upload",
    "server_dictionaries",
    "variant_json",
    "variant_summary",
    "with_clock",
    "with_lexicon",
    "with_word_changes",
    "word_changes_of",
]

MAX_UPLOAD_BYTES = 64 * 1024
SERVER_LEXICONS = ("es", "ro", "none")
"""The dictionaries a table can use besides the word lists uploaded to the server
(``wordlists.py``); anything else in a rule file is refused: a path would read a server file."""
MAX_TOML_DEPTH = 32
"""Nesting of arrays and inline tables; a rule file needs 3."""
MAX_BOARD = 26
"""Rows and columns (columns are lettered A–Z; the engine takes up to 32)."""
MAX_TILES = 255
"""Tiles in a game: the engine's bag (TB_MAX_BAG) for the expert's simulations."""
MAX_RACK = 10
"""Tiles on a rack: the engine's rack (TB_MAX_RACK)."""
MAX_INT16 = 32_767
MIN_INT16 = -32_768
"""Tile values, square factors and addends are 16-bit numbers in the engine."""
MAX_MOVE_SCORE = 1_000_000
"""The most one move could score (``max_move_score``). The engine adds scores in 32-bit
integers over self-play games of up to 1,000 turns: 2,147,483,647 / 1,000 is about 2 million;
a million leaves room for the end-of-game adjustments (and is 500 times any real game's)."""
MAX_PER_GAME = 1_000
"""Exchanges or CAMBIOs per player per game, and the run of scoreless rounds (the engine's
turn limit)."""
MAX_CLOCK_SECONDS = 180 * 60
"""A player's time, and the penalty period: as ``clock_minutes`` when creating a table."""
MAX_NAME = 40
MAX_TITLE = 60
MAX_DESCRIPTION = 300


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
    if len(text.encode("utf-8", "surrogatepass")) > MAX_UPLOAD_BYTES:
        raise ApiError(413, "too_large", f"a rule file may have at most {MAX_UPLOAD_BYTES} bytes")
    if toml_depth_exceeds(text, MAX_TOML_DEPTH):
        raise _bad(f"{source}: arrays and tables are nested more than {MAX_TOML_DEPTH} deep")
    try:
        v = variant_from_toml(text, source=source)
    except VariantError as e:
        raise _bad(str(e)) from None
    except ValueError as e:  # Python's own limit on converting long numbers
        raise _bad(f"{source}: not valid TOML: a number is too long ({e})") from None
    except RecursionError:
        raise _bad(f"{source}: arrays and tables are nested too deep") from None
    problems = server_problems(v) + engine_problems(v)
    if problems:
        raise _bad(f"{source}: " + "; ".join(problems))
    return v


def _bad(message: str) -> ApiError:
    """422 bad_variant_file; a message quoting a huge number is cut short."""
    if len(message) > 600:
        message = message[:600] + "…"
    return ApiError(422, "bad_variant_file", message)


def server_problems(v: Variant) -> list[str]:
    """What a shared server does not take: no dictionary files, no tiny games, nothing that
    cannot be shown."""
    problems = []
    if v.max_players < 2:
        problems.append("players: a table needs at least 2 players ([min, max] with max ≥ 2)")
    named: list[tuple[str, str, int]] = [("name", v.name, MAX_NAME), ("title", v.title, MAX_TITLE)]
    named += [(f"titles.{lang}", text, MAX_TITLE) for lang, text in v.titles.items()]
    named += [
        (f"descriptions.{lang}", text, MAX_DESCRIPTION) for lang, text in v.descriptions.items()
    ]
    for key, value, limit in named:
        if len(value) > limit:
            problems.append(f"{key}: at most {limit} characters, got {len(value)}")
        ch = disguising_character(value)
        if ch is not None:
            problems.append(
                f"{key}: no control or invisible formatting characters (U+{ord(ch):04X})"
            )
    if (
        v.lexicon not in SERVER_LEXICONS
        and not is_word_list_id(v.lexicon)
        and not _installed_for(v.lexicon, v.alphabet.name)
    ):
        installed = ", ".join(d["name"] for d in server_dictionaries(v.alphabet.name))
        problems.append(
            f"lexicon: must be one of {', '.join(SERVER_LEXICONS)}, a dictionary installed on "
            f"this server for the game's language ({installed}) or an uploaded word list's "
            f"id (wl-…), got {_show(v.lexicon)}"
        )
    if v.tile_count - v.tiles.get(BLANK, (0, 0))[0] == 0:
        problems.append("tiles: the set has no letter tiles")
    kinds = [t for t, (count, _) in v.tiles.items() if count > 0]
    if v.start_rule != "random" and not v.start_rule.startswith("rack_") and len(kinds) < 2:
        # Players draw tiles to decide who starts; with one kind of tile they tie forever
        # (the rack rules draw lots among racks alike).
        problems.append(
            'start.rule: drawing for the start needs at least two different tiles; use "random"'
        )
    if v.clock is not None:
        for key in ("initial_seconds", "penalty_every_seconds"):
            seconds = getattr(v.clock, key)
            if seconds > MAX_CLOCK_SECONDS:
                problems.append(f"clock.{key}: at most {MAX_CLOCK_SECONDS}, got {_show(seconds)}")
        if v.clock.penalty_points > MAX_INT16:
            problems.append(
                f"clock.penalty_points: at most {MAX_INT16}, got {_show(v.clock.penalty_points)}"
            )
    return problems


def engine_problems(v: Variant) -> list[str]:
    """What the engine cannot play (``tablero/engine/movegen/native/movegen.h``), each naming the
    field and the limit. The score bound is checked only once every field is in range."""
    problems = []

    def at_most(key: str, value: int, limit: int, why: str = "") -> None:
        if value > limit:
            problems.append(f"{key}: at most {limit}{why}, got {_show(value)}")

    at_most("board.rows", v.rows, MAX_BOARD)
    at_most("board.columns", v.columns, MAX_BOARD)
    at_most("tiles", v.tile_count, MAX_TILES, " tiles in all (the engine's bag)")
    at_most("rack_size", v.rack_size, MAX_RACK, " (the engine's rack)")
    for letter, (_count, value) in v.tiles.items():
        at_most(f"tiles.{letter}", value, MAX_INT16, " for a tile's value (16 bits)")
    for code, kind in v.squares.items():
        spec = kind.spec()
        if "factor" in spec:
            at_most(f"squares.{code}.factor", spec["factor"], MAX_INT16, " (16 bits)")
        if "amount" in spec:
            amount = spec["amount"]
            if not MIN_INT16 <= amount <= MAX_INT16:
                problems.append(
                    f"squares.{code}.amount: between {MIN_INT16} and {MAX_INT16} (16 bits), "
                    f"got {_show(amount)}"
                )
        if "min_bag" in spec:
            at_most(f"squares.{code}.min_bag", spec["min_bag"], MAX_TILES)
    at_most("bingo_bonus", v.bingo_bonus, MAX_MOVE_SCORE)
    at_most("first_move.min_tiles", v.first_move.min_tiles, v.rack_size, " (the rack_size)")
    at_most("first_move.multiplier", v.first_move.multiplier, MAX_PER_GAME)
    if abs(v.first_move.bonus) > MAX_MOVE_SCORE:
        problems.append(
            f"first_move.bonus: between -{MAX_MOVE_SCORE} and {MAX_MOVE_SCORE}, "
            f"got {_show(v.first_move.bonus)}"
        )
    at_most("exchange.min_bag", v.exchange.min_bag, MAX_TILES)
    at_most("exchange.max_tiles", v.exchange.max_tiles, v.rack_size, " (the rack_size)")
    at_most("exchange.per_game", v.exchange.per_game, MAX_PER_GAME)
    at_most("cambio.per_game", v.cambio_per_game, MAX_PER_GAME)
    at_most("end.scoreless_rounds", v.end.scoreless_rounds, MAX_PER_GAME)
    at_most("end.unplayed_blank_penalty", v.end.unplayed_blank_penalty, MAX_INT16)
    if not problems:
        bound = max_move_score(v)
        if bound > MAX_MOVE_SCORE:
            problems.append(
                f"scores: a move could score up to {bound:,} with these values, premiums and "
                f"bonuses; at most {MAX_MOVE_SCORE:,} (the engine's 32-bit scores)"
            )
    return problems


def max_move_score(v: Variant) -> int:
    """An upper bound of one move's score, in absolute value: the best main word a line of
    the board allows (its rack_size best word factors multiplied, its best letter factor on
    every letter, its best addends) plus a best cross word for every tile, times the first
    turn's multiplier, plus the first turn's bonus and the bingo bonus."""
    top_value = max((value for _count, value in v.tiles.values()), default=0)
    rack = v.rack_size
    letter: dict[tuple[int, int], int] = {}
    word: dict[tuple[int, int], int] = {}
    add: dict[tuple[int, int], int] = {}
    for r in range(v.rows):
        for c in range(v.columns):
            kind = v.square_kind((r, c))
            (f_mid, a_mid), (f_end, a_end) = kind.word_effect(False), kind.word_effect(True)
            letter[r, c] = kind.letter_factor()
            word[r, c] = max(f_mid, f_end)
            add[r, c] = max(abs(a_mid), abs(a_end))
    lines = [[(r, c) for c in range(v.columns)] for r in range(v.rows)]
    lines += [[(r, c) for r in range(v.rows)] for c in range(v.columns)]

    def main_word(line: list[tuple[int, int]]) -> int:
        factors = sorted((word[sq] for sq in line), reverse=True)[:rack]
        addends = sorted((add[sq] for sq in line), reverse=True)[:rack]
        letters = len(line) * top_value * max(letter[sq] for sq in line)
        return letters * math.prod(factors) + sum(addends)

    main = max(main_word(line) for line in lines)
    longest = max(v.rows, v.columns)
    cross = max(longest * top_value * letter[sq] * word[sq] + add[sq] for sq in letter)
    return (main + rack * cross) * v.first_move.multiplier + abs(v.first_move.bonus) + v.bingo_bonus


def _show(value: object) -> str:
    """A value for a message: numbers of more than 20 digits by their length."""
    if isinstance(value, int) and abs(value) >= 10**20:
        return f"a number of {len(str(abs(value)))} digits"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 80 else text[:80] + "…"


def toml_depth_exceeds(text: str, limit: int) -> bool:
    """Whether arrays (``[``) and inline tables (``{``) nest deeper than ``limit``, outside
    strings and comments. Linear; malformed TOML is left for the parser to refuse."""
    depth = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif ch in "\"'":
            i = _string_end(text, i)
        else:
            if ch in "[{":
                depth += 1
                if depth > limit:
                    return True
            elif ch in "]}":
                depth -= 1
            i += 1
    return False


def _string_end(text: str, start: int) -> int:
    """The index just after the TOML string that starts at ``start`` (basic or literal, one
    line or three quotes), or after the line (or text) where an unterminated one ends."""
    quote = text[start]
    escapes = quote == '"'
    if text.startswith(quote * 3, start):
        i = start + 3
        while True:
            end = text.find(quote * 3, i)
            if end < 0:
                return len(text)
            if escapes and _escaped(text, end):
                i = end + 1
                continue
            end += 3
            for _ in range(2):  # up to two quotes of the content may precede the closing three
                if end < len(text) and text[end] == quote:
                    end += 1
            return end
    line_end = text.find("\n", start)
    if line_end < 0:
        line_end = len(text)
    i = start + 1
    while True:
        end = text.find(quote, i, line_end)
        if end < 0:
            return line_end
        if escapes and _escaped(text, end):
            i = end + 1
            continue
        return end + 1


def _escaped(text: str, index: int) -> bool:
    """Whether the character at ``index`` follows an odd run of backslashes."""
    run = 0
    while index - run - 1 >= 0 and text[index - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def with_clock(variant: Variant, seconds: int | None, per_move: bool = False) -> Variant:
    """The variant with a table's time control: None untimed, else seconds per player, or
    per move (``per_move``: correspondence, where a turn out of time is lost whatever the
    variant's rule, as a penalty needs a game time to be over)."""
    if seconds is None:
        return dataclasses.replace(variant, clock=None)
    if per_move:
        return dataclasses.replace(variant, clock=Clock(initial_seconds=seconds, per_move=True))
    base = variant.clock or Clock(initial_seconds=seconds)
    clock = dataclasses.replace(base, initial_seconds=seconds, per_move=False)
    return dataclasses.replace(variant, clock=clock)


def word_changes_of(
    variant: Variant, added: list[str], removed: list[str], names: tuple[str, str] = ("", "")
) -> WordChanges:
    """A table's words added and banned, normalised by the game's alphabet, or ApiError(422,
    bad_words) naming the word and its field (``names``: the request's fields for the two
    lists, ``words_added`` and ``words_removed`` unless told)."""
    fields = (names[0] or "words_added", names[1] or "words_removed")
    if not any(w.strip() for w in (*added, *removed)):
        return WordChanges()
    if variant.lexicon == "none":
        raise ApiError(
            422,
            "bad_words",
            f"{fields[0] if any(w.strip() for w in added) else fields[1]}: {variant.title} "
            "checks no words (it has no dictionary): there are none to add or ban",
            field=fields[0] if any(w.strip() for w in added) else fields[1],
        )
    lists = []
    for field, words, plus in ((fields[0], added, True), (fields[1], removed, False)):
        for i, word in enumerate(words):  # one by one: the error names the word's place
            try:
                WordChanges.of([word] if plus else [], [] if plus else [word], variant.alphabet)
            except LexiconError as e:
                detail = str(e).partition(": ")[2] or str(e)
                raise ApiError(
                    422,
                    "bad_words",
                    f"{field}[{i}]: {detail}",
                    field=f"{field}[{i}]",
                    params={"word": word},
                ) from None
        lists.append(words)
    try:
        changes = WordChanges.of(lists[0], lists[1], variant.alphabet)
        variant.word_changes.merged(changes)  # a clash with the rule file's own lists
    except LexiconError as e:  # a word both added and banned (here, or by the rule file)
        raise ApiError(422, "bad_words", f"{fields[1]}: {e}", field=fields[1]) from None
    return changes


def with_word_changes(variant: Variant, changes: WordChanges) -> Variant:
    """The variant with a table's words added and banned, besides the rule file's own."""
    if not changes:
        return variant
    return dataclasses.replace(variant, word_changes=variant.word_changes.merged(changes))


def server_dictionaries(language: str | None = None) -> list[dict[str, Any]]:
    """The dictionaries a table may choose: the shipped ones and those the operator installed
    (``tablero lexicon add``), for one language (an alphabet's name) or all. Each: ``name``,
    ``language``, ``words`` (count), ``shipped``."""
    from ..lexicon import shipped_list_path
    from ..lexicon.installed import installed_lexicons

    out: list[dict[str, Any]] = []
    for name in ("es", "ro"):
        if shipped_list_path(name) is not None and language in (None, name):
            out.append(
                {"name": name, "language": name, "words": _shipped_count(name), "shipped": True}
            )
    for record in installed_lexicons():
        if language in (None, record.alphabet):
            out.append(
                {
                    "name": record.name,
                    "language": record.alphabet,
                    "words": record.word_count,
                    "shipped": False,
                }
            )
    return out


def _shipped_count(name: str) -> int | None:
    import json
    from importlib import resources

    meta = resources.files("tablero") / "data" / "lexicon" / f"{name}.json"
    try:
        count = json.loads(meta.read_text("utf-8")).get("word_count")
    except (OSError, ValueError):
        return None
    return int(count) if isinstance(count, int) else None


def _installed_for(name: str, language: str) -> bool:
    from ..lexicon.installed import find_installed

    record = find_installed(name)
    return record is not None and record.alphabet == language


def with_lexicon(variant: Variant, name: str | None, field: str = "lexicon") -> Variant:
    """The variant played with the dictionary ``name`` (None: its own), which must be shipped
    or installed on this server for the game's language; else ApiError(422, bad_lexicon)
    naming the dictionaries it has. The name kept is the installed one's own spelling."""
    if name is None or name == variant.lexicon:
        return variant
    language = variant.alphabet.name
    offered = server_dictionaries(language)
    match = next((d for d in offered if d["name"].lower() == name.lower()), None)
    if variant.lexicon == "none" or match is None:
        names = ", ".join(d["name"] for d in offered) or "none"
        why = (
            f"{variant.title} checks no words"
            if variant.lexicon == "none"
            else f"no dictionary {_show(name)} on this server for the game's language "
            f"({language}); it has: {names}"
        )
        raise ApiError(422, "bad_lexicon", f"{field}: {why}", field=field)
    return dataclasses.replace(variant, lexicon=match["name"])


def variant_summary(v: Variant, ref: str) -> dict[str, Any]:
    return {
        "name": ref,
        "title": v.title,
        "titles": dict(v.titles),
        "descriptions": dict(v.descriptions),
        "language": v.language,
        "lexicon": v.lexicon,
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


def _kind_json(kind: SquareKind) -> dict[str, Any]:
    return {
        "label": kind.code,
        **kind.spec(),
        "colour": square_colour(kind),
        "description": kind.describe(),
    }
