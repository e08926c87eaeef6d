// The logged-in account, if any. The session is an HttpOnly cookie the server sets at sign-up
// or login and clears at logout: the page never sees it, it only asks GET /api/me who it is
// (401: a guest). A logged-in player's personal options are stored with the account: the
// account's values replace this browser's at login, and every option the player changes
// afterwards is saved with PUT /api/me/prefs (and in localStorage, as for a guest).

import { api, ApiError } from "./api.js";
import { adoptPrefs, onPrefsChange, PREF_KEYS, prefs } from "./prefs.js";

let current = null; // {username}
const listeners = new Set();

/** {username} of the logged-in player, or null for a guest. */
export function account() {
  return current;
}

export function username() {
  return current ? current.username : null;
}

/** fn(account or null) after a login, a sign-up or a logout (not on the first load). */
export function onAccountChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function become(value) {
  current = value;
  for (const fn of listeners) fn(current);
}

/** Whether a 4xx says the session is gone (expired, or ended by a password change elsewhere). */
function sessionGone(e) {
  return e instanceof ApiError && e.status === 401 && e.code === "login_required";
}

/** Ask the server who we are, and take the account's options. Call once, on load. */
export async function loadAccount() {
  try {
    const me = await api.me();
    current = { username: me.username };
    adoptPrefs(me.prefs);
  } catch {
    current = null; // 401 (a guest), or the server cannot say: a guest for now
  }
  return current;
}

export async function logIn(name, password) {
  const answer = await api.logIn(name, password);
  let stored = {};
  try {
    stored = (await api.me()).prefs || {};
  } catch { /* logged in all the same; the options stay this browser's */ }
  adoptPrefs(stored); // the account's values win over this browser's
  become({ username: answer.username });
}

export async function signUp(name, password) {
  const answer = await api.signUp(name, password);
  current = { username: answer.username };
  await savePrefs(); // a new account starts with the options chosen in this browser
  become(current);
}

export async function logOut() {
  await api.logOut();
  become(null);
}

export function changePassword(password, newPassword) {
  return api.changePassword(password, newPassword);
}

export function myGames() {
  return api.myGames();
}

// -- options follow the account ---------------------------------------------------------------

let saving = Promise.resolve();

function savePrefs() {
  const p = prefs();
  const body = Object.fromEntries(PREF_KEYS.map((k) => [k, p[k]]));
  // One write at a time, in the order the player made the changes. A server that does not
  // know an option yet (422 naming it) stores the others.
  const put = (values) => api.savePrefs(values).catch((e) => {
    const field = e instanceof ApiError && e.status === 422 ? e.field : null;
    if (field && field in values) {
      const rest = { ...values };
      delete rest[field];
      return put(rest);
    }
    throw e;
  });
  saving = saving.then(() => put(body)).catch((e) => {
    if (sessionGone(e) && current) become(null);
  });
  return saving;
}

onPrefsChange((_, name, source) => {
  if (source === "user" && current && PREF_KEYS.includes(name)) savePrefs();
});

/** Wait for the option writes under way (tests, and a page about to reload). */
export function prefsSaved() {
  return saving;
}
