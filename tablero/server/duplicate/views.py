"""What each viewer of a duplicate room is shown. Privacy is decided here, and only here.

While a round is open, a submission is known to its player alone: the room's view says who
has a move in (``submitted``), never what it is; the player's own move comes back in
``you``. The round's rack is in the view only once the round has opened (not during the
pause before it). The top of the round being played, the seed and the bag's order never
leave the server; a closed round is public: every player's move and score, the top, the
best three, each with the squares it covers, and the board they were played on.

The view is built in two parts: the room's public part, the same for everyone between two
changes (``public_parts``), and at each send the time-dependent fields and the viewer's own
part (``room_view``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from ...board import Board
from ...competition.duplicate import DuplicateGame
from ...competition.results import RoundMove, RoundResult, percent_of_top, rack_notation
from ...formats.cgp import read_cgp
from ...moves import Cambio, NotationError, Place, parse_move
from ...variant import Variant, square_name
from .. import catalog
from ..tables.views import board_json, iso_time
from .store import Player, RoundTimes, Snapshot

__all__ = [
    "MAX_PLAYERS",
    "Parts",
    "list_entry",
    "move_tiles",
    "phase",
    "played",
    "public_parts",
    "room_view",
    "round_json",
    "shared_view",
    "state_texts",
]

MAX_PLAYERS = 100
"""Players in one room (the library plays any number; the server holds a room to this)."""


@dataclasses.dataclass(frozen=True)
class Parts:
    """A room's view between two changes: ``public`` (everything but the rack, the time and
    the viewer's part), the rack of the round (shown once it opens), and what the viewer
    parts are made from."""

    seq: int
    public: dict[str, Any]
    rack: list[str]
    own: dict[str, dict[str, Any]]
    """Each player's own part, by name: their move in the round, their rounds."""


def move_tiles(notation: str, board: Board, variant: Variant) -> list[dict[str, Any]]:
    """The tiles a move puts down on ``board`` (for drawing it): ``[{"square", "letter",
    "blank"}]``; a CAMBIO's new tile; nothing for a pass or a move that cannot be read."""
    try:
        move = parse_move(notation, variant.alphabet, variant.rows, variant.columns)
    except NotationError:
        return []
    if isinstance(move, Cambio):
        tile = move.tile
        return [{"square": square_name(move.square), "letter": tile.letter, "blank": tile.blank}]
    if not isinstance(move, Place):
        return []
    (r, c), dr, dc = move.start, (0 if move.across else 1), (1 if move.across else 0)
    out = []
    for i, letter in enumerate(move.letters):
        coord = (r + i * dr, c + i * dc)
        on_board = 0 <= coord[0] < board.rows and 0 <= coord[1] < board.columns
        if letter.tile is None or not on_board or board[coord] is not None:
            continue
        t = letter.tile
        out.append({"square": square_name(coord), "letter": t.letter, "blank": t.blank})
    return out


def _move_json(m: RoundMove, board: Board, v: Variant) -> dict[str, Any]:
    return m.to_dict() | {"tiles": move_tiles(m.move, board, v)}


def round_json(result: RoundResult, times: RoundTimes | None, v: Variant) -> dict[str, Any]:
    """A closed round, public: its rack and board, the top and the best, every play."""
    board = read_cgp(result.cgp, v).board
    top_total = result.top_total
    return {
        "round": result.round,
        "rack": rack_notation(result.rack),
        "board": board_json(board),
        "top": _move_json(result.top, board, v),
        "best": [_move_json(m, board, v) for m in result.best],
        "plays": [
            {
                "player": p.player,
                "move": p.move,
                "score": p.score,
                "rule": p.rule or None,
                "reason": p.reason or None,
                "found_top": p.found_top,
                "solo": p.solo,
                "points": p.points,
                "total": p.total,
                "percent": percent_of_top(p.total, top_total),
                "at": None if p.at is None else round(p.at, 1),
                "tiles": move_tiles(p.move, board, v) if p.move != "-" else [],
            }
            for p in result.plays
        ],
        "top_total": result.top_total,
        "redrawn": result.redrawn,
        "closed_by": times.closed_by if times else None,
        "cgp": result.cgp,
    }


def _current_moves(game: DuplicateGame) -> dict[str, tuple[str, float]]:
    """Each player's move in for the round being played (the last they sent), with its time."""
    out: dict[str, tuple[str, float]] = {}
    if game.is_over:
        return out
    for event in game.log:
        if event.get("type") == "submit" and event.get("round") == game.round:
            out[str(event["player"])] = (str(event["move"]), float(event["at"]))
    return out


def played(game: DuplicateGame) -> set[str]:
    """The players with a move in for the round (``-`` withdrew it: they are waited for)."""
    return {name for name, (move, _) in _current_moves(game).items() if move != "-"}


def public_parts(
    snap: Snapshot,
    game: DuplicateGame,
    variant_title: str,
    closed: dict[int, dict[str, Any]] | None = None,
) -> Parts:
    """``closed``: the rounds' JSON already made (``round_json``, by round), which a closed
    round never changes: the last one is made once, not at every submission of the next."""
    room = snap.room
    v = game.variant
    times = {t.round: t for t in snap.rounds}
    accounts = {p.name for p in snap.players if p.account_id is not None}
    moves = _current_moves(game)
    in_ = {name for name, (move, _) in moves.items() if move != "-"}
    totals = game.totals
    last = None
    if game.results:
        result = game.results[-1]
        cache = {} if closed is None else closed
        last = cache.get(result.round)
        if last is None or last["closed_by"] is None:
            last = cache[result.round] = round_json(result, times.get(result.round), v)
    public = {
        "id": room.id,
        "title": room.title,
        "variant": room.variant,
        "variant_title": variant_title,
        "lexicon": v.lexicon,
        "rows": v.rows,
        "columns": v.columns,
        "state": room.state,
        "creator": room.creator,
        "tournament": room.tournament_id,
        "options": {
            "round_seconds": room.round_seconds,
            "rounds": room.max_rounds,
            "solo_bonus": room.solo_bonus,
            "pause_seconds": room.pause_seconds,
        },
        "max_players": MAX_PLAYERS,
        "seq": room.seq,
        "round": game.round,
        "board": board_json(game.board),
        "bag": len(game.bag),
        "top_total": game.top_total,
        "players": [
            {
                "name": name,
                "account": name in accounts,
                "creator": name == room.creator,
                "total": totals[name],
                "percent": game.percent(name),
                "submitted": name in in_,
            }
            for name in game.players
        ],
        "standings": [
            {
                "place": s.place,
                "name": s.player,
                "total": s.total,
                "percent": s.percent,
                "tops": s.tops,
                "solos": s.solos,
            }
            for s in game.standings()
        ],
        "rounds": [
            {
                "round": r.round,
                "rack": rack_notation(r.rack),
                "top": r.top.to_dict(),
                "top_total": r.top_total,
                "closed_by": times[r.round].closed_by if r.round in times else None,
            }
            for r in game.results
        ],
        "last": last,
        "end_reason": game.end_reason,
        "created": iso_time(room.created_at),
        "started": None if room.started_at is None else iso_time(room.started_at),
        "finished": None if room.finished_at is None else iso_time(room.finished_at),
    }
    rounds_of: dict[str, list[dict[str, Any]]] = {name: [] for name in game.players}
    for r in game.results:
        for pr in r.plays:
            rounds_of[pr.player].append(
                {
                    "round": r.round,
                    "move": pr.move,
                    "score": pr.score,
                    "points": pr.points,
                    "rule": pr.rule or None,
                    "found_top": pr.found_top,
                }
            )
    own: dict[str, dict[str, Any]] = {}
    for name in game.players:
        move, at = moves.get(name, (None, None))
        own[name] = {
            "name": name,
            "creator": name == room.creator,
            "account": name in accounts,
            "move": None if move in (None, "-") else move,
            "at": None if at is None else round(at, 1),
            "rounds": rounds_of[name],
        }
    return Parts(room.seq, public, list(game.rack) if not game.is_over else [], own)


def phase(snap_room: Any, now: float) -> str:
    """waiting, pause (the round's rack is not shown yet), open, over."""
    if snap_room.state != "playing":
        return str(snap_room.state)
    if snap_room.opens_at is not None and now < snap_room.opens_at:
        return "pause"
    return "open"


def room_view(parts: Parts, snap_room: Any, now: float, viewer: Player | None) -> dict[str, Any]:
    """The view one viewer is sent now (``viewer``: a player, or None for anyone else)."""
    view = shared_view(parts, snap_room, now)
    view["you"] = parts.own.get(viewer.name) if viewer is not None else None
    return view


def state_texts(parts: Parts, snap_room: Any, now: float) -> Callable[[Player | None], str]:
    """The socket's ``state`` message for each viewer, as text: the room's part serialized
    once, each viewer's own part alone (a room of 100 is 100 messages of some 50 KB a change,
    and serializing each whole took a tenth of a second of the event loop)."""
    shared = json.dumps(shared_view(parts, snap_room, now), ensure_ascii=False)
    head = '{"type": "state", "room": ' + shared[:-1] + ', "you": '
    anyone = head + "null}}"

    def text(viewer: Player | None) -> str:
        own = parts.own.get(viewer.name) if viewer is not None else None
        return anyone if own is None else head + json.dumps(own, ensure_ascii=False) + "}}"

    return text


def shared_view(parts: Parts, snap_room: Any, now: float) -> dict[str, Any]:
    """Everything of a view but the viewer's own part, as it is at ``now``."""
    p = phase(snap_room, now)
    view = dict(parts.public)
    view["phase"] = p
    view["server_time"] = round(now, 3)
    view["opens_in"] = (
        round(max(0.0, snap_room.opens_at - now), 2)
        if p == "pause" and snap_room.opens_at is not None
        else None
    )
    view["time_left"] = (
        round(max(0.0, snap_room.deadline - now), 2)
        if p == "open" and snap_room.deadline is not None
        else None
    )
    view["rack"] = list(parts.rack) if p == "open" else None
    if p != "open":
        view["players"] = [pl | {"submitted": False} for pl in parts.public["players"]]
    return view


def list_entry(room: Any, players: int) -> dict[str, Any]:
    return {
        "id": room.id,
        "title": room.title,
        "variant": room.variant,
        "lexicon": room.lexicon or catalog.builtin(room.variant).lexicon,
        "state": room.state,
        "round": room.round,
        "players": players,
        "max_players": MAX_PLAYERS,
        "creator": room.creator,
        "tournament": room.tournament_id,
        "round_seconds": room.round_seconds,
        "rounds": room.max_rounds,
        "created": iso_time(room.created_at),
    }
