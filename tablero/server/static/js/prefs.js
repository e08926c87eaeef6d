// Personal options, kept in this browser only (localStorage): language, sound, tile colours,
// board size on screen. Nothing here is sent to the server.

const KEY = "tablero.prefs";
export const LANGUAGES = ["es", "ro", "en"];
export const TILE_THEMES = ["value", "classic", "contrast"];
export const BOARD_SIZES = ["fit", "small", "medium", "large"];

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
  return { lang: browserLanguage(), sound: true, tiles: "value", boardSize: "fit" };
}

function sanitize(p) {
  const d = defaults();
  return {
    lang: LANGUAGES.includes(p.lang) ? p.lang : d.lang,
    sound: typeof p.sound === "boolean" ? p.sound : d.sound,
    tiles: TILE_THEMES.includes(p.tiles) ? p.tiles : d.tiles,
    boardSize: BOARD_SIZES.includes(p.boardSize) ? p.boardSize : d.boardSize,
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

export function setPref(name, value) {
  current = sanitize({ ...prefs(), [name]: value });
  try { localStorage.setItem(KEY, JSON.stringify(current)); } catch { /* private mode */ }
  applyPrefs();
  for (const fn of listeners) fn(current, name);
}

export function onPrefsChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Reflect the visual options on <html> so the stylesheet can follow them. */
export function applyPrefs() {
  const p = prefs();
  const root = document.documentElement;
  root.dataset.tiles = p.tiles;
  root.dataset.boardSize = p.boardSize;
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

export function forgetSeat(tableId) {
  localStorage.removeItem(tokenKey(tableId));
}

export function lastNickname() {
  return localStorage.getItem("tablero.nickname") || "";
}

export function saveNickname(name) {
  localStorage.setItem("tablero.nickname", name);
}
