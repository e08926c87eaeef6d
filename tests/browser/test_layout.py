"""The table fits the screen: at 1366×768, 1366×900 and 1920×1080 the whole board, the rack,
the buttons, the scores, the clocks and the last move are in the window without scrolling; on a
390×844 phone the scores and clocks are above the board, the board is as wide as the screen and
can be zoomed, and a tile's value is big enough to read. The moves table never clips a column.
The squares' legend ("About this game") is shown beside the board (folded on the phone, under
the buttons) and lies on nothing a player needs.
Dark mode follows the system and can be chosen in the options (and is kept with an account).
The top bar fits every width from 320 to 1400 px, in each language, for a guest and for a
member with the longest name: no page is wider than the window, and every item of the bar is
inside it, on one line, none of the links shortened (...).

Checked on the 15×15 FISE board and the 17×15 Cuvinte board with a word played, so that the
last move exists; screenshots of what the window shows at every size, light and dark.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from .ui import create_table, history_rows, overlaps, play_a_word, seat_token, sign_up

WIDE = [(1366, 768), (1366, 900), (1920, 1080)]
PHONE = (390, 844)


def game_in_progress(page: Any, server: Any, variant: str) -> str:
    """A two-player table where Ana (this page) and Luis sit, and one word is on the board."""
    table = create_table(page, variant=variant, nickname="Ana")
    luis = server.sit(table, 1, "Luis")
    play_a_word(server, table, [seat_token(page, table), luis], variant)
    expect(history_rows(page)).not_to_have_count(0)
    expect(page.locator(".sq.last").first).to_be_visible()
    expect(page.locator(".last-move")).not_to_be_empty()
    return table


def box(locator: Any) -> dict[str, float]:
    """Where one element is on the screen, once it is shown. The page redraws the seats at
    every table update it receives, so the element found a moment ago may have just been
    replaced: a measure without a box is taken again (for up to 5 s) before it counts as
    not shown."""
    for _ in range(25):
        expect(locator).to_be_visible()
        b = locator.bounding_box()
        if b:
            return dict(b)
        locator.page.wait_for_timeout(200)
    raise AssertionError(f"{locator} is not shown")


def assert_in_window(page: Any, what: str, locator: Any) -> None:
    """Every element the locator finds lies wholly inside the window (the page unscrolled)."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert locator.count(), f"no {what}"
    for i in range(locator.count()):
        b = box(locator.nth(i))
        inside = (
            b["x"] >= 0
            and b["y"] >= 0
            and b["x"] + b["width"] <= width + 0.5
            and b["y"] + b["height"] <= height + 0.5
        )
        assert inside, f"{what} at {b} is not inside the {width}×{height} window"


def assert_moves_not_clipped(page: Any) -> None:
    """The moves table shows every column: nothing wider than its box, each header inside."""
    scroller = page.locator(".history-scroll")
    sizes = scroller.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert sizes[0] <= sizes[1], f"the moves table is wider than its box: {sizes}"
    right = box(scroller)["x"] + box(scroller)["width"]
    for header in page.locator(".history th").all():
        b = box(header)
        assert b["x"] + b["width"] <= right + 0.5, f"{header.inner_text()} is clipped"


def the_things_a_player_needs(page: Any) -> dict[str, Any]:
    return {
        "the board": page.locator(".board"),
        "the rack": page.locator(".rack"),
        "the buttons": page.locator(
            '[data-action="move"], [data-action="pass"], [data-action="exchange"], '
            '[data-action="resign"]'
        ),
        "the scores": page.locator(".seat .score"),
        "the clocks": page.locator(".seat .clock"),
        "the last move": page.locator(".last-move"),
    }


def assert_legend_beside_the_board(page: Any) -> None:
    """The squares' legend ("About this game") is shown, and on nothing a player needs."""
    legend = page.locator(".square-legend")
    expect(legend).to_be_visible()
    expect(legend.locator("li").first).to_be_visible()
    where = box(legend)
    assert where["width"] >= 200, f"the legend is squeezed: {where}"
    for what, locator in the_things_a_player_needs(page).items():
        for i in range(locator.count()):
            assert not overlaps(where, box(locator.nth(i))), f"the legend is over {what}"


def on_page(page: Any, locator: Any) -> dict[str, float]:
    """A box in the page's coordinates, not the window's."""
    where = dict(box(locator))
    where["y"] += float(page.evaluate("window.scrollY"))
    where["x"] += float(page.evaluate("window.scrollX"))
    return where


def font_px(locator: Any) -> float:
    return float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


@pytest.mark.parametrize("variant", ["fise", "cuvinte"])
def test_the_table_fits_the_window(
    new_page: Any, server: Any, artifacts: Any, variant: str
) -> None:
    def shot(page: Any, name: str) -> None:  # what the window shows, not the whole page
        page.screenshot(path=str(artifacts / f"{name}.png"))

    page = new_page(width=1366, height=768)
    table = game_in_progress(page, server, variant)
    for width, height in WIDE:
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("window.scrollY") == 0
        for what, locator in the_things_a_player_needs(page).items():
            assert_in_window(page, what, locator)
        assert_moves_not_clipped(page)
        assert_legend_beside_the_board(page)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(250)  # the buttons' colour transitions
            shot(page, f"layout-{variant}-{width}x{height}-{scheme}")
    page.emulate_media(color_scheme="light")

    # A phone, seated at the same table (this browser's seat token copied to it).
    phone = new_page(width=PHONE[0], height=PHONE[1], phone=True)
    phone.goto("/")
    phone.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"tablero.seat.{table}", page.evaluate(f"localStorage.getItem('tablero.seat.{table}')")],
    )
    phone.goto(f"/t/{table}")
    expect(phone.locator(".rack-tile").first).to_be_visible()
    board = box(phone.locator(".board"))
    # The scores and clocks are above the board ...
    for locator in (phone.locator(".seat .score"), phone.locator(".seat .clock")):
        for i in range(locator.count()):
            b = box(locator.nth(i))
            assert b["y"] + b["height"] <= board["y"], "a score or a clock is not above the board"
    # ... the board is as wide as the screen (but a few pixels of margin) ...
    assert board["width"] >= PHONE[0] - 12, f"the board is {board['width']} px wide"
    # ... and the rest a player needs is on the screen too, nothing clipped.
    for what, locator in the_things_a_player_needs(phone).items():
        assert_in_window(phone, what, locator)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    assert_moves_not_clipped(phone)
    square = phone.locator(".sq.last").first
    value = phone.locator(".sq.last .value").first
    small = box(square)["width"]
    assert small >= 20, f"squares of {small} px"
    assert font_px(value) >= 7
    # "About this game" is folded under the rack and the buttons; unfolded, nothing moves.
    about = phone.locator(".about-panel")
    expect(about).not_to_have_attribute("open", "")
    buttons = box(phone.locator(".actions"))
    assert box(about)["y"] >= buttons["y"] + buttons["height"]
    rack_at = on_page(phone, phone.locator(".rack"))
    about.locator("summary").click()
    assert_legend_beside_the_board(phone)
    # Where the rack is on the page (the click may scroll the window: not a move).
    assert on_page(phone, phone.locator(".rack")) == rack_at
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    phone.evaluate("window.scrollTo(0, 0)")

    # Zoom: larger squares in a box that pans; the box keeps its place, the last move in view.
    zoom = phone.get_by_role("button", name="Zoom")
    expect(zoom).to_have_attribute("aria-pressed", "false")
    rack_before = box(phone.locator(".rack"))
    zoom.click()
    expect(zoom).to_have_attribute("aria-pressed", "true")
    big = box(square)["width"]
    assert big >= 36, f"zoomed squares of {big} px"
    assert font_px(value) >= 10, "a tile's value is too small to read"
    wrap = phone.locator(".board-wrap")
    assert wrap.evaluate("e => e.scrollWidth > e.clientWidth && e.scrollHeight > e.clientHeight")
    frame = box(wrap)
    last = box(square)
    assert frame["x"] <= last["x"] and last["x"] + last["width"] <= frame["x"] + frame["width"]
    assert frame["y"] <= last["y"] and last["y"] + last["height"] <= frame["y"] + frame["height"]
    assert abs(box(phone.locator(".rack"))["y"] - rack_before["y"]) <= 1, "the rack moved"
    shot(phone, f"layout-{variant}-phone-zoomed")
    zoom.click()
    expect(zoom).to_have_attribute("aria-pressed", "false")
    assert abs(box(square)["width"] - small) < 0.5

    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        phone.wait_for_timeout(250)
        shot(phone, f"layout-{variant}-phone-{scheme}")


def background(page: Any) -> tuple[int, ...]:
    rgb = page.evaluate("getComputedStyle(document.body).backgroundColor")
    return tuple(int(x) for x in re.findall(r"\d+", rgb)[:3])


def is_dark(rgb: tuple[int, ...]) -> bool:
    return sum(rgb) / 3 < 80


def test_dark_mode_follows_the_system_and_the_options(new_page: Any, server: Any) -> None:
    page = new_page()
    html = page.locator("html")
    page.emulate_media(color_scheme="dark")
    page.goto("/")
    expect(page.locator("#app h1").first).to_be_visible()
    expect(html).to_have_attribute("data-scheme", "dark")
    assert is_dark(background(page)), "the system's dark mode is not followed"
    page.emulate_media(color_scheme="light")  # the system changes while the page is open
    expect(html).to_have_attribute("data-scheme", "light")
    assert not is_dark(background(page))

    # The manual switch, in the options: dark against a light system, and it is remembered.
    page.click("#options-button")
    expect(page.get_by_label("Colours of the page")).to_have_value("auto")
    page.get_by_label("Colours of the page").select_option("dark")
    expect(html).to_have_attribute("data-scheme", "dark")
    assert is_dark(background(page))
    page.get_by_role("button", name="Close").click()
    page.reload()
    expect(html).to_have_attribute("data-theme", "dark")
    expect(html).to_have_attribute("data-scheme", "dark")
    assert is_dark(background(page))
    # Light against a dark system.
    page.emulate_media(color_scheme="dark")
    page.click("#options-button")
    page.get_by_label("Colours of the page").select_option("light")
    expect(html).to_have_attribute("data-scheme", "light")
    assert not is_dark(background(page))
    page.get_by_role("button", name="Close").click()

    # Logged in, the choice is kept with the account (the server's `theme` pref).
    name = f"dk{uuid.uuid4().hex[:8]}"
    sign_up(page, name, "correct horse battery")
    page.click("#options-button")
    page.get_by_label("Colours of the page").select_option("dark")
    page.get_by_role("button", name="Close").click()
    stored: dict[str, Any] = {}
    for _ in range(50):
        stored = page.evaluate("fetch('/api/me').then((r) => r.json())")["prefs"]
        if stored.get("theme") == "dark":
            break
        page.wait_for_timeout(100)
    assert stored.get("theme") == "dark", stored


TOP_BAR_WIDTHS = [560, 600, 640, 690]
"""Where the bar once ran off the window (its links and buttons wider than the screen)."""

TOP_BAR_PROBLEMS = """() => {
  const vw = window.innerWidth, out = [];
  const page = document.documentElement.scrollWidth;
  if (page > vw) out.push(`the page is ${page} px wide`);
  const bar = document.getElementById("topbar").getBoundingClientRect();
  const items = document.querySelectorAll(
    "#topbar .brand, #topbar nav > a, #topbar nav > button, #topbar .account > button");
  for (const el of items) {
    const r = el.getBoundingClientRect();
    if (!r.width) continue;  // given way to the lobby's panels
    const name = el.id || el.className;
    if (r.left < 0 || r.right > vw + 0.5) out.push(`${name} at ${r.left}-${r.right}`);
    if (r.top < bar.top - 0.5 || r.bottom > bar.bottom + 0.5) out.push(`${name} is too tall`);
    if (el.matches("nav > a") && el.scrollWidth > el.clientWidth) out.push(`${name} shortened`);
  }
  return out;
}"""


def top_bar_problems(page: Any, widths: list[int]) -> list[str]:
    found = []
    for width in widths:
        page.set_viewport_size({"width": width, "height": 700})
        found += [f"{width} px: {p}" for p in page.evaluate(TOP_BAR_PROBLEMS)]
    return found


@pytest.mark.parametrize("locale", ["en-US", "es-ES", "ro-RO"])
def test_the_top_bar_fits_every_width(new_page: Any, artifacts: Any, locale: str) -> None:
    sweep = sorted({*TOP_BAR_WIDTHS, *range(320, 1401, 20)})
    lang = locale[:2]
    page = new_page(locale=locale, width=1280, height=700)
    for member in (False, True):
        if member:  # the longest name there is, of wide letters: it shortens (...) instead
            sign_up(page, "W" * 12 + uuid.uuid4().hex[:8], "correct horse battery")
        who = "member" if member else "guest"
        page.goto("/")
        expect(page.locator("#options-button")).to_be_visible()
        assert top_bar_problems(page, sweep) == [], f"the lobby, {locale}, a {who}"
        for path in ("/puzzles", "/analysis"):
            page.set_viewport_size({"width": 1280, "height": 700})
            page.goto(path)
            expect(page.locator("main select").first).to_be_visible()
            problems = top_bar_problems(page, [320, *TOP_BAR_WIDTHS, 1280])
            assert problems == [], f"{path}, {locale}, a {who}"
        page.goto("/")
        expect(page.locator("#options-button")).to_be_visible()
        for width in (600, 1280):  # what the window shows
            page.set_viewport_size({"width": width, "height": 400})
            page.screenshot(path=str(artifacts / f"top-bar-{lang}-{who}-{width}.png"))
