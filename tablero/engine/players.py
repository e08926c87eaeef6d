"""Computer players, from a beginner who misses moves to an expert who simulates.

A bot sees what a player at the table sees: the board, its own rack, the scores, how many tiles
the bag holds, and so the unseen tiles (bag plus the others' racks) as a pool, never the others'
racks themselves (``seat_view``). It answers with a move in the game's own terms, which the
caller plays through ``Game.play``, so every rule is the game's own.

Levels:

``beginner``  knows only the 20,000 most common words of its language and plays the best score
              among them; exchanges only when stuck.
``easy``      knows the 30,000 most common words; score plus 0.3 of the leave value.
``greedy``    the best score among all its moves (the yardstick the leave values are measured by).
``medium``    every word, but notices 60 % of its moves; the best score among them.
``club``      notices three quarters of its moves and counts 0.4 of the leave value.
``hard``      the best static equity: score plus the learned leave value, exchanges, passing
              the opening where the rack is worth more than the opening, CAMBIO, EX squares.
``expert``    hard's sixteen best candidates, re-ranked by Monte Carlo simulation two plies
              deep with the same random draws for every candidate, the clearly worse dropped
              early, ranked by the chance of winning (two players) and played out to the end
              in the pre-endgame, the last opponent dealt what its last play says it kept
              (rack inference); with the bag empty and one opponent, an exact endgame search.
              At a table of two it samples twice as much, looks four plies deep once the bag
              holds 40 tiles or fewer and plays out to the end from 14.

In Bisonte, where words are checked only when challenged, every bot challenges a play that
has a word its dictionary lacks, and never a valid one.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from pathlib import Path

from ..game import Game
from ..lexicon import Lexicon
from ..moves import Challenge, Exchange, Move, Place
from ..position import Position
from ..variant import Variant
from .evaluation.leaves import KlvError, LeaveTable
from .evaluation.winprob import WinTable, shipped_win_table
from .movegen.candidates import (
    Candidate,
    MoveGenerator,
    candidate_order,
    candidates,
    exchange_allowed,
    generator_for,
)
from .search.inference import Inference, LastPlay

__all__ = [
    "LEVELS",
    "Bot",
    "BotLevel",
    "SimSettings",
    "ex_bonus_for",
    "make_bot",
    "seat_view",
    "shipped_leaves",
    "timed_choice",
]


@dataclass(frozen=True)
class SimSettings:
    """How a simulating level spends its time on a move (``search.simulate``)."""

    candidates: int = 8
    """The best moves by static equity that are simulated."""
    iterations: int = 300
    """Deals at most for each candidate."""
    playouts: int | None = None
    """Playouts at most a move, all candidates together (None: no limit)."""
    prune: bool = False
    """Drop candidates clearly behind the leader as the deals come in."""
    play_to_win: bool = False
    """Rank by the chance of winning (two players; the game's shipped win table)."""
    plies: int = 2
    """Plies simulated after each candidate before the pre-endgame: the
    opponents' replies and ours (2), or more rounds of them."""
    late_plies: int | None = None
    """Plies simulated at two seats once the bag holds ``late_bag`` tiles or fewer, before the
    pre-endgame (None: ``plies``, as at any time). Looking further pays where the end is near;
    at a table of more, a round already holds every opponent's reply."""
    late_bag: int = 40
    """Where the late game starts: the bag holds at most this many tiles."""
    preendgame_plies: int | None = None
    """Plies simulated in the pre-endgame (None: ``plies``, as at any time)."""
    preendgame_bag: int | None = None
    """The pre-endgame: the bag holds at most this many tiles (None: a rack's worth)."""
    solve_bag_of_one: bool = False
    """With one tile in the bag and one opponent, solve every draw's endgame exactly instead of
    simulating (``search.preendgame``)."""
    bag_of_one_reply: str = "best"
    """How the opponent answers in those futures: ``best`` (the exact search from its side) or
    ``static`` (its best static move, as the simulation models an opponent)."""
    infer: bool = False
    """Deal the last opponent the tiles its last play says it kept (``search.inference``)."""
    infer_plays: int = 1
    """Placements of that opponent read for it, the last one included: each one's kept tiles
    the prior of the next (``inference.infer_recent``)."""
    threads: int = 1
    """Threads the playouts run on (the C loop shares the candidates out; the same answers
    on any number): the budget in playouts is for all of them together."""


@dataclass(frozen=True)
class BotLevel:
    """How a level plays: what it sees, how it values tiles kept, whether it looks ahead."""

    name: str
    see: float = 1.0
    """The share of its placements the bot notices (the rest it misses)."""
    max_word: int | None = None
    """The longest main word it plays, in tiles (None: any)."""
    leave_weight: float = 1.0
    """How much of the learned leave value counts (0: score only)."""
    pick_among: int = 1
    """Chooses at random among this many of its best moves."""
    exchanges: str = "equity"
    """``equity``: exchange when it is worth more than any play; ``stuck``: only with no play."""
    simulate: bool = False
    sim: SimSettings = SimSettings()
    two_seats: SimSettings | None = None
    """The simulation's settings at a table of two, where they differ from ``sim`` (None: the
    same): one opponent leaves the time for deeper and more playouts that three would share."""
    endgame: bool = False
    vocabulary: int | None = None
    """Knows only this many of its language's most common words (``data/common``): the main
    word of every placement it plays is one of them (None: every word of the dictionary).
    A person new to the game plays the words of everyday speech, and rarely a bingo."""


EXPERT_SIM = SimSettings(
    candidates=16,
    iterations=1200,
    playouts=4800,
    prune=True,
    play_to_win=True,
    preendgame_plies=8,
    infer=True,
    threads=2,
)

EXPERT_TWO_SEATS = replace(
    EXPERT_SIM,
    iterations=2400,
    playouts=9600,
    late_plies=4,
    preendgame_bag=14,
    preendgame_plies=12,
)
"""The expert at a table of two: twice the playouts, four plies once the bag holds 40 tiles
or fewer, and played out to the end (twelve plies) from 14 (docs/bots.md, "The levels")."""

LEVELS: dict[str, BotLevel] = {
    # The ladder (docs/bots.md, "The ladder"): each level wins 60–85 % of its games against
    # the one below it, in every game; measured by benchmarks/bench_ladder.py.
    "beginner": BotLevel("beginner", leave_weight=0.0, exchanges="stuck", vocabulary=20000),
    "easy": BotLevel("easy", leave_weight=0.3, vocabulary=30000),
    "greedy": BotLevel("greedy", leave_weight=0.0, exchanges="stuck"),
    "medium": BotLevel("medium", see=0.6, leave_weight=0.0, exchanges="stuck"),
    # Level 4: a club player misses a quarter of the moves and weighs the tiles kept only
    # roughly; the engine's best static player (``hard``) would leave the expert, whose
    # simulation gains only a few points a game over it, too small a step above.
    "club": BotLevel("club", see=0.75, leave_weight=0.4),
    "hard": BotLevel("hard"),
    # The expert simulates sixteen candidates in 4,800 playouts a move on two threads (on two
    # cores, about the wait of 2,400 on one, and less than eight candidates × 300 deals made a
    # player wait before; 1.5 times their CPU), drops the clearly worse as the deals come in,
    # ranks by the chance of winning, and plays the pre-endgame out to the end (docs/bots.md).
    # At a table of two it looks further and samples more (EXPERT_TWO_SEATS): 0.79 s of wall
    # time a move on two cores, the 0.8 s the expert took when issue 16 measured it.
    "expert": BotLevel(
        "expert", simulate=True, endgame=True, sim=EXPERT_SIM, two_seats=EXPERT_TWO_SEATS
    ),
}
LEVELS["strongest"] = replace(LEVELS["expert"], name="strongest")


# -- shipped data ---------------------------------------------------------------------------------


def _leaves_dir() -> Path:
    return Path(str(resources.files("tablero") / "data" / "leaves"))


@cache
def shipped_leaves(variant_name: str) -> LeaveTable | None:
    """The learned leave values shipped for a game (``data/leaves/<name>.klv``), if any.

    The sidecar ``<name>.json`` says how the file numbers its tiles (``letters``) and how it
    was learned.
    """
    from ..variant import load_variant

    path = _leaves_dir() / f"{variant_name}.klv"
    if not path.is_file():
        return None
    try:
        return LeaveTable.load_learned(path, load_variant(variant_name).alphabet)
    except (KlvError, ValueError):
        return None


@cache
def _sidecar(variant_name: str) -> dict[str, object]:
    path = _leaves_dir() / f"{variant_name}.json"
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def ex_bonus_for(variant: Variant) -> float:
    """What shuffling the next player's rack (an EX square) is worth to the mover.

    A rack is worth on average what its owner chose to keep; a fresh draw is worth 0 by the
    leave values' definition. So the bonus is the mean value of the leaves kept in the
    self-play that learned the values (recorded in the sidecar), 0 where the game has no EX.
    """
    if not any(k.shuffles_next_rack for k in variant.squares.values()):
        return 0.0
    value = _sidecar(variant.name).get("mean_kept_leave_value", 0.0)
    return float(value) if isinstance(value, int | float) else 0.0


# -- what a seat sees -----------------------------------------------------------------------------


def seat_view(game: Game, seat: int | None = None) -> Position:
    """The position as the player at ``seat`` sees it: the others' racks unknown (empty)."""
    pos = game.position(seat)
    pos.racks = [pos.racks[0]] + [() for _ in pos.racks[1:]]
    return pos


# -- the bot --------------------------------------------------------------------------------------


class Bot:
    """A computer player of one level for one game and dictionary."""

    def __init__(
        self,
        level: BotLevel | str,
        variant: Variant,
        lexicon: Lexicon,
        *,
        leaves: LeaveTable | None = None,
        seed: int | None = None,
        sim_iterations: int | None = None,
        sim_candidates: int | None = None,
        time_limit: float = 8.0,
        sim_playouts: int | None = None,
        prune: bool | None = None,
        win_table: WinTable | bool | None = None,
        threads: int | None = None,
        preendgame_plies: int | None = None,
        infer: bool | None = None,
        infer_plays: int | None = None,
        sim_plies: int | None = None,
        preendgame_bag: int | None = None,
        late_plies: int | None = None,
        late_bag: int | None = None,
        solve_bag_of_one: bool | None = None,
        bag_of_one_reply: str | None = None,
    ) -> None:
        """The simulation's settings are the level's (``BotLevel.sim``) unless given here:
        ``sim_playouts=0``, ``preendgame_plies=0`` and ``late_plies=0`` turn those off,
        ``win_table`` is a table, True (the game's shipped one) or False (rank by points)."""
        if isinstance(level, str):
            if level not in LEVELS:
                raise ValueError(f"no bot level {level!r}: one of {', '.join(LEVELS)}")
            level = LEVELS[level]
        self._two: Bot | None = None
        """The same level with its two-seat settings (``BotLevel.two_seats``), which decides
        at a table of two; it shares this bot's leaves, options and random numbers."""
        if level.two_seats is not None:
            self._two = Bot(
                replace(level, sim=level.two_seats, two_seats=None),
                variant,
                lexicon,
                leaves=leaves,
                seed=seed,
                sim_iterations=sim_iterations,
                sim_candidates=sim_candidates,
                time_limit=time_limit,
                sim_playouts=sim_playouts,
                prune=prune,
                win_table=win_table,
                threads=threads,
                preendgame_plies=preendgame_plies,
                infer=infer,
                infer_plays=infer_plays,
                sim_plies=sim_plies,
                preendgame_bag=preendgame_bag,
                late_plies=late_plies,
                late_bag=late_bag,
                solve_bag_of_one=solve_bag_of_one,
                bag_of_one_reply=bag_of_one_reply,
            )
        if not lexicon.can_search:
            raise ValueError("a computer player needs a dictionary it can search (not 'none')")
        self.level = level
        self.variant = variant
        self.lexicon = lexicon
        self.leaves = leaves if leaves is not None else shipped_leaves(variant.name)
        self.rng = random.Random(seed)
        if self._two is not None:
            self._two.rng = self.rng
        sim = level.sim
        self.sim_iterations = sim.iterations if sim_iterations is None else sim_iterations
        self.sim_candidates = sim.candidates if sim_candidates is None else sim_candidates
        self.time_limit = time_limit
        self.sim_playouts = sim.playouts if sim_playouts is None else sim_playouts or None
        """At most this many playouts a move, all candidates together (None: no limit)."""
        self.prune = sim.prune if prune is None else prune
        """Drop candidates clearly behind the leader as the deals come in."""
        if win_table is None:
            win_table = sim.play_to_win
        self.play_to_win = win_table is not False
        """Rank simulated candidates by the chance of winning (``win_table_for``)."""
        self._win_table = win_table if isinstance(win_table, WinTable) else None
        self.threads = sim.threads if threads is None else threads
        """Threads the simulation's playouts run on."""
        if self.threads < 1:
            raise ValueError(f"threads must be at least 1, not {self.threads}")
        self.sim_plies = sim.plies if sim_plies is None else sim_plies
        """Plies simulated after each candidate before the pre-endgame (``plies_at``)."""
        if self.sim_plies < 1:
            raise ValueError(f"sim_plies must be at least 1, not {self.sim_plies}")
        late = sim.late_plies if late_plies is None else late_plies
        if late is not None and late < 0:
            raise ValueError(f"late_plies must be at least 0, not {late}")
        self.late_plies = late or None
        """Plies simulated at two seats in the late game (None: ``sim_plies``)."""
        self.late_bag = sim.late_bag if late_bag is None else late_bag
        """The late game: the bag holds this many tiles or fewer."""
        if self.late_bag < 0:
            raise ValueError(f"late_bag must be at least 0, not {self.late_bag}")
        plies = sim.preendgame_plies if preendgame_plies is None else preendgame_plies
        self.preendgame_plies = plies or None
        """Plies simulated in the pre-endgame (None: ``sim_plies``): deep enough to play the
        game out, so going out first and tiles stuck on a rack are counted."""
        bag = sim.preendgame_bag if preendgame_bag is None else preendgame_bag
        self.preendgame_bag = variant.rack_size if bag is None else bag
        """The pre-endgame: the bag holds this many tiles or fewer (and at least one)."""
        if self.preendgame_bag < 0:
            raise ValueError(f"preendgame_bag must be at least 0, not {self.preendgame_bag}")
        self.solve_bag_of_one = (
            sim.solve_bag_of_one if solve_bag_of_one is None else solve_bag_of_one
        )
        """With one tile in the bag and one opponent: every draw's endgame solved exactly."""
        self.bag_of_one_time: float | None = 0.25
        """Seconds for each of those endgames at most (None: no limit)."""
        reply = sim.bag_of_one_reply if bag_of_one_reply is None else bag_of_one_reply
        if reply not in ("best", "static"):
            raise ValueError(f"bag_of_one_reply: best or static, not {reply!r}")
        self.bag_of_one_reply = reply
        """How the opponent answers in those futures (``SimSettings.bag_of_one_reply``)."""
        self._static: Bot | None = None
        """The static player whose moves ``bag_of_one_reply="static"`` models, made once."""
        self.bag_of_one_nodes: int | None = None
        """Nodes for each of those endgames at most (None: no limit): a budget that gives the
        same answers on any machine."""
        self.infer = sim.infer if infer is None else infer
        """Infer what the last opponent kept from its last play, and deal it that."""
        self.infer_plays = sim.infer_plays if infer_plays is None else infer_plays
        """Placements of that opponent read for it (``search.inference.recent_plays``)."""
        if self.infer_plays < 1:
            raise ValueError(f"infer_plays must be at least 1, not {self.infer_plays}")
        self.ex_bonus = ex_bonus_for(variant)
        self.last_choice: Candidate | None = None
        """The candidate behind the last move chosen (for records and explanations)."""

    @property
    def name(self) -> str:
        return self.level.name

    def at_table(self, players: int) -> Bot:
        """The bot that decides at a table of ``players``: this one, or at a table of two the
        same level with its two-seat settings (``BotLevel.two_seats``) where it has them."""
        return self._two if players == 2 and self._two is not None else self

    def win_table_for(self, players: int) -> WinTable | None:
        """The win-probability table the simulation ranks by at a table of ``players``: the
        one given at construction if it is for that many, else the game's shipped one, if
        this bot plays to win and there is one."""
        if not self.play_to_win:
            return None
        if self._win_table is not None:
            return self._win_table if self._win_table.players == players else None
        return shipped_win_table(self.variant.name, players)

    # -- the decision -------------------------------------------------------------------------

    def choose(self, game: Game) -> Move:
        """The move for the player to move (who must be this bot's seat)."""
        seat = game.to_move
        if self.should_challenge(game, seat):
            self.last_choice = None
            return Challenge()
        position = seat_view(game, seat)
        # The players still in the game: a resigned one never moves again (seat_view leaves
        # them out), so simulation must not imagine a rack and a reply for them.
        choice = self.choose_in(
            position, players=len(position.racks), inference=self.infer_from(game, position)
        )
        self.last_choice = choice
        return choice.move

    def should_challenge(self, game: Game, seat: int) -> bool:
        """Challenge a play exactly when one of its words is not in the dictionary."""
        if not game.can_challenge(seat):
            return False
        last = next((e for e in reversed(game.log) if e["type"] == "move"), None)
        if last is None or last["result"] != "placed":
            return False
        parsed = game.parse(last["move"])
        if not isinstance(parsed, Place):
            return False
        return not _words_valid(game, parsed)

    def infer_from(self, game: Game, position: Position) -> Inference | None:
        """What the last opponent kept, as its last plays tell (``search.inference``): for a
        bot that simulates and infers, when it will simulate (the bag not empty)."""
        return self.infer_from_plays(self.plays_to_read(game), position)

    def plays_to_read(self, game: Game) -> tuple[LastPlay, ...]:
        """The last opponent's plays this bot infers its rack from, newest first
        (``search.inference.recent_plays``); none if it does not infer."""
        if not (self.level.simulate and self.infer and self.leaves is not None):
            return ()
        from .search.inference import recent_plays

        return recent_plays(game, self.infer_plays)

    def infer_from_plays(self, plays: Sequence[LastPlay], position: Position) -> Inference | None:
        """``infer_from`` for a bot that holds the position and the plays, not the game (a
        worker process thinking for a table)."""
        core = getattr(self.generator, "core", None)
        if not (plays and self.leaves is not None and core) or position.bag_count() == 0:
            return None
        from .search.inference import infer_recent

        return infer_recent(
            plays, position.unseen(), core, self.leaves, self.variant.rack_size, rng=self.rng
        )

    def choose_in(
        self, position: Position, players: int = 2, inference: Inference | None = None
    ) -> Candidate:
        """The move in a position (the player to move's rack; the others' may be unknown);
        ``inference``: what an opponent's last play says it kept, for the simulation."""
        if self.at_table(players) is not self:
            return self.at_table(players).choose_in(position, players, inference)
        if self.level.endgame and players == 2 and position.bag_count() == 0:
            from .search.endgame import solve_endgame

            result = solve_endgame(
                position, self.lexicon, time_limit=self.time_limit, generator=self.generator
            )
            if result is not None:
                return result.best
        ranked = self.rank(position)
        if (
            self.solve_bag_of_one
            and self.level.simulate
            and players == 2
            and position.bag_count() == 1
        ):
            from .search.preendgame import solve_bag_of_one

            places = [c for c in ranked if c.kind == "place"][: self.sim_candidates]
            if places:
                solved = solve_bag_of_one(
                    position,
                    places,
                    self.lexicon,
                    self.generator,
                    inference=inference,
                    endgame_time=self.bag_of_one_time,
                    endgame_nodes=self.bag_of_one_nodes,
                    time_limit=self.time_limit,
                    reply=self._static_reply if self.bag_of_one_reply == "static" else None,
                )
                if solved:  # placements that shuffle a rack are left to the simulation
                    return solved[0].candidate
        if self.level.simulate and len(ranked) > 1 and position.bag_count() > 0:
            from .search.simulate import simulate

            top = _distinct_top(ranked, self.sim_candidates)
            if len(top) > 1:
                sims = simulate(
                    position,
                    top,
                    self.lexicon,
                    self.leaves,
                    players=players,
                    plies=self.plies_at(position.bag_count(), players),
                    iterations=self.sim_iterations,
                    seed=self.rng.randrange(2**32),
                    time_limit=self.time_limit,
                    ex_bonus=self.ex_bonus,
                    generator=self.generator,
                    threads=self.threads,
                    win_table=self.win_table_for(players),
                    prune=self.prune,
                    max_playouts=self.sim_playouts,
                    inference=inference,
                )
                return sims[0].candidate
        # Chance picks among the best plays only: a beginner plays, it does not pass at random.
        k = sum(1 for c in ranked[: self.level.pick_among] if c.kind in ("place", "cambio"))
        return ranked[self.rng.randrange(k)] if k > 1 else ranked[0]

    def _static_reply(self, position: Position) -> Candidate:
        """The move the static player (``hard``, with this bot's leaves) makes."""
        if self._static is None:
            self._static = Bot("hard", self.variant, self.lexicon, leaves=self.leaves)
        return self._static.choose_in(position)

    def plies_at(self, bag_count: int, players: int = 2) -> int:
        """How deep the playouts go with this many tiles in the bag: the pre-endgame's plies
        once the bag is down to ``preendgame_bag``, the late game's at two seats once it is
        down to ``late_bag``, else ``sim_plies`` (at a table of two, the two-seat settings')."""
        if self.at_table(players) is not self:
            return self.at_table(players).plies_at(bag_count, players)
        if self.preendgame_plies and bag_count <= self.preendgame_bag:
            return self.preendgame_plies
        if self.late_plies and players == 2 and bag_count <= self.late_bag:
            return self.late_plies
        return self.sim_plies

    @property
    def generator(self) -> MoveGenerator:
        return generator_for(self.variant, self.lexicon)

    def rank(self, position: Position) -> list[Candidate]:
        """Its moves in the order this level prefers them (best first).

        Levels that see every move ask the generator for the best few by their own equity;
        those that miss moves draw from the best forty by score (the moves they would have
        looked at), the beginner from every move, since it keeps only short words.
        """
        lvl = self.level
        leaves = self.leaves if lvl.leave_weight > 0 else None
        if lvl.max_word is not None:
            top: int | None = None
        elif lvl.vocabulary is not None:
            top = 300  # the common words among the best-scoring moves it would look at
        elif lvl.see < 1.0:
            top = 40
        else:
            top = 40 if lvl.simulate else 12
        cands = candidates(
            position,
            self.lexicon,
            leaves,
            generator=self.generator,
            ex_bonus=self.ex_bonus * lvl.leave_weight,
            top=top,
            leave_weight=lvl.leave_weight,
        )
        places = [c for c in cands if c.kind in ("place", "cambio")]
        known = common_words(self.variant.language, lvl.vocabulary) if lvl.vocabulary else None
        if known is not None:
            places = [c for c in places if c.kind != "place" or _main_word(c) in known]
        if lvl.see < 1.0:
            places = [c for c in places if self.rng.random() < lvl.see]
        if lvl.max_word is not None:
            places = [c for c in places if c.kind != "place" or _main_word_len(c) <= lvl.max_word]
        others = [c for c in cands if c.kind in ("exchange", "pass")]
        if lvl.leave_weight == 0.0:
            places.sort(key=lambda c: (-c.score, c.tiles_played, c.notation))
            return places + others if places else _when_stuck(position, others)
        ranked = sorted(places + others, key=candidate_order)
        if lvl.exchanges == "stuck" and places:
            ranked = places
        return ranked


def _main_word(c: Candidate) -> str:
    assert isinstance(c.move, Place)
    return "".join(x.tile.letter for x in c.move.letters if x.tile is not None)


@cache
def common_words(language: str, count: int) -> frozenset[str] | None:
    """The ``count`` most common words of a language that our dictionary has
    (``data/common/<language>.txt``, built by ``scripts/build_common_words.py``), or None
    when no list ships for it (then every word is known)."""
    path = resources.files("tablero") / "data" / "common" / f"{language}.txt"
    try:
        lines = path.read_text("utf-8").splitlines()
    except OSError:
        return None
    words = [w for w in lines if w and not w.startswith("#")]
    return frozenset(words[:count])


def _main_word_len(c: Candidate) -> int:
    assert isinstance(c.move, Place)
    return len(c.move.letters)


def _when_stuck(position: Position, others: list[Candidate]) -> list[Candidate]:
    """No play: exchange everything the rules allow (the simple way out), else pass."""
    exchanges = [c for c in others if c.kind == "exchange"]
    if exchanges and exchange_allowed(position, has_placement=False):
        most = max(exchanges, key=lambda c: (_exchanged(c), -len(c.leave)))
        return [most] + [c for c in others if c is not most]
    return sorted(others, key=lambda c: c.kind != "pass")


def _exchanged(c: Candidate) -> int:
    return len(c.move.tiles) if isinstance(c.move, Exchange) else 0


def _distinct_top(ranked: list[Candidate], n: int) -> list[Candidate]:
    """The n best candidates, with at most a few exchanges (they differ only in leave)."""
    out: list[Candidate] = []
    exchanges = 0
    for c in ranked:
        if c.kind == "exchange":
            if exchanges >= 2:
                continue
            exchanges += 1
        out.append(c)
        if len(out) == n:
            break
    return out


def _words_valid(game: Game, place: Place) -> bool:
    """Whether every word of the last play (already on the board) is in the dictionary.

    The log writes letters that were already on the board in parentheses, so the new squares
    are known; every word the play formed runs through one of them.
    """
    board = game.board
    dr, dc = (0, 1) if place.across else (1, 0)
    r0, c0 = place.start
    new = [(r0 + i * dr, c0 + i * dc) for i, x in enumerate(place.letters) if not x.on_board]
    words = [board.word_through(sq, across) for sq in new for across in (True, False)]
    return all(game.lexicon.contains(w.text) for w in words if len(w) >= 2)


# -- construction ---------------------------------------------------------------------------------


def make_bot(
    spec: str,
    variant: Variant,
    lexicon: Lexicon,
    seed: int | None = None,
    **options: float,
) -> Bot:
    """A bot from a player spec: ``hard``, ``bot:hard`` or ``bot`` (hard)."""
    level = spec.split(":", 1)[1] if spec.startswith("bot:") else spec
    if level == "bot":
        level = "hard"
    iterations = options.get("sim_iterations")
    time_limit = float(options.get("time_limit", 8.0))
    return Bot(
        level.strip().lower(),
        variant,
        lexicon,
        seed=seed,
        sim_iterations=None if iterations is None else int(iterations),
        time_limit=time_limit,
    )


def timed_choice(bot: Bot, game: Game) -> tuple[Move, float]:
    """The bot's move and the seconds it thought (for games with clocks)."""
    start = time.monotonic()
    move = bot.choose(game)
    return move, time.monotonic() - start
