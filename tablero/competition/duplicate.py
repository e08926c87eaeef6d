"""Duplicate: every player plays the same rack on the same board, and the board takes the top.

A round: one rack is drawn for everyone (``draw_rule``); each player submits one move, or
nothing, within the round's time; when the round closes each submission is scored by the
game's own rules on the shared position (0 if it breaks one, the reason kept), the engine's
top-scoring move is placed on the board, and the rack is refilled. A player's total is the sum
of what they found; the ranking is by total, shown as a percentage of the top's total.

The library is what a room of 1 to 100 players needs and no more: players join by name, the
caller supplies each submission's time into the round (its own clock, so a server's clock and
a test's fake one work alike), decides when a round closes, and stores the game as the JSON of
its log (``to_json`` / ``from_json``), which replays to the same game and checks that it does.
Submissions are not scored before the round closes, so nothing tells a player whether a word
is valid while the round is open.

Every refusal (a late or malformed submission, an unknown player, anything after the end) is
a ``DuplicateError`` with a stable ``code``, raised before anything changes. Decisions the
federations' texts leave open are in docs/competition.md.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from ..board import Board
from ..engine.movegen.candidates import (
    Candidate,
    cambio_candidates,
    generator_for,
    placement_candidate,
    score_order,
)
from ..formats.cgp import write_cgp
from ..lexicon import Lexicon
from ..lexicon.amend import amended_lexicon
from ..moves import Cambio, Challenge, Exchange, Move, NotationError, Pass, Place, format_move
from ..moves import parse_move as _parse_move
from ..position import Position
from ..rules import IllegalMove, check_move, check_placement
from ..variant import Variant, load_variant, logged_variant
from .draw_rule import DrawRule
from .results import (
    BEST_SHOWN,
    PlayerRound,
    RoundMove,
    RoundResult,
    Standing,
    Submission,
    percent_of_top,
    rack_notation,
)

__all__ = ["DuplicateError", "DuplicateGame", "DuplicateOptions", "best_by_score"]

Event = dict[str, Any]

LOG_FORMAT = "tablero-duplicate"
LOG_VERSION = 1

MAX_NAME = 40
"""Characters in a player's name."""


class DuplicateError(ValueError):
    """A refused action. ``code`` is stable (for programs and tests): ``game_over``,
    ``late``, ``bad_time``, ``notation``, ``not_a_duplicate_move``, ``unknown_player``,
    ``bad_name``, ``name_taken``. ``params`` holds what the message names."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = dict(params or {})


@dataclass(frozen=True)
class DuplicateOptions:
    """What a room or a tournament director may choose; ``of(variant)`` takes the rule
    file's ``[duplicate]`` values."""

    round_seconds: float | None = 180.0
    """Seconds a round lasts; None: no limit."""
    solo_bonus: int = 0
    max_rounds: int | None = None
    """Stop after this many rounds (a short game); None: play until the rack rule ends it."""

    def __post_init__(self) -> None:
        if self.round_seconds is not None and not (
            math.isfinite(self.round_seconds) and self.round_seconds > 0
        ):
            raise ValueError(f"round_seconds: a positive number or None, not {self.round_seconds}")
        if self.solo_bonus < 0:
            raise ValueError(f"solo_bonus: at least 0, not {self.solo_bonus}")
        if self.max_rounds is not None and self.max_rounds < 1:
            raise ValueError(f"max_rounds: at least 1 or None, not {self.max_rounds}")

    @classmethod
    def of(
        cls,
        variant: Variant,
        *,
        round_seconds: float | Literal["rules"] | None = "rules",
        solo_bonus: int | None = None,
        max_rounds: int | None = None,
    ) -> DuplicateOptions:
        """The rule file's options, any given here replacing them (``round_seconds=None``:
        no limit; ``"rules"``: the rule file's, where its 0 means no limit)."""
        rules = variant.duplicate
        if round_seconds == "rules":
            seconds: float | None = float(rules.round_seconds) or None
        else:
            seconds = None if round_seconds is None else float(round_seconds)
        return cls(
            round_seconds=seconds,
            solo_bonus=rules.solo_bonus if solo_bonus is None else solo_bonus,
            max_rounds=max_rounds,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DuplicateOptions:
        return cls(
            round_seconds=data.get("round_seconds"),
            solo_bonus=int(data.get("solo_bonus", 0)),
            max_rounds=data.get("max_rounds"),
        )


@dataclass(frozen=True)
class _Pending:
    move: Move
    submission: Submission


@dataclass
class _Round:
    """The round being played: its rack, and its moves by score (the top first)."""

    number: int
    moves: list[Candidate] = field(default_factory=list)
    pending: dict[str, _Pending] = field(default_factory=dict)


class DuplicateGame:
    """One duplicate game of a rule set, for any number of players (none to start is fine:
    players may join until the end)."""

    def __init__(
        self,
        variant: Variant | str,
        lexicon: Lexicon,
        players: Sequence[str] = (),
        seed: int | None = None,
        options: DuplicateOptions | None = None,
    ) -> None:
        self.variant = load_variant(variant) if isinstance(variant, str) else variant
        v = self.variant
        if lexicon.alphabet.name != v.alphabet.name:
            raise ValueError(
                f"the lexicon is {lexicon.alphabet.name}; {v.title} is played in {v.alphabet.name}"
            )
        if not lexicon.can_search:
            raise ValueError(
                "duplicate needs a dictionary the move generator can search: the top is the "
                "engine's (a word list or a .kwg, not 'none')"
            )
        self.lexicon = amended_lexicon(lexicon, v.word_changes)
        self.options = options or DuplicateOptions.of(v)
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        self._rng = random.Random(self.seed)
        self.rule = DrawRule(v.duplicate, v.alphabet, v.rack_size)
        self.board = Board(v.rows, v.columns)
        self.bag: list[str] = [t for t, (count, _) in v.tiles.items() for _ in range(count)]
        self.rack: list[str] = []
        self.players: list[str] = []
        self.totals: dict[str, int] = {}
        self.results: list[RoundResult] = []
        self.top_total = 0
        self.cambios = 0
        """CAMBIOs placed on the board (Crucigrama): the game's limit counts these."""
        self.end_reason: str | None = None
        """Why the game ended: ``draw_rule``, ``no_tiles``, ``no_move``, ``rounds``,
        ``stopped``; None while it goes on."""
        self.log: list[Event] = []
        self._round = _Round(0)
        names = [self._check_new_name(n, taken=()) for n in players]
        if len({n.casefold() for n in names}) != len(names):
            raise DuplicateError("name_taken", "two players have the same name")
        for name in names:
            self._add(name)
        self.log.append(
            {
                "type": "start",
                "format": LOG_FORMAT,
                "version": LOG_VERSION,
                "variant": v.name,
                "variant_source": v.source,
                "seed": self.seed,
                "lexicon": asdict(self.lexicon.info()),
                "options": self.options.to_dict(),
                "players": list(self.players),
            }
        )
        self._open_round(1, [], keep_leave=True)

    # -- reading the state ----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.end_reason is not None

    @property
    def round(self) -> int:
        """The round being played (once the game is over: the last one played, or 0)."""
        return self._round.number

    def position(self) -> Position:
        """The shared position of the round: the board, the round's rack, the top's total."""
        return Position(
            variant=self.variant,
            board=self.board.copy(),
            racks=[tuple(self.rack)],
            scores=[self.top_total],
            lexicon=self.lexicon.info().name,
            cambios_used=[self.cambios],
            bag=len(self.bag),
        )

    def cgp(self) -> str:
        """The round's position as a CGP line (``tablero moves --by score`` reads it)."""
        return write_cgp(self.position())

    def top(self) -> RoundMove:
        """The top of the round being played: the move the board will take when it closes.
        Known from the round's start; a room keeps it to itself until then."""
        self._check_open()
        return _round_move(self._round.moves[0])

    def has_submitted(self, player: str) -> bool:
        """Whether a player has a move in for this round (its content stays hidden)."""
        return self._known(player) in self._round.pending

    def submitted(self) -> list[str]:
        """The players with a move in for this round, in the order they joined."""
        return [p for p in self.players if p in self._round.pending]

    def standings(self) -> list[Standing]:
        """Every player by total, highest first (equal totals: by name)."""
        tops = Counter(p.player for r in self.results for p in r.plays if p.found_top)
        solos = Counter(p.player for r in self.results for p in r.plays if p.solo)
        order = sorted(self.players, key=lambda p: (-self.totals[p], p.casefold()))
        out = []
        for name in order:
            place = 1 + sum(1 for other in self.players if self.totals[other] > self.totals[name])
            out.append(
                Standing(
                    place, name, self.totals[name], self.percent(name), tops[name], solos[name]
                )
            )
        return out

    def percent(self, player: str) -> float:
        """A player's total as a percentage of the top's, to two decimals."""
        return percent_of_top(self.totals[self._known(player)], self.top_total)

    def state(self) -> dict[str, Any]:
        """Everything that makes the game what it is, as plain data (tests compare it to
        see that a refused action changed nothing)."""
        return {
            "board": [
                [t.notation() if t else None for t in self.board.row(r)]
                for r in range(self.board.rows)
            ],
            "bag": list(self.bag),
            "rack": list(self.rack),
            "round": self.round,
            "players": list(self.players),
            "totals": dict(self.totals),
            "pending": {p: asdict(s.submission) for p, s in self._round.pending.items()},
            "results": len(self.results),
            "top_total": self.top_total,
            "cambios": self.cambios,
            "end_reason": self.end_reason,
            "rng": self._rng.getstate(),
            "log": [dict(e) for e in self.log],
        }

    # -- actions --------------------------------------------------------------------------------

    def join(self, name: str) -> None:
        """A player joins (between or during rounds, until the end); the rounds already
        played count 0 for them."""
        self._check_open()
        name = self._check_new_name(name, taken=self.players)
        self._add(name)
        self.log.append({"type": "join", "player": name})

    def submit(self, player: str, move: Move | str, at: float) -> Submission:
        """A player's move for the round, ``at`` seconds after the round began.

        A later submission of the same player replaces the earlier one (the last one before
        the time runs out counts); ``-`` withdraws it (nothing). Refused, changing nothing: a
        move after the end, by a player who has not joined, past the round's time, in
        notation that does not parse, or an exchange. Whether the move is legal is not said
        here: it is scored when the round closes.
        """
        self._check_open()
        name = self._known(player)
        if not (isinstance(at, int | float) and math.isfinite(at) and at >= 0):
            raise DuplicateError(
                "bad_time", f"the time of a move is seconds from the round's start, not {at!r}"
            )
        limit = self.options.round_seconds
        if limit is not None and at > limit:
            raise DuplicateError(
                "late",
                f"{name}'s move came {at:.1f} s into round {self.round}; the round's limit is "
                f"{limit:g} s",
                {"player": name, "round": self.round, "at": at, "limit": limit},
            )
        parsed = self.parse(move) if isinstance(move, str) else move
        if isinstance(parsed, Exchange | Challenge):
            raise DuplicateError(
                "not_a_duplicate_move",
                "duplicate has no exchanges or challenges: everyone plays the same rack and "
                "every word is checked; submit a placement, or '-' for nothing",
            )
        submission = Submission(name, self.round, format_move(parsed), float(at))
        self._round.pending[name] = _Pending(parsed, submission)
        self.log.append(
            {
                "type": "submit",
                "round": self.round,
                "player": name,
                "move": submission.move,
                "at": submission.at,
            }
        )
        return submission

    def parse(self, text: str) -> Move:
        """A move in the notation; DuplicateError ``notation`` if it is not one."""
        v = self.variant
        try:
            return _parse_move(text, v.alphabet, v.rows, v.columns)
        except NotationError as e:
            raise DuplicateError("notation", f"{text!r} is not a move: {e}") from None

    def close_round(self) -> RoundResult:
        """End the round: score every player's submission, place the top, draw the next rack
        (or end the game). Returns the round's result."""
        self._check_open()
        position = self.position()
        moves = self._round.moves
        top = moves[0]
        plays = [self._score(name, position) for name in self.players]
        finders = [p for p in plays if p.found_top]
        solo = self.options.solo_bonus if len(finders) == 1 and len(self.players) >= 2 else 0
        scored = []
        for p in plays:
            bonus = solo if p.found_top else 0
            total = self.totals[p.player] + p.score + bonus
            self.totals[p.player] = total
            scored.append(replace(p, solo=bonus, total=total))
        leave, keep_leave = self._place(top)
        self.top_total += top.score
        result = RoundResult(
            round=self.round,
            rack=tuple(self.rack),
            cgp=write_cgp(position),
            top=_round_move(top),
            best=tuple(_round_move(c) for c in moves[:BEST_SHOWN]),
            plays=tuple(scored),
            top_total=self.top_total,
            redrawn=not keep_leave,
        )
        self.results.append(result)
        event: Event = {
            "type": "round",
            "round": self.round,
            "rack": rack_notation(self.rack),
            "top": top.notation,
            "score": top.score,
            "points": {p.player: p.points for p in scored},
        }
        if not keep_leave:
            event["redrawn"] = True
        self.log.append(event)
        self._open_round(self.round + 1, leave, keep_leave)
        return result

    def stop(self) -> None:
        """End the game now (a room closed, a player quit): the round being played is not
        played, its submissions are dropped."""
        self._check_open()
        self.log.append({"type": "stop", "round": self.round})
        self._finish("stopped")

    # -- the rounds -----------------------------------------------------------------------------

    def _open_round(self, number: int, leave: list[str], keep_leave: bool) -> None:
        """Draw the rack of round ``number`` and find its moves, or end the game."""
        limit = self.options.max_rounds
        if limit is not None and number > limit:
            self.rack = leave
            self._finish("rounds")
            return
        rack = self.rule.draw(leave, self.bag, self._rng, number, keep_leave)
        if rack is None:
            self.rack = leave
            self._finish("no_tiles" if not leave and not self.bag else "draw_rule")
            return
        self.rack = rack
        moves = best_by_score(self.position(), self.lexicon)
        if not moves:
            self._finish("no_move")
            return
        self._round = _Round(number, moves)

    def _score(self, name: str, position: Position) -> PlayerRound:
        """A player's submission scored on the round's position (0 and why, if illegal)."""
        pending = self._round.pending.get(name)
        if pending is None or isinstance(pending.move, Pass):
            at = pending.submission.at if pending else None
            return PlayerRound(name, "-", 0, at=at)
        sub = pending.submission
        try:
            breakdown = check_move(position, pending.move, self.lexicon)
        except IllegalMove as e:
            return PlayerRound(name, sub.move, 0, e.rule, e.message, at=sub.at)
        score = breakdown.total if breakdown is not None else 0
        top = self._round.moves[0].score
        return PlayerRound(name, sub.move, score, found_top=score == top, at=sub.at)

    def _place(self, top: Candidate) -> tuple[list[str], bool]:
        """Put the top on the board. Returns the leave (in the rack's order) and whether it
        stays for the next rack: an EX square under the top sends it back to the bag when
        the bag then holds the square's minimum (docs/competition.md)."""
        v = self.variant
        move = top.move
        if isinstance(move, Place):
            chk = check_placement(v, self.board, move, self.rack)
            for coord, tile in chk.new_tiles:
                self.board[coord] = tile
            used = Counter(tile.rack_form for _, tile in chk.new_tiles)
            gained: list[str] = []
            covers_ex = any(v.square_kind(c).shuffles_next_rack for c, _ in chk.new_tiles)
            keep = not (covers_ex and len(self.bag) >= _ex_min_bag(v))
        else:
            assert isinstance(move, Cambio)
            old = self.board[move.square]
            assert old is not None
            self.board[move.square] = move.tile
            used = Counter([move.tile.rack_form])
            gained = [old.rack_form]
            self.cambios += 1
            keep = True
        leave = []
        for t in self.rack:
            if used[t] > 0:
                used[t] -= 1
            else:
                leave.append(t)
        return leave + gained, keep

    def _finish(self, reason: str) -> None:
        self.end_reason = reason
        self._round.pending.clear()
        self.log.append({"type": "end", "reason": reason, "round": self.round})

    # -- players --------------------------------------------------------------------------------

    def _add(self, name: str) -> None:
        self.players.append(name)
        self.totals[name] = 0

    def _known(self, player: str) -> str:
        for p in self.players:
            if p == player:
                return p
        raise DuplicateError(
            "unknown_player", f"{player!r} has not joined this game", {"player": player}
        )

    @staticmethod
    def _check_new_name(name: str, taken: Sequence[str]) -> str:
        clean = " ".join(str(name).split())
        if not clean or len(clean) > MAX_NAME:
            raise DuplicateError(
                "bad_name", f"a player's name has 1 to {MAX_NAME} characters, not {name!r}"
            )
        if any(clean.casefold() == t.casefold() for t in taken):
            raise DuplicateError("name_taken", f"{clean!r} is already playing", {"player": clean})
        return clean

    def _check_open(self) -> None:
        if self.is_over:
            raise DuplicateError(
                "game_over", f"the game is over ({self.end_reason}): nothing more can be played"
            )

    # -- storage --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The game as plain JSON-able data: its log (``from_json`` replays it)."""
        return {"format": LOG_FORMAT, "version": LOG_VERSION, "log": [dict(e) for e in self.log]}

    @classmethod
    def from_json(
        cls,
        data: dict[str, Any],
        lexicon: Lexicon,
        variant_loader: Callable[[str], Variant] | None = None,
    ) -> DuplicateGame:
        """The game ``to_json`` gave, replayed from its seed and actions and checked."""
        if data.get("format") != LOG_FORMAT or data.get("version") != LOG_VERSION:
            raise ValueError(
                f"not a duplicate game of this version: format {data.get('format')!r}, "
                f"version {data.get('version')!r}"
            )
        return cls.replay(list(data["log"]), lexicon, variant_loader)

    def act(self, event: Event) -> None:
        """Do again what a logged action did (a join, a submission, a closed round, a stop);
        events of other types are the game's own records and ask for nothing."""
        kind = event.get("type")
        if kind == "join":
            self.join(str(event["player"]))
        elif kind == "submit":
            self.submit(str(event["player"]), str(event["move"]), float(event["at"]))
        elif kind == "round":
            self.close_round()
        elif kind == "stop":
            self.stop()

    @classmethod
    def replay(
        cls,
        log: list[Event],
        lexicon: Lexicon,
        variant_loader: Callable[[str], Variant] | None = None,
    ) -> DuplicateGame:
        """Rebuild a game from its log: the start's seed and options, then its actions
        (joins, submissions, closed rounds, a stop). Every event must come out the same,
        else ValueError names the first that does not."""
        if not log or log[0].get("type") != "start":
            raise ValueError("a duplicate log starts with a 'start' event")
        start = log[0]
        variant = logged_variant(start, variant_loader)
        game = cls(
            variant,
            lexicon,
            list(start["players"]),
            seed=int(start["seed"]),
            options=DuplicateOptions.from_dict(dict(start["options"])),
        )
        if game.log[0] != start | {"lexicon": game.log[0]["lexicon"]}:
            raise ValueError("the log's start does not match its seed, options and players")
        for event in log[1:]:
            game.act(event)
        for i, (replayed, recorded) in enumerate(zip(game.log, log, strict=False)):
            if i and replayed != recorded:
                raise ValueError(
                    f"event {i} does not replay the same: {recorded} became {replayed}"
                )
        if len(game.log) != len(log):
            raise ValueError(f"the log has {len(log)} events; replaying it gives {len(game.log)}")
        return game


def best_by_score(position: Position, lexicon: Lexicon, n: int = BEST_SHOWN) -> list[Candidate]:
    """The placements and CAMBIOs of highest score, in ``score_order`` (the top first): every
    move tied with the ``n``-th best score or better, so the first ``n`` are exactly those of
    ``tablero moves --by score``. Only these become ``Candidate`` records: a Cuvinte rack has
    a thousand placements, and building them all took most of a round's time."""
    v = position.variant
    generated = generator_for(v, lexicon).placements(position.board, position.rack, None)
    cambios = cambio_candidates(position, lexicon, None)
    scores = heapq.nlargest(n, [p.score for p in generated] + [c.score for c in cambios])
    if not scores:
        return []
    least = scores[-1]
    found = [placement_candidate(p, v, None) for p in generated if p.score >= least]
    found += [c for c in cambios if c.score >= least]
    return sorted(found, key=score_order)


def _round_move(c: Candidate) -> RoundMove:
    return RoundMove(c.notation, c.kind, c.score)


def _ex_min_bag(v: Variant) -> int:
    """The bag an EX square needs to act (the least of the game's EX squares)."""
    return min(
        (getattr(k, "min_bag", 7) for k in v.squares.values() if k.shuffles_next_rack), default=7
    )
