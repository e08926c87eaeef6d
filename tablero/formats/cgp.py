"""CGP: a crossword-game position on one line, as FEN is for chess.

Specified in ``docs/formats.md``. Example (FISE, the player to move holds F S S T U)::

    15/5A9/.../1A[RR]UASEN6D FSSTU/ 0/0 0 var fise; lex es;

Four fields, then operations:

1. the board, rows top to bottom separated by ``/``; a number is that many empty squares;
   a letter is a tile, lowercase for a blank; a digraph tile is written ``[CH]`` (``[ch]`` blank);
2. the racks, the player to move first, separated by ``/`` (an unknown rack is empty);
   ``?`` is a blank;
3. the scores in the same order, separated by ``/``;
4. the number of successive scoreless turns;
5. operations ``name value;``: ``var`` the variant (a built-in name), ``lex`` the lexicon,
   and ours: ``bag`` tiles in the bag, ``exch`` exchanges used and ``cambio`` CAMBIOs used, per
   player in rack order (``exch 1/0;``).

Racks, scores and the per-player lists may have 2 to 4 entries, for tables of up to four.
"""

from __future__ import annotations

import re

from ..board import Board, Tile
from ..moves import NotationError, parse_rack
from ..position import Position
from ..variant import Variant, VariantError, load_variant

__all__ = ["CgpError", "read_board", "read_cgp", "write_board", "write_cgp"]


class CgpError(ValueError):
    """A CGP string that is malformed or does not fit its variant."""


def read_cgp(text: str, variant: Variant | None = None) -> Position:
    """Parse a CGP line. The variant comes from ``var`` unless given; FISE if neither."""
    fields = text.strip().split(None, 4)
    if len(fields) < 4:
        raise CgpError(
            "a CGP has at least four fields: board, racks, scores, scoreless turns "
            f"(got {len(fields)})"
        )
    board_text, racks_text, scores_text, zero_text = fields[:4]
    ops = _read_ops(fields[4] if len(fields) > 4 else "")
    if variant is None:
        try:
            variant = load_variant(ops.get("var", "fise"))
        except VariantError as e:
            raise CgpError(str(e)) from None
    board = read_board(board_text, variant)
    try:
        racks = [parse_rack(r, variant.alphabet) for r in racks_text.split("/")]
    except NotationError as e:
        raise CgpError(f"racks: {e}") from None
    scores = _ints(scores_text, "scores", allow_negative=True)
    if len(racks) != len(scores):
        raise CgpError(f"{len(racks)} racks but {len(scores)} scores")
    if not 1 <= len(racks) <= 4:
        raise CgpError(f"{len(racks)} players: a table has 1 to 4")
    for rack in racks:
        if len(rack) > variant.rack_size:
            raise CgpError(
                f"a rack of {len(rack)} tiles; {variant.title} racks hold {variant.rack_size}"
            )
    if not zero_text.isdigit():
        raise CgpError(f"scoreless turns: {zero_text!r} is not a whole number")
    position = Position(
        variant=variant,
        board=board,
        racks=racks,
        scores=scores,
        scoreless_turns=int(zero_text),
        lexicon=ops.get("lex"),
        exchanges_used=_per_player(ops, "exch", len(racks)),
        cambios_used=_per_player(ops, "cambio", len(racks)),
        bag=int(ops["bag"]) if "bag" in ops and ops["bag"].isdigit() else None,
    )
    if "bag" in ops and not ops["bag"].isdigit():
        raise CgpError(f"bag: {ops['bag']!r} is not a whole number")
    try:
        position.check_tiles()
    except ValueError as e:
        raise CgpError(str(e)) from None
    return position


def cgp_ops(text: str) -> dict[str, str]:
    """A CGP line's operations (``var``, ``lex``, ``bag``…), read without loading anything:
    a server picks the rules it allows before ``read_cgp`` sees the line."""
    fields = text.strip().split(None, 4)
    return _read_ops(fields[4]) if len(fields) > 4 else {}


def write_cgp(position: Position) -> str:
    """The CGP line of a position; ``read_cgp(write_cgp(p))`` gives p back."""
    racks = "/".join(
        "".join(f"[{t}]" if len(t) > 1 else t for t in rack) for rack in position.racks
    )
    scores = "/".join(str(s) for s in position.scores)
    ops = [f"var {position.variant.name};"]
    if position.lexicon:
        ops.append(f"lex {position.lexicon};")
    if position.bag is not None:
        ops.append(f"bag {position.bag};")
    if any(position.exchanges_used):
        ops.append("exch " + "/".join(map(str, position.exchanges_used)) + ";")
    if any(position.cambios_used):
        ops.append("cambio " + "/".join(map(str, position.cambios_used)) + ";")
    if not racks:
        racks = "/"  # an empty field would vanish between the spaces
    board = write_board(position.board)
    return f"{board} {racks} {scores} {position.scoreless_turns} {' '.join(ops)}"


def write_board(board: Board) -> str:
    """A board as the first field of a CGP line: rows top to bottom, ``/`` between them, a
    run of empty squares as its length, a blank in lowercase, a digraph in brackets."""
    rows = []
    for r in range(board.rows):
        out, run = [], 0
        for tile in board.row(r):
            if tile is None:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(tile.notation())
        if run:
            out.append(str(run))
        rows.append("".join(out))
    return "/".join(rows)


_TOKEN = re.compile(r"\d+|\[[^\]]*\]|.", re.DOTALL)


def read_board(text: str, variant: Variant) -> Board:
    """A board written by ``write_board``, for ``variant``; ``CgpError`` says what is wrong."""
    rows = text.split("/")
    if len(rows) != variant.rows:
        raise CgpError(f"the board has {len(rows)} rows; {variant.title} has {variant.rows}")
    board = Board(variant.rows, variant.columns)
    for r, row in enumerate(rows):
        c = 0
        for token in _TOKEN.findall(row):
            if token.isdigit():
                c += int(token)
                continue
            inner = token[1:-1] if token.startswith("[") else token
            if not inner or not inner.isalpha() or not (inner.isupper() or inner.islower()):
                raise CgpError(f"row {r + 1}: {token!r} is not a tile")
            letter = variant.alphabet.normalize(inner)
            if not variant.alphabet.is_letter(letter) or (
                len(letter) > 1 and not token.startswith("[")
            ):
                raise CgpError(f"row {r + 1}: {token!r} is not a tile of {variant.title}")
            if c >= variant.columns:
                raise CgpError(f"row {r + 1} is longer than {variant.columns} squares")
            board[(r, c)] = Tile(letter, inner.islower())
            c += 1
        if c != variant.columns:
            raise CgpError(f"row {r + 1} has {c} squares; the board is {variant.columns} wide")
    return board


def _read_ops(text: str) -> dict[str, str]:
    ops: dict[str, str] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        name, _, value = part.partition(" ")
        ops[name] = value.strip()
    return ops


def _ints(text: str, what: str, allow_negative: bool = False) -> list[int]:
    out = []
    for part in text.split("/"):
        p = part.strip()
        digits = p[1:] if allow_negative and p.startswith("-") else p
        if not digits.isdigit():
            raise CgpError(f"{what}: {part!r} is not a whole number")
        out.append(int(p))
    return out


def _per_player(ops: dict[str, str], name: str, players: int) -> list[int]:
    if name not in ops:
        return [0] * players
    values = _ints(ops[name], name)
    if len(values) != players:
        raise CgpError(f"{name}: {len(values)} values for {players} players")
    return values
