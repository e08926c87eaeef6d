// The table page's side panels as plain functions of the table view: the players, the preview's
// verdict, the moves, the end-of-game summary. They build elements and hold no state.

import { errorText, pages } from "./api.js";
import { tileElement } from "./board.js";
import { h } from "./dom.js";
import { plural, t } from "./i18n.js";
import { BLANK } from "./placement.js";

/** End-of-game adjustment reasons the server writes in English, in the interface language. */
export function adjustmentText(why) {
  if (why === "tiles left on the rack") return t("adj.rack");
  if (why === "the others' tiles") return t("adj.others");
  if (why === "over time") return t("adj.overtime");
  const m = /^(\d+) unplayed blank/.exec(why);
  if (m) return plural("adj.blanks", Number(m[1]));
  return why;
}

/** "+9", "−9", "0". */
function signed(points) {
  if (points > 0) return `+${points}`;
  return points < 0 ? `\u2212${-points}` : "0";
}

/** The small mark of a player with an account (the words are for screen readers and a tooltip). */
export function accountMark() {
  return h("span", { class: "account-mark", title: t("seat.account"), role: "img",
    "aria-label": t("seat.account"), text: "\u2713" });
}

/**
 * A player's name: a link to their profile (/p/{name}) when the seat is an account's (its
 * nickname is the username), else plain text.
 */
export function playerName(name, isAccount, className = "nick") {
  if (isAccount && name) {
    return h("a", { class: `${className} player-link`, href: pages.player(name), "data-link": "", text: name });
  }
  return h("span", { class: className, text: name });
}

/** A rating: the number, and a "?" when it is still provisional (said in words to screen
 *  readers and in a tooltip). */
export function ratingElement(rating, provisional) {
  return h("span", { class: `rating${provisional ? " provisional" : ""}` },
    h("span", { class: "rating-n", text: String(rating) }),
    provisional ? h("span", { class: "prov", title: t("rating.provisional"), "aria-hidden": "true", text: "?" }) : null,
    provisional ? h("span", { class: "sr-only", text: ` (${t("rating.provisional")})` }) : null);
}

/** The players: name, tags, connection, score, tiles left and a clock element to tick. */
export function seatList(table, seatName, onLeave) {
  const items = table.seats.map((s) => {
    const toMove = table.state === "playing" && table.to_move === s.seat;
    const isYou = Boolean(table.you && table.you.seat === s.seat);
    const tags = [];
    if (s.kind === "bot") tags.push(h("span", { class: "tag bot", text: t("seat.bot_level", { level: s.bot_level }) }));
    if (isYou) tags.push(h("span", { class: "tag you", text: t("seat.you") }));
    if (isYou && table.state === "waiting") {
      tags.push(h("button", { type: "button", class: "tool leave", text: t("seat.leave"), onclick: onLeave }));
    }
    if (s.out_of_time) tags.push(h("span", { class: "tag warn", text: t("seat.out_of_time") }));
    if (s.resigned) tags.push(h("span", { class: "tag resigned", text: t("seat.resigned") }));
    const status = t(s.connected ? "seat.connected" : "seat.disconnected");
    const dot = s.kind === "human"
      ? h("span", { class: `dot ${s.connected ? "on" : "off"}`, title: status, role: "img", "aria-label": status })
      : null;
    const classes = ["seat", toMove && "to-move", isYou && "is-you", s.kind === "open" && "open",
      s.resigned && "resigned"];
    return h("li", { class: classes.filter(Boolean).join(" "), dataset: { seat: String(s.seat) } },
      h("div", { class: "seat-name" }, dot,
        s.kind === "open" ? h("span", { class: "nick", text: t("seat.open") }) : playerName(seatName(s.seat), s.account),
        s.account ? accountMark() : null, tags),
      h("div", { class: "seat-stats" },
        h("span", { class: "score", text: String(s.score ?? 0) }),
        h("span", { class: "rack-count", text: table.state === "playing" ? plural("seat.tiles", s.rack_count) : "" }),
        h("span", { class: "clock", dataset: { seat: String(s.seat) } })));
  });
  return h("ol", { class: "seat-list" }, items);
}

/** What the server said of a proposed move: legal with words and score, or why not. */
export function previewVerdict(p) {
  const mark = (text) => h("span", { class: "mark", "aria-hidden": "true", text });
  if (!p.legal) {
    return [h("p", { class: "verdict illegal" }, mark("\u2717"),
      h("span", { class: "reason", text: errorText({ code: p.rule, message: p.reason, params: p.params }) }))];
  }
  const parts = [h("p", { class: "verdict legal" }, mark("\u2713"), h("span", { text: t("preview.legal") }),
    p.move ? h("code", { class: "notation", text: p.move }) : null)];
  if (p.words && p.words.length) {
    parts.push(h("ul", { class: "words" }, p.words.map((w) => h("li", {},
      h("span", { class: "word", text: w.word }), h("span", { class: "pts", text: String(w.score) })))));
  }
  if (p.score !== null && p.score !== undefined) {
    parts.push(h("p", { class: "total" }, h("span", { text: t("preview.score") }),
      h("strong", { class: "preview-score", text: String(p.score) })));
  }
  if (p.breakdown && p.breakdown.length) {
    parts.push(h("details", { class: "breakdown" }, h("summary", { text: t("preview.breakdown") }),
      h("ul", {}, p.breakdown.map((line) => h("li", { text: line })))));
  }
  // Only tables that allow dictionary hints get an answer here (null otherwise).
  if (p.words_valid === true) parts.push(h("p", { class: "dict ok", text: t("preview.words_valid") }));
  else if (p.words_valid === false) {
    const words = (p.invalid_words || []).join(", ");
    parts.push(h("p", { class: "dict bad", text: t("preview.words_invalid", { words }) }));
  }
  return parts;
}

/** A history entry in words: {move, note} ("8H CASA", or "pass", "resigned"...). */
export function moveWords(m, seatName) {
  let move = m.move || "";
  let note = "";
  switch (m.kind) {
    case "passed": move = t("history.passed"); break;
    case "exchanged": move = plural("history.exchanged", m.tiles ?? 0); break;
    case "lost_turn": note = t("history.lost_turn"); break;
    case "challenge_upheld": move = t("history.challenge_upheld", { name: seatName(m.target) }); break;
    case "challenge_failed": move = t("history.challenge_failed"); break;
    case "timeout": move = t("history.timeout"); break;
    case "skip": move = t("history.skip"); break;
    case "shuffle": move = t("history.shuffle", { name: seatName(m.target) }); break;
    case "resigned": move = t("history.resigned"); break;
    default: break;
  }
  return { move, note };
}

/** Whether a history entry's points are worth a column (not for a shuffle, a skip, a resignation). */
export function hasPoints(m) {
  return !["shuffle", "skip", "resigned"].includes(m.kind);
}

/** The moves so far, as a table (or a line saying there are none). */
/** Why the first player starts, when the rules chose by the racks (the view's `start`):
 *  "Ana starts: the letter on their rack nearest the end of the alphabet is Z (Luis showed
 *  X)", or null. Names and tiles go in as text. */
export function startText(start, seatName) {
  if (!start || !start.rule || !Array.isArray(start.shown)) return null;
  const key = `start.${start.rule}`;
  const tiles = (list) => (list || []).map((x) => (x === BLANK ? t("start.blank") : x)).join(", ");
  const shown = new Map(start.shown.map(([seat, list]) => [seat, list]));
  const mine = shown.get(start.first) || [];
  if (!mine.length) return null;
  let text = t(key, { name: seatName(start.first), tiles: tiles(mine) });
  const others = start.shown.filter(([seat, list]) => seat !== start.first && list.length)
    .map(([seat, list]) => t("start.shown_others", { name: seatName(seat), tiles: tiles(list) }));
  if (others.length) text += ` (${others.join("; ")})`;
  if (start.lots && start.lots.length) text += `; ${t("start.lots")}`;
  return text;
}

export function historyBody(table, seatName) {
  const rows = (table.history || []).map((m) => {
    const { move, note } = moveWords(m, seatName);
    return h("tr", { class: `kind-${m.kind}` },
      h("td", { class: "n", text: String(m.n ?? "") }),
      h("td", { class: "who", text: m.nickname || seatName(m.seat) }),
      h("td", { class: "mv" }, h("span", { text: move }), note ? h("span", { class: "note", text: ` (${note})` }) : null),
      h("td", { class: "pts", text: hasPoints(m) ? String(m.score ?? 0) : "" }),
      h("td", { class: "tot", text: m.total === undefined ? "" : String(m.total) }));
  });
  const starts = startText(table.start, seatName);
  const startLine = starts ? h("p", { class: "start-line", text: starts }) : null;
  if (!rows.length) return [startLine, h("p", { class: "hint", text: t("history.empty") })];
  const head = ["#", t("history.player"), t("history.move"), t("history.score"), t("history.total")];
  return [startLine, h("div", { class: "history-scroll" }, h("table", {},
    h("thead", {}, h("tr", {}, head.map((text) => h("th", { text })))),
    h("tbody", {}, rows)))];
}

/** "Ana wins!", or "A tie: Ana, Luis" (a finished table). */
export function winnerText(table, seatName) {
  const names = ((table.result && table.result.winners) || []).map((s) => seatName(s));
  return names.length > 1 ? t("result.tie", { names: names.join(", ") }) : t("result.winner", { name: names[0] || "" });
}

/** The end of the game: winner, reason, ranking by place (who resigned marked), and each
 *  seat's adjustments and tiles left. */
export function resultParts(table, variant, seatName) {
  const r = table.result;
  const winners = new Set(r.winners || []);
  const ranked = [...(r.ranking || [])].sort((a, b) => a.place - b.place);
  const ranking = ranked.map((x) => h("li", {
    class: [winners.has(x.seat) && "winner", x.resigned && "resigned"].filter(Boolean).join(" "),
    dataset: { seat: String(x.seat), place: String(x.place) },
  },
  h("span", { class: "place", text: `${x.place}.` }),
  h("span", { class: "nick" },
    playerName(x.nickname || seatName(x.seat), Boolean((table.seats[x.seat] || {}).account), "name"),
    x.resigned ? h("span", { class: "tag resigned", text: t("seat.resigned") }) : null),
  h("span", { class: "score", text: String(x.score) })));
  const rows = table.seats.map((s) => {
    const adj = (r.adjustments && r.adjustments[s.seat]) || [];
    const before = r.scores_before ? r.scores_before[s.seat] : null;
    const final = r.final_scores ? r.final_scores[s.seat] : null;
    const left = r.racks_left && r.racks_left[s.seat] ? r.racks_left[s.seat] : [];
    const leftTiles = left.length
      ? h("div", { class: "left", "aria-label": `${t("result.rack_left")} ${left.join(" ")}` },
        h("span", { "aria-hidden": "true", text: t("result.rack_left") }),
        left.map((l) => h("span", { class: "mini-tile", "aria-hidden": "true", dataset: { letter: l } },
          tileElement(variant, l === BLANK ? "" : l, { rackBlank: l === BLANK }))))
      : null;
    return h("tr", { dataset: { seat: String(s.seat) } },
      h("td", { class: "who", text: seatName(s.seat) }),
      h("td", { class: "num", text: before === null ? "" : String(before) }),
      h("td", { class: "adj" }, adj.length
        ? h("ul", {}, adj.map((a) => h("li", {}, h("span", { text: adjustmentText(a.why) }), " ",
          h("strong", { text: signed(a.points) }))))
        : h("span", { class: "none", text: "\u2014" }), leftTiles),
      h("td", { class: "num final", text: final === null ? "" : String(final) }));
  });
  const head = [t("history.player"), t("result.before"), t("result.adjustments"), t("result.final")];
  return [
    h("h2", { text: t("result.title") }),
    h("p", { class: "winner-line", text: winnerText(table, seatName) }),
    h("p", { class: "reason", text: t(`result.reason.${r.reason}`) }),
    h("ol", { class: "ranking" }, ranking),
    h("table", { class: "adjustments" },
      h("thead", {}, h("tr", {}, head.map((text) => h("th", { text })))),
      h("tbody", {}, rows)),
  ];
}
