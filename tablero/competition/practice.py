"""``tablero duplicate``: one person practising duplicate against the top, at the terminal.

Each round shows the board, the rack and the round's time; the player types a move (or ``-``
for nothing) and the round closes at once: a person alone needs no one to wait for. The time
is measured from the moment the rack is shown to the moment the move is entered, and the
library refuses a move that came after the round's limit (the terminal cannot interrupt
typing, so the prompt shows the time left instead of a ticking clock). After each round a
summary: the move, the top, what was missed, the best moves; at the end every round in a table
with the total and its percentage of the top's.

Input comes from a function (``console.input`` by default) and time from another
(``time.monotonic``), so tests play a session with scripted input and a fake clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..render import board_table, rack_text
from ..terminal import format_clock
from .duplicate import DuplicateError, DuplicateGame
from .results import RoundResult, rack_notation

__all__ = ["Practice", "final_table", "round_lines"]

InputFn = Callable[[str], str]
ClockFn = Callable[[], float]

HELP = (
    "Type a move as in `tablero play`: 8H CASA across from row 8 column H, H8 CASA down; "
    "letters already on the board plainly, in parentheses or as '.'; a blank lowercase; "
    "[CH] [LL] [RR] digraph tiles; CAMBIO H8 D where the game has it. '-' submits nothing. "
    "Commands: board (draw it again), help, quit."
)


class Practice:
    """A duplicate game for one person at the terminal."""

    def __init__(
        self,
        game: DuplicateGame,
        player: str,
        console: Console,
        input_fn: InputFn | None = None,
        clock_fn: ClockFn | None = None,
    ) -> None:
        self.game = game
        self.player = player
        self.console = console
        self.ask: InputFn = input_fn or console.input
        self.now: ClockFn = clock_fn or time.monotonic
        self.last: set[tuple[int, int]] = set()
        """The squares the last top covered (highlighted on the board)."""

    def say(self, message: str, style: str = "") -> None:
        """Print plain text (moves such as ``[ch]`` are not Rich markup)."""
        self.console.print(Text(message, style=style))

    def run(self) -> str:
        """Play until the game ends (``over``), the player quits (``quit``) or input ends
        (``abandoned``); the final table is shown in each case."""
        outcome = "over"
        try:
            while not self.game.is_over:
                if not self.play_round():
                    outcome = "quit"
                    break
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            outcome = "abandoned"
        if not self.game.is_over:
            self.game.stop()
        self.show_final(outcome)
        return outcome

    def play_round(self) -> bool:
        """One round: the rack, the player's move, the summary. False when the player quits."""
        g = self.game
        self.draw()
        start = self.now()
        while True:
            text = self.ask(self.prompt(start)).strip()
            word = text.lower()
            if not text:
                continue
            if word in ("help", "?"):
                self.say(HELP)
                continue
            if word == "board":
                self.draw()
                continue
            if word in ("quit", "exit"):
                if self.ask("Quit the game? (y/N) ").strip().lower() in ("y", "yes", "s", "si"):
                    return False
                continue
            try:
                g.submit(self.player, text, max(0.0, self.now() - start))
            except DuplicateError as e:
                if e.code != "late":
                    self.say(f"{e.message}. Try again (help for the notation).", "red")
                    continue
                self.say(f"Too late: {e.message}. The round closes without your move.", "red")
            break
        before = {c for c, _ in g.board.tiles()}
        result = g.close_round()
        self.last = {c for c, _ in g.board.tiles()} - before
        for line in round_lines(result, self.player):
            self.console.print(line)
        if not g.is_over:
            self.ask(f"Press Enter for round {g.round} ")
        return True

    def prompt(self, start: float) -> str:
        limit = self.game.options.round_seconds
        if limit is None:
            return f"Round {self.game.round}> "
        left = limit - (self.now() - start)
        return f"Round {self.game.round} ({format_clock(max(0.0, left))} left)> "

    def draw(self) -> None:
        g = self.game
        self.console.print(board_table(g.variant, g.board, self.last))
        limit = g.options.round_seconds
        clock = "no time limit" if limit is None else f"{format_clock(limit)} to play"
        self.say(
            f"{g.variant.title}, duplicate: round {g.round}, {len(g.bag)} tiles in the bag, "
            f"{clock}. You {g.totals[self.player]}, top {g.top_total}.",
            "bold",
        )
        self.console.print(Text("Rack: ", style="bold") + rack_text(g.variant, g.rack))

    def show_final(self, outcome: str) -> None:
        g = self.game
        why = {
            "draw_rule": "the tiles left cannot make a rack the rule allows",
            "no_tiles": "the tiles are all played",
            "no_move": "the rack has no move",
            "rounds": "the rounds asked for are played",
            "stopped": "stopped" if outcome == "quit" else "input ended",
        }.get(g.end_reason or "", g.end_reason or "")
        self.console.print(final_table(g, self.player))
        self.say(
            f"Game over ({why}): {g.totals[self.player]} of {g.top_total}, "
            f"{g.percent(self.player):.2f} % of the top.",
            "bold green",
        )
        self.say(f"Seed {g.seed}: --seed {g.seed} deals the same racks again.", "dim")


def round_lines(result: RoundResult, player: str) -> list[Text]:
    """What a round gave a player: their move, the top, what they missed, the best moves."""
    play = result.play_of(player)
    top = result.top
    lines = [Text(f"Round {result.round}", style="bold")]
    if play.move == "-":
        lines.append(Text("Your move: nothing, 0 points"))
    elif play.rule:
        lines.append(Text(f"Your move: {play.move}: illegal ({play.reason}), 0 points", "red"))
    else:
        lines.append(Text(f"Your move: {play.move}, {play.score} points"))
    verdict = (
        Text("you found a top!", style="bold green")
        if play.found_top
        else Text(f"you missed {top.score - play.score} points", style="yellow")
    )
    lines.append(Text(f"Top: {top.move}, {top.score} points: ") + verdict)
    if play.solo:
        lines.append(Text(f"Solo: +{play.solo}", style="green"))
    best = " · ".join(f"{m.move} {m.score}" for m in result.best)
    lines.append(Text(f"Best moves: {best}", style="dim"))
    percent = 100.0 * play.total / result.top_total if result.top_total else 0.0
    lines.append(Text(f"Total: {play.total} of {result.top_total} ({percent:.2f} %)"))
    return lines


def final_table(game: DuplicateGame, player: str) -> Table:
    """Every round: the rack, the player's move and score, the top and its score."""
    table = Table(title=f"{game.variant.title}, duplicate")
    for col in ("round", "rack", "your move", "score", "top", "top score", "missed"):
        right = col in ("round", "score", "top score", "missed")
        table.add_column(col, justify="right" if right else "left")
    for r in game.results:
        play = r.play_of(player)
        move = play.move + (" (illegal)" if play.rule else "")
        table.add_row(  # Text, not markup: ``[CH]`` is a tile, not a style
            str(r.round),
            Text(rack_notation(r.rack)),
            Text(move),
            str(play.points),
            Text(r.top.move),
            str(r.top.score),
            str(r.top.score - play.score),
        )
    table.add_row(
        "total",
        "",
        "",
        str(game.totals[player]),
        "",
        str(game.top_total),
        f"{game.percent(player):.2f} %",
        style="bold",
    )
    return table
