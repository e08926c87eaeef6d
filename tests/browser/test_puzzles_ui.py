"""Puzzles in the browser: a shipped puzzle solved on the board from the keyboard at laptop
size (the answer nowhere on the page before), the guest then signing up and finding it on
its profile; one solved by tapping tiles on a phone in Spanish, and one given up, its answer
drawn on the board."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tablero.moves import parse_move
from tablero.puzzles.model import Puzzle
from tablero.puzzles.shipped import shipped_puzzles
from tablero.rules import resolve_place
from tablero.variant import square_name

from .test_a11y import unnamed_controls
from .ui import new_name, rack_tile, sign_up, square, type_letters

PLAIN = re.compile(r"^\S+ [A-Z()]+$")
"""An answer of plain tiles: no blank, no digraph (typed or tapped one letter a tile)."""


def new_tiles(p: Puzzle) -> tuple[list[tuple[str, str]], bool]:
    """The answer's new tiles in order, as (square, letter), and whether it goes across."""
    position = p.position()
    v = position.variant
    place = parse_move(p.answer.move, v.alphabet, v.rows, v.columns)
    new, _ = resolve_place(place, position.board)  # type: ignore[arg-type]
    return [(square_name(c), t.letter) for c, t in new], place.across  # type: ignore[union-attr]


def plain_puzzle(game: str, most_tiles: int) -> Puzzle:
    return next(
        p
        for p in shipped_puzzles(game)
        if PLAIN.match(p.answer.move) and 2 <= p.seeds.tiles <= most_tiles
    )


def test_solving_a_puzzle_from_the_keyboard(new_page: Any, shot: Any) -> None:
    p = plain_puzzle("fise", 7)
    tiles, across = new_tiles(p)
    page = new_page(width=1366, height=900)
    page.goto(f"/puzzles?id={p.id}")
    expect(page.locator(".puzzle-page")).to_have_attribute("data-puzzle", p.id)
    expect(page.locator(".rack .rack-tile")).to_have_count(7)
    assert p.answer.move not in page.content()  # nothing of the answer before an attempt
    expect(page.locator("#puzzle-game")).to_have_value("fise")
    assert unnamed_controls(page) == []
    shot(page, "puzzles-laptop")

    # A move that is not one is refused, and nothing changes.
    page.fill("#puzzle-move", "8H")
    page.click("#puzzle-check-typed")
    expect(page.locator(".puzzle-page .message")).to_contain_text("a square and a word")
    expect(page.locator("#puzzle-verdict")).to_be_hidden()

    # The answer from the keyboard: the first square (twice for down), then the letters.
    first = square(page, tiles[0][0])
    first.click()
    if not across:
        first.click()
    type_letters(page, "".join(letter for _, letter in tiles))
    for name, letter in tiles:
        expect(square(page, name).locator(".letter")).to_have_text(letter)
    page.click("#puzzle-check")
    verdict = page.locator("#puzzle-verdict")
    expect(verdict.locator(".puzzle-result")).to_have_text(
        f"Right! {p.answer.move}, {p.answer.score} points."
    )
    change = verdict.locator(".puzzle-change").inner_text()
    after = int(re.search(r"Your rating 1500 → (\d+)", change).group(1))  # type: ignore[union-attr]
    assert after > 1500
    rating = page.locator(".puzzle-solver-rating")
    expect(rating).to_have_text(f"Your rating: {after} (provisional)")
    expect(page.locator(".puzzle-streak")).to_contain_text("Solved in a row: 1")
    expect(page.locator(".puzzle-history-list li")).to_have_count(1)
    expect(page.locator("#puzzle-check")).to_be_disabled()
    assert unnamed_controls(page) == []
    shot(page, "puzzles-laptop-solved")

    page.click("#puzzle-next")
    expect(page.locator(".puzzle-page")).not_to_have_attribute("data-puzzle", p.id)
    expect(page.locator("#puzzle-verdict")).to_be_hidden()

    # The guest signs up: the attempt and the rating are the account's, on its profile next to
    # the game ratings (none yet).
    name = new_name("solver")
    sign_up(page, name, "correct horse battery")
    page.goto(f"/p/{name}")
    expect(page.locator(".profile-name")).to_have_text(name)
    expect(page.locator(".profile-ratings .hint")).to_have_text("No rated games yet.")
    card = page.locator('.profile-puzzles .puzzle-card[data-variant="fise"]')
    expect(card.locator(".rating-n")).to_have_text(str(after))
    expect(card.locator(".rating-games")).to_have_text("Puzzles tried: 1; solved: 1")
    expect(page.locator(".profile-puzzles .puzzle-card")).to_have_count(1)
    assert unnamed_controls(page) == []
    shot(page, "puzzles-profile")


def test_a_puzzle_on_a_phone_tapped_then_one_given_up(new_page: Any, shot: Any) -> None:
    p = plain_puzzle("cuvinte", 4)
    tiles, _ = new_tiles(p)
    phone = new_page(locale="es-ES", width=390, height=844, phone=True)
    phone.goto(f"/puzzles?id={p.id}")
    expect(phone.locator(".puzzle-page")).to_have_attribute("data-puzzle", p.id)
    expect(phone.locator("#puzzle-game")).to_have_value("cuvinte")
    shot(phone, "puzzles-phone")
    # Tap a tile, then its square.
    for name, letter in tiles:
        rack_tile(phone, letter).tap()
        square(phone, name).tap()
        expect(square(phone, name).locator(".letter")).to_have_text(letter)
    phone.locator("#puzzle-check").tap()
    expect(phone.locator("#puzzle-verdict .puzzle-result")).to_have_text(
        f"¡Correcto! {p.answer.move}, {p.answer.score} puntos."
    )
    shot(phone, "puzzles-phone-solved")

    # The next one, given up: the answer is drawn on the board with its score.
    phone.locator("#puzzle-next").tap()
    expect(phone.locator(".puzzle-page")).not_to_have_attribute("data-puzzle", p.id)
    shown = phone.locator(".puzzle-page").get_attribute("data-puzzle")
    phone.locator("#puzzle-give-up").tap()
    expect(phone.locator("#puzzle-verdict .puzzle-result")).to_have_text("La solución:")
    given_up = next(x for x in shipped_puzzles("cuvinte") if x.id == shown)
    expect(phone.locator("#puzzle-verdict .puzzle-top")).to_have_text(
        f"El top: {given_up.answer.move}, {given_up.answer.score} puntos."
    )
    expect(phone.locator(".sq.shown")).to_have_count(given_up.seeds.tiles)
    expect(phone.locator(".sq .score-badge")).to_have_text(str(given_up.answer.score))
    expect(phone.locator(".puzzle-history-list li")).to_have_count(2)
    shot(phone, "puzzles-phone-answer")
