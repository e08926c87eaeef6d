"""``tablero play``: a whole game for 2–4 people sharing one terminal ("hot seat").

Everything a player may know is on the screen; nothing else is. The board, the scores, the
number of tiles in the bag, the clocks and the moves so far are public. A rack is private: it is
shown only to the player to move, and only after the keyboard has been handed over, so the
previous player has looked away. The bag's contents are never shown, only how many tiles it
holds; an exchange is shown as how many tiles went back, not which.

The dictionary is consulted only when a word is played (or challenged, in Cruzapalabras
Bisonte). ``check MOVE`` therefore scores a move against the board and rack rules alone: the
rule books forbid looking words up while composing, so the screen must not do it either.

Computer players take seats given as ``bot:LEVEL`` (``tablero play --players "Ana,bot:hard"``):
they play on their turn, their racks are never shown, and the keyboard is only handed over
between people. ``hint`` shows a player the best moves for their rack: a practice aid, since it
consults the dictionary that the rules keep out of a real game.

Input comes from a function (``console.input`` by default) and time from another
(``time.monotonic``), so tests can play a game with scripted input and a fake clock.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .engine.players import Bot
from .game import Game, GameResult, TurnResult
from .lexicon import Lexicon
from .moves import Cambio, Challenge, Exchange, Move, NotationError, Pass, Place
from .render import board_table, rack_text
from .rules import (
    IllegalMove,
    check_cambio,
    check_cambio_limit,
    check_exchange,
    check_placement,
)
from .scoring import MoveScore, score_cambio, score_placement
from .variant import Coord, Variant

__all__ = ["HotSeat", "format_clock", "help_text", "history_entries", "play_game"]

InputFn = Callable[[str], str]
ClockFn = Callable[[], float]

HISTORY_ON_SCREEN = 8
"""Moves listed beside the board; ``history`` lists them all."""

ERASE_SCROLLBACK = "\x1b[3J"

WIDE_SCREEN = 100
"""From this width on, the scores and moves stand beside the board instead of under it."""


def play_game(
    variant: Variant,
    names: list[str],
    lexicon: Lexicon,
    seed: int | None = None,
    console: Console | None = None,
    input_fn: InputFn | None = None,
    clock_fn: ClockFn | None = None,
    bot_options: dict[str, float] | None = None,
) -> Game:
    """Play one game at the terminal and return it (finished, or as it stood when quit).

    ``names`` are people, or computer players written ``bot:LEVEL`` (``bot`` alone is hard).
    A game abandoned by end of input or Ctrl-C raises ``SystemExit(1)`` after saying so, so a
    script driving ``tablero play`` can tell an abandoned game from a finished or quit one.
    """
    console = console or Console()
    seated, bots = seat_players(names, variant, lexicon, seed, bot_options or {})
    game = Game(variant, seated, lexicon, seed=seed)
    session = HotSeat(game, console, input_fn, clock_fn, bots=bots)
    if session.run() == "abandoned":
        raise SystemExit(1)
    return game


def is_bot_spec(name: str) -> bool:
    return name.strip().lower() == "bot" or name.strip().lower().startswith("bot:")


def seat_players(
    names: list[str],
    variant: Variant,
    lexicon: Lexicon,
    seed: int | None,
    bot_options: dict[str, float] | None = None,
) -> tuple[list[str], dict[int, Bot]]:
    """Player names for the game, and a bot for every ``bot:LEVEL`` seat.

    Raises ValueError for an unknown level, or for bots without a dictionary to play from.
    """
    from .engine.players import LEVELS, make_bot

    seated: list[str] = []
    bots: dict[int, Bot] = {}
    taken = {n.strip().lower() for n in names if not is_bot_spec(n)}
    for seat, name in enumerate(names):
        if not is_bot_spec(name):
            seated.append(name)
            continue
        level = name.split(":", 1)[1].strip().lower() if ":" in name else "hard"
        if level not in LEVELS:
            raise ValueError(f"no bot level {level!r}: use one of {', '.join(LEVELS)}")
        if not lexicon.can_search:
            raise ValueError("computer players need a dictionary: give --lexicon (not 'none')")
        label = f"{level.capitalize()} bot"
        k = 2
        while label.lower() in taken:
            label = f"{level.capitalize()} bot {k}"
            k += 1
        taken.add(label.lower())
        seated.append(label)
        bot_seed = None if seed is None else seed * 7 + seat
        bots[seat] = make_bot(level, variant, lexicon, seed=bot_seed, **(bot_options or {}))
    return seated, bots


@dataclass(frozen=True)
class HistoryEntry:
    """One line of the move list: who, what (public information only), and the points."""

    who: str
    what: str
    points: str


@dataclass
class HotSeat:
    """The conversation with the players around one ``Game``.

    ``run()`` returns ``"over"`` when the game ended, ``"quit"`` when the players quit and
    ``"abandoned"`` when input ended (Ctrl-D) or was interrupted (Ctrl-C).
    """

    game: Game
    console: Console
    input_fn: InputFn | None = None
    clock_fn: ClockFn | None = None
    notices: list[Text] = field(default_factory=list)
    """What the last action did, shown under the board until the next action."""
    last_tiles: set[Coord] = field(default_factory=set)
    shown_seat: int | None = None
    """Whose rack is on the screen now: a different player to move means a hand-over."""
    turn_key: tuple[int, int] | None = None
    turn_start: float = 0.0
    bots: dict[int, Bot] = field(default_factory=dict)
    """Seats played by the computer."""
    hint_bot: Bot | None = None

    def __post_init__(self) -> None:
        self.ask: InputFn = self.input_fn or self.console.input
        self.now: ClockFn = self.clock_fn or time.monotonic
        self.notices = [Text(line) for line in start_lines(self.game)]
        if not self.game.lexicon.checks_words:
            self.notices.append(Text(
                "No dictionary is loaded: every word is accepted, so the players judge them.",
                style="yellow",
            ))

    @property
    def variant(self) -> Variant:
        return self.game.variant

    def say(self, message: str, style: str = "") -> None:
        """Print plain text (names and notation such as ``[ch]`` are not Rich markup)."""
        self.console.print(Text(message, style=style))

    # -- the game loop ---------------------------------------------------------------------

    def run(self) -> str:
        """Play until the game ends, the players quit, or input ends; say which."""
        try:
            while not self.game.is_over or self.offer_final_challenge():
                if not self.game.is_over and not self.turn():
                    self.show_standings("Game stopped.")
                    return "quit"
            self.show_final()
            return "over"
        except (EOFError, KeyboardInterrupt) as e:
            self.console.print()
            why = "Interrupted" if isinstance(e, KeyboardInterrupt) else "Input ended"
            self.show_standings(f"{why}: the game is abandoned.")
            return "abandoned"

    def turn(self) -> bool:
        """One player's turn, until an action changes the game. False when the players quit."""
        seat = self.game.to_move
        if seat in self.bots:
            self.bot_turn(seat)
            return True
        self.draw_public()
        people = len(self.game.players) - len(self.bots)
        if seat != self.shown_seat and people > 1:
            name = self.game.players[seat].name
            self.ask(f"Pass the keyboard to [bold]{escape(name)}[/] and press Enter ")
        self.shown_seat = seat
        self.show_rack()
        key = (seat, sum(1 for e in self.game.log if e["type"] in ("move", "timeout")))
        if key != self.turn_key:
            self.turn_key, self.turn_start = key, self.now()
        while True:
            text = self.ask(self.prompt()).strip()
            if not text:
                continue
            outcome = self.command(text)
            if outcome == "quit":
                return False
            if outcome == "acted":
                return True

    def bot_turn(self, seat: int) -> None:
        """A computer player moves; its thinking time is charged to its clock."""
        self.draw_public()
        name = self.game.players[seat].name
        self.console.print(Text(f"{name} is thinking…", style="dim"))
        bot = self.bots[seat]
        start = time.monotonic()
        move = bot.choose(self.game)
        elapsed = time.monotonic() - start
        if self.act(lambda: self.game.play(move, elapsed=elapsed)) != "acted":
            # A bot's move is legal by construction; should the rules disagree, it passes.
            self.act(lambda: self.game.play(Pass(), elapsed=elapsed))

    def hint(self, rest: str) -> None:
        """``hint [N]``: the N best moves for the rack of the player to move (5 by default)."""
        if not self.game.lexicon.can_search:
            self.say("Hints need a dictionary (this game has none).", "red")
            return
        count = int(rest) if rest.isdigit() and int(rest) > 0 else 5
        if self.hint_bot is None:
            from .engine.players import Bot as _Bot

            self.hint_bot = _Bot("hard", self.variant, self.game.lexicon)
        lines = hint_lines(self.game, self.hint_bot, count)
        for line in lines:
            self.say(line)

    def prompt(self) -> str:
        player = self.game.current
        clock = ""
        if player.clock is not None:
            clock = f" ({format_clock(player.clock - (self.now() - self.turn_start))})"
        return f"[bold]{escape(player.name)}[/]{clock}> "

    # -- commands --------------------------------------------------------------------------

    def command(self, text: str) -> str:
        """Do what the player typed: ``acted`` (the game moved on), ``quit``, or ``stay``."""
        word, _, rest = text.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in ("help", "?"):
            self.console.print(help_text(self.variant, self.game.lexicon.checks_words))
        elif word == "history":
            self.console.print(history_table(history_entries(self.game), "All moves"))
        elif word == "board":
            self.draw_public()
            self.show_rack()
        elif word == "check":
            self.check(rest)
        elif word == "hint":
            self.hint(rest)
        elif word in ("quit", "exit"):
            return "quit" if self.confirm("Quit the game? (y/N) ") else "stay"
        elif word == "resign" and not rest:
            name = escape(self.game.current.name)
            if self.confirm(f"{name}, resign the game? (y/N) "):
                return self.act(lambda: self.game.resign(self.game.to_move, self.elapsed()))
        elif word == "challenge" and rest:
            return self.act(lambda: self.challenge_by(rest))
        elif word == "exchange" and not rest:
            self.say("Name the tiles to exchange, e.g. 'exchange ABC' ('pass' passes).", "red")
        elif word == "exchange":
            return self.act(lambda: self.game.play("-" + rest, elapsed=self.elapsed()))
        else:
            return self.act(lambda: self.game.play(text, elapsed=self.elapsed()))
        return "stay"

    def confirm(self, question: str) -> bool:
        """Ask before an action that cannot be taken back: only a yes answer goes ahead."""
        return self.ask(question).strip().lower() in ("y", "yes", "s", "si", "sí", "da")

    def elapsed(self) -> float:
        return max(0.0, self.now() - self.turn_start)

    def act(self, action: Callable[[], TurnResult | None]) -> str:
        """Run an action; report what it did, or why it was refused (the player tries again)."""
        before_log = len(self.game.log)
        before_board = set(self.game.board.tiles())
        try:
            result = action()
        except NotationError as e:
            self.say(f"Not a move: {e}. Type help for the notation.", "red")
            return "stay"
        except IllegalMove as e:
            if e.rule != "out_of_time":
                self.say(f"Illegal move: {e.message}. Try again.{blank_hint(e)}", "red")
                return "stay"
            result = self.game.timeout()
        if result is None:
            return "stay"
        self.last_tiles = {c for c, t in self.game.board.tiles() if (c, t) not in before_board}
        self.notices = report_lines(self.game, result, self.game.log[before_log:])
        return "acted"

    def challenge_by(self, who: str) -> TurnResult | None:
        """``challenge NAME``: a player other than the one to move challenges the last play."""
        seat = self.seat_named(who)
        if seat is None:
            self.say(f"No player {who!r}: give a name or a number from 1 to "
                     f"{len(self.game.players)}.", "red")
            return None
        elapsed = self.elapsed() if seat == self.game.to_move else 0.0
        return self.game.challenge(seat, elapsed)

    def seat_named(self, who: str) -> int | None:
        players = self.game.players
        if who.isdigit() and 1 <= int(who) <= len(players):
            return int(who) - 1
        matches = [i for i, p in enumerate(players) if p.name.lower() == who.lower()]
        return matches[0] if matches else None

    def check(self, text: str) -> None:
        """Score a move by the board and rack rules only: the dictionary is not consulted."""
        try:
            lines = check_lines(self.game, self.game.parse(text))
        except NotationError as e:
            self.say(f"Not a move: {e}", "red")
        except IllegalMove as e:
            self.say(f"Illegal: {e.message}.{blank_hint(e)}", "red")
        else:
            for line in lines:
                self.say(line)

    # -- the end ---------------------------------------------------------------------------

    def offer_final_challenge(self) -> bool:
        """Bisonte: the play that went out may still be challenged. True if that reopened
        the game (the play was withdrawn), False once the players accept it or it stands."""
        g = self.game
        seats = [s for s in range(len(g.players)) if g.can_challenge(s)]
        if g.result is None or g.result.reason != "going_out" or not seats:
            return False
        challenger = next(
            (s for s in seats if s in self.bots and self.bots[s].should_challenge(g, s)), None
        )
        if challenger is not None:
            self.act(lambda: g.challenge(challenger))
            return not g.is_over
        seats = [s for s in seats if s not in self.bots]
        if not seats:
            return False
        self.draw_public()
        mover = next(e["seat"] for e in reversed(g.log) if e["type"] == "move")
        name = escape(g.players[mover].name)
        try:
            while True:
                answer = self.ask(
                    f"{name} went out. Does anyone challenge that play? Type the challenger's "
                    "name or number, or press Enter to accept it: "
                ).strip()
                if not answer:
                    return False
                if answer.lower().startswith("challenge"):
                    answer = answer[len("challenge") :].strip() or answer
                seat = self.seat_named(answer)
                if seat in seats:
                    break
                self.say(f"{answer!r} is not a player who may challenge.", "red")
        except EOFError:
            return False
        self.act(lambda: g.challenge(seat))
        return not g.is_over

    def show_final(self) -> None:
        self.draw_public()
        result = self.game.result
        assert result is not None
        self.console.print(final_table(self.game, result))
        self.say(winner_line(self.game, result), "bold green")

    def show_standings(self, why: str) -> None:
        scores = ", ".join(f"{p.name} {p.score}" for p in self.game.players)
        self.say(f"{why} Scores: {scores}.", "yellow")

    # -- drawing ---------------------------------------------------------------------------

    def draw_public(self) -> None:
        """Clear the screen (and with it the last rack shown) and draw what everyone may see."""
        self.console.clear()
        if self.console.is_terminal:
            # Also the scroll-back, where the last rack would still be (xterm and most others).
            self.console.file.write(ERASE_SCROLLBACK)
            self.console.file.flush()
        g = self.game
        board = board_table(self.variant, g.board, self.last_tiles)
        side = Group(
            Text(f"{self.variant.title}: {len(g.bag)} tiles in the bag", style="bold"),
            scores_table(g),
            history_table(history_entries(g)[-HISTORY_ON_SCREEN:], "Last moves"),
        )
        if self.console.width >= WIDE_SCREEN:
            grid = Table.grid(padding=(0, 3))
            grid.add_row(board, side)
            self.console.print(grid)
        else:
            self.console.print(board)
            self.console.print(side)
        for line in self.notices:
            self.console.print(line)

    def show_rack(self) -> None:
        player = self.game.current
        label = Text(f"{player.name}'s rack: ", style="bold")
        self.console.print(label + rack_text(self.variant, player.rack))
        self.console.print(Text("Type a move, or help.", style="dim"))


# -- pieces of the screen (plain functions of the game, so they are easy to test) ----------


def blank_hint(error: IllegalMove) -> str:
    """Lowercase means a blank in the notation; someone typing in lowercase gets told why
    their own tiles are "not on the rack"."""
    if error.rule == "not_on_rack" and "blank" in error.message:
        return " (Lowercase letters are blanks: write your tiles in capitals.)"
    return ""


def format_clock(seconds: float) -> str:
    """Seconds as m:ss, with a minus sign once a player is over time."""
    whole = math.floor(abs(seconds))
    sign = "-" if seconds < 0 and whole else ""
    return f"{sign}{whole // 60}:{whole % 60:02d}"


def scores_table(game: Game) -> Table:
    """Scores, tiles held (a count only) and, where the rules limit them, what each has left."""
    v = game.variant
    table = Table(box=None, padding=(0, 1), show_edge=False)
    for col in ("", "player", "score", "tiles"):
        table.add_column(col, justify="right" if col in ("score", "tiles") else "left")
    if v.clock:
        table.add_column("clock", justify="right")
    if v.exchange.per_game:
        table.add_column("exch. left", justify="right")
    if v.cambio_per_game:
        table.add_column("CAMBIO left", justify="right")
    for seat, p in enumerate(game.players):
        turn = "▶" if seat == game.to_move and not game.is_over else ""
        tiles = "resigned" if p.resigned else str(len(p.rack))
        row: list[RenderableType] = [turn, Text(p.name), str(p.score), tiles]
        if v.clock:
            row.append(clock_cell(v, p.clock, p.out_of_time))
        if v.exchange.per_game:
            row.append(str(v.exchange.per_game - p.exchanges))
        if v.cambio_per_game:
            row.append(str(v.cambio_per_game - p.cambios))
        table.add_row(*row)
    return table


def clock_cell(variant: Variant, seconds: float | None, out_of_time: bool) -> str:
    if seconds is None:
        return ""
    if out_of_time:
        return "out of time"
    clock = variant.clock
    if clock and seconds < 0 and clock.on_timeout == "penalty":
        periods = math.ceil(-seconds / clock.penalty_every_seconds)
        return f"{format_clock(seconds)} (−{periods * clock.penalty_points})"
    return format_clock(seconds)


def history_table(entries: Sequence[HistoryEntry], title: str) -> Table:
    table = Table(title=title, title_justify="left", box=None, padding=(0, 1), show_edge=False)
    table.add_column("player")
    table.add_column("move")
    table.add_column("points", justify="right")
    for e in entries:
        table.add_row(Text(e.who), Text(e.what), Text(e.points))
    if not entries:
        table.add_row("", Text("no moves yet", style="dim"), "")
    return table


def history_entries(game: Game) -> list[HistoryEntry]:
    """The moves so far from the game's log, as everyone saw them: an exchange says how many
    tiles went back, never which (the log records them, the other players must not see them)."""
    names = [p.name for p in game.players]
    out: list[HistoryEntry] = []
    for event in game.log:
        entry = _history_entry(game, names, event)
        if entry is not None:
            out.append(entry)
    return out


def _history_entry(game: Game, names: list[str], event: dict[str, Any]) -> HistoryEntry | None:
    kind = event["type"]
    if kind == "move":
        return _move_entry(game, names[event["seat"]], event)
    if kind == "challenge":
        target = names[event["target"]]
        if event["result"] == "challenge_upheld":
            words = ", ".join(event["words"])
            return HistoryEntry(
                names[event["seat"]], f"challenges: {words} invalid, withdrawn",
                f"{target} {event['score']}"
            )
        return HistoryEntry(names[event["seat"]], f"challenges {target}: words valid", "")
    if kind == "skip":
        return HistoryEntry(names[event["seat"]], "loses this turn (failed challenge)", "")
    if kind == "timeout":
        return HistoryEntry(names[event["seat"]], "out of time", "")
    if kind == "shuffle":
        return HistoryEntry(names[event["seat"]], "rack exchanged with the bag (EX)", "")
    if kind == "resign":
        return HistoryEntry(names[event["seat"]], "resigns", "")
    return None


def _move_entry(game: Game, who: str, event: dict[str, Any]) -> HistoryEntry:
    result, move = event["result"], event["move"]
    if result == "exchanged":
        parsed = game.parse(move)
        count = len(parsed.tiles) if isinstance(parsed, Exchange) else 0
        return HistoryEntry(who, f"exchanges {count}", "0")
    if result == "passed":
        return HistoryEntry(who, "passes", "0")
    if result == "lost_turn":
        return HistoryEntry(who, f"{move}: turn lost ({event.get('reason', '')})", "0")
    return HistoryEntry(who, move, str(event["score"]))


RACK_START_ORDER = {
    "rack_nearest_z": "the letter nearest the end of the alphabet first",
    "rack_nearest_a": "the letter nearest A first",
    "rack_highest_value": "the highest value first",
}


def start_lines(game: Game) -> list[str]:
    """Who starts, and the draws (or the tiles shown from the racks) that decided it."""
    start = game.log[0]
    names = [p.name for p in game.players]
    lines = []
    rack_start = start.get("rack_start")
    if rack_start is not None:
        shown = "; ".join(
            f"{names[s]} {', '.join('a blank' if t == '?' else t for t in tiles)}"
            for s, tiles in rack_start["shown"]
        )
        order = RACK_START_ORDER.get(game.start_rule, "the best first")
        lines.append(f"Tiles shown from the racks for the first turn ({order}): {shown}.")
        if rack_start["lots"]:
            tied = " and ".join(names[s] for s in rack_start["lots"])
            lines.append(f"{tied} hold racks that tie tile for tile: lots decide.")
    for round_ in start["draws"]:
        drawn = ", ".join(f"{names[s]} {'a blank' if t == '?' else t}" for s, t in round_)
        lines.append(f"Draw for the first turn: {drawn}.")
    lines.append(f"{names[start['first']]} plays first.")
    return lines


def report_lines(game: Game, result: TurnResult, events: list[dict[str, Any]]) -> list[Text]:
    """What an action did, in sentences, with the score worked out line by line."""
    names = [p.name for p in game.players]
    who = names[result.seat]
    lines = [Text(_report_headline(game, who, result), style="bold")]
    if result.breakdown is not None and result.kind in ("placed", "cambio"):
        lines += [Text("  " + line) for line in result.breakdown.explain_lines()]
    for event in events:
        if event["type"] == "skip":
            lines.append(Text(f"{names[event['seat']]} loses this turn (failed challenge)."))
        elif event["type"] == "shuffle":
            lines.append(Text(f"{names[event['seat']]}'s rack goes back to the bag for new tiles."))
    return lines


def _report_headline(game: Game, who: str, result: TurnResult) -> str:
    kind = result.kind
    if kind == "placed":
        text = f"{who} plays {result.notation} for {points(result.score)}"
        if game.variant.word_check == "challenge" and not game.is_over:
            text += " (the next player may challenge it)"
        return text + "."
    if kind == "lost_turn":
        return f"{who} plays {result.notation}: {result.reason}. The turn is lost; no points."
    if kind == "exchanged":
        return f"{who} exchanges {result.notation.lstrip('-')} tiles."
    if kind == "passed":
        return f"{who} passes."
    if kind == "cambio":
        return f"{who}: {result.notation} for {points(result.score)}."
    if kind == "challenge_upheld":
        return (
            f"Challenge upheld, not in the dictionary: {result.reason}. {who}'s play is "
            f"withdrawn ({points(result.score)}) and the turn is lost."
        )
    if kind == "challenge_failed":
        return f"Challenge failed: the words are valid. {who} loses a turn."
    if kind == "timeout":
        return f"{who}'s time is up."
    if kind == "resigned":
        if game.is_over:
            return f"{who} resigns."
        return f"{who} resigns: their tiles are set aside and the others play on."
    return f"{who}: {result.notation}"


def check_lines(game: Game, move: Move) -> list[str]:
    """``check MOVE``: what the move would score by the board and rack rules.

    The dictionary is deliberately not consulted (``Game.check`` would): the rules forbid
    looking words up while composing a move. Raises IllegalMove for a broken rule.
    """
    v, player = game.variant, game.current
    note = "Words are not looked up: the dictionary judges them only when played."
    match move:
        case Place():
            chk = check_placement(v, game.board, move, player.rack)
            score = score_placement(v, list(chk.words), len(chk.new_tiles), game.first_turn)
            return _score_lines(score, note)
        case Cambio():
            check_cambio_limit(v, player.cambios)
            score = score_cambio(v, check_cambio(v, game.board, move, player.rack))
            return _score_lines(score, note)
        case Exchange():
            check_exchange(v, player.rack, len(game.bag), player.exchanges, move.tiles)
            if v.exchange.only_when_blocked:
                return ["The exchange is allowed only if you cannot form any word."]
            return [f"Exchanging {len(move.tiles)} tiles is allowed."]
        case Pass():
            return ["Passing is allowed."]
        case Challenge():
            return ["There is a play to challenge." if game.can_challenge() else
                    "There is no play you can challenge."]


def hint_lines(game: Game, bot: Bot, count: int = 5) -> list[str]:
    """The best moves for the player to move, as the hard computer player ranks them."""
    from .engine.players import seat_view

    ranked = bot.rank(seat_view(game))
    if not ranked:
        return ["No move: pass."]
    lines = [f"Best moves for {game.current.name} (points, tiles kept, equity):"]
    for i, c in enumerate(ranked[:count], 1):
        kept = "".join(f"[{t}]" if len(t) > 1 else t for t in c.leave) or "nothing"
        what = {"exchange": "exchange", "pass": "pass", "cambio": "", "place": ""}[c.kind]
        label = f"{what} {c.notation}".strip() if c.kind != "pass" else "pass"
        lines.append(f"{i}. {label}: {c.score} points, keeps {kept} (equity {c.equity:.1f})")
    return lines


def _score_lines(score: MoveScore, note: str) -> list[str]:
    return [*score.explain_lines(), note]


def final_table(game: Game, result: GameResult) -> Table:
    """Final scores with every end-of-game adjustment, so anyone can check the sums."""
    table = Table(title="Final scores", title_justify="left",
                  caption=f"The game ended: {end_reason(game, result)}.", caption_justify="left")
    table.add_column("player")
    table.add_column("before", justify="right")
    table.add_column("adjustments")
    table.add_column("final", justify="right", style="bold")
    for seat, p in enumerate(game.players):
        adjustments = "; ".join(f"{why} {pts:+d}" for why, pts in result.adjustments[seat])
        adjustments = adjustments or ("resigned" if p.resigned else "none")
        table.add_row(
            Text(p.name), str(result.scores_before[seat]), Text(adjustments),
            str(result.final_scores[seat]),
        )
    return table


def end_reason(game: Game, result: GameResult) -> str:
    if result.reason == "going_out":
        out = [p.name for p in game.players if not p.rack]
        return f"{' and '.join(out) or 'a player'} went out"
    if result.reason == "scoreless_rounds":
        rounds = game.variant.end.scoreless_rounds
        return f"every player had {rounds} scoreless turns in a row"
    if result.reason == "no_one_can_play":
        return "the bag is empty and no one can play"
    if result.reason == "all_out_of_time":
        return "every player ran out of time"
    if result.reason == "resigned":
        resigned = [game.players[s].name for s in game.resignations]
        return f"{' and '.join(resigned)} resigned"
    return result.reason


def winner_line(game: Game, result: GameResult) -> str:
    names = [game.players[s].name for s in result.winners]
    best = result.final_scores[result.winners[0]]
    if len(names) > 1:
        return f"A tie: {' and '.join(names)} with {points(best)}."
    tied = [
        s
        for s, score in enumerate(result.final_scores)
        if score == best and not game.players[s].resigned
    ]
    broken = " (the tie is broken by the scores before the adjustments)" if len(tied) > 1 else ""
    return f"Winner: {names[0]} with {points(best)}{broken}."


def points(n: int) -> str:
    return f"{n} point" if abs(n) == 1 else f"{n} points"


# -- help ----------------------------------------------------------------------------------


def help_text(variant: Variant, checks_words: bool = True) -> Group:
    """The notation and commands, with this game's own limits (exchanges, CAMBIO, challenge)."""
    v = variant
    last = chr(ord("A") + v.columns - 1)
    table = Table(title=f"Commands in {v.title}", title_justify="left", box=None,
                  padding=(0, 2), show_header=False)
    table.add_column(style="bold")
    table.add_column()
    rows = [
        ("8H CASA", f"a word across from row 8, column H (columns A–{last}, rows 1–{v.rows})"),
        ("H8 CASA", "a word down from column H, row 8"),
        ("8H CA(S)A", "letters already on the board: plain, in parentheses, or as '.'"),
        ("8H cASA", "a blank is written as the lowercase letter it stands for"),
    ]
    if any(len(t) > 1 for t in v.letters()):
        rows.append(("8H [CH]ILLAR", "CH, LL and RR are single tiles: [CH] or plain CH"))
    rows += [
        ("pass  or  -", "pass the turn"),
        ("exchange ABC  or  -ABC", _exchange_help(v)),
    ]
    if v.cambio_per_game:
        rows.append((
            "cambio H8 D",
            f"replace the letter on H8 with a D from your rack to make another word "
            f"(plain letter values, {v.cambio_per_game} per player per game)",
        ))
    if v.word_check == "challenge":
        rows.append(("challenge", "challenge the last play: if a word is invalid it is withdrawn; "
                                  "if all are valid, you lose your next turn"))
        rows.append(("challenge NAME", "another player challenges the last play"))
    rows += [
        ("check MOVE", "the score of a move without playing it (words are not looked up)"),
        ("hint [N]", "the N best moves for your rack (a practice aid: it uses the dictionary)"),
        ("history", "every move so far"),
        ("board", "draw the screen again"),
        ("resign", "give up the game (asks first); with three or more, the others play on"),
        ("help", "this list"),
        ("quit", "stop the game (asks first)"),
    ]
    for command, meaning in rows:
        table.add_row(command, meaning)
    return Group(table, Text(_words_help(v, checks_words), style="dim"))


def _exchange_help(v: Variant) -> str:
    e = v.exchange
    if not e.allowed:
        return "no exchanges in this game"
    parts = [f"return up to {e.max_tiles} tiles to the bag for new ones ('?' is a blank)"]
    if e.min_bag:
        parts.append(f"the bag must hold at least {e.min_bag}")
    parts.append(f"{e.per_game} per player per game" if e.per_game else "no limit per game")
    if e.only_when_blocked:
        parts.append("only when you cannot form any word")
    return "; ".join(parts)


def _words_help(v: Variant, checks_words: bool) -> str:
    if not checks_words:
        text = "No dictionary is loaded: every word is accepted, so the players judge them."
    elif v.word_check == "challenge":
        text = "Words are checked only when challenged."
    else:
        text = "Words are checked as they are played: a word not in the dictionary loses the turn."
    if v.clock:
        minutes = v.clock.initial_seconds // 60
        if v.clock.on_timeout == "skip":
            text += f" Each player has {minutes} minutes; out of time, you play no more."
        else:
            text += (
                f" Each player has {minutes} minutes; every {v.clock.penalty_every_seconds} s "
                f"over costs {v.clock.penalty_points} points."
            )
    return text

