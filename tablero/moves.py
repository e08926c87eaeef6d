"""Moves and their notation.

=================  ==========================================================================
``8H CASA``        a word across, starting at row 8, column H
``H8 CASA``        a word down, starting at column H, row 8
``8H CA(S)A``      letters already on the board in parentheses (or written plainly, or ``.``)
``8H cASA``        a blank is written lowercase: here a blank standing for C
``8H [CH]ILLAR``   a digraph tile in brackets; plain ``CHILLAR`` means the same (CH·I·LL·A·R)
``-ABC``           exchange these tiles (``?`` is a blank, ``[CH]`` a digraph; ``LL`` is two Ls)
``-``              pass
``CAMBIO H8 D``    Crucigrama's CAMBIO: the tile on H8 is replaced by a D from the rack
``CHALLENGE``      challenge the previous player's words (Cruzapalabras Bisonte)
=================  ==========================================================================

Columns run from A for as many as the board has (A–Q on the 17-column Cuvinte board).
A parsed move is a plain value; it is checked against a position by ``tablero.rules``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .alphabet import Alphabet, SpellingError
from .board import Tile
from .variant import BLANK, Coord, square_name

__all__ = [
    "Cambio",
    "Challenge",
    "Exchange",
    "Letter",
    "Move",
    "NotationError",
    "Pass",
    "Place",
    "format_move",
    "parse_move",
]


class NotationError(ValueError):
    """Text that is not a move in the notation; the message says what part is wrong."""


@dataclass(frozen=True)
class Letter:
    """One square of a placed word as written.

    ``tile`` is None for ``.`` (whatever is on the board there). ``on_board`` is True when the
    writer said the square is already occupied (parentheses or ``.``), None when not said.
    """

    tile: Tile | None
    on_board: bool | None = None


@dataclass(frozen=True)
class Place:
    start: Coord
    across: bool
    letters: tuple[Letter, ...]

    @property
    def kind(self) -> str:
        return "place"


@dataclass(frozen=True)
class Exchange:
    tiles: tuple[str, ...]
    """Tiles as on a rack: letters, ``?`` for a blank."""

    @property
    def kind(self) -> str:
        return "exchange"


@dataclass(frozen=True)
class Pass:
    @property
    def kind(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Cambio:
    square: Coord
    tile: Tile
    """The tile put on the square: a letter from the rack, or a blank (lowercase) for one."""

    @property
    def kind(self) -> str:
        return "cambio"


@dataclass(frozen=True)
class Challenge:
    @property
    def kind(self) -> str:
        return "challenge"


Move = Place | Exchange | Pass | Cambio | Challenge

_ACROSS = re.compile(r"^(\d{1,2})([A-Za-z])$")
_DOWN = re.compile(r"^([A-Za-z])(\d{1,2})$")


def parse_move(text: str, alphabet: Alphabet, rows: int = 15, columns: int = 15) -> Move:
    """Read a move in the notation above. Raises NotationError saying what is wrong."""
    t = text.strip()
    if not t:
        raise NotationError("empty move: write e.g. '8H CASA', '-ABC' to exchange, '-' to pass")
    if t == "-":
        return Pass()
    if t.startswith("-"):
        return Exchange(_parse_rack_tiles(t[1:].strip(), alphabet))
    head, _, rest = t.partition(" ")
    if head.upper() == "CAMBIO":
        return _parse_cambio(rest.strip(), alphabet, rows, columns)
    if head.upper() in ("CHALLENGE", "DESAFIO", "DESAFÍO"):
        if rest.strip():
            raise NotationError("CHALLENGE takes nothing after it")
        return Challenge()
    if head.upper() in ("PASS", "PASO", "PAS"):
        return Pass()
    word = rest.strip()
    if not word:
        raise NotationError(f"{t!r}: a square and a word are needed, e.g. '8H CASA'")
    start, across = _parse_place_square(head, rows, columns)
    return Place(start, across, _parse_word(word, alphabet))


def _parse_place_square(text: str, rows: int, columns: int) -> tuple[Coord, bool]:
    if m := _ACROSS.match(text):
        row, col, across = int(m.group(1)), m.group(2), True
    elif m := _DOWN.match(text):
        col, row, across = m.group(1), int(m.group(2)), False
    else:
        raise NotationError(
            f"{text!r} is not a starting square: '8H' is across from row 8 column H, 'H8' is down"
        )
    c = ord(col.upper()) - ord("A")
    if not (1 <= row <= rows and 0 <= c < columns):
        last = chr(ord("A") + columns - 1)
        raise NotationError(f"{text!r} is off the board (columns A–{last}, rows 1–{rows})")
    return (row - 1, c), across


def _parse_cambio(text: str, alphabet: Alphabet, rows: int, columns: int) -> Cambio:
    parts = text.split()
    if len(parts) != 2:
        raise NotationError("CAMBIO needs a square and a letter, e.g. 'CAMBIO H8 D'")
    square, letter = parts
    m = _DOWN.match(square)
    if not m:
        raise NotationError(f"CAMBIO: {square!r} is not a square (column then row, e.g. H8)")
    col, row = ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1
    if not (0 <= row < rows and 0 <= col < columns):
        raise NotationError(f"CAMBIO: {square!r} is off the board")
    tiles = _parse_word(letter, alphabet)
    if len(tiles) != 1 or tiles[0].tile is None or tiles[0].on_board:
        raise NotationError(f"CAMBIO: {letter!r} is not a single letter")
    return Cambio((row, col), tiles[0].tile)


def _parse_rack_tiles(text: str, alphabet: Alphabet) -> tuple[str, ...]:
    """``AB?[CH]`` → (A, B, ?, CH). Used for exchanges and racks."""
    tiles: list[str] = []
    for token, bracketed in _tokens(text):
        if token == BLANK:
            tiles.append(BLANK)
            continue
        # On a rack plain letters are single tiles (LL is two L tiles); a digraph is bracketed.
        parts = [token] if bracketed else list(alphabet.normalize(token))
        for part in parts:
            if not alphabet.is_letter(part):
                raise NotationError(f"{part!r} is not a tile of the {alphabet.name} alphabet")
            tiles.append(alphabet.normalize(part))
    if not tiles:
        raise NotationError("an exchange names the tiles to return, e.g. '-ABC' ('-' alone passes)")
    return tuple(tiles)


def parse_rack(text: str, alphabet: Alphabet) -> tuple[str, ...]:
    """A rack as written: ``AB?[CH]``. Plain letters are single tiles, so ``LL`` is two L tiles
    and the LL tile is ``[LL]``: a rack is a set of tiles, not a word. Empty is allowed."""
    return _parse_rack_tiles(text, alphabet) if text.strip() else ()


def _tokens(text: str) -> list[tuple[str, bool]]:
    """Split ``ab[CH]?C`` into runs: [("ab", False), ("CH", True), ("?", False), ("C", False)].

    Runs break where case changes, so ``cH`` is a blank C then an H tile.
    """
    out: list[tuple[str, bool]] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "[":
            j = text.find("]", i)
            if j < 0:
                raise NotationError(f"{text!r}: '[' without ']'")
            inner = text[i + 1 : j]
            if not inner:
                raise NotationError(f"{text!r}: empty brackets")
            out.append((inner, True))
            i = j + 1
        elif ch == BLANK or ch == ".":
            out.append((ch, False))
            i += 1
        elif ch.isalpha():
            j = i
            while j < len(text) and text[j].isalpha() and text[j].isupper() == ch.isupper():
                j += 1
            out.append((text[i:j], False))
            i = j
        elif ch.isspace():
            i += 1
        else:
            raise NotationError(f"{text!r}: {ch!r} has no meaning here")
    return out


def _parse_word(text: str, alphabet: Alphabet) -> tuple[Letter, ...]:
    """The word part of a placement, with ``( )`` marking letters already on the board."""
    letters: list[Letter] = []
    depth_open = False
    segments: list[tuple[str, bool]] = []
    buf = ""
    for ch in text:
        if ch == "(":
            if depth_open:
                raise NotationError(f"{text!r}: parentheses cannot nest")
            segments.append((buf, False))
            buf, depth_open = "", True
        elif ch == ")":
            if not depth_open:
                raise NotationError(f"{text!r}: ')' without '('")
            segments.append((buf, True))
            buf, depth_open = "", False
        else:
            buf += ch
    if depth_open:
        raise NotationError(f"{text!r}: '(' without ')'")
    segments.append((buf, False))
    for segment, through in segments:
        for token, bracketed in _tokens(segment):
            if token == ".":
                letters.append(Letter(None, True))
                continue
            if token == BLANK:
                raise NotationError(
                    f"{text!r}: write a blank as the lowercase letter it stands for, not '?'"
                )
            blank = token.islower()
            try:
                if bracketed:
                    if not alphabet.is_letter(token) or not (token.isupper() or token.islower()):
                        raise SpellingError(
                            f"[{token}] is not a tile of the {alphabet.name} alphabet"
                        )
                    parts = [alphabet.normalize(token)]
                else:
                    parts = alphabet.tokenize(token)
            except SpellingError as e:
                raise NotationError(str(e)) from None
            for p in parts:
                letters.append(Letter(Tile(p, blank), True if through else None))
    if not letters:
        raise NotationError(f"{text!r}: no letters")
    return tuple(letters)


def format_move(move: Move, through: str = "paren") -> str:
    """Write a move in canonical notation.

    ``through`` says how letters already on the board are written for a placement whose
    ``on_board`` flags are known: ``paren`` (``CA(S)A``), ``plain`` (``CASA``) or ``dot``.
    """
    match move:
        case Pass():
            return "-"
        case Exchange(tiles):
            return "-" + "".join(f"[{t}]" if len(t) > 1 else t for t in tiles)
        case Challenge():
            return "CHALLENGE"
        case Cambio(square, tile):
            return f"CAMBIO {square_name(square)} {tile.notation()}"
        case Place(start, across, letters):
            row, col = start
            where = f"{row + 1}{chr(ord('A') + col)}" if across else square_name(start)
            return f"{where} {_format_letters(letters, through)}"
    raise TypeError(f"not a move: {move!r}")


def _format_letters(letters: tuple[Letter, ...], through: str) -> str:
    out = []
    open_paren = False
    for letter in letters:
        text = "." if letter.tile is None else letter.tile.notation()
        on_board = bool(letter.on_board)
        if through == "dot" and on_board:
            text = "."
        if through == "paren":
            if on_board and letter.tile is not None and not open_paren:
                out.append("(")
                open_paren = True
            elif (not on_board or letter.tile is None) and open_paren:
                out.append(")")
                open_paren = False
        out.append(text)
    if open_paren:
        out.append(")")
    return "".join(out)
