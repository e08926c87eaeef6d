"""Tournament pairings: Swiss and round robin, and who moves first at each board.

**Swiss** (``swiss_pairings``): players are ranked by the standings (points, spread, seed:
``standings.py``). With an odd number, one player gets the bye: the lowest-ranked of those
with the fewest byes, unless another choice avoids a repeat pairing. The others are paired
by a minimum-cost perfect matching (``networkx``'s maximum-weight matching on costs turned
into weights), whose cost compares pairings level by level, each level mattering only where
every level before it ties:

1. repeat pairings (the number of times the two have met);
2. first moves out of balance by 3 or more (a player's firsts minus seconds);
3. score gaps: the sum, over the pairs, of the squared difference in points (in half points);
4. first moves out of balance by 2;
5. distance from the ideal Swiss pairing (``ideal_pairing``: each score group's top half
   against its bottom half, the lowest of an odd group floating down to the next): the sum,
   over the players, of the squared number of places between the opponent they get and the
   one the ideal gives them;
6. a last order that leaves no tie: the highest-ranked player meets the highest-ranked
   opponent possible, then the next highest-ranked player not yet paired, and so on.

**Round robin** (``round_robin_rounds``): the circle method. The first seed stays put and the
others turn one place a round; an odd number adds an empty place, whose opponent has the bye.

**Who moves first** (``first_and_second``): the player whose balance of firsts minus seconds
is lower; then the one who moved second in the latest game where their histories differ;
then the higher-ranked.

Everything here is deterministic: the same players and games give the same pairings. The
rules, with every choice they make, are in docs/competition.md ("Tournaments").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from .standings import Played, Standing, standings

__all__ = [
    "Pairing",
    "PairingError",
    "first_and_second",
    "ideal_pairing",
    "round_robin_pairings",
    "round_robin_rounds",
    "swiss_pairings",
]


class PairingError(ValueError):
    """A round that cannot be paired (fewer than two players)."""


@dataclass(frozen=True)
class Pairing:
    """One board of a new round: ``first`` moves first; ``second`` None is a bye."""

    board: int
    first: str
    second: str | None


def _active(players: Sequence[str], active: Collection[str] | None) -> set[str]:
    chosen = set(players) if active is None else set(active)
    unknown = chosen - set(players)
    if unknown:
        raise ValueError(f"not players: {sorted(unknown)}")
    if len(chosen) < 2:
        raise PairingError(
            f"pairing needs at least two players; {len(chosen)} can be paired this round"
        )
    return chosen


def first_and_second(a: Standing, b: Standing) -> tuple[str, str]:
    """Who of two players moves first: (first, second).

    1. The lower balance (firsts minus seconds) moves first: fewer firsts, counted against
       the games played, so that a bye counts as neither.
    2. Else, going back from the latest game, at the first game where one moved first and
       the other second, the one who moved second now moves first.
    3. Else (no such game: both histories are alike) the higher-ranked moves first.
    """
    if a.balance != b.balance:
        return (a.player, b.player) if a.balance < b.balance else (b.player, a.player)
    for x, y in zip(reversed(a.starts), reversed(b.starts), strict=False):
        if x != y:
            return (b.player, a.player) if x else (a.player, b.player)
    return (a.player, b.player) if a.rank < b.rank else (b.player, a.player)


def _boards(pairs: Iterable[tuple[Standing, Standing]], byes: Iterable[Standing]) -> list[Pairing]:
    """Boards numbered by the higher-ranked player of each pair; byes last, by rank."""
    ordered = sorted(pairs, key=lambda p: min(p[0].rank, p[1].rank))
    out: list[Pairing] = []
    for a, b in ordered:
        first, second = first_and_second(a, b)
        out.append(Pairing(len(out) + 1, first, second))
    for s in sorted(byes, key=lambda s: s.rank):
        out.append(Pairing(len(out) + 1, s.player, None))
    return out


# -- Swiss ------------------------------------------------------------------------------------


def _meetings(games: Iterable[Played]) -> Counter[frozenset[str]]:
    return Counter(frozenset((g.first, g.second)) for g in games if g.second is not None)


def ideal_pairing(ranked: Sequence[Standing]) -> list[tuple[int, int]]:
    """The pairing Swiss aims at, as pairs of places in ``ranked`` (an even number of players
    in standings order), ignoring repeats and first moves.

    Players are taken in score groups (equal points), best first. A group, with any player
    who floated down from the group above at its top, pairs its top half against its bottom
    half in order (the 1st with the first below the middle, the 2nd with the next...); when
    it is odd, its lowest-ranked player first floats down to the next group."""
    if len(ranked) % 2:
        raise ValueError("the ideal pairing is for an even number of players")
    groups: list[list[int]] = []
    for i, s in enumerate(ranked):
        if groups and ranked[groups[-1][0]].points == s.points:
            groups[-1].append(i)
        else:
            groups.append([i])
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    for group in groups:
        members = carry + group
        carry = []
        if len(members) % 2:
            carry = [members.pop()]
        half = len(members) // 2
        pairs += [(members[k], members[k + half]) for k in range(half)]
    assert not carry
    return pairs


def _matching(nodes: int, cost: Callable[[int, int], tuple[int, ...]]) -> list[tuple[int, int]]:
    """The perfect matching of ``nodes`` (even) with the least cost, costs compared level by
    level (a tuple per pair, summed per level over the pairs of a matching).

    The levels are weighed in a mixed radix large enough that no sum of a later level can
    outweigh one unit of an earlier one, and the weights are whole numbers, so networkx's
    maximum-weight matching (which then computes exactly) finds the least cost."""
    edges = [(i, j, cost(i, j)) for i in range(nodes) for j in range(i + 1, nodes)]
    levels = len(edges[0][2])
    half = nodes // 2
    tops = [half * max(c[k] for _, _, c in edges) for k in range(levels)]
    radix = [1] * levels
    for k in range(levels - 2, -1, -1):
        radix[k] = radix[k + 1] * (tops[k + 1] + 1)
    big = radix[0] * (tops[0] + 1)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(nodes))
    for i, j, c in edges:
        graph.add_edge(i, j, weight=big - sum(x * r for x, r in zip(c, radix, strict=True)))
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted((min(i, j), max(i, j)) for i, j in matched)
    assert len(pairs) == half
    return pairs


def _choose_bye(ranked: Sequence[Standing], met: Counter[frozenset[str]]) -> Standing:
    """The bye, for an odd number of players: the fewest byes first, then whatever keeps
    repeats fewest, then the lowest-ranked. Found as a matching with one more, empty, place:
    whoever is paired with it has the bye."""
    n = len(ranked)
    empty = n

    def cost(i: int, j: int) -> tuple[int, int, int]:
        if j == empty:
            return (ranked[i].byes, 0, n - 1 - i)
        return (0, met[frozenset((ranked[i].player, ranked[j].player))], 0)

    for i, j in _matching(n + 1, cost):
        if j == empty:
            return ranked[i]
    raise AssertionError("a matching with the empty place gives someone the bye")


def _start_costs(a: Standing, b: Standing) -> tuple[int, int]:
    """(players out of balance by 3 or more, players out by exactly 2) after a game between
    ``a`` and ``b``: the lower balance moves first (+1), the other second (−1)."""
    low, high = sorted((a.balance, b.balance))
    after = (abs(low + 1), abs(high - 1))
    return sum(x >= 3 for x in after), sum(x == 2 for x in after)


def swiss_pairings(
    players: Sequence[str], games: Iterable[Played], active: Collection[str] | None = None
) -> list[Pairing]:
    """The next Swiss round.

    ``players``: everyone in the tournament, in seed order; ``games``: every board of every
    round so far (all finished, as a new round starts once the last is over); ``active``: the
    players to pair (everyone unless given: a player removed by the director is left out).
    The boards are numbered from the top of the standings; a bye is the last board.
    ``PairingError`` with fewer than two players to pair."""
    games = list(games)
    chosen = _active(players, active)
    table = [s for s in standings(players, games) if s.player in chosen]
    met = _meetings(games)
    byes: list[Standing] = []
    if len(table) % 2:
        byes.append(_choose_bye(table, met))
        table = [s for s in table if s is not byes[0]]
    n = len(table)
    ideal: dict[int, int] = {}
    for i, j in ideal_pairing(table):
        ideal[i], ideal[j] = j, i

    def cost(i: int, j: int) -> tuple[int, ...]:
        a, b = table[i], table[j]
        hard, soft = _start_costs(a, b)
        gap = round(2 * (a.points - b.points))
        return (
            met[frozenset((a.player, b.player))],
            hard,
            gap * gap,
            soft,
            (j - ideal[i]) ** 2 + (i - ideal[j]) ** 2,
            j * n ** (n - 1 - i),  # i < j: in base n, the digit of place i is its opponent
        )

    pairs = [(table[i], table[j]) for i, j in _matching(n, cost)]
    return _boards(pairs, byes)


# -- round robin ------------------------------------------------------------------------------


def round_robin_rounds(players: Sequence[str]) -> list[list[tuple[str, str | None]]]:
    """Every round of a round robin by the circle method, as unordered pairs; ``(p, None)``
    is p's bye.

    The players stand in seed order at places 0..n−1 (an odd number adds an empty place
    after the last). Place 0 stays; in round r (from 0) the others have turned r places
    (the player at place k moves to k + r, counted among places 1..n−1), and place k plays
    place n−1−k. Everyone meets everyone once in n−1 rounds (n counting the empty place)."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if len(players) < 2:
        raise PairingError(f"a round robin needs at least two players, not {len(players)}")
    places: list[str | None] = list(players)
    if len(places) % 2:
        places.append(None)
    n = len(places)
    fixed, others = places[0], places[1:]
    rounds = []
    for r in range(n - 1):
        shift = r % (n - 1)
        line = [fixed, *others[len(others) - shift :], *others[: len(others) - shift]]
        pairs: list[tuple[str, str | None]] = []
        for k in range(n // 2):
            a, b = line[k], line[n - 1 - k]
            if a is None:
                a, b = b, None
            assert a is not None
            pairs.append((a, b))
        rounds.append(pairs)
    return rounds


def round_robin_pairings(
    players: Sequence[str],
    games: Iterable[Played],
    round_number: int,
    active: Collection[str] | None = None,
) -> list[Pairing]:
    """Round ``round_number`` (from 1) of the round robin of ``players`` (seed order), who
    moves first decided by ``first_and_second`` on the games so far. A player who is not
    ``active`` (removed) plays no more: their opponent of the round has a bye."""
    schedule = round_robin_rounds(players)
    if not 1 <= round_number <= len(schedule):
        raise ValueError(f"a round robin of {len(players)} has rounds 1 to {len(schedule)}")
    chosen = _active(players, active)
    by_player = {s.player: s for s in standings(players, games)}
    pairs: list[tuple[Standing, Standing]] = []
    byes: list[Standing] = []
    for a, b in schedule[round_number - 1]:
        here = [p for p in (a, b) if p is not None and p in chosen]
        if len(here) == 2:
            pairs.append((by_player[here[0]], by_player[here[1]]))
        elif here:
            byes.append(by_player[here[0]])
    return _boards(pairs, byes)
