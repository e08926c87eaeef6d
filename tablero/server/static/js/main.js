// The single-page app: a header with the personal options and the account, and one page at a
// time — the lobby at "/" (with the player's own games at "/#my-games"), a table at "/t/{id}",
// a finished game's replay at "/t/{id}/replay", a player's profile at "/p/{username}", the
// analysis board at "/analysis" (?cgp=…&variant=… opens a position), the tournaments at
// "/tournaments" and one at "/tournaments/{id}" (a round's pairings at ".../rounds/{n}"), the
// puzzles at "/puzzles" (?variant=…, ?id=…), the duplicate rooms at "/duplicate" and one at
// "/d/{id}".
// Links marked data-link change page without reloading.

import { loadAccount, onAccountChange } from "./account.js";
import { accountControls } from "./accountui.js";
import { AnalysisBoardPage } from "./analysisboard.js";
import { h, replace } from "./dom.js";
import { DuplicateRoomPage, DuplicateRoomsPage } from "./duplicate.js";
import { setLanguage, t, translatePage } from "./i18n.js";
import { LobbyPage } from "./lobby.js";
import { ProfilePage } from "./profile.js";
import { PuzzlesPage } from "./puzzles.js";
import { ReplayPage } from "./replay.js";
import {
  applyPrefs, BOARD_SIZES, LANGUAGES, onPrefsChange, prefs, setPref, SQUARE_LABELS, THEMES, TILE_THEMES,
} from "./prefs.js";
import { TablePage } from "./table.js";
import { TournamentPage, TournamentsPage } from "./tournaments.js";

const main = document.getElementById("app");
let page = null;

function route(path) {
  const decode = (x) => { try { return decodeURIComponent(x); } catch { return x; } };
  let m = /^\/t\/([^/]+)\/replay\/?$/.exec(path);
  if (m) return { name: "replay", id: decode(m[1]) };
  m = /^\/t\/([^/]+)\/?$/.exec(path);
  if (m) return { name: "table", id: decode(m[1]) };
  m = /^\/p\/([^/]+)\/?$/.exec(path);
  if (m) return { name: "player", name_: decode(m[1]) };
  if (/^\/analysis\/?$/.test(path)) return { name: "analysis" };
  if (/^\/tournaments\/?$/.test(path)) return { name: "tournaments" };
  if (/^\/puzzles\/?$/.test(path)) return { name: "puzzles" };
  m = /^\/tournaments\/([^/]+)(?:\/rounds\/(\d+))?\/?$/.exec(path);
  if (m) return { name: "tournament", id: decode(m[1]), round: m[2] ? Number(m[2]) : null };
  if (/^\/duplicate\/?$/.test(path)) return { name: "duplicates" };
  m = /^\/d\/([^/]+)\/?$/.exec(path);
  if (m) return { name: "duplicate", id: decode(m[1]) };
  return { name: "lobby" };
}

async function show(path, hash = "") {
  if (page) page.unmount();
  const r = route(path);
  const onTitle = (title) => { document.title = `${title} \u2014 tablero`; };
  if (r.name === "table") {
    page = new TablePage(main, r.id, { onTitle, navigate });
  } else if (r.name === "replay") {
    page = new ReplayPage(main, r.id, { onTitle, navigate });
  } else if (r.name === "player") {
    page = new ProfilePage(main, r.name_, { onTitle });
  } else if (r.name === "analysis") {
    page = new AnalysisBoardPage(main, { onTitle, navigate });
  } else if (r.name === "puzzles") {
    page = new PuzzlesPage(main, { onTitle, navigate });
  } else if (r.name === "tournaments") {
    page = new TournamentsPage(main, { onTitle, navigate });
  } else if (r.name === "tournament") {
    page = new TournamentPage(main, r.id, r.round, { onTitle, navigate });
  } else if (r.name === "duplicates") {
    page = new DuplicateRoomsPage(main, { onTitle, navigate });
  } else if (r.name === "duplicate") {
    page = new DuplicateRoomPage(main, r.id, { onTitle, navigate });
  } else {
    document.title = `${t("lobby.tables")} \u2014 tablero`;
    page = new LobbyPage(main, { navigate });
  }
  await page.mount();
  const target = hash && hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  if (target) {
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  }
}

/** Go to a page of the app: `path` may carry a query ("/analysis?cgp=…"), which the page reads. */
export function navigate(path, hash = "") {
  if (path !== location.pathname + location.search || hash !== location.hash) history.pushState({}, "", path + hash);
  show(location.pathname, hash);
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  navigate(url.pathname + url.search, url.hash);
});
window.addEventListener("popstate", () => show(location.pathname, location.hash));

// -- personal options -------------------------------------------------------------------------

function optionsDialog() {
  const p = prefs();
  const select = (id, values, current, label, onchange) => {
    const el = h("select", { id, onchange: () => onchange(el.value) },
      values.map((v) => h("option", { value: v, text: label(v) })));
    el.value = current;
    return el;
  };
  const lang = select("opt-lang", LANGUAGES, p.lang, (v) => t(`lang.${v}`), async (v) => {
    await setLanguage(v);
    setPref("lang", v);
    dialog.close(); // open it again, in the new language
    optionsDialog();
    document.getElementById("opt-lang").focus();
  });
  const tiles = select("opt-tiles", TILE_THEMES, p.tiles, (v) => t(`options.tiles_${v}`), (v) => setPref("tiles", v));
  const theme = select("opt-theme", THEMES, p.theme, (v) => t(`options.theme_${v}`), (v) => setPref("theme", v));
  const labels = select("opt-labels", SQUARE_LABELS, p.squareLabels, (v) => t(`options.square_labels_${v}`),
    (v) => setPref("squareLabels", v));
  const size = select("opt-size", BOARD_SIZES, p.boardSize, (v) => t(`options.size_${v}`), (v) => setPref("boardSize", v));
  const sound = h("input", { id: "opt-sound", type: "checkbox", checked: p.sound,
    onchange: () => setPref("sound", sound.checked) });
  const chat = h("input", { id: "opt-chat", type: "checkbox", checked: p.chat, "aria-describedby": "opt-chat-help",
    onchange: () => setPref("chat", chat.checked) });
  const close = h("button", { type: "button", class: "primary", text: t("action.close"), onclick: () => dialog.close() });
  const dialog = h("dialog", { class: "dialog options", "aria-labelledby": "opt-h" },
    h("h2", { id: "opt-h", text: t("options.title") }),
    h("div", { class: "field" }, h("label", { for: "opt-lang", text: t("options.language") }), lang),
    h("div", { class: "field check" }, sound, h("label", { for: "opt-sound", text: t("options.sound") })),
    h("div", { class: "field check" }, chat, h("label", { for: "opt-chat", text: t("options.chat") }),
      h("p", { class: "help", id: "opt-chat-help", text: t("options.chat_help") })),
    h("div", { class: "field" }, h("label", { for: "opt-theme", text: t("options.theme") }), theme),
    h("div", { class: "field" }, h("label", { for: "opt-tiles", text: t("options.tiles") }), tiles),
    h("div", { class: "field" }, h("label", { for: "opt-size", text: t("options.board_size") }), size),
    h("div", { class: "field" }, h("label", { for: "opt-labels", text: t("options.square_labels") }), labels),
    h("div", { class: "dialog-buttons" }, close));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

function header() {
  const bar = document.getElementById("topbar");
  replace(bar,
    h("a", { href: "/", "data-link": "", class: "brand", "aria-label": t("nav.lobby") },
      h("span", { class: "brand-tile", "aria-hidden": "true", text: "T" }), h("span", { text: "tablero" })),
    h("nav", { "aria-label": t("nav.main") },
      h("a", { href: "/", "data-link": "", class: "nav-lobby", text: t("nav.lobby") }),
      h("a", { href: "/analysis", "data-link": "", class: "nav-analysis", text: t("nav.analysis") }),
      h("a", { href: "/duplicate", "data-link": "", class: "nav-duplicate", text: t("nav.duplicate") }),
      h("a", { href: "/tournaments", "data-link": "", class: "nav-tournaments", text: t("nav.tournaments") }),
      h("a", { href: "/puzzles", "data-link": "", class: "nav-puzzles", text: t("nav.puzzles") }),
      h("button", { type: "button", class: "tool", id: "options-button", text: t("options.button"), onclick: optionsDialog }),
      accountControls()));
}

// A login, a sign-up or a logout changes the header and what the page offers (the lobby's own
// games, sitting without a nickname, the seat the account holds at a table): draw both again,
// in the account's language.
onAccountChange(async () => {
  await setLanguage(prefs().lang);
  header();
  translatePage();
  await show(location.pathname);
  const focus = document.getElementById("account-button") || document.getElementById("login-button");
  if (focus && !document.querySelector("dialog[open]")) focus.focus();
});

onPrefsChange((_, name, source) => {
  if (name === "squareLabels" && source === "user") show(location.pathname); // the board again
  if (name === "lang" && source === "user") {
    header();
    translatePage();
    show(location.pathname); // redraw the page in the new language (the state is refetched)
  }
});

async function start() {
  applyPrefs();
  await loadAccount(); // a logged-in player's options come with the account
  await setLanguage(prefs().lang);
  header();
  translatePage();
  await show(location.pathname, location.hash);
}

start();
