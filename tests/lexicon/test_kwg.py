"""Tests for the KWG reader and builder (tablero.lexicon.kwg).

The reader is checked against graphs written node by node from the bit layout in
docs/kwg.md, so it does not merely agree with our own builder; the builder is checked by
decoding its output completely (every DAWG word, every GADDAG string, both directions) and by
checking that no two sibling lists describe the same state.
"""

from __future__ import annotations

import array
import itertools
import struct
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablero.lexicon.kwg import (
    ACCEPTS_FLAG,
    ARC_INDEX_MASK,
    IS_END_FLAG,
    SEPARATOR,
    TILE_SHIFT,
    Kwg,
    build_kwg,
    gaddag_forms,
    pack_node,
)

# A toy alphabet for the hand-made graphs: A = 1, S = 2.
A, S = 1, 2
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def tiles(word: str) -> tuple[int, ...]:
    """A..Z as tiles 1..26, enough for the tests (real alphabets live elsewhere)."""
    return tuple(LETTERS.index(c) + 1 for c in word)


def image(nodes: Sequence[int]) -> bytes:
    """The file image of a list of u32 nodes: little-endian, nothing else."""
    return struct.pack(f"<{len(nodes)}I", *nodes)


def expected_gaddag(words: Iterable[Sequence[int]]) -> set[tuple[int, ...]]:
    """All GADDAG strings of a lexicon, computed independently of gaddag_forms()."""
    out: set[tuple[int, ...]] = set()
    for word in words:
        w = tuple(word)
        out.add(tuple(reversed(w)))
        for i in range(1, len(w)):
            out.add((*reversed(w[:i]), 0, *w[i:]))
    return out


# The lexicon {AS, SA, ASA} written by hand, in a layout our builder would NOT produce: the
# GADDAG comes first, nothing is tail-shared, and the state "A accepted, then nothing" is
# stored twice (nodes 10 and 11).  Bits: tile << 24 | accepts 0x800000 | is_end 0x400000 | arc.
HAND_NODES = [
    0x0040_000C,  # 0: pointer to the DAWG root list (node 12)
    0x0040_0002,  # 1: pointer to the GADDAG root list (node 2)
    0x0100_0004,  # 2: GADDAG root: A -> 4
    0x0240_0006,  # 3:              S -> 6, end
    0x0000_0009,  # 4: after "A":   @ -> 9 (DAWG state after A)
    0x02C0_000B,  # 5:              S accepts ("AS" = SA reversed) -> 11, end
    0x0000_000B,  # 6: after "S":   @ -> 11 (DAWG state after S)
    0x01C0_0008,  # 7:              A accepts ("SA" = AS reversed) -> 8, end
    0x0040_000A,  # 8: after "SA":  @ -> 10 (DAWG state after AS), end
    0x02C0_000A,  # 9: DAWG after A: S accepts (AS) -> 10, end
    0x01C0_0000,  # 10: DAWG after AS: A accepts (ASA), end
    0x01C0_0000,  # 11: DAWG after S:  A accepts (SA), end (duplicate of 10, still valid)
    0x0100_0009,  # 12: DAWG root: A -> 9
    0x0240_000B,  # 13:            S -> 11, end
]
HAND_WORDS = [(A, S), (A, S, A), (S, A)]

# The exact image our builder writes for the same lexicon: the worked example in docs/kwg.md.
BUILT_NODES = [
    0x0040_0002,  # 0: DAWG root pointer -> 2
    0x0040_0007,  # 1: GADDAG root pointer -> 7
    0x0100_0005,  # 2: A -> 5
    0x0240_0006,  # 3: S -> 6, end
    0x0000_0005,  # 4: @ -> 5
    0x02C0_0006,  # 5: S accepts -> 6, end (DAWG after A, tail of the list at 4)
    0x01C0_0000,  # 6: A accepts, end (DAWG after AS and after S)
    0x0100_0004,  # 7: GADDAG root: A -> 4
    0x0240_0009,  # 8:              S -> 9, end
    0x0000_0006,  # 9: @ -> 6
    0x01C0_000B,  # 10: A accepts -> 11, end
    0x0040_0006,  # 11: @ -> 6, end
]

SMALL_WORDS = (
    "A", "AS", "ASA", "ASAS", "CASA", "CASAS", "CAS", "COSA", "COSAS", "OCA", "OCAS", "SACA",
    "SACO", "SACAS", "SACOS", "CAOS", "ACOSA", "ACOSAS", "OSA", "OSO", "OSOS", "SOSA", "COCO",
    "COCOS", "ZA", "AZ", "ZAZ",
)  # fmt: skip
SMALL_LEXICON = [tiles(w) for w in SMALL_WORDS]


# --- node layout -----------------------------------------------------------------------------


def test_bit_layout_constants() -> None:
    assert TILE_SHIFT == 24
    assert ACCEPTS_FLAG == 1 << 23
    assert IS_END_FLAG == 1 << 22
    assert ARC_INDEX_MASK == (1 << 22) - 1
    assert SEPARATOR == 0
    assert pack_node(S, accepts=True, is_end=False, arc_index=11) == 0x0280_000B
    assert pack_node(0, accepts=False, is_end=True, arc_index=0x3F_FFFF) == 0x007F_FFFF
    assert pack_node(255, accepts=False, is_end=False, arc_index=0) == 0xFF00_0000
    with pytest.raises(ValueError, match="tile"):
        pack_node(256, accepts=False, is_end=False, arc_index=0)
    with pytest.raises(ValueError, match="arc"):
        pack_node(1, accepts=False, is_end=False, arc_index=1 << 22)


def test_gaddag_forms_convention() -> None:
    c, a, r, e = tiles("CARE")
    assert gaddag_forms((c, a, r, e)) == [
        (e, r, a, c),
        (c, 0, a, r, e),
        (a, c, 0, r, e),
        (r, a, c, 0, e),
    ]
    assert gaddag_forms((a,)) == [(a,)]


# --- reading hand-made graphs ----------------------------------------------------------------


def test_reads_hand_assembled_kwg() -> None:
    kwg = Kwg.from_bytes(image(HAND_NODES))
    assert len(kwg) == 14
    assert kwg.dawg_root == 12
    assert kwg.gaddag_root == 2
    assert (kwg.tile(5), kwg.accepts(5), kwg.is_end(5), kwg.arc_index(5)) == (S, True, True, 11)
    assert (kwg.tile(4), kwg.accepts(4), kwg.is_end(4), kwg.arc_index(4)) == (0, False, False, 9)
    assert kwg.child(12, A) == 12
    assert kwg.child(12, S) == 13
    assert kwg.child(12, 3) == 0
    assert kwg.child(0, A) == 0
    assert list(kwg.children(2)) == [(A, 2), (S, 3)]

    for word in HAND_WORDS:
        assert kwg.contains(word)
    for word in [(A,), (S,), (A, A), (S, A, S), (A, S, A, S), (), (S, S)]:
        assert not kwg.contains(word)
    assert list(kwg.words()) == HAND_WORDS

    paths = list(kwg.gaddag_paths())
    assert len(paths) == len(set(paths))
    assert set(paths) == expected_gaddag(HAND_WORDS)

    # A move generator's walk: "S", then the separator, then "A" rightwards spells SA.
    s_node = kwg.child(kwg.gaddag_root, S)
    sep = kwg.child(kwg.arc_index(s_node), SEPARATOR)
    a_node = kwg.child(kwg.arc_index(sep), A)
    assert a_node and kwg.accepts(a_node)
    kwg.check_structure()


def test_reads_hand_assembled_dawg_only() -> None:
    nodes = [
        0x0040_0001,  # 0: pointer to the root list at 1
        0x0180_0003,  # 1: A accepts -> 3
        0x0240_0003,  # 2: S -> 3, end
        0x01C0_0000,  # 3: A accepts, end
    ]
    kwg = Kwg.from_bytes(image(nodes), gaddag=False)
    assert not kwg.has_gaddag
    assert kwg.gaddag_root == 0
    assert list(kwg.words()) == [(A,), (A, A), (S, A)]
    with pytest.raises(ValueError, match="DAWG-only"):
        list(kwg.gaddag_paths())
    assert Kwg.from_bytes(kwg.to_bytes(), gaddag=False).to_bytes() == image(nodes)


def test_builder_writes_the_documented_example() -> None:
    kwg = build_kwg([(A, S), (S, A), (A, S, A)])
    assert kwg.to_bytes() == image(BUILT_NODES)
    assert list(kwg.words()) == HAND_WORDS
    assert set(kwg.gaddag_paths()) == expected_gaddag(HAND_WORDS)


# --- the builder -----------------------------------------------------------------------------


def assert_decodes_exactly(kwg: Kwg, words: Iterable[Sequence[int]]) -> None:
    """DAWG words == input set, GADDAG strings == all forms (each once), structure sound."""
    lexicon = {tuple(w) for w in words}
    assert list(kwg.words()) == sorted(lexicon)
    paths = list(kwg.gaddag_paths())
    assert len(paths) == len(set(paths)), "a GADDAG string appears twice"
    got = set(paths)
    want = expected_gaddag(lexicon)
    assert want - got == set(), "GADDAG strings missing"
    assert got - want == set(), "GADDAG strings that are not forms of any word"
    kwg.check_structure()


def sibling_lists(kwg: Kwg) -> dict[int, tuple[int, ...]]:
    """Raw node values of every sibling list reachable from the roots, keyed by start."""
    out: dict[int, tuple[int, ...]] = {}
    todo = [r for r in (kwg.dawg_root, kwg.gaddag_root) if r]
    while todo:
        start = todo.pop()
        if start in out:
            continue
        nodes = [tile_index for _, tile_index in kwg.children(start)]
        out[start] = tuple(kwg.nodes[i] for i in nodes)
        todo.extend(kwg.arc_index(i) for i in nodes if kwg.arc_index(i))
    return out


def language(kwg: Kwg, start: int) -> frozenset[tuple[int, ...]]:
    return frozenset(kwg.paths(start))


def assert_minimal(kwg: Kwg) -> None:
    """No two reachable lists accept the same strings (a minimal automaton), and every list
    that equals the tail of another list is stored inside some longer list rather than as a
    block of its own (a tail shared by several lists can of course sit in only one of them)."""
    lists = sibling_lists(kwg)
    langs = {start: language(kwg, start) for start in lists}
    assert len(set(langs.values())) == len(langs), "two sibling lists describe the same state"
    for b, lb in lists.items():
        if any(len(la) > len(lb) and la[len(la) - len(lb) :] == lb for la in lists.values()):
            inside = b - 1 >= 2 and not kwg.is_end(b - 1)
            assert inside, f"list at {b} is the tail of another list but stored on its own"
    # Every node of the file is used: the pointers plus the union of the reachable lists.
    used = {0, 1} | {s + k for s, seq in lists.items() for k in range(len(seq))}
    assert used == set(range(len(kwg)))


def test_builder_small_lexicon() -> None:
    kwg = build_kwg(SMALL_LEXICON)
    assert_decodes_exactly(kwg, SMALL_LEXICON)
    assert_minimal(kwg)
    lexicon = set(SMALL_LEXICON)
    for word in SMALL_LEXICON:
        assert kwg.contains(word)
        assert kwg.contains(list(word))
        for i in range(1, len(word)):
            assert kwg.contains(word[:i]) == (word[:i] in lexicon)
        for probe in ((*word, 26), (*word[:-1], 25), (*word, *word), word[1:]):
            assert kwg.contains(probe) == (probe in lexicon)


def test_builder_ignores_order_and_duplicates() -> None:
    shuffled = list(reversed(SMALL_LEXICON)) + SMALL_LEXICON[::3]
    assert build_kwg(shuffled).to_bytes() == build_kwg(SMALL_LEXICON).to_bytes()
    assert build_kwg(iter(shuffled)).to_bytes() == build_kwg(SMALL_LEXICON).to_bytes()


def test_builder_dawg_only() -> None:
    kwg = build_kwg(SMALL_LEXICON, gaddag=False)
    assert not kwg.has_gaddag
    assert list(kwg.words()) == sorted(set(SMALL_LEXICON))
    # Only node 0 is a pointer; the file reads back in the DAWG-only variant.
    again = Kwg.from_bytes(kwg.to_bytes(), gaddag=False)
    assert again.to_bytes() == kwg.to_bytes()
    assert list(again.words()) == sorted(set(SMALL_LEXICON))
    assert len(kwg) < len(build_kwg(SMALL_LEXICON))
    kwg.check_structure()


def test_empty_and_tiny_lexicons() -> None:
    empty = build_kwg([])
    assert len(empty) == 2
    assert (empty.dawg_root, empty.gaddag_root) == (0, 0)
    assert list(empty.words()) == []
    assert list(empty.gaddag_paths()) == []
    assert not empty.contains((1,))
    assert Kwg.from_bytes(empty.to_bytes()).to_bytes() == image([IS_END_FLAG, IS_END_FLAG])

    one = build_kwg([(5,)])
    assert list(one.words()) == [(5,)]
    assert list(one.gaddag_paths()) == [(5,)]
    high = build_kwg([(255, 1), (1, 255)])
    assert_decodes_exactly(high, [(255, 1), (1, 255)])


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ([()], "empty word"),
        ([(1, 0, 2)], "tile 0"),
        ([(1, 256)], "1 to 255"),
        ([(1, -1)], "1 to 255"),
        (["CASA"], "sequence of integer tiles"),
        ([(1.5,)], "1 to 255"),
    ],
)
def test_builder_rejects_bad_words(bad: list[Sequence[int]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_kwg(bad)


# --- round trips -----------------------------------------------------------------------------


def test_round_trip_bytes_and_files(tmp_path: Path) -> None:
    kwg = build_kwg(SMALL_LEXICON)
    data = kwg.to_bytes()
    assert len(data) == 4 * len(kwg)
    assert Kwg.from_bytes(data).to_bytes() == data
    assert Kwg.from_bytes(bytearray(data)).to_bytes() == data
    assert Kwg.from_bytes(memoryview(data)).to_bytes() == data

    path = tmp_path / "small.kwg"
    kwg.save(path)
    assert path.read_bytes() == data
    loaded = Kwg.load(path)
    assert loaded.to_bytes() == data
    assert loaded.dawg_root == kwg.dawg_root and loaded.gaddag_root == kwg.gaddag_root
    assert list(loaded.words()) == sorted(set(SMALL_LEXICON))
    assert Kwg.load(str(path)).to_bytes() == data

    hand = tmp_path / "hand.kwg"
    hand.write_bytes(image(HAND_NODES))
    assert Kwg.load(hand).to_bytes() == image(HAND_NODES)


def test_wrapping_an_array_validates_it() -> None:
    good = array.array("I", BUILT_NODES)
    assert list(Kwg(good).words()) == HAND_WORDS
    bad = array.array("I", BUILT_NODES[:-1])
    with pytest.raises(ValueError, match="arc index"):
        Kwg(bad)
    with pytest.raises(ValueError, match="32-bit unsigned"):
        Kwg(array.array("i", BUILT_NODES))


word_lists = st.lists(
    st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=6).map(tuple),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(word_lists)
def test_property_random_lexicons_round_trip(words: list[tuple[int, ...]]) -> None:
    kwg = build_kwg(words)
    assert_decodes_exactly(kwg, words)
    data = kwg.to_bytes()
    again = Kwg.from_bytes(data)
    assert again.to_bytes() == data
    lexicon = set(words)
    for probe in itertools.product(range(1, 4), repeat=3):
        assert again.contains(probe) == (probe in lexicon)
    assert list(build_kwg(words, gaddag=False).words()) == sorted(lexicon)


@settings(max_examples=100, deadline=None)
@given(word_lists)
def test_property_random_lexicons_are_minimal(words: list[tuple[int, ...]]) -> None:
    assert_minimal(build_kwg(words))


# --- malformed input -------------------------------------------------------------------------


def test_rejects_length_not_multiple_of_four() -> None:
    data = image(BUILT_NODES)
    for cut in (1, 2, 3):
        with pytest.raises(ValueError, match="not a whole number of 4-byte nodes"):
            Kwg.from_bytes(data[:-cut])


def test_rejects_too_few_nodes() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        Kwg.from_bytes(b"")
    with pytest.raises(ValueError, match="at least 2"):
        Kwg.from_bytes(image([IS_END_FLAG]))
    with pytest.raises(ValueError, match="at least 1"):
        Kwg.from_bytes(b"", gaddag=False)


def test_every_truncation_is_detected() -> None:
    """All nodes of a built file are reachable, so cutting it anywhere must be noticed."""
    data = build_kwg(SMALL_LEXICON).to_bytes()
    for size in range(len(data)):
        with pytest.raises(ValueError, match="truncated"):
            Kwg.from_bytes(data[:size])


def test_rejects_arc_index_out_of_range() -> None:
    nodes = list(BUILT_NODES)
    nodes[5] = pack_node(S, accepts=True, is_end=True, arc_index=1000)
    with pytest.raises(ValueError, match="node 5 has arc index 1000, but the file has only 12"):
        Kwg.from_bytes(image(nodes))
    nodes[5] = pack_node(S, accepts=True, is_end=True, arc_index=len(nodes))
    with pytest.raises(ValueError, match="node 5 has arc index 12"):
        Kwg.from_bytes(image(nodes))
    nodes[5] = pack_node(S, accepts=True, is_end=True, arc_index=ARC_INDEX_MASK)
    with pytest.raises(ValueError, match="arc index 4194303"):
        Kwg.from_bytes(image(nodes))


def test_arc_range_check_on_large_files() -> None:
    # More than 65,536 nodes, so the arc bits above 16 take part in the check.
    count = 70_000
    nodes = array.array("I", [IS_END_FLAG]) * count
    nodes[7] = IS_END_FLAG | (count - 1)
    Kwg.from_bytes(nodes.tobytes())  # the very last node is a valid target
    nodes[9] = IS_END_FLAG | count
    with pytest.raises(ValueError, match=f"node 9 has arc index {count}"):
        Kwg.from_bytes(nodes.tobytes())


def test_rejects_last_node_without_end_flag() -> None:
    nodes = list(BUILT_NODES)
    nodes[-1] &= ~IS_END_FLAG
    with pytest.raises(ValueError, match="last node"):
        Kwg.from_bytes(image(nodes))


def test_structure_check_catches_bad_graphs() -> None:
    cycle = Kwg.from_bytes(image([0x0040_0002, IS_END_FLAG, 0x01C0_0002]))
    with pytest.raises(ValueError, match="cycle"):
        list(cycle.words())
    with pytest.raises(ValueError, match="cycle"):
        cycle.check_structure()

    unsorted = Kwg.from_bytes(image([0x0040_0002, IS_END_FLAG, 0x0280_0000, 0x01C0_0000]))
    assert unsorted.contains((1,)) and unsorted.contains((2,))  # look-ups still work
    with pytest.raises(ValueError, match="not strictly sorted"):
        unsorted.check_structure()
    repeated = Kwg.from_bytes(image([0x0040_0002, IS_END_FLAG, 0x0180_0000, 0x01C0_0000]))
    with pytest.raises(ValueError, match="not strictly sorted"):
        repeated.check_structure()

    separator_in_dawg = Kwg.from_bytes(image([0x0040_0002, IS_END_FLAG, 0x0040_0003, 0x01C0_0000]))
    with pytest.raises(ValueError, match="tile 0"):
        separator_in_dawg.check_structure()

    dangling_separator = Kwg.from_bytes(image([IS_END_FLAG, 0x0040_0002, 0x00C0_0000]))
    with pytest.raises(ValueError, match="separator"):
        dangling_separator.check_structure()
