"""Correspondence games in the browser: a time control of N days for each move.

The new-table form and the seek form offer "1 day a move" … "14 days a move" after the minute
choices; the lobby's cards, the seek cards and the table's header say "2 days a move"; the
players' clocks read days and hours ("1 d 23 h"), and every turn starts again with the whole
time ("2 d 00 h" on the clock of whoever just played); My games says how long the player to
move has left. Screenshots of a correspondence table and of the lobby, wide and on a phone.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .ui import (
    PASSWORD,
    action,
    create_table,
    is_my_turn,
    new_name,
    sign_up,
    table_id,
    until,
    wait_my_turn,
)

DAY = 86_400


def clock_texts(page: Any, seconds: list[float], coarse: bool = False) -> list[str]:
    """The per-move clock's text for each number of seconds, in the page's language."""
    page.goto("/")
    expect(page.locator("#app h1").first).to_be_visible()  # the strings are loaded
    return list(
        page.evaluate(
            """async ([seconds, coarse]) => {
                 const m = await import('/static/js/clock.js');
                 return seconds.map((s) => m.formatPerMove(s, {coarse}));
               }""",
            [seconds, coarse],
        )
    )


def test_the_per_move_clock_reads_days_hours_then_minutes(new_page: Any) -> None:
    seconds = [2 * DAY, 2 * DAY - 3, DAY + 5 * 3600 + 59, 14 * DAY, 5 * 3600 + 7 * 60 + 30]
    seconds += [3600, 3599.5, 754.2, 0.4, -23]
    assert clock_texts(new_page(), seconds) == [
        "2 d 00 h",
        "1 d 23 h",
        "1 d 05 h",
        "14 d 00 h",
        "5 h 07 min",
        "1 h 00 min",
        "1 h 00 min",  # 3599.5 s still shows the whole second, as a chess clock does
        "12:35",
        "0:01",
        "\u22120:23",
    ]
    # In lists refreshed every few seconds (My games), minutes in the last hour.
    assert clock_texts(new_page(), [754.2, 59, DAY], coarse=True) == [
        "13 min",
        "1 min",
        "1 d 00 h",
    ]
    # Romanian says the days in words, with its plural forms: 1 zi, 2–19 zile, 20 de zile.
    assert clock_texts(new_page(locale="ro-RO"), [DAY + 3600, 2 * DAY, 14 * DAY, 20 * DAY]) == [
        "1 zi 01 h",
        "2 zile 00 h",
        "14 zile 00 h",
        "20 de zile 00 h",
    ]
    assert clock_texts(new_page(locale="es-ES"), [2 * DAY - 3, 3600 + 60]) == [
        "1 d 23 h",
        "1 h 01 min",
    ]


def test_a_correspondence_table_from_the_form_and_its_clocks(
    new_page: Any, server: Any, shot: Any
) -> None:
    ana = new_page(width=1366, height=900)
    ana.goto("/")
    # The time-control choices: minutes each, then days a move (with a word on what that means).
    expect(ana.locator('#clock option[value="60"]')).to_have_text("60 min each")
    days = ana.locator("#clock optgroup")
    expect(days).to_have_attribute("label", "Correspondence")
    expect(days.locator("option")).to_have_text(
        ["1 day a move", "2 days a move", "3 days a move", "7 days a move", "14 days a move"]
    )
    expect(ana.locator("#clock-help")).to_be_hidden()
    ana.select_option("#clock", "d14")
    expect(ana.locator("#clock-help")).to_have_text(
        "Every turn starts with the whole time. A turn not played in time is lost, "
        "and the game goes on."
    )
    expect(ana.locator("#clock")).to_have_attribute("aria-describedby", "clock-help")

    table = create_table(ana, upload="mini.toml", clock="d2", nickname="Ana", title="Slow Sunday")
    view = server.table(table)
    assert view["clock"] == {"initial_seconds": 2 * DAY, "on_timeout": "skip", "per_move": True}
    expect(ana.locator(".table-subtitle")).to_have_text("Mini (test) · 9×9 · 2 days a move")
    # Waiting for the second player: every clock shows the whole time.
    expect(ana.locator(".seat .clock")).to_have_text(["2 d 00 h", "2 d 00 h"])

    # The lobby's card says it too (in Romanian: the plural "zile").
    ro = new_page(locale="ro-RO")
    ro.goto("/")
    card = ro.locator(f'.card[data-table="{table}"]')
    expect(card.locator(".card-meta")).to_have_text("2 zile pe mutare")

    luis = new_page(width=390, height=844, phone=True)
    luis.goto(f"/t/{table}")
    luis.fill("#nickname", "Luis")
    luis.locator("[data-sit]").first.click()
    expect(luis.locator(".seat.is-you .nick")).to_have_text("Luis")
    until(ana, lambda: is_my_turn(ana) or is_my_turn(luis))
    mover, other = (ana, luis) if is_my_turn(ana) else (luis, ana)
    for page in (ana, luis):
        running = page.locator(".seat.to-move .clock")
        expect(running).to_have_class(re.compile(r"\brunning\b"))
        # Two days less the seconds since the turn began.
        expect(running).to_have_text("1 d 23 h")
        waiting = page.locator(".seat:not(.to-move) .clock")
        expect(waiting).to_have_text("2 d 00 h")
        expect(waiting).not_to_have_class(re.compile(r"\brunning\b"))
    shot(ana, "correspondence-table-wide")
    shot(luis, "correspondence-table-phone")

    # The clock keeps its width whatever it reads (no jump as the text changes format).
    widths = mover.locator(".seat.to-move .clock").evaluate(
        """(el) => ["59:59", "5 h 07 min", "23 h 59 min", "1 d 23 h", "14 d 00 h"].map((text) => {
             el.textContent = text;
             return el.getBoundingClientRect().width;
           })"""
    )
    assert len(set(widths)) == 1, widths

    # A pass: the next turn is the other player's, and the passer's clock is whole again.
    passer = mover.locator(".seat.is-you")
    action(mover, "pass").click()
    mover.locator('dialog.confirm [data-confirm="yes"]').click()
    wait_my_turn(other)
    for page in (ana, luis):
        expect(page.locator(".history tbody tr")).to_have_count(1)
    expect(passer.locator(".clock")).to_have_text("2 d 00 h")
    expect(passer.locator(".clock")).not_to_have_class(re.compile(r"\brunning\b"))
    expect(other.locator(".seat.is-you .clock")).to_have_class(re.compile(r"\brunning\b"))
    expect(other.locator(".seat.is-you .clock")).to_have_text("1 d 23 h")
    # In the last hour the clock shows minutes and seconds, as a game clock does.
    seconds = mover.evaluate(
        """async () => (await import('/static/js/clock.js')).formatPerMove(59 * 60 + 1)"""
    )
    assert seconds == "59:01"


def test_a_correspondence_seek_and_my_games(new_page: Any, server: Any, shot: Any) -> None:
    ana_name, luis_name = new_name("ana"), new_name("luis")
    ana = new_page(width=1366, height=900)
    ana.goto("/")
    sign_up(ana, ana_name, PASSWORD)
    ana.select_option("#seek-variant", "cuvinte")
    ana.select_option("#seek-seats", "2")
    ana.select_option("#seek-clock", "d3")
    expect(ana.locator("#seek-clock-help")).to_be_visible()
    shot(ana, "correspondence-seek-form")
    ana.click("#seek-offer")
    mine = ana.locator(".seek.mine")
    expect(mine).to_have_count(1)
    seek = mine.get_attribute("data-seek")
    offered = server.call("GET", f"/api/seeks/{seek}")
    assert (offered["days_per_move"], offered["clock_minutes"]) == (3, None)
    expect(mine.locator(".seek-meta")).to_have_text("2 players · 3 days a move")

    # Others see it on the lobby's card, in their language.
    guest = new_page(locale="es-ES")
    guest.goto("/")
    expect(guest.locator(f'.seek[data-seek="{seek}"] .seek-meta')).to_have_text(
        "2 jugadores · 3 días por jugada"
    )

    luis = new_page(width=390, height=844, phone=True)
    luis.goto("/")
    sign_up(luis, luis_name, PASSWORD)
    shot(luis, "correspondence-lobby-phone-seek")
    luis.locator(f'.seek[data-seek="{seek}"] [data-action="accept"]').click()
    luis.wait_for_url(re.compile(r"/t/[^/]+$"), timeout=90_000)  # the first Romanian game loads
    table = table_id(luis)
    ana.wait_for_url(re.compile(f"/t/{table}$"))
    expect(ana.locator(".table-subtitle")).to_contain_text("3 days a move")
    expect(ana.locator(".seat.to-move .clock")).to_have_text("2 d 23 h")

    # My games: whose turn, and how long they have to move.
    view = server.table(table)
    seeker_moves = view["seats"][view["to_move"]]["nickname"] == ana_name
    for page in (ana, luis):
        page.goto("/")
    mover, other = (ana, luis) if seeker_moves else (luis, ana)
    mover_name = ana_name if seeker_moves else luis_name
    item = mover.locator(f'.mine-item[data-table="{table}"]')
    expect(item.locator(".badge")).to_have_text("Your turn")
    expect(item.locator(".mine-left")).to_have_text("2 d 23 h left")
    theirs = other.locator(f'.mine-item[data-table="{table}"]')
    expect(theirs.locator(".badge")).to_have_text(f"{mover_name} to move")
    expect(theirs.locator(".mine-left")).to_have_text("2 d 23 h left")
    expect(ana.locator(".lobby-tables")).to_be_visible()
    shot(ana, "correspondence-lobby-wide")
    shot(luis, "correspondence-lobby-phone")
