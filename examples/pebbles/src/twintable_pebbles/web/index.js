// Pebbles in the browser: the game's side of Twin Table's client interface
// (src/twintable/web/README.md in Twin Table). Everything comes from the views and events
// of twintable_pebbles; the shell draws the seats, the log and the results.

// The heap as a row of stones, labelled with its count for screen readers.
function heapOf(ctx, count) {
  const { t, el } = ctx;
  return el("div", { class: "pb-heap", role: "img", "aria-label": t("pebbles.heap_n", { n: count }) },
    Array.from({ length: count }, () => el("span", { class: "pb-stone", "aria-hidden": "true" })));
}

function statusLine(view, ctx) {
  const { t, el } = ctx;
  if (view.over) return el("strong", {}, t("pebbles.game_over"));
  if (view.turn === ctx.me) return el("strong", {}, t("pebbles.your_turn", { n: view.options.max_take }));
  return t("pebbles.to_play", { name: ctx.names[view.turn] ?? "" });
}

export function renderPebbles(view, ctx) {
  const { t, el } = ctx;
  const root = el("div", { class: `pebbles${!view.over && ctx.me !== null ? " tt-live" : ""}` });
  // The heap belongs in the middle of the table: a wide screen lays it on the felt.
  root.append(el("section", { class: "pb-felt", "data-felt": "", id: "heap", "aria-label": t("pebbles.table") },
    el("div", { class: "pb-status", id: "turn" },
      el("span", { class: "pb-left" }, t("pebbles.heap_n", { n: view.heap })),
      view.options.last_loses ? el("span", { class: "pb-rule" }, t("pebbles.last_loses")) : "",
      el("span", {}, statusLine(view, ctx))),
    heapOf(ctx, view.heap)));
  const legal = view.legal || [];
  if (ctx.me === null || view.over || !legal.length) return root;
  root.append(el("section", { class: "pb-moves", role: "group", "aria-label": t("pebbles.your_move") },
    legal.map((action) => el("button", {
      class: "pb-take", "data-key": `take-${action.payload.count}`,
      onclick: () => ctx.act("take", { count: action.payload.count }) },
    t("pebbles.take_n", { n: action.payload.count })))));
  return root;
}

// What everyone sees of a seat: the pebbles it has taken, and the winners at the end.
function seat(view, index, ctx) {
  const { t, el } = ctx;
  return el("div", { class: "pb-seat" },
    el("span", { class: "pb-taken" }, t("pebbles.taken_n", { n: view.taken[index] ?? 0 })),
    view.over && view.winners.includes(index) ? el("span", { class: "pb-flag" }, `★ ${t("pebbles.won")}`) : "");
}

function narrate(event, { line, who, actor }) {
  const data = event.data || {};
  switch (event.kind) {
    case "took": return line("took", { name: who(data.seat ?? actor), n: data.count, left: data.left });
    case "game_over": return undefined; // the shell's "… wins!" from data.winners
    default: return null;
  }
}

export default {
  styles: ["pebbles.css"],
  facts: { players: 2 },
  // The lobby's picture: a small heap.
  picture(box, ctx) {
    box.replaceChildren(ctx.el("span", { class: "lb-card pebbles" }, heapOf(ctx, 7)));
  },
  render: renderPebbles,
  seat,
  isOver: (view) => view.over,
  whoActs: (view) => (view.over ? [] : [view.turn]),
  sounds: { took: "card" },
  narrate,
  breakdown: (index, total, { view, t }) => t("pebbles.taken_n", { n: view?.taken?.[index] ?? 0 }),
  // Nothing is hidden: the replay has no hands to show.
  replayHand: () => null,
};
