"""Computer players against each other: statistics and records.

Two engines play the games:

* ``game``: every move a bot chooses is played with ``Game.play``, so self-play obeys exactly
  the rules a person's game does (and each game's log replays with ``Game.replay``). Any level
  can play, and who plays first is drawn by the game's own rule.
* ``native``: the whole game loop runs in C (``NativeGenerator.selfplay``), several times
  faster. It plays the static levels only (``NATIVE_LEVELS``: ``hard``, best equity with the
  learned leave values and, once the bag is empty, the end-of-game values; ``greedy``, best
  score). It makes placements, exchanges and passes by the game's rules, but never a CAMBIO,
  a challenge or a pass of the opening, and does not count an EX shuffle as worth anything;
  the tests replay its games turn by turn through the rules engine. Seat 0 moves first.

``auto`` (the default) takes ``native`` when every level is one it plays, the compiled core is
built and the dictionary is a word graph; otherwise ``game``. Either engine gives the per-turn
records a leave learner needs (the C loop's are decoded from its log of the game).
Seats are rotated from one game to the next, so that over a multiple of the player count each
bot sits in each seat (and so each place in the order of play) equally often.

A game yields a ``GameSummary``: final scores, winners, bingos, exchanges and passes per seat,
and, when asked, one ``TurnRecord`` per move for learning leave values (``learn``).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import Game, decide_winners
from ..lexicon import Lexicon, load_lexicon
from ..lexicon.graph import GraphLexicon
from ..variant import Variant, load_variant
from .evaluation.leaves import Leave, LeaveTable
from .movegen.candidates import native_available
from .players import Bot, shipped_leaves
from .workpool import work_pool

__all__ = [
    "ENGINES",
    "NATIVE_LEVELS",
    "GameSummary",
    "SelfplayReport",
    "TurnRecord",
    "play_bot_game",
    "resolve_engine",
    "run_selfplay",
]

MAX_TURNS = 1000
"""A game that has not ended after this many actions is a bug, not a long game."""

ENGINES = ("auto", "native", "game")

NATIVE_LEVELS: dict[str, bool] = {"hard": True, "greedy": False}
"""The levels the C loop plays, each with whether it values the tiles it keeps."""


@dataclass(frozen=True)
class TurnRecord:
    """One move of a self-play game, as the leave learner needs it."""

    seat: int
    kind: str
    """place, exchange, pass, cambio (as the bot chose it)"""
    leave: Leave
    score: int
    bag_before: int
    tiles_played: int


@dataclass
class GameSummary:
    variant: str
    seed: int
    bots: list[str]
    """The level at each seat."""
    final: list[int]
    winners: list[int]
    first: int
    """The seat that played first."""
    actions: int
    bingos: list[int]
    exchanges: list[int]
    passes: list[int]
    end_reason: str
    turns: list[int] = field(default_factory=list)
    """Turns each seat took (moves, exchanges, passes)."""
    move_points: list[int] = field(default_factory=list)
    """Points each seat scored by its moves (the end's adjustments not counted)."""
    log: list[dict[str, Any]] = field(default_factory=list)
    records: list[TurnRecord] = field(default_factory=list)

    def order_of(self, seat: int) -> int:
        """0 for the seat that played first, 1 for the next in turn order, ..."""
        n = len(self.bots)
        v = load_variant(self.variant)
        step = 1 if v.turn_direction == "clockwise" else -1
        for k in range(n):
            if (self.first + step * k) % n == seat:
                return k
        raise ValueError(f"no seat {seat}")  # pragma: no cover


def play_bot_game(
    variant: Variant,
    lexicon: Lexicon,
    bots: Sequence[Bot],
    seed: int,
    *,
    keep_log: bool = True,
    keep_records: bool = False,
) -> tuple[Game, GameSummary]:
    """One whole game between bots, each move played through ``Game.play``."""
    names = [f"{b.name}-{i + 1}" for i, b in enumerate(bots)]
    game = Game(variant, names, lexicon, seed=seed)
    n = len(bots)
    bingos, exchanges, passes = [0] * n, [0] * n, [0] * n
    turns, move_points = [0] * n, [0] * n
    records: list[TurnRecord] = []
    actions = 0
    while not game.is_over:
        actions += 1
        if actions > MAX_TURNS:
            raise RuntimeError(f"game {seed} of {variant.name} did not end in {MAX_TURNS} actions")
        seat = game.to_move
        bot = bots[seat]
        bag_before = len(game.bag)
        move = bot.choose(game)
        result = game.play(move)
        choice = bot.last_choice
        turns[result.seat] += 1
        move_points[result.seat] += result.score
        if result.kind == "placed" and len(result.placed) == variant.rack_size:
            bingos[seat] += 1
        elif result.kind == "exchanged":
            exchanges[seat] += 1
        elif result.kind == "passed":
            passes[seat] += 1
        if keep_records and choice is not None:
            records.append(
                TurnRecord(
                    seat,
                    choice.kind,
                    choice.leave,
                    result.score,
                    bag_before,
                    choice.tiles_played,
                )
            )
    assert game.result is not None
    summary = GameSummary(
        variant=variant.name,
        seed=seed,
        bots=[b.name for b in bots],
        final=list(game.result.final_scores),
        winners=list(game.result.winners),
        first=int(game.log[0]["first"]),
        actions=actions,
        bingos=bingos,
        exchanges=exchanges,
        passes=passes,
        end_reason=game.result.reason,
        turns=turns,
        move_points=move_points,
        log=list(game.log) if keep_log else [],
        records=records,
    )
    return game, summary


# -- many games, in several processes -------------------------------------------------------------


@dataclass
class _Job:
    variant: str
    lexicon: str
    levels: list[str]
    seeds: list[int]
    keep_records: bool
    leaves_path: str | None
    generator: str | None
    engine: str = "game"
    leaves_data: bytes | None = None
    """The KLV file's bytes, for workers on other machines that cannot read ``leaves_path``."""


_WORKER: dict[str, Any] = {}


def _bots_for(job: _Job, variant: Variant, lexicon: Lexicon, seed: int, rotation: int) -> list[Bot]:
    leaves = _WORKER.get("leaves")  # None: the shipped values
    n = len(job.levels)
    levels = [job.levels[(s + rotation) % n] for s in range(n)]
    return [
        Bot(level, variant, lexicon, leaves=leaves, seed=seed * 31 + s)
        for s, level in enumerate(levels)
    ]


def _setup(job: _Job) -> tuple[Variant, Lexicon]:
    key = (job.variant, job.lexicon, job.leaves_path, hash(job.leaves_data))
    if _WORKER.get("key") != key:
        if job.generator:
            os.environ["TABLERO_GENERATOR"] = job.generator
        variant = load_variant(job.variant)
        lexicon = load_lexicon(job.lexicon, variant.alphabet)
        leaves: LeaveTable | None = None
        if job.leaves_path == "none":
            leaves = LeaveTable.empty(variant.alphabet)
        elif job.leaves_data is not None:
            import tempfile

            with tempfile.NamedTemporaryFile(suffix=".klv") as f:
                f.write(job.leaves_data)
                f.flush()
                leaves = LeaveTable.load(f.name, variant.alphabet)
        elif job.leaves_path:
            leaves = LeaveTable.load(job.leaves_path, variant.alphabet)
        _WORKER.update(key=key, variant=variant, lexicon=lexicon, leaves=leaves, native=None)
    return _WORKER["variant"], _WORKER["lexicon"]


def _play_one(job: _Job, index: int, seed: int) -> GameSummary:
    variant, lexicon = _setup(job)
    if job.engine == "native":
        return _play_native(job, variant, lexicon, index, seed)
    bots = _bots_for(job, variant, lexicon, seed, index)
    _, summary = play_bot_game(
        variant, lexicon, bots, seed, keep_log=False, keep_records=job.keep_records
    )
    return summary


def _play_native(
    job: _Job, variant: Variant, lexicon: Lexicon, index: int, seed: int
) -> GameSummary:
    """One game in the C loop, levels rotated by ``index`` as ``_bots_for`` rotates bots."""
    gen, learned = _native_parts(variant, lexicon)
    n = len(job.levels)
    levels = [job.levels[(s + index) % n] for s in range(n)]
    per_seat = [learned if NATIVE_LEVELS[level] else None for level in levels]
    records: list[TurnRecord] = []
    if job.keep_records:
        # the game selfplay(1, seed) plays below, seat 0 first
        game, turns = gen.selfplay_records(gen.game_seed(seed, 0), n, 0, per_seat)
        records = [TurnRecord(*turn) for turn in turns]
    else:
        (game,) = gen.selfplay(1, seed=seed, players=n, leaves=per_seat)
    if game.reason == "turn_limit":
        raise RuntimeError(f"game {seed} of {variant.name} did not end in the C loop")
    return GameSummary(
        variant=variant.name,
        seed=seed,
        bots=levels,
        final=list(game.scores),
        winners=decide_winners(variant, game.scores, game.scores_before_adjustments),
        first=game.first,
        actions=game.turns,
        bingos=list(game.bingos),
        exchanges=list(game.exchanges),
        passes=list(game.passes),
        end_reason=game.reason,
        # The C loop skips nobody: seats take turns in order from the first.
        turns=[len(range((s - game.first) % n, game.turns, n)) for s in range(n)],
        move_points=list(game.scores_before_adjustments),
        records=records,
    )


def _native_parts(variant: Variant, lexicon: Lexicon) -> tuple[Any, Any]:
    """The C generator and the C leave table of the worker's game, made once (the leave
    table takes about a second: it is built before the clock starts)."""
    from .movegen import native

    parts = _WORKER.get("native")
    if parts is None:
        assert isinstance(lexicon, GraphLexicon)
        table: LeaveTable | None = _WORKER.get("leaves")
        if table is None:
            table = shipped_leaves(variant.name)
        learned = native.learned_leave_values(table) if table is not None else None
        parts = (native.NativeGenerator(variant, lexicon), learned)
        _WORKER["native"] = parts
    return parts


def resolve_engine(engine: str, variant: Variant, levels: Sequence[str], lexicon: Lexicon) -> str:
    """``native`` or ``game`` for ``engine`` (``auto``, ``native`` or ``game``).

    ValueError when ``native`` is asked for and cannot be used, saying why.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r}: one of {', '.join(ENGINES)}")
    if engine == "game":
        return "game"
    reasons = []
    others = sorted({level for level in levels if level not in NATIVE_LEVELS})
    if others:
        reasons.append(f"it plays only {' and '.join(NATIVE_LEVELS)}, not {', '.join(others)}")
    if not native_available():
        reasons.append("the compiled core is not built (or TABLERO_GENERATOR=reference)")
    if not isinstance(lexicon, GraphLexicon):
        reasons.append("the dictionary is not a word graph")
    if not reasons:
        return "native"
    if engine == "native":
        raise ValueError(f"the native self-play cannot run these games: {'; '.join(reasons)}")
    return "game"


def _ready_engine(engine: str, job: _Job) -> str:
    """``resolve_engine`` for the job's games, with what they need loaded in this process: the
    game and the dictionary, and for the C loop its generator and leave table. Forked workers
    start with them, and ``run_selfplay`` calls this before its clock starts."""
    if engine == "game":
        return engine
    variant, lexicon = _setup(job)
    engine = resolve_engine(engine, variant, job.levels, lexicon)
    if engine == "native":
        _native_parts(variant, lexicon)
    return engine


def _play_chunk(job: _Job, start: int) -> list[GameSummary]:
    return [_play_one(job, start + i, seed) for i, seed in enumerate(job.seeds)]


def iter_selfplay(
    variant: str,
    levels: Sequence[str],
    games: int,
    *,
    lexicon: str | None = None,
    jobs: int = 1,
    seed: int | None = None,
    keep_records: bool = False,
    leaves_path: str | None = None,
    generator: str | None = None,
    chunk: int = 4,
    engine: str = "game",
    cluster: str | None = None,
) -> Iterator[GameSummary]:
    """Play ``games`` games and yield each summary as it finishes (in any order with jobs > 1
    or a cluster: ``workpool.work_pool``, Dask's scheduler address or ``local``).

    ``levels`` are the bots at the seats (rotated game by game); ``leaves_path`` a KLV file to
    use instead of the shipped values (the learner's current table), ``"none"`` for none;
    ``engine`` one of ``ENGINES`` (see the module's docstring).
    """
    v = load_variant(variant)
    lex = lexicon or v.lexicon
    base = random.Random(seed).randrange(2**40) if seed is not None else random.randrange(2**40)
    seeds = [base + i for i in range(games)]
    if not v.min_players <= len(levels) <= v.max_players:
        raise ValueError(f"{v.title} is for {v.min_players}–{v.max_players} players")
    probe = _Job(variant, lex, list(levels), [], keep_records, leaves_path, generator)
    engine = _ready_engine(engine, probe)
    if engine == "native":
        chunk = max(chunk, 16)  # a C game takes milliseconds: hand workers more at a time
    if jobs <= 1 and not cluster:
        job = _Job(variant, lex, list(levels), [], keep_records, leaves_path, generator, engine)
        for i, s in enumerate(seeds):
            yield _play_one(job, i, s)
        return
    data = None
    if cluster and leaves_path and leaves_path != "none":
        # Workers elsewhere cannot read this machine's file: the table goes with the work, in
        # chunks large enough that sending it costs little beside the games.
        with open(leaves_path, "rb") as f:
            data = f.read()
        # ... and a C game takes a few milliseconds: about two seconds of games per table sent
        chunk = max(chunk, 512 if engine == "native" else 64)
    with work_pool(jobs, cluster) as pool:
        futures = []
        for start in range(0, games, chunk):
            part = seeds[start : start + chunk]
            job = _Job(
                variant,
                lex,
                list(levels),
                part,
                keep_records,
                leaves_path,
                generator,
                engine,
                data,
            )
            futures.append(pool.submit(_play_chunk, job, start))
        from concurrent.futures import as_completed

        for fut in as_completed(futures):
            yield from fut.result()


@dataclass
class SelfplayReport:
    """What a series of games shows about the bots that played them."""

    variant: str
    levels: list[str]
    engine: str = "game"
    games: int = 0
    seconds: float = 0.0
    score_sum: dict[str, float] = field(default_factory=dict)
    seats_played: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)
    wins_by_order: list[float] = field(default_factory=list)
    score_by_order: list[float] = field(default_factory=list)
    bingos: int = 0
    exchanges: int = 0
    passes: int = 0
    actions: int = 0
    end_reasons: dict[str, int] = field(default_factory=dict)
    level_turns: dict[str, int] = field(default_factory=dict)
    level_points: dict[str, int] = field(default_factory=dict)
    level_bingos: dict[str, int] = field(default_factory=dict)
    spreads: list[int] = field(default_factory=list)
    """Two-player games: the first player's final score minus the second's, a game each."""

    def add(self, s: GameSummary) -> None:
        n = len(s.bots)
        if not self.wins_by_order:
            self.wins_by_order = [0.0] * n
            self.score_by_order = [0.0] * n
        self.games += 1
        share = 1.0 / len(s.winners)
        for seat, level in enumerate(s.bots):
            self.score_sum[level] = self.score_sum.get(level, 0.0) + s.final[seat]
            self.seats_played[level] = self.seats_played.get(level, 0) + 1
            won = share if seat in s.winners else 0.0
            self.wins[level] = self.wins.get(level, 0.0) + won
            order = s.order_of(seat)
            self.wins_by_order[order] += won
            self.score_by_order[order] += s.final[seat]
            if s.turns:
                self.level_turns[level] = self.level_turns.get(level, 0) + s.turns[seat]
                self.level_points[level] = self.level_points.get(level, 0) + s.move_points[seat]
            self.level_bingos[level] = self.level_bingos.get(level, 0) + s.bingos[seat]
        self.bingos += sum(s.bingos)
        self.exchanges += sum(s.exchanges)
        self.passes += sum(s.passes)
        self.actions += s.actions
        self.end_reasons[s.end_reason] = self.end_reasons.get(s.end_reason, 0) + 1
        if n == 2:
            self.spreads.append(s.final[s.first] - s.final[1 - s.first])

    def spread_sd(self) -> float | None:
        """The standard deviation of a two-player game's final spread: how far luck moves one
        game between these players. A level that gains d points a game over another wins about
        Phi(d / this) of their games, so it says how many points a win rate asks for."""
        if len(self.spreads) < 2:
            return None
        return statistics.stdev(self.spreads)

    def to_dict(self) -> dict[str, Any]:
        g = max(self.games, 1)
        return {
            "variant": self.variant,
            "engine": self.engine,
            "games": self.games,
            "seconds": round(self.seconds, 2),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else None,
            "bots": {
                level: {
                    "average_score": round(self.score_sum[level] / self.seats_played[level], 1),
                    "win_rate": round(self.wins[level] / self.seats_played[level], 3),
                    "seats_played": self.seats_played[level],
                    "score_per_move": (
                        round(self.level_points[level] / self.level_turns[level], 1)
                        if self.level_turns.get(level)
                        else None
                    ),
                    "bingos_per_game": round(
                        self.level_bingos.get(level, 0) / self.seats_played[level], 2
                    ),
                }
                for level in self.score_sum
            },
            "by_order_of_play": [
                {
                    "order": i + 1,
                    "win_rate": round(w / g, 3),
                    "average_score": round(self.score_by_order[i] / g, 1),
                }
                for i, w in enumerate(self.wins_by_order)
            ],
            "bingos_per_game": round(self.bingos / g, 2),
            "exchanges_per_game": round(self.exchanges / g, 2),
            "passes_per_game": round(self.passes / g, 2),
            "actions_per_game": round(self.actions / g, 1),
            "end_reasons": self.end_reasons,
            "spread_sd": None if (sd := self.spread_sd()) is None else round(sd, 1),
        }


def run_selfplay(
    variant: str,
    levels: Sequence[str],
    games: int,
    *,
    lexicon: str | None = None,
    jobs: int = 1,
    seed: int | None = None,
    on_game: Callable[[GameSummary], None] | None = None,
    generator: str | None = None,
    engine: str = "auto",
    cluster: str | None = None,
) -> SelfplayReport:
    """Play the games and gather the report (``on_game`` is called after each, for progress);
    on ``jobs`` processes here or on a Dask ``cluster`` (``workpool.work_pool``)."""
    report = SelfplayReport(variant, list(levels))
    lex = lexicon or load_variant(variant).lexicon
    engine = _ready_engine(engine, _Job(variant, lex, list(levels), [], False, None, generator))
    report.engine = engine
    start = time.perf_counter()
    for summary in iter_selfplay(
        variant,
        levels,
        games,
        lexicon=lexicon,
        jobs=jobs,
        seed=seed,
        generator=generator,
        engine=engine,
        cluster=cluster,
    ):
        report.add(summary)
        if on_game is not None:
            on_game(summary)
    report.seconds = time.perf_counter() - start
    return report
