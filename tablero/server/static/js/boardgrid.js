// Moving about the board with the keyboard, the way an ARIA grid is used: the board is one Tab
// stop (a roving tabindex: only the active square has tabindex 0, so Tab goes past the board in
// one step instead of 225–255), and inside it
//   ←/→/↑/↓       one square along the row or the column (stopping at the edge),
//   Home / End     the first / last square of the row,
//   Ctrl+Home/End  the first / last square of the board (A1, and the bottom right corner),
//   PageUp/Down    the top / bottom square of the column.
// Anyone may look around the board like this, spectators too; the table page listens (onMove)
// to turn the movement into its typing cursor for a seated player.

const ARROWS = {
  ArrowLeft: [0, -1, "across"],
  ArrowRight: [0, 1, "across"],
  ArrowUp: [-1, 0, "down"],
  ArrowDown: [1, 0, "down"],
};

export class BoardGrid {
  /**
   * @param {import("./board.js").BoardView} view  the board drawn as a grid
   * @param {{onMove?: (to: {r: number, c: number, dir: string|null}) => void}} hooks
   *   onMove hears each move before the focus lands; `dir` is "across" or "down" for an
   *   arrow (the way the player is heading), null for the other keys.
   */
  constructor(view, { onMove = null } = {}) {
    this.view = view;
    this.onMove = onMove;
    view.el.addEventListener("keydown", (e) => this.keydown(e));
  }

  /** Where a key leads from square (r, c), or null if the key is not one of ours. */
  target(e, r, c) {
    const rows = this.view.variant.rows;
    const cols = this.view.variant.columns;
    if (e.key in ARROWS) {
      if (e.ctrlKey) return null; // Ctrl+arrows belong to the browser and screen readers
      const [dr, dc, dir] = ARROWS[e.key];
      return { r: clamp(r + dr, rows), c: clamp(c + dc, cols), dir };
    }
    switch (e.key) {
      case "Home": return e.ctrlKey ? { r: 0, c: 0, dir: null } : { r, c: 0, dir: null };
      case "End": return e.ctrlKey ? { r: rows - 1, c: cols - 1, dir: null } : { r, c: cols - 1, dir: null };
      case "PageUp": return { r: 0, c, dir: null };
      case "PageDown": return { r: rows - 1, c, dir: null };
      default: return null;
    }
  }

  keydown(e) {
    if (e.altKey || e.metaKey || e.defaultPrevented) return;
    const cell = e.target.closest && e.target.closest(".sq");
    if (!cell || !this.view.el.contains(cell)) return;
    const to = this.target(e, Number(cell.dataset.r), Number(cell.dataset.c));
    if (!to) return;
    e.preventDefault(); // no page scroll; and the table page's own key handler leaves it alone
    this.view.setActive(to.r, to.c);
    if (this.onMove) this.onMove(to);
    const next = this.view.cell(to.r, to.c);
    if (next && document.activeElement !== next) next.focus();
  }
}

function clamp(i, n) {
  return Math.max(0, Math.min(n - 1, i));
}
