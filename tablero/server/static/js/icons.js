// Small line icons for the table's tool buttons, drawn as SVG (font symbols for these are
// missing or differ from system to system). Decorative: the button carries the words.

import { s } from "./dom.js";

function icon(...shapes) {
  return s("svg", { class: "icon", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true",
    focusable: "false" }, shapes);
}

const line = (d) => s("path", { d, fill: "none", stroke: "currentColor", "stroke-width": "1.7",
  "stroke-linecap": "round", "stroke-linejoin": "round" });

/** Two crossing arrows: mix the rack. */
export function shuffleIcon() {
  return icon(line("M1.5 4.5h3l6 7h4"), line("M1.5 11.5h3l6-7h4"), line("M12.5 2.5l2 2-2 2"),
    line("M12.5 9.5l2 2-2 2"));
}

/** An arrow turning back: take the tiles back. */
export function undoIcon() {
  return icon(line("M5 2.5 2 5.5l3 3"), line("M2.5 5.5h7a4 4 0 0 1 0 8H6"));
}

/** A magnifying glass with a plus (zoom in) or a minus (zoom out). */
export function zoomIcon(zoomedIn) {
  return icon(s("circle", { cx: 6.5, cy: 6.5, r: 4.5, fill: "none", stroke: "currentColor", "stroke-width": "1.7" }),
    line("M10 10l4.5 4.5"), line("M4.5 6.5h4"), zoomedIn ? null : line("M6.5 4.5v4"));
}
