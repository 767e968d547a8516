// Timo's Twist in the browser: the game's side of the client interface (README.md in
// twintable/web). The board itself is drawn in board.js.
import { renderTimo } from "./board.js";
import pictures, { cardFace } from "./pictures.js";

function cardText(t, card) {
  if (card.colour === "black") return t(card.rank === "+4" ? "event.timo.black_plus4" : "event.timo.black_colour");
  const rankKey = `timo.rank.${card.rank}`;
  const rank = t(rankKey) === rankKey ? card.rank : t(rankKey);
  return t("event.timo.card", { colour: t(`colour.${card.colour}`), rank });
}

// The card someone played: on the discard pile of the frame, or seen earlier.
const cardOf = (id, view, memory) => (view?.discard || []).find((c) => c.id === id) || memory.cards?.get(id);

function narrate(event, { line, who, t, view, memory, actor }) {
  const data = event.data || {};
  const name = who(data.seat ?? actor);
  switch (event.kind) {
    case "round_started": return line("round_started", { round: data.round, name: who(data.dealer) });
    case "played": {
      const card = cardOf(data.card, view, memory);
      if (!card) return line("played_last", { name });
      if (card.colour === "black") return line("played_black", { name, card: cardText(t, card), colour: t(`colour.${data.colour}`) });
      return line("played", { name, card: cardText(t, card) });
    }
    case "timo_called": return line("timo_called", { name });
    case "skipped": return line("skipped", { name });
    case "direction": return line("direction");
    case "drew":
      if (data.reason === "caught") return null;  // the catch line says it
      return line(data.reason === "penalty" ? "drew_penalty" : "drew", { name, n: data.count });
    case "passed": return line("passed", { name });
    case "caught": return line("caught", { by: who(data.by), name, victim: who(data.seat), n: 2 });
    case "reshuffled": return line("reshuffled");
    case "round_over": return line(data.winners ? "round_over_team" : "round_over", { name: who(data.winner), n: data.points });
    case "game_over": return undefined;  // the shell's "… wins!" from data.winner
    default: return null;
  }
}

// Every card seen so far, by id, to name a card someone plays later.
function remember(view, memory) {
  memory.cards = memory.cards || new Map();
  memory.round = view.round;
  for (const card of [...(view.discard || []), ...(view.hand || []), view.top, view.drawn]) {
    if (card && card.id !== undefined) memory.cards.set(card.id, card);
  }
}

// The last round, summed up: who went out, the cards left in each hand, the totals.
const score = {
  track(event, memory) {
    if (event.kind !== "round_over") return false;
    const data = event.data || {};
    memory.wins = [...(memory.wins || []), [data.winner, data.points, data.winners || [data.winner]]];
    memory.lastRound = { round: memory.round, winner: data.winner, points: data.points, scores: data.scores, hands: data.hands,
      partners: data.winners || [data.winner] };
    return true;
  },
  summary(memory, { t, el, tNodes, who }) {
    const r = memory.lastRound;
    if (!r) return [];
    return [el("h2", {}, t("table.round_result", { n: r.round })),
      el("p", {}, tNodes(r.partners.length > 1 ? "event.timo.round_over_team" : "event.timo.round_over", { name: who(r.winner), n: r.points })),
      el("table", { class: "grid" },
        el("tr", {}, el("th", {}, t("table.player")), el("th", {}, t("table.cards_left")), el("th", {}, t("table.total"))),
        r.hands.map((hand, seat) => el("tr", { class: r.partners.includes(seat) ? "won" : "" },
          el("td", {}, who(seat)), el("td", {}, seat === r.winner ? "—" : hand.length), el("td", {}, r.scores[seat]))))];
  },
  forget(memory) { memory.lastRound = null; },
};

// The points of each round this seat won, when this page saw them all.
function breakdown(seat, total, { memory, points }) {
  // In a team game a seat's total is its team's: the rounds any partner won.
  const won = (memory.wins || []).filter(([winner, , partners]) => (partners || [winner]).includes(seat)).map(([, n]) => n);
  if (won.length > 1 && won.reduce((a, b) => a + b, 0) === total) return `${won.join(" + ")} = ${points(total)}`;
  return points(total);
}

function replayHand(view, ctx) {
  if (!Array.isArray(view.hand)) return null;
  const { el, t } = ctx;
  return el("div", { class: "replay-cards" },
    view.hand.length ? view.hand.map((card) => cardFace(ctx, card)) : el("span", { class: "replay-none" }, t("replay.no_cards")));
}

export default {
  styles: ["timo.css"],
  ...pictures,
  render: renderTimo,
  seat: renderTimo.seat,
  key: renderTimo.key,
  isOver: (view) => view.over,
  whoActs: (view) => (!view.over && typeof view.turn === "number" ? [view.turn] : []),
  sounds: { played: "card", caught: "take", round_over: "reveal" },
  // A catch and a round won are worth the banner too; the end is the results' to say.
  banners: { caught: true, round_over: true },
  deadline: () => null,
  remember,
  narrate,
  score,
  breakdown,
  replayHand,
};
