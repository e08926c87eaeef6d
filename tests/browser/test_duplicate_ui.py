"""A 3-player duplicate room in the browser through three rounds: Ana creates it from the
Duplicate page (a guest, a laptop, in Spanish) and starts it; Luis joins by the room's link
(a guest, a phone, in English); Eva is no browser and no bot: plain HTTP for her moves and a
WebSocket that keeps every message she is sent.

Each round Ana places her move on the board with clicks, Luis types his in notation, Eva sends
hers; until the round closes neither the other page nor Eva's socket holds Ana's move. The round
closes when all three are in; both pages then show every move, the top on the board and the
ranking, as the API says. Ana opens round 2 herself; round 3 opens by itself after the pause.
At the end the final ranking and the GCG, whose totals add up. Screenshots at laptop and phone
size; every control named.

The room's name holds markup, which the pages must show as the characters typed.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import threading
from typing import Any

import httpx2
from playwright.sync_api import expect
from websockets.sync.client import connect

from tablero.board import Board, Tile
from tablero.competition.duplicate import best_by_score
from tablero.competition.duplicate_gcg import read_duplicate_gcg
from tablero.lexicon import load_lexicon
from tablero.position import Position
from tablero.server.duplicate.views import move_tiles
from tablero.variant import load_variant

from .test_a11y import unnamed_controls
from .ui import type_letters, until

NAME = "Club <b>martes</b>"
FISE = load_variant("fise")
PAUSE = 8


class Eva:
    """The third player: HTTP for her moves, a WebSocket that keeps what she is sent."""

    def __init__(self, base: str, room: str) -> None:
        self.base = base
        self.room = room
        self.http = httpx2.Client(base_url=base, timeout=30)
        body = self.post(f"/api/duplicate/{room}/join", {"nickname": "Eva"})
        self.token = str(body["token"])
        self.http.headers["Authorization"] = f"Bearer {self.token}"
        self.received: list[dict[str, Any]] = []
        url = base.replace("http://", "ws://") + f"/ws/duplicate/{room}"
        self.socket = connect(url, open_timeout=30).__enter__()
        self.socket.send(json.dumps({"type": "auth", "token": self.token}))
        self.listener = threading.Thread(target=self._listen, daemon=True)
        self.listener.start()

    def _listen(self) -> None:
        try:
            for text in self.socket:
                self.received.append(json.loads(text))
        except Exception:  # the socket closed at the end of the test
            return

    def post(self, path: str, body: Any) -> dict[str, Any]:
        r = self.http.post(path, json=body)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def view(self) -> dict[str, Any]:
        r = self.http.get(f"/api/duplicate/{self.room}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def submit(self, n: int, move: str) -> dict[str, Any]:
        return self.post(
            f"/api/duplicate/{self.room}/submit",
            {"round": n, "move": {"kind": "notation", "text": move}},
        )

    def close(self) -> None:
        self.socket.close()
        self.http.close()


def moves(view: dict[str, Any], blank: bool = True) -> list[tuple[str, int, list[dict[str, Any]]]]:
    """The best moves on the room's position (notation, score, the tiles put down); with
    ``blank=False`` those that leave the blank on the rack."""
    board = Board(FISE.rows, FISE.columns)
    for r, row in enumerate(view["board"]):
        for c, tile in enumerate(row):
            if tile:
                board[(r, c)] = Tile(tile["letter"], tile["blank"])
    lexicon = load_lexicon(FISE.lexicon, FISE.alphabet)
    rack = [x for x in view["rack"] if blank or x != "?"]
    position = Position(FISE, board, [tuple(rack)], [view["top_total"]])
    return [
        (m.notation, m.score, move_tiles(m.notation, board, FISE))
        for m in best_by_score(position, lexicon, n=40)
    ]


def place(page: Any, tiles: list[dict[str, Any]]) -> None:
    """Put tiles on the board the tap way: a rack tile, then its square. Each tap is seen to
    land before the next (the selected tile, the tile on its square): another player's news
    redraws the rack, and a tap on a tile being redrawn could be lost."""
    for tile in tiles:
        page.locator(f'.rack .rack-tile[data-letter="{tile["letter"]}"]').first.click()
        expect(page.locator(".rack .rack-tile.selected")).to_have_count(1)
        target = page.locator(f'.sq[data-square="{tile["square"]}"]')
        target.click()
        expect(target.locator("[data-placed]")).to_have_count(1)


def shows(page: Any, move: str) -> bool:
    """Whether the page holds this move anywhere (not as part of a longer one)."""
    return re.search(rf"(?<![\w(\[]){re.escape(move)}(?![\w(\[])", page.content()) is not None


def type_move(page: Any, notation: str, tiles: list[dict[str, Any]]) -> None:
    """Type a move with the keyboard, as at a table: a click on its first new square (a second
    click turns the cursor down), the letters (filled squares are skipped), Enter."""
    first = page.locator(f'.sq[data-square="{tiles[0]["square"]}"]')
    down = not notation[0].isdigit()  # "H8 …" is down, "8H …" across
    # The cursor on that square, pointing the move's way (an across cursor has no "down").
    wanted = re.compile(r"\bcursor\b.*\bdown\b" if down else r"^(?!.*\bdown\b).*\bcursor\b")
    first.click()
    for _ in range(3):  # each click on the cursor's square turns it; wait for the page each time
        try:
            expect(first).to_have_class(wanted, timeout=1500)
            break
        except AssertionError:
            first.click()
    expect(first).to_have_class(wanted)
    type_letters(page, "".join(t["letter"] for t in tiles).lower())


def typable_letters(letters: list[str]) -> bool:
    """Letters typed one key each: no digraph tile, and no two in a row that the page would
    join into one (C then H is the CH tile when the rack has it)."""
    return all(len(x) == 1 for x in letters) and not any(
        a + b in ("CH", "LL", "RR") for a, b in itertools.pairwise(letters)
    )


def plays_shown(page: Any) -> dict[str, tuple[str, str]]:
    """The results panel's moves: player → (move, points)."""
    rows = page.locator(".plays-table tbody tr")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        out[row.get_attribute("data-player")] = (
            row.locator("td.mv").inner_text().split("\n")[0].strip(),
            row.locator("td.pts").inner_text().strip(),
        )
    return out


def settled(page: Any, read: Any, want: Any) -> Any:
    """What ``read()`` gives once it equals ``want`` (``until``, up to 5 s: a page may still be
    drawing the update that the heading above it already shows); else the last reading, for
    the assertion to show."""
    with contextlib.suppress(AssertionError):
        until(page, lambda: read() == want, tries=100)
    return read()


def ranking_shown(page: Any) -> list[tuple[str, str, str]]:
    rows = page.locator(".ranking-table tbody tr")
    return [
        (
            rows.nth(i).get_attribute("data-player"),
            rows.nth(i).locator("td.sum").inner_text(),
            rows.nth(i).locator("td.percent").inner_text(),
        )
        for i in range(rows.count())
    ]


def percent(p: float, lang: str) -> str:
    text = f"{p:.2f}"
    return (text.replace(".", ",") if lang == "es" else text) + "\u00a0%"


def test_three_players_through_three_rounds(new_page: Any, server: Any, shot: Any) -> None:
    # Ana creates the room from the Duplicate page, in Spanish.
    ana = new_page(locale="es-ES")
    ana.goto("/")
    ana.locator("#lobby-duplicate-link").click()
    expect(ana.locator("#dup-create")).to_be_visible()
    ana.fill("#dup-nickname", "Ana")
    ana.fill("#dup-title", NAME)
    ana.select_option("#dup-variant", "fise")
    ana.select_option("#dup-seconds", "180")
    ana.select_option("#dup-rounds", "3")
    ana.fill("#dup-pause", str(PAUSE))
    ana.click("#dup-create")
    ana.wait_for_url(re.compile(r"/d/[0-9a-f]+$"))
    room = ana.url.rsplit("/", 1)[1]
    title = ana.locator("h1.room-title")
    expect(title).to_have_text(NAME)
    expect(title.locator("b")).to_have_count(0)
    expect(ana.locator("#dup-start")).to_be_visible()

    # Luis joins by the link on a phone; Eva through the API.
    luis = new_page(width=390, height=844, phone=True)
    luis.goto(f"/d/{room}")
    luis.fill("#dup-join-nickname", "Luis")
    luis.click("#dup-join")
    expect(luis.locator('.dup-player-list li[data-player="Luis"] .tag.you')).to_be_visible()
    eva = Eva(server.base, room)
    expect(ana.locator(".dup-player-list li")).to_have_count(3)
    lobby = new_page()
    lobby.goto("/")
    card = lobby.locator(f'.lobby-duplicate .duplicate-card[data-room="{room}"]')
    expect(card.locator(".room-name")).to_have_text(NAME)
    shot(ana, "duplicate-waiting-laptop")

    ana.click("#dup-start")
    try:
        for n in (1, 2, 3):
            play_a_round(n, ana, luis, eva, shot)
            if n == 1:  # Ana opens round 2 at once; round 3 opens after the pause
                ana.click("#dup-next")
        final = eva.view()
    finally:
        eva.close()

    # The end: the final ranking on both pages, as the API says, and the record.
    assert final["state"] == "over" and final["end_reason"] == "rounds"
    expect(ana.locator("#dup-ranking-h")).to_have_text("Clasificación final")
    expect(luis.locator("#dup-ranking-h")).to_have_text("Final ranking")
    standings = [(s["name"], str(s["total"])) for s in final["standings"]]
    totals = settled(ana, lambda: [(p, total) for p, total, _ in ranking_shown(ana)], standings)
    assert totals == standings
    for page, lang in ((luis, "en"), (ana, "es")):
        want = [percent(s["percent"], lang) for s in final["standings"]]
        shown = settled(page, lambda page=page: [pc for _, _, pc in ranking_shown(page)], want)
        assert shown == want
    gcg = ana.locator("#dup-gcg")
    expect(gcg).to_be_visible()
    record = read_duplicate_gcg(httpx2.get(server.base + gcg.get_attribute("href")).text)
    assert sorted(record.totals.values()) == sorted(s["total"] for s in final["standings"])
    news = ana.get_by_role("log", name="Noticias de la sala")
    expect(news.locator("p").last).to_contain_text("La partida ha terminado.")
    shot(ana, "duplicate-final-laptop")
    luis.locator("#dup-ranking").scroll_into_view_if_needed()
    shot(luis, "duplicate-final-phone")
    assert luis.evaluate("document.documentElement.scrollWidth") <= 390
    assert unnamed_controls(ana) == []
    assert unnamed_controls(luis) == []


def play_a_round(n: int, ana: Any, luis: Any, eva: Eva, shot: Any) -> None:
    # The round opens (round 3 after the pause): the rack appears on both pages.
    for page in (ana, luis):
        expect(page.locator(".rack-area:not([hidden]) .rack-tile")).to_have_count(
            7, timeout=PAUSE * 2000
        )
    expect(ana.locator(".round-line")).to_have_text(f"Ronda {n} de 3")
    view = eva.view()
    assert view["round"] == n and view["phase"] == "open"
    best = moves(view)
    # Ana plays the best move she can place without a blank; Luis another; Eva a third.
    # (round 3: one she can type, one key a tile, if the rack has one)
    usable = moves(view, blank=False)
    typable = [m for m in usable if typable_letters([t["letter"] for t in m[2]])]
    ana_move = (typable if n == 3 and typable else usable)[0]
    luis_move = next(m for m in best if m[0] != ana_move[0])
    eva_move = (
        "8H ZZZ" if n == 1 else next(m for m in best if m[0] not in (ana_move[0], luis_move[0]))[0]
    )

    if n == 1:
        # The board is a grid of named squares, the rack's tiles say their points.
        grid = ana.get_by_role("grid", name="Tablero")
        expect(grid.get_by_role("gridcell")).to_have_count(225)
        letter = view["rack"][0]
        name = "comodín" if letter == "?" else f"{letter}, "
        expect(
            ana.get_by_role("group", name="Tu atril").get_by_role("button").first
        ).to_have_attribute("aria-label", re.compile(f"^{re.escape(name)}"))
    keyboard = n == 3 and typable_letters([t["letter"] for t in ana_move[2]])
    if keyboard:  # round 3: Ana types her move with the keys
        type_move(ana, ana_move[0], ana_move[2])
    else:
        place(ana, ana_move[2])
    expect(ana.locator(".preview .preview-score")).to_have_text(str(ana_move[1]))
    if n == 1:
        shot(ana, "duplicate-round-laptop")
    if keyboard:
        ana.keyboard.press("Enter")
    else:
        ana.click("#dup-submit")
    expect(ana.locator(".your-move code")).to_have_text(ana_move[0])
    # Luis sees that Ana has a move in, never which.
    expect(luis.locator('.ranking-table tr[data-player="Ana"] .in-mark')).to_be_visible()
    assert not shows(luis, ana_move[0])
    luis.fill("#dup-notation", luis_move[0])
    expect(luis.locator(".preview .preview-score")).to_have_text(str(luis_move[1]))
    if n == 1:
        shot(luis, "duplicate-round-phone")
    luis.locator("#dup-notation").press("Enter")
    expect(luis.locator(".your-move code")).to_have_text(luis_move[0])
    assert not shows(luis, ana_move[0]) and not shows(ana, luis_move[0])
    before = [m for m in eva.received if m.get("type") == "state"]
    assert before and all(
        json.dumps(ana_move[0]) not in json.dumps(m)
        and json.dumps(luis_move[0]) not in json.dumps(m)
        for m in before
    )
    eva.submit(n, eva_move)

    # Everyone is in: the round closes, and both pages show it as the API does, and say it.
    closed = eva.view()
    last = closed["last"]
    assert last["round"] == n and last["closed_by"] == "all"
    expect(ana.locator("#dup-results-h")).to_have_text(f"Ronda {n}: resultados")
    expect(luis.locator("#dup-results-h")).to_have_text(f"Round {n}: the results")
    expected = {p["player"]: (p["move"], str(p["points"])) for p in last["plays"]}
    assert expected["Ana"] == (ana_move[0], str(ana_move[1]))
    for page, nothing in ((ana, "nada"), (luis, "nothing")):
        want = {k: (nothing if m == "-" else m, pts) for k, (m, pts) in expected.items()}
        assert settled(page, lambda page=page: plays_shown(page), want) == want
        expect(page.locator(".top-line .top-move")).to_have_text(last["top"]["move"])
        # The top drawn on the board of the round, its tiles ringed.
        expect(page.locator(".board .sq.shown")).to_have_count(len(last["top"]["tiles"]))
    news = luis.get_by_role("log", name="Room news").locator("p")
    expect(
        news.filter(has_text=f"Round {n} is over. The top: {last['top']['move']}")
    ).to_have_count(1)
    want = [(s["name"], str(s["total"])) for s in closed["standings"]]
    assert settled(luis, lambda: [(p, total) for p, total, _ in ranking_shown(luis)], want) == want
    if n == 2:
        # Luis looks at Ana's move on his board, then at the engine's second best.
        luis.locator('.plays-table tr[data-player="Ana"] .show-move').click()
        expect(luis.locator(".board-note")).to_contain_text(ana_move[0])
        expect(luis.locator(".board .sq.shown")).to_have_count(len(ana_move[2]))
        shot(luis, "duplicate-results-phone")
        shot(ana, "duplicate-results-laptop")
    if n < 3:
        expect(ana.locator(".round-line")).to_have_text(f"Ronda {n + 1} de 3")
