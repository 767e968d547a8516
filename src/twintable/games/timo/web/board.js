// Timo's Twist at the table: a felt centre with the draw pile, the discard pile and the
// direction of play; the hand as an overlapping fan with the legal cards raised; a colour
// sheet over the table for black cards; TIMO! and catch buttons; what the others see of
// each seat (a fan of card backs, the score, TIMO! or caught) through `renderTimo.seat`.
import { cardFace, COLOURS, SYMBOLS } from "./pictures.js";

const MOTION_MS = 380;

// An animation that started on an earlier render carries on where it was: the board is
// redrawn from every frame, so a new element resumes with a negative delay.
function motion(local, key, start) {
  local.motions = local.motions || {};
  const now = performance.now();
  if (start) local.motions[key] = now;
  const since = local.motions[key] === undefined ? Infinity : now - local.motions[key];
  if (since >= MOTION_MS) { delete local.motions[key]; return null; }
  return `animation-delay:${-Math.round(since)}ms`;
}

function cardBack(el, extra = "") {
  return el("span", { class: `tm-back ${extra}`.trim(), "aria-hidden": "true" });
}

// Where a card played by `seat` comes from, seen from this screen: the player's own cards
// rise from the hand below, the others' come from across the table.
function origin(view, ctx, seat) {
  const n = view.players;
  const me = ctx.me ?? 0;
  if (seat === ctx.me) return "--from-x:0px;--from-y:160px";
  const rel = ((seat - me) % n + n) % n;
  const x = Math.round(((rel - n / 2) / Math.max(1, n - 1)) * 320);
  return `--from-x:${x}px;--from-y:-170px`;
}

// The team of each seat (0, 1, ...) from the table's `teams` option ("alternate" or a
// team number per seat), or null when everyone plays for themselves.
export function teamsOf(options, players) {
  const value = options ? options.teams : null;
  if (value === "alternate") return Array.from({ length: players }, (_, seat) => seat % 2);
  return Array.isArray(value) && value.length === players ? value.map((team) => team - 1) : null;
}

// The seats that won: the last round's winner, and with teams every partner of theirs.
function winners(view) {
  const winner = view.winner ?? view.scores.indexOf(Math.max(...view.scores));
  const teams = teamsOf(view.options, view.players);
  return teams ? teams.flatMap((team, seat) => (team === teams[winner] ? [seat] : [])) : [winner];
}

function prompt(view, ctx) {
  const { t, el } = ctx;
  if (view.over) {
    const won = winners(view);
    const names = ctx.joinNames(won.map((seat) => ctx.names[seat] ?? ""));
    const line = won.length > 1
      ? (won.includes(ctx.me) ? t("timo.your_team_wins") : t("timo.team_wins", { names }))
      : won[0] === ctx.me ? t("timo.you_win") : t("timo.winner", { name: ctx.names[won[0]] ?? "" });
    return el("p", { id: "turn", class: "tm-prompt tm-done" }, el("strong", {}, t("timo.game_over")), " ", line);
  }
  if (view.turn === ctx.me) return el("p", { id: "turn", class: "tm-prompt tm-mine" }, el("strong", {}, t("table.your_turn")));
  return el("p", { id: "turn", class: "tm-prompt" }, t("table.turn_of", { name: ctx.names[view.turn] ?? "" }));
}

function act(ctx, kind, payload) {
  ctx.local.sayTimo = false;
  ctx.act(kind, payload);
}

function playCard(ctx, plays, sayTimo, cardId) {
  const { local } = ctx;
  const options = plays.filter((a) => a.payload.card === cardId);
  if (!options.length) return;
  if (options.some((a) => a.payload.colour)) {
    local.choosing = cardId;
    local.focusChooser = true;
    ctx.redraw();
    return;
  }
  const wanted = options.find((a) => Boolean(a.payload.timo) === (local.sayTimo && sayTimo)) || options[0];
  act(ctx, "play", wanted.payload);
}

function cancelChooser(ctx) {
  const { local } = ctx;
  const card = local.choosing;
  local.choosing = undefined;
  ctx.redraw();
  // Back to the card that opened the sheet, so the keyboard stays where it was.
  const again = document.querySelector(`[data-key="card-${card}"]`);
  if (again) again.focus();
}

function chooser(view, ctx, plays, sayTimo) {
  const { t, el, local } = ctx;
  const options = plays.filter((a) => a.payload.card === local.choosing);
  const card = view.hand.find((c) => c.id === local.choosing);
  const swatches = COLOURS.map((colour, index) => el("button", {
    class: `tm-swatch c-${colour}`, "data-colour": colour, "data-key": `colour-${colour}`,
    onclick: () => {
      const wanted = options.find((a) => a.payload.colour === colour && Boolean(a.payload.timo) === (local.sayTimo && sayTimo))
        || options.find((a) => a.payload.colour === colour);
      local.choosing = undefined;
      act(ctx, "play", wanted.payload);
    } },
  el("span", { class: "sym", "aria-hidden": "true" }, SYMBOLS[colour]), el("span", {}, t(`colour.${colour}`)),
  el("kbd", { class: "kbd-hint" }, String(index + 1))));
  const sheet = el("div", { class: "tm-sheet", role: "dialog", "aria-modal": "true", "aria-labelledby": "tm-sheet-title",
    onkeydown: (event) => {
      if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); cancelChooser(ctx); return; }
      if (event.key === "Tab") {  // the keyboard stays inside the sheet while it is open
        const items = [...sheet.querySelectorAll("button")];
        const at = items.indexOf(document.activeElement);
        const next = (at + (event.shiftKey ? -1 : 1) + items.length) % items.length;
        event.preventDefault();
        items[next].focus();
      }
    } },
  el("h2", { id: "tm-sheet-title" }, t("timo.choose_colour")),
  card ? cardFace(ctx, card, { class: "tm-chosen" }) : "",
  el("div", { class: "tm-swatches" }, swatches),
  el("button", { class: "tm-cancel", "data-key": "colour-cancel", onclick: () => cancelChooser(ctx) },
    t("common.cancel"), " ", el("kbd", { class: "kbd-hint" }, "Esc")));
  const backdrop = el("div", { class: "tm-backdrop", onclick: (event) => { if (event.target === backdrop) cancelChooser(ctx); } }, sheet);
  if (local.focusChooser) {
    local.focusChooser = false;
    // After the table has put the page's focus back where it was: the sheet takes it.
    requestAnimationFrame(() => { const first = sheet.querySelector("[data-colour]"); if (first && first.isConnected) first.focus(); });
  }
  return backdrop;
}

export function renderTimo(view, ctx) {
  const { t, el, local } = ctx;
  const legal = view.legal || [];
  const plays = legal.filter((a) => a.kind === "play");
  const sayTimo = plays.some((a) => a.payload.timo);
  const live = !view.over && ctx.me !== null;
  const root = el("div", { class: `timo tm-table${view.over ? " tm-over" : ""}${live ? " tt-live" : ""}` });

  // What changed since the last frame: the top of the discard pile, the cards in hand.
  const fresh = local.round !== view.round;
  const newTop = !fresh && local.topId !== undefined && local.topId !== view.top.id;
  if (newTop) local.topFrom = origin(view, ctx, local.lastTurn ?? view.turn);
  const seen = new Set(local.handIds || []);
  const arrived = fresh || !local.handIds ? [] : view.hand.filter((c) => !seen.has(c.id)).map((c) => c.id);
  local.round = view.round;
  local.topId = view.top.id;
  local.lastTurn = view.turn;
  local.handIds = view.hand.map((c) => c.id);

  // -- the felt: draw pile, discard pile, direction, whose turn --------------------------
  const canDraw = legal.some((a) => a.kind === "draw");
  const drawPile = el(canDraw ? "button" : "div", {
    class: `tm-drawpile${canDraw ? " tm-can" : ""}`, "data-key": "draw-pile",
    "aria-label": `${t("timo.draw")} · ${t("timo.draw_pile", { n: view.draw_pile_size })}`,
    onclick: canDraw ? () => act(ctx, "draw") : undefined },
  el("span", { class: "tm-stack", "aria-hidden": "true" }, cardBack(el), cardBack(el), cardBack(el)),
  el("span", { class: "tm-pile-count" }, t("timo.draw_pile", { n: view.draw_pile_size })));
  const arriving = motion(local, `top-${view.top.id}`, newTop);
  const under = view.discard.length > 1 ? view.discard[view.discard.length - 2] : null;
  const discard = el("div", { class: "tm-discard", "aria-label": t("timo.discard"), role: "group" },
    under ? cardFace(ctx, under, { class: "tm-under", "aria-hidden": "true" }) : "",
    cardFace(ctx, view.top, { class: `tm-top${arriving ? " tm-arrive" : ""}`, id: "top-card",
      style: arriving ? `${local.topFrom || ""};${arriving}` : undefined }),
    el("span", { class: "tm-pile-count" }, t("timo.discard")));
  const clockwise = view.direction === 1;
  const follow = el("p", { class: `tm-follow c-${view.colour}` },
    el("span", { class: "tm-follow-label" }, t("timo.colour_now")), " ",
    el("strong", {}, `${SYMBOLS[view.colour] || ""} ${t(`colour.${view.colour}`)}`));
  root.append(el("section", { class: "tm-felt", "data-felt": "", "aria-label": t("timo.table") },
    el("div", { class: `tm-direction ${clockwise ? "tm-cw" : "tm-ccw"}`, title: clockwise ? t("timo.clockwise") : t("timo.anticlockwise") },
      el("span", { class: "tm-arrow", "aria-hidden": "true" }, clockwise ? "↻" : "↺"),
      el("span", { class: "tm-dir-label" }, clockwise ? t("timo.clockwise") : t("timo.anticlockwise"))),
    el("div", { class: "tm-piles" }, drawPile, discard),
    el("div", { class: "tm-status" },
      prompt(view, ctx),
      view.over ? "" : follow,
      !view.over && view.penalty ? el("p", { class: "tm-penalty" }, t("timo.penalty", { n: view.penalty })) : "",
      el("p", { class: "tm-round" }, t("timo.round", { n: view.round })))));

  if (ctx.me === null) return root;

  // -- the hand: an overlapping fan, legal cards raised --------------------------------
  if (local.sayTimo === undefined || !sayTimo) local.sayTimo = false;
  const count = view.hand.length;
  const hand = el("div", { class: "hand tm-hand", role: "group", "aria-label": t("timo.your_hand"), style: `--n:${Math.max(count, 1)}` });
  view.hand.forEach((card, index) => {
    const playable = !view.over && plays.some((a) => a.payload.card === card.id);
    const tilt = count > 1 ? (index - (count - 1) / 2) * Math.min(4, 24 / count) : 0;
    const drawn = motion(local, `drawn-${card.id}`, arrived.includes(card.id));
    hand.append(cardFace(ctx, card, {
      class: `${playable ? "legal" : ""}${drawn ? " tm-new" : ""}`, style: `--tilt:${tilt.toFixed(2)}deg${drawn ? `;${drawn}` : ""}`,
      disabled: !playable, "data-key": `card-${card.id}`, "data-card": card.id,
      onclick: () => playCard(ctx, plays, sayTimo, card.id),
    }, "button"));
  });

  const actions = el("div", { class: "tm-actions" });
  const names = ctx.names;
  for (const action of legal) {
    if (action.kind === "call_timo") actions.append(el("button", { class: "primary tm-shout", "data-key": "call", id: "call-timo", onclick: () => act(ctx, "call_timo") },
      t("timo.call"), " ", el("kbd", { class: "kbd-hint" }, "T")));
    if (action.kind === "catch") actions.append(el("button", { class: "primary tm-shout", "data-key": `catch-${action.payload.target}`, "data-catch": action.payload.target,
      onclick: () => act(ctx, "catch", action.payload) }, t("timo.catch", { name: names[action.payload.target] ?? "" })));
  }
  if (sayTimo) {
    actions.append(el("button", { id: "say-timo", class: `tm-say${local.sayTimo ? " on" : ""}`, "data-key": "say-timo", "aria-pressed": local.sayTimo ? "true" : "false",
      onclick: () => { local.sayTimo = !local.sayTimo; ctx.redraw(); } }, t("timo.say_timo"), " ", el("kbd", { class: "kbd-hint" }, "T")));
  }
  if (canDraw) actions.append(el("button", { "data-key": "draw", id: "draw", onclick: () => act(ctx, "draw") }, t("timo.draw"), " ", el("kbd", { class: "kbd-hint" }, "D")));
  if (legal.some((a) => a.kind === "pass")) {
    actions.append(el("button", { "data-key": "pass", id: "pass", onclick: () => act(ctx, "pass") }, t("timo.keep"), " ", el("kbd", { class: "kbd-hint" }, "K")));
  }
  if (!actions.childNodes.length && live && view.turn === ctx.me && plays.length) {
    actions.append(el("p", { class: "tm-hint" }, t("timo.play_hint")));
  }
  root.append(el("section", { class: `tm-me${view.turn === ctx.me && live ? " tm-my-turn" : ""}`, "aria-label": t("timo.your_hand") }, actions, hand));

  if (local.choosing !== undefined && live && plays.some((a) => a.payload.card === local.choosing)) {
    root.append(chooser(view, ctx, plays, sayTimo));
  } else {
    local.choosing = undefined;
  }
  return root;
}

// Keys for a person at a keyboard (the hints are hidden on touch screens): D draws,
// K keeps the drawn card, T calls TIMO!, 1-4 choose a colour, Escape closes the sheet.
renderTimo.key = (event, view, ctx) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
  const { local } = ctx;
  const legal = view.legal || [];
  const key = event.key.toLowerCase();
  if (local.choosing !== undefined) {
    if (key === "escape") { event.preventDefault(); cancelChooser(ctx); return; }
    const colour = COLOURS[Number(key) - 1];
    const swatch = colour && document.querySelector(`[data-colour="${colour}"]`);
    if (swatch) { event.preventDefault(); swatch.click(); }
    return;
  }
  const has = (kind) => legal.find((a) => a.kind === kind);
  if (key === "d" && has("draw")) { event.preventDefault(); act(ctx, "draw"); }
  else if (key === "k" && has("pass")) { event.preventDefault(); act(ctx, "pass"); }
  else if (key === "t" && has("call_timo")) { event.preventDefault(); act(ctx, "call_timo"); }
  else if (key === "t" && legal.some((a) => a.kind === "play" && a.payload.timo)) {
    event.preventDefault(); local.sayTimo = !local.sayTimo; ctx.redraw();
  }
};

// What everyone sees of a seat: a fan of card backs with the count, the score, and the
// TIMO! state (called, or forgotten and open to a catch).
renderTimo.seat = (view, seat, ctx) => {
  const { t, el } = ctx;
  const size = view.hand_sizes[seat] ?? 0;
  const shown = Math.min(size, 12);
  const fan = el("span", { class: "tm-fan", "aria-hidden": "true", style: `--n:${shown}` },
    Array.from({ length: shown }, (_, i) => el("span", { class: "tm-back", style: `--i:${i}` })));
  const flags = [];
  const teams = teamsOf(view.options, view.players);
  if (teams) flags.push(el("span", { class: `tm-flag tm-team tm-team-${teams[seat] + 1}` }, t("table.team_n", { n: teams[seat] + 1 })));
  if (view.over && winners(view).includes(seat)) flags.push(el("span", { class: "tm-flag tm-won" }, `★ ${t("timo.won")}`));
  else if (!view.over && view.exposed === seat) flags.push(el("span", { class: "tm-flag tm-exposed" }, t("timo.exposed")));
  else if (!view.over && size === 1) flags.push(el("span", { class: "tm-flag tm-called" }, t("timo.call")));
  if (!view.over && view.dealer === seat) flags.push(el("span", { class: "tm-flag tm-dealer" }, t("timo.dealer")));
  return el("div", { class: `tm-seat${size === 1 ? " tm-last" : ""}` },
    el("span", { class: "tm-seat-hand" }, fan, el("span", { class: "tm-count" }, t("timo.cards_n", { n: size }))),
    el("span", { class: "tm-score" }, t("timo.points", { n: view.scores[seat] ?? 0 })),
    flags);
};
