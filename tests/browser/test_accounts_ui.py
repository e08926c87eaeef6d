"""Accounts in the browser: sign up, log in and out, a seat that follows the account to a second
browser, resigning, and personal options stored with the account.

Each test makes accounts of its own (the server is shared by the session). Games are the tiny
``mini`` rule file against a computer player, which can only pass there (no dictionary, and no
exchange with a small bag), so the game waits for the person.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .ui import (
    PASSWORD,
    action,
    create_table,
    history_rows,
    log_in,
    new_name,
    rack,
    sign_up,
    square,
    type_letters,
    until,
    wait_my_turn,
)


def me_status(page: Any) -> int:
    """What GET /api/me answers this page (its session cookie rides along)."""
    return int(page.evaluate("async () => (await fetch('/api/me')).status"))


def stored_seat(page: Any, table: str) -> Any:
    return page.evaluate("(id) => localStorage.getItem(`tablero.seat.${id}`)", table)


def test_an_account_plays_from_a_second_browser_and_resigns(new_page: Any, shot: Any) -> None:
    name = new_name("ana")
    ana = new_page()
    ana.goto("/")
    sign_up(ana, name, PASSWORD)

    # Logged in, the lobby asks no nickname: the account sits down under its username.
    expect(ana.locator("#create-nickname")).to_have_count(0)
    expect(ana.locator("#create-sit")).to_be_checked()
    table = create_table(ana, upload="mini.toml", seats=["open", 1])
    expect(ana.locator(".rack .rack-tile")).to_have_count(3)
    mine = ana.locator(".seat.is-you")
    expect(mine.locator(".nick")).to_have_text(name)
    expect(mine.locator(".account-mark")).to_have_count(1)
    expect(ana.locator(".seat:not(.is-you) .account-mark")).to_have_count(0)  # the computer
    assert stored_seat(ana, table)  # this browser still keeps the seat's token
    wait_my_turn(ana)  # the computer, if it starts, passes

    # Another browser, the same account: no token there, the session acts for the seat.
    other = new_page()
    sent: list[str] = []
    seated: list[bool] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda text: sent.append(text))
        ws.on("framereceived", lambda text: seated.append('"you":{' in text.replace(" ", "")))

    other.on("websocket", watch)
    other.goto("/")
    expect(other.locator("#login-button")).to_be_visible()
    log_in(other, name, PASSWORD)
    other.click("#account-button")
    other.click("#menu-my-games")
    expect(other).to_have_url(re.compile(r"/#my-games$"))
    item = other.locator(f'.mine-item[data-table="{table}"]')
    expect(item).to_have_class(re.compile(r"\byour-turn\b"))
    expect(item.locator(".badge")).to_have_text("Your turn")
    expect(item.locator(".chip.you")).to_contain_text(name)
    shot(other, "accounts-my-games")
    item.locator(".mine-link").click()
    expect(other).to_have_url(re.compile(f"/t/{table}$"))
    assert stored_seat(other, table) is None
    expect(other.locator(".rack .rack-tile")).to_have_count(3)
    expect(other.locator(".seat.is-you .nick")).to_have_text(name)
    expect(other.locator(".sit-panel")).to_be_hidden()
    # Its socket asked for the account's seat with the cookie alone, and was seated.
    until(other, lambda: any(seated))
    assert '{"type":"auth"}' in [text.replace(" ", "") for text in sent]
    assert not any("token" in text for text in sent)

    # A move from the second browser, seen by the first.
    wait_my_turn(other)
    tiles = rack(other)
    square(other, "E5").click()
    type_letters(other, "".join(tiles).lower())
    expect(other.locator(".preview .verdict")).to_have_class(re.compile(r"\blegal\b"))
    other.keyboard.press("Enter")
    played = history_rows(ana).filter(has_text=name)
    expect(played).to_have_count(1)
    expect(history_rows(other).filter(has_text=name)).to_have_count(1)

    # Resign, from the second browser; asked first, Cancel keeps playing.
    expect(action(other, "resign")).to_be_enabled()
    action(other, "resign").click()
    dialog = other.locator("dialog.confirm")
    expect(dialog).to_contain_text("At two seats your opponent wins")
    shot(other, "accounts-resign-confirm")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(other.locator(".result")).to_be_hidden()
    action(other, "resign").click()
    other.locator('dialog.confirm [data-confirm="yes"]').click()

    for page in (other, ana):
        result = page.locator(".result")
        expect(result).to_be_visible()
        expect(result.locator(".winner-line")).to_have_text("Bot 2 wins!")
        expect(result.locator(".reason")).to_have_text("Every other player resigned.")
        ranking = result.locator(".ranking li")
        expect(ranking).to_have_count(2)
        expect(ranking.nth(0)).to_contain_text("Bot 2")
        expect(ranking.nth(0)).to_have_attribute("data-place", "1")
        expect(ranking.nth(1)).to_contain_text(name)
        expect(ranking.nth(1).locator(".tag.resigned")).to_have_text("resigned")
        expect(page.locator(".seat.is-you .tag.resigned")).to_be_visible()
        last = history_rows(page).last
        expect(last).to_have_class(re.compile(r"\bkind-resigned\b"))
        expect(last.locator(".mv")).to_have_text("resigned")
        expect(action(page, "resign")).to_be_hidden()
    shot(ana, "accounts-resigned")


def test_a_logged_in_player_sits_without_a_nickname(new_page: Any, server: Any) -> None:
    guest = new_page()
    table = create_table(guest, upload="mini.toml", seats=["open", "open"], nickname="Luis")
    name = new_name("eva")
    server.call("POST", "/api/accounts", {"username": name, "password": PASSWORD})
    eva = new_page(locale="es-ES")
    eva.goto(f"/t/{table}")
    expect(eva.locator("#nickname")).to_be_visible()  # a guest is asked for one
    log_in(eva, name, PASSWORD)
    panel = eva.locator(".sit-panel")
    expect(panel).to_contain_text(name)
    expect(eva.locator("#nickname")).to_have_count(0)
    panel.locator("[data-sit]").first.click()
    expect(eva.locator(".rack .rack-tile")).to_have_count(3)
    for page in (eva, guest):
        seat = page.locator(".seat").filter(has_text=name)
        expect(seat.locator(".account-mark")).to_have_count(1)
        expect(
            page.locator(".seat").filter(has_text="Luis").locator(".account-mark")
        ).to_have_count(0)
    expect(eva.locator(".seat.is-you .tag.you")).to_have_text("tú")
    # The lobby offers the way back to the seat (the account's, whatever the browser).
    eva.goto("/")
    card = eva.locator(f'.card[data-table="{table}"]')
    expect(card.get_by_role("link", name="Volver a mi asiento")).to_be_visible()
    expect(card.locator(".account-mark")).to_have_count(1)


def test_a_wrong_password_then_logging_in_and_out(new_page: Any, server: Any) -> None:
    name = new_name("luis")
    server.call("POST", "/api/accounts", {"username": name, "password": PASSWORD})
    page = new_page()
    page.goto("/")
    page.evaluate("() => { window.__sameDocument = true; }")

    page.click("#login-button")
    dialog = page.locator("#login-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#login-dialog-username")).to_be_focused()
    page.keyboard.press("Escape")  # closes, nothing happens
    expect(dialog).to_have_count(0)

    page.click("#login-button")
    page.fill("#login-dialog-username", name)
    page.fill("#login-dialog-password", "not the password")
    page.keyboard.press("Enter")
    error = page.locator("#login-dialog-password-error")
    expect(error).to_have_text("Wrong username or password")
    expect(page.locator("#login-dialog-password")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#login-dialog-password")).to_have_value("")  # typed again
    expect(page.locator("#login-dialog-username")).to_have_value(name)  # kept
    expect(page.locator("#login-dialog-password")).to_be_focused()
    assert page.evaluate("() => window.__sameDocument === true")  # no reload
    assert me_status(page) == 401

    page.fill("#login-dialog-password", PASSWORD)
    page.click("#login-dialog-submit")
    expect(dialog).to_have_count(0)
    expect(page.locator("#account-button")).to_contain_text(name)
    expect(page.locator("#my-games")).to_be_visible()
    assert me_status(page) == 200
    assert page.evaluate("() => document.cookie") == ""  # the session cookie is HttpOnly

    page.click("#account-button")
    expect(page.locator("#account-menu")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#account-menu")).to_be_hidden()
    expect(page.locator("#account-button")).to_be_focused()
    page.click("#account-button")
    page.click("#menu-logout")
    expect(page.locator("#login-button")).to_have_text("Log in")
    expect(page.locator("#account-button")).to_have_count(0)
    expect(page.locator("#my-games")).to_have_count(0)
    assert me_status(page) == 401
    assert page.evaluate("() => window.__sameDocument === true")


def test_sign_up_errors_change_password_and_options_follow_the_account(
    new_page: Any, server: Any
) -> None:
    taken = new_name("ion")
    server.call("POST", "/api/accounts", {"username": taken, "password": PASSWORD})
    page = new_page(locale="ro-RO")
    page.goto("/")
    expect(page.locator("#signup-button")).to_have_text("Cont nou")
    page.click("#signup-button")
    expect(page.locator("#signup-dialog-username")).to_be_focused()
    expect(page.locator("#signup-dialog")).to_contain_text("litere din orice alfabet")

    # The server's refusals, next to the field each names, in the interface's language.
    page.fill("#signup-dialog-username", "a b")
    page.fill("#signup-dialog-password", PASSWORD)
    page.click("#signup-dialog-submit")
    expect(page.locator("#signup-dialog-username-error")).to_contain_text("3–20 caractere")
    page.fill("#signup-dialog-username", taken.upper())  # one account whatever the case
    page.fill("#signup-dialog-password", PASSWORD)
    page.click("#signup-dialog-submit")
    expect(page.locator("#signup-dialog-username-error")).to_have_text(
        "Acest nume de utilizator este deja folosit."
    )
    expect(page.locator("#signup-dialog-password-error")).to_be_hidden()
    name = new_name("Ștefan")
    page.fill("#signup-dialog-username", name)
    page.fill("#signup-dialog-password", "scurtă")
    page.click("#signup-dialog-submit")
    expect(page.locator("#signup-dialog-password-error")).to_contain_text("Între 8 și 256")
    expect(page.locator("#signup-dialog-username-error")).to_be_hidden()
    page.fill("#signup-dialog-password", PASSWORD)
    page.click("#signup-dialog-submit")
    expect(page.locator("#account-button")).to_contain_text(name)

    # The options chosen while logged in are the account's.
    page.click("#options-button")
    page.select_option("#opt-lang", "es")
    expect(page.locator("#options-button")).to_have_text("Opciones")
    page.select_option("#opt-tiles", "contrast")
    page.keyboard.press("Escape")
    page.wait_for_function(
        """async () => {
          const me = await (await fetch('/api/me')).json();
          return me.prefs.lang === 'es' && me.prefs.tiles === 'contrast';
        }"""
    )

    # Change the password: the old one is refused, the new one works.
    page.click("#account-button")
    page.click("#menu-password")
    expect(page.locator("#password-dialog-password")).to_be_focused()
    page.fill("#password-dialog-password", "no es la contraseña")
    page.fill("#password-dialog-new_password", "otra contraseña")
    page.click("#password-dialog-submit")
    expect(page.locator("#password-dialog-password-error")).to_have_text(
        "La contraseña actual no es correcta."
    )
    page.fill("#password-dialog-password", PASSWORD)
    page.fill("#password-dialog-new_password", "otra contraseña")
    page.click("#password-dialog-submit")
    expect(page.locator("#password-dialog")).to_contain_text("Tu contraseña ha cambiado")
    page.keyboard.press("Escape")

    # A fresh browser in English: logging in brings the account's language and tile colours.
    fresh = new_page(locale="en-US")
    fresh.goto("/")
    expect(fresh.locator("#login-button")).to_have_text("Log in")
    expect(fresh.locator("html")).to_have_attribute("data-tiles", "value")
    log_in(fresh, name, "otra contraseña")
    expect(fresh.locator("#options-button")).to_have_text("Opciones")
    expect(fresh.locator("html")).to_have_attribute("lang", "es")
    expect(fresh.locator("html")).to_have_attribute("data-tiles", "contrast")
    expect(fresh.locator("#tables-h")).to_have_text("Mesas")
    # ...and a reload keeps them (the account's, again).
    fresh.reload()
    expect(fresh.locator("#options-button")).to_have_text("Opciones")
