"""What each viewer is shown: the table view, the lobby entries, the history and the result.

This module is where privacy is decided, and only here: a view is built for one viewer (a
seat or a spectator) and contains that seat's rack and no other, nothing about the bag but its
size, no seed, and exchanges only as a count. Everything shown is derived from the game log
and the game's state, so a restarted server shows the same.
"""

from __future__ import annotations

import datetime
import json
from collections import Counter
from typing import Any

from ...board import Board
from ...game import Event, Game
from ...moves import Exchange, Place, parse_move
from ...variant import BLANK, Coord, Variant, square_name
from .info import TableInfo

__all__ = [
    "PublicParts",
    "clock_remaining",
    "for_viewer",
    "history",
    "lobby_entry",
    "public_view",
    "result_json",
    "state_text",
    "table_view",
]


def board_json(board: Board) -> list[list[dict[str, Any] | None]]:
    """``board[row][column]``: ``{"letter", "blank"}`` for a tile, null for an empty square."""
    out: list[list[dict[str, Any] | None]] = [[None] * board.columns for _ in range(board.rows)]
    for (r, c), tile in board.tiles():
        out[r][c] = {"letter": tile.letter, "blank": tile.blank}
    return out


def iso_time(ts: float) -> str:
    """A time as the API gives it: UTC, to the second, ``2026-11-24T22:34:49Z``."""
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _clock_json(info: TableInfo) -> dict[str, Any] | None:
    clock = info.variant.clock
    if clock is None:
        return None
    return {
        "initial_seconds": clock.initial_seconds,
        "on_timeout": clock.on_timeout,
        "per_move": clock.per_move,
    }


def words_view(v: Variant) -> dict[str, Any] | None:
    """The club's words the game is judged by besides its dictionary (the table's, and its
    rule file's own): public rules, shown to everyone. None for a dictionary as shipped."""
    changes = v.word_changes
    if not changes:
        return None
    return {
        "lexicon": v.lexicon,
        "added": sorted(changes.added),
        "removed": sorted(changes.removed),
    }


def start_view(game: Game) -> dict[str, Any] | None:
    """Why the first player starts, when the rules decide it from the racks (``rack_`` start
    rules, Intelect's): the start event's ``rack_start``, the tiles each seat showed (best
    first, until the tie was broken) and the seats that drew lots. None under other rules."""
    event = game.log[0] if game.log else {}
    rack_start = event.get("rack_start")
    if event.get("type") != "start" or not isinstance(rack_start, dict):
        return None
    return {
        "rule": game.start_rule,
        "first": int(event.get("first", game.to_move)),
        "shown": [[int(seat), list(tiles)] for seat, tiles in rack_start.get("shown", [])],
        "lots": [int(seat) for seat in rack_start.get("lots", [])],
    }


def lobby_entry(info: TableInfo, spectators: int, seq: int) -> dict[str, Any]:
    return {
        "id": info.id,
        "variant": info.variant_ref,
        "variant_title": info.variant.title,
        "lexicon": info.variant.lexicon,
        "title": info.title,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "nickname": s.nickname,
                "bot_level": s.bot_level,
                "account": s.account_id is not None,
            }
            for s in info.seats
        ],
        "clock": _clock_json(info),
        "dictionary_hints": info.dictionary_hints,
        "state": info.state,
        "rated": info.rated,
        "hints": info.hints,
        "created": iso_time(info.created_at),
        "seq": seq,
        "language": info.language,
        "spectators": spectators,
    }


def clock_remaining(info: TableInfo, game: Game, seat: int, now: float) -> float | None:
    """Seconds left for a seat at ``now``: the stored clock, less the running turn's time."""
    left = game.players[seat].clock
    if left is None:
        return None
    if (
        info.state == "playing"
        and not game.is_over
        and seat == game.to_move
        and info.turn_started_at is not None
    ):
        left -= max(0.0, now - info.turn_started_at)
    return round(left, 3)


def table_view(
    info: TableInfo,
    game: Game | None,
    viewer: int | None,
    connected: set[int],
    now: float,
    parts: PublicParts | None = None,
) -> dict[str, Any]:
    """The table as one viewer may see it (``viewer`` a seat, None for a spectator)."""
    return for_viewer(public_view(info, game, connected, now, parts), info, game, viewer)


class PublicParts:
    """The parts of a view that change only with the game's log (the history, the last move,
    the result), kept from one view to the next: a broadcast to every seat and spectator, and
    every later one until the next move, builds them once instead of once per viewer."""

    def __init__(self) -> None:
        self._key: tuple[int, int, tuple[str, ...]] | None = None
        self._parts: dict[str, Any] = {}

    def of(self, game: Game, names: list[str]) -> dict[str, Any]:
        key = (id(game), len(game.log), tuple(names))
        if key != self._key:
            self._parts = {
                "history": history(game, names),
                "last_move_squares": last_move_squares(game),
                "result": result_json(game, names),
            }
            self._key = key
        return self._parts


def public_view(
    info: TableInfo,
    game: Game | None,
    connected: set[int],
    now: float,
    parts: PublicParts | None = None,
) -> dict[str, Any]:
    """What every viewer of the table sees alike (``for_viewer`` adds one viewer's rack).

    Shared between viewers, and its history with later views: never change it, copy it."""
    v = info.variant
    playing = game is not None and info.state in ("playing", "over")
    seats = []
    for s in info.seats:
        entry: dict[str, Any] = {
            "seat": s.seat,
            "kind": s.kind,
            "nickname": s.nickname,
            "bot_level": s.bot_level,
            "account": s.account_id is not None,
            "score": 0,
            "rack_count": 0,
            "clock_remaining": float(v.clock.initial_seconds) if v.clock else None,
            "clock_running": False,
            "out_of_time": False,
            "resigned": False,
            "exchanges_used": 0,
            "cambios_used": 0,
            "connected": s.kind == "bot" or s.seat in connected,
        }
        if playing and game is not None:
            p = game.players[s.seat]
            entry |= {
                "score": p.score,
                "rack_count": len(p.rack),
                "clock_remaining": clock_remaining(info, game, s.seat, now),
                "clock_running": (
                    v.clock is not None and not game.is_over and s.seat == game.to_move
                ),
                "out_of_time": p.out_of_time,
                "resigned": p.resigned,
                "exchanges_used": p.exchanges,
                "cambios_used": p.cambios,
            }
        seats.append(entry)
    board = board_json(game.board) if game is not None else board_json(Board(v.rows, v.columns))
    return {
        "id": info.id,
        "variant": info.variant_ref,
        "variant_title": v.title,
        "lexicon": v.lexicon,
        "title": info.title,
        "rows": v.rows,
        "columns": v.columns,
        "state": info.state,
        "seq": len(game.log) if game is not None else 0,
        "dictionary_hints": info.dictionary_hints,
        "rated": info.rated,
        "quiet_spectators": info.quiet_spectators,
        "hints": info.hints,
        "rematch": (
            {"asked": list(info.rematch_asked), "table": info.rematch_table}
            if info.state == "over"
            else None
        ),
        "clock": _clock_json(info),
        "words": words_view(v),
        "start": start_view(game) if game is not None else None,
        "server_time": round(now, 3),
        "seats": seats,
        "to_move": game.to_move if game is not None and not game.is_over else None,
        "board": board,
        "bag_count": len(game.bag) if game is not None else v.tile_count,
        "unseen": unseen_json(game, None) if playing and game is not None else None,
        **(
            (parts or PublicParts()).of(game, info.names)
            if game is not None
            else {"history": [], "last_move_squares": [], "result": None}
        ),
        "you": None,
        "can_challenge": False,
    }


def state_text(view: dict[str, Any]) -> str:
    """The ``state`` message of a view, as sent on a WebSocket."""
    return json.dumps({"type": "state", "table": view}, ensure_ascii=False)


def for_viewer(
    public: dict[str, Any], info: TableInfo, game: Game | None, viewer: int | None
) -> dict[str, Any]:
    """The public view as ``viewer`` sees it: with their rack and what they may do now."""
    if viewer is None:
        return public
    you: dict[str, Any] = {"seat": viewer, "rack": [], "your_turn": False, "can_challenge": False}
    if game is not None and info.state in ("playing", "over"):
        you |= {
            "rack": list(game.players[viewer].rack),
            "your_turn": not game.is_over and game.to_move == viewer,
            "can_challenge": _can_challenge(game, viewer),
        }
    unseen = public.get("unseen")
    if game is not None and unseen is not None:
        unseen = unseen_json(game, viewer)
    return {**public, "you": you, "can_challenge": you["can_challenge"], "unseen": unseen}


def unseen_json(game: Game, viewer: int | None) -> dict[str, Any]:
    """The tiles a viewer has not seen: the whole set less the board and, for a player, less
    their rack; that is, the bag and the others' racks. By tile in alphabetical order (the
    blank last), with the vowels, consonants and blanks among them counted."""
    v = game.variant
    left: Counter[str] = Counter({t: n for t, (n, _) in v.tiles.items()})
    for _, tile in game.board.tiles():
        left[tile.rack_form] -= 1
    if viewer is not None:
        left.subtract(game.players[viewer].rack)
    # A resigned player's set-aside tiles stay unseen: nobody else knows what they were.
    order = sorted(left, key=lambda t: (t == BLANK, v.alphabet.sort_key(t) if t != BLANK else 0))
    tiles = {t: left[t] for t in order if left[t] > 0}
    blanks = tiles.get(BLANK, 0)
    vowels = sum(n for t, n in tiles.items() if v.alphabet.is_vowel(t))
    total = sum(tiles.values())
    return {
        "tiles": tiles,
        "total": total,
        "vowels": vowels,
        "consonants": total - vowels - blanks,
        "blanks": blanks,
    }


def _can_challenge(game: Game, seat: int) -> bool:
    """Bisonte: a seated player may challenge the last play unless it is their own (after the
    end only the play that went out is still open, and the game keeps only that one)."""
    return game.variant.word_check == "challenge" and game.can_challenge(seat)


def _placed_squares(notation: str, v: Variant) -> list[str]:
    move = parse_move(notation, v.alphabet, v.rows, v.columns)
    if not isinstance(move, Place):
        return []
    (r, c), dr, dc = move.start, (0 if move.across else 1), (1 if move.across else 0)
    out: list[str] = []
    for i, letter in enumerate(move.letters):
        if not letter.on_board:
            coord: Coord = (r + i * dr, c + i * dc)
            out.append(square_name(coord))
    return out


def _exchanged_count(notation: str, v: Variant) -> int:
    move = parse_move(notation, v.alphabet, v.rows, v.columns)
    return len(move.tiles) if isinstance(move, Exchange) else 0


def history(game: Game, names: list[str]) -> list[dict[str, Any]]:
    """Every turn and what followed, public parts only (exchanged tiles become a count)."""
    v = game.variant
    totals = [0] * len(game.players)
    out: list[dict[str, Any]] = []
    last_mover: int | None = None

    def add(seat: int, kind: str, move: str, score: int, owner: int, **extra: Any) -> None:
        totals[owner] += score
        out.append(
            {
                "n": len(out) + 1,
                "seat": seat,
                "nickname": names[seat],
                "kind": kind,
                "move": move,
                "score": score,
                "total": totals[owner],
                **extra,
            }
        )

    for event in game.log[1:]:
        kind = event.get("type")
        seat = int(event.get("seat", 0))
        if kind == "move":
            last_mover = seat
            _add_move(add, event, seat, v)
        elif kind == "challenge":
            target = int(event["target"])
            result = str(event["result"])
            extra: dict[str, Any] = {"target": target}
            if result == "challenge_upheld":
                extra["words"] = list(event.get("words", []))
            add(seat, result, "CHALLENGE", int(event.get("score", 0)), target, **extra)
        elif kind == "timeout":
            add(seat, "timeout", "", 0, seat)
        elif kind == "resign":
            add(seat, "resigned", "", 0, seat)
        elif kind == "skip":
            add(seat, "skip", "", 0, seat, reason=str(event.get("reason", "")))
        elif kind == "shuffle":
            mover = last_mover if last_mover is not None else seat
            add(
                mover,
                "shuffle",
                "",
                0,
                mover,
                target=seat,
                reason=f"EX: {names[seat]}'s rack was exchanged with the bag",
            )
    return out


def _add_move(add: Any, event: Event, seat: int, v: Variant) -> None:
    result = str(event["result"])
    notation = str(event["move"])
    score = int(event.get("score", 0))
    if result == "exchanged":
        n = _exchanged_count(notation, v)
        add(seat, result, f"-{n}", 0, seat, tiles=n)
    elif result in ("placed", "cambio"):
        squares = _placed_squares(notation, v) if result == "placed" else [notation.split()[1]]
        add(seat, result, notation, score, seat, squares=squares)
    elif result == "lost_turn":
        add(seat, result, notation, 0, seat, reason=str(event.get("reason", "")))
    else:
        add(seat, result, notation, score, seat)


def last_move_squares(game: Game) -> list[str]:
    """The most recent placement or CAMBIO still on the board."""
    v = game.variant
    for event in reversed(game.log):
        if event.get("type") == "challenge" and event.get("result") == "challenge_upheld":
            return []
        if event.get("type") == "move":
            if event.get("result") == "placed":
                return _placed_squares(str(event["move"]), v)
            if event.get("result") == "cambio":
                return [str(event["move"]).split()[1]]
    return []


def result_json(game: Game, names: list[str]) -> dict[str, Any] | None:
    r = game.result
    if r is None:
        return None
    ranks = r.ranks  # resigned players last, ties as the rules break them
    order = sorted(range(len(r.final_scores)), key=lambda i: (ranks[i], -r.final_scores[i], i))
    ranking = [
        {
            "place": ranks[i],
            "seat": i,
            "nickname": names[i],
            "score": r.final_scores[i],
            "resigned": game.players[i].resigned,
        }
        for i in order
    ]
    return {
        "reason": r.reason,
        "final_scores": list(r.final_scores),
        "scores_before": list(r.scores_before),
        "adjustments": [
            [{"why": why, "points": points} for why, points in adj] for adj in r.adjustments
        ],
        "racks_left": [list(p.rack) for p in game.players],
        "winners": list(r.winners),
        "ranking": ranking,
    }
