"""The table: previews, moves, refusals that change nothing, a whole game, GCG download."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablero.alphabet import SPANISH
from tablero.formats.gcg import read_gcg, replay_gcg
from tablero.lexicon import WordListLexicon

from .games import (
    api_tiles,
    best_placement,
    mini_toml,
    mini_variant,
    play_turn,
    two_players,
    upload,
    zeta_toml,
)
from .harness import Server


def error(r: Any) -> dict[str, Any]:
    body = r.json()
    assert set(body) == {"error"}, body
    return dict(body["error"])


def stable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what changes by itself as time passes."""
    out = {k: v for k, v in view.items() if k != "server_time"}
    out["seats"] = [{k: v for k, v in s.items() if k != "clock_remaining"} for s in view["seats"]]
    return out


def mover(server: Server, table: str, tokens: dict[int, str]) -> tuple[int, str, dict[str, Any]]:
    view = server.view(table)
    seat = view["to_move"]
    return seat, tokens[seat], server.view(table, tokens[seat])


def test_preview_says_legal_or_why_not(server: Server) -> None:
    table, tokens = two_players(server, "fise")
    seat, token, view = mover(server, table, tokens)
    other = tokens[1 - seat]
    rack = view["you"]["rack"]
    values = {t["letter"]: t["value"] for t in server.get("/api/variants/fise").json()["tiles"]}
    url = f"/api/tables/{table}/preview"

    tiles = api_tiles(["H8", "I8"], rack)
    r = server.post(url, {"tiles": tiles}, token)
    assert r.status_code == 200, r.text
    p = r.json()
    assert p["legal"] and p["your_turn"] and p["seq"] == view["seq"], p
    # H8 is the centre 2W square: both tiles' values, doubled.
    expected = 2 * sum(0 if t["blank"] else values[t["letter"]] for t in tiles)
    assert p["score"] == expected and p["words"][0]["score"] == expected
    assert p["breakdown"][-1] == f"total {expected}"
    assert p["detail"]["words"][0]["squares"][0]["effect"] == "2W"
    assert p["words_valid"] is None and p["invalid_words"] is None  # no dictionary hints
    assert p["move"].startswith("8H ")

    for squares, rule in [
        (["H8", "J8"], "gap"),
        (["H8", "I9"], "not_in_line"),
        (["A1", "B1"], "start_square"),
        (["H8"], "first_word_too_short"),
    ]:
        p = server.post(url, {"tiles": api_tiles(squares, rack)}, token).json()
        assert not p["legal"] and p["rule"] == rule, (squares, p)
        assert p["reason"] and p["score"] is None and p["words"] == []
    p = server.post(url, {"tiles": []}, token).json()
    assert not p["legal"] and p["rule"] == "no_new_tiles"
    missing = next(x for x in ("Ñ", "X", "Z", "J", "Q") if x not in rack)
    p = server.post(
        url,
        {"tiles": [{"square": "H8", "letter": missing}, {"square": "I8", "letter": missing}]},
        token,
    ).json()
    assert not p["legal"] and p["rule"] == "not_on_rack"
    # The other player composes while waiting: checked against their own rack.
    other_rack = server.view(table, other)["you"]["rack"]
    p = server.post(url, {"tiles": api_tiles(["H8", "H9"], other_rack)}, other).json()
    assert p["legal"] and not p["your_turn"]

    for body, field in [
        ({"tiles": [{"square": "Z99", "letter": "A"}]}, "tiles[0].square"),
        ({"tiles": [{"square": "H8", "letter": "1"}]}, "tiles[0].letter"),
        ({"tiles": [{"square": "H8", "letter": "?", "blank": True}]}, "tiles[0].letter"),
        ({"tiles": [{"square": "H8", "letter": "A"}, {"square": "h8", "letter": "E"}]}, "tiles[1]"),
        ({"tiles": [{"letter": "A"}]}, "tiles[0].square"),
    ]:
        r = server.post(url, body, token)
        assert r.status_code == 422, r.text
        assert error(r)["code"] == "invalid_request" and error(r)["field"] == field, r.text


def test_preview_with_dictionary_hints(server: Server, mini_es: WordListLexicon) -> None:
    table, tokens = two_players(server, upload(server), dictionary_hints=True)
    _seat, token, view = mover(server, table, tokens)
    url = f"/api/tables/{table}/preview"
    p = server.post(url, {"tiles": api_tiles(["E5", "F5"], view["you"]["rack"])}, token).json()
    assert p["legal"] and p["words_valid"] is True and p["invalid_words"] == [], p
    # Only Z tiles: every word is missing from the dictionary.
    table, tokens = two_players(server, upload(server, zeta_toml()), dictionary_hints=True)
    _seat, token, view = mover(server, table, tokens)
    p = server.post(
        f"/api/tables/{table}/preview",
        {"tiles": api_tiles(["E5", "F5"], view["you"]["rack"])},
        token,
    ).json()
    assert p["legal"] and p["words_valid"] is False and p["invalid_words"] == ["ZZ"]
    assert not mini_es.contains("ZZ")
    # Without hints a table says nothing about words.
    table, tokens = two_players(server, upload(server, zeta_toml()))
    _seat, token, view = mover(server, table, tokens)
    p = server.post(
        f"/api/tables/{table}/preview",
        {"tiles": api_tiles(["E5", "F5"], view["you"]["rack"])},
        token,
    ).json()
    assert p["legal"] and p["words_valid"] is None and p["invalid_words"] is None


def test_rejected_moves_change_nothing(server: Server) -> None:
    table, tokens = two_players(server, "fise")
    seat, token, view = mover(server, table, tokens)
    other = tokens[1 - seat]
    rack = view["you"]["rack"]
    before = {s: stable(server.view(table, t)) for s, t in tokens.items()}
    spectator_before = stable(server.view(table))
    seq = view["seq"]
    missing = next(x for x in ("Ñ", "X", "Z", "J", "Q") if x not in rack)
    attempts = [
        (
            token,
            {"seq": seq, "move": {"kind": "place", "tiles": api_tiles(["H8", "J8"], rack)}},
            422,
            "gap",
        ),
        (
            token,
            {"seq": seq, "move": {"kind": "place", "tiles": api_tiles(["A1", "A2"], rack)}},
            422,
            "start_square",
        ),
        (token, {"seq": seq, "move": {"kind": "exchange", "tiles": [missing]}}, 422, "not_on_rack"),
        (
            token,
            {"seq": seq, "move": {"kind": "exchange", "tiles": rack * 2}},
            422,
            "exchange_too_many_tiles",
        ),
        (
            token,
            {"seq": seq, "move": {"kind": "cambio", "square": "H8", "letter": "A"}},
            422,
            "no_cambio",
        ),
        (token, {"seq": seq, "move": {"kind": "challenge"}}, 422, "challenge_not_allowed"),
        (token, {"seq": seq, "move": {"kind": "notation", "text": "8H"}}, 422, "notation"),
        (token, {"seq": seq, "move": {"kind": "notation", "text": "99Z CASA"}}, 422, "notation"),
        (token, {"seq": seq, "move": {"kind": "dance"}}, 422, "invalid_request"),
        (token, {"seq": seq, "move": {"kind": "place"}}, 422, "invalid_request"),
        (
            token,
            {"seq": seq, "move": {"kind": "place", "tiles": [{"square": "H8"}]}},
            422,
            "invalid_request",
        ),
        (token, {"seq": seq, "move": {"kind": "place", "tiles": "H8"}}, 422, "invalid_request"),
        (token, {"seq": "x", "move": {"kind": "pass"}}, 422, "invalid_request"),
        (token, {"move": {"kind": "pass"}}, 422, "invalid_request"),
        (token, {"seq": seq - 1, "move": {"kind": "pass"}}, 409, "stale_seq"),
        (token, {"seq": seq + 1, "move": {"kind": "pass"}}, 409, "stale_seq"),
        (other, {"seq": seq, "move": {"kind": "pass"}}, 409, "not_your_turn"),
        ("forged-token", {"seq": seq, "move": {"kind": "pass"}}, 401, "bad_token"),
        (None, {"seq": seq, "move": {"kind": "pass"}}, 401, "token_required"),
    ]
    by_http = {}
    for n, (who, body, status, code) in enumerate(attempts):
        r = server.post(f"/api/tables/{table}/move", body, who)
        assert r.status_code == status, (body, r.text)
        e = error(r)
        assert e["code"] == code, (body, e)
        assert e["message"]
        if code == "stale_seq":
            assert e["seq"] == seq
        if status == 422 and code not in ("invalid_request", "notation"):
            assert e["rule"] == code
        if who == token and "seq" in body and isinstance(body["seq"], int):
            by_http[n] = e
    # The same refusals over the mover's WebSocket: the same error body, params included (a
    # client words the reason from them in its own language).
    assert by_http[0]["params"] == {"square": "I8"}
    assert by_http[1]["params"] == {"squares": ["H8"]}
    assert by_http[2]["params"]["tile"] == missing
    with server.ws(table, token) as sock:
        sock.until(lambda m: m["type"] == "state")
        for n, e in by_http.items():
            sock.send({"type": "move", "id": n, **attempts[n][1]})
            sent = sock.until(lambda m, n=n: m["type"] == "error" and m["id"] == n)
            assert sent["error"] == e, (attempts[n][1], sent)
    r = server.post(
        f"/api/tables/{table}/move",
        content=b"[",
        headers={"Content-Type": "application/json"},
        token=token,
    )
    assert r.status_code == 400 and error(r)["code"] == "bad_json"
    assert {s: stable(server.view(table, t)) for s, t in tokens.items()} == before
    assert stable(server.view(table)) == spectator_before


def test_moves_pass_exchange_and_lost_turn(server: Server, mini_es: WordListLexicon) -> None:
    table, tokens = two_players(server, "fise")
    seat, token, view = mover(server, table, tokens)
    rack = view["you"]["rack"]
    r = server.move(table, token, {"kind": "exchange", "tiles": rack[:3]}, view["seq"])
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ok"] and body["result"]["kind"] == "exchanged" and body["result"]["move"] == "-3"
    assert body["seq"] == view["seq"] + 1 == body["table"]["seq"]
    after = body["table"]["you"]["rack"]
    assert len(after) == 7 and Counter(after) >= Counter(rack[3:])
    history = server.view(table)["history"]
    assert history[-1] == {
        "n": 1,
        "seat": seat,
        "nickname": ["Ana", "Luis"][seat],
        "kind": "exchanged",
        "move": "-3",
        "score": 0,
        "total": 0,
        "tiles": 3,
    }
    # The other player: a placement whose word is not in the dictionary costs the turn.
    seat2, token2, view2 = mover(server, table, tokens)
    assert seat2 != seat
    rack2 = view2["you"]["rack"]
    tiles = api_tiles(["H8", "I8"], rack2)
    word = "".join(t["letter"] for t in tiles)
    r = server.move(table, token2, {"kind": "place", "tiles": tiles}, view2["seq"])
    body = r.json()
    if mini_es.contains(word):  # only pairs of A E O S L R are words: then it scores
        assert body["result"]["kind"] == "placed"
        return
    assert body["result"]["kind"] == "lost_turn" and body["result"]["score"] == 0
    assert word in body["result"]["reason"]
    assert sorted(body["table"]["you"]["rack"]) == sorted(rack2)
    assert all(cell is None for row in body["table"]["board"] for cell in row)
    entry = server.view(table)["history"][-1]
    assert (
        entry["kind"] == "lost_turn" and entry["move"].startswith("8H") and word in entry["reason"]
    )
    # Pass by notation.
    seat3, token3, view3 = mover(server, table, tokens)
    assert seat3 == seat
    r = server.move(table, token3, {"kind": "notation", "text": "-"}, view3["seq"])
    assert r.json()["result"]["kind"] == "passed"


def test_two_players_play_a_whole_game(server: Server, mini_es: WordListLexicon) -> None:
    text = mini_toml()
    ref = upload(server, text)
    variant = mini_variant(text)
    table, tokens = two_players(server, ref)
    turns = 0
    while server.view(table)["state"] == "playing":
        seat = server.view(table)["to_move"]
        play_turn(server, table, tokens[seat], variant, mini_es)
        turns += 1
        assert turns < 200
    final = server.view(table, tokens[0])
    result = final["result"]
    assert final["state"] == "over" and final["to_move"] is None
    assert result["reason"] in ("going_out", "scoreless_rounds", "no_one_can_play")
    assert result["final_scores"] == [s["score"] for s in final["seats"]]
    for seat in (0, 1):
        played = [
            h for h in final["history"] if h["seat"] == seat and h["kind"] != "challenge_upheld"
        ]
        moves_total = played[-1]["total"] if played else 0
        assert moves_total == result["scores_before"][seat]
        adjustments = sum(a["points"] for a in result["adjustments"][seat])
        assert result["final_scores"][seat] == moves_total + adjustments
    assert next(r["seat"] for r in result["ranking"]) in result["winners"]
    # The rack left is public once the game is over; the tile count adds up.
    on_board = sum(cell is not None for row in final["board"] for cell in row)
    left = sum(len(r) for r in result["racks_left"])
    assert on_board + left + final["bag_count"] == 33
    # Moves are refused after the end.
    r = server.move(table, tokens[0], {"kind": "pass"}, final["seq"])
    assert r.status_code == 409 and error(r)["code"] == "game_over"
    # The GCG download replays to the same final scores.
    r = server.get(f"/api/tables/{table}/gcg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert "attachment" in r.headers["content-disposition"]
    gcg = read_gcg(r.text)
    assert [p.name for p in gcg.players] == ["Ana", "Luis"] and gcg.variant == "mini"
    assert replay_gcg(gcg, variant) == result["final_scores"]
    assert all(t.rack is not None for t in gcg.turns if t.kind == "place")


def test_gcg_while_playing_hides_racks(server: Server, mini_es: WordListLexicon) -> None:
    text = mini_toml()
    ref = upload(server, text)
    variant = mini_variant(text)
    table, tokens = two_players(server, ref)
    assert (
        server.get(f"/api/tables/{server.create(ref, [{'kind': 'open'}] * 2)}/gcg").status_code
        == 409
    )
    for _ in range(3):
        play_turn(server, table, tokens[server.view(table)["to_move"]], variant, mini_es)
    _seat, token, view = mover(server, table, tokens)
    server.move(table, token, {"kind": "exchange", "tiles": view["you"]["rack"][:2]}, view["seq"])
    gcg = read_gcg(server.get(f"/api/tables/{table}/gcg").text)
    assert all(t.rack is None for t in gcg.turns)
    assert gcg.turns[-1].move == "-2"
    racks = {"".join(server.view(table, t)["you"]["rack"]) for t in tokens.values()}
    text_out = server.get(f"/api/tables/{table}/gcg").text
    for line in text_out.splitlines():
        assert not any(f" {r} " in line for r in racks if len(r) >= 3), line


def test_bisonte_style_challenges(server: Server) -> None:
    # Only Z tiles: the play is not a word, but in a challenge game it stays on the board
    # until someone challenges.
    table, tokens = two_players(server, upload(server, zeta_toml(CHALLENGE)))
    seat, token, view = mover(server, table, tokens)
    rack = view["you"]["rack"]
    r = server.move(
        table, token, {"kind": "place", "tiles": api_tiles(["E5", "F5"], rack)}, view["seq"]
    )
    assert r.json()["result"]["kind"] == "placed"
    scored = r.json()["result"]["score"]
    assert scored > 0
    other_view = server.view(table, tokens[1 - seat])
    assert other_view["can_challenge"] and other_view["you"]["can_challenge"]
    assert (
        not server.view(table, token)["can_challenge"] and not server.view(table)["can_challenge"]
    )
    r = server.move(table, token, {"kind": "challenge"}, other_view["seq"])
    assert r.status_code == 422 and error(r)["code"] == "nothing_to_challenge"  # not your own
    r = server.move(table, tokens[1 - seat], {"kind": "challenge"}, other_view["seq"])
    assert r.status_code == 200, r.text
    assert r.json()["result"]["kind"] == "challenge_upheld"
    after = server.view(table, token)
    assert sorted(after["you"]["rack"]) == sorted(rack)
    assert after["seats"][seat]["score"] == 0 and after["last_move_squares"] == []
    assert all(cell is None for row in after["board"] for cell in row)
    entry = after["history"][-1]
    assert (
        entry["kind"] == "challenge_upheld" and entry["target"] == seat and entry["words"] == ["ZZ"]
    )
    assert entry["score"] == -scored and entry["total"] == 0 and entry["seat"] == 1 - seat
    assert after["to_move"] == 1 - seat  # the challenger's turn goes on

    # A valid play challenged: the challenger loses a turn.
    table, tokens = two_players(server, upload(server, mini_toml(CHALLENGE)))
    seat, token, view = mover(server, table, tokens)
    r = server.move(
        table,
        token,
        {"kind": "place", "tiles": api_tiles(["E5", "F5"], view["you"]["rack"])},
        view["seq"],
    )
    assert r.json()["result"]["kind"] == "placed"
    r = server.move(table, tokens[1 - seat], {"kind": "challenge"}, r.json()["seq"])
    assert r.json()["result"]["kind"] == "challenge_failed"
    kinds = [h["kind"] for h in server.view(table)["history"]]
    assert kinds[-2:] == ["challenge_failed", "skip"]
    assert server.view(table)["to_move"] == seat  # the challenger's turn was skipped


CHALLENGE = '\n[words]\ncheck = "challenge"\n'


def test_cambio(server: Server) -> None:
    text = mini_toml("\n[cambio]\nper_game = 1\n")
    ref = upload(server, text)
    assert server.get(f"/api/variants/{ref}").json()["has_cambio"]
    table, tokens = two_players(server, ref)
    _seat, token, view = mover(server, table, tokens)
    rack = [t for t in view["you"]["rack"] if t != "?"]
    tiles = api_tiles(["E5", "F5"], rack)
    r = server.move(table, token, {"kind": "place", "tiles": tiles}, view["seq"])
    assert r.json()["result"]["kind"] == "placed", r.json()
    seat2, token2, view2 = mover(server, table, tokens)
    on_board = {t["square"]: t["letter"] for t in tiles}

    def after(sq: str, t: str) -> str:
        return {"E5": t + on_board["F5"], "F5": on_board["E5"] + t}[sq]

    choice = next(
        (sq, t)
        for sq, letter in on_board.items()
        for t in view2["you"]["rack"]
        if t not in ("?", letter) and SPANISH.is_canonical(list(after(sq, t)))
    )
    values = {t["letter"]: t["value"] for t in server.get(f"/api/variants/{ref}").json()["tiles"]}
    p = server.post(
        f"/api/tables/{table}/preview",
        {"move": {"kind": "cambio", "square": choice[0], "letter": choice[1]}},
        token2,
    ).json()
    assert p["legal"], p
    r = server.move(
        table, token2, {"kind": "cambio", "square": choice[0], "letter": choice[1]}, view2["seq"]
    )
    body = r.json()
    assert body["result"]["kind"] == "cambio", body
    word = after(*choice)
    assert body["result"]["score"] == sum(values[ch] for ch in word) == p["score"]
    table_after = body["table"]
    assert table_after["you"]["rack"].count(on_board[choice[0]]) >= 1
    assert table_after["seats"][seat2]["cambios_used"] == 1
    assert table_after["last_move_squares"] == [choice[0]]
    r = server.move(
        table, token2, {"kind": "cambio", "square": "E5", "letter": "A"}, table_after["seq"]
    )
    assert r.status_code == 409 and error(r)["code"] == "not_your_turn"


def test_four_seats_two_people_two_bots(server: Server, mini_es: WordListLexicon) -> None:
    text = mini_toml()
    ref = upload(server, text)
    variant = mini_variant(text)
    table = server.create(
        ref,
        [
            {"kind": "open"},
            {"kind": "bot", "level": 3},
            {"kind": "open"},
            {"kind": "bot", "level": 1},
        ],
    )
    tokens = {0: server.sit(table, 0, "Ana"), 2: server.sit(table, 2, "Eva")}
    import time

    deadline = time.time() + 60
    while (view := server.view(table))["state"] == "playing":
        assert time.time() < deadline
        if view["to_move"] in tokens:
            play_turn(server, table, tokens[view["to_move"]], variant, mini_es)
        else:
            time.sleep(0.05)  # a bot is thinking
    final = server.view(table)
    kinds = {h["seat"]: h["kind"] for h in final["history"]}
    assert set(kinds) == {0, 1, 2, 3}
    gcg = read_gcg(server.get(f"/api/tables/{table}/gcg").text)
    assert len(gcg.players) == 4
    assert replay_gcg(gcg, variant) == final["result"]["final_scores"]


def test_best_placement_helper_sees_only_the_view(server: Server, mini_es: WordListLexicon) -> None:
    """The test player uses nothing but the view: a spectator's view has no rack to use."""
    ref = upload(server)
    table, tokens = two_players(server, ref)
    assert server.view(table)["you"] is None
    _seat, _token, view = mover(server, table, tokens)
    assert best_placement(view, mini_variant(), mini_es) is not None
