// The results of a game (headline, ranking, each seat's breakdown, the last round, play
// again and the replay) and the summary of a round or hand while the game goes on. What
// a round or a breakdown holds is the game's (its `score`, `breakdown`, `ranking`,
// `result`); the shell lays it out.
import { api, errorText } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t, tNodes } from "../lib/i18n.js";
import { confetti, seatColour } from "../lib/motion.js";
import { inviteKey, saveKey, saveToken, tokens } from "../lib/store.js";
import { ranking, teamRanking } from "./ranking.js";
import { nameWithBadge } from "./names.js";

const SUMMARY_MOVES = 12;  // a round's summary stays this many moves into the next one

export function summaryPanel(game, memory, use) {
  const box = el("section", { class: "panel round-summary", id: "round-summary", hidden: true });
  let shownFor = 0;
  const nodes = () => (game.score ? game.score.summary(memory, use()) : []);
  const forget = () => { if (game.score) game.score.forget(memory); };
  return {
    box, nodes,
    // Each move's events: a round or hand that ends starts its summary's time on screen.
    track(events, view) {
      for (const event of events) if (game.score && game.score.track(event, memory, view)) shownFor = 0;
    },
    draw(finished, moved) {
      if (moved && ++shownFor > SUMMARY_MOVES && !finished) forget();
      const shown = nodes();
      box.hidden = !shown.length || finished;
      if (shown.length) {
        box.replaceChildren(...shown, el("button", { class: "link close", "aria-label": t("table.close"),
          onclick: () => { forget(); box.hidden = true; } }, "×"));
      }
    },
  };
}

// `s`: { info, view, mine, memory, tableId, flash, celebrated, use, lastRound } → the panel's children.
export function resultNodes(game, s) {
  const { info, mine, tableId } = s;
  const { scores, winners, teams, team_scores: teamScores } = info.result;
  const view = s.view || {};
  const use = s.use();
  const tie = game.ranking ? game.ranking(view) : null;
  // A team game (a `teams` option) ranks the teams: partners share their team's place.
  const { order, rank, brokeTie } = teams ? teamRanking(scores, teams, teamScores)
    : ranking(scores, tie ? tie.tieBreak : null);
  const own = game.result ? game.result(view, info.result, use) : null;
  const together = Boolean(own && own.together);
  const iWon = mine && winners.includes(mine.seat);
  const headline = own?.headline || (iWon && teams ? [t("table.your_team_wins")]
    : iWon && winners.length === 1 ? [t("table.you_win")]
    : tNodes("event.won", { names: use.listOf(winners.map(use.who)), n: winners.length }));
  const teamCell = (seat) => (teams ? [el("td", { class: "team" },
    t("table.team_n", { n: teams[seat] + 1 }), " · ", teamScores[teams[seat]])] : []);
  const breakdown = (seat) => (game.breakdown ? game.breakdown(seat, scores[seat], { ...use, view, memory: s.memory })
    : use.points(scores[seat]));
  const mineRematch = info.rematch && tokens()[info.rematch];
  const lastRound = s.lastRound();
  let again = "";
  if (mine) {
    again = el("button", { class: "primary", id: "play-again", onclick: async () => {
      if (mineRematch) { location.hash = `#/table/${info.rematch}`; return; }
      try {
        const joined = await api("POST", `/api/tables/${tableId}/rematch`, null, mine.token);
        saveToken(joined.table.id, joined.token, joined.seat, joined.socket);
        if (inviteKey(tableId)) saveKey(joined.table.id, inviteKey(tableId));  // a private rematch keeps its key
        // Nobody else to wait for (only bots besides you): the rematch starts at once.
        const onlyBots = joined.table.seats.every((seat, index) => index === joined.seat || (seat.kind === "bot" && !seat.reserved));
        if (joined.table.status === "open" && onlyBots) await api("POST", `/api/tables/${joined.table.id}/start`, null, joined.token);
        location.hash = `#/table/${joined.table.id}`;
      } catch (error) { s.flash(errorText(error)); }
    } }, info.rematch && !mineRematch ? t("table.join_rematch") : t("table.play_again"));
  } else if (info.rematch) {
    again = el("a", { class: "button", id: "play-again", href: `#/table/${info.rematch}` }, t("table.watch_rematch"));
  }
  return [
    s.celebrated ? "" : confetti(),
    el("div", { class: "results-main" },
    el("h2", {}, t("table.results")),
    el("p", { class: "headline" }, headline),
    own?.extra || "",
    info.rematch && !mineRematch && mine ? el("p", { class: "rematch-ready", id: "rematch-ready" }, t("table.rematch_ready")) : "",
    el("table", { class: "grid ranking" },
      el("tr", {}, el("th", {}, "#"), teams ? el("th", {}, t("table.team")) : "", el("th", {}, t("table.player")), el("th", {}, t("table.score")), el("th", {}, t("table.detail")), el("th", {}, "")),
      order.map((seat) => el("tr", { class: winners.includes(seat) ? "won" : "" },
        el("td", {}, rank(seat)), ...teamCell(seat), el("td", {}, el("span", { class: "who", style: `--seat:${seatColour(seat)}` }, ...nameWithBadge(info.seats[seat], info.game)),
          mine && mine.seat === seat ? ` (${t("table.you")})` : ""),
        el("td", {}, scores[seat]), el("td", {}, breakdown(seat)),
        el("td", { class: "winner-mark" }, winners.includes(seat) && !together ? ["★ ", el("span", {}, t("table.winner"))] : "")))),
    brokeTie ? el("p", { class: "note" }, t(tie.note)) : "",
    el("div", { class: "row" },
      again,
      el("a", { href: `#/replay/${tableId}`, id: "replay-link", class: "button" }, t("table.replay")),
      el("a", { href: "#/" }, t("table.back")))),
    // The last round or hand this page saw, with what it moved: beside the ranking where
    // both fit, folded below it where they do not (fitResults).
    lastRound.length ? el("details", { class: "last-round", open: true }, ...foldable(lastRound)) : "",
  ];
}

// A summary's nodes as a fold: its own heading ("Round 3", "Hand 2: chips won and paid")
// names the fold, else a plain word does.
function foldable(nodes) {
  const [first, ...rest] = nodes;
  if (first instanceof Element && /^H[1-6]$/.test(first.tagName)) {
    return [el("summary", {}, el("span", { class: "last-round-title" }, ...first.childNodes)), ...rest];
  }
  return [el("summary", {}, t("table.last_round")), ...nodes];
}

// On a wide screen the last round sits beside the ranking; where it would wrap below and
// push the table (your own seat and hand) off the screen, it starts folded instead.
export function fitResults(panel, wide) {
  const main = panel.querySelector(".results-main");
  const round = panel.querySelector(".last-round");
  if (wide && main && round && round.offsetTop > main.offsetTop + 4) {
    round.open = false;
    round.classList.add("folds");  // a fold to open and close again
  }
}
