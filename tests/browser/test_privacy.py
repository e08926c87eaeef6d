"""A page never receives another player's rack: not over the WebSocket, not over HTTP.

Two people sit at a ``mini`` table and a third person watches. Every WebSocket frame and every
JSON response each page receives is recorded, then read as JSON: the only rack anywhere in
them must be ``table.you.rack`` of the page's own seat (and none at all for the spectator)
until the game is over.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from .ui import (
    create_table,
    history_rows,
    is_my_turn,
    preview_verdict,
    rack,
    sit_from_lobby,
    square,
    type_letters,
    until,
)


class Recorder:
    """Everything the server sends one page: WebSocket frames and JSON API responses."""

    def __init__(self, page: Any) -> None:
        self.frames: list[Any] = []
        self.responses: list[Any] = []
        page.on("websocket", self.on_socket)
        page.on("response", self.on_response)

    def on_socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def on_response(self, response: Any) -> None:
        if "/api/tables" in response.url and "json" in response.headers.get("content-type", ""):
            self.responses.append(response.json())

    def states(self) -> list[dict[str, Any]]:
        return [f["table"] for f in self.frames if f.get("type") == "state"]

    def everything(self) -> list[Any]:
        return self.frames + self.responses


def racks_in(node: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every value under a key that names a rack, the bag or the seed, with where it was.

    Flags and counts (``rack_count``, ``bag_count``, ``shuffles_next_rack``, a move's number of
    tiles ``drawn``) tell nothing about which tiles are where and are left out.
    """
    found: list[tuple[str, Any]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            where = f"{path}.{key}"
            holds_tiles = isinstance(value, list | str | dict)  # not a flag or a count
            if holds_tiles and re.search(r"rack(?!_count)|bag(?!_count)|seed|drawn", key):
                found.append((where, value))
            found.extend(racks_in(value, where))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(racks_in(value, f"{path}[{i}]"))
    return found


def test_second_players_page_never_receives_first_players_rack(new_page: Any) -> None:
    ana = new_page()
    ana_log = Recorder(ana)
    table = create_table(ana, upload="mini.toml", nickname="Ana")
    luis = new_page()
    luis_log = Recorder(luis)
    sit_from_lobby(luis, table, "Luis")
    watcher = new_page()
    watcher_log = Recorder(watcher)
    watcher.goto(f"/t/{table}")
    expect(watcher.locator(".seat")).to_have_count(2)

    # One move, so racks change and a new tile is drawn after it.
    mover = ana if is_my_turn(ana) else luis
    expect(mover.locator(".turn-line.mine")).to_be_visible()
    tiles = rack(mover)
    square(mover, "E5").click()
    type_letters(mover, "".join(tiles[:2]).lower())
    expect(preview_verdict(mover)).to_have_class(re.compile(r"\blegal\b"))
    mover.keyboard.press("Enter")
    for page in (ana, luis, watcher):
        expect(history_rows(page)).to_have_count(1)

    ana_seat = 0
    luis_seat = 1

    def racks_seen(log: Recorder) -> list[Any]:
        return [s["you"]["rack"] for s in log.states() if s.get("you")]

    # Before and after the move, at least. The page may draw the move before Playwright has
    # handed this process the frame that carried it, so wait for the frames too.
    until(ana, lambda: len(racks_seen(ana_log)) >= 2)
    until(luis, lambda: len(racks_seen(luis_log)) >= 2)
    assert ana_log.states()[-1]["state"] == "playing"

    for log, seat in ((ana_log, ana_seat), (luis_log, luis_seat), (watcher_log, None)):
        assert log.frames, "the page opened no WebSocket"
        for message in log.everything():
            for where, value in racks_in(message):
                assert seat is not None and where.endswith(".you.rack"), (where, value)
        # Before sitting down a page is a spectator (you: null); after, it is its own seat only.
        seats_seen = {s["you"]["seat"] if s.get("you") else None for s in log.states()}
        assert seats_seen <= {None, seat}
        assert seat in seats_seen
