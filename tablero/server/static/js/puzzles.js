// Puzzles (/puzzles; ?variant=fise picks the game, ?id=… opens one puzzle): find the top, the
// move worth the most points, in a position from a real game (docs/web-api.md, "Puzzles").
// The board and the rack are the table's (board.js, placement.js, drag.js, boardgrid.js): tiles
// go down by dragging, by tapping a tile then a square, or from the keyboard (a square, then
// letters; Shift+letter for a blank); the move can also be typed in notation. The server judges
// it and answers with the verdict, the answer (drawn on the board) and both ratings. Every text
// from the server (moves, reasons) goes in through textContent (dom.js).

import { account } from "./account.js";
import { api, errorText, pages } from "./api.js";
import { BoardView, drawRack } from "./board.js";
import { BoardGrid } from "./boardgrid.js";
import { pickBlankLetter } from "./dialogs.js";
import { h, replace } from "./dom.js";
import { enableDrag } from "./drag.js";
import { formatNumber, plural, t } from "./i18n.js";
import { shuffleIcon, undoIcon } from "./icons.js";
import {
  BLANK, chooseTile, digraphCompletion, foldKey, parseSquare, Placement, startsDigraph,
} from "./placement.js";
import { parseCgp } from "./position.js";
import { gameTitle, VariantView } from "./variant.js";

const LAST_GAME = "tablero.puzzles.variant";
const HISTORY_SHOWN = 10;

function signed(n) {
  return n > 0 ? `+${formatNumber(n)}` : formatNumber(n);
}

export class PuzzlesPage {
  constructor(root, { onTitle, navigate } = {}) {
    this.root = root;
    this.onTitle = onTitle || (() => {});
    this.navigate = navigate;
    this.alive = true;
    this.variants = [];
    this.games = [];
    this.game = null;        // the chosen game's name
    this.variant = null;     // its VariantView
    this.puzzle = null;      // the puzzle shown (no answer in it)
    this.board = null;       // parsed board rows
    this.placement = new Placement();
    this.selected = null;
    this.cursor = null;
    this.lastTyped = null;
    this.pendingPrefix = null;
    this.verdict = null;     // the server's answer to the attempt, once made
    this.busy = false;
    this.ticket = 0;
    this.keyHandler = (e) => this.handleKey(e);
  }

  async mount() {
    this.onTitle(t("puzzle.title"));
    replace(this.root, h("p", { class: "loading", text: t("common.loading") }));
    try {
      [this.variants, this.games] = await Promise.all([api.variants(), api.puzzleGames().then((g) => g.games)]);
    } catch (e) {
      replace(this.root, h("p", { class: "page-error", text: errorText(e) }));
      return;
    }
    if (!this.alive) return;
    const q = new URLSearchParams(location.search);
    const id = q.get("id");
    const names = this.games.map((g) => g.variant);
    let game = q.get("variant") || (id ? id.replace(/-[^-]*$/, "") : null) || localStorage.getItem(LAST_GAME) || "fise";
    if (!names.includes(game)) game = names.includes("fise") ? "fise" : names[0];
    this.build();
    document.addEventListener("keydown", this.keyHandler);
    if (!game) {
      this.say(t("puzzle.none"), "error");
      return;
    }
    this.gameSelect.value = game;
    await this.choose(game, id);
  }

  unmount() {
    this.alive = false;
    document.removeEventListener("keydown", this.keyHandler);
  }

  // -- the page -------------------------------------------------------------------------------

  build() {
    this.gameSelect = h("select", { id: "puzzle-game", onchange: () => this.choose(this.gameSelect.value) },
      this.games.map((g) => {
        const v = this.variants.find((x) => x.name === g.variant);
        return h("option", { value: g.variant, text: v ? gameTitle(v) : g.variant });
      }));
    const tool = (label, icon, onclick) => h("button", { type: "button", class: "tool icon-button",
      "aria-label": label, title: label, onclick }, icon);
    this.buttons = {
      shuffle: tool(t("rack.shuffle"), shuffleIcon(), () => this.shuffle()),
      recall: tool(t("rack.recall"), undoIcon(), () => this.recall()),
      check: h("button", { type: "button", class: "primary", id: "puzzle-check", text: t("puzzle.check"),
        onclick: () => this.check() }),
      giveUp: h("button", { type: "button", id: "puzzle-give-up", text: t("puzzle.give_up"),
        onclick: () => this.giveUp() }),
      next: h("button", { type: "button", id: "puzzle-next", text: t("puzzle.next"), onclick: () => this.next() }),
    };
    this.moveInput = h("input", { id: "puzzle-move", type: "text", autocomplete: "off", spellcheck: "false",
      autocapitalize: "characters", maxlength: "60", placeholder: "8H CASA", "aria-describedby": "puzzle-move-help" });
    this.els = {
      meta: h("p", { class: "puzzle-meta" }),
      boardWrap: h("div", { class: "board-wrap" }),
      foot: h("div", { class: "board-foot" }),
      rack: h("div", { class: "rack", role: "group", "aria-label": t("rack.label") }),
      message: h("p", { class: "message", role: "status", "aria-live": "polite" }),
      stats: h("section", { class: "panel puzzle-stats", "aria-labelledby": "puzzle-stats-h" }),
      verdict: h("section", { class: "panel puzzle-verdict", id: "puzzle-verdict", hidden: true, tabindex: "-1",
        "aria-live": "polite", "aria-labelledby": "puzzle-verdict-h" }),
      history: h("section", { class: "panel puzzle-history", "aria-labelledby": "puzzle-history-h" }),
    };
    const e = this.els;
    const typed = h("form", { class: "puzzle-typed", onsubmit: (ev) => { ev.preventDefault(); this.check(true); } },
      h("label", { for: "puzzle-move", text: t("puzzle.type_label") }),
      h("div", { class: "puzzle-typed-row" }, this.moveInput,
        h("button", { type: "submit", id: "puzzle-check-typed", text: t("puzzle.check") })),
      h("p", { class: "help", id: "puzzle-move-help", text: t("puzzle.type_help") }));
    const play = h("section", { class: "play-area", "aria-label": t("puzzle.position") },
      h("p", { class: "puzzle-task", text: t("puzzle.task") }),
      e.boardWrap,
      h("p", { class: "sr-only", id: "puzzle-board-keys", text: t("board.keys_help") }),
      e.foot,
      h("div", { class: "controls" },
        h("div", { class: "rack-area" }, this.buttons.shuffle, e.rack, this.buttons.recall),
        h("div", { class: "actions" }, this.buttons.check, this.buttons.giveUp, this.buttons.next)),
      e.message, typed);
    const about = h("section", { class: "panel puzzle-about", "aria-labelledby": "puzzle-about-h" },
      h("h2", { id: "puzzle-about-h", text: t("puzzle.about") }), h("p", { class: "help", text: t("puzzle.intro") }));
    replace(this.root, h("div", { class: "table-page puzzle-page" },
      h("header", { class: "puzzle-head" },
        h("h1", { text: t("puzzle.title") }),
        h("div", { class: "field puzzle-game-field" }, h("label", { for: "puzzle-game", text: t("puzzle.game") }),
          this.gameSelect)),
      h("div", { class: "table-layout" }, play,
        h("aside", { class: "side" }, e.verdict, e.stats, e.history, about))));
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

  say(text, kind = "info") {
    this.els.message.dataset.kind = kind;
    this.els.message.textContent = text;
  }

  // -- choosing a puzzle ----------------------------------------------------------------------

  async choose(game, id = null) {
    this.game = game;
    localStorage.setItem(LAST_GAME, game);
    const ticket = ++this.ticket;
    try {
      const v = new VariantView(await api.variant(game));
      if (ticket !== this.ticket || !this.alive) return;
      this.variant = v;
      this.board = null;
      this.view = new BoardView(v, { describedBy: "puzzle-board-keys" });
      this.grid = new BoardGrid(this.view, { onMove: (to) => this.moveCursor(to) });
      this.view.el.addEventListener("click", (ev) => {
        const cell = ev.target.closest(".sq");
        if (cell) this.clickSquare(Number(cell.dataset.r), Number(cell.dataset.c));
      });
      this.view.el.addEventListener("dblclick", (ev) => {
        const cell = ev.target.closest(".sq");
        if (cell) this.doubleClickSquare(Number(cell.dataset.r), Number(cell.dataset.c));
      });
      replace(this.els.boardWrap, this.view.el);
      this.root.querySelector(".table-page").dataset.columns = String(v.columns);
    } catch (e) {
      this.say(errorText(e), "error");
      return;
    }
    await this.load(id);
  }

  async load(id = null, skip = null) {
    const ticket = ++this.ticket;
    this.say(t("common.loading"));
    let answer;
    try {
      answer = id ? await api.puzzle(id) : await api.nextPuzzle(this.game, skip);
    } catch (e) {
      if (ticket !== this.ticket || !this.alive) return;
      this.say(e.code === "no_puzzles" ? t("puzzle.none") : errorText(e), "error");
      return;
    }
    if (ticket !== this.ticket || !this.alive) return;
    this.show(answer.puzzle, answer.solver);
    this.refreshHistory();
  }

  next() {
    if (!this.game) return;
    history.replaceState({}, "", pages.puzzles(this.game));
    this.load(null, this.puzzle ? this.puzzle.id : null);
  }

  show(puzzle, solver) {
    this.puzzle = puzzle;
    this.solver = solver;
    this.verdict = null;
    this.board = parseCgp(puzzle.cgp).board;
    this.placement = new Placement();
    this.placement.setRack(puzzle.rack);
    this.selected = null;
    this.cursor = null;
    this.lastTyped = null;
    this.moveInput.value = "";
    this.moveInput.disabled = false;
    this.root.querySelector(".puzzle-page").dataset.puzzle = puzzle.id;
    history.replaceState({}, "", `${pages.puzzles(this.game)}&id=${encodeURIComponent(puzzle.id)}`);
    this.els.verdict.hidden = true;
    this.say(t("puzzle.place_first"));
    this.render();
  }

  // -- drawing --------------------------------------------------------------------------------

  render() {
    this.renderBoard();
    this.renderRack();
    this.renderFoot();
    this.renderStats();
    const done = Boolean(this.verdict);
    this.buttons.check.disabled = done || this.busy || this.placement.size === 0
      || this.placement.pendingBlanks().length > 0;
    this.buttons.giveUp.disabled = done || this.busy;
    this.buttons.next.classList.toggle("primary", done);
    this.buttons.check.classList.toggle("primary", !done);
    this.moveInput.disabled = done;
  }

  renderBoard() {
    if (!this.view || !this.board) return;
    let shown = null;
    let badge = null;
    if (this.verdict) {
      const tiles = (this.verdict.answers[0] && this.verdict.answers[0].tiles) || [];
      shown = new Map(tiles.map((x) => [x.square, x]));
      const last = tiles.map((x) => parseSquare(x.square)).filter(Boolean).sort((a, b) => b[0] - a[0] || b[1] - a[1])[0];
      if (last) badge = { r: last[0], c: last[1], text: String(this.verdict.answers[0].score) };
    }
    this.view.update({
      board: this.board,
      placement: this.verdict ? null : this.placement,
      cursor: this.verdict ? null : this.cursor,
      selected: this.selected,
      shown,
      badge,
    });
    this.view.el.classList.toggle("looking", Boolean(this.verdict));
  }

  renderRack() {
    const v = this.variant;
    if (!v) return;
    const shown = drawRack(this.els.rack, v, this.placement, (index) =>
      this.selected && this.selected.type === "rack" && this.selected.index === index,
    { disabled: Boolean(this.verdict) });
    this.buttons.recall.disabled = this.placement.size === 0 || Boolean(this.verdict);
    this.buttons.shuffle.disabled = shown < 2 || Boolean(this.verdict);
  }

  renderFoot() {
    const p = this.puzzle;
    if (!p) return;
    const [you, ...others] = p.scores;
    replace(this.els.foot,
      h("span", { class: "puzzle-scores", text: t("puzzle.scores", { you, them: others.join(" \u2013 ") }) }),
      h("span", { class: "bag-count", text: plural("table.bag", p.bag) }),
      h("span", { class: "puzzle-rating", text: t("puzzle.rating", { n: p.rating }) }));
  }

  renderStats() {
    const s = this.solver;
    if (!s) return;
    const rating = t("puzzle.your_rating", { n: s.rating }) + (s.provisional ? ` ${t("puzzle.provisional")}` : "");
    replace(this.els.stats,
      h("h2", { id: "puzzle-stats-h", text: t("puzzle.you") }),
      h("p", { class: "puzzle-solver-rating", text: rating }),
      h("p", { class: "puzzle-streak", text: t("puzzle.streak", { n: s.streak, best: s.best_streak }) }),
      h("p", { class: "help puzzle-tried", text: t("puzzle.tried_solved", { n: s.attempts, solved: s.solved }) }),
      account() ? null : h("p", { class: "help", text: t("puzzle.guest_help") }));
  }

  async refreshHistory() {
    let answer;
    try {
      answer = await api.puzzleHistory(this.game);
    } catch {
      return;
    }
    if (!this.alive) return;
    const items = (answer.attempts || []).slice(0, HISTORY_SHOWN).map((a) => h("li", { class: a.correct ? "right" : "wrong" },
      h("span", { class: "mark", "aria-hidden": "true", text: a.correct ? "\u2713" : "\u2717" }),
      h("span", { class: "sr-only", text: a.correct ? t("puzzle.solved") : t("puzzle.missed") }),
      h("span", { class: "mv", text: a.move || t("puzzle.gave_up_short") }),
      a.rated && a.rating_after !== null
        ? h("span", { class: "change", text: `${a.rating_after} (${signed(a.rating_after - a.rating_before)})` })
        : h("span", { class: "change", text: t("puzzle.not_rated_short") })));
    replace(this.els.history,
      h("h2", { id: "puzzle-history-h", text: t("puzzle.history") }),
      items.length ? h("ol", { class: "puzzle-history-list" }, items) : h("p", { class: "help", text: t("puzzle.history_none") }));
  }

  // -- the attempt ----------------------------------------------------------------------------

  async check(typed = false) {
    if (this.verdict || this.busy || !this.puzzle) return;
    let body;
    if (typed || (this.moveInput.value.trim() && this.placement.size === 0)) {
      const move = this.moveInput.value.trim();
      if (!move) {
        this.say(t("puzzle.place_first"), "error");
        this.moveInput.focus();
        return;
      }
      body = { move };
    } else {
      if (!this.placement.size || this.placement.pendingBlanks().length) {
        this.say(t("puzzle.place_first"), "error");
        return;
      }
      body = { tiles: this.placement.tiles() };
    }
    await this.send(body);
  }

  async giveUp() {
    if (this.verdict || this.busy || !this.puzzle) return;
    await this.send({ give_up: true });
  }

  async send(body) {
    const id = this.puzzle.id;
    this.busy = true;
    this.render();
    let answer;
    try {
      answer = await api.puzzleAttempt(id, body);
    } catch (e) {
      this.busy = false;
      this.render();
      if (this.puzzle && this.puzzle.id === id) this.say(errorText(e), "error");
      return;
    } finally {
      this.busy = false;
    }
    if (!this.alive || !this.puzzle || this.puzzle.id !== id) return;
    this.verdict = answer;
    this.solver = answer.solver;
    this.puzzle = { ...this.puzzle, rating: answer.puzzle.rating };
    this.placement.clear(); // the answer is drawn on the board instead, the rack whole again
    this.selected = null;
    this.cursor = null;
    this.moveInput.value = "";
    this.render();
    this.showVerdict(answer);
    this.refreshHistory();
    this.buttons.next.focus({ preventScroll: true });
  }

  showVerdict(a) {
    const top = a.answers[0];
    const theme = t(`puzzle.theme_${a.theme}`);
    const lines = [];
    let head;
    if (a.correct) {
      head = h("p", { class: "puzzle-result right", text: t("puzzle.right", { move: top.move, score: top.score }) });
    } else {
      if (!a.played) head = h("p", { class: "puzzle-result gave-up", text: t("puzzle.gave_up") });
      else if (!a.played.legal) {
        head = h("p", { class: "puzzle-result wrong",
          text: t("puzzle.wrong_invalid", { move: a.played.move, reason: errorText({ code: a.played.rule, message: a.played.reason }) }) });
      } else {
        head = h("p", { class: "puzzle-result wrong", text: t("puzzle.wrong", { move: a.played.move, score: a.played.score }) });
      }
      lines.push(h("p", { class: "puzzle-top", text: t("puzzle.top", { move: top.move, score: top.score }) }));
    }
    lines.push(h("p", { class: "puzzle-theme", text: t("puzzle.theme", { theme }) }));
    if (a.runner_up) {
      lines.push(h("p", { class: "help", text: t("puzzle.runner_up",
        { move: a.runner_up.move, score: a.runner_up.score, margin: formatNumber(Math.round(a.equity_margin * 10) / 10) }) }));
    }
    if (a.rated) {
      const s = a.solver;
      lines.push(h("p", { class: "puzzle-change", text: t("puzzle.rating_change", {
        before: s.rating_before, after: s.rating, change: signed(s.rating - s.rating_before),
        pbefore: a.puzzle.rating_before, pafter: a.puzzle.rating,
      }) }));
    } else {
      lines.push(h("p", { class: "help", text: t("puzzle.not_rated") }));
    }
    replace(this.els.verdict, h("h2", { id: "puzzle-verdict-h", text: t("puzzle.verdict") }), head, lines);
    // In a word under the board as well (on a phone the panel is further down the page).
    this.say(a.correct ? t("puzzle.right", { move: top.move, score: top.score })
      : t("puzzle.top", { move: top.move, score: top.score }), a.correct ? "ok" : "error");
    this.els.verdict.dataset.correct = a.correct ? "true" : "false";
    this.els.verdict.hidden = false;
  }

  // -- placing tiles (as at a table) ----------------------------------------------------------

  canPlace() {
    return Boolean(this.puzzle && !this.verdict && !this.busy);
  }

  changed() {
    this.render();
  }

  isFixed(r, c) {
    return Boolean(this.board && this.board[r] && this.board[r][c]);
  }

  isEmpty(r, c) {
    return !this.isFixed(r, c) && !this.placement.at(r, c);
  }

  async placeTile(index, r, c, letter = null) {
    const tile = this.placement.letter(index);
    if (!this.placement.place(index, r, c, letter)) return;
    this.selected = null;
    this.changed();
    if (tile === BLANK && !letter) {
      const chosen = await pickBlankLetter(this.variant.letters);
      if (chosen) this.placement.setBlankLetter(r, c, chosen);
      else this.placement.take(r, c);
      this.changed();
    }
  }

  clickSquare(r, c) {
    if (!this.canPlace()) return;
    const sel = this.selected;
    const mine = this.placement.at(r, c);
    if (sel && sel.type === "rack" && !this.isFixed(r, c)) {
      if (mine) this.placement.take(r, c);
      this.placeTile(sel.index, r, c);
      return;
    }
    if (sel && sel.type === "board") {
      if (this.isEmpty(r, c)) this.placement.move(sel.r, sel.c, r, c);
      this.selected = mine && !(sel.r === r && sel.c === c) ? { type: "board", r, c } : null;
      this.changed();
      return;
    }
    if (mine) {
      this.selected = { type: "board", r, c };
      this.render();
      return;
    }
    const dir = this.cursor && this.cursor.r === r && this.cursor.c === c
      ? (this.cursor.dir === "across" ? "down" : "across")
      : (this.cursor ? this.cursor.dir : "across");
    this.cursor = { r, c, dir };
    this.lastTyped = null;
    this.renderBoard();
    this.focusCursor();
  }

  async doubleClickSquare(r, c) {
    const p = this.placement.at(r, c);
    if (!p || !p.blank || !this.canPlace()) return;
    this.selected = null;
    const chosen = await pickBlankLetter(this.variant.letters, p.letter);
    if (chosen && this.placement.at(r, c)) this.placement.setBlankLetter(r, c, chosen);
    this.changed();
  }

  clickRack(index) {
    if (!this.canPlace()) return;
    const sel = this.selected;
    if (sel && sel.type === "board") {
      this.placement.take(sel.r, sel.c);
      this.selected = null;
      this.changed();
      return;
    }
    if (index === null) return;
    this.selected = sel && sel.type === "rack" && sel.index === index ? null : { type: "rack", index };
    this.render();
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

  dragPayload(el) {
    if (!this.canPlace()) return null;
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

  rackPosition(x) {
    let pos = 0;
    for (const el of this.els.rack.querySelectorAll(".rack-tile:not(.drag-source)")) {
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
    if (cell) {
      const r = Number(cell.dataset.r);
      const c = Number(cell.dataset.c);
      if (this.isEmpty(r, c)) this.placement.move(payload.r, payload.c, r, c);
      this.changed();
      return;
    }
    const p = this.placement.take(payload.r, payload.c);
    if (p && onRack) this.placement.reorder(p.index, this.rackPosition(x));
    this.changed();
  }

  // -- the keyboard ---------------------------------------------------------------------------

  focusCursor() {
    if (!this.cursor) return;
    const cell = this.view.cell(this.cursor.r, this.cursor.c);
    if (cell && document.activeElement !== cell) cell.focus({ preventScroll: false });
  }

  moveCursor({ r, c, dir }) {
    if (!this.canPlace()) return;
    this.cursor = { r, c, dir: dir || (this.cursor ? this.cursor.dir : "across") };
    this.lastTyped = null;
    this.pendingPrefix = null;
    this.renderBoard();
  }

  step(cursor) {
    const [dr, dc] = cursor.dir === "down" ? [1, 0] : [0, 1];
    return { ...cursor, r: cursor.r + dr, c: cursor.c + dc };
  }

  onBoard(p) {
    return p.r >= 0 && p.c >= 0 && p.r < this.variant.rows && p.c < this.variant.columns;
  }

  advance(from) {
    let p = this.step(from);
    while (this.onBoard(p) && !this.isEmpty(p.r, p.c)) p = this.step(p);
    return this.onBoard(p) ? p : from;
  }

  handleKey(e) {
    if (e.defaultPrevented || !this.canPlace() || document.querySelector("dialog[open]")) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const onControl = e.target && e.target.closest && e.target.closest("button, a, summary")
      && !e.target.closest(".board");
    if (onControl && (e.key === "Enter" || e.key === " ")) return;
    const cell = e.target && e.target.closest && e.target.closest(".board .sq");
    if (cell && this.selected && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      this.clickSquare(Number(cell.dataset.r), Number(cell.dataset.c));
      return;
    }
    if (e.key === "Enter") {
      if (this.placement.size) {
        e.preventDefault();
        this.check();
      } else if (cell) {
        e.preventDefault();
        this.clickSquare(Number(cell.dataset.r), Number(cell.dataset.c));
      }
      return;
    }
    if (e.key === "Backspace" || e.key === "Delete") {
      const last = this.placement.last();
      if (!last) return;
      e.preventDefault();
      this.placement.take(last.r, last.c);
      this.cursor = { r: last.r, c: last.c, dir: this.cursor ? this.cursor.dir : "across" };
      this.lastTyped = null;
      this.changed();
      this.focusCursor();
      return;
    }
    if (e.key === "Escape") {
      this.recall();
      return;
    }
    if (e.key === " " && this.cursor) {
      e.preventDefault();
      this.cursor = { ...this.cursor, dir: this.cursor.dir === "across" ? "down" : "across" };
      this.renderBoard();
      return;
    }
    if (e.key.length !== 1 || !this.cursor) return;
    const letter = foldKey(e.key, this.variant.typable);
    if (!letter) return;
    e.preventDefault();
    this.typeLetter(letter, e.shiftKey);
  }

  typeLetter(letter, forceBlank) {
    const p = this.placement;
    const digraphs = this.variant.digraphs;
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
      this.pendingPrefix = letter;
      return;
    }
    this.putTyped(letter, forceBlank);
  }

  putTyped(letter, forceBlank) {
    const p = this.placement;
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
}
