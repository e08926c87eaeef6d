// A finished game's analysis (docs/web-api.md, "POST /api/tables/{id}/analysis"): the engine's
// verdict on every move, run once per game and method (static equity, or simulation) by the
// server's workers. AnalysisControl asks first (GET: a second visit shows the result at once),
// offers "Analyse" and "Deeper analysis (simulation)", and while a run goes on asks again about
// every second for a progress bar. The rest are drawings of the result: a move's verdict with
// the best alternatives, each player's summary, and lookAt(), which shows a move on the board
// while the pointer or the focus is on it (the replay's alternatives, the analysis board's moves).

import { api, errorText } from "./api.js";
import { h } from "./dom.js";
import { currentLanguage, plural, t } from "./i18n.js";

export const METHODS = ["static", "sim"];
const POLL_MS = 1000;

/** An equity, a loss: two decimals in the interface language ("5.28", "5,28"). */
export function decimal(x) {
  if (x === null || x === undefined || Number.isNaN(x)) return "\u2014";
  return new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    .format(x).replace(/^-/, "\u2212");
}

/** A leave in rack notation, "—" when the move keeps nothing. */
export function leaveText(leave) {
  return leave ? leave : "\u2014";
}

/** The size of a mistake by the equity it lost (docs/analysis.md: from 3, 8 and 15). */
export function mistakeSize(loss) {
  if (loss === null || loss === undefined) return null;
  if (loss >= 15) return "large";
  if (loss >= 8) return "medium";
  if (loss >= 3) return "small";
  return null;
}

export class AnalysisControl {
  /** `onResult(result, method)`: the analysis to show changed (null: none yet). */
  constructor(tableId, { onResult = () => {}, idPrefix = "analysis" } = {}) {
    this.id = tableId;
    this.onResult = onResult;
    this.state = { static: null, sim: null };
    this.choice = null;   // the method chosen when both are done
    this.showing = [null, null]; // [method, result] last given to onResult
    this.timers = {};
    this.alive = true;
    this.loaded = false;
    const p = idPrefix;
    const button = (method, cls, text) => h("button", { type: "button", class: cls, id: `${p}-${method}`,
      dataset: { method }, text, onclick: () => this.start(method) });
    this.buttons = {
      static: button("static", "primary", t("analysis.run")),
      sim: button("sim", "", t("analysis.run_sim")),
    };
    this.progress = {};
    for (const method of METHODS) {
      const label = h("span", { class: "analysis-progress-text", id: `${p}-${method}-progress-label` });
      const bar = h("progress", { max: "1", value: "0", "aria-labelledby": label.id });
      this.progress[method] = { row: h("div", { class: "analysis-progress", dataset: { method }, hidden: true }, label, bar),
        label, bar };
    }
    this.radios = {};
    const radio = (method) => {
      const input = h("input", { type: "radio", name: `${p}-method`, id: `${p}-show-${method}`, value: method,
        onchange: () => { this.choice = method; this.update(); } });
      this.radios[method] = input;
      return h("span", { class: "choice" }, input, h("label", { for: input.id, text: t(`analysis.method_${method}`) }));
    };
    this.choiceEl = h("fieldset", { class: "analysis-choice", hidden: true },
      h("legend", { text: t("analysis.show_method") }), radio("static"), radio("sim"));
    this.help = h("p", { class: "help analysis-help", text: t("analysis.help") });
    this.simHelp = h("p", { class: "help analysis-sim-help", text: t("analysis.sim_help") });
    this.status = h("p", { class: "analysis-status", role: "status" });
    this.error = h("p", { class: "message", dataset: { kind: "error" } });
    this.el = h("div", { class: "analysis-control" }, this.help,
      h("div", { class: "analysis-buttons" }, this.buttons.static, this.buttons.sim), this.simHelp,
      this.progress.static.row, this.progress.sim.row, this.choiceEl, this.error, this.status);
    this.update();
  }

  async load() {
    const answers = await Promise.all(METHODS.map((m) => api.analysis(this.id, m).catch((e) => ({ state: "error", e }))));
    if (!this.alive) return;
    METHODS.forEach((m, i) => {
      const a = answers[i];
      if (a.state === "error") this.error.textContent = errorText(a.e);
      else this.state[m] = a;
      if (a.state === "running") this.poll(m);
    });
    this.loaded = true;
    this.update();
  }

  unmount() {
    this.alive = false;
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
  }

  async start(method) {
    const focused = document.activeElement === this.buttons[method];
    this.error.textContent = "";
    this.buttons[method].disabled = true;
    try {
      this.state[method] = await api.analyse(this.id, method);
      this.status.textContent = t(method === "sim" ? "analysis.started_sim" : "analysis.started");
    } catch (e) {
      this.error.textContent = errorText(e);
    } finally {
      this.buttons[method].disabled = false;
    }
    if (!this.alive) return;
    this.choice = method;
    this.update();
    // The button is gone while the analysis runs: keep a keyboard user's place on its bar.
    if (focused && this.buttons[method].hidden) {
      const row = this.progress[method].row;
      row.tabIndex = -1;
      row.focus();
    }
    if (this.state[method] && this.state[method].state === "running") this.poll(method);
  }

  poll(method) {
    clearTimeout(this.timers[method]);
    this.timers[method] = setTimeout(async () => {
      if (!this.alive) return;
      let answer;
      try {
        answer = await api.analysis(this.id, method);
      } catch (e) {
        this.error.textContent = errorText(e);
        this.poll(method); // a moment's failure: ask again
        return;
      }
      if (!this.alive) return;
      const was = this.state[method] && this.state[method].state;
      this.state[method] = answer;
      if (was === "running" && answer.state === "done") {
        this.status.textContent = t(method === "sim" ? "analysis.finished_sim" : "analysis.finished");
      }
      this.update();
      if (answer.state === "running") this.poll(method);
    }, POLL_MS);
  }

  /** The method whose result is shown: the one chosen, else the deeper one done. */
  shownMethod() {
    const done = (m) => this.state[m] && this.state[m].state === "done" && this.state[m].result;
    if (this.choice && done(this.choice)) return this.choice;
    if (done("sim")) return "sim";
    if (done("static")) return "static";
    return null;
  }

  update() {
    const st = (m) => (this.state[m] ? this.state[m].state : "none");
    for (const m of METHODS) {
      const s = st(m);
      this.buttons[m].hidden = !this.loaded || s === "running" || s === "done";
      const p = this.progress[m];
      p.row.hidden = s !== "running";
      if (s === "running") {
        const a = this.state[m];
        const total = Math.max(0, a.total || 0);
        p.bar.max = Math.max(1, total);
        p.bar.value = Math.min(a.done || 0, Math.max(1, total));
        p.label.textContent = total
          ? plural(m === "sim" ? "analysis.progress_sim" : "analysis.progress", total, { done: a.done || 0 })
          : t(m === "sim" ? "analysis.waiting_sim" : "analysis.waiting");
      }
      if (s === "failed") {
        this.error.textContent = t("analysis.failed", { error: this.state[m].error || "" });
      }
    }
    this.help.hidden = !this.loaded || st("static") === "done" || st("sim") === "done";
    this.simHelp.hidden = this.buttons.sim.hidden;
    const both = st("static") === "done" && st("sim") === "done";
    this.choiceEl.hidden = !both;
    const method = this.shownMethod();
    for (const m of METHODS) this.radios[m].checked = m === method;
    const result = method ? this.state[method].result : null;
    if (this.showing[0] !== method || this.showing[1] !== result) {
      this.showing = [method, result];
      this.onResult(result, method);
    }
  }
}

/** Each player's summary: rows of figures, a column per player. */
export function summaryTable(result) {
  const players = result.players || [];
  const row = (label, cell, cls = "") => h("tr", { class: cls },
    h("th", { scope: "row", text: label }), players.map((p) => h("td", { text: cell(p) })));
  const mistakes = (size) => (p) => String((p.mistakes && p.mistakes[size]) ?? 0);
  return h("table", { class: "analysis-summary-table" },
    h("caption", { class: "sr-only", text: t("analysis.summary") }),
    h("thead", {}, h("tr", {}, h("td", {}), players.map((p) => h("th", { scope: "col", class: "who", text: p.name })))),
    h("tbody", {},
      row(t("analysis.moves_judged"), (p) => String(p.moves ?? 0)),
      row(t("analysis.mean_loss"), (p) => decimal(p.mean_equity_loss), "mean-loss"),
      row(t("analysis.missed_bingos"), (p) => String(p.missed_bingos ?? 0), "missed-bingos"),
      row(t("analysis.mistakes_small"), mistakes("small"), "mistakes-small"),
      row(t("analysis.mistakes_medium"), mistakes("medium"), "mistakes-medium"),
      row(t("analysis.mistakes_large"), mistakes("large"), "mistakes-large")));
}

/**
 * The verdict on one move: what was played, its rank and equity loss, and the five best moves
 * (the move played added under them, with its rank, when it is not among them). Each move is a
 * row with data-move, its notation a button (lookAt() shows it on the board).
 */
export function moveVerdict(entry) {
  const parts = [];
  parts.push(h("p", { class: "analysis-played" },
    h("span", { class: "label", text: t("analysis.played") }), " ",
    h("code", { class: "notation", text: entry.played || "\u2014" }), " ",
    h("span", { class: "pts", text: plural("analysis.points", entry.score ?? 0) })));
  const size = mistakeSize(entry.equity_loss);
  let verdict;
  if (entry.rank === null || entry.rank === undefined) verdict = t("analysis.not_ranked");
  else if (entry.rank === 1) verdict = t("analysis.best");
  else verdict = t("analysis.rank_loss", { rank: entry.rank, loss: decimal(entry.equity_loss) });
  parts.push(h("p", { class: `analysis-verdict${size ? ` ${size}` : ""}${entry.rank === 1 ? " best" : ""}` },
    h("span", { class: "verdict-text", text: verdict }),
    size ? h("span", { class: `tag mistake ${size}`, text: t(`analysis.mistake_${size}`) }) : null));
  if (entry.note) parts.push(h("p", { class: "help analysis-note", text: t(`analysis.note_${entry.note}`) }));
  const top = entry.top || [];
  const rows = top.map((m, i) => altRow(m, i + 1));
  if (!top.some((m) => m.played) && entry.played && entry.rank) {
    rows.push(altRow({ move: entry.played, score: entry.score, equity: entry.equity, leave: null, played: true },
      entry.rank, "extra"));
  }
  const head = ["#", t("analysis.move"), t("analysis.score"), t("analysis.equity"), t("analysis.leave")];
  parts.push(h("table", { class: "alternatives moves-table" },
    h("caption", { class: "alternatives-caption", text: t("analysis.best_moves") }),
    h("thead", {}, h("tr", {}, head.map((text, i) => h("th", { scope: "col", class: `c${i}`, text })))),
    h("tbody", {}, rows)));
  parts.push(h("p", { class: "help look-help", text: t("analysis.look_help") }));
  return h("div", { class: "analysis-move" }, parts);
}

function altRow(m, rank, extra = "") {
  const cls = [m.played && "played", extra].filter(Boolean).join(" ");
  return h("tr", { class: cls, dataset: { move: m.move } },
    h("td", { class: "rank", text: String(rank) }),
    h("td", { class: "mv" },
      h("button", { type: "button", class: "move-look", "aria-pressed": "false", text: m.move }),
      m.played ? h("span", { class: "tag played-tag", text: t("analysis.played_tag") }) : null,
      m.bingo ? h("span", { class: "tag bingo-tag", text: t("analysis.bingo") }) : null),
    h("td", { class: "pts", text: String(m.score ?? "") }),
    h("td", { class: "eq", text: decimal(m.equity) }),
    h("td", { class: "leave", text: m.leave === null ? "" : leaveText(m.leave) }));
}

/**
 * Show a move on the board while the pointer is over its row or the focus on its button; a
 * click keeps it shown (aria-pressed) until clicked again or another is chosen, which is how a
 * touch screen, without hover, looks at one. `show(notation | null)`.
 */
export function lookAt(root, show) {
  let pinned = null;
  let current;
  const rowOf = (el) => (el && el.closest ? el.closest("[data-move]") : null);
  const set = (row) => {
    const move = row ? row.dataset.move : null;
    if (move === current) return;
    current = move;
    for (const el of root.querySelectorAll("[data-move].looking")) el.classList.remove("looking");
    if (row) row.classList.add("looking");
    show(move);
  };
  // Off the rows: the move kept by a click, else the one the keyboard's focus is on.
  const rest = () => {
    const active = document.activeElement;
    const focused = active && active.matches && active.matches(":focus-visible") ? rowOf(active) : null;
    if (pinned && root.contains(pinned)) set(pinned);
    else set(focused && root.contains(focused) ? focused : null);
  };
  root.addEventListener("mouseover", (e) => {
    const row = rowOf(e.target);
    if (row && root.contains(row)) set(row);
  });
  root.addEventListener("mouseleave", rest);
  root.addEventListener("focusin", (e) => {
    const row = rowOf(e.target);
    if (row && root.contains(row)) set(row);
  });
  root.addEventListener("focusout", (e) => {
    if (!e.relatedTarget || !root.contains(e.relatedTarget)) {
      current = undefined; // the same move shown again once the focus has left
      set(pinned && root.contains(pinned) ? pinned : null);
    }
  });
  root.addEventListener("click", (e) => {
    const button = e.target.closest && e.target.closest("button.move-look");
    if (!button || !root.contains(button)) return;
    const row = rowOf(button);
    const again = pinned === row;
    for (const b of root.querySelectorAll("button.move-look[aria-pressed='true']")) b.setAttribute("aria-pressed", "false");
    pinned = again ? null : row;
    if (pinned) button.setAttribute("aria-pressed", "true");
    set(pinned || row);
  });
  return {
    /** Forget what was shown (the rows were drawn again). */
    reset() { pinned = null; current = undefined; },
    get current() { return current || null; },
  };
}

/** The progress text and bar of a run of rounds (the analysis board's simulation). */
export function progressRow(id, labelText) {
  const label = h("span", { class: "analysis-progress-text", id: `${id}-label`, text: labelText });
  const bar = h("progress", { id, max: "1", value: "0", "aria-labelledby": label.id });
  return { row: h("div", { class: "analysis-progress" }, label, bar), label, bar };
}
