"""GCG: finished games written as GCG and read back replay to the same final scores.

The games are real games of each variant, played to the end by a seeded random player on a
dictionary of real short words: placements (the best or a random one), exchanges, passes,
words not in the dictionary (lost turns, or phonies that are challenged in Bisonte), CAMBIOs in
Crucigrama, EX shuffles and timeouts in Cuvinte, for 2 to 4 players.
"""

from __future__ import annotations

import lzma
import random
from dataclasses import replace

import pytest

from tablero.alphabet import ROMANIAN, SPANISH
from tablero.board import Tile
from tablero.engine.movegen.reference import generate_placements
from tablero.formats.gcg import GcgError, read_gcg, replay_gcg, write_gcg
from tablero.game import Game
from tablero.lexicon import WordListLexicon, shipped_list_path
from tablero.moves import Cambio, Exchange, Letter, Pass, Place
from tablero.rules import IllegalMove
from tablero.variant import Clock, load_variant


def _short_words(language: str, alphabet, longest: int) -> WordListLexicon:  # type: ignore[no-untyped-def]
    path = shipped_list_path(language)
    assert path is not None
    words = [w for w in lzma.decompress(path.read_bytes()).decode().split() if len(w) <= longest]
    return WordListLexicon.from_words(words, alphabet, name=f"{language}-short")


@pytest.fixture(scope="module")
def es_short() -> WordListLexicon:
    return _short_words("es", SPANISH, 4)


@pytest.fixture(scope="module")
def ro_short() -> WordListLexicon:
    return _short_words("ro", ROMANIAN, 4)


def play_out(game: Game, rng: random.Random, max_turns: int = 400) -> None:
    """Play to the end with every kind of move the game allows."""
    v = game.variant
    for _ in range(max_turns):
        if game.is_over:
            if game.can_challenge((game.to_move + 1) % len(game.players)) and rng.random() < 0.5:
                game.challenge((game.to_move + 1) % len(game.players))
            return
        seat = game.to_move
        if game.can_challenge(seat) and rng.random() < 0.4:
            game.challenge(seat, rng.uniform(0, 5))
            continue
        elapsed = rng.uniform(0, 40)
        clock = game.current.clock
        if clock is not None and v.clock and v.clock.on_timeout == "skip" and elapsed >= clock:
            game.timeout()
            continue
        game.play(choose(game, rng), elapsed)
    raise AssertionError("the game did not end")


def choose(game: Game, rng: random.Random):  # type: ignore[no-untyped-def]
    v = game.variant
    rack = game.current.rack
    roll = rng.random()
    if roll < 0.05:
        return Pass()
    if roll < 0.12 and len(game.bag) >= v.exchange.min_bag and not v.exchange.only_when_blocked:
        move = Exchange(tuple(rng.sample(rack, min(len(rack), rng.randint(1, 3)))))
        try:
            game.check(move)
            return move
        except IllegalMove:
            pass
    if roll < 0.18 and v.cambio_per_game:
        for coord, tile in game.board.tiles():
            for t in rack:
                if t != "?" and t != tile.letter:
                    try:
                        game.check(Cambio(coord, Tile(t)))
                        return Cambio(coord, Tile(t))
                    except IllegalMove:
                        continue
    if roll < 0.24 and not game.first_turn:
        phony = _phony(game)
        if phony is not None:
            return phony
    places = list(generate_placements(v, game.board, rack, game.lexicon))  # type: ignore[arg-type]
    if not places:
        move = Exchange(tuple(rack))
        try:
            game.check(move)
            return move
        except IllegalMove:
            return Pass()
    return rng.choice(places)


def _phony(game: Game) -> Place | None:
    """Two rack tiles next to a tile on the board: usually not a word."""
    rack = [t for t in game.current.rack if t != "?"]
    if len(rack) < 2:
        return None
    for (r, c), _tile in game.board.tiles():
        if (
            game.board.on_board((r, c + 2))
            and game.board[(r, c + 1)] is None
            and game.board[(r, c + 2)] is None
        ):
            if c + 3 < game.board.columns and game.board[(r, c + 3)] is not None:
                continue
            letters = (Letter(None, True), Letter(Tile(rack[0])), Letter(Tile(rack[1])))
            start_c = c
            while start_c > 0 and game.board[(r, start_c - 1)] is not None:
                start_c -= 1
            through = tuple(Letter(None, True) for _ in range(c - start_c))
            place = Place((r, start_c), True, through + letters)
            try:
                from tablero.rules import check_placement

                check_placement(game.variant, game.board, place, game.current.rack)
                return place
            except IllegalMove:
                continue
    return None


CASES = [
    ("fise", 2, "es", 1),
    ("fise", 4, "es", 2),
    ("bisonte", 3, "es", 3),
    ("crucigrama", 2, "es", 5),
    ("letras_top", 2, "es", 6),
    ("intelect", 3, "es", 7),
    ("cuvinte", 4, "ro", 8),
]
NAMES = ["Ana María", "Luis", "Eva: la 2ª", "Ana María"]


@pytest.fixture(scope="module")
def finished(es_short: WordListLexicon, ro_short: WordListLexicon) -> dict[tuple[str, int], Game]:
    """One finished game per case (Cuvinte with a short clock, so that timeouts happen)."""
    games = {}
    for variant_name, players, language, seed in CASES:
        variant = load_variant(variant_name)
        if variant_name == "cuvinte":
            variant = replace(variant, clock=Clock(initial_seconds=240))
        lexicon = es_short if language == "es" else ro_short
        game = Game(variant, NAMES[:players], lexicon, seed=seed)
        play_out(game, random.Random(seed))
        games[(variant_name, seed)] = game
    return games


@pytest.mark.parametrize(("variant_name", "players", "language", "seed"), CASES)
def test_finished_game_round_trips_through_gcg(
    variant_name: str, players: int, language: str, seed: int, finished: dict[tuple[str, int], Game]
) -> None:
    game = finished[(variant_name, seed)]
    assert game.result is not None and len(game.players) == players
    text = write_gcg(game, title="Prueba")
    gcg = read_gcg(text)
    assert gcg.variant == variant_name and gcg.lexicon == f"{language}-short"
    assert gcg.title == "Prueba"
    assert [p.name for p in gcg.players] == NAMES[:players]
    assert len({p.nick for p in gcg.players}) == players  # unique nicks, even for equal names
    assert replay_gcg(gcg, game.variant) == list(game.result.final_scores)
    if game.result.reason == "going_out":
        assert any(t.kind == "end" for t in gcg.turns)


def test_the_games_cover_every_kind_of_turn(finished: dict[tuple[str, int], Game]) -> None:
    """The round-trip cases above are not all plain placements."""
    seen: set[str] = set()
    pragmas: set[str] = set()
    for game in finished.values():
        gcg = read_gcg(write_gcg(game))
        seen |= {t.kind for t in gcg.turns}
        pragmas |= {name for name, _ in gcg.pragmas}
        if any("[" in t.move for t in gcg.turns):
            seen.add("digraph")
    assert {"place", "exchange", "pass", "withdrawn", "cambio", "end", "digraph"} <= seen
    assert {"timeout", "shuffle", "skip", "note"} <= pragmas


def test_hidden_racks_for_a_game_in_progress(es_short: WordListLexicon) -> None:
    game = Game("fise", ["Ana", "Luis"], es_short, seed=3)
    rng = random.Random(3)
    for _ in range(12):
        game.play(choose(game, rng), 1.0)
    text = write_gcg(game, hide_racks=True)
    gcg = read_gcg(text)
    assert all(t.rack is None for t in gcg.turns)
    assert all(
        not t.move.startswith("-") or t.move in ("-", "--") or t.move[1:].isdigit()
        for t in gcg.turns
    )
    assert replay_gcg(gcg) == [p.score for p in game.players]
    for p in game.players:
        assert "".join(p.rack) not in text


def test_a_wrong_score_or_line_is_reported(es_short: WordListLexicon) -> None:
    game = Game("fise", ["Ana", "Luis"], es_short, seed=5)
    play_out(game, random.Random(5))
    text = write_gcg(game)
    lines = text.splitlines()
    i = next(
        i
        for i, line in enumerate(lines)
        if line.startswith(">") and " +" in line and line.split()[-2] != "+0"
    )
    parts = lines[i].split()
    parts[-2] = f"+{int(parts[-2]) + 1}"
    bad = "\n".join([*lines[:i], " ".join(parts), *lines[i + 1 :]])
    with pytest.raises(GcgError, match=f"line {i + 1}: .* scores"):
        replay_gcg(read_gcg(bad))
    for broken, message in [
        ("#player1 A A\n>B: ABC 8H ABC +5 5\n", "not a player"),
        ("#player1 A A\n>A: ABC 8H ABC +x 5\n", "not a score"),
        ("#player1 A A\n>A ABC 8H ABC +5 5\n", "expected '>nick"),
        ("#player1 A A\nhello\n", "starts with"),
        (">A: ABC 8H ABC +5 5\n", "not a player"),
        ("#title x\n", "no #player1"),
    ]:
        with pytest.raises(GcgError, match=message):
            read_gcg(broken)


def test_reads_a_plain_gcg_and_checks_scores() -> None:
    """A GCG as other programs write it (no #variant: FISE), with an end-of-game rack line."""
    text = """#character-encoding UTF-8
#player1 ana Ana
#player2 luis Luis
>ana: CASAXYZ 8H CASA +12 12
>luis: AEIOUJL H7 J. +0 0
>luis: AEIOUJL -- +0 0
>ana: XYZDEFG -XYZ +0 12
>luis: AEIOUJL 9G JA +21 21
>luis: EIOUL (EIOUL) -5 16
>ana:  (EIOUL) +5 17
"""
    gcg = read_gcg(text)
    kinds = ["place", "place", "withdrawn", "exchange", "place", "end", "end"]
    assert [t.kind for t in gcg.turns] == kinds
    assert gcg.turns[-1].rack is None and gcg.turns[-2].rack == "EIOUL"
    # JA: J on the 2L square G9 (16) + A = 17, and CA down through the C: 4.
    assert replay_gcg(gcg) == [17, 16]
    with pytest.raises(GcgError, match="JA scores 21 by the rules, the file says 20"):
        replay_gcg(read_gcg(text.replace("JA +21 21", "JA +20 20")))
