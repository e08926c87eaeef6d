"""Every string translated: game titles and descriptions, square labels and their spoken
names, and the server's reasons (an illegal move, an API error) in Spanish and Romanian."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .ui import create_table


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
    create_table(ro, variant="fise", seats=["open", 1], nickname="Ion")
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
    create_table(es, variant="cuvinte", seats=["open", 1], nickname="Ana")
    assert labels(es, ["A1", "C1", "E1", "B2", "F2", "H5"]) == ["4C", "LD", "CT", "CD", "LT", "EX"]
    grid = es.get_by_role("grid")
    expect(grid.get_by_role("gridcell", name="C1, doble letra", exact=True)).to_have_count(1)
    expect(grid.get_by_role("gridcell", name="E1, triple palabra", exact=True)).to_have_count(1)
    expect(
        grid.get_by_role("gridcell", name="A1, palabra ×4 en un extremo de la palabra", exact=True)
    ).to_have_count(1)
    shot(es, "translations-labels-cuvinte-es")
    phone = new_page(locale="es-ES", width=390, height=844, phone=True)
    create_table(phone, variant="letras_top", seats=["open", 1], nickname="Eva")
    lbls = phone.locator(".sq .lbl").all_inner_texts()
    assert "+10" in lbls and "\u221210" not in lbls and any(x.startswith("\u2212") for x in lbls)
    assert "DP" in lbls or "TP" in lbls
    shot(phone, "translations-labels-letras-top-es-phone")
