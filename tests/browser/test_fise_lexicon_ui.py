"""A FISE table played with the federation's dictionary as the operator installed it: chosen
in the lobby's form, named in the lobby and at the table, played to the end against the
computer, downloaded as GCG and read back with its dictionary.

The server's ``fise2`` is the project's own small sample of the FISE-2 distribution
(``tests/lexicon/fise_sample.py``), installed with ``tablero lexicon add`` as a club would.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tablero.formats.gcg import read_gcg
from tablero.lexicon import _CACHE, Lexicon

from .ui import action, create_table, table_id


def test_a_fise_table_with_the_installed_fise2(new_page: Any, server: Any, shot: Any) -> None:
    page = new_page()
    page.goto("/")
    page.select_option("#variant", "fise")
    picker = page.locator("#lexicon")
    expect(page.locator("#lexicon-field")).to_be_visible()
    expect(picker.locator("option")).to_have_text(
        [re.compile(r"^es: [\d,]+ words \(the game's own\)$"), re.compile(r"^fise2: \d+ words$")]
    )
    page.select_option("#lexicon", "fise2")
    shot(page, "lobby-dictionary")
    create_table(page, variant="fise", seats=["open", 1], nickname="Ana", lexicon="fise2")
    table = table_id(page)
    expect(page.locator(".table-subtitle")).to_contain_text("dictionary fise2")
    shot(page, "table-fise2")
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator(".table-subtitle")).to_contain_text("dictionary fise2")
    shot(page, "table-fise2-phone")
    page.set_viewport_size({"width": 1280, "height": 900})

    # The lobby names it too.
    lobby = new_page()
    lobby.goto("/")
    card = lobby.locator(f'.card[data-table="{table}"]')
    expect(card.locator(".card-meta")).to_contain_text("dictionary fise2")

    # Ana passes until the game ends (the sample's few words are seldom on a rack; three
    # scoreless rounds end a FISE game).
    for _ in range(40):
        page.wait_for_function(
            "() => document.querySelector('.turn-line.mine, .result h2') !== null"
        )
        if page.locator(".result h2").count():
            break
        turns = len(server.table(table)["history"])
        action(page, "pass").click()
        confirm = page.locator("dialog[open] button.primary")
        if confirm.count():
            confirm.click()
        page.wait_for_function(
            "n => document.querySelectorAll('.history tbody tr').length > n", arg=turns
        )
    expect(page.locator(".result h2")).to_be_visible()
    assert server.table(table)["state"] == "over"

    with page.expect_download() as download:
        page.locator("a.gcg").click()
    gcg_text = Path(download.value.path()).read_text(encoding="utf-8")
    assert "#variant fise\n" in gcg_text and "#lexicon fise2\n" in gcg_text
    gcg = read_gcg(gcg_text)
    assert gcg.lexicon == "fise2"

    # Read back, the record names a dictionary this machine has: the same words.
    previous = os.environ.get("TABLERO_DATA")
    os.environ["TABLERO_DATA"] = str(server.data)
    _CACHE.clear()
    try:
        lexicon = Lexicon.named(gcg.lexicon)
        assert lexicon.info().name == "fise2"
        assert "CANTABAMOS" in lexicon and "ARBOLES" in lexicon and "CANTARSE" not in lexicon
    finally:
        _CACHE.clear()
        if previous is None:
            del os.environ["TABLERO_DATA"]
        else:
            os.environ["TABLERO_DATA"] = previous
