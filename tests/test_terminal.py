"""Tests for ``tablero play`` (tablero.terminal): whole games driven by scripted players.

The script answers every prompt as the people at the keyboard would and writes prompt and
answer into the recorded console, so the output reads like a terminal session. Moves come from
the reference move generator on the game's own board and rack, so the tests do not depend on
what the seeded bag happens to deal.
"""

from __future__ import annotations

import io
import itertools
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from tablero.alphabet import SPANISH
from tablero.engine.movegen.reference import generate_placements
from tablero.game import Game
from tablero.lexicon import AnyWordLexicon, WordListLexicon
from tablero.moves import format_move
from tablero.render import rack_text
from tablero.terminal import HotSeat, format_clock, play_game
from tablero.variant import Clock, Variant, load_variant

CONSONANTS = "BCDFGHJLMNPRSTVZ"
VOWELS = "AEIOU"
WORDS = [
    *(c + v for c in CONSONANTS for v in VOWELS),
    *(v + c for c in CONSONANTS for v in VOWELS),
    *["CASA", "MESA", "SOL", "LUZ", "PAN", "MAR", "SAL", "ALA", "ASA", "ESA", "ESE", "OSO"],
]
LEXICON = WordListLexicon.from_words(WORDS, SPANISH, name="test")
NAMES = ["Ana", "Luis"]

Answer = str | Callable[[], str]


@dataclass
class Script:
    """The players: Enter at every hand-over, then the scripted answers, then ``default``.

    Each answer takes ``think`` seconds on the script's own clock (``clock``), so clock tests
    know exactly how long every turn took.
    """

    console: Console
    answers: list[Answer]
    default: Callable[[], str] = lambda: "-"
    think: float = 10.0
    now: float = 0.0
    prompts: list[tuple[str, int]] = field(default_factory=list)
    """Each prompt (as shown, without markup) with where the output stood when it was asked."""

    def clock(self) -> float:
        return self.now

    def __call__(self, prompt: str) -> str:
        self.now += self.think
        self.console.print(prompt, end="")
        self.prompts.append((Text.from_markup(prompt).plain, len(output(self.console))))
        if prompt.startswith("Pass the keyboard"):
            answer = ""
        else:
            item = self.answers.pop(0) if self.answers else self.default
            answer = item if isinstance(item, str) else item()
        self.console.print(answer, markup=False, highlight=False)
        return answer


def recording_console() -> Console:
    return Console(file=io.StringIO(), width=120, force_terminal=False)


def output(console: Console) -> str:
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def session(
    variant: Variant | str, answers: list[Answer], seed: int = 11, default: str = "-"
) -> tuple[HotSeat, Script]:
    v = load_variant(variant) if isinstance(variant, str) else variant
    game = Game(v, NAMES, LEXICON, seed=seed)
    console = recording_console()
    script = Script(console, answers, lambda: default)
    return HotSeat(game, console, script, script.clock), script


def a_placement(game: Game) -> str:
    """A legal placement of real words for the player to move (the longest, for a fuller board)."""
    places = list(generate_placements(game.variant, game.board, game.current.rack, LEXICON))
    assert places, f"no placement for {game.current.rack}: choose another seed"
    return format_move(max(places, key=lambda p: (len(p.letters), format_move(p))))


def a_non_word(game: Game) -> str:
    """Two tiles of the rack across H8 that spell no word of the test list."""
    rack = [t for t in game.current.rack if t != "?"]
    for x, y in itertools.permutations(rack, 2):
        if not LEXICON.contains(x + y):
            return "8H " + "".join(f"[{t}]" if len(t) > 1 else t for t in (x, y))
    raise AssertionError(f"every pair of {rack} is a word")


def printed_final_scores(text: str, names: list[str]) -> list[int]:
    """The last column of each player's row in the final table."""
    final = text[text.rindex("Final scores") :]
    scores = []
    for name in names:
        row = next(line for line in final.splitlines() if line.startswith(f"│ {name} "))
        scores.append(int(row.split("│")[-2]))
    return scores


def move_prompts(script: Script) -> list[tuple[str, int]]:
    return [(p, at) for p, at in script.prompts if p.endswith("> ")]


# -- a whole game ---------------------------------------------------------------------------


def test_whole_game_prints_the_games_final_scores() -> None:
    hot, script = session("fise", [])
    game = hot.game
    script.answers = [lambda: a_placement(game), lambda: a_placement(game)]
    assert hot.run() == "over"
    text = output(hot.console)
    result = game.result
    assert result is not None and result.reason == "scoreless_rounds"
    assert [e["result"] for e in game.log if e["type"] == "move"][:2] == ["placed", "placed"]
    assert printed_final_scores(text, NAMES) == list(result.final_scores)
    for seat, adjustments in enumerate(result.adjustments):
        for why, pts in adjustments:
            assert f"{why} {pts:+d}" in text, (seat, why)
    winner = NAMES[result.winners[0]]
    assert f"Winner: {winner} with {result.final_scores[result.winners[0]]} point" in text
    # Every placement's breakdown was shown, ending in its total.
    for event in game.log:
        if event["type"] == "move" and event["result"] == "placed":
            assert f"plays {event['move']} for {event['score']} point" in text
            assert f"total {event['score']}" in text


def test_play_game_returns_the_game_it_played() -> None:
    console = recording_console()
    script = Script(console, [])
    game = play_game(
        load_variant("fise"), NAMES, LEXICON, seed=5, console=console, input_fn=script,
        clock_fn=script.clock,
    )
    assert game.is_over and game.result is not None
    assert printed_final_scores(output(console), NAMES) == list(game.result.final_scores)
    # Everyone passed: only the racks' values came off.
    assert all(before == 0 for before in game.result.scores_before)


def test_end_of_input_abandons_the_game_with_exit_code_1() -> None:
    console = recording_console()

    def closed(prompt: str) -> str:
        raise EOFError

    with pytest.raises(SystemExit) as exit_info:
        play_game(load_variant("fise"), NAMES, LEXICON, seed=5, console=console, input_fn=closed)
    assert exit_info.value.code == 1
    assert "the game is abandoned" in output(console)


def test_quit_asks_first_and_stops_the_game() -> None:
    hot, _ = session("fise", ["quit", "n", "quit", "y"])
    assert hot.run() == "quit"
    assert not hot.game.is_over
    assert len(hot.game.log) == 1  # nothing but the start
    assert "Game stopped. Scores: Ana 0, Luis 0." in output(hot.console)


# -- turns ----------------------------------------------------------------------------------


def test_an_illegal_move_is_explained_and_the_same_player_tries_again() -> None:
    hot, script = session("fise", [])
    game = hot.game
    first = game.to_move
    off_start = lambda: "1A " + "".join(  # noqa: E731
        f"[{t}]" if len(t) > 1 else ("e" if t == "?" else t) for t in game.current.rack[:2]
    )
    letters = [t for t in game.current.rack if t != "?"][:2]
    lowercase = "8h " + "".join(t.lower() for t in letters)  # two blanks: not on the rack
    script.answers = [
        off_start, "8H", "exchange", lowercase, lambda: a_placement(game), "quit", "y"
    ]
    assert game.current.rack.count("?") < 2
    assert hot.run() == "quit"
    text = output(hot.console)
    assert "Illegal move: the first word must cover H8. Try again." in text
    assert "Not a move: '8H': a square and a word are needed" in text
    assert "Name the tiles to exchange" in text  # not taken for a pass
    assert "Lowercase letters are blanks" in text
    prompts = move_prompts(script)
    assert [p.split(" ")[0] for p, _ in prompts[:5]] == [NAMES[first]] * 5
    moves = [e for e in game.log if e["type"] == "move"]
    assert len(moves) == 1 and moves[0]["seat"] == first and moves[0]["result"] == "placed"


def test_a_word_not_in_the_dictionary_loses_the_turn() -> None:
    hot, script = session("fise", [])
    game = hot.game
    first = game.to_move
    script.answers = [lambda: a_non_word(game), "quit", "y"]
    hot.run()
    assert "not in the dictionary" in output(hot.console)
    assert "The turn is lost; no points." in output(hot.console)
    assert game.to_move != first and game.board.is_empty()


def test_help_lists_the_commands_of_the_variant() -> None:
    texts = {}
    for name in ("fise", "crucigrama", "bisonte"):
        hot, _ = session(name, ["help", "quit", "y"])
        hot.run()
        texts[name] = output(hot.console)
    for text in texts.values():
        for command in ("8H CASA", "H8 CASA", "pass", "exchange ABC", "check MOVE", "history",
                        "help", "quit", "[CH]"):
            assert command in text
    assert "cambio H8 D" in texts["crucigrama"] and "3 per player per game" in texts["crucigrama"]
    assert "return up to 3 tiles" in texts["crucigrama"]
    assert "challenge the last play" in texts["bisonte"]
    assert "Words are checked only when challenged" in texts["bisonte"]
    assert "cambio" not in texts["fise"].lower() and "challenge" not in texts["fise"].lower()


def test_check_scores_without_looking_words_up() -> None:
    hot, script = session("fise", [])
    game = hot.game
    script.answers = [lambda: "check " + a_non_word(game), "quit", "y"]
    hot.run()
    text = output(hot.console)
    assert "Words are not looked up" in text
    assert "total " in text and "not in the dictionary" not in text
    assert len(game.log) == 1  # nothing was played


def test_history_and_exchange_do_not_show_the_exchanged_tiles() -> None:
    hot, script = session("fise", [])
    game = hot.game
    tiles = lambda: "".join(f"[{t}]" if len(t) > 1 else t for t in game.current.rack[:3])  # noqa: E731
    script.answers = [lambda: "exchange " + tiles(), "history", "quit", "y"]
    hot.run()
    text = output(hot.console)
    event = next(e for e in game.log if e["type"] == "move")
    assert event["result"] == "exchanged"
    assert "exchanges 3 tiles." in text  # the report
    assert "exchanges 3    " in text  # the history table's row
    assert event["move"] not in text  # "-ABC": which tiles, only the log knows


def test_racks_are_shown_only_after_the_hand_over() -> None:
    hot, script = session("fise", [])
    game = hot.game
    racks: list[dict[str, str]] = []

    def move() -> str:
        racks.append({p.name: rack_text(game.variant, p.rack).plain for p in game.players})
        return a_placement(game)

    script.answers = [move, move, move, "quit", "y"]
    hot.run()
    text = output(hot.console)
    handovers = [(p, at) for p, at in script.prompts if p.startswith("Pass the keyboard")]
    moves = move_prompts(script)
    assert len(handovers) >= 3
    for n, (prompt, at) in enumerate(handovers[:3]):
        mover = next(name for name in NAMES if f"to {name} and" in prompt)
        other = next(name for name in NAMES if name != mover)
        before = text[moves[n - 1][1] if n else 0 : at]
        after = text[at : next(m_at for _, m_at in moves if m_at > at)]
        assert f"{mover}'s rack" not in before and racks[n][mover] not in before
        assert f"{mover}'s rack" in after and racks[n][mover] in after
        assert f"{other}'s rack" not in after and racks[n][other] not in after


def test_the_clock_is_charged_and_shown() -> None:
    hot, script = session("fise", [])
    game = hot.game
    first = game.to_move
    script.answers = [lambda: a_placement(game), "quit", "y"]
    hot.run()
    # The clock starts once the rack is shown (after the hand-over) and stops at the move.
    assert game.players[first].clock == 1500 - script.think
    assert format_clock(1500 - script.think) == "24:50"
    assert "24:50" in output(hot.console)


def test_running_out_of_time_passes_the_player_over() -> None:
    fise = load_variant("fise")
    variant = replace(fise, clock=Clock(initial_seconds=30, on_timeout="skip"))
    game = Game(variant, NAMES, LEXICON, seed=11)
    console = recording_console()
    script = Script(console, ["-", "quit", "y"], think=100.0)
    hot = HotSeat(game, console, script, script.clock)
    hot.run()
    assert [e["type"] for e in game.log[1:]] == ["timeout"]
    assert game.players[game.log[1]["seat"]].out_of_time
    assert "time is up" in output(console)


# -- Cruzapalabras Bisonte: challenges --------------------------------------------------------


def test_bisonte_challenges_upheld_and_failed() -> None:
    hot, script = session("bisonte", [])
    game = hot.game
    first = game.to_move
    second = 1 - first
    rack_before = sorted(game.players[first].rack)
    script.answers = [
        lambda: a_non_word(game),  # first player: not a word, which only a challenge can catch
        "challenge",  # second player: upheld, the play is withdrawn, still their turn
        lambda: a_placement(game),  # second player: real words
        "challenge",  # first player: fails, so they lose this turn
        "quit",
        "y",
    ]
    assert hot.run() == "quit"
    text = output(hot.console)
    assert "(the next player may challenge it)" in text
    assert "Challenge upheld, not in the dictionary" in text
    assert "Challenge failed: the words are valid." in text
    challenges = [e for e in game.log if e["type"] == "challenge"]
    assert [c["result"] for c in challenges] == ["challenge_upheld", "challenge_failed"]
    assert [c["seat"] for c in challenges] == [second, first]
    assert sorted(game.players[first].rack) == rack_before
    assert game.players[first].score == 0 and game.players[second].score > 0
    assert {"type": "skip", "seat": first, "reason": "challenge_penalty"} in game.log
    assert game.to_move == second
    assert "loses this turn (failed challenge)" in text
    # The second player's time before the upheld challenge counts towards their move: the
    # challenge went on within the same turn.
    placed = [e for e in game.log if e["type"] == "move" and e["seat"] == second]
    assert challenges[0]["elapsed"] == script.think
    assert placed[0]["elapsed"] == 2 * script.think


def test_bisonte_going_out_can_still_be_challenged() -> None:
    bisonte = load_variant("bisonte")
    variant = replace(
        bisonte,
        rack_size=2,
        tiles={"A": (2, 1), "E": (2, 1)},
        end=replace(bisonte.end, no_one_can_play=False),
    )
    game = Game(variant, NAMES, LEXICON, seed=3)
    first = game.to_move
    console = recording_console()
    two_tiles = lambda: "8H " + "".join(game.current.rack)  # noqa: E731  (AA, AE... no words)
    script = Script(console, [two_tiles, NAMES[1 - first], two_tiles, ""])
    hot = HotSeat(game, console, script, script.clock)
    assert hot.run() == "over"
    text = output(console)
    asked = [p for p, _ in script.prompts if "Does anyone challenge" in p]
    assert len(asked) == 2
    assert "Challenge upheld" in text
    result = game.result
    assert result is not None and result.reason == "going_out"
    assert game.players[first].rack and not game.players[1 - first].rack
    assert printed_final_scores(text, NAMES) == list(result.final_scores)
    assert "the others' tiles +2" in text and "tiles left on the rack -2" in text
    assert f"Winner: {NAMES[1 - first]}" in text


# -- the real command in a real terminal ------------------------------------------------------


def _tablero_command() -> list[str]:
    script = Path(sys.executable).parent / "tablero"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tablero.cli"]


@pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (apt-get install -y tmux)"
)
def test_tablero_play_in_tmux(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    socket = f"tablero-test-{os.getpid()}"
    command = " ".join(
        [*_tablero_command(), "play", "--variant", "fise", "--players", "Ana,Luis",
         "--lexicon", str(words), "--seed", "7"]
    )

    def tmux(*args: str) -> str:
        done = subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True,
                              timeout=5, check=True)
        return done.stdout

    def wait_for(text: str, seconds: float = 4.0) -> str:
        deadline = time.monotonic() + seconds
        while True:
            screen = tmux("capture-pane", "-p", "-t", "play", "-S", "-100")
            if text in screen or time.monotonic() > deadline:
                assert text in screen, screen
                return screen
            time.sleep(0.05)

    tmux("new-session", "-d", "-s", "play", "-x", "120", "-y", "60",
         f"{command}; echo exit=$?; sleep 10")
    try:
        wait_for("Pass the keyboard to")
        tmux("send-keys", "-t", "play", "Enter")
        wait_for("'s rack:")
        tmux("send-keys", "-t", "play", "help", "Enter")
        screen = wait_for("stop the game (asks first)")
        assert "A  B  C  D  E" in screen and "3W" in screen and "2L" in screen
        assert "tiles in the bag" in screen and "25:00" in screen
        assert "exchange ABC" in screen and "check MOVE" in screen
        tmux("send-keys", "-t", "play", "quit", "Enter")
        wait_for("Quit the game?")
        tmux("send-keys", "-t", "play", "y", "Enter")
        wait_for("exit=0")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=5)


def test_without_a_dictionary_the_players_are_told() -> None:
    fise = load_variant("fise")
    console = Console(file=io.StringIO(), width=80, force_terminal=False)  # narrow: stacked
    script = Script(console, ["8H", "quit", "y"])
    play_game(fise, NAMES, AnyWordLexicon(SPANISH), seed=5, console=console, input_fn=script)
    text = output(console)
    assert "No dictionary is loaded: every word is accepted" in text
    assert "tiles in the bag" in text and "15 3W" in text
