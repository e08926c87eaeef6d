"""``tablero puzzle``: find the top in positions from the engine's self-play, at the terminal.

With a person: ``tablero puzzle --variant fise`` shows a puzzle near their rating (the board,
the rack, the scores, the bag), reads a move, says whether it was right with the answer and
its score, then the new ratings and the streak, and offers the next. For scripts:
``--json`` prints the next puzzle (no answer), and ``--json --id ID --answer MOVE`` the
verdict on an answer, exiting 0 when it is right, 1 when it is wrong and 2 when the input is
refused (a malformed move, a move the board rules out, an unknown puzzle), with
``{"error": {"code", "message"}}``. Every attempt is kept in the person's history file
(``history.py``) unless ``--no-history``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

if TYPE_CHECKING:  # the command's imports wait until it runs: `tablero` starts fast
    from rich.console import Console

    from ..lexicon import Lexicon
    from .history import Attempt, History
    from .judge import Verdict
    from .model import Puzzle

__all__ = ["PuzzleSession", "attempt_json", "puzzle_command", "verdict_lines"]

HELP = (
    "Find the top: the move worth the most points here (it is also the best by equity, by "
    "15 or more). Type it as in `tablero play`: 8H CASA across from row 8 column H, H8 CASA "
    "down; letters already on the board plainly, in parentheses or as '.'; a blank lowercase; "
    "[CH] [LL] [RR] digraph tiles. Commands: board (draw it again), answer (give up and see "
    "it), help, quit."
)
THEME_WORDS = {"bingo": "a bingo", "big_score": "a big score", "only_move": "the only good play"}


@click.command("puzzle")
@click.option(
    "--variant", "variant_name", default="fise", show_default=True, help="Game (a built-in name)."
)
@click.option("--id", "puzzle_id", help="This puzzle (e.g. fise-1a2b3c4d5e) instead of the next.")
@click.option("--answer", help="With --id: judge this move and exit (0 right, 1 wrong).")
@click.option("--give-up", is_flag=True, help="With --id: give up (a wrong attempt).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (the puzzle, or the verdict).")
@click.option(
    "--file",
    "puzzle_file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="Puzzles from this file (JSON Lines, docs/formats.md) instead of the shipped set.",
)
@click.option(
    "--history",
    "history_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The history file (default: puzzles.json in your data directory).",
)
@click.option("--no-history", is_flag=True, help="Neither read nor write a history.")
@click.option("--lexicon", "lexicon_name", help="Dictionary for a wrong move's words.")
@click.option("--seed", type=int, help="Seed for choosing puzzles (the same seed, the same ones).")
def puzzle_command(
    variant_name: str,
    puzzle_id: str | None,
    answer: str | None,
    give_up: bool,
    as_json: bool,
    puzzle_file: Path | None,
    history_path: Path | None,
    no_history: bool,
    lexicon_name: str | None,
    seed: int | None,
) -> None:
    """Puzzles: find the top move in positions from the engine's own games.

    Your rating and each puzzle's move with every first attempt (a solve is a win against the
    puzzle); the next puzzle is one near your rating."""
    from ..cli import console, get_lexicon, get_variant
    from .history import History, HistoryError
    from .judge import PuzzleMoveError, judge
    from .model import PuzzleFormatError, read_puzzles
    from .shipped import shipped_puzzles

    def refuse(code: str, message: str) -> NoReturn:
        if as_json:
            click.echo(json.dumps({"error": {"code": code, "message": message}}))
            sys.exit(2)
        from ..cli import fail

        fail(message)

    if (answer is not None or give_up) and puzzle_id is None:
        refuse("usage", "--answer and --give-up answer one puzzle: give its --id too")
    if answer is not None and give_up:
        refuse("usage", "give --answer or --give-up, not both")
    if puzzle_id is not None and puzzle_file is None:
        variant_name = puzzle_id.rpartition("-")[0] or variant_name
    v = get_variant(variant_name)
    try:
        puzzles = read_puzzles(puzzle_file) if puzzle_file else shipped_puzzles(v.name)
    except (OSError, PuzzleFormatError) as e:
        refuse("bad_file", str(e))
    puzzles = [p for p in puzzles if p.variant == v.name]
    if puzzle_id is not None:
        chosen = next((p for p in puzzles if p.id == puzzle_id), None)
        if chosen is None:
            refuse("no_such_puzzle", f"no puzzle {puzzle_id!r} (ids look like {v.name}-1a2b3c4d5e)")
        puzzles = [chosen]
    elif not puzzles:
        refuse("no_puzzles", f"no puzzles for {v.name}")
    history = History(history_path or Path("/dev/null"))
    if not no_history:
        try:
            history = History.load(history_path)
        except HistoryError as e:
            refuse("bad_history", str(e))
    rng = random.Random(seed)

    if answer is not None or give_up:
        puzzle = puzzles[0]
        lexicon = get_lexicon(lexicon_name, v, quiet=True)
        try:
            verdict = judge(puzzle, None if give_up else answer, lexicon)
        except PuzzleMoveError as e:
            refuse(e.code, e.message if e.code == "notation" else f"{answer}: {e.message}")
        before = history.puzzle_rating(puzzle)
        attempt = history.record(puzzle, verdict)
        _save(history, no_history, refuse)
        if as_json:
            data = attempt_json(puzzle, verdict, attempt, history, before)
            click.echo(json.dumps(data, ensure_ascii=False))
        else:
            for line in verdict_lines(puzzle, verdict, attempt, history):
                console.print(line)
        sys.exit(0 if verdict.correct else 1)

    if as_json:
        puzzle = _next(puzzles, history, v.name, rng)
        click.echo(json.dumps(puzzle_json(puzzle, history), ensure_ascii=False))
        return
    lexicon = get_lexicon(lexicon_name, v)
    session = PuzzleSession(puzzles, history, console, lexicon=lexicon, rng=rng)
    session.save = lambda: _save(history, no_history, refuse)
    session.run(single=puzzle_id is not None)


def _save(history: History, no_history: bool, refuse: Callable[[str, str], NoReturn]) -> None:
    from .history import HistoryError

    if no_history:
        return
    try:
        history.save()
    except HistoryError as e:
        refuse("bad_history", str(e))


def _next(puzzles: list[Puzzle], history: History, variant: str, rng: random.Random) -> Puzzle:
    from .rating import choose_next, display

    solver = display(history.solver(variant).rating)
    rated = [(p.id, display(history.puzzle_rating(p))) for p in puzzles]
    chosen = choose_next(rated, solver, history.played(variant), rng)
    return next(p for p in puzzles if p.id == chosen)


def _rack(puzzle: Puzzle) -> str:
    return "".join(f"[{t}]" if len(t) > 1 else t for t in puzzle.position().rack)


def puzzle_json(puzzle: Puzzle, history: History) -> dict[str, Any]:
    """The puzzle as ``--json`` prints it before an answer: nothing that gives it away."""
    from .rating import display, solver_json

    return {
        "puzzle": {
            **puzzle.public_dict(),
            "rack": _rack(puzzle),
            "rating": display(history.puzzle_rating(puzzle)),
        },
        "solver": solver_json(history.solver(puzzle.variant)),
    }


def attempt_json(
    puzzle: Puzzle, verdict: Verdict, attempt: Attempt, history: History, before: Any
) -> dict[str, Any]:
    """The verdict as ``--json --answer`` prints it."""
    from .rating import display, solver_json

    change = attempt.rated_change
    return {
        "id": puzzle.id,
        **verdict.to_dict(),
        "answers": [a.to_dict() for a in puzzle.answers],
        "runner_up": puzzle.runner_up.to_dict() if puzzle.runner_up else None,
        "theme": puzzle.theme,
        "rated": attempt.rated,
        "solver": {
            **solver_json(history.solver(puzzle.variant)),
            "rating_before": display(change.solver_before) if change else None,
        },
        "puzzle": {
            "rating_before": display(before),
            "rating": display(history.puzzle_rating(puzzle)),
        },
    }


def verdict_lines(
    puzzle: Puzzle, verdict: Verdict, attempt: Attempt, history: History
) -> list[Any]:
    """What the terminal says after an answer: right or wrong, the answer, the ratings."""
    from rich.text import Text

    from .rating import display

    a = puzzle.answer
    theme = THEME_WORDS.get(puzzle.theme, puzzle.theme)
    lines: list[Any] = []
    if verdict.correct:
        lines.append(Text(f"Right! {a.move}, {a.score} points: {theme}.", style="bold green"))
    else:
        if verdict.gave_up:
            lines.append(Text("The answer:", style="bold yellow"))
        elif not verdict.legal:
            lines.append(
                Text(f"Not this: {verdict.move} is not a valid play ({verdict.reason}).", "red")
            )
        else:
            lines.append(Text(f"Not this: {verdict.move} scores {verdict.score}.", style="red"))
        lines.append(Text(f"The top: {a.move}, {a.score} points: {theme}.", style="bold"))
    if puzzle.runner_up is not None:
        r = puzzle.runner_up
        lines.append(
            Text(
                f"The next best: {r.move}, {r.score} points "
                f"({a.equity - r.equity:.1f} behind by equity).",
                style="dim",
            )
        )
    change = attempt.rated_change
    solver = history.solver(puzzle.variant)
    if change is not None:
        old, new = display(change.solver_before), display(change.solver_after)
        p_old, p_new = display(change.puzzle_before), display(change.puzzle_after)
        lines.append(
            Text(
                f"Your rating {old} → {new} ({new - old:+d}); the puzzle's {p_old} → {p_new}. "
                f"Streak: {solver.streak}."
            )
        )
    else:
        lines.append(Text("Played before: not rated again.", style="dim"))
    return lines


class PuzzleSession:
    """Puzzles one after another for one person at the terminal. Input comes from a function
    (``console.input`` by default), so tests play a session with scripted input."""

    def __init__(
        self,
        puzzles: list[Puzzle],
        history: History,
        console: Console,
        *,
        lexicon: Lexicon | None = None,
        input_fn: Callable[[str], str] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.puzzles = puzzles
        self.history = history
        self.console = console
        self.lexicon = lexicon
        self.ask: Callable[[str], str] = input_fn or console.input
        self.rng = rng or random.Random()
        self.save: Callable[[], None] = history.save

    def say(self, message: str, style: str = "") -> None:
        from rich.text import Text

        self.console.print(Text(message, style=style))

    def run(self, single: bool = False) -> None:
        """Puzzles until the person quits or input ends (``single``: one puzzle only)."""
        try:
            while True:
                puzzle = self.puzzles[0] if single else self.next_puzzle()
                if not self.play(puzzle) or single:
                    return
                if self.ask("Enter for the next puzzle, q to quit> ").strip().lower() in (
                    "q",
                    "quit",
                    "exit",
                ):
                    return
        except (EOFError, KeyboardInterrupt):
            self.console.print()

    def next_puzzle(self) -> Puzzle:
        variant = self.puzzles[0].variant
        return _next(self.puzzles, self.history, variant, self.rng)

    def draw(self, puzzle: Puzzle) -> None:
        from rich.text import Text

        from ..render import board_table, rack_text
        from .rating import display

        position = puzzle.position()
        v = position.variant
        solver = self.history.solver(puzzle.variant)
        self.console.print(board_table(v, position.board))
        scores = " – ".join(str(s) for s in position.scores)
        self.say(
            f"{v.title} puzzle {puzzle.id}, rated {display(self.history.puzzle_rating(puzzle))}. "
            f"You: {display(solver.rating)}, streak {solver.streak}.",
            "bold",
        )
        self.say(f"Scores {scores} (you first); {position.bag_count()} tiles in the bag.")
        self.console.print(Text("Rack: ", style="bold") + rack_text(v, position.rack))
        self.say("Find the top: the move worth the most points (help for how to type it).")

    def play(self, puzzle: Puzzle) -> bool:
        """One puzzle: False when the person quits before answering."""
        from .judge import PuzzleMoveError, judge

        self.draw(puzzle)
        position = puzzle.position()
        while True:
            text = self.ask("Your move> ").strip()
            word = text.lower()
            if not text:
                continue
            if word in ("help", "?"):
                self.say(HELP)
                continue
            if word == "board":
                self.draw(puzzle)
                continue
            if word in ("quit", "exit", "q"):
                return False
            move = None if word in ("answer", "give up", "giveup") else text
            try:
                verdict = judge(puzzle, move, self.lexicon, position)
            except PuzzleMoveError as e:
                self.say(f"{e.message}. Try again (help for the notation).", "red")
                continue
            break
        attempt = self.history.record(puzzle, verdict)
        self.save()
        for line in verdict_lines(puzzle, verdict, attempt, self.history):
            self.console.print(line)
        return True
