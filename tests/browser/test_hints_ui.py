"""Hints and the unseen tiles at the table.

A table made from the lobby with **Hints allowed** says so to everyone; its seated player asks
for a hint and gets the server's three best moves; a click puts one on the board as a proposed
move, which Move plays for the score the hint gave. A table without hints has no Hint button.
Every table has the unseen-tiles panel, for players and spectators: checked after known moves
against the game's tile set less the board less the viewer's rack, by letter (the digraph
tiles and the blanks among them), with the vowels, consonants, blanks and the bag; in Romanian,
in the right plural.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from playwright.sync_api import expect

from .test_a11y import unnamed_controls
from .ui import (
    action,
    create_table,
    history_rows,
    play_a_word,
    preview_verdict,
    seat_token,
    wait_my_turn,
)

VOWELS = set("AEIOU")


def expected_unseen(server: Any, view: dict[str, Any]) -> Counter[str]:
    """The game's tile set less the board less the viewer's own rack (computed here, apart from
    the server's ``unseen``)."""
    variant = server.call("GET", f"/api/variants/{view['variant']}")
    left = Counter({t["letter"]: t["count"] for t in variant["tiles"]})
    for row in view["board"]:
        for tile in row:
            if tile:
                left["?" if tile["blank"] else tile["letter"]] -= 1
    for letter in (view["you"] or {}).get("rack", []):
        left[letter] -= 1
    return left


def panel_counts(page: Any) -> dict[str, int]:
    got = page.locator(".unseen-tile").evaluate_all(
        "els => els.map(e => [e.dataset.letter, Number(e.dataset.count)])"
    )
    return {str(letter): int(n) for letter, n in got}


def check_unseen(page: Any, server: Any, view: dict[str, Any], lang: str = "en") -> None:
    """The panel shows every tile of the set, each with what the viewer has not seen."""
    left = expected_unseen(server, view)
    expect(page.locator(".unseen-total")).to_have_text(str(sum(left.values())))
    counts = panel_counts(page)
    assert counts == dict(left), f"unseen {counts}, expected {dict(left)}"
    vowels = sum(n for letter, n in left.items() if letter in VOWELS)
    blanks = left["?"]
    consonants = sum(left.values()) - vowels - blanks
    sums = page.locator(".unseen-sums")
    expect(sums).to_have_attribute("data-vowels", str(vowels))
    expect(sums).to_have_attribute("data-consonants", str(consonants))
    expect(sums).to_have_attribute("data-blanks", str(blanks))
    if lang == "en":
        s = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"  # noqa: E731
        expect(sums).to_have_text(
            f"Bag: {view['bag_count']} tile{'' if view['bag_count'] == 1 else 's'} · "
            f"{s(vowels, 'vowel')} · {s(consonants, 'consonant')} · {s(blanks, 'blank')}"
        )
    else:  # Romanian: 1 / 2–19 / 20 de …

        def ro(n: int, one: str, few: str) -> str:
            if n == 1:
                return f"1 {one}"
            return f"{n} {few}" if n == 0 or 1 <= n % 100 <= 19 else f"{n} de {few}"

        expect(sums).to_have_text(
            f"Săculeț: {ro(view['bag_count'], 'piesă', 'piese')} · {ro(vowels, 'vocală', 'vocale')}"
            f" · {ro(consonants, 'consoană', 'consoane')} · {ro(blanks, 'joker', 'jokeri')}"
        )


def test_a_table_with_hints_the_hint_played_and_the_unseen_tiles(
    new_page: Any, server: Any, shot: Any
) -> None:
    page = new_page(width=1366, height=900)
    page.goto("/")
    hints = page.locator("#move-hints")
    expect(hints).not_to_be_checked()  # off by default
    expect(page.locator("#move-hints-help")).to_contain_text("never rated")
    table = create_table(page, variant="fise", nickname="Ana", move_hints=True)
    assert server.table(table)["hints"] is True
    luis = server.sit(table, 1, "Luis")
    ana = seat_token(page, table)
    expect(page.locator(".rack-tile").first).to_be_visible()
    expect(page.locator(".table-meta")).to_contain_text("hints allowed")

    # A word on the board first (whoever starts), then it is Ana's turn.
    play_a_word(server, table, [ana, luis], "fise")
    if server.table(table)["to_move"] != 0:
        play_a_word(server, table, [ana, luis], "fise")
    wait_my_turn(page)
    expect(history_rows(page)).not_to_have_count(0)
    view = server.table(table, ana)
    check_unseen(page, server, view)
    expect(page.locator('.unseen-tile[data-letter="CH"]')).to_have_count(1)
    expect(page.locator('.unseen-tile[data-letter="?"]')).to_have_count(1)

    # Hint: the server's three best moves for Ana's rack. (A rack whose three best are all
    # exchanges is played on from, until a placement is among them: the deal is random.)
    for _ in range(6):
        best = server.call("POST", f"/api/tables/{table}/hint", {"count": 3}, token=ana)["moves"]
        if any(m["tiles"] for m in best):
            break
        while True:  # a word for each (a rack without one exchanges), until Ana's turn again
            play_a_word(server, table, [ana, luis], "fise")
            if server.table(table)["to_move"] == 0:
                break
    wait_my_turn(page)
    page.locator("#hint-button").click()
    items = page.locator(".hint-item")
    expect(items).to_have_count(len(best))
    assert len(best) == 3
    assert items.evaluate_all("els => els.map(e => e.dataset.move)") == [m["move"] for m in best]
    expect(items.first).to_contain_text(f"{best[0]['score']} points")
    assert unnamed_controls(page) == [], "the table with its hints"

    # The first placement among them, put on the board, then played for the score it gave.
    hint = next(m for m in best if m["tiles"])
    page.locator(f'.hint-move[data-move="{hint["move"]}"]').click()
    placed = page.locator(".board .sq.tentative").evaluate_all(
        "els => els.map(e => [e.dataset.square, e.querySelector('.letter').textContent])"
    )
    assert sorted(map(tuple, placed)) == sorted((t["square"], t["letter"]) for t in hint["tiles"])
    expect(preview_verdict(page)).to_contain_text("Legal")
    expect(page.locator(".preview-score")).to_have_text(str(hint["score"]))
    expect(page.locator(".play-area .message")).to_contain_text(hint["move"])
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(250)
        shot(page, f"hints-table-wide-{scheme}")
    page.emulate_media(color_scheme="light")
    # Take back, and again: the hint can be taken back like any proposed move.
    page.get_by_role("button", name="Take back").click()
    expect(page.locator(".board .sq.tentative")).to_have_count(0)
    page.locator(f'.hint-move[data-move="{hint["move"]}"]').click()
    expect(page.locator(".board .sq.tentative")).to_have_count(len(hint["tiles"]))
    rows = history_rows(page).count()
    action(page, "move").click()
    expect(history_rows(page)).to_have_count(rows + 1)
    expect(history_rows(page).last.locator("td.who")).to_have_text("Ana")
    expect(history_rows(page).last.locator("td.pts")).to_have_text(str(hint["score"]))
    for t in hint["tiles"]:
        expect(page.locator(f'.sq[data-square="{t["square"]}"] .letter')).to_have_text(t["letter"])
    # The hints were for the position before: gone with it.
    expect(page.locator(".hint-item")).to_have_count(0)

    # The panel follows the move (Ana's new rack, the board), and Luis's answer.
    check_unseen(page, server, server.table(table, ana))
    play_a_word(server, table, [ana, luis], "fise")
    expect(history_rows(page)).to_have_count(rows + 2)
    check_unseen(page, server, server.table(table, ana))

    # A spectator: hints allowed, said; no Hint button; the unseen tiles less the board only.
    spectator = new_page(width=390, height=844, phone=True)
    spectator.goto(f"/t/{table}")
    expect(spectator.locator(".table-meta")).to_contain_text("hints allowed")
    expect(spectator.locator(".unseen-panel")).to_be_visible()
    check_unseen(spectator, server, server.table(table))
    expect(spectator.locator("#hint-button")).to_have_count(0)

    # A phone, seated: the panels below the board.
    phone = new_page(width=390, height=844, phone=True)
    phone.goto("/")
    phone.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"tablero.seat.{table}", page.evaluate(f"localStorage.getItem('tablero.seat.{table}')")],
    )
    phone.goto(f"/t/{table}")
    expect(phone.locator(".rack-tile").first).to_be_visible()
    phone.locator("#hint-button").click()
    expect(phone.locator(".hint-item")).not_to_have_count(0)
    board = phone.locator(".board").bounding_box()
    for panel in (".hints-panel", ".unseen-panel"):
        expect(phone.locator(panel)).to_be_visible()  # not in the middle of a re-render
        b = phone.locator(panel).bounding_box()
        assert board and b and b["y"] >= board["y"] + board["height"], f"{panel} is not below"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        phone.wait_for_timeout(250)
        shot(phone, f"hints-table-phone-{scheme}")


def test_a_table_without_hints_has_no_hint_button_and_counts_in_romanian(
    new_page: Any, server: Any
) -> None:
    page = new_page()
    table = create_table(page, variant="fise", nickname="Ana")
    assert server.table(table)["hints"] is False
    luis = server.sit(table, 1, "Luis")
    ana = seat_token(page, table)
    expect(page.locator(".rack-tile").first).to_be_visible()
    expect(page.locator(".table-meta")).to_contain_text("no hints")
    expect(page.locator("#hint-button")).to_have_count(0)
    expect(page.locator(".hints-panel")).to_be_hidden()
    check_unseen(page, server, server.table(table, ana))
    play_a_word(server, table, [ana, luis], "fise")
    # A rack without a word exchanges first (play_a_word): one row per turn the server kept.
    expect(history_rows(page)).to_have_count(len(server.table(table, ana)["history"]))
    check_unseen(page, server, server.table(table, ana))

    # A spectator reading Romanian: "fără indicii", and the counts in their plural forms.
    watcher = new_page(locale="ro-RO")
    watcher.goto(f"/t/{table}")
    expect(watcher.locator(".table-meta")).to_contain_text("fără indicii")
    expect(watcher.locator(".unseen-panel summary")).to_contain_text("Piese nevăzute")
    check_unseen(watcher, server, server.table(table), lang="ro")
    expect(watcher.locator(".unseen-sums")).to_contain_text(re.compile(r"\d+ de vocale"))
    # The panel folds away and opens again.
    watcher.locator(".unseen-panel summary").click()
    expect(watcher.locator(".unseen-tiles")).to_be_hidden()
    watcher.locator(".unseen-panel summary").click()
    expect(watcher.locator(".unseen-tiles")).to_be_visible()
