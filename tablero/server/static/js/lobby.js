// The lobby (/): a logged-in player's own games, the games on offer (seeks.js), the open
// tables, and the forms that offer a game and create a new table.

import { account, myGames } from "./account.js";
import { api, errorText, pages } from "./api.js";
import { roomCard } from "./duplicate.js";
import { $, h, replace } from "./dom.js";
import { formatNumber, plural, t } from "./i18n.js";
import { gameDescription, gameTitle, titleOf } from "./variant.js";
import { namedLexicon } from "./legend.js";
import { LexiconPicker } from "./lexicons.js";
import { accountMark, playerName, ratingElement } from "./panels.js";
import { lastNickname, saveNickname, saveSeat, seatFor } from "./prefs.js";
import { clockLabel, formatPerMove } from "./clock.js";
import { Seeks, correspondenceHelp, timeControlOptions, timeControlSpec } from "./seeks.js";

const REFRESH_MS = 4000;
const ROOMS_SHOWN = 5;

export class LobbyPage {
  constructor(root, { navigate }) {
    this.root = root;
    this.navigate = navigate;
    this.variants = [];     // built-in games, from /api/variants
    this.uploads = [];      // rule files uploaded in this session: full variant data with id
    this.details = new Map(); // name -> full variant data (for seat limits and the clock)
    this.botRatings = [];   // [{level, name, ratings: {variant: {rating, games, provisional}}}]
    this.timer = null;
    this.seeks = null;
  }

  async mount() {
    replace(this.root, h("p", { class: "loading", text: t("common.loading") }));
    try {
      this.variants = await api.variants();
    } catch (e) {
      replace(this.root, h("p", { class: "page-error", text: errorText(e) }));
      return;
    }
    this.build();
    // The computer levels' ratings, shown next to the level chosen (not needed to play).
    api.botRatings().then((r) => { this.botRatings = r; this.showBotRatings(); }).catch(() => {});
    await Promise.all([this.refresh(), this.refreshMine(), this.seeks.refresh(), this.refreshRooms()]);
    this.timer = setInterval(() => {
      this.refresh(); this.refreshMine(); this.seeks.refresh(); this.refreshRooms();
    }, REFRESH_MS);
  }

  unmount() {
    clearInterval(this.timer);
    if (this.seeks) this.seeks.unmount();
  }

  build() {
    this.list = h("div", { class: "table-list", "aria-live": "polite" });
    this.rooms = h("div", { class: "lobby-rooms" });
    this.form = this.buildForm();
    this.mine = account() ? h("div", { class: "my-games-list" }) : null;
    this.seeks = new Seeks({ navigate: this.navigate, variants: this.variants, onChange: () => this.refreshMine() });
    replace(this.root, h("div", { class: "lobby" },
      this.mine ? h("section", { class: "lobby-mine", id: "my-games", tabindex: "-1", "aria-labelledby": "my-games-h" },
        h("h1", { id: "my-games-h", text: t("nav.my_games") }), this.mine) : null,
      h("div", { class: "lobby-main" },
        this.seeks.section,
        h("section", { class: "lobby-tables", "aria-labelledby": "tables-h" },
          h("div", { class: "section-head" }, h("h1", { id: "tables-h", text: t("lobby.tables") }),
            h("button", { type: "button", class: "tool", text: t("lobby.refresh"), onclick: () => this.refresh() })),
          this.list)),
      h("div", { class: "lobby-aside" },
        this.seeks.form,
        h("section", { class: "lobby-create panel", "aria-labelledby": "create-h" },
          h("h2", { id: "create-h", text: t("lobby.new_table") }), this.form),
        h("section", { class: "lobby-board panel", "aria-labelledby": "lobby-board-h" },
          h("h2", { id: "lobby-board-h", text: t("aboard.title") }),
          h("p", { class: "help", text: t("lobby.board_help") }),
          h("a", { class: "button", href: "/analysis", "data-link": "", id: "lobby-analysis-link", text: t("lobby.board_open") })),
        h("section", { class: "lobby-board lobby-duplicate panel", "aria-labelledby": "lobby-duplicate-h" },
          h("h2", { id: "lobby-duplicate-h", text: t("dup.title") }),
          h("p", { class: "help", text: t("lobby.duplicate_help") }),
          this.rooms,
          h("a", { class: "button", href: pages.duplicateRooms(), "data-link": "", id: "lobby-duplicate-link",
            text: t("lobby.duplicate_open") })),
        h("section", { class: "lobby-board panel", "aria-labelledby": "lobby-tournaments-h" },
          h("h2", { id: "lobby-tournaments-h", text: t("tourney.title") }),
          h("p", { class: "help", text: t("lobby.tournaments_help") }),
          h("a", { class: "button", href: "/tournaments", "data-link": "", id: "lobby-tournaments-link", text: t("lobby.tournaments_open") })),
        h("section", { class: "lobby-board panel", "aria-labelledby": "lobby-puzzles-h" },
          h("h2", { id: "lobby-puzzles-h", text: t("puzzle.title") }),
          h("p", { class: "help", text: t("lobby.puzzles_help") }),
          h("a", { class: "button", href: "/puzzles", "data-link": "", id: "lobby-puzzles-link", text: t("lobby.puzzles_open") })))));
    this.variantChanged();
  }

  // -- the list of tables ---------------------------------------------------------------------

  async refresh() {
    let tables;
    try {
      tables = await api.tables();
    } catch (e) {
      replace(this.list, h("p", { class: "message", dataset: { kind: "error" }, text: errorText(e) }));
      return;
    }
    const seen = JSON.stringify(tables);
    if (seen === this.shown) return; // nothing new: leave the list (and the focus in it) alone
    this.shown = seen;
    if (!tables.length) {
      replace(this.list, h("p", { class: "hint", text: t("lobby.no_tables") }));
      return;
    }
    replace(this.list, h("ul", { class: "cards" }, tables.map((tb) => this.card(tb))));
  }

  /** The newest duplicate rooms waiting or in play (the rest on /duplicate). */
  async refreshRooms() {
    let rooms;
    try {
      rooms = await api.duplicateRooms();
    } catch {
      return; // the tables' list says what is wrong
    }
    const seen = JSON.stringify(rooms.slice(0, ROOMS_SHOWN));
    if (seen === this.shownRooms) return;
    this.shownRooms = seen;
    replace(this.rooms, rooms.length
      ? h("ul", { class: "cards compact" }, rooms.slice(0, ROOMS_SHOWN).map((r) => roomCard(r, this.variants)))
      : null);
  }

  // -- the player's own games (logged in) ------------------------------------------------------

  async refreshMine() {
    if (!this.mine) return;
    let games;
    try {
      games = await myGames();
    } catch (e) {
      replace(this.mine, h("p", { class: "message", dataset: { kind: "error" }, text: errorText(e) }));
      return;
    }
    const seen = JSON.stringify(games);
    if (seen !== this.shownMine) {
      this.shownMine = seen;
      if (!games.length) {
        replace(this.mine, h("p", { class: "hint", text: t("mine.none") }));
        return;
      }
      replace(this.mine, h("ul", { class: "mine" }, games.map((g) => this.myGame(g))));
    }
    this.showTimeLeft();
  }

  /** A correspondence game's time left to move (from `turn_ends`), redrawn at each refresh. */
  showTimeLeft() {
    for (const el of this.mine.querySelectorAll(".mine-left[data-ends]")) {
      const left = (Date.parse(el.dataset.ends) - Date.now()) / 1000;
      el.textContent = left > 0
        ? t("mine.time_left", { time: formatPerMove(left, { coarse: true }) })
        : t("mine.time_up");
    }
  }

  myGame(g) {
    const href = `/t/${encodeURIComponent(g.id)}`;
    const game = titleOf(this.variants, g.variant, g.variant_title);
    const name = g.title || game;
    let status;
    if (g.your_turn) status = h("span", { class: "badge your-turn", text: t("table.your_turn") });
    else if (g.state === "playing" && g.to_move !== null && g.to_move !== undefined) {
      const s = g.seats.find((x) => x.seat === g.to_move);
      status = h("span", { class: "badge playing", text: t("table.to_move", { name: s ? seatLabel(s) : "" }) });
    } else status = h("span", { class: `badge ${g.state}`, text: t(`state.${g.state}`) });
    // A correspondence game in play: until when the player to move has (showTimeLeft).
    const left = g.turn_ends ? h("span", { class: "mine-left", dataset: { ends: g.turn_ends } }) : null;
    return h("li", { class: `mine-item${g.your_turn ? " your-turn" : ""}`, dataset: { table: g.id } },
      h("a", { class: "mine-link", href, "data-link": "" },
        h("span", { class: "mine-title", text: name }),
        g.title ? h("span", { class: "mine-game", text: game }) : null),
      h("div", { class: "mine-status" }, status, left),
      h("ul", { class: "chips", "aria-label": t("seats.title") }, g.seats.map((s) => seatChip(s, s.seat === g.seat))));
  }

  card(tb) {
    const open = tb.seats.filter((s) => s.kind === "open").length;
    const me = account();
    const mine = seatFor(tb.id)
      || (me && tb.seats.some((s) => s.account && s.nickname === me.username));
    const seats = tb.seats.map((s) => seatChip(s));
    const clock = clockLabel(tb.clock);
    const href = `/t/${encodeURIComponent(tb.id)}`;
    const actions = [];
    if (mine) actions.push(h("a", { class: "button primary", href, "data-link": "", text: t("lobby.return") }));
    else if (tb.state === "waiting" && open) actions.push(h("a", { class: "button primary", href, "data-link": "", text: t("lobby.sit") }));
    actions.push(h("a", { class: "button", href, "data-link": "", text: t("lobby.watch") }));
    return h("li", { class: `card state-${tb.state}`, dataset: { table: tb.id } },
      h("div", { class: "card-head" },
        h("span", { class: "game", text: titleOf(this.variants, tb.variant, tb.variant_title) }),
        h("span", { class: `badge ${tb.state}`, text: t(`state.${tb.state}`) })),
      tb.title ? h("p", { class: "card-title", text: tb.title }) : null,
      h("ul", { class: "chips", "aria-label": t("seats.title") }, seats),
      h("p", { class: "card-meta", text: [clock, namedLexicon(tb.lexicon) ? t("table.lexicon", { name: tb.lexicon }) : null,
        tb.dictionary_hints ? t("table.hints_on") : null,
        tb.hints ? t("table.move_hints_on") : null].filter(Boolean).join(" \u00b7 ") }),
      h("div", { class: "card-actions" }, actions));
  }

  // -- creating a table -----------------------------------------------------------------------

  buildForm() {
    this.variantSelect = h("select", { id: "variant", name: "variant", "aria-describedby": "variant-description",
      onchange: () => this.variantChanged() });
    this.variantHelp = h("p", { class: "help", id: "variant-description" });
    this.fillVariants();
    this.upload = h("input", { id: "rulefile", type: "file", accept: ".toml,text/plain,application/toml",
      onchange: () => this.uploadFile() });
    this.wordList = h("input", { id: "wordlist", type: "file", accept: ".txt,text/plain",
      "aria-describedby": "wordlist-help wordlist-status wordlist-error", onchange: () => this.wordListChanged() });
    this.wordListStatus = h("p", { class: "help word-list-status", id: "wordlist-status", role: "status",
      "aria-live": "polite" });
    this.wordListError = h("p", { class: "field-error", id: "wordlist-error", role: "alert" });
    this.seatCount = h("select", { id: "seat-count", onchange: () => this.drawSeats() });
    this.seatRows = h("div", { class: "seat-rows" });
    this.lexicons = new LexiconPicker("lexicon");
    this.clock = h("select", { id: "clock" });
    this.hints = h("input", { id: "hints", type: "checkbox" });
    this.moveHints = h("input", { id: "move-hints", type: "checkbox", "aria-describedby": "move-hints-help" });
    this.quiet = h("input", { id: "quiet-spectators", type: "checkbox" });
    this.title = h("input", { id: "table-title", type: "text", maxlength: "60", placeholder: t("lobby.title_placeholder") });
    this.nickname = h("input", { id: "create-nickname", type: "text", maxlength: "24", value: lastNickname(),
      placeholder: t("sit.nickname_placeholder"), autocomplete: "nickname" });
    this.sitNow = h("input", { id: "create-sit", type: "checkbox", checked: true });
    this.formMessage = h("p", { class: "message", role: "status", "aria-live": "polite" });
    this.clubWords = this.buildClubWords();
    const field = (id, label, control, help) => h("div", { class: "field" },
      h("label", { for: id, text: label }), control, help ? h("p", { class: "help", text: help }) : null);
    return h("form", { class: "create-form", onsubmit: (e) => { e.preventDefault(); this.create(); } },
      h("div", { class: "field" }, h("label", { for: "variant", text: t("lobby.game") }), this.variantSelect, this.variantHelp),
      field("rulefile", t("lobby.upload"), this.upload, t("lobby.upload_help")),
      h("div", { class: "field word-list-field" }, h("label", { for: "wordlist", text: t("lobby.word_list") }),
        this.wordList, h("p", { class: "help", id: "wordlist-help", text: t("lobby.word_list_help") }),
        this.wordListStatus, this.wordListError),
      this.lexicons.field,
      field("seat-count", t("lobby.seats"), this.seatCount),
      this.seatRows,
      field("clock", t("lobby.clock"), this.clock),
      correspondenceHelp(this.clock, "clock-help"),
      h("div", { class: "field check" }, this.hints, h("label", { for: "hints", text: t("lobby.hints") }),
        h("p", { class: "help", text: t("lobby.hints_help") })),
      h("div", { class: "field check" }, this.moveHints, h("label", { for: "move-hints", text: t("lobby.move_hints") }),
        h("p", { class: "help", id: "move-hints-help", text: t("lobby.move_hints_help") })),
      h("div", { class: "field check" }, this.quiet, h("label", { for: "quiet-spectators", text: t("lobby.quiet_spectators") }),
        h("p", { class: "help", text: t("lobby.quiet_spectators_help") })),
      this.clubWords,
      field("table-title", t("lobby.title"), this.title),
      account()
        ? h("div", { class: "field check" }, this.sitNow, h("label", { for: "create-sit", text: t("lobby.sit_at_once") }),
          h("p", { class: "help", text: t("lobby.sit_at_once_help", { name: account().username }) }))
        : field("create-nickname", t("lobby.your_nickname"), this.nickname, t("lobby.your_nickname_help")),
      h("button", { type: "submit", class: "primary big", id: "create-table", text: t("lobby.create") }),
      this.formMessage);
  }

  /** "Club words", folded: the words the club adds to the dictionary and those it bans, each
   *  a textarea with its own error line (the server names a word it refuses). */
  buildClubWords() {
    const area = (id, label, listName) => {
      const input = h("textarea", { id, rows: "3", spellcheck: "false", autocapitalize: "characters",
        "aria-describedby": `${id}-error club-words-help` });
      const error = h("p", { class: "field-error", id: `${id}-error`, role: "alert" });
      this.wordFields[listName] = { input, error };
      return h("div", { class: "field" }, h("label", { for: id, text: label }), input, error);
    };
    this.wordFields = {};
    this.clubWordsNone = h("p", { class: "help", hidden: true, text: t("lobby.club_words_none") });
    return h("details", { class: "club-words", id: "club-words" },
      h("summary", { text: t("lobby.club_words") }),
      h("p", { class: "help", id: "club-words-help", text: t("lobby.club_words_help") }),
      this.clubWordsNone,
      h("div", { class: "club-words-fields" },
        area("words-added", t("lobby.words_added"), "words_added"),
        area("words-removed", t("lobby.words_removed"), "words_removed")));
  }

  /** The words typed in one of the club's lists: one per line, or separated by spaces, commas
   *  or semicolons. */
  clubList(listName) {
    return this.wordFields[listName].input.value.split(/[\s,;]+/u).filter(Boolean);
  }

  /** Show a refusal of the server next to the list it is about; true when it was one. */
  showWordsError(e) {
    const name = e && e.field ? String(e.field).split("[")[0] : "";
    const target = this.wordFields[name];
    if (!target) return false;
    // Next to its list, the server's "words_added[2]: " need not be said.
    target.error.textContent = errorText(e).replace(/^words_(added|removed)(\[\d+\])?: /u, "");
    target.input.setAttribute("aria-invalid", "true");
    this.clubWords.open = true;
    target.input.focus();
    return true;
  }

  clearWordsErrors() {
    for (const { input, error } of Object.values(this.wordFields)) {
      error.textContent = "";
      input.removeAttribute("aria-invalid");
    }
  }

  fillVariants(selected = null) {
    const keep = selected || this.variantSelect.value;
    const options = this.variants.map((v) => h("option", { value: v.name,
      text: `${gameTitle(v)} (${v.columns}\u00d7${v.rows})` }));
    const uploaded = this.uploads.length
      ? h("optgroup", { label: t("lobby.uploaded") }, this.uploads.map((u) => h("option", { value: u.id,
        text: `${u.title} (${u.columns}\u00d7${u.rows})` })))
      : null;
    replace(this.variantSelect, options, uploaded);
    if (keep) this.variantSelect.value = keep;
    else if (this.variants.some((v) => v.name === "fise")) this.variantSelect.value = "fise";
  }

  async variantInfo(name) {
    if (!this.details.has(name)) this.details.set(name, await api.variant(name));
    return this.details.get(name);
  }

  async variantChanged() {
    const name = this.variantSelect.value;
    let info;
    try {
      info = await this.variantInfo(name);
    } catch (e) {
      this.formMessage.textContent = errorText(e);
      return;
    }
    if (name !== this.variantSelect.value) return;
    this.variantHelp.textContent = gameDescription(info);
    // A game without a dictionary has no words to add or ban.
    const noDictionary = info.lexicon === "none";
    this.clubWordsNone.hidden = !noDictionary;
    for (const { input } of Object.values(this.wordFields)) input.disabled = noDictionary;
    await this.lexicons.offer({ language: info.language, lexicon: info.lexicon, builtin: info.source === "builtin" });
    if (name !== this.variantSelect.value) return;
    const min = Math.max(2, info.min_players);
    const max = Math.min(4, info.max_players);
    const before = Number(this.seatCount.value) || 2;
    replace(this.seatCount, Array.from({ length: max - min + 1 }, (_, i) =>
      h("option", { value: String(min + i), text: String(min + i) })));
    this.seatCount.value = String(Math.min(max, Math.max(min, before)));
    const own = info.clock
      ? t("lobby.clock_default", { clock: clockLabel(info.clock) })
      : t("lobby.clock_default_none");
    const chosen = this.clock.value;
    replace(this.clock, h("option", { value: "default", text: own }),
      h("option", { value: "none", text: t("lobby.untimed") }), timeControlOptions());
    if (chosen) this.clock.value = chosen; // the same choices for every game
    this.clock.dispatchEvent(new Event("change")); // the help line follows
    this.drawSeats();
  }

  drawSeats() {
    const n = Number(this.seatCount.value) || 2;
    const old = [...this.seatRows.querySelectorAll(".seat-row")].map((row) => ({
      kind: $("select.seat-kind", row).value, level: $("select.seat-level", row).value,
    }));
    const rows = [];
    for (let i = 0; i < n; i++) {
      const prev = old[i] || { kind: "open", level: "2" };
      const kind = h("select", { class: "seat-kind", id: `seat-${i}-kind`, "aria-label": t("lobby.seat_n", { n: i + 1 }) },
        h("option", { value: "open", text: t("lobby.person") }),
        h("option", { value: "bot", text: t("lobby.computer") }));
      kind.value = prev.kind;
      const level = h("select", { class: "seat-level", id: `seat-${i}-level`, "aria-label": t("lobby.level") },
        [1, 2, 3, 4, 5].map((l) => h("option", { value: String(l), text: t(`lobby.level_${l}`) })));
      level.value = prev.level;
      level.hidden = kind.value !== "bot";
      const rating = h("span", { class: "level-rating", id: `seat-${i}-rating`, hidden: true });
      level.setAttribute("aria-describedby", rating.id);
      kind.addEventListener("change", () => { level.hidden = kind.value !== "bot"; this.showBotRatings(); });
      level.addEventListener("change", () => this.showBotRatings());
      rows.push(h("div", { class: "seat-row" }, h("span", { class: "seat-label", text: t("lobby.seat_n", { n: i + 1 }) }),
        kind, level, rating));
    }
    replace(this.seatRows, rows);
    this.showBotRatings();
  }

  /** Next to each computer seat's level: that level's rating in the chosen game, if it has one. */
  showBotRatings() {
    const game = this.variantSelect.value;
    for (const row of this.seatRows.querySelectorAll(".seat-row")) {
      const kind = $("select.seat-kind", row).value;
      const level = Number($("select.seat-level", row).value);
      const el = $(".level-rating", row);
      const entry = this.botRatings.find((b) => b.level === level);
      const r = entry && entry.ratings ? entry.ratings[game] : null;
      el.hidden = kind !== "bot" || !r;
      if (el.hidden) {
        el.replaceChildren();
        continue;
      }
      replace(el, h("span", { class: "level-rating-label", text: t("lobby.level_rating") }), " ",
        ratingElement(r.rating, r.provisional));
    }
  }

  /** A word list chosen (or taken away): with a rule file chosen, both go up again; else it
   *  waits for the rule file. */
  wordListChanged() {
    this.wordListError.textContent = "";
    this.wordList.removeAttribute("aria-invalid");
    const list = this.wordList.files && this.wordList.files[0];
    const rules = this.upload.files && this.upload.files[0];
    this.wordListStatus.textContent = list && !rules ? t("lobby.word_list_needs_rules") : "";
    if (rules) this.uploadFile();
  }

  /** The rule file, sent to the server; with a word list chosen, the list first (checked and
   *  compiled there: seconds for a big one), then the rules with their `lexicon` set to it. */
  async uploadFile() {
    const file = this.upload.files && this.upload.files[0];
    if (!file) return;
    const turn = (this.uploadTurn = (this.uploadTurn || 0) + 1);
    const stale = () => turn !== this.uploadTurn; // a newer choice of files took over
    const list = this.wordList.files && this.wordList.files[0];
    this.wordListError.textContent = "";
    this.wordList.removeAttribute("aria-invalid");
    this.formMessage.dataset.kind = "info";
    this.formMessage.textContent = t(list ? "lobby.word_list_uploading" : "lobby.uploading");
    let text;
    try {
      text = await file.text();
    } catch (e) {
      this.formMessage.dataset.kind = "error";
      this.formMessage.textContent = errorText(e);
      return;
    }
    if (list) {
      this.wordListStatus.textContent = t("lobby.word_list_uploading");
      let info;
      try {
        if (list.size > MAX_WORD_LIST_BYTES) {
          throw { code: "word_list_too_large", message: t("lobby.word_list_too_large", { mb: MAX_WORD_LIST_BYTES / 1e6 }) };
        }
        info = await api.uploadWordList(list, ruleLanguage(text), listName(list.name));
      } catch (e) {
        if (stale()) return;
        this.wordListStatus.textContent = "";
        // The server's own words: they name the line at fault (people's text, set as text).
        this.wordListError.textContent = e && e.code === "bad_word_list" && e.message ? e.message : errorText(e);
        this.wordList.setAttribute("aria-invalid", "true");
        this.formMessage.dataset.kind = "error";
        this.formMessage.textContent = t("lobby.word_list_refused");
        return;
      }
      if (stale()) return;
      this.wordListStatus.textContent = plural("lobby.word_list_ok", info.words,
        { n: formatNumber(info.words), name: info.name });
      text = withLexicon(text, info.id);
      this.formMessage.textContent = t("lobby.uploading");
    }
    try {
      const info = await api.uploadVariant(text);
      if (stale()) return;
      this.details.set(info.id, info);
      this.uploads = [...this.uploads.filter((u) => u.id !== info.id), info];
      this.fillVariants(info.id);
      this.formMessage.textContent = t("lobby.uploaded_ok", { title: info.title });
      await this.variantChanged();
    } catch (e) {
      if (stale()) return;
      this.formMessage.dataset.kind = "error";
      this.formMessage.textContent = errorText(e);
    }
  }

  async create() {
    const seats = [...this.seatRows.querySelectorAll(".seat-row")].map((row) => {
      const kind = $("select.seat-kind", row).value;
      return kind === "bot" ? { kind: "bot", level: Number($("select.seat-level", row).value) } : { kind: "open" };
    });
    const spec = { variant: this.variantSelect.value, seats, dictionary_hints: this.hints.checked };
    if (this.quiet.checked) spec.quiet_spectators = true;
    if (this.moveHints.checked) spec.hints = true;
    Object.assign(spec, timeControlSpec(this.clock.value));
    const title = this.title.value.trim();
    if (title) spec.title = title;
    if (this.lexicons.value) spec.lexicon = this.lexicons.value;
    const added = this.clubList("words_added");
    const removed = this.clubList("words_removed");
    const withWords = (added.length || removed.length) && !this.wordFields.words_added.input.disabled;
    if (withWords) {
      if (added.length) spec.words_added = added;
      if (removed.length) spec.words_removed = removed;
    }
    this.clearWordsErrors();
    const me = account();
    const nickname = me ? null : this.nickname.value.trim();
    const sitDown = me ? this.sitNow.checked : Boolean(nickname);
    const button = $("#create-table", this.form);
    button.disabled = true;
    this.formMessage.dataset.kind = "info";
    // The first table with a list of words builds its dictionary: seconds, said so.
    this.formMessage.textContent = t(withWords ? "lobby.preparing_words" : "lobby.creating");
    try {
      const { id } = await api.createTable(spec);
      const firstOpen = seats.findIndex((s) => s.kind === "open");
      if (sitDown && firstOpen >= 0) {
        // Logged in, the server seats the account under its username (no nickname sent).
        const answer = await api.sit(id, firstOpen, nickname);
        saveSeat(id, answer.seat ?? firstOpen, answer.token);
        if (nickname) saveNickname(nickname);
      }
      this.navigate(`/t/${encodeURIComponent(id)}`);
    } catch (e) {
      this.formMessage.dataset.kind = "error";
      this.formMessage.textContent = errorText(e);
      this.showWordsError(e);
    } finally {
      button.disabled = false;
    }
  }
}

/** The largest word list the server takes (bytes): a bigger file is refused before it is sent. */
const MAX_WORD_LIST_BYTES = 16_000_000;

/** The lines of a rule file before its first table (`[board]`…): its top-level keys. */
function topLevelEnd(lines) {
  const end = lines.findIndex((line) => /^\s*\[/u.test(line));
  return end < 0 ? lines.length : end;
}

/** A rule file's language: its top-level `language = "xx"`, else Spanish (the format's default). */
export function ruleLanguage(text) {
  const lines = text.split("\n");
  for (const line of lines.slice(0, topLevelEnd(lines))) {
    const m = /^\s*language\s*=\s*["']([^"']*)["']/u.exec(line);
    if (m) return m[1].trim() || "es";
  }
  return "es";
}

/** The rule file's text with its top-level `lexicon` set to an uploaded list's id: the line
 *  that says it replaced, or one put first. */
export function withLexicon(text, id) {
  const line = `lexicon = "${id}"`;
  const lines = text.split("\n");
  const end = topLevelEnd(lines);
  for (let i = 0; i < end; i++) {
    if (/^\s*lexicon\s*=/u.test(lines[i])) {
      lines[i] = line + (lines[i].endsWith("\r") ? "\r" : "");
      return lines.join("\n");
    }
  }
  return `${line}\n${text}`;
}

/** A word list's name from its file's: without the extension, no control characters, at most
 *  60 characters (the server's limit; whole characters, never half of one). */
export function listName(fileName) {
  const bare = String(fileName || "").replace(/\.[^.]*$/u, "").replace(/[\p{C}]/gu, "").trim();
  return Array.from(bare).slice(0, 60).join("").trim();
}

/** A seat's name for lists: the nickname, or the computer's name and level. */
function seatLabel(s) {
  if (s.kind === "open") return t("seat.open");
  if (s.kind === "bot") return s.nickname || t("seat.bot_name", { level: s.bot_level });
  return s.nickname;
}

/** A seat as a chip: open, a computer with its level, or a person (marked when an account's). */
function seatChip(s, isYou = false) {
  let cls = "chip";
  let text = seatLabel(s);
  if (s.kind === "open") cls += " open";
  else if (s.kind === "bot") { text = `${text} \u00b7 ${t("seat.bot_level", { level: s.bot_level })}`; cls += " bot"; }
  if (isYou) cls += " you";
  return h("li", { class: cls }, s.account ? playerName(text, true, "chip-name") : h("span", { text }),
    s.account ? accountMark() : null);
}

