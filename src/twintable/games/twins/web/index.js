// Twins in the browser: the game's side of the client interface (README.md in
// twintable/web). The board itself is drawn in board.js.
import { renderTwins } from "./board.js";
import pictures, { cardFace } from "./pictures.js";

const STARTING_CHIPS = 12;  // every seat's chips at the start (RULES.md §2)
const ROUNDS = [1, 2, 3, 4];

function narrate(event, { line, who, t, el, tNodes, listOf, cards, actor }) {
  const chips = (n) => t("twins.chips_n", { n });
  const data = event.data || {};
  const name = who(data.seat ?? actor);
  switch (event.kind) {
    case "hand_started": return line("hand_started", { hand: data.hand, name: who(data.dealer) });
    case "bought": return data.count ? line("bought", { name, cards: cards(data.count), chips: chips(data.cost) }) : line("bought_none", { name });
    case "round_started": return line("round_started", { round: data.round });
    case "committed": return line("committed", { name });
    case "revealed": return line("revealed", { round: data.round, picks: listOf((data.picks || []).map((pick) =>
      el("span", {}, tNodes("event.twins.shown", { name: who(pick.seat), set: t(`twins.set.${pick.set}`), value: pick.value })))) });
    case "paid": return line("paid", { name, chips: chips(data.amount) });
    case "received": return line("received", { name, chips: chips(data.amount) });
    case "sits_out": return line("sits_out", { name });
    case "bankrupt": return line("bankrupt", { name });
    case "bank_stays": return line("bank_stays", { chips: chips(data.bank) });
    case "game_over": return undefined;  // the shell's "… win!" from data.winners
    default: return null;
  }
}

// Each hand's chips won and paid, round by round; a hand is summed up once it is over.
const score = {
  track(event, memory, view) {
    const data = event.data || {};
    let ready = false;
    if (event.kind === "hand_started" || event.kind === "game_over") {
      if (memory.hand && Object.keys(memory.hand.moves).length) { memory.done = memory.hand; ready = true; }
      memory.hand = { hand: data.hand, round: 1, moves: {} };
    }
    memory.hand = memory.hand || { hand: view?.hand_no || 1, round: 1, moves: {} };
    if (event.kind === "revealed") memory.hand.round = data.round;
    const sign = event.kind === "paid" ? -1 : event.kind === "received" ? 1 : 0;
    if (sign) {
      const key = `${memory.hand.round}:${data.seat}`;
      memory.hand.moves[key] = (memory.hand.moves[key] || 0) + sign * data.amount;
    }
    return ready;
  },
  summary(memory, { t, el, who, seats }) {
    const hand = memory.done;
    if (!hand) return [];
    const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "·");
    const tone = (v) => (v > 0 ? "gain" : v < 0 ? "loss" : "");
    return [el("h2", {}, t("table.hand_chips", { n: hand.hand })),
      el("table", { class: "grid chips-moved" },
        // "Rounds" once over their numbers: a column per round fits the narrow side column.
        el("tr", {}, el("th", { rowspan: 2 }, t("table.player")), el("th", { colspan: ROUNDS.length }, t("twins.rounds")),
          el("th", { rowspan: 2 }, t("table.net"))),
        el("tr", {}, ROUNDS.map((r) => el("th", { "aria-label": t("table.round_n", { n: r }) }, r))),
        seats.map((_, seat) => {
          const cells = ROUNDS.map((r) => hand.moves[`${r}:${seat}`] ?? 0);
          const net = cells.reduce((a, b) => a + b, 0);
          return el("tr", {}, el("td", {}, who(seat)), cells.map((v) => el("td", { class: tone(v) }, signed(v))),
            el("td", { class: tone(net) }, signed(net)));
        }))];
  },
  forget(memory) { memory.done = null; },
};

function breakdown(seat, total, { t }) {
  const chips = (n) => t("twins.chips_n", { n });
  const change = total - STARTING_CHIPS;
  return t("table.twins_breakdown", { n: change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0", chips: chips(total) });
}

// A hand in the replay: the cards held, and the pair chosen and not yet shown.
function replayHand(view, ctx) {
  if (!Array.isArray(view.hand)) return null;
  const { el, t } = ctx;
  const picked = view.my_pick || [];
  const pickedIds = new Set(picked.map((card) => card.id));
  const held = view.hand.filter((card) => !pickedIds.has(card.id));
  return el("div", { class: "replay-cards" },
    held.length ? held.map((card) => cardFace(ctx, card)) : el("span", { class: "replay-none" }, t("replay.no_cards")),
    picked.length ? el("span", { class: "replay-picked" }, el("span", {}, t("replay.picked")), picked.map((card) => cardFace(ctx, card))) : "");
}

function whoActs(view) {
  if (view.phase === "over") return [];
  if (view.phase === "buy") return view.buyer !== null && view.buyer !== undefined ? [view.buyer] : [];
  return view.committed.map((done, seat) => (!done && !view.out[seat] && !view.sitting_out[seat] ? seat : null)).filter((s) => s !== null);
}

export default {
  styles: ["twins.css"],
  ...pictures,
  render: renderTwins,
  seat: renderTwins.seat,
  isOver: (view) => view.phase === "over",
  whoActs,
  sounds: { bought: "card", committed: "card", received: "take", revealed: "reveal" },
  // The picks shown and a seat gone bankrupt are the hand's turning points.
  banners: { revealed: true, bankrupt: true },
  deadline: () => null,
  narrate,
  score,
  breakdown,
  replayHand,
};
