"""Accessibility at the table, checked in Chromium's accessibility tree and with real key presses.

- The board is an ARIA grid (grid, 15 rows, 225 named gridcells) with one Tab stop; the arrow
  keys move by row and column, Home/End along the row, Ctrl+Home/End to the corners,
  PageUp/PageDown along the column; a seated player's typing cursor follows; a spectator looks
  around the same way.
- Rack tiles are named with their points in the right plural ("S, 1 point", "Ă, 1 punct",
  "B, 9 puncte"), and plural() picks each language's form (Romanian "20 de puncte").
- The others' moves are announced in a polite live region (role=log), the player's own are
  not: a word ("Luis played CASA at H8 across for 12 points. Your turn."), a pass, an exchange,
  a resignation and the end of the game.
- Every control on the lobby, the table (in play and finished), the dialogs, the replay and a
  profile has a name in the accessibility tree.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from playwright.sync_api import expect

from .ui import (
    create_table,
    history_rows,
    play_a_word,
    seat_token,
    sign_up,
    table_id,
    word_or_exchange,
)

# Roles a person operates or reads one by one: each needs a name.
NAMED_ROLES = {
    "button", "link", "textbox", "searchbox", "combobox", "listbox", "option", "checkbox",
    "radio", "switch", "slider", "spinbutton", "tab", "menuitem", "gridcell", "img",
}  # fmt: skip


def unnamed_controls(page: Any) -> list[str]:
    """Controls without a name in Chromium's accessibility tree (DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    try:
        missing = []
        for node in cdp.send("Accessibility.getFullAXTree")["nodes"]:
            role = (node.get("role") or {}).get("value")
            name = str((node.get("name") or {}).get("value") or "").strip()
            if node.get("ignored") or role not in NAMED_ROLES or name:
                continue
            described = cdp.send("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]})
            element = described["node"]
            missing.append(f"{role}: <{element['localName']} {element.get('attributes')}>")
        return missing
    finally:
        cdp.detach()


def focused(page: Any) -> Any:
    return page.locator(":focus")


def tab_into_board(page: Any) -> None:
    """Press Tab from the top of the page until the focus is on a square of the board."""
    page.locator("h1").first.click()  # not focusable: the next Tab starts from here
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.board .sq')"):
            return
    raise AssertionError("Tab never reached the board")


def two_players(page: Any, server: Any, variant: str = "fise") -> tuple[str, list[str]]:
    """A table where Ana (this page) sits at seat 0 and Luis (through the API) at seat 1."""
    table = create_table(page, variant=variant, nickname="Ana")
    luis = server.sit(table, 1, "Luis")
    return table, [seat_token(page, table), luis]


def test_the_board_is_a_grid_moved_about_with_the_keys(new_page: Any, server: Any) -> None:
    page = new_page()
    table, _ = two_players(page, server)
    grid = page.get_by_role("grid", name="Board")
    expect(grid).to_have_count(1)
    expect(grid.get_by_role("row")).to_have_count(15)
    expect(grid.get_by_role("gridcell")).to_have_count(225)
    # Each square named where and what it is; the drawn headings are not read out.
    expect(grid.get_by_role("row").first).to_match_aria_snapshot(
        '- row:\n  - gridcell "A1, triple word"\n  - gridcell "B1"\n  - gridcell "C1"\n'
        '  - gridcell "D1, double letter"'
    )
    expect(grid.get_by_role("gridcell", name="H8, double word, start square")).to_have_count(1)
    expect(grid.get_by_role("columnheader")).to_have_count(0)
    # One Tab stop on the whole board.
    expect(page.locator('.board [tabindex="0"]')).to_have_count(1)

    tab_into_board(page)
    expect(focused(page)).to_have_attribute("data-square", "H8")
    expect(focused(page)).to_have_attribute("aria-label", re.compile(r"^H8, .*typing across$"))
    moves = [
        ("ArrowRight", "I8"),
        ("ArrowDown", "I9"),
        ("Home", "A9"),
        ("End", "O9"),
        ("ArrowRight", "O9"),  # the edge: it stays
        ("Control+Home", "A1"),
        ("Control+End", "O15"),
        ("PageUp", "O1"),
        ("ArrowUp", "O1"),
        ("ArrowLeft", "N1"),
        ("PageDown", "N15"),
    ]
    for key, square in moves:
        page.keyboard.press(key)
        expect(focused(page)).to_have_attribute("data-square", square)
        expect(page.locator('.board [tabindex="0"]')).to_have_attribute("data-square", square)
    # The typing cursor follows, heading the way the last arrow went.
    page.keyboard.press("ArrowUp")
    expect(focused(page)).to_have_attribute("aria-label", re.compile(r"^N14\b.*typing down$"))
    expect(focused(page)).to_have_class(re.compile(r"\bcursor\b"))
    # Tab leaves the board in one step, Shift+Tab comes back to the same square.
    page.keyboard.press("Tab")
    assert not page.evaluate("document.activeElement.matches('.board .sq')")
    page.keyboard.press("Shift+Tab")
    expect(focused(page)).to_have_attribute("data-square", "N14")

    # A spectator looks around the board the same way (no typing cursor for them).
    watcher = new_page()
    watcher.goto(f"/t/{table}")
    expect(watcher.get_by_role("grid", name="Board")).to_be_visible()
    tab_into_board(watcher)
    expect(focused(watcher)).to_have_attribute("data-square", "H8")
    watcher.keyboard.press("ArrowLeft")
    expect(focused(watcher)).to_have_attribute("data-square", "G8")
    expect(focused(watcher)).not_to_have_attribute("aria-label", re.compile("cursor"))
    watcher.keyboard.press("End")
    expect(focused(watcher)).to_have_attribute("data-square", "O8")


def tile_values(server: Any, variant: str) -> dict[str, int]:
    tiles = server.call("GET", f"/api/variants/{variant}")["tiles"]
    return {t["letter"]: t["value"] for t in tiles}


def rack_names(page: Any) -> list[str]:
    """The rack's buttons as the accessibility tree names them."""
    rack = page.get_by_role("group", name=re.compile("rack|atril|Suportul", re.I))
    return re.findall(r'- button "([^"]*)"', rack.aria_snapshot())


def test_rack_tiles_and_counts_say_their_plurals(new_page: Any, server: Any) -> None:
    page = new_page()
    table, tokens = two_players(page, server)
    values = tile_values(server, "fise")
    rack = server.table(table, tokens[0])["you"]["rack"]

    def english(tile: str) -> str:
        n = values[tile]
        return f"{tile}, {n} {'point' if n == 1 else 'points'}"

    expected = ["blank" if tile == "?" else english(tile) for tile in rack]
    expect(page.locator(".rack-tile")).to_have_count(len(rack))
    assert sorted(rack_names(page)) == sorted(expected)
    expect(page.locator(".seat .rack-count").first).to_have_text("7 tiles")

    # Romanian at a Cuvinte table: 1 punct, 2–19 puncte.
    ro = new_page(locale="ro-RO")
    ro_table = create_table(ro, variant="cuvinte", nickname="Ioana")
    ro_values = tile_values(server, "cuvinte")
    ro_token = seat_token(ro, ro_table)
    ro_rack = server.table(ro_table, ro_token)["you"]["rack"]

    def romanian(tile: str) -> str:
        n = ro_values[tile]
        return f"{tile}, {n} {'punct' if n == 1 else 'puncte'}"

    assert sorted(rack_names(ro)) == sorted(
        "joker" if tile == "?" else romanian(tile) for tile in ro_rack
    )

    # plural() itself, in each language: Romanian's "de" from 20 on, Spanish's "many" (a
    # million) read as "other".
    def plural(p: Any, key: str, numbers: list[int]) -> list[str]:
        return list(
            p.evaluate(
                """async ([key, numbers]) => {
                     const m = await import('/static/js/i18n.js');
                     return numbers.map((n) => m.plural(key, n, {letter: 'A'}));
                   }""",
                [key, numbers],
            )
        )

    assert plural(ro, "tile.letter_points", [0, 1, 2, 19, 20, 101, 120]) == [
        "A, 0 puncte",
        "A, 1 punct",
        "A, 2 puncte",
        "A, 19 puncte",
        "A, 20 de puncte",
        "A, 101 puncte",
        "A, 120 de puncte",
    ]
    assert plural(page, "table.bag", [1, 2, 0]) == ["Bag: 1 tile", "Bag: 2 tiles", "Bag: 0 tiles"]
    es = new_page(locale="es-ES")
    es.goto("/")
    expect(es.locator("#app h1").first).to_be_visible()
    assert plural(es, "tile.letter_points", [1, 3, 1_000_000]) == [
        "A, 1 punto",
        "A, 3 puntos",
        "A, 1000000 puntos",
    ]


def said(m: dict[str, Any]) -> str:
    """What the live region says of a word played, from its history entry (computed here
    independently of the page: "8H CASA" is across from H8, "H8 CASA" down)."""
    across = re.match(r"^(\d+)([A-Z]) (\S+)$", m["move"])
    down = re.match(r"^([A-Z])(\d+) (\S+)$", m["move"])
    if across:
        square, direction, word = across[2] + across[1], "across", across[3]
    else:
        assert down, m["move"]
        square, direction, word = down[1] + down[2], "down", down[3]
    word = re.sub(r"[()\[\]]", "", word).upper()
    points = f"{m['score']} point{'' if m['score'] == 1 else 's'}"
    return f"{m['nickname']} played {word} at {square} {direction} for {points}."


def test_the_others_moves_are_announced(new_page: Any, server: Any) -> None:
    page = new_page()
    table, tokens = two_players(page, server)
    ana, luis = tokens
    news = page.get_by_role("log", name="Table news")
    expect(news).to_be_attached()
    lines = news.locator("p")
    # Luis sat down after Ana: the game starts (and whose turn it is, when it is Ana's).
    ana_first = server.table(table, ana)["to_move"] == 0
    expect(lines).to_have_text(
        ["The game has started. Your turn" if ana_first else "The game has started."]
    )
    if ana_first:
        # Ana's own move (a word, or an exchange when her rack has none): not announced to her.
        word_or_exchange(server, table, ana, "fise")
        expect(history_rows(page)).to_have_count(1)
    expect(lines).to_have_count(1)

    word = play_a_word(server, table, tokens, "fise", seat=1)
    assert word["nickname"] == "Luis"
    expect(lines.last).to_have_text(f"{said(word)} Your turn")
    # The same sentence is the last move under the board.
    expect(page.locator(".last-move")).to_have_text(said(word))
    count = lines.count()

    # Ana passes on the page: nothing said to her.
    page.locator('[data-action="pass"]').click()
    page.locator('dialog [data-confirm="yes"]').click()
    expect(page.locator(".turn-line")).to_have_text("Luis to move")
    expect(lines).to_have_count(count)

    server.move(table, luis, {"kind": "pass"})
    expect(lines.last).to_have_text("Luis passed. Your turn")
    server.move(table, ana, {"kind": "pass"})
    rack = server.table(table, luis)["you"]["rack"]
    server.move(table, luis, {"kind": "exchange", "tiles": rack[:2]})
    expect(lines.last).to_have_text("Luis exchanged 2 tiles. Your turn")
    server.move(table, luis, {"kind": "resign"})
    expect(lines.last).to_have_text("Luis resigned. The game is over. Ana wins!")
    # In the tree: a live region, polite, named.
    expect(news).to_have_attribute("aria-live", "polite")


def test_every_control_has_a_name(new_page: Any, server: Any) -> None:
    page = new_page()
    page.goto("/")
    expect(page.locator("#app h1").first).to_be_visible()
    assert unnamed_controls(page) == [], "the lobby, as a guest"
    name = f"ax{uuid.uuid4().hex[:8]}"
    sign_up(page, name, "correct horse battery")
    expect(page.locator("#my-games")).to_be_attached()
    assert unnamed_controls(page) == [], "the lobby, logged in"

    table = create_table(page, variant="fise")
    luis = server.sit(table, 1, "Luis")
    expect(page.locator(".seat").nth(1)).to_contain_text("Luis")
    assert unnamed_controls(page) == [], "the table in play"
    page.click("#options-button")
    assert unnamed_controls(page) == [], "the options"
    page.keyboard.press("Escape")
    page.locator("#account-button").click()
    assert unnamed_controls(page) == [], "the account menu"
    page.keyboard.press("Escape")
    if server.table(table, luis)["to_move"] == 1:
        server.move(table, luis, {"kind": "pass"})
    page.locator('[data-action="exchange"]').click()
    expect(page.locator("dialog.exchange-picker")).to_be_visible()
    assert unnamed_controls(page) == [], "the exchange dialog"
    page.keyboard.press("Escape")

    server.move(table, luis, {"kind": "resign"})
    expect(page.locator(".result")).to_be_visible()
    assert unnamed_controls(page) == [], "the finished table"
    page.goto(f"/t/{table_id(page)}/replay")
    expect(page.locator(".replay-position")).to_be_visible()
    assert unnamed_controls(page) == [], "the replay"
    page.goto(f"/p/{name}")
    expect(page.locator(".profile-name")).to_have_text(name)
    assert unnamed_controls(page) == [], "the profile"
