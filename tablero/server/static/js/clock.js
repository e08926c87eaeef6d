// Clock display. The server sends each seat's seconds left at `server_time`; only the running
// clock moves, and the page counts it down locally from when the message arrived.

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
