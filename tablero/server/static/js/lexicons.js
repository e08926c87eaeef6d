/**
 * The dictionary picker of the forms that create a table, a duplicate room or a tournament:
 * the game's own dictionary first, then the others the server has for the game's language
 * (shipped, or installed by the operator with `tablero lexicon add`). Hidden while the server
 * has no other for that language.
 */

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { formatNumber, t } from "./i18n.js";

/** Cached per language: the list changes only when the operator installs one. */
const offered = new Map();

async function dictionaries(language) {
  if (!offered.has(language)) offered.set(language, api.lexicons(language).catch(() => []));
  return offered.get(language);
}

function label(d) {
  return Number.isFinite(d.words) ? t("lobby.lexicon_option", { name: d.name, words: formatNumber(d.words) }) : d.name;
}

export class LexiconPicker {
  /** `id`: the select's id (its help line's is `${id}-help`). */
  constructor(id) {
    this.select = h("select", { id, name: "lexicon", "aria-describedby": `${id}-help` });
    this.field = h("div", { class: "field lexicon-field", id: `${id}-field`, hidden: true },
      h("label", { for: id, text: t("lobby.lexicon") }), this.select,
      h("p", { class: "help", id: `${id}-help`, text: t("lobby.lexicon_help") }));
    this.asked = 0;
  }

  /** Offer the dictionaries for a game: its `language`, its own `lexicon`; a rule file
   *  (`builtin` false) and a game without a dictionary name their own, and get no choice. */
  async offer({ language, lexicon, builtin = true }) {
    const ask = ++this.asked;
    const list = builtin && lexicon && lexicon !== "none" && language ? await dictionaries(language) : [];
    if (ask !== this.asked) return; // another game was chosen meanwhile
    const own = list.find((d) => d.name === lexicon) || { name: lexicon };
    const others = list.filter((d) => d.name !== lexicon);
    replace(this.select, h("option", { value: "", text: t("lobby.lexicon_own", { name: label(own) }) }),
      others.map((d) => h("option", { value: d.name, text: label(d) })));
    this.field.hidden = others.length === 0;
  }

  /** The chosen dictionary's name, or null for the game's own. */
  get value() {
    return !this.field.hidden && this.select.value ? this.select.value : null;
  }
}
