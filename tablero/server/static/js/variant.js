// A game's render data (GET /api/variants/{name}) in the shape the board and rack code use.

import { currentLanguage, tIn } from "./i18n.js";
import { prefs } from "./prefs.js";
import { parseSquare } from "./placement.js";

/** A game's title in the interface language: the rule file's `[titles]` for that language,
 *  else its `title` (an uploaded file keeps its own). */
export function gameTitle(v) {
  if (!v) return "";
  return (v.titles && v.titles[currentLanguage()]) || v.title || v.name || "";
}

/** A game's description in the interface language (`[descriptions]`), English else, or "". */
export function gameDescription(v) {
  const d = (v && v.descriptions) || {};
  return d[currentLanguage()] || d.en || "";
}

/** The title of the game `ref` for a list entry: a built-in game's in the interface language
 *  (from /api/variants), else the title the server sent (an uploaded game's own). */
export function titleOf(variants, ref, fallback) {
  const v = (variants || []).find((x) => x.name === ref);
  return v ? gameTitle(v) : fallback || ref;
}

/** The CSS class of a premium square, from what the square does (not from its label). */
export function squareClass(kind) {
  if (!kind) return "plain";
  switch (kind.kind) {
    case "letter": return kind.factor >= 3 ? "l3" : "l2";
    case "word": return kind.factor >= 4 ? "w4" : kind.factor === 3 ? "w3" : "w2";
    case "word_end": return "w4";
    case "word_add": return (kind.amount || 0) >= 0 ? "plus" : "minus";
    case "shuffle_next_rack": return "ex";
    default: return "other";
  }
}

/** The language a board's squares are labelled in: the rule book's (a Spanish game says DL,
 *  TP whatever the interface), or the interface's when the player chose so in Options. */
export function labelLanguage(variant) {
  return prefs().squareLabels === "interface" || !variant ? currentLanguage() : variant.language || currentLanguage();
}

/** The i18n key of a square kind's short label and of its legend (`square.*`), or null. */
function kindKey(kind) {
  switch (kind && kind.kind) {
    case "letter": return kind.factor === 2 ? "l2" : kind.factor === 3 ? "l3" : "ln";
    case "word": return kind.factor === 2 ? "w2" : kind.factor === 3 ? "w3" : "wn";
    case "word_end": return "w_end";
    case "shuffle_next_rack": return "ex";
    default: return null;
  }
}

/** Labels as players read them, in `lang` (DL, TP in Spanish; LD, CT in Romanian; 2L, 3W in
 *  English; EX; +10 and a minus sign instead of a hyphen, −5). A kind with no label of its own
 *  in the languages (an uploaded file's) keeps the file's. */
export function squareLabel(kind, code, lang = "en") {
  const key = kindKey(kind);
  if (key) return tIn(lang, `label.${key}`, { n: kind.factor });
  if (kind && kind.kind === "word_add") {
    const n = kind.amount || 0;
    return (n >= 0 ? "+" : "\u2212") + Math.abs(n);
  }
  const label = (kind && kind.label) || code;
  return String(label).replace(/^-/, "\u2212");
}

/** What a square does, said in words in `lang`: "double word", "doble letra", "cuvânt triplu". */
export function squareWords(kind, lang) {
  if (!kind) return "";
  const key = kindKey(kind);
  if (key) return tIn(lang, `square.${key}`, { n: kind.factor });
  if (kind.kind === "word_add") {
    return tIn(lang, "square.add", { n: (kind.amount > 0 ? "+" : "\u2212") + Math.abs(kind.amount) });
  }
  return kind.description || kind.code;
}

export class VariantView {
  constructor(data) {
    this.data = data;
    this.name = data.id || data.name;
    this.title = gameTitle(data);
    this.description = gameDescription(data);
    this.language = data.language;
    this.rows = data.rows;
    this.columns = data.columns;
    this.squares = data.squares;
    this.kinds = data.square_kinds || {};
    this.starts = new Set(
      (data.start_squares || []).map((s) => parseSquare(s)).filter(Boolean).map(([r, c]) => `${r},${c}`),
    );
    this.values = {};
    for (const t of data.tiles || []) this.values[t.letter] = t.value;
    this.letters = data.letters || Object.keys(this.values).filter((l) => l !== "?");
    this.digraphs = this.letters.filter((l) => l.length > 1);
    // Characters typed to spell a digraph tile (the H of CH) even where they are no tile here.
    this.typable = [...new Set([...this.letters, ...this.digraphs.join("")])];
    this.rackSize = data.rack_size || 7;
    this.hasBlanks = Boolean(data.has_blanks);
    this.hasCambio = Boolean(data.has_cambio);
    this.hasChallenge = Boolean(data.has_challenge);
    this.exchange = data.exchange || { allowed: true };
  }

  kindAt(r, c) {
    const code = this.squares[r] && this.squares[r][c];
    return code ? { code, ...(this.kinds[code] || {}) } : null;
  }

  isStart(r, c) {
    return this.starts.has(`${r},${c}`);
  }

  value(letter) {
    return this.values[letter] ?? 0;
  }
}

/** The colour band of a tile's value, for the "by value" tile colours. */
export function valueBand(value) {
  if (value <= 0) return "v0";
  if (value === 1) return "v1";
  if (value <= 3) return "v2";
  if (value <= 5) return "v4";
  if (value <= 8) return "v8";
  return "v10";
}
