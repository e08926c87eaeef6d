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
