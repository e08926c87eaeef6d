""" "About this game" at the table: a legend of the kinds of square the board has (only those),
each with a swatch in its colour and its name in the language of the board's labels (the rule
book's by default, the page's with the ``squareLabels`` option), and the game's description in
the page's language. An uploaded rule file without a description shows only its squares."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .ui import create_table, overlaps, until

PHONE = (390, 844)


def legend(page: Any) -> list[tuple[str, str, str]]:
    """The legend's items: (kind, the swatch's label, the name), as the page lists them."""
    items = page.locator(".square-legend li")
    expect(items.first).to_be_visible()
    return [
        (
            item.get_attribute("data-kind"),
            item.locator(".legend-swatch").inner_text(),
            item.locator(".legend-name").inner_text(),
        )
        for item in items.all()
    ]


def board_classes(page: Any) -> set[str]:
    """The premium classes of the board's squares (what the legend must list, no more)."""
    kinds = {"l2", "l3", "w2", "w3", "w4", "plus", "minus", "ex", "other"}
    classes = page.locator(".board .sq").evaluate_all("els => els.map((e) => [...e.classList])")
    return {c for cs in classes for c in cs if c in kinds}


def swatch_colour(page: Any, kind: str) -> str:
    swatch = page.locator(f'.square-legend li[data-kind="{kind}"] .legend-swatch')
    return str(swatch.evaluate("e => getComputedStyle(e).backgroundColor"))


def square_colour(page: Any, kind: str) -> str:
    square = page.locator(f".board .sq.{kind}:not(.filled)").first
    return str(square.evaluate("e => getComputedStyle(e).backgroundColor"))


def test_fise_legend_in_spanish_with_the_description_in_the_page_language(
    new_page: Any, shot: Any
) -> None:
    # The English interface, a Spanish game: the squares as the board labels them (Spanish),
    # the description in English.
    page = new_page(width=1366, height=768)
    create_table(page, variant="fise", seats=["open", "open"], nickname="Ana")
    about = page.locator(".about-panel")
    expect(about).to_have_attribute("open", "")
    expect(about.locator("summary")).to_have_text("About this game")
    assert legend(page) == [
        ("l2", "DL", "doble letra"),
        ("l3", "TL", "triple letra"),
        ("w2", "DP", "doble palabra"),
        ("w3", "TP", "triple palabra"),
        ("start", "★", "casilla de salida"),
    ]
    kinds = {k for k, _, _ in legend(page) if k != "start"}
    assert kinds == board_classes(page)
    for kind in kinds:
        assert swatch_colour(page, kind) == square_colour(page, kind), kind
    # For screen readers: a list named in the page's language, read in Spanish, swatches hidden.
    ul = page.get_by_role("list", name="The squares of this board")
    expect(ul).to_have_attribute("lang", "es")
    expect(ul).to_match_aria_snapshot(
        """
        - list "The squares of this board":
          - listitem: doble letra
          - listitem: triple letra
          - listitem: doble palabra
          - listitem: triple palabra
          - listitem: casilla de salida
        """
    )
    for swatch in page.locator(".legend-swatch").all():
        expect(swatch).to_have_attribute("aria-hidden", "true")
    expect(about.locator(".about-description")).to_contain_text(
        "The tournament rules of the Spanish-language federation"
    )
    # The legend is beside the board, not over it.
    assert not overlaps(page.locator(".board").bounding_box(), ul.bounding_box())
    shot(page, "legend-fise-1366x768")
    page.emulate_media(color_scheme="dark")
    page.wait_for_timeout(250)
    shot(page, "legend-fise-1366x768-dark")

    # Folded, it stays folded at the next table in this browser (and unfolded again).
    about.locator("summary").click()
    expect(about).not_to_have_attribute("open", "")
    page.reload()
    expect(page.locator(".board")).to_be_visible()
    expect(about).not_to_have_attribute("open", "")
    expect(page.locator(".square-legend")).to_be_hidden()
    about.locator("summary").press("Enter")
    expect(about).to_have_attribute("open", "")
    page.reload()
    expect(page.locator(".board")).to_be_visible()
    expect(about).to_have_attribute("open", "")


def test_cuvinte_legend_in_romanian_with_4w_and_ex(new_page: Any, shot: Any) -> None:
    page = new_page(locale="ro-RO", width=1366, height=900)
    create_table(page, variant="cuvinte", seats=["open", "open"], nickname="Ion")
    expect(page.locator(".about-panel summary")).to_have_text("Despre acest joc")
    assert legend(page) == [
        ("l2", "LD", "literă dublă"),
        ("l3", "LT", "literă triplă"),
        ("w2", "CD", "cuvânt dublu"),
        ("w3", "CT", "cuvânt triplu"),
        ("w4", "4C", "cuvânt ×4 la capătul cuvântului"),
        ("ex", "EX", "pătrat EX: amestecă suportul jucătorului următor"),
        ("start", "★", "pătrat de start"),
    ]
    assert {k for k, _, _ in legend(page) if k != "start"} == board_classes(page)
    # Romanian page, Romanian game: no lang of its own on the list.
    assert page.locator(".square-legend").get_attribute("lang") is None
    expect(page.locator(".about-description")).to_contain_text("Jocul românesc online")
    shot(page, "legend-cuvinte-ro-1366x900")


def test_letras_top_legend_has_the_plus_and_minus_squares(new_page: Any, shot: Any) -> None:
    page = new_page(locale="es-ES", width=1920, height=1080)
    create_table(page, variant="letras_top", seats=["open", "open"], nickname="Eva")
    expect(page.locator(".about-panel summary")).to_have_text("Sobre este juego")
    items = legend(page)
    assert ("plus", "+10", "+10 a la palabra") in items
    assert ("minus", "\u22125", "\u22125 a la palabra") in items
    assert {k for k, _, _ in items if k != "start"} == board_classes(page)
    assert swatch_colour(page, "plus") == square_colour(page, "plus")
    assert swatch_colour(page, "minus") == square_colour(page, "minus")
    expect(page.locator(".about-description")).to_contain_text("El juego de Plastigal")
    shot(page, "legend-letras-top-es-1920x1080")


def test_names_in_the_interface_language_with_the_option(new_page: Any, shot: Any) -> None:
    page = new_page(width=1366, height=768)
    create_table(page, variant="fise", seats=["open", "open"], nickname="Ana")
    page.click("#options-button")
    page.select_option("#opt-labels", "interface")
    page.keyboard.press("Escape")
    expect(page.locator('.sq[data-square="A1"] .lbl')).to_have_text("3W")
    assert legend(page) == [
        ("l2", "2L", "double letter"),
        ("l3", "3L", "triple letter"),
        ("w2", "2W", "double word"),
        ("w3", "3W", "triple word"),
        ("start", "★", "start square"),
    ]
    assert page.locator(".square-legend").get_attribute("lang") is None
    shot(page, "legend-fise-interface-labels")


def test_an_upload_without_a_description_shows_only_its_squares(new_page: Any, shot: Any) -> None:
    page = new_page(locale="es-ES")
    create_table(page, upload="mini.toml", seats=["open", "open"], nickname="Ana")
    expect(page.locator(".about-panel")).to_have_count(1)
    expect(page.locator(".about-description")).to_have_count(0)
    items = legend(page)
    assert {k for k, _, _ in items if k != "start"} == board_classes(page)
    assert ("plus", "+10", "+10 a la palabra") in items


def test_on_a_phone_the_panel_is_folded_under_the_buttons(new_page: Any, shot: Any) -> None:
    page = new_page(locale="es-ES", width=PHONE[0], height=PHONE[1], phone=True)
    create_table(page, variant="cuvinte", seats=["open", "open"], nickname="Ana")
    about = page.locator(".about-panel")
    expect(about).not_to_have_attribute("open", "")
    expect(page.locator(".square-legend")).to_be_hidden()
    summary = about.locator("summary")
    expect(summary).to_have_text("Sobre este juego")

    def below_the_play_area() -> bool:
        """The summary under the board, the rack and the buttons, once the page has laid
        them out (the board and the moves list grow as the first view arrives)."""
        play = page.locator(".play-area").bounding_box()
        box = summary.bounding_box()
        return bool(play and box and box["y"] >= play["y"] + play["height"])

    until(page, below_the_play_area, tries=100)
    summary.click()
    expect(about).to_have_attribute("open", "")
    # The rule book's Romanian names in the Spanish interface, the description in Spanish.
    assert ("w4", "4C", "cuvânt ×4 la capătul cuvântului") in legend(page)
    expect(page.locator(".about-description")).to_contain_text("El juego rumano en línea")
    assert not overlaps(
        page.locator(".board").bounding_box(), page.locator(".square-legend").bounding_box()
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    shot(page, "legend-cuvinte-phone")
    page.emulate_media(color_scheme="dark")
    page.wait_for_timeout(250)
    shot(page, "legend-cuvinte-phone-dark")
