// What happens at a table, in words: the sentence for a move ("Ana played CASA at H8 across for
// 12 points"), shown under the board as the last move, and a polite live region that tells a
// screen reader the others' moves as they arrive, the start and the end of the game. A sighted
// player sees an opponent's tiles land; without this, a screen reader user hears nothing.

import { h } from "./dom.js";
import { plural, t } from "./i18n.js";
import { moveWords } from "./panels.js";

const KEPT_LINES = 5; // the log keeps the last few lines (a screen reader reads each once)

/**
 * A placement's notation as words: "8H CASA" (row first: across) → {square "H8", across};
 * "H8 CA(S)A" (column first: down) → {square "H8", down}, with the word as it reads on the
 * board: letters already there unbracketed, digraph tiles as their letters, blanks in capitals.
 */
export function readPlacement(notation) {
  const m = /^(?:(\d+)([A-Z])|([A-Z])(\d+))\s+(\S+)$/.exec(String(notation || "").trim());
  if (!m) return null;
  const across = Boolean(m[1]);
  const square = across ? `${m[2]}${m[1]}` : `${m[3]}${m[4]}`;
  const word = m[5].replace(/[()[\]]/g, "").toLocaleUpperCase();
  return { square, across, word };
}

/** One history entry as a sentence, with the name of who did it. */
export function moveSentence(m, seatName) {
  const name = m.nickname || seatName(m.seat);
  const points = m.score ?? 0;
  switch (m.kind) {
    case "placed": {
      const p = readPlacement(m.move);
      if (!p) return plural("say.played_move", points, { name, move: m.move || "" });
      return plural("say.placed", points, {
        name, word: p.word, square: p.square, dir: t(p.across ? "say.across" : "say.down"),
      });
    }
    case "cambio": return plural("say.played_move", points, { name, move: m.move || "" });
    case "passed": return t("say.passed", { name });
    case "exchanged": return plural("say.exchanged", m.tiles ?? 0, { name });
    case "resigned": return t("say.resigned", { name });
    case "timeout": return t("say.timeout", { name });
    default: {
      const { move, note } = moveWords(m, seatName);
      return t("say.other", { name, what: [move, note].filter(Boolean).join(", ") });
    }
  }
}

/** The table's last move as a sentence ("" before the first). */
export function lastMoveSentence(table, seatName) {
  const history = table.history || [];
  return history.length ? moveSentence(history[history.length - 1], seatName) : "";
}

/** Who an entry concerns besides its author (an EX square empties the target's rack). */
function concerns(m, seat) {
  return m.target === seat || (m.kind === "timeout" && m.seat === seat);
}

/**
 * The live region. `update(table, …)` with every table view says what is new since the last
 * one: the others' moves (one's own only when it happened to one, e.g. a clock that ran out),
 * the game starting, the game's end with the winner, and "Your turn" when it became one's turn.
 * The first view says nothing: what was on the table before the page opened is not news.
 */
export class Announcer {
  constructor() {
    this.el = h("div", { class: "sr-only announcer", id: "announcer", role: "log", "aria-live": "polite",
      "aria-relevant": "additions", "aria-label": t("say.label") });
    this.seen = null; // {moves, state} of the last view
  }

  update(table, { seatName, yourTurn, winnerLine, mySeat }) {
    const history = table.history || [];
    const before = this.seen;
    this.seen = { moves: history.length, state: table.state };
    if (!before || history.length < before.moves) return; // the first view, or a new game
    // The page's own seat, not only the view's: a view sent to the socket before it has
    // authenticated is a spectator's (no `you`), and one's own move must not be news then.
    const me = mySeat ?? (table.you ? table.you.seat : null);
    const news = history.slice(before.moves)
      .filter((m) => me === null || m.seat !== me || concerns(m, me))
      .map((m) => moveSentence(m, seatName));
    if (before.state === "waiting" && table.state === "playing") news.push(t("say.started"));
    if (before.state !== "over" && table.state === "over") news.push(t("say.over", { winner: winnerLine() }));
    else if (news.length && yourTurn) news.push(t("table.your_turn"));
    if (news.length) this.say(news.join(" "));
  }

  say(text) {
    this.el.append(h("p", { text }));
    while (this.el.childElementCount > KEPT_LINES) this.el.firstElementChild.remove();
  }
}
