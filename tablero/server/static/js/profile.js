// A player's profile (/p/{username}), from GET /api/players/{username}: member since, the
// rating in each game (with a small chart of its history: an SVG drawn with DOM calls, with a
// title and a summary in words), the puzzle rating in each game (with puzzles tried and
// solved), and the finished games, each linking to its replay.

import { api, ApiError, errorText, pages } from "./api.js";
import { h, replace, s } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import { ratingElement } from "./panels.js";
import { gameTitle } from "./variant.js";

function formatDate(iso, withTime = false) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso || "";
  try {
    return d.toLocaleDateString(currentLanguage(), withTime
      ? { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }
      : { year: "numeric", month: "long", day: "numeric" });
  } catch {
    return d.toISOString().slice(0, 10);
  }
}

export class ProfilePage {
  constructor(root, username, { onTitle } = {}) {
    this.root = root;
    this.username = username;
    this.onTitle = onTitle || (() => {});
  }

  async mount() {
    replace(this.root, h("p", { class: "loading", text: t("common.loading") }));
    let player;
    let variants = [];
    try {
      [player, variants] = await Promise.all([api.player(this.username), api.variants().catch(() => [])]);
    } catch (e) {
      this.onTitle(this.username);
      const missing = e instanceof ApiError && (e.code === "no_such_player" || e.status === 404);
      replace(this.root, h("div", { class: "page-error" },
        h("h1", { text: missing ? t("profile.no_such_player") : t("profile.cannot_open") }),
        h("p", { text: missing ? t("profile.no_such_player_help", { name: this.username }) : errorText(e) }),
        h("p", {}, h("a", { href: "/", "data-link": "", text: t("nav.lobby") }))));
      return;
    }
    this.titles = new Map(variants.map((v) => [v.name, gameTitle(v)]));
    this.player = player;
    this.onTitle(player.username);
    this.build();
  }

  unmount() {}

  title(variant) {
    return this.titles.get(variant) || variant;
  }

  build() {
    const p = this.player;
    const ratings = Object.entries(p.ratings || {});
    const puzzles = Object.entries(p.puzzle_ratings || {});
    const history = p.rating_history || [];
    const games = p.games || [];
    replace(this.root, h("div", { class: "profile" },
      h("header", { class: "profile-head" },
        h("h1", { class: "profile-name", text: p.username }),
        h("p", { class: "profile-since", text: t("profile.member_since", { date: formatDate(p.member_since) }) })),
      h("section", { class: "profile-ratings", "aria-labelledby": "ratings-h" },
        h("h2", { id: "ratings-h", text: t("profile.ratings") }),
        ratings.length
          ? h("ul", { class: "rating-cards" }, ratings.map(([variant, r]) =>
            this.ratingCard(variant, r, history.filter((x) => x.variant === variant))))
          : h("p", { class: "hint", text: t("profile.no_ratings") })),
      h("section", { class: "profile-puzzles", "aria-labelledby": "puzzle-ratings-h" },
        h("h2", { id: "puzzle-ratings-h", text: t("profile.puzzle_ratings") }),
        puzzles.length
          ? h("ul", { class: "rating-cards" }, puzzles.map(([variant, r]) => this.puzzleCard(variant, r)))
          : h("p", { class: "hint", text: t("profile.no_puzzle_ratings") })),
      h("section", { class: "profile-games", "aria-labelledby": "games-h" },
        h("h2", { id: "games-h", text: t("profile.games") }),
        games.length ? this.gamesTable(games) : h("p", { class: "hint", text: t("profile.no_games") }))));
  }

  ratingCard(variant, r, changes) {
    const title = this.title(variant);
    return h("li", { class: "rating-card panel", dataset: { variant } },
      h("div", { class: "rating-card-head" },
        h("h3", { class: "rating-game", text: title }),
        h("span", { class: "rating-big" }, ratingElement(r.rating, r.provisional))),
      h("p", { class: "rating-games", text: t("profile.rated_games", { n: r.games }) }),
      changes.length ? ratingChart(title, changes) : null);
  }

  puzzleCard(variant, r) {
    return h("li", { class: "puzzle-card panel", dataset: { variant } },
      h("div", { class: "rating-card-head" },
        h("h3", { class: "rating-game", text: this.title(variant) }),
        h("span", { class: "rating-big" }, ratingElement(r.rating, r.provisional))),
      h("p", { class: "rating-games", text: t("profile.puzzles_tried", { n: r.attempts, solved: r.solved }) }));
  }

  gamesTable(games) {
    const head = [t("profile.date"), t("profile.game"), t("profile.result"), t("profile.score"), ""];
    return h("div", { class: "games-scroll" }, h("table", { class: "games-table" },
      h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col", text })))),
      h("tbody", {}, games.map((g) => {
        const placeText = g.place ? t("profile.place", { place: g.place, n: g.seats }) : "";
        const scores = g.scores || [];
        return h("tr", { class: `game-row outcome-${g.result}`, dataset: { table: g.id } },
          h("td", { class: "date" }, h("time", { datetime: g.finished, text: formatDate(g.finished, true) })),
          h("td", { class: "game" }, h("span", { text: this.title(g.variant) }),
            g.rated ? h("span", { class: "tag rated", text: t("profile.rated") }) : null),
          h("td", { class: "outcome" },
            h("span", { class: `badge outcome ${g.result}`, text: t(`profile.result_${g.result}`) }),
            placeText ? h("span", { class: "place", text: ` ${placeText}` }) : null),
          h("td", { class: "score" }, h("strong", { text: g.score === null ? "" : String(g.score) }),
            scores.length > 1 ? h("span", { class: "scores", text: ` (${scores.join("\u2013")})` }) : null),
          h("td", { class: "links" }, h("a", { href: pages.replay(g.id), "data-link": "", class: "replay-link",
            text: t("profile.replay"), "aria-label": t("profile.replay_label", { game: this.title(g.variant), date: formatDate(g.finished) }) })));
      }))));
  }
}

/**
 * A small line chart of a game's rating: the rating before the first rated game, then after
 * each. Inline SVG built with DOM calls; role="img" with a <title> and a <desc>, and the same
 * summary as text next to it.
 */
export function ratingChart(gameTitle, changes) {
  const points = [changes[0].before, ...changes.map((c) => c.rating)];
  const W = 280;
  const H = 90;
  const pad = { l: 34, r: 8, t: 8, b: 14 };
  let lo = Math.min(...points);
  let hi = Math.max(...points);
  if (hi - lo < 40) { // a flat line in the middle, not a zoom on a few points
    const mid = (hi + lo) / 2;
    lo = mid - 20;
    hi = mid + 20;
  }
  const x = (i) => pad.l + (points.length === 1 ? 0 : (i * (W - pad.l - pad.r)) / (points.length - 1));
  const y = (v) => pad.t + ((hi - v) * (H - pad.t - pad.b)) / (hi - lo);
  const d = points.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" ");
  const first = points[0];
  const last = points[points.length - 1];
  const summary = t("profile.chart_summary", {
    games: changes.length, from: first, to: last,
    high: Math.max(...points), low: Math.min(...points),
  });
  const id = `chart-${Math.random().toString(36).slice(2, 9)}`;
  const svg = s("svg", { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-labelledby": `${id}-t`, "aria-describedby": `${id}-s`, width: W, height: H },
  s("title", { id: `${id}-t`, text: t("profile.chart_title", { game: gameTitle }) }),
  s("desc", { id: `${id}-d`, text: summary }),
  s("line", { class: "axis", x1: pad.l, y1: H - pad.b, x2: W - pad.r, y2: H - pad.b }),
  s("text", { class: "tick", x: pad.l - 4, y: y(Math.max(...points)) + 4, "text-anchor": "end", text: String(Math.max(...points)) }),
  Math.max(...points) !== Math.min(...points)
    ? s("text", { class: "tick", x: pad.l - 4, y: y(Math.min(...points)) + 4, "text-anchor": "end", text: String(Math.min(...points)) })
    : null,
  s("path", { class: "line", d }),
  points.map((v, i) => s("circle", { class: i === points.length - 1 ? "dot last" : "dot", cx: x(i), cy: y(v), r: 3 })));
  return h("figure", { class: "rating-figure" }, svg,
    h("figcaption", { class: "chart-summary", id: `${id}-s`, text: summary }));
}
