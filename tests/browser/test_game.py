"""Two people play a whole game in two browser pages, each with its own way of placing tiles.

The game is the tiny ``mini`` rule file (tests/browser/data/mini.toml), uploaded through the
lobby: a 9×9 board, racks of three, nine tiles and no dictionary, so three moves end it
whatever tiles are drawn — the first player goes out and the end-of-game adjustments apply.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .ui import (
    action,
    create_table,
    drag,
    history_rows,
    is_my_turn,
    preview_verdict,
    rack,
    rack_tile,
    sit_from_lobby,
    square,
    type_letters,
    wait_my_turn,
)

VALUES = {"A": 1, "E": 1, "O": 1, "S": 2, "T": 3, "M": 5}
"""The tile values of mini.toml."""

NASTY = "<img src=x onerror=1>Ana"
"""A nickname that would run script if the page ever put user text into HTML."""


class CuttableLink:
    """The page's WebSocket, routed through Playwright so a test can drop it like a bad network.

    While cut, the page's reconnection attempts are refused; once restored, the next attempt
    of its backoff gets through.
    """

    def __init__(self, page: Any) -> None:
        self.open: list[Any] = []
        self.down = False
        page.route_web_socket(re.compile(r"/ws/tables/"), self.handle)

    def handle(self, ws: Any) -> None:
        if self.down:
            ws.close(code=4000, reason="test: network down")
            return
        ws.connect_to_server()
        self.open.append(ws)

    def cut(self) -> None:
        self.down = True
        for ws in self.open:
            ws.close(code=4000, reason="test: network down")
        self.open.clear()

    def restore(self) -> None:
        self.down = False


def letters_on(page: Any, names: list[str]) -> list[str]:
    return [square(page, n).locator(".tile .letter").inner_text() for n in names]


def test_two_people_play_a_whole_game(new_page: Any, shot: Any, server: Any) -> None:
    ana = new_page()
    table = create_table(ana, upload="mini.toml", nickname=NASTY, title="Partida de prueba")
    expect(ana.locator(".sit-panel")).to_be_hidden()  # she sat down when creating the table
    luis = new_page(locale="es-ES")
    luis.goto("/")
    card = luis.locator(f'.card[data-table="{table}"]')
    expect(card.locator(".badge")).to_have_text("Esperando jugadores")
    expect(card.locator(".chip")).to_have_text([NASTY, "Asiento libre"])
    shot(luis, "lobby-es")
    sit_from_lobby(luis, table, "Luis")
    watcher = new_page()
    link = CuttableLink(watcher)
    watcher.goto(f"/t/{table}")

    # The game starts for everyone at once; the nickname is shown as typed, never as markup.
    for page in (ana, luis):
        expect(page.locator(".rack .rack-tile")).to_have_count(3)
    expect(watcher.locator(".rack-area")).to_be_hidden()
    expect(luis.locator(".seat .nick").first).to_have_text(NASTY)
    assert luis.locator(".seats img").count() == 0
    expect(luis.locator(".table-subtitle")).to_contain_text("Mini (test)")
    expect(luis.locator(".bag-count")).to_have_text("Bolsa: 3 fichas")

    first, second = (ana, luis) if is_my_turn(ana) else (luis, ana)
    wait_my_turn(first)
    expect(action(second, "move")).to_be_disabled()

    # Move 1, by keyboard: click the start square, type the rack, Enter.
    tiles1 = rack(first)
    square(first, "E5").click()
    type_letters(first, "".join(tiles1).lower())
    expect(preview_verdict(first)).to_have_class(re.compile(r"\blegal\b"))
    score1 = int(first.locator(".preview-score").inner_text())
    expect(first.locator(".preview .dict")).to_have_count(0)  # hints are off unless allowed
    assert letters_on(first, ["E5", "F5", "G5"]) == tiles1
    first.keyboard.press("Enter")
    expect(history_rows(second)).to_have_count(1)
    assert letters_on(second, ["E5", "F5", "G5"]) == tiles1
    expect(history_rows(watcher)).to_have_count(1)
    expect(history_rows(first).first.locator(".pts")).to_have_text(str(score1))
    expect(second.locator(".bag-count")).to_contain_text("0")
    shot(second, "game-after-first-move")

    # The spectator loses the connection while the second move is made, then resumes.
    link.cut()
    expect(watcher.locator(".conn")).to_have_attribute("data-status", "offline")

    # Move 2, by drag and drop: two tiles below E5.
    wait_my_turn(second)
    tiles2 = rack(second)
    drag(second, second.locator(".rack .rack-tile").nth(0), square(second, "E6"))
    drag(second, second.locator(".rack .rack-tile").nth(0), square(second, "E7"))
    expect(second.locator(".rack .rack-tile")).to_have_count(1)
    expect(preview_verdict(second)).to_have_class(re.compile(r"\blegal\b"))
    assert letters_on(second, ["E6", "E7"]) == tiles2[:2]
    shot(second, "game-drag-preview")
    action(second, "move").click()
    expect(history_rows(first)).to_have_count(2)
    left_on_second = tiles2[2]

    link.restore()
    expect(history_rows(watcher)).to_have_count(2, timeout=20_000)
    expect(watcher.locator(".conn")).to_have_attribute("data-status", "online")

    # Move 3, by tapping: a tile, then a square; the first player goes out and the game ends.
    wait_my_turn(first)
    tiles3 = rack(first)
    for letter, where in zip(tiles3, ["D5", "H5", "I5"], strict=True):
        rack_tile(first, letter).click()
        square(first, where).click()
    expect(preview_verdict(first)).to_have_class(re.compile(r"\blegal\b"))
    action(first, "move").click()

    # Everyone sees the end: the winner, the reason and every adjustment, as the server says.
    result = server.table(table)["result"]
    for page in (ana, luis, watcher):
        expect(page.locator(".result")).to_be_visible()
    first_seat = 0 if first is ana else 1
    second_seat = 1 - first_seat
    value = VALUES[left_on_second]
    assert result["reason"] == "going_out"
    assert result["adjustments"][second_seat] == [
        {"why": "tiles left on the rack", "points": -value}
    ]
    assert result["adjustments"][first_seat] == [{"why": "the others' tiles", "points": value}]
    rows = ana.locator(".result .adjustments tbody tr")
    expect(rows.nth(first_seat).locator(".adj")).to_contain_text(f"+{value}")
    expect(rows.nth(second_seat).locator(".adj")).to_contain_text(f"\u2212{value}")
    left = rows.nth(second_seat).locator(f'.left [data-letter="{left_on_second}"]')
    expect(left).to_have_count(1)
    for seat in (0, 1):
        expect(rows.nth(seat).locator(".final")).to_have_text(str(result["final_scores"][seat]))
    expect(luis.locator(".result h2")).to_have_text("Fin de la partida")
    expect(luis.locator(".result .reason")).to_have_text(
        "Un jugador colocó todas sus fichas con la bolsa vacía."
    )
    winner = "Luis" if result["winners"] == [1] else NASTY
    expect(ana.locator(".winner-line")).to_have_text(f"{winner} wins!")
    expect(ana.locator(".actions")).to_be_hidden()
    shot(ana, "game-over")
    shot(luis, "game-over-es")

    # The game downloads as GCG with every move.
    with ana.expect_download() as download:
        ana.locator("a.gcg").click()
    gcg = Path(download.value.path()).read_text(encoding="utf-8")
    assert "#player2 Luis" in gcg or "#player1 Luis" in gcg
    for row in server.table(table)["history"]:
        assert f" +{row['score']} {row['total']}" in gcg
