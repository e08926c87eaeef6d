"""A 4-player Swiss tournament in the browser, through two rounds: the director creates it
from the Tournaments page and runs it from its page (start each round, fix a result with a
reason); one player registers from a browser of their own, three through the API; the games
are finished quickly through the API (a real word, then resignations); the pairings, the
standings and the director's log are read from the page, laptop and phone sized.

The tournament's name holds markup, which the page must show as the characters typed.
"""

from __future__ import annotations

import re
from typing import Any

import httpx2
from playwright.sync_api import expect

from .test_a11y import unnamed_controls
from .ui import PASSWORD, find_word, new_name, sign_up

NAME = "Club <b>martes</b>"


class ApiPlayer:
    """An account playing through the API (its own session)."""

    def __init__(self, base: str, name: str | None = None, sign: bool = True) -> None:
        self.name = name or new_name("tp")
        self.http = httpx2.Client(base_url=base, headers={"Origin": base}, timeout=30)
        path = "/api/accounts" if sign else "/api/login"
        r = self.http.post(path, json={"username": self.name, "password": PASSWORD})
        assert r.status_code in (200, 201), r.text

    def post(self, path: str, body: Any = None) -> Any:
        r = self.http.post(path, json={} if body is None else body)
        assert r.status_code in (200, 201), r.text
        return r.json()

    def move(self, table: str, move: dict[str, Any]) -> Any:
        seq = self.http.get(f"/api/tables/{table}").json()["seq"]
        return self.post(f"/api/tables/{table}/move", {"seq": seq, "move": move})


def boards(page: Any) -> list[tuple[str, str]]:
    """(first, second) of each board of the pairings shown."""
    rows = page.locator(".pairings-table tbody tr")
    return [
        (
            rows.nth(i).locator("td.first .player").inner_text(),
            rows.nth(i).locator("td.second").inner_text(),
        )
        for i in range(rows.count())
    ]


def standings(page: Any) -> list[tuple[str, str, str]]:
    """(player, wins, spread) of each row of the standings shown."""
    rows = page.locator(".standings-table tbody tr")
    return [
        (
            rows.nth(i).locator("td.player .player").inner_text(),
            rows.nth(i).locator("td.wins").inner_text(),
            rows.nth(i).locator("td.spread").inner_text(),
        )
        for i in range(rows.count())
    ]


def test_a_four_player_swiss_through_two_rounds(new_page: Any, server: Any, shot: Any) -> None:
    # The director creates the tournament from the Tournaments page.
    director = new_page()
    director.goto("/tournaments")
    sign_up(director, new_name("dir"), PASSWORD)
    expect(director.locator("#tourney-create")).to_be_visible()
    director.fill("#tourney-name", NAME)
    director.select_option("#tourney-variant", "fise")
    director.select_option("#tourney-format", "swiss")
    director.fill("#tourney-rounds", "2")
    director.select_option("#tourney-clock", "none")
    shot(director, "tournaments-create-laptop")
    director.click("#tourney-create")
    director.wait_for_url(re.compile(r"/tournaments/[0-9a-f]+$"))
    tid = director.url.rsplit("/", 1)[1]
    # The name as typed, as text: no element made of it.
    title = director.locator("h1.tournament-name")
    expect(title).to_have_text(NAME)
    expect(title.locator("b")).to_have_count(0)
    expect(director.locator(".tournament-title .badge")).to_have_text("Registration open")
    expect(director.locator("#tourney-start")).to_be_visible()

    # Three players register through the API, one from the page.
    api_players = [ApiPlayer(server.base) for _ in range(3)]
    for p in api_players:
        p.post(f"/api/tournaments/{tid}/register")
    ana_name = new_name("ana")
    ana = new_page(locale="es-ES")
    ana.goto(f"/tournaments/{tid}")
    sign_up(ana, ana_name, PASSWORD)
    ana.click("#tourney-register")
    expect(ana.locator(".entry-state")).to_have_text("Estás inscrito.")
    expect(ana.locator(".tournament-player-list li")).to_have_count(4)
    players = {p.name: p for p in api_players}
    players[ana_name] = ApiPlayer(server.base, ana_name, sign=False)

    # Round 1: the director starts it; the page shows the pairings, every game in play.
    director.reload()
    expect(director.locator(".tournament-player-list li")).to_have_count(4)
    director.click("#tourney-start")
    expect(director.locator(".tournament-message")).to_have_text("Round 1 has started.")
    expect(director.locator(".pairings-table tbody tr")).to_have_count(2)
    expect(director.locator(".pairings-table .badge.playing")).to_have_count(2)
    round1 = server.call("GET", f"/api/tournaments/{tid}/rounds/1")
    assert boards(director) == [(b["first"], b["second"]) for b in round1["boards"]]
    # All new players (1500 each): seeded in registration order, 1st v 3rd, 2nd v 4th.
    order = [p.name for p in api_players] + [ana_name]
    assert [(b["first"], b["second"]) for b in round1["boards"]] == [
        (order[0], order[2]),
        (order[1], order[3]),
    ]
    # The player sees their game on the page, and the table has them at seat 0, to move.
    ana.reload()
    mine = ana.locator(".pairings-table tr.is-mine")
    expect(mine).to_have_count(1)
    expect(mine.locator("a.table-link")).to_have_text("Tu partida")
    shot(ana, "tournament-player-es")
    b1, b2 = round1["boards"]
    view = players[b1["first"]].http.get(f"/api/tables/{b1['table']}").json()
    assert view["you"]["seat"] == 0 and view["to_move"] == 0 and view["title"] == f"{NAME} (1.1)"
    # The games end: board 1 a real word, then the second resigns; board 2 a resignation.
    tiles = find_word(view, "fise")
    played = players[b1["first"]].move(b1["table"], {"kind": "place", "tiles": tiles})
    score = played["result"]["score"]
    players[b1["second"]].move(b1["table"], {"kind": "resign"})
    players[b2["second"]].move(b2["table"], {"kind": "resign"})

    # The standings come in by themselves (the page looks every few seconds).
    expect(director.locator(".standings-table tbody tr")).to_have_count(4)
    expect(director.locator(".pairings-table .badge.playing")).to_have_count(0)
    first_result = director.locator(".pairings-table tbody tr").first.locator("td.pairing-result")
    expect(first_result).to_contain_text(f"{score}\u20130")
    assert standings(director) == [
        (b1["first"], "1", f"+{score}"),
        (b2["first"], "1", "0"),
        (b2["second"], "0", "0"),
        (b1["second"], "0", f"-{score}"),
    ]
    shot(director, "tournament-round1-laptop")
    director.locator("details.fix-form > summary").click()
    director.locator("details.remove-form > summary").click()
    assert unnamed_controls(director) == []  # every control, the director's forms open, named

    # Round 2: winners meet, losers meet, nobody again.
    director.click("#tourney-start")
    expect(director.locator(".tournament-message")).to_have_text("Round 2 has started.")
    expect(director.locator(".pairings-h, #pairings-h")).to_contain_text("Round 2")
    expect(director.locator(".round-link")).to_have_count(2)
    round2 = server.call("GET", f"/api/tournaments/{tid}/rounds/2")
    pairs2 = [{b["first"], b["second"]} for b in round2["boards"]]
    assert pairs2 == [{b1["first"], b2["first"]}, {b2["second"], b1["second"]}]
    assert boards(director) == [(b["first"], b["second"]) for b in round2["boards"]]
    expect(director.locator("#tourney-start")).to_be_disabled()
    expect(director.locator("#tourney-start-why")).to_have_text("Round 2 is still being played.")
    c1, c2 = round2["boards"]
    players[c1["second"]].move(c1["table"], {"kind": "resign"})

    # Board 2: the director fixes its result from the page, with a reason (the form stayed
    # open while the page was drawn again).
    expect(director.locator("details.fix-form")).to_have_attribute("open", "")
    director.fill("#fix-round", "2")
    director.fill("#fix-board", "2")
    director.fill("#fix-first", "402")
    director.fill("#fix-second", "377")
    director.fill("#fix-reason", "Hoja firmada <402–377>")
    director.click("#fix-submit")
    expect(director.locator(".tournament-message")).to_have_text("The result is fixed.")
    row2 = director.locator('.pairings-table tr[data-board="2"]')
    expect(row2.locator("td.pairing-result .scores")).to_have_text("402\u2013377")
    expect(row2.locator(".tag.fixed")).to_have_text("fixed by the director")
    expect(director.locator(".tournament-title .badge").first).to_have_text("Finished")
    expect(director.locator("#standings-h")).to_have_text("Final standings")
    log = director.locator(".tournament-log-list li")
    expect(log).to_have_count(3)
    expect(log.nth(2).locator(".what")).to_have_text(
        "Fixed round 2, board 2: In play \u2192 402\u2013377"
    )
    expect(log.nth(2).locator("q")).to_have_text("Hoja firmada <402–377>")
    final = standings(director)
    assert [row[1] for row in final] == ["2", "1", "1", "0"]
    assert final[0][0] == c1["first"] and final[3][0] == c2["second"]
    shot(director, "tournament-standings-laptop")
    director.goto(f"/tournaments/{tid}/rounds/1")
    expect(director.locator("#pairings-h")).to_contain_text("Round 1")
    expect(director.locator('.round-link[aria-current="page"]')).to_have_text("1")
    shot(director, "tournament-pairings-laptop")

    # The same pages on a phone, as a guest; and the Tournaments list.
    phone = new_page(width=390, height=844, phone=True)
    phone.goto(f"/tournaments/{tid}")
    expect(phone.locator(".standings-table tbody tr")).to_have_count(4)
    expect(phone.locator("#tourney-register")).to_have_count(0)
    expect(phone.locator(".tournament-director")).to_be_hidden()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "tournament-standings-phone")
    phone.goto(f"/tournaments/{tid}/rounds/1")
    expect(phone.locator(".pairings-table tbody tr")).to_have_count(2)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.locator("#pairings").scroll_into_view_if_needed()
    shot(phone, "tournament-pairings-phone")
    phone.goto("/tournaments")
    card = phone.locator(f'.tournament-card[data-tournament="{tid}"]')
    expect(card.locator(".tournament-name")).to_have_text(NAME)
    expect(card.locator(".badge")).to_have_text("Finished")
    assert unnamed_controls(phone) == []
    shot(phone, "tournaments-list-phone")
