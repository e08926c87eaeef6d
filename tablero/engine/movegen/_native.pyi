"""Type stub of the C extension built from tablero/engine/movegen/native/ (see native.py)."""

from collections.abc import Sequence
from typing import Any

from typing_extensions import Buffer

EG_MAX_CAMBIOS: int
GAME_SEED_STEP: int
RECORD_SIZE: int
MAX_DIM: int
MAX_RACK: int
MAX_CODE: int

def leave_key(codes: Buffer, /) -> int: ...
def leave_keys(nodes: Buffer, root: int, /) -> bytes: ...

class Board:
    @property
    def n_tiles(self) -> int: ...
    def set_tiles(self, tiles: Buffer, /) -> None: ...
    def tiles(self) -> bytes: ...
    def apply(self, dir: int, line: int, start: int, tiles: Buffer, /) -> None: ...
    def copy(self) -> Board: ...
    def cross_set(self, dir: int, row: int, col: int, /) -> tuple[int, int, int, bool]: ...
    def extension_set(self, dir: int, row: int, col: int, /) -> int: ...
    def anchors(self) -> bytes: ...

class LeaveTable:
    def __init__(self, keys: Buffer, values: Buffer) -> None: ...
    def get(self, key: int, /) -> float: ...
    def __len__(self) -> int: ...

class Generator:
    def use_wordmap(self, on: object, /) -> bool: ...
    def wordmap_find(self, letter_counts: Buffer, /) -> list[bytes]: ...
    def wordmap_completions(self, letter_counts: Buffer, /) -> int: ...
    def wordmap_stats(self) -> tuple[int, int, int] | None: ...
    def __init__(
        self,
        nodes: Buffer,
        rows: int,
        cols: int,
        letters: int,
        values: Buffer,
        lf: Buffer,
        wmid: Buffer,
        wend: Buffer,
        add: Buffer,
        ex: Buffer,
        start: Buffer,
        rack_size: int,
        bingo_bonus: int,
        first_letter: bool,
        min_tiles: int,
        first_mult: int,
        first_bonus: int,
    ) -> None: ...
    def new_board(self) -> Board: ...
    def set_game(
        self,
        tiles: Buffer,
        blank_value: int,
        counterclockwise: bool,
        exchange_allowed: bool,
        exchange_min_bag: int,
        exchange_max_tiles: int,
        exchange_per_game: int,
        exchange_only_when_blocked: bool,
        ex_min_bag: int,
        going_out: bool,
        no_one_can_play: bool,
        scoreless_rounds: int,
        scoreless_passes: bool,
        scoreless_exchanges: bool,
        subtract_own_rack: bool,
        going_out_gains_others: bool,
        unplayed_blank_penalty: int,
    ) -> None: ...
    def selfplay_log(
        self, seed: int, n_players: int, first: int, leaves: Sequence[LeaveTable | None], /
    ) -> tuple[tuple[Any, ...], list[tuple[int, int, bytes, int, bytes, bytes]]]: ...
    def selfplay(
        self, games: int, seed: int, n_players: int, leaves: Sequence[LeaveTable | None], /
    ) -> list[tuple[Any, ...]]: ...
    def simulate(
        self,
        board: Board,
        rack: Buffer,
        unseen: Buffer,
        n_players: int,
        candidates: Buffer,
        plies: int,
        iterations: int,
        seed: int,
        leaves: LeaveTable | None,
        scoreless: int,
        behind: list[int] | None = None,
        per_deal: bool = False,
        known: Buffer | None = None,
        known_seat: int = 1,
        /,
    ) -> list[tuple[Any, ...]]: ...
    def endgame(
        self,
        board: Board,
        me: Buffer,
        them: Buffer,
        scoreless: int,
        max_depth: int,
        width: int,
        seconds: float,
        max_nodes: int,
        tt_bits: int,
        cambios_me: int,
        cambios_them: int,
        /,
    ) -> tuple[
        bool,
        bool,
        int,
        int,
        int,
        list[tuple[int, bytes] | tuple[int, tuple[int, int, int, int, int]]],
    ]: ...
    def count(self, board: Board, rack: Buffer, first_turn: bool, /) -> tuple[int, int]: ...
    def generate(self, board: Board, rack: Buffer, first_turn: bool, /) -> bytes: ...
    def best(
        self,
        board: Board,
        rack: Buffer,
        first_turn: bool,
        n: int,
        leaves: LeaveTable | None,
        exhaustive: bool = ...,
        /,
    ) -> bytes: ...
