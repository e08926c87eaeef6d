// The account in the page header: "Log in" and "Sign up" for a guest; for a logged-in player
// their username opening a menu (My games, Change password, Log out). And the dialogs these
// open. What the server says is wrong is shown under the field it names (`field` in its error),
// and what was typed stays, but the passwords.

import { ApiError, errorText, pages } from "./api.js";
import { account, changePassword, logIn, logOut, signUp } from "./account.js";
import { h } from "./dom.js";
import { currentLanguage, has, t } from "./i18n.js";

/** The header's account part, for the current account. */
export function accountControls() {
  const me = account();
  if (!me) {
    return h("div", { class: "account guest" },
      h("button", { type: "button", class: "tool", id: "login-button", text: t("account.login"),
        onclick: () => accountDialog("login") }),
      h("button", { type: "button", class: "tool strong", id: "signup-button", text: t("account.signup"),
        onclick: () => accountDialog("signup") }));
  }
  const list = h("ul", { class: "account-menu", id: "account-menu", hidden: true },
    h("li", { class: "who" }, h("span", { text: t("account.logged_in_as") }), " ", h("strong", { text: me.username })),
    h("li", {}, h("a", { href: "/#my-games", "data-link": "", id: "menu-my-games", text: t("nav.my_games") })),
    h("li", {}, h("a", { href: pages.player(me.username), "data-link": "", id: "menu-profile", text: t("nav.my_profile") })),
    h("li", {}, h("button", { type: "button", id: "menu-password", text: t("account.change_password"),
      onclick: () => { close(); passwordDialog(); } })),
    h("li", {}, h("button", { type: "button", id: "menu-logout", text: t("account.logout"),
      onclick: async () => {
        close();
        try {
          await logOut();
        } catch (e) {
          alertDialog(t("account.logout"), errorText(e));
        }
      } })));
  const button = h("button", {
    type: "button", class: "tool account-button", id: "account-button",
    "aria-expanded": "false", "aria-controls": "account-menu", "aria-haspopup": "true",
    "aria-label": t("account.menu_label", { name: me.username }), title: me.username,
  }, h("span", { class: "account-icon", "aria-hidden": "true", text: "\u25CF" }),
  h("span", { class: "account-name", text: me.username }),
  h("span", { class: "caret", "aria-hidden": "true", text: "\u25BE" }));
  const wrap = h("div", { class: "account member" }, button, list);
  function open() {
    list.hidden = false;
    button.setAttribute("aria-expanded", "true");
    document.addEventListener("pointerdown", outside, true);
  }
  function close() {
    list.hidden = true;
    button.setAttribute("aria-expanded", "false");
    document.removeEventListener("pointerdown", outside, true);
  }
  function outside(e) {
    if (!wrap.contains(e.target)) close();
  }
  button.addEventListener("click", () => {
    if (list.hidden) {
      open();
      list.querySelector("a, button").focus();
    } else {
      close();
    }
  });
  wrap.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !list.hidden) {
      e.preventDefault();
      close();
      button.focus();
    }
    if ((e.key === "ArrowDown" || e.key === "ArrowUp") && !list.hidden) {
      const items = [...list.querySelectorAll("a, button")];
      const i = items.indexOf(document.activeElement);
      const next = e.key === "ArrowDown" ? (i + 1) % items.length : (i - 1 + items.length) % items.length;
      e.preventDefault();
      items[next].focus();
    }
  });
  wrap.addEventListener("focusout", (e) => {
    if (e.relatedTarget && !wrap.contains(e.relatedTarget)) close();
  });
  list.addEventListener("click", (e) => {
    if (e.target.closest("a")) close();
  });
  return wrap;
}

// -- error texts ------------------------------------------------------------------------------

const FIELD_OF_CODE = { username_taken: "username", bad_credentials: "password" };

/** The field an error belongs next to (the server's `field`, else by its code), or null. */
function fieldOf(err) {
  if (err instanceof ApiError && err.field) return err.field;
  return FIELD_OF_CODE[err.code] || null;
}

/**
 * The words for an account error. English shows the server's message (it says exactly what is
 * wrong with a name), without the field's name in front when it stands next to the field;
 * Spanish and Romanian translate the code, and a refused field by its rule.
 */
export function accountErrorText(err, texts = {}) {
  if (texts[err.code] && currentLanguage() !== "en") return t(texts[err.code]);
  if (err.code === "rate_limited") {
    return err.retryAfter ? t("error.rate_limited_wait", { n: err.retryAfter }) : t("error.rate_limited");
  }
  const field = fieldOf(err);
  if (currentLanguage() !== "en") {
    if (err.code === "invalid_request" && field && has(`account.rules_${field}`)) return t(`account.rules_${field}`);
    return errorText(err);
  }
  const message = err.message || "";
  if (field && message.startsWith(`${field}: `)) {
    const rest = message.slice(field.length + 2);
    return rest.charAt(0).toUpperCase() + rest.slice(1);
  }
  if (message && err.status) return message.charAt(0).toUpperCase() + message.slice(1);
  return errorText(err);
}

// -- dialogs ----------------------------------------------------------------------------------

/**
 * A form in a <dialog>: `fields` are [{name, label, type, autocomplete, help}]; `submit(values)`
 * does the work and throws an ApiError to show. Escape closes it (the dialog's own behaviour).
 */
function formDialog({ id, title, fields, submitText, submit, extra, values = {}, texts = {} }) {
  const inputs = {};
  const errors = {};
  const rows = fields.map((f) => {
    const inputId = `${id}-${f.name}`;
    const help = f.help ? h("p", { class: "help", id: `${inputId}-help`, text: f.help }) : null;
    const error = h("p", { class: "field-error", id: `${inputId}-error`, hidden: true });
    const input = h("input", {
      id: inputId, name: f.name, type: f.type || "text", autocomplete: f.autocomplete,
      autocapitalize: f.type === "password" ? null : "none", spellcheck: "false",
      value: values[f.name] || "", "aria-describedby": [help && help.id, error.id].filter(Boolean).join(" "),
    });
    inputs[f.name] = input;
    errors[f.name] = error;
    return h("div", { class: "field" }, h("label", { for: inputId, text: f.label }), input, help, error);
  });
  const general = h("p", { class: "message", role: "alert", dataset: { kind: "error" } });
  const ok = h("button", { type: "submit", class: "primary", id: `${id}-submit`, text: submitText });
  const cancel = h("button", { type: "button", class: "secondary", text: t("action.cancel"), onclick: () => dialog.close() });
  const form = h("form", { method: "dialog", novalidate: true, class: "account-form" },
    rows, general, h("div", { class: "dialog-buttons" }, cancel, ok), extra || null);
  const titleId = `${id}-title`;
  const dialog = h("dialog", { class: "dialog account-dialog", id, "aria-labelledby": titleId },
    h("h2", { id: titleId, text: title }), form);

  const clear = () => {
    general.textContent = "";
    for (const [name, el] of Object.entries(errors)) {
      el.hidden = true;
      el.textContent = "";
      inputs[name].removeAttribute("aria-invalid");
    }
  };
  const show = (name, text) => {
    if (name && errors[name]) {
      errors[name].textContent = text;
      errors[name].hidden = false;
      inputs[name].setAttribute("aria-invalid", "true");
      inputs[name].focus();
    } else {
      general.textContent = text;
    }
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clear();
    const vals = Object.fromEntries(Object.entries(inputs).map(([k, el]) => [k, el.value]));
    const empty = fields.find((f) => !vals[f.name]);
    if (empty) {
      show(empty.name, t("account.required", { field: empty.label }));
      return;
    }
    ok.disabled = true;
    dialog.setAttribute("aria-busy", "true");
    try {
      const done = await submit(vals, dialog);
      if (done !== false) dialog.close();
    } catch (err) {
      // Keep what was typed, but no password: they are typed again.
      for (const f of fields) if (f.type === "password") inputs[f.name].value = "";
      const field = fieldOf(err);
      show(field && inputs[field] ? field : null, accountErrorText(err, texts));
      if (!field || !inputs[field]) {
        const firstPassword = fields.find((f) => f.type === "password");
        (firstPassword ? inputs[firstPassword.name] : inputs[fields[0].name]).focus();
      }
    } finally {
      ok.disabled = false;
      dialog.removeAttribute("aria-busy");
    }
  });
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  const first = fields.find((f) => !values[f.name]) || fields[0];
  inputs[first.name].focus();
  return { dialog, inputs, form };
}

/** Log in ("login") or sign up ("signup"); each offers the other. */
export function accountDialog(mode, values = {}) {
  for (const d of document.querySelectorAll("dialog.account-dialog")) d.close();
  const signup = mode === "signup";
  const other = h("p", { class: "switch" },
    h("span", { text: t(signup ? "account.have_account" : "account.no_account") }), " ",
    h("button", { type: "button", class: "link", id: signup ? "switch-login" : "switch-signup",
      text: t(signup ? "account.login" : "account.signup"),
      onclick: () => accountDialog(signup ? "login" : "signup", { username: form.inputs.username.value }) }));
  const form = formDialog({
    id: signup ? "signup-dialog" : "login-dialog",
    title: t(signup ? "account.signup_title" : "account.login_title"),
    fields: [
      { name: "username", label: t("account.username"), autocomplete: "username",
        help: signup ? t("account.rules_username") : null },
      { name: "password", label: t("account.password"), type: "password",
        autocomplete: signup ? "new-password" : "current-password",
        help: signup ? t("account.rules_password") : null },
    ],
    submitText: t(signup ? "account.signup_submit" : "account.login_submit"),
    submit: (v) => (signup ? signUp(v.username.trim(), v.password) : logIn(v.username.trim(), v.password)),
    extra: other,
    values,
  });
  return form.dialog;
}

/** Current and new password; on success the dialog says so. */
export function passwordDialog() {
  const form = formDialog({
    id: "password-dialog",
    title: t("account.change_password"),
    fields: [
      { name: "password", label: t("account.current_password"), type: "password", autocomplete: "current-password" },
      { name: "new_password", label: t("account.new_password"), type: "password", autocomplete: "new-password",
        help: t("account.rules_password") },
    ],
    submitText: t("account.change_password"),
    texts: { bad_credentials: "account.wrong_current" },
    submit: async (v, dialog) => {
      await changePassword(v.password, v.new_password);
      const close = h("button", { type: "button", class: "primary", text: t("action.close"), onclick: () => dialog.close() });
      dialog.querySelector("form").replaceWith(h("div", {},
        h("p", { class: "message", role: "status", dataset: { kind: "ok" }, text: t("account.password_changed") }),
        h("div", { class: "dialog-buttons" }, close)));
      close.focus();
      return false; // stay open, saying it is done
    },
  });
  return form.dialog;
}

/** A message with a Close button. */
function alertDialog(title, message) {
  const close = h("button", { type: "button", class: "primary", text: t("action.close"), onclick: () => dialog.close() });
  const dialog = h("dialog", { class: "dialog", "aria-label": title },
    h("h2", { text: title }), h("p", { class: "message", dataset: { kind: "error" }, text: message }),
    h("div", { class: "dialog-buttons" }, close));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
}
