// "About this game" at the table: the kinds of square this board has, each with a swatch in its
// colour, its label and its name (in the language the board's labels use: the rule book's, or
// the page's when Options say so), and the game's description (in the page's language). A
// <details>, open unless the screen is a phone's or the player folded it; nothing at all when
// there is nothing to say.

import { api } from "./api.js";
import { append, h } from "./dom.js";
import { currentLanguage, formatNumber, plural, t, tIn } from "./i18n.js";
import { gameDescription, labelLanguage, squareClass, squareLabel, squareWords } from "./variant.js";

// The reading order of the legend: letter squares, word squares, then the rest.
const ORDER = ["l2", "l3", "w2", "w3", "w4", "plus", "minus", "ex", "other"];

// A name longer than this takes the legend's whole width rather than wrapping in a narrow cell.
const LONG_NAME = 24;

/** The kinds of square on the board, each once (two codes that read the same are one), in the
 *  legend's order: [{kind, cls, label, name}], label and name in `lang`. */
export function boardKinds(v, lang = labelLanguage(v)) {
  const byCode = new Map();
  for (const row of v.squares || []) {
    for (const code of row || []) {
      if (code && !byCode.has(code)) byCode.set(code, { code, ...(v.kinds[code] || {}) });
    }
  }
  const seen = new Map();
  for (const kind of byCode.values()) {
    const entry = { kind, cls: squareClass(kind), label: squareLabel(kind, kind.code, lang), name: squareWords(kind, lang) };
    const key = `${entry.cls}|${entry.label}|${entry.name}`;
    if (!seen.has(key)) seen.set(key, entry);
  }
  const strength = (k) => (k.kind === "word_add" ? k.amount || 0 : k.factor || 0);
  return [...seen.values()].sort((a, b) =>
    ORDER.indexOf(a.cls) - ORDER.indexOf(b.cls) || strength(b.kind) - strength(a.kind)
    || String(a.kind.code).localeCompare(String(b.kind.code)));
}

function legendItem(cls, label, name, dataKind) {
  return h("li", { class: `legend-item${name.length > LONG_NAME ? " long" : ""}`, dataset: { kind: dataKind } },
    h("span", { class: `legend-swatch ${cls}`, "aria-hidden": "true", text: label }),
    h("span", { class: "legend-name", text: name }));
}

/** The square legend: a list of the board's kinds (and its start squares, with their ★), or
 *  null for a board without either. */
export function squareLegend(v) {
  const lang = labelLanguage(v);
  const items = boardKinds(v, lang).map((e) => legendItem(e.cls, e.label, e.name, e.cls));
  if (v.starts && v.starts.size) {
    // The swatch as the board draws a start square: yellow when plain, else a star on a square.
    const plain = [...v.starts].every((rc) => !v.kindAt(...rc.split(",").map(Number)));
    items.push(legendItem(`start${plain ? " plain" : ""}`, "\u2605", tIn(lang, "square.start"), "start"));
  }
  if (!items.length) return null;
  return h("ul", {
    class: "square-legend",
    "aria-label": t("about.squares"),
    // The names are read in their own language when it is not the page's.
    lang: lang !== currentLanguage() ? lang : null,
  }, items);
}

// Folded or unfolded by the player, in this browser: kept for the next tables.
const FOLD_KEY = "tablero.about";

function savedFold() {
  try { return localStorage.getItem(FOLD_KEY); } catch { return null; }
}

/** Whether a table's dictionary is one to name: a shipped or installed dictionary's name (not
 *  "none", nor an uploaded list's id, which `wordListLine` names by its own name). */
export function namedLexicon(name) {
  return typeof name === "string" && name !== "" && name !== "none" && !name.startsWith("wl-");
}

/** The club's words a table plays by (the table view's `words`: {lexicon, added, removed}),
 *  or null: "Dictionary: es, with the club's words: +2, −1" and the two lists (people's text:
 *  set as text, never as markup). */
export function clubWords(words, wordList = null) {
  if (!words || (!(words.added || []).length && !(words.removed || []).length)) return null;
  const added = words.added || [];
  const removed = words.removed || [];
  // An uploaded list is said by its name, and its words are in its language (not "wl-…").
  const lexicon = wordList ? wordList.name : words.lexicon || "";
  const lang = wordList ? wordList.language : words.lexicon;
  const list = (cls, label, items) => (items.length
    ? h("div", { class: `club-word-list ${cls}` }, h("span", { class: "club-word-label", text: `${label}: ` }),
      h("span", { class: "club-word-items", lang: lang || null, text: items.join(", ") }))
    : null);
  return h("div", { class: "about-words" },
    h("p", { class: "about-dictionary", text: t("about.dictionary_words",
      { lexicon, added: added.length, removed: removed.length }) }),
    list("added", t("about.words_added"), added),
    list("removed", t("about.words_removed"), removed));
}

/** The word list a game's rules play with when it is an upload (`lexicon = "wl-…"`): its
 *  name and size from the server, or null (a shipped dictionary, or the server cannot say). */
export async function uploadedWordList(data) {
  const id = data && typeof data.lexicon === "string" ? data.lexicon : "";
  if (!/^wl-[0-9a-f]{16}$/u.test(id)) return null;
  try {
    return await api.wordList(id);
  } catch {
    return null;
  }
}

/** The word list uploaded with the rules (`lexicon = "wl-…"`), as GET /api/wordlists/{id}
 *  describes it ({name, words, language}), or null: "Dictionary: “club”, a word list uploaded
 *  with the rules (1,234 words)". The name is a person's: set as text. */
export function wordListLine(wordList) {
  if (!wordList) return null;
  return h("div", { class: "about-words about-word-list" },
    h("p", { class: "about-dictionary", text: plural("about.word_list", Number(wordList.words) || 0,
      { n: formatNumber(wordList.words), name: wordList.name || "" }) }));
}

/** The "About this game" panel, or null when the game has neither squares nor a description
 *  nor a dictionary of its own to name. `open`: whether it starts unfolded, unless the player
 *  folded or unfolded it before; `words`: the table's club words (`clubWords`); `wordList`:
 *  the uploaded word list the rules play with (`wordListLine`). */
export function aboutPanel(v, { open = true, words = null, wordList = null } = {}) {
  const legend = squareLegend(v);
  const description = gameDescription(v.data);
  const ownList = wordListLine(wordList);
  const club = clubWords(words, wordList);
  if (!legend && !description && !club && !ownList) return null;
  const saved = savedFold();
  const details = h("details", { class: "panel about-panel", open: saved ? saved === "open" : open });
  // A click on the summary (a key press on it too) is the player's choice; the toggle event is
  // not, as the page's own `open` fires it as well.
  const remember = () => {
    try { localStorage.setItem(FOLD_KEY, details.open ? "closed" : "open"); } catch { /* private mode */ }
  };
  return append(details,
    [h("summary", { onclick: remember }, h("h2", { id: "about-h", text: t("about.title") })),
    legend,
    description ? h("p", { class: "help about-description", text: description }) : null,
    ownList, club]);
}
