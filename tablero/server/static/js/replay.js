// The replay page (/t/{id}/replay): a finished game step by step, from
// GET /api/tables/{id}/replay. A step is one action (a move, a challenge, a timeout, a
// resignation) with what followed it; frame 0 is the start. Each frame has the board, every
// rack (public once the game is over), the scores and the step's moves. The board is the
// table's board (board.js), read-only.
//
// First / Back / Forward / Last, a list of the steps to jump to, and the keyboard: ← and →,
// Home and End. The game as GCG, and the current position as CGP
// (GET /api/tables/{id}/cgp?ply=N): copied to the clipboard when the browser allows it, and
// always shown in a text field to copy by hand.

import { api, ApiError, errorText, pages } from "./api.js";
import { BoardView, tileElement } from "./board.js";
import { h, replace, s } from "./dom.js";
import { plural, t } from "./i18n.js";
import { hasPoints, historyBody, moveWords, playerName, resultParts } from "./panels.js";
import { BLANK } from "./placement.js";
import { VariantView } from "./variant.js";

export class ReplayPage {
  constructor(root, tableId, { onTitle } = {}) {
    this.root = root;
    this.id = tableId;
    this.onTitle = onTitle || (() => {});
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
  }

  unmount() {
    document.removeEventListener("keydown", this.onKey);
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
    const name = d.title || d.variant_title || v.title;
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
    };
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
      e.result,
      h("section", { class: "panel replay-steps-panel", "aria-labelledby": "replay-steps-h" },
        h("h2", { id: "replay-steps-h", text: t("replay.steps") }), h("div", { class: "history-scroll" }, e.steps)),
      h("section", { class: "panel replay-files", "aria-labelledby": "replay-files-h" },
        h("h2", { id: "replay-files-h", text: t("replay.files") }),
        h("div", { class: "side-links" },
          h("a", { class: "gcg button-link", href: api.gcgUrl(this.id), download: `tablero-${this.id}.gcg`,
            text: t("table.download_gcg") }),
          h("button", { type: "button", class: "tool", id: "copy-cgp", text: t("replay.copy_cgp"),
            onclick: () => this.copyCgp() })),
        this.cgpField, e.cgpStatus));
    const sub = [t("replay.title"), d.variant_title || v.title, `${v.columns}\u00d7${v.rows}`].join(" \u00b7 ");
    replace(this.root, h("div", { class: "table-page replay-page", dataset: { columns: String(v.columns) } },
      h("header", { class: "table-head" },
        h("div", {}, h("h1", { class: "table-title", text: name }), h("p", { class: "table-subtitle", text: sub })),
        h("a", { class: "button", href: pages.table(this.id), "data-link": "", text: t("replay.to_table") })),
      h("div", { class: "table-layout" }, play, side)));
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
    const squares = new Set(f.moves.flatMap((m) => (["placed", "cambio"].includes(m.kind) ? m.squares || [] : [])));
    this.board.update({ board: f.board, last: squares });
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
