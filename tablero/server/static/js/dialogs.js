// Modal dialogs (<dialog>): the blank's letter picker, confirmations, the exchange picker.
// Each returns a Promise of the choice, or null when closed with Escape or Cancel.

import { h } from "./dom.js";
import { plural, t } from "./i18n.js";
import { tileElement } from "./board.js";

function modal(className, titleText, body, buttons) {
  const titleId = `dlg-${Math.random().toString(36).slice(2)}`;
  const dialog = h("dialog", { class: `dialog ${className}`, "aria-labelledby": titleId },
    h("h2", { id: titleId, text: titleText }), body,
    buttons.length ? h("div", { class: "dialog-buttons" }, buttons) : null);
  document.body.append(dialog);
  return dialog;
}

function run(dialog, resolveWith) {
  return new Promise((resolve) => {
    let value = null;
    resolveWith((v) => { value = v; dialog.close(); });
    dialog.addEventListener("close", () => { dialog.remove(); resolve(value); }, { once: true });
    dialog.showModal();
  });
}

/** Ask which letter a blank stands for. `current` is preselected. */
export function pickBlankLetter(letters, current = null) {
  let done;
  const grid = h("div", { class: "letter-grid", role: "group", "aria-label": t("blank.letters") });
  for (const letter of letters) {
    grid.append(h("button", {
      type: "button",
      class: `letter-choice${letter === current ? " current" : ""}${letter.length > 1 ? " digraph" : ""}`,
      dataset: { letter },
      "aria-pressed": letter === current ? "true" : "false",
      text: letter,
      onclick: () => done(letter),
    }));
  }
  const cancel = h("button", { type: "button", class: "secondary", text: t("action.cancel"), onclick: () => done(null) });
  const dialog = modal("blank-picker", t("blank.title"), grid, [cancel]);
  const p = run(dialog, (fn) => { done = fn; });
  const first = grid.querySelector(".current") || grid.querySelector("button");
  if (first) first.focus();
  return p;
}

/** Yes or no. With `danger` (a step that cannot be undone) the focus starts on Cancel. */
export function confirmDialog(titleText, message, yesText, { danger = false } = {}) {
  let done;
  const yes = h("button", { type: "button", class: danger ? "danger solid" : "primary", dataset: { confirm: "yes" },
    text: yesText, onclick: () => done(true) });
  const no = h("button", { type: "button", class: "secondary", text: t("action.cancel"), onclick: () => done(false) });
  const dialog = modal(danger ? "confirm danger" : "confirm", titleText, h("p", { text: message }), [no, yes]);
  const p = run(dialog, (fn) => { done = fn; });
  (danger ? no : yes).focus();
  return p.then((v) => v === true);
}

/**
 * Choose tiles to exchange. `tiles` is [{index, letter}] in rack order; resolves to the chosen
 * indices (at least one), or null.
 */
export function pickExchange(variant, tiles, maxTiles) {
  let done;
  const chosen = new Set();
  const count = h("p", { class: "exchange-count", "aria-live": "polite" });
  const ok = h("button", { type: "button", class: "primary", text: t("exchange.confirm"), disabled: true,
    onclick: () => done([...chosen]) });
  const refresh = () => {
    count.textContent = plural("exchange.count", chosen.size, { max: maxTiles });
    ok.disabled = chosen.size === 0 || chosen.size > maxTiles;
  };
  const row = h("div", { class: "exchange-rack", role: "group", "aria-label": t("exchange.tiles") });
  for (const { index, letter } of tiles) {
    const b = h("button", { type: "button", class: "exchange-tile", "aria-pressed": "false",
      "aria-label": letter === "?" ? t("tile.blank") : plural("tile.letter_points", variant.value(letter), { letter }), dataset: { index: String(index), letter } },
    tileElement(variant, letter === "?" ? "" : letter, { rackBlank: letter === "?" }));
    b.addEventListener("click", () => {
      if (chosen.has(index)) chosen.delete(index); else chosen.add(index);
      b.setAttribute("aria-pressed", chosen.has(index) ? "true" : "false");
      b.classList.toggle("chosen", chosen.has(index));
      refresh();
    });
    row.append(b);
  }
  const cancel = h("button", { type: "button", class: "secondary", text: t("action.cancel"), onclick: () => done(null) });
  const dialog = modal("exchange-picker", t("exchange.title"),
    h("div", {}, h("p", { text: t("exchange.help") }), row, count), [cancel, ok]);
  refresh();
  return run(dialog, (fn) => { done = fn; });
}
