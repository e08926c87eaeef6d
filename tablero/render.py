"""Drawing boards, racks and rule sets for the terminal (with Rich).

One place decides how a square looks, so ``tablero variant show`` and ``tablero play`` agree:
premium squares in the colours players know (red word squares, blue letter squares), start
squares marked, ±N squares green/grey, 4W purple, EX orange.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .board import Board, Tile
from .variant import Variant

__all__ = ["board_table", "rack_text", "rules_table", "square_style", "tiles_table"]

_STYLES = {
    "letter": {2: "on dodger_blue2", 3: "on blue3"},
    "word": {2: "on light_pink3", 3: "on red3"},
}


def square_style(variant: Variant, coord: tuple[int, int]) -> tuple[str, str]:
    """(label, Rich style) of an empty square."""
    code = variant.square_code(coord)
    start = coord in variant.start_squares
    if code == ".":
        return ("★" if start else "·"), ("bold yellow" if start else "grey50")
    kind = variant.square_kind(coord)
    name = kind.kind_name
    factor = getattr(kind, "factor", 0)
    if name in _STYLES:
        style = _STYLES[name].get(factor, "on magenta")
    elif name == "word_end":
        style = "on purple4"
    elif name == "word_add":
        style = "on dark_green" if getattr(kind, "amount", 0) >= 0 else "on grey30"
    else:
        style = "on dark_orange3"
    label = code + ("★" if start else "")
    return label, f"bold white {style}"


def board_table(
    variant: Variant, board: Board | None = None, last: set[tuple[int, int]] | None = None
) -> Table:
    """The board as a grid: column letters on top, row numbers on the left."""
    table = Table(show_header=True, box=None, padding=(0, 0), pad_edge=False)
    table.add_column("", justify="left", style="bold", no_wrap=True)
    for c in range(variant.columns):
        table.add_column(chr(ord("A") + c), justify="center", width=3)
    for r in range(variant.rows):
        cells: list[Text | str] = [Text(f"{r + 1:>2} ")]
        for c in range(variant.columns):
            tile = board[(r, c)] if board is not None else None
            if tile is None:
                label, style = square_style(variant, (r, c))
                cells.append(Text(label[:3], style=style))
            else:
                cells.append(tile_text(variant, tile, highlight=bool(last and (r, c) in last)))
        table.add_row(*cells)
    return table


def tile_text(variant: Variant, tile: Tile, highlight: bool = False) -> Text:
    letter = tile.letter.lower() if tile.blank else tile.letter
    style = "bold black on wheat1" if not highlight else "bold black on gold1"
    if tile.blank:
        style = "italic black on grey85"
    return Text(letter, style=style)


def rack_text(variant: Variant, rack: list[str] | tuple[str, ...]) -> Text:
    """A rack with each tile's value as a subscript-like suffix: A1 CH5 ?0."""
    out = Text()
    for t in rack:
        value = variant.value(t)
        out.append(f" {t}", style="bold black on wheat1")
        out.append(f"{value} ", style="black on wheat1")
        out.append(" ")
    return out


def tiles_table(variant: Variant) -> Table:
    table = Table(title="Tiles", show_lines=False)
    table.add_column("tile")
    table.add_column("count", justify="right")
    table.add_column("value", justify="right")
    for tile, (count, value) in variant.tiles.items():
        table.add_row("blank" if tile == "?" else tile, str(count), str(value))
    table.add_row("total", str(variant.tile_count), "", style="bold")
    return table


def rules_table(variant: Variant) -> Table:
    """Every rule value, with the project's assumptions marked and explained."""
    v = variant
    table = Table(title=f"Rules of {v.title}", show_lines=False)
    table.add_column("rule")
    table.add_column("value")
    table.add_column("assumed?", style="yellow")

    def row(key: str, value: object) -> None:
        table.add_row(key, str(value), "assumed" if v.is_assumed(key) else "")

    row("language / dictionary", f"{v.language} / {v.lexicon}")
    row("players", f"{v.min_players}–{v.max_players}")
    row("board", f"{v.columns}×{v.rows}")
    row("board.start", ", ".join(f"{chr(65 + c)}{r + 1}" for r, c in v.start_squares))
    row("squares", "; ".join(f"{code}: {kind.describe()}" for code, kind in v.squares.items()))
    row("tiles", f"{v.tile_count} ({v.tiles.get('?', (0, 0))[0]} blanks)")
    row("rack_size", v.rack_size)
    row("bingo_bonus", v.bingo_bonus)
    f = v.first_move
    row(
        "first_move.anchor",
        "a tile on a start square" if f.anchor == "cover" else "first letter on the start square",
    )
    row("first_move.min_tiles", f.min_tiles)
    row("first_move.multiplier", f.multiplier)
    row("first_move.bonus", f.bonus)
    e = v.exchange
    row("exchange.allowed", e.allowed)
    row("exchange.min_bag", e.min_bag)
    row("exchange.max_tiles", e.max_tiles)
    row("exchange.per_game", e.per_game or "no limit")
    row("exchange.only_when_blocked", e.only_when_blocked)
    row("cambio.per_game", v.cambio_per_game or "no CAMBIO")
    row("words.check", "when challenged" if v.word_check == "challenge" else "as played")
    row("turn_direction", v.turn_direction)
    row("start.rule", v.start_rule)
    row("start.blank_first", v.blank_ranks_first)
    end = v.end
    row("end.going_out", end.going_out)
    row("end.no_one_can_play", end.no_one_can_play)
    row("end.scoreless_rounds", f"{end.scoreless_rounds} ({', '.join(end.scoreless_kinds)})")
    row("end.all_out_of_time", end.all_out_of_time)
    row("end.subtract_own_rack", end.subtract_own_rack)
    row("end.going_out_gains_others", end.going_out_gains_others)
    row("end.unplayed_blank_penalty", end.unplayed_blank_penalty)
    row("end.tie_break", end.tie_break)
    d = v.duplicate
    row(
        "duplicate",
        f"racks of rounds 1–{d.early_rounds}: {d.early_vowels} vowels, {d.early_consonants} "
        f"consonants; then {d.late_vowels} and {d.late_consonants}; a blank counts as "
        f"{d.blanks}; solo bonus {d.solo_bonus}; "
        + (f"{d.round_seconds} s a round" if d.round_seconds else "no time limit"),
    )
    if v.clock:
        each = "a move" if v.clock.per_move else "a player"
        time = f"{v.clock.initial_seconds // 60} min {each}"
        row("clock", f"{time}, on timeout: {v.clock.on_timeout}")
    else:
        row("clock", "none")
    return table


def assumptions_group(variant: Variant) -> Group:
    lines = [Text("Assumed (not in the rule book):", style="bold yellow")]
    for key, why in variant.assumed.items():
        lines.append(Text(f"  {key}: {why}"))
    return Group(*lines)
