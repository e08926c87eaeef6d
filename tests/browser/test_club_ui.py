"""The club in the browser: a game offered in the lobby (a seek) and accepted from another
browser, a rated game's effect on both profiles, a rematch from both players, the replay page
of a finished game (keyboard steps, the board changing, the position as CGP), and the chat.

Rated games need a built-in game (an uploaded rule file is never rated): the seek is for
Cuvinte în Cutie (whose dictionary the computer-player test has loaded already in a whole run),
played for one pass and a resignation. The replay uses the tiny ``mini`` rule file (every word
counts), played through the API.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .ui import (
    PASSWORD,
    action,
    create_table,
    history_rows,
    is_my_turn,
    new_name,
    sign_up,
    square,
    table_id,
    until,
    wait_my_turn,
)


def confirm(page: Any) -> None:
    page.locator('dialog.confirm [data-confirm="yes"]').click()


def profile_rating(page: Any, username: str, variant: str) -> str:
    """Open the player's profile and read their rating in ``variant`` (the rating of a game
    is stored as the game ends: look again until it is there)."""
    card = page.locator(f'.rating-card[data-variant="{variant}"] .rating-n')
    for _ in range(20):
        page.goto(f"/p/{username}")
        expect(page.locator(".profile-name")).to_have_text(username)
        if card.count():
            return str(card.inner_text())
        page.wait_for_timeout(250)
    raise AssertionError(f"no {variant} rating on {username}'s profile")


def test_a_seek_accepted_a_rated_game_the_profiles_and_a_rematch(
    new_page: Any, server: Any, shot: Any
) -> None:
    game_title = {v["name"]: v["title"] for v in server.call("GET", "/api/variants")}["cuvinte"]
    ana_name, luis_name = new_name("ana"), new_name("luis")
    ana = new_page()
    ana.goto("/")
    sign_up(ana, ana_name, PASSWORD)

    # Offer a game: Cuvinte în Cutie, two seats, untimed, rated.
    ana.select_option("#seek-variant", "cuvinte")
    ana.select_option("#seek-seats", "2")
    ana.select_option("#seek-clock", "none")
    expect(ana.locator("#seek-rated")).to_be_checked()
    ana.click("#seek-offer")
    mine = ana.locator(".seek.mine")
    expect(mine).to_have_count(1)
    seek = mine.get_attribute("data-seek")
    assert seek
    expect(mine.locator(".seeker")).to_have_text(ana_name)
    expect(mine.locator(".rating")).to_contain_text("1500")
    expect(mine.locator(".rating .prov")).to_have_text("?")  # provisional
    expect(mine.locator(".badge")).to_have_text("Rated")
    expect(mine.locator('[data-action="accept"]')).to_have_count(0)  # not one's own
    expect(mine.locator('[data-action="withdraw"]')).to_be_visible()
    # A second offer, casual, withdrawn again.
    ana.uncheck("#seek-rated")
    ana.click("#seek-offer")
    expect(mine).to_have_count(2)
    casual = ana.locator(".seek.mine").filter(has=ana.locator(".badge.casual"))
    casual.locator('[data-action="withdraw"]').click()
    expect(mine).to_have_count(1)
    expect(ana.locator(".seek-message")).to_have_text("Your offer was withdrawn.")

    # A guest sees the offer, and is told to log in to accept it.
    guest = new_page(locale="es-ES")
    guest.goto("/")
    offered = guest.locator(f'.seek[data-seek="{seek}"]')
    expect(offered.locator(".game")).to_have_text(game_title)
    expect(offered.locator(".seeker")).to_have_text(ana_name)
    expect(offered.locator("button")).to_have_count(0)
    expect(guest.locator(".seek-guest")).to_contain_text("Inicia sesión")

    # Another player accepts it: both are at the table, seated, the game started.
    luis = new_page()
    luis.goto("/")
    sign_up(luis, luis_name, PASSWORD)
    shot(luis, "club-lobby-seeks")
    luis.locator(f'.seek[data-seek="{seek}"] [data-action="accept"]').click()
    luis.wait_for_url(re.compile(r"/t/[^/]+$"), timeout=90_000)  # the first Romanian game loads
    table = table_id(luis)
    ana.wait_for_url(re.compile(f"/t/{table}$"))  # the seeker's lobby noticed by itself
    for page, name in ((ana, ana_name), (luis, luis_name)):
        expect(page.locator(".rack .rack-tile")).to_have_count(7)
        expect(page.locator(".seat.is-you .nick")).to_have_text(name)
    # Account seats link to their profiles.
    expect(ana.locator(f'.seat a.player-link[href="/p/{luis_name}"]')).to_have_text(luis_name)
    expect(ana.locator('.seat[data-seat="0"] .nick')).to_have_text(ana_name)  # the seeker

    # A pass, then the other player resigns: the one who passed wins.
    until(ana, lambda: is_my_turn(ana) or is_my_turn(luis))
    mover, other = (ana, luis) if is_my_turn(ana) else (luis, ana)
    action(mover, "pass").click()
    confirm(mover)
    wait_my_turn(other)
    expect(history_rows(ana)).to_have_count(1)
    action(other, "resign").click()
    confirm(other)
    for page in (ana, luis):
        expect(page.locator(".result .reason")).to_have_text("Every other player resigned.")
        expect(page.locator("#rematch-button")).to_be_visible()
    winner = ana_name if mover is ana else luis_name
    loser = luis_name if mover is ana else ana_name

    # Both profiles show the new ratings, and the game with a link to its replay.
    look = ana.context.new_page()
    assert profile_rating(look, winner, "cuvinte") == "1578"
    row = look.locator(f'.game-row[data-table="{table}"]')
    expect(row.locator(".badge.outcome")).to_have_text("Win")
    expect(row.locator(".tag.rated")).to_be_visible()
    expect(row.locator("a.replay-link")).to_have_attribute("href", f"/t/{table}/replay")
    chart = look.locator('.rating-card[data-variant="cuvinte"] svg.rating-chart')
    expect(chart).to_have_attribute("role", "img")
    expect(chart.locator("title")).to_have_text(re.compile("Rating in"))
    expect(look.locator('.rating-card[data-variant="cuvinte"] .chart-summary')).to_contain_text(
        "From 1500 to 1578"
    )
    shot(look, "club-profile")
    assert profile_rating(look, loser, "cuvinte") == "1422"
    expect(look.locator(f'.game-row[data-table="{table}"] .badge.outcome')).to_have_text("Loss")
    look.close()

    # Rematch: the first to ask waits, and the others see who asked.
    ana.click("#rematch-button")
    expect(ana.locator("#rematch-waiting")).to_have_text("Waiting for the others…")
    expect(luis.locator(".rematch-asked")).to_contain_text(ana_name)
    shot(luis, "club-rematch")
    luis.click("#rematch-button")
    # Both go to the new table, seated one seat on (the seeker now at seat 2).
    luis.wait_for_url(re.compile(r"/t/[^/]+$"))
    until(luis, lambda: table_id(luis) != table)
    rematch = table_id(luis)
    ana.wait_for_url(re.compile(f"/t/{rematch}$"))
    for page, name in ((ana, ana_name), (luis, luis_name)):
        expect(page.locator(".rack .rack-tile")).to_have_count(7)
        expect(page.locator(".seat.is-you .nick")).to_have_text(name)
        expect(page.locator('.seat[data-seat="0"] .nick')).to_have_text(luis_name)
        expect(page.locator('.seat[data-seat="1"] .nick')).to_have_text(ana_name)


@pytest.fixture(scope="module")
def mini(server: Any) -> str:
    """The mini rule file, uploaded once (uploads are limited per address)."""
    return str(server.upload("mini.toml"))


def mini_table(server: Any, variant: str) -> str:
    """A mini table of two open seats, made through the API."""
    body = {"variant": variant, "seats": [{"kind": "open"}] * 2}
    return str(server.call("POST", "/api/tables", body)["id"])


def sit_here(page: Any, table: str, nickname: str) -> None:
    """Open the table and sit at its first open seat, as a guest."""
    page.goto(f"/t/{table}")
    page.fill("#nickname", nickname)
    page.locator("[data-sit]").first.click()
    expect(page.locator(".seat.is-you .nick")).to_have_text(nickname)


def finished_mini_game(server: Any, variant: str) -> tuple[str, list[str]]:
    """A mini game through the API: one placement across E5, then a resignation. Returns the
    table and the letters placed."""
    table = mini_table(server, variant)
    tokens = [server.sit(table, 0, "Ana"), server.sit(table, 1, "Luis")]
    view = server.table(table, tokens[0])
    mover = view["to_move"]
    rack = server.table(table, tokens[mover])["you"]["rack"]
    server.move(table, tokens[mover], {"kind": "notation", "text": "5E " + "".join(rack)})
    server.move(table, tokens[1 - mover], {"kind": "resign"})
    return table, rack


def test_the_replay_page_steps_with_the_keyboard_and_gives_the_cgp(
    new_page: Any, server: Any, mini: str, shot: Any
) -> None:
    table, letters = finished_mini_game(server, mini)
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


def test_the_replay_of_a_game_in_play_says_so(new_page: Any, server: Any, mini: str) -> None:
    table = mini_table(server, mini)
    server.sit(table, 0, "Ana")
    server.sit(table, 1, "Luis")
    page = new_page(locale="ro-RO")
    page.goto(f"/t/{table}/replay")
    expect(page.locator("h1")).to_have_text("Partida încă se joacă")
    page.get_by_role("link", name="Masa").click()
    expect(page).to_have_url(re.compile(f"/t/{table}$"))
    expect(page.locator(".board")).to_be_visible()


def test_guests_ask_for_a_rematch_and_keep_their_seats(
    new_page: Any, server: Any, mini: str
) -> None:
    table = mini_table(server, mini)
    ana = new_page()
    sit_here(ana, table, "Ana")
    luis = new_page(locale="es-ES")
    sit_here(luis, table, "Luis")
    until(ana, lambda: is_my_turn(ana) or is_my_turn(luis))
    resigner = ana if is_my_turn(ana) else luis  # resigning is allowed on one's turn or not
    action(resigner, "resign").click()
    confirm(resigner)
    expect(ana.locator("#rematch-button")).to_be_visible()
    spectator = new_page()
    spectator.goto(f"/t/{table}")
    expect(spectator.locator(".result")).to_be_visible()
    expect(spectator.locator("#rematch-button")).to_have_count(0)  # spectators do not ask

    luis.click("#rematch-button")
    expect(luis.locator("#rematch-waiting")).to_have_text("Esperando a los demás…")
    expect(ana.locator(".rematch-asked")).to_have_text("Asked for a rematch: Luis")
    ana.click("#rematch-button")
    luis.wait_for_url(re.compile(r"/t/[^/]+$"))
    until(ana, lambda: table_id(ana) != table)
    rematch = table_id(ana)
    luis.wait_for_url(re.compile(f"/t/{rematch}$"))
    # Each guest's token went with them, one seat on: both seated, with a rack.
    for page, name, seat in ((ana, "Ana", 1), (luis, "Luis", 0)):
        expect(page.locator(".rack .rack-tile")).to_have_count(3)
        expect(page.locator(".seat.is-you .nick")).to_have_text(name)
        stored = page.evaluate(
            "(id) => JSON.parse(localStorage.getItem(`tablero.seat.${id}`))", rematch
        )
        assert stored["seat"] == seat
    # The spectator is offered the new table, not taken there.
    expect(spectator.locator("#rematch-go")).to_have_text("Watch the rematch")
    expect(spectator.locator("#rematch-go")).to_have_attribute("href", f"/t/{rematch}")
    assert table_id(spectator) == table


def chat_lines(page: Any) -> Any:
    return page.locator("#chat .chat-line")


def say(page: Any, text: str) -> None:
    # The line goes on the table's socket: on a busy machine the page may still be connecting
    # (the panel then says "not connected" and keeps the text).
    expect(page.locator(".conn")).to_have_attribute("data-status", "online")
    page.fill("#chat-input", text)
    page.keyboard.press("Enter")
    expect(page.locator("#chat-input")).to_have_value("")


def test_players_and_a_logged_in_spectator_chat(
    new_page: Any, server: Any, mini: str, shot: Any
) -> None:
    table = mini_table(server, mini)
    ana = new_page()
    sit_here(ana, table, "Ana")
    luis = new_page(locale="es-ES")
    sit_here(luis, table, "Luis")
    carla_name = new_name("carla")
    carla = new_page()
    carla.goto("/")
    sign_up(carla, carla_name, PASSWORD)
    carla.goto(f"/t/{table}")
    expect(carla.locator(".spectating")).to_be_visible()
    guest = new_page()
    guest.goto(f"/t/{table}")
    expect(guest.locator(".chat-guest")).to_contain_text("Spectators chat once logged in")
    expect(guest.locator("#chat-input")).to_be_hidden()

    # A player writes; everyone sees it under the seat's name.
    say(ana, "¡Hola, Luis! Suerte")
    for page in (ana, luis, carla, guest):
        expect(chat_lines(page)).to_have_count(1)
        expect(chat_lines(page).nth(0).locator(".chat-author")).to_have_text("Ana")
        expect(chat_lines(page).nth(0).locator(".chat-text")).to_have_text("¡Hola, Luis! Suerte")
    # The logged-in spectator answers, under the username, marked a spectator; markup is text.
    say(carla, "<b>ánimo</b> a los dos")
    for page in (ana, luis, carla):
        line = chat_lines(page).nth(1)
        expect(line.locator(".chat-author")).to_have_text(carla_name)
        expect(line.locator(".tag.spectator")).to_be_visible()
        expect(line.locator(".chat-text")).to_have_text("<b>ánimo</b> a los dos")
        expect(line.locator("b")).to_have_count(0)
    expect(luis.locator(".chat-line.spectator .tag")).to_have_text("espectador")
    say(luis, "Gracias")
    expect(chat_lines(carla).nth(2).locator(".chat-author")).to_have_text("Luis")
    expect(chat_lines(ana).nth(2)).to_have_class(re.compile(r"\bchat-line\b"))

    # 300 characters at most: the counter says so, and nothing is sent.
    ana.fill("#chat-input", "a" * 301)
    expect(ana.locator("#chat-count")).to_have_text("301/300")
    expect(ana.locator("#chat-send")).to_be_disabled()
    ana.keyboard.press("Enter")
    expect(ana.locator("#chat-error")).to_have_text("A message has at most 300 characters.")
    expect(chat_lines(luis)).to_have_count(3)
    ana.fill("#chat-input", "")
    shot(carla, "club-chat")

    # The personal option hides the panel for oneself.
    ana.click("#options-button")
    ana.uncheck("#opt-chat")
    ana.keyboard.press("Escape")
    expect(ana.locator("#chat")).to_be_hidden()
    expect(luis.locator("#chat")).to_be_visible()
    ana.click("#options-button")
    ana.check("#opt-chat")
    ana.keyboard.press("Escape")
    expect(ana.locator("#chat")).to_be_visible()


def test_a_quiet_table_keeps_the_spectators_chat_from_the_players_until_the_end(
    new_page: Any,
) -> None:
    # From the lobby's form (its checkbox), for a built-in game: uploads are limited per address.
    ana = new_page()
    table = create_table(
        ana, variant="cuvinte", seats=["open", "open"], nickname="Ana", quiet_spectators=True
    )
    luis = new_page()
    sit_here(luis, table, "Luis")
    carla_name = new_name("carla")
    carla = new_page(locale="ro-RO")
    carla.goto("/")
    sign_up(carla, carla_name, PASSWORD)
    carla.goto(f"/t/{table}")
    expect(carla.locator(".chat-quiet")).to_have_text(
        "Jucătorii nu văd mesajele spectatorilor până la sfârșitul partidei."
    )
    say(carla, "Ana: pune S pe E5!")
    expect(chat_lines(carla)).to_have_count(1)
    expect(ana.locator(".chat-quiet")).to_be_visible()
    action(luis, "resign").click()
    confirm(luis)
    expect(ana.locator(".result")).to_be_visible()
    # Over: the players get every line, the spectator's too.
    for page in (ana, luis):
        expect(chat_lines(page)).to_have_count(1)
        expect(chat_lines(page).nth(0).locator(".chat-author")).to_have_text(carla_name)
    expect(ana.locator(".chat-quiet")).to_be_hidden()
