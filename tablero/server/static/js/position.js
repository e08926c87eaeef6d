// Positions as text, read for drawing only (the server decides what is legal and what scores):
// a CGP line (docs/formats.md, "CGP") for the analysis board's board, rack and scores, and a
// placement's notation ("8H CA(S)A", "E10 [CH]e") for the squares and tiles it puts down, when
// the server's list of moves does not have the move (a word the engine does not know).

import { BLANK, squareName } from "./placement.js";

/** The tiles of a run of CGP or notation text: "A", "[CH]", a lowercase letter (a blank). */
function tokens(text) {
  const out = [];
  for (let i = 0; i < text.length;) {
    const ch = text[i];
    if (ch === "[") {
      const end = text.indexOf("]", i);
      if (end < 0) throw new Error("an unclosed [");
      out.push(text.slice(i + 1, end));
      i = end + 1;
    } else {
      const cp = text.codePointAt(i);
      const one = String.fromCodePoint(cp);
      out.push(one);
      i += one.length;
    }
  }
  return out;
}

const isLower = (s) => s !== s.toUpperCase() && s === s.toLowerCase();

/**
 * A CGP line: {board: rows of null | {letter, blank}, racks: [[letters]], scores: [numbers],
 * ops: {var: "fise", ...}}. Throws an Error naming what is wrong (the server's answer is the
 * one shown to people; this only draws what it accepted).
 */
export function parseCgp(text) {
  const fields = String(text).trim().split(/\s+/);
  if (fields.length < 4) throw new Error("a CGP line has a board, racks, scores and a count");
  const board = fields[0].split("/").map((row) => {
    const cells = [];
    const parts = row.match(/\d+|\[[^\]]*\]|\D/gu) || [];
    for (const part of parts) {
      if (/^\d+$/.test(part)) {
        for (let k = 0; k < Number(part); k++) cells.push(null);
      } else {
        const letter = part.startsWith("[") ? part.slice(1, -1) : part;
        cells.push({ letter: letter.toUpperCase(), blank: isLower(letter) });
      }
    }
    return cells;
  });
  const racks = fields[1].split("/").map((r) => tokens(r).map((x) => (x === BLANK ? BLANK : x.toUpperCase())));
  const scores = fields[2].split("/").map(Number);
  const ops = {};
  for (const op of fields.slice(4).join(" ").split(";")) {
    const [name, ...value] = op.trim().split(/\s+/);
    if (name) ops[name] = value.join(" ");
  }
  return { board, racks, scores, ops };
}

/** Where a placement starts and which way it goes: "8H" across from H8, "H8" down. */
function start(position) {
  let m = /^(\d+)([A-Z])$/.exec(position);
  if (m) return { r: Number(m[1]) - 1, c: m[2].charCodeAt(0) - 65, dr: 0, dc: 1 };
  m = /^([A-Z])(\d+)$/.exec(position);
  if (m) return { r: Number(m[2]) - 1, c: m[1].charCodeAt(0) - 65, dr: 1, dc: 0 };
  return null;
}

/**
 * The tiles a placement's notation puts down, as the API writes them ([{square, letter,
 * blank}]): letters in parentheses, a ".", or (given the board) a square already covered are
 * the board's. Empty for anything else (an exchange, a pass, a CAMBIO).
 */
export function notationTiles(notation, board = null) {
  const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(String(notation));
  const at = m && start(m[1].toUpperCase());
  if (!at) return [];
  const out = [];
  let { r, c } = at;
  let onBoard = false;
  for (const tok of tokens(m[2])) {
    if (tok === "(") { onBoard = true; continue; }
    if (tok === ")") { onBoard = false; continue; }
    const covered = onBoard || tok === "." || Boolean(board && board[r] && board[r][c]);
    if (!covered) out.push({ square: squareName(r, c), letter: tok.toUpperCase(), blank: isLower(tok) });
    r += at.dr;
    c += at.dc;
  }
  return out;
}
