// Tournaments (docs/web-api.md, "Tournaments"): the list and the form that creates one at
// /tournaments, and a tournament's page at /tournaments/{id} — its state, registration, the
// pairings of a round, the standings, the players, and for its director the controls (start a
// round, pause, fix a result, remove a player) and the log of what was done. At
// /tournaments/{id}/rounds/{n} the same page shows round n's pairings. Every name, the
// tournament's and the players', goes in as text (dom.js): nothing a user typed becomes markup.

import { account } from "./account.js";
import { accountDialog } from "./accountui.js";
import { api, ApiError, errorText, pages } from "./api.js";
import { h, replace } from "./dom.js";
import { currentLanguage, formatNumber, plural, t } from "./i18n.js";
import { playerName } from "./panels.js";
import { CLOCK_CHOICES } from "./seeks.js";
import { LexiconPicker } from "./lexicons.js";
import { gameTitle, titleOf } from "./variant.js";

const REFRESH_MS = 5000;
const NAME_MAX = 48;

function say(el, text, kind = "info") {
  el.dataset.kind = kind;
  el.textContent = text;
}

function field(id, label, control, help = null) {
  return h("div", { class: "field" }, h("label", { for: id, text: label }), control,
    help ? h("p", { class: "help", id: `${id}-help`, text: help }) : null);
}

const SERIES = "duplicate";
const ROUND_SECONDS_CHOICES = [60, 90, 120, 180, 240, 300];

/** "Swiss · 5 rounds", "Round robin", "Duplicate series · 3 games". */
function formatLine(tr) {
  const format = t(`tourney.format_${tr.format}`);
  if (!tr.rounds) return format;
  return `${format} \u00b7 ${plural(tr.format === SERIES ? "tourney.games_n" : "tourney.rounds_n", tr.rounds)}`;
}

function clockText(minutes) {
  return minutes ? t("lobby.clock_minutes", { n: minutes }) : t("lobby.untimed");
}

/** How a tournament's games are timed and counted: the clock and rated flag, or a series'
 *  time a round (and rounds a game). */
function timingLine(tr) {
  if (tr.format === SERIES) {
    return [t("tourney.round_seconds_n", { n: tr.round_seconds }),
      tr.game_rounds ? t("tourney.game_rounds_n", { n: tr.game_rounds }) : null, t("seeks.casual")];
  }
  return [clockText(tr.clock_minutes), t(tr.rated ? "seeks.rated" : "seeks.casual")];
}

/** The tournament's state as a badge: registration, the round under way, paused, finished. */
function stateBadge(tr) {
  if (tr.state === "finished") return h("span", { class: "badge over", text: t("tourney.state_finished") });
  if (tr.state === "registering") {
    return h("span", { class: "badge waiting", text: t("tourney.state_registering") });
  }
  const key = tr.format === SERIES ? "tourney.state_playing_game" : "tourney.state_playing";
  return h("span", { class: "badge playing", text: t(key, { n: tr.round, total: tr.rounds }) });
}

/** A table of the tournament's (pairings, a game's scores, standings): its column heads and
 *  rows, scrolling sideways on a narrow screen. */
function tourneyTable(kind, head, rows) {
  return h("div", { class: "games-scroll" }, h("table", { class: `tourney-table ${kind}` },
    h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col", text })))),
    h("tbody", {}, rows)));
}

function spreadText(n) {
  return n > 0 ? `+${formatNumber(n)}` : formatNumber(n);
}

// -- the list ---------------------------------------------------------------------------------

export class TournamentsPage {
  constructor(root, { navigate, onTitle }) {
    this.root = root;
    this.navigate = navigate;
    this.onTitle = onTitle || (() => {});
    this.variants = [];
  }

  async mount() {
    this.onTitle(t("tourney.title"));
    replace(this.root, h("p", { class: "loading", text: t("common.loading") }));
    let list;
    try {
      [list, this.variants] = await Promise.all([api.tournaments(), api.variants()]);
    } catch (e) {
      replace(this.root, h("p", { class: "page-error", text: errorText(e) }));
      return;
    }
    const me = account();
    replace(this.root, h("div", { class: "lobby tournaments" },
      h("section", { class: "tournament-list", "aria-labelledby": "tourneys-h" },
        h("div", { class: "section-head" }, h("h1", { id: "tourneys-h", text: t("tourney.title") })),
        list.length ? h("ul", { class: "cards" }, list.map((tr) => this.card(tr)))
          : h("p", { class: "hint", text: t("tourney.none") })),
      h("div", { class: "lobby-aside" },
        me ? this.form() : h("p", { class: "hint tourney-guest" },
          h("span", { text: t("tourney.guest_hint") }), " ",
          h("button", { type: "button", class: "link", text: t("account.login"), onclick: () => accountDialog("login") })))));
  }

  unmount() {}

  card(tr) {
    const href = pages.tournament(tr.id);
    return h("li", { class: `card tournament-card state-${tr.state}`, dataset: { tournament: tr.id } },
      h("div", { class: "card-head" },
        h("a", { class: "game tournament-name", href, "data-link": "", text: tr.name }),
        stateBadge(tr)),
      h("p", { class: "card-meta", text: [titleOf(this.variants, tr.variant, tr.variant), formatLine(tr),
        ...timingLine(tr)].filter(Boolean).join(" \u00b7 ") }),
      h("p", { class: "card-meta" },
        plural("tourney.players_n", tr.players), " \u00b7 ", t("tourney.directed_by"), " ",
        playerName(tr.director, true, "director")),
      tr.paused ? h("p", { class: "card-meta paused-note", text: t("tourney.paused") }) : null);
  }

  form() {
    const name = h("input", { id: "tourney-name", type: "text", maxlength: String(NAME_MAX), required: true,
      autocomplete: "off" });
    const variant = h("select", { id: "tourney-variant" },
      this.variants.filter((v) => v.min_players <= 2 && v.max_players >= 2)
        .map((v) => h("option", { value: v.name, text: gameTitle(v) })));
    if (this.variants.some((v) => v.name === "fise")) variant.value = "fise";
    const lexicons = new LexiconPicker("tourney-lexicon");
    const offer = () => {
      const v = this.variants.find((x) => x.name === variant.value);
      if (v) lexicons.offer({ language: v.language, lexicon: v.lexicon });
    };
    variant.addEventListener("change", offer);
    offer();
    const format = h("select", { id: "tourney-format", "aria-describedby": "tourney-format-help" },
      h("option", { value: "swiss", text: t("tourney.format_swiss") }),
      h("option", { value: "round_robin", text: t("tourney.format_round_robin") }),
      h("option", { value: SERIES, text: t("tourney.format_duplicate") }));
    const rounds = h("input", { id: "tourney-rounds", type: "number", min: "1", max: "20", value: "5", inputmode: "numeric" });
    const roundsField = field("tourney-rounds", t("tourney.rounds"), rounds);
    const clock = h("select", { id: "tourney-clock" },
      h("option", { value: "none", text: t("lobby.untimed") }),
      CLOCK_CHOICES.map((m) => h("option", { value: String(m), text: t("lobby.clock_minutes", { n: m }) })));
    clock.value = "25";
    const clockField = field("tourney-clock", t("lobby.clock"), clock);
    const seconds = h("select", { id: "tourney-round-seconds" },
      ROUND_SECONDS_CHOICES.map((n) => h("option", { value: String(n), text: t("tourney.round_seconds_n", { n }) })));
    seconds.value = "180";
    const gameRounds = h("input", { id: "tourney-game-rounds", type: "number", min: "1", max: "100", inputmode: "numeric",
      "aria-describedby": "tourney-game-rounds-help" });
    const seriesFields = h("div", { class: "series-fields" },
      h("div", { class: "field-row even" }, field("tourney-round-seconds", t("tourney.round_seconds"), seconds),
        field("tourney-game-rounds", t("tourney.game_rounds"), gameRounds, t("tourney.game_rounds_help"))),
      h("p", { class: "help", text: t("tourney.series_help") }));
    const most = h("input", { id: "tourney-max", type: "number", min: "2", max: "64", value: "64", inputmode: "numeric" });
    const rated = h("input", { id: "tourney-rated", type: "checkbox", checked: true });
    const ratedField = h("div", { class: "field check" }, rated, h("label", { for: "tourney-rated", text: t("seeks.rated_option") }),
      h("p", { class: "help", text: t("tourney.rated_help") }));
    // Each format shows what it takes: a Swiss its rounds, a series its games and timing.
    const showFormat = () => {
      const series = format.value === SERIES;
      roundsField.hidden = format.value === "round_robin";
      roundsField.querySelector("label").textContent = t(series ? "tourney.games" : "tourney.rounds");
      if (series && Number(rounds.value) === 5) rounds.value = "3";
      if (!series && Number(rounds.value) === 3) rounds.value = "5";
      clockField.hidden = series;
      ratedField.hidden = series;
      seriesFields.hidden = !series;
    };
    format.addEventListener("change", showFormat);
    const message = h("p", { class: "message", role: "status", "aria-live": "polite" });
    const submit = h("button", { type: "submit", class: "primary big", id: "tourney-create", text: t("tourney.create") });
    const create = async () => {
      const spec = { name: name.value, variant: variant.value, format: format.value, max_players: Number(most.value) };
      if (lexicons.value) spec.lexicon = lexicons.value;
      if (format.value === SERIES) {
        spec.round_seconds = Number(seconds.value);
        if (gameRounds.value) spec.game_rounds = Number(gameRounds.value);
      } else {
        spec.clock_minutes = clock.value === "none" ? null : Number(clock.value);
        spec.rated = rated.checked;
      }
      if (format.value !== "round_robin") spec.rounds = Number(rounds.value);
      submit.disabled = true;
      say(message, t("tourney.creating"));
      try {
        const { id } = await api.createTournament(spec);
        this.navigate(pages.tournament(id));
      } catch (e) {
        say(message, errorText(e), "error");
        submit.disabled = false;
      }
    };
    const section = h("section", { class: "panel tournament-create", "aria-labelledby": "tourney-create-h" },
      h("h2", { id: "tourney-create-h", text: t("tourney.create_title") }),
      h("p", { class: "help", text: t("tourney.create_help") }),
      h("form", { class: "create-form", onsubmit: (e) => { e.preventDefault(); create(); } },
        field("tourney-name", t("tourney.name"), name),
        field("tourney-variant", t("lobby.game"), variant),
        lexicons.field,
        field("tourney-format", t("tourney.format"), format, t("tourney.format_help")),
        h("div", { class: "field-row even" }, roundsField, field("tourney-max", t("tourney.max_players"), most)),
        clockField, seriesFields, ratedField,
        submit, message));
    showFormat();
    return section;
  }
}

// -- one tournament ---------------------------------------------------------------------------

export class TournamentPage {
  constructor(root, id, round, { navigate, onTitle }) {
    this.root = root;
    this.id = id;
    this.round = round; // the round whose pairings are shown (null: the latest)
    this.navigate = navigate;
    this.onTitle = onTitle || (() => {});
    this.timer = null;
    this.shown = null;
    this.variants = [];
  }

  async mount() {
    replace(this.root, h("p", { class: "loading", text: t("common.loading") }));
    try {
      this.variants = await api.variants().catch(() => []);
      await this.load();
    } catch (e) {
      const missing = e instanceof ApiError && e.status === 404;
      this.onTitle(t("tourney.title"));
      replace(this.root, h("div", { class: "page-error" },
        h("h1", { text: missing ? t("tourney.no_such") : t("tourney.cannot_open") }),
        h("p", { text: errorText(e) }),
        h("p", {}, h("a", { href: pages.tournaments(), "data-link": "", text: t("tourney.title") }))));
      return;
    }
    this.build();
    this.show();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
  }

  unmount() {
    clearInterval(this.timer);
  }

  async load() {
    const [tr, standings, rounds, log] = await Promise.all([
      api.tournament(this.id), api.tournamentStandings(this.id), api.tournamentRounds(this.id),
      api.tournamentLog(this.id)]);
    this.data = { tr, standings, rounds, log };
  }

  async refresh() {
    try {
      await this.load();
    } catch {
      return; // look again at the next tick
    }
    this.show();
  }

  build() {
    this.head = h("header", { class: "tournament-head" });
    this.pairings = h("section", { class: "tournament-pairings", id: "pairings", "aria-labelledby": "pairings-h" });
    this.standings = h("section", { class: "tournament-standings", id: "standings", "aria-labelledby": "standings-h" });
    this.players = h("section", { class: "panel tournament-players", "aria-labelledby": "players-h" });
    this.entry = h("div", { class: "tournament-entry" });
    this.director = h("section", { class: "panel tournament-director", "aria-labelledby": "director-h" });
    this.logList = h("section", { class: "panel tournament-log", "aria-labelledby": "log-h" });
    this.message = h("p", { class: "message tournament-message", role: "status", "aria-live": "polite" });
    replace(this.root, h("div", { class: "tournament" },
      this.head,
      h("div", { class: "tournament-layout" },
        h("div", { class: "tournament-main" }, this.message, this.pairings, this.standings),
        h("div", { class: "tournament-aside" }, this.entry, this.director, this.players, this.logList))));
  }

  show() {
    const seen = JSON.stringify([this.data, this.round]);
    if (seen === this.shown) return;
    this.shown = seen;
    const { tr } = this.data;
    this.onTitle(tr.name);
    this.showHead();
    this.showEntry();
    this.showPairings();
    this.showStandings();
    this.showPlayers();
    this.showDirector();
    this.showLog();
  }

  showHead() {
    const { tr } = this.data;
    const game = titleOf(this.variants, tr.variant, tr.variant);
    replace(this.head,
      h("p", { class: "crumbs" }, h("a", { href: pages.tournaments(), "data-link": "", text: t("tourney.title") })),
      h("div", { class: "tournament-title" },
        h("h1", { class: "tournament-name", text: tr.name }),
        stateBadge(tr),
        tr.paused ? h("span", { class: "badge paused", text: t("tourney.paused") }) : null),
      h("p", { class: "tournament-meta", text: [game, formatLine(tr), ...timingLine(tr)].filter(Boolean).join(" \u00b7 ") }),
      h("p", { class: "tournament-meta" }, t("tourney.directed_by"), " ", playerName(tr.director, true, "director"),
        " \u00b7 ", h("a", { class: "csv-link", href: api.tournamentCsvUrl(tr.id), download: "", text: t("tourney.csv") })));
  }

  showEntry() {
    const { tr } = this.data;
    const me = account();
    const items = [];
    if (tr.state === "registering") {
      if (!me) {
        items.push(h("p", { class: "hint" }, h("span", { text: t("tourney.guest_hint") }), " ",
          h("button", { type: "button", class: "link", text: t("account.login"), onclick: () => accountDialog("login") })));
      } else if (tr.you.registered) {
        items.push(h("p", { class: "entry-state", text: t("tourney.registered") }),
          h("p", { class: "help", text: t("tourney.registered_help") }),
          h("button", { type: "button", class: "danger", id: "tourney-withdraw", text: t("tourney.withdraw"),
            onclick: (e) => this.act(e.currentTarget, () => api.withdrawTournament(tr.id), t("tourney.withdrawn")) }));
      } else {
        items.push(h("button", { type: "button", class: "primary big", id: "tourney-register", text: t("tourney.register"),
          disabled: tr.players.length >= tr.max_players,
          onclick: (e) => this.act(e.currentTarget, () => api.registerTournament(tr.id), t("tourney.registered")) }));
      }
    }
    this.entry.hidden = !items.length;
    replace(this.entry, items);
  }

  /** Run a change; say how it went; show the tournament again. */
  async act(button, call, done) {
    if (button) button.disabled = true;
    try {
      await call();
      say(this.message, done, "ok");
    } catch (e) {
      say(this.message, errorText(e), "error");
    }
    this.shown = null;
    await this.refresh();
    if (button && button.isConnected) button.disabled = false;
  }

  shownRound() {
    const { tr } = this.data;
    if (!tr.round) return 0;
    return this.round && this.round >= 1 && this.round <= tr.round ? this.round : tr.round;
  }

  /** Links to every round (a series: every game) started, the one shown current. */
  roundNav(tr, n) {
    const series = tr.format === SERIES;
    return h("nav", { class: "round-nav", "aria-label": t(series ? "tourney.games" : "tourney.rounds") },
      Array.from({ length: tr.round }, (_, i) => i + 1).map((r) => h("a", {
        href: pages.tournament(tr.id, r), "data-link": "", class: `round-link${r === n ? " current" : ""}`,
        "aria-current": r === n ? "page" : false, text: String(r),
        "aria-label": t(series ? "tourney.game_n" : "tourney.round_n", { n: r }),
      })));
  }

  showPairings() {
    const { tr, rounds } = this.data;
    if (tr.format === SERIES) {
      this.showSeriesGame();
      return;
    }
    const n = this.shownRound();
    const title = h("h2", { id: "pairings-h", text: n ? `${t("tourney.pairings")} \u2014 ${t("tourney.round_n", { n })}` : t("tourney.pairings") });
    if (!n) {
      replace(this.pairings, title, h("p", { class: "hint", text: t("tourney.no_pairings") }));
      return;
    }
    const nav = this.roundNav(tr, n);
    const me = account();
    const round = rounds.find((r) => r.round === n) || { boards: [] };
    const head = [t("tourney.board"), t("tourney.first"), t("tourney.second"), t("tourney.result"), ""];
    const rows = round.boards.map((b) => {
      const mine = Boolean(me && (b.first === me.username || b.second === me.username));
      return h("tr", { class: `pairing-row state-${b.state}${mine ? " is-mine" : ""}`, dataset: { board: String(b.board) } },
        h("td", { class: "board-n", text: String(b.board) }),
        h("td", { class: `first${b.result === "first" ? " won" : ""}` }, playerName(b.first, true, "player"),
          b.second ? h("span", { class: "starts", title: t("tourney.first"), "aria-hidden": "true", text: " \u25cf" }) : null),
        h("td", { class: `second${b.result === "second" ? " won" : ""}` },
          b.second ? playerName(b.second, true, "player") : h("span", { class: "bye", text: t("tourney.bye_word") })),
        h("td", { class: "pairing-result" }, this.resultCell(b, tr)),
        h("td", { class: "links" }, b.table ? h("a", {
          class: `button${mine && b.state === "playing" ? " primary" : ""} table-link`, href: pages.table(b.table), "data-link": "",
          text: mine && b.state === "playing" ? t("tourney.your_game") : t("tourney.open_table"),
          "aria-label": t("tourney.open_table_label", { n: b.board }),
        }) : null));
    });
    replace(this.pairings, title, tr.round > 1 ? nav : null,
      tourneyTable("pairings-table", head, rows));
  }

  /** A series' game: its room (to play or watch) and each player's score in it. */
  showSeriesGame() {
    const { tr, rounds } = this.data;
    const n = this.shownRound();
    const title = h("h2", { id: "pairings-h", text: n ? t("tourney.game_n", { n }) : t("tourney.series_game") });
    if (!n) {
      replace(this.pairings, title, h("p", { class: "hint", text: t("tourney.no_game") }));
      return;
    }
    const me = account();
    const game = rounds.find((r) => r.round === n) || { scores: [] };
    const mine = Boolean(me && game.scores.some((s) => s.player === me.username));
    const playing = game.state === "playing";
    const link = game.room ? h("a", { class: `button${mine && playing ? " primary" : ""} room-link`, href: pages.duplicateRoom(game.room),
      "data-link": "", text: mine && playing ? t("tourney.your_room") : t("tourney.open_room") }) : null;
    const head = [t("tourney.player"), t("tourney.score"), t("tourney.top"), t("tourney.percent"), t("tourney.tops")];
    const rows = game.scores.map((s) => h("tr", {
      class: `score-row${me && s.player === me.username ? " is-mine" : ""}`, dataset: { player: s.player } },
    h("td", { class: "player" }, playerName(s.player, true, "player"),
      s.source === "director" ? h("span", { class: "tag fixed", text: t("tourney.fixed") }) : null),
    s.score === null ? h("td", { class: "score", colspan: "4" }, h("span", { class: "badge playing", text: t("tourney.in_play") }))
      : [h("td", { class: "score", text: formatNumber(s.score) }),
        h("td", { class: "top-total", text: s.top_total === null ? "" : formatNumber(s.top_total) }),
        h("td", { class: "percent", text: s.percent === null ? "" : formatNumber(s.percent) }),
        h("td", { class: "tops", text: s.tops === null ? "" : String(s.tops) })]));
    replace(this.pairings, title, tr.round > 1 ? this.roundNav(tr, n) : null,
      link ? h("p", { class: "room-line" }, link) : null,
      tourneyTable("series-table", head, rows));
  }

  /** The scores, first's first; the winner's name is bold in its own cell (and said here to
   *  screen readers); a draw says so. */
  resultCell(b, tr) {
    if (b.result === "bye") return h("span", { class: "result-text", text: `+${tr.bye_spread}` });
    if (b.state !== "over") return h("span", { class: "badge playing", text: t("tourney.in_play") });
    const draw = b.result === "draw";
    const who = draw ? t("tourney.draw") : t("tourney.won_by", { name: b.result === "first" ? b.first : b.second });
    return [
      b.scores ? h("strong", { class: "scores", text: `${b.scores[0]}\u2013${b.scores[1]}` }) : null,
      draw ? h("span", { class: "result-text", text: ` ${who}` }) : h("span", { class: "sr-only", text: ` (${who})` }),
      b.source === "director" ? h("span", { class: "tag fixed", text: t("tourney.fixed") }) : null,
    ];
  }

  showStandings() {
    const { tr, standings } = this.data;
    const title = h("h2", { id: "standings-h", text: standings.final ? t("tourney.standings_final") : t("tourney.standings") });
    if (!standings.standings.length) {
      replace(this.standings, title, h("p", { class: "hint", text: t("tourney.no_standings") }));
      return;
    }
    if (tr.format === SERIES) {
      this.showSeriesStandings(title);
      return;
    }
    const me = account();
    const head = [t("tourney.rank"), t("tourney.player"), t("tourney.wins"), t("tourney.spread"),
      t("tourney.record"), t("tourney.starts")];
    const rows = standings.standings.map((s) => h("tr", {
      class: `standing-row${me && s.username === me.username ? " is-mine" : ""}${s.removed ? " removed" : ""}`,
      dataset: { player: s.username } },
    h("td", { class: "rank", text: String(s.rank) }),
    h("td", { class: "player" }, playerName(s.username, true, "player"),
      s.removed ? h("span", { class: "tag warn", text: t("tourney.removed") }) : null,
      s.byes ? h("span", { class: "tag", text: plural("tourney.byes_n", s.byes) }) : null),
    h("td", { class: "wins", text: formatNumber(s.points) }),
    h("td", { class: "spread", text: spreadText(s.spread) }),
    h("td", { class: "record", text: `${s.wins}\u2013${s.draws}\u2013${s.losses}` }),
    h("td", { class: "starts", title: t("tourney.starts_help"), text: `${s.firsts}\u2013${s.seconds}` })));
    replace(this.standings, title,
      h("p", { class: "help", text: t("tourney.standings_help", { n: tr.bye_spread }) }),
      tourneyTable("standings-table", head, rows));
  }

  showSeriesStandings(title) {
    const { standings } = this.data;
    const me = account();
    const head = [t("tourney.rank"), t("tourney.player"), t("tourney.total"), t("tourney.percent"),
      t("tourney.games"), t("tourney.tops")];
    const rows = standings.standings.map((s) => h("tr", {
      class: `standing-row${me && s.username === me.username ? " is-mine" : ""}${s.removed ? " removed" : ""}`,
      dataset: { player: s.username } },
    h("td", { class: "rank", text: String(s.rank) }),
    h("td", { class: "player" }, playerName(s.username, true, "player"),
      s.removed ? h("span", { class: "tag warn", text: t("tourney.removed") }) : null),
    h("td", { class: "series-total", text: formatNumber(s.total) }),
    h("td", { class: "percent", text: formatNumber(s.percent) }),
    h("td", { class: "games", text: String(s.games) }),
    h("td", { class: "tops", text: String(s.tops) })));
    replace(this.standings, title,
      h("p", { class: "help", text: t("tourney.standings_series_help") }),
      tourneyTable("series-standings", head, rows));
  }

  showPlayers() {
    const { tr } = this.data;
    replace(this.players,
      h("h2", { id: "players-h", text: `${t("tourney.players")} (${tr.players.length}/${tr.max_players})` }),
      tr.players.length ? h("ol", { class: "tournament-player-list" }, tr.players.map((p) => h("li", { dataset: { player: p.username } },
        playerName(p.username, true, "player"),
        p.seed ? h("span", { class: "seed", text: ` ${t("tourney.seed", { n: p.seed })}` }) : null,
        p.removed ? h("span", { class: "tag warn", text: t("tourney.removed") }) : null)))
        : h("p", { class: "hint", text: t("tourney.no_players") }));
  }

  showDirector() {
    const { tr } = this.data;
    const panel = this.director;
    panel.hidden = !tr.you.director;
    if (!tr.you.director) return;
    // The director's controls are drawn again only when what they offer changes, and never
    // while the director types in them (a reason half typed); the focus and the open forms
    // stay where they were.
    const key = JSON.stringify([tr.state, tr.round, tr.paused, tr.round_in_play, tr.players]);
    if (key === this.directorKey) return;
    const active = panel.contains(document.activeElement) ? document.activeElement : null;
    if (active && ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName) && this.directorKey) return;
    this.directorKey = key;
    const open = [...panel.querySelectorAll("details[open]")].map((d) => d.className);
    const next = tr.round + 1;
    const canStart = tr.state !== "finished" && !tr.paused && !tr.round_in_play && !(tr.rounds && tr.round >= tr.rounds);
    const start = h("button", { type: "button", class: "primary big", id: "tourney-start", disabled: !canStart,
      text: tr.format === SERIES ? t("tourney.start_game", { n: next })
        : tr.round ? t("tourney.start_round", { n: next }) : t("tourney.start_first"),
      onclick: (e) => {
        say(this.message, t("tourney.starting"));
        this.round = null; // then show the new round
        this.act(e.currentTarget, () => api.startRound(tr.id), t("tourney.started", { n: next }));
      } });
    let why = null;
    if (tr.round_in_play) why = t(tr.format === SERIES ? "tourney.wait_game" : "tourney.wait_round", { n: tr.round });
    else if (tr.paused) why = t("tourney.paused_help");
    const pause = tr.state === "finished" ? null : h("button", { type: "button", id: "tourney-pause",
      text: tr.paused ? t("tourney.resume") : t("tourney.pause"),
      onclick: (e) => this.act(e.currentTarget, () => (tr.paused ? api.resumeTournament(tr.id) : api.pauseTournament(tr.id)),
        tr.paused ? t("tourney.resumed") : t("tourney.paused")) });
    replace(panel,
      h("h2", { id: "director-h", text: t("tourney.director_title") }),
      tr.state === "finished" ? h("p", { class: "hint", text: t("tourney.state_finished") })
        : h("div", { class: "director-actions" }, start, pause),
      why ? h("p", { class: "help", id: "tourney-start-why", text: why }) : null,
      tr.round ? (tr.format === SERIES ? this.fixScoreForm(tr) : this.fixForm(tr)) : null,
      tr.players.some((p) => !p.removed) && tr.state !== "finished" ? this.removeForm(tr) : null);
    for (const d of panel.querySelectorAll("details")) d.open = open.includes(d.className);
    const again = active && active.id ? document.getElementById(active.id) : null;
    if (again) again.focus();
  }

  fixForm(tr) {
    const round = h("input", { id: "fix-round", type: "number", min: "1", max: String(tr.round), value: String(tr.round), inputmode: "numeric" });
    const board = h("input", { id: "fix-board", type: "number", min: "1", value: "1", inputmode: "numeric" });
    const first = h("input", { id: "fix-first", type: "number", value: "0", inputmode: "numeric" });
    const second = h("input", { id: "fix-second", type: "number", value: "0", inputmode: "numeric" });
    const reason = h("input", { id: "fix-reason", type: "text", maxlength: "200", required: true, autocomplete: "off" });
    const submit = h("button", { type: "submit", id: "fix-submit", text: t("tourney.fix") });
    return h("details", { class: "director-form fix-form" },
      h("summary", { text: t("tourney.fix_title") }),
      h("form", { class: "create-form", onsubmit: (e) => {
        e.preventDefault();
        this.act(submit, () => api.fixResult(tr.id, Number(round.value), Number(board.value),
          [Number(first.value), Number(second.value)], reason.value), t("tourney.fixed_done"));
      } },
      h("div", { class: "field-row even" }, field("fix-round", t("tourney.fix_round"), round), field("fix-board", t("tourney.board"), board)),
      h("div", { class: "field-row even" }, field("fix-first", t("tourney.fix_first_score"), first),
        field("fix-second", t("tourney.fix_second_score"), second)),
      field("fix-reason", t("tourney.reason"), reason), submit));
  }

  fixScoreForm(tr) {
    const round = h("input", { id: "fix-round", type: "number", min: "1", max: String(tr.round), value: String(tr.round), inputmode: "numeric" });
    const who = h("select", { id: "fix-player" }, tr.players.map((p) => h("option", { value: p.username, text: p.username })));
    const score = h("input", { id: "fix-score", type: "number", value: "0", inputmode: "numeric" });
    const reason = h("input", { id: "fix-reason", type: "text", maxlength: "200", required: true, autocomplete: "off" });
    const submit = h("button", { type: "submit", id: "fix-submit", text: t("tourney.fix") });
    return h("details", { class: "director-form fix-form" },
      h("summary", { text: t("tourney.fix_score_title") }),
      h("form", { class: "create-form", onsubmit: (e) => {
        e.preventDefault();
        this.act(submit, () => api.fixScore(tr.id, Number(round.value), who.value, Number(score.value), reason.value),
          t("tourney.fixed_done"));
      } },
      h("div", { class: "field-row even" }, field("fix-round", t("tourney.fix_game"), round), field("fix-player", t("tourney.player"), who)),
      field("fix-score", t("tourney.fix_score"), score),
      field("fix-reason", t("tourney.reason"), reason), submit));
  }

  removeForm(tr) {
    const who = h("select", { id: "remove-player" },
      tr.players.filter((p) => !p.removed).map((p) => h("option", { value: p.username, text: p.username })));
    const reason = h("input", { id: "remove-reason", type: "text", maxlength: "200", required: true, autocomplete: "off" });
    const submit = h("button", { type: "submit", class: "danger", id: "remove-submit", text: t("tourney.remove") });
    return h("details", { class: "director-form remove-form" },
      h("summary", { text: t("tourney.remove_title") }),
      h("form", { class: "create-form", onsubmit: (e) => {
        e.preventDefault();
        const name = who.value;
        this.act(submit, () => api.removePlayer(tr.id, name, reason.value), t("tourney.removed_done", { name }));
      } },
      h("p", { class: "help", text: t("tourney.remove_help") }),
      field("remove-player", t("tourney.player"), who), field("remove-reason", t("tourney.reason"), reason), submit));
  }

  showLog() {
    const { log, tr } = this.data;
    const describe = (e) => {
      const result = (r) => (r && r.scores ? `${r.scores[0]}\u2013${r.scores[1]}` : t("tourney.in_play"));
      const score = (r) => (r && r.score !== null ? formatNumber(r.score) : t("tourney.in_play"));
      switch (e.action) {
        case "start_round": return t(tr.format === SERIES ? "tourney.action_start_game" : "tourney.action_start_round", { round: e.round });
        case "fix_score": return t("tourney.action_fix_score",
          { player: e.player || "", round: e.round, before: score(e.before), after: score(e.after) });
        case "pause": return t("tourney.action_pause");
        case "resume": return t("tourney.action_resume");
        case "fix_result": return t("tourney.action_fix_result",
          { round: e.round, board: e.board, before: result(e.before), after: result(e.after) });
        case "remove_player": return t("tourney.action_remove_player", { player: e.player || "" });
        default: return e.action;
      }
    };
    replace(this.logList,
      h("h2", { id: "log-h", text: t("tourney.log") }),
      log.length ? h("ol", { class: "tournament-log-list" }, log.map((e) => h("li", { class: `log-${e.action}` },
        h("time", { datetime: e.at, text: new Date(e.at).toLocaleString(currentLanguage()) }), " ",
        h("span", { class: "what", text: describe(e) }),
        e.reason ? h("span", { class: "why" }, " \u2014 ", h("q", { text: e.reason })) : null)))
        : h("p", { class: "hint", text: t("tourney.log_empty") }));
  }
}
