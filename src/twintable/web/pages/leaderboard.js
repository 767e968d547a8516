// The leaderboard of one game: what the rating means, the best players, and this
// browser's own row and rank (its profile id is public; the server finds the row even
// outside the best ones). Its "bots" tab (#/leaderboard/<game>/bots) shows the bot
// ladder the game ships (/api/games names it: `web.ladder`, written by scripts/ladder.py):
// the game's bots rated from round-robin matches, by level and what each one is.
import { api, games } from "../lib/api.js";
import { el, page } from "../lib/dom.js";
import { language, t } from "../lib/i18n.js";
import { seatColour } from "../lib/motion.js";
import { profile } from "../lib/store.js";

// What a rating needs before the leaderboard ranks it (server/ratings.py's
// RANKED_AFTER_GAMES and RANKED_AFTER_OPPONENTS): before, the server marks it
// unranked, shows it to its owner only, and it shows as "new".
export const PROVISIONAL_GAMES = 5;
export const PROVISIONAL_OPPONENTS = 3;

// A colour and a short id for a player, from the public profile id: people who go by the
// same name are told apart.
export function playerMark(playerId) {
  let hash = 0;
  for (const char of String(playerId)) hash = (hash * 31 + char.codePointAt(0)) >>> 0;
  return { colour: seatColour(hash), short: String(playerId).replace(/[^0-9a-z]/gi, "").slice(0, 4) };
}

// The two tabs: people's ratings, and the bots' ladder.
function tabs(chosen, bots) {
  return el("nav", { class: "lb-tabs", "aria-label": t("leaderboard.tabs") },
    el("a", { href: `#/leaderboard/${chosen}`, id: "leaderboard-tab-people", class: bots ? "" : "lb-chosen",
      "aria-current": bots ? null : "page" }, t("leaderboard.tab_people")),
    el("a", { href: `#/leaderboard/${chosen}/bots`, id: "leaderboard-tab-bots", class: bots ? "lb-chosen" : "",
      "aria-current": bots ? "page" : null }, t("leaderboard.tab_bots")));
}

function gamePills(list, chosen, suffix) {
  return el("nav", { class: "lb-games", "aria-label": t("leaderboard.choose") },
    list.map((g) => el("a", { href: `#/leaderboard/${g.id}${suffix}`, class: g.id === chosen ? "lb-chosen" : "",
      "aria-current": g.id === chosen ? "page" : null }, t(`game.${g.id}`))));
}

// The bot ladder of one game: a table per table size, best first.
async function botsTab(list, chosen) {
  const address = list.find((g) => g.id === chosen)?.web?.ladder;
  const response = address ? await fetch(address) : null;
  const report = response?.ok ? await response.json() : {};
  const ladders = Object.values(report).filter((ladder) => ladder && ladder.game === chosen);
  const game = t(`game.${chosen}`);
  const one = new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const share = new Intl.NumberFormat(language(), { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const table = (ladder) => el("table", { class: "grid lb-table lb-ladder", id: `ladder-${chosen}-${ladder.players}` },
    el("caption", {}, t("leaderboard.bots_caption", { game, n: ladder.players })),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("leaderboard.rank")),
      el("th", { scope: "col" }, t("leaderboard.bots_bot")), el("th", { scope: "col" }, t("leaderboard.rating")),
      el("th", { scope: "col" }, t("leaderboard.games")), el("th", { scope: "col" }, t("leaderboard.bots_wins")))),
    el("tbody", {}, ladder.ratings.map((row, index) => el("tr", { "data-bot": row.bot },
      el("td", {}, index + 1),
      el("td", {}, el("strong", {}, row.level ? t(`level.${row.level}`) : t(`bot.${row.bot}`)),
        el("small", { class: "lb-bot-about" }, ` ${t(`bots.about.${row.bot === "random" ? "random" : `${chosen}.${row.bot}`}`)}`)),
      el("td", {}, one.format(row.ordinal)), el("td", {}, row.games),
      el("td", {}, t("leaderboard.bots_share", { share: share.format(row.win_share),
        low: share.format(row.win_share_interval[0]), high: share.format(row.win_share_interval[1]) }))))));
  page(t("leaderboard.title", { game }), tabs(chosen, true), gamePills(list, chosen, "/bots"),
    el("p", { class: "lb-explain", id: "ladder-explain" }, t("leaderboard.bots_explain")),
    ...(ladders.length ? ladders.flatMap((ladder) => [table(ladder),
      el("p", { class: "lb-explain" }, t("leaderboard.bots_games_per_pairing", { n: ladder.games_per_pairing }))])
      : [el("p", { id: "ladder-none" }, t("leaderboard.bots_none", { game }))]));
}

export async function leaderboardPage(gameId, tab) {
  const list = await games();
  const chosen = list.some((g) => g.id === gameId) ? gameId : list[0].id;
  if (tab === "bots") {
    await botsTab(list, chosen);
    return;
  }
  const playerId = profile().id;
  const rows = await api("GET", `/api/leaderboard/${chosen}${playerId ? `?player=${encodeURIComponent(playerId)}` : ""}`);
  const game = t(`game.${chosen}`);
  const one = new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const mine = rows.find((row) => row.player_id === playerId);
  const named = {};
  for (const row of rows) named[row.display_name] = (named[row.display_name] || 0) + 1;
  const rating = (row) => (row.ranked === false
    ? el("span", { class: "badge lb-new", title: t("leaderboard.provisional_help", { n: PROVISIONAL_GAMES, m: PROVISIONAL_OPPONENTS }) }, t("leaderboard.provisional"))
    : one.format(row.rating));
  const body = [];
  rows.forEach((row, index) => {
    // A rank past the rows above it: the rows between are left out ("…").
    // A provisional row has no rank yet (the sentence above says where it would be).
    const ranked = row.ranked !== false;
    if (ranked && index && row.rank > index + 1) body.push(el("tr", { class: "lb-gap" }, el("td", { colspan: 4 }, "…")));
    const me = row === mine;
    body.push(el("tr", { class: me ? "lb-me" : "", "aria-current": me ? "true" : null },
      el("td", {}, ranked ? row.rank : "–"),
      el("td", {}, el("span", { class: "lb-avatar", style: `--seat:${playerMark(row.player_id).colour}`, "aria-hidden": "true" },
        (row.display_name || "?").trim().charAt(0).toUpperCase()), row.display_name,
      named[row.display_name] > 1 ? el("small", { class: "lb-id" }, ` #${playerMark(row.player_id).short}`) : "",
      me ? ` (${t("table.you")})` : "",
        // Bots are not rated; a row that ever came from one would say so.
        row.bot ? el("span", { class: "badge lb-bot" }, t("leaderboard.bot")) : ""),
      el("td", {}, rating(row)), el("td", {}, row.games)));
  });
  page(t("leaderboard.title", { game }), tabs(chosen, false), gamePills(list, chosen, ""),
    el("p", { class: "lb-explain", id: "leaderboard-explain" }, t("leaderboard.explain", { n: PROVISIONAL_GAMES, m: PROVISIONAL_OPPONENTS })),
    el("p", { class: "lb-you", id: "leaderboard-you" }, mine
      ? mine.ranked === false ? t("leaderboard.you_are_new", { rank: mine.rank, n: mine.games, m: mine.opponents,
        games: PROVISIONAL_GAMES, opponents: PROVISIONAL_OPPONENTS })
        : t("leaderboard.you_are", { rank: mine.rank, rating: one.format(mine.rating), n: mine.games })
      : t("leaderboard.unrated", { game })),
    rows.length ? el("table", { class: "grid lb-table", id: "leaderboard" },
      el("caption", {}, game),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("leaderboard.rank")), el("th", { scope: "col" }, t("table.player")),
        el("th", { scope: "col" }, t("leaderboard.rating")), el("th", { scope: "col" }, t("leaderboard.games")))),
      el("tbody", {}, body))
      : el("p", {}, t("leaderboard.empty")));
}
