"""A rule set as data: everything one game of the family decides, read from a TOML file.

The six built-in rule sets live in ``tablero/variants/*.toml``; a user's own rule set is one more
TOML file with the same keys, and a path to it works wherever a variant name does. The format is
specified in ``docs/variants.md``. Values that the rule book leaves open are marked in the file's
``[assumed]`` table, so ``tablero variant show`` can say which numbers are ours, not the book's.

What plain data cannot say (a 4W that counts only at a word's end, an EX square that shuffles
the next player's rack, a +10 added after multiplication) is a *square kind*: a named behaviour
defined in ``tablero.squares`` and chosen by name here.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args

from .alphabet import Alphabet, AlphabetError, alphabet_by_name, alphabet_from_table
from .lexicon import LexiconError
from .lexicon.amend import WordChanges
from .squares import PLAIN, SquareKind, square_kind

__all__ = [
    "BLANK",
    "Clock",
    "Coord",
    "DuplicateRules",
    "EndRules",
    "ExchangeRules",
    "FirstMove",
    "Variant",
    "VariantError",
    "builtin_variant_names",
    "load_variant",
    "logged_variant",
    "parse_square",
    "square_name",
]

BLANK = "?"
"""How a blank tile is written on a rack and in a tile set."""

Coord = tuple[int, int]
"""A square as (row, column), both from 0; written H8 (column letter, row number) for people."""

StartRule = Literal[
    "nearest_a",
    "nearest_z",
    "highest_value",
    "rack_nearest_a",
    "rack_nearest_z",
    "rack_highest_value",
    "random",
]
"""Who starts. ``nearest_a``, ``nearest_z``, ``highest_value``: every player draws one tile
(returned to the bag), the best tile by that order starts, the tied players draw again.
``rack_nearest_a``, ``rack_nearest_z``, ``rack_highest_value``: the racks are dealt first and
the player who holds the best rack by that order starts, racks compared from their best tile
down, tile by tile; racks alike tile for tile draw lots. ``random``: lots."""

START_RULES: tuple[StartRule, ...] = get_args(StartRule)
WordCheck = Literal["immediate", "challenge"]
TurnDirection = Literal["clockwise", "counterclockwise"]
TimeoutRule = Literal["skip", "penalty"]
ScorelessKind = Literal["pass", "exchange", "lost"]
BlankCount = Literal["either", "neither", "vowel", "consonant"]
"""How a blank counts towards duplicate's minimum of vowels and consonants on a rack."""
BLANK_COUNTS: tuple[BlankCount, ...] = get_args(BlankCount)


class VariantError(ValueError):
    """A rule file that is missing a value, has a wrong one, or cannot be found."""


def square_name(coord: Coord) -> str:
    """(7, 7) → "H8": the column letter, then the row number."""
    row, col = coord
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_square(text: str, rows: int, columns: int) -> Coord:
    """ "H8" → (7, 7); raises ValueError naming the square if it is not on the board."""
    t = text.strip().upper()
    if len(t) < 2 or not t[0].isalpha() or not t[1:].isdigit():
        raise ValueError(f"{text!r} is not a square (write the column letter, then the row: H8)")
    col = ord(t[0]) - ord("A")
    row = int(t[1:]) - 1
    if not (0 <= row < rows and 0 <= col < columns):
        last = chr(ord("A") + columns - 1)
        raise ValueError(f"{text!r} is off the board (columns A–{last}, rows 1–{rows})")
    return row, col


@dataclass(frozen=True)
class FirstMove:
    """How the game opens: where the first word must lie and what it earns."""

    anchor: Literal["cover", "first_letter"] = "cover"
    """``cover``: some tile on a start square; ``first_letter``: the word's first letter on it."""
    min_tiles: int = 2
    multiplier: int = 1
    """The whole first turn's score is multiplied by this (bingo bonus not included)."""
    bonus: int = 0
    """Added to the first word of the game, whoever plays it (a passed opening keeps it)."""


@dataclass(frozen=True)
class ExchangeRules:
    allowed: bool = True
    min_bag: int = 7
    """The bag must hold at least this many tiles (and at least as many as are exchanged)."""
    max_tiles: int = 7
    per_game: int = 0
    """Exchanges each player may make in a game; 0 means no limit."""
    only_when_blocked: bool = False
    """Only a player with no legal placement may exchange (Intelect)."""


@dataclass(frozen=True)
class EndRules:
    going_out: bool = True
    """The game ends when the bag is empty and a player has no tiles left."""
    no_one_can_play: bool = True
    """The game ends when the bag is empty and no player has a legal placement."""
    scoreless_rounds: int = 2
    """The game ends when every player has had this many successive scoreless turns (0: off)."""
    scoreless_kinds: tuple[ScorelessKind, ...] = ("pass",)
    all_out_of_time: bool = False
    subtract_own_rack: bool = True
    going_out_gains_others: bool = True
    """The player who went out gains the sum of the tiles left on the others' racks."""
    unplayed_blank_penalty: int = 0
    """Points each blank left on a rack costs, on top of its face value (Letras Top: 30)."""
    tie_break: Literal["none", "before_adjustments"] = "none"

    def scoreless_run(self, run: int, kind: str | None) -> int:
        """The run of scoreless turns after a turn: ``kind`` is ``pass``, ``exchange`` or
        ``lost`` for a turn without points, None for one that scored (a placement, a
        CAMBIO). A scoreless kind the game counts adds to the run; anything else ends it."""
        return run + 1 if kind in self.scoreless_kinds else 0


@dataclass(frozen=True)
class Clock:
    initial_seconds: int
    on_timeout: TimeoutRule = "skip"
    """``skip``: a player out of time is passed over; ``penalty``: play on, lose points."""
    penalty_points: int = 10
    penalty_every_seconds: int = 60
    per_move: bool = False
    """``initial_seconds`` is the time for each move, not for the game (correspondence: days
    per move). Every turn starts with the whole time; a player whose time runs out loses that
    turn (``skip`` only: there is no game time to be over, so no penalty to count)."""


@dataclass(frozen=True)
class DuplicateRules:
    """How the game is played in duplicate (``[duplicate]``; docs/competition.md).

    In duplicate every player gets the same rack each round, so a rack without vowels (or
    without consonants) would spoil a round for everyone at once. Federations therefore draw
    each round's rack under a minimum: so many vowels and consonants up to a stated round,
    another minimum after it. The numbers, how a blank counts, the solo bonus and the time of
    a round are rule data, here, so a club changes them in its rule file, not in code.
    """

    early_rounds: int = 15
    """Rounds 1 to this one need the early minimum; later rounds the late one."""
    early_vowels: int = 2
    early_consonants: int = 2
    late_vowels: int = 1
    late_consonants: int = 1
    blanks: BlankCount = "either"
    """``either``: each blank stands for a vowel or a consonant, whichever the rack lacks;
    ``neither``: blanks count for nothing; ``vowel`` / ``consonant``: always that."""
    solo_bonus: int = 0
    """Points for a player who alone found a top-scoring move (a game of two or more)."""
    round_seconds: int = 180
    """The time of a round; 0: no limit."""

    def minimum(self, round_number: int) -> tuple[int, int]:
        """(vowels, consonants) a rack of this round needs (rounds count from 1)."""
        if round_number <= self.early_rounds:
            return self.early_vowels, self.early_consonants
        return self.late_vowels, self.late_consonants


DUPLICATE_KEYS = (
    "early_rounds",
    "early_vowels",
    "early_consonants",
    "late_vowels",
    "late_consonants",
    "blanks",
    "solo_bonus",
    "round_seconds",
)


@dataclass(frozen=True)
class Variant:
    """One rule set. Immutable: a game holds its variant and never changes it."""

    name: str
    title: str
    language: str
    alphabet: Alphabet
    min_players: int
    max_players: int
    rows: int
    columns: int
    layout: tuple[tuple[str, ...], ...]
    """Square codes, row by row; ``.`` is a plain square."""
    squares: Mapping[str, SquareKind]
    start_squares: tuple[Coord, ...]
    tiles: Mapping[str, tuple[int, int]]
    """Tile → (count, value); the blank is ``?``."""
    rack_size: int
    bingo_bonus: int
    first_move: FirstMove
    exchange: ExchangeRules
    cambio_per_game: int
    word_check: WordCheck
    turn_direction: TurnDirection
    start_rule: StartRule
    blank_ranks_first: bool
    """For who starts, a blank ranks before every letter (else after every one): a drawn
    blank, or under a ``rack_`` rule a blank on a rack (the best tile a rack can hold)."""
    end: EndRules
    clock: Clock | None
    lexicon: str
    """The name of the game's default dictionary (``es``, ``ro``)."""
    word_changes: WordChanges = field(default_factory=WordChanges)
    """A club's words added to the dictionary and banned from it (``[words] add``/``remove``):
    every lexicon the game is judged by has them applied (``lexicon.amend``)."""
    assumed: Mapping[str, str] = field(default_factory=dict)
    """Dotted keys of values that are the project's decision, not the rule book's, with why."""
    source: str = ""
    titles: Mapping[str, str] = field(default_factory=dict)
    """The title in other languages, by language code (``[titles] es = "…"``); ``title`` is
    the one shown where a language has none."""
    descriptions: Mapping[str, str] = field(default_factory=dict)
    """A sentence or two saying what the game is, by language code (``[descriptions]``)."""
    duplicate: DuplicateRules = field(default_factory=DuplicateRules)
    """How the game is played in duplicate: the rack rule, the solo bonus, the round's time."""

    # -- board ---------------------------------------------------------------------------------

    def square_code(self, coord: Coord) -> str:
        return self.layout[coord[0]][coord[1]]

    def square_kind(self, coord: Coord) -> SquareKind:
        code = self.square_code(coord)
        return PLAIN if code == "." else self.squares[code]

    @property
    def center(self) -> Coord:
        return self.rows // 2, self.columns // 2

    def parse_square(self, text: str) -> Coord:
        return parse_square(text, self.rows, self.columns)

    # -- tiles ---------------------------------------------------------------------------------

    def value(self, tile: str) -> int:
        """Face value of a tile (a blank, ``?``, is worth what the tile set says: 0)."""
        return self.tiles[tile][1]

    @property
    def tile_count(self) -> int:
        return sum(count for count, _ in self.tiles.values())

    @property
    def has_blanks(self) -> bool:
        return self.tiles.get(BLANK, (0, 0))[0] > 0

    def letters(self) -> list[str]:
        """The letters this game has tiles for, in alphabetical order (no blank)."""
        return [t for t in self.alphabet.letters if t in self.tiles]

    def can_spell(self, tiles: list[str] | tuple[str, ...]) -> bool:
        """Whether a word's letters all exist in this tile set (no K tile, no K words)."""
        return all(t in self.tiles for t in tiles)

    def is_assumed(self, key: str) -> bool:
        return any(key == k or key.startswith(k + ".") for k in self.assumed)


# -- loading ---------------------------------------------------------------------------------


def builtin_variant_names() -> list[str]:
    files = resources.files("tablero") / "variants"
    return sorted(p.name.removesuffix(".toml") for p in files.iterdir() if p.name.endswith(".toml"))


@cache
def _load_builtin(name: str) -> Variant:
    text = (resources.files("tablero") / "variants" / f"{name}.toml").read_text("utf-8")
    return variant_from_toml(text, source=f"builtin:{name}")


def load_variant(name_or_path: str | Path) -> Variant:
    """A built-in variant by name (``fise``), or a user's rule file by path."""
    text_name = str(name_or_path)
    if isinstance(name_or_path, str) and text_name in builtin_variant_names():
        return _load_builtin(text_name)
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        try:
            text = path.read_text("utf-8")
        except OSError as e:
            raise VariantError(f"cannot read rule file {path}: {e.strerror}") from None
        return variant_from_toml(text, source=str(path))
    known = ", ".join(builtin_variant_names())
    raise VariantError(f"unknown variant {text_name!r}: use one of {known} or a .toml rule file")


def logged_variant(
    start: Mapping[str, Any], loader: Callable[[str], Variant] | None = None
) -> Variant:
    """The rule set a game log's start event names: its rule file (``variant_source``) when
    the game was not a built-in one, else the built-in game by name. ``loader`` stands in for
    ``load_variant`` (a server reads uploaded rule files from its own store)."""
    load = loader or load_variant
    source = str(start.get("variant_source", ""))
    if source and not source.startswith("builtin:"):
        return load(source)
    return load(str(start["variant"]))


def variant_from_toml(text: str, source: str = "<string>") -> Variant:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise VariantError(f"{source}: not valid TOML: {e}") from None
    return _VariantReader(data, source).read()


class _VariantReader:
    """Reads the TOML tables into a Variant, naming the file and key in every error."""

    def __init__(self, data: dict[str, Any], source: str) -> None:
        self.data = data
        self.source = source

    def fail(self, key: str, problem: str) -> VariantError:
        return VariantError(f"{self.source}: {key}: {problem}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        node: Any = self.data
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                if default is ...:
                    raise self.fail(key, "missing")
                return default
            node = node[part]
        if isinstance(node, bool) and kind is int:
            raise self.fail(key, f"expected a number, got {node!r}")
        if not isinstance(node, kind):
            raise self.fail(key, f"expected {_kind_name(kind)}, got {node!r}")
        return node

    def choice(self, key: str, options: tuple[str, ...], default: str) -> Any:
        value = self.get(key, str, default)
        if value not in options:
            raise self.fail(key, f"{value!r} is not one of {', '.join(options)}")
        return value

    def natural(self, key: str, default: int, minimum: int = 0) -> int:
        value: int = self.get(key, int, default)
        if value < minimum:
            raise self.fail(key, f"must be at least {minimum}, got {value}")
        return value

    def read(self) -> Variant:
        name = self.get("name", str)
        language = self.get("language", str)
        alphabet = self.read_alphabet(language)
        players = self.get("players", list)
        if len(players) != 2 or not all(isinstance(p, int) for p in players):
            raise self.fail("players", "expected [min, max]")
        min_players, max_players = players
        if not 1 <= min_players <= max_players <= 4:
            raise self.fail("players", "must satisfy 1 <= min <= max <= 4")

        rows = self.natural("board.rows", 15, 1)
        columns = self.natural("board.columns", 15, 1)
        if columns > 26:
            raise self.fail("board.columns", "at most 26 (columns are lettered A–Z)")
        squares = self.read_squares()
        layout = self.read_layout(rows, columns, squares)
        starts = self.read_starts(rows, columns)
        tiles = self.read_tiles(alphabet)
        rack_size = self.natural("rack_size", 7, 1)

        first = FirstMove(
            anchor=self.choice("first_move.anchor", ("cover", "first_letter"), "cover"),
            min_tiles=self.natural("first_move.min_tiles", 2, 1),
            multiplier=self.natural("first_move.multiplier", 1, 1),
            bonus=self.get("first_move.bonus", int, 0),
        )
        exchange = ExchangeRules(
            allowed=self.get("exchange.allowed", bool, True),
            min_bag=self.natural("exchange.min_bag", 7),
            max_tiles=self.natural("exchange.max_tiles", rack_size, 1),
            per_game=self.natural("exchange.per_game", 0),
            only_when_blocked=self.get("exchange.only_when_blocked", bool, False),
        )
        kinds = tuple(self.get("end.scoreless_kinds", list, ["pass"]))
        for k in kinds:
            if k not in ("pass", "exchange", "lost"):
                raise self.fail("end.scoreless_kinds", f"{k!r} is not pass, exchange or lost")
        end = EndRules(
            going_out=self.get("end.going_out", bool, True),
            no_one_can_play=self.get("end.no_one_can_play", bool, True),
            scoreless_rounds=self.natural("end.scoreless_rounds", 2),
            scoreless_kinds=kinds,
            all_out_of_time=self.get("end.all_out_of_time", bool, False),
            subtract_own_rack=self.get("end.subtract_own_rack", bool, True),
            going_out_gains_others=self.get("end.going_out_gains_others", bool, True),
            unplayed_blank_penalty=self.natural("end.unplayed_blank_penalty", 0),
            tie_break=self.choice("end.tie_break", ("none", "before_adjustments"), "none"),
        )
        clock = None
        if "clock" in self.data:
            clock = Clock(
                initial_seconds=self.natural("clock.initial_seconds", 0, 1),
                on_timeout=self.choice("clock.on_timeout", ("skip", "penalty"), "skip"),
                penalty_points=self.natural("clock.penalty_points", 10),
                penalty_every_seconds=self.natural("clock.penalty_every_seconds", 60, 1),
                per_move=self.get("clock.per_move", bool, False),
            )
            if clock.per_move and clock.on_timeout != "skip":
                raise self.fail(
                    "clock.per_move",
                    'a clock per move only takes on_timeout = "skip": the turn of a player '
                    "out of time is lost, since there is no game time to count a penalty on",
                )
        lexicon = self.get("lexicon", str, language)
        assumed = self.get("assumed", dict, {})
        for key, why in assumed.items():
            if not isinstance(why, str):
                raise self.fail(f"assumed.{key}", "expected a sentence saying why")
        return Variant(
            name=name,
            title=self.get("title", str, name),
            language=language,
            alphabet=alphabet,
            min_players=min_players,
            max_players=max_players,
            rows=rows,
            columns=columns,
            layout=layout,
            squares=squares,
            start_squares=starts,
            tiles=tiles,
            rack_size=rack_size,
            bingo_bonus=self.natural("bingo_bonus", 50),
            first_move=first,
            exchange=exchange,
            cambio_per_game=self.natural("cambio.per_game", 0),
            word_check=self.choice("words.check", ("immediate", "challenge"), "immediate"),
            turn_direction=self.choice(
                "turn_direction", ("clockwise", "counterclockwise"), "clockwise"
            ),
            start_rule=self.choice("start.rule", START_RULES, "nearest_a"),
            blank_ranks_first=self.get("start.blank_first", bool, True),
            end=end,
            clock=clock,
            lexicon=lexicon,
            word_changes=self.read_word_changes(alphabet, lexicon),
            assumed=dict(assumed),
            source=self.source,
            titles=self.texts("titles"),
            descriptions=self.texts("descriptions"),
            duplicate=self.read_duplicate(rack_size),
        )

    def read_duplicate(self, rack_size: int) -> DuplicateRules:
        """``[duplicate]``: every key optional (the defaults are ``DuplicateRules``'s), an
        unknown one refused by name, so a misspelt key is not silently ignored."""
        table = self.get("duplicate", dict, {})
        unknown = sorted(set(table) - set(DUPLICATE_KEYS))
        if unknown:
            raise self.fail(
                f"duplicate.{unknown[0]}", f"unknown key (known: {', '.join(DUPLICATE_KEYS)})"
            )
        d = DuplicateRules()
        if d.early_vowels + d.early_consonants > rack_size:
            # A game of small racks that says nothing about duplicate: the defaults shrink to
            # fit it (values the file gives are checked as given, below).
            vowels = min(d.early_vowels, rack_size // 2)
            d = replace(
                d,
                early_vowels=vowels,
                early_consonants=min(d.early_consonants, rack_size - vowels),
                late_vowels=min(d.late_vowels, rack_size // 2),
                late_consonants=min(
                    d.late_consonants, rack_size - min(d.late_vowels, rack_size // 2)
                ),
            )
        rules = DuplicateRules(
            early_rounds=self.natural("duplicate.early_rounds", d.early_rounds),
            early_vowels=self.natural("duplicate.early_vowels", d.early_vowels),
            early_consonants=self.natural("duplicate.early_consonants", d.early_consonants),
            late_vowels=self.natural("duplicate.late_vowels", d.late_vowels),
            late_consonants=self.natural("duplicate.late_consonants", d.late_consonants),
            blanks=self.choice("duplicate.blanks", BLANK_COUNTS, d.blanks),
            solo_bonus=self.natural("duplicate.solo_bonus", d.solo_bonus),
            round_seconds=self.natural("duplicate.round_seconds", d.round_seconds),
        )
        for stage in ("early", "late"):
            vowels = getattr(rules, f"{stage}_vowels")
            consonants = getattr(rules, f"{stage}_consonants")
            if vowels + consonants > rack_size:
                raise self.fail(
                    f"duplicate.{stage}_vowels",
                    f"{vowels} vowels and {consonants} consonants make {vowels + consonants} "
                    f"tiles, more than a rack of {rack_size}",
                )
        return rules

    def read_word_changes(self, alphabet: Alphabet, lexicon: str) -> WordChanges:
        """``[words] add = [...]`` and ``remove = [...]``: a club's changes to the dictionary."""
        lists = []
        for key in ("words.add", "words.remove"):
            words = self.get(key, list, [])
            if not all(isinstance(w, str) for w in words):
                raise self.fail(key, "expected a list of words")
            lists.append(words)
        try:
            changes = WordChanges.of(lists[0], lists[1], alphabet)
        except LexiconError as e:
            raise self.fail("words", str(e)) from None
        if changes and lexicon == "none":
            raise self.fail("words", 'lexicon = "none" checks no words: there is none to change')
        return changes

    def read_alphabet(self, language: str) -> Alphabet:
        """The rule file's own ``[alphabet]`` if it has one, else the language's shipped one."""
        if "alphabet" not in self.data:
            try:
                return alphabet_by_name(language)
            except AlphabetError as e:
                raise self.fail("language", str(e)) from None
        try:
            return alphabet_from_table(self.get("alphabet", dict), language)
        except AlphabetError as e:
            raise self.fail("alphabet", str(e)) from None

    def texts(self, key: str) -> dict[str, str]:
        """A table of texts by language code (``es``, ``ro``, ``en``…)."""
        table = self.get(key, dict, {})
        for lang, text in table.items():
            if not isinstance(text, str):
                raise self.fail(f"{key}.{lang}", f"expected a text, got {text!r}")
        return dict(table)

    def read_squares(self) -> dict[str, SquareKind]:
        table = self.get("squares", dict, {})
        out: dict[str, SquareKind] = {}
        for code, spec in table.items():
            if not isinstance(spec, dict):
                raise self.fail(f"squares.{code}", 'expected a table like { kind = "word", ... }')
            try:
                out[code] = square_kind(code, spec)
            except ValueError as e:
                raise self.fail(f"squares.{code}", str(e)) from None
        return out

    def read_layout(
        self, rows: int, columns: int, squares: dict[str, SquareKind]
    ) -> tuple[tuple[str, ...], ...]:
        text = self.get("board.layout", str)
        lines = [line.split() for line in text.strip().splitlines() if line.strip()]
        if len(lines) != rows:
            raise self.fail("board.layout", f"has {len(lines)} rows, board.rows says {rows}")
        for i, line in enumerate(lines, 1):
            if len(line) != columns:
                raise self.fail(
                    "board.layout", f"row {i} has {len(line)} squares, board.columns is {columns}"
                )
            for code in line:
                if code != "." and code not in squares:
                    raise self.fail(
                        "board.layout", f"row {i}: square code {code!r} is not in [squares]"
                    )
        return tuple(tuple(line) for line in lines)

    def read_starts(self, rows: int, columns: int) -> tuple[Coord, ...]:
        names = self.get("board.start", list)
        if not names:
            raise self.fail("board.start", "at least one start square is needed")
        out = []
        for n in names:
            try:
                out.append(parse_square(str(n), rows, columns))
            except ValueError as e:
                raise self.fail("board.start", str(e)) from None
        return tuple(out)

    def read_tiles(self, alphabet: Alphabet) -> dict[str, tuple[int, int]]:
        table = self.get("tiles", dict)
        tiles: dict[str, tuple[int, int]] = {}
        for letter, spec in table.items():
            ok = (
                isinstance(spec, list)
                and len(spec) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in spec)
            )
            if not ok:
                raise self.fail(f"tiles.{letter}", "expected [count, value] with whole numbers")
            if letter != BLANK and not alphabet.is_letter(letter):
                raise self.fail(f"tiles.{letter}", f"not a letter of the {alphabet.name} alphabet")
            key = letter if letter == BLANK else letter.upper()
            tiles[key] = (spec[0], spec[1])
        if not tiles:
            raise self.fail("tiles", "the tile set is empty")
        order = {t: i for i, t in enumerate(alphabet.letters)}
        return dict(sorted(tiles.items(), key=lambda kv: order.get(kv[0], len(order))))


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {
        str: "text",
        int: "a whole number",
        bool: "true or false",
        list: "a list",
        dict: "a table",
    }
    if isinstance(kind, tuple):
        return " or ".join(names.get(k, k.__name__) for k in kind)
    return names.get(kind, kind.__name__)
