"""A duplicate game as GCG: the board's game as ordinary turns, the players in pragmas.

The board of a duplicate game is a one-player game: each round's rack and the top placed on
it. That is written as plain GCG turns of a player ``Top``, so any GCG reader (ours:
``replay_gcg``) replays the board and checks every top's score. What only duplicate has goes in
pragmas, which other readers keep and ignore (specified in docs/formats.md, "Duplicate")::

    #duplicate seed=42 end=draw_rule round_seconds=180 solo_bonus=0
    #player1 Top Top
    #duplicate-player Ana Ana María
    >Top: CQZAECO 8D ZACEO +52 52
    #duplicate-play 1 Ana 8D ZACEO +52 52
    #duplicate-play 1 Luis 8H XXX +0 0 not_on_rack
    #duplicate-solo 1 Ana +10 62

``read_duplicate_gcg`` reads those pragmas back and checks that every player's total adds up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..formats.gcg import GcgError, GcgGame, _nicks, _one_line, read_gcg
from ..moves import format_move, parse_move
from .duplicate import DuplicateGame
from .results import rack_notation

__all__ = ["DuplicateRecord", "RecordedPlay", "read_duplicate_gcg", "write_duplicate_gcg"]

TOP_NAME = "Top"
"""The name of the board's player in the file."""

_SCORE = re.compile(r"^[+-]\d+$")


def write_duplicate_gcg(game: DuplicateGame, title: str | None = None) -> str:
    """The game as GCG with the duplicate pragmas (rounds closed so far)."""
    v = game.variant
    nicks = _nicks([TOP_NAME, *game.players])
    top_nick, player_nicks = nicks[0], dict(zip(game.players, nicks[1:], strict=True))
    options = game.options
    head = [f"seed={game.seed}"]
    if game.end_reason is not None:
        head.append(f"end={game.end_reason}")
    head.append(f"round_seconds={options.round_seconds or 0:g}")
    head.append(f"solo_bonus={options.solo_bonus}")
    out = ["#character-encoding UTF-8"]
    if title:
        out.append(f"#title {_one_line(title)}")
    out += [
        f"#variant {v.name}",
        f"#lexicon {game.lexicon.info().name}",
        f"#duplicate {' '.join(head)}",
        f"#player1 {top_nick} {TOP_NAME}",
    ]
    out += [f"#duplicate-player {player_nicks[p]} {_one_line(p)}" for p in game.players]
    top_total = 0
    for r in game.results:
        top_total += r.top.score
        move = parse_move(r.top.move, v.alphabet, v.rows, v.columns)
        written = format_move(move, through="dot")
        out.append(f">{top_nick}: {rack_notation(r.rack)} {written} {r.top.score:+d} {top_total}")
        for p in r.plays:
            nick = player_nicks[p.player]
            before = p.total - p.points
            line = f"#duplicate-play {r.round} {nick} {p.move} {p.score:+d} {before + p.score}"
            out.append(line + (f" {p.rule}" if p.rule else ""))
            if p.solo:
                out.append(f"#duplicate-solo {r.round} {nick} {p.solo:+d} {p.total}")
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class RecordedPlay:
    round: int
    player: str
    """The player's nick."""
    move: str
    score: int
    rule: str = ""


@dataclass
class DuplicateRecord:
    """The duplicate part of a GCG file, checked."""

    gcg: GcgGame
    """The file as plain GCG: the ``Top`` player's turns are the board's game."""
    settings: dict[str, str]
    """The ``#duplicate`` pragma's ``key=value`` pairs (``seed``, ``end``…)."""
    players: dict[str, str] = field(default_factory=dict)
    """Nick → full name, in the file's order."""
    plays: list[RecordedPlay] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    """Each player's total at the end of the file (solos included)."""


def read_duplicate_gcg(text: str) -> DuplicateRecord:
    """Read a file ``write_duplicate_gcg`` wrote; GcgError if it is no duplicate game, names
    an unknown player, or a player's running total does not add up."""
    gcg = read_gcg(text)
    settings: dict[str, str] | None = None
    record = DuplicateRecord(gcg, {})
    for name, value in gcg.pragmas:
        if name == "duplicate":
            settings = dict(part.partition("=")[::2] for part in value.split())
        elif name == "duplicate-player":
            nick, _, full = value.partition(" ")
            if not nick or nick in record.players:
                raise GcgError(f"#duplicate-player {value!r}: a new nick, then the name")
            record.players[nick] = full.strip() or nick
            record.totals[nick] = 0
        elif name == "duplicate-play":
            play = _read_play(value, record)
            record.plays.append(play)
            record.totals[play.player] += play.score
        elif name == "duplicate-solo":
            _read_solo(value, record)
    if settings is None:
        raise GcgError("no #duplicate line: this is not a duplicate game")
    record.settings = settings
    return record


def _read_play(value: str, record: DuplicateRecord) -> RecordedPlay:
    tokens = value.split()
    where = f"#duplicate-play {value}"
    if len(tokens) < 5 or not tokens[0].isdigit():
        raise GcgError(f"{where}: expected ROUND NICK MOVE SCORE TOTAL [RULE]")
    nick = _player(tokens[1], record, where)
    i = next((k for k in range(3, len(tokens)) if _SCORE.match(tokens[k])), None)
    if i is None or i + 1 >= len(tokens) or not re.fullmatch(r"-?\d+", tokens[i + 1]):
        raise GcgError(f"{where}: expected a score like +12 and a total after the move")
    score, total = int(tokens[i]), int(tokens[i + 1])
    if record.totals[nick] + score != total:
        raise GcgError(f"{where}: {nick}'s total comes to {record.totals[nick] + score}")
    rule = " ".join(tokens[i + 2 :])
    return RecordedPlay(int(tokens[0]), nick, " ".join(tokens[2:i]), score, rule)


def _read_solo(value: str, record: DuplicateRecord) -> None:
    tokens = value.split()
    where = f"#duplicate-solo {value}"
    if len(tokens) != 4 or not _SCORE.match(tokens[2]) or not re.fullmatch(r"-?\d+", tokens[3]):
        raise GcgError(f"{where}: expected ROUND NICK +BONUS TOTAL")
    nick = _player(tokens[1], record, where)
    record.totals[nick] += int(tokens[2])
    if record.totals[nick] != int(tokens[3]):
        raise GcgError(f"{where}: {nick}'s total comes to {record.totals[nick]}")


def _player(nick: str, record: DuplicateRecord, where: str) -> str:
    if nick not in record.players:
        raise GcgError(f"{where}: {nick!r} is not a player (no #duplicate-player names it)")
    return nick
