"""Post-game analysis: for every choice of a recorded game, what the engine would have played.

For each position (``positions.game_positions``) the engine lists every move with its equity
(``engine.candidates``: score plus the value of the tiles kept; or, with simulation, the mean
result of playing the best few out over random deals). The move played is found among them
by the tiles it put down (so ``H8 A`` and ``8H A`` are one move), and gets:

- ``rank``: 1 + the number of moves worth strictly more;
- ``equity_loss``: the best move's equity minus its own, 0 when it is the best (never below 0);
- for a placement the engine cannot list (a word not in the dictionary that stood): its
  recorded score plus its leave's value, ranked among the others (``note: "not_listed"``);
- a placement challenged off (a ``--`` line): what it became, a lost turn with the whole rack
  kept, i.e. the pass's equity (``note: "withdrawn"``);
- an exchange written as a count (``-7``): tiles unknown, so no equity (``null``), no rank,
  and it does not count in the player's mean (``note: "tiles_unknown"``).

Per player: the mean equity loss over the moves judged, the bingos missed (a move using the
whole rack was possible and the player played none), and the mistakes by size of the loss
(``MISTAKE_SIZES``, in equity points: small from 3, medium from 8, large from 15).

With simulation (``sim_iterations``) the best ``SIM_CANDIDATES`` moves by static equity and the
move played are simulated over the same deals (``engine.simulate``, 2 plies); their means are
their equities, and the rest of the list keeps its static values below them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..board import Board
from ..engine.evaluation.leaves import LeaveTable, leave_key
from ..engine.movegen.candidates import Candidate, candidates, generator_for
from ..engine.players import ex_bonus_for
from ..engine.search.simulate import simulate
from ..formats.cgp import write_cgp
from ..formats.gcg import GcgError, GcgGame
from ..lexicon import Lexicon
from ..moves import Cambio, NotationError, Place, format_move, parse_move, parse_rack
from ..position import Position
from ..rules import IllegalMove, resolve_place
from ..variant import Coord, Variant
from .positions import ANALYSED_KINDS, GamePosition, game_positions

__all__ = [
    "MISTAKE_SIZES",
    "Alternative",
    "GameAnalysis",
    "MoveAnalysis",
    "PlayerSummary",
    "analyse_gcg",
    "analyse_moves",
    "assemble",
    "plies_to_analyse",
    "positions_to_analyse",
]

TOP = 5
"""Alternatives listed per move."""
MISTAKE_SIZES = (("large", 15.0), ("medium", 8.0), ("small", 3.0))
"""A move losing at least this much equity is a mistake of that size (largest first)."""
SHORT_LIST = 40
"""Placements listed first; every move only when the one played is not among them."""
SIM_CANDIDATES = 10
"""Moves simulated per position with ``--sim`` (the best by static equity)."""
EPSILON = 1e-6


@dataclass(frozen=True)
class Alternative:
    move: str
    score: int
    equity: float
    leave: str
    bingo: bool
    played: bool
    """This is the move played."""


@dataclass(frozen=True)
class MoveAnalysis:
    ply: int
    player: str
    seat: int
    line: int
    """The line of the GCG file."""
    cgp: str
    """The position before the move, seen by its player (the others' racks unknown)."""
    played: str
    score: int
    equity: float | None
    best: str
    best_score: int
    best_equity: float
    equity_loss: float | None
    rank: int | None
    top: list[Alternative]
    bingo_possible: bool
    bingo_played: bool
    note: str | None = None
    """withdrawn, not_listed or tiles_unknown (the module's docstring says what each means)."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MoveAnalysis:
        """Back from ``asdict`` (a worker's answer, a stored analysis)."""
        fields = dict(data)
        fields["top"] = [Alternative(**a) for a in data["top"]]
        return cls(**fields)


@dataclass
class PlayerSummary:
    name: str
    moves: int = 0
    """Moves judged (with an equity)."""
    mean_equity_loss: float = 0.0
    missed_bingos: int = 0
    mistakes: dict[str, int] = field(default_factory=lambda: {n: 0 for n, _ in MISTAKE_SIZES})


@dataclass
class GameAnalysis:
    variant: str
    lexicon: str
    method: str
    """static or sim"""
    moves: list[MoveAnalysis]
    players: list[PlayerSummary]

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "lexicon": self.lexicon,
            "method": self.method,
            "moves": [asdict(m) for m in self.moves],
            "players": [asdict(p) for p in self.players],
        }


def positions_to_analyse(gcg: GcgGame) -> int:
    """How many positions ``analyse_gcg`` judges (for a progress bar)."""
    return len(plies_to_analyse(gcg))


def plies_to_analyse(gcg: GcgGame) -> list[int]:
    """The ``ply`` of every choice ``analyse_gcg`` judges (those with a rack)."""
    choices = [t for t in gcg.turns if t.kind in ANALYSED_KINDS]
    return [ply for ply, t in enumerate(choices, 1) if t.rack is not None]


def analyse_gcg(
    gcg: GcgGame,
    variant: Variant,
    lexicon: Lexicon,
    leaves: LeaveTable | None,
    *,
    sim_iterations: int | None = None,
    seed: int = 1,
    on_position: Callable[[int], None] | None = None,
) -> GameAnalysis:
    """Judge every choice of the game that has its rack (GcgError for a file that does not
    add up, naming the line). ``on_position(n)`` is called after each of them."""
    moves = analyse_moves(
        gcg,
        variant,
        lexicon,
        leaves,
        sim_iterations=sim_iterations,
        seed=seed,
        on_position=on_position,
    )
    return assemble(gcg, variant, lexicon.info().name, moves, sim_iterations is not None)


def analyse_moves(
    gcg: GcgGame,
    variant: Variant,
    lexicon: Lexicon,
    leaves: LeaveTable | None,
    *,
    plies: range | None = None,
    sim_iterations: int | None = None,
    seed: int = 1,
    on_position: Callable[[int], None] | None = None,
) -> list[MoveAnalysis]:
    """The judged moves alone, only those whose ``ply`` is in ``plies`` if given: a server
    judges a game a few moves at a time in its workers, then ``assemble``s them. A move's
    judgement depends on its position only, so the pieces add up to the whole."""
    if not lexicon.can_search:
        raise ValueError("analysis needs a dictionary the move generator can search")
    name = lexicon.info().name
    moves: list[MoveAnalysis] = []
    for gp in game_positions(gcg, variant, name):
        if plies is not None and gp.ply not in plies:
            continue
        moves.append(_analyse_position(gcg, variant, lexicon, leaves, gp, sim_iterations, seed))
        if on_position is not None:
            on_position(len(moves))
    return moves


def assemble(
    gcg: GcgGame, variant: Variant, lexicon_name: str, moves: list[MoveAnalysis], sim: bool
) -> GameAnalysis:
    """The analysis of a game from its judged moves: the players' summaries added."""
    players = [
        _summary(p.name, [m for m in moves if m.seat == i]) for i, p in enumerate(gcg.players)
    ]
    method = "sim" if sim else "static"
    return GameAnalysis(variant.name, lexicon_name, method, moves, players)


def _analyse_position(
    gcg: GcgGame,
    variant: Variant,
    lexicon: Lexicon,
    leaves: LeaveTable | None,
    gp: GamePosition,
    sim_iterations: int | None,
    seed: int,
) -> MoveAnalysis:
    position, turn = gp.position, gp.turn
    ex_bonus = ex_bonus_for(variant)
    rack = position.rack
    bingo_size = variant.rack_size if len(rack) >= variant.rack_size else None
    found, played, note = _judge(variant, lexicon, leaves, gp, ex_bonus, SHORT_LIST)
    if not _complete_above(found, played):
        found, played, note = _judge(variant, lexicon, leaves, gp, ex_bonus, None)
    equities = {id(c): c.equity for c in found}
    if sim_iterations is not None:
        pool = found[:SIM_CANDIDATES]
        if played is not None and all(c is not played for c in pool) and note is None:
            pool = [*pool, played]
        results = simulate(
            position,
            pool,
            lexicon,
            leaves,
            players=len(position.racks),
            iterations=sim_iterations,
            seed=seed + gp.ply,
            ex_bonus=ex_bonus,
        )
        for r in results:
            equities[id(r.candidate)] = r.mean
        floor = min(r.mean for r in results)
        for c in found[SIM_CANDIDATES:]:
            if all(c is not r.candidate for r in results):
                equities[id(c)] = min(c.equity, floor - EPSILON)
        found = sorted(found, key=lambda c: -equities[id(c)])
    best = found[0]
    best_equity = equities[id(best)]
    equity: float | None = None
    rank: int | None = None
    loss: float | None = None
    if played is not None:
        equity = equities.get(id(played), played.equity)
        rank = 1 + sum(1 for c in found if equities[id(c)] > equity + EPSILON)
        loss = max(0.0, best_equity - equity)
    bingo_possible = bingo_size is not None and _bingo_possible(variant, lexicon, position)
    bingo_played = (
        bingo_size is not None
        and turn.kind == "place"
        and note != "withdrawn"
        and played is not None
        and played.tiles_played == bingo_size
    )
    return MoveAnalysis(
        ply=gp.ply,
        player=gcg.players[turn.player].name,
        seat=turn.player,
        line=turn.line,
        cgp=write_cgp(position),
        played=turn.move,
        score=turn.score,
        equity=_round(equity),
        best=best.notation,
        best_score=best.score,
        best_equity=round(best_equity, 2),
        equity_loss=_round(loss),
        rank=rank,
        top=[_alternative(c, equities[id(c)], bingo_size, c is played) for c in found[:TOP]],
        bingo_possible=bingo_possible,
        bingo_played=bingo_played,
        note=note,
    )


def _judge(
    variant: Variant,
    lexicon: Lexicon,
    leaves: LeaveTable | None,
    gp: GamePosition,
    ex_bonus: float,
    top: int | None,
) -> tuple[list[Candidate], Candidate | None, str | None]:
    """The moves (the ``top`` best placements, or all), the move played among them (or
    standing in for it), and the note on it."""
    position, turn = gp.position, gp.turn
    rack = position.rack
    found = candidates(position, lexicon, leaves, ex_bonus=ex_bonus, top=top)
    if turn.kind == "place" and gp.step.withdrawn_next:
        return found, next(c for c in found if c.kind == "pass"), "withdrawn"
    if turn.kind == "exchange" and turn.move[1:].isdigit():
        return found, None, "tiles_unknown"
    key = _played_key(turn.kind, turn.move, variant, position.board, rack)
    # Scores were checked against the rules by the walk: only moves scoring the same can be
    # the one played (which spares working out the tiles of every other move).
    played = next(
        (
            c
            for c in found
            if (c.kind != "place" or c.score == turn.score)
            and _candidate_key(c, position.board) == key
        ),
        None,
    )
    if played is not None:
        return found, played, None
    if top is not None:
        return found, None, "not_listed"  # perhaps only not among the short list: look again
    stand_in = _unlisted(turn.move, turn.score, variant, position.board, rack, leaves)
    return found, stand_in, "not_listed"


def _complete_above(found: list[Candidate], played: Candidate | None) -> bool:
    """Whether a short list holds every move worth more than the one played, so its rank and
    loss are exact. ``candidates(top=N)`` lists the N best placements and the four best
    exchanges: a move better than one listed of its kind is listed too."""
    if played is None or all(c is not played for c in found):
        return False
    for kind, listed_at_most in (("place", SHORT_LIST), ("exchange", 4)):
        same = [c.equity for c in found if c.kind == kind]
        if len(same) >= listed_at_most and played.equity < min(same):
            return False
    return True


def _bingo_possible(variant: Variant, lexicon: Lexicon, position: Position) -> bool:
    """Whether some placement uses the whole rack: the best move when only an empty leave
    is worth anything (one best-first search instead of listing every move)."""
    gen = generator_for(variant, lexicon)
    best = gen.best(position.board, position.rack, 1, {(): 1e6}, position.first_turn)
    return bool(best) and len(best[0].leave) == 0


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def _alternative(c: Candidate, equity: float, bingo_size: int | None, played: bool) -> Alternative:
    leave = "".join(f"[{t}]" if len(t) > 1 else t for t in c.leave)
    bingo = c.kind == "place" and bingo_size is not None and c.tiles_played == bingo_size
    return Alternative(c.notation, c.score, round(equity, 2), leave, bingo, played)


def _new_tiles(place: Place, board: Board) -> frozenset[tuple[Coord, str]]:
    new, _ = resolve_place(place, board)
    return frozenset((coord, tile.notation()) for coord, tile in new)


def _candidate_key(c: Candidate, board: Board) -> tuple[str, Any]:
    if c.kind == "place":
        assert isinstance(c.move, Place)
        return ("place", _new_tiles(c.move, board))
    if c.kind == "exchange":
        return ("exchange", c.leave)
    if c.kind == "cambio":
        return ("cambio", c.notation)
    return ("pass", None)


def _played_key(
    kind: str, text: str, variant: Variant, board: Board, rack: tuple[str, ...]
) -> tuple[str, Any]:
    if kind == "pass":
        return ("pass", None)
    try:
        if kind == "exchange":
            given = list(rack)
            for t in parse_rack(text[1:], variant.alphabet):
                given.remove(t)
            return ("exchange", leave_key(given, variant.alphabet))
        move = parse_move(text, variant.alphabet, variant.rows, variant.columns)
        if isinstance(move, Cambio):
            return ("cambio", format_move(move))
        assert isinstance(move, Place)
        return ("place", _new_tiles(move, board))
    except (NotationError, IllegalMove, ValueError) as e:
        raise GcgError(f"{text}: {e}") from None


def _unlisted(
    text: str,
    score: int,
    variant: Variant,
    board: Board,
    rack: tuple[str, ...],
    leaves: LeaveTable | None,
) -> Candidate:
    """A recorded move the engine did not list (a word not in its dictionary): its recorded
    score plus the value of what it kept."""
    move = parse_move(text, variant.alphabet, variant.rows, variant.columns)
    kept = list(rack)
    played = 0
    if isinstance(move, Place):
        for _, tile in resolve_place(move, board)[0]:
            kept.remove(tile.rack_form)
            played += 1
    key = leave_key(kept, variant.alphabet)
    value = leaves.for_rack(rack).get(key, 0.0) if leaves is not None else 0.0
    kind = "place" if isinstance(move, Place) else "cambio"
    return Candidate(kind, move, text, score, key, score + value, played)


def _summary(name: str, moves: list[MoveAnalysis]) -> PlayerSummary:
    out = PlayerSummary(name)
    judged = [m for m in moves if m.equity_loss is not None]
    out.moves = len(judged)
    if judged:
        out.mean_equity_loss = round(sum(m.equity_loss or 0.0 for m in judged) / len(judged), 2)
    out.missed_bingos = sum(1 for m in moves if m.bingo_possible and not m.bingo_played)
    for m in judged:
        loss = m.equity_loss or 0.0
        for size, threshold in MISTAKE_SIZES:
            if loss >= threshold:
                out.mistakes[size] += 1
                break
    return out
