// Duplicate rooms (docs/web-api.md, "Duplicate rooms"; docs/competition.md): the list and the
// form that creates one at /duplicate, and a room at /d/{id}.
//
// A room's page shows what the server sends (a `state` on the room's WebSocket after every
// change): before the start, who has joined; while a round is open, the shared board and rack,
// the time left (the server's clock decides: the page counts down from what it was told), and
// the player's own move, composed on the board as at a table (drag, tap or keyboard: the
// placing code is the table page's) or typed in notation; between rounds and at the end, every
// player's move and the top drawn on the board of the round, the ranking (total and % of the
// top), and the engine's best three. Nothing tells a player whether a word is valid before the
// round closes: the preview checks the tiles and the squares and says the score, never the
// dictionary. A guest's token is kept in this browser (localStorage) and sent in a header or
// the socket's `auth` message, never in a URL. Every name goes in as text (dom.js).

import { account } from "./account.js";
import { accountDialog } from "./accountui.js";
import { api, ApiError, errorText, pages } from "./api.js";
import { BoardView, drawRack } from "./board.js";
import { BoardGrid } from "./boardgrid.js";
import { formatClock } from "./clock.js";
import { confirmDialog } from "./dialogs.js";
import { h, replace } from "./dom.js";
import { enableDrag } from "./drag.js";
import { currentLanguage, formatNumber, plural, t } from "./i18n.js";
import { shuffleIcon, undoIcon } from "./icons.js";
import { aboutPanel } from "./legend.js";
import { LiveTable } from "./live.js";
import { playerName, previewVerdict } from "./panels.js";
import { BLANK, parseSquare, Placement } from "./placement.js";
import {
  duplicatePlayer, forgetDuplicatePlayer, lastNickname, saveDuplicatePlayer, saveNickname,
} from "./prefs.js";
import { TablePage } from "./table.js";
import { LexiconPicker } from "./lexicons.js";
import { gameTitle, titleOf, VariantView } from "./variant.js";

const LIST_REFRESH_MS = 5000;
const PREVIEW_DELAY_MS = 200;
const NICKNAME_MAX = 24;
const TITLE_MAX = 60;
const ROUND_CHOICES = [30, 60, 90, 120, 180, 240, 300, 600];
const ROUNDS_CHOICES = [3, 5, 10, 15, 20];
const WARN_AT = [30, 10]; // seconds left said aloud, once each a round

/** "3 min", "90 s": a round's time. */
export function roundTime(seconds) {
  return seconds % 60 === 0 ? t("dup.minutes", { n: seconds / 60 }) : t("dup.seconds", { n: seconds });
}

/** "3 min a round · 10 rounds · solo bonus 10". */
function optionsLine(o) {
  const bits = [t("dup.per_round", { time: roundTime(o.round_seconds) }),
    o.rounds ? plural("dup.rounds_n", o.rounds) : t("dup.to_the_end")];
  if (o.solo_bonus) bits.push(t("dup.solo_bonus_n", { n: o.solo_bonus }));
  return bits.join(" \u00b7 ");
}

/** 85.3 → "85.30 %" ("85,30 %" in Spanish): always two decimals, as the server rounds. */
function percent(p) {
  let text;
  try {
    text = Number(p).toLocaleString(currentLanguage(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  } catch {
    text = Number(p).toFixed(2);
  }
  return `${text}\u00a0%`;
}

function stateBadge(room) {
  if (room.state === "over") return h("span", { class: "badge over", text: t("dup.state_over") });
  if (room.state === "waiting") return h("span", { class: "badge waiting", text: t("dup.state_waiting") });
  return h("span", { class: "badge playing", text: t("dup.state_playing", { n: room.round }) });
}

function field(id, label, control, help = null) {
  return h("div", { class: "field" }, h("label", { for: id, text: label }), control,
    help ? h("p", { class: "help", id: `${id}-help`, text: help }) : null);
}

function say(el, text, kind = "info") {
  el.dataset.kind = kind;
  el.textContent = text;
}

/** A room in a list: its name (or game), how many play, its state, a link. */
export function roomCard(room, variants) {
  const game = titleOf(variants, room.variant, room.variant);
  return h("li", { class: `card duplicate-card state-${room.state}`, dataset: { room: room.id } },
    h("div", { class: "card-head" },
      h("a", { class: "game room-name", href: pages.duplicateRoom(room.id), "data-link": "",
        text: room.title || game }),
      stateBadge(room)),
    h("p", { class: "card-meta", text: [room.title ? game : null, optionsLine(room),
      plural("dup.players_n", room.players)].filter(Boolean).join(" \u00b7 ") }));
}

// -- the list and the form ----------------------------------------------------------------

export class DuplicateRoomsPage {
  constructor(root, { navigate, onTitle }) {
    this.root = root;
    this.navigate = navigate;
    this.onTitle = onTitle || (() => {});
    this.variants = [];
    this.timer = null;
    this.shown = "";
  }

  async mount() {
    this.onTitle(t("dup.title"));
    replace(this.root, h("p", { class: "loading", text: t("common.loading") }));
    try {
      this.variants = await api.variants();
    } catch (e) {
      replace(this.root, h("p", { class: "page-error", text: errorText(e) }));
      return;
    }
    this.list = h("div", { class: "room-list" });
    replace(this.root, h("div", { class: "lobby duplicate-rooms" },
      h("section", { class: "duplicate-list", "aria-labelledby": "dup-rooms-h" },
        h("div", { class: "section-head" }, h("h1", { id: "dup-rooms-h", text: t("dup.title") }),
          h("button", { type: "button", class: "tool", text: t("lobby.refresh"), onclick: () => this.refresh() })),
        h("p", { class: "help", text: t("dup.intro") }),
        this.list),
      h("div", { class: "lobby-aside" }, this.form())));
    await this.refresh();
    this.timer = setInterval(() => this.refresh(), LIST_REFRESH_MS);
  }

  unmount() {
    clearInterval(this.timer);
  }

  async refresh() {
    let rooms;
    try {
      rooms = await api.duplicateRooms();
    } catch (e) {
      replace(this.list, h("p", { class: "message", dataset: { kind: "error" }, text: errorText(e) }));
      return;
    }
    const seen = JSON.stringify(rooms);
    if (seen === this.shown) return;
    this.shown = seen;
    replace(this.list, rooms.length ? h("ul", { class: "cards" }, rooms.map((r) => roomCard(r, this.variants)))
      : h("p", { class: "hint", text: t("dup.none") }));
  }

  form() {
    const variant = h("select", { id: "dup-variant" }, this.variants.map((v) => h("option", { value: v.name, text: gameTitle(v) })));
    if (this.variants.some((v) => v.name === "fise")) variant.value = "fise";
    const lexicons = new LexiconPicker("dup-lexicon");
    const offer = () => {
      const v = this.variants.find((x) => x.name === variant.value);
      if (v) lexicons.offer({ language: v.language, lexicon: v.lexicon });
    };
    variant.addEventListener("change", offer);
    offer();
    const title = h("input", { id: "dup-title", type: "text", maxlength: String(TITLE_MAX), autocomplete: "off" });
    const seconds = h("select", { id: "dup-seconds" },
      ROUND_CHOICES.map((s) => h("option", { value: String(s), text: roundTime(s) })));
    seconds.value = "180";
    const rounds = h("select", { id: "dup-rounds" }, h("option", { value: "", text: t("dup.to_the_end") }),
      ROUNDS_CHOICES.map((n) => h("option", { value: String(n), text: plural("dup.rounds_n", n) })));
    const pause = h("input", { id: "dup-pause", type: "number", min: "3", max: "300", value: "20", inputmode: "numeric",
      "aria-describedby": "dup-pause-help" });
    const solo = h("input", { id: "dup-solo", type: "number", min: "0", max: "100", value: "0", inputmode: "numeric",
      "aria-describedby": "dup-solo-help" });
    const me = account();
    const nickname = me ? null : h("input", { id: "dup-nickname", type: "text", maxlength: String(NICKNAME_MAX),
      autocomplete: "nickname", value: lastNickname(), required: true });
    const message = h("p", { class: "message", role: "status", "aria-live": "polite" });
    const submit = h("button", { type: "submit", class: "primary big", id: "dup-create", text: t("dup.create") });
    const create = async () => {
      const spec = {
        variant: variant.value, title: title.value, round_seconds: Number(seconds.value),
        rounds: rounds.value ? Number(rounds.value) : null, pause_seconds: Number(pause.value),
        solo_bonus: Number(solo.value),
      };
      if (lexicons.value) spec.lexicon = lexicons.value;
      if (nickname) {
        if (!nickname.value.trim()) {
          say(message, t("sit.need_nickname"), "error");
          nickname.focus();
          return;
        }
        spec.nickname = nickname.value.trim();
      }
      submit.disabled = true;
      say(message, t("dup.creating"));
      try {
        const answer = await api.createDuplicate(spec);
        if (answer.token) saveDuplicatePlayer(answer.id, answer.token, answer.name);
        if (spec.nickname) saveNickname(spec.nickname);
        this.navigate(pages.duplicateRoom(answer.id));
      } catch (e) {
        say(message, errorText(e), "error");
        submit.disabled = false;
      }
    };
    return h("section", { class: "panel duplicate-create", "aria-labelledby": "dup-create-h" },
      h("h2", { id: "dup-create-h", text: t("dup.create_title") }),
      h("p", { class: "help", text: t("dup.create_help") }),
      h("form", { class: "create-form", onsubmit: (e) => { e.preventDefault(); create(); } },
        field("dup-variant", t("lobby.game"), variant),
        lexicons.field,
        field("dup-title", t("dup.room_title"), title),
        h("div", { class: "field-row even" }, field("dup-seconds", t("dup.round_time"), seconds),
          field("dup-rounds", t("dup.rounds"), rounds)),
        h("div", { class: "field-row even" }, field("dup-pause", t("dup.pause"), pause, t("dup.pause_help")),
          field("dup-solo", t("dup.solo_bonus"), solo, t("dup.solo_help"))),
        nickname ? field("dup-nickname", t("sit.nickname"), nickname) : h("p", { class: "help",
          text: t("dup.as_account", { name: me.username }) }),
        submit, message));
  }
}

// -- a room -----------------------------------------------------------------------------------

/**
 * The room's page. The tile placing is the table page's own code (its methods, listed below,
 * run on this page's board, rack and placement): a player composes a move the same way in
 * both places.
 */
export class DuplicateRoomPage {
  constructor(root, id, { onTitle, navigate } = {}) {
    this.root = root;
    this.id = id;
    this.onTitle = onTitle || (() => {});
    this.navigate = navigate || ((path) => { location.assign(path); });
    this.me = duplicatePlayer(id); // {token, name} of a guest who joined from this browser
    this.room = null;
    this.table = null;           // {board, last_move_squares}: what the placing code reads
    this.variant = null;
    this.placement = new Placement();
    this.cursor = null;
    this.selected = null;
    this.mode = "normal";        // the placing code's; CAMBIO goes in notation here
    this.lastTyped = null;
    this.pendingPrefix = null;
    this.zoomed = false;
    this.busy = false;
    this.preview = null;
    this.previewFor = "";
    this.previewTimer = null;
    this.previewTicket = 0;
    this.shownRound = null;      // a closed round looked at (from the list of rounds), or null
    this.shownMove = null;       // which move of it is drawn: "top", "best-1", a player's name
    this.warned = new Set();
    this.drawn = {};
    this.live = null;
    this.ticker = null;
    this.receivedAt = performance.now();
    this.onKey = (e) => this.handleKey(e);
  }

  async mount() {
    replace(this.root, h("p", { class: "loading", text: t("common.loading") }));
    let room;
    try {
      room = await this.fetchRoom();
      this.variant = new VariantView(await api.variant(room.variant));
    } catch (e) {
      const missing = e instanceof ApiError && e.status === 404;
      this.onTitle(t("dup.title"));
      replace(this.root, h("div", { class: "page-error" },
        h("h1", { text: missing ? t("dup.no_such") : t("dup.cannot_open") }), h("p", { text: errorText(e) }),
        h("p", {}, h("a", { href: pages.duplicateRooms(), "data-link": "", text: t("dup.title") }))));
      return;
    }
    this.build();
    this.applyRoom(room);
    this.live = new LiveTable(this.id, () => this.auth(), {
      onState: (s) => this.applyRoom(s),
      onError: (err) => this.liveError(err),
      onStatus: (s) => this.showConnection(s),
    }, { path: "/ws/duplicate/", key: "room" });
    this.live.open();
    document.addEventListener("keydown", this.onKey);
    this.ticker = setInterval(() => this.tick(), 250);
  }

  unmount() {
    if (this.live) this.live.close();
    clearInterval(this.ticker);
    clearTimeout(this.previewTimer);
    document.removeEventListener("keydown", this.onKey);
  }

  token() {
    return this.me ? this.me.token : null;
  }

  /** What the socket says who we are with: our token, else the account's session, else nothing. */
  auth() {
    if (this.token()) return { token: this.token() };
    return account() ? {} : null;
  }

  async fetchRoom() {
    try {
      return await api.duplicateRoom(this.id, this.token());
    } catch (e) {
      if (e instanceof ApiError && e.code === "bad_token") {
        forgetDuplicatePlayer(this.id);
        this.me = null;
        return api.duplicateRoom(this.id, null);
      }
      throw e;
    }
  }

  liveError(err) {
    if (err.code === "bad_token") {
      forgetDuplicatePlayer(this.id);
      this.me = null;
      this.live.reconnect();
      return;
    }
    this.say(errorText(err), "error");
  }

  showConnection(status) {
    if (!this.els) return;
    this.els.conn.dataset.status = status;
    this.els.conn.textContent = t(`conn.${status}`);
  }

  say(text, kind = "info") {
    this.els.message.textContent = text;
    this.els.message.dataset.kind = kind;
  }

  // -- building the page --------------------------------------------------------------------

  build() {
    const v = this.variant;
    this.board = new BoardView(v, { describedBy: "board-keys" });
    this.grid = new BoardGrid(this.board, { onMove: (to) => this.moveCursor(to) });
    const tool = (label, icon, onclick) => h("button", { type: "button", class: "tool icon-button",
      "aria-label": label, title: label, onclick }, icon);
    this.buttons = {
      shuffle: tool(t("rack.shuffle"), shuffleIcon(), () => this.shuffle()),
      recall: tool(t("rack.recall"), undoIcon(), () => this.recall()),
      zoom: h("button", { type: "button", class: "tool zoom", "aria-pressed": "false", onclick: () => this.toggleZoom() }),
      submit: h("button", { type: "button", class: "primary", id: "dup-submit", dataset: { action: "submit" },
        text: t("dup.submit"), onclick: () => this.playMove() }),
      withdraw: h("button", { type: "button", id: "dup-withdraw", dataset: { action: "withdraw" },
        text: t("dup.withdraw"), onclick: () => this.withdraw() }),
    };
    this.notation = h("input", { id: "dup-notation", type: "text", autocomplete: "off", spellcheck: false,
      autocapitalize: "characters", maxlength: "60", placeholder: "8H CASA", "aria-describedby": "dup-notation-help",
      oninput: () => this.typedNotation(),
      onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); this.playMove(); } } });
    this.els = {
      title: h("h1", { class: "table-title room-title" }),
      meta: h("p", { class: "table-meta room-meta" }),
      conn: h("span", { class: "conn", role: "status" }),
      roundLine: h("p", { class: "round-line" }),
      timer: h("p", { class: "dup-timer", role: "timer", "aria-live": "off", "aria-atomic": "true" }),
      phaseLine: h("p", { class: "phase-line" }),
      inLine: h("p", { class: "in-line" }),
      creator: h("div", { class: "creator-actions" }),
      share: h("p", { class: "share room-share" }),
      bag: h("span", { class: "bag-count" }),
      topTotal: h("span", { class: "top-total" }),
      boardNote: h("p", { class: "board-note" }),
      rack: h("div", { class: "rack", role: "group", "aria-label": t("rack.label"), dataset: { dropRack: "1" } }),
      rackArea: null,
      composer: h("div", { class: "composer" }),
      yours: h("p", { class: "your-move", "aria-live": "polite" }),
      message: h("p", { class: "message", role: "status", "aria-live": "polite" }),
      join: h("section", { class: "join-panel panel", "aria-labelledby": "dup-join-h" }),
      news: h("div", { class: "sr-only announcer", id: "dup-news", role: "log", "aria-live": "polite",
        "aria-relevant": "additions", "aria-label": t("dup.news_label") }),
      preview: h("section", { class: "panel preview", "aria-live": "polite", "aria-label": t("preview.title") }),
      results: h("section", { class: "panel dup-results", id: "dup-results", "aria-labelledby": "dup-results-h" }),
      ranking: h("section", { class: "panel dup-ranking", id: "dup-ranking", "aria-labelledby": "dup-ranking-h" }),
      rounds: h("section", { class: "panel dup-rounds", "aria-labelledby": "dup-rounds-h" }),
      links: h("div", { class: "side-links" }),
    };
    const e = this.els;
    const b = this.buttons;
    this.drawZoomButton();
    e.rackArea = h("div", { class: "rack-area" }, b.shuffle, e.rack, b.recall);
    replace(e.composer,
      h("div", { class: "notation-field" },
        h("label", { for: "dup-notation", text: t("dup.notation") }), this.notation),
      h("p", { class: "help", id: "dup-notation-help", text: t("dup.notation_help") }),
      h("div", { class: "actions" }, b.submit, b.withdraw));
    this.boardWrap = h("div", { class: "board-wrap" }, this.board.el);
    const playArea = h("section", { class: "play-area", "aria-label": t("table.play_area") },
      this.boardWrap,
      h("p", { class: "sr-only", id: "board-keys", text: t("board.keys_help") }),
      h("div", { class: "board-foot" }, e.bag, e.topTotal, e.boardNote, b.zoom),
      h("div", { class: "controls" }, e.rackArea, e.composer), e.yours, e.message, e.join, e.news);
    const status = h("section", { class: "panel seats dup-status", "aria-labelledby": "dup-status-h" },
      h("h2", { id: "dup-status-h", class: "round-heading" }, e.roundLine), e.timer, e.phaseLine, e.inLine, e.creator,
      e.share);
    e.about = aboutPanel(v, { open: false });
    const side = h("aside", { class: "side" }, e.preview, e.results, e.ranking, e.rounds, e.about, e.links);
    replace(this.root, h("div", { class: "table-page live-table duplicate-room", dataset: { columns: String(v.columns) } },
      h("div", { class: "table-layout" },
        h("header", { class: "table-head" }, h("div", { class: "table-names" }, e.title, e.meta), e.conn),
        status, playArea, side)));

    this.board.el.addEventListener("click", (ev) => {
      const cell = ev.target.closest(".sq");
      if (cell) this.clickSquare(Number(cell.dataset.r), Number(cell.dataset.c));
    });
    this.board.el.addEventListener("focusin", (ev) => {
      const cell = ev.target.closest(".sq");
      if (!cell || !cell.matches(":focus-visible") || !this.canType()) return;
      const r = Number(cell.dataset.r);
      const c = Number(cell.dataset.c);
      if (!this.cursor || this.cursor.r !== r || this.cursor.c !== c) {
        this.cursor = { r, c, dir: this.cursor ? this.cursor.dir : "across" };
        this.renderBoard();
      }
    });
    this.board.el.addEventListener("dblclick", (ev) => {
      const cell = ev.target.closest(".sq");
      if (cell) this.doubleClickSquare(Number(cell.dataset.r), Number(cell.dataset.c));
    });
    e.rack.addEventListener("click", (ev) => {
      const tile = ev.target.closest("[data-index]");
      this.clickRack(tile ? Number(tile.dataset.index) : null);
    });
    enableDrag(this.root, {
      payload: (el) => (this.canType() ? this.dragPayload(el) : null),
      onDrop: (p, x, y, target) => this.drop(p, x, y, target),
      onHover: (target) => this.hover(target),
    });
  }

  // -- the room from the server -------------------------------------------------------------

  applyRoom(room) {
    const before = this.room;
    if (before && room.seq < before.seq) return; // an older message overtaken by a newer one
    this.room = room;
    this.receivedAt = performance.now();
    this.table = { board: room.board, last_move_squares: this.lastTopSquares(room) };
    const you = room.you;
    if (you && this.me && this.me.name !== you.name) this.me = { ...this.me, name: you.name };
    const newRound = !before || before.round !== room.round || before.phase !== room.phase;
    if (this.placement.setRack(room.phase === "open" && you ? room.rack || [] : [])) {
      this.selected = null;
      this.lastTyped = null;
    }
    for (const p of [...this.placement.placed.values()]) {
      if (room.board[p.r] && room.board[p.r][p.c]) this.placement.take(p.r, p.c);
    }
    if (newRound) {
      if (before) this.say("");
      this.shownRound = null;
      this.shownMove = null;
      if (room.phase !== "open") {
        this.notation.value = "";
        this.preview = null;
      }
      if (!before || before.round !== room.round) this.warned = new Set();
    }
    this.announce(before, room);
    this.render();
    if (newRound) this.schedulePreview(true);
  }

  lastTopSquares(room) {
    const last = room.last;
    return last && last.top ? last.top.tiles.map((x) => x.square) : [];
  }

  isPlayer() {
    return Boolean(this.room && this.room.you);
  }

  isCreator() {
    return Boolean(this.room && this.room.you && this.room.you.creator);
  }

  /** The placing code asks whether this page may compose a move now. */
  canType() {
    return Boolean(this.room && this.room.you && this.room.phase === "open" && !this.busy);
  }

  /** Seconds left of the round (open) or of the pause, counted down from the last state. */
  secondsLeft() {
    const r = this.room;
    const gone = (performance.now() - this.receivedAt) / 1000;
    if (r.phase === "open" && r.time_left !== null) return r.time_left - gone;
    if (r.phase === "pause" && r.opens_in !== null) return r.opens_in - gone;
    return null;
  }

  // -- what is said aloud -------------------------------------------------------------------

  news(text) {
    this.els.news.append(h("p", { text }));
    while (this.els.news.childElementCount > 5) this.els.news.firstElementChild.remove();
  }

  announce(before, room) {
    if (!before) return; // what was there when the page opened is not news
    if (room.phase === "open" && (before.phase !== "open" || before.round !== room.round)) {
      const rack = (room.rack || []).map((x) => (x === BLANK ? t("tile.blank") : x)).join(" ");
      this.news(t("dup.say_open", { n: room.round, time: roundTime(room.options.round_seconds), rack }));
    }
    const closed = room.last && (!before.last || before.last.round !== room.last.round);
    if (closed) {
      const last = room.last;
      const parts = [t("dup.say_closed", { n: last.round, move: last.top.move,
        points: plural("analysis.points", last.top.score) })];
      const mine = room.you && last.plays.find((p) => p.player === room.you.name);
      if (mine) {
        parts.push(mine.move === "-" ? t("dup.say_you_nothing")
          : t("dup.say_you", { move: mine.move, points: plural("analysis.points", mine.points) }));
        const s = room.standings.find((x) => x.name === room.you.name);
        if (s) parts.push(t("dup.say_place", { place: s.place, n: room.standings.length, total: s.total, percent: percent(s.percent) }));
      }
      this.news(parts.join(" "));
    }
    if (room.state === "over" && before.state !== "over") {
      const first = room.standings[0];
      this.news(first ? t("dup.say_over", { name: first.name, total: first.total, percent: percent(first.percent) })
        : t("dup.state_over"));
    }
  }

  // -- drawing ------------------------------------------------------------------------------

  render() {
    const room = this.room;
    const v = this.variant;
    const title = room.title || t("dup.room_of", { game: v.title });
    this.onTitle(title);
    this.els.title.textContent = title;
    replace(this.els.meta, stateBadge(room), " ", h("span", { text: [room.title ? v.title : null,
      optionsLine(room.options)].filter(Boolean).join(" \u00b7 ") }));
    this.renderStatus();
    this.renderBoard();
    this.renderRack();
    this.renderComposer();
    this.renderJoin();
    this.renderPreview();
    this.renderResults();
    this.renderRanking();
    this.renderRounds();
    this.renderLinks();
    this.tick();
  }

  /** The round's heading, what is happening, who has a move in, the creator's buttons. */
  renderStatus() {
    const room = this.room;
    const e = this.els;
    e.roundLine.textContent = room.state === "waiting" ? t("dup.state_waiting")
      : room.state === "over" ? t("dup.state_over")
        : room.options.rounds ? t("dup.round_of", { n: room.round, total: room.options.rounds })
          : t("dup.round_n", { n: room.round });
    const inCount = room.players.filter((p) => p.submitted).length;
    e.inLine.textContent = room.phase === "open" ? t("dup.moves_in", { n: inCount, total: room.players.length }) : "";
    e.inLine.hidden = room.phase !== "open";
    const key = JSON.stringify([room.phase, room.state, this.isCreator()]);
    if (key !== this.drawn.creator) {
      this.drawn.creator = key;
      const buttons = [];
      if (this.isCreator() && room.state === "waiting") {
        buttons.push(h("button", { type: "button", class: "primary", id: "dup-start", text: t("dup.start"),
          onclick: (ev) => this.creatorAction(ev.currentTarget, "start") }));
      }
      if (this.isCreator() && room.phase === "pause") {
        buttons.push(h("button", { type: "button", class: "primary", id: "dup-next", text: t("dup.next_now"),
          onclick: (ev) => this.creatorAction(ev.currentTarget, "next") }));
      }
      if (this.isCreator() && room.state !== "over") {
        buttons.push(h("button", { type: "button", class: "danger", id: "dup-stop", text: t("dup.stop"),
          onclick: (ev) => this.stopGame(ev.currentTarget) }));
      }
      replace(e.creator, buttons);
      e.creator.hidden = !buttons.length;
    }
    // The room's link, to invite players (a visitor finds it in the panel to join).
    const share = Boolean(room.you && room.state !== "over");
    e.share.hidden = !share;
    if (share && !e.share.childElementCount) {
      replace(e.share, h("span", { text: t("dup.share") }), " ", h("code", { class: "share-link", text: location.href }));
    }
  }

  /** The clock: the round's time left, or the pause's, in whole seconds (the server decides). */
  tick() {
    if (!this.room) return;
    const room = this.room;
    const left = this.secondsLeft();
    const e = this.els;
    let text = "";
    let phase = "";
    if (room.state === "waiting") {
      phase = this.isCreator() ? t("dup.waiting_creator") : t("dup.waiting", { name: room.creator });
    } else if (room.phase === "open") {
      text = formatClock(Math.max(0, left));
      phase = left > 0 ? t("dup.time_left") : t("dup.closing");
      for (const at of WARN_AT) {
        if (left <= at && left > at - 2 && !this.warned.has(at) && room.options.round_seconds > at && this.isPlayer()) {
          this.warned.add(at);
          this.news(plural("dup.say_left", at));
        }
      }
    } else if (room.phase === "pause") {
      text = formatClock(Math.max(0, left));
      phase = t("dup.next_in");
    } else {
      phase = t("dup.over_reason", { reason: t(`dup.end_${room.end_reason || "stopped"}`) });
    }
    if (e.timer.textContent !== text) e.timer.textContent = text;
    e.timer.hidden = !text;
    e.timer.classList.toggle("low", room.phase === "open" && left !== null && left <= 10);
    if (e.phaseLine.textContent !== phase) e.phaseLine.textContent = phase;
    const disabled = !this.canType() || left === null || left <= 0;
    if (this.buttons.submit.disabled !== (disabled || !this.hasMove())) this.renderComposer();
    if (left !== null && left < -3 && !this.refetching) this.refetch();
  }

  /** The pause or the round ended but no state came (the socket is down): ask. */
  async refetch() {
    this.refetching = true;
    try {
      this.applyRoom(await this.fetchRoom());
    } catch { /* the next tick asks again */ }
    setTimeout(() => { this.refetching = false; }, 2000);
  }

  /** The round looked at on the board: between rounds and at the end, a closed round. */
  lookedAt() {
    const room = this.room;
    if (this.shownRound) return this.shownRound;
    if (room.phase !== "open" && room.last) return room.last;
    return null;
  }

  shownTiles(round) {
    const key = this.shownMove || "top";
    let move = null;
    if (key === "top") move = round.top;
    else if (key.startsWith("best-")) move = round.best[Number(key.slice(5))];
    else move = round.plays.find((p) => p.player === key.slice(7));
    return { move, tiles: move ? move.tiles || [] : [] };
  }

  renderBoard() {
    const round = this.lookedAt();
    if (round) {
      const { move, tiles } = this.shownTiles(round);
      const shown = new Map(tiles.map((x) => [x.square, { letter: x.letter, blank: x.blank }]));
      const last = [...tiles].sort((a, b) => (parseSquare(b.square)[0] - parseSquare(a.square)[0])
        || (parseSquare(b.square)[1] - parseSquare(a.square)[1]))[0];
      const at = last ? parseSquare(last.square) : null;
      const score = move ? (move.points ?? move.score) : null;
      this.board.update({ board: round.board, shown,
        badge: at && score !== null ? { r: at[0], c: at[1], text: String(score) } : null });
      this.els.boardNote.textContent = move ? t("dup.board_shows", { n: round.round,
        move: move.move, who: move.player || t("dup.the_top") }) : "";
      return;
    }
    let badge = null;
    let shown = null;
    const p = this.preview && this.previewFor === this.placementKey() ? this.preview : null;
    if (p && p.legal && p.score !== null && this.placement.size) {
      const lastTile = [...this.placement.placed.values()].sort((a, b) => b.r - a.r || b.c - a.c)[0];
      if (lastTile) badge = { r: lastTile.r, c: lastTile.c, text: String(p.score) };
    } else if (p && p.legal && !this.placement.size && p.tiles && p.tiles.length) {
      // A move typed in notation: drawn as a move to look at (ringed), with its score.
      shown = new Map(p.tiles.map((x) => [x.square, { letter: x.letter, blank: x.blank }]));
      const at = parseSquare(p.tiles[p.tiles.length - 1].square);
      if (at && p.score !== null) badge = { r: at[0], c: at[1], text: String(p.score) };
    }
    this.board.update({
      board: this.room.board,
      placement: this.placement,
      last: new Set(this.table.last_move_squares),
      cursor: this.canType() ? this.cursor : null,
      selected: this.selected,
      badge,
      shown,
    });
    this.els.boardNote.textContent = "";
  }

  renderRack() {
    const room = this.room;
    const show = this.isPlayer() && room.phase === "open";
    this.els.rackArea.hidden = !show;
    this.els.bag.textContent = room.state === "waiting" ? "" : plural("table.bag", room.bag);
    this.els.topTotal.textContent = room.state === "waiting" ? "" : t("dup.top_total", { n: room.top_total });
    if (!show) return;
    const shown = drawRack(this.els.rack, this.variant, this.placement, (index) =>
      this.selected && this.selected.type === "rack" && this.selected.index === index);
    this.buttons.recall.disabled = this.placement.size === 0;
    this.buttons.shuffle.disabled = shown < 2;
  }

  hasMove() {
    return this.placement.size > 0 ? this.placement.pendingBlanks().length === 0 : Boolean(this.notation.value.trim());
  }

  renderComposer() {
    const room = this.room;
    const you = room.you;
    const open = Boolean(you && room.phase === "open");
    this.els.composer.hidden = !open;
    const left = this.secondsLeft();
    const timeUp = left !== null && left <= 0;
    this.buttons.submit.disabled = !open || this.busy || timeUp || !this.hasMove();
    this.buttons.withdraw.disabled = !open || this.busy || timeUp || !you.move;
    this.notation.disabled = !open || timeUp;
    const yours = this.els.yours;
    // A polite live region: drawn again only when what it says changes (states come at every
    // player's submission, and each redraw would be read out again).
    const key = JSON.stringify([open, open && you.move, open && you.at]);
    if (key === this.drawn.yours) return;
    this.drawn.yours = key;
    if (open && you.move) {
      replace(yours, h("span", { text: t("dup.your_move") }), " ", h("code", { class: "notation", text: you.move }),
        h("span", { text: ` ${t("dup.sent_at", { at: formatNumber(you.at) })}` }));
    } else if (open) {
      yours.textContent = t("dup.no_move_yet");
    } else {
      yours.textContent = "";
    }
    yours.hidden = !open;
  }

  renderJoin() {
    const room = this.room;
    const panel = this.els.join;
    const show = !room.you && room.state !== "over";
    panel.hidden = !show;
    const key = show ? JSON.stringify([Boolean(account()), room.players.length >= room.max_players, room.tournament]) : "";
    if (panel.dataset.key === key) return; // keep what is typed
    panel.dataset.key = key;
    if (!show) {
      replace(panel);
      return;
    }
    if (room.tournament) {
      // A tournament's game: only its players play; anyone may watch.
      replace(panel,
        h("h2", { id: "dup-join-h", text: t("dup.tournament_title") }),
        h("p", { class: "help", text: t("dup.tournament_help") }),
        h("p", {}, h("a", { class: "button tournament-link", href: pages.tournament(room.tournament), "data-link": "",
          text: t("dup.tournament_link") })));
      return;
    }
    const full = room.players.length >= room.max_players;
    const me = account();
    const input = me ? null : h("input", { id: "dup-join-nickname", type: "text", maxlength: String(NICKNAME_MAX),
      autocomplete: "nickname", value: lastNickname(), required: true });
    const button = h("button", { type: "button", class: "primary", id: "dup-join", disabled: full,
      text: me ? t("dup.join_as", { name: me.username }) : t("dup.join"), onclick: () => this.join(input) });
    replace(panel,
      h("h2", { id: "dup-join-h", text: t("dup.join_title") }),
      h("p", { class: "help", text: full ? t("dup.full") : t(room.state === "waiting" ? "dup.join_help" : "dup.join_late") }),
      h("div", { class: "sit-form" }, input ? h("label", { for: "dup-join-nickname", text: t("sit.nickname") }) : null,
        input, button),
      me ? null : h("p", { class: "help" }, h("span", { text: t("dup.or_account") }), " ",
        h("button", { type: "button", class: "link", text: t("account.login"), onclick: () => accountDialog("login") })),
      h("p", { class: "share" }, h("span", { text: t("dup.share") }), " ", h("code", { class: "share-link", text: location.href })));
  }

  renderPreview() {
    const el = this.els.preview;
    const room = this.room;
    const show = Boolean(room.you && room.phase === "open");
    el.hidden = !show;
    if (!show) return;
    // A live region too: drawn again only when the verdict changes.
    const key = JSON.stringify([this.placementKey(), this.hasMove(), this.placement.pendingBlanks().length,
      this.previewFor === this.placementKey() ? this.preview : null]);
    if (key === this.drawn.preview) return;
    this.drawn.preview = key;
    const heading = h("h2", { text: t("preview.title") });
    if (!this.hasMove()) {
      replace(el, heading, h("p", { class: "hint", text: t("dup.preview_hint") }));
      return;
    }
    if (this.placement.size && this.placement.pendingBlanks().length) {
      replace(el, heading, h("p", { class: "hint", text: t("preview.choose_blank") }));
      return;
    }
    if (!this.preview || this.previewFor !== this.placementKey()) {
      replace(el, heading, h("p", { class: "hint pending", text: t("preview.checking") }));
      return;
    }
    const parts = previewVerdict(this.preview);
    if (this.preview.legal) {
      // Whether the words are valid is not said before the round closes: "placed by the rules".
      parts[0] = h("p", { class: "verdict legal" }, h("span", { class: "mark", "aria-hidden": "true", text: "\u2713" }),
        h("span", { text: t("dup.placement_ok") }),
        this.preview.move ? h("code", { class: "notation", text: this.preview.move }) : null);
    }
    replace(el, heading, ...parts, h("p", { class: "help", text: t("dup.preview_words") }));
  }

  /** A closed round: the top, what each player sent and scored, the best three; each can be
   *  drawn on the round's board. Shown between rounds, at the end, or a round picked below. */
  renderResults() {
    const el = this.els.results;
    const looked = this.lookedAt();
    // While a round is open the last one's results stay in view, without drawing them.
    const round = looked || this.room.last;
    el.hidden = !round;
    if (!round) return;
    const canShow = Boolean(looked);
    const key = JSON.stringify([round.round, this.shownMove, this.room.you && this.room.you.name, canShow]);
    if (key === this.drawn.results) return;
    this.drawn.results = key;
    const keep = document.activeElement && el.contains(document.activeElement) ? document.activeElement.id : null;
    const youName = this.room.you ? this.room.you.name : null;
    const current = this.shownMove || "top";
    const show = (id, label, what) => !canShow ? null : h("button", { type: "button", class: `tool show-move${current === id ? " current" : ""}`,
      id: `dup-show-${id}`, "aria-pressed": current === id ? "true" : "false", "aria-label": label, title: label,
      text: t("dup.show"), onclick: () => { this.shownMove = id; this.render(); } }, what);
    const closedBy = round.closed_by ? t(`dup.closed_${round.closed_by}`) : "";
    const plays = [...round.plays].sort((a, b) => b.points - a.points || a.player.localeCompare(b.player));
    const rows = plays.map((p) => h("tr", { class: `play-row${p.player === youName ? " is-mine" : ""}${p.found_top ? " found-top" : ""}`,
      dataset: { player: p.player } },
    h("td", { class: "player" }, h("span", { class: "nick", text: p.player }),
      p.found_top ? h("span", { class: "tag top-tag", text: t("dup.found_top") }) : null,
      p.solo ? h("span", { class: "tag solo-tag", text: t("dup.solo", { n: p.solo }) }) : null),
    h("td", { class: "mv" }, p.move === "-" ? h("span", { class: "hint", text: t("dup.nothing") })
      : h("code", { class: "notation", text: p.move }),
    p.rule ? h("span", { class: "why", text: errorText({ code: p.rule, message: p.reason }) }) : null),
    h("td", { class: "pts", text: String(p.points) }),
    h("td", { class: "show" }, p.tiles && p.tiles.length
      ? show(`player-${p.player}`, t("dup.show_move_of", { name: p.player, n: round.round }), null) : null)));
    replace(el,
      h("h2", { id: "dup-results-h", text: t("dup.results_of", { n: round.round }) }),
      h("p", { class: "help" }, h("span", { text: t("dup.rack_was") }), " ", h("code", { class: "rack-notation", text: round.rack }),
        closedBy ? h("span", { text: ` \u00b7 ${closedBy}` }) : null),
      h("p", { class: "top-line" }, h("span", { class: "label", text: t("dup.top") }), " ",
        h("code", { class: "notation top-move", text: round.top.move }), " ",
        h("strong", { class: "top-score", text: plural("analysis.points", round.top.score) }), " ",
        show("top", t("dup.show_top", { n: round.round }), null)),
      h("h3", { text: t("dup.best_three") }),
      h("ol", { class: "best-list" }, round.best.map((m, i) => h("li", { dataset: { move: m.move } },
        h("code", { class: "notation", text: m.move }), " ", h("span", { class: "pts", text: plural("analysis.points", m.score) }), " ",
        show(`best-${i}`, t("dup.show_best", { move: m.move }), null)))),
      h("h3", { text: t("dup.plays") }),
      h("div", { class: "games-scroll plays-scroll" }, h("table", { class: "tourney-table plays-table" },
        h("thead", {}, h("tr", {}, [t("tourney.player"), t("dup.move"), t("dup.points"), ""].map((text) =>
          h("th", { scope: "col", text })))),
        h("tbody", {}, rows))),
      this.shownRound ? h("button", { type: "button", class: "link", id: "dup-back", text: t("dup.back_to_now"),
        onclick: () => { this.shownRound = null; this.shownMove = null; this.render(); } }) : null);
    if (keep && document.getElementById(keep)) document.getElementById(keep).focus();
  }

  renderRanking() {
    const el = this.els.ranking;
    const room = this.room;
    const key = JSON.stringify([room.standings, room.players, room.phase, room.you && room.you.name]);
    if (key === this.drawn.ranking) return;
    this.drawn.ranking = key;
    const youName = room.you ? room.you.name : null;
    const byName = new Map(room.players.map((p) => [p.name, p]));
    if (room.state === "waiting") {
      replace(el, h("h2", { id: "dup-ranking-h", text: `${t("dup.players")} (${room.players.length}/${room.max_players})` }),
        h("ol", { class: "dup-player-list" }, room.players.map((p) => h("li", { dataset: { player: p.name } },
          playerName(p.name, p.account), p.creator ? h("span", { class: "tag", text: t("dup.creator") }) : null,
          p.name === youName ? h("span", { class: "tag you", text: t("seat.you") }) : null))));
      return;
    }
    const open = room.phase === "open";
    const last = room.last;
    const points = new Map(last ? last.plays.map((p) => [p.player, p.points]) : []);
    const abbr = (short, long) => h("abbr", { title: long, "aria-label": long, text: short });
    const head = [t("tourney.rank"), t("tourney.player"), t("dup.total"), abbr("%", t("dup.percent"))];
    if (open) head.push(abbr("\u2713", t("dup.has_move")));
    else if (last) head.push(abbr(t("dup.round_short", { n: last.round }), t("dup.round_points", { n: last.round })));
    const rows = room.standings.map((s) => {
      const p = byName.get(s.name) || {};
      return h("tr", { class: `standing-row${s.name === youName ? " is-mine" : ""}`, dataset: { player: s.name } },
        h("td", { class: "rank", text: String(s.place) }),
        h("td", { class: "player" }, playerName(s.name, p.account),
          s.name === youName ? h("span", { class: "tag you", text: t("seat.you") }) : null),
        h("td", { class: "sum", text: String(s.total) }),
        h("td", { class: "percent", text: percent(s.percent) }),
        open ? h("td", { class: "in" }, p.submitted ? h("span", { class: "mark in-mark", role: "img",
          "aria-label": t("dup.has_move"), title: t("dup.has_move"), text: "\u2713" }) : null)
          : last ? h("td", { class: "round-points", text: points.has(s.name) ? String(points.get(s.name)) : "" }) : null);
    });
    replace(el,
      h("h2", { id: "dup-ranking-h", text: room.state === "over" ? t("dup.final_ranking") : t("dup.ranking") }),
      h("p", { class: "help", text: t("dup.ranking_help", { n: room.top_total }) }),
      h("div", { class: "games-scroll ranking-scroll" }, h("table", { class: "tourney-table ranking-table" },
        h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, rows))));
  }

  /** Every closed round: its top and this player's move; a button draws it on the board. */
  renderRounds() {
    const el = this.els.rounds;
    const room = this.room;
    el.hidden = !room.rounds.length;
    const key = JSON.stringify([room.rounds, room.you && room.you.rounds, this.shownRound && this.shownRound.round]);
    if (key === this.drawn.rounds) return;
    this.drawn.rounds = key;
    const mine = new Map(room.you ? room.you.rounds.map((r) => [r.round, r]) : []);
    const head = [t("dup.round"), t("dup.top"), room.you ? t("dup.you") : null, ""].filter((x) => x !== null);
    const rows = [...room.rounds].reverse().map((r) => {
      const m = mine.get(r.round);
      return h("tr", { dataset: { round: String(r.round) } },
        h("td", { class: "n", text: String(r.round) }),
        h("td", { class: "mv" }, h("code", { class: "notation", text: r.top.move }), ` ${r.top.score}`),
        room.you ? h("td", { class: "mv" }, m ? [m.move === "-" ? t("dup.nothing") : h("code", { class: "notation", text: m.move }),
          ` ${m.points}`] : "") : null,
        h("td", {}, h("button", { type: "button", class: "tool show-move", id: `dup-round-${r.round}`,
          "aria-label": t("dup.show_round", { n: r.round }), text: t("dup.show"),
          onclick: (ev) => this.showRound(r.round, ev.currentTarget) })));
    });
    replace(el,
      h("details", { class: "rounds-fold", open: room.state === "over" || !matchMedia("(max-width: 560px)").matches },
        h("summary", {}, h("h2", { id: "dup-rounds-h", text: t("dup.rounds_played") })),
        h("div", { class: "games-scroll rounds-scroll" }, h("table", { class: "tourney-table rounds-table" },
          h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col", text })))),
          h("tbody", {}, rows)))));
  }

  async showRound(n, button) {
    if (this.room.phase === "open" && this.isPlayer()) {
      this.say(t("dup.not_while_open"));
      return;
    }
    try {
      this.shownRound = await api.duplicateRound(this.id, n);
      this.shownMove = null;
    } catch (e) {
      this.say(errorText(e), "error");
      return;
    }
    this.render();
    const heading = document.getElementById("dup-results-h");
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus();
    } else if (button) button.focus();
  }

  renderLinks() {
    const room = this.room;
    const key = room.state;
    if (this.drawn.links === key) return;
    this.drawn.links = key;
    replace(this.els.links,
      room.state === "over" ? h("a", { class: "gcg button-link", id: "dup-gcg", href: api.duplicateGcgUrl(this.id),
        download: `tablero-duplicate-${this.id}.gcg`, text: t("table.download_gcg") }) : null,
      h("a", { class: "button-link", href: pages.duplicateRooms(), "data-link": "", text: t("dup.all_rooms") }));
  }

  // -- composing a move ---------------------------------------------------------------------

  placementKey() {
    if (this.placement.size) return `${this.room.round}|${JSON.stringify(this.placement.tiles())}`;
    return `${this.room.round}|text|${this.notation.value.trim()}`;
  }

  changed() {
    if (this.placement.size && this.notation.value) this.notation.value = "";
    this.render();
    this.schedulePreview();
  }

  typedNotation() {
    if (this.placement.size) {
      this.placement.clear();
      this.selected = null;
    }
    this.render();
    this.schedulePreview();
  }

  endCambio() {}

  schedulePreview(immediate = false) {
    clearTimeout(this.previewTimer);
    if (!this.canType() || !this.hasMove()) {
      this.preview = null;
      this.renderPreview();
      return;
    }
    this.previewTimer = setTimeout(() => this.fetchPreview(), immediate ? 0 : PREVIEW_DELAY_MS);
  }

  async fetchPreview() {
    const key = this.placementKey();
    if (this.preview && this.previewFor === key) return;
    const ticket = ++this.previewTicket;
    const body = this.placement.size ? { tiles: this.placement.tiles() }
      : { move: { kind: "notation", text: this.notation.value.trim() } };
    let result;
    try {
      result = await api.previewDuplicate(this.id, this.token(), body);
    } catch (e) {
      result = { legal: false, rule: e.code, reason: e.message, params: e.params };
    }
    if (ticket !== this.previewTicket || key !== this.placementKey()) return;
    this.preview = result;
    this.previewFor = key;
    this.renderPreview();
    this.renderBoard();
  }

  /** Submit (the placing code calls this on Enter): the tiles on the board, else the text. */
  async playMove() {
    if (!this.canType() || !this.hasMove()) return;
    const move = this.placement.size ? { kind: "place", tiles: this.placement.tiles() }
      : { kind: "notation", text: this.notation.value.trim() };
    await this.send(move, t("dup.sent"));
  }

  async withdraw() {
    if (!this.canType()) return;
    await this.send({ kind: "pass" }, t("dup.withdrawn"));
  }

  async send(move, done) {
    this.busy = true;
    this.renderComposer();
    try {
      const answer = await api.submitDuplicate(this.id, this.token(), this.room.round, move);
      this.say(move.kind === "pass" ? done : `${done} ${answer.move}`, "ok");
      this.busy = false;
      if (answer.room) this.applyRoom(answer.room);
    } catch (e) {
      this.say(errorText(e), "error");
    } finally {
      this.busy = false;
      this.renderComposer();
    }
  }

  async join(input) {
    const nickname = input ? input.value.trim() : null;
    if (input && !nickname) {
      this.say(t("sit.need_nickname"), "error");
      input.focus();
      return;
    }
    try {
      const answer = await api.joinDuplicate(this.id, nickname);
      if (answer.token) {
        saveDuplicatePlayer(this.id, answer.token, answer.name);
        this.me = { token: answer.token, name: answer.name };
      }
      if (nickname) saveNickname(nickname);
      this.say(t("dup.joined", { name: answer.name }), "ok");
      this.applyRoom(answer.room);
      this.live.reconnect();
    } catch (e) {
      this.say(errorText(e), "error");
    }
  }

  async creatorAction(button, action) {
    if (button) button.disabled = true;
    try {
      const answer = await api.duplicateAction(this.id, this.token(), action);
      this.applyRoom(answer.room);
    } catch (e) {
      this.say(errorText(e), "error");
      if (button && button.isConnected) button.disabled = false;
    }
  }

  async stopGame(button) {
    if (await confirmDialog(t("dup.stop_title"), t("dup.stop_question"), t("dup.stop"), { danger: true })) {
      await this.creatorAction(button, "stop");
    }
  }
}

// The table page's own placing code, on this page's board, rack and placement (see the class).
const BORROWED = [
  "clickSquare", "doubleClickSquare", "clickRack", "placeTile", "isFixed", "isEmpty", "recall", "shuffle",
  "dragPayload", "hover", "rackPosition", "drop", "focusCursor", "defaultCursor", "step", "onBoard", "advance",
  "moveCursor", "handleKey", "typeLetter", "putTyped", "takeBackLast", "toggleZoom", "drawZoomButton",
  "selectedSquare", "lastMoveSquare",
];
for (const name of BORROWED) {
  if (Object.prototype.hasOwnProperty.call(DuplicateRoomPage.prototype, name)) {
    throw new Error(`duplicate.js: ${name} is the table page's`);
  }
  DuplicateRoomPage.prototype[name] = TablePage.prototype[name];
}
