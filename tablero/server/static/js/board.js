// The board: drawn once per game and then patched square by square (only squares whose look
// changed are touched, so a 17×15 board updates cheaply).
//
// At a table it is an ARIA grid: rows (role=row, display: contents, so the CSS grid still lays
// the squares out) of squares (role=gridcell), each named where and what it is ("H8, double
// word, start square"). The column letters and row numbers are drawn for the eye and hidden
// from screen readers: each square's name already says them. One square is the Tab stop
// (boardgrid.js moves it). The replay's board is a picture to look at: a group of images.

import { h, replace } from "./dom.js";
import { currentLanguage, plural, t } from "./i18n.js";
import { BLANK, squareName } from "./placement.js";
import { labelLanguage, squareClass, squareLabel, squareWords, valueBand } from "./variant.js";

/** How a square's premium is said aloud: "triple word", "+10 to the word", ... */
/** In the interface language: a square's spoken name follows the page, not the game. */
export function kindWords(kind) {
  return squareWords(kind, currentLanguage());
}

/** A tile element: the letter large, its value small in the corner. */
export function tileElement(variant, letter, { blank = false, rackBlank = false } = {}) {
  const value = blank || rackBlank ? 0 : variant.value(letter);
  const el = h("span", { class: `tile ${valueBand(value)}${blank || rackBlank ? " blank" : ""}` });
  const shown = rackBlank ? "" : letter || "";
  el.append(h("span", { class: `letter${shown.length > 1 ? " digraph" : ""}`, text: shown }));
  if (!blank && !rackBlank) el.append(h("span", { class: "value", text: String(value) }));
  return el;
}

/** Draw a rack (the table's, a duplicate room's, a puzzle's): a button for each of the
 *  placement's tiles still on the rack, marked when `isSelected(index)`, then an empty slot
 *  for every tile short of a full rack. `disabled` turns the buttons off. Returns how many
 *  tiles the rack shows. */
export function drawRack(rackEl, variant, placement, isSelected, { disabled = false } = {}) {
  const tiles = placement.onRack().map((index) => {
    const letter = placement.letter(index);
    const isBlank = letter === BLANK;
    const selected = isSelected(index);
    return h("button", {
      type: "button",
      class: `rack-tile${selected ? " selected" : ""}`,
      "aria-pressed": selected ? "true" : "false",
      "aria-label": isBlank ? t("tile.blank") : plural("tile.letter_points", variant.value(letter), { letter }),
      dataset: { index: String(index), letter, drag: "rack" },
      disabled,
    }, tileElement(variant, isBlank ? "" : letter, { rackBlank: isBlank }));
  });
  // An empty slot for every tile not on the rack (on the board, or not drawn: an empty bag).
  const empty = Math.max(0, variant.rackSize - tiles.length);
  const slots = Array.from({ length: empty }, () => h("span", { class: "rack-slot", "aria-hidden": "true" }));
  replace(rackEl, tiles, slots);
  rackEl.style.setProperty("--rack-size", String(variant.rackSize));
  return tiles.length;
}

export class BoardView {
  /** `readOnly`: a board to look at (the replay): its squares are images with a spoken name,
   *  not buttons, and none is a Tab stop. */
  constructor(variant, { readOnly = false, describedBy = null } = {}) {
    this.variant = variant;
    this.readOnly = readOnly;
    this.cells = [];
    this.active = null;  // the square that is the board's Tab stop, {r, c}
    this.tabCell = null;
    this.el = h("div", {
      class: `board${readOnly ? " read-only" : ""}`,
      role: readOnly ? "group" : "grid",
      "aria-label": t("board.label"),
      "aria-describedby": describedBy,
      style: { "--cols": String(variant.columns), "--rows": String(variant.rows) },
      dataset: { columns: String(variant.columns) },
    });
    const heads = h("div", { class: "board-row heads", "aria-hidden": "true" }, h("div", { class: "corner" }));
    for (let c = 0; c < variant.columns; c++) {
      heads.append(h("div", { class: "colhead", text: String.fromCharCode(65 + c) }));
    }
    this.el.append(heads);
    for (let r = 0; r < variant.rows; r++) {
      const rowEl = h("div", { class: "board-row", role: readOnly ? null : "row" },
        h("div", { class: "rowhead", "aria-hidden": "true", text: String(r + 1) }));
      const row = [];
      for (let c = 0; c < variant.columns; c++) {
        const kind = variant.kindAt(r, c);
        const start = variant.isStart(r, c);
        const cell = h("div", {
          class: `sq ${squareClass(kind)}${start ? " start" : ""}`,
          role: readOnly ? "img" : "gridcell",
          tabindex: readOnly ? null : "-1",
          dataset: { r: String(r), c: String(c), square: squareName(r, c) },
        });
        cell.sig = null;
        row.push(cell);
        rowEl.append(cell);
      }
      this.cells.push(row);
      this.el.append(rowEl);
    }
    this.syncTabStop();
  }

  /** Make square (r, c) the board's one Tab stop (the others get tabindex -1). */
  setActive(r, c) {
    this.active = { r, c };
    this.syncTabStop();
  }

  syncTabStop() {
    if (this.readOnly) return;
    const at = this.active || this.homeSquare();
    const cell = this.cell(at.r, at.c);
    if (cell === this.tabCell) return;
    if (this.tabCell) this.tabCell.tabIndex = -1;
    cell.tabIndex = 0;
    this.tabCell = cell;
  }

  /** Where Tab first lands: the start square (the centre when the game has none). */
  homeSquare() {
    const start = [...this.variant.starts][0];
    if (start) {
      const [r, c] = start.split(",").map(Number);
      return { r, c };
    }
    return { r: Math.floor(this.variant.rows / 2), c: Math.floor(this.variant.columns / 2) };
  }

  cell(r, c) {
    return this.cells[r] && this.cells[r][c];
  }

  /**
   * Draw every square from the server's board, the tentative placement, the last move, the
   * keyboard cursor, the selected tile and the squares the preview marks. A square's content
   * (its tile or label) is rebuilt only when it changes, so the element under the pointer
   * stays the same between the two clicks of a double-click. `shown`: a move to look at (the
   * analysis' alternatives, the analysis board's moves), a Map of square names to
   * {letter, blank}, drawn as tiles of their own look.
   */
  update({ board, placement = null, last = new Set(), cursor = null, selected = null, badge = null,
    cambioSquare = null, shown = null }) {
    const v = this.variant;
    for (let r = 0; r < v.rows; r++) {
      for (let c = 0; c < v.columns; c++) {
        const fixed = board && board[r] ? board[r][c] : null;
        const mine = fixed || !placement ? null : placement.at(r, c);
        const look = fixed || mine || !shown ? null : shown.get(squareName(r, c)) || null;
        const isCursor = Boolean(cursor && cursor.r === r && cursor.c === c);
        const badgeHere = badge && badge.r === r && badge.c === c ? badge.text : "";
        const o = {
          isCursor, dir: cursor && cursor.dir, badgeHere,
          isSel: Boolean(selected && selected.type === "board" && selected.r === r && selected.c === c),
          isLast: last.has(squareName(r, c)),
          isCambio: cambioSquare === squareName(r, c),
        };
        const cell = this.cells[r][c];
        const content = JSON.stringify([fixed, mine && [mine.letter, mine.blank], look && [look.letter, look.blank], badgeHere]);
        if (cell.content !== content) {
          cell.content = content;
          this.fill(cell, r, c, fixed, mine, badgeHere, look);
        }
        const sig = JSON.stringify([content, o]);
        if (cell.sig === sig) continue;
        cell.sig = sig;
        this.mark(cell, r, c, fixed, mine, o, look);
      }
    }
    // The keyboard cursor is where Tab comes back to the board.
    if (cursor) this.setActive(cursor.r, cursor.c);
  }

  /** The square's content: a tile (the board's or a tentative one) or the premium label. */
  fill(cell, r, c, fixed, mine, badgeText, look = null) {
    const v = this.variant;
    const kind = v.kindAt(r, c);
    const start = v.isStart(r, c);
    if (fixed) {
      replace(cell, tileElement(v, fixed.letter, { blank: fixed.blank }));
    } else if (mine) {
      const tile = tileElement(v, mine.letter || "", { blank: mine.blank });
      tile.dataset.placed = "1";
      replace(cell, tile, badgeText ? h("span", { class: "score-badge", text: badgeText }) : null);
    } else if (look) {
      const tile = tileElement(v, look.letter || "", { blank: look.blank });
      tile.dataset.shown = "1";
      replace(cell, tile, badgeText ? h("span", { class: "score-badge", text: badgeText }) : null);
    } else {
      const lang = labelLanguage(v);
      const label = kind ? squareLabel(kind, kind.code, lang) : "";
      // The label with its legend (in the same language) on hover: "DL" → "doble letra".
      replace(cell,
        label ? h("span", { class: "lbl", "aria-hidden": "true", text: label, title: squareWords(kind, lang) }) : null,
        start ? h("span", { class: "star", "aria-hidden": "true", text: "\u2605" }) : null);
    }
  }

  /** The square's state: classes, Tab stop, drag handle and its spoken label. */
  mark(cell, r, c, fixed, mine, o, look = null) {
    const v = this.variant;
    const kind = v.kindAt(r, c);
    cell.classList.toggle("cursor", o.isCursor);
    cell.classList.toggle("down", o.isCursor && o.dir === "down");
    cell.classList.toggle("selected", o.isSel);
    cell.classList.toggle("last", o.isLast);
    cell.classList.toggle("filled", Boolean(fixed || mine || look));
    cell.classList.toggle("shown", Boolean(look));
    cell.classList.toggle("tentative", Boolean(mine));
    cell.classList.toggle("cambio-target", o.isCambio);
    if (mine) cell.dataset.drag = "board";
    else delete cell.dataset.drag;
    const parts = [squareName(r, c)];
    if (fixed) {
      parts.push(fixed.blank ? t("tile.blank_as", { letter: fixed.letter }) : fixed.letter);
    } else if (mine) {
      parts.push(mine.blank
        ? (mine.letter ? t("tile.blank_as", { letter: mine.letter }) : t("tile.blank_unset"))
        : mine.letter);
      parts.push(t("tile.placed_by_you"));
    } else if (look) {
      parts.push(look.blank ? t("tile.blank_as", { letter: look.letter }) : look.letter);
      parts.push(t("tile.in_move_shown"));
    } else {
      if (kind) parts.push(kindWords(kind));
      if (v.isStart(r, c)) parts.push(t("square.start"));
    }
    if (o.isCursor) parts.push(t(o.dir === "down" ? "board.cursor_down" : "board.cursor_across"));
    cell.setAttribute("aria-label", parts.join(", "));
  }
}
