// The replay page (/t/{id}/replay): a finished game step by step, from
// GET /api/tables/{id}/replay. A step is one action (a move, a challenge, a timeout, a
// resignation) with what followed it; frame 0 is the start. Each frame has the board, every
// rack (public once the game is over), the scores and the step's moves. The board is the
// table's board (board.js), read-only.
//
// First / Back / Forward / Last, a list of the steps to jump to, and the keyboard: ← and →,
// Home and End. The game as GCG, and the current position as CGP
// (GET /api/tables/{id}/cgp?ply=N): copied to the clipboard when the browser allows it, and
// always shown in a text field to copy by hand, or opened in the analysis board.
//
// The analysis (analysis.js): Analyse / Deeper analysis (simulation), a progress bar, then for
// the move of the current step the move played, its rank and equity loss and the five best
// moves; the pointer or the focus on one draws it on the board of the position before the move
// (the frame before, with the move's tiles: from POST /api/positions/moves for that position's
// CGP, matched by notation, else read from the notation). Each player's summary under the board.

import { AnalysisControl, lookAt, moveVerdict, summaryTable } from "./analysis.js";
import { api, ApiError, errorText, pages } from "./api.js";
import { BoardView, tileElement } from "./board.js";
import { h, replace, s } from "./dom.js";
import { plural, t } from "./i18n.js";
import { hasPoints, historyBody, moveWords, playerName, resultParts } from "./panels.js";
import { BLANK, parseSquare } from "./placement.js";
import { notationTiles } from "./position.js";
import { VariantView } from "./variant.js";

export class ReplayPage {
  constructor(root, tableId, { onTitle, navigate } = {}) {
    this.root = root;
    this.id = tableId;
    this.onTitle = onTitle || (() => {});
    this.navigate = navigate || ((path) => { location.assign(path); });
    this.analysis = null;
    this.result = null;         // the analysis shown (analysis.js), once done
    this.shownMove = null;      // the notation of the move drawn on the board (hover, focus)
    this.moveTiles = new Map(); // ply -> Map(notation -> tiles), from POST /api/positions/moves
    this.moveTilesAsked = new Set();
    this.data = null;
    this.step = 0;
    this.cgpTicket = 0;
    this.onKey = (e) => this.handleKey(e);
  }

  async mount() {
    replace(this.root, h("p", { class: "loading", text: t("common.loading") }));
    let data;
    try {
      data = await api.replay(this.id);
      this.variant = new VariantView(await api.variant(data.variant));
    } catch (e) {
      this.failed(e);
      return;
    }
    this.data = data;
    this.build();
    this.show(0);
    document.addEventListener("keydown", this.onKey);
    this.analysis.load();
  }

  unmount() {
    document.removeEventListener("keydown", this.onKey);
    if (this.analysis) this.analysis.unmount();
  }

  failed(e) {
    const table = h("a", { href: pages.table(this.id), "data-link": "", text: t("replay.to_table") });
    if (e instanceof ApiError && e.code === "not_over") {
      this.onTitle(t("replay.title"));
      replace(this.root, h("div", { class: "page-error replay-not-over" },
        h("h1", { text: t("replay.not_over") }), h("p", { text: t("replay.not_over_help") }), h("p", {}, table)));
      return;
    }
    replace(this.root, h("div", { class: "page-error" },
      h("h1", { text: t("replay.cannot_open") }), h("p", { text: errorText(e) }),
      h("p", {}, h("a", { href: "/", "data-link": "", text: t("nav.lobby") }))));
  }

  get frames() {
    return this.data.frames;
  }

  seatName(seat) {
    const s = this.data.seats[seat];
    if (!s) return "";
    if (s.kind === "bot") return s.nickname || t("seat.bot_name", { level: s.bot_level });
    return s.nickname || t("seat.open");
  }

  // -- the page -------------------------------------------------------------------------------

  build() {
    const d = this.data;
    const v = this.variant;
    const name = d.title || v.title || d.variant_title;
    this.onTitle(t("replay.page_title", { name }));
    this.board = new BoardView(v, { readOnly: true });
    // Icons drawn as SVG (the media-control characters are missing from many fonts).
    const icon = (shapes) => s("svg", { class: "icon", viewBox: "0 0 16 16", width: 16, height: 16,
      "aria-hidden": "true", focusable: "false" }, shapes);
    const left = (x) => s("path", { d: `M${x + 7} 3 L${x} 8 L${x + 7} 13 Z` });
    const right = (x) => s("path", { d: `M${x} 3 L${x + 7} 8 L${x} 13 Z` });
    const bar = (x) => s("rect", { x, y: 3, width: 2, height: 10 });
    const button = (id, shapes, label, onclick) => h("button", { type: "button", class: "tool", id,
      "aria-label": label, title: label, onclick }, icon(shapes));
    this.buttons = {
      first: button("replay-first", [bar(2), left(5)], t("replay.first"), () => this.show(0)),
      back: button("replay-back", [left(4)], t("replay.back"), () => this.show(this.step - 1)),
      forward: button("replay-forward", [right(5)], t("replay.forward"), () => this.show(this.step + 1)),
      last: button("replay-last", [right(4), bar(12)], t("replay.last"), () => this.show(this.frames.length - 1)),
    };
    this.els = {
      position: h("span", { class: "replay-position", id: "replay-position", "aria-live": "polite" }),
      bag: h("span", { class: "bag-count" }),
      players: h("ol", { class: "seat-list replay-players" }),
      moves: h("div", { class: "replay-moves" }),
      steps: h("ol", { class: "replay-steps", "aria-label": t("replay.steps") }),
      result: h("div", { class: "replay-result" }),
      cgpText: h("input", { id: "cgp-text", type: "text", readonly: true, spellcheck: "false",
        "aria-describedby": "cgp-status" }),
      cgpStatus: h("p", { class: "help", id: "cgp-status", role: "status" }),
      verdict: h("div", { class: "analysis-step" }),
      method: h("p", { class: "analysis-method help" }),
      summary: h("div", { class: "analysis-summary-body" }),
    };
    this.analysis = new AnalysisControl(this.id, {
      onResult: (result, method) => { this.result = result; this.method = method; this.renderAnalysis(); },
    });
    this.look = lookAt(this.els.verdict, (move) => { this.shownMove = move; this.drawBoard(); });
    this.summaryPanel = h("section", { class: "panel analysis-summary", "aria-labelledby": "analysis-summary-h",
      hidden: true }, h("h2", { id: "analysis-summary-h", text: t("analysis.summary") }), this.els.summary);
    const e = this.els;
    this.cgpField = h("div", { class: "field cgp-field", hidden: true },
      h("label", { for: "cgp-text", text: t("replay.cgp_label") }), e.cgpText);
    const b = this.buttons;
    const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
      b.first, b.back, e.position, b.forward, b.last);
    const play = h("section", { class: "play-area", "aria-label": t("board.label") },
      h("div", { class: "board-wrap" }, this.board.el),
      h("div", { class: "board-foot" }, e.bag, h("span", { class: "replay-keys", text: t("replay.keys") })),
      controls,
      h("section", { class: "panel replay-step", "aria-labelledby": "replay-step-h" },
        h("h2", { id: "replay-step-h", text: t("replay.this_step") }), e.moves));
    const side = h("aside", { class: "side" },
      h("section", { class: "panel seats", "aria-labelledby": "replay-players-h" },
        h("h2", { id: "replay-players-h", text: t("replay.players") }), e.players),
      h("section", { class: "panel analysis-panel", "aria-labelledby": "analysis-h" },
        h("h2", { id: "analysis-h", text: t("analysis.title") }), e.method, e.verdict, this.analysis.el),
      e.result,
      h("section", { class: "panel replay-steps-panel", "aria-labelledby": "replay-steps-h" },
        h("h2", { id: "replay-steps-h", text: t("replay.steps") }), h("div", { class: "history-scroll" }, e.steps)),
      h("section", { class: "panel replay-files", "aria-labelledby": "replay-files-h" },
        h("h2", { id: "replay-files-h", text: t("replay.files") }),
        h("div", { class: "side-links" },
          h("a", { class: "gcg button-link", href: api.gcgUrl(this.id), download: `tablero-${this.id}.gcg`,
            text: t("table.download_gcg") }),
          h("button", { type: "button", class: "tool", id: "copy-cgp", text: t("replay.copy_cgp"),
            onclick: () => this.copyCgp() }),
          h("button", { type: "button", class: "tool", id: "open-board", text: t("analysis.open_board"),
            onclick: () => this.openBoard(this.step) })),
        this.cgpField, e.cgpStatus));
    const sub = [t("replay.title"), v.title || d.variant_title, `${v.columns}\u00d7${v.rows}`].join(" \u00b7 ");
    replace(this.root, h("div", { class: "table-page replay-page", dataset: { columns: String(v.columns) } },
      h("header", { class: "table-head" },
        h("div", {}, h("h1", { class: "table-title", text: name }), h("p", { class: "table-subtitle", text: sub })),
        h("a", { class: "button", href: pages.table(this.id), "data-link": "", text: t("replay.to_table") })),
      h("div", { class: "table-layout" }, play, side, this.summaryPanel)));
    replace(e.steps, this.frames.map((f, i) => h("li", {},
      h("button", { type: "button", class: "replay-step-button", dataset: { step: String(i) },
        onclick: () => this.show(i) }, this.stepSummary(f, i)))));
  }

  /** One step in a line: "3. Ana 8H CASA 12", or "Start". */
  stepSummary(frame, i) {
    if (i === 0) return [h("span", { class: "n", text: "0." }), h("span", { class: "mv", text: t("replay.start") })];
    const m = frame.moves[0];
    if (!m) return [h("span", { class: "n", text: `${i}.` })];
    const { move, note } = moveWords(m, (seat) => this.seatName(seat));
    return [h("span", { class: "n", text: `${i}.` }),
      h("span", { class: "who", text: m.nickname || this.seatName(m.seat) }),
      h("span", { class: `mv kind-${m.kind}`, text: note ? `${move} (${note})` : move }),
      h("span", { class: "pts", text: hasPoints(m) ? String(m.score ?? 0) : "" })];
  }

  // -- one step -------------------------------------------------------------------------------

  show(step) {
    const last = this.frames.length - 1;
    this.step = Math.max(0, Math.min(last, step));
    const f = this.frames[this.step];
    const e = this.els;
    e.bag.textContent = plural("table.bag", f.bag_count);
    e.position.textContent = t("replay.position", { n: this.step, total: last });
    const b = this.buttons;
    b.first.disabled = b.back.disabled = this.step === 0;
    b.forward.disabled = b.last.disabled = this.step === last;
    this.renderPlayers(f);
    replace(e.moves, this.step === 0
      ? h("p", { class: "hint", text: t("replay.start_help") })
      : h("div", { class: "history" }, historyBody({ history: f.moves }, (seat) => this.seatName(seat))));
    if (this.step === last && this.data.result) {
      e.result.hidden = false;
      const table = { seats: this.data.seats, result: this.data.result };
      replace(e.result, h("section", { class: "panel result replay-final" },
        resultParts(table, this.variant, (seat) => this.seatName(seat)).slice(0, 4)));
    } else {
      e.result.hidden = true;
    }
    for (const el of e.steps.querySelectorAll("button")) {
      const here = Number(el.dataset.step) === this.step;
      if (here) el.setAttribute("aria-current", "step");
      else el.removeAttribute("aria-current");
    }
    const current = e.steps.querySelector('[aria-current="step"]');
    if (current) {
      const box = current.closest(".history-scroll");
      const top = current.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top + current.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = top - box.clientHeight / 2;
      }
    }
    // The CGP shown was another step's.
    this.cgpTicket += 1;
    this.cgpField.hidden = true;
    e.cgpText.value = "";
    e.cgpStatus.textContent = "";
    this.renderVerdict();
  }

  // -- the analysis ---------------------------------------------------------------------------

  renderAnalysis() {
    const r = this.result;
    this.summaryPanel.hidden = !r;
    this.els.method.textContent = r ? t(`analysis.method_${this.method}`) : "";
    this.els.method.hidden = !r;
    if (r) replace(this.els.summary, summaryTable(r), h("p", { class: "help", text: t("analysis.mistakes_help") }));
    this.renderVerdict();
  }

  /** The analysis entry of the move the current step shows (none at the start, none for a
   *  challenge or a timeout). */
  entry() {
    if (!this.result) return null;
    return (this.result.moves || []).find((m) => m.frame === this.step) || null;
  }

  renderVerdict() {
    const el = this.els.verdict;
    this.look.reset();
    this.shownMove = null;
    if (!this.result) {
      replace(el);
      this.drawBoard();
      return;
    }
    const entry = this.entry();
    if (!entry) {
      replace(el, h("p", { class: "hint", text: t(this.step === 0 ? "analysis.at_start" : "analysis.no_move") }));
    } else {
      replace(el, h("h3", { class: "analysis-move-h", text: t("analysis.move_of", { n: entry.ply, name: entry.player }) }),
        moveVerdict(entry),
        h("button", { type: "button", class: "link open-before", id: "open-board-before",
          text: t("analysis.open_before"), onclick: () => this.openBoard(this.step - 1) }));
      this.fetchMoveTiles(this.step - 1);
    }
    this.drawBoard();
  }

  /** The board of this step, or of the step before with the move looked at put down. */
  drawBoard() {
    const f = this.frames[this.step];
    if (!this.shownMove || this.step === 0) {
      const squares = new Set(f.moves.flatMap((m) => (["placed", "cambio"].includes(m.kind) ? m.squares || [] : [])));
      this.board.update({ board: f.board, last: squares });
      this.board.el.classList.remove("looking");
      return;
    }
    const before = this.frames[this.step - 1];
    const tiles = this.tilesOf(this.step - 1, this.shownMove, before.board);
    const shown = new Map(tiles.map((x) => [x.square, x]));
    const entry = this.entry();
    const m = entry && [...(entry.top || []), { move: entry.played, score: entry.score }].find((x) => x.move === this.shownMove);
    let badge = null;
    const last = tiles.map((x) => parseSquare(x.square)).filter(Boolean).sort((a, b) => b[0] - a[0] || b[1] - a[1])[0];
    if (last && m) badge = { r: last[0], c: last[1], text: String(m.score) };
    this.board.update({ board: before.board, shown, badge });
    this.board.el.classList.add("looking");
  }

  /** A move's tiles: as the server listed them for that position, else read from the notation. */
  tilesOf(ply, move, board) {
    const known = this.moveTiles.get(ply);
    if (known && known.has(move)) return known.get(move);
    return notationTiles(move, board);
  }

  async fetchMoveTiles(ply) {
    if (ply < 0 || this.moveTilesAsked.has(ply)) return;
    this.moveTilesAsked.add(ply);
    const found = new Map();
    try {
      const cgp = String(await api.cgp(this.id, ply)).trim();
      const answer = await api.positionMoves(cgp, this.data.variant);
      for (const m of answer.moves || []) found.set(m.move, m.tiles || []);
    } catch {
      // the notation will do
    }
    this.moveTiles.set(ply, found);
    if (this.shownMove && this.step - 1 === ply) this.drawBoard();
  }

  /** The analysis board on the position after step `ply`. */
  async openBoard(ply) {
    const e = this.els;
    e.cgpStatus.textContent = t("common.loading");
    try {
      const cgp = String(await api.cgp(this.id, ply)).trim();
      this.navigate(pages.analysis(cgp, this.data.variant));
    } catch (err) {
      e.cgpStatus.textContent = errorText(err);
    }
  }

  renderPlayers(f) {
    const items = this.data.seats.map((s, i) => {
      const toMove = f.to_move === i;
      const rack = f.racks[i] || [];
      return h("li", { class: `seat replay-seat${toMove ? " to-move" : ""}`, dataset: { seat: String(i) } },
        h("div", { class: "replay-seat-top" },
          h("div", { class: "seat-name" }, playerName(this.seatName(i), s.account),
            s.kind === "bot" ? h("span", { class: "tag bot", text: t("seat.bot_level", { level: s.bot_level }) }) : null,
            toMove ? h("span", { class: "tag to-move-tag", text: t("replay.to_move") }) : null),
          h("span", { class: "score", text: String(f.scores[i] ?? 0) })),
        h("div", { class: "replay-rack", role: "img",
          "aria-label": rack.length ? t("replay.rack", { tiles: rack.map((l) => (l === BLANK ? t("tile.blank") : l)).join(" ") }) : t("replay.rack_empty") },
        rack.map((l) => h("span", { class: "mini-tile", "aria-hidden": "true", dataset: { letter: l } },
          tileElement(this.variant, l === BLANK ? "" : l, { rackBlank: l === BLANK })))));
    });
    replace(this.els.players, items);
  }

  // -- keyboard and CGP -----------------------------------------------------------------------

  handleKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const to = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0, End: this.frames.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.show(to);
  }

  async copyCgp() {
    const ticket = ++this.cgpTicket;
    const e = this.els;
    e.cgpStatus.textContent = t("common.loading");
    let text;
    try {
      text = String(await api.cgp(this.id, this.step)).trim();
    } catch (err) {
      if (ticket === this.cgpTicket) e.cgpStatus.textContent = errorText(err);
      return;
    }
    if (ticket !== this.cgpTicket) return;
    e.cgpText.value = text;
    this.cgpField.hidden = false;
    let copied = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        copied = true;
      }
    } catch { copied = false; }
    if (ticket !== this.cgpTicket) return;
    e.cgpStatus.textContent = t(copied ? "replay.cgp_copied" : "replay.cgp_copy_by_hand");
    if (!copied) {
      e.cgpText.focus();
      e.cgpText.select();
    }
  }
}
