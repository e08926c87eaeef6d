"""How likely the player who has just moved is to win, from the spread and the tiles unseen.

Simulation compares candidate moves by what they lead to. Points are the right yardstick in
a level game, but not when one side is far ahead: 40 points more matter little to a player 150
ahead with ten tiles left, and a long-shot bingo lane matters a lot to one 80 behind. A player
who wants to *win* ranks its moves by the chance of winning that each leads to.

That chance is learned from self-play (``learn_win_table``). After every turn of many games
between static players, one sample: the tiles the mover cannot see (the bag and the others'
racks), the mover's lead, and whether the mover went on to win. For each count of unseen tiles
the samples are fitted with a logistic curve in the lead,

    P(win) = 1 / (1 + exp(-(lead - centre) / scale))

``centre`` is the lead that makes the game even (above zero: the other player moves next, and a
turn is worth points), ``scale`` how much a point matters (small when few tiles are left, large
early). Counts with few samples borrow their neighbours' (the fit is pooled over a window of
counts that widens until it holds enough samples), so the curves change smoothly with the count.

The table is a TOML file (``tablero/data/winprob/<game>.toml``, format in docs/formats.md,
"Win-probability tables"): the two lists, indexed by unseen count, and how they were learned.
At a table of three or four the lead is over the best of the others and a win is finishing
first (a shared first place counts 1/k): a table of its own per number of players
(``<game>-<n>p.toml``), which the simulation reads as it reads the two-player one.
"""

from __future__ import annotations

import datetime
import math
import tomllib
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = [
    "WinSample",
    "WinTable",
    "WinTableError",
    "fit_win_table",
    "game_samples",
    "learn_win_table",
    "shipped_win_table",
    "table_file_name",
]

LEAD_CLAMP = 500
"""Leads beyond this are counted as this (a game that far apart is decided either way)."""

MIN_SAMPLES = 4000
"""The fit of an unseen count pools neighbouring counts until it has this many samples."""


class WinTableError(ValueError):
    """A win-probability file that cannot be read: the message says where and why."""


@dataclass(frozen=True)
class WinSample:
    """One turn's end, from the view of the player who has just moved."""

    unseen: int
    lead: int
    result: float
    """1 won, 0.5 drew, 0 lost."""


@dataclass(frozen=True)
class WinTable:
    """P(the player who has just moved wins), by lead and tiles unseen (see the module)."""

    game: str
    centre: tuple[float, ...]
    scale: tuple[float, ...]
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    players: int = 2
    """The table's number of players: at a larger table the lead is over the best of the
    others, and winning is finishing first."""

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise WinTableError(f"players: 2 to 4, not {self.players}")
        if not self.centre or len(self.centre) != len(self.scale):
            raise WinTableError("centre and scale: two lists of the same, non-zero length")
        bad = [i for i, s in enumerate(self.scale) if not (s > 0 and math.isfinite(s))]
        if bad:
            raise WinTableError(f"scale must be a positive number; not at unseen count {bad[0]}")
        if not all(math.isfinite(c) for c in self.centre):
            raise WinTableError("centre: every value must be a finite number")

    def probability(self, lead: float, unseen: int) -> float:
        """The chance that the player who has just moved, ``lead`` points ahead (negative:
        behind) with ``unseen`` tiles it cannot see, wins. Counts beyond the table use its
        last entry."""
        u = min(max(unseen, 0), len(self.centre) - 1)
        z = (lead - self.centre[u]) / self.scale[u]
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-min(z, 700.0)))
        e = math.exp(max(z, -700.0))
        return e / (1.0 + e)

    # -- files --------------------------------------------------------------------------------

    def to_toml(self) -> str:
        lines = [
            "# P(the player who has just moved wins)"
            " = 1 / (1 + exp(-(lead - centre[u]) / scale[u]))",
            "# u: the tiles that player cannot see (bag, the others' racks); docs/formats.md",
            f'game = "{self.game}"',
            f"players = {self.players}",
        ]
        for key, value in self.meta.items():
            if isinstance(value, str):
                lines.append(f'{key} = "{value}"')
            elif isinstance(value, bool | int | float):
                lines.append(f"{key} = {str(value).lower() if isinstance(value, bool) else value}")
        lines.append("centre = [" + ", ".join(f"{c:.2f}" for c in self.centre) + "]")
        lines.append("scale = [" + ", ".join(f"{s:.2f}" for s in self.scale) + "]")
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        from ...lexicon.graph import atomic_write

        atomic_write(Path(path), self.to_toml().encode("utf-8"))

    @classmethod
    def from_toml(cls, text: str, where: str = "win table") -> WinTable:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise WinTableError(f"{where}: not TOML ({e})") from None
        missing = [k for k in ("game", "centre", "scale") if k not in data]
        if missing:
            raise WinTableError(f"{where}: missing {', '.join(missing)}")
        centre, scale = data.pop("centre"), data.pop("scale")
        for name, values in (("centre", centre), ("scale", scale)):
            if not isinstance(values, list) or not all(
                isinstance(x, int | float) and not isinstance(x, bool) for x in values
            ):
                raise WinTableError(f"{where}: {name} must be a list of numbers")
        game = data.pop("game")
        if not isinstance(game, str):
            raise WinTableError(f"{where}: game must be a string")
        players = data.pop("players", 2)
        if not isinstance(players, int) or isinstance(players, bool):
            raise WinTableError(f"{where}: players must be a whole number")
        try:
            return cls(game, tuple(map(float, centre)), tuple(map(float, scale)), data, players)
        except WinTableError as e:
            raise WinTableError(f"{where}: {e}") from None

    @classmethod
    def load(cls, path: str | Path) -> WinTable:
        p = Path(path)
        try:
            text = p.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise WinTableError(f"{p}: cannot read ({e})") from None
        return cls.from_toml(text, str(p))


def table_file_name(game: str, players: int = 2) -> str:
    """``<game>.toml`` for two players, ``<game>-<n>p.toml`` for more."""
    return f"{game}.toml" if players == 2 else f"{game}-{players}p.toml"


@cache
def shipped_win_table(game: str, players: int = 2) -> WinTable | None:
    """The table shipped for a game and number of players (``data/winprob/``), or None."""
    name = table_file_name(game, players)
    path = resources.files("tablero").joinpath("data", "winprob", name)
    if not path.is_file():
        return None
    return WinTable.from_toml(path.read_text("utf-8"), f"data/winprob/{name}")


# -- learning -----------------------------------------------------------------------------------


def game_samples(
    turns: Sequence[tuple[int, str, int, int, int]],
    final: Sequence[int],
    total_tiles: int,
    rack_size: int,
    players: int = 2,
) -> list[WinSample]:
    """The samples of one game: after each turn that did not end it, the mover's tiles
    unseen, its lead over the best of the others (points scored so far, before the end's
    adjustments) and its result (``final``: the scores after them; a first place shared by k
    players counts 1/k).

    ``turns`` are ``NativeGenerator.selfplay_moves``' facts: (seat, kind, points, tiles put
    down, tiles in the bag before the turn)."""
    scores = [0] * players
    # Before the first turn every rack was full (or as full as the tiles allowed).
    racks = [min(rack_size, total_tiles // players)] * players
    on_board = 0
    out: list[WinSample] = []
    for i, (seat, kind, points, ntiles, bag) in enumerate(turns):
        scores[seat] += points
        on_board += ntiles
        drawn = min(ntiles, bag) if kind == "place" else 0
        racks[seat] += drawn - ntiles
        if i == len(turns) - 1:
            break  # the turn that ended the game: its result is known, not estimated
        unseen = total_tiles - on_board - racks[seat]
        others = [s for s in range(players) if s != seat]
        best = max(final[s] for s in others)
        if final[seat] > best:
            result = 1.0
        elif final[seat] == best:
            result = 1.0 / (1 + sum(1 for s in others if final[s] == best))
        else:
            result = 0.0
        lead = scores[seat] - max(scores[s] for s in others)
        out.append(WinSample(unseen, max(-LEAD_CLAMP, min(LEAD_CLAMP, lead)), result))
    return out


def _play_chunk(args: tuple[str, int, int, int]) -> list[tuple[int, int, float]]:
    """Worker: ``count`` static self-play games from ``seed``, as bare samples."""
    game, seed, count, players = args
    from ...lexicon import load_lexicon
    from ...variant import load_variant
    from ..movegen.native import NativeGenerator, learned_leave_values
    from ..players import shipped_leaves

    variant = load_variant(game)
    lexicon = load_lexicon(variant.lexicon, variant.alphabet)
    gen = NativeGenerator(variant, lexicon)  # type: ignore[arg-type]
    table = shipped_leaves(game)
    leaves = learned_leave_values(table) if table is not None else None
    total = variant.tile_count
    samples: list[tuple[int, int, float]] = []
    for k in range(count):
        result, turns = gen.selfplay_moves(seed + k, players, (seed + k) % players, leaves)
        for s in game_samples(turns, result.scores, total, variant.rack_size, players):
            samples.append((s.unseen, s.lead, s.result))
    return samples


def collect_samples(
    game: str,
    games: int,
    *,
    seed: int = 1,
    jobs: int = 1,
    cluster: str | None = None,
    chunk: int = 500,
    players: int = 2,
    progress: Callable[[int], None] | None = None,
) -> dict[tuple[int, int], list[float]]:
    """Play ``games`` static self-play games (best equity both sides, the shipped leaves) on
    ``jobs`` processes, or a Dask ``cluster`` (``workpool``), and count their samples:
    (unseen, lead) -> [samples, wins]. The same seed gives the same counts either way."""
    counts: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    work = [
        (game, seed + start, min(chunk, games - start), players) for start in range(0, games, chunk)
    ]

    def add(samples: Iterable[tuple[int, int, float]], n: int) -> None:
        for unseen, lead, result in samples:
            cell = counts[(unseen, lead)]
            cell[0] += 1
            cell[1] += result
        if progress is not None:
            progress(n)

    if jobs <= 1 and not cluster:
        for w in work:
            add(_play_chunk(w), w[2])
    else:
        from ..workpool import work_pool

        with work_pool(jobs, cluster) as pool:
            for w, samples in zip(work, pool.map(_play_chunk, work), strict=True):
                add(samples, w[2])
    return dict(counts)


def _fit_logistic(cells: Sequence[tuple[int, float, float]]) -> tuple[float, float]:
    """Maximum-likelihood logistic fit of wins by lead over (lead, samples, wins) cells:
    P = 1 / (1 + exp(-(a + b * lead))). Returns (centre, scale) = (-a / b, 1 / b)."""
    a, b = 0.0, 0.02
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, n, w in cells:
            z = a + b * x
            p = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
            r = w - n * p
            ga += r
            gb += r * x
            q = n * p * (1.0 - p)
            haa += q
            hab += q * x
            hbb += q * x * x
        haa += 1e-9
        hbb += 1e-9
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) < 1e-9 and abs(db) < 1e-11:
            break
    b = max(b, 1e-4)  # a lead never lowers the chance of winning
    return -a / b, 1.0 / b


def fit_win_table(
    game: str,
    counts: dict[tuple[int, int], list[float]],
    meta: dict[str, Any] | None = None,
    players: int = 2,
) -> WinTable:
    """A table from counted samples: for each unseen count up to the largest seen, a logistic
    fit over that count and its neighbours, pooled until ``MIN_SAMPLES`` samples."""
    by_unseen: dict[int, list[tuple[int, float, float]]] = defaultdict(list)
    size: dict[int, float] = defaultdict(float)
    for (unseen, lead), (n, wins) in counts.items():
        by_unseen[unseen].append((lead, n, wins))
        size[unseen] += n
    if not by_unseen:
        raise WinTableError("no samples to learn from")
    top = max(by_unseen)
    centre: list[float] = []
    scale: list[float] = []
    for u in range(top + 1):
        width, pooled = 0, size.get(u, 0.0)
        while pooled < MIN_SAMPLES and width < top:
            width += 1
            pooled = sum(size.get(v, 0.0) for v in range(u - width, u + width + 1))
        cells = [c for v in range(u - width, u + width + 1) for c in by_unseen.get(v, [])]
        c, s = _fit_logistic(cells) if cells else (0.0, 50.0)
        centre.append(c)
        scale.append(s)
    return WinTable(game, tuple(centre), tuple(scale), dict(meta or {}), players)


def learn_win_table(
    game: str,
    games: int,
    *,
    seed: int = 1,
    jobs: int = 1,
    cluster: str | None = None,
    players: int = 2,
    progress: Callable[[int], None] | None = None,
) -> WinTable:
    """Self-play ``games`` games of ``game`` and fit its win-probability table."""
    counts = collect_samples(
        game, games, seed=seed, jobs=jobs, cluster=cluster, players=players, progress=progress
    )
    samples = int(sum(n for n, _ in counts.values()))
    meta = {
        "games": games,
        "samples": samples,
        "seed": seed,
        "players": "hard vs hard (static best equity, shipped leaves), C self-play",
        "learned": datetime.date.today().isoformat(),
    }
    return fit_win_table(game, counts, meta, players)
