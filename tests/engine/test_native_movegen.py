"""The native (C) move generator against the reference generator, move for move.

The C core must find exactly what ``engine.reference.generate_placements`` finds, written the
same way (the same ``Place``), with the score ``scoring.score_placement`` gives, the same EX
flag, and the right leave:

* on the 50 FISE positions of ``tests/data/bench`` (a sample by default, all with ``-m slow``);
* on random positions from self-play in each of the six games (small racks keep the
  reference cheap; thousands per game with ``-m slow``);
* on hand-made positions for the rules with most room for error: a 4W at a word's end and in
  its middle, ±N squares, a rack of two blanks, Letras Top's second start square, Cuvinte's
  17th column, EX squares.

``best()`` is checked against the full list sorted by equity, a ``NativeBoard`` updated move by
move against one built from scratch, self-play in C turn by turn against the rules engine, and
bad input against clear errors.
"""

from __future__ import annotations

import array
import itertools
import json
import lzma
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tablero.alphabet import ROMANIAN, SPANISH, Alphabet
from tablero.board import Board, Tile
from tablero.engine.movegen import _native
from tablero.engine.movegen.candidates import candidates, generator_for
from tablero.engine.movegen.native import (
    GeneratedPlacement,
    LeaveValues,
    NativeGameResult,
    NativeGenerator,
    NativeTurn,
    learned_leave_values,
    leave_table_key,
)
from tablero.engine.movegen.reference import PrefixLexicon, generate_placements
from tablero.engine.players import shipped_leaves
from tablero.formats.cgp import read_cgp
from tablero.game import Game, decide_winners
from tablero.lexicon import LexiconInfo, WordListLexicon, shipped_list_path
from tablero.lexicon.graph import GraphLexicon, graph_for_word_list
from tablero.lexicon.kwg import Kwg, build_kwg
from tablero.moves import Place, format_move
from tablero.position import Position
from tablero.rules import check_placement
from tablero.scoring import score_placement
from tablero.variant import Variant, builtin_variant_names, load_variant

from .positions import BENCH_WORDS, random_positions

BENCH = Path(__file__).resolve().parent.parent / "data" / "bench" / "fise_positions.jsonl.xz"
GAMES = ("fise", "bisonte", "crucigrama", "intelect", "letras_top", "cuvinte")
SAMPLE = [0, 1, 2, 3, 5, 8, 13, 21, 34, 49]

Moves = dict[Place, tuple[int, bool]]


def _bench() -> list[dict[str, Any]]:
    with lzma.open(BENCH, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


BENCH_POSITIONS = _bench()


# -- lexicons ----------------------------------------------------------------------------------


def graph_of(words: list[str], alphabet: Alphabet, name: str = "test") -> GraphLexicon:
    """A word graph (DAWG + GADDAG) of a few words, built in memory."""
    kwg = build_kwg([alphabet.encode(w) for w in words])
    return GraphLexicon(kwg, alphabet, LexiconInfo(name, "", len(words), ""))


@pytest.fixture(scope="session")
def es_graph() -> GraphLexicon:
    """The graph of the reference positions' word list (the es_words fixture's words)."""
    return graph_for_word_list(BENCH_WORDS, SPANISH, "es_words", show_progress=False)


@pytest.fixture(scope="session")
def ro_lexicons() -> tuple[WordListLexicon, GraphLexicon]:
    """Romanian words of up to seven letters (93,298), as a list and as a graph: the full
    list's graph takes too long to build in every test session."""
    path = shipped_list_path("ro")
    assert path is not None
    words = [w for w in lzma.decompress(path.read_bytes()).decode().split() if len(w) <= 7]
    return (
        WordListLexicon.from_words(words, ROMANIAN, name="ro7"),
        graph_of(words, ROMANIAN, "ro7"),
    )


def lexicons_for(
    variant: Variant,
    es_words: WordListLexicon,
    es_graph: GraphLexicon,
    ro_lexicons: tuple[WordListLexicon, GraphLexicon],
) -> tuple[WordListLexicon, GraphLexicon]:
    return ro_lexicons if variant.language == "ro" else (es_words, es_graph)


# -- the two generators, as comparable dictionaries --------------------------------------------


def reference_moves(position: Position, lexicon: PrefixLexicon) -> Moves:
    """Every placement of the reference generator with its score and EX flag (rules engine)."""
    v, board, rack = position.variant, position.board, list(position.rack)
    out: Moves = {}
    for place in generate_placements(v, board, rack, lexicon):
        chk = check_placement(v, board, place, rack)
        score = score_placement(v, list(chk.words), len(chk.new_tiles), position.first_turn)
        assert place not in out, f"the reference gave {format_move(place)} twice"
        out[place] = (score.total, score.shuffles_next_rack)
    return out


def expected_leave(rack: tuple[str, ...], place: Place) -> Counter[str]:
    used = Counter(x.tile.rack_form for x in place.letters if not x.on_board and x.tile)
    return Counter(rack) - used


def native_moves(gen: NativeGenerator, position: Position) -> Moves:
    """Every native placement with its score and EX flag; checks leaves and duplicates."""
    found = gen.placements(position.board, position.rack)
    out: Moves = {}
    for m in found:
        assert m.place not in out, f"native gave {format_move(m.place)} twice"
        assert Counter(m.leave) == expected_leave(position.rack, m.place), format_move(m.place)
        assert m.equity == m.score
        out[m.place] = (m.score, m.shuffles_next_rack)
    assert gen.count_and_score_sum(position.board, position.rack) == (
        len(found),
        sum(m.score for m in found),
    )
    return out


def assert_same(native: Moves, reference: Moves, what: str) -> None:
    missing = [format_move(p) for p in reference if p not in native]
    extra = [format_move(p) for p in native if p not in reference]
    wrong = [
        (format_move(p), native[p], reference[p])
        for p in native
        if p in reference and native[p] != reference[p]
    ]
    assert not missing and not extra and not wrong, (
        f"{what}: missing {missing[:5]}, extra {extra[:5]}, wrong (native, reference) {wrong[:5]}"
    )


# -- 1. the 50 FISE positions ------------------------------------------------------------------


def check_bench_position(index: int, es_words: WordListLexicon, es_graph: GraphLexicon) -> None:
    expected = BENCH_POSITIONS[index]
    position = read_cgp(expected["cgp"])
    gen = NativeGenerator(position.variant, es_graph)
    native = native_moves(gen, position)
    assert_same(native, reference_moves(position, es_words), f"position {index}")
    # and the independent engine's list, as the reference test reads it
    listed = {format_move(p, through="plain"): s for p, (s, _) in native.items()}
    if position.first_turn:
        listed = {m: s for m, s in listed.items() if m[0].isdigit()}
    else:
        assert gen.count(position.board, position.rack) == expected["n_moves"]
    assert listed == dict(expected["moves"])


@pytest.mark.parametrize("index", SAMPLE)
def test_bench_sample_matches_the_reference(
    index: int, es_words: WordListLexicon, es_graph: GraphLexicon
) -> None:
    check_bench_position(index, es_words, es_graph)


@pytest.mark.slow
@pytest.mark.parametrize("index", [i for i in range(len(BENCH_POSITIONS)) if i not in SAMPLE])
def test_every_bench_position_matches_the_reference(
    index: int, es_words: WordListLexicon, es_graph: GraphLexicon
) -> None:
    check_bench_position(index, es_words, es_graph)


def test_bench_counts_in_c_match_the_listed_totals(es_graph: GraphLexicon) -> None:
    """count() over all 50 positions against the independent engine's totals and scores."""
    gen: NativeGenerator | None = None
    for expected in BENCH_POSITIONS:
        position = read_cgp(expected["cgp"])
        gen = gen or NativeGenerator(position.variant, es_graph)
        if position.first_turn:  # listed: across only; a symmetric board doubles them
            across = [m for m in gen.placements(position.board, position.rack) if m.place.across]
            assert len(across) == expected["n_moves"]
            continue
        n, total = gen.count_and_score_sum(position.board, position.rack)
        assert n == expected["n_moves"]
        assert total == sum(s for _, s in expected["moves"])


# -- 2. random positions of every game ---------------------------------------------------------


def self_play_generator(
    gen: NativeGenerator,
) -> Any:
    """Self-play moves for ``random_positions``: the 30 best-scoring native placements (the
    self-play is only there to make realistic boards; Game checks every move it plays)."""

    def generate(v: Variant, board: Board, rack: list[str], lexicon: object) -> list[Place]:
        return [m.place for m in gen.best(board, rack, n=30)]

    return generate


def check_random_positions(
    game: str,
    count: int,
    seed: int,
    rack_size: tuple[int, int],
    es_words: WordListLexicon,
    es_graph: GraphLexicon,
    ro_lexicons: tuple[WordListLexicon, GraphLexicon],
) -> None:
    v = load_variant(game)
    words, graph = lexicons_for(v, es_words, es_graph, ro_lexicons)
    gen = NativeGenerator(v, graph)
    positions = random_positions(
        v, count, seed, rack_size, lexicon=words, generator=self_play_generator(gen)
    )
    total = 0
    for i, position in enumerate(positions):
        reference = reference_moves(position, words)
        assert_same(
            native_moves(gen, position),
            reference,
            f"{game} position {i} rack {''.join(position.rack)}",
        )
        total += len(reference)
    assert total > count  # the positions do have moves to compare


@pytest.mark.parametrize("game", GAMES)
def test_random_positions_match_the_reference(
    game: str,
    es_words: WordListLexicon,
    es_graph: GraphLexicon,
    ro_lexicons: tuple[WordListLexicon, GraphLexicon],
) -> None:
    check_random_positions(game, 100, 1, (1, 3), es_words, es_graph, ro_lexicons)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_thousands_of_random_positions_match_the_reference(
    game: str,
    es_words: WordListLexicon,
    es_graph: GraphLexicon,
    ro_lexicons: tuple[WordListLexicon, GraphLexicon],
) -> None:
    check_random_positions(game, 2000, 2, (1, 5), es_words, es_graph, ro_lexicons)


def test_every_builtin_game_is_covered() -> None:
    assert sorted(GAMES) == builtin_variant_names()


# -- 3. hand-made positions --------------------------------------------------------------------


def position_with(variant: str, tiles: dict[str, str], rack: str) -> Position:
    """A position with single-letter tiles on named squares (``{"A8": "C"}``; lowercase is a
    blank) and the mover's rack (letters, ``?`` for a blank)."""
    v = load_variant(variant)
    board = Board(v.rows, v.columns)
    for square, letter in tiles.items():
        board[v.parse_square(square)] = Tile(letter.upper(), letter.islower())
    return Position(v, board, [tuple(rack), ()], [0, 0])


def word_tiles(start: str, word: str, across: bool) -> dict[str, str]:
    """Squares and letters of a word written from ``start`` (``"B8"``)."""
    col, row = ord(start[0]) - ord("A"), int(start[1:]) - 1
    out = {}
    for i, letter in enumerate(word):
        r, c = (row, col + i) if across else (row + i, col)
        out[f"{chr(ord('A') + c)}{r + 1}"] = letter
    return out


def compare(position: Position, lexicon: GraphLexicon) -> dict[str, tuple[int, bool]]:
    """Native and reference agree; the moves by notation."""
    gen = NativeGenerator(position.variant, lexicon)
    native = native_moves(gen, position)
    assert_same(native, reference_moves(position, lexicon), "hand-made position")
    return {format_move(p): v for p, v in native.items()}


RO_WORDS = ["CASA", "CAS", "ACA", "ASA", "CA", "AS", "SA", "ACASA"]


def test_4w_counts_at_the_start_of_a_word() -> None:
    # C on A8 (4W, first letter of CASA): (1+1+1+1) x 4
    pos = position_with("cuvinte", word_tiles("B8", "ASA", True), "C")
    moves = compare(pos, graph_of(RO_WORDS, ROMANIAN))
    assert moves["8A C(ASA)"] == (16, False)


def test_4w_counts_at_the_end_of_a_word() -> None:
    # A on Q8 (4W, last letter of CASA on the 17th column): (1+1+1+1) x 4
    pos = position_with("cuvinte", word_tiles("N8", "CAS", True), "A")
    moves = compare(pos, graph_of(RO_WORDS, ROMANIAN))
    assert moves["8N (CAS)A"] == (16, False)


def test_4w_in_the_middle_of_a_word_has_no_effect() -> None:
    # C on A8 between A7 and A9: ACA down, the 4W square in its middle: 1+1+1
    pos = position_with("cuvinte", {"A7": "A", "A9": "A"}, "C")
    moves = compare(pos, graph_of(RO_WORDS, ROMANIAN))
    assert moves["A7 (A)C(A)"] == (3, False)


def test_4w_counts_for_a_cross_word_that_starts_on_it() -> None:
    # CAS across from A8 (4W at its start) x4 = 12, and the cross word CA down from A8
    # (A9 below) also starts on the 4W: (1+1) x 4 = 8
    pos = position_with("cuvinte", {"A9": "A"}, "CAS")
    moves = compare(pos, graph_of(RO_WORDS, ROMANIAN))
    assert moves["8A CAS"] == (20, False)


def test_a_down_word_on_the_17th_column() -> None:
    # CASA down Q5..Q8, the A on Q8 (4W, the word's last square): (1+1+1+1) x 4
    pos = position_with("cuvinte", word_tiles("Q5", "CAS", False), "AS")
    moves = compare(pos, graph_of(RO_WORDS, ROMANIAN))
    assert moves["Q5 (CAS)A"] == (16, False)
    assert any(m.startswith("Q") for m in moves)


def test_ex_squares_flag_the_move_and_score_nothing() -> None:
    # H5 is EX: CASA across from E5 puts its last A on H5, which also makes AS down (H6)
    pos = position_with("cuvinte", word_tiles("E5", "CA", True) | {"H6": "S"}, "SA")
    moves = compare(pos, graph_of(RO_WORDS, ROMANIAN))
    assert moves["5E (CA)SA"] == (4 + 2, True)  # CASA 4 (the 2W on E5 is old) + AS down 2
    assert moves["5E (CA)S"] == (3, False)


ES_WORDS = ["CASA", "MAS", "CA", "AS", "SA", "ASA", "CASAS", "MASA", "ES", "SE", "AMA"]


def test_plus_ten_is_added_after_multiplying_to_every_word_through_it() -> None:
    # C on D4 (+10): CASA across (3+1+1+1) + 10 = 16; CA down with A on D5: (3+1) + 10 = 14
    pos = position_with("letras_top", word_tiles("E4", "ASA", True) | {"D5": "A"}, "C")
    moves = compare(pos, graph_of(ES_WORDS, SPANISH))
    assert moves["4D C(ASA)"] == (30, False)


def test_minus_five_can_make_a_move_worth_nothing() -> None:
    # M on B2 (-5): MAS = 3+1+1 - 5 = 0
    pos = position_with("letras_top", word_tiles("C2", "AS", True), "M")
    moves = compare(pos, graph_of(ES_WORDS, SPANISH))
    assert moves["2B M(AS)"] == (0, False)


def test_letras_top_opens_on_its_second_start_square() -> None:
    # J11 is a start square too: CASA from J11 covers it and not H8; 3+1+1+1 + 10 opening
    # bonus across; down, the last A lands on J14 (3L): 3+1+1+3 + 10
    pos = position_with("letras_top", {}, "CASA")
    moves = compare(pos, graph_of(ES_WORDS, SPANISH))
    assert moves["11J CASA"] == (16, False)
    assert moves["J11 CASA"] == (18, False)
    covered = {pos.variant.parse_square(s) for s in ("H8", "J11")}
    gen = NativeGenerator(pos.variant, graph_of(ES_WORDS, SPANISH))
    for m in gen.placements(pos.board, pos.rack):
        r, c = m.place.start
        squares = {
            (r, c + i) if m.place.across else (r + i, c) for i in range(len(m.place.letters))
        }
        assert squares & covered


def test_cuvinte_first_word_starts_on_the_centre() -> None:
    pos = position_with("cuvinte", {}, "CASA")
    gen = NativeGenerator(pos.variant, graph_of(RO_WORDS, ROMANIAN))
    moves = compare(pos, graph_of(RO_WORDS, ROMANIAN))
    assert moves["8I CASA"] == (4, False)
    found = gen.placements(pos.board, pos.rack)
    assert found and all(m.place.start == (7, 8) for m in found)
    assert all(len(m.place.letters) >= 2 for m in found)


def test_a_rack_of_two_blanks() -> None:
    pos = position_with("fise", word_tiles("H8", "CASA", True), "??")
    lexicon = graph_of(ES_WORDS, SPANISH)
    moves = compare(pos, lexicon)
    assert moves["8H (CASA)s"] == (6, False)  # C3 A1 S1 A1, the blank 0 on 2L
    assert moves["J6 ma(S)"] == (1, False)  # both blanks: 0 (3L) + 0 + S1


def test_blank_designations_are_separate_moves() -> None:
    pos = position_with("fise", word_tiles("H8", "ASA", True), "?C")
    moves = compare(pos, graph_of(ES_WORDS, SPANISH))
    assert moves["8G C(ASA)"] == (6, False)
    assert moves["8G c(ASA)"] == (3, False)


def test_a_single_tile_forming_two_words_is_listed_once() -> None:
    # S on I9 (2L) makes AS across (H9 A) and AS down (I8 A above): listed once, down since a
    # tile lies above it; 1 + 2 for each word
    pos = position_with("fise", {"I8": "A", "H9": "A"}, "S")
    gen = NativeGenerator(pos.variant, graph_of(ES_WORDS, SPANISH))
    found = gen.placements(pos.board, pos.rack)
    on_i9 = [m for m in found if _new_squares(m) == [(8, 8)]]
    assert [format_move(m.place) for m in on_i9] == ["I8 (A)S"]
    assert on_i9[0].score == 3 + 3
    # S on H8 makes SA down (H9 below) and SA across (I8): no tile above, so across
    on_h8 = [m for m in found if _new_squares(m) == [(7, 7)]]
    assert [format_move(m.place) for m in on_h8] == ["8H S(A)"]
    compare(pos, graph_of(ES_WORDS, SPANISH))


def _new_squares(m: GeneratedPlacement) -> list[tuple[int, int]]:
    r, c = m.place.start
    return [
        (r, c + i) if m.place.across else (r + i, c)
        for i, x in enumerate(m.place.letters)
        if not x.on_board
    ]


# -- best() ------------------------------------------------------------------------------------


def some_leave_values(variant: Variant, seed: int) -> dict[tuple[str, ...], float]:
    """Arbitrary but fixed leave values for every leave of up to three tiles, some longer."""
    rng = random.Random(seed)
    tiles = sorted(variant.tiles)
    values: dict[tuple[str, ...], float] = {}
    for k in range(0, 7):
        for leave in itertools.combinations_with_replacement(tiles, k):
            if k <= 3 or rng.random() < 0.05:
                values[leave] = round(rng.uniform(-12.0, 25.0), 2)
    return values


@pytest.mark.parametrize("wordmap", [False, True], ids=["walk", "wordmap"])
@pytest.mark.parametrize("index", SAMPLE[:6])
def test_best_is_the_top_of_the_full_list(
    index: int, wordmap: bool, es_graph: GraphLexicon
) -> None:
    position = read_cgp(BENCH_POSITIONS[index]["cgp"])
    gen = NativeGenerator(position.variant, es_graph, wordmap=wordmap)
    assert gen.use_wordmap(wordmap) is wordmap
    leaves = LeaveValues(some_leave_values(position.variant, index))
    for table in (None, leaves):
        full = gen.placements(position.board, position.rack, leaves=table)
        full.sort(key=gen.rank_key)
        for n in (1, 3, 25):
            want = full[:n]
            assert gen.best(position.board, position.rack, n, table) == want
            assert gen.best(position.board, position.rack, n, table, exhaustive=True) == want
    best = gen.best(position.board, position.rack, 1)
    assert best[0].score == BENCH_POSITIONS[index]["best_score"]


@pytest.mark.parametrize("wordmap", [False, True], ids=["walk", "wordmap"])
@pytest.mark.parametrize("game", GAMES)
def test_best_on_random_positions(
    game: str,
    wordmap: bool,
    es_words: WordListLexicon,
    es_graph: GraphLexicon,
    ro_lexicons: tuple[WordListLexicon, GraphLexicon],
) -> None:
    """The ranked search, by the walk and by the word map, against the full list sorted:
    with the rack dealt, and (in games with blanks) with one and two of its tiles made blanks
    (the word map looks a one-blank subset up once per letter; two blanks go to the walk)."""
    v = load_variant(game)
    words, graph = lexicons_for(v, es_words, es_graph, ro_lexicons)
    gen = NativeGenerator(v, graph, wordmap=wordmap)
    assert gen.use_wordmap(wordmap) is wordmap
    leaves = LeaveValues(some_leave_values(v, 7))
    positions = random_positions(
        v, 25, 3, (5, 7), lexicon=words, generator=self_play_generator(gen)
    )
    for i, position in enumerate(positions):
        dealt = tuple(position.rack)
        racks = [dealt]
        if "?" in v.tiles and i < 8:
            racks.append(("?", *dealt[1:]))
        if "?" in v.tiles and i < 2:
            racks.append(("?", "?", *dealt[2:]))
        for rack in racks:
            full = gen.placements(position.board, rack, leaves=leaves)
            full.sort(key=gen.rank_key)
            for n in (1, 4):
                assert gen.best(position.board, rack, n, leaves) == full[:n], "".join(rack)
            by_score = sorted(full, key=lambda m: gen.rank_key(m)[1:])[:2]
            found = gen.best(position.board, rack, 2)
            assert [(m.place, m.score) for m in found] == [(m.place, m.score) for m in by_score]


def test_the_word_map_lists_the_words_of_a_multiset() -> None:
    """``wordmap_find`` gives, for a multiset of letters, exactly the words of the list made
    of those letters (digraph tiles count as one letter), and nothing for letters no word
    has; a map that was never built is an error, not an empty answer."""
    words = ["CASA", "SACA", "ACAS", "CASAS", "CHAL", "LACHA", "RAMO", "ROMA", "MORA", "AMOR"]
    gen = NativeGenerator(load_variant("fise"), graph_of(words, SPANISH), wordmap=False)
    with pytest.raises(ValueError, match="no word map"):
        gen._gen.wordmap_find(bytes(32))
    assert gen.use_wordmap(True)

    def counts(tiles: list[str]) -> bytes:
        c = bytearray(32)
        for t in tiles:
            c[SPANISH.code(t)] += 1
        return bytes(c)

    def spelled(found: list[bytes]) -> set[str]:
        return {"".join(SPANISH.letter(code) for code in w) for w in found}

    assert spelled(gen._gen.wordmap_find(counts(["S", "A", "C", "A"]))) == {"CASA", "SACA", "ACAS"}
    assert spelled(gen._gen.wordmap_find(counts(["A", "M", "O", "R"]))) == {
        "RAMO",
        "ROMA",
        "MORA",
        "AMOR",
    }
    assert spelled(gen._gen.wordmap_find(counts(["CH", "A", "L"]))) == {"CHAL"}
    assert gen._gen.wordmap_find(counts(["C", "H", "A", "L"])) == []  # C + H is not CH
    assert gen._gen.wordmap_find(counts(["A"] * 16)) == []
    stats = gen._gen.wordmap_stats()
    assert stats is not None and stats[:2] == (len(words), 5)  # five anagram classes


def test_the_word_map_knows_the_letters_that_complete_a_multiset() -> None:
    words = ["CASA", "SACA", "CASAS", "CHAL", "RAMO", "ROMA", "RAMOS", "MOTA"]
    gen = NativeGenerator(load_variant("fise"), graph_of(words, SPANISH), wordmap=True)

    def completions(tiles: str) -> set[str]:
        c = bytearray(32)
        for t in tiles.split():
            c[SPANISH.code(t)] += 1
        mask = gen._gen.wordmap_completions(bytes(c))
        return {SPANISH.letter(code) for code in range(1, 32) if mask >> code & 1}

    assert completions("C A S") == {"A"}  # CASA, SACA
    assert completions("C A S A") == {"S"}  # CASAS
    assert completions("A M O") == {"R", "T"}  # RAMO, ROMA; MOTA
    assert completions("A M O R") == {"S"}  # RAMOS
    assert completions("CH A") == {"L"}
    assert completions("C H A") == set()  # C and H are not the tile CH
    assert completions("X Y Z") == set()


def test_word_map_completions_equal_the_word_list(es_words: WordListLexicon) -> None:
    # A 5,000-word sample: every multiset one letter short of a word, and as many that are
    # not, against the words' multisets.
    rng = random.Random(17)
    words = sorted(rng.sample(sorted(es_words), 5000))
    gen = NativeGenerator(load_variant("fise"), graph_of(words, SPANISH), wordmap=True)
    classes = {bytes(sorted(SPANISH.encode(w))) for w in words}
    codes = range(1, len(SPANISH.letters) + 1)
    probes = set()
    for key in classes:
        for i in range(len(key)):
            probes.add(key[:i] + key[i + 1 :])
            probes.add(bytes(sorted(key[:i] + bytes([rng.choice(codes)]) + key[i + 1 :])))
    for probe in sorted(probes):
        counts = bytearray(32)
        for code in probe:
            counts[code] += 1
        expected = {x for x in codes if bytes(sorted(probe + bytes([x]))) in classes}
        mask = gen._gen.wordmap_completions(bytes(counts))
        assert {x for x in codes if mask >> x & 1} == expected, SPANISH.decode(probe)
    assert len(probes) > 40_000


def test_word_map_completions_of_unrelated_words_fill_a_grown_table() -> None:
    # Random words share almost no multiset one letter short of a word, more than the table
    # is first sized for (about 55 % of a real list's are shared): it must grow, and keep
    # every completion exact.
    rng = random.Random(23)
    letters = "ABCDEFGIJMNOPSTUVZ"  # no H, L or R: no digraph can form by chance
    words = sorted({"".join(rng.choice(letters) for _ in range(9)) for _ in range(400)})
    gen = NativeGenerator(load_variant("fise"), graph_of(words, SPANISH), wordmap=True)
    classes = {bytes(sorted(SPANISH.encode(w))) for w in words}
    near = {key[:i] + key[i + 1 :] for key in classes for i in range(len(key))}
    codes = range(1, len(SPANISH.letters) + 1)
    for probe in near:
        counts = bytearray(32)
        for code in probe:
            counts[code] += 1
        mask = gen._gen.wordmap_completions(bytes(counts))
        expected = {x for x in codes if bytes(sorted(probe + bytes([x]))) in classes}
        assert {x for x in codes if mask >> x & 1} == expected
    stats = gen._gen.wordmap_stats()
    assert stats is not None
    # the first size would hold 0.85 entries a (class, letter) pair; these need about one
    pairs = sum(len(set(key)) for key in classes)
    assert len(near) > 0.95 * pairs


def test_self_play_gives_the_same_games_with_the_word_map(es_graph: GraphLexicon) -> None:
    """Self-play in C makes every move by a ranked search: with the word map it plays the very
    same games as with the walk, blanks and exchanges included."""
    v = load_variant("fise")
    table = shipped_leaves("fise")
    assert table is not None
    leaves = learned_leave_values(table)
    walk = NativeGenerator(v, es_graph, wordmap=False)
    mapped = NativeGenerator(v, es_graph, wordmap=True)
    assert walk.selfplay(12, seed=5, leaves=leaves) == mapped.selfplay(12, seed=5, leaves=leaves)


def test_best_with_no_move_is_empty() -> None:
    pos = position_with("fise", word_tiles("H8", "CASA", True), "ZZ")
    gen = NativeGenerator(pos.variant, graph_of(ES_WORDS, SPANISH))
    assert gen.best(pos.board, pos.rack, 3) == []
    assert gen.placements(pos.board, pos.rack) == []
    assert gen.count(pos.board, pos.rack) == 0


def test_leave_values_ignore_order_and_default_to_zero() -> None:
    leaves = LeaveValues({("S", "?"): 20.5, ("A",): -1.0})
    assert leaves.value(["?", "S"]) == 20.5
    assert leaves.value(("S", "?")) == 20.5
    assert leaves.value(("Q",)) == 0.0
    assert len(leaves) == 2


def test_the_python_leave_key_is_the_c_one() -> None:
    rng = random.Random(3)
    for _ in range(200):
        codes = [rng.randrange(0, 31) for _ in range(rng.randrange(0, 8))]
        assert leave_table_key(codes) == _native.leave_key(bytes(codes))
        assert leave_table_key(codes) == leave_table_key(list(reversed(codes)))
    assert leave_table_key([]) == 0


def test_a_learned_tables_keys_come_from_c_in_the_klvs_order() -> None:
    # The shipped FISE table (a million leaves): the keys the C walk gives, one per leave in
    # the order of the KLV's values, are those of the leaves the Python walk reads; and a
    # learned table's value for a leave is its own.
    table = shipped_leaves("fise")
    assert table is not None
    kwg = table.kwg
    keys = array.array("Q")
    keys.frombytes(_native.leave_keys(kwg.nodes, kwg.dawg_root))
    expected = [leave_table_key(codes) for codes in kwg.paths(kwg.dawg_root)]
    assert keys.tolist() == expected and len(expected) == len(table) > 1_000_000
    learned = learned_leave_values(table)
    c_table = learned.table(table.alphabet)
    for leave in (("?",), ("S", "?"), ("A", "E", "R"), ("Q",), ("CH", "LL", "RR")):
        codes = bytes(0 if t == "?" else table.alphabet.code(t) for t in leave)
        assert c_table.get(leave_table_key(codes)) == pytest.approx(table.value(leave))
    with pytest.raises(ValueError, match="past the end"):
        _native.leave_keys(array.array("I", [0, 0, 5 << 24 | 0x00C0_0000 | 9]), 2)
    assert _native.leave_keys(array.array("I", [0, 0]), 0) == b""


def test_leave_values_reject_bad_input() -> None:
    with pytest.raises(ValueError, match="twice"):
        LeaveValues({("A", "S"): 1.0, ("S", "A"): 2.0})
    with pytest.raises(ValueError, match="tuple"):
        LeaveValues({"AS": 1.0})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="not a letter"):
        LeaveValues({("Ж",): 1.0}).table(SPANISH)


def test_equity_adds_the_leave_value() -> None:
    pos = position_with("fise", word_tiles("H8", "ASA", True), "CS")
    gen = NativeGenerator(pos.variant, graph_of(ES_WORDS, SPANISH))
    leaves = LeaveValues({("S",): 30.0})
    best = gen.best(pos.board, pos.rack, 1, leaves)[0]
    assert best.leave == ("S",)  # keeping the S is worth more than any score here
    assert best.equity == best.score + 30.0


# -- NativeBoard ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_native_board_updated_move_by_move_equals_one_built_from_scratch(
    game: str,
    es_words: WordListLexicon,
    es_graph: GraphLexicon,
    ro_lexicons: tuple[WordListLexicon, GraphLexicon],
) -> None:
    v = load_variant(game)
    _, graph = lexicons_for(v, es_words, es_graph, ro_lexicons)
    gen = NativeGenerator(v, graph)
    rng = random.Random(game)
    bag = [t for t, (n, _) in v.tiles.items() for _ in range(n)]
    rng.shuffle(bag)
    live = gen.board()
    board = Board(v.rows, v.columns)
    rack = [bag.pop() for _ in range(v.rack_size)]
    played = 0
    for _ in range(30):
        moves = gen.placements(live, rack)
        if not moves:
            rack = [bag.pop() for _ in range(min(v.rack_size, len(bag)))]
            continue
        move = rng.choice(moves)
        live.apply(move)
        played += 1
        r, c = move.place.start
        for i, letter in enumerate(move.place.letters):
            square = (r, c + i) if move.place.across else (r + i, c)
            if not letter.on_board:
                assert letter.tile is not None
                board[square] = letter.tile
        rack = list(move.leave) + [bag.pop() for _ in range(v.rack_size - len(move.leave))]
        fresh = gen.board(board)
        assert live.to_board() == board
        assert live.anchors() == fresh.anchors()
        for across in (True, False):
            for row in range(v.rows):
                for col in range(v.columns):
                    square = (row, col)
                    assert live.cross_set(square, across) == fresh.cross_set(square, across)
                    assert live.extension_set(square, across) == fresh.extension_set(square, across)
        probe = rack[:4]
        assert gen.placements(live, probe) == gen.placements(board, probe)
        if len(bag) < v.rack_size:
            break
    assert played >= 5


def test_extension_sets_allow_only_letters_that_continue_the_tiles_beside_them() -> None:
    # CASA across on D8..G8 with the words of ES_WORDS: CASAS is the only word going on past
    # CASA, and no word has a letter before it; the squares' own columns are empty.
    gen = NativeGenerator(load_variant("fise"), graph_of(ES_WORDS, SPANISH))
    board = gen.board(position_with("fise", word_tiles("D8", "CASA", True), "").board)
    every = frozenset(gen.variant.letters())
    assert board.extension_set((7, 7), across=True) == {"S"}
    assert board.extension_set((7, 2), across=True) == frozenset()
    assert board.extension_set((7, 7), across=False) == every
    assert board.extension_set((7, 4), across=True) == frozenset()  # taken: no tile goes there
    # one empty square between two runs: the letters x making "C" x "S" consecutive letters
    # of a word (CASA, CASAS: A) and "S" x "C" (none)
    board = gen.board(position_with("fise", {"A1": "C", "C1": "S", "E1": "C"}, "").board)
    assert board.extension_set((0, 1), across=True) == {"A"}
    assert board.extension_set((0, 3), across=True) == frozenset()


def test_extension_sets_equal_the_factors_of_the_word_list(es_words: WordListLexicon) -> None:
    # Every empty square of self-play positions built with a sample of the Spanish list, both
    # directions, against the sequences of consecutive letters of the sample's words.
    words = sorted(random.Random(16).sample(sorted(es_words), 3000))
    sample = WordListLexicon(words, SPANISH, "sample")
    v = load_variant("fise")
    gen = NativeGenerator(v, graph_of(words, SPANISH))
    factors = set()
    for word in words:
        codes = SPANISH.encode(word)
        factors.update(codes[i:j] for i in range(len(codes)) for j in range(i + 1, len(codes) + 1))
    letters = {SPANISH.code(x): x for x in v.letters()}
    checked = narrowed = 0
    for position in random_positions(v, 12, seed=16, lexicon=sample):
        board = gen.board(position.board)

        def code_at(r: int, c: int, grid: Board = position.board) -> int | None:
            tile = grid[(r, c)] if 0 <= r < v.rows and 0 <= c < v.columns else None
            return None if tile is None else SPANISH.code(tile.letter)

        for across in (True, False):
            for r in range(v.rows):
                for c in range(v.columns):
                    if code_at(r, c) is not None:
                        continue
                    step = (0, 1) if across else (1, 0)
                    before, after = b"", b""
                    rr, cc = r - step[0], c - step[1]
                    while (code := code_at(rr, cc)) is not None:
                        before = bytes([code]) + before
                        rr, cc = rr - step[0], cc - step[1]
                    rr, cc = r + step[0], c + step[1]
                    while (code := code_at(rr, cc)) is not None:
                        after += bytes([code])
                        rr, cc = rr + step[0], cc + step[1]
                    if before or after:
                        expected = {
                            x for i, x in letters.items() if before + bytes([i]) + after in factors
                        }
                        narrowed += len(expected) < len(letters)
                    else:
                        expected = set(letters.values())
                    assert board.extension_set((r, c), across) == expected, (r, c, across)
                    checked += 1
    assert checked > 2000 and narrowed > 100


def test_native_board_apply_rejects_a_move_that_does_not_fit() -> None:
    v = load_variant("fise")
    gen = NativeGenerator(v, graph_of(ES_WORDS, SPANISH))
    live = gen.board()
    first = next(m for m in gen.placements(live, list("CASA")) if format_move(m.place) == "8H CASA")
    live.apply(first)
    before = live.to_board()
    with pytest.raises(ValueError, match="occupied"):
        live.apply(first)
    assert live.to_board() == before
    copy = live.copy()
    second = gen.placements(copy, ["S"])[0]
    copy.apply(second)
    assert live.to_board() == before  # the copy is independent
    assert copy.tile_count == live.tile_count + 1


# -- bad input --------------------------------------------------------------------------------


def test_bad_input_is_a_clear_error() -> None:
    fise = load_variant("fise")
    es = graph_of(ES_WORDS, SPANISH)
    gen = NativeGenerator(fise, es)
    board = Board(15, 15)
    with pytest.raises(ValueError, match="not a tile"):
        gen.placements(board, ["K"])  # FISE has no K tile
    with pytest.raises(ValueError, match="not a tile"):
        NativeGenerator(load_variant("intelect"), es).placements(board, ["?"])  # no blanks
    with pytest.raises(ValueError, match="sequence of tiles"):
        gen.placements(board, "CASA")
    with pytest.raises(ValueError, match="at most"):
        gen.placements(board, ["A"] * 11)
    with pytest.raises(ValueError, match="board"):
        gen.placements(Board(15, 17), ["A"])
    with pytest.raises(ValueError, match="n must be"):
        gen.best(board, ["A"], 0)
    with pytest.raises(ValueError, match="lexicon is ro"):
        NativeGenerator(fise, graph_of(RO_WORDS, ROMANIAN))
    dawg_only = build_kwg([SPANISH.encode(w) for w in ES_WORDS], gaddag=False)
    no_gaddag = GraphLexicon(
        Kwg(dawg_only.nodes, gaddag=False), SPANISH, LexiconInfo("d", "", 1, "")
    )
    with pytest.raises(ValueError, match="GADDAG"):
        NativeGenerator(fise, no_gaddag)


def test_generated_placements_are_plain_values() -> None:
    pos = position_with("fise", word_tiles("H8", "CASA", True), "S")
    gen = NativeGenerator(pos.variant, graph_of(ES_WORDS, SPANISH))
    moves = {format_move(m.place): m for m in gen.placements(pos.board, pos.rack)}
    move = moves["8H (CASA)S"]
    assert isinstance(move, GeneratedPlacement)
    assert format_move(move.place) == "8H (CASA)S"
    # C3 A1 S1 A1, the new S on L8 (2L): 2
    assert (move.score, move.leave, move.shuffles_next_rack) == (8, (), False)
    with pytest.raises(AttributeError):
        move.score = 1  # type: ignore[misc]


# -- self-play in C ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_native_self_play_follows_the_rules(
    game: str,
    es_words: WordListLexicon,
    es_graph: GraphLexicon,
    ro_lexicons: tuple[WordListLexicon, GraphLexicon],
) -> None:
    """Every turn of a C self-play game, replayed through the rules engine: each placement is
    legal for the mover's rack on the board of the moment, forms only words, scores what the
    rules engine says, and is the best-scoring placement; tiles are conserved; the totals
    add up."""
    v = load_variant(game)
    words, graph = lexicons_for(v, es_words, es_graph, ro_lexicons)
    gen = NativeGenerator(v, graph)
    result, turns = gen.selfplay_turns(seed=11, players=2)
    assert result.turns == len(turns) and result.reason != "turn_limit"
    totals = [0, 0]
    all_tiles = sum(n for n, _ in v.tiles.values())
    rack_sizes = [v.rack_size, v.rack_size]
    for i, turn in enumerate(turns):
        assert turn.seat == i % 2
        # tiles are conserved: on the board, in the bag, on the two racks
        assert len(turn.rack) == rack_sizes[turn.seat]
        assert sum(1 for _ in turn.board.tiles()) + turn.bag + sum(rack_sizes) == all_tiles
        if turn.kind == "exchange":
            assert turn.kept is not None
            assert not Counter(turn.kept) - Counter(turn.rack)
            assert turn.bag >= max(v.exchange.min_bag, len(turn.rack) - len(turn.kept))
        if turn.kind == "pass":
            assert not gen.placements(turn.board, turn.rack)
        if turn.kind != "place":
            continue
        p = turn.placement
        assert p is not None
        chk = check_placement(v, turn.board, p.place, turn.rack)
        assert all(words.contains(w.text) for w in chk.words)
        first = turn.board.is_empty()
        score = score_placement(v, list(chk.words), len(chk.new_tiles), first)
        assert (p.score, p.shuffles_next_rack) == (score.total, score.shuffles_next_rack)
        best = max(m.score for m in gen.placements(turn.board, turn.rack))
        assert p.score == best
        totals[turn.seat] += p.score
        placed = len(chk.new_tiles)
        rack_sizes[turn.seat] += min(placed, turn.bag) - placed
    assert list(result.scores_before_adjustments) == totals
    assert sum(result.moves) == sum(t.kind == "place" for t in turns)
    if result.went_out is not None:
        assert result.tiles_left[result.went_out] == 0
    check_end_through_game(v, words, result, turns)


def test_native_self_play_with_leaves_plays_the_best_equity(es_graph: GraphLexicon) -> None:
    """With the shipped FISE leave values, each placement the C loop makes has the best
    equity ``candidates`` finds for that rack on that board: score plus the leave value while
    the bag has tiles, score plus the end value once it is empty."""
    v = load_variant("fise")
    table = shipped_leaves("fise")
    assert table is not None
    gen = NativeGenerator(v, es_graph)
    _, turns = gen.selfplay_turns(seed=3, players=2, leaves=learned_leave_values(table))
    checked = {"bag": 0, "empty bag": 0}
    for turn in turns:
        if turn.kind != "place":
            continue
        assert turn.placement is not None
        position = Position(v, turn.board, [turn.rack, ()], [0, 0], bag=turn.bag)
        found = candidates(position, es_graph, table, generator=generator_for(v, es_graph))
        best = max(c.equity for c in found if c.kind == "place")
        assert turn.placement.equity == pytest.approx(best), format_move(turn.placement.place)
        checked["empty bag" if turn.bag == 0 else "bag"] += 1
    assert checked["bag"] >= 10 and checked["empty bag"] >= 1


def test_native_self_play_records_what_each_turn_kept(es_graph: GraphLexicon) -> None:
    """``selfplay_records`` (what a leave learner reads) agrees with the decoded turns of the
    same game: each placement keeps the rack less the tiles it laid, an exchange what it
    kept, a pass the whole rack; the scores are those of the turns. With a table for one
    seat only, the other seat plays on score: its placements are the best-scoring ones."""
    v = load_variant("fise")
    table = shipped_leaves("fise")
    assert table is not None
    gen = NativeGenerator(v, es_graph)
    learned = learned_leave_values(table)
    seen = Counter()
    for seed in (3, 4, 5, 6):
        game, records = gen.selfplay_records(seed, 2, seed % 2, learned)
        again, turns = gen.selfplay_turns(seed, 2, seed % 2, learned)
        assert game == again and len(records) == len(turns) == game.turns
        for record, turn in zip(records, turns, strict=True):
            assert (record.seat, record.kind, record.bag_before) == (turn.seat, turn.kind, turn.bag)
            if turn.kind == "place":
                assert turn.placement is not None
                assert Counter(record.leave) == Counter(turn.placement.leave)
                assert record.score == turn.placement.score
                assert record.tiles_played == len(turn.rack) - len(record.leave)
            elif turn.kind == "exchange":
                assert record.leave == turn.kept and record.score == 0
            else:
                assert record.leave == turn.rack and record.score == 0
            seen[turn.kind] += 1
    assert seen["place"] > 80 and seen["exchange"] >= 1
    _, mixed = gen.selfplay_records(7, 2, 0, [learned, None])
    _, turns = gen.selfplay_turns(7, 2, 0, learned)  # both seats valuing leaves
    assert [r.score for r in mixed] != [t.placement.score if t.placement else 0 for t in turns]
    _, greedy_turns = gen.selfplay_turns(7, 2, 0, [learned, None])
    for turn in greedy_turns[1::2]:
        if turn.kind == "place" and turn.placement is not None:
            best = max(m.score for m in gen.placements(turn.board, turn.rack))
            assert turn.placement.score == best
    with pytest.raises(ValueError, match="one table per seat"):
        gen.selfplay_records(7, 2, 0, [learned])


def check_end_through_game(
    v: Variant, lexicon: WordListLexicon, result: NativeGameResult, turns: list[NativeTurn]
) -> None:
    """The C game's end, scored by ``Game`` itself: the final board and racks set on a game
    whose bag is empty, then the game's own end routine gives the final scores and winners.

    With two players the racks at the end are known when someone went out (the other holds
    every tile not on the board) or when the last turn was a pass (the mover kept its rack).
    """
    last = turns[-1]
    board = last.board.copy()
    if last.placement is not None:
        r, c = last.placement.place.start
        for i, letter in enumerate(last.placement.place.letters):
            if not letter.on_board and letter.tile is not None:
                board[(r, c + i) if last.placement.place.across else (r + i, c)] = letter.tile
    rest = Counter({t: n for t, (n, _) in v.tiles.items()})
    rest.subtract(t.rack_form for _, t in board.tiles())
    racks: list[list[str]] = [[], []]
    if result.went_out is not None:
        racks[1 - result.went_out] = sorted(rest.elements())
    elif last.kind == "pass" and last.bag == 0:
        racks[last.seat] = list(last.rack)
        racks[1 - last.seat] = sorted((rest - Counter(last.rack)).elements())
    else:
        raise AssertionError(f"end of game not checked: {result.reason}")
    assert [len(r) for r in racks] == list(result.tiles_left)
    game = Game(v, ["a", "b"], lexicon, seed=0)
    game.board, game.bag = board, []
    for seat, player in enumerate(game.players):
        player.rack, player.score = racks[seat], result.scores_before_adjustments[seat]
    game._finish(result.reason)
    assert game.result is not None
    assert list(game.result.final_scores) == list(result.scores)
    assert list(game.result.winners) == decide_winners(
        v, result.scores, result.scores_before_adjustments
    )


def test_native_self_play_is_reproducible_and_alternates_the_first_seat(
    es_graph: GraphLexicon,
) -> None:
    gen = NativeGenerator(load_variant("fise"), es_graph)
    one = gen.selfplay(4, seed=5)
    assert one == gen.selfplay(4, seed=5)
    assert one != gen.selfplay(4, seed=6)
    assert [r.first for r in one] == [0, 1, 0, 1]
    for r in one:
        assert r.reason in ("going_out", "scoreless_rounds", "no_one_can_play")
        assert sum(r.moves) > 10
    with pytest.raises(ValueError, match="one table per seat"):
        gen.selfplay(1, leaves=[None])
