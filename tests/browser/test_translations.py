"""Every string translated: game titles and descriptions, square labels and their spoken
names, and the server's reasons (an illegal move, an API error) in Spanish and Romanian."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .ui import (
    create_table,
    preview_verdict,
    rack,
    seat_token,
    sit_from_lobby,
    square,
    type_letters,
)


def test_game_titles_in_spanish_and_romanian(new_page: Any, shot: Any) -> None:
    es = new_page(locale="es-ES")
    es.goto("/")
    option = es.locator('#variant option[value="fise"]')
    expect(option).to_have_text("Español FISE (reglas de torneo) (15×15)")
    es.select_option("#variant", "fise")
    expect(es.locator("#variant-description")).to_contain_text("casilla central")
    table = create_table(es, variant="fise", seats=["open", 1], nickname="Ana")
    expect(es.locator(".table-subtitle")).to_contain_text("Español FISE (reglas de torneo)")
    expect(es.locator(".table-title")).to_have_text("Español FISE (reglas de torneo)")
    assert "FISE Spanish" not in es.locator(".table-head").inner_text()

    ro = new_page(locale="ro-RO")
    ro.goto("/")
    card = ro.locator(f'.card[data-table="{table}"]')
    expect(card.locator(".game")).to_have_text("Spaniolă FISE (reguli de turneu)")
    ro.select_option("#variant", "cuvinte")
    expect(ro.locator("#variant-description")).to_contain_text("Jocul românesc online")
    ro.goto(f"/t/{table}")
    expect(ro.locator(".table-title")).to_have_text("Spaniolă FISE (reguli de turneu)")
    shot(ro, "translations-title-ro")


def labels(page: Any, squares: list[str]) -> list[str]:
    return [page.locator(f'.sq[data-square="{s}"] .lbl').inner_text() for s in squares]


def test_square_labels_in_the_games_language_and_names_in_the_pages(
    new_page: Any, shot: Any
) -> None:
    # A Spanish game in the Romanian interface: the labels are the rule book's (Spanish), with
    # their Spanish legend on hover; each square's spoken name is Romanian.
    ro = new_page(locale="ro-RO")
    create_table(ro, variant="fise", seats=["open", "open"], nickname="Ion")
    assert labels(ro, ["A1", "D1", "B2", "F2"]) == ["TP", "DL", "DP", "TL"]
    expect(ro.locator('.sq[data-square="D1"] .lbl')).to_have_attribute("title", "doble letra")
    expect(ro.locator('.sq[data-square="A1"] .lbl')).to_have_attribute("title", "triple palabra")
    grid = ro.get_by_role("grid")
    expect(grid.get_by_role("gridcell", name="H8, cuvânt dublu, pătrat de start")).to_have_count(1)
    expect(grid.get_by_role("gridcell", name="D1, literă dublă", exact=True)).to_have_count(1)
    shot(ro, "translations-labels-fise-ro")

    # Options: the labels in the page's language instead (Romanian: CT, LD, CD, LT).
    ro.click("#options-button")
    ro.select_option("#opt-labels", "interface")
    ro.keyboard.press("Escape")
    expect(ro.locator('.sq[data-square="A1"] .lbl')).to_have_text("CT")
    assert labels(ro, ["A1", "D1", "B2", "F2"]) == ["CT", "LD", "CD", "LT"]
    expect(ro.locator('.sq[data-square="D1"] .lbl')).to_have_attribute("title", "literă dublă")

    # A Romanian game in the Spanish interface: Romanian labels, Spanish names.
    es = new_page(locale="es-ES")
    create_table(es, variant="cuvinte", seats=["open", "open"], nickname="Ana")
    assert labels(es, ["A1", "C1", "E1", "B2", "F2", "H5"]) == ["4C", "LD", "CT", "CD", "LT", "EX"]
    grid = es.get_by_role("grid")
    expect(grid.get_by_role("gridcell", name="C1, doble letra", exact=True)).to_have_count(1)
    expect(grid.get_by_role("gridcell", name="E1, triple palabra", exact=True)).to_have_count(1)
    expect(
        grid.get_by_role("gridcell", name="A1, palabra ×4 en un extremo de la palabra", exact=True)
    ).to_have_count(1)
    shot(es, "translations-labels-cuvinte-es")
    phone = new_page(locale="es-ES", width=390, height=844, phone=True)
    create_table(phone, variant="letras_top", seats=["open", "open"], nickname="Eva")
    lbls = phone.locator(".sq .lbl").all_inner_texts()
    assert "+10" in lbls and "\u221210" not in lbls and any(x.startswith("\u2212") for x in lbls)
    assert "DP" in lbls or "TP" in lbls
    shot(phone, "translations-labels-letras-top-es-phone")


def place_two(page: Any, first: str) -> None:
    """Put two single-letter rack tiles on the board from ``first`` across, by typing, once
    the page knows the game has started (the start redraws the table: keys typed during it
    are lost)."""
    turn = page.locator(".turn-line")
    expect(turn).to_have_text(re.compile(r"\S"))
    expect(turn).not_to_have_text(re.compile("Waiting|Esperando|Se așteaptă"))
    singles = [x for x in rack(page) if len(x) == 1 and x != "?"]
    # Not two that spell a digraph (C then H, L then L, R then R): with a CH, LL or RR tile on
    # the rack, typing them puts down that one tile, as a player typing would want.
    pairs = [
        (a, b)
        for i, a in enumerate(singles)
        for j, b in enumerate(singles)
        if i != j and a + b not in ("CH", "LL", "RR")
    ]
    assert pairs, rack(page)
    letters = pairs[0]
    square(page, first).click()
    type_letters(page, "".join(letters))
    expect(page.locator(".board .sq.tentative")).to_have_count(2)


def test_server_reasons_in_spanish_and_romanian(new_page: Any, shot: Any) -> None:
    # A first move off the start square: the rule's reason with the squares it names.
    es = new_page(locale="es-ES")
    table = create_table(es, variant="letras_top", seats=["open", "open"], nickname="Ana")
    ro = new_page(locale="ro-RO")
    sit_from_lobby(ro, table, "Ion")
    for page, text in (
        (es, "La primera palabra debe cubrir H8 o J11."),
        (ro, "Primul cuvânt trebuie să acopere H8 sau J11."),
    ):
        place_two(page, "A1")
        expect(preview_verdict(page)).to_have_text(re.compile(re.escape(text)))
    shot(es, "translations-reason-es")
    shot(ro, "translations-reason-ro")

    # An API error (a hint at a table without hints) and reasons from their params, in Spanish;
    # a code the page has no words for keeps the server's English.
    said = es.evaluate(
        """async ([table, token]) => {
          const m = await import("/static/js/api.js");
          const out = {};
          try { await m.api.hint(table, token); } catch (e) { out.hint = m.errorText(e); }
          out.lexicon = m.errorText({ code: "not_in_lexicon", message: "not in the dictionary: XQ",
            params: { words: ["XQ", "QX"] } });
          out.rack = m.errorText({ code: "not_on_rack", message: "?",
            params: { tile: "?", have: 0 } });
          out.unknown = m.errorText({ code: "some_new_rule", message: "the server's words" });
          return out;
        }""",
        [table, seat_token(es, table)],
    )
    assert said == {
        "hint": "Esta mesa no permite pistas.",
        "lexicon": "No está en el diccionario: XQ, QX.",
        "rack": "Un comodín no está en tu atril.",
        "unknown": "the server's words",
    }
