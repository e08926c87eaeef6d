// Drag and drop with pointer events, so one code path serves mouse, pen and touch. A press that
// moves less than a few pixels is left alone and becomes an ordinary click (a tap), so the
// tap-tile-then-square way of placing works alongside dragging.

const THRESHOLD = 6;

/**
 * @param {HTMLElement} root  the element whose descendants can be dragged
 * @param {{payload: (el: HTMLElement) => any, onDrop: (payload: any, x: number, y: number,
 *          target: Element|null) => void, onHover?: (target: Element|null) => void}} hooks
 *   payload(el) returns what is being dragged for a pressed element, or null if not draggable.
 */
export function enableDrag(root, hooks) {
  let press = null;
  let suppressClick = false;

  function targetAt(x, y) {
    return document.elementFromPoint(x, y);
  }

  function cleanup() {
    if (!press) return;
    if (press.ghost) press.ghost.remove();
    if (press.source) press.source.classList.remove("drag-source");
    if (hooks.onHover) hooks.onHover(null);
    document.body.classList.remove("dragging");
    press = null;
  }

  root.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    const el = e.target.closest("[data-drag]");
    if (!el || !root.contains(el)) return;
    const payload = hooks.payload(el);
    if (payload === null || payload === undefined) return;
    press = { id: e.pointerId, x: e.clientX, y: e.clientY, el, payload, ghost: null, source: null };
  });

  root.addEventListener("pointermove", (e) => {
    if (!press || e.pointerId !== press.id) return;
    if (!press.ghost) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < THRESHOLD) return;
      const tile = press.el.querySelector(".tile") || press.el;
      const rect = tile.getBoundingClientRect();
      const ghost = tile.cloneNode(true);
      ghost.classList.add("drag-ghost");
      ghost.style.width = `${rect.width}px`;
      ghost.style.height = `${rect.height}px`;
      document.body.append(ghost);
      press.ghost = ghost;
      press.source = press.el;
      press.el.classList.add("drag-source");
      document.body.classList.add("dragging");
      try { press.el.setPointerCapture(e.pointerId); } catch { /* already released */ }
    }
    e.preventDefault();
    const g = press.ghost;
    g.style.left = `${e.clientX - g.offsetWidth / 2}px`;
    g.style.top = `${e.clientY - g.offsetHeight / 2}px`;
    if (hooks.onHover) hooks.onHover(targetAt(e.clientX, e.clientY));
  });

  function finish(e, dropped) {
    if (!press || e.pointerId !== press.id) return;
    const wasDrag = Boolean(press.ghost);
    const payload = press.payload;
    cleanup();
    if (!wasDrag) return;
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    if (dropped) hooks.onDrop(payload, e.clientX, e.clientY, targetAt(e.clientX, e.clientY));
  }

  root.addEventListener("pointerup", (e) => finish(e, true));
  root.addEventListener("pointercancel", (e) => finish(e, false));
  // A drag that ends over the element it started on would also fire a click: swallow it.
  root.addEventListener("click", (e) => {
    if (suppressClick) {
      e.stopPropagation();
      e.preventDefault();
      suppressClick = false;
    }
  }, true);
}
