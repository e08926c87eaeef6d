"""The UI's pure modules, run in the browser as the page loads them (ES modules from /static).

What the end-to-end tests reach only by chance: accent folding for typed keys, a rack that
changes under a placement, clock texts.
"""

from __future__ import annotations

from typing import Any

import pytest

SPANISH = ["A", "B", "C", "CH", "D", "E", "L", "LL", "N", "Ñ", "O", "R", "RR", "S"]
ROMANIAN = ["A", "B", "C", "I", "N", "S", "T"]


@pytest.fixture(scope="module")
def page(browser: Any, server: Any) -> Any:
    context = browser.new_context(base_url=server.base)
    page = context.new_page()
    page.goto("/")
    yield page
    context.close()


def run(page: Any, module: str, body: str, arg: Any = None) -> Any:
    """Evaluate ``body`` (an expression using ``m``, the module, and ``arg``) in the page."""
    return page.evaluate(
        f"async (arg) => {{ const m = await import('/static/js/{module}'); return {body}; }}", arg
    )


def test_typed_keys_fold_to_the_games_letters(page: Any) -> None:
    fold = "[...arg.keys].map((k) => m.foldKey(k, arg.letters))"
    assert run(page, "placement.js", fold, {"keys": "añÁcx1", "letters": SPANISH}) == [
        "A",
        "Ñ",
        "A",
        "C",
        None,
        None,
    ]
    # Romanian games fold every diacritic: ș → S, ț → T, î → I, ă → A; Spanish Ñ becomes N.
    assert run(page, "placement.js", fold, {"keys": "șțîăñ", "letters": ROMANIAN}) == [
        "S",
        "T",
        "I",
        "A",
        "N",
    ]


def test_a_new_rack_keeps_the_players_order_and_drops_the_placement(page: Any) -> None:
    body = """(() => {
      const p = new m.Placement();
      p.setRack(["A", "B", "?", "C"]);
      p.reorder(3, 0);                       // C to the front: C A B ?
      const arranged = p.onRack().map((i) => p.letter(i));
      p.place(2, 7, 7, "Ñ");                 // the blank as Ñ on H8
      const blank = p.tiles();
      p.take(7, 7);
      p.place(2, 7, 7);                      // put back down: the letter was forgotten
      const forgot = p.pendingBlanks().length;
      p.place(0, 7, 8);
      const unchanged = p.setRack(["C", "?", "B", "A"]);  // same tiles, server's new order
      const kept = [p.size, p.onRack().map((i) => p.letter(i))];
      const changed = p.setRack(["B", "E", "C", "S"]);    // after a move: new tiles
      return {arranged, blank, forgot, unchanged, kept, changed,
              after: [p.size, p.onRack().map((i) => p.letter(i))]};
    })()"""
    got = run(page, "placement.js", body)
    assert got["arranged"] == ["C", "A", "B", "?"]
    assert got["blank"] == [{"square": "H8", "letter": "Ñ", "blank": True}]
    assert got["forgot"] == 1
    assert got["unchanged"] is False
    assert got["kept"] == [2, ["C", "B"]]
    assert got["changed"] is True
    assert got["after"] == [0, ["C", "B", "E", "S"]]


def test_digraph_typing_joins_the_last_typed_tile(page: Any) -> None:
    body = """(() => {
      const p = new m.Placement();
      p.setRack(["C", "CH", "L"]);
      p.place(0, 0, 0);
      const digraphs = ["CH", "LL", "RR"];
      return [m.digraphCompletion(p, {r: 0, c: 0}, "H", digraphs),
              m.digraphCompletion(p, {r: 0, c: 0}, "A", digraphs),
              m.digraphCompletion(p, null, "H", digraphs),
              m.startsDigraph(p, "C", digraphs), m.startsDigraph(p, "L", digraphs)];
    })()"""
    assert run(page, "placement.js", body) == ["CH", None, None, True, False]


def test_clock_texts(page: Any) -> None:
    body = "arg.map((s) => m.formatClock(s))"
    assert run(page, "clock.js", body, [812.4, 60, 0.4, 0, -23, 3725]) == [
        "13:33",
        "1:00",
        "0:01",
        "0:00",
        "\u22120:23",
        "1:02:05",
    ]
