// Personal options: language, sound, tile colours, board size on screen, the colour theme, the
// table chat. Kept in this browser
// (localStorage) for everyone; for a logged-in player account.js also stores them with the
// account (PUT /api/me/prefs) and brings the account's values in at login, so they follow the
// player to any browser. This module itself sends nothing to the server.

const KEY = "tablero.prefs";
export const LANGUAGES = ["es", "ro", "en"];
export const TILE_THEMES = ["value", "classic", "contrast"];
export const BOARD_SIZES = ["fit", "small", "medium", "large"];
/** The colour theme: "auto" follows the system (prefers-color-scheme), the others force it. */
export const THEMES = ["auto", "light", "dark"];
/** The board's square labels: "game", in the rule book's language (DL, TP in a Spanish game
 *  whatever the page's language); "interface", in the page's. */
export const SQUARE_LABELS = ["game", "interface"];
/** The options an account stores (PUT /api/me/prefs takes these keys). */
export const PREF_KEYS = ["lang", "sound", "tiles", "boardSize", "theme", "chat", "squareLabels"];

/** The language the browser prefers, if it is one we have; English otherwise. */
export function browserLanguage() {
  const wanted = navigator.languages && navigator.languages.length
    ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

function defaults() {
  return { lang: browserLanguage(), sound: true, tiles: "value", boardSize: "fit", theme: "auto", chat: true, squareLabels: "game" };
}

function sanitize(p) {
  const d = defaults();
  return {
    lang: LANGUAGES.includes(p.lang) ? p.lang : d.lang,
    sound: typeof p.sound === "boolean" ? p.sound : d.sound,
    tiles: TILE_THEMES.includes(p.tiles) ? p.tiles : d.tiles,
    boardSize: BOARD_SIZES.includes(p.boardSize) ? p.boardSize : d.boardSize,
    theme: THEMES.includes(p.theme) ? p.theme : d.theme,
    chat: typeof p.chat === "boolean" ? p.chat : d.chat, // off: the table chat is hidden for me
    squareLabels: SQUARE_LABELS.includes(p.squareLabels) ? p.squareLabels : d.squareLabels,
  };
}

export function loadPrefs() {
  try {
    const raw = localStorage.getItem(KEY);
    return sanitize(raw ? JSON.parse(raw) : {});
  } catch {
    return defaults();
  }
}

const listeners = new Set();
let current = null;

export function prefs() {
  if (!current) current = loadPrefs();
  return current;
}

function store() {
  try { localStorage.setItem(KEY, JSON.stringify(current)); } catch { /* private mode */ }
}

/** Change one option (the person chose it): listeners hear (prefs, name, "user"). */
export function setPref(name, value) {
  current = sanitize({ ...prefs(), [name]: value });
  store();
  applyPrefs();
  for (const fn of listeners) fn(current, name, "user");
}

/**
 * Take the options an account keeps (unknown keys and values are ignored; keys it lacks keep
 * this browser's value). Returns the names that changed; listeners hear each with "account".
 */
export function adoptPrefs(values) {
  const before = prefs();
  const known = Object.fromEntries(Object.entries(values || {}).filter(([k]) => PREF_KEYS.includes(k)));
  current = sanitize({ ...before, ...known });
  const changed = PREF_KEYS.filter((k) => current[k] !== before[k]);
  if (!changed.length) return changed;
  store();
  applyPrefs();
  for (const name of changed) for (const fn of listeners) fn(current, name, "account");
  return changed;
}

/** Listen to option changes: fn(prefs, name, source), source "user" or "account". */
export function onPrefsChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

const systemDark = window.matchMedia("(prefers-color-scheme: dark)");
// "As the system": follow it when it changes too (a phone going dark at sunset).
systemDark.addEventListener("change", () => applyPrefs());

/** The colours in use: the chosen theme, or the system's when the choice is "auto". */
export function colourScheme(theme = prefs().theme) {
  if (theme === "auto") return systemDark.matches ? "dark" : "light";
  return theme;
}

/** Reflect the visual options on <html> so the stylesheet can follow them. */
export function applyPrefs() {
  const p = prefs();
  const root = document.documentElement;
  root.dataset.tiles = p.tiles;
  root.dataset.boardSize = p.boardSize;
  root.dataset.theme = p.theme;
  root.dataset.scheme = colourScheme(p.theme); // app.css's dark colours go with data-scheme="dark"
  root.dataset.chat = p.chat ? "on" : "off";
  root.lang = p.lang;
}

// -- seat tokens and the last nickname (also this browser only) ----------------------------

const tokenKey = (tableId) => `tablero.seat.${tableId}`;

/** {token, seat} for a table this browser sat at, or null. */
export function seatFor(tableId) {
  try {
    const raw = localStorage.getItem(tokenKey(tableId));
    const v = raw ? JSON.parse(raw) : null;
    return v && typeof v.token === "string" ? v : null;
  } catch {
    return null;
  }
}

export function saveSeat(tableId, seat, token) {
  localStorage.setItem(tokenKey(tableId), JSON.stringify({ seat, token }));
}

/**
 * A rematch: a guest's token carries over to the new table, where the player sits one seat on
 * (who sat at seat i sits at i + 1, the last at 0). Copies this browser's token, if any.
 */
export function carrySeat(oldTableId, newTableId, seatCount) {
  const old = seatFor(oldTableId);
  if (!old || seatFor(newTableId)) return;
  try {
    saveSeat(newTableId, (old.seat + 1) % seatCount, old.token);
  } catch { /* private mode: the new table opens as a spectator's */ }
}

export function forgetSeat(tableId) {
  localStorage.removeItem(tokenKey(tableId));
}

const duplicateKey = (roomId) => `tablero.duplicate.${roomId}`;

/** {token, name} of a duplicate room this browser joined as a guest, or null. */
export function duplicatePlayer(roomId) {
  try {
    const raw = localStorage.getItem(duplicateKey(roomId));
    const v = raw ? JSON.parse(raw) : null;
    return v && typeof v.token === "string" ? v : null;
  } catch {
    return null;
  }
}

export function saveDuplicatePlayer(roomId, token, name) {
  try {
    localStorage.setItem(duplicateKey(roomId), JSON.stringify({ token, name }));
  } catch { /* private mode: this page still holds the token until it is closed */ }
}

export function forgetDuplicatePlayer(roomId) {
  localStorage.removeItem(duplicateKey(roomId));
}

export function lastNickname() {
  return localStorage.getItem("tablero.nickname") || "";
}

export function saveNickname(name) {
  localStorage.setItem("tablero.nickname", name);
}
