// Short tones made with Web Audio (no sound files to ship): a soft click when a move lands and
// a two-note call when it becomes your turn. Silent when the player turned sound off.

import { prefs } from "./prefs.js";

let context = null;

function tone(freq, start, length, volume = 0.08) {
  const ctx = context;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "sine";
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0, ctx.currentTime + start);
  gain.gain.linearRampToValueAtTime(volume, ctx.currentTime + start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length + 0.02);
}

function ready() {
  if (!prefs().sound) return false;
  try {
    if (!context) context = new (window.AudioContext || window.webkitAudioContext)();
    if (context.state === "suspended") context.resume();
    return true;
  } catch {
    return false;
  }
}

export function playMoveSound() {
  if (ready()) tone(660, 0, 0.08, 0.05);
}

export function playTurnSound() {
  if (!ready()) return;
  tone(523, 0, 0.15);
  tone(784, 0.13, 0.22);
}
