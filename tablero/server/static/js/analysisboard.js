// The analysis board (/analysis): a position pasted as CGP, or opened from a replay
// (/analysis?cgp=…&variant=…, the variant being the game's built-in name or an upload's id, which
// a CGP of an uploaded game cannot name). The server lists every move (POST
// /api/positions/moves: score, leave, equity, the tiles put down), shown in a table sortable by
// each column; the pointer or the focus on a move draws it on the board (a click keeps it).
//
// Simulate: rounds of 50 deals (POST /api/positions/simulate, a new seed each round) over the
// 10 best moves or the ones ticked (at most 20), until the number of deals chosen or Stop. The
// page adds the rounds up: each move's sums and sums of squares give its mean and the standard
// error of that mean, shown as "mean ± error".

import { decimal, leaveText, lookAt, progressRow } from "./analysis.js";
import { api, errorText, pages } from "./api.js";
import { BoardView, tileElement } from "./board.js";
import { h, replace } from "./dom.js";
import { plural, t } from "./i18n.js";
import { BLANK, parseSquare } from "./placement.js";
import { parseCgp } from "./position.js";
import { VariantView, gameTitle } from "./variant.js";

const ROUND = 50;
const DEFAULT_SIM_MOVES = 10;
const MAX_SIM_MOVES = 20;
const TARGETS = [100, 200, 500, 1000, 2000, 5000];
const DEFAULT_TARGET = 500;

/** Sort keys: text ascending first, numbers descending first. */
const COLUMNS = [
  { key: "move", numeric: false },
  { key: "score", numeric: true },
  { key: "leave", numeric: false },
  { key: "equity", numeric: true },
  { key: "sim", numeric: true },
];

export class AnalysisBoardPage {
  constructor(root, { onTitle, navigate } = {}) {
    this.root = root;
    this.onTitle = onTitle || (() => {});
    this.navigate = navigate;
    this.alive = true;
    this.variants = [];
    this.position = null;   // {cgp, ref, parsed, variant, moves, count}
    this.rows = new Map();  // notation -> {tr, move, checkbox, simCell}
    this.sort = { key: "equity", dir: "desc" };
    this.ticked = new Set();
    this.stats = new Map(); // notation -> {n, total, totalSq, bonus}
    this.sim = null;        // the simulation running: {ticket, running, deals, target}
    this.simTicket = 0;
    this.loadTicket = 0;
    this.shownMove = null;
  }

  async mount() {
    this.onTitle(t("aboard.title"));
    replace(this.root, h("p", { class: "loading", text: t("common.loading") }));
    try {
      this.variants = await api.variants();
    } catch (e) {
      replace(this.root, h("p", { class: "page-error", text: errorText(e) }));
      return;
    }
    const q = new URLSearchParams(location.search);
    const ref = q.get("variant") || "";
    await this.build(ref);
    const cgp = q.get("cgp");
    if (cgp) {
      this.input.value = cgp;
      await this.load();
    }
  }

  unmount() {
    this.alive = false;
    this.simTicket += 1;
  }

  // -- the page -------------------------------------------------------------------------------

  async build(ref) {
    this.input = h("textarea", { id: "cgp-input", rows: "3", spellcheck: "false", autocomplete: "off",
      "aria-describedby": "cgp-input-help cgp-error", placeholder: t("aboard.cgp_placeholder") });
    this.variantSelect = h("select", { id: "board-variant" },
      h("option", { value: "", text: t("aboard.variant_from_cgp") }),
      this.variants.map((v) => h("option", { value: v.name, text: gameTitle(v) })));
    if (ref && !this.variants.some((v) => v.name === ref)) {
      // An uploaded game's id: named by its title when the server still has it.
      let title = ref;
      try { title = (await api.variant(ref)).title || ref; } catch { /* the id will do */ }
      this.variantSelect.append(h("option", { value: ref, text: title }));
    }
    this.variantSelect.value = ref;
    this.error = h("p", { class: "field-error", id: "cgp-error", role: "alert" });
    const form = h("form", { class: "aboard-form panel", onsubmit: (e) => { e.preventDefault(); this.load(); } },
      h("div", { class: "field cgp-input-field" },
        h("label", { for: "cgp-input", text: t("aboard.cgp_label") }), this.input,
        h("p", { class: "help", id: "cgp-input-help", text: t("aboard.cgp_help") })),
      h("div", { class: "aboard-form-row" },
        h("div", { class: "field" }, h("label", { for: "board-variant", text: t("aboard.variant") }), this.variantSelect),
        h("button", { type: "submit", class: "primary", id: "show-moves", text: t("aboard.show") })),
      this.error);

    this.els = {
      boardWrap: h("div", { class: "board-wrap" }),
      rack: h("div", { class: "replay-rack aboard-rack", role: "img" }),
      scores: h("p", { class: "aboard-scores" }),
      count: h("p", { class: "aboard-count", id: "move-count", role: "status" }),
      tbody: h("tbody", {}),
      simStatus: h("p", { class: "aboard-sim-status", role: "status" }),
      simHelp: h("p", { class: "help", id: "sim-help" }),
    };
    this.target = h("select", { id: "sim-target" },
      TARGETS.map((n) => h("option", { value: String(n), text: plural("aboard.deals", n) })));
    this.target.value = String(DEFAULT_TARGET);
    this.simButton = h("button", { type: "button", class: "primary", id: "simulate", text: t("aboard.simulate"),
      "aria-describedby": "sim-help", onclick: () => this.simulate() });
    this.stopButton = h("button", { type: "button", id: "stop-sim", text: t("aboard.stop"), disabled: true,
      onclick: () => this.stop() });
    this.progress = progressRow("sim-progress", "");
    this.progress.row.hidden = true;
    const e = this.els;
    this.headCells = COLUMNS.map((col) => h("th", { scope: "col", class: `c-${col.key}`, dataset: { sort: col.key } },
      h("button", { type: "button", class: "sort", text: t(`aboard.col_${col.key}`),
        onclick: () => this.sortBy(col.key) })));
    this.table = h("table", { class: "moves-table aboard-moves" },
      h("caption", { class: "sr-only", text: t("aboard.moves") }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", class: "c-tick" }, h("span", { class: "sr-only", text: t("aboard.col_tick") }),
          h("span", { "aria-hidden": "true", text: "\u2713" })),
        h("th", { scope: "col", class: "c-rank", text: "#" }),
        this.headCells)),
      e.tbody);
    lookAt(e.tbody, (move) => { this.shownMove = move; this.drawBoard(); });
    e.tbody.addEventListener("change", (ev) => {
      if (ev.target.matches("input[type=checkbox]")) this.tick(ev.target.closest("tr").dataset.move, ev.target.checked);
    });

    this.positionEl = h("div", { class: "aboard-layout", hidden: true },
      h("section", { class: "aboard-position", "aria-label": t("aboard.position") },
        e.boardWrap,
        h("div", { class: "aboard-under" }, h("span", { class: "label", text: t("aboard.rack") }), e.rack, e.scores)),
      h("section", { class: "panel aboard-moves-panel", "aria-labelledby": "aboard-moves-h" },
        h("h2", { id: "aboard-moves-h", text: t("aboard.moves") }),
        e.count,
        h("div", { class: "aboard-sim" },
          h("div", { class: "aboard-sim-row" },
            h("div", { class: "field" }, h("label", { for: "sim-target", text: t("aboard.target") }), this.target),
            this.simButton, this.stopButton),
          e.simHelp, this.progress.row, e.simStatus),
        h("div", { class: "moves-scroll" }, this.table),
        h("p", { class: "help look-help", text: t("aboard.look_help") })));

    replace(this.root, h("div", { class: "aboard-page" },
      h("header", { class: "aboard-head" },
        h("h1", { text: t("aboard.title") }), h("p", { class: "help", text: t("aboard.intro") })),
      form, this.positionEl));
    this.simHelpText();
  }

  // -- a position -----------------------------------------------------------------------------

  async load() {
    const cgp = this.input.value.trim().replace(/\s+/g, " ");
    const ref = this.variantSelect.value || null;
    const ticket = ++this.loadTicket;
    this.stop(true);
    this.showError("");
    if (!cgp) {
      this.showError(t("aboard.cgp_empty"));
      this.input.focus();
      return;
    }
    let parsed;
    let answer;
    let variant;
    try {
      parsed = parseCgp(cgp);
    } catch (e) {
      parsed = null; // the server says what is wrong
    }
    this.els.count.textContent = t("aboard.finding");
    try {
      answer = await api.positionMoves(cgp, ref);
      const name = ref || (parsed && parsed.ops.var) || "fise";
      variant = new VariantView(await api.variant(name));
    } catch (e) {
      if (ticket !== this.loadTicket || !this.alive) return;
      this.els.count.textContent = "";
      this.showError(errorText(e));
      return;
    }
    if (ticket !== this.loadTicket || !this.alive) return;
    this.position = { cgp, ref, parsed, variant, moves: answer.moves || [], count: answer.count ?? 0 };
    history.replaceState({}, "", pages.analysis(cgp, ref));
    this.stats = new Map();
    this.ticked = new Set();
    this.sort = { key: "equity", dir: "desc" };
    this.shownMove = null;
    this.positionEl.hidden = false;
    this.drawPosition();
    this.drawMoves();
    this.simHelpText();
    this.els.simStatus.textContent = "";
    this.progress.row.hidden = true;
  }

  showError(text) {
    this.error.textContent = text;
    if (text) this.input.setAttribute("aria-invalid", "true");
    else this.input.removeAttribute("aria-invalid");
  }

  drawPosition() {
    const p = this.position;
    const v = p.variant;
    if (!this.board || this.board.variant !== v) {
      this.board = new BoardView(v, { readOnly: true });
      replace(this.els.boardWrap, this.board.el);
    }
    this.drawBoard();
    const rack = p.parsed ? p.parsed.racks[0] || [] : [];
    this.els.rack.setAttribute("aria-label", rack.length
      ? t("replay.rack", { tiles: rack.map((l) => (l === BLANK ? t("tile.blank") : l)).join(" ") })
      : t("replay.rack_empty"));
    replace(this.els.rack, rack.map((l) => h("span", { class: "mini-tile", "aria-hidden": "true", dataset: { letter: l } },
      tileElement(v, l === BLANK ? "" : l, { rackBlank: l === BLANK }))));
    const scores = p.parsed ? p.parsed.scores.filter((x) => !Number.isNaN(x)) : [];
    const bits = [];
    if (scores.length) bits.push(t("aboard.scores", { scores: scores.join(" \u2013 ") }));
    if (p.parsed && p.parsed.ops.bag !== undefined && p.parsed.ops.bag !== "") bits.push(plural("table.bag", Number(p.parsed.ops.bag)));
    this.els.scores.textContent = bits.join(" \u00b7 ");
  }

  drawBoard() {
    const p = this.position;
    if (!p || !this.board) return;
    const board = p.parsed ? p.parsed.board : [];
    const move = this.shownMove ? p.moves.find((m) => m.move === this.shownMove) : null;
    if (!move) {
      this.board.update({ board });
      this.board.el.classList.remove("looking");
      return;
    }
    const tiles = move.tiles || [];
    const shown = new Map(tiles.map((x) => [x.square, x]));
    const last = tiles.map((x) => parseSquare(x.square)).filter(Boolean).sort((a, b) => b[0] - a[0] || b[1] - a[1])[0];
    const badge = last ? { r: last[0], c: last[1], text: String(move.score) } : null;
    this.board.update({ board, shown, badge });
    this.board.el.classList.add("looking");
  }

  // -- the moves table ------------------------------------------------------------------------

  drawMoves() {
    const p = this.position;
    const shown = p.moves.length;
    this.els.count.dataset.count = String(p.count);
    this.els.count.textContent = shown < p.count
      ? t("aboard.count_some", { shown, count: plural("aboard.moves_n", p.count) })
      : plural("aboard.moves_n", p.count);
    this.rows = new Map();
    const rows = p.moves.map((m, i) => {
      const checkbox = h("input", { type: "checkbox", "aria-label": t("aboard.tick", { move: m.move }) });
      const simCell = h("td", { class: "sim" });
      const tr = h("tr", { dataset: { move: m.move, kind: m.kind } },
        h("td", { class: "tick" }, checkbox),
        h("td", { class: "rank", text: String(i + 1) }),
        h("td", { class: "mv" }, h("button", { type: "button", class: "move-look", "aria-pressed": "false",
          text: m.move }), h("span", { class: "mv-leave", text: t("hints.leave", { leave: leaveText(m.leave) }) })),
        h("td", { class: "pts", text: String(m.score) }),
        h("td", { class: "leave", text: leaveText(m.leave) }),
        h("td", { class: "eq", text: decimal(m.equity) }),
        simCell);
      this.rows.set(m.move, { tr, move: m, index: i, checkbox, simCell });
      return tr;
    });
    replace(this.els.tbody, rows);
    this.table.classList.toggle("has-sim", false);
    this.drawSort();
  }

  sortBy(key) {
    const col = COLUMNS.find((c) => c.key === key);
    if (this.sort.key === key) this.sort = { key, dir: this.sort.dir === "asc" ? "desc" : "asc" };
    else this.sort = { key, dir: col.numeric ? "desc" : "asc" };
    this.drawSort();
  }

  /** The rows in the order of the sort column (ties in the server's order: best first). */
  drawSort() {
    const { key, dir } = this.sort;
    const sign = dir === "asc" ? 1 : -1;
    const value = (row) => {
      if (key === "sim") {
        const s = this.simOf(row.move.move);
        return s ? s.mean : null;
      }
      return row.move[key];
    };
    const rows = [...this.rows.values()];
    const collator = new Intl.Collator(undefined, { sensitivity: "base" });
    rows.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      if (x === null && y !== null) return 1;
      if (y === null && x !== null) return -1;
      let c = 0;
      if (x !== null && y !== null) c = typeof x === "number" ? x - y : collator.compare(String(x), String(y));
      return c ? sign * c : a.index - b.index;
    });
    this.els.tbody.append(...rows.map((r) => r.tr));
    for (const th of this.headCells) {
      if (th.dataset.sort === key) th.setAttribute("aria-sort", dir === "asc" ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
  }

  // -- simulation -----------------------------------------------------------------------------

  tick(move, on) {
    if (on) this.ticked.add(move);
    else this.ticked.delete(move);
    const full = this.ticked.size >= MAX_SIM_MOVES;
    for (const row of this.rows.values()) row.checkbox.disabled = full && !row.checkbox.checked;
    this.simHelpText();
  }

  /** The moves to simulate: the ones ticked, else the best ten (the server's order). */
  simMoves() {
    if (this.ticked.size) return [...this.rows.values()].filter((r) => this.ticked.has(r.move.move)).map((r) => r.move.move);
    return (this.position ? this.position.moves : []).slice(0, DEFAULT_SIM_MOVES).map((m) => m.move);
  }

  simHelpText() {
    const n = this.ticked.size;
    this.els.simHelp.textContent = n
      ? plural("aboard.sim_help_ticked", n, { max: MAX_SIM_MOVES })
      : t("aboard.sim_help", { n: DEFAULT_SIM_MOVES, max: MAX_SIM_MOVES, round: ROUND });
  }

  simOf(move) {
    const s = this.stats.get(move);
    if (!s || !s.n) return null;
    const mean = s.total / s.n + s.bonus;
    let error = null;
    if (s.n > 1) {
      const variance = Math.max(0, (s.totalSq - (s.total * s.total) / s.n) / (s.n - 1));
      error = Math.sqrt(variance / s.n);
    }
    return { mean, error, n: s.n };
  }

  async simulate() {
    const p = this.position;
    if (!p || (this.sim && this.sim.running)) return;
    const moves = this.simMoves();
    if (!moves.length) return;
    const target = Number(this.target.value) || DEFAULT_TARGET;
    const ticket = ++this.simTicket;
    const sim = { ticket, running: true, deals: 0, target, moves, error: false };
    this.sim = sim;
    this.stats = new Map();
    for (const row of this.rows.values()) {
      row.simCell.textContent = "";
      delete row.simCell.dataset.mean;
      row.tr.classList.toggle("simulated", moves.includes(row.move.move));
    }
    this.table.classList.add("has-sim");
    this.simButton.disabled = true;
    this.stopButton.disabled = false;
    this.target.disabled = true;
    this.progress.row.hidden = false;
    this.els.simStatus.textContent = plural("aboard.sim_started", moves.length);
    this.drawProgress(sim);
    while (sim.running && sim.deals < sim.target) {
      const n = Math.min(ROUND, sim.target - sim.deals);
      const seed = Math.floor(Math.random() * 2147483647);
      let round;
      try {
        round = await api.simulate(p.cgp, p.ref, moves, n, seed);
      } catch (e) {
        if (ticket !== this.simTicket) return;
        this.els.simStatus.textContent = errorText(e);
        sim.error = true;
        break;
      }
      if (ticket !== this.simTicket || !this.alive) return; // another position, or another page
      for (const m of round.moves || []) {
        const s = this.stats.get(m.move) || { n: 0, total: 0, totalSq: 0, bonus: 0 };
        s.n += m.iterations;
        s.total += m.total;
        s.totalSq += m.total_sq;
        s.bonus = m.bonus || 0;
        this.stats.set(m.move, s);
      }
      sim.deals += round.iterations || n;
      this.drawProgress(sim);
      this.drawSim();
    }
    if (ticket !== this.simTicket) return;
    const stopped = sim.deals < sim.target;
    sim.running = false;
    this.simButton.disabled = false;
    this.stopButton.disabled = true;
    this.target.disabled = false;
    if (!sim.error) {
      this.els.simStatus.textContent = stopped
        ? plural("aboard.sim_stopped", sim.deals)
        : plural("aboard.sim_done", sim.deals);
    }
    if (this.sort.key === "sim") this.drawSort();
  }

  /** Stop after the round on its way (its deals still count); `quiet`: a new position. */
  stop(quiet = false) {
    if (!this.sim || !this.sim.running) return;
    this.sim.running = false;
    this.stopButton.disabled = true;
    if (quiet) {
      this.simTicket += 1;
      this.simButton.disabled = false;
      this.target.disabled = false;
    } else {
      this.els.simStatus.textContent = t("aboard.stopping");
    }
  }

  drawProgress(sim) {
    const bar = this.progress.bar;
    bar.max = sim.target;
    bar.value = Math.min(sim.deals, sim.target);
    this.progress.label.textContent = plural("aboard.sim_progress", sim.target, { done: sim.deals });
    this.progress.row.dataset.deals = String(sim.deals);
  }

  drawSim() {
    for (const row of this.rows.values()) {
      const s = this.simOf(row.move.move);
      row.simCell.textContent = s
        ? (s.error === null ? decimal(s.mean) : `${decimal(s.mean)} \u00b1 ${decimal(s.error)}`)
        : "";
      if (s) row.simCell.dataset.mean = String(s.mean);
    }
    if (this.sort.key === "sim") this.drawSort();
  }
}
