"""A game from the first draw to the final scores, as an append-only log of events.

The game is a state machine. Its inputs are *actions*: a move by the player to move (with
the seconds it took), a challenge, a player's clock running out, a player resigning. Everything
else (who starts, the tiles drawn, a shuffled rack, skipped turns, the end and its adjustments,
the final ranking) follows from the actions and the seed of the bag's random draws. The log
records the actions and what they caused, so ``Game.replay(log)`` rebuilds the same state, and
checks that it does.

Checking comes before changing: an action that breaks a rule raises ``IllegalMove`` and
leaves the game exactly as it was. A placement with a word the dictionary lacks is not a
rejected move but a lost turn (the tiles go back to the rack, zero points), as every one of
the rule books says, except where words are only checked when challenged (Bisonte).

Turn order: seats 0..N-1 sit clockwise; a clockwise game passes the turn to seat + 1, a
counter-clockwise one (Intelect, "al jugador de la derecha") to seat - 1.

Resigning (``Game.resign``): any player, at any time, on their turn or not. At a table of two
the other player wins at once; at a table of three or four the game goes on without the
resigner, whose tiles are set aside, and who ranks below everyone who did not resign. Besides
the rule codes of ``tablero.rules``, resigning adds ``already_resigned`` (a seat that resigned
resigns again, or challenges).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, cast

from .board import Board, Tile
from .engine.movegen.reference import has_placement
from .lexicon import Lexicon, WordListLexicon
from .lexicon.amend import amended_lexicon
from .lexicon.graph import GraphLexicon
from .moves import Cambio, Challenge, Exchange, Move, Pass, Place, format_move, parse_move
from .position import Position
from .rules import (
    IllegalMove,
    check_cambio,
    check_cambio_limit,
    check_exchange,
    check_placement,
    check_words_in_lexicon,
)
from .scoring import MoveScore, score_cambio, score_placement
from .variant import BLANK, StartRule, Variant, load_variant, logged_variant

__all__ = ["Game", "GameResult", "PlayerState", "TurnResult", "decide_ranks", "decide_winners"]

Event = dict[str, Any]


@dataclass
class PlayerState:
    name: str
    rack: list[str] = field(default_factory=list)
    score: int = 0
    exchanges: int = 0
    cambios: int = 0
    clock: float | None = None
    """Seconds left (negative once over time where the clock costs points instead)."""
    out_of_time: bool = False
    turns_to_skip: int = 0
    """Turns this player will lose (a Bisonte challenge of a valid word costs one)."""
    resigned: bool = False
    """The player resigned: they never move again and rank below everyone who did not."""
    set_aside: list[str] = field(default_factory=list)
    """The tiles on the rack when the player resigned. They are out of play: not on a rack (so
    no end rule or adjustment sees them) and not in the bag (returning them would change what
    the others draw), but still counted by ``Game.tiles_in_play``, so the tile set stays whole."""


@dataclass(frozen=True)
class TurnResult:
    """What an action did, for the player and the interface to show."""

    seat: int
    kind: str
    """placed, lost_turn, exchanged, passed, cambio, challenge_upheld, challenge_failed,
    timeout, resigned"""
    notation: str
    score: int = 0
    breakdown: MoveScore | None = None
    reason: str = ""
    drawn: int = 0
    placed: tuple[tuple[tuple[int, int], Tile], ...] = ()
    """Squares and tiles a placement put down (for highlighting the last move)."""
    shuffled: int | None = None
    """The seat whose rack an EX square sent back to the bag, if one did."""


@dataclass(frozen=True)
class GameResult:
    reason: str
    """going_out, scoreless_rounds, no_one_can_play, all_out_of_time, resigned (one player
    was left: everyone else resigned)"""
    final_scores: tuple[int, ...]
    scores_before: tuple[int, ...]
    adjustments: tuple[tuple[tuple[str, int], ...], ...]
    """Per seat: (why, points) for every end-of-game change."""
    winners: tuple[int, ...]
    """The seats ranked 1."""
    ranks: tuple[int, ...] = ()
    """Per seat, its place: 1 is first, tied seats share a place and the next place is skipped
    (1, 1, 3). See ``decide_ranks``: ratings are computed from these."""


@dataclass
class _Challengeable:
    """The last placement, while it may still be challenged (Bisonte)."""

    seat: int
    tiles: tuple[tuple[tuple[int, int], Tile], ...]
    score: int
    drawn: tuple[str, ...]
    words: tuple[str, ...]
    ended_game: bool


BLANK_RANK_VERSION = 2
"""How a drawn blank ranks when ``start.blank_first`` puts it first. Version 1 (logs without
``blank_rank``) gave it the rank of A's code, so under nearest_z it tied with A and under
highest_value it ranked below every tile worth 2 or more; version 2 ranks it before every
tile, as the rule says. A start event records the version only where the two differ."""


class Game:
    """One game of a variant for 1–4 players (1 for solo practice)."""

    def __init__(
        self,
        variant: Variant | str,
        players: list[str],
        lexicon: Lexicon,
        seed: int | None = None,
        *,
        start_rule: StartRule | None = None,
        blank_rank: int = BLANK_RANK_VERSION,
        first: int | None = None,
    ) -> None:
        self.variant = load_variant(variant) if isinstance(variant, str) else variant
        v = self.variant
        if first is not None and not 0 <= first < len(players):
            raise ValueError(f"first: a seat from 0 to {len(players) - 1}, not {first}")
        self.assigned_first = first
        """The seat that starts when someone outside the game decided it (a tournament's
        pairing gives each player their share of first moves); None: the start rule decides.
        The start event then records ``"assigned": true`` and no draws."""
        self.start_rule: StartRule = v.start_rule if start_rule is None else start_rule
        """The rule that decides who starts: the variant's, unless told otherwise (``replay``
        does, for a log written when the variant's rule was another)."""
        self.blank_rank = blank_rank
        """How a drawn blank ranks for who starts (``BLANK_RANK_VERSION``); ``replay`` keeps
        an older log's."""
        if not 1 <= len(players) <= v.max_players:
            raise ValueError(f"{v.title} is for up to {v.max_players} players, not {len(players)}")
        if lexicon.alphabet.name != v.alphabet.name:
            raise ValueError(
                f"the lexicon is {lexicon.alphabet.name}; {v.title} is played in {v.alphabet.name}"
            )
        self.lexicon = amended_lexicon(lexicon, v.word_changes)
        """The dictionary the game is judged by: the one given, with the club's words added and
        banned when the rule set has some (``[words] add``/``remove``)."""
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        self._rng = random.Random(self.seed)
        self.board = Board(v.rows, v.columns)
        self.players = [PlayerState(name) for name in players]
        for p in self.players:
            p.clock = float(v.clock.initial_seconds) if v.clock else None
        self.bag: list[str] = [t for t, (count, _) in v.tiles.items() for _ in range(count)]
        self.log: list[Event] = []
        self.to_move = 0
        self.scoreless_streak = 0
        self.result: GameResult | None = None
        self.resignations: list[int] = []
        """Seats in the order they resigned (a later resignation ranks higher)."""
        self._challengeable: _Challengeable | None = None
        self._start()

    # -- the start ------------------------------------------------------------------------------

    def _start(self) -> None:
        draws: list[list[Any]] = []
        rack_start: dict[str, Any] | None = None
        rule = self.start_rule
        if self.assigned_first is not None:
            first = self.assigned_first
            self.to_move = first
            for seat in self._turn_order_from(first):
                self.players[seat].rack = self._draw(self.variant.rack_size)
        elif rule.startswith("rack_") and len(self.players) > 1:
            for p in self.players:
                p.rack = self._draw(self.variant.rack_size)
            first, rack_start = self._best_rack()
            self.to_move = first
        else:
            candidates = list(range(len(self.players)))
            if rule == "random" or len(candidates) == 1:
                first = self._rng.randrange(len(self.players))
            else:
                # With a bag whose tiles all rank alike (a one-letter test set), draws could tie
                # forever; then the tied players are ordered by lot instead.
                can_break_ties = len({self._start_rank(t) for t in self.bag}) > 1
                while len(candidates) > 1 and can_break_ties:
                    drawn = {seat: self._draw_one() for seat in candidates}
                    draws.append([[seat, tile] for seat, tile in drawn.items()])
                    best = min(self._start_rank(t) for t in drawn.values())
                    candidates = [s for s, t in drawn.items() if self._start_rank(t) == best]
                    self.bag.extend(drawn.values())
                first = candidates[0]
                if len(candidates) > 1:
                    first = candidates[self._rng.randrange(len(candidates))]
            self.to_move = first
            order = self._turn_order_from(first)
            for seat in order:
                self.players[seat].rack = self._draw(self.variant.rack_size)
        event: Event = {
            "type": "start",
            "variant": self.variant.name,
            "variant_source": self.variant.source,
            "players": [p.name for p in self.players],
            "seed": self.seed,
            "lexicon": asdict(self.lexicon.info()),
            "draws": draws,
            "first": first,
        }
        if rack_start is not None:
            event["rack_start"] = rack_start
        if self.assigned_first is not None:
            event["assigned"] = True
        if self._blank_rank_matters() and self.blank_rank != 1:  # version 1: logs without it
            event["blank_rank"] = self.blank_rank
        self.log.append(event)

    def _blank_rank_matters(self) -> bool:
        """Whether the blank's rank differs between the versions (``BLANK_RANK_VERSION``):
        only a drawn blank that ranks first under nearest_z or highest_value."""
        return self.variant.blank_ranks_first and self.start_rule in ("nearest_z", "highest_value")

    def _start_rank(self, tile: str) -> tuple[int, int]:
        """Lower ranks first. The rule decides; a tie means the tied players draw again."""
        v = self.variant
        if tile == BLANK:
            if not v.blank_ranks_first:
                return (10**6, 0)
            return (-(10**6), 0) if self.blank_rank >= 2 else (-1, 0)
        code = v.alphabet.code(tile)
        if self.start_rule == "nearest_a":
            return (code, 0)
        if self.start_rule == "nearest_z":
            return (-code, 0)
        return (-v.value(tile), 0)  # highest_value

    def _rack_tile_rank(self, tile: str) -> tuple[int, int]:
        """Under a ``rack_`` rule, a tile's rank on its rack: lower is better. A blank ranks
        before every letter or after every one (``start.blank_first``); letters by the
        alphabet's order (CH after C, LL after L, Ñ after N, RR after R) or by value."""
        v = self.variant
        if tile == BLANK:
            return (0, 0) if v.blank_ranks_first else (2, 0)
        if self.start_rule == "rack_nearest_a":
            return (1, v.alphabet.code(tile))
        if self.start_rule == "rack_nearest_z":
            return (1, -v.alphabet.code(tile))
        return (1, -v.value(tile))  # rack_highest_value

    def _best_rack(self) -> tuple[int, dict[str, Any]]:
        """Under a ``rack_`` rule, with the racks dealt: the seat that starts, and what decided
        it, as the start event records it (``rack_start``).

        As at a table: every player shows their best tile; the players tied for the best show
        their next best, and so on down the racks. ``shown`` is, per seat, the tiles it showed,
        best first (nothing more of a rack is told); ``lots`` the seats whose racks were alike
        tile for tile and drew lots, from the game's seeded draws (empty when none did). A rack
        that runs out of tiles (a tiny tile set) ranks after one that still shows a tile.
        """

        def order(tile: str) -> tuple[tuple[int, int], int]:
            code = 0 if tile == BLANK else self.variant.alphabet.code(tile)
            return self._rack_tile_rank(tile), code  # alike ranks shown in alphabet order

        racks = {seat: sorted(p.rack, key=order) for seat, p in enumerate(self.players)}
        shown: dict[int, list[str]] = {seat: [] for seat in racks}
        contenders = list(racks)
        depth = 0
        none = (3, 0)  # no tile left to show: after every tile
        while len(contenders) > 1 and any(depth < len(racks[s]) for s in contenders):
            ranks = {}
            for s in contenders:
                rack = racks[s]
                ranks[s] = self._rack_tile_rank(rack[depth]) if depth < len(rack) else none
                shown[s].extend(rack[depth : depth + 1])
            best = min(ranks.values())
            contenders = [s for s in contenders if ranks[s] == best]
            depth += 1
        lots = contenders if len(contenders) > 1 else []
        first = contenders[self._rng.randrange(len(contenders))] if lots else contenders[0]
        return first, {"shown": [[seat, tiles] for seat, tiles in shown.items()], "lots": lots}

    def _turn_order_from(self, seat: int) -> list[int]:
        n = len(self.players)
        step = 1 if self.variant.turn_direction == "clockwise" else -1
        return [(seat + step * i) % n for i in range(n)]

    def seats_from(self, seat: int) -> list[int]:
        """The seats still in the game in turn order from ``seat`` (always first): the order of
        a position's racks seen from it."""
        return [s for s in self._turn_order_from(seat) if s == seat or not self.players[s].resigned]

    def next_seat(self, seat: int) -> int:
        return self._turn_order_from(seat)[1 % len(self.players)]

    # -- the bag --------------------------------------------------------------------------------

    def _draw_one(self) -> str:
        i = self._rng.randrange(len(self.bag))
        self.bag[i], self.bag[-1] = self.bag[-1], self.bag[i]
        return self.bag.pop()

    def _draw(self, n: int) -> list[str]:
        return [self._draw_one() for _ in range(min(n, len(self.bag)))]

    # -- reading the state ----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def first_turn(self) -> bool:
        return self.board.is_empty()

    @property
    def current(self) -> PlayerState:
        return self.players[self.to_move]

    def seats_in_game(self) -> list[int]:
        """The seats that have not resigned (a player out of time is still in the game)."""
        return [s for s, p in enumerate(self.players) if not p.resigned]

    def position(self, seat: int | None = None) -> Position:
        """The position seen from a seat (the player to move by default), all racks known.

        Players who resigned are left out (the seat asked about always stays first): a
        position's racks are the players to move, in turn order, and the engine reads them so
        (the next rack replies, two racks make an endgame); a resigned player never moves
        again. Their set-aside tiles thereby count among the unseen tiles (``Position.unseen``:
        bag and others' racks), which is what the other players know of them.
        """
        seat = self.to_move if seat is None else seat
        order = self.seats_from(seat)
        return Position(
            variant=self.variant,
            board=self.board.copy(),
            racks=[tuple(self.players[s].rack) for s in order],
            scores=[self.players[s].score for s in order],
            scoreless_turns=self.scoreless_streak,
            lexicon=self.lexicon.info().name,
            exchanges_used=[self.players[s].exchanges for s in order],
            cambios_used=[self.players[s].cambios for s in order],
            bag=len(self.bag),
        )

    def state(self) -> dict[str, Any]:
        """Everything that makes the game what it is, as plain data (for tests and snapshots)."""
        return {
            "board": [
                [t.notation() if t else None for t in self.board.row(r)]
                for r in range(self.board.rows)
            ],
            "bag": sorted(self.bag),
            "players": [
                p.__dict__.copy() | {"rack": list(p.rack), "set_aside": list(p.set_aside)}
                for p in self.players
            ],
            "to_move": self.to_move,
            "resignations": list(self.resignations),
            "scoreless_streak": self.scoreless_streak,
            "result": None if self.result is None else self.result.__dict__,
            "rng": self._rng.getstate(),
            "log_length": len(self.log),
        }

    def can_challenge(self, seat: int | None = None) -> bool:
        seat = self.to_move if seat is None else seat
        c = self._challengeable
        if c is None or c.seat == seat or self.variant.word_check != "challenge":
            return False
        return not (0 <= seat < len(self.players) and self.players[seat].resigned)

    # -- actions --------------------------------------------------------------------------------

    def play(self, move: Move | str, elapsed: float = 0.0) -> TurnResult:
        """The player to move makes a move (or, with ``Challenge``, challenges the last one).

        ``elapsed`` is the time the player took, in seconds, charged to their clock.
        Raises IllegalMove, changing nothing, if the move breaks a rule.
        """
        if isinstance(move, str):
            move = self.parse(move)
        if isinstance(move, Challenge):
            return self.challenge(self.to_move, elapsed)
        if self.is_over:
            raise IllegalMove("game_over", "the game is over")
        _check_elapsed(elapsed)
        player = self.current
        clock = self.variant.clock
        if (
            clock
            and clock.on_timeout == "skip"
            and player.clock is not None
            and elapsed >= player.clock
        ):
            raise IllegalMove(
                "out_of_time",
                f"{player.name}'s time ran out before the move",
                params={"player": player.name},
            )
        outcome = self._apply(move)  # raises before any change
        if player.clock is not None:
            player.clock -= elapsed
        event: Event = {
            "type": "move",
            "seat": outcome.seat,
            "move": format_move(move),
            "elapsed": elapsed,
            "result": outcome.kind,
            "score": outcome.score,
        }
        if outcome.reason:
            event["reason"] = outcome.reason
        self.log.append(event)
        if outcome.shuffled is not None:
            self.log.append({"type": "shuffle", "seat": outcome.shuffled})
        self._after_turn(outcome)
        return outcome

    def parse(self, text: str) -> Move:
        v = self.variant
        return parse_move(text, v.alphabet, v.rows, v.columns)

    def check(self, move: Move | str) -> MoveScore | None:
        """Whether the player to move may make this move, without making it.

        Raises IllegalMove for a broken rule, including a word the dictionary lacks; returns the
        score breakdown of a placement or CAMBIO, None for other moves.
        """
        if isinstance(move, str):
            move = self.parse(move)
        if self.is_over:
            raise IllegalMove("game_over", "the game is over")
        rack = self.current.rack
        match move:
            case Place():
                chk = check_placement(self.variant, self.board, move, rack)
                check_words_in_lexicon(chk.words, self.lexicon)
                return score_placement(
                    self.variant, list(chk.words), len(chk.new_tiles), self.first_turn
                )
            case Cambio():
                check_cambio_limit(self.variant, self.current.cambios)
                words = check_cambio(self.variant, self.board, move, rack)
                check_words_in_lexicon(words, self.lexicon)
                return score_cambio(self.variant, words)
            case Exchange():
                self._check_exchange(move)
            case Challenge():
                if not self.can_challenge():
                    raise IllegalMove("nothing_to_challenge", "there is no play to challenge")
        return None

    def _apply(self, move: Move) -> TurnResult:
        match move:
            case Place():
                return self._place(move)
            case Exchange():
                return self._exchange(move)
            case Pass():
                return TurnResult(self.to_move, "passed", "-")
            case Cambio():
                return self._cambio(move)
        raise TypeError(f"not a move: {move!r}")

    def _place(self, move: Place) -> TurnResult:
        v, player, seat = self.variant, self.current, self.to_move
        chk = check_placement(v, self.board, move, player.rack)
        notation = format_move(move)
        if v.word_check == "immediate":
            try:
                check_words_in_lexicon(chk.words, self.lexicon)
            except IllegalMove as e:
                return TurnResult(seat, "lost_turn", notation, reason=e.message)
        score = score_placement(v, list(chk.words), len(chk.new_tiles), self.first_turn)
        for coord, tile in chk.new_tiles:
            self.board[coord] = tile
            player.rack.remove(tile.rack_form)
        player.score += score.total
        drawn = self._draw(len(chk.new_tiles))
        player.rack.extend(drawn)
        went_out = not player.rack and not self.bag
        if v.word_check == "challenge":
            self._challengeable = _Challengeable(
                seat,
                chk.new_tiles,
                score.total,
                tuple(drawn),
                tuple(w.text for w in chk.words),
                went_out,
            )
        shuffled = self._shuffle_next_rack(seat) if score.shuffles_next_rack else None
        return TurnResult(
            seat,
            "placed",
            notation,
            score.total,
            score,
            drawn=len(drawn),
            placed=chk.new_tiles,
            shuffled=shuffled,
        )

    def _shuffle_next_rack(self, seat: int) -> int | None:
        """EX: the next opponent's rack goes back to the bag for as many fresh tiles,
        unless the bag holds fewer than the square's minimum (checked after the mover drew).

        Returns the seat shuffled, if any; ``play`` logs it after the move that caused it."""
        min_bag = min(
            getattr(self.variant.squares[code], "min_bag", 7)
            for code in self.variant.squares
            if self.variant.squares[code].shuffles_next_rack
        )
        if len(self.bag) < min_bag:
            return None
        target = self._next_active(seat)
        if target == seat:
            return None
        victim = self.players[target]
        fresh = self._draw(len(victim.rack))
        self.bag.extend(victim.rack)
        victim.rack = fresh
        return target

    def _check_exchange(self, move: Exchange) -> None:
        v, player = self.variant, self.current
        check_exchange(v, player.rack, len(self.bag), player.exchanges, move.tiles)
        if v.exchange.only_when_blocked and self._has_placement(player.rack):
            raise IllegalMove(
                "exchange_only_when_blocked",
                f"{v.title} allows an exchange only to a player who cannot form a word; you can",
            )

    def _exchange(self, move: Exchange) -> TurnResult:
        self._check_exchange(move)
        player = self.current
        fresh = self._draw(len(move.tiles))
        for t in move.tiles:
            player.rack.remove(t)
        self.bag.extend(move.tiles)
        player.rack.extend(fresh)
        player.exchanges += 1
        return TurnResult(self.to_move, "exchanged", f"-{len(move.tiles)}", drawn=len(fresh))

    def _cambio(self, move: Cambio) -> TurnResult:
        v, player, seat = self.variant, self.current, self.to_move
        words = check_cambio(v, self.board, move, player.rack)
        check_cambio_limit(self.variant, self.current.cambios)
        notation = format_move(move)
        try:
            check_words_in_lexicon(words, self.lexicon)
        except IllegalMove as e:
            return TurnResult(seat, "lost_turn", notation, reason=e.message)
        old = self.board[move.square]
        assert old is not None
        player.rack.remove(move.tile.rack_form)
        player.rack.append(old.rack_form)
        self.board[move.square] = move.tile
        score = score_cambio(v, words)
        player.score += score.total
        player.cambios += 1
        return TurnResult(seat, "cambio", notation, score.total, score)

    def challenge(self, challenger: int, elapsed: float = 0.0) -> TurnResult:
        """A player challenges the last placement's words (games with ``words.check =
        "challenge"``). Invalid: the play is taken back and its player's turn is lost. Valid:
        the challenger loses their next turn."""
        if self.variant.word_check != "challenge":
            raise IllegalMove(
                "challenge_not_allowed",
                f"in {self.variant.title} words are checked as they are played; "
                "there is no challenge",
            )
        c = self._challengeable
        if c is None or (self.is_over and not c.ended_game):
            raise IllegalMove("nothing_to_challenge", "there is no play to challenge")
        if not 0 <= challenger < len(self.players) or challenger == c.seat:
            raise IllegalMove("nothing_to_challenge", "a player cannot challenge their own play")
        if self.players[challenger].resigned:
            raise IllegalMove(
                "already_resigned",
                f"{self.players[challenger].name} has resigned and cannot challenge",
            )
        _check_elapsed(elapsed)
        challenger_clock = self.players[challenger].clock
        if challenger_clock is not None:
            self.players[challenger].clock = challenger_clock - elapsed
        bad = [w for w in c.words if not self.lexicon.contains(w)]
        self._challengeable = None
        event: Event = {
            "type": "challenge",
            "seat": challenger,
            "target": c.seat,
            "elapsed": elapsed,
        }
        if bad:
            player = self.players[c.seat]
            for coord, _ in c.tiles:
                self.board[coord] = None
            for t in c.drawn:
                player.rack.remove(t)
            self.bag.extend(c.drawn)
            player.rack.extend(tile.rack_form for _, tile in c.tiles)
            player.score -= c.score
            if c.ended_game and self.result is not None:
                # The play that went out is withdrawn: so is the end and its adjustments.
                for p, before in zip(self.players, self.result.scores_before, strict=True):
                    p.score = before - (c.score if p is player else 0)
                self.result = None
                self.to_move = self._next_active(c.seat)
            event |= {"result": "challenge_upheld", "words": bad, "score": -c.score}
            self.log.append(event)
            if "lost" in self.variant.end.scoreless_kinds:
                # The withdrawn play is now a lost turn, which the scoreless rule counts.
                self.scoreless_streak += 1
            self._check_end()
            self._skip_penalised_turns()
            self._refill_waiting_clocks()
            return TurnResult(
                c.seat, "challenge_upheld", "CHALLENGE", -c.score, reason=", ".join(bad)
            )
        self.players[challenger].turns_to_skip += 1
        event |= {"result": "challenge_failed"}
        self.log.append(event)
        if challenger == self.to_move and not self.is_over:
            self._skip_penalised_turns()
        self._refill_waiting_clocks()
        return TurnResult(challenger, "challenge_failed", "CHALLENGE", reason="the words are valid")

    def timeout(self) -> TurnResult:
        """The player to move has run out of time (the caller's clock says so)."""
        if self.is_over:
            raise IllegalMove("game_over", "the game is over")
        clock = self.variant.clock
        if clock is None:
            raise IllegalMove("no_clock", f"{self.variant.title} is played without clocks")
        seat = self.to_move
        player = self.current
        if clock.per_move:
            player.clock = 0.0  # this turn is lost; the next one starts with the whole time
        elif clock.on_timeout == "skip":
            player.out_of_time = True
            player.clock = 0.0
        self.log.append({"type": "timeout", "seat": seat})
        outcome = TurnResult(seat, "timeout", "TIMEOUT")
        self._after_turn(outcome)
        return outcome

    def resign(self, seat: int, elapsed: float = 0.0) -> TurnResult:
        """The player at ``seat`` gives up, on their turn or not.

        When one player is left in the game (always, at a table of two) the game ends at once,
        reason ``resigned``: that player wins whatever the scores, and nobody's score is
        adjusted (nobody went out and the game was not played to its end). With two or more
        left, play goes on: the resigner never moves again (if it was their turn, the next
        player moves), their tiles are set aside (``PlayerState.set_aside``), and the end rules
        at once count only the players left (so a scoreless run long enough for fewer players
        ends the game now). Resigning is not a turn: the scoreless run neither grows nor resets.
        Resigned players rank last, the latest to resign highest (``decide_ranks``).

        A Bisonte play still open to a challenge stays open if anyone but its player resigns
        (the others keep their right to challenge it); if its own player resigns, it stands,
        since its tiles could not go back to a rack that is set aside. A play that went out is
        challengeable after the end, but the game is over then: no one can resign.

        ``elapsed`` is charged to the resigner's clock, as a challenge's is. Raises ValueError
        for a seat not at the table or a bad ``elapsed``, and IllegalMove (``game_over``,
        ``already_resigned``) otherwise; a refused resignation changes nothing.
        """
        if not 0 <= seat < len(self.players):
            raise ValueError(f"no seat {seat}: the seats are 0 to {len(self.players) - 1}")
        if self.is_over:
            raise IllegalMove("game_over", "the game is over")
        player = self.players[seat]
        if player.resigned:
            raise IllegalMove("already_resigned", f"{player.name} has already resigned")
        _check_elapsed(elapsed)
        if player.clock is not None:
            player.clock -= elapsed
        player.resigned = True
        player.set_aside, player.rack = player.rack, []
        self.resignations.append(seat)
        if self._challengeable is not None and self._challengeable.seat == seat:
            self._challengeable = None
        self.log.append({"type": "resign", "seat": seat, "elapsed": elapsed})
        self._after_resignation(seat)
        return TurnResult(seat, "resigned", "RESIGN")

    # -- after each turn ------------------------------------------------------------------------

    def _after_turn(self, outcome: TurnResult) -> None:
        if outcome.kind != "placed":
            self._challengeable = None
        counts = {
            "passed": "pass",
            "timeout": "pass",
            "exchanged": "exchange",
            "lost_turn": "lost",
        }
        kind = counts.get(outcome.kind)
        if kind is not None or outcome.kind in ("placed", "cambio"):
            self.scoreless_streak = self.variant.end.scoreless_run(self.scoreless_streak, kind)
        self._check_end()
        if not self.is_over:
            self.to_move = self._next_active(self.to_move)
            self._skip_penalised_turns()
        self._refill_waiting_clocks()

    def _refill_waiting_clocks(self) -> None:
        """With a clock per move, every player but the one to move holds the whole time: a
        turn begins with it, and what a turn left over is not carried to the next."""
        clock = self.variant.clock
        if clock is None or not clock.per_move:
            return
        for seat, p in enumerate(self.players):
            if seat != self.to_move or self.is_over:
                p.clock = float(clock.initial_seconds)

    def _after_resignation(self, seat: int) -> None:
        """The game ends if one player is left; else the end rules look at the players left,
        and the turn moves on if it was the resigner's."""
        if len(self.seats_in_game()) <= 1:
            self._finish("resigned")
            return
        self._check_end()
        if not self.is_over and seat == self.to_move:
            self.to_move = self._next_active(seat)
            self._skip_penalised_turns()
        self._refill_waiting_clocks()

    def _next_active(self, seat: int) -> int:
        """The next seat in turn order whose player is still in the game and has time."""
        s = seat
        for _ in range(len(self.players)):
            s = self.next_seat(s)
            p = self.players[s]
            if not p.out_of_time and not p.resigned:
                return s
        return seat

    def _skip_penalised_turns(self) -> None:
        while not self.is_over and self.current.turns_to_skip > 0:
            self.current.turns_to_skip -= 1
            self.log.append({"type": "skip", "seat": self.to_move, "reason": "challenge_penalty"})
            self.to_move = self._next_active(self.to_move)

    def _check_end(self) -> None:
        """The end rules, over the players still in the game: a resigned player's empty rack
        does not go out, and a round of scoreless turns is a turn of each player left."""
        end = self.variant.end
        playing = [self.players[s] for s in self.seats_in_game()]
        n = len(playing)
        if end.going_out and not self.bag and any(not p.rack for p in playing):
            self._finish("going_out")
        elif end.all_out_of_time and all(p.out_of_time for p in playing):
            self._finish("all_out_of_time")
        elif end.scoreless_rounds and self.scoreless_streak >= end.scoreless_rounds * n:
            self._finish("scoreless_rounds")
        elif (
            end.no_one_can_play
            and not self.bag
            and not any(self._has_placement(p.rack) for p in playing)
        ):
            self._finish("no_one_can_play")

    def _has_placement(self, rack: list[str]) -> bool:
        lex = self.lexicon
        if isinstance(lex, WordListLexicon | GraphLexicon):
            return has_placement(self.variant, self.board, rack, lex)
        # Without a dictionary every placement is "valid": can any tile go next to another?
        return bool(rack) and (
            self.first_turn
            or any(
                self.board[c] is None and self.board.has_neighbour(c)
                for c in ((r, k) for r in range(self.board.rows) for k in range(self.board.columns))
            )
        )

    def _finish(self, reason: str) -> None:
        if reason != "going_out":
            self._challengeable = None  # only a play that went out can still be challenged
        before = tuple(p.score for p in self.players)
        adjustments = self._end_adjustments(reason)
        for p, adjustment in zip(self.players, adjustments, strict=True):
            p.score += sum(points for _, points in adjustment)
        final = tuple(p.score for p in self.players)
        ranks = decide_ranks(self.variant, final, before, self.resignations)
        winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
        self.result = GameResult(
            reason,
            final,
            before,
            tuple(tuple(a) for a in adjustments),
            tuple(winners),
            tuple(ranks),
        )
        self.log.append(
            {
                "type": "end",
                "reason": reason,
                "final": list(final),
                "adjustments": [[list(a) for a in adj] for adj in adjustments],
                "winners": winners,
                "ranks": ranks,
            }
        )

    def _end_adjustments(self, reason: str) -> list[list[tuple[str, int]]]:
        """Per seat, (why, points) for each end-of-game change the variant makes.

        Resigned players get none: their tiles are set aside, not left on a rack, so they
        neither cost their owner nor go to the player who went out. A game ended by
        resignation has none at all: it was not played to its end.
        """
        v = self.variant
        end = v.end
        adjustments: list[list[tuple[str, int]]] = [[] for _ in self.players]
        if reason == "resigned":
            return adjustments

        def rack_value(rack: list[str]) -> int:
            return sum(v.value(t) for t in rack)

        playing = self.seats_in_game()
        out = [i for i in playing if not self.players[i].rack] if reason == "going_out" else []
        for i in playing:
            p = self.players[i]
            if end.subtract_own_rack and p.rack:
                adjustments[i].append(("tiles left on the rack", -rack_value(p.rack)))
            blanks = p.rack.count(BLANK)
            if end.unplayed_blank_penalty and blanks:
                adjustments[i].append(
                    (f"{blanks} unplayed blank(s)", -end.unplayed_blank_penalty * blanks)
                )
            if v.clock and v.clock.on_timeout == "penalty" and p.clock is not None and p.clock < 0:
                periods = math.ceil(-p.clock / v.clock.penalty_every_seconds)
                adjustments[i].append(("over time", -periods * v.clock.penalty_points))
        if out and end.going_out_gains_others:
            gain = sum(rack_value(p.rack) for p in self.players)
            adjustments[out[0]].append(("the others' tiles", gain))
        return adjustments

    # -- replay ---------------------------------------------------------------------------------

    @classmethod
    def replay(
        cls,
        log: list[Event],
        lexicon: Lexicon,
        variant_loader: Callable[[str], Variant] | None = None,
    ) -> Game:
        """Rebuild a game from its log, checking that every recorded outcome comes out the same."""
        if not log or log[0].get("type") != "start":
            raise ValueError("a game log starts with a 'start' event")
        start = log[0]
        variant = logged_variant(start, variant_loader)
        rule = variant.start_rule
        if rule.startswith("rack_") and "rack_start" not in start and len(start["players"]) > 1:
            # A log from before the game's racks decided who starts (Intelect until issue 15):
            # its players drew one tile each, by the same order (rack_nearest_z → nearest_z).
            rule = cast(StartRule, rule.removeprefix("rack_"))
        game = cls(
            variant,
            list(start["players"]),
            lexicon,
            seed=int(start["seed"]),
            start_rule=rule,
            blank_rank=int(start.get("blank_rank", 1)),
            first=int(start["first"]) if start.get("assigned") else None,
        )
        if game.log[0] != start | {"lexicon": game.log[0]["lexicon"]}:
            raise ValueError("the log's start does not match its seed and players")
        game.extend(log)
        return game

    def extend(self, log: Sequence[Event]) -> None:
        """Catch up with a longer log of this same game: play its actions past ``len(self.log)``.

        A server holding a game in memory uses it when another process has stored more events
        (cheaper than replaying the whole log). Every new event must come out the same; if one
        does not, ``ValueError`` is raised and the game is left part-way, so the caller rebuilds
        it with ``replay``.
        """
        first = len(self.log)
        if len(log) < first:
            raise ValueError(f"the log has {len(log)} events; this game already has {first}")
        for event in log[first:]:
            kind = event.get("type")
            if kind == "move":
                self.play(event["move"], float(event.get("elapsed", 0.0)))
            elif kind == "challenge":
                self.challenge(int(event["seat"]), float(event.get("elapsed", 0.0)))
            elif kind == "timeout":
                self.timeout()
            elif kind == "resign":
                self.resign(int(event["seat"]), float(event.get("elapsed", 0.0)))
        for i in range(max(first, 1), min(len(self.log), len(log))):
            if not _same_event(self.log[i], log[i]):
                raise ValueError(
                    f"event {i} does not replay the same: {log[i]} became {self.log[i]}"
                )
        if len(self.log) != len(log):
            raise ValueError(f"the log has {len(log)} events; replaying it gives {len(self.log)}")

    def tiles_in_play(self) -> Counter[str]:
        """Bag + racks + tiles set aside by resigned players + board as rack tiles: always
        the variant's tile set (set-aside tiles are out of play but not out of the set)."""
        total: Counter[str] = Counter(self.bag)
        for p in self.players:
            total.update(p.rack)
            total.update(p.set_aside)
        total.update(t.rack_form for _, t in self.board.tiles())
        return total


def decide_winners(variant: Variant, final: Sequence[int], before: Sequence[int]) -> list[int]:
    """The seats with the best final score; a tie is broken by the scores before the end
    adjustments where the game says so (and otherwise shared). The seats ``decide_ranks``
    ranks first, when nobody resigned."""
    return [seat for seat, rank in enumerate(decide_ranks(variant, final, before)) if rank == 1]


def decide_ranks(
    variant: Variant,
    final: Sequence[int],
    before: Sequence[int],
    resignations: Sequence[int] = (),
) -> list[int]:
    """Each seat's place, 1 first. Players who did not resign rank by final score, a tie
    broken as ``decide_winners`` breaks it (by the scores before the end adjustments where the
    game says so) and otherwise shared, the next place skipped (1, 1, 3). Below all of them
    come the seats in ``resignations`` (in the order they resigned), the latest to resign
    highest: holding out longer is the better result, whatever the scores."""

    def key(seat: int) -> tuple[int, ...]:
        if variant.end.tie_break == "before_adjustments":
            return (final[seat], before[seat])
        return (final[seat],)

    playing = [seat for seat in range(len(final)) if seat not in resignations]
    ranks = [0] * len(final)
    for seat in playing:
        ranks[seat] = 1 + sum(1 for other in playing if key(other) > key(seat))
    for k, seat in enumerate(reversed(resignations)):
        ranks[seat] = len(playing) + 1 + k
    return ranks


def _same_event(replayed: Event, recorded: Event) -> bool:
    """Whether a replayed event is the recorded one. Logs written before ranks were recorded
    have ``end`` events without ``ranks``; the same end with ranks matches them, so games
    stored then still load (their ranks are the ones the scores give, nobody having resigned).
    """
    if replayed == recorded:
        return True
    if recorded.get("type") == "end" and "ranks" not in recorded:
        return {k: v for k, v in replayed.items() if k != "ranks"} == recorded
    return False


def _check_elapsed(elapsed: float) -> None:
    """Clock input comes from interfaces; reject nonsense before anything changes."""
    if elapsed < 0 or not math.isfinite(elapsed):
        raise ValueError(f"elapsed time must be a non-negative number of seconds, not {elapsed}")
