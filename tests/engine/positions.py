"""Random positions from self-play, in any game, reproducible from a seed.

Move generators are checked on the positions they will meet: boards built by playing random
legal placements through ``Game`` (so every rule of the game shapes the board: EX shuffles,
bingos, exchanges when blocked, the end of the bag), with a rack drawn from the tiles not on
the board. Some positions are first moves (an empty board); some racks are given blanks
where the game has them, since a blank multiplies the work of a generator and its bugs.

``random_positions(variant, count, seed)`` gives the same positions for the same arguments as
long as the set of legal moves in each position is the same (moves are chosen from a sorted
list, so the order a generator finds them in does not matter). The words are the lists of
the reference positions (``tests/data/bench/es_words.txt.xz``, Spanish) and the shipped
Romanian list, loaded once each; see ``word_list``.

``covering_sample`` picks from a pool of positions a few whose moves between them use every
feature the pool has (see ``features``: a first move, a blank, a tile in an edge column, a
tile on a 4W, ±N or EX square), for tests that can afford few.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from tablero.alphabet import ROMANIAN, SPANISH
from tablero.board import Board, Tile
from tablero.engine.movegen.reference import generate_placements
from tablero.game import Game
from tablero.lexicon import WordListLexicon, shipped_list_path
from tablero.moves import Exchange, Place
from tablero.position import Position
from tablero.rules import IllegalMove, resolve_place
from tablero.variant import BLANK, Coord, Variant, load_variant, square_name

__all__ = [
    "SPECIAL_KINDS",
    "Generator",
    "Placement",
    "covering_sample",
    "features",
    "move_features",
    "possible_features",
    "random_positions",
    "word_list",
]

BENCH_WORDS = Path(__file__).resolve().parent.parent / "data" / "bench" / "es_words.txt.xz"

Generator = Callable[[Variant, Board, list[str], Any], Iterable[Place]]
"""What picks the self-play moves: ``engine.reference.generate_placements`` by default."""

Placement = Collection[tuple[Coord, Tile]]
"""A placement as the tiles it puts down, with their squares (``brute.Key`` is one)."""

SPECIAL_KINDS = frozenset({"word_end", "word_add", "shuffle_next_rack"})
"""Square kinds whose effect is more than a factor: 4W, ±N, EX."""


@cache
def word_list(language: str) -> WordListLexicon:
    """The word list of a language for engine tests, loaded once per process.

    Spanish: the 587,771 words of the reference positions (the ``es_words`` fixture's list),
    so the positions and the bench agree. Romanian: the shipped list as a plain word list
    (no graph to build: a test session starts from an empty cache).
    """
    if language == "es":
        return WordListLexicon.from_file(BENCH_WORDS, SPANISH, name="es_words")
    if language == "ro":
        path = shipped_list_path("ro")
        if path is None:
            raise FileNotFoundError("the shipped Romanian word list is missing")
        return WordListLexicon.from_file(path, ROMANIAN, name="ro")
    raise ValueError(f"no test word list for language {language!r} (es, ro)")


def random_positions(
    variant: str | Variant,
    count: int,
    seed: int,
    rack_size: int | tuple[int, int] = 7,
    *,
    lexicon: WordListLexicon | None = None,
    first_turn_every: int = 10,
    blank_share: float = 0.3,
    two_blank_share: float = 0.25,
    snapshot_share: float = 0.5,
    generator: Generator | None = None,
) -> list[Position]:
    """``count`` positions of a game, the same ones for the same seed.

    ``rack_size`` is the number of tiles on the mover's rack, or an inclusive range
    ``(low, high)`` to draw it from (fewer when fewer tiles are off the board). Every
    ``first_turn_every``-th position (the first included; 0 for none) is a first move on an
    empty board. A share ``blank_share`` of the racks get a blank when the game has blanks
    left, a share ``two_blank_share`` of those two (other racks hold none). The other
    positions come from two-player self-play, taken before a share ``snapshot_share`` of the
    turns, game after game. ``generator`` picks the self-play moves (any function with the
    signature of ``engine.reference.generate_placements``); ``lexicon`` replaces
    ``word_list``.

    Each is a ``Position`` with the mover's rack first and the opponent's unknown; scores are
    left at zero (move generation does not look at them).
    """
    v = load_variant(variant) if isinstance(variant, str) else variant
    if count < 0:
        raise ValueError(f"count must be 0 or more, not {count}")
    low, high = (rack_size, rack_size) if isinstance(rack_size, int) else rack_size
    if not 1 <= low <= high <= v.rack_size:
        raise ValueError(f"rack_size must lie within 1..{v.rack_size}, got {rack_size}")
    lex = lexicon or word_list(v.language)
    gen = generator or generate_placements
    rng = random.Random(f"{v.name}:{seed}")
    selfplay = _snapshots(v, lex, gen, rng, snapshot_share)
    out: list[Position] = []
    for i in range(count):
        if first_turn_every and i % first_turn_every == 0:
            board = Board(v.rows, v.columns)
        else:
            board = next(selfplay)
        size = rng.randint(low, high)
        rack = _draw_rack(v, board, rng, size, blank_share, two_blank_share)
        out.append(Position(v, board, [rack, ()], [0, 0], lexicon=lex.info().name))
    return out


def features(position: Position) -> set[str]:
    """What a position offers a generator to get wrong: ``first_turn`` (an empty board),
    ``blank`` (a blank on the rack), ``edge_column`` (an empty square in the first or last
    column next to a tile), for each kind in ``SPECIAL_KINDS``, ``anchor:KIND`` (an empty
    square of that kind next to a tile), and on an empty board ``start:SQUARE`` for each start
    square (Letras Top has two). Moves may use them; see ``move_features``."""
    v, board = position.variant, position.board
    found: set[str] = set()
    if board.is_empty():
        found.add("first_turn")
        found |= {f"start:{square_name(s)}" for s in v.start_squares}
    if BLANK in position.rack:
        found.add("blank")
    for r in range(board.rows):
        for c in range(board.columns):
            if board[(r, c)] is not None or not board.has_neighbour((r, c)):
                continue
            if c in (0, board.columns - 1):
                found.add("edge_column")
            kind = v.square_kind((r, c)).kind_name
            if kind in SPECIAL_KINDS:
                found.add(f"anchor:{kind}")
    return found


def move_features(position: Position, placements: Iterable[Placement]) -> set[str]:
    """The features of ``features`` that these placements (new tiles with their squares) use:
    a first move (through each start square), a blank, a tile in an edge column, a tile on
    a 4W / ±N / EX square."""
    v = position.variant
    found: set[str] = set()
    for placement in placements:
        if position.board.is_empty():
            found.add("first_turn")
            found |= {f"start:{square_name(s)}" for s, _ in placement if s in v.start_squares}
        for (r, c), tile in placement:
            if tile.blank:
                found.add("blank")
            if c in (0, position.board.columns - 1):
                found.add("edge_column")
            kind = v.square_kind((r, c)).kind_name
            if kind in SPECIAL_KINDS:
                found.add(f"anchor:{kind}")
    return found


def possible_features(variant: Variant) -> set[str]:
    """The features a game's positions can have (no blanks in Intelect; 4W, ±N, EX only on
    the boards that have them)."""
    out = {"first_turn", "edge_column"} | {f"start:{square_name(s)}" for s in variant.start_squares}
    if variant.has_blanks:
        out.add("blank")
    for r in range(variant.rows):
        for c in range(variant.columns):
            kind = variant.square_kind((r, c)).kind_name
            if kind in SPECIAL_KINDS:
                out.add(f"anchor:{kind}")
    return out


def covering_sample(
    pool: list[Position],
    size: int,
    seed: int,
    placements: Callable[[Position], Collection[Placement]],
) -> list[Position]:
    """At least ``size`` positions from the pool, in pool order, the same for the same seed:
    for every feature some position's moves use (``move_features``), one such position,
    then others at random. ``placements`` lists a position's moves (a generator, or the
    brute force; it is asked about as few positions as it takes, and may cache)."""
    rng = random.Random(seed)
    order = rng.sample(range(len(pool)), len(pool))
    marks = [features(p) for p in pool]
    chosen: list[int] = []
    used: set[str] = set()
    for feature in sorted(set().union(*marks)):
        for i in order:
            if feature in used:
                break
            if feature in marks[i] and i not in chosen:
                uses = move_features(pool[i], placements(pool[i]))
                if feature in uses:
                    chosen.append(i)
                    used |= uses
    rest = [i for i in order if i not in chosen]
    chosen += rest[: max(0, size - len(chosen))]
    return [pool[i] for i in sorted(chosen)]


# -- self-play -------------------------------------------------------------------------------


def _snapshots(
    v: Variant, lexicon: WordListLexicon, gen: Generator, rng: random.Random, share: float
) -> Iterator[Board]:
    """Boards met in an endless run of self-play games: before a share of the turns."""
    while True:
        game = Game(v, ["A", "B"], lexicon, seed=rng.randrange(2**32))
        while not game.is_over:
            if not game.board.is_empty() and rng.random() < share:
                yield game.board.copy()
            _play_random_move(game, gen, rng)


def _play_random_move(game: Game, gen: Generator, rng: random.Random) -> None:
    """A random legal placement, else an exchange, else a pass.

    The placement is drawn from those of a random part of the rack, with at most one blank
    (all of the rack if that part has none): every such placement is legal for the whole
    rack, and a full rack with two blanks has tens of thousands. Now and then the one
    reaching nearest an edge is taken, so that boards spread to the edges and corners.
    """
    v, board, rack = game.variant, game.board, list(game.current.rack)
    part = rng.sample(rack, rng.randint(1, len(rack)))
    if part.count(BLANK) > 1:
        part.remove(BLANK)
    groups = _placements(v, board, part, game, gen)
    if not groups:
        groups = _placements(v, board, rack, game, gen)
    if groups:
        choices = sorted(groups)
        if rng.random() < 0.2:
            nearest = min(_reach(v, squares) for squares, _ in choices)
            choices = [g for g in choices if _reach(v, g[0]) == nearest]
        place = rng.choice(groups[rng.choice(choices)])
        result = game.play(place)
        if result.kind != "placed":
            raise AssertionError(f"self-play move {place} was not placed: {result.reason}")
        return
    try:
        game.play(Exchange(tuple(rack[: v.exchange.max_tiles])))
    except IllegalMove:
        game.play("-")


def _placements(
    v: Variant, board: Board, rack: list[str], game: Game, gen: Generator
) -> dict[tuple[tuple[Coord, ...], tuple[str, ...]], list[Place]]:
    """The placements of a rack grouped by squares and rack tiles used (so a blank's letters
    count as one choice, and blanks are not played at once every time), in sorted order."""
    found = {frozenset(resolve_place(p, board)[0]): p for p in gen(v, board, rack, game.lexicon)}
    groups: dict[tuple[tuple[Coord, ...], tuple[str, ...]], list[Place]] = {}
    for key in sorted(found):
        squares = tuple(sorted(c for c, _ in key))
        used = tuple(sorted(t.rack_form for _, t in key))
        groups.setdefault((squares, used), []).append(found[key])
    return groups


def _reach(v: Variant, squares: tuple[Coord, ...]) -> int:
    """How close to an edge of the board a placement comes (0: on the edge)."""
    return min(min(r, c, v.rows - 1 - r, v.columns - 1 - c) for r, c in squares)


def _draw_rack(
    v: Variant, board: Board, rng: random.Random, size: int, one: float, two: float
) -> tuple[str, ...]:
    """``size`` tiles from those not on the board; maybe one or two of them blanks."""
    left: Counter[str] = Counter({t: n for t, (n, _) in v.tiles.items()})
    for _, tile in board.tiles():
        left[tile.rack_form] -= 1
    blanks = 0
    if left[BLANK] > 0 and rng.random() < one:
        blanks = 2 if left[BLANK] >= 2 and size >= 2 and rng.random() < two else 1
    pool = sorted((t for t, n in left.items() if t != BLANK for _ in range(n)))
    rack = [BLANK] * min(blanks, size) + rng.sample(pool, min(size - blanks, len(pool)))
    rng.shuffle(rack)
    return tuple(rack)
