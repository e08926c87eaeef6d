"""The engine's verdict in the browser: a finished game analysed from its table (the progress
bar, each player's summary), then stepped through on the replay page (the move played, its
rank and equity loss, the five best moves; pointing at one, focusing it or clicking it draws
its tiles on the board of the position before the move); a second visit shows the analysis at
once; the deeper analysis (simulation) and the choice between the two. The analysis board: a
position opened from the replay and one pasted, every move the server lists, sorted by a
column's header, drawn on hover, and simulated in rounds with a progress bar until Stop.

The games are short FISE games played through the API (two words and a resignation), so the
simulation of a whole game takes seconds.
"""

from __future__ import annotations

import math
import re
from typing import Any

from playwright.sync_api import expect

from .test_a11y import unnamed_controls
from .ui import get_text, play_a_word

WIDE = (1366, 900)
PHONE = (390, 844)


def finished_game(server: Any) -> str:
    """A FISE game of two words (or exchanges, when a rack makes no word) and a resignation."""
    spec = {"variant": "fise", "seats": [{"kind": "open"}, {"kind": "open"}], "clock_minutes": None}
    table = str(server.call("POST", "/api/tables", spec)["id"])
    tokens = [server.sit(table, 0, "Ana"), server.sit(table, 1, "Luis")]
    play_a_word(server, table, tokens, "fise")
    play_a_word(server, table, tokens, "fise")
    mover = server.table(table)["to_move"]
    server.move(table, tokens[mover], {"kind": "resign"})
    assert server.table(table)["state"] == "over"
    return table


def analysis(server: Any, table: str, method: str) -> dict[str, Any]:
    answer: dict[str, Any] = server.call("GET", f"/api/tables/{table}/analysis?method={method}")
    return answer


def moves_of(server: Any, table: str, ply: int) -> dict[str, Any]:
    """Every move of the position after ``ply`` steps, as the analysis board asks for them."""
    cgp = get_text(server, f"/api/tables/{table}/cgp?ply={ply}")
    listed: dict[str, Any] = server.call(
        "POST", "/api/positions/moves", {"cgp": cgp, "variant": "fise"}
    )
    return listed


def two(x: float) -> str:
    return f"{x:.2f}"


def shown_tiles(page: Any) -> list[tuple[str, str]]:
    """The tiles of the move looked at, as (square, letter), in board order."""
    got = page.locator(".board .sq.shown").evaluate_all(
        "els => els.map(e => [e.dataset.square, e.querySelector('.letter').textContent])"
    )
    return sorted((str(s), str(letter)) for s, letter in got)


def tiles_of(move: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((t["square"], t["letter"]) for t in move["tiles"])


def check_summary(panel: Any, result: dict[str, Any]) -> None:
    """Each player's figures in the summary table are the analysis' own."""
    table = panel.locator(".analysis-summary-table")
    expect(table.locator("thead th.who")).to_have_text([p["name"] for p in result["players"]])
    rows = {
        "mean-loss": [two(p["mean_equity_loss"]) for p in result["players"]],
        "missed-bingos": [str(p["missed_bingos"]) for p in result["players"]],
        "mistakes-small": [str(p["mistakes"]["small"]) for p in result["players"]],
        "mistakes-medium": [str(p["mistakes"]["medium"]) for p in result["players"]],
        "mistakes-large": [str(p["mistakes"]["large"]) for p in result["players"]],
    }
    for cls, cells in rows.items():
        expect(table.locator(f"tr.{cls} td")).to_have_text(cells)


def test_a_finished_game_analysed_from_its_table_and_stepped_through_on_the_replay(
    new_page: Any, server: Any, shot: Any
) -> None:
    table = finished_game(server)
    page = new_page(width=WIDE[0], height=WIDE[1])
    posts: list[str] = []
    page.on(
        "request",
        lambda r: posts.append(r.url) if r.method == "POST" and "/analysis" in r.url else None,
    )
    page.goto(f"/t/{table}")
    panel = page.locator(".analysis-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("#analysis-sim")).to_have_text("Deeper analysis (simulation)")
    assert analysis(server, table, "static")["state"] == "none"

    # Analyse: the progress bar counts the moves judged, then each player's summary.
    panel.locator("#analysis-static").click()
    progress = panel.locator('.analysis-progress[data-method="static"]')
    expect(progress.locator("progress")).to_be_visible()
    total = analysis(server, table, "static")["total"]
    assert total >= 2
    expect(progress.locator("progress")).to_have_attribute("max", str(total))
    expect(progress.locator(".analysis-progress-text")).to_have_text(
        re.compile(rf"^Analysing: \d+ of {total} moves$")
    )
    expect(panel.locator(".analysis-summary-table")).to_be_visible(timeout=60_000)
    expect(progress).to_be_hidden()
    expect(panel.locator("#analysis-static")).to_be_hidden()
    done = analysis(server, table, "static")
    assert done["state"] == "done" and done["done"] == total
    result = done["result"]
    check_summary(panel, result)
    assert posts == [page.url.split("/t/")[0] + f"/api/tables/{table}/analysis"]
    assert unnamed_controls(page) == [], "the finished table with its analysis"

    # The replay shows the analysis at once, move by move.
    panel.locator("#analysis-replay").click()
    expect(page).to_have_url(re.compile(f"/t/{table}/replay$"))
    summary = page.locator(".analysis-summary")
    expect(summary.locator(".analysis-summary-table")).to_be_visible()
    check_summary(summary, result)
    expect(page.locator("#analysis-static")).to_be_hidden()
    verdict = page.locator(".analysis-step")
    expect(verdict).to_have_text("Step forward to the first move.")

    # A placement, and an alternative placement that is not the move played.
    def placement(notation: str | None) -> bool:
        return bool(notation) and not str(notation).startswith("-")

    entry = next(
        m
        for m in result["moves"]
        if placement(m["played"]) and any(placement(x["move"]) for x in m["top"])
    )
    other = next(m for m in entry["top"] if not m["played"] and placement(m["move"]))
    page.locator(f'.replay-step-button[data-step="{entry["frame"]}"]').click()
    expect(page.locator("#replay-position")).to_have_text(
        re.compile(rf"^Step {entry['frame']} of ")
    )
    expect(verdict.locator(".analysis-move-h")).to_have_text(
        f"Move {entry['ply']}, {entry['player']}"
    )
    expect(verdict.locator(".analysis-played .notation")).to_have_text(entry["played"])
    expect(verdict.locator(".analysis-played .pts")).to_have_text(f"{entry['score']} points")
    if entry["rank"] == 1:
        expect(verdict.locator(".verdict-text")).to_have_text("The best move.")
    else:
        expect(verdict.locator(".verdict-text")).to_have_text(
            f"Rank {entry['rank']}: {two(entry['equity_loss'])} equity below the best."
        )
    listed = [m["move"] for m in entry["top"]]
    if entry["played"] not in listed:
        listed.append(entry["played"])  # under the five, with its rank
    rows = verdict.locator(".alternatives tbody tr")
    expect(rows.locator("button.move-look")).to_have_text(listed)
    expect(rows.locator("td.pts")).to_have_text(
        [str(m["score"]) for m in entry["top"]]
        + [str(entry["score"])] * (len(listed) - len(entry["top"]))
    )
    expect(rows.first.locator("td.eq")).to_have_text(two(entry["top"][0]["equity"]))
    expect(verdict.locator("tr.played")).to_have_count(1)
    page.mouse.move(5, 5)  # the pointer off the rows that took the place of the step's button
    expect(page.locator(".board .sq.shown")).to_have_count(0)
    played_squares = page.locator(".board .sq.last")
    n_played = played_squares.count()
    assert n_played >= 1, "the move of this step is marked on the board"

    # Pointing at the alternative draws its tiles on the board of the position before the move
    # (the server's tiles for that position's CGP), the move played taken off.
    before = moves_of(server, table, entry["frame"] - 1)["moves"]
    alt = next(m for m in before if m["move"] == other["move"])
    row = verdict.locator(f'tr[data-move="{other["move"]}"]')
    row.hover()
    expect(page.locator(".board .sq.shown")).to_have_count(len(alt["tiles"]))
    assert shown_tiles(page) == tiles_of(alt)
    expect(played_squares).to_have_count(0)
    expect(page.locator(".board .sq.shown .score-badge")).to_have_text(str(other["score"]))
    shot(page, "analysis-replay-wide-light")
    page.emulate_media(color_scheme="dark")
    page.wait_for_timeout(250)
    shot(page, "analysis-replay-wide-dark")
    page.emulate_media(color_scheme="light")
    page.mouse.move(5, 5)
    expect(page.locator(".board .sq.shown")).to_have_count(0)
    expect(played_squares).to_have_count(n_played)
    # The keyboard's focus does the same; a click keeps the move drawn.
    row.locator("button").focus()
    expect(page.locator(".board .sq.shown")).to_have_count(len(alt["tiles"]))
    page.locator("#replay-first").focus()
    expect(page.locator(".board .sq.shown")).to_have_count(0)
    row.locator("button").click()
    expect(row.locator("button")).to_have_attribute("aria-pressed", "true")
    page.mouse.move(5, 5)
    assert shown_tiles(page) == tiles_of(alt)
    row.locator("button").click()
    expect(row.locator("button")).to_have_attribute("aria-pressed", "false")
    page.mouse.move(5, 5)
    expect(page.locator(".board .sq.shown")).to_have_count(0)
    assert unnamed_controls(page) == [], "the replay with its analysis"

    # A second visit, another browser: the analysis is there at once, nothing asked again.
    second = new_page(width=PHONE[0], height=PHONE[1], phone=True)
    asked: list[str] = []
    second.on("request", lambda r: asked.append(r.url) if r.method == "POST" else None)
    second.goto(f"/t/{table}/replay")
    expect(second.locator(".analysis-summary .analysis-summary-table")).to_be_visible()
    check_summary(second.locator(".analysis-summary"), result)
    expect(second.locator("#analysis-static")).to_be_hidden()
    second.locator(f'.replay-step-button[data-step="{entry["frame"]}"]').click()
    expect(second.locator(".analysis-step .analysis-played .notation")).to_have_text(
        entry["played"]
    )
    second.locator(f'.analysis-step tr[data-move="{other["move"]}"] button').click()
    expect(second.locator(".board .sq.shown")).to_have_count(len(alt["tiles"]))
    assert not [u for u in asked if "/analysis" in u], "the analysis was asked for again"
    for scheme in ("light", "dark"):
        second.emulate_media(color_scheme=scheme)
        second.wait_for_timeout(250)
        shot(second, f"analysis-replay-phone-{scheme}")

    # The deeper analysis: a simulation of every move, then a choice of which to show.
    page.locator("#analysis-sim").click()
    sim_bar = page.locator('.analysis-progress[data-method="sim"]')
    expect(sim_bar.locator(".analysis-progress-text")).to_have_text(
        re.compile(rf"^Simulating: \d+ of {total} moves$")
    )
    choice = page.locator(".analysis-choice")
    expect(choice).to_be_visible(timeout=120_000)
    expect(page.get_by_label("Simulation (300 deals a move)")).to_be_checked()
    expect(page.locator(".analysis-panel .analysis-method")).to_have_text(
        "Simulation (300 deals a move)"
    )
    sim = analysis(server, table, "sim")
    assert sim["state"] == "done" and sim["result"]["method"] == "sim"
    check_summary(summary, sim["result"])
    page.get_by_label("Static equity (score and tiles kept)").check()
    check_summary(summary, result)


def test_the_analysis_board_lists_sorts_draws_and_simulates(
    new_page: Any, server: Any, shot: Any
) -> None:
    table = finished_game(server)
    page = new_page(width=WIDE[0], height=WIDE[1])

    # From a replay: the position of the step shown, with the game's rules.
    page.goto(f"/t/{table}/replay")
    page.locator('.replay-step-button[data-step="1"]').click()
    page.locator("#open-board").click()
    expect(page).to_have_url(re.compile(r"/analysis\?cgp=.+&variant=fise$"))
    first = moves_of(server, table, 1)
    count = page.locator("#move-count")
    expect(count).to_have_attribute("data-count", str(first["count"]))

    # Pasted: the position after the second step.
    cgp = get_text(server, f"/api/tables/{table}/cgp?ply=2")
    listed = server.call("POST", "/api/positions/moves", {"cgp": cgp})
    moves = listed["moves"]
    page.fill("#cgp-input", cgp)
    page.select_option("#board-variant", "")
    page.click("#show-moves")
    expect(count).to_have_attribute("data-count", str(listed["count"]))
    if listed["count"] <= 1000:
        expect(count).to_have_text(f"{listed['count']} moves")
    rows = page.locator(".aboard-moves tbody tr")
    expect(rows).to_have_count(len(moves))
    rack = cgp.split()[1].split("/")[0]
    expect(page.locator(".aboard-rack .mini-tile")).to_have_count(
        len(re.findall(r"\[[^\]]+\]|.", rack))
    )
    # The server's order first: best equity first.
    names = rows.evaluate_all("els => els.slice(0, 5).map(e => e.dataset.move)")
    assert names == [m["move"] for m in moves[:5]]

    # Sorting by points: a click on the header, descending, again ascending.
    header = page.locator('th[data-sort="score"]')
    header.locator("button").click()
    expect(header).to_have_attribute("aria-sort", "descending")
    scores = [int(x) for x in page.locator(".aboard-moves tbody td.pts").all_inner_texts()]
    assert scores == sorted((m["score"] for m in moves), reverse=True)
    header.locator("button").click()
    expect(header).to_have_attribute("aria-sort", "ascending")
    scores = [int(x) for x in page.locator(".aboard-moves tbody td.pts").all_inner_texts()]
    assert scores == sorted(m["score"] for m in moves)
    equity = page.locator('th[data-sort="equity"]')
    expect(equity).not_to_have_attribute("aria-sort", re.compile("."))
    equity.locator("button").click()
    expect(equity).to_have_attribute("aria-sort", "descending")

    # A move drawn on the board while the pointer is on it.
    best_place = next(m for m in moves if m["tiles"])
    page.locator(f'.aboard-moves tr[data-move="{best_place["move"]}"]').hover()
    expect(page.locator(".board .sq.shown")).to_have_count(len(best_place["tiles"]))
    assert shown_tiles(page) == tiles_of(best_place)
    page.mouse.move(5, 5)
    expect(page.locator(".board .sq.shown")).to_have_count(0)

    # Simulate the ten best in rounds of 50 deals, until Stop.
    rounds: list[Any] = []
    page.on(
        "response",
        lambda r: rounds.append(r) if r.url.endswith("/api/positions/simulate") else None,
    )
    page.select_option("#sim-target", "5000")
    page.click("#simulate")
    bar = page.locator("#sim-progress")
    expect(bar).to_be_visible()
    expect(bar).to_have_attribute("max", "5000")
    deals = page.locator(".aboard-sim .analysis-progress")
    expect(deals).to_have_attribute("data-deals", re.compile(r"^[1-9]\d*$"), timeout=60_000)
    expect(page.locator("#sim-progress-label")).to_have_text(re.compile(r"^\d+ of 5000 deals$"))
    page.click("#stop-sim")
    expect(page.locator("#simulate")).to_be_enabled(timeout=60_000)
    done = int(deals.get_attribute("data-deals") or 0)
    assert 50 <= done < 5000 and done % 50 == 0
    expect(page.locator(".aboard-sim-status")).to_have_text(f"Stopped after {done} deals.")
    page.wait_for_timeout(2500)
    assert int(deals.get_attribute("data-deals") or 0) == done, "the simulation went on after Stop"
    assert len(rounds) == done // 50
    # Each move's mean ± error, from the rounds' sums as the server sent them.
    sums: dict[str, list[float]] = {}
    for response in rounds:
        for m in response.json()["moves"]:
            s = sums.setdefault(m["move"], [0, 0.0, 0.0, 0.0])
            s[0] += m["iterations"]
            s[1] += m["total"]
            s[2] += m["total_sq"]
            s[3] = m["bonus"]
    assert sorted(sums) == sorted(m["move"] for m in moves[:10])
    for move, (n, total, total_sq, bonus) in sums.items():
        mean = total / n + bonus
        error = math.sqrt(max(0.0, (total_sq - total * total / n) / (n - 1)) / n)
        text = page.locator(f'.aboard-moves tr[data-move="{move}"] td.sim').inner_text()
        shown = re.fullmatch(r"(−?[\d.]+) ± ([\d.]+)", text)
        assert shown, text
        assert abs(float(shown.group(1).replace("−", "-")) - mean) <= 0.006, (move, text, mean)
        assert abs(float(shown.group(2)) - error) <= 0.006, (move, text, error)
    expect(page.locator(".aboard-moves tr.simulated")).to_have_count(10)
    page.locator('th[data-sort="sim"] button').click()
    means = page.locator(".aboard-moves tbody td.sim").evaluate_all(
        "els => els.filter(e => e.dataset.mean).map(e => Number(e.dataset.mean))"
    )
    assert len(means) == 10 and means == sorted(means, reverse=True)
    shot(page, "analysis-board-wide-light")
    page.emulate_media(color_scheme="dark")
    page.wait_for_timeout(250)
    shot(page, "analysis-board-wide-dark")
    page.emulate_media(color_scheme="light")

    # The moves ticked instead of the best ten: two, to the end of 100 deals.
    ticked = [moves[10]["move"], moves[11]["move"]] if len(moves) > 11 else [moves[0]["move"]]
    for move in ticked:
        page.get_by_label(f"Simulate {move}", exact=True).check()
    expect(page.locator("#sim-help")).to_have_text(
        f"{len(ticked)} move{'s' if len(ticked) > 1 else ''} ticked (at most 20)."
    )
    page.select_option("#sim-target", "100")
    page.click("#simulate")
    expect(page.locator(".aboard-sim-status")).to_have_text("Done: 100 deals.", timeout=60_000)
    simulated = page.locator(".aboard-moves tr.simulated").evaluate_all(
        "els => els.map(e => e.dataset.move)"
    )
    assert sorted(simulated) == sorted(ticked)
    for move in ticked:
        expect(page.locator(f'.aboard-moves tr[data-move="{move}"] td.sim')).to_have_text(
            re.compile(r"^−?[\d.]+ ± [\d.]+$")
        )
    assert unnamed_controls(page) == [], "the analysis board"

    # The address keeps the position: a reload shows it again; so does a phone.
    assert "/analysis?cgp=" in page.url
    phone = new_page(width=PHONE[0], height=PHONE[1], phone=True)
    phone.goto(page.url.split(server.base)[-1])
    # Every move of the position is found again for this page: with blanks on the rack, tens
    # of thousands of moves, seconds on a machine busy with other tests (more than the usual
    # 5 s of waiting).
    expect(phone.locator("#move-count")).to_have_attribute(
        "data-count", str(listed["count"]), timeout=30_000
    )
    phone.locator(f'.aboard-moves tr[data-move="{best_place["move"]}"] button').click()
    expect(phone.locator(".board .sq.shown")).to_have_count(len(best_place["tiles"]))
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        phone.wait_for_timeout(250)
        shot(phone, f"analysis-board-phone-{scheme}")

    # A line that is no position: the server's reason, under the field.
    page.fill("#cgp-input", "this is not a position")
    page.click("#show-moves")
    expect(page.locator("#cgp-error")).not_to_be_empty()
    expect(page.locator("#cgp-input")).to_have_attribute("aria-invalid", "true")


def test_positions_and_notations_read_for_drawing_agree_with_the_server(
    new_page: Any, server: Any
) -> None:
    """position.js reads a CGP's board and rack, and every listed move's notation into the tiles
    it puts down, exactly as the server has them (the replay falls back on the notation for a
    move the server's list lacks)."""
    table = finished_game(server)
    frames = server.call("GET", f"/api/tables/{table}/replay")["frames"]
    page = new_page()
    page.goto("/")
    for ply in range(1, len(frames) - 1):
        cgp = get_text(server, f"/api/tables/{table}/cgp?ply={ply}")
        listed = server.call("POST", "/api/positions/moves", {"cgp": cgp})
        got = page.evaluate(
            """async ([cgp, moves]) => {
              const m = await import('/static/js/position.js');
              const p = m.parseCgp(cgp);
              return {board: p.board, rack: p.racks[0], scores: p.scores, ops: p.ops,
                      tiles: moves.map((x) => m.notationTiles(x, p.board))};
            }""",
            [cgp, [m["move"] for m in listed["moves"]]],
        )
        assert got["board"] == frames[ply]["board"]
        mover = frames[ply]["to_move"]
        assert sorted(got["rack"]) == sorted(frames[ply]["racks"][mover])
        assert got["ops"]["var"] == "fise"
        for move, tiles in zip(listed["moves"], got["tiles"], strict=True):
            assert sorted(tiles, key=str) == sorted(move["tiles"], key=str), move["move"]
