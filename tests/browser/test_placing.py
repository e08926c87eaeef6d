"""Placing tiles at a table: the blank and its letter, and moves the rules refuse.

One person plays in the browser; the second seat is taken through the API (its player passes
if the game gives it the first turn), so each test starts on the page player's turn.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .ui import (
    action,
    create_table,
    drag,
    history_rows,
    preview_verdict,
    rack,
    rack_tile,
    square,
    touch_drag,
    type_letters,
    wait_my_turn,
)


def seat_opponent(server: Any, table: str, page: Any) -> str:
    """Sit "Bea" at seat 2 through the API and make sure the page's player moves first."""
    token = server.sit(table, 1, "Bea")
    view = server.table(table, token)
    assert view["state"] == "playing"
    if view["to_move"] == 1:
        server.move(table, token, {"kind": "pass"})
    wait_my_turn(page)
    return token


def blank_letter(page: Any, name: str) -> Any:
    return square(page, name).locator(".tile.blank .letter")


def test_a_blank_is_placed_and_its_letter_chosen(new_page: Any, server: Any, shot: Any) -> None:
    page = new_page()
    table = create_table(page, upload="blanks.toml", nickname="Ana", hints=True)
    seat_opponent(server, table, page)
    assert rack(page).count("?") >= 2  # eight blanks and one A: at least two on any rack of three
    picker = page.locator("dialog.blank-picker")

    # Dragged onto the board, a blank asks for its letter.
    drag(page, rack_tile(page, "?"), square(page, "E5"))
    expect(picker).to_be_visible()
    letters = server.call("GET", f"/api/variants/{server.table(table)['variant']}")["letters"]
    assert "Ñ" in letters and "CH" in letters
    expect(picker.locator("[data-letter]")).to_have_text(letters)
    shot(page, "blank-picker")
    picker.locator('[data-letter="Ñ"]').click()
    expect(picker).to_be_hidden()
    expect(blank_letter(page, "E5")).to_have_text("Ñ")
    expect(square(page, "E5")).to_have_attribute("aria-label", re.compile(r"^E5, blank as Ñ"))

    # A double-click changes it.
    square(page, "E5").dblclick()
    expect(picker.locator(".current")).to_have_text("Ñ")
    picker.locator('[data-letter="O"]').click()
    expect(blank_letter(page, "E5")).to_have_text("O")

    # Typing a letter the rack lacks uses a blank for it.
    square(page, "F5").click()
    type_letters(page, "ñ")  # the Ñ key of a Spanish keyboard
    expect(blank_letter(page, "F5")).to_have_text("Ñ")
    page.keyboard.press("Backspace")
    expect(square(page, "F5").locator(".tile")).to_have_count(0)
    page.keyboard.type("s")
    expect(blank_letter(page, "F5")).to_have_text("S")
    expect(preview_verdict(page)).to_have_class(re.compile(r"\blegal\b"))
    expect(page.locator(".preview .notation")).to_have_text("5E os")
    # This table allows dictionary hints (and its rule file has no dictionary: every word is in).
    expect(page.locator(".preview .dict.ok")).to_have_text("Every word is in the dictionary.")

    # Taken back to the rack, a blank forgets its letter: placed again, it asks again.
    blanks_on_rack = rack(page).count("?")
    drag(page, square(page, "F5"), page.locator(".rack"))
    expect(square(page, "F5").locator(".tile")).to_have_count(0)
    assert rack(page).count("?") == blanks_on_rack + 1
    expect(page.locator('.rack [data-letter="?"] .letter').first).to_have_text("")
    rack_tile(page, "?").click()
    square(page, "F5").click()
    expect(picker).to_be_visible()
    expect(picker.locator(".current")).to_have_count(0)
    picker.locator('[data-letter="A"]').click()
    expect(page.locator(".preview .notation")).to_have_text("5E oa")
    score = page.locator(".preview-score").inner_text()
    action(page, "move").click()

    expect(history_rows(page).last.locator(".mv")).to_have_text("5E oa")
    expect(history_rows(page).last.locator(".pts")).to_have_text(score)
    expect(blank_letter(page, "E5")).to_have_text("O")
    expect(blank_letter(page, "F5")).to_have_text("A")
    assert server.table(table)["board"][4][4] == {"letter": "O", "blank": True}


def test_an_illegal_move_shows_its_reason(new_page: Any, server: Any, shot: Any) -> None:
    page = new_page()
    table = create_table(page, upload="mini.toml", nickname="Ana")
    seat_opponent(server, table, page)
    before = server.table(table)

    # Not on the start square: the preview says why, and so does the server if played anyway.
    first, second = rack(page)[:2]
    rack_tile(page, first).click()
    square(page, "A1").click()
    rack_tile(page, second).click()
    square(page, "B1").click()
    verdict = preview_verdict(page)
    expect(verdict).to_have_class(re.compile(r"\billegal\b"))
    expect(verdict).to_contain_text("the first word must cover E5")
    expect(page.locator(".score-badge")).to_have_count(0)
    action(page, "move").click()
    expect(page.locator(".play-area .message")).to_contain_text("the first word must cover E5")
    after = server.table(table)
    assert (after["seq"], after["board"], after["history"]) == (
        before["seq"],
        before["board"],
        before["history"],
    )
    shot(page, "illegal-start-square")

    # Escape takes the tiles back; with a gap between them, the reason names the empty square.
    page.keyboard.press("Escape")
    expect(page.locator(".sq.tentative")).to_have_count(0)
    rack_tile(page, first).click()
    square(page, "E5").click()
    rack_tile(page, second).click()
    square(page, "G5").click()
    expect(verdict).to_contain_text("F5 is left empty between the tiles of the move")

    # In Spanish, the same reason in Spanish (the options dialog changes the language).
    page.locator("#options-button").click()
    page.select_option("#opt-lang", "es")
    page.get_by_role("button", name="Cerrar").click()
    expect(page.get_by_role("button", name="Jugar")).to_be_visible()
    expect(page.locator(".sq.tentative")).to_have_count(0)  # the page was redrawn
    rack_tile(page, first).click()
    square(page, "E5").click()
    rack_tile(page, second).click()
    square(page, "G5").click()
    expect(preview_verdict(page)).to_contain_text("Las fichas dejan un hueco.")
    shot(page, "illegal-gap-es")


def test_typing_follows_the_alphabets_digraphs(new_page: Any, server: Any) -> None:
    """C then H typed is the CH tile; Backspace takes back the last tile; Enter plays."""
    page = new_page()
    table = create_table(page, upload="digraphs.toml", nickname="Ana")
    seat_opponent(server, table, page)
    before = rack(page)
    assert before.count("CH") >= 5

    page.keyboard.press("ArrowRight")  # the cursor appears on the start square, typing across
    expect(square(page, "E5")).to_have_class(re.compile(r"\bcursor\b"))
    page.keyboard.type("chch")
    expect(square(page, "E5").locator(".letter")).to_have_text("CH")
    expect(square(page, "F5").locator(".letter")).to_have_text("CH")
    assert sorted(rack(page)) == sorted(_without(before, "CH", 2))  # the C tiles stay
    expect(square(page, "G5")).to_have_class(re.compile(r"\bcursor\b"))

    page.keyboard.press("Backspace")
    expect(square(page, "F5").locator(".tile")).to_have_count(0)
    expect(square(page, "F5")).to_have_class(re.compile(r"\bcursor\b"))
    page.keyboard.press("ArrowLeft")  # to E5
    page.keyboard.press("ArrowDown")  # to E6, and now typing goes down
    expect(square(page, "E6")).to_have_class(re.compile(r"(?=.*\bcursor\b)(?=.*\bdown\b)"))
    page.keyboard.type("ch")
    expect(square(page, "E6").locator(".letter")).to_have_text("CH")
    expect(preview_verdict(page)).to_have_class(re.compile(r"\blegal\b"))
    expect(page.locator(".preview .notation")).to_have_text("E5 [CH][CH]")
    page.keyboard.press("Enter")
    expect(history_rows(page).last.locator(".mv")).to_have_text("E5 [CH][CH]")
    assert server.table(table)["board"][5][4] == {"letter": "CH", "blank": False}


def _without(tiles: list[str], tile: str, n: int) -> list[str]:
    out = list(tiles)
    for _ in range(n):
        out.remove(tile)
    return out


def test_pass_challenge_and_cambio_buttons(new_page: Any, server: Any, shot: Any) -> None:
    """The buttons a game has: Pass (confirmed), Challenge (Bisonte) and CAMBIO (Crucigrama)."""
    page = new_page()
    table = create_table(page, upload="cambio.toml", nickname="Ana")
    token = server.sit(table, 1, "Bea")
    expect(action(page, "cambio")).to_be_visible()
    expect(action(page, "challenge")).to_be_disabled()

    def bea(move: dict[str, Any]) -> None:
        server.move(table, token, move)

    if server.table(table, token)["to_move"] == 0:  # Ana passes, so that Bea plays first
        wait_my_turn(page)
        action(page, "pass").click()
        page.locator("dialog.confirm button.primary").click()
        expect(history_rows(page).last.locator(".mv")).to_have_text("pass")
    bea_rack = server.table(table, token)["you"]["rack"]
    tiles = [
        {"square": sq, "letter": letter, "blank": False}
        for sq, letter in zip(["E5", "F5"], bea_rack[:2], strict=True)
    ]
    bea({"kind": "place", "tiles": tiles})

    # Ana challenges Bea's word; with no dictionary every word is valid, so she loses a turn.
    expect(action(page, "challenge")).to_be_enabled()
    action(page, "challenge").click()
    page.locator("dialog.confirm button.primary").click()
    expect(page.locator(".history tr.kind-challenge_failed")).to_have_count(1)
    expect(action(page, "challenge")).to_be_disabled()
    bea({"kind": "pass"})

    # CAMBIO: Ana replaces the letter on E5 with a different tile from her rack.
    wait_my_turn(page)
    old = bea_rack[0]
    ana_rack = rack(page)
    new = next(t for t in ana_rack if t != old)
    action(page, "cambio").click()
    expect(page.locator(".preview .hint")).to_contain_text("CAMBIO")
    square(page, "E5").click()
    rack_tile(page, new).click()
    expect(preview_verdict(page)).to_have_class(re.compile(r"\blegal\b"))
    expect(action(page, "move")).to_have_text("Play CAMBIO")
    shot(page, "cambio-preview")
    action(page, "move").click()
    expect(page.locator(".history tr.kind-cambio")).to_have_count(1)
    expect(square(page, "E5").locator(".letter")).to_have_text(new)
    expect(page.locator(".preview .dict")).to_have_count(0)  # no dictionary hints at this table
    # The replaced tile comes to Ana's rack (Crucigrama's rule), in place of the one she used.
    expect(page.locator(".rack .rack-tile")).to_have_count(7)
    assert sorted(rack(page)) == sorted([*_without(ana_rack, new, 1), old])

    # Exchange: pick two tiles in the dialog; they go back to the bag, two others come.
    bea({"kind": "pass"})
    wait_my_turn(page)
    bag = page.locator(".bag-count").inner_text()
    action(page, "exchange").click()
    dialog = page.locator("dialog.exchange-picker")
    expect(dialog.locator("button.primary")).to_be_disabled()
    dialog.locator(".exchange-tile").nth(0).click()
    dialog.locator(".exchange-tile").nth(1).click()
    expect(dialog.locator(".exchange-count")).to_have_text("2 chosen (at most 7)")
    shot(page, "exchange-dialog")
    dialog.locator("button.primary").click()
    expect(page.locator(".history tr.kind-exchanged .mv")).to_have_text("exchanged 2 tiles")
    expect(page.locator(".bag-count")).to_have_text(bag)


def test_tiles_drag_with_a_finger_on_a_phone(new_page: Any, server: Any, shot: Any) -> None:
    """On a narrow touch screen: drag two tiles to the board with a finger, and one back."""
    page = new_page(locale="ro-RO", width=390, height=844, phone=True)
    table = create_table(page, upload="mini.toml", nickname="Ana")
    seat_opponent(server, table, page)
    tiles = rack(page)
    touch_drag(page, page.locator(".rack .rack-tile").nth(0), square(page, "E5"))
    touch_drag(page, page.locator(".rack .rack-tile").nth(0), square(page, "F5"))
    expect(square(page, "F5").locator(".letter")).to_have_text(tiles[1])
    expect(preview_verdict(page)).to_have_class(re.compile(r"\blegal\b"))
    shot(page, "phone-preview")
    touch_drag(page, square(page, "F5"), page.locator(".rack"))
    expect(page.locator(".rack .rack-tile")).to_have_count(2)
    expect(square(page, "F5").locator(".tile")).to_have_count(0)
    expect(square(page, "E5").locator(".letter")).to_have_text(tiles[0])
