"""Learning leave values by self-play, for one game and its dictionary.

The method (``docs/leaves.md`` explains it with the numbers it produced):

1. **Play.** Static bots play many games against each other, in the C self-play loop (or
   through the real ``Game``). Every move is recorded with the tiles the mover kept (its
   *leave*).
2. **Target.** A leave is worth what its owner scores on their next turn, plus what they keep
   then (the previous generation's value of the next leave: a temporal-difference target, so
   a Q kept for three turns costs on all three), relative to keeping nothing. Only moves with
   the bag full enough to refill the rack count; once the bag runs low the endgame decides.
3. **Fit.** Leaves of six tiles are too many to see each often (a Spanish rack has 947,972
   of them), so the targets, averaged per distinct leave, are fitted by ridge regression on a
   few hundred shared features: each tile, each duplicate and triplicate of a tile, each
   vowel/consonant count, and each pair of different tiles. Coordinate descent over the
   averaged leaves keeps this in pure Python.
4. **Shrink.** A leave seen n times gets its own mean, pulled towards the fitted value by
   n / (n + k), k = noise variance / variance between leaves, both estimated from the data
   (empirical Bayes). Leaves never seen get the fitted value.
5. **Repeat.** The next generation of games is played with the new values, and so on.

Every leave of 1 to rack-size − 1 tiles that the game's tiles allow gets a value, and the
table is written as KLV2 (``leaves.py``), values rounded to 1/256 point.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ...variant import BLANK, Variant
from ..selfplay import GameSummary, TurnRecord
from .leaves import Leave, LeaveTable, leave_codes

__all__ = [
    "RIDGE",
    "FitResult",
    "LeaveObservations",
    "all_leaves",
    "fit_leaves",
    "targets",
]

VOWELS = frozenset("AEIOU")
RIDGE = 30.0
"""The ridge penalty, in observations' worth: a feature seen 30 times is pulled halfway to 0."""


def targets(
    records: Sequence[TurnRecord],
    variant: Variant,
    previous: LeaveTable | None = None,
) -> Iterator[tuple[Leave, float]]:
    """(leave, target) for each move of one game whose leave the learner can judge.

    The target is the mover's next turn: its score plus, when the bag still held tiles then,
    the previous table's value of what they kept. Moves that kept the whole rack (passes,
    CAMBIO) and moves after which the bag could not refill the rack are skipped.
    """
    max_leave = variant.rack_size - 1
    for i, r in enumerate(records):
        if r.kind not in ("place", "exchange") or len(r.leave) > max_leave:
            continue
        drawn = r.tiles_played if r.kind == "place" else variant.rack_size - len(r.leave)
        if r.bag_before - drawn < 1:
            continue
        nxt = next((x for x in records[i + 1 :] if x.seat == r.seat), None)
        if nxt is None:
            continue
        y = float(nxt.score)
        if previous is not None and nxt.bag_before > 0 and len(nxt.leave) <= max_leave:
            y += previous.value(nxt.leave)
        yield r.leave, y


@dataclass
class LeaveObservations:
    """Targets summed per distinct leave (sorted codes): count, sum, sum of squares."""

    variant: Variant
    stats: dict[bytes, list[float]] = field(default_factory=dict)
    games: int = 0
    moves: int = 0

    def add(self, leave: Iterable[str], y: float) -> None:
        codes = leave_codes(leave, self.variant.alphabet)
        s = self.stats.get(codes)
        if s is None:
            self.stats[codes] = [1.0, y, y * y]
        else:
            s[0] += 1
            s[1] += y
            s[2] += y * y
        self.moves += 1

    def add_game(self, summary: GameSummary, previous: LeaveTable | None) -> None:
        for leave, y in targets(summary.records, self.variant, previous):
            self.add(leave, y)
        self.games += 1


# -- features -------------------------------------------------------------------------------------


class _Features:
    """Feature numbering for one game's tiles: singles, duplicates, triplicates, vowel and
    consonant counts, pairs of different tiles. Each maps a leave to (index, value) pairs."""

    def __init__(self, variant: Variant, max_leave: int) -> None:
        alphabet = variant.alphabet
        tiles = sorted(0 if t == BLANK else alphabet.code(t) for t in variant.tiles)
        self.tiles = tiles
        self.names: list[str] = []
        self.single: dict[int, int] = {}
        self.dup: dict[int, int] = {}
        self.trip: dict[int, int] = {}
        self.pair: dict[tuple[int, int], int] = {}
        self.vc: dict[tuple[int, int], int] = {}

        def label(c: int) -> str:
            return BLANK if c == 0 else alphabet.letter(c)

        for c in tiles:
            self.single[c] = self._new(f"{label(c)}")
        for c in tiles:
            if variant.tiles[label(c)][0] >= 2:
                self.dup[c] = self._new(f"{label(c)}{label(c)}")
        for c in tiles:
            if variant.tiles[label(c)][0] >= 3:
                self.trip[c] = self._new(f"{label(c)}×3")
        for nv in range(max_leave + 1):
            for nc in range(max_leave + 1 - nv):
                if nv + nc:
                    self.vc[(nv, nc)] = self._new(f"{nv} vowels {nc} consonants")
        for i, a in enumerate(tiles):
            for b in tiles[i + 1 :]:
                self.pair[(a, b)] = self._new(f"{label(a)}+{label(b)}")
        self.vowel = {alphabet.code(v) for v in VOWELS if alphabet.is_letter(v)}

    def _new(self, name: str) -> int:
        self.names.append(name)
        return len(self.names) - 1

    def __len__(self) -> int:
        return len(self.names)

    def of(self, codes: bytes) -> list[tuple[int, float]]:
        counts: dict[int, int] = {}
        for c in codes:
            counts[c] = counts.get(c, 0) + 1
        out: list[tuple[int, float]] = []
        nv = nc = 0
        for c, k in counts.items():
            out.append((self.single[c], float(k)))
            if k >= 2:
                out.append((self.dup[c], float(k - 1)))
            if k >= 3:
                out.append((self.trip[c], float(k - 2)))
            if c in self.vowel:
                nv += k
            elif c != 0:
                nc += k
        if nv + nc:
            out.append((self.vc[(nv, nc)], 1.0))
        distinct = sorted(counts)
        for i, a in enumerate(distinct):
            for b in distinct[i + 1 :]:
                out.append((self.pair[(a, b)], 1.0))
        return out


# -- the fit --------------------------------------------------------------------------------------


@dataclass
class FitResult:
    """The fitted model and how it was obtained (written to the table's sidecar)."""

    weights: dict[str, float]
    intercept: float
    shrink_k: float
    """n / (n + k) of a leave's own mean counts; k = noise variance / between-leave variance."""
    noise_sd: float
    between_sd: float
    distinct_leaves: int
    observations: int
    values: dict[Leave, float]


def fit_leaves(
    obs: LeaveObservations,
    *,
    ridge: float = RIDGE,
    sweeps: int = 25,
    max_leave: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> FitResult:
    """Fit the model to the observations and value every leave of the game (see the module)
    of up to ``max_leave`` tiles (default: a rack less one, what a KLV holds)."""
    variant = obs.variant
    max_leave = variant.rack_size - 1 if max_leave is None else max_leave
    feats = _Features(variant, max_leave)
    keys = [k for k in obs.stats if len(k) <= max_leave]
    if not keys:
        raise ValueError("no observations to learn from: play some games first")
    n = [obs.stats[k][0] for k in keys]
    ybar = [obs.stats[k][1] / obs.stats[k][0] for k in keys]
    rows = [feats.of(k) for k in keys]
    # Keeping nothing is the baseline: the intercept is the empty leave's level.
    total = sum(n)
    b = sum(ni * yi for ni, yi in zip(n, ybar, strict=True)) / total
    w = [0.0] * len(feats)
    members: list[list[tuple[int, float]]] = [[] for _ in range(len(feats))]
    for li, row in enumerate(rows):
        for j, x in row:
            members[j].append((li, x))
    curvature = [sum(n[li] * x * x for li, x in m) for m in members]
    r = [yi - b for yi in ybar]
    for sweep in range(sweeps):
        shift = sum(ni * ri for ni, ri in zip(n, r, strict=True)) / total
        b += shift
        r = [ri - shift for ri in r]
        for j, m in enumerate(members):
            if not m:
                continue
            num = sum(n[li] * x * r[li] for li, x in m) + curvature[j] * w[j]
            new = num / (curvature[j] + ridge)
            delta = new - w[j]
            if delta:
                w[j] = new
                for li, x in m:
                    r[li] -= x * delta
        if progress is not None:
            progress(f"fit sweep {sweep + 1}/{sweeps}")
    # Empirical Bayes: noise within a leave against spread of the true leave effects.
    within = sum(obs.stats[k][2] - obs.stats[k][1] ** 2 / obs.stats[k][0] for k in keys)
    dof = sum(ni - 1 for ni in n)
    noise = within / dof if dof > 0 else 1.0
    big = [(ni, ri) for ni, ri in zip(n, r, strict=True) if ni >= 5]
    excess = sum(ri * ri - noise / ni for ni, ri in big) / len(big) if big else 0.0
    between = max(excess, noise / 1000.0)
    k_shrink = noise / between
    residual = {k: (ni, ri) for k, ni, ri in zip(keys, n, r, strict=True)}

    values: dict[Leave, float] = {}
    alphabet = variant.alphabet
    names = (BLANK, *alphabet.letters)
    for codes in all_leaves(variant, max_leave):
        v = sum(w[j] * x for j, x in feats.of(codes))
        seen = residual.get(codes)
        if seen is not None:
            ni, ri = seen
            v += ni / (ni + k_shrink) * ri
        values[tuple(names[c] for c in codes)] = round(v * 256) / 256
    return FitResult(
        weights={name: wj for name, wj in zip(feats.names, w, strict=True) if wj},
        intercept=b,
        shrink_k=k_shrink,
        noise_sd=math.sqrt(noise),
        between_sd=math.sqrt(between),
        distinct_leaves=len(keys),
        observations=int(total),
        values=values,
    )


def all_leaves(variant: Variant, max_size: int) -> Iterator[bytes]:
    """Every multiset of 1..max_size of the game's tiles (as sorted codes), in sorted order."""
    alphabet = variant.alphabet
    tiles = sorted(
        (0 if t == BLANK else alphabet.code(t), count) for t, (count, _) in variant.tiles.items()
    )
    codes = [c for c, _ in tiles]
    caps = [cap for _, cap in tiles]
    out: list[int] = []

    def walk(i: int) -> Iterator[bytes]:
        if out:
            yield bytes(out)
        if len(out) == max_size:
            return
        for j in range(i, len(codes)):
            if out.count(codes[j]) >= caps[j]:
                continue
            out.append(codes[j])
            yield from walk(j)
            out.pop()

    yield from walk(0)


@dataclass
class Generation:
    games: int
    moves: int
    distinct_leaves: int
    seconds: float
    shrink_k: float
    noise_sd: float
    between_sd: float
    mean_kept_leave_value: float


def learn_leaves(
    variant_name: str,
    *,
    games: Sequence[int],
    lexicon: str | None = None,
    jobs: int = 1,
    cluster: str | None = None,
    seed: int = 1,
    workdir: str,
    level: str = "hard",
    players: int = 2,
    on_game: Callable[[int, GameSummary], None] | None = None,
    progress: Callable[[str], None] | None = None,
    start: LeaveTable | None = None,
    engine: str = "auto",
) -> tuple[LeaveTable, list[Generation], FitResult]:
    """Learn a game's leave values: one generation of self-play per entry of ``games``.

    The first generation plays with ``start``'s values, or with none (equity = score); each
    later one with the values the one before learned. Returns the last table, a summary per
    generation and the last fit. ``workdir`` holds each generation's table, which the worker
    processes load. ``engine`` is ``selfplay``'s: ``auto`` plays in the C loop (several times
    faster; no CAMBIO) when the level and the dictionary allow, ``game`` through ``Game``.
    """
    import time
    from pathlib import Path

    from ...variant import load_variant
    from ..selfplay import iter_selfplay

    variant = load_variant(variant_name)
    table: LeaveTable | None = start
    table_path = "none"  # without a start, the first generation plays on score alone
    if start is not None:
        table_path = str(Path(workdir) / f"{variant_name}-start.klv")
        start.save(table_path)
    history: list[Generation] = []
    fit: FitResult | None = None
    for g, count in enumerate(games):
        began = time.perf_counter()
        obs = LeaveObservations(variant)
        kept_sum = 0.0
        kept_n = 0
        for summary in iter_selfplay(
            variant_name,
            [level] * players,
            count,
            lexicon=lexicon,
            jobs=jobs,
            cluster=cluster,
            seed=seed * 1000 + g,
            keep_records=True,
            leaves_path=table_path,
            engine=engine,
        ):
            obs.add_game(summary, table)
            if table is not None:
                for rec in summary.records:
                    if rec.kind == "place" and rec.bag_before > rec.tiles_played:
                        kept_sum += table.value(rec.leave)
                        kept_n += 1
            if on_game is not None:
                on_game(g, summary)
        fit = fit_leaves(obs, progress=progress)
        table = LeaveTable.from_values(fit.values, variant.alphabet)
        path = Path(workdir) / f"{variant_name}-gen{g + 1}.klv"
        table.save(path)
        table_path = str(path)
        history.append(
            Generation(
                games=obs.games,
                moves=obs.moves,
                distinct_leaves=fit.distinct_leaves,
                seconds=round(time.perf_counter() - began, 1),
                shrink_k=round(fit.shrink_k, 2),
                noise_sd=round(fit.noise_sd, 2),
                between_sd=round(fit.between_sd, 2),
                mean_kept_leave_value=round(kept_sum / kept_n, 2) if kept_n else 0.0,
            )
        )
    if table is None or fit is None:
        raise ValueError("give at least one generation of games")
    return table, history, fit
