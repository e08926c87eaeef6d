// Small DOM helpers. Every piece of text goes in through textContent (never innerHTML), so a
// nickname such as "<img onerror=...>" is shown as the characters the person typed.

/**
 * Create an element: h("button", {class: "x", onclick: fn, "aria-label": "..."}, "text", child).
 * Attributes starting with "on" become event listeners; `dataset` is an object; `style` is an
 * object of properties (custom properties "--x" too; never a string: the Content-Security-
 * Policy blocks style attributes); `text` sets textContent; false/null/undefined attributes
 * and children are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "style" && typeof value === "object") {
      // Through the CSSOM: the Content-Security-Policy refuses style="" attributes.
      for (const [prop, v] of Object.entries(value)) {
        const name = prop.startsWith("--") ? prop : prop.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`);
        el.style.setProperty(name, String(v));
      }
    } else if (key in el && typeof value !== "string") {
      el[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings as text nodes, arrays), skipping empty ones. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace an element's children. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element: s("path", {d: "M0 0", class: "line"}, child...). Attributes only (no
 *  listeners, no style strings); `text` sets textContent. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "text") el.textContent = String(value);
    else el.setAttribute(key, String(value));
  }
  return append(el, children);
}
