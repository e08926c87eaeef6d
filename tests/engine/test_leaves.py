"""Leave values: the KLV format read and written, the shipped tables, and the learner's fit."""

from __future__ import annotations

import json
import random
import struct
from pathlib import Path

import pytest

from tablero.alphabet import ROMANIAN, SPANISH
from tablero.engine.evaluation.learn import LeaveObservations, all_leaves, fit_leaves, targets
from tablero.engine.evaluation.leaves import KlvError, LeaveTable, leave_key, sub_leaves
from tablero.engine.selfplay import TurnRecord
from tablero.variant import builtin_variant_names, load_variant

ACC, END = 0x00800000, 0x00400000
S = SPANISH.code("S")  # 23 in our Spanish numbering


def tiny_klv(values: list[float], version: int = 2) -> bytes:
    """Four leaves, assembled by hand from the format's description (docs/leaves.md):
    ``?`` (blank = tile 0), ``?A``, ``A``, ``S``, in that (sorted) order."""
    nodes = [
        END | 1,  # node 0: the DAWG root is the list at node 1
        (0 << 24) | ACC | 4,  # ?  (accepts; its continuations are the list at 4)
        (1 << 24) | ACC,  # A  (accepts; nothing follows)
        (S << 24) | ACC | END,  # S, the last of the root list
        (1 << 24) | ACC | END,  # ?A
    ]
    head = struct.pack("<I", len(nodes)) + struct.pack(f"<{len(nodes)}I", *nodes)
    head += struct.pack("<I", len(values))
    if version == 2:
        return head + struct.pack(f"<{len(values)}f", *values)
    return head + struct.pack(f"<{len(values)}h", *(round(v * 256) for v in values))


def test_a_hand_assembled_klv2_reads() -> None:
    table = LeaveTable.from_bytes(tiny_klv([25.0, 30.5, 1.25, 8.0]), SPANISH)
    assert len(table) == 4
    assert table.value(["?"]) == 25.0
    assert table.value(["A", "?"]) == 30.5  # any order on the rack
    assert table.value(["A"]) == 1.25
    assert table.value(["S"]) == 8.0
    assert table.value(["E"]) == 0.0  # not in the file: worth nothing
    assert table.value([]) == 0.0  # the empty leave is never stored
    assert table.max_size == 2
    assert list(table.items()) == [
        (("?",), 25.0),
        (("?", "A"), 30.5),
        (("A",), 1.25),
        (("S",), 8.0),
    ]


def test_the_first_klv_format_stores_sixteen_bits_in_256ths() -> None:
    table = LeaveTable.from_bytes(tiny_klv([25.0, 30.5, -1.25, 8.0], version=1), SPANISH)
    assert [v for _, v in table.items()] == [25.0, 30.5, -1.25, 8.0]


def test_our_writer_gives_the_hand_assembled_bytes() -> None:
    values = {("?",): 25.0, ("?", "A"): 30.5, ("A",): 1.25, ("S",): 8.0}
    table = LeaveTable.from_values(values, SPANISH)
    assert table.to_bytes() == tiny_klv([25.0, 30.5, 1.25, 8.0])
    assert table.to_bytes(version=1) == tiny_klv([25.0, 30.5, 1.25, 8.0], version=1)


def test_a_written_file_reads_back(tmp_path: Path) -> None:
    v = load_variant("fise")
    rng = random.Random(4)
    leaves = [leave_key(x, v.alphabet) for x in rng.sample(sorted(_leaves(v, 3)), 500)]
    values = {leave: round(rng.uniform(-20, 30) * 256) / 256 for leave in leaves}
    table = LeaveTable.from_values(values, v.alphabet)
    path = tmp_path / "fise.klv"
    table.save(path)
    again = LeaveTable.load(path, v.alphabet)
    assert dict(again.items()) == values
    for leave, value in values.items():
        assert again.value(reversed(leave)) == value
    # Numbered the way other engines number the FISE tiles (no K, no W), and read back so.
    fise_letters = v.letters()
    table.save(path, letters=fise_letters)
    assert path.read_bytes() != table.to_bytes()  # LL is 13 there, 14 here
    assert dict(LeaveTable.load(path, v.alphabet, fise_letters).items()) == values
    # A learned table carries its numbering in a sidecar, which load_learned reads.
    sidecar = path.with_suffix(".json")
    sidecar.write_text(json.dumps({"letters": fise_letters}), "utf-8")
    assert dict(LeaveTable.load_learned(path, v.alphabet).items()) == values
    sidecar.write_text(json.dumps({"letters": "ABC"}), "utf-8")
    with pytest.raises(KlvError, match="'letters' must be a list of tile names"):
        LeaveTable.load_learned(path, v.alphabet)
    sidecar.write_text("{not json", "utf-8")
    with pytest.raises(KlvError, match="not a readable JSON sidecar"):
        LeaveTable.load_learned(path, v.alphabet)


def _leaves(v: object, size: int) -> set[tuple[str, ...]]:
    from tablero.variant import Variant

    assert isinstance(v, Variant)
    names = ("?", *v.alphabet.letters)
    return {tuple(names[c] for c in codes) for codes in all_leaves(v, size)}


def test_for_rack_is_every_sub_leave_with_its_value() -> None:
    values = {("?",): 25.0, ("?", "S"): 33.0, ("E",): 2.0, ("E", "S"): 9.5, ("S",): 8.0}
    table = LeaveTable.from_values(values, SPANISH)
    rack = ["S", "E", "?", "Q"]
    got = table.for_rack(rack)
    assert set(got) == set(sub_leaves(rack, SPANISH))
    assert len(got) == 16
    for leave, value in got.items():
        assert value == table.value(leave)
    assert got[("?", "S")] == 33.0 and got[("Q",)] == 0.0


def test_leaves_longer_than_the_table_are_valued_tile_by_tile() -> None:
    """A whole rack kept is longer than any stored leave: each tile set apart in turn, the
    rest's value plus that tile's, averaged."""
    values = {
        ("A",): 1.0,
        ("B",): 2.0,
        ("C",): 3.0,
        ("A", "B"): 4.0,
        ("A", "C"): 6.0,
        ("B", "C"): 8.0,
    }
    table = LeaveTable.from_values(values, SPANISH)
    assert table.max_size == 2
    assert table.value(["A", "B", "C"]) == pytest.approx(((8 + 1) + (6 + 2) + (4 + 3)) / 3)


def test_damaged_files_are_refused_with_a_reason() -> None:
    good = tiny_klv([1.0, 2.0, 3.0, 4.0])
    with pytest.raises(KlvError, match="at least 8 bytes"):
        LeaveTable.from_bytes(good[:5], SPANISH)
    with pytest.raises(KlvError, match="graph nodes"):
        LeaveTable.from_bytes(good[:12], SPANISH)
    with pytest.raises(KlvError, match="bytes of values"):
        LeaveTable.from_bytes(good[:-3], SPANISH)
    wrong_count = good[: 4 + 20] + struct.pack("<I", 3) + good[4 + 20 + 4 : -4]
    with pytest.raises(KlvError, match="holds 4 leaves"):
        LeaveTable.from_bytes(wrong_count, SPANISH)
    strange = good.replace(
        struct.pack("<I", (S << 24) | ACC | END), struct.pack("<I", (40 << 24) | ACC | END)
    )
    with pytest.raises(KlvError, match="tile 40 is not a tile of the ro alphabet"):
        LeaveTable.from_bytes(strange, ROMANIAN)
    with pytest.raises(KlvError, match="not a tile"):
        LeaveTable.from_values({("K", "Ç"): 1.0}, SPANISH)


SHIPPED = [
    name
    for name in builtin_variant_names()
    if (Path(__file__).parents[2] / "tablero" / "data" / "leaves" / f"{name}.klv").is_file()
]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_leave_values_were_learned_and_make_sense(name: str) -> None:
    from tablero.engine.players import shipped_leaves

    v = load_variant(name)
    base = Path(__file__).parents[2] / "tablero" / "data" / "leaves"
    meta = json.loads((base / f"{name}.json").read_text("utf-8"))
    table = shipped_leaves(name)
    assert table is not None
    assert meta["games"] >= 1000 and meta["letters"] == v.letters()
    assert len(table) == meta["leaves"] == sum(1 for _ in all_leaves(v, v.rack_size - 1))
    singles = {t: table.value([t]) for t in v.tiles}
    if v.has_blanks:  # a blank is among the three best tiles to keep
        assert singles["?"] > 0
        assert sorted(singles.values(), reverse=True).index(singles["?"]) < 3
    if "Q" in v.tiles:
        assert singles["Q"] < 0 and singles["Q"] == min(singles.values())
    assert table.value(["U", "U"]) < 2 * singles["U"] < 0  # a second U is worse than the first
    assert table.value(list("AEIOU")) < 0  # five vowels
    assert table.value(list("BCDFGH")) < -20  # six consonants


# -- learning ------------------------------------------------------------------------------------


def rec(seat: int, kind: str, leave: str, score: int, bag: int, played: int) -> TurnRecord:
    return TurnRecord(seat, kind, tuple(leave), score, bag, played)


def test_the_target_is_the_movers_next_turn() -> None:
    v = load_variant("fise")
    records = [
        rec(0, "place", "AE", 20, 80, 5),
        rec(1, "place", "S", 30, 75, 6),
        rec(0, "place", "?", 44, 69, 6),  # seat 0's next turn: 44 points
        rec(1, "exchange", "S", 0, 63, 0),  # kept S, exchanged 6
        rec(0, "pass", "ABCDEFG", 0, 63, 0),
        rec(1, "place", "", 70, 63, 7),
    ]
    got = list(targets(records, v))
    assert got == [(("A", "E"), 44.0), (("S",), 0.0), (("?",), 0.0), (("S",), 70.0)]
    table = LeaveTable.from_values({("?",): 20.0}, SPANISH)
    with_values = list(targets(records, v, table))
    assert with_values[0] == (("A", "E"), 64.0)  # 44 points, and it kept the blank


def test_moves_when_the_bag_cannot_refill_are_not_learned_from() -> None:
    v = load_variant("fise")
    records = [
        rec(0, "place", "AE", 20, 5, 5),
        rec(1, "place", "S", 30, 0, 6),
        rec(0, "place", "", 9, 0, 2),
    ]
    assert list(targets(records, v)) == []


def test_the_fit_recovers_known_leave_values() -> None:
    """Targets made from known tile values plus noise: the fit finds the values again."""
    v = load_variant("fise")
    truth = {"?": 22.0, "S": 7.0, "Q": -9.0, "Ñ": -4.0}
    rng = random.Random(7)
    bag = [t for t, (count, _) in v.tiles.items() for _ in range(count)]
    obs = LeaveObservations(v)
    for _ in range(20000):
        leave = rng.sample(bag, rng.randint(0, 3))
        y = 30.0 + sum(truth.get(t, 0.0) for t in leave) + rng.gauss(0, 8)
        obs.add(leave, y)
    fit = fit_leaves(obs, sweeps=30, max_leave=3)
    table = LeaveTable.from_values(fit.values, v.alphabet)
    for tile, value in truth.items():
        assert table.value([tile]) == pytest.approx(value, abs=2.0)
    assert table.value(["A"]) == pytest.approx(0.0, abs=2.0)
    assert table.value(["?", "S"]) == pytest.approx(29.0, abs=3.0)
    assert fit.intercept == pytest.approx(30.0, abs=1.0)
    assert len(fit.values) == sum(1 for _ in all_leaves(v, 3)) == 29 + 424 + 4170
