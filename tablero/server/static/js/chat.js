// The table's chat panel. Lines arrive on the table's WebSocket: the history on connect and
// after `auth` ({"type": "chat_history", lines}), then each new line ({"type": "chat", line});
// a line is sent as {"type": "chat", id, text}. Seated players chat under their seat's name,
// spectators only when logged in (under their username). Who sees which line is the server's
// business (a table may keep the spectators' lines from the players while the game is on).
// Lines are text: authors and words go in with textContent only.
//
// The personal option "Chat" (prefs `chat`) hides the panel for this player alone.

import { account } from "./account.js";
import { accountDialog } from "./accountui.js";
import { errorText } from "./api.js";
import { h, replace } from "./dom.js";
import { currentLanguage, has, t } from "./i18n.js";
import { prefs } from "./prefs.js";

export const MAX_CHARS = 300;

/** Characters as the server counts them (code points, not UTF-16 units). */
function length(text) {
  return [...text].length;
}

export class ChatPanel {
  /**
   * @param {{send: (message: object) => boolean}} options  `send` puts a message on the
   *   table's socket (false when it is not connected).
   */
  constructor({ send }) {
    this.sendMessage = send;
    this.lines = new Map(); // n -> line
    this.pending = new Map(); // id of a message sent -> its text (to give it back if refused)
    this.nextId = 1;
    this.table = null;
    this.list = h("ol", { class: "chat-lines", role: "log", "aria-live": "polite", "aria-labelledby": "chat-h",
      tabindex: "0" });
    this.input = h("input", {
      id: "chat-input", type: "text", autocomplete: "off", spellcheck: "true",
      "aria-describedby": "chat-count chat-error",
      oninput: () => this.counted(),
      onkeydown: (e) => {
        if (e.key === "Enter" && !e.isComposing) {
          e.preventDefault();
          this.send();
        }
      },
    });
    this.count = h("span", { class: "chat-count", id: "chat-count", "aria-live": "polite" });
    this.error = h("p", { class: "field-error chat-error", id: "chat-error", role: "alert" });
    this.button = h("button", { type: "button", class: "tool", id: "chat-send", text: t("chat.send"),
      onclick: () => this.send() });
    this.form = h("div", { class: "chat-form" },
      h("label", { for: "chat-input", class: "sr-only", text: t("chat.input_label") }),
      h("div", { class: "chat-input-row" }, this.input, this.button),
      h("div", { class: "chat-under" }, this.error, this.count));
    this.guest = h("p", { class: "hint chat-guest" },
      h("span", { text: t("chat.login_to_chat") }), " ",
      h("button", { type: "button", class: "link", text: t("account.login"), onclick: () => accountDialog("login") }));
    this.quiet = h("p", { class: "help chat-quiet", hidden: true });
    this.empty = h("p", { class: "hint chat-empty", text: t("chat.empty") });
    this.el = h("section", { class: "panel chat", id: "chat", "aria-labelledby": "chat-h" },
      h("h2", { id: "chat-h", text: t("chat.title") }), this.quiet, this.empty, this.list, this.form, this.guest);
    this.counted();
    this.applyPref();
  }

  /** Show or hide the panel as the personal option says. */
  applyPref() {
    this.el.hidden = !prefs().chat;
  }

  /** The table changed: who may write here, and the line about spectators' chat. */
  update(table) {
    this.table = table;
    const seated = Boolean(table.you);
    const canChat = seated || Boolean(account());
    this.form.hidden = !canChat;
    this.guest.hidden = canChat;
    let quiet = "";
    if (table.quiet_spectators && table.state === "playing") {
      quiet = t(seated ? "chat.quiet_player" : "chat.quiet_spectator");
    }
    this.quiet.textContent = quiet;
    this.quiet.hidden = !quiet;
  }

  setHistory(lines) {
    this.lines = new Map(lines.map((l) => [l.n, l]));
    this.draw();
  }

  addLine(line) {
    if (this.lines.has(line.n)) return;
    this.lines.set(line.n, line);
    const last = this.list.lastElementChild;
    if (!last || Number(last.dataset.n) < line.n) {
      const stick = this.atBottom();
      this.list.append(this.lineElement(line));
      this.empty.hidden = true;
      if (stick) this.list.scrollTop = this.list.scrollHeight;
    } else {
      this.draw();
    }
  }

  atBottom() {
    return this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24;
  }

  draw() {
    const lines = [...this.lines.values()].sort((a, b) => a.n - b.n);
    replace(this.list, lines.map((l) => this.lineElement(l)));
    this.empty.hidden = lines.length > 0;
    this.list.scrollTop = this.list.scrollHeight;
  }

  lineElement(line) {
    const spectator = line.seat === null || line.seat === undefined;
    const you = this.table && this.table.you && !spectator && line.seat === this.table.you.seat;
    const at = typeof line.at === "number" ? new Date(line.at * 1000) : null;
    let time = "";
    if (at) {
      try {
        time = at.toLocaleTimeString(currentLanguage(), { hour: "2-digit", minute: "2-digit" });
      } catch { time = ""; }
    }
    return h("li", { class: `chat-line${spectator ? " spectator" : ""}${you ? " you" : ""}`, dataset: { n: String(line.n) } },
      time ? h("time", { class: "chat-time", datetime: at.toISOString(), text: time }) : null,
      h("span", { class: "chat-author", text: line.author }),
      spectator ? h("span", { class: "tag spectator", text: t("chat.spectator") }) : null,
      h("span", { class: "sr-only", text: ": " }),
      h("span", { class: "chat-text", text: line.text }));
  }

  counted() {
    const n = length(this.input.value);
    this.count.textContent = t("chat.count", { n, max: MAX_CHARS });
    const over = n > MAX_CHARS;
    this.count.classList.toggle("over", over);
    if (over) this.input.setAttribute("aria-invalid", "true");
    else this.input.removeAttribute("aria-invalid");
    this.button.disabled = over || !this.input.value.trim();
  }

  showError(text) {
    this.error.textContent = text;
  }

  send() {
    const text = this.input.value.trim();
    if (!text) return;
    if (length(text) > MAX_CHARS) {
      this.showError(t("chat.error_chat_too_long", { max: MAX_CHARS }));
      return;
    }
    const id = this.nextId++;
    if (!this.sendMessage({ type: "chat", id, text })) {
      this.showError(t("chat.not_connected"));
      return;
    }
    this.pending.set(id, text);
    setTimeout(() => this.pending.delete(id), 30000);
    this.showError("");
    this.input.value = "";
    this.counted();
  }

  /** An error the server sent about a message of ours; true when it was a chat line. */
  refused(err, id) {
    if (id === null || !this.pending.has(id)) return false;
    const text = this.pending.get(id);
    this.pending.delete(id);
    if (!this.input.value) { // give the line back, to edit and send again
      this.input.value = text;
      this.counted();
    }
    const key = `chat.error_${err.code}`;
    let message;
    if (err.code === "rate_limited" && err.retry_after) {
      message = t("chat.error_rate_limited_wait", { n: Math.ceil(err.retry_after) });
    } else if (has(key)) {
      message = t(key, { max: MAX_CHARS });
    } else {
      message = currentLanguage() === "en" && err.message ? err.message : errorText(err);
    }
    this.showError(message);
    return true;
  }
}
