"""Driving the tablero web UI from Playwright the way a person does: clicks, drags, keys.

Locators follow what the page shows (roles, labels, the board's square names), plus a few
data attributes the UI sets for exactly this (``data-square``, ``data-letter``, ``data-action``).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

DATA = Path(__file__).parent / "data"
PASSWORD = "correct horse battery"
"""The password of every account the browser tests make (long enough for the server)."""


def new_name(prefix: str) -> str:
    """A username no other test has taken (the browser tests share one server)."""
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def until(page: Page, condition: Callable[[], Any], tries: int = 300) -> None:
    """Wait (letting Playwright deliver its events) until ``condition()`` holds."""
    for _ in range(tries):
        if condition():
            return
        page.wait_for_timeout(50)
    raise AssertionError("the condition never held")


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes (Playwright's bounding boxes) share any area."""
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def element_shot(locator: Any, path: Path, tries: int = 5) -> None:
    """A screenshot of one element. The table page redraws parts of itself as views arrive,
    so the element may be replaced while the picture is taken: then it is taken again."""
    for attempt in range(tries):
        try:
            locator.screenshot(path=str(path))
            return
        except PlaywrightError as e:
            if "not attached" not in str(e) or attempt == tries - 1:
                raise


def table_id(page: Page) -> str:
    match = re.search(r"/t/([^/?#]+)", page.url)
    assert match, f"not on a table page: {page.url}"
    return match.group(1)


def create_table(
    page: Page,
    *,
    variant: str | None = None,
    upload: str | None = None,
    seats: list[str | int] | None = None,
    clock: str | None = None,
    nickname: str | None = None,
    title: str | None = None,
    hints: bool = False,
    move_hints: bool = False,
    quiet_spectators: bool = False,
    lexicon: str | None = None,
) -> str:
    """Create a table from the lobby form. ``seats``: "open" or a bot level (1–3) per seat.
    ``hints``: dictionary hints in the preview; ``move_hints``: the players may ask for their
    best moves (Hints allowed); ``lexicon``: a dictionary the server has installed."""
    page.goto("/")
    if upload:
        page.set_input_files("#rulefile", str(DATA / upload))
        expect(page.locator("#variant")).to_have_value(re.compile(r"^u-"))  # the upload's id
    elif variant:
        page.select_option("#variant", variant)
    if lexicon:
        expect(page.locator(f'#lexicon option[value="{lexicon}"]')).to_have_count(1)
        page.select_option("#lexicon", lexicon)
    seats = seats or ["open", "open"]
    page.select_option("#seat-count", str(len(seats)))
    for i, seat in enumerate(seats):
        if seat == "open":
            page.select_option(f"#seat-{i}-kind", "open")
        else:
            page.select_option(f"#seat-{i}-kind", "bot")
            page.select_option(f"#seat-{i}-level", str(seat))
    if clock:
        page.select_option("#clock", clock)
    if title:
        page.fill("#table-title", title)
    if hints:
        page.check("#hints")
    if move_hints:
        page.check("#move-hints")
    if quiet_spectators:
        page.check("#quiet-spectators")
    if page.locator("#create-nickname").count():  # a guest; logged in, the account sits down
        page.fill("#create-nickname", nickname or "")
    page.click("#create-table")
    # The first game of a language builds its dictionary graph on the server: up to ~20 s.
    page.wait_for_url(re.compile(r"/t/"), timeout=90_000)
    expect(page.locator(".board")).to_be_visible()
    return table_id(page)


def sign_up(page: Page, username: str, password: str) -> None:
    """Create an account from the header's Sign up dialog (the page is logged in after)."""
    page.click("#signup-button")
    page.fill("#signup-dialog-username", username)
    page.fill("#signup-dialog-password", password)
    page.click("#signup-dialog-submit")
    expect(page.locator("#account-button")).to_contain_text(username)


def log_in(page: Page, username: str, password: str) -> None:
    """Log in from the header's Log in dialog."""
    page.click("#login-button")
    page.fill("#login-dialog-username", username)
    page.fill("#login-dialog-password", password)
    page.click("#login-dialog-submit")
    expect(page.locator("#account-button")).to_contain_text(username)


def sit_from_lobby(page: Page, table: str, nickname: str) -> None:
    """Find the table in the lobby, open it, and sit at its first open seat."""
    page.goto("/")
    card = page.locator(f'.card[data-table="{table}"]')
    card.get_by_role("link", name=re.compile("Sit down|Sentarse|Ia loc")).click()
    page.wait_for_url(re.compile(f"/t/{table}"))
    page.fill("#nickname", nickname)
    page.locator("[data-sit]").first.click()
    expect(page.locator(".rack-tile").first).to_be_visible()


def square(page: Page, name: str) -> Any:
    return page.locator(f'.sq[data-square="{name}"]')


def rack(page: Page) -> list[str]:
    """The tiles on the rack, in the order shown (blanks as ``?``)."""
    return list(
        page.locator(".rack .rack-tile").evaluate_all("els => els.map(e => e.dataset.letter)")
    )


def is_my_turn(page: Page) -> bool:
    return page.locator(".turn-line.mine").count() == 1


def wait_my_turn(page: Page) -> None:
    expect(page.locator(".turn-line.mine")).to_be_visible()


def type_letters(page: Page, text: str) -> None:
    """Type ``text`` into the focused element one key at a time, as a keyboard does.

    Playwright's ``keyboard.type`` sends a ``keydown`` only for characters on a US keyboard;
    for the others (the Ñ key of a Spanish keyboard, ș on a Romanian one) it sends an ``input``
    event alone, and the board, which reads ``keydown``, would never see the letter. Such a
    key is sent here as the ``keydown`` and ``keyup`` a keyboard with that key sends."""
    for ch in text:
        if ch.isascii():
            page.keyboard.press(ch)
            continue
        page.evaluate(
            """key => {
                const target = document.activeElement || document.body;
                for (const type of ["keydown", "keyup"]) {
                    target.dispatchEvent(
                        new KeyboardEvent(type, { key, bubbles: true, cancelable: true }));
                }
            }""",
            ch,
        )


def rack_tile(page: Page, letter: str) -> Any:
    return page.locator(f'.rack .rack-tile[data-letter="{letter}"]').first


def drag(page: Page, source: Any, target: Any) -> None:
    """A drag with the mouse in small steps (pointer events, as a finger would move)."""
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 10, a["y"] + a["height"] / 2 + 10, steps=3)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def touch_drag(page: Page, source: Any, target: Any) -> None:
    """A drag with a finger: touch events sent through the DevTools protocol (the page needs a
    touch screen, ``phone=True``), which the browser turns into pointer events."""
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for i in range(1, 11):
        point = {"x": x0 + (x1 - x0) * i / 10, "y": y0 + (y1 - y0) * i / 10}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def preview_verdict(page: Page) -> Any:
    return page.locator(".preview .verdict")


def action(page: Page, name: str) -> Any:
    return page.locator(f'[data-action="{name}"]')


def history_rows(page: Page) -> Any:
    return page.locator(".history tbody tr")


def find_word(view: dict[str, Any], variant_name: str, longest: int = 4) -> list[dict[str, Any]]:
    """A legal placement of real words for the viewer's rack, as the API's ``tiles``
    ([{"square", "letter", "blank"}]): the first of ``longest`` tiles or more, else the longest
    found. Blanks are kept back unless the other tiles make no word at all (a first rack of
    consonants); empty when even then the rack makes none. Found with the reference move
    generator and the game's shipped dictionary."""
    from tablero.board import Board, Tile
    from tablero.engine.movegen.reference import generate_placements
    from tablero.lexicon import load_lexicon
    from tablero.rules import IllegalMove, check_placement
    from tablero.variant import load_variant, square_name

    variant = load_variant(variant_name)
    board = Board(variant.rows, variant.columns)
    for r, row in enumerate(view["board"]):
        for c, tile in enumerate(row):
            if tile:
                board[(r, c)] = Tile(tile["letter"], tile["blank"])
    rack = list(view["you"]["rack"])
    lexicon = load_lexicon(variant.lexicon, variant.alphabet)
    best: list[dict[str, Any]] = []
    for letters in ([t for t in rack if t != "?"], rack):
        for place in generate_placements(variant, board, letters, lexicon):
            try:
                check = check_placement(variant, board, place, letters)
            except IllegalMove:
                continue
            new = [
                {"square": square_name(coord), "letter": tile.letter, "blank": tile.blank}
                for coord, tile in check.new_tiles
            ]
            if len(new) > len(best):
                best = new
            if len(best) >= longest:
                return best
        if best or "?" not in rack:
            break
    return best


def get_text(server: Any, path: str) -> str:
    """A plain-text answer of the server (the CGP of a position, a GCG file)."""
    import urllib.request

    with urllib.request.urlopen(server.base + path, timeout=30) as response:
        return str(response.read().decode()).strip()


def seat_token(page: Page, table: str) -> str:
    """The secret token of the seat this browser holds at a table."""
    return str(json.loads(page.evaluate(f"localStorage.getItem('tablero.seat.{table}')"))["token"])


def word_or_exchange(
    server: Any, table: str, token: str, variant: str, try_word: bool = True
) -> dict[str, Any] | None:
    """The seat of ``token`` (to move) plays a real word through the API and gets its history
    entry back; a rack without one (or ``try_word=False``) exchanges three tiles: None."""
    view = server.table(table, token)
    tiles = find_word(view, variant) if try_word else None
    if tiles:
        answer = server.move(table, token, {"kind": "place", "tiles": tiles})
        return dict(answer["table"]["history"][-1])
    server.move(table, token, {"kind": "exchange", "tiles": view["you"]["rack"][:3]})
    return None


def play_a_word(
    server: Any, table: str, tokens: list[str], variant: str, seat: int | None = None
) -> dict[str, Any]:
    """The player to move plays a real word through the API (a rack without one exchanges, and
    the other player tries). ``tokens``: every seat's token, by seat. ``seat``: the word must be
    this seat's (another seat to move exchanges first). Returns the history entry of the word."""
    for _ in range(6):
        mover = server.table(table, tokens[0])["to_move"]
        entry = word_or_exchange(server, table, tokens[mover], variant, seat in (None, mover))
        if entry is not None:
            return entry
    raise AssertionError("no word found for six racks")
