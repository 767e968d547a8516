// The leaderboard of one game: what the rating means, the best players, and this
// browser's own row and rank (its profile id is public; the server finds the row even
// outside the best ones).
import { api, games } from "../lib/api.js";
import { el, page } from "../lib/dom.js";
import { language, t } from "../lib/i18n.js";
import { seatColour } from "../lib/motion.js";
import { profile } from "../lib/store.js";

// A rating from fewer games than this is provisional: shown as "new", not as a number
// that starts below 0 (a cautious estimate is low while little is known).
export const PROVISIONAL_GAMES = 5;

// A colour and a short id for a player, from the public profile id: people who go by the
// same name are told apart.
export function playerMark(playerId) {
  let hash = 0;
  for (const char of String(playerId)) hash = (hash * 31 + char.codePointAt(0)) >>> 0;
  return { colour: seatColour(hash), short: String(playerId).replace(/[^0-9a-z]/gi, "").slice(0, 4) };
}

export async function leaderboardPage(gameId) {
  const list = await games();
  const chosen = list.some((g) => g.id === gameId) ? gameId : list[0].id;
  const playerId = profile().id;
  const rows = await api("GET", `/api/leaderboard/${chosen}${playerId ? `?player=${encodeURIComponent(playerId)}` : ""}`);
  const game = t(`game.${chosen}`);
  const one = new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const mine = rows.find((row) => row.player_id === playerId);
  const named = {};
  for (const row of rows) named[row.display_name] = (named[row.display_name] || 0) + 1;
  const rating = (row) => (row.games < PROVISIONAL_GAMES
    ? el("span", { class: "badge lb-new", title: t("leaderboard.provisional_help", { n: PROVISIONAL_GAMES }) }, t("leaderboard.provisional"))
    : one.format(row.rating));
  const body = [];
  rows.forEach((row, index) => {
    // A rank past the rows above it: the rows between are left out ("…").
    if (index && row.rank > index + 1) body.push(el("tr", { class: "lb-gap" }, el("td", { colspan: 4 }, "…")));
    const me = row === mine;
    body.push(el("tr", { class: me ? "lb-me" : "", "aria-current": me ? "true" : null },
      el("td", {}, row.rank),
      el("td", {}, el("span", { class: "lb-avatar", style: `--seat:${playerMark(row.player_id).colour}`, "aria-hidden": "true" },
        (row.display_name || "?").trim().charAt(0).toUpperCase()), row.display_name,
      named[row.display_name] > 1 ? el("small", { class: "lb-id" }, ` #${playerMark(row.player_id).short}`) : "",
      me ? ` (${t("table.you")})` : "",
        // Bots are not rated; a row that ever came from one would say so.
        row.bot ? el("span", { class: "badge lb-bot" }, t("leaderboard.bot")) : ""),
      el("td", {}, rating(row)), el("td", {}, row.games)));
  });
  page(t("leaderboard.title", { game }),
    el("nav", { class: "lb-games", "aria-label": t("leaderboard.choose") },
      list.map((g) => el("a", { href: `#/leaderboard/${g.id}`, class: g.id === chosen ? "lb-chosen" : "",
        "aria-current": g.id === chosen ? "page" : null }, t(`game.${g.id}`)))),
    el("p", { class: "lb-explain", id: "leaderboard-explain" }, t("leaderboard.explain", { n: PROVISIONAL_GAMES })),
    el("p", { class: "lb-you", id: "leaderboard-you" }, mine
      ? mine.games < PROVISIONAL_GAMES ? t("leaderboard.you_are_new", { rank: mine.rank, n: mine.games })
        : t("leaderboard.you_are", { rank: mine.rank, rating: one.format(mine.rating), n: mine.games })
      : t("leaderboard.unrated", { game })),
    rows.length ? el("table", { class: "grid lb-table", id: "leaderboard" },
      el("caption", {}, game),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("leaderboard.rank")), el("th", { scope: "col" }, t("table.player")),
        el("th", { scope: "col" }, t("leaderboard.rating")), el("th", { scope: "col" }, t("leaderboard.games")))),
      el("tbody", {}, body))
      : el("p", {}, t("leaderboard.empty")));
}
