// Timo's Twist at the table: the hand as a fan with legal cards marked, a colour chooser
// for black cards, TIMO! and catch buttons, draw and keep, direction, counts, scores.
const SYMBOLS = { blue: "♦", green: "♣", orange: "▲", pink: "♥", black: "★" };
const COLOURS = ["blue", "green", "orange", "pink"];

function rankText(t, rank) {
  const key = `timo.rank.${rank}`;
  const text = t(key);
  return text === key ? rank : text;
}

function cardFace(ctx, card, attrs = {}, tag = "div") {
  const { t, el } = ctx;
  const label = t("timo.card", { colour: t(`colour.${card.colour}`), rank: rankText(t, card.rank) });
  return el(tag, { class: `card c-${card.colour}`, "aria-label": label, title: label, ...attrs },
    el("span", { class: "sym", "aria-hidden": "true" }, SYMBOLS[card.colour]),
    el("span", { "aria-hidden": "true" }, rankText(t, card.rank)));
}

export function renderTimo(view, ctx) {
  const { t, el, local } = ctx;
  const legal = view.legal || [];
  const plays = legal.filter((a) => a.kind === "play");
  const root = el("div", { class: "timo" });
  const names = ctx.names;
  const turnName = names[view.turn] ?? "";
  const myTurn = view.turn === ctx.me;
  root.append(el("section", { class: "panel" },
    el("div", { class: "pile" },
      el("div", {}, el("div", {}, t("timo.discard")), cardFace(ctx, view.top)),
      el("div", {},
        el("p", {}, t("timo.colour_now"), " ", el("strong", {}, `${SYMBOLS[view.colour] || ""} ${t(`colour.${view.colour}`)}`)),
        el("p", {}, view.direction === 1 ? t("timo.clockwise") : t("timo.anticlockwise"), " ", el("span", { "aria-hidden": "true" }, view.direction === 1 ? "↻" : "↺")),
        el("p", { id: "turn" }, myTurn ? el("strong", {}, t("table.your_turn")) : t("table.turn_of", { name: turnName })),
        view.penalty ? el("p", {}, t("timo.penalty", { n: view.penalty })) : "",
        el("p", {}, t("timo.draw_pile", { n: view.draw_pile_size }), " · ", t("timo.round", { n: view.round })))),
    el("table", { class: "grid", "aria-label": t("timo.scores") },
      el("tr", {}, el("th", {}, t("table.player")), el("th", {}, t("timo.cards")), el("th", {}, t("table.score"))),
      view.hand_sizes.map((size, seat) => el("tr", {}, el("td", {}, names[seat] ?? seat),
        el("td", {}, size, view.exposed === seat ? ` · ${t("timo.exposed")}` : ""), el("td", {}, view.scores[seat]))))));

  if (ctx.me === null) return root;
  const sayTimo = plays.some((a) => a.payload.timo);
  if (local.sayTimo === undefined) local.sayTimo = false;
  const hand = el("div", { class: "hand", role: "group", "aria-label": t("timo.your_hand") });
  const count = view.hand.length;
  view.hand.forEach((card, index) => {
    const options = plays.filter((a) => a.payload.card === card.id);
    const tilt = count > 1 ? (index - (count - 1) / 2) * Math.min(6, 40 / count) : 0;
    hand.append(cardFace(ctx, card, {
      class: `card c-${card.colour}${options.length ? " legal" : ""}`, style: `--tilt:${tilt}deg`,
      disabled: !options.length, "data-key": `card-${card.id}`, "data-card": card.id,
      onclick: () => {
        if (options.some((a) => a.payload.colour)) { local.choosing = card.id; ctx.redraw(); return; }
        const wanted = options.find((a) => Boolean(a.payload.timo) === (local.sayTimo && sayTimo)) || options[0];
        local.sayTimo = false;
        ctx.act("play", wanted.payload);
      },
    }, "button"));
  });
  const buttons = el("div", { class: "row" });
  for (const action of legal) {
    if (action.kind === "draw") buttons.append(el("button", { "data-key": "draw", id: "draw", onclick: () => ctx.act("draw") }, t("timo.draw")));
    if (action.kind === "pass") buttons.append(el("button", { "data-key": "pass", id: "pass", onclick: () => ctx.act("pass") }, t("timo.keep")));
    if (action.kind === "call_timo") buttons.append(el("button", { class: "primary", "data-key": "call", id: "call-timo", onclick: () => ctx.act("call_timo") }, t("timo.call")));
    if (action.kind === "catch") buttons.append(el("button", { class: "primary", "data-key": `catch-${action.payload.target}`, "data-catch": action.payload.target,
      onclick: () => ctx.act("catch", action.payload) }, t("timo.catch", { name: names[action.payload.target] ?? "" })));
  }
  if (sayTimo) {
    buttons.append(el("label", {}, el("input", { type: "checkbox", id: "say-timo", checked: local.sayTimo,
      onchange: (e) => { local.sayTimo = e.target.checked; } }), " ", t("timo.say_timo")));
  }
  root.append(el("section", { class: "panel" }, el("h2", {}, t("timo.your_hand")), hand, buttons));
  if (local.choosing !== undefined && plays.some((a) => a.payload.card === local.choosing)) {
    const options = plays.filter((a) => a.payload.card === local.choosing);
    root.append(el("div", { class: "dialog", role: "dialog", "aria-label": t("timo.choose_colour") },
      el("p", {}, t("timo.choose_colour")),
      el("div", { class: "row" }, COLOURS.map((colour) => el("button", {
        class: `card c-${colour}`, "data-colour": colour, "data-key": `colour-${colour}`,
        onclick: () => {
          const wanted = options.find((a) => a.payload.colour === colour && Boolean(a.payload.timo) === (local.sayTimo && sayTimo))
            || options.find((a) => a.payload.colour === colour);
          local.choosing = undefined;
          local.sayTimo = false;
          ctx.act("play", wanted.payload);
        } }, el("span", { class: "sym", "aria-hidden": "true" }, SYMBOLS[colour]), t(`colour.${colour}`)))),
      el("button", { onclick: () => { local.choosing = undefined; ctx.redraw(); } }, t("common.cancel"))));
  } else {
    local.choosing = undefined;
  }
  return root;
}
