"""The board: which tile lies on which square, and the words a placement forms.

The board knows geometry only. What a square is worth is the variant's business
(``Variant.square_kind``); whether a placement is legal is ``tablero.rules``'.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .variant import Coord, square_name

__all__ = ["Board", "SquareInWord", "Tile", "WordOnBoard"]


@dataclass(frozen=True, order=True)
class Tile:
    """A tile as it lies on the board: its letter, and whether it is a blank standing for it."""

    letter: str
    blank: bool = False

    @property
    def rack_form(self) -> str:
        """How the tile sits on a rack: a blank is ``?`` until it is played."""
        return "?" if self.blank else self.letter

    def notation(self) -> str:
        """``A``, ``a`` for a blank, ``[CH]`` / ``[ch]`` for a digraph."""
        text = self.letter.lower() if self.blank else self.letter
        return f"[{text}]" if len(self.letter) > 1 else text


@dataclass(frozen=True)
class SquareInWord:
    coord: Coord
    tile: Tile
    new: bool
    """Placed this turn: only new tiles earn the square's premium."""


@dataclass(frozen=True)
class WordOnBoard:
    """A word read off the board after a placement: its squares in reading order."""

    squares: tuple[SquareInWord, ...]
    across: bool

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(s.tile.letter for s in self.squares)

    @property
    def text(self) -> str:
        return "".join(self.letters)

    @property
    def start(self) -> Coord:
        return self.squares[0].coord

    def notation(self) -> str:
        """``8H CASA`` / ``H8 CASA``: where the word starts, and the word (blanks lowercase)."""
        row, col = self.start
        where = f"{row + 1}{chr(ord('A') + col)}" if self.across else square_name(self.start)
        return f"{where} {''.join(s.tile.notation() for s in self.squares)}"

    def __len__(self) -> int:
        return len(self.squares)


class Board:
    """A grid of squares, each empty or holding one tile. Mutable; ``copy()`` is cheap."""

    __slots__ = ("_grid", "columns", "rows")

    def __init__(self, rows: int, columns: int) -> None:
        self.rows = rows
        self.columns = columns
        self._grid: list[list[Tile | None]] = [[None] * columns for _ in range(rows)]

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.rows, other.columns = self.rows, self.columns
        other._grid = [row[:] for row in self._grid]
        return other

    def __getitem__(self, coord: Coord) -> Tile | None:
        return self._grid[coord[0]][coord[1]]

    def __setitem__(self, coord: Coord, tile: Tile | None) -> None:
        self._grid[coord[0]][coord[1]] = tile

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._grid == other._grid

    def __hash__(self) -> int:  # boards are mutable; hash by identity like a list would refuse
        raise TypeError("Board is mutable and unhashable")

    def on_board(self, coord: Coord) -> bool:
        return 0 <= coord[0] < self.rows and 0 <= coord[1] < self.columns

    def is_empty(self) -> bool:
        return all(t is None for row in self._grid for t in row)

    def tiles(self) -> Iterator[tuple[Coord, Tile]]:
        """Every tile on the board with its square, row by row."""
        for r, row in enumerate(self._grid):
            for c, tile in enumerate(row):
                if tile is not None:
                    yield (r, c), tile

    def row(self, r: int) -> list[Tile | None]:
        return list(self._grid[r])

    def has_neighbour(self, coord: Coord) -> bool:
        """Whether a tile lies on a square next to this one (not diagonally)."""
        r, c = coord
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            n = (r + dr, c + dc)
            if self.on_board(n) and self[n] is not None:
                return True
        return False

    def word_through(
        self, coord: Coord, across: bool, new: frozenset[Coord] = frozenset()
    ) -> WordOnBoard:
        """The run of tiles through an occupied square in one direction (may be one tile)."""
        dr, dc = (0, 1) if across else (1, 0)
        r, c = coord
        while self.on_board((r - dr, c - dc)) and self[(r - dr, c - dc)] is not None:
            r, c = r - dr, c - dc
        squares: list[SquareInWord] = []
        while self.on_board((r, c)):
            tile = self[(r, c)]
            if tile is None:
                break
            squares.append(SquareInWord((r, c), tile, (r, c) in new))
            r, c = r + dr, c + dc
        return WordOnBoard(tuple(squares), across)
