"""The lobby API: games, uploaded rule files, creating tables, sitting down, tokens, pages."""

from __future__ import annotations

from .games import MINI_TOML
from .harness import Server


def error(r) -> dict:  # type: ignore[no-untyped-def, type-arg]
    body = r.json()
    assert set(body) == {"error"}, body
    return dict(body["error"])


def test_variants_list_and_render_data(server: Server) -> None:
    names = [v["name"] for v in server.get("/api/variants").json()]
    assert names == sorted(["bisonte", "crucigrama", "cuvinte", "fise", "intelect", "letras_top"])
    cuvinte = server.get("/api/variants/cuvinte").json()
    assert (cuvinte["rows"], cuvinte["columns"]) == (15, 17)
    assert len(cuvinte["squares"]) == 15 and all(len(row) == 17 for row in cuvinte["squares"])
    assert cuvinte["squares"][0][0] == "4W" and cuvinte["squares"][0][1] is None
    assert cuvinte["square_kinds"]["4W"]["kind"] == "word_end"
    assert cuvinte["square_kinds"]["EX"]["kind"] == "shuffle_next_rack"
    assert cuvinte["start_squares"] == ["I8"]
    assert cuvinte["tile_count"] == 115 == sum(t["count"] for t in cuvinte["tiles"])
    assert cuvinte["clock"]["initial_seconds"] == 900
    assert cuvinte["exchange"]["per_game"] == 3
    assert cuvinte["letters"] == [t["letter"] for t in cuvinte["tiles"] if t["letter"] != "?"]
    crucigrama = server.get("/api/variants/crucigrama").json()
    assert crucigrama["has_cambio"] and not crucigrama["has_challenge"]
    assert server.get("/api/variants/bisonte").json()["has_challenge"]
    letras = server.get("/api/variants/letras_top").json()
    assert {k["amount"] for k in letras["square_kinds"].values() if k["kind"] == "word_add"} == {
        10,
        -5,
    }
    assert "CH" in server.get("/api/variants/fise").json()["letters"]


def test_unknown_variant_and_page(server: Server) -> None:
    r = server.get("/api/variants/scrabble")
    assert r.status_code == 404 and error(r)["code"] == "not_found"
    r = server.get("/api/variants/..%2F..%2Fetc%2Fpasswd")
    assert r.status_code == 404
    r = server.get("/api/nothing")
    assert r.status_code == 404 and error(r)["code"] == "not_found"


def test_upload_a_rule_file_and_play_it(server: Server) -> None:
    r = server.post(
        "/api/variants/upload", content=MINI_TOML.encode(), headers={"Content-Type": "text/plain"}
    )
    assert r.status_code == 201, r.text
    uploaded = r.json()
    assert uploaded["source"] == "upload" and uploaded["name"] == "mini"
    assert (uploaded["rows"], uploaded["columns"], uploaded["rack_size"]) == (9, 9, 5)
    ref = uploaded["id"]
    assert server.get(f"/api/variants/{ref}").json()["tile_count"] == 33
    table = server.create(ref, [{"kind": "open"}, {"kind": "open"}])
    view = server.view(table)
    assert view["variant"] == ref and view["variant_title"] == "Mini (tests)"
    assert view["bag_count"] == 33 and len(view["board"]) == 9
    # Also as JSON.
    r = server.post("/api/variants/upload", {"toml": MINI_TOML})
    assert r.status_code == 201 and r.json()["id"] != ref


def test_broken_rule_files_get_clear_errors(server: Server) -> None:
    cases = {
        "name = 'x'\nlanguage = ": "not valid TOML",
        MINI_TOML.replace("rows = 9", "rows = 8"): "board.layout",
        MINI_TOML.replace('language = "es"', 'language = "xx"'): "language",
        MINI_TOML.replace('lexicon = "es"', 'lexicon = "/etc/passwd"'): "lexicon: must be one of",
        MINI_TOML.replace("A = [8, 1]", "A = [100000000, 1]"): "at most 255 tiles",
        MINI_TOML.replace("players = [2, 4]", "players = [1, 1]"): "at least 2 players",
        MINI_TOML[: MINI_TOML.index("A = [8, 1]")] + "Z = [40, 1]\n": "at least two different",
    }
    for text, expected in cases.items():
        r = server.post("/api/variants/upload", content=text.encode())
        assert r.status_code == 422, (expected, r.text)
        e = error(r)
        assert e["code"] == "bad_variant_file" and expected in e["message"], e
    r = server.post("/api/variants/upload", content=b"#" * (65 * 1024))
    assert r.status_code == 413 and error(r)["code"] == "too_large"
    r = server.post("/api/variants/upload", content=b"\xff\xfe")
    assert r.status_code == 422 and error(r)["code"] == "bad_variant_file"
    assert server.get("/api/variants/u-0000000000").status_code == 404


def test_create_table_options(server: Server) -> None:
    t = server.create("cuvinte", [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": 1}])
    view = server.view(t)
    assert view["state"] == "waiting" and view["seq"] == 0 and view["to_move"] is None
    assert view["clock"] == {
        "initial_seconds": 900,
        "on_timeout": "skip",
        "per_move": False,
    }  # the game's own
    assert [s["kind"] for s in view["seats"]] == ["open", "open", "bot"]
    assert view["seats"][2]["bot_level"] == 1 and view["you"] is None
    assert (
        server.view(server.create("cuvinte", [{"kind": "open"}] * 2, clock_minutes=None))["clock"]
        is None
    )
    timed = server.view(server.create("fise", [{"kind": "open"}] * 2, clock_minutes=5))
    assert timed["clock"]["initial_seconds"] == 300
    untimed_game = server.view(server.create("intelect", [{"kind": "open"}] * 2, clock_minutes=3))
    assert untimed_game["clock"] == {
        "initial_seconds": 180,
        "on_timeout": "skip",
        "per_move": False,
    }
    lobby = server.get("/api/tables").json()
    assert lobby[0]["id"] == untimed_game["id"]  # newest first
    entry = next(x for x in lobby if x["id"] == t)
    assert entry["state"] == "waiting" and entry["variant_title"] == "Cuvinte în Cutie"
    assert entry["seats"][2] == {
        "seat": 2,
        "kind": "bot",
        "nickname": "Bot 3",
        "bot_level": 1,
        "account": False,
    }


def test_create_table_refusals_change_nothing(server: Server) -> None:
    lobby = server.get("/api/tables").json()
    bad = [
        ({"variant": "fise", "seats": [{"kind": "open"}]}, 422, "bad_seats"),
        ({"variant": "fise", "seats": [{"kind": "open"}] * 5}, 422, "invalid_request"),
        (
            {"variant": "fise", "seats": [{"kind": "open"}, {"kind": "bot", "level": 9}]},
            422,
            "bad_seats",
        ),
        ({"variant": "fise", "seats": [{"kind": "open"}, {"kind": "bot"}]}, 422, "bad_seats"),
        ({"variant": "fise", "seats": [{"kind": "cat"}, {"kind": "open"}]}, 422, "invalid_request"),
        (
            {"variant": "fise", "seats": [{"kind": "open"}] * 2, "clock_minutes": 0},
            422,
            "bad_clock",
        ),
        (
            {"variant": "fise", "seats": [{"kind": "open"}] * 2, "clock_minutes": "x"},
            422,
            "invalid_request",
        ),
        ({"variant": "nope", "seats": [{"kind": "open"}] * 2}, 404, "not_found"),
        (
            {"variant": "tablero/variants/fise.toml", "seats": [{"kind": "open"}] * 2},
            404,
            "not_found",
        ),
        ({"seats": [{"kind": "open"}] * 2}, 422, "invalid_request"),
        ([1, 2], 400, "bad_json"),
    ]
    for body, status, code in bad:
        r = server.post("/api/tables", body)
        assert r.status_code == status, (body, r.text)
        assert error(r)["code"] == code, (body, r.text)
    r = server.post(
        "/api/tables", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 400 and error(r)["code"] == "bad_json"
    e = error(
        server.post("/api/tables", {"variant": "fise", "seats": [{"kind": "open"}, {"kind": "x"}]})
    )
    assert e["field"] == "seats[1].kind"
    assert server.get("/api/tables").json() == lobby


def test_sitting_down_and_nicknames(server: Server) -> None:
    t = server.create("fise", [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}])
    for nickname, code in [
        ("", "bad_nickname"),
        ("   ", "bad_nickname"),
        ("x" * 25, "bad_nickname"),
        ("Ana\nLuis", "bad_nickname"),
        ("Ana\u0000", "bad_nickname"),
    ]:
        r = server.post(f"/api/tables/{t}/sit", {"seat": 0, "nickname": nickname})
        assert r.status_code == 422 and error(r)["code"] == code, (nickname, r.text)
    r = server.post(f"/api/tables/{t}/sit", {"seat": 3, "nickname": "Ana"})
    assert r.status_code == 422 and error(r)["field"] == "seat"
    assert all(s["kind"] == "open" for s in server.view(t)["seats"])
    html = "<script>alert('x')</script>"[:24]
    token = server.sit(t, 0, html)
    assert server.view(t)["seats"][0]["nickname"] == html  # stored and sent exactly as given
    r = server.post(f"/api/tables/{t}/sit", {"seat": 0, "nickname": "Eva"})
    assert r.status_code == 409 and error(r)["code"] == "seat_taken"
    emoji = "Ana 🎲 Ñandú" + "x" * 13
    assert len(emoji) == 24
    server.sit(t, 1, emoji)
    assert server.view(t)["seats"][1]["nickname"] == emoji
    # Leave before the start, and sit again.
    r = server.post(f"/api/tables/{t}/leave", token=token)
    assert r.status_code == 200 and server.view(t)["seats"][0]["kind"] == "open"
    assert server.get(f"/api/tables/{t}", token).status_code == 401  # that token is gone
    server.sit(t, 0, "Ana")
    last = server.sit(t, 2, "Eva")
    view = server.view(t, last)
    assert view["state"] == "playing" and view["you"]["seat"] == 2 and len(view["you"]["rack"]) == 7
    r = server.post(f"/api/tables/{t}/leave", token=last)
    assert r.status_code == 409 and error(r)["code"] == "cannot_leave"


def test_tokens(server: Server) -> None:
    t = server.create("fise", [{"kind": "open"}, {"kind": "open"}])
    a = server.sit(t, 0, "Ana")
    b = server.sit(t, 1, "Luis")
    assert a != b and len(a) >= 40
    assert server.view(t, a)["you"]["seat"] == 0 and server.view(t, b)["you"]["seat"] == 1
    r = server.get(f"/api/tables/{t}", "not-a-token")
    assert r.status_code == 401 and error(r)["code"] == "bad_token"
    other = server.create("fise", [{"kind": "open"}, {"kind": "open"}])
    assert server.get(f"/api/tables/{other}", a).status_code == 401  # tokens are per table
    r = server.post(f"/api/tables/{t}/move", {"seq": 1, "move": {"kind": "pass"}})
    assert r.status_code == 401 and error(r)["code"] == "token_required"
    r = server.post(f"/api/tables/{t}/preview", {"tiles": []})
    assert r.status_code == 401 and error(r)["code"] == "token_required"
    assert server.get("/api/tables/nosuchtable").status_code == 404


def test_pages_are_the_static_ui(server: Server) -> None:
    for path in ("/", "/t/abc123"):
        r = server.get(path)
        assert r.status_code in (200, 503), r.text
        if r.status_code == 200:
            assert r.headers["content-type"].startswith("text/html")
            assert r.text == server.get("/").text  # one page for every table, no user text in it
