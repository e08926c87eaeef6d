// Clock display. The server sends each seat's seconds left at `server_time`; only the running
// clock moves, and the page counts it down locally from when the message arrived.
//
// Two kinds of clock: a player's time for the whole game (minutes: "13:32"), and a time for
// each move (`clock.per_move`: correspondence, days a move), where every turn starts with the
// whole time and the clock reads "2 d 23 h", "5 h 07 min", then "12:34" in the last hour.

import { plural, t } from "./i18n.js";

export const DAY = 86400;

/** Seconds left now for a seat, given when its state arrived (performance.now() ms). */
export function secondsLeft(seat, receivedAt, now = performance.now()) {
  if (seat.clock_remaining === null || seat.clock_remaining === undefined) return null;
  const running = seat.clock_running ? (now - receivedAt) / 1000 : 0;
  return seat.clock_remaining - running;
}

/** 812.4 → "13:32"; -23 → "−0:23"; 3725 → "1:02:05". */
export function formatClock(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const negative = seconds < 0;
  // Count down in whole seconds the way a chess clock does: 0.4 s left still shows 0:01.
  let s = negative ? Math.floor(-seconds) : Math.ceil(seconds);
  const hours = Math.floor(s / 3600);
  s -= hours * 3600;
  const minutes = Math.floor(s / 60);
  const secs = s - minutes * 60;
  const mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
  const text = `${hours ? `${hours}:` : ""}${mm}:${String(secs).padStart(2, "0")}`;
  return negative ? `\u2212${text}` : text;
}

/**
 * Time left on a clock per move: whole seconds counted down as formatClock does, then
 * 172800 → "2 d 00 h", 172797 → "1 d 23 h", 18420 → "5 h 07 min", 754 → "12:34" (the units
 * and words are the language's). `coarse` (lists refreshed every few seconds): "13 min" in the
 * last hour instead of the seconds.
 */
export function formatPerMove(seconds, { coarse = false } = {}) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds < 0) return coarse ? t("clock.minutes", { n: 0 }) : formatClock(seconds);
  const s = Math.ceil(seconds);
  if (s >= DAY) {
    const days = Math.floor(s / DAY);
    const hours = Math.floor((s % DAY) / 3600);
    return plural("clock.days_hours", days, { h: String(hours).padStart(2, "0") });
  }
  if (s >= 3600) {
    const minutes = Math.floor((s % 3600) / 60);
    return t("clock.hours_minutes", { h: Math.floor(s / 3600), m: String(minutes).padStart(2, "0") });
  }
  if (coarse) return t("clock.minutes", { n: Math.ceil(s / 60) });
  return formatClock(s);
}

/** "3 days a move". */
export function daysPerMove(days) {
  return plural("lobby.days_per_move", days);
}

/**
 * A table's or a game's time control, from its `clock` JSON ({initial_seconds, per_move}, or
 * null): "10 min each", "3 days a move", "Untimed".
 */
export function clockLabel(clock) {
  if (!clock) return t("lobby.untimed");
  const seconds = clock.initial_seconds;
  if (clock.per_move) {
    if (seconds % DAY === 0) return daysPerMove(seconds / DAY);
    return t("lobby.per_move_time", { time: formatPerMove(seconds) });
  }
  return t("lobby.clock_minutes", { n: Math.round(seconds / 60) });
}
