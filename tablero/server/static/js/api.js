// The HTTP side of the web API (docs/web-api.md). Every call returns parsed JSON or throws an
// ApiError carrying the server's stable error code and its (English) message.

import { currentLanguage, has, loadLanguage, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, { field = null, retryAfter = null, params = null } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;           // the request field at fault, when the server names one
    this.retryAfter = retryAfter; // seconds to wait (429)
    this.params = params;         // what an illegal move's message names (docs/web-api.md)
  }
}

// The session of a logged-in player is an HttpOnly cookie the server sets: fetch sends it with
// every same-origin request by itself, and the page never sees it.
async function request(method, path, { body, token, text } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload;
  // Bodies are JSON, but for the raw uploads the server takes as text (a word list): `text`,
  // a string or a Blob (a File's bytes as they are, so the server judges their encoding).
  if (text !== undefined) {
    headers["Content-Type"] = "text/plain; charset=utf-8";
    payload = text;
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload });
  } catch (e) {
    throw new ApiError(0, "network", String(e && e.message ? e.message : e));
  }
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json().catch(() => null) : await response.text();
  if (!response.ok) {
    const err = data && data.error ? data.error : {};
    const retry = err.retry_after ?? Number(response.headers.get("Retry-After"));
    throw new ApiError(response.status, err.code || `http_${response.status}`,
      err.message || (typeof data === "string" && data) || response.statusText,
      { field: err.field || null, retryAfter: Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null,
        params: err.params || null });
  }
  return data;
}

export const api = {
  variants: () => request("GET", "/api/variants"),
  // With the game's own language loaded: its square labels are in it (variant.js).
  variant: async (name) => {
    const data = await request("GET", `/api/variants/${encodeURIComponent(name)}`);
    await loadLanguage(data && data.language);
    return data;
  },
  uploadVariant: (toml) => request("POST", "/api/variants/upload", { body: { toml } }),
  // A word list (one word per line) for a rule file's `lexicon = "wl-…"`: checked and compiled
  // before the answer ({id, name, language, words}); `list` a File or a string.
  uploadWordList: (list, language, name) => {
    const q = new URLSearchParams({ language, name });
    return request("POST", `/api/wordlists?${q}`, { text: list });
  },
  wordList: (id) => request("GET", `/api/wordlists/${encodeURIComponent(id)}`),
  // The dictionaries a table may play with (shipped and installed), for a language.
  lexicons: (language) => request("GET", `/api/lexicons?${new URLSearchParams({ language })}`),
  tables: () => request("GET", "/api/tables"),
  createTable: (spec) => request("POST", "/api/tables", { body: spec }),
  leave: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { token }),
  table: (id, token) => request("GET", `/api/tables/${encodeURIComponent(id)}`, { token }),
  // Logged in, `nickname` is left out: the server seats the account under its username.
  sit: (id, seat, nickname) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/sit`,
      { body: nickname === undefined || nickname === null ? { seat } : { seat, nickname } }),
  preview: (id, token, tiles) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/preview`, { token, body: { tiles } }),
  previewMove: (id, token, move) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/preview`, { token, body: { move } }),
  move: (id, token, move, seq) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/move`, { token, body: { move, seq } }),
  gcgUrl: (id) => `/api/tables/${encodeURIComponent(id)}/gcg`,
  // accounts
  me: () => request("GET", "/api/me"),
  signUp: (username, password) => request("POST", "/api/accounts", { body: { username, password } }),
  logIn: (username, password) => request("POST", "/api/login", { body: { username, password } }),
  logOut: () => request("POST", "/api/logout", { body: {} }),
  changePassword: (password, newPassword) =>
    request("POST", "/api/me/password", { body: { password, new_password: newPassword } }),
  savePrefs: (prefs) => request("PUT", "/api/me/prefs", { body: prefs }),
  myGames: () => request("GET", "/api/me/games"),
  // seeks (logged in: offer, accept, withdraw; anyone may read them)
  seeks: () => request("GET", "/api/seeks"),
  seek: (id) => request("GET", `/api/seeks/${encodeURIComponent(id)}`),
  offerSeek: (spec) => request("POST", "/api/seeks", { body: spec }),
  acceptSeek: (id) => request("POST", `/api/seeks/${encodeURIComponent(id)}/accept`, { body: {} }),
  withdrawSeek: (id) => request("DELETE", `/api/seeks/${encodeURIComponent(id)}`),
  // the end of a game, and the archive
  rematch: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token, body: {} }),
  replay: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay`),
  cgp: (id, ply) => request("GET", `/api/tables/${encodeURIComponent(id)}/cgp?ply=${encodeURIComponent(ply)}`),
  // the engine's verdict on a finished game (runs once per game and method, in the background)
  analysis: (id, method) =>
    request("GET", `/api/tables/${encodeURIComponent(id)}/analysis?method=${encodeURIComponent(method)}`),
  analyse: (id, method) => request("POST", `/api/tables/${encodeURIComponent(id)}/analysis`, { body: { method } }),
  // the best moves for a seat, at a table with hints
  hint: (id, token, count = 3) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/hint`, { token, body: { count } }),
  // the analysis board: every move of a position, and one round of simulation
  positionMoves: (cgp, variant = null) =>
    request("POST", "/api/positions/moves", { body: variant ? { cgp, variant } : { cgp } }),
  simulate: (cgp, variant, moves, iterations, seed) =>
    request("POST", "/api/positions/simulate",
      { body: { cgp, ...(variant ? { variant } : {}), moves, iterations, seed } }),
  // puzzles (anyone solves: an account, or a guest for its browser session)
  puzzleGames: () => request("GET", "/api/puzzles"),
  nextPuzzle: (variant, skip = null) => {
    const q = new URLSearchParams({ variant });
    if (skip) q.set("skip", skip);
    return request("GET", `/api/puzzles/next?${q}`);
  },
  puzzle: (id) => request("GET", `/api/puzzles/${encodeURIComponent(id)}`),
  puzzleAttempt: (id, body) => request("POST", `/api/puzzles/${encodeURIComponent(id)}/attempt`, { body }),
  puzzleHistory: (variant = null) =>
    request("GET", `/api/puzzles/history${variant ? `?variant=${encodeURIComponent(variant)}` : ""}`),
  // tournaments (anyone reads; an account registers; its director runs it)
  tournaments: () => request("GET", "/api/tournaments"),
  tournament: (id) => request("GET", `/api/tournaments/${encodeURIComponent(id)}`),
  createTournament: (spec) => request("POST", "/api/tournaments", { body: spec }),
  registerTournament: (id) => request("POST", `/api/tournaments/${encodeURIComponent(id)}/register`, { body: {} }),
  withdrawTournament: (id) => request("DELETE", `/api/tournaments/${encodeURIComponent(id)}/register`),
  tournamentStandings: (id) => request("GET", `/api/tournaments/${encodeURIComponent(id)}/standings`),
  tournamentRounds: (id) => request("GET", `/api/tournaments/${encodeURIComponent(id)}/rounds`),
  tournamentLog: (id) => request("GET", `/api/tournaments/${encodeURIComponent(id)}/log`),
  tournamentCsvUrl: (id) => `/api/tournaments/${encodeURIComponent(id)}/results.csv`,
  startRound: (id) => request("POST", `/api/tournaments/${encodeURIComponent(id)}/rounds`, { body: {} }),
  pauseTournament: (id) => request("POST", `/api/tournaments/${encodeURIComponent(id)}/pause`, { body: {} }),
  resumeTournament: (id) => request("POST", `/api/tournaments/${encodeURIComponent(id)}/resume`, { body: {} }),
  fixResult: (id, round, board, scores, reason) =>
    request("POST", `/api/tournaments/${encodeURIComponent(id)}/results`, { body: { round, board, scores, reason } }),
  fixScore: (id, round, player, score, reason) =>
    request("POST", `/api/tournaments/${encodeURIComponent(id)}/scores`, { body: { round, player, score, reason } }),
  removePlayer: (id, username, reason) =>
    request("POST", `/api/tournaments/${encodeURIComponent(id)}/players/${encodeURIComponent(username)}/remove`,
      { body: { reason } }),
  // duplicate rooms (anyone creates one and joins; a guest acts with its token, an account
  // with its session; the creator starts, opens the next round sooner, stops)
  duplicateRooms: () => request("GET", "/api/duplicate"),
  createDuplicate: (spec) => request("POST", "/api/duplicate", { body: spec }),
  duplicateRoom: (id, token) => request("GET", `/api/duplicate/${encodeURIComponent(id)}`, { token }),
  joinDuplicate: (id, nickname) =>
    request("POST", `/api/duplicate/${encodeURIComponent(id)}/join`, { body: nickname ? { nickname } : {} }),
  duplicateAction: (id, token, action) =>
    request("POST", `/api/duplicate/${encodeURIComponent(id)}/${action}`, { token, body: {} }),
  submitDuplicate: (id, token, round, move) =>
    request("POST", `/api/duplicate/${encodeURIComponent(id)}/submit`, { token, body: { round, move } }),
  previewDuplicate: (id, token, body) =>
    request("POST", `/api/duplicate/${encodeURIComponent(id)}/preview`, { token, body }),
  duplicateRound: (id, n) => request("GET", `/api/duplicate/${encodeURIComponent(id)}/rounds/${encodeURIComponent(n)}`),
  duplicateGcgUrl: (id) => `/api/duplicate/${encodeURIComponent(id)}/gcg`,
  // players and ratings
  player: (name) => request("GET", `/api/players/${encodeURIComponent(name)}`),
  botRatings: () => request("GET", "/api/ratings/bots"),
};

/** Page addresses (the server serves index.html at each). */
export const pages = {
  table: (id) => `/t/${encodeURIComponent(id)}`,
  replay: (id) => `/t/${encodeURIComponent(id)}/replay`,
  player: (name) => `/p/${encodeURIComponent(name)}`,
  tournaments: () => "/tournaments",
  duplicateRooms: () => "/duplicate",
  duplicateRoom: (id) => `/d/${encodeURIComponent(id)}`,
  /** A tournament's page; with a round, the page showing that round's pairings. */
  tournament: (id, round = null) =>
    `/tournaments/${encodeURIComponent(id)}${round ? `/rounds/${encodeURIComponent(round)}` : ""}`,
  /** The puzzles of a game. */
  puzzles: (variant) => `/puzzles?variant=${encodeURIComponent(variant)}`,
  /** The analysis board, opened on a position (CGP) of a game (a built-in name or an upload's id). */
  analysis: (cgp = null, variant = null) => {
    const q = new URLSearchParams();
    if (cgp) q.set("cgp", cgp);
    if (variant) q.set("variant", variant);
    const query = q.toString();
    return query ? `/analysis?${query}` : "/analysis";
  },
};

/**
 * Text for people from an error (ApiError or {code, message}). English shows the server's own
 * message (it names squares and words); Spanish and Romanian show our translation of the
 * stable code where we have one, else the server's English.
 */
export function errorText(err) {
  if (!err) return "";
  const code = err.code || err.rule;
  const message = err.message || err.reason || "";
  if (code && currentLanguage() !== "en") {
    const reason = reasonText(code, err.params);
    if (reason) return reason;
    if (code === "rate_limited" && err.retryAfter) return t("error.rate_limited_wait", { n: err.retryAfter });
  }
  if (code && currentLanguage() !== "en" && has(`error.${code}`)) return t(`error.${code}`);
  if (message) return message;
  return code && has(`error.${code}`) ? t(`error.${code}`) : t("error.unknown");
}

/**
 * An illegal move's reason in the interface language, from its rule and the `params` the
 * server sent ({squares}, {square}, {words}, {tile}…: docs/web-api.md): `reason.<rule>` in the
 * i18n files, or null when there is no template or no params (errorText then says the rule's
 * general sentence, or the server's English words).
 */
export function reasonText(code, params) {
  if (!params || !code) return null;
  let key = `reason.${code}`;
  if (code === "not_on_rack" && params.have) key = "reason.not_on_rack_some";
  if (!has(key)) return null;
  const filled = {};
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      filled[name] = name === "squares" ? value.join(` ${t("reason.or")} `) : value.join(", ");
    } else filled[name] = value;
  }
  if (filled.tile === "?") filled.tile = t("reason.a_blank");
  const text = t(key, filled);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
