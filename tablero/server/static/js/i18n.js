// Interface strings in es, ro and en, loaded from ../i18n/{lang}.json. t("key", {name}) fills
// {name} placeholders; a key missing in a language falls back to English, then to the key.
// plural("key", n) picks the string for a number in the language's plural form.

let strings = {};
let english = {};
let language = "en";
const loaded = new Map();  // language → its strings, for text in a language not the page's

async function fetchStrings(lang) {
  const url = new URL(`../i18n/${lang}.json`, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: ${response.status}`);
  return response.json();
}

export async function setLanguage(lang) {
  if (!Object.keys(english).length) english = await fetchStrings("en");
  strings = lang === "en" ? english : await fetchStrings(lang);
  language = lang;
  loaded.set("en", english);
  loaded.set(lang, strings);
  document.documentElement.lang = lang;
}

/** Load another language's strings for tIn() (a game's own language: its square labels).
 *  A language without a file is quietly left out: tIn() then falls back to English. */
export async function loadLanguage(lang) {
  if (!lang || loaded.has(lang)) return;
  try {
    loaded.set(lang, await fetchStrings(lang));
  } catch {
    loaded.set(lang, {});
  }
}

/** t() in a given language (loaded with loadLanguage), falling back to English, then the key. */
export function tIn(lang, key, params = {}) {
  const own = loaded.get(lang) || {};
  let text = own[key] ?? english[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

export function currentLanguage() {
  return language;
}

export function has(key) {
  return key in strings || key in english;
}

export function t(key, params = {}) {
  let text = strings[key] ?? english[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

/**
 * A string with a number in it, in the plural form the number takes in the interface language:
 * the key with `_one`, `_few`, `_many`, `_other`… (Intl.PluralRules' categories), the number
 * as {n}. English and Spanish say "1 tile", "2 tiles"; Romanian "1 piesă", "2 piese" (few:
 * 0 and 2–19) and "20 de piese" (other). A form a language file lacks falls back to `_other`
 * (Spanish's "many", for a million, reads as "other"), then to the bare key.
 */
export function plural(key, n, params = {}) {
  let form = "other";
  try {
    form = pluralRules(language).select(n);
  } catch {
    // an unknown language: "other"
  }
  const chosen = [`${key}_${form}`, `${key}_other`].find(has) || key;
  return t(chosen, { n, ...params });
}

/** A number as the interface language writes it (1,234 in English, 1234 or 1.234 in Spanish). */
export function formatNumber(n) {
  try {
    return Number(n).toLocaleString(language);
  } catch {
    return String(n);
  }
}

const rules = new Map();

function pluralRules(lang) {
  if (!rules.has(lang)) rules.set(lang, new Intl.PluralRules(lang));
  return rules.get(lang);
}

/** Fill every [data-i18n] element's text and [data-i18n-label] element's aria-label. */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.title = t(el.dataset.i18nTitle);
  }
}
