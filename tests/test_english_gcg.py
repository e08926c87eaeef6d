"""English games, as other programs write their records, replay under an English rule file.

The three files in tests/data/english/ are the project's own: games played by two bots with
an English word list, written out as GCG and then given the shapes other programs' files have
(CR LF line ends, Latin-1 without a ``#character-encoding`` line, a byte-order mark, notes that
go on over several lines, pragmas we do not use, the Quackle convention of one end-of-game
line worth twice the loser's tiles). Before English was an alphabet of its own, every word
with CH, LL or RR in them was spelled with Spanish digraph tiles and its score came out wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tablero.formats.gcg import GcgError, decode_gcg, read_gcg, replay_gcg, walk_gcg
from tablero.variant import load_variant

DATA = Path(__file__).parent / "data" / "english"
ENGLISH = load_variant(DATA / "english.toml")
FILES = ("club-night.gcg", "latin1-practice.gcg", "bom-exchange.gcg")


def _read(name: str) -> str:
    return decode_gcg((DATA / name).read_bytes())


def _last_totals(text: str) -> list[int]:
    """Each player's total on their last line: what the file says the game ended at."""
    game = read_gcg(text)
    totals = [0] * len(game.players)
    for turn in game.turns:
        totals[turn.player] = turn.total
    return totals


@pytest.mark.parametrize("name", FILES)
def test_every_score_and_total_replays_as_written(name: str) -> None:
    text = _read(name)
    assert replay_gcg(read_gcg(text), ENGLISH) == _last_totals(text)


def test_the_files_have_the_shapes_other_programs_write() -> None:
    club = (DATA / "club-night.gcg").read_bytes()
    assert b"\r\n" in club and club.count(b"\r\n") == club.count(b"\n")
    latin = (DATA / "latin1-practice.gcg").read_bytes()
    assert "José".encode("latin-1") in latin and b"#character-encoding" not in latin
    assert (DATA / "bom-exchange.gcg").read_bytes().startswith("\ufeff".encode())


def test_names_and_notes_are_read_from_each_encoding() -> None:
    club = read_gcg(_read("club-night.gcg"))
    assert [p.name for p in club.players] == ["Ana Núñez", "Luis Pérez"]
    notes = [value for name, value in club.pragmas if name == "note"]
    assert notes[1] == (
        "D(U)LL and then FERR(U)LE: two words, one with LL and one with RR,\n"
        "that a Spanish reading would split into digraph tiles."
    )
    latin = read_gcg(_read("latin1-practice.gcg"))
    assert [p.name for p in latin.players] == ["José Muñoz", "María Ibáñez"]
    assert ("description", "Práctica del jueves") in latin.pragmas
    bom = read_gcg(_read("bom-exchange.gcg"))
    assert bom.players[0].nick == "Ana"  # the byte-order mark is not part of the first line
    assert [t.kind for t in bom.turns].count("exchange") == 1
    assert [t.kind for t in bom.turns].count("pass") == 1


def test_double_letters_are_two_tiles_and_score_so() -> None:
    """8L D.LL is DULL: D, the U on the board, then two L tiles worth 1 each. Worked by hand
    (row 8: 2L on L8, 3W on O8): D 2×2 + U 1 + L 1 + L 1 = 7, × 3 = 21, as the file says."""
    game = read_gcg(_read("club-night.gcg"))
    steps = list(walk_gcg(game, ENGLISH))
    dull = next(s for s in steps if s.turn.move == "8L D.LL")
    assert dull.turn.score == 21
    after = steps[steps.index(dull) + 1].board
    assert [after[(7, col)].letter for col in range(11, 15)] == ["D", "U", "L", "L"]


def test_played_through_letters_may_be_written_out() -> None:
    text = _read("club-night.gcg").replace("8L D.LL", "8L DULL")
    assert replay_gcg(read_gcg(text), ENGLISH) == _last_totals(text)


def test_a_wrong_score_is_named_with_its_line() -> None:
    text = _read("club-night.gcg").replace("8L D.LL +21", "8L D.LL +22")
    with pytest.raises(GcgError, match=r"line \d+: 8L D.LL scores 21 by the rules"):
        replay_gcg(read_gcg(text), ENGLISH)


def test_under_spanish_rules_the_same_file_does_not_add_up() -> None:
    """The Spanish tiles score differently: the replay stops at the first line that differs."""
    with pytest.raises(GcgError, match="by the rules, the file says"):
        replay_gcg(read_gcg(_read("club-night.gcg")), load_variant("fise"))
