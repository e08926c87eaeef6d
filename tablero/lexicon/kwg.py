"""KWG lexicon graphs: a DAWG and a GADDAG packed into one flat array of 32-bit nodes.

The KWG layout is the one read by the open-source engines wolges, macondo and MAGPIE, so a
``.kwg`` file built by any of them loads here and ours load there.  The full specification,
in our own words, is in ``docs/kwg.md``; the short version:

* the file is a sequence of little-endian ``u32`` nodes, nothing else (no header);
* a node packs ``tile`` (bits 24-31), ``accepts`` (bit 23), ``is_end`` (bit 22) and
  ``arc_index`` (bits 0-21);
* the outgoing arcs of a state are stored as a *sibling list*: consecutive nodes sorted by
  tile, the last one flagged ``is_end``; ``arc_index`` is the first node of the list reached
  by taking that arc (0 when nothing follows) and ``accepts`` says that the tiles read so
  far, this one included, spell a complete entry;
* node 0 points (through its ``arc_index``) at the DAWG's root list and node 1 at the
  GADDAG's root list;
* tiles are 1..255 (1..N for the letters of an alphabet); tile 0 never appears in a word and
  inside the GADDAG it is the separator that switches from reading leftwards to rightwards.

Tiles are plain integers here: turning letters (and digraphs such as CH, LL, RR) into tiles is
the job of the alphabet module, not of this one.
"""

from __future__ import annotations

import array
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Final

__all__ = [
    "ACCEPTS_FLAG",
    "ARC_INDEX_MASK",
    "IS_END_FLAG",
    "MAX_NODES",
    "MAX_TILE",
    "SEPARATOR",
    "TILE_SHIFT",
    "Kwg",
    "build_kwg",
    "gaddag_forms",
    "pack_node",
]

TILE_SHIFT: Final = 24
"""The tile occupies the top byte of a node."""
ACCEPTS_FLAG: Final = 0x0080_0000
"""Bit 23: the path ending with this node's tile is a complete entry."""
IS_END_FLAG: Final = 0x0040_0000
"""Bit 22: this node is the last of its sibling list."""
ARC_INDEX_MASK: Final = 0x003F_FFFF
"""Bits 0-21: index of the first node of the child sibling list (0 = no children)."""
MAX_NODES: Final = ARC_INDEX_MASK + 1
"""Largest node count the builder writes, so that every node stays addressable by an arc."""
MAX_TILE: Final = 0xFF
"""Largest tile the 8-bit field can hold (wolges itself only handles tiles up to 0x3F)."""
SEPARATOR: Final = 0
"""Tile 0: inside the GADDAG, the switch from the reversed prefix to the forward suffix."""

_DAWG_POINTER: Final = 0
_GADDAG_POINTER: Final = 1

# ``array('I')`` is 32 bits on every mainstream platform, but the C standard only promises 16.
_TYPECODE: Final = "I" if array.array("I").itemsize == 4 else "L"
if array.array(_TYPECODE).itemsize != 4:  # pragma: no cover - exotic platforms only
    raise ImportError("tablero.lexicon.kwg needs a 32-bit unsigned array type")
_BIG_ENDIAN: Final = sys.byteorder == "big"
# Keeps the low six bits of a byte: applied to byte 2 of each node it leaves arc bits 16-21.
_LOW_SIX_BITS: Final = bytes(b & 0x3F for b in range(256))


def pack_node(tile: int, *, accepts: bool, is_end: bool, arc_index: int) -> int:
    """Return the ``u32`` value of one node; spelled out so tests and tools need no bit magic."""
    if not 0 <= tile <= MAX_TILE:
        raise ValueError(f"tile {tile} does not fit the 8-bit tile field")
    if not 0 <= arc_index <= ARC_INDEX_MASK:
        raise ValueError(f"arc index {arc_index} does not fit the 22-bit arc field")
    return (
        (tile << TILE_SHIFT)
        | (ACCEPTS_FLAG if accepts else 0)
        | (IS_END_FLAG if is_end else 0)
        | arc_index
    )


def gaddag_forms(word: Sequence[int]) -> list[tuple[int, ...]]:
    """Every string the GADDAG stores for ``word``, in the KWG convention.

    For a word of length n that is the whole word reversed (no separator: nothing is left to
    read rightwards), then for each split 1 <= i < n the reversed prefix ``word[:i]``, the
    separator, and the forward suffix ``word[i:]``.  CARE gives ERAC, C@ARE, AC@RE, RAC@E.
    Exposed because tests and move-generator checks need the same definition as the builder.
    """
    w = tuple(word)
    forms = [w[::-1]]
    forms.extend((*w[i - 1 :: -1], SEPARATOR, *w[i:]) for i in range(1, len(w)))
    return forms


# ---------------------------------------------------------------------------------------------
# Reader
# ---------------------------------------------------------------------------------------------


class Kwg:
    """A loaded KWG: the node array plus its two roots, with cheap node accessors.

    Nodes live in one ``array.array`` of 32-bit integers, so a look-up is an index and a shift
    with no Python object per node.  Move generators that need the last drop of speed can read
    ``nodes`` directly with the ``*_FLAG``/``ARC_INDEX_MASK``/``TILE_SHIFT`` constants.

    ``dawg_root`` and ``gaddag_root`` are *arc indices*, i.e. the first node of each root
    sibling list (0 when that graph is empty), not the pointer nodes 0 and 1 themselves.
    """

    __slots__ = ("_nodes", "dawg_root", "gaddag_root", "has_gaddag")

    _nodes: array.array[int]
    dawg_root: int
    gaddag_root: int
    has_gaddag: bool

    def __init__(
        self, nodes: array.array[int], *, gaddag: bool = True, validate: bool = True
    ) -> None:
        """Wrap an existing node array (native byte order).

        ``gaddag=False`` reads the DAWG-only variant of the format (only node 0 is a pointer,
        as in wolges' KLV/alphagram files).  ``validate`` runs the O(n) structural checks that
        keep every later look-up in bounds; only the builder, whose output is known to be
        sound, skips them.
        """
        if nodes.typecode not in "IL" or nodes.itemsize != 4:
            raise ValueError(
                f"KWG nodes must be an array of 32-bit unsigned integers, not typecode "
                f"{nodes.typecode!r} with {nodes.itemsize}-byte items"
            )
        if validate:
            raw = nodes.tobytes()
            if _BIG_ENDIAN:
                swapped = array.array(_TYPECODE, raw)
                swapped.byteswap()
                raw = swapped.tobytes()
            _check_nodes(raw, gaddag=gaddag)
        self._nodes = nodes
        self.has_gaddag = gaddag
        self.dawg_root = nodes[_DAWG_POINTER] & ARC_INDEX_MASK
        self.gaddag_root = nodes[_GADDAG_POINTER] & ARC_INDEX_MASK if gaddag else 0

    # -- loading and saving --------------------------------------------------------------------

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview, *, gaddag: bool = True) -> Kwg:
        """Parse the bytes of a ``.kwg`` file, raising ``ValueError`` if they are malformed.

        The checks are what a reader needs to never index out of bounds: a whole number of
        nodes, the root pointer(s) present, every arc index inside the file and the last node
        closing its sibling list.  They run at C speed on byte planes, not per node in Python.
        """
        raw = bytes(data)
        _check_nodes(raw, gaddag=gaddag)
        nodes: array.array[int] = array.array(_TYPECODE)
        nodes.frombytes(raw)
        if _BIG_ENDIAN:
            nodes.byteswap()
        return cls(nodes, gaddag=gaddag, validate=False)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, gaddag: bool = True) -> Kwg:
        """Read a ``.kwg`` file with a single read (no rebuild, no per-node parsing)."""
        return cls.from_bytes(Path(path).read_bytes(), gaddag=gaddag)

    def to_bytes(self) -> bytes:
        """The exact file image: little-endian ``u32`` nodes, regardless of the host order."""
        if _BIG_ENDIAN:
            swapped = array.array(_TYPECODE, self._nodes)
            swapped.byteswap()
            return swapped.tobytes()
        return self._nodes.tobytes()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the file image to ``path`` (replacing it atomically, so readers never see half)."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_bytes(self.to_bytes())
        os.replace(tmp, target)

    # -- node access -----------------------------------------------------------------------------

    @property
    def nodes(self) -> array.array[int]:
        """The raw node array (treat as read-only) for hot loops that inline the bit tests."""
        return self._nodes

    def __len__(self) -> int:
        """Number of nodes, the two root pointers included."""
        return len(self._nodes)

    def __repr__(self) -> str:
        kind = "DAWG+GADDAG" if self.has_gaddag else "DAWG"
        return f"<Kwg {kind} with {len(self._nodes)} nodes>"

    def tile(self, node: int) -> int:
        """Tile on the arc this node represents (0 is the GADDAG separator)."""
        return self._nodes[node] >> TILE_SHIFT

    def accepts(self, node: int) -> bool:
        """Whether the path read up to and including this node's tile is a complete entry."""
        return bool(self._nodes[node] & ACCEPTS_FLAG)

    def is_end(self, node: int) -> bool:
        """Whether this node is the last of its sibling list."""
        return bool(self._nodes[node] & IS_END_FLAG)

    def arc_index(self, node: int) -> int:
        """First node of the sibling list that follows this node's tile (0: nothing follows)."""
        return self._nodes[node] & ARC_INDEX_MASK

    def child(self, siblings: int, tile: int) -> int:
        """Index of the node carrying ``tile`` in the sibling list starting at ``siblings``.

        Returns 0 when there is no such node (node 0 is a root pointer, never a list member),
        also when ``siblings`` is 0, the "no children" arc, so walks need no special case.
        The scan does not stop early on a larger tile: it stays correct even for files whose
        lists were not sorted.
        """
        if siblings <= 0:
            return 0
        nodes = self._nodes
        i = siblings
        while True:
            node = nodes[i]
            if node >> TILE_SHIFT == tile:
                return i
            if node & IS_END_FLAG:
                return 0
            i += 1

    def children(self, siblings: int) -> Iterator[tuple[int, int]]:
        """``(tile, node index)`` for every node of the sibling list starting at ``siblings``."""
        if siblings <= 0:
            return
        nodes = self._nodes
        i = siblings
        while True:
            node = nodes[i]
            yield node >> TILE_SHIFT, i
            if node & IS_END_FLAG:
                return
            i += 1

    def contains(self, word: Sequence[int]) -> bool:
        """Whether ``word`` (a sequence of tiles) is in the lexicon, using the DAWG."""
        p = self.dawg_root
        if not word or not p:
            return False
        nodes = self._nodes
        last = len(word) - 1
        for k, tile in enumerate(word):
            while True:
                node = nodes[p]
                if node >> TILE_SHIFT == tile:
                    break
                if node & IS_END_FLAG:
                    return False
                p += 1
            if k == last:
                return bool(node & ACCEPTS_FLAG)
            p = node & ARC_INDEX_MASK
            if not p:
                return False
        return False  # pragma: no cover - the loop always returns

    # -- enumeration -----------------------------------------------------------------------------

    def words(self) -> Iterator[tuple[int, ...]]:
        """Every word of the DAWG, in tile order (sorted, as sibling lists are sorted)."""
        return self.paths(self.dawg_root)

    def gaddag_paths(self) -> Iterator[tuple[int, ...]]:
        """Every complete string of the GADDAG, separators (tile 0) included.

        For a well-formed lexicon this is exactly the union of ``gaddag_forms(w)`` over its
        words, each string once; tests compare the two sets both ways.
        """
        if not self.has_gaddag:
            raise ValueError("this KWG was read as DAWG-only; it has no GADDAG")
        return self.paths(self.gaddag_root)

    def paths(self, siblings: int) -> Iterator[tuple[int, ...]]:
        """Every accepted tile string readable from the sibling list starting at ``siblings``.

        Depth-first and iterative (no recursion limit); a walk deeper than the node count can
        only mean a cycle, which a KWG must not have, so it raises ``ValueError``.
        """
        if siblings <= 0:
            return
        nodes = self._nodes
        limit = len(nodes)
        stack = [siblings]
        tiles = [nodes[siblings] >> TILE_SHIFT]
        while stack:
            node = nodes[stack[-1]]
            if node & ACCEPTS_FLAG:
                yield tuple(tiles)
            below = node & ARC_INDEX_MASK
            if below:
                if len(stack) >= limit:
                    raise ValueError("the KWG has a cycle: a path is longer than the node count")
                stack.append(below)
                tiles.append(nodes[below] >> TILE_SHIFT)
                continue
            while stack:
                i = stack[-1]
                if not nodes[i] & IS_END_FLAG:
                    stack[-1] = i + 1
                    tiles[-1] = nodes[i + 1] >> TILE_SHIFT
                    break
                stack.pop()
                tiles.pop()

    def check_structure(self) -> None:
        """Deep check of the guarantees the format makes, raising ``ValueError`` on the first
        violation: every reachable sibling list strictly sorted by tile, the graph acyclic,
        no separator in the DAWG, and in the GADDAG at most one separator per path, never
        accepting and always followed by at least one tile.

        Costs a full traversal, so it is not run on load; it is for tests and file tooling.
        """
        nodes = self._nodes
        # A list start may be reached from the DAWG and from the GADDAG (before and after the
        # separator), and the rules differ, so the visit state is per (start, context) pair.
        # Contexts: 0 = DAWG or GADDAG after the separator, 1 = GADDAG before the separator.
        done: set[tuple[int, int]] = set()
        on_path: set[tuple[int, int]] = set()
        roots = [(self.dawg_root, 0)]
        if self.has_gaddag:
            roots.append((self.gaddag_root, 1))
        for root in roots:
            if root[0] == 0 or root in done:
                continue
            # Explicit stack of (list start, context, next child position to expand).
            stack: list[tuple[int, int, int]] = [(root[0], root[1], root[0])]
            on_path.add(root)
            first_visit = True
            while stack:
                start, ctx, i = stack[-1]
                if first_visit:
                    _check_list(nodes, start, ctx)
                first_visit = False
                if i < 0:  # list exhausted
                    stack.pop()
                    on_path.discard((start, ctx))
                    done.add((start, ctx))
                    continue
                node = nodes[i]
                stack[-1] = (start, ctx, -1 if node & IS_END_FLAG else i + 1)
                below = node & ARC_INDEX_MASK
                if not below:
                    continue
                child_ctx = 0 if (ctx == 1 and node >> TILE_SHIFT == SEPARATOR) else ctx
                key = (below, child_ctx)
                if key in on_path:
                    raise ValueError(f"the KWG has a cycle through the list at node {below}")
                if key in done:
                    continue
                on_path.add(key)
                stack.append((below, child_ctx, below))
                first_visit = True


def _check_list(nodes: array.array[int], start: int, ctx: int) -> None:
    """Check one sibling list for ``Kwg.check_structure`` (context 1: GADDAG before '@')."""
    previous = -1
    i = start
    while True:
        node = nodes[i]
        tile = node >> TILE_SHIFT
        if tile <= previous:
            raise ValueError(f"sibling list at node {start} is not strictly sorted by tile")
        previous = tile
        if tile == SEPARATOR:
            if ctx == 0:
                raise ValueError(f"node {i}: tile 0 outside the GADDAG's reversed part")
            if node & ACCEPTS_FLAG or not node & ARC_INDEX_MASK:
                raise ValueError(f"node {i}: a separator must be followed by at least one tile")
        if node & IS_END_FLAG:
            return
        i += 1


def _check_nodes(raw: bytes, *, gaddag: bool) -> None:
    """Validate a little-endian node image so that no later access can leave the array."""
    if len(raw) % 4:
        raise ValueError(
            f"KWG data is {len(raw)} bytes, not a whole number of 4-byte nodes "
            "(truncated, or not a KWG file)"
        )
    count = len(raw) // 4
    needed = 2 if gaddag else 1
    if count < needed:
        what = "DAWG+GADDAG" if gaddag else "DAWG-only"
        raise ValueError(
            f"KWG data holds {count} node(s); a {what} file needs at least {needed} "
            "(the root pointer nodes); the file is empty or truncated"
        )
    # Bits 16-21 of every arc index sit in the low six bits of each node's third byte.
    high = raw[2::4].translate(_LOW_SIX_BITS)
    top = count >> 16
    worst = max(high)
    if worst >= top:
        # Only nodes whose high arc bits reach the node count need the full comparison.
        for value in range(top, worst + 1):
            i = high.find(value)
            while i >= 0:
                arc = int.from_bytes(raw[4 * i : 4 * i + 3], "little") & ARC_INDEX_MASK
                if arc >= count:
                    raise ValueError(
                        f"node {i} has arc index {arc}, but the file has only {count} nodes "
                        "(truncated or corrupt)"
                    )
                i = high.find(value, i + 1)
    if not raw[-2] & (IS_END_FLAG >> 16):
        raise ValueError(
            f"the last node ({count - 1}) does not close its sibling list, so a scan would run "
            "past the end of the data (truncated or corrupt)"
        )


# ---------------------------------------------------------------------------------------------
# Builder
# ---------------------------------------------------------------------------------------------
#
# While building, a state (one sibling list) is a tuple of arcs sorted by tile, and an arc is
# one int: tile | accepts << 8 | target_state << 9.  The tuple is its own hash key, so the
# register that makes states unique is a plain dict.  State 0 is the empty state (no arcs):
# arcs into it are written with arc index 0.

_ARC_ACCEPTS: Final = 1 << 8
_ARC_TARGET_SHIFT: Final = 9


def build_kwg(words: Iterable[Sequence[int]], *, gaddag: bool = True) -> Kwg:
    """Build a minimal DAWG (and by default the GADDAG too) from sequences of tiles 1..255.

    Duplicates are dropped and the order of ``words`` does not matter.  The empty word and
    tile 0 are rejected with ``ValueError`` because the format cannot represent them.

    How (details in ``docs/kwg.md``): the sorted words go through an incremental minimiser
    (each state is hash-consed as soon as no later word can change it), which also records,
    for every word prefix p, the DAWG state reached after p.  The GADDAG is then built the same
    way from the reversed prefixes, in sorted order, where the separator arc after rev(p)
    simply points at that recorded DAWG state instead of spelling out the suffixes again.
    Both graphs share one register, so identical states are stored once.  Finally sibling
    lists that are a tail of a longer list are placed inside it.
    """
    keys = _normalise(words)
    register: dict[tuple[int, ...], int] = {(): 0}
    states: list[tuple[int, ...]] = [()]
    prefixes: dict[bytes, int] | None = {} if gaddag else None
    dawg_root = _minimise_sorted(((k, 1) for k in keys), register, states, prefixes)
    del keys
    roots = [dawg_root]
    if prefixes is not None:
        ordered = sorted(prefixes)
        entries = ((k, prefixes[k]) for k in ordered)
        roots.append(_minimise_sorted(entries, register, states, None))
        del ordered, prefixes
    nodes = _layout(states, register, roots)
    return Kwg(nodes, gaddag=gaddag, validate=False)


def _normalise(words: Iterable[Sequence[int]]) -> list[bytes]:
    """Check every word and return the distinct ones as sorted byte strings (one tile a byte)."""
    distinct: set[bytes] = set()
    for word in words:
        if isinstance(word, str | int):
            raise ValueError(f"a word must be a sequence of integer tiles, not {word!r}")
        try:
            key = bytes(word)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"word {word!r}: tiles must be integers from 1 to {MAX_TILE}") from exc
        if not key:
            raise ValueError("the empty word cannot be stored in a KWG")
        if SEPARATOR in key:
            raise ValueError(f"word {tuple(key)!r}: tile 0 is reserved (GADDAG separator)")
        distinct.add(key)
    return sorted(distinct)


def _minimise_sorted(
    entries: Iterable[tuple[bytes, int]],
    register: dict[tuple[int, ...], int],
    states: list[tuple[int, ...]],
    prefixes: dict[bytes, int] | None,
) -> int:
    """Incremental minimisation of a sorted, duplicate-free string set; returns the root state.

    ``entries`` are ``(key, payload)`` in increasing key order, payload = ``sep << 1 | accepts``:
    ``accepts`` goes on the arc of the key's last tile, and a non-zero ``sep`` adds a separator
    arc (tile 0) from the state after the key to the existing state ``sep``.

    Words are "typed" one after another: the states along the previous key that lie beyond
    the common prefix with the new key can no longer change, so they are frozen (looked up in
    or added to ``register``) from the deepest up.  When ``prefixes`` is given, each frozen
    depth also records reversed-prefix -> ``state << 1 | prefix-is-a-word``, the input of the
    GADDAG pass.
    """
    pending: list[list[int]] = [[]]  # pending[d]: arcs of the state after the first d tiles
    prev = b""
    for key, payload in entries:
        limit = min(len(prev), len(key))
        common = 0
        while common < limit and prev[common] == key[common]:
            common += 1
        depth = len(prev)
        while depth > common:
            state = _freeze(pending.pop(), register, states)
            parent = pending[-1]
            if prefixes is not None:
                prefixes[prev[depth - 1 :: -1]] = state << 1 | (parent[-1] >> 8 & 1)
            parent[-1] |= state << _ARC_TARGET_SHIFT
            depth -= 1
        top = pending[-1]
        for d in range(common, len(key)):
            top.append(key[d])
            top = []
            pending.append(top)
        pending[-2][-1] |= (payload & 1) << 8
        if payload >> 1:
            top.append(payload >> 1 << _ARC_TARGET_SHIFT)  # tile 0: the separator
        prev = key
    depth = len(prev)
    while depth > 0:
        state = _freeze(pending.pop(), register, states)
        parent = pending[-1]
        if prefixes is not None:
            prefixes[prev[depth - 1 :: -1]] = state << 1 | (parent[-1] >> 8 & 1)
        parent[-1] |= state << _ARC_TARGET_SHIFT
        depth -= 1
    return _freeze(pending[0], register, states)


def _freeze(
    arcs: list[int], register: dict[tuple[int, ...], int], states: list[tuple[int, ...]]
) -> int:
    """The id of the state with exactly these arcs, creating it if it is new."""
    signature = tuple(arcs)
    state = register.get(signature)
    if state is None:
        state = len(states)
        register[signature] = state
        states.append(signature)
    return state


def _layout(
    states: list[tuple[int, ...]], register: dict[tuple[int, ...], int], roots: list[int]
) -> array.array[int]:
    """Place every state's sibling list in the flat array and encode the nodes.

    A list that equals the tail of a longer list is not written again: it starts inside the
    longer one (the ``is_end`` of the shared last node ends both).  Taking states longest
    first and claiming all their tails means every state that is a tail of some other state
    is embedded, which is the least space this kind of sharing allows.  Blocks are then laid
    out in breadth-first order from the DAWG root and afterwards from the GADDAG root, so the
    DAWG's lists come first, as wolges also prefers.
    """
    count = len(states)
    by_length: list[list[int]] = []
    for state in range(1, count):
        size = len(states[state])
        while len(by_length) <= size:
            by_length.append([])
        by_length[size].append(state)
    host = [0] * count  # state whose block holds this state (0: not placed yet)
    offset = [0] * count  # position of this state inside its host's block
    for bucket in reversed(by_length):
        for state in bucket:
            if host[state]:
                continue
            host[state] = state
            arcs = states[state]
            for j in range(1, len(arcs)):
                tail = register.get(arcs[j:])
                if tail is not None and not host[tail]:
                    host[tail] = state
                    offset[tail] = j
    del by_length

    block_start = [0] * count
    blocks: list[int] = []
    free = len(roots)  # the root pointer nodes come first
    seen = bytearray(count)
    queue: list[int] = []
    for root in roots:  # one full sweep per root: the DAWG's lists before GADDAG-only ones
        if not root or seen[root]:
            continue
        seen[root] = 1
        queue.append(root)
        head = len(queue) - 1
        while head < len(queue):
            state = queue[head]
            head += 1
            owner = host[state]
            if not block_start[owner]:
                block_start[owner] = free
                free += len(states[owner])
                blocks.append(owner)
            for arc in states[state]:
                target = arc >> _ARC_TARGET_SHIFT
                if target and not seen[target]:
                    seen[target] = 1
                    queue.append(target)
    del queue, seen
    if free > MAX_NODES:
        raise ValueError(
            f"the lexicon needs {free} nodes, more than the {MAX_NODES} a 22-bit arc index "
            "can address"
        )
    where = [0] * count
    for state in range(1, count):
        where[state] = block_start[host[state]] + offset[state]
    del block_start, host, offset

    nodes: array.array[int] = array.array(_TYPECODE, bytes(4 * free))
    for i, root in enumerate(roots):
        nodes[i] = IS_END_FLAG | where[root]
    for owner in blocks:
        arcs = states[owner]
        p = where[owner]
        for arc in arcs:
            nodes[p] = (
                (arc & 0xFF) << TILE_SHIFT
                | (arc & _ARC_ACCEPTS) << 15
                | where[arc >> _ARC_TARGET_SHIFT]
            )
            p += 1
        nodes[p - 1] |= IS_END_FLAG
    return nodes
