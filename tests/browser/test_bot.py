"""A person plays the computer at a 17×15 Cuvinte în Cutie table, in Romanian.

The person's move is a real word: the test finds one for the rack on the page with the
reference move generator and the shipped Romanian dictionary (the server built its graph when
the game started; the test loads it from the same cache), then places it by tapping.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from tablero.alphabet import ROMANIAN
from tablero.board import Board, Tile
from tablero.engine.movegen.reference import generate_placements
from tablero.lexicon import load_lexicon
from tablero.rules import IllegalMove, check_placement
from tablero.variant import load_variant, square_name

from .ui import action, create_table, history_rows, rack, rack_tile, square, wait_my_turn


def find_move(view: dict[str, Any]) -> list[tuple[str, str]]:
    """A legal placement of real words for the viewer's rack, blanks kept back, as
    [(square, letter)]: the first with four tiles or more, else the longest (or none)."""
    variant = load_variant("cuvinte")
    board = Board(variant.rows, variant.columns)
    for r, row in enumerate(view["board"]):
        for c, tile in enumerate(row):
            if tile:
                board[(r, c)] = Tile(tile["letter"], tile["blank"])
    letters = [t for t in view["you"]["rack"] if t != "?"]
    lexicon = load_lexicon("ro", ROMANIAN)
    best: list[tuple[str, str]] = []
    for place in generate_placements(variant, board, letters, lexicon):
        try:
            check = check_placement(variant, board, place, letters)
        except IllegalMove:
            continue
        new = [(square_name(coord), tile.letter) for coord, tile in check.new_tiles]
        if len(new) > len(best):
            best = new
        if len(best) >= 4:  # long enough; no need to look through every placement
            break
    return best


def test_a_person_plays_the_computer_at_cuvinte(new_page: Any, server: Any, shot: Any) -> None:
    page = new_page(locale="ro-RO")
    table = create_table(page, variant="cuvinte", seats=["open", 1], nickname="Ioana")

    # The 17×15 board: columns A–Q, Cuvinte's 4W and EX squares, labelled for screen readers.
    expect(page.locator(".colhead")).to_have_text([chr(ord("A") + i) for i in range(17)])
    expect(page.locator(".rowhead")).to_have_count(15)
    expect(square(page, "Q15")).to_have_attribute(
        "aria-label", "Q15, cuvânt ×4 la capătul cuvântului"
    )
    expect(square(page, "H5")).to_have_attribute(
        "aria-label", "H5, pătrat EX: amestecă suportul jucătorului următor"
    )
    expect(page.locator(".seat .tag.bot")).to_have_text("calculator, nivelul 1")
    token = json.loads(page.evaluate(f"localStorage.getItem('tablero.seat.{table}')"))["token"]

    for _ in range(3):  # a rack with no word at all is exchanged (hardly ever needed)
        wait_my_turn(page)
        view = server.table(table, token)
        assert sorted(rack(page)) == sorted(view["you"]["rack"])
        move = find_move(view)
        if move:
            break
        action(page, "exchange").click()
        page.locator(".exchange-tile").first.click()
        page.locator("dialog.exchange-picker button.primary").click()
        expect(history_rows(page)).to_have_count(len(view["history"]) + 1)
    assert move, "no word found for three racks in a row"

    # The person's clock runs while they think; the computer's does not.
    clock = page.locator(".seat.is-you .clock")
    expect(clock).to_have_class(re.compile(r"\brunning\b"))
    shown = clock.inner_text()
    expect(clock).not_to_have_text(shown, timeout=3000)

    moves_before = len(view["history"])
    assert moves_before == len(history_rows(page).all())
    for where, letter in move:
        rack_tile(page, letter).click()
        square(page, where).click()
    expect(page.locator(".preview .verdict")).to_have_class(re.compile(r"\blegal\b"))
    score = page.locator(".preview-score").inner_text()
    shot(page, "cuvinte-preview")
    page.get_by_role("button", name="Joacă").click()

    # The computer answers by itself, and it is the person's turn again.
    expect(history_rows(page).nth(moves_before).locator(".who")).to_have_text("Ioana")
    wait_my_turn(page)
    history = server.table(table, token)["history"]
    expect(history_rows(page)).to_have_count(len(history))
    mine = history[moves_before]
    assert (mine["nickname"], mine["kind"], str(mine["score"])) == ("Ioana", "placed", score)
    assert any(
        h["seat"] == 1 and h["kind"] in ("placed", "exchanged", "passed")
        for h in history[moves_before + 1 :]
    )
    expect(history_rows(page).nth(moves_before).locator(".pts")).to_have_text(score)
    wait_my_turn(page)
    for where, letter in move:
        expect(square(page, where).locator(".letter")).to_have_text(letter)
    shot(page, "cuvinte-after-bot")
