"""A club's own words from the lobby form: the folded "Club words" section sends the words
added and banned with the new table; a word the game cannot spell is refused next to its list
and no table is made; at the table, "About this game" says which dictionary and lists the
words (as text: a word is never markup)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .ui import element_shot

PHONE = (390, 844)


def fill_form(page: Any, added: str, removed: str) -> None:
    page.goto("/")
    page.select_option("#variant", "fise")
    page.locator("#club-words > summary").click()
    page.fill("#words-added", added)
    page.fill("#words-removed", removed)
    if page.locator("#create-nickname").count():
        page.fill("#create-nickname", "Ana")


def test_club_words_from_the_form_to_the_about_panel(
    new_page: Any, shot: Any, artifacts: Path
) -> None:
    page = new_page(width=1366, height=768)
    fill_form(page, "tuit, wifi\nfriki", "<b>x</b>")
    page.click("#create-table")
    # The bad word is named next to its list; the page stays on the lobby.
    error = page.locator("#words-removed-error")
    expect(error).to_contain_text("<b>x</b>")
    expect(page.locator("#words-removed")).to_have_attribute("aria-invalid", "true")
    assert "/t/" not in page.url
    element_shot(page.locator(".club-words"), artifacts / "club-words-form-1366x768.png")

    page.fill("#words-removed", "casa")
    page.click("#create-table")
    # The first table with these words builds its dictionary (seconds): said while it waits.
    expect(page.locator(".create-form .message")).to_contain_text(
        re.compile("Preparing the dictionary|Creating")
    )
    page.wait_for_url(re.compile(r"/t/"), timeout=90_000)
    about = page.locator(".about-panel")
    expect(about.locator(".about-dictionary")).to_have_text(
        "Dictionary: es, with the club's words: +3, \u22121"
    )
    expect(about.locator(".club-word-list.added .club-word-items")).to_have_text(
        "FRIKI, TUIT, WIFI"
    )
    expect(about.locator(".club-word-list.removed .club-word-items")).to_have_text("CASA")
    element_shot(about, artifacts / "club-words-about-1366x768.png")
    shot(page, "club-words-table-1366x768")
    table_url = page.url

    # A phone: the form's section and the panel (folded there; opened to look).
    phone = new_page(width=PHONE[0], height=PHONE[1], phone=True)
    fill_form(phone, "tuit wifi friki", "casa")
    element_shot(phone.locator(".club-words"), artifacts / "club-words-form-390x844.png")
    phone.goto(table_url)
    about = phone.locator(".about-panel")
    about.locator("summary").click()
    expect(about.locator(".about-dictionary")).to_be_visible()
    element_shot(about, artifacts / "club-words-about-390x844.png")


def test_spanish_page_names_the_refused_word(new_page: Any) -> None:
    page = new_page(locale="es-ES", width=1366, height=768)
    fill_form(page, "wi-fi", "")
    page.click("#create-table")
    expect(page.locator("#words-added-error")).to_have_text(
        "«wi-fi» no puede ser una palabra de este juego: revisa sus letras."
    )


def test_the_moves_list_says_why_the_first_player_starts(
    new_page: Any, server: Any, artifacts: Path
) -> None:
    """Intelect: the rack with the letter nearest the end of the alphabet starts."""
    created = server.call(
        "POST", "/api/tables", {"variant": "intelect", "seats": [{"kind": "open"}] * 2}
    )
    table = created["id"]
    server.sit(table, 0, "Ana <i>")
    server.sit(table, 1, "Luis")
    view = server.table(table)
    starter = ["Ana <i>", "Luis"][view["start"]["first"]]
    page = new_page(width=1366, height=768)
    page.goto(f"/t/{table}")
    line = page.locator(".history .start-line")
    expect(line).to_contain_text(
        f"{starter} starts: the letter on their rack nearest the end of the alphabet is"
    )
    # The whole window: the moves list is redrawn as views arrive, so the line's element may
    # be replaced between the check and an element screenshot.
    page.screenshot(path=str(artifacts / "start-line-intelect-1366x768.png"))
