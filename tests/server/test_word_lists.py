"""Word lists uploaded to the server, for rule files to play with (``lexicon = "wl-…"``):
checked and stored once (the same words are one list), compiled to a word graph, used to judge
moves, kept through a restart with an empty cache, and shared through Redis with bot workers
on other machines; bad lists refused with what is wrong and nothing stored."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from tablero.lexicon import _CACHE
from tablero.server.wordlists import MAX_WORD_LIST_UPLOAD_BYTES
from tablero.server.workers.queue import word_list_key

from .games import board_of, mini_toml, two_players, upload, zeta_toml
from .harness import ROOMY, Server
from .services import RedisServer

ROOT = Path(__file__).resolve().parents[2]
CLUB_WORDS = ["SALA", "SAL", "OSO", "ROSA", "LORO", "ASA", "ESA", "ESO", "SOL", "LA", "EL", "LO"]
"""Words of the small test game's letters (A E O S L R)."""


def send_list(server: Server, text: str | bytes, **params: str) -> Any:
    body = text.encode("utf-8") if isinstance(text, str) else text
    assert server.http is not None
    return server.http.post(
        "/api/wordlists", params=params, content=body, headers={"content-type": "text/plain"}
    )


def club_list(server: Server) -> str:
    r = send_list(server, "\n".join(CLUB_WORDS) + "\n", name="club")
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _place(squares: list[str], letters: str) -> dict[str, Any]:
    tiles = [{"square": sq, "letter": ch} for sq, ch in zip(squares, letters, strict=True)]
    return {"kind": "place", "tiles": tiles}


def test_a_list_is_stored_once_and_described(server: Server) -> None:
    r = send_list(server, "# the club's words\nsala\nSal\n\nóso\n", name="club", language="es")
    assert r.status_code == 201, r.text
    listed = r.json()
    assert listed["id"].startswith("wl-") and len(listed["id"]) == 19
    assert listed["words"] == 3 and listed["language"] == "es" and listed["name"] == "club"
    assert listed["lexicon"] == f'lexicon = "{listed["id"]}"'
    # The same words, spelled and ordered otherwise: the same list.
    again = send_list(server, "OSO\nSALA\nSAL\n", name="other name")
    assert again.status_code == 201 and again.json()["id"] == listed["id"]
    assert server.get(f"/api/wordlists/{listed['id']}").json() == listed
    assert server.get("/api/wordlists/wl-0000000000000000").status_code == 404
    assert server.get("/api/wordlists/../../etc").status_code == 404


@pytest.mark.parametrize(
    ("body", "params", "status", "says"),
    [
        ("# nothing yet\n\n", {}, 422, "no words in it"),
        ("SALA\nSA1A\n", {}, 422, "line 2: 'SA1A': '1' is not a letter of the es alphabet"),
        (b"\x00\xff\xfe binary", {}, 422, "not a UTF-8 word list"),
        ("SALA\n", {"language": "xx"}, 422, "no alphabet for language 'xx'"),
        ("SALA\n", {"name": "x" * 61}, 422, "name: at most 60"),
    ],
)
def test_a_bad_list_says_what_is_wrong_and_nothing_is_stored(
    server: Server, body: str | bytes, params: dict[str, str], status: int, says: str
) -> None:
    r = send_list(server, body, **params)
    assert r.status_code == status, r.text
    assert says in r.json()["error"]["message"]


def test_a_list_over_the_size_limit_is_refused_with_its_size(server: Server) -> None:
    body = b"SALA\n" * (MAX_WORD_LIST_UPLOAD_BYTES // 5 + 1)
    r = send_list(server, body)
    assert r.status_code == 413
    assert f"at most {MAX_WORD_LIST_UPLOAD_BYTES}" in r.json()["error"]["message"]


def test_a_list_is_sent_as_text(server: Server) -> None:
    assert server.http is not None
    r = server.http.post("/api/wordlists", json={"words": ["SALA"]})
    assert r.status_code == 415


def _alpha_game(list_id: str) -> str:
    """The small test game with A tiles only (every rack AAAAA), judged by the list."""
    text = zeta_toml().replace("Z = [40, 10]", "A = [40, 1]")
    return text.replace('lexicon = "es"', f'lexicon = "{list_id}"')


def test_the_list_judges_the_moves(server: Server) -> None:
    """The server's own test dictionary has every string of these letters, AA too; the list
    has AAA and not AA: AA loses the turn, AAA is played."""
    r = send_list(server, "AAA\nSALA\n", name="three As")
    assert r.status_code == 201, r.text
    game = upload(server, _alpha_game(r.json()["id"]))
    table, tokens = two_players(server, game)
    result = _play(server, table, tokens, _place(["E5", "F5"], "AA"))
    assert result["kind"] == "lost_turn" and "AA" in result["reason"]
    result = _play(server, table, tokens, _place(["E5", "F5", "G5"], "AAA"))
    assert result["kind"] == "placed" and result["score"] > 0


def _play(server: Server, table: str, tokens: dict[int, str], move: dict[str, Any]) -> Any:
    view = server.view(table)
    r = server.move(table, tokens[view["to_move"]], move, view["seq"])
    assert r.status_code == 200, r.text
    return r.json()["result"]


def test_a_rule_file_must_name_a_list_the_server_has_of_its_language(server: Server) -> None:
    unknown = mini_toml(**{'lexicon = "es"': 'lexicon = "wl-0123456789abcdef"'})
    r = server.post("/api/variants/upload", {"toml": unknown})
    assert r.status_code == 422
    assert "no uploaded word list wl-0123456789abcdef" in r.json()["error"]["message"]
    ro = send_list(server, "CASA\nMASA\n", language="ro", name="ro words")
    assert ro.status_code == 201, ro.text
    other = mini_toml(**{'lexicon = "es"': f'lexicon = "{ro.json()["id"]}"'})
    r = server.post("/api/variants/upload", {"toml": other})
    assert r.status_code == 422
    assert "is ro, the rules are es" in r.json()["error"]["message"]
    path = mini_toml(**{'lexicon = "es"': 'lexicon = "/etc/passwd"'})
    r = server.post("/api/variants/upload", {"toml": path})
    assert r.status_code == 422 and "uploaded word list's id" in r.json()["error"]["message"]


def test_a_restarted_server_with_an_empty_cache_judges_by_the_list(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = send_list(server, "AAA\nAAAA\n", name="As")
    game = upload(server, _alpha_game(r.json()["id"]))
    table, tokens = two_players(server, game)
    server.stop()
    monkeypatch.setenv("TABLERO_CACHE", str(tmp_path / "fresh-cache"))
    _CACHE.clear()  # as a new process: nothing loaded
    server.start()
    result = _play(server, table, tokens, _place(["E5", "F5"], "AA"))
    assert result["kind"] == "lost_turn"
    result = _play(server, table, tokens, _place(["E5", "F5", "G5", "H5"], "AAAA"))
    assert result["kind"] == "placed"
    assert list((tmp_path / "fresh-cache" / "wordlists").glob("wl-*.txt.xz"))


def test_lists_count_against_a_quota_per_address(db_url: str, mini_es: object) -> None:
    quotas = dataclasses.replace(ROOMY, word_lists_per_address=1)
    server = Server(db_url, {}, quotas=quotas)
    server.start()
    try:
        assert send_list(server, "SALA\n").status_code == 201
        assert send_list(server, "sala\n").status_code == 201  # the same list: no new one
        r = send_list(server, "OSO\n")
        assert r.status_code == 429 and "already has 1 uploaded word lists" in r.text
    finally:
        server.stop()


# -- bot workers elsewhere: the list crosses through Redis --------------------------------------


def test_a_worker_on_another_machine_gets_the_list_from_redis(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """The worker has a cache of its own (another machine's): it reads the list from Redis,
    and its bots play only words of the list."""
    server = Server(
        f"sqlite:///{tmp_path / 'db.sqlite'}", {}, redis_url=redis_server.url, bot_workers=0
    )
    server.start()
    env = {**os.environ, "TABLERO_CACHE": str(tmp_path / "worker-cache")}
    command = [sys.executable, "-m", "tablero.cli", "worker", "--redis", redis_server.url]
    with open(tmp_path / "worker.log", "ab") as log:
        worker = subprocess.Popen(
            [*command, "--processes", "1"], cwd=ROOT, stdout=log, stderr=log, env=env
        )
    try:
        list_id = club_list(server)
        game = upload(server, mini_toml(**{'lexicon = "es"': f'lexicon = "{list_id}"'}))
        table = server.create(game, [{"kind": "bot", "level": 4}] * 2)
        deadline = time.time() + 60
        while time.time() < deadline and len(_placed(server, table)) < 2:
            time.sleep(0.3)
        assert len(_placed(server, table)) >= 2, server.view(table)["history"]
        words = _board_words(server, table)
        assert words and words <= set(CLUB_WORDS), words  # the list's words, no other
        with redis.Redis.from_url(redis_server.url) as r:
            assert r.exists(word_list_key(list_id))
        assert list((tmp_path / "worker-cache" / "wordlists").glob(f"{list_id}.txt.xz"))
    finally:
        worker.terminate()
        worker.wait(20)
        server.stop()


def _placed(server: Server, table: str) -> list[str]:
    """Each placement made so far (its notation)."""
    return [h["move"] for h in server.view(table)["history"] if h["kind"] == "placed"]


def _board_words(server: Server, table: str) -> set[str]:
    """Every word on the board: each run of two or more tiles across and down."""
    board = board_of(server.view(table))
    lines = [[board[(r, c)] for c in range(board.columns)] for r in range(board.rows)]
    lines += [[board[(r, c)] for r in range(board.rows)] for c in range(board.columns)]
    words: set[str] = set()
    for line in lines:
        run = ""
        for tile in [*line, None]:
            if tile is not None:
                run += tile.letter
                continue
            if len(run) >= 2:
                words.add(run)
            run = ""
    return words
