"""A word list uploaded with a rule file from the lobby form: the optional "Word list" input
sends the list to ``POST /api/wordlists`` in the rule file's language, sets the rules'
top-level ``lexicon`` to the list's id and uploads the rules; the table then judges words by
the list, and "About this game" names the list and its size. A bad list is refused next to
its input with the server's message, which names the line (as text: never markup)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .ui import (
    action,
    element_shot,
    history_rows,
    rack,
    rack_tile,
    square,
    table_id,
    wait_my_turn,
)

PHONE = (390, 844)

RULES = """# Only A tiles: every rack is AAA, so which words the list has decides every move.
name = "solo_a"
title = "Solo A (test)"
language = "es"
lexicon = "none"
players = [2, 2]
rack_size = 3

[board]
rows = 7
columns = 7
start = ["D4"]
layout = \"\"\"
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
.  .  .  .  .  .  .
\"\"\"

[tiles]
A = [30, 1]

[start]
rule = "random"
"""

LIST_NAME = "palabras-club"
CLUB_LIST = "# Las palabras del club\nAA\nAAAA\nsala\nCasa\n\nOSO\n"
"""Five words: AA is one, AAA is not."""

BAD_LIST = "SALA\n<b>1</b>\n"


def text_file(name: str, text: str) -> dict[str, Any]:
    return {"name": name, "mimeType": "text/plain", "buffer": text.encode("utf-8")}


def choose_files(page: Any, word_list: dict[str, Any]) -> None:
    """The lobby form with the word list chosen first, then the rule file (which sends both)."""
    page.goto("/")
    page.set_input_files("#wordlist", word_list)
    expect(page.locator("#wordlist-status")).to_have_text(
        "Now choose the rule file above: the list goes up with it."
    )
    page.set_input_files("#rulefile", text_file("solo_a.toml", RULES))


def test_a_word_list_goes_up_with_the_rules_and_judges_the_words(
    new_page: Any, server: Any, shot: Any, artifacts: Path
) -> None:
    page = new_page(width=1366, height=768)
    choose_files(page, text_file(f"{LIST_NAME}.txt", CLUB_LIST))
    expect(page.locator("#variant")).to_have_value(re.compile(r"^u-"))
    expect(page.locator("#wordlist-status")).to_have_text(f"{LIST_NAME}: 5 words")
    expect(page.locator(".create-form .message")).to_contain_text("“Solo A (test)” is ready")
    expect(page.locator("#wordlist-error")).to_be_hidden()
    # The uploaded rules play with the list: their lexicon line says its id.
    variant = page.locator("#variant").input_value()
    lexicon = server.call("GET", f"/api/variants/{variant}")["lexicon"]
    assert re.fullmatch(r"wl-[0-9a-f]{16}", lexicon)
    listed = server.call("GET", f"/api/wordlists/{lexicon}")
    assert (listed["name"], listed["words"], listed["language"]) == (LIST_NAME, 5, "es")
    element_shot(page.locator(".create-form"), artifacts / "word-list-form-1366x768.png")
    shot(page, "word-list-lobby-1366x768")
    # The same form as a phone shows it (the server keeps 20 uploaded rule files per address,
    # and every browser test comes from one: this window is narrowed, not a second upload).
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    expect(page.locator("#wordlist-status")).to_be_visible()
    element_shot(page.locator(".create-form"), artifacts / "word-list-form-390x844.png")
    page.set_viewport_size({"width": 1366, "height": 768})

    page.check("#hints")  # the preview says whether the words are in the dictionary
    if page.locator("#create-nickname").count():
        page.fill("#create-nickname", "Ana")
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/t/"), timeout=90_000)
    table = table_id(page)
    about = page.locator(".about-panel")
    expect(about.locator(".about-word-list .about-dictionary")).to_have_text(
        f"Dictionary: “{LIST_NAME}”, a word list uploaded with the rules (5 words)"
    )
    element_shot(about, artifacts / "word-list-about-1366x768.png")

    token = server.sit(table, 1, "Bea")
    if server.table(table, token)["to_move"] == 1:
        server.move(table, token, {"kind": "pass"})
    wait_my_turn(page)
    assert rack(page) == ["A", "A", "A"]
    # AAA is not in the list: the server's preview says so.
    for name in ("D4", "E4", "F4"):
        rack_tile(page, "A").click()
        square(page, name).click()
    expect(page.locator(".preview .dict.bad")).to_have_text("Not in the dictionary: AAA")
    shot(page, "word-list-table-refused-1366x768")
    # AA is.
    page.keyboard.press("Escape")
    expect(page.locator(".sq.tentative")).to_have_count(0)
    for name in ("D4", "E4"):
        rack_tile(page, "A").click()
        square(page, name).click()
    expect(page.locator(".preview .dict.ok")).to_have_text("Every word is in the dictionary.")
    rows = history_rows(page).count()
    action(page, "move").click()
    expect(history_rows(page)).to_have_count(rows + 1)
    expect(history_rows(page).last.locator(".mv")).to_have_text("4D AA")
    played = server.table(table)
    assert [played["board"][3][c] for c in (3, 4)] == [{"letter": "A", "blank": False}] * 2
    # Bea's A on F4 makes AAA, which the list lacks: she loses her turn, her tile goes back.
    answer = server.move(
        table, token, {"kind": "place", "tiles": [{"square": "F4", "letter": "A"}]}
    )
    assert answer["result"]["kind"] == "lost_turn", answer
    assert server.table(table)["board"][3][5] is None
    expect(history_rows(page)).to_have_count(rows + 2)
    shot(page, "word-list-table-1366x768")

    # A phone: the panel (folded there; opened to look).
    phone = new_page(width=PHONE[0], height=PHONE[1], phone=True)
    phone.goto(f"/t/{table}")
    about = phone.locator(".about-panel")
    about.locator("summary").click()
    expect(about.locator(".about-word-list")).to_contain_text(LIST_NAME)
    element_shot(about, artifacts / "word-list-about-390x844.png")


def test_a_bad_list_is_refused_next_to_its_input_naming_the_line(
    new_page: Any, shot: Any, artifacts: Path
) -> None:
    page = new_page(width=1366, height=768)
    choose_files(page, text_file("mala.txt", BAD_LIST))
    error = page.locator("#wordlist-error")
    expect(error).to_contain_text(re.compile(r"line 2: .*is not a letter of the es alphabet"))
    expect(error).to_contain_text("<")  # the line's own text, shown as text
    expect(error.locator("b")).to_have_count(0)
    expect(page.locator("#wordlist")).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".create-form .message")).to_have_text(
        "The word list was refused: see why next to it."
    )
    expect(page.locator("#wordlist-status")).to_be_hidden()
    # The rules did not go up without their list.
    expect(page.locator("#variant")).not_to_have_value(re.compile(r"^u-"))
    element_shot(page.locator(".create-form"), artifacts / "word-list-form-error-1366x768.png")

    # A good list chosen instead: the error goes, and both go up.
    page.set_input_files("#wordlist", text_file(f"{LIST_NAME}.txt", CLUB_LIST))
    expect(page.locator("#wordlist-status")).to_have_text(f"{LIST_NAME}: 5 words")
    expect(error).to_be_hidden()
    expect(page.locator("#variant")).to_have_value(re.compile(r"^u-"))


def test_a_spanish_page_says_the_list_in_spanish(new_page: Any) -> None:
    page = new_page(locale="es-ES", width=1366, height=768)
    page.goto("/")
    expect(page.locator("label[for=wordlist]")).to_have_text("Lista de palabras (opcional, .txt)")
    page.set_input_files("#wordlist", text_file(f"{LIST_NAME}.txt", CLUB_LIST))
    expect(page.locator("#wordlist-status")).to_have_text(
        "Ahora elige el archivo de reglas de arriba: la lista se sube con él."
    )
    page.set_input_files("#rulefile", text_file("solo_a.toml", RULES))
    expect(page.locator("#wordlist-status")).to_have_text(f"{LIST_NAME}: 5 palabras")
    expect(page.locator("#variant")).to_have_value(re.compile(r"^u-"))


def test_the_rule_text_gets_the_lists_id(new_page: Any) -> None:
    """The language read from the rules, and the lexicon line set, in the module itself."""
    page = new_page()
    page.goto("/")

    def run(body: str, arg: Any) -> Any:
        return page.evaluate(
            f"async (arg) => {{ const m = await import('/static/js/lobby.js'); return {body}; }}",
            arg,
        )

    wl = "wl-0123456789abcdef"
    # A top-level lexicon line is replaced (its line ending kept); one in a table is not.
    rules = 'name = "x"\r\nlexicon = "es" # the shipped one\r\n[words]\r\nlexicon = "k"\r\n'
    assert run("m.withLexicon(arg.t, arg.id)", {"t": rules, "id": wl}) == (
        f'name = "x"\r\nlexicon = "{wl}"\r\n[words]\r\nlexicon = "k"\r\n'
    )
    # None at the top: one put first.
    rules = '# rules\nname = "x"\n[board]\nlexicon = "es"\n'
    assert (
        run("m.withLexicon(arg.t, arg.id)", {"t": rules, "id": wl}) == f'lexicon = "{wl}"\n{rules}'
    )
    # The language: the top-level key, else Spanish.
    language = "m.ruleLanguage(arg)"
    assert run(language, 'name = "x"\n  language = "ro"\n[board]\n') == "ro"
    assert run(language, "language='en'\n") == "en"
    assert run(language, 'name = "x"\n[board]\nlanguage = "ro"\n') == "es"
    # The list's name: its file's, without the extension, whole characters, at most 60.
    assert run("m.listName(arg)", "club.words.txt") == "club.words"
    assert run("m.listName(arg)", "a\u0007b.txt") == "ab"
    long = run("m.listName(arg)", "😀" * 70 + ".txt")
    assert long == "😀" * 60
