// The table page (/t/{id}): board, rack, actions, seats and clocks, preview, history, result.
// The server decides everything; this page shows the latest table view it sent, lets the player
// compose a placement (drag, tap or keyboard) and asks the server what it would score.
//
// The page acts for a seat with the seat's token kept in this browser, or, for a logged-in
// player whose account holds a seat here, with the session cookie (another browser of the
// same player): then `this.seat.token` is null and requests go without a token.
//
// At the end: Rematch for the seated players (the new table's id arrives in every `state` of
// the old table, `rematch.table`; who asked goes there, with their token carried over), and a
// link to the replay, and the analysis (analysis.js: Analyse, a progress bar, each player's
// summary; the moves one by one on the replay page). The chat panel (chat.js) shares the
// table's socket.
//
// In the right column (below the board on a phone): Hints, at a table that allows them, for a
// seated player (POST /api/tables/{id}/hint: the three best moves; a click puts one on the board
// as a proposed move, to play with Move or take back), and the unseen tiles, for everyone
// (`unseen` in every view: the set less the board less one's own rack), a panel that folds.
// Above them, "About this game" (legend.js): the board's kinds of square and the description.

import { account } from "./account.js";
import { AnalysisControl, decimal, leaveText, summaryTable } from "./analysis.js";
import { Announcer, lastMoveSentence } from "./announce.js";
import { api, ApiError, errorText, pages } from "./api.js";
import { ChatPanel } from "./chat.js";
import { BoardView, drawRack, tileElement } from "./board.js";
import { BoardGrid } from "./boardgrid.js";
import { clockLabel, formatClock, formatPerMove, secondsLeft } from "./clock.js";
import { confirmDialog, pickBlankLetter, pickExchange } from "./dialogs.js";
import { enableDrag } from "./drag.js";
import { aboutPanel, namedLexicon, uploadedWordList } from "./legend.js";
import { $, h, replace } from "./dom.js";
import { plural, t } from "./i18n.js";
import { shuffleIcon, undoIcon, zoomIcon } from "./icons.js";
import { LiveTable } from "./live.js";
import {
  BLANK, chooseTile, digraphCompletion, foldKey, parseSquare, Placement, squareName, startsDigraph,
} from "./placement.js";
import {
  carrySeat, forgetSeat, lastNickname, onPrefsChange, saveNickname, saveSeat, seatFor,
} from "./prefs.js";
import { historyBody, previewVerdict, resultParts, seatList, winnerText } from "./panels.js";
import { playMoveSound, playTurnSound } from "./sound.js";
import { VariantView } from "./variant.js";

const PREVIEW_DELAY_MS = 180;

export class TablePage {
  constructor(root, tableId, { onTitle, navigate } = {}) {
    this.root = root;
    this.id = tableId;
    this.onTitle = onTitle || (() => {});
    this.navigate = navigate || ((path) => { location.assign(path); });
    this.rematch = { busy: false, asked: false, error: "", followed: false };
    this.chat = null;
    this.unlistenPrefs = null;
    this.variant = null;
    this.table = null;
    this.receivedAt = performance.now();
    this.placement = new Placement();
    this.cursor = null;          // {r, c, dir: "across" | "down"}
    this.selected = null;        // {type: "rack", index} | {type: "board", r, c}
    this.mode = "normal";        // "normal" | "cambio"
    this.cambio = { square: null, index: null, letter: null, blank: false };
    this.preview = null;
    this.previewFor = "";
    this.previewTimer = null;
    this.previewToken = 0;
    this.lastTyped = null;       // the square the previous keystroke filled (for CH, LL, RR)
    this.pendingPrefix = null;   // a typed C waiting for H when only the CH tile is on the rack
    this.busy = false;
    this.zoomed = false;         // the board drawn larger than the window, to pan (phones)
    this.hints = { seq: null, moves: null, busy: false, error: "", drawn: "" };
    this.unseenDrawn = "";
    this.analysis = null;        // a finished game's analysis (analysis.js)
    this.seat = seatFor(tableId);
    this.live = null;
    this.ticker = null;
    this.onKey = (e) => this.handleKey(e);
  }

  // -- life cycle -----------------------------------------------------------------------------

  async mount() {
    replace(this.root, h("p", { class: "loading", text: t("common.loading") }));
    let table;
    try {
      table = await this.fetchTable();
    } catch (e) {
      replace(this.root, h("div", { class: "page-error" },
        h("h1", { text: t("table.not_found") }), h("p", { text: errorText(e) }),
        h("a", { href: "/", "data-link": "", text: t("nav.lobby") })));
      return;
    }
    this.variant = new VariantView(await api.variant(table.variant));
    this.wordList = await uploadedWordList(this.variant.data);
    this.build(table);
    this.applyState(table);
    this.live = new LiveTable(this.id, () => this.auth(), {
      onState: (s) => this.applyState(s),
      onError: (err, id) => this.liveError(err, id),
      onStatus: (s) => this.showConnection(s),
      onChat: (line) => this.chat.addLine(line),
      onChatHistory: (lines) => this.chat.setHistory(lines),
    });
    this.live.open();
    this.unlistenPrefs = onPrefsChange((_, name) => {
      if (name === "chat" && this.chat) this.chat.applyPref();
    });
    document.addEventListener("keydown", this.onKey);
    this.ticker = setInterval(() => this.tickClocks(), 250);
  }

  unmount() {
    if (this.unlistenPrefs) this.unlistenPrefs();
    if (this.live) this.live.close();
    if (this.analysis) this.analysis.unmount();
    clearInterval(this.ticker);
    clearTimeout(this.previewTimer);
    document.removeEventListener("keydown", this.onKey);
  }

  /** What the socket authenticates with: our token, else the account's seat, else nothing. */
  auth() {
    if (this.seat && this.seat.token) return { token: this.seat.token };
    return account() ? {} : null;
  }

  /** The table view for our token; a token the server no longer knows is forgotten. */
  async fetchTable() {
    try {
      return await api.table(this.id, this.seat ? this.seat.token : null);
    } catch (e) {
      if (e instanceof ApiError && e.code === "bad_token") {
        forgetSeat(this.id);
        this.seat = null;
        return api.table(this.id, null);
      }
      throw e;
    }
  }

  liveError(err, id = null) {
    if (this.chat && this.chat.refused(err, id)) return;
    if (err.code === "bad_token") {
      forgetSeat(this.id);
      this.seat = null;
      this.live.reconnect();
      return;
    }
    if ((err.code === "not_seated" || err.code === "token_required") && !(this.seat && this.seat.token)) {
      // The account has no seat here (or its session ended): this page watches.
      if (this.seat) {
        this.seat = null;
        this.render();
      }
      return;
    }
    this.say(errorText(err), "error");
  }

  // -- building the page ----------------------------------------------------------------------

  build(table = {}) {
    const v = this.variant;
    this.board = new BoardView(v, { describedBy: "board-keys" });
    this.grid = new BoardGrid(this.board, { onMove: (to) => this.moveCursor(to) });
    this.announcer = new Announcer();
    this.els = {
      title: h("h1", { class: "table-title" }),
      subtitle: h("span", { class: "table-subtitle" }),
      hintsLine: h("span", { class: "table-hints" }),
      conn: h("span", { class: "conn", role: "status" }),
      bag: h("span", { class: "bag-count" }),
      // Not a live region: the announcer says whose turn it is with the move that made it so.
      turn: h("span", { class: "turn-line" }),
      lastMove: h("p", { class: "last-move" }),
      rack: h("div", { class: "rack", role: "group", "aria-label": t("rack.label"), dataset: { dropRack: "1" } }),
      rackArea: null,
      actions: h("div", { class: "actions" }),
      message: h("p", { class: "message", role: "status", "aria-live": "polite" }),
      sit: h("section", { class: "sit-panel" }),
      seats: h("section", { class: "panel seats", "aria-labelledby": "seats-h" }),
      preview: h("section", { class: "panel preview", "aria-live": "polite", "aria-label": t("preview.title") }),
      result: h("section", { class: "panel result", hidden: true }),
      history: h("section", { class: "panel history", "aria-labelledby": "history-h" }),
      hints: h("section", { class: "panel hints-panel", "aria-labelledby": "hints-h", hidden: true }),
      unseen: h("details", { class: "panel unseen-panel", open: true, hidden: true }),
      analysis: h("section", { class: "panel analysis-panel", "aria-labelledby": "analysis-h", hidden: true }),
      gcg: h("a", { class: "gcg button-link", href: api.gcgUrl(this.id), download: `tablero-${this.id}.gcg`,
        text: t("table.download_gcg") }),
    };
    this.chat = new ChatPanel({ send: (message) => this.live && this.live.send(message) });
    const e = this.els;
    // Icon buttons: the words are their names for screen readers and their tooltips.
    const tool = (label, icon, onclick) => h("button", { type: "button", class: "tool icon-button",
      "aria-label": label, title: label, onclick }, icon);
    this.buttons = {
      shuffle: tool(t("rack.shuffle"), shuffleIcon(), () => this.shuffle()),
      recall: tool(t("rack.recall"), undoIcon(), () => this.recall()),
      zoom: h("button", { type: "button", class: "tool zoom", "aria-pressed": "false", onclick: () => this.toggleZoom() }),
      move: h("button", { type: "button", class: "primary", dataset: { action: "move" }, text: t("action.move"),
        onclick: () => this.playMove() }),
      pass: h("button", { type: "button", dataset: { action: "pass" }, text: t("action.pass"), onclick: () => this.pass() }),
      exchange: h("button", { type: "button", dataset: { action: "exchange" }, text: t("action.exchange"),
        onclick: () => this.exchange() }),
      cambio: v.hasCambio ? h("button", { type: "button", dataset: { action: "cambio" }, text: t("action.cambio"),
        onclick: () => this.toggleCambio() }) : null,
      challenge: v.hasChallenge ? h("button", { type: "button", dataset: { action: "challenge" },
        text: t("action.challenge"), onclick: () => this.challenge() }) : null,
      resign: h("button", { type: "button", class: "danger", dataset: { action: "resign" }, text: t("action.resign"),
        onclick: () => this.resign() }),
    };
    const b = this.buttons;
    this.drawZoomButton();
    e.rackArea = h("div", { class: "rack-area" }, b.shuffle, e.rack, b.recall);
    replace(e.actions, b.move, b.pass, b.exchange, b.cambio, b.challenge, b.resign);

    // The order is the phone's, top to bottom: the players' scores and clocks above the board.
    // Wide, the play area takes the left column and the rest stacks on the right (app.css).
    this.boardWrap = h("div", { class: "board-wrap" }, this.board.el);
    const playArea = h("section", { class: "play-area", "aria-label": t("table.play_area") },
      this.boardWrap,
      h("p", { class: "sr-only", id: "board-keys", text: t("board.keys_help") }),
      h("div", { class: "board-foot" }, e.bag, e.lastMove, e.turn, b.zoom),
      h("div", { class: "controls" }, e.rackArea, e.actions), e.message, e.sit, this.announcer.el);
    // The squares' legend and the game's description: folded on a phone, where it comes after
    // the rack and the buttons.
    e.about = aboutPanel(v, { open: !matchMedia("(max-width: 560px)").matches, words: table.words,
      wordList: this.wordList });
    const side = h("aside", { class: "side" }, e.about, e.preview, e.hints, e.result, e.analysis, e.unseen, e.history, this.chat.el,
      h("div", { class: "side-links" }, e.gcg));
    replace(this.root, h("div", { class: "table-page live-table", dataset: { columns: String(v.columns) } },
      h("div", { class: "table-layout" },
        h("header", { class: "table-head" }, h("div", { class: "table-names" }, e.title,
          h("p", { class: "table-meta" }, e.subtitle, e.hintsLine)), e.conn),
        e.seats, playArea, side)));

    this.board.el.addEventListener("click", (ev) => {
      const cell = ev.target.closest(".sq");
      if (cell) this.clickSquare(Number(cell.dataset.r), Number(cell.dataset.c));
    });
    this.board.el.addEventListener("focusin", (ev) => {
      // Tabbing onto the board puts the keyboard cursor there (a mouse click has its own rule).
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
      payload: (el) => this.dragPayload(el),
      onDrop: (p, x, y, target) => this.drop(p, x, y, target),
      onHover: (target) => this.hover(target),
    });
  }

  // -- state from the server ------------------------------------------------------------------

  applyState(table) {
    const before = this.table;
    if (before && table.seq < before.seq) return; // an older message overtaken by a newer one
    this.table = table;
    // The account's seat, seen from a browser that holds no token for it.
    if (table.you && !this.seat) this.seat = { seat: table.you.seat, token: null };
    this.receivedAt = performance.now();
    const rack = table.you ? table.you.rack : [];
    const rackChanged = this.placement.setRack(rack);
    // Tiles put where someone has just played go back to the rack.
    for (const p of [...this.placement.placed.values()]) {
      if (table.board[p.r] && table.board[p.r][p.c]) this.placement.take(p.r, p.c);
    }
    if (rackChanged) {
      this.selected = null;
      this.lastTyped = null;
    }
    if (this.mode === "cambio" && (table.state !== "playing" || !this.myTurn())) this.endCambio();
    const wasMyTurn = before ? this.myTurn(before) : false;
    if (before && table.seq > before.seq) {
      playMoveSound();
      if (!wasMyTurn && this.myTurn()) playTurnSound();
    }
    this.render();
    if (!before || table.seq !== before.seq) this.schedulePreview(true);
    // The rematch's table appeared while this page was open: who asked goes there. (Opened
    // later, e.g. with Back from the new table, the page only offers the link.)
    const rm = table.rematch;
    const had = before && before.rematch && before.rematch.table;
    if (rm && rm.table && table.you && !had && before
      && ((rm.asked || []).includes(table.you.seat) || this.rematch.asked)) {
      this.followRematch(rm.table);
    }
  }

  /** Whether this page's player has resigned (at three or four seats the game goes on). */
  resigned(table = this.table) {
    if (!table || !table.you) return false;
    const s = table.seats.find((x) => x.seat === table.you.seat);
    return Boolean(s && s.resigned);
  }

  myTurn(table = this.table) {
    return Boolean(table && table.you && table.state === "playing" && table.to_move === table.you.seat);
  }

  seatName(seat) {
    const s = this.table.seats.find((x) => x.seat === seat);
    if (!s) return "";
    if (s.kind === "bot") return s.nickname || t("seat.bot_name", { level: s.bot_level });
    return s.nickname || t("seat.open");
  }

  // -- rendering ------------------------------------------------------------------------------

  render() {
    const table = this.table;
    const v = this.variant;
    this.onTitle(table.title || v.title || table.variant_title);
    this.els.title.textContent = table.title || v.title || table.variant_title;
    const bits = [v.title || table.variant_title, `${v.columns}×${v.rows}`];
    bits.push(clockLabel(table.clock));
    if (namedLexicon(table.lexicon)) bits.push(t("table.lexicon", { name: table.lexicon }));
    if (table.dictionary_hints) bits.push(t("table.hints_on"));
    this.els.subtitle.textContent = bits.join(" · ");
    // Whether the players may ask for hints, said to everyone (a table with hints is unrated).
    this.els.hintsLine.textContent = ` \u00b7 ${t(table.hints ? "table.move_hints_on" : "table.move_hints_off")}`;
    this.els.hintsLine.classList.toggle("on", Boolean(table.hints));
    this.renderBoard();
    this.renderRack();
    this.renderFoot();
    this.renderActions();
    this.renderSit();
    this.renderSeats();
    this.renderPreview();
    this.renderHistory();
    this.renderHints();
    this.renderUnseen();
    this.renderResult();
    this.renderAnalysis();
    this.chat.update(table);
    this.announcer.update(table, {
      seatName: (seat) => this.seatName(seat),
      // By the page's own seat too: a view sent before the socket authenticated has no `you`.
      yourTurn: this.myTurn() || Boolean(this.seat && table.state === "playing" && table.to_move === this.seat.seat),
      winnerLine: () => winnerText(table, (seat) => this.seatName(seat)),
      mySeat: this.seat ? this.seat.seat : null,
    });
  }

  renderBoard() {
    let badge = null;
    if (this.preview && this.preview.legal && this.preview.score !== null && this.previewFor === this.placementKey()) {
      const last = [...this.placement.placed.values()].sort((a, b) => b.r - a.r || b.c - a.c)[0];
      if (last) badge = { r: last.r, c: last.c, text: String(this.preview.score) };
    }
    this.board.update({
      board: this.table.board,
      placement: this.placement,
      last: new Set(this.table.last_move_squares || []),
      cursor: this.cursor,
      selected: this.selected,
      badge,
      cambioSquare: this.mode === "cambio" ? this.cambio.square : null,
    });
  }

  renderRack() {
    const you = this.table.you;
    // A player who resigned has no rack any more (its tiles were set aside).
    this.els.rackArea.hidden = !you || (this.resigned() && this.table.state === "playing");
    if (this.els.rackArea.hidden) return;
    const shown = drawRack(this.els.rack, this.variant, this.placement, (index) =>
      (this.selected && this.selected.type === "rack" && this.selected.index === index)
        || (this.mode === "cambio" && this.cambio.index === index));
    this.buttons.recall.disabled = this.placement.size === 0;
    this.buttons.shuffle.hidden = this.table.state !== "playing";
    this.buttons.recall.hidden = this.table.state !== "playing";
    this.buttons.shuffle.disabled = shown < 2;
  }

  renderFoot() {
    const table = this.table;
    this.els.bag.textContent = plural("table.bag", table.bag_count);
    let line = "";
    if (table.state === "waiting") line = t("table.waiting");
    else if (table.state === "over") line = t("table.over");
    else if (this.resigned()) line = t("table.you_resigned");
    else if (this.myTurn()) line = t("table.your_turn");
    else if (table.to_move !== null && table.to_move !== undefined) {
      line = t("table.to_move", { name: this.seatName(table.to_move) });
    }
    this.els.turn.textContent = line;
    this.els.turn.classList.toggle("mine", this.myTurn());
    this.els.lastMove.textContent = lastMoveSentence(table, (seat) => this.seatName(seat));
  }

  renderActions() {
    const b = this.buttons;
    const you = this.table.you;
    const resigned = this.resigned();
    this.els.actions.hidden = !you || this.table.state !== "playing" || resigned;
    const mine = this.myTurn() && !this.busy;
    b.resign.disabled = this.busy; // at any time, not only on one's turn
    const cambioReady = this.mode === "cambio" && this.cambio.square && this.cambio.letter;
    b.move.disabled = !mine || (this.mode === "cambio"
      ? !cambioReady
      : this.placement.size === 0 || this.placement.pendingBlanks().length > 0);
    b.move.textContent = this.mode === "cambio" ? t("action.play_cambio") : t("action.move");
    b.pass.disabled = !mine;
    b.exchange.disabled = !mine || !this.variant.exchange.allowed;
    b.exchange.hidden = !this.variant.exchange.allowed;
    if (b.cambio) {
      b.cambio.disabled = !mine;
      b.cambio.setAttribute("aria-pressed", this.mode === "cambio" ? "true" : "false");
      b.cambio.classList.toggle("active", this.mode === "cambio");
    }
    if (b.challenge) b.challenge.disabled = this.busy || !(you && (you.can_challenge ?? this.table.can_challenge));
  }

  renderSit() {
    const table = this.table;
    const panel = this.els.sit;
    if (table.you) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const open = table.seats.filter((s) => s.kind === "open");
    const key = table.state === "waiting" ? open.map((s) => s.seat).join(",") : "";
    if (panel.dataset.key === key && panel.childElementCount) return; // keep what is typed
    panel.dataset.key = key;
    const watching = h("p", { class: "spectating", text: t("table.spectating") });
    if (!key) {
      replace(panel, watching);
      return;
    }
    const me = account();
    if (me) {
      // Logged in: the server seats the account under its username; no nickname to type.
      const buttons = open.map((s) => h("button", {
        type: "button", class: "primary", dataset: { sit: String(s.seat) },
        text: t("sit.seat_button", { n: s.seat + 1 }),
        onclick: () => this.sit(s.seat, null),
      }));
      replace(panel, h("h2", { text: t("sit.title") }),
        h("p", { text: t("sit.help_account", { name: me.username }) }),
        h("div", { class: "sit-form" }, ...buttons),
        h("p", { class: "share" }, h("span", { text: t("sit.share") }), " ",
          h("code", { class: "share-link", text: location.href })),
        watching);
      return;
    }
    const input = this.nickInput || h("input", {
      id: "nickname", type: "text", maxlength: "24", autocomplete: "nickname",
      value: lastNickname(), required: true, placeholder: t("sit.nickname_placeholder"),
    });
    this.nickInput = input;
    const buttons = open.map((s) => h("button", {
      type: "button", class: "primary", dataset: { sit: String(s.seat) },
      text: t("sit.seat_button", { n: s.seat + 1 }),
      onclick: () => this.sit(s.seat, input.value),
    }));
    replace(panel, h("h2", { text: t("sit.title") }),
      h("p", { text: t("sit.help") }),
      h("div", { class: "sit-form" }, h("label", { for: "nickname", text: t("sit.nickname") }), input, ...buttons),
      h("p", { class: "share" }, h("span", { text: t("sit.share") }), " ",
        h("code", { class: "share-link", text: location.href })),
      watching);
  }

  renderSeats() {
    replace(this.els.seats, h("h2", { id: "seats-h", text: t("seats.title") }),
      seatList(this.table, (seat) => this.seatName(seat), () => this.leave()));
    this.tickClocks();
  }

  tickClocks() {
    if (!this.table) return;
    const now = performance.now();
    // A clock per move (correspondence) reads "1 d 23 h", "5 h 07 min", then "12:34".
    const perMove = Boolean(this.table.clock && this.table.clock.per_move);
    for (const s of this.table.seats) {
      const el = this.els.seats.querySelector(`.clock[data-seat="${s.seat}"]`);
      if (!el) continue;
      const left = this.table.state === "playing" || this.table.state === "over"
        ? secondsLeft(s, this.receivedAt, this.table.state === "playing" ? now : this.receivedAt)
        : (this.table.clock ? this.table.clock.initial_seconds : null);
      const text = perMove ? formatPerMove(left) : formatClock(left);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("per-move", perMove);
      el.classList.toggle("running", Boolean(s.clock_running) && this.table.state === "playing");
      el.classList.toggle("low", left !== null && left < 60);
    }
  }

  renderPreview() {
    const el = this.els.preview;
    const heading = h("h2", { text: t("preview.title") });
    if (!this.table.you || this.table.state !== "playing" || this.resigned()) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const hasMove = this.mode === "cambio" ? Boolean(this.cambio.square && this.cambio.letter) : this.placement.size > 0;
    if (!hasMove) {
      const hint = this.mode === "cambio"
        ? t(this.cambio.square ? "cambio.pick_tile" : "cambio.pick_square")
        : t("preview.hint");
      replace(el, heading, h("p", { class: "hint", text: hint }));
      return;
    }
    const blanks = this.mode === "normal" && this.placement.pendingBlanks().length > 0;
    const p = this.preview;
    if (blanks) {
      replace(el, heading, h("p", { class: "hint", text: t("preview.choose_blank") }));
      return;
    }
    if (!p || this.previewFor !== this.placementKey()) {
      replace(el, heading, h("p", { class: "hint pending", text: t("preview.checking") }));
      return;
    }
    const parts = [heading, ...previewVerdict(p)];
    if (!this.myTurn()) parts.push(h("p", { class: "hint", text: t("preview.not_your_turn") }));
    replace(el, ...parts);
  }

  renderHistory() {
    replace(this.els.history, h("h2", { id: "history-h", text: t("history.title") }),
      historyBody(this.table, (seat) => this.seatName(seat)));
    const scroller = this.els.history.querySelector(".history-scroll");
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  }

  renderResult() {
    const el = this.els.result;
    el.hidden = !this.table.result || this.table.state !== "over";
    if (!el.hidden) {
      const keep = document.activeElement && el.contains(document.activeElement) ? document.activeElement.id : null;
      replace(el, ...resultParts(this.table, this.variant, (seat) => this.seatName(seat)), this.rematchPart(),
        h("p", { class: "result-links" }, h("a", { href: pages.replay(this.id), "data-link": "", id: "result-replay",
          text: t("table.replay") })));
      if (keep && document.getElementById(keep)) document.getElementById(keep).focus();
    }
  }

  // -- hints and the unseen tiles -------------------------------------------------------------

  renderHints() {
    const table = this.table;
    const el = this.els.hints;
    const show = Boolean(table.hints && table.you && table.state === "playing" && !this.resigned());
    el.hidden = !show;
    if (!show) return;
    const hs = this.hints;
    if (hs.seq !== table.seq) { // another position: the hints were for the one before
      hs.seq = table.seq;
      hs.moves = null;
      hs.error = "";
    }
    const key = JSON.stringify([hs.moves, hs.busy, hs.error, this.myTurn()]);
    if (key === hs.drawn) return;
    hs.drawn = key;
    const keep = document.activeElement && el.contains(document.activeElement) ? document.activeElement.id : null;
    const button = h("button", { type: "button", id: "hint-button", dataset: { action: "hint" },
      text: t("hints.button"), "aria-describedby": "hints-help", disabled: hs.busy, onclick: () => this.askHint() });
    const parts = [h("div", { class: "hints-head" }, h("h2", { id: "hints-h", text: t("hints.title") }), button),
      h("p", { class: "help", id: "hints-help", text: t("hints.help") })];
    if (hs.busy) parts.push(h("p", { class: "hint pending", text: t("hints.thinking") }));
    if (hs.error) parts.push(h("p", { class: "message", dataset: { kind: "error" }, text: hs.error }));
    if (hs.moves && !hs.moves.length) parts.push(h("p", { class: "hint", text: t("hints.none") }));
    if (hs.moves && hs.moves.length) {
      parts.push(h("ol", { class: "hint-list" }, hs.moves.map((m, i) => {
        const what = [h("code", { class: "notation", text: m.kind === "pass" ? t("history.passed") : m.move }),
          h("span", { class: "hint-score", text: plural("analysis.points", m.score ?? 0) }),
          h("span", { class: "hint-leave", text: t("hints.leave", { leave: leaveText(m.leave) }) }),
          h("span", { class: "hint-equity", text: t("hints.equity", { equity: decimal(m.equity) }) })];
        if (!m.tiles || !m.tiles.length) return h("li", { class: "hint-item", dataset: { move: m.move } }, what);
        return h("li", { class: "hint-item", dataset: { move: m.move } },
          h("button", { type: "button", class: "hint-move", id: `hint-${i}`, dataset: { move: m.move, score: String(m.score) },
            "aria-label": t("hints.place", { move: m.move, points: plural("analysis.points", m.score ?? 0) }),
            onclick: () => this.placeHint(m) }, what));
      })));
    }
    replace(el, ...parts);
    if (keep && document.getElementById(keep)) document.getElementById(keep).focus();
  }

  async askHint() {
    const hs = this.hints;
    if (hs.busy || !this.table.you) return;
    const hadFocus = document.activeElement && document.activeElement.id === "hint-button";
    hs.busy = true;
    hs.error = "";
    this.renderHints();
    const seq = this.table.seq;
    try {
      const answer = await api.hint(this.id, this.seat ? this.seat.token : null, 3);
      if (this.table.seq === seq) hs.moves = answer.moves || [];
    } catch (e) {
      hs.error = errorText(e);
    } finally {
      hs.busy = false;
    }
    this.renderHints();
    // The button was drawn again: keep the keyboard on the first hint, or the button.
    const next = this.els.hints.querySelector(".hint-move") || document.getElementById("hint-button");
    if (hadFocus && next) next.focus();
  }

  /** A hint's tiles on the board as the proposed move: the player sends it with Move or takes it back. */
  placeHint(m) {
    if (this.mode === "cambio") this.endCambio();
    this.placement.clear();
    for (const tile of m.tiles) {
      const at = parseSquare(tile.square);
      const want = tile.blank ? BLANK : tile.letter;
      const index = at && this.placement.onRack().find((i) => this.placement.letter(i) === want);
      if (index === undefined || index === null || this.isFixed(at[0], at[1])) {
        this.placement.clear(); // the rack or the board changed since the hint
        this.say(t("hints.stale"), "error");
        this.changed();
        return;
      }
      this.placement.place(index, at[0], at[1], tile.blank ? tile.letter : null);
    }
    this.selected = null;
    this.lastTyped = null;
    this.cursor = null;
    this.say(t(this.myTurn() ? "hints.placed" : "hints.placed_wait", { move: m.move }));
    this.changed();
  }

  /** The tiles this viewer has not seen, by letter (the game's order, none left greyed), with
   *  vowels, consonants, blanks and the bag. */
  renderUnseen() {
    const table = this.table;
    const el = this.els.unseen;
    const u = table.unseen;
    el.hidden = !u;
    if (!u) return;
    const key = JSON.stringify([u, table.bag_count]);
    if (key === this.unseenDrawn) return;
    this.unseenDrawn = key;
    const v = this.variant;
    const counts = u.tiles || {};
    const letters = (v.data.tiles || []).map((x) => x.letter).filter((l) => l !== BLANK);
    for (const l of Object.keys(counts)) if (l !== BLANK && !letters.includes(l)) letters.push(l);
    const hasBlank = BLANK in counts || (v.data.tiles || []).some((x) => x.letter === BLANK);
    if (hasBlank) letters.push(BLANK);
    const items = letters.map((l) => {
      const n = counts[l] || 0;
      const name = l === BLANK ? t("tile.blank") : l;
      return h("li", { class: `unseen-tile${n ? "" : " none"}`, dataset: { letter: l, count: String(n) } },
        h("span", { class: "mini-tile", "aria-hidden": "true" },
          tileElement(v, l === BLANK ? "" : l, { rackBlank: l === BLANK })),
        h("span", { class: "sr-only", text: `${name}: ` }),
        h("span", { class: "unseen-n", text: String(n) }));
    });
    const sums = [plural("table.bag", table.bag_count), plural("unseen.vowels", u.vowels ?? 0),
      plural("unseen.consonants", u.consonants ?? 0)];
    if (hasBlank) sums.push(plural("unseen.blanks", u.blanks ?? 0));
    replace(el,
      h("summary", {}, h("h2", { id: "unseen-h" }, h("span", { text: t("unseen.title") }), " ",
        h("span", { class: "unseen-total", text: String(u.total ?? 0) }))),
      h("p", { class: "help unseen-help", text: t(table.you ? "unseen.help_player" : "unseen.help_spectator") }),
      h("p", { class: "unseen-sums", dataset: { vowels: String(u.vowels ?? 0), consonants: String(u.consonants ?? 0),
        blanks: String(u.blanks ?? 0) } }, sums.join(" \u00b7 ")),
      h("ul", { class: "unseen-tiles", "aria-labelledby": "unseen-h" }, items));
  }

  // -- the analysis of a finished game -------------------------------------------------------

  renderAnalysis() {
    const el = this.els.analysis;
    const over = this.table.state === "over";
    el.hidden = !over;
    if (!over || this.analysis) return;
    this.analysisResult = h("div", { class: "analysis-result" });
    this.analysis = new AnalysisControl(this.id, { onResult: (result, method) => this.showAnalysis(result, method) });
    replace(el, h("h2", { id: "analysis-h", text: t("analysis.title") }), this.analysisResult, this.analysis.el);
    this.analysis.load();
  }

  showAnalysis(result, method) {
    if (!result) {
      replace(this.analysisResult);
      return;
    }
    replace(this.analysisResult,
      h("p", { class: "analysis-method help", text: t(`analysis.method_${method}`) }),
      summaryTable(result),
      h("p", { class: "help", text: t("analysis.mistakes_help") }),
      h("p", { class: "result-links" }, h("a", { href: pages.replay(this.id), "data-link": "", id: "analysis-replay",
        text: t("analysis.step_through") })));
  }

  // -- rematch --------------------------------------------------------------------------------

  /** Rematch: a button for a seated player; then who asked; then the new table. */
  rematchPart() {
    const table = this.table;
    const rm = table.rematch || { asked: [], table: null };
    const you = table.you;
    const asked = (rm.asked || []).filter((seat) => table.seats[seat] && table.seats[seat].kind === "human");
    const names = asked.map((seat) => this.seatName(seat)).join(", ");
    const parts = [];
    if (rm.table) {
      parts.push(h("p", { class: "rematch-ready", text: t("rematch.ready") }),
        h("a", { class: "button primary", id: "rematch-go", href: pages.table(rm.table), "data-link": "",
          text: t(you ? "rematch.go" : "rematch.watch"),
          onclick: () => { if (you) carrySeat(this.id, rm.table, table.seats.length); } }));
    } else if (you && (asked.includes(you.seat) || this.rematch.asked)) {
      parts.push(h("p", { class: "rematch-waiting", id: "rematch-waiting", text: t("rematch.waiting") }));
      if (names) parts.push(h("p", { class: "rematch-asked", text: t("rematch.asked", { names }) }));
    } else if (you) {
      parts.push(h("button", { type: "button", class: "primary", id: "rematch-button", text: t("rematch.button"),
        "aria-disabled": this.rematch.busy ? "true" : null, onclick: () => this.askRematch() }));
      if (names) parts.push(h("p", { class: "rematch-asked", text: t("rematch.asked", { names }) }));
    } else if (names) {
      parts.push(h("p", { class: "rematch-asked", text: t("rematch.asked", { names }) }));
    }
    if (this.rematch.error) parts.push(h("p", { class: "message", dataset: { kind: "error" }, text: this.rematch.error }));
    if (!parts.length) return null;
    return h("div", { class: "rematch", role: "group", "aria-label": t("rematch.label") }, parts);
  }

  async askRematch() {
    if (!this.table.you || this.rematch.busy) return;
    this.rematch.busy = true;
    this.rematch.error = "";
    this.renderResult();
    try {
      const answer = await api.rematch(this.id, this.seat ? this.seat.token : null);
      this.rematch.asked = true;
      if (this.table.rematch) this.table.rematch = { ...this.table.rematch, asked: answer.asked || [] };
      if (answer.table) {
        this.followRematch(answer.table);
        return;
      }
    } catch (e) {
      this.rematch.error = errorText(e);
    } finally {
      this.rematch.busy = false;
    }
    const hadFocus = document.activeElement && document.activeElement.id === "rematch-button";
    this.renderResult();
    // The button is gone: keep a keyboard user's place on what replaced it.
    const next = document.getElementById("rematch-waiting") || document.getElementById("rematch-button");
    if (hadFocus && next) {
      next.setAttribute("tabindex", "-1");
      next.focus();
    }
  }

  /** To the rematch's table, seated: a guest's token goes with them (one seat on). */
  followRematch(newId) {
    if (this.rematch.followed) return;
    this.rematch.followed = true;
    carrySeat(this.id, newId, this.table.seats.length);
    this.navigate(pages.table(newId));
  }

  showConnection(status) {
    const el = this.els && this.els.conn;
    if (!el) return;
    el.dataset.status = status;
    el.textContent = t(`conn.${status}`);
  }

  say(text, kind = "info") {
    this.els.message.textContent = text;
    this.els.message.dataset.kind = kind;
  }

  // -- the placement --------------------------------------------------------------------------

  placementKey() {
    if (this.mode === "cambio") {
      const c = this.cambio;
      return `${this.table.seq}|cambio|${c.square}|${c.letter}|${c.blank}`;
    }
    return `${this.table.seq}|${JSON.stringify(this.placement.tiles())}`;
  }

  changed() {
    this.render();
    this.schedulePreview();
  }

  schedulePreview(immediate = false) {
    clearTimeout(this.previewTimer);
    if (!this.table || !this.table.you || this.table.state !== "playing") return;
    const ready = this.mode === "cambio"
      ? this.cambio.square && this.cambio.letter
      : this.placement.size > 0 && this.placement.pendingBlanks().length === 0;
    if (!ready) {
      this.preview = null;
      this.renderPreview();
      return;
    }
    this.previewTimer = setTimeout(() => this.fetchPreview(), immediate ? 0 : PREVIEW_DELAY_MS);
  }

  async fetchPreview() {
    const key = this.placementKey();
    if (this.preview && this.previewFor === key) return;
    const ticket = ++this.previewToken;
    let result;
    try {
      if (this.mode === "cambio") {
        const c = this.cambio;
        result = await api.previewMove(this.id, this.seat.token,
          { kind: "cambio", square: c.square, letter: c.letter, blank: c.blank });
      } else {
        result = await api.preview(this.id, this.seat.token, this.placement.tiles());
      }
    } catch (e) {
      if (ticket !== this.previewToken) return;
      result = { legal: false, rule: e.code, reason: e.message };
    }
    if (ticket !== this.previewToken || key !== this.placementKey()) return;
    this.preview = result;
    this.previewFor = key;
    this.renderPreview();
    this.renderBoard();
  }

  async placeTile(index, r, c, letter = null) {
    const tile = this.placement.letter(index);
    if (!this.placement.place(index, r, c, letter)) return false;
    this.selected = null;
    this.changed();
    if (tile === BLANK && !letter) {
      const chosen = await pickBlankLetter(this.variant.letters);
      if (chosen) this.placement.setBlankLetter(r, c, chosen);
      else this.placement.take(r, c);
      this.changed();
    }
    return true;
  }

  isFixed(r, c) {
    return Boolean(this.table.board[r] && this.table.board[r][c]);
  }

  isEmpty(r, c) {
    return !this.isFixed(r, c) && !this.placement.at(r, c);
  }

  clickSquare(r, c) {
    if (!this.canType()) {
      this.board.setActive(r, c); // a spectator looks around from here; no typing cursor
      return;
    }
    if (this.mode === "cambio") {
      if (this.isFixed(r, c)) {
        this.cambio.square = squareName(r, c);
        this.changed();
      }
      return;
    }
    const sel = this.selected;
    const mine = this.placement.at(r, c);
    if (sel && sel.type === "rack" && !this.isFixed(r, c)) {
      if (mine) this.placement.take(r, c);
      this.placeTile(sel.index, r, c);
      return;
    }
    if (sel && sel.type === "board") {
      if (sel.r === r && sel.c === c) {
        this.selected = null;
      } else if (this.isEmpty(r, c)) {
        this.placement.move(sel.r, sel.c, r, c);
        this.selected = null;
      } else if (mine) {
        this.selected = { type: "board", r, c };
      }
      this.changed();
      return;
    }
    if (mine) {
      this.selected = { type: "board", r, c };
      this.render();
      return;
    }
    // No tile in hand: the square becomes the keyboard cursor; a second click turns it.
    if (this.cursor && this.cursor.r === r && this.cursor.c === c) {
      this.cursor = { r, c, dir: this.cursor.dir === "across" ? "down" : "across" };
    } else {
      this.cursor = { r, c, dir: this.cursor ? this.cursor.dir : "across" };
    }
    this.lastTyped = null;
    this.renderBoard();
    this.focusCursor();
  }

  async doubleClickSquare(r, c) {
    const p = this.placement.at(r, c);
    if (!p || !p.blank) return;
    this.selected = null;
    const chosen = await pickBlankLetter(this.variant.letters, p.letter);
    if (chosen && this.placement.at(r, c)) this.placement.setBlankLetter(r, c, chosen);
    this.changed();
  }

  async clickRack(index) {
    if (this.mode === "cambio") {
      if (index === null) return;
      let letter = this.placement.letter(index);
      let blank = false;
      if (letter === BLANK) {
        letter = await pickBlankLetter(this.variant.letters);
        if (!letter) return;
        blank = true;
      }
      this.cambio = { ...this.cambio, index, letter, blank };
      this.changed();
      return;
    }
    const sel = this.selected;
    if (sel && sel.type === "board") {
      this.placement.take(sel.r, sel.c);
      this.selected = null;
      this.changed();
      return;
    }
    if (index === null) return;
    this.selected = sel && sel.type === "rack" && sel.index === index ? null : { type: "rack", index };
    this.renderRack();
    this.renderBoard();
  }

  recall() {
    this.placement.clear();
    this.selected = null;
    this.lastTyped = null;
    this.changed();
  }

  shuffle() {
    this.placement.shuffle();
    this.renderRack();
  }

  // -- zoom (phones) --------------------------------------------------------------------------

  /**
   * On a phone the whole board fits the width only with small squares (a 17-column board: about
   * 20 px). Zoom draws it larger in a box of the same place that pans with a finger, the rack
   * and the buttons staying where they are (a pinch zoom of the page, which also works, moves
   * them out of reach). Zooming in brings the action in view: the cursor, else the last move.
   */
  toggleZoom() {
    this.zoomed = !this.zoomed;
    this.drawZoomButton();
    // The box keeps the height the whole board had, so nothing under it moves.
    if (this.zoomed) this.boardWrap.style.setProperty("--fit-h", `${this.board.el.offsetHeight}px`);
    this.boardWrap.classList.toggle("zoomed", this.zoomed);
    if (!this.zoomed) return;
    const square = this.cursor || this.selectedSquare() || this.lastMoveSquare() || this.board.homeSquare();
    const cell = this.board.cell(square.r, square.c);
    const wrap = this.boardWrap.getBoundingClientRect();
    const box = cell.getBoundingClientRect();
    this.boardWrap.scrollBy({
      left: box.left + box.width / 2 - (wrap.left + wrap.width / 2),
      top: box.top + box.height / 2 - (wrap.top + wrap.height / 2),
    });
  }

  drawZoomButton() {
    const b = this.buttons.zoom;
    b.setAttribute("aria-pressed", this.zoomed ? "true" : "false");
    replace(b, zoomIcon(this.zoomed), h("span", { text: t("board.zoom") }));
  }

  selectedSquare() {
    return this.selected && this.selected.type === "board" ? this.selected : null;
  }

  lastMoveSquare() {
    const name = (this.table.last_move_squares || [])[0];
    const cell = name && this.board.el.querySelector(`.sq[data-square="${name}"]`);
    return cell ? { r: Number(cell.dataset.r), c: Number(cell.dataset.c) } : null;
  }

  // -- drag and drop --------------------------------------------------------------------------

  dragPayload(el) {
    if (this.mode === "cambio") return null;
    if (el.dataset.drag === "rack") return { type: "rack", index: Number(el.dataset.index) };
    if (el.dataset.drag === "board") return { type: "board", r: Number(el.dataset.r), c: Number(el.dataset.c) };
    return null;
  }

  hover(target) {
    for (const el of this.root.querySelectorAll(".drop-target")) el.classList.remove("drop-target");
    if (!target) return;
    const cell = target.closest(".sq");
    if (cell && !this.isFixed(Number(cell.dataset.r), Number(cell.dataset.c))) cell.classList.add("drop-target");
    const rack = target.closest(".rack");
    if (rack) rack.classList.add("drop-target");
  }

  /** Where among the rack tiles a drop at x falls. */
  rackPosition(x) {
    const tiles = [...this.els.rack.querySelectorAll(".rack-tile:not(.drag-source)")];
    let pos = 0;
    for (const el of tiles) {
      const rect = el.getBoundingClientRect();
      if (x > rect.left + rect.width / 2) pos += 1;
    }
    return pos;
  }

  drop(payload, x, y, target) {
    this.hover(null);
    const cell = target ? target.closest(".sq") : null;
    const onRack = target ? target.closest(".rack-area") : null;
    this.selected = null;
    if (payload.type === "rack") {
      if (cell) {
        const r = Number(cell.dataset.r);
        const c = Number(cell.dataset.c);
        if (this.isFixed(r, c)) return;
        if (this.placement.at(r, c)) this.placement.take(r, c);
        this.placeTile(payload.index, r, c);
      } else if (onRack) {
        this.placement.reorder(payload.index, this.rackPosition(x));
        this.renderRack();
      }
      return;
    }
    // A tile already on the board: to another square, or back to the rack (also when dropped
    // anywhere else, as if the tile slipped from the player's hand back to the rack).
    if (cell) {
      const r = Number(cell.dataset.r);
      const c = Number(cell.dataset.c);
      if (this.isEmpty(r, c)) {
        this.placement.move(payload.r, payload.c, r, c);
        this.changed();
      }
      return;
    }
    const p = this.placement.take(payload.r, payload.c);
    if (p && onRack) this.placement.reorder(p.index, this.rackPosition(x));
    this.changed();
  }

  // -- keyboard -------------------------------------------------------------------------------

  focusCursor() {
    if (!this.cursor) return;
    const cell = this.board.cell(this.cursor.r, this.cursor.c);
    if (cell && document.activeElement !== cell) cell.focus({ preventScroll: false });
  }

  defaultCursor() {
    return { ...this.board.homeSquare(), dir: "across" }; // the start square
  }

  step(cursor, delta) {
    const [dr, dc] = cursor.dir === "down" ? [1, 0] : [0, 1];
    return { ...cursor, r: cursor.r + dr * delta, c: cursor.c + dc * delta };
  }

  onBoard(p) {
    return p.r >= 0 && p.c >= 0 && p.r < this.variant.rows && p.c < this.variant.columns;
  }

  /** The next square on from the cursor that no tile covers (or the cursor if none is left). */
  advance(from) {
    let p = this.step(from, 1);
    while (this.onBoard(p) && !this.isEmpty(p.r, p.c)) p = this.step(p, 1);
    return this.onBoard(p) ? p : from;
  }

  /** Whether this page's player may compose a move with the keyboard now. */
  canType() {
    return Boolean(this.table && this.table.you && this.table.state === "playing" && !this.resigned());
  }

  /** The board grid moved the focus (boardgrid.js): a player's typing cursor follows it, an
   *  arrow setting the direction it types in. */
  moveCursor({ r, c, dir }) {
    if (!this.canType()) return;
    this.cursor = { r, c, dir: dir || (this.cursor ? this.cursor.dir : "across") };
    this.lastTyped = null;
    this.pendingPrefix = null;
    this.renderBoard();
  }

  handleKey(e) {
    if (e.defaultPrevented || !this.canType()) return; // the board grid took the arrows already
    if (document.querySelector("dialog[open]")) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // Enter and Space belong to a focused button or link (Take back, Pass...), except on the
    // board, where they play and turn the cursor.
    const onControl = e.target && e.target.closest && e.target.closest("button, a, summary")
      && !e.target.closest(".board");
    if (onControl && (e.key === "Enter" || e.key === " ")) return;
    // On a square with a tile in hand, Enter or Space puts it there (as a click does).
    const cell = e.target && e.target.closest && e.target.closest(".board .sq");
    if (cell && this.selected && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      this.clickSquare(Number(cell.dataset.r), Number(cell.dataset.c));
      return;
    }
    // An arrow pressed off the board (on the page, the rack...) brings the cursor to it; on the
    // board the grid (boardgrid.js) moves it.
    const arrows = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (e.key in arrows) {
      e.preventDefault();
      const [dr, dc] = arrows[e.key];
      const cur = this.cursor || this.defaultCursor();
      const next = this.cursor ? { r: cur.r + dr, c: cur.c + dc } : cur;
      if (this.onBoard(next)) {
        this.cursor = { r: next.r, c: next.c, dir: dr ? "down" : "across" };
      } else {
        this.cursor = { ...cur, dir: dr ? "down" : "across" };
      }
      this.lastTyped = null;
      this.pendingPrefix = null;
      this.renderBoard();
      this.focusCursor();
      return;
    }
    if (e.key === "Enter") {
      const cambioReady = this.mode === "cambio" && this.cambio.square && this.cambio.letter;
      if (cambioReady || (this.mode === "normal" && this.placement.size)) {
        e.preventDefault();
        this.playMove();
      } else if (cell) {
        e.preventDefault();
        // As a click: turns the cursor, or chooses CAMBIO's square.
        this.clickSquare(Number(cell.dataset.r), Number(cell.dataset.c));
      }
      return;
    }
    if (e.key === "Backspace" || e.key === "Delete") {
      e.preventDefault();
      this.takeBackLast();
      return;
    }
    if (e.key === "Escape") {
      if (this.mode === "cambio") this.endCambio();
      this.recall();
      return;
    }
    if (e.key === " " && this.cursor) {
      e.preventDefault();
      this.cursor = { ...this.cursor, dir: this.cursor.dir === "across" ? "down" : "across" };
      this.renderBoard();
      return;
    }
    if (this.mode !== "normal" || e.key.length !== 1) return;
    const letter = foldKey(e.key, this.variant.typable);
    if (!letter) return;
    e.preventDefault();
    this.typeLetter(letter, e.shiftKey); // Shift+letter: a blank standing for the letter
  }

  typeLetter(letter, forceBlank) {
    const p = this.placement;
    const digraphs = this.variant.digraphs;
    // C then H: the C typed last becomes the CH tile.
    const joined = digraphCompletion(p, this.lastTyped, letter, digraphs);
    if (joined) {
      const { r, c } = this.lastTyped;
      const old = p.take(r, c);
      const tile = chooseTile(p, joined, old.blank);
      if (tile) {
        p.place(tile.index, r, c, tile.blank ? joined : null);
        this.lastTyped = null;
        this.changed();
        return;
      }
      p.place(old.index, r, c, old.blank ? old.letter : null);
    }
    if (this.pendingPrefix) {
      const both = this.pendingPrefix + letter;
      this.pendingPrefix = null;
      if (digraphs.includes(both)) {
        this.putTyped(both, forceBlank);
        return;
      }
    }
    if (!chooseTile(p, letter, forceBlank) && startsDigraph(p, letter, digraphs)) {
      this.pendingPrefix = letter; // only CH is on the rack: wait for the H
      this.say(t("keys.waiting_digraph", { letter }));
      return;
    }
    this.putTyped(letter, forceBlank);
  }

  putTyped(letter, forceBlank) {
    const p = this.placement;
    if (!this.cursor) {
      if (this.table.board.some((row) => row.some(Boolean))) {
        this.say(t("keys.click_first"));
        return;
      }
      this.cursor = this.defaultCursor();
    }
    let at = this.cursor;
    if (this.isFixed(at.r, at.c)) at = this.advance(at);
    if (this.isFixed(at.r, at.c)) return;
    const tile = chooseTile(p, letter, forceBlank);
    if (!tile) {
      this.say(t("keys.no_tile", { letter }), "error");
      return;
    }
    if (p.at(at.r, at.c)) p.take(at.r, at.c);
    p.place(tile.index, at.r, at.c, tile.blank ? letter : null);
    this.say("");
    this.lastTyped = { r: at.r, c: at.c };
    this.cursor = this.advance(at);
    this.changed();
    this.focusCursor();
  }

  takeBackLast() {
    const last = this.placement.last();
    this.pendingPrefix = null;
    if (!last) return;
    this.placement.take(last.r, last.c);
    this.cursor = { r: last.r, c: last.c, dir: this.cursor ? this.cursor.dir : "across" };
    this.lastTyped = null;
    this.changed();
    this.focusCursor();
  }

  // -- actions --------------------------------------------------------------------------------

  async send(move) {
    if (!this.seat || this.busy) return null;
    this.busy = true;
    this.lastError = null;
    this.renderActions();
    try {
      const answer = await api.move(this.id, this.seat.token, move, this.table.seq);
      this.say("");
      if (answer.table) this.applyState(answer.table);
      return answer;
    } catch (e) {
      this.lastError = e.code;
      this.say(errorText(e), "error");
      if (e instanceof ApiError && e.code === "stale_seq") {
        this.applyState(await this.fetchTable());
      }
      return null;
    } finally {
      this.busy = false;
      this.renderActions();
    }
  }

  async playMove() {
    if (!this.myTurn()) return;
    if (this.mode === "cambio") {
      const c = this.cambio;
      if (!c.square || !c.letter) return;
      const answer = await this.send({ kind: "cambio", square: c.square, letter: c.letter, blank: c.blank });
      if (answer) this.endCambio();
      this.render();
      return;
    }
    if (!this.placement.size || this.placement.pendingBlanks().length) return;
    const answer = await this.send({ kind: "place", tiles: this.placement.tiles() });
    if (answer) {
      const r = answer.result || {};
      if (r.kind === "lost_turn") this.say(t("table.lost_turn", { reason: r.reason || "" }), "error");
      this.placement.clear();
      this.lastTyped = null;
      this.render();
    }
  }

  async pass() {
    if (!this.myTurn()) return;
    if (await confirmDialog(t("pass.title"), t("pass.question"), t("action.pass"))) {
      await this.send({ kind: "pass" });
    }
  }

  async exchange() {
    if (!this.myTurn()) return;
    this.recall();
    const tiles = this.placement.onRack().map((index) => ({ index, letter: this.placement.letter(index) }));
    const chosen = await pickExchange(this.variant, tiles, this.variant.exchange.max_tiles || this.variant.rackSize);
    if (chosen && chosen.length) {
      await this.send({ kind: "exchange", tiles: chosen.map((i) => this.placement.letter(i)) });
    }
  }

  toggleCambio() {
    if (this.mode === "cambio") {
      this.endCambio();
    } else {
      this.recall();
      this.mode = "cambio";
      this.cambio = { square: null, index: null, letter: null, blank: false };
      this.say(""); // the preview panel says what to choose next
    }
    this.changed();
  }

  endCambio() {
    this.mode = "normal";
    this.cambio = { square: null, index: null, letter: null, blank: false };
    this.say("");
  }

  async challenge() {
    if (await confirmDialog(t("challenge.title"), t("challenge.question"), t("action.challenge"))) {
      await this.send({ kind: "challenge" });
    }
  }

  async resign() {
    if (!this.seat || this.table.state !== "playing" || this.resigned()) return;
    if (!await confirmDialog(t("resign.title"), t("resign.question"), t("action.resign"), { danger: true })) return;
    let answer = await this.send({ kind: "resign" });
    if (!answer && this.table.state === "playing" && !this.resigned() && this.lastError === "stale_seq") {
      answer = await this.send({ kind: "resign" }); // someone moved meanwhile: resigning still stands
    }
    if (answer) this.render();
  }

  async leave() {
    try {
      await api.leave(this.id, this.seat.token);
      forgetSeat(this.id);
      this.seat = null;
      this.applyState(await this.fetchTable());
      this.live.reconnect();
    } catch (e) {
      this.say(errorText(e), "error");
    }
  }

  async sit(seat, nickname) {
    const name = nickname === null ? null : nickname.trim(); // null: as the logged-in account
    if (name === "") {
      this.say(t("sit.need_nickname"), "error");
      $("#nickname", this.root)?.focus();
      return;
    }
    try {
      const answer = await api.sit(this.id, seat, name);
      saveSeat(this.id, answer.seat ?? seat, answer.token);
      if (name) saveNickname(name);
      this.seat = seatFor(this.id);
      this.say("");
      if (answer.table) this.applyState(answer.table);
      this.live.reconnect();
    } catch (e) {
      this.say(errorText(e), "error");
    }
  }
}
