"""Choosing puzzles: positions whose best move is clearly the best.

A position becomes a puzzle (``examine``) when, among every move of the player to move
(``engine.movegen.candidates``: every placement, exchange, pass and CAMBIO, each valued by its
equity, score plus the game's shipped leave values, as ``tablero moves`` lists them):

1. the bag still has tiles (with the bag empty the static equity is not what decides an
   endgame, so no puzzle is taken from one);
2. the move of highest equity is a placement (not an exchange, a pass or a CAMBIO);
3. it is the only one: no other placement has the same equity. Two moves count as one when
   they put the same tiles on the same squares (``H8 A`` and ``8H A``); the same word placed
   twice worth the same (a blank as either A of CASA, on two plain squares) is two answers,
   and the position is skipped;
4. every other move is at least ``EQUITY_MARGIN`` (15) points of equity behind it; and
5. no other move scores as much: it is also the top by score, so "the move worth the most"
   means the same to a duplicate player and to one who weighs the tiles kept.

The answer is then that one move. Its theme: ``bingo`` when it puts down a whole rack, else
``big_score`` from ``BIG_SCORE`` points, else ``only_move``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..board import Board
from ..engine.evaluation.leaves import LeaveTable
from ..engine.movegen.candidates import Candidate, MoveGenerator, candidates
from ..engine.players import common_words, ex_bonus_for, shipped_leaves
from ..formats.cgp import write_cgp
from ..formats.gcg import GcgGame, read_gcg
from ..lexicon import Lexicon
from ..moves import Place
from ..position import Position
from ..rules import check_placement
from ..variant import Coord, Variant
from .model import Answer, Puzzle, Seeds, puzzle_id

__all__ = [
    "BIG_SCORE",
    "COMMON_WORDS",
    "EQUITY_MARGIN",
    "Examined",
    "examine",
    "puzzles_from_gcg",
    "puzzles_from_positions",
    "tiles_key",
]

EQUITY_MARGIN = 15.0
"""Points of equity by which the answer must beat every other move."""
BIG_SCORE = 40
"""A placement scoring this much (and not a bingo) is a ``big_score`` puzzle."""
COMMON_WORDS = 30_000
"""A main word outside the language's this many most common words is rare (a seed)."""
SAME = 1e-6
"""Equities closer than this are equal (they are sums of the same table's values)."""

TilesKey = frozenset[tuple[Coord, str, bool]]


@dataclass(frozen=True)
class Examined:
    """What ``examine`` found: the puzzle, or why the position is none."""

    puzzle: Puzzle | None
    reason: str
    """``puzzle``, ``no_rack``, ``endgame``, ``no_move``, ``not_a_placement``,
    ``several_answers``, ``too_close`` or ``not_top_score``."""
    detail: str = ""


def tiles_key(place: Place, board: Board) -> TilesKey:
    """What a placement puts down, as (square, letter, blank) triples: two notations of one
    move (``H8 A`` and ``8H A``, letters on the board written plainly or in parentheses) have
    the same key. The placement must fit the board (``rules.resolve_place``)."""
    from ..rules import resolve_place

    new, _ = resolve_place(place, board)
    return frozenset((coord, tile.letter, tile.blank) for coord, tile in new)


def _candidate_key(c: Candidate) -> TilesKey:
    assert isinstance(c.move, Place)
    r0, c0 = c.move.start
    out = set()
    for i, letter in enumerate(c.move.letters):
        if letter.on_board or letter.tile is None:
            continue
        coord = (r0, c0 + i) if c.move.across else (r0 + i, c0)
        out.add((coord, letter.tile.letter, letter.tile.blank))
    return frozenset(out)


def examine(
    position: Position,
    lexicon: Lexicon,
    leaves: LeaveTable | None = None,
    *,
    margin: float = EQUITY_MARGIN,
    source: dict[str, Any] | None = None,
    generator: MoveGenerator | None = None,
) -> Examined:
    """Whether the player to move has a puzzle here (see the module's text), and the puzzle.

    ``leaves``: the leave values equity is measured with (default: the game's shipped ones,
    ``players.shipped_leaves``). ``source`` is stored with the puzzle as it is.
    """
    v = position.variant
    if not position.rack:
        return Examined(None, "no_rack", "the position gives no rack for the player to move")
    bag = position.bag_count()
    if bag == 0:
        return Examined(None, "endgame", "the bag is empty: static equity does not decide here")
    if leaves is None:
        leaves = shipped_leaves(v.name)
    ex_bonus = ex_bonus_for(v)
    # Most positions fail on their two best moves alone: the generator's best-first search finds
    # those without listing every placement (then the full list, for the positions that pass).
    quick = candidates(position, lexicon, leaves, generator=generator, ex_bonus=ex_bonus, top=2)
    if quick and quick[0].kind != "place":
        return Examined(
            None, "not_a_placement", f"the best move is {quick[0].kind} {quick[0].notation}"
        )
    if (
        len(quick) > 1
        and quick[1].kind == "place"
        and _candidate_key(quick[1]) != _candidate_key(quick[0])
        and quick[0].equity - quick[1].equity < margin
    ):
        return _close(quick[0], quick[1], margin)
    found = candidates(position, lexicon, leaves, generator=generator, ex_bonus=ex_bonus)
    if not found:
        return Examined(None, "no_move", "the player has no move")
    top = found[0]
    if top.kind != "place":
        return Examined(None, "not_a_placement", f"the best move is {top.kind} {top.notation}")
    key = _candidate_key(top)
    others = [c for c in found[1:] if c.kind != "place" or _candidate_key(c) != key]
    runner = max(others, key=lambda c: c.equity) if others else None
    if runner is not None and top.equity - runner.equity < margin:
        return _close(top, runner, margin)
    best_other_score = max((c.score for c in others), default=0)
    if others and best_other_score >= top.score:
        better = max(others, key=lambda c: c.score)
        return Examined(
            None,
            "not_top_score",
            f"{better.notation} scores {better.score}, {top.notation} {top.score}",
        )
    placements = sum(1 for c in found if c.kind == "place")
    seeds = _seeds(position, lexicon, top, placements, best_other_score, runner)
    theme = _theme(v, top)
    shown = _puzzle_position(position, lexicon, bag)
    cgp = write_cgp(shown)
    answer = Answer(top.notation, top.score, round(top.equity, 2))
    puzzle = Puzzle(
        id=puzzle_id(v.name, cgp),
        variant=v.name,
        language=v.language,
        cgp=cgp,
        answers=(answer,),
        runner_up=Answer(runner.notation, runner.score, round(runner.equity, 2))
        if runner
        else None,
        theme=theme,
        seeds=seeds,
        rating=seeds.start_rating(),
        source=dict(source or {}),
    )
    return Examined(puzzle, "puzzle")


def _close(top: Candidate, runner: Candidate, margin: float) -> Examined:
    gap = top.equity - runner.equity
    if gap < SAME and runner.kind == "place":
        return Examined(
            None,
            "several_answers",
            f"{top.notation} and {runner.notation} are worth the same ({top.equity:.2f})",
        )
    return Examined(
        None,
        "too_close",
        f"{runner.notation} is {gap:.2f} behind {top.notation}, less than {margin:g}",
    )


def _theme(v: Variant, top: Candidate) -> str:
    if top.tiles_played >= v.rack_size:
        return "bingo"
    if top.score >= BIG_SCORE:
        return "big_score"
    return "only_move"


def _seeds(
    position: Position,
    lexicon: Lexicon,
    top: Candidate,
    placements: int,
    best_other_score: int,
    runner: Candidate | None,
) -> Seeds:
    v = position.variant
    assert isinstance(top.move, Place)
    chk = check_placement(v, position.board, top.move, position.rack)
    main = chk.main_word
    known = common_words(v.language, COMMON_WORDS)
    return Seeds(
        tiles=top.tiles_played,
        length=len(main),
        words=len(chk.words),
        rare=None if known is None else main.text not in known,
        blank=any(t.blank for _, t in chk.new_tiles),
        moves=placements,
        score_margin=top.score - best_other_score,
        equity_margin=round(top.equity - runner.equity if runner is not None else top.equity, 2),
    )


def _puzzle_position(position: Position, lexicon: Lexicon, bag: int) -> Position:
    """The position as the solver sees it: the opponents' racks unknown, the bag counted."""
    return replace(
        position,
        board=position.board.copy(),
        racks=[position.rack] + [() for _ in position.racks[1:]],
        lexicon=position.lexicon or lexicon.info().name,
        bag=bag,
    )


def puzzles_from_positions(
    positions: Iterable[tuple[Position, dict[str, Any]]],
    lexicon: Lexicon,
    leaves: LeaveTable | None = None,
    *,
    margin: float = EQUITY_MARGIN,
) -> Iterator[Puzzle]:
    """The puzzles among positions, each given with its ``source``."""
    for position, source in positions:
        found = examine(position, lexicon, leaves, margin=margin, source=source)
        if found.puzzle is not None:
            yield found.puzzle


def puzzles_from_gcg(
    gcg: GcgGame | str,
    variant: Variant,
    lexicon: Lexicon,
    leaves: LeaveTable | None = None,
    *,
    margin: float = EQUITY_MARGIN,
    source: dict[str, Any] | None = None,
) -> list[Puzzle]:
    """The puzzles of a recorded game: every choice whose rack the record gives
    (``analysis.positions.game_positions``: a finished game written by tablero has them all).
    Each puzzle's source is ``source`` with the choice's ``ply`` added. Raises GcgError for a
    record that does not add up."""
    from ..analysis.positions import game_positions

    game = read_gcg(gcg) if isinstance(gcg, str) else gcg
    base = dict(source or {"kind": "game"})
    positions = (
        (gp.position, {**base, "ply": gp.ply}) for gp in game_positions(game, variant, None)
    )
    return list(puzzles_from_positions(positions, lexicon, leaves, margin=margin))
