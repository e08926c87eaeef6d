"""Leave values: what the tiles a player keeps are worth, read from and written to KLV files.

Equity is a move's score plus the value of its *leave*, the tiles kept on the rack. Keeping
``?`` or ``S`` is worth points on later turns; keeping ``QÑ`` costs them. The values are
learned by self-play (``tablero.engine.evaluation.learn``) and shipped per game as KLV files.

**KLV** (Kurnia Leave Values, from wolges; MAGPIE reads the same files) is a word graph of
leaves followed by one number per leave, so a file made here loads in those engines and theirs
load here. The layout, in our words (``docs/leaves.md`` has the details):

* ``u32`` little-endian: the number of graph nodes, then that many ``u32`` nodes: a DAWG-only
  KWG (``docs/kwg.md``) whose "words" are the leaves, each written as its tiles in increasing
  code order, **blank = tile 0** (the one place a KWG may hold tile 0);
* ``u32``: the number of leaves, then the values in the leaves' sorted order, the index of a
  leave being its rank among all the graph's words. **KLV2** stores ``f32`` values; the first
  KLV stored ``i16`` in 1/256 points. A reader tells them apart by the bytes left.

A leave missing from the file (the empty leave above all) is worth 0. A leave longer than the
file holds (a pass keeps all seven tiles) is valued additively: each tile set apart in turn,
the rest's value plus that tile's, averaged. A documented approximation: no engine stores
seven-tile "leaves".
"""

from __future__ import annotations

import array
import itertools
import json
import os
import struct
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ...alphabet import Alphabet, SpellingError
from ...lexicon.kwg import ACCEPTS_FLAG, ARC_INDEX_MASK, IS_END_FLAG, TILE_SHIFT, Kwg, build_kwg
from ...variant import BLANK

__all__ = [
    "KlvError",
    "LeaveTable",
    "leave_codes",
    "leave_key",
    "sub_leaves",
]

Leave = tuple[str, ...]


class KlvError(ValueError):
    """A KLV file that is damaged, or leaves that do not fit the alphabet."""


@cache
def _code_map(alphabet: Alphabet) -> dict[str, int]:
    return {BLANK: 0, **{letter: alphabet.code(letter) for letter in alphabet.letters}}


@cache
def _tile_of(alphabet: Alphabet) -> tuple[str, ...]:
    return (BLANK, *alphabet.letters)


def leave_codes(tiles: Iterable[str], alphabet: Alphabet) -> bytes:
    """A leave as sorted tile codes, blank = 0: the KLV's key for it."""
    codes = _code_map(alphabet)
    try:
        return bytes(sorted([codes[t] for t in tiles]))
    except KeyError as e:
        raise KlvError(f"{e.args[0]!r} is not a tile of the {alphabet.name} alphabet") from None


def leave_key(tiles: Iterable[str], alphabet: Alphabet) -> Leave:
    """A leave in canonical order: blanks first, then letters in alphabetical (code) order.

    The same tiles always give the same key, whatever order the rack held them in.
    """
    names = _tile_of(alphabet)
    return tuple([names[c] for c in leave_codes(tiles, alphabet)])


def sub_leaves(rack: Iterable[str], alphabet: Alphabet) -> list[Leave]:
    """Every distinct sub-multiset of a rack (the empty leave and the rack itself included)."""
    return list(_sub_leaves(leave_codes(rack, alphabet), alphabet))


@lru_cache(maxsize=8192)
def _sub_leaves(codes: bytes, alphabet: Alphabet) -> tuple[Leave, ...]:
    names = _tile_of(alphabet)
    distinct = sorted(set(codes))
    counts = [codes.count(c) for c in distinct]
    out: list[Leave] = []
    for choice in itertools.product(*(range(n + 1) for n in counts)):
        out.append(tuple(names[c] for c, k in zip(distinct, choice, strict=True) for _ in range(k)))
    return tuple(out)


class LeaveTable:
    """Leave values over a KLV graph: look-ups without a dictionary of a million tuples.

    A Spanish table holds every leave of one to six tiles (1,170,590 of them); as a graph
    plus a flat array of floats it takes a few megabytes and loads in a fraction of a
    second. ``value`` walks the graph (a few microseconds); ``for_rack`` gives every
    sub-leave of one rack at once, which is what move choice needs.
    """

    def __init__(self, kwg: Kwg, values: array.array[float], alphabet: Alphabet) -> None:
        self.kwg = kwg
        self.alphabet = alphabet
        self._values = values
        self._counts, self.max_size = _count_words(kwg)
        total = self._counts[kwg.dawg_root] if kwg.dawg_root else 0
        if total != len(values):
            raise KlvError(f"the graph holds {total} leaves but the file has {len(values)} values")
        self._nodes = kwg.nodes
        self._cache: dict[bytes, float] = {}

    # -- building -------------------------------------------------------------------------------

    @classmethod
    def from_values(cls, values: Mapping[Leave, float], alphabet: Alphabet) -> LeaveTable:
        """A table from leaves (any tile order) and their values; the empty leave is dropped."""
        by_codes: dict[bytes, float] = {}
        for leave, v in values.items():
            codes = leave_codes(leave, alphabet)
            if not codes:
                continue
            if codes in by_codes and by_codes[codes] != v:
                raise KlvError(f"leave {''.join(leave)} is given two different values")
            by_codes[codes] = float(v)
        ordered = sorted(by_codes)
        # The KWG builder reserves tile 0, so build over codes + 1 and shift back: the order of
        # every sibling list is unchanged, and tile 0 is the blank again.
        kwg = build_kwg([bytes(c + 1 for c in k) for k in ordered], gaddag=False)
        nodes = kwg.nodes
        for i in range(1, len(nodes)):
            node = nodes[i]
            nodes[i] = node - (1 << TILE_SHIFT)
        return cls(
            Kwg(nodes, gaddag=False, validate=False),
            array.array("f", [by_codes[k] for k in ordered]),
            alphabet,
        )

    @classmethod
    def empty(cls, alphabet: Alphabet) -> LeaveTable:
        """Every leave worth 0: equity is the score alone."""
        return cls.from_values({}, alphabet)

    # -- reading and writing --------------------------------------------------------------------

    @classmethod
    def from_bytes(
        cls, data: bytes, alphabet: Alphabet, letters: Sequence[str] | None = None
    ) -> LeaveTable:
        """Parse a KLV or KLV2 image; raises KlvError saying what is wrong.

        ``letters`` names the file's tiles 1, 2, … when they are not numbered as the alphabet
        numbers them (wolges' Spanish files number only the 28 FISE tiles, without K and W).
        """
        if len(data) < 8:
            raise KlvError(f"a KLV file has at least 8 bytes, this one {len(data)}")
        (n_nodes,) = struct.unpack_from("<I", data, 0)
        end_nodes = 4 + 4 * n_nodes
        if end_nodes + 4 > len(data):
            raise KlvError(
                f"the file says {n_nodes} graph nodes but is only {len(data)} bytes long"
            )
        try:
            kwg = Kwg.from_bytes(data[4:end_nodes], gaddag=False)
        except ValueError as e:
            raise KlvError(f"the leave graph is damaged: {e}") from None
        (n_leaves,) = struct.unpack_from("<I", data, end_nodes)
        rest = len(data) - end_nodes - 4
        values: array.array[float] = array.array("f")
        if rest >= 4 * n_leaves:
            if rest != 4 * n_leaves:
                raise KlvError(f"{rest - 4 * n_leaves} bytes follow the {n_leaves} values")
            values.frombytes(data[end_nodes + 4 :])
            if sys.byteorder == "big":
                values.byteswap()
        elif rest == 2 * n_leaves:
            raw = array.array("h")
            raw.frombytes(data[end_nodes + 4 :])
            if sys.byteorder == "big":
                raw.byteswap()
            values = array.array("f", (v / 256.0 for v in raw))
        else:
            raise KlvError(
                f"{n_leaves} leaves need {4 * n_leaves} (KLV2) or {2 * n_leaves} (KLV) bytes "
                f"of values; {rest} remain"
            )
        if letters is not None:
            kwg = Kwg(
                _renumber(kwg.nodes, _mapping(letters, alphabet, to_file=False)), gaddag=False
            )
        for c in _tiles_used(kwg):
            if c and not 1 <= c <= len(alphabet.letters):
                raise KlvError(f"tile {c} is not a tile of the {alphabet.name} alphabet")
        return cls(kwg, values, alphabet)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str],
        alphabet: Alphabet,
        letters: Sequence[str] | None = None,
    ) -> LeaveTable:
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            raise KlvError(f"cannot read {path}: {e.strerror}") from None
        try:
            return cls.from_bytes(data, alphabet, letters)
        except KlvError as e:
            raise KlvError(f"{path}: {e}") from None

    @classmethod
    def load_learned(cls, path: str | os.PathLike[str], alphabet: Alphabet) -> LeaveTable:
        """A KLV file with the sidecar that ``scripts/learn_leaves.py`` writes beside it
        (``<name>.json``): its ``letters`` say how the file numbers its tiles. Without a
        sidecar the file is read in the alphabet's own numbering."""
        sidecar = Path(path).with_suffix(".json")
        letters = None
        if sidecar.is_file():
            try:
                meta = json.loads(sidecar.read_text("utf-8"))
            except (OSError, ValueError) as e:
                raise KlvError(f"{sidecar}: not a readable JSON sidecar ({e})") from None
            letters = meta.get("letters") if isinstance(meta, dict) else None
            if letters is not None and not (
                isinstance(letters, list) and all(isinstance(x, str) for x in letters)
            ):
                raise KlvError(f"{sidecar}: 'letters' must be a list of tile names")
        return cls.load(path, alphabet, letters)

    def to_bytes(self, version: int = 2, letters: Sequence[str] | None = None) -> bytes:
        """The file image: ``version=2`` (f32 values, what MAGPIE reads) or 1 (i16 / 256).

        ``letters`` numbers the tiles in the file (e.g. the FISE order other engines use);
        by default they are the alphabet's codes.
        """
        kwg = self.kwg
        if letters is not None:
            mapping = _mapping(letters, self.alphabet, to_file=True)
            kwg = Kwg(_renumber(kwg.nodes, mapping), gaddag=False, validate=False)
        nodes = kwg.to_bytes()
        head = struct.pack("<I", len(nodes) // 4) + nodes + struct.pack("<I", len(self._values))
        vals: array.array[Any]
        if version == 2:
            vals = array.array("f", self._values)
        elif version == 1:
            vals = array.array("h", (max(-32768, min(32767, round(v * 256))) for v in self._values))
        else:
            raise ValueError(f"KLV version {version}: 1 (i16) or 2 (f32)")
        if sys.byteorder == "big":
            vals.byteswap()
        return head + vals.tobytes()

    def save(
        self,
        path: str | os.PathLike[str],
        version: int = 2,
        letters: Sequence[str] | None = None,
    ) -> None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_bytes(self.to_bytes(version, letters))
        os.replace(tmp, target)

    # -- look-ups -------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._values)

    def index(self, codes: bytes) -> int | None:
        """The rank of a leave (sorted codes) among the table's leaves, None if absent."""
        if not codes:
            return None
        nodes, counts = self._nodes, self._counts
        p = self.kwg.dawg_root
        idx = 0
        last = len(codes) - 1
        for k, tile in enumerate(codes):
            if not p:
                return None
            while True:
                node = nodes[p]
                t = node >> TILE_SHIFT
                if t == tile:
                    break
                if node & IS_END_FLAG or t > tile:
                    return None
                idx += counts[p] - counts[p + 1]
                p += 1
            if k == last:
                return idx if node & ACCEPTS_FLAG else None
            if node & ACCEPTS_FLAG:
                idx += 1
            p = node & ARC_INDEX_MASK
        return None  # pragma: no cover - the loop returns

    def value_of_codes(self, codes: bytes) -> float:
        """Value of a leave given as sorted codes (0 when the table does not hold it)."""
        cached = self._cache.get(codes)
        if cached is not None:
            return cached
        if len(codes) > self.max_size > 0:
            # Longer than any leave stored (a whole rack kept): each tile in turn set apart,
            # the value of the rest plus that tile's own, averaged.
            parts = [(codes[:i] + codes[i + 1 :], codes[i : i + 1]) for i in range(len(codes))]
            v = sum(self.value_of_codes(r) + self.value_of_codes(t) for r, t in parts) / len(parts)
        else:
            i = self.index(codes)
            v = 0.0 if i is None else float(self._values[i])
        if len(self._cache) > 200_000:
            self._cache.clear()
        self._cache[codes] = v
        return v

    def value(self, leave: Iterable[str]) -> float:
        """What keeping these tiles is worth, in points (any order; ``?`` a blank)."""
        return self.value_of_codes(leave_codes(leave, self.alphabet))

    def for_rack(self, rack: Iterable[str]) -> dict[Leave, float]:
        """Every sub-leave of a rack, in canonical order, with its value."""
        return _for_rack(self, leave_codes(rack, self.alphabet))

    def sub_values(self, codes: bytes) -> dict[bytes, float]:
        """Every sub-multiset of a rack (sorted codes) with its value, in one walk.

        The sub-leaves are visited in sorted order, so a single forward scan of each sibling
        list finds them all (as wolges does): about a hundred steps for a rack of seven,
        instead of a hundred separate look-ups.
        """
        nodes, counts, values = self._nodes, self._counts, self._values
        distinct = sorted(set(codes))
        avail = [codes.count(c) for c in distinct]
        out: dict[bytes, float] = {b"": 0.0}
        buf: list[int] = []

        def walk(p: int, idx: int, start: int) -> None:
            q, qidx = p, idx
            for i in range(start, len(distinct)):
                if not avail[i]:
                    continue
                c = distinct[i]
                while q:
                    node = nodes[q]
                    if node >> TILE_SHIFT >= c:
                        break
                    if node & IS_END_FLAG:
                        q = 0
                        break
                    qidx += counts[q] - counts[q + 1]
                    q += 1
                avail[i] -= 1
                buf.append(c)
                node = nodes[q] if q else 0
                if q and node >> TILE_SHIFT == c:
                    accepts = 1 if node & ACCEPTS_FLAG else 0
                    out[bytes(buf)] = float(values[qidx]) if accepts else 0.0
                    walk(node & ARC_INDEX_MASK, qidx + accepts, i)
                else:
                    out[bytes(buf)] = 0.0
                    walk(0, 0, i)
                buf.pop()
                avail[i] += 1

        walk(self.kwg.dawg_root, 0, 0)
        if self.max_size:
            for key in out:
                if len(key) > self.max_size:
                    out[key] = self.value_of_codes(key)
        return out

    def raw_values(self) -> array.array[float]:
        """The values in the file's order: the i-th belongs to the i-th leave of ``items``."""
        return self._values

    def items(self) -> Iterator[tuple[Leave, float]]:
        """Every leave the table holds with its value, in the file's (sorted) order."""
        letter = self.alphabet.letter
        for i, codes in enumerate(self.kwg.paths(self.kwg.dawg_root)):
            yield tuple(BLANK if c == 0 else letter(c) for c in codes), float(self._values[i])


@lru_cache(maxsize=4096)
def _for_rack(table: LeaveTable, rack: bytes) -> dict[Leave, float]:
    names = _tile_of(table.alphabet)
    return {tuple([names[c] for c in k]): v for k, v in table.sub_values(rack).items()}


def _mapping(letters: Sequence[str], alphabet: Alphabet, *, to_file: bool) -> dict[int, int]:
    """Codes of the alphabet ↔ codes of a file numbered by ``letters`` (blank 0 ↔ 0)."""
    file_codes: dict[int, int] = {}
    for i, label in enumerate(letters, start=1):
        try:
            file_codes[alphabet.code(label)] = i
        except SpellingError:
            raise KlvError(f"{label!r} is not a letter of the {alphabet.name} alphabet") from None
    ours = sorted(file_codes)
    if [file_codes[c] for c in ours] != sorted(file_codes.values()):
        raise KlvError("the file's letters are not in the alphabet's order")
    pairs = file_codes.items() if to_file else ((f, o) for o, f in file_codes.items())
    return {0: 0, **dict(pairs)}


def _renumber(nodes: array.array[int], mapping: dict[int, int]) -> array.array[int]:
    """A copy of the nodes with each tile code replaced (node 0, the root pointer, kept)."""
    out = array.array(nodes.typecode, nodes)
    low = (1 << TILE_SHIFT) - 1
    for i in range(1, len(nodes)):
        tile = nodes[i] >> TILE_SHIFT
        if tile not in mapping:
            raise KlvError(f"node {i} holds tile {tile}, which has no letter here")
        out[i] = (nodes[i] & low) | (mapping[tile] << TILE_SHIFT)
    return out


def _tiles_used(kwg: Kwg) -> set[int]:
    return {node >> TILE_SHIFT for node in itertools.islice(kwg.nodes, 1, None)}


def _count_words(kwg: Kwg) -> tuple[array.array[int], int]:
    """Per node, the words reachable from it and its later siblings; and the longest word.

    ``counts[p] - counts[p + 1]`` is then the number of leaves that start with node p's tile
    at that point, which is how a leave's rank is summed up on the way down. Computed with an
    explicit stack (no recursion limit), each node once.
    """
    nodes = kwg.nodes
    n = len(nodes)
    counts = array.array("l", [-1]) * n
    depth = array.array("l", [0]) * n  # longest word from this node or a later sibling
    counts[0] = 0
    for start in range(n - 1, 0, -1):
        if counts[start] >= 0:
            continue
        stack = [start]
        while stack:
            p = stack[-1]
            node = nodes[p]
            arc = node & ARC_INDEX_MASK
            nxt = 0 if node & IS_END_FLAG else p + 1
            pending = [q for q in (arc, nxt) if q and counts[q] < 0]
            if pending:
                if len(stack) > 2 * n:
                    raise KlvError("the leave graph has a cycle")
                stack.extend(pending)
                continue
            stack.pop()
            if counts[p] >= 0:
                continue
            own = (1 if node & ACCEPTS_FLAG else 0) + (counts[arc] if arc else 0)
            counts[p] = own + (counts[nxt] if nxt else 0)
            down = 1 + (depth[arc] if arc else 0)
            depth[p] = max(down, depth[nxt] if nxt else 0)
    root = kwg.dawg_root
    return counts, (depth[root] if root else 0)
