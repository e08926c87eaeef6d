"""The kinds of work the workers do, in one table: a bot's move, a piece of a post-game
analysis, the analysis board's moves or simulation round, a finished game's puzzles.

Both ways of running a job, the local process pool (``pool.BotPool``) and the job queue on Redis
(``queue.BotQueue`` with ``worker.py``'s processes), treat every kind alike: they look it up
here. A ``JobKind`` says

- ``function``: the job's name on the queue;
- ``variant_of``: the rules the job is played under (to load its dictionary);
- ``to_dict`` / ``from_dict``: the job as JSON on the queue (never pickle: whoever can write
  to Redis must not run code in a worker); ``from_dict`` rebuilds the rules with the function
  it is given (``queue.rules_variant``);
- ``work``: what a worker does with it, answering in text (a move in notation, or JSON), so
  that the answer crosses a process or Redis the same way;
- ``read``: the answer back in the web process.

A new kind of engine work is one more row, not one more method in three files.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ...engine.search.inference import LastPlay
from ...formats.cgp import read_board, read_cgp, write_board, write_cgp
from ...lexicon import Lexicon
from ...moves import Move, format_move, parse_move
from ...variant import Variant
from .analysis import AnalysisJob, analyse, analysis_job_from_dict, analysis_job_to_dict
from .bots import LEVELS, BotJob, think
from .positions import PositionJob, position_job_from_dict, position_job_to_dict, work_on_position
from .puzzles import PuzzleScanJob, puzzle_job_from_dict, puzzle_job_to_dict, scan_for_puzzles

__all__ = ["ANALYSE", "KINDS", "POSITION", "PUZZLES", "THINK", "JobKind", "bot_job_from_dict"]

J = TypeVar("J")
A = TypeVar("A")


@dataclass(frozen=True)
class JobKind(Generic[J, A]):
    """One kind of engine work (see the module's docstring for each field)."""

    function: str
    what: str
    """For log lines: "a bot job was lost"."""
    variant_of: Callable[[J], Variant]
    to_dict: Callable[[J, str], dict[str, Any]]
    from_dict: Callable[[Mapping[str, Any], Callable[[str], Variant]], J]
    work: Callable[[J, Lexicon], str]
    read: Callable[[J, str], A]

    def run(self, job: J, lexicon_for: Callable[[Variant], Lexicon]) -> str:
        """Do the job where it is (a worker process or a thread), with its dictionary."""
        return self.work(job, lexicon_for(self.variant_of(job)))


# -- a bot's move ---------------------------------------------------------------------------------


def bot_job_to_dict(job: BotJob, rules: str) -> dict[str, Any]:
    """The job as it crosses Redis; ``rules`` is ``builtin:NAME`` or an upload's TOML text."""
    return {
        "cgp": write_cgp(job.position),
        "rules": rules,
        "level": job.level,
        "players": job.players,
        "plays": [
            {
                "board": write_board(p.board),
                "played": list(p.played),
                "score": p.score,
                "seat": p.seat,
            }
            for p in job.plays
        ],
    }


PLAYS_SENT = 8
"""The most plays a bot job may carry (a level reads ``inference.CHAIN`` at most)."""


def bot_job_from_dict(data: Mapping[str, Any], variant_of: Callable[[str], Variant]) -> BotJob:
    """The job a worker was sent; ValueError (or the rule file's ``ApiError``) if malformed."""
    cgp, rules, level, players = (data.get(k) for k in ("cgp", "rules", "level", "players"))
    if not (isinstance(cgp, str) and isinstance(rules, str)):
        raise ValueError("a bot job needs a CGP and rules, both strings")
    if level not in LEVELS or not isinstance(players, int) or not 1 <= players <= 4:
        raise ValueError(f"a bot job's level ({level!r}) or players ({players!r}) is wrong")
    variant = variant_of(rules)
    plays = data.get("plays", [])
    if not isinstance(plays, list) or len(plays) > PLAYS_SENT:
        raise ValueError(f"a bot job's plays are a list of at most {PLAYS_SENT}")
    return BotJob(
        read_cgp(cgp, variant),
        level,
        players,
        tuple(_read_play(p, variant, players) for p in plays),
    )


def _read_play(data: Any, variant: Variant, players: int) -> LastPlay:
    """One of a bot job's plays (``BotJob.plays``); ValueError says what is wrong with it."""
    if not isinstance(data, dict):
        raise ValueError("a bot job's play is an object")
    board, played, score, seat = (data.get(k) for k in ("board", "played", "score", "seat"))
    if not (isinstance(board, str) and isinstance(played, list) and played):
        raise ValueError("a bot job's play needs a board and the tiles played")
    if not all(isinstance(t, str) and (t == "?" or variant.alphabet.is_letter(t)) for t in played):
        raise ValueError(f"a bot job's play holds a tile {variant.title} does not have")
    if len(played) > variant.rack_size or not isinstance(score, int):
        raise ValueError("a bot job's play has more tiles than a rack, or no whole score")
    if not (isinstance(seat, int) and 1 <= seat < players):
        raise ValueError(f"a bot job's play is by seat {seat!r} of {players} players")
    return LastPlay(seat, read_board(board, variant), tuple(played), score)


def _read_move(job: BotJob, text: str) -> Move:
    """The move parsed back under the rules of the job's own game."""
    v = job.position.variant
    return parse_move(text, v.alphabet, v.rows, v.columns)


THINK: JobKind[BotJob, Move] = JobKind(
    function="tablero.think",
    what="bot",
    variant_of=lambda job: job.position.variant,
    to_dict=bot_job_to_dict,
    from_dict=bot_job_from_dict,
    work=lambda job, lexicon: format_move(think(job, lexicon)),
    read=_read_move,
)

# -- a piece of a post-game analysis (``analysis.py``) --------------------------------------------

ANALYSE: JobKind[AnalysisJob, list[dict[str, Any]]] = JobKind(
    function="tablero.analyse",
    what="analysis",
    variant_of=lambda job: job.variant,
    to_dict=analysis_job_to_dict,
    from_dict=analysis_job_from_dict,
    work=lambda job, lexicon: json.dumps(analyse(job, lexicon), ensure_ascii=False),
    read=lambda job, text: list(json.loads(text)),
)

# -- the analysis board (``positions.py``) --------------------------------------------------------

POSITION: JobKind[PositionJob, dict[str, Any]] = JobKind(
    function="tablero.position",
    what="position",
    variant_of=lambda job: job.position.variant,
    to_dict=position_job_to_dict,
    from_dict=position_job_from_dict,
    work=lambda job, lexicon: json.dumps(work_on_position(job, lexicon), ensure_ascii=False),
    read=lambda job, text: dict(json.loads(text)),
)

# -- puzzles from a finished game (``puzzles.py``) -------------------------------------------------

PUZZLES: JobKind[PuzzleScanJob, list[dict[str, Any]]] = JobKind(
    function="tablero.puzzles",
    what="puzzle scan",
    variant_of=lambda job: job.variant,
    to_dict=puzzle_job_to_dict,
    from_dict=puzzle_job_from_dict,
    work=lambda job, lexicon: json.dumps(scan_for_puzzles(job, lexicon), ensure_ascii=False),
    read=lambda job, text: list(json.loads(text)),
)

KINDS: dict[str, JobKind[Any, Any]] = {k.function: k for k in (THINK, ANALYSE, POSITION, PUZZLES)}
"""Every kind by its name on the queue."""
