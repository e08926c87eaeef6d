"""Request bodies (HTTP and WebSocket share them) and their translation into game moves.

Validation is strict about shape and says which field is wrong; whether a move is *legal*
is the rules engine's business, not this module's.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...board import Board, Tile
from ...moves import Cambio, Challenge, Exchange, Move, NotationError, Pass, parse_move
from ...rules import IllegalMove, placement_from_squares
from ...variant import BLANK, Coord, Variant, parse_square
from ..errors import ApiError, from_illegal, from_notation
from ..web.requests import validation_error

__all__ = [
    "AuthMessage",
    "CreateTableRequest",
    "HintRequest",
    "MoveIn",
    "MoveRequest",
    "PreviewRequest",
    "SitRequest",
    "TileIn",
    "check_nickname",
    "check_title",
    "decode_move",
    "decode_tiles",
    "disguising_character",
]

NICKNAME_MAX = 24
CLUB_WORDS_MAX = 2_000
"""Words a table may add to its dictionary, and as many it may ban (house rules)."""
CLUB_WORD_CHARS = 40
"""Characters of one such word."""
TOKEN_MAX = 200
"""Longer than any seat token (43 characters); a longer one is refused without a look-up."""

_JOINERS = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: format characters that written languages need."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore")


class TileIn(_Body):
    square: str = Field(max_length=4)
    letter: str = Field(max_length=4)
    blank: bool = False


class MoveIn(_Body):
    kind: Literal["place", "exchange", "pass", "cambio", "challenge", "notation", "resign"]
    """``resign``: give up, at any time (not only on one's turn); see ``Room.move``."""
    tiles: list[Any] | None = Field(default=None, max_length=30)
    square: str | None = Field(default=None, max_length=4)
    letter: str | None = Field(default=None, max_length=4)
    blank: bool = False
    text: str | None = Field(default=None, max_length=200)


class MoveRequest(_Body):
    seq: int
    move: MoveIn


class PreviewRequest(_Body):
    tiles: list[TileIn] | None = Field(default=None, max_length=30)
    move: MoveIn | None = None


class SeatSpec(_Body):
    kind: Literal["open", "bot"]
    level: int | None = None


class CreateTableRequest(_Body):
    variant: str = Field(max_length=32)
    seats: list[SeatSpec] = Field(max_length=4)
    clock_minutes: int | None = None
    """Each player's time for the game, 1–180 minutes; null: untimed. Absent: the game's own."""
    days_per_move: int | None = None
    """A correspondence game: 1–14 days for each move (then no ``clock_minutes``)."""
    dictionary_hints: bool = False
    title: str | None = Field(default=None, max_length=60)
    language: Literal["es", "ro", "en"] | None = None
    quiet_spectators: bool = False
    """The players do not see the spectators' chat until the game is over (no help while
    playing, as the rule books ask)."""
    hints: bool = False
    """Players may ask the engine for their best moves during the game (shown to everyone; a
    table with hints is never rated)."""
    rated: bool = True
    """Rated if the game allows it: a built-in game, every seat an account or a computer
    player, at least one account (``ratings/store.py``). False: casual whoever sits."""
    lexicon: str | None = Field(default=None, max_length=32)
    """A dictionary installed on the server for the game's language (``GET /api/lexicons``)
    instead of the game's own; null: the game's own."""
    words_added: list[Annotated[str, Field(max_length=CLUB_WORD_CHARS)]] = Field(
        default_factory=list, max_length=CLUB_WORDS_MAX
    )
    """The club's words: valid at this table though the dictionary lacks them."""
    words_removed: list[Annotated[str, Field(max_length=CLUB_WORD_CHARS)]] = Field(
        default_factory=list, max_length=CLUB_WORDS_MAX
    )
    """Words the club bans: refused at this table though the dictionary has them."""


class HintRequest(_Body):
    count: int = Field(default=3, ge=1, le=10)
    """How many of the best moves (1–10)."""


class ChatRequest(_Body):
    text: str = Field(max_length=2000)
    """The line (1–300 characters once trimmed: ``chat.lines.check_text``)."""


class SitRequest(_Body):
    seat: int
    nickname: str | None = Field(default=None, max_length=200)
    """A guest's name at the table; a logged-in player sits under their username."""


class AuthMessage(_Body):
    """The WebSocket message that makes a connection a seat's: ``{"type": "auth", "token"}``,
    or ``{"type": "auth"}`` alone for the seat of the account whose session cookie came with
    the handshake."""

    token: str | None = Field(default=None, min_length=1, max_length=TOKEN_MAX)


def disguising_character(text: str) -> str | None:
    """The first character of ``text`` that ``_disguising`` refuses, if any."""
    return next((ch for ch in text if _disguising(ch)), None)


def _disguising(ch: str) -> bool:
    """Characters that are not shown but change how the text around them is shown or read:
    controls, line separators, bidi overrides and marks (after U+202E, "gnp.exe" shows as
    "exe.png"), and the other format characters (category Cf) but the joiners, which scripts
    need; lone surrogates are not text at all."""
    if ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029":
        return True
    category = unicodedata.category(ch)
    return (category == "Cf" and ch not in _JOINERS) or category == "Cs"


def check_nickname(nickname: str) -> str:
    """1–24 characters, not blank, no control or invisible formatting characters; kept
    exactly as given."""
    if not nickname.strip():
        raise ApiError(422, "bad_nickname", "the nickname is empty")
    if len(nickname) > NICKNAME_MAX:
        raise ApiError(422, "bad_nickname", f"a nickname has at most {NICKNAME_MAX} characters")
    for ch in nickname:
        if ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029":
            raise ApiError(422, "bad_nickname", "a nickname cannot contain control characters")
        if _disguising(ch):
            raise ApiError(
                422,
                "bad_nickname",
                f"a nickname cannot contain invisible formatting characters such as "
                f"U+{ord(ch):04X} (they can disguise the text around them)",
            )
    return nickname


def check_title(title: str | None) -> str | None:
    """A table's title: no control or invisible formatting characters (as nicknames)."""
    ch = disguising_character(title or "")
    if ch is not None:
        raise ApiError(
            422,
            "invalid_request",
            f"title: a title cannot contain control or invisible formatting characters "
            f"such as U+{ord(ch):04X}",
            field="title",
        )
    return title


def _square(text: str, variant: Variant, field: str) -> Coord:
    try:
        return parse_square(text, variant.rows, variant.columns)
    except ValueError as e:
        raise ApiError(422, "invalid_request", f"{field}: {e}", field=field) from None


def _letter(text: str, variant: Variant, field: str) -> str:
    letter = variant.alphabet.normalize(text.strip())
    if not letter or not variant.alphabet.is_letter(letter):
        raise ApiError(
            422,
            "invalid_request",
            f"{field}: {text!r} is not a letter of the {variant.alphabet.name} alphabet",
            field=field,
        )
    return letter


def decode_tiles(
    tiles: list[TileIn], variant: Variant, prefix: str = ""
) -> list[tuple[Coord, Tile]]:
    out: list[tuple[Coord, Tile]] = []
    seen: set[Coord] = set()
    for i, t in enumerate(tiles):
        where = f"{prefix}tiles[{i}]"
        coord = _square(t.square, variant, f"{where}.square")
        if coord in seen:
            raise ApiError(
                422, "invalid_request", f"{where}: {t.square} is used twice", field=where
            )
        seen.add(coord)
        if t.letter.strip() == BLANK:
            raise ApiError(
                422,
                "invalid_request",
                f"{where}.letter: choose the letter the blank stands for",
                field=f"{where}.letter",
            )
        out.append((coord, Tile(_letter(t.letter, variant, f"{where}.letter"), t.blank)))
    return out


def decode_move(move: MoveIn, variant: Variant, board: Board) -> Move:
    """The game move a request describes; ApiError for a malformed one, or an illegal
    arrangement of tiles (gap, not in line: ``placement_from_squares``'s rules)."""
    try:
        match move.kind:
            case "pass":
                return Pass()
            case "challenge":
                return Challenge()
            case "notation":
                if move.text is None:
                    raise _missing("text", "the move in notation, e.g. '8H CASA'")
                return parse_move(move.text, variant.alphabet, variant.rows, variant.columns)
            case "place":
                if move.tiles is None:
                    raise _missing("tiles", "the tiles put on the board")
                tiles = []
                for i, t in enumerate(move.tiles):
                    try:
                        tiles.append(TileIn.model_validate(t))
                    except ValidationError as e:
                        raise validation_error(_prefix(e, f"move.tiles.{i}")) from None
                return placement_from_squares(board, decode_tiles(tiles, variant, "move."))
            case "exchange":
                if not move.tiles:
                    raise _missing("tiles", 'the rack tiles to exchange, e.g. ["A", "?"]')
                rack: list[str] = []
                for i, t in enumerate(move.tiles):
                    field = f"move.tiles[{i}]"
                    if not isinstance(t, str):
                        raise ApiError(
                            422, "invalid_request", f"{field}: a tile as text", field=field
                        )
                    rack.append(BLANK if t.strip() == BLANK else _letter(t, variant, field))
                return Exchange(tuple(rack))
            case "cambio":
                if move.square is None or move.letter is None:
                    raise _missing("square", "the square and the letter, e.g. H8 and D")
                coord = _square(move.square, variant, "move.square")
                return Cambio(coord, Tile(_letter(move.letter, variant, "move.letter"), move.blank))
    except NotationError as e:
        raise from_notation(e) from None
    except IllegalMove as e:
        raise from_illegal(e) from None
    raise ApiError(422, "invalid_request", f"unknown move kind {move.kind!r}")  # pragma: no cover


def _missing(name: str, what: str) -> ApiError:
    return ApiError(422, "invalid_request", f"move.{name}: missing ({what})", field=f"move.{name}")


def _prefix(e: ValidationError, prefix: str) -> list[Any]:
    out = []
    for err in e.errors():
        d = dict(err)
        d["loc"] = (*prefix.split("."), *err.get("loc", ()))
        out.append(d)
    return out
