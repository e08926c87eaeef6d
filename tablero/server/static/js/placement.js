// The tentative placement: which rack tiles the player has put on which squares before pressing
// Move. Pure state, no DOM, so every way of placing (drag, tap, keyboard) goes through the same
// few operations. Rules are not checked here: the server's preview says what is legal.

export const BLANK = "?";

export function squareName(r, c) {
  return `${String.fromCharCode(65 + c)}${r + 1}`;
}

export function parseSquare(name) {
  const m = /^([A-Z])(\d+)$/.exec(String(name).toUpperCase());
  return m ? [Number(m[2]) - 1, m[1].charCodeAt(0) - 65] : null;
}

const key = (r, c) => `${r},${c}`;

/** Two racks hold the same tiles (in any order). */
function sameTiles(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

export class Placement {
  constructor() {
    this.rack = [];          // the server's rack: tile letters ("A", "CH", "?")
    this.order = [];         // rack indices in the order the player arranged them
    this.placed = new Map(); // "r,c" -> {index, r, c, letter, blank}
    this.stack = [];         // keys in the order tiles were put down (Backspace takes the last)
  }

  /**
   * Take a rack from the server. The same tiles keep their arrangement and placement; a new
   * rack (after a move, an exchange, an EX shuffle) keeps the old order for tiles it still holds.
   */
  setRack(rack) {
    rack = rack || [];
    if (sameTiles(rack, this.rack)) {
      if (rack.every((v, i) => v === this.rack[i])) return false;
      // Same tiles, new order from the server: map our indices onto theirs.
      const remap = new Map();
      const used = new Set();
      this.rack.forEach((letter, i) => {
        const j = rack.findIndex((l, k) => l === letter && !used.has(k));
        used.add(j);
        remap.set(i, j);
      });
      this.order = this.order.map((i) => remap.get(i));
      for (const p of this.placed.values()) p.index = remap.get(p.index);
      this.rack = [...rack];
      return false;
    }
    const oldLetters = this.order.map((i) => this.rack[i]);
    this.rack = [...rack];
    this.placed.clear();
    this.stack = [];
    const left = rack.map((letter, i) => ({ letter, i }));
    const order = [];
    for (const letter of oldLetters) {
      const k = left.findIndex((x) => x.letter === letter);
      if (k >= 0) order.push(left.splice(k, 1)[0].i);
    }
    this.order = [...order, ...left.map((x) => x.i)];
    return true;
  }

  /** Rack indices still on the rack, in the player's order. */
  onRack() {
    const used = new Set([...this.placed.values()].map((p) => p.index));
    return this.order.filter((i) => !used.has(i));
  }

  isPlacedIndex(index) {
    for (const p of this.placed.values()) if (p.index === index) return true;
    return false;
  }

  at(r, c) {
    return this.placed.get(key(r, c)) || null;
  }

  get size() {
    return this.placed.size;
  }

  /** Put rack tile `index` on (r, c); a blank takes `letter` (or none yet: the picker asks). */
  place(index, r, c, letter = null) {
    if (this.isPlacedIndex(index) || this.placed.has(key(r, c))) return false;
    const tile = this.rack[index];
    if (tile === undefined) return false;
    const blank = tile === BLANK;
    this.placed.set(key(r, c), { index, r, c, blank, letter: blank ? letter : tile });
    this.stack.push(key(r, c));
    return true;
  }

  /** Take the tile on (r, c) back to the rack (a blank forgets its letter). */
  take(r, c) {
    const k = key(r, c);
    const p = this.placed.get(k);
    if (!p) return null;
    this.placed.delete(k);
    this.stack = this.stack.filter((x) => x !== k);
    return p;
  }

  /** Move a placed tile to another empty square, keeping a blank's letter. */
  move(r, c, r2, c2) {
    const p = this.placed.get(key(r, c));
    if (!p || this.placed.has(key(r2, c2))) return false;
    this.placed.delete(key(r, c));
    this.placed.set(key(r2, c2), { ...p, r: r2, c: c2 });
    this.stack = this.stack.map((x) => (x === key(r, c) ? key(r2, c2) : x));
    return true;
  }

  setBlankLetter(r, c, letter) {
    const p = this.placed.get(key(r, c));
    if (!p || !p.blank) return false;
    p.letter = letter;
    return true;
  }

  /** The most recently placed tile (for Backspace), or null. */
  last() {
    const k = this.stack[this.stack.length - 1];
    return k ? this.placed.get(k) : null;
  }

  clear() {
    this.placed.clear();
    this.stack = [];
  }

  /** Move rack tile `index` to position `pos` among the tiles on the rack. */
  reorder(index, pos) {
    const visible = this.onRack().filter((i) => i !== index);
    pos = Math.max(0, Math.min(pos, visible.length));
    visible.splice(pos, 0, index);
    const hidden = this.order.filter((i) => !visible.includes(i));
    this.order = [...visible, ...hidden];
  }

  shuffle(random = Math.random) {
    const o = [...this.order];
    for (let i = o.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [o[i], o[j]] = [o[j], o[i]];
    }
    this.order = o;
  }

  /** Blanks on the board still waiting for their letter. */
  pendingBlanks() {
    return [...this.placed.values()].filter((p) => p.blank && !p.letter);
  }

  /** The placement as the API wants it: [{square, letter, blank}], in board order. */
  tiles() {
    return [...this.placed.values()]
      .sort((a, b) => a.r - b.r || a.c - b.c)
      .map((p) => ({ square: squareName(p.r, p.c), letter: p.letter, blank: p.blank }));
  }

  /** Letters on the rack (for exchange) by index. */
  letter(index) {
    return this.rack[index];
  }
}

/**
 * Fold a typed character to a letter of the game's alphabet: upper case; accents dropped unless
 * the accented letter is a letter of its own (Ñ). Returns null for anything else.
 */
export function foldKey(ch, letters) {
  if (!ch || ch.length !== 1) return null;
  const up = ch.toUpperCase();
  if (letters.includes(up)) return up;
  const plain = up.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  return letters.includes(plain) ? plain : null;
}

/**
 * Which rack tile typing `letter` should use: the tile itself, else a blank (which then stands
 * for the letter). Prefers a real tile; `forceBlank` (Shift) asks for a blank.
 */
export function chooseTile(placement, letter, forceBlank = false) {
  const free = placement.onRack();
  const real = free.find((i) => placement.rack[i] === letter);
  const blank = free.find((i) => placement.rack[i] === BLANK);
  if (forceBlank && blank !== undefined) return { index: blank, blank: true };
  if (real !== undefined) return { index: real, blank: false };
  if (blank !== undefined) return { index: blank, blank: true };
  return null;
}

/**
 * Typing for digraph alphabets: C typed onto a square, then H, means the CH tile (a Spanish word
 * with CH must be spelled with the CH tile, never C + H). Returns the digraph to put on the
 * square typed last, or null if this key starts a new tile.
 */
export function digraphCompletion(placement, lastTyped, letter, digraphs) {
  if (!lastTyped) return null;
  const p = placement.at(lastTyped.r, lastTyped.c);
  if (!p || !p.letter) return null;
  const joined = p.letter + letter;
  return digraphs.includes(joined) ? joined : null;
}

/** Whether `letter` could start a digraph whose tile is on the rack (typing waits for more). */
export function startsDigraph(placement, letter, digraphs) {
  const free = new Set(placement.onRack().map((i) => placement.rack[i]));
  return digraphs.some((d) => d.startsWith(letter) && d !== letter && free.has(d));
}
