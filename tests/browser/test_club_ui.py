"""The club in the browser: the replay page of a finished game (keyboard steps, the board
changing, the position as CGP), and the replay of a game still in play.

The replay uses the tiny ``mini`` rule file (every word counts), played through the API.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .ui import square


def finished_mini_game(server: Any) -> tuple[str, list[str]]:
    """A mini game through the API: one placement across E5, then a resignation. Returns the
    table and the letters placed."""
    variant = server.upload("mini.toml")
    created = server.call(
        "POST", "/api/tables", {"variant": variant, "seats": [{"kind": "open"}] * 2}
    )
    table = created["id"]
    tokens = [server.sit(table, 0, "Ana"), server.sit(table, 1, "Luis")]
    view = server.table(table, tokens[0])
    mover = view["to_move"]
    rack = server.table(table, tokens[mover])["you"]["rack"]
    server.move(table, tokens[mover], {"kind": "notation", "text": "5E " + "".join(rack)})
    server.move(table, tokens[1 - mover], {"kind": "resign"})
    return table, rack


def test_the_replay_page_steps_with_the_keyboard_and_gives_the_cgp(
    new_page: Any, server: Any, shot: Any
) -> None:
    table, letters = finished_mini_game(server)
    page = new_page()
    # A finished table links to its replay.
    page.goto(f"/t/{table}")
    page.locator("#result-replay").click()
    expect(page).to_have_url(re.compile(f"/t/{table}/replay$"))
    expect(page.locator("#replay-position")).to_have_text("Step 0 of 2")
    expect(page.locator(".board .sq .tile")).to_have_count(0)  # the start: an empty board
    expect(page.locator(".replay-seat .replay-rack").first.locator(".mini-tile")).to_have_count(3)
    expect(page.locator("#replay-first")).to_be_disabled()

    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_have_text("Step 1 of 2")
    expect(page.locator(".board .sq .tile")).to_have_count(3)
    for i, sq in enumerate(("E5", "F5", "G5")):
        expect(square(page, sq).locator(".letter")).to_have_text(letters[i])
    expect(square(page, "E5")).to_have_class(re.compile(r"\blast\b"))
    expect(page.locator(".replay-step tbody tr")).to_have_count(1)
    expect(page.locator('.replay-step-button[aria-current="step"]')).to_contain_text("5E")
    page.keyboard.press("End")
    expect(page.locator("#replay-position")).to_have_text("Step 2 of 2")
    expect(page.locator(".replay-step")).to_contain_text("resigned")
    expect(page.locator(".replay-final .reason")).to_have_text("Every other player resigned.")
    expect(page.locator("#replay-forward")).to_be_disabled()
    page.keyboard.press("Home")
    expect(page.locator(".board .sq .tile")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(page.locator(".board .sq .tile")).to_have_count(3)
    # The list of steps jumps too.
    page.locator('.replay-step-button[data-step="2"]').click()
    expect(page.locator("#replay-position")).to_have_text("Step 2 of 2")
    page.locator("#replay-back").click()
    expect(page.locator("#replay-position")).to_have_text("Step 1 of 2")

    # Copy CGP: the position after step 1, shown in a field whether or not the clipboard took it.
    page.click("#copy-cgp")
    field = page.locator("#cgp-text")
    expect(field).to_be_visible()
    expect(field).to_have_value(re.compile(r"\S"))
    cgp = field.input_value()
    board = cgp.split(" ")[0]
    assert board.count("/") == 8, cgp  # nine rows
    assert board.split("/")[4].startswith("4" + "".join(letters)), cgp  # row 5: E5 F5 G5
    shot(page, "club-replay")
    # The GCG link is there.
    expect(page.locator("a.gcg")).to_have_attribute("href", f"/api/tables/{table}/gcg")


def test_the_replay_of_a_game_in_play_says_so(new_page: Any, server: Any) -> None:
    variant = server.upload("mini.toml")
    table = server.call(
        "POST", "/api/tables", {"variant": variant, "seats": [{"kind": "open"}] * 2}
    )["id"]
    server.sit(table, 0, "Ana")
    server.sit(table, 1, "Luis")
    page = new_page(locale="ro-RO")
    page.goto(f"/t/{table}/replay")
    expect(page.locator("h1")).to_have_text("Partida încă se joacă")
    page.get_by_role("link", name="Masa").click()
    expect(page).to_have_url(re.compile(f"/t/{table}$"))
    expect(page.locator(".board")).to_be_visible()
