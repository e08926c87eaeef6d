"""The pre-endgame with one tile in the bag, solved: every draw, then an exact endgame.

With one tile in the bag and two players, the unseen tiles are the opponent's full rack and
that one tile. A placement of ours draws it and empties the bag, and from then on nothing is
hidden. So for each placement there are only as many futures as there are distinct unseen
tiles: for each tile ``t`` that could be the one in the bag, we hold it, the opponent holds the
rest, and the endgame that follows (the opponent to move) is solved by the exact search
(``search.endgame``). The placement's worth is its chance of winning over those futures, each
as likely as the bag holding ``t``; ties are broken by the final spread.

Simulation plays the same futures out with static moves to the end. That misjudges the
endgame in exactly the close games where a point decides; the search does not. This is
what strong engines call solving the pre-endgame; this module does its simplest case (a bag
of one), where it is cheap: a few dozen small endgames a move.

How likely each tile is to be the one in the bag: uniform over the unseen tiles, or, when the
opponent's last play says what it kept (``search.inference``), the mean over the kept leaves
``K`` of the share of ``t`` among the unseen tiles outside ``K`` (the tiles it drew and the
bag tile are an even split of those).

Only placements are solved. A pass hands the opponent the same one-tile bag, and what it
then does is a search of its own; the exchange is closed with fewer than a rack in the bag in
every game here. The specification with the figures is docs/bots.md, "The pre-endgame solved".
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ...board import Board
from ...lexicon import Lexicon
from ...moves import Place
from ...position import Position
from ..movegen.candidates import Candidate, MoveGenerator
from .endgame import end_adjustment, solve_endgame
from .inference import Inference

__all__ = ["PreEndgameResult", "bag_tile_weights", "solve_bag_of_one"]

POINT_WORTH = 0.0005
"""What a point of final spread adds to a chance of winning when ranking: breaks ties between
placements that win (or lose) the same futures, and no more."""

TABLE_BITS = 18
"""The transposition table of each small endgame: 2**18 entries (4 MiB). The default's 64 MiB
would cost more to clear than these searches take."""


@dataclass
class PreEndgameResult:
    """One placement's futures, solved."""

    candidate: Candidate
    win: float = 0.0
    """The chance of winning: futures won count 1, drawn ½, weighted by how likely each is."""
    spread: float = 0.0
    """The expected final spread (ours less theirs, adjustments included)."""
    exact: bool = True
    """Every future's endgame was searched to the end."""
    futures: dict[str, float] = field(default_factory=dict)
    """Each possible bag tile's final spread."""

    @property
    def rank_value(self) -> float:
        return self.win + POINT_WORTH * self.spread


def bag_tile_weights(unseen: Counter[str], inference: Inference | None = None) -> dict[str, float]:
    """How likely each unseen tile is to be the one in the bag (the weights sum to 1).

    ``unseen``: the opponent's rack and the bag. Without an inference every tile is as likely,
    so a letter's weight is its count's share. With one, each kept leave ``K`` leaves the rest
    of the unseen tiles to be split at random between the tiles drawn since and the bag.
    """
    total = sum(unseen.values())
    if total == 0:
        raise ValueError("no unseen tiles: the bag is empty")
    kept = inference.kept if inference is not None and inference.seat == 1 else ()
    weights: dict[str, float] = {}
    used = 0
    for leave in kept:
        rest = unseen - Counter(leave)
        if sum((Counter(leave) - unseen).values()):
            continue  # a leave the unseen tiles can no longer hold
        size = sum(rest.values())
        if size == 0:
            continue
        for tile, n in rest.items():
            weights[tile] = weights.get(tile, 0.0) + n / size
        used += 1
    if used == 0:
        return {tile: n / total for tile, n in unseen.items()}
    return {tile: w / used for tile, w in weights.items()}


def solve_bag_of_one(
    position: Position,
    cands: Sequence[Candidate],
    lexicon: Lexicon,
    generator: MoveGenerator,
    *,
    inference: Inference | None = None,
    endgame_time: float | None = 0.25,
    endgame_nodes: int | None = None,
    time_limit: float | None = None,
    reply: Callable[[Position], Candidate] | None = None,
) -> list[PreEndgameResult]:
    """The placements among ``cands`` ranked by their chance of winning, best first, with one
    tile in the bag and one opponent (``ValueError`` otherwise).

    Each future's endgame gets at most ``endgame_time`` seconds and ``endgame_nodes`` nodes
    (its answer is then the best of the deepest search done, and the result is not ``exact``).
    ``time_limit``: once spent, the placements not yet solved are left out (the first is
    always solved).

    ``reply``: how the opponent answers in each future. None: as well as it can (the exact
    search from its side). A function of the position it sees (its rack, ours known, the bag
    empty): that move, and then the exact search from ours. The simulation models an opponent
    by its best static move; a function that does the same makes the futures agree with it.
    """
    if len(position.racks) != 2 or position.bag_count() != 1:
        raise ValueError("the pre-endgame solver needs two players and one tile in the bag")
    start = time.monotonic()
    unseen = position.unseen()
    weights = bag_tile_weights(unseen, inference)
    base = generator.board(position.board)
    me, them = position.scores[0], position.scores[1]
    results: list[PreEndgameResult] = []
    for candidate in cands:
        if candidate.kind != "place" or candidate.shuffles_next_rack:
            continue
        if results and time_limit is not None and time.monotonic() - start > time_limit:
            break
        assert isinstance(candidate.move, Place)
        board = base.copy()
        board.apply(candidate.move)
        after = board.to_board()
        result = PreEndgameResult(candidate)
        for tile, weight in weights.items():
            their_rack = tuple((unseen - Counter({tile: 1})).elements())
            future = _next_turn(
                position, after, (*candidate.leave, tile), their_rack, me + candidate.score, them, 0
            )
            if reply is None:
                spread, exact = _solve(future, lexicon, generator, endgame_time, endgame_nodes)
                ours = -spread
            else:
                ours, exact = _after_reply(
                    future, reply(future), lexicon, generator, endgame_time, endgame_nodes
                )
            result.futures[tile] = ours
            result.spread += weight * ours
            result.win += weight * (1.0 if ours > 0 else 0.5 if ours == 0 else 0.0)
            result.exact = result.exact and exact
        results.append(result)
    results.sort(key=lambda r: -r.rank_value)
    return results


def _after_reply(
    future: Position,
    answer: Candidate,
    lexicon: Lexicon,
    generator: MoveGenerator,
    endgame_time: float | None,
    endgame_nodes: int | None,
) -> tuple[float, bool]:
    """Our final spread when the opponent, to move in ``future`` (the bag empty), plays
    ``answer`` and we then play the endgame out exactly; and whether that search was exact."""
    their_rack, our_rack = list(future.racks[0]), future.racks[1]
    them, us = future.scores
    board = future.board
    scoreless = future.scoreless_turns + 1
    if answer.kind == "place":
        assert isinstance(answer.move, Place)
        played = generator.board(board)
        played.apply(answer.move)
        board = played.to_board()
        them += answer.score
        their_rack = list(answer.leave)
        scoreless = 0 if answer.score else scoreless
        if not their_rack:  # it went out: the game ends here
            return -(them - us + end_adjustment(future.variant, (), our_rack, True)), True
    elif answer.kind != "pass":
        raise ValueError(f"the bag is empty: a {answer.kind} is not a move here")
    after = _next_turn(future, board, tuple(their_rack), our_rack, them, us, scoreless)
    return _solve(after, lexicon, generator, endgame_time, endgame_nodes)


def _next_turn(
    before: Position,
    board: Board,
    mover_rack: tuple[str, ...],
    next_rack: tuple[str, ...],
    mover_score: int,
    next_score: int,
    scoreless: int,
) -> Position:
    """The position after the player to move in ``before`` (two players) has played: the board,
    racks and scores as given, the other player to move, the bag empty."""
    return Position(
        before.variant,
        board,
        [next_rack, mover_rack],
        [next_score, mover_score],
        scoreless_turns=scoreless,
        lexicon=before.lexicon,
        exchanges_used=list(reversed(before.exchanges_used[:2])),
        cambios_used=list(reversed(before.cambios_used[:2])),
        bag=0,
    )


def _solve(
    position: Position,
    lexicon: Lexicon,
    generator: MoveGenerator,
    endgame_time: float | None,
    endgame_nodes: int | None,
) -> tuple[float, bool]:
    """The final spread of the player to move with the bag empty, under the exact search's
    budget, and whether the search was exact."""
    solved = solve_endgame(
        position,
        lexicon,
        time_limit=endgame_time,
        max_nodes=endgame_nodes,
        generator=generator,
        table_bits=TABLE_BITS,
    )
    assert solved is not None
    return solved.spread, solved.exact
