// Seeks in the lobby: the open offers of a game (GET /api/seeks), Accept and Withdraw, and the
// "Offer a game" form for a logged-in player. A seek is for accounts: the players sit as their
// accounts, so the game can be rated and each finds it from any browser.
//
// The page also follows the seeks this player offered or joined while the lobby is open: once
// one leaves the open list, GET /api/seeks/{id} says what became of it, and a seek taken goes
// to its table (the game has started, every player seated).

import { account } from "./account.js";
import { accountDialog } from "./accountui.js";
import { api, errorText, pages } from "./api.js";
import { h, replace } from "./dom.js";
import { plural, t } from "./i18n.js";
import { gameTitle, titleOf } from "./variant.js";
import { daysPerMove } from "./clock.js";
import { playerName, ratingElement } from "./panels.js";

export const CLOCK_CHOICES = [5, 10, 15, 20, 25, 30, 45, 60];
/** Correspondence games: days for each move (the server takes 1–14). */
export const DAY_CHOICES = [1, 2, 3, 7, 14];

/** The time-control choices of the forms: minutes each ("10"), then days a move ("d3"). */
export function timeControlOptions() {
  return [
    CLOCK_CHOICES.map((m) => h("option", { value: String(m), text: t("lobby.clock_minutes", { n: m }) })),
    h("optgroup", { label: t("lobby.correspondence") },
      DAY_CHOICES.map((d) => h("option", { value: `d${d}`, text: daysPerMove(d) }))),
  ];
}

const DAYS_VALUE = /^d(\d+)$/;

/** What a time-control choice asks of the server: {clock_minutes} or {days_per_move}
 *  ("default": nothing, the game's own clock). */
export function timeControlSpec(value) {
  if (value === "default") return {};
  if (value === "none") return { clock_minutes: null };
  const days = DAYS_VALUE.exec(value);
  if (days) return { days_per_move: Number(days[1]) };
  return { clock_minutes: Number(value) };
}

/** A help line under a time-control select, shown for the correspondence choices. */
export function correspondenceHelp(select, id) {
  const help = h("p", { class: "help", id, text: t("lobby.correspondence_help") });
  const sync = () => {
    help.hidden = !DAYS_VALUE.test(select.value);
    if (help.hidden) select.removeAttribute("aria-describedby");
    else select.setAttribute("aria-describedby", id);
  };
  select.addEventListener("change", sync);
  sync();
  return help;
}

export class Seeks {
  /**
   * @param {{navigate: Function, variants: Array, onChange?: Function}} options  `variants`:
   *   the built-in games (GET /api/variants); `onChange` is called when a seek of ours moved
   *   (the lobby refreshes My games).
   */
  constructor({ navigate, variants, onChange }) {
    this.navigate = navigate;
    this.variants = variants;
    this.onChange = onChange || (() => {});
    this.watched = new Set(); // ids of seeks this player offered or joined, while open
    this.gone = false;
    this.shown = null;
    this.list = h("div", { class: "seek-list", "aria-live": "polite" });
    this.message = h("p", { class: "message seek-message", role: "status" });
    this.section = h("section", { class: "lobby-seeks", id: "seeks", "aria-labelledby": "seeks-h" },
      h("div", { class: "section-head" }, h("h1", { id: "seeks-h", text: t("seeks.title") })),
      account() ? null : h("p", { class: "hint seek-guest" },
        h("span", { text: t("seeks.guest_hint") }), " ",
        h("button", { type: "button", class: "link", text: t("account.login"), onclick: () => accountDialog("login") })),
      this.list, this.message);
    this.form = account() ? this.buildForm() : null;
  }

  title(name) {
    return titleOf(this.variants, name, name);
  }

  unmount() {
    this.gone = true;
  }

  // -- the list -------------------------------------------------------------------------------

  async refresh() {
    let seeks;
    try {
      seeks = await api.seeks();
    } catch (e) {
      replace(this.list, h("p", { class: "message", dataset: { kind: "error" }, text: errorText(e) }));
      return;
    }
    if (this.gone) return;
    const me = account();
    if (me) {
      for (const s of seeks) {
        if (s.seeker === me.username || s.players.includes(me.username)) this.watched.add(s.id);
      }
      const open = new Set(seeks.map((s) => s.id));
      await Promise.all([...this.watched].filter((id) => !open.has(id)).map((id) => this.follow(id)));
      if (this.gone) return;
    }
    const seen = JSON.stringify(seeks);
    if (seen === this.shown) return; // nothing new: leave the list (and the focus in it) alone
    this.shown = seen;
    const focused = document.activeElement && this.list.contains(document.activeElement)
      ? document.activeElement.dataset.focusKey : null;
    if (!seeks.length) {
      replace(this.list, h("p", { class: "hint", text: t("seeks.none") }));
    } else {
      replace(this.list, h("ul", { class: "seeks" }, seeks.map((s) => this.item(s))));
    }
    if (focused) {
      const again = this.list.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  }

  /** A seek of ours that left the open list: taken (go to its table) or withdrawn. */
  async follow(id) {
    let seek;
    try {
      seek = await api.seek(id);
    } catch {
      return; // look again next time
    }
    if (seek.state === "open") return;
    this.watched.delete(id);
    if (seek.state === "taken" && seek.table && !this.gone) {
      this.onChange();
      this.gone = true;
      this.navigate(pages.table(seek.table));
    }
  }

  item(s) {
    const me = account();
    const mine = Boolean(me && s.seeker === me.username);
    const joined = Boolean(me && !mine && s.players.includes(me.username));
    const missing = Math.max(0, s.seats - s.players.length);
    let clock = t("lobby.untimed");
    if (s.days_per_move) clock = daysPerMove(s.days_per_move);
    else if (s.clock_minutes) clock = t("lobby.clock_minutes", { n: s.clock_minutes });
    const meta = [plural("seeks.players_n", s.seats), clock,
      s.seats > 2 ? t("seeks.places_left", { n: missing, total: s.seats }) : null].filter(Boolean).join(" \u00b7 ");
    const actions = [];
    if (mine) {
      actions.push(h("button", { type: "button", class: "danger", dataset: { focusKey: `w-${s.id}`, action: "withdraw" },
        text: t("seeks.withdraw"), onclick: (e) => this.withdraw(s, e.currentTarget) }));
    } else if (me && !joined) {
      actions.push(h("button", { type: "button", class: "primary", dataset: { focusKey: `a-${s.id}`, action: "accept" },
        text: t("seeks.accept"), "aria-label": t("seeks.accept_label", { name: s.seeker, game: this.title(s.variant) }),
        onclick: (e) => this.accept(s, e.currentTarget) }));
    }
    if ((mine || joined) && s.seats > 2) {
      actions.push(h("span", { class: "seek-waiting", text: t("seeks.waiting_more", { n: missing }) }));
    } else if (mine) {
      actions.push(h("span", { class: "seek-waiting", text: t("seeks.waiting_yours") }));
    }
    const others = s.players.filter((p) => p !== s.seeker);
    return h("li", { class: `seek${mine ? " mine" : ""}${joined ? " joined" : ""}`, dataset: { seek: s.id } },
      h("div", { class: "seek-head" },
        h("span", { class: "game", text: this.title(s.variant) }),
        h("span", { class: `badge ${s.rated ? "rated" : "casual"}`, text: t(s.rated ? "seeks.rated" : "seeks.casual") })),
      h("p", { class: "seek-meta", text: meta }),
      h("p", { class: "seek-who" },
        playerName(s.seeker, true, "seeker"), " ", ratingElement(s.rating, s.provisional),
        others.length ? h("span", { class: "seek-joined" }, ` \u00b7 ${t("seeks.joined")} `,
          others.map((p, i) => [i ? ", " : "", playerName(p, true, "joiner")])) : null),
      h("div", { class: "seek-actions" }, actions));
  }

  say(text, kind = "info") {
    this.message.dataset.kind = kind;
    this.message.textContent = text;
  }

  async accept(seek, button) {
    button.disabled = true;
    this.say(t("seeks.accepting"));
    try {
      const answer = await api.acceptSeek(seek.id);
      if (answer.table) {
        this.gone = true;
        this.navigate(pages.table(answer.table));
        return;
      }
      this.watched.add(seek.id);
      const missing = Math.max(0, seek.seats - answer.players.length);
      this.say(t("seeks.joined_waiting", { n: missing }), "ok");
      this.shown = null;
      await this.refresh();
    } catch (e) {
      this.say(errorText(e), "error");
      button.disabled = false;
      this.shown = null;
      this.refresh();
    }
  }

  async withdraw(seek, button) {
    button.disabled = true;
    try {
      await api.withdrawSeek(seek.id);
      this.watched.delete(seek.id);
      this.say(t("seeks.withdrawn"), "ok");
    } catch (e) {
      this.say(errorText(e), "error");
    }
    this.shown = null;
    await this.refresh();
    const next = this.list.querySelector("button") || document.getElementById("seek-offer");
    if (next) next.focus();
  }

  // -- offering a game ------------------------------------------------------------------------

  buildForm() {
    this.variantSelect = h("select", { id: "seek-variant", onchange: () => this.variantChanged() },
      this.variants.map((v) => h("option", { value: v.name, text: gameTitle(v) })));
    if (this.variants.some((v) => v.name === "fise")) this.variantSelect.value = "fise";
    this.seatSelect = h("select", { id: "seek-seats" });
    this.clockSelect = h("select", { id: "seek-clock" },
      h("option", { value: "none", text: t("lobby.untimed") }), timeControlOptions());
    this.rated = h("input", { id: "seek-rated", type: "checkbox", checked: true });
    this.formMessage = h("p", { class: "message", role: "status", "aria-live": "polite" });
    this.submit = h("button", { type: "submit", class: "primary big", id: "seek-offer", text: t("seeks.offer") });
    const field = (id, label, control) => h("div", { class: "field" }, h("label", { for: id, text: label }), control);
    const form = h("form", { class: "create-form seek-form", onsubmit: (e) => { e.preventDefault(); this.offer(); } },
      field("seek-variant", t("lobby.game"), this.variantSelect),
      h("div", { class: "field-row" },
        field("seek-seats", t("lobby.seats"), this.seatSelect),
        field("seek-clock", t("lobby.clock"), this.clockSelect)),
      correspondenceHelp(this.clockSelect, "seek-clock-help"),
      h("div", { class: "field check" }, this.rated, h("label", { for: "seek-rated", text: t("seeks.rated_option") }),
        h("p", { class: "help", text: t("seeks.rated_help") })),
      this.submit, this.formMessage);
    this.variantChanged();
    return h("section", { class: "lobby-offer panel", "aria-labelledby": "offer-h" },
      h("h2", { id: "offer-h", text: t("seeks.offer_title") }),
      h("p", { class: "help", text: t("seeks.offer_help") }), form);
  }

  variantChanged() {
    const v = this.variants.find((x) => x.name === this.variantSelect.value);
    const min = Math.max(2, v ? v.min_players : 2);
    const max = Math.min(4, v ? v.max_players : 4);
    const before = Number(this.seatSelect.value) || 2;
    replace(this.seatSelect, Array.from({ length: max - min + 1 }, (_, i) =>
      h("option", { value: String(min + i), text: String(min + i) })));
    this.seatSelect.value = String(Math.min(max, Math.max(min, before)));
  }

  async offer() {
    const spec = {
      variant: this.variantSelect.value,
      seats: Number(this.seatSelect.value),
      ...timeControlSpec(this.clockSelect.value),
      rated: this.rated.checked,
    };
    this.submit.disabled = true;
    this.formMessage.dataset.kind = "info";
    this.formMessage.textContent = t("seeks.offering");
    try {
      const { id } = await api.offerSeek(spec);
      this.watched.add(id);
      this.formMessage.dataset.kind = "ok";
      this.formMessage.textContent = t("seeks.offered");
      this.shown = null;
      await this.refresh();
    } catch (e) {
      this.formMessage.dataset.kind = "error";
      this.formMessage.textContent = errorText(e);
    } finally {
      this.submit.disabled = false;
    }
  }
}
