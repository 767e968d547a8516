// The leaderboard of one game: what the rating means, the best players, and this
// browser's own row and rank (its profile id is public; the server finds the row even
// outside the best ones).
import { api, games } from "../lib/api.js";
import { el, page } from "../lib/dom.js";
import { language, t } from "../lib/i18n.js";
import { profile } from "../lib/store.js";

export async function leaderboardPage(gameId) {
  const list = await games();
  const chosen = list.some((g) => g.id === gameId) ? gameId : list[0].id;
  const playerId = profile().id;
  const rows = await api("GET", `/api/leaderboard/${chosen}${playerId ? `?player=${encodeURIComponent(playerId)}` : ""}`);
  const game = t(`game.${chosen}`);
  const one = new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const mine = rows.find((row) => row.player_id === playerId);
  const body = [];
  rows.forEach((row, index) => {
    // A rank past the rows above it: the rows between are left out ("…").
    if (index && row.rank > index + 1) body.push(el("tr", { class: "lb-gap" }, el("td", { colspan: 4 }, "…")));
    const me = row === mine;
    body.push(el("tr", { class: me ? "lb-me" : "", "aria-current": me ? "true" : null },
      el("td", {}, row.rank),
      el("td", {}, row.display_name, me ? ` (${t("table.you")})` : "",
        // Bots are not rated; a row that ever came from one would say so.
        row.bot ? el("span", { class: "badge lb-bot" }, t("leaderboard.bot")) : ""),
      el("td", {}, one.format(row.rating)), el("td", {}, row.games)));
  });
  page(t("leaderboard.title", { game }),
    el("nav", { class: "lb-games", "aria-label": t("leaderboard.choose") },
      list.map((g) => el("a", { href: `#/leaderboard/${g.id}`, class: g.id === chosen ? "lb-chosen" : "",
        "aria-current": g.id === chosen ? "page" : null }, t(`game.${g.id}`)))),
    el("p", { class: "lb-explain", id: "leaderboard-explain" }, t("leaderboard.explain")),
    el("p", { class: "lb-you", id: "leaderboard-you" }, mine
      ? t("leaderboard.you_are", { rank: mine.rank, rating: one.format(mine.rating), n: mine.games })
      : t("leaderboard.unrated", { game })),
    rows.length ? el("table", { class: "grid lb-table", id: "leaderboard" },
      el("caption", {}, game),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("leaderboard.rank")), el("th", { scope: "col" }, t("table.player")),
        el("th", { scope: "col" }, t("leaderboard.rating")), el("th", { scope: "col" }, t("leaderboard.games")))),
      el("tbody", {}, body))
      : el("p", {}, t("leaderboard.empty")));
}
