"""Tournament pairings (``tablero.competition.pairing``) against results worked by hand.

Players are letters in seed order (A the first seed). ``Played(round, first, second, points,
spread)`` is a board: ``first`` moved first; ``points`` and ``spread`` are the first
player's. The expected pairings are written as "first–second" and were worked out by hand
from the rules in docs/competition.md ("Tournaments"); each test says how.
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from tablero.competition.pairing import (
    Pairing,
    PairingError,
    first_and_second,
    ideal_pairing,
    round_robin_pairings,
    round_robin_rounds,
    swiss_pairings,
)
from tablero.competition.standings import BYE_SPREAD, Played, Standing, bye, standings

P8 = list("ABCDEFGH")
P9 = list("ABCDEFGHI")
P16 = list("ABCDEFGHIJKLMNOP")


def boards(pairings: Sequence[Pairing]) -> list[str]:
    """``["H–C", ..., "E bye"]``: each board as first–second, in board order."""
    assert [p.board for p in pairings] == list(range(1, len(pairings) + 1))
    return [f"{p.first}–{p.second}" if p.second else f"{p.first} bye" for p in pairings]


def play(round_number: int, pairings: Sequence[Pairing]) -> list[Played]:
    """The results script of the later rounds: the better seed (earlier letter) wins by ten
    points a place of seed between them; a bye is a bye."""
    out = []
    for p in pairings:
        if p.second is None:
            out.append(bye(round_number, p.first))
            continue
        margin = 10 * abs(ord(p.first) - ord(p.second))
        first_wins = p.first < p.second
        out.append(Played(round_number, p.first, p.second, 1.0 if first_wins else 0.0,
                          margin if first_wins else -margin))  # fmt: skip
    return out


def check_round(players: list[str], games: list[Played], pairings: Sequence[Pairing]) -> None:
    """What every Swiss round must be: everyone once, no repeat, at most one bye, and the
    bye to the lowest-ranked of those with the fewest byes (no repeat forces otherwise in
    these tournaments)."""
    seated = [p for b in pairings for p in (b.first, b.second) if p is not None]
    assert sorted(seated) == sorted(players)
    met = {frozenset((g.first, g.second)) for g in games if g.second}
    for b in pairings:
        if b.second:
            assert frozenset((b.first, b.second)) not in met, (b, "a repeat")
    byes = [b.first for b in pairings if b.second is None]
    assert len(byes) == len(players) % 2
    if byes:
        table = standings(players, games)
        fewest = min(s.byes for s in table)
        assert byes == [[s.player for s in table if s.byes == fewest][-1]]


def tournament(
    players: list[str], round_one: list[Played], rounds: int = 5
) -> tuple[list[Played], list[list[Pairing]]]:
    """Round 1 as given, then ``rounds - 1`` Swiss rounds with the results script; every
    round checked, and the first-move balance after each."""
    games = list(round_one)
    paired = []
    for r in range(2, rounds + 1):
        pairings = swiss_pairings(players, games)
        check_round(players, games, pairings)
        paired.append(pairings)
        games += play(r, pairings)
        # Firsts and seconds never differ by more than 2 (the pairing's hard limit).
        assert all(abs(s.balance) <= 2 for s in standings(players, games))
    return games, paired


# -- Swiss, round 1 ---------------------------------------------------------------------------


def test_round_one_pairs_the_top_half_of_the_seeds_against_the_bottom_half() -> None:
    # Everyone at 0 points: one group, ranked by seed; 1st v 5th, 2nd v 6th... The firsts:
    # no balance, no history, so the higher seed moves first. With 9, the 9th has the bye.
    assert boards(swiss_pairings(P8, [])) == ["A–E", "B–F", "C–G", "D–H"]
    assert boards(swiss_pairings(P9, [])) == ["A–E", "B–F", "C–G", "D–H", "I bye"]
    assert boards(swiss_pairings(P16, [])) == [
        "A–I", "B–J", "C–K", "D–L", "E–M", "F–N", "G–O", "H–P",
    ]  # fmt: skip


# -- Swiss, 8 players -------------------------------------------------------------------------

R1_8 = [
    Played(1, "A", "E", 0.5, 0),
    Played(1, "B", "F", 0.5, 0),
    Played(1, "C", "G", 1, 50),
    Played(1, "D", "H", 0, -10),
]
"""Two draws, a win by the first mover, a win by the second."""


def test_eight_players_round_two_by_hand() -> None:
    # After round 1: C 1 (+50), H 1 (+10); A, B, E, F ½ (0: by seed); D 0 (−10), G 0 (−50).
    table = standings(P8, R1_8)
    assert [s.player for s in table] == list("CHABEFDG")
    assert [s.points for s in table] == [1, 1, 0.5, 0.5, 0.5, 0.5, 0, 0]
    # The ideal: groups {C H}, {A B E F}, {D G}; top half v bottom half: C–H, A–E, B–F, D–G.
    # A–E and B–F met in round 1. Within the ½ group the other two pairings are A–B + E–F
    # and A–F + B–E; leaving the group costs a score gap, which comes first. A and B moved
    # first (balance +1), E and F second (−1): A–B and E–F would each put a player 2 out of
    # balance, A–F and B–E none. So A–F, B–E. First moves: the lower balance (−1) first.
    assert boards(swiss_pairings(P8, R1_8)) == ["H–C", "F–A", "E–B", "G–D"]


def test_eight_players_five_rounds() -> None:
    games, paired = tournament(P8, R1_8)
    assert boards(paired[0]) == ["H–C", "F–A", "E–B", "G–D"]
    # Round 2 under the script (the better seed wins by 10 a place): C beats H by 50, A beats
    # F by 50, B beats E by 30, D beats G by 30. Standings: C 2 (+100), A 1½ (+50), B 1½
    # (+30), D 1 (+20), H 1 (−40), E ½ (−30), F ½ (−50), G 0 (−80).
    table = standings(P8, games[:8])
    assert [s.player for s in table] == list("CABDHEFG")
    # Round 3: groups {C}, {A B}, {D H}, {E F}, {G}. C floats to {A B}; [C A B] is odd, so B
    # floats on: C–A; [B D H]: H floats, B–D; [H E F]: F floats, H–E; [F G]: F–G. No repeats.
    # Each group being odd, some pair must cross a group: this chain crosses every time by
    # half a point, the least possible. Everyone moved first once and second once: balance
    # 0 and, back from round 2, the same history in each pair: the higher-ranked first.
    assert boards(paired[1]) == ["C–A", "B–D", "H–E", "F–G"]
    # Every player has played 5 games: an odd number, so firsts and seconds differ by 1.
    assert all(abs(s.balance) == 1 for s in standings(P8, games))
    assert Counter(frozenset((g.first, g.second)) for g in games).most_common(1)[0][1] == 1


# -- Swiss, 9 players: a bye each round -------------------------------------------------------

R1_9 = [
    Played(1, "A", "E", 1, 100),
    Played(1, "B", "F", 0, -20),
    Played(1, "C", "G", 1, 50),
    Played(1, "D", "H", 0, -10),
    bye(1, "I"),
]


def test_nine_players_round_two_by_hand() -> None:
    # After round 1: A 1 (+100), C 1 (+50), I 1 (+50, the bye; C is the better seed), F 1
    # (+20), H 1 (+10); D 0 (−10), B 0 (−20), G 0 (−50), E 0 (−100).
    table = standings(P9, R1_9)
    assert [s.player for s in table] == list("ACIFHDBGE")
    assert table[2].spread == BYE_SPREAD and table[2].byes == 1
    # The bye: E, the lowest-ranked of those without one. The other eight: {A C I F H} is
    # odd, H floats down: A–I, C–F; then [H D B G]: H–B, D–G. No repeats; the only balance
    # conflict-free pairing of each group is this one. First moves: I (0, had a bye) before
    # A (+1); F, H, G (−1) before C, B, D (+1).
    assert boards(swiss_pairings(P9, R1_9)) == ["I–A", "F–C", "H–B", "G–D", "E bye"]


def test_nine_players_five_rounds_one_bye_a_round_never_two() -> None:
    games, paired = tournament(P9, R1_9)
    assert boards(paired[0]) == ["I–A", "F–C", "H–B", "G–D", "E bye"]
    byes = [g.first for g in games if g.is_bye]
    assert len(byes) == 5 and len(set(byes)) == 5  # one a round, nobody twice
    assert byes[:2] == ["I", "E"]
    final = standings(P9, games)
    for s in final:
        # Four games and a bye, or five games: firsts and seconds within 1 of each other
        # for the five who played an odd number; within 2 for the others.
        assert s.played == 5
        assert abs(s.balance) <= (1 if s.byes == 0 else 2)


# -- Swiss, 16 players ------------------------------------------------------------------------

R1_16 = [
    Played(1, "A", "I", 1, 90),
    Played(1, "B", "J", 0, -30),
    Played(1, "C", "K", 1, 70),
    Played(1, "D", "L", 1, 10),
    Played(1, "E", "M", 0, -60),
    Played(1, "F", "N", 1, 40),
    Played(1, "G", "O", 1, 20),
    Played(1, "H", "P", 0, -5),
]
"""Three upsets: J over B, M over E, P over H."""


def test_sixteen_players_round_two_by_hand() -> None:
    # Winners by spread: A +90, C +70, M +60, F +40, J +30, G +20, D +10, P +5; losers: H −5,
    # L −10, O −20, B −30, N −40, E −60, K −70, I −90.
    assert [s.player for s in standings(P16, R1_16)] == list("ACMFJGDPHLOBNEKI")
    # Ideal: A–J, C–G, M–D, F–P and H–N, L–E, O–K, B–I; no repeats. Among the winners five
    # moved first (A C F G D) and three second (M J P), so one pair of first-movers must
    # meet (C–G); among the losers one pair of second-movers (O–K). Crossing the groups to
    # avoid that would cost a score gap, which comes first: the ideal stands. C–G and O–K:
    # same balance, same history, so the higher-ranked moves first.
    assert boards(swiss_pairings(P16, R1_16)) == [
        "J–A", "C–G", "M–D", "P–F", "N–H", "L–E", "O–K", "I–B",
    ]  # fmt: skip


def test_sixteen_players_five_rounds() -> None:
    games, _ = tournament(P16, R1_16)
    final = standings(P16, games)
    assert all(abs(s.balance) == 1 for s in final)  # five games each: within 1
    pairs = Counter(frozenset((g.first, g.second)) for g in games)
    assert len(pairs) == 40 and max(pairs.values()) == 1
    # The script rewards the better seed: after five rounds the seeds lead.
    assert final[0].player == "A" and final[0].points == 5


# -- the bye ----------------------------------------------------------------------------------


def test_the_bye_goes_higher_when_the_lowest_would_force_a_repeat() -> None:
    # Six played three rounds; F is removed, five are paired. All draws: ranked by seed, no
    # one has had a bye. E (the lowest) out would leave A B C D, whose three pairings all
    # repeat (A met B, C and D); D out leaves A–E + B–C, free of repeats. So D has the bye.
    players = list("ABCDEF")
    games = [
        Played(1, "A", "B", 0.5), Played(1, "E", "C", 0.5), Played(1, "D", "F", 0.5),
        Played(2, "C", "A", 0.5), Played(2, "B", "F", 0.5), Played(2, "E", "D", 0.5),
        Played(3, "A", "D", 0.5), Played(3, "B", "E", 0.5), Played(3, "F", "C", 0.5),
    ]  # fmt: skip
    # Balances: A +1 (F S F), B +1, E +1 (F F S), C −1. A–E: equal, and going back, E moved
    # second in round 3 where A moved first: E first. B–C: C (−1) first.
    assert boards(swiss_pairings(players, games, active=list("ABCDE"))) == [
        "E–A",
        "C–B",
        "D bye",
    ]


def test_three_players_share_the_byes_before_anyone_has_two() -> None:
    players = list("ABC")
    games: list[Played] = []
    for r in range(1, 4):
        pairings = swiss_pairings(players, games)
        games += play(r, pairings)
    # Round 1: C (lowest) has the bye, A–B. Round 2: A 1 (+10), C 1 (+50: ahead), B 0: B
    # has the bye. Round 3: A, the only one without a bye, has it, whatever its rank.
    assert [g.first for g in games if g.is_bye] == ["C", "B", "A"]


# -- first moves ------------------------------------------------------------------------------


def standing(player: str, rank: int, starts: str) -> Standing:
    firsts = starts.count("F")
    return Standing(rank, player, rank, 0, 0, 0, 0, 0, len(starts), 0, firsts,
                    len(starts) - firsts, tuple(c == "F" for c in starts), ())  # fmt: skip


def test_who_moves_first() -> None:
    # The lower balance first, whatever the ranks.
    assert first_and_second(standing("A", 1, "FF"), standing("B", 2, "FS")) == ("B", "A")
    # Equal balance: back from the latest game, the one who moved second there moves first.
    assert first_and_second(standing("A", 1, "SF"), standing("B", 2, "FS")) == ("B", "A")
    assert first_and_second(standing("A", 1, "FS"), standing("B", 2, "SF")) == ("A", "B")
    # A bye counts as neither (histories of different lengths, compared from the latest).
    assert first_and_second(standing("A", 1, "FSF"), standing("B", 2, "SF")) == ("B", "A")
    # The same history: the higher-ranked first.
    assert first_and_second(standing("B", 2, "FS"), standing("A", 1, "FS")) == ("A", "B")


# -- the ideal pairing ------------------------------------------------------------------------


def test_the_ideal_floats_the_lowest_of_an_odd_group_down() -> None:
    points = [3, 3, 3, 2, 2, 2, 2, 0]
    ranked = [standing(chr(65 + i), i + 1, "") for i in range(8)]
    ranked = [replace(s, points=float(p)) for s, p in zip(ranked, points, strict=True)]
    # [0 1 2] odd: 2 floats; [2 3 4 5 6] odd: 6 floats; [6 7].
    assert ideal_pairing(ranked) == [(0, 1), (2, 4), (3, 5), (6, 7)]


# -- round robin ------------------------------------------------------------------------------


def test_round_robin_of_four_by_the_circle_method() -> None:
    # Places A B C D; A stays, B C D turn one place a round; place k plays place 3 − k.
    assert round_robin_rounds(list("ABCD")) == [
        [("A", "D"), ("B", "C")],
        [("A", "C"), ("D", "B")],
        [("A", "B"), ("C", "D")],
    ]


def test_round_robin_of_five_has_a_bye_each_round() -> None:
    # An empty place after E: whoever meets it has the bye.
    assert round_robin_rounds(list("ABCDE")) == [
        [("A", None), ("B", "E"), ("C", "D")],
        [("A", "E"), ("D", None), ("B", "C")],
        [("A", "D"), ("E", "C"), ("B", None)],
        [("A", "C"), ("D", "B"), ("E", None)],
        [("A", "B"), ("C", None), ("D", "E")],
    ]


@pytest.mark.parametrize("players", [list("ABCD"), list("ABCDE")])
def test_round_robin_everyone_meets_everyone_once(players: list[str]) -> None:
    games: list[Played] = []
    rounds = len(round_robin_rounds(players))
    assert rounds == (len(players) if len(players) % 2 else len(players) - 1)
    for r in range(1, rounds + 1):
        games += play(r, round_robin_pairings(players, games, r))
    met = Counter(frozenset((g.first, g.second)) for g in games if g.second)
    assert set(met) == {frozenset(p) for p in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}
    byes = [g.first for g in games if g.is_bye]
    assert sorted(byes) == (players if len(players) % 2 else [])
    for s in standings(players, games):
        assert abs(s.balance) <= 2
    # Four: round 1 is A–D, B–C, the higher seed first (no balance, no history).
    if len(players) == 4:
        assert boards(round_robin_pairings(players, [], 1)) == ["A–D", "B–C"]


def test_round_robin_a_removed_players_opponent_has_a_bye() -> None:
    players = list("ABCD")
    pairings = round_robin_pairings(players, [], 2, active=list("ABC"))
    assert boards(pairings) == ["A–C", "B bye"]  # D was B's opponent in round 2


# -- refusals and determinism -----------------------------------------------------------------


def test_one_player_cannot_be_paired() -> None:
    with pytest.raises(PairingError, match="at least two"):
        swiss_pairings(["A"], [])
    with pytest.raises(PairingError, match="at least two"):
        swiss_pairings(list("ABC"), [], active=["B"])
    with pytest.raises(PairingError):
        round_robin_rounds(["A"])
    with pytest.raises(ValueError, match="not a player"):
        standings(list("AB"), [Played(1, "A", "Z", 1, 10)])
    with pytest.raises(ValueError, match="twice"):
        standings(list("ABC"), [Played(1, "A", "B", 1, 10), Played(1, "A", "C", 1, 10)])


def test_the_same_inputs_give_the_same_pairings() -> None:
    games, paired = tournament(P16, R1_16, rounds=4)
    again, paired_again = tournament(P16, R1_16, rounds=4)
    assert paired == paired_again and games == again
    # The order games are given in does not matter.
    assert swiss_pairings(P16, games) == swiss_pairings(P16, list(reversed(games)))


def test_standings_by_wins_then_spread_then_seed() -> None:
    games = [
        Played(1, "A", "B", 1, 30),
        Played(1, "C", "D", 0.5, 0),
        bye(1, "E"),
        Played(2, "B", "C", 1, 100),
    ]
    table = standings(list("ABCDE"), games)
    assert [(s.player, s.points, s.spread) for s in table] == [
        ("B", 1, 70),
        ("E", 1, 50),
        ("A", 1, 30),
        ("D", 0.5, 0),
        ("C", 0.5, -100),
    ]
    b, e = table[0], table[1]
    assert (e.wins, e.byes, e.firsts, e.seconds) == (1, 1, 0, 0)
    assert (b.wins, b.losses, b.firsts, b.seconds, b.opponents) == (1, 1, 1, 1, ("A", "C"))
    # An unfinished game counts as started, not as a result.
    running = standings(list("AB"), [Played(1, "A", "B")])
    assert [(s.played, s.firsts, s.seconds) for s in running] == [(0, 1, 0), (0, 0, 1)]


def test_the_docs_example_runs(tmp_path: Path) -> None:
    """docs/competition.md's tournament example, in a fresh interpreter and an empty folder,
    prints what its comments say."""
    doc = Path(__file__).resolve().parents[2] / "docs" / "competition.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text("utf-8"), re.S)
    (block,) = [b for b in blocks if "swiss_pairings" in b]
    r = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:3] == ["1 Ana Eva", "2 Luis Iker", "3 Marta None"]
    assert lines[3:5] == ["1 Ana 1.0 85", "2 Marta 1.0 50"]
    assert lines[8] == "[('Iker', 'Ana'), ('Marta', 'Luis'), ('Eva', None)]"
    assert lines[9].startswith("[[('Ana', 'Iker'), ('Luis', 'Eva')], ")
