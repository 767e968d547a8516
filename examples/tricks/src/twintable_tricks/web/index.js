// Twin Tricks in the browser: the game's side of Twin Table's client interface
// (src/twintable/web/README.md in Twin Table). Everything here comes from the views and
// events of twintable_tricks; the shell draws the seats, the log and the results.
const SUITS = ["moons", "stars", "suns", "waves"];
const SYMBOLS = { moons: "☾", stars: "★", suns: "☀", waves: "≈" };

// A card id is suit * 10 + rank - 1 (cards.py), so an event's card needs no lookup.
export const cardOf = (id) => ({ id, suit: SUITS[Math.floor(id / 10)], rank: (id % 10) + 1 });

const cardName = (t, card) => t("tricks.card", { rank: card.rank, suit: t(`tricks.suit.${card.suit}`) });

export function cardFace(ctx, card, attrs = {}, tag = "div") {
  const { t, el } = ctx;
  const label = cardName(t, card);
  const { class: extra = "", ...rest } = attrs;
  return el(tag, { class: `card tk-card tk-${card.suit} ${extra}`.trim(), role: tag === "button" ? null : "img",
    "aria-label": label, title: label, ...rest },
  el("span", { class: "tk-rank", "aria-hidden": "true" }, card.rank),
  el("span", { class: "tk-sym", "aria-hidden": "true" }, SYMBOLS[card.suit]));
}

// The cards on the table, each under the name of the seat that played it.
function trickRow(ctx, plays, winner = null) {
  const { el } = ctx;
  return el("ol", { class: "tk-trick" }, plays.map((play) => el("li", { class: play.seat === winner ? "tk-won" : "" },
    cardFace(ctx, play.card), el("span", { class: "tk-who" }, ctx.names[play.seat] ?? ""))));
}

function statusLine(view, ctx) {
  const { t, el } = ctx;
  if (view.over) return el("strong", {}, t("tricks.game_over"));
  if (view.turn === ctx.me) {
    if (!view.trick.length) return el("strong", {}, t("tricks.your_lead"));
    return el("strong", {}, t("tricks.your_follow", { suit: t(`tricks.suit.${view.trick[0].card.suit}`) }));
  }
  return t("tricks.to_play", { name: ctx.names[view.turn] ?? "" });
}

export function renderTricks(view, ctx) {
  const { t, el } = ctx;
  const legal = new Set((view.legal || []).map((action) => action.payload.card));
  const root = el("div", { class: `tricks tk-table${!view.over && ctx.me !== null ? " tt-live" : ""}` });
  // The centre of the table: on a wide screen the shell lays it on the felt between the seats.
  const shown = view.trick.length ? trickRow(ctx, view.trick)
    : view.last_trick ? el("div", { class: "tk-last" },
      el("span", {}, t("tricks.last_trick", { name: ctx.names[view.last_trick.winner] ?? "" })),
      trickRow(ctx, view.last_trick.plays, view.last_trick.winner))
      : el("p", { class: "tk-empty" }, t("tricks.no_trick"));
  root.append(el("section", { class: "tk-felt", "data-felt": "", id: "trick", "aria-label": t("tricks.table") },
    el("div", { class: "tk-status", id: "turn" },
      el("span", { class: "tk-where" }, t("tricks.hand_no", { n: view.hand_no }), " · ",
        t("tricks.target", { n: view.options.target })),
      el("span", {}, statusLine(view, ctx))),
    shown));
  if (ctx.me === null || view.over) return root;
  const mine = !!legal.size;
  root.append(el("section", { class: `tk-me${mine ? " tk-my-turn" : ""}`, "aria-label": t("tricks.your_hand") },
    el("div", { class: "hand tk-hand", role: "group", "aria-label": t("tricks.your_hand") },
      view.hand.map((card) => cardFace(ctx, card, {
        class: legal.has(card.id) ? "legal" : "", disabled: !legal.has(card.id),
        "data-key": `card-${card.id}`, "data-card": card.id,
        onclick: () => ctx.act("play", { card: card.id }) }, "button")))));
  return root;
}

// What everyone sees of a seat: points, tricks this hand, cards in hand, the dealer.
function seat(view, index, ctx) {
  const { t, el } = ctx;
  const size = view.hand_sizes[index] ?? 0;
  return el("div", { class: "tk-seat" },
    el("span", { class: "tk-points" }, t("tricks.points_n", { n: view.scores[index] ?? 0 })),
    el("span", { class: "tk-taken" }, t("tricks.tricks_n", { n: view.tricks_won[index] ?? 0 })),
    el("span", { class: "tk-backs", role: "img", "aria-label": t("tricks.cards_n", { n: size }) },
      Array.from({ length: size }, () => el("span", { class: "tk-back", "aria-hidden": "true" }))),
    view.dealer === index && !view.over ? el("span", { class: "tk-flag" }, t("tricks.dealer")) : "",
    view.over && view.winners.includes(index) ? el("span", { class: "tk-flag tk-winner" }, `★ ${t("tricks.won")}`) : "");
}

function narrate(event, { line, who, t, actor }) {
  const data = event.data || {};
  switch (event.kind) {
    case "hand_started": return line("hand_started", { hand: data.hand, name: who(data.dealer), leader: who(data.leader) });
    case "played": return line("played", { name: who(data.seat ?? actor), card: cardName(t, cardOf(data.card)) });
    case "trick_won": return line("trick_won", { name: who(data.seat) });
    case "hand_over": return line("hand_over", { hand: data.hand, name: who(data.last_trick) });
    case "game_over": return undefined;  // the shell's "… win!" from data.winners
    default: return null;
  }
}

// The last hand, summed up: tricks and points per seat, and the totals.
const score = {
  track(event, memory) {
    if (event.kind !== "hand_over") return false;
    memory.lastHand = event.data;
    return true;
  },
  summary(memory, { t, el, who, seats }) {
    const hand = memory.lastHand;
    if (!hand) return [];
    return [el("h2", {}, t("tricks.hand_summary", { n: hand.hand })),
      el("table", { class: "grid tk-summary" },
        el("tr", {}, el("th", {}, t("tricks.player")), el("th", {}, t("tricks.tricks")), el("th", {}, t("tricks.points")),
          el("th", {}, t("tricks.total"))),
        seats.map((_, index) => el("tr", {}, el("td", {}, who(index)), el("td", {}, hand.tricks[index]),
          el("td", {}, `+${hand.points[index]}`), el("td", {}, hand.scores[index]))))];
  },
  forget(memory) { memory.lastHand = null; },
};

// A hand in the replay: the cards the seat still holds.
function replayHand(view, ctx) {
  if (!Array.isArray(view.hand)) return null;
  const { el, t } = ctx;
  return el("div", { class: "replay-cards" }, view.hand.length ? view.hand.map((card) => cardFace(ctx, card))
    : el("span", { class: "replay-none" }, t("tricks.no_cards")));
}

// A card picture for the rules pages: `spec` is "suit/rank" ("suns/7").
export function drawCard(spec, ctx) {
  const [suit, rank] = String(spec).split("/");
  return cardFace(ctx, { suit, rank: Number(rank) }, { class: "rules-card-face" }, "span");
}

export default {
  styles: ["tricks.css"],
  facts: { players: 2 },
  picture(box, ctx) {
    box.replaceChildren(...["stars/10", "suns/7", "waves/3"].map((spec) => ctx.el("span", { class: "lb-card" }, drawCard(spec, ctx))));
  },
  render: renderTricks,
  seat,
  isOver: (view) => view.over,
  whoActs: (view) => (view.over ? [] : [view.turn]),
  sounds: { played: "card", trick_won: "take", hand_over: "reveal" },
  banners: { hand_over: true },
  narrate,
  score,
  breakdown: (index, total, { view, t }) => t("tricks.breakdown", { n: total, tricks: view?.tricks_won?.[index] ?? 0 }),
  replayHand,
  drawCard,
};
