// Twins at the table: the hand, the buy step, pick two and commit, the reveal of every
// set this hand, chips and the bank.
const SYMBOLS = { red: "●", orange: "◆", yellow: "▲", green: "♣", blue: "■", purple: "★" };

function cardFace(ctx, card, attrs = {}, tag = "div") {
  const { t, el } = ctx;
  const label = t("twins.card", { colour: t(`colour.${card.colour}`), value: card.value, ink: t(`twins.ink.${card.ink}`) });
  return el(tag, { class: `card c-${card.colour} ink-${card.ink}`, "aria-label": label, title: label, ...attrs },
    el("span", { class: "sym", "aria-hidden": "true" }, SYMBOLS[card.colour]),
    el("span", { class: "val", "aria-hidden": "true" }, card.value));
}

// Where a revealed set placed in its round: 1 is the strongest (sets are ranked by the
// server's set strength, sent as "strength" when known, else by card values).
function rankLabel(ctx, view, set) {
  const same = view.played.filter((other) => other.round === set.round);
  if (same.length < 2 || set.rank === undefined) return "";
  const place = 1 + same.filter((other) => other.rank > set.rank).length;
  return ` ${ctx.t(`twins.set.${set.set}`)} · #${place}`;
}

export function renderTwins(view, ctx) {
  const { t, el, local } = ctx;
  const names = ctx.names;
  const legal = view.legal || [];
  const root = el("div", { class: "twins" });
  root.append(el("section", { class: "panel" },
    el("p", {}, t("twins.hand_round", { hand: view.hand_no, round: view.round })),
    el("p", {}, t("twins.bank", { n: view.bank })),
    el("table", { class: "grid", "aria-label": t("twins.chips") },
      el("tr", {}, el("th", {}, t("table.player")), el("th", {}, t("twins.chips")), el("th", {}, t("twins.cards")), el("th", {}, "")),
      view.chips.map((chips, seat) => el("tr", {}, el("td", {}, names[seat] ?? seat), el("td", {}, chips),
        el("td", {}, view.hand_sizes[seat]),
        el("td", {}, view.out[seat] ? t("twins.out") : view.sitting_out[seat] ? t("twins.sitting_out")
          : view.committed[seat] ? t("twins.committed") : view.phase === "buy" && view.buyer === seat ? t("twins.buying") : ""))))));
  const cash = view.cash_card;
  root.append(el("section", { class: "panel", id: "cash-card" }, el("h2", {}, t("twins.cash_card")),
    el("ol", {}, el("li", {}, t("twins.cash.round1", cash.round1)), el("li", {}, t("twins.cash.round2", cash.round2)),
      el("li", {}, t("twins.cash.round3", cash.round3)), el("li", {}, t("twins.cash.round4")))));
  if (view.played.length) {
    root.append(el("section", { class: "panel", id: "reveals" }, el("h2", {}, t("twins.revealed")),
      view.played.map((set) => el("div", { class: "row" }, el("span", {}, t("twins.round_of", { round: set.round, name: names[set.seat] ?? "" })),
        set.cards.map((card) => cardFace(ctx, card)), el("span", {}, rankLabel(ctx, view, set))))));
  }
  if (ctx.me === null) return root;
  const buys = legal.filter((a) => a.kind === "buy");
  const picks = legal.filter((a) => a.kind === "pick");
  local.picked = (local.picked || []).filter((id) => view.hand.some((c) => c.id === id));
  const hand = el("div", { class: "hand", role: "group", "aria-label": t("twins.your_hand") },
    view.hand.map((card) => cardFace(ctx, card, {
      class: `card c-${card.colour} ink-${card.ink}${local.picked.includes(card.id) ? " picked" : ""}${picks.length ? " legal" : ""}`,
      "aria-pressed": local.picked.includes(card.id) ? "true" : "false", disabled: !picks.length,
      "data-key": `card-${card.id}`, "data-card": card.id,
      onclick: () => {
        local.picked = local.picked.includes(card.id) ? local.picked.filter((id) => id !== card.id) : [...local.picked, card.id].slice(-2);
        ctx.redraw();
      } }, "button")));
  const pair = [...local.picked].sort((a, b) => a - b);
  const chosen = picks.find((a) => a.payload.cards[0] === pair[0] && a.payload.cards[1] === pair[1]);
  const controls = el("div", { class: "row" });
  for (const action of buys) {
    controls.append(el("button", { "data-buy": action.payload.count, "data-key": `buy-${action.payload.count}`,
      onclick: () => ctx.act("buy", action.payload) }, t(`twins.buy.${action.payload.count}`)));
  }
  if (picks.length) {
    controls.append(el("button", { class: "primary", id: "commit", "data-key": "commit", disabled: !chosen,
      onclick: () => { local.picked = []; ctx.act("pick", chosen.payload); } }, t("twins.commit")));
    controls.append(el("span", {}, t("twins.pick_two")));
  }
  if (view.my_pick) controls.append(el("span", {}, t("twins.your_pick"), " ", view.my_pick.map((card) => cardFace(ctx, card))));
  root.append(el("section", { class: "panel" }, el("h2", {}, t("twins.your_hand")), hand, controls));
  return root;
}
