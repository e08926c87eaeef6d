"""A live table: a ``Room`` holds one table's game, its connections, its clock timer and its
bot (the ``Hub`` in ``hub.py`` holds the rooms).

Every change to a table goes through the room's lock, one at a time: the action is checked,
applied to the in-memory game, stored, and only then acknowledged and broadcast. The database
is the truth and memory a cache of it:

- If the store fails, the game is rewound to the events the database holds (a replay of the
  log's prefix, in memory) and the request is answered ``503 storage_unavailable``. Since a
  lost answer may hide a commit that landed, the room is marked ``suspect`` and re-reads the
  table before its next change.
- If another process stored first (``409 stale_seq``), the room catches up from the database.
- Only the process holding the table's lease (``owned``) runs its clock timer and its bot.
  Both are supervised: any failure is logged and retried with backoff until the database
  answers again, so a table never stalls for good.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ...engine.players import seat_view
from ...game import Game, TurnResult
from ...moves import Cambio, Challenge, Exchange, Move, Pass, Place, format_move
from ...rules import (
    IllegalMove,
    check_cambio,
    check_cambio_limit,
    check_move,
    check_placement,
    placement_from_squares,
)
from ...scoring import MoveScore, score_cambio, score_placement
from ..chat import store as chat_store
from ..chat.lines import ChatLine, check_text, visible_to
from ..errors import ApiError, from_illegal
from ..store import tables as store
from ..workers import WorkersUnavailable, bots
from .hints import hint_moves
from .info import SeatInfo, TableInfo, hash_token, new_token
from .protocol import (
    CreateTableRequest,
    MoveIn,
    PreviewRequest,
    check_nickname,
    decode_move,
)
from .protocol import decode_tiles as decode_tile_list
from .views import PublicParts, for_viewer, public_view, state_text, table_view

__all__ = ["Connection", "Room"]

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("tablero.server")

RETRY_FIRST, RETRY_MAX = 0.5, 10.0
"""Backoff of a failed clock or bot task: seconds before the first retry, and at most."""


class _NotStored(Exception):
    """An action applied in memory whose events the database did not take: its error, told
    apart from the rules' refusals, which leave memory untouched."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class Connection(Protocol):
    """A client listening to a table (a WebSocket), seated or a spectator."""

    seat: int | None

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message (a reply), in order with the others."""

    def offer_state(self, text: str) -> None:
        """Send this ``state`` message soon, without waiting: a state not sent yet is replaced
        by a newer one (a state is whole, so a slow client skips to the latest). A client
        that does not take it in time is disconnected (it reconnects and gets a fresh one)."""

    def offer_message(self, text: str) -> None:
        """Send this message (a chat line) soon, without waiting, after any state offered
        before it; unlike a state it is never skipped."""


@dataclass
class _Timers:
    clock: asyncio.Task[None] | None = None
    bot: asyncio.Task[None] | None = None
    retry: asyncio.Task[None] | None = None
    backoff: float = RETRY_FIRST
    all: set[asyncio.Task[None]] = field(default_factory=set)


class Room:
    def __init__(self, hub: Hub, info: TableInfo, game: Game | None) -> None:
        self.hub = hub
        self.info = info
        self.game = game
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._timers = _Timers()
        self._parts = PublicParts()
        self._closed = False
        self._chat: list[ChatLine] | None = None
        """The table's chat, read on first use and kept up to date."""
        self._rated = info.state == "over"
        """Whether this room has asked for the game's rating (a game loaded already finished
        was rated when it ended, or is left to the hub's retries)."""
        self.suspect = False
        """A store failed: the database may hold an action memory does not (re-read first)."""
        self.owned = False
        """This process holds the table's lease: it keeps the clock and moves the bots."""

    # -- reading ------------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return len(self.game.log) if self.game is not None else 0

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.connections if c.seat is not None}

    def view(self, seat: int | None) -> dict[str, Any]:
        return table_view(
            self.info, self.game, seat, self.connected_seats(), time.time(), self._parts
        )

    def seat_for(
        self, token: str | None, account_id: int | None, required: bool = True
    ) -> int | None:
        """The seat a request acts for: the seat's token if it brings one, else the seat of
        its account (a logged-in player at any browser). A wrong token is refused even when
        the account has a seat: a client that sends a token means that token."""
        if token:
            seat = self.info.seat_of(token)
            if seat is None:
                raise ApiError(
                    401, "bad_token", "this token is not the token of a seat at this table"
                )
            return seat.seat
        if account_id is not None:
            mine = self.info.seat_of_account(account_id)
            if mine is not None:
                return mine.seat
            if required:
                raise ApiError(403, "not_seated", "your account has no seat at this table")
            return None
        if required:
            raise ApiError(401, "token_required", "this needs your seat's token")
        return None

    def broadcast(self) -> None:
        """Offer every connection the table as its viewer may see it (call under the lock).

        The views are built here, from the state under the lock: the public part once, one
        message per seat and one for all spectators, each serialized once. The sending happens
        after, in each connection's own time (``Connection.offer_state``), so the table's lock
        is never held while sockets are written, and a slow client delays nobody.
        """
        conns = list(self.connections)
        if not conns:
            return
        public = public_view(self.info, self.game, self.connected_seats(), time.time(), self._parts)
        texts: dict[int | None, str] = {}
        for conn in conns:
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = state_text(
                    for_viewer(public, self.info, self.game, conn.seat)
                )
            conn.offer_state(text)

    async def attach(self, conn: Connection) -> None:
        async with self.lock:
            was = self.connected_seats()
            self.connections.add(conn)
            conn.offer_state(state_text(self.view(conn.seat)))
            if conn.seat is not None and conn.seat not in was:
                self.broadcast()
            await self._chat_lines()
            conn.offer_message(self._chat_history(conn.seat))

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            self.connections.discard(conn)
            if conn.seat is not None and conn.seat not in self.connected_seats():
                self.broadcast()
            if not self.connections and self.info.state == "over":
                # Nobody is looking at a finished game: free its memory (it reloads on demand).
                self.hub.evict(self)

    # -- seats --------------------------------------------------------------------------------

    async def sit(self, seat: int, nickname: str, account_id: int | None = None) -> str:
        """Take an open seat; returns its token. With ``account_id`` the seat belongs to that
        account too (``nickname`` is then its username), which may hold one seat a table."""
        check_nickname(nickname)
        async with self.lock:
            await self._sync_if_suspect()
            info = self.info
            if not 0 <= seat < len(info.seats):
                raise ApiError(
                    422,
                    "invalid_request",
                    f"seat: this table has seats 0–{len(info.seats) - 1}",
                    field="seat",
                )
            if info.state != "waiting" or info.seats[seat].kind != "open":
                raise ApiError(409, "seat_taken", f"seat {seat} is not free")
            if account_id is not None and info.seat_of_account(account_id) is not None:
                raise ApiError(409, "already_seated", "your account already has a seat here")
            token = new_token()
            taken = SeatInfo(seat, "human", nickname, None, hash_token(token), account_id)
            seats = [taken if s.seat == seat else s for s in info.seats]
            await self._change_seats(taken, "open", seats)
            return token

    async def leave(self, seat: int) -> None:
        async with self.lock:
            await self._sync_if_suspect()
            if self.info.state != "waiting":
                raise ApiError(409, "cannot_leave", "the game has started: a seat cannot be left")
            freed = SeatInfo(seat, "open")
            seats = [freed if s.seat == seat else s for s in self.info.seats]
            await self._change_seats(freed, "human", seats)

    async def _change_seats(self, changed: SeatInfo, expect: str, seats: list[SeatInfo]) -> None:
        info = self.info
        game: Game | None = None
        changes: dict[str, Any] = {}
        now = time.time()
        if all(s.kind != "open" for s in seats):
            names = [s.nickname or f"Seat {s.seat + 1}" for s in seats]
            game = await asyncio.to_thread(self.hub.new_game, info.variant, names)
            # The process that starts the game keeps its clock and bots (the lease).
            changes = {
                "state": "playing",
                "turn_started_at": now,
                "to_move": game.to_move,
                **self.hub.lease_values(now),
            }
        try:
            ok = await asyncio.to_thread(
                store.set_seat,
                self.hub.engine,
                info.id,
                changed,
                expect,
                changes,
                0,
                game.log if game is not None else [],
                now,
            )
        except store.StaleSeq:
            ok = False
        except store.StorageUnavailable:
            self.suspect = True
            raise
        if not ok:  # another process changed the table: catch up, then refuse
            await self._sync()
            raise ApiError(409, "seat_taken", f"seat {changed.seat} was just taken")
        info.seats = seats
        if game is not None:
            self.game = game
            info.state = "playing"
            info.turn_started_at = now
            self.owned = True
        await self._after_change()

    # -- chat ---------------------------------------------------------------------------------

    async def _chat_lines(self) -> list[ChatLine]:
        """The table's chat so far (read once, then kept up to date; call under the lock)."""
        if self._chat is None:
            self._chat = await asyncio.to_thread(
                chat_store.lines_since, self.hub.engine, self.info.id, 0
            )
        return self._chat

    def _sees(self, line: ChatLine, seat: int | None) -> bool:
        return visible_to(line, seat, self.info.quiet_spectators, self.info.state == "playing")

    def _chat_history(self, seat: int | None) -> str:
        lines = [line.json() for line in self._chat or [] if self._sees(line, seat)]
        return json.dumps({"type": "chat_history", "lines": lines}, ensure_ascii=False)

    def _send_chat(self, lines: list[ChatLine]) -> None:
        for conn in list(self.connections):
            for line in lines:
                if self._sees(line, conn.seat):
                    message = {"type": "chat", "line": line.json()}
                    conn.offer_message(json.dumps(message, ensure_ascii=False))

    async def say(
        self, seat: int | None, account_id: int | None, author: str | None, text: object
    ) -> ChatLine:
        """A line of chat by the player at ``seat``, or by a logged-in spectator (``author``
        is then their username); stored, then sent to everyone who may see it."""
        said = check_text(text)
        async with self.lock:
            if seat is not None:
                who = self.info.seats[seat]
                author = who.nickname or f"Seat {seat + 1}"
                account_id = who.account_id
            elif author is None:
                raise ApiError(
                    401, "chat_login_required", "spectators log in to chat; players sit down"
                )
            known = await self._chat_lines()
            line = await asyncio.to_thread(
                chat_store.add_line,
                self.hub.engine,
                self.info.id,
                seat,
                account_id,
                author,
                said,
                time.time(),
            )
            last = known[-1].n if known else 0
            if line.n == last + 1:
                self._take_chat([line])
            else:  # another process said something meanwhile: read what this one missed
                await self._sync_chat()
        await self.hub.announce(self)
        return line

    async def chat_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The lines so far that the viewer at ``seat`` (None: a spectator) may see."""
        async with self.lock:
            lines = await self._chat_lines()
            return [line.json() for line in lines if self._sees(line, seat)]

    async def _sync_chat(self) -> None:
        """Lines another process stored (call under the lock)."""
        if self._chat is None:
            return
        last = self._chat[-1].n if self._chat else 0
        self._take_chat(
            await asyncio.to_thread(chat_store.lines_since, self.hub.engine, self.info.id, last)
        )

    def _take_chat(self, lines: list[ChatLine]) -> None:
        """New lines (after those known): keep them, and send them to whoever may see them."""
        assert self._chat is not None
        self._chat.extend(lines)
        self._send_chat(lines)

    # -- rematch ------------------------------------------------------------------------------

    async def rematch(self, seat: int) -> str | None:
        """The seat asks for a rematch of the finished game: once every person at the table
        has asked (computer players always agree), a new table with the same players, each
        one seat on, and the same options starts. Returns its id, or None while others have
        not asked yet. A guest's seat keeps its token there; an account's, its account."""
        if self.info.state != "over":
            raise ApiError(409, "not_over", "a rematch is asked for once the game is over")
        hub = self.hub
        info = self.info
        _, table, everyone = await asyncio.to_thread(
            store.ask_rematch, hub.engine, info.id, seat, None
        )
        planned = None
        if table is None and everyone:
            planned = await hub.plan_table(
                self._rematch_request(),
                clock_given=True,
                seats_as=self._rotated_seats(),
                word_changes=info.word_changes,
            )
            rows = (planned.row, planned.info.seats, planned.events)
            _, table, everyone = await asyncio.to_thread(
                store.ask_rematch, hub.engine, info.id, seat, rows
            )
        if planned is not None and table == planned.info.id:
            await hub.adopt(planned)
        async with self.lock:
            await self._sync()
            self.broadcast()
        await hub.announce(self)
        return table

    def _rematch_request(self) -> CreateTableRequest:
        info = self.info
        return CreateTableRequest.model_validate(
            {
                "variant": info.variant_ref,
                "seats": [{"kind": "open"}] * len(info.seats),
                "clock_minutes": info.clock_minutes,
                "days_per_move": info.days_per_move,
                "dictionary_hints": info.dictionary_hints,
                "title": info.title,
                "language": info.language,
                "rated": info.rated,
                "quiet_spectators": info.quiet_spectators,
                "hints": info.hints,
                "lexicon": self.hub._chosen_lexicon(info.variant),
            }
        )

    def _rotated_seats(self) -> list[SeatInfo]:
        """The players one seat on: who sat at seat i sits at seat i + 1 (the last at 0)."""
        seats = self.info.seats
        return [seats[(i - 1) % len(seats)] for i in range(len(seats))]

    # -- preview ------------------------------------------------------------------------------

    async def hint(self, seat: int, count: int) -> list[dict[str, Any]]:
        """The seat's best moves, where the table allows hints (``hints.py``)."""
        async with self.lock:
            if not self.info.hints:
                raise ApiError(
                    409, "hints_off", "this table does not allow hints (its creator decides)"
                )
            game = self._require_playing()
            if game.is_over:
                raise ApiError(409, "game_over", "the game is over")
            if game.players[seat].resigned:
                raise ApiError(409, "already_resigned", "you have resigned from this game")
            view = seat_view(game, seat)
            lexicon = game.lexicon
        if not lexicon.can_search:
            raise ApiError(409, "no_dictionary", "this game has no dictionary to find moves in")
        return await asyncio.to_thread(hint_moves, view, lexicon, count)

    async def preview(self, seat: int, req: PreviewRequest) -> dict[str, Any]:
        async with self.lock:
            game = self._require_playing()
            if game.is_over:
                raise ApiError(409, "game_over", "the game is over")
            return await asyncio.to_thread(self._preview, game, seat, req)

    def _preview(self, game: Game, seat: int, req: PreviewRequest) -> dict[str, Any]:
        v = game.variant
        rack = game.players[seat].rack
        out: dict[str, Any] = {
            "legal": False,
            "your_turn": game.to_move == seat,
            "seq": len(game.log),
            "move": None,
            "words": [],
            "score": None,
            "breakdown": [],
            "detail": None,
            "words_valid": None,
            "invalid_words": None,
        }
        try:
            if req.move is not None:
                move = decode_move(req.move, v, game.board)
            else:
                tiles = decode_tile_list(req.tiles or [], v)
                move = placement_from_squares(game.board, tiles)
            out["move"] = format_move(move)
            score: MoveScore | None = None
            words: list[str] = []
            if isinstance(move, Place):
                chk = check_placement(v, game.board, move, rack)
                words = [w.text for w in chk.words]
                score = score_placement(v, list(chk.words), len(chk.new_tiles), game.first_turn)
            elif isinstance(move, Cambio):
                check_cambio_limit(v, game.players[seat].cambios)
                cwords = check_cambio(v, game.board, move, rack)
                words = [w.text for w in cwords]
                score = score_cambio(v, cwords)
            elif isinstance(move, Exchange):
                # Every exchange rule, Intelect's "only when blocked" included (it searches).
                check_move(game.position(seat), move, game.lexicon)
            elif not isinstance(move, Pass):
                raise ApiError(
                    422, "invalid_request", "move: preview takes a placement, CAMBIO or exchange"
                )
        except IllegalMove as e:
            out |= {"rule": e.rule, "reason": e.message}
            if e.params:
                out["params"] = dict(e.params)
            return out
        except ApiError as e:
            if e.code == "notation" or e.code == "invalid_request":
                raise
            out |= {"rule": e.code, "reason": e.message}
            return out
        out["legal"] = True
        if score is not None:
            out |= {
                "words": [
                    {"word": w.word, "notation": w.notation, "score": w.score} for w in score.words
                ],
                "score": score.total,
                "breakdown": score.explain_lines(),
                "detail": score.to_dict(),
            }
        if self.info.dictionary_hints and words:
            bad = [w for w in words if not game.lexicon.contains(w)]
            out |= {"words_valid": not bad, "invalid_words": bad}
        return out

    # -- moves --------------------------------------------------------------------------------

    async def move(self, seat: int, seq: int, move_in: MoveIn) -> tuple[TurnResult, int]:
        async with self.lock:
            if self.suspect or seq > self.seq:
                # A client that has seen more than this process (a move stored by another
                # process whose news has not arrived yet) makes us catch up first.
                await self._sync()
            await self._settle_clock()
            game = self._require_playing()
            if seq != len(game.log):
                raise ApiError(
                    409,
                    "stale_seq",
                    f"the table has moved on (seq {len(game.log)}, not {seq}): look again",
                    seq=len(game.log),
                )
            if move_in.kind == "resign":
                return await self._resign(seat), self.seq
            move = decode_move(move_in, game.variant, game.board)
            if game.is_over and not isinstance(move, Challenge):
                raise ApiError(409, "game_over", "the game is over")
            result = await self._apply(seat, move)
            return result, self.seq

    async def _resign(self, seat: int) -> TurnResult:
        """The seat gives up, on its turn or not (``Game.resign``: at two seats the other wins;
        at three or four the game goes on without it). Its own time runs until it resigns."""
        game = self.game
        assert game is not None
        if game.is_over:
            raise ApiError(409, "game_over", "the game is over")
        now = time.time()
        started = self.info.turn_started_at if self.info.turn_started_at is not None else now
        mover_before = game.to_move
        elapsed = max(0.0, now - started) if seat == mover_before else 0.0

        def act() -> TurnResult:
            return game.resign(seat, round(elapsed, 3))

        result = await self._commit(act, lambda g: g.to_move != mover_before, now)
        await self._after_change()
        return result

    async def _apply(self, seat: int, move: Move) -> TurnResult:
        """Check, apply, store; then broadcast. Raises ApiError and changes nothing if refused."""
        game = self.game
        assert game is not None
        info = self.info
        now = time.time()
        started = info.turn_started_at if info.turn_started_at is not None else now
        mover_before = game.to_move
        if isinstance(move, Challenge):
            elapsed = max(0.0, now - started) if seat == game.to_move else 0.0

            def act() -> TurnResult:
                return game.challenge(seat, round(elapsed, 3))

        else:
            if game.is_over:
                raise ApiError(409, "game_over", "the game is over")
            if seat != game.to_move:
                raise ApiError(409, "not_your_turn", "it is not your turn")
            elapsed = max(0.0, now - started)

            def act() -> TurnResult:
                return game.play(move, round(elapsed, 3))

        # The mover's turn is over (or, after another seat's challenge, someone else is to
        # move): the next turn's time starts now. Otherwise the running turn goes on.
        result = await self._commit(
            act, lambda g: seat == mover_before or g.to_move != mover_before, now
        )
        await self._after_change()
        return result

    async def _commit(
        self,
        act: Callable[[], TurnResult],
        new_turn: Callable[[Game], bool],
        now: float,
    ) -> TurnResult:
        """Apply the action and store its events, or leave memory as the database has it.

        Both happen in one trip to a worker thread: each trip waits for a thread to take the
        GIL from the event loop and back, and at 100 moves a second those waits are a good
        part of the slowest round trips.
        """
        game = self.game
        assert game is not None
        first = len(game.log)
        info = self.info

        def apply_and_store() -> tuple[TurnResult, str, float]:
            try:
                result = act()
            except IllegalMove as e:
                raise from_illegal(e) from None
            except ValueError as e:
                raise ApiError(422, "invalid_request", str(e)) from None
            started = info.turn_started_at
            if new_turn(game) or started is None:
                started = now
            state = "over" if game.is_over else "playing"
            try:
                store.append_events(
                    self.hub.engine,
                    info.id,
                    first,
                    game.log[first:],
                    {
                        "state": state,
                        "turn_started_at": started,
                        "to_move": None if game.is_over else game.to_move,
                    },
                    now,
                )
            except Exception as e:
                raise _NotStored(e) from e
            return result, state, started

        try:
            result, info.state, info.turn_started_at = await asyncio.to_thread(apply_and_store)
        except _NotStored as e:
            await asyncio.to_thread(self._rewind, first)
            if isinstance(e.error, store.StaleSeq):
                await self._sync()
                raise ApiError(
                    409,
                    "stale_seq",
                    f"the table has moved on (seq {self.seq}): look again",
                    seq=self.seq,
                ) from None
            # Not stored (or not known to be): memory goes back to what the database held,
            # and the next change re-reads the table in case the commit did land.
            self.suspect = True
            log.warning("table %s: an action could not be stored; rewound", self.info.id)
            raise store.StorageUnavailable() from None
        except ApiError:
            # The rules refuse before changing anything; a refusal after a change is a bug.
            if len(game.log) != first:  # pragma: no cover
                await asyncio.to_thread(self._rewind, first)
            raise
        except Exception:
            # A failure half-way may have changed the board or a rack without a log entry.
            await asyncio.to_thread(self._rewind, first)
            raise
        return result

    def _rewind(self, length: int) -> None:
        """Rebuild the game from its first ``length`` events (a replay in memory: no database),
        whatever state a failed action left it in."""
        game = self.game
        if game is None:
            return
        variant = game.variant
        self.game = Game.replay(game.log[:length], game.lexicon, lambda _name: variant)

    # -- catching up with the database ----------------------------------------------------------

    async def _sync_if_suspect(self) -> None:
        if self.suspect:
            await self._sync()

    async def _sync(self) -> bool:
        """Catch up with the database (call under the lock): the table's seats and state, and
        any events stored by another process or by a commit whose answer was lost. True if
        anything changed. ``StorageUnavailable`` if the database does not answer."""
        changed = await asyncio.to_thread(self._sync_blocking)
        self.suspect = False
        return changed

    def _sync_blocking(self) -> bool:
        have = self.seq
        stored = store.load_since(self.hub.engine, self.info.id, have)
        if stored is None:  # pragma: no cover - tables are never deleted
            return False
        info = self.hub.info_from_row(stored.row, stored.seats)
        changed = info != self.info
        self.info = info
        if stored.seq == have:
            return changed
        game = self.game
        if game is not None and stored.seq > have:
            try:
                game.extend([*game.log, *stored.events])
                return True
            except Exception:
                log.warning("table %s: catching up failed; reloading it", info.id)
        full = store.load_table(self.hub.engine, info.id)
        assert full is not None
        self.info, self.game = self.hub.rebuild(full)
        return True

    async def refresh(self, always: bool = False) -> None:
        """News from another process: catch up, show it, and go on with clock and bots.
        ``always``: send every client a fresh state even if nothing changed (after a lost
        connection to the bus, clients may have missed news)."""
        async with self.lock:
            if await self._sync() or always:
                self.broadcast()
                self._schedule()
            await self._sync_chat()

    async def _settle_clock(self) -> None:
        """Record the timeouts that are due (a skip clock at zero): the server keeps time."""
        changed = False
        while True:
            game = self.game
            info = self.info
            clock = info.variant.clock
            if (
                game is None
                or game.is_over
                or info.state != "playing"
                or clock is None
                or clock.on_timeout != "skip"
                or info.turn_started_at is None
            ):
                break
            player = game.current
            if player.out_of_time or player.clock is None:
                break  # everyone is out of time and the rules do not end the game: it waits
            now = time.time()
            if player.clock - (now - info.turn_started_at) > 0:
                break
            await self._commit(game.timeout, lambda _g: True, now)
            changed = True
        if changed:
            await self._after_change()

    def _schedule(self) -> None:
        """(Re)start the clock timer and the bot for the player to move, if this process keeps
        the table's time (holds its lease)."""
        if self._closed:
            return
        current = asyncio.current_task()
        for name in ("clock", "bot"):
            task = getattr(self._timers, name)
            if task is not None and task is not current and not task.done():
                task.cancel()
            setattr(self._timers, name, None)
        game, info = self.game, self.info
        if not self.owned or game is None or game.is_over or info.state != "playing":
            return
        clock = info.variant.clock
        player = game.current
        if (
            clock is not None
            and clock.on_timeout == "skip"
            and player.clock is not None
            and not player.out_of_time
            and info.turn_started_at is not None
        ):
            delay = max(0.0, info.turn_started_at + player.clock - time.time())
            self._timers.clock = self._spawn(self._clock_timer(delay), "clock")
        if info.seats[game.to_move].kind == "bot":
            self._timers.bot = self._spawn(self._bot_turn(len(game.log)), "bot")

    def _spawn(self, coro: Coroutine[Any, Any, None], what: str) -> asyncio.Task[None]:
        """Run a clock or bot task under supervision: if it fails (the database is down, a
        bug), the failure is logged and the table retries later by itself."""

        async def supervised() -> None:
            try:
                await coro
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if isinstance(e, store.StorageUnavailable):
                    log.warning("table %s: %s waits for the database", self.info.id, what)
                elif isinstance(e, WorkersUnavailable):
                    log.warning("table %s: %s waits for a bot worker (%s)", self.info.id, what, e)
                else:
                    log.exception("table %s: %s failed; retrying", self.info.id, what)
                self._retry_later()
            else:
                self._timers.backoff = RETRY_FIRST

        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(supervised())
        self._timers.all.add(task)
        task.add_done_callback(self._timers.all.discard)
        # A task cancelled before its first step never starts ``coro``: close it, so it is
        # not reported as "never awaited" (closing a finished coroutine does nothing).
        task.add_done_callback(lambda _task: coro.close())
        return task

    def _retry_later(self) -> None:
        """Catch up with the database after a backoff, then schedule clock and bot again."""
        pending = self._timers.retry
        if self._closed or (
            pending is not None and not pending.done() and pending is not asyncio.current_task()
        ):
            return
        delay = self._timers.backoff
        self._timers.backoff = min(RETRY_MAX, delay * 2)

        async def retry() -> None:
            await asyncio.sleep(delay * random.uniform(0.75, 1.25))
            async with self.lock:
                await self._sync()
                await self._settle_clock()
                self.broadcast()
                self._schedule()

        self._timers.retry = self._spawn(retry(), "retry")

    async def _clock_timer(self, delay: float) -> None:
        await asyncio.sleep(delay + 0.01)
        async with self.lock:
            await self._settle_clock()

    async def _after_change(self) -> None:
        self.broadcast()
        self._schedule()
        await self.hub.announce(self)
        if self.info.state == "over" and not self._rated:
            if self.info.quiet_spectators and self._chat is not None:
                # Over: the players may now read what the spectators said.
                for conn in list(self.connections):
                    if conn.seat is not None:
                        conn.offer_message(self._chat_history(conn.seat))
            self._rated = True  # asked once from here; the hub retries what fails
            self.hub.game_over(self.info.id)

    # -- bots ---------------------------------------------------------------------------------

    async def _bot_turn(self, seq: int) -> None:
        await asyncio.sleep(self.hub.bot_delay)
        async with self.lock:
            await self._sync_if_suspect()
            await self._settle_clock()
            game = self.game
            if game is None or game.is_over or len(game.log) != seq:
                return
            seat = game.to_move
            level = self.info.seats[seat].bot_level or 3
            if self.info.seats[seat].kind != "bot":
                return
            plan: Move | bots.BotJob
            try:
                plan = bots.plan_move(game, seat, level)  # a snapshot, taken under the lock
            except Exception:
                log.exception("table %s: bot failed; it passes", self.info.id)
                plan = Pass()
        # The bot thinks without the lock, in a worker process: previews, spectators and
        # other tables never wait for it.
        move: Move
        try:
            move = await self.hub.think(plan) if isinstance(plan, bots.BotJob) else plan
        except WorkersUnavailable:
            raise  # the supervisor tries the turn again in a moment: the bot does not pass
        except Exception:
            log.exception("table %s: bot failed; it passes", self.info.id)
            move = Pass()
        async with self.lock:
            await self._sync_if_suspect()
            await self._settle_clock()
            game = self.game
            if game is None or game.is_over or game.to_move != seat or len(game.log) != seq:
                return
            try:
                await self._apply(seat, move)
            except ApiError as e:
                if e.status >= 500 or e.code == "stale_seq":
                    raise  # the supervisor retries once the database answers
                log.warning("table %s: bot move refused (%s); it passes", self.info.id, e.message)
                await self._apply(seat, Pass())

    # -- helpers ------------------------------------------------------------------------------

    def _require_playing(self) -> Game:
        if self.game is None or self.info.state == "waiting":
            raise ApiError(409, "not_started", "the game starts when every seat is taken")
        return self.game

    async def start(self) -> None:
        """After loading: let clocks and bots go on by themselves."""
        async with self.lock:
            try:
                await self._settle_clock()
            except store.StorageUnavailable:
                self._retry_later()
            self._schedule()

    async def take_lease(self) -> None:
        """This process now keeps the table's time: catch up, then run its clock and bots."""
        async with self.lock:
            self.owned = True
            await self._sync()
            await self._settle_clock()
            self._schedule()

    def lose_lease(self) -> None:
        """Another process keeps the table's time now: stop its clock and bot here."""
        self.owned = False
        self._schedule()

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._timers.all)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
