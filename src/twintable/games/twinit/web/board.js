// Twin It at the table: the centre as large as the screen allows, each seat's pile top and
// captured sets (through `renderTwinIt.seat`, inside the seat boxes), team panels, and
// motion an eye can follow (a new card flips in, a taken pair slides to the taker).
// A hand lands on `pointerdown` (Enter or Space on a focused card does the same); F flips
// your pile, S starts a time-attack round, T toggles turning cards over.
//
// A touch names the picture the person saw (RULES.md §3): the board is redrawn from every
// frame, so a card may change under a finger that was already on its way. A touch that
// lands within REACTION_MS (memory.js) of its slot's change names the picture shown before it; the
// server then refuses it as stale (`card.changed`, no penalty) instead of counting an
// error for a card the person never saw.
import { changedAt, hookResize, measure, memoryOf, noteLayout, plan, remember, replay, seenPicture, visibleNow } from "./memory.js";

const FRESH_MS = 1500;  // a changed card stays marked this long (the last move stays visible)

const drawings = new Map();  // picture id -> parsed SVG, cloned for each card (cheap)

function drawing(assets, pictureId) {
  if (!drawings.has(pictureId)) {
    const template = document.createElement("template");
    template.innerHTML = assets.pictures[pictureId];
    drawings.set(pictureId, template.content.firstElementChild);
  }
  return drawings.get(pictureId).cloneNode(true);
}

function clock(view) {
  // Server time now, from the view's time and when it arrived.
  return view.now_ms + (performance.now() - (view._arrived ?? performance.now()));
}

const isTimeAttack = (view) => view.mode === "coop" || view.mode === "timeattack";

// A picture's name in the reader's language (tooltips, screen readers): its family,
// from the English name the server sends ("fish (plain)"), and its variant, the
// picture's place in its family. The English name where a catalogue lacks a word.
const VARIANTS = 5;
export function pictureName(t, assets, pictureId) {
  const english = assets.names?.[pictureId] ?? "";
  const family = english.split(" (")[0];
  const word = t(`twinit.family.${family}`);
  const detail = t(`twinit.variant.${pictureId % VARIANTS}`);
  if (!family || word.startsWith("twinit.") || detail.startsWith("twinit.")) return english;
  return t("twinit.picture_name", { family: word, detail });
}

// -- the table helpers, made once per view and shared by the board and the seat boxes ------
const tables = new WeakMap();

function tableOf(view, ctx) {
  let table = tables.get(view);
  if (table && table.ctx === ctx) return table;
  const { local, el, assets, t } = ctx;
  const memory = memoryOf(local);
  const me = ctx.me;
  const legal = view.legal || [];
  const held = new Map(view.hands.map((h) => [h.card, h.seat]));
  const canTouch = new Set(legal.filter((a) => a.kind === "touch").map((a) => a.payload.card));
  const canTurn = new Set(legal.filter((a) => a.kind === "turn_over").map((a) => a.payload.card));
  const now = performance.now();
  const touch = (ref, time) => {
    const turning = local.turning && canTurn.has(ref);
    if (!turning && !canTouch.has(ref)) return;
    const picture = seenPicture(memory, ref, time);
    if (picture === null) return;
    ctx.act(turning ? "turn_over" : "touch", { card: ref, picture });
  };
  const card = (ref, pictureId, extra = "") => {
    const owner = held.get(ref);
    const mate = owner !== undefined && owner !== me && me !== null && view.mode === "team" && view.sides[owner] === view.sides[me];
    const state = owner === undefined ? "" : owner === me ? " held" : mate ? " held-mate" : " held-other";
    const since = now - changedAt(memory, ref);
    const fresh = since < FRESH_MS;
    const name = pictureName(t, assets, pictureId);
    // A replay draws the cards as pictures: nobody plays there, so no greyed-out buttons.
    const plain = Boolean(ctx.replay);
    return el(plain ? "span" : "button", {
      class: `tw-card${state}${fresh ? " ti-fresh" : ""}${extra ? ` ${extra}` : ""}`, "data-ref": ref,
      // The glow fades from the change on, across redraws.
      style: fresh ? `animation-delay:${-Math.round(since)}ms` : null, "data-picture": pictureId, "data-key": ref,
      role: plain ? "img" : null,
      "aria-label": name, title: name, "aria-pressed": plain ? null : owner === me ? "true" : "false",
      disabled: !plain && (me === null || (!canTouch.has(ref) && !canTurn.has(ref))),
      // The hand lands when the finger comes down: a frame redrawing the board between
      // press and release would otherwise swallow the click.
      onpointerdown: (event) => { if (event.button === 0 && event.isPrimary !== false) touch(ref, event.timeStamp || performance.now()); },
      // Keyboards (Enter, Space) and assistive technology click without a pointer.
      onclick: (event) => { if (event.detail === 0) touch(ref, performance.now()); },
    }, drawing(assets, pictureId));
  };
  table = { ctx, card, memory, me };
  tables.set(view, table);
  return table;
}

function teamName(t, side) { return t("twinit.team_name", { team: side + 1 }); }

function overText(view, ctx) {
  const { t } = ctx;
  if (view.mode === "coop") return t("twinit.over");
  if (view.mode === "team") {
    const sides = [...new Set(view.winners.map((seat) => view.sides[seat]))];
    return sides.length === 1 ? t("twinit.team_won", { team: sides[0] + 1 }) : t("twinit.over");
  }
  const names = view.winners.map((seat) => ctx.names[seat] ?? String(seat));
  return names.length ? t("twinit.won", { names: ctx.joinNames(names), n: names.length }) : t("twinit.over");
}

function keyHint(el, key) { return el("kbd", { class: "kbd-hint", "aria-hidden": "true" }, key); }

function setCards(ctx, table, side, sets) {
  const { el } = ctx;
  return sets.map((set, index) => el("span", { class: `ti-set${set.cards === 3 ? " ti-three" : ""}` },
    table.card(`s${side}.${index}`, set.picture), set.cards === 3 ? el("span", { class: "ti-badge", "aria-hidden": "true" }, "×3") : ""));
}

function tabooCards(ctx, table, side, row) {
  const { el, t } = ctx;
  if (!row || !row.length) return "";
  return el("div", { class: "ti-taboo" }, el("span", { class: "ti-label" }, t("twinit.taboo")),
    row.map((picture, index) => table.card(`t${side}.${index}`, picture)));
}

// -- the board ---------------------------------------------------------------------------------
export function renderTwinIt(view, ctx) {
  const { t, el, local } = ctx;
  if (view._arrived === undefined) view._arrived = performance.now();
  const memory = memoryOf(local);
  const now = performance.now();
  const pictures = visibleNow(view);
  const changed = remember(memory, pictures, now);
  const motion = plan(memory, view, now, changed);
  memory.first = false;
  memory.last = { pictures, sets: view.sets.map((s) => s.length), piles: view.piles.map((p) => ({ ...p })), hands: view.hands };
  const table = tableOf(view, ctx);
  const me = ctx.me;
  const legal = view.legal || [];
  const over = view.phase === "over";
  const names = ctx.names;

  const bar = el("section", { class: "panel ti-bar" }, el("span", { class: "ti-mode" }, t(`choice.${view.mode}`)));
  // Team scores stand in the team panels below.
  const scoreLine = view.mode === "team" ? ""
    : view.mode === "coop" ? t("twinit.points", { n: view.scores[0] })
      : view.mode === "timeattack" ? view.scores.map((score, s) => `${names[s] ?? s}: ${score}`).join(" · ")
        : t("twinit.target", { n: view.options.sets_to_win });
  if (scoreLine) bar.append(el("span", { id: "scores", class: "ti-scores" }, scoreLine));
  if (over) {
    bar.append(el("strong", { id: "ti-over", class: "ti-over", role: "status" }, overText(view, ctx)));
    if (view.level) bar.append(el("strong", { id: "level" }, t("twinit.level", { level: t(`twinit.level.${view.level}`) })));
  } else {
    if (view.ends_ms) bar.append(el("span", { class: "timer", id: "timer", "aria-label": t("twinit.time_left") }, ""));
    if (view.turn !== null && view.turn !== undefined && view.phase === "play") {
      bar.append(el("span", { id: "turn", class: view.turn === me ? "ti-turn-mine" : "" },
        view.turn === me ? el("strong", {}, t("twinit.your_flip")) : t("table.turn_of", { name: names[view.turn] ?? "" })));
    }
    if (legal.some((a) => a.kind === "flip")) {
      bar.append(el("button", { class: "primary ti-flip", id: "flip", "data-key": "flip", onclick: () => ctx.act("flip") },
        t("twinit.flip_card"), " ", keyHint(el, "F")));
    }
    if (legal.some((a) => a.kind === "start")) {
      bar.append(el("button", { class: "primary", id: "start-round", "data-key": "start", onclick: () => ctx.act("start") },
        t("twinit.start_round", { n: view.round }), " ", keyHint(el, "S")));
    }
    if (me !== null && isTimeAttack(view) && view.phase === "play") {
      bar.append(el("label", { class: "ti-turning" }, el("input", { type: "checkbox", id: "turning", checked: Boolean(local.turning),
        onchange: (e) => { local.turning = e.target.checked; } }), " ", t("twinit.turn_over_mode"), " ", keyHint(el, "T")));
    }
  }
  // tt-live: the page folds its header away on a phone while a person plays (style.css).
  const live = ctx.me !== null && !over;
  const root = el("div", { class: `twinit ti-board${over ? " ti-ended" : ""}${live ? " tt-live" : ""}` }, bar);

  // Team play: each team's sets and taboo cards in a panel that names its members.
  if (view.mode === "team") {
    root.append(el("div", { class: "ti-teams" }, [0, 1].map((side) => {
      const members = view.sides.map((s, seat) => (s === side ? seat : null)).filter((seat) => seat !== null);
      const mine = me !== null && view.sides[me] === side;
      return el("section", { class: `ti-team ti-side-${side}${mine ? " ti-mine" : ""}`, "data-side": side, "aria-label": teamName(t, side) },
        el("div", { class: "ti-team-head" }, el("strong", {}, teamName(t, side)), " ",
          el("span", { class: "ti-members" }, ctx.joinNames(members.map((seat) => names[seat] ?? String(seat)))), " · ",
          t("twinit.sets", { n: view.sets[side].length })),
        el("div", { class: "ti-sets" }, setCards(ctx, table, side, view.sets[side])),
        tabooCards(ctx, table, side, view.taboo[side]));
    })));
  } else if (view.mode === "coop" && view.sets[0].length) {
    root.append(el("section", { class: "ti-team ti-together", "data-side": 0 },
      el("div", { class: "ti-team-head" }, el("strong", {}, t("twinit.together")), " · ", t("twinit.sets", { n: view.sets[0].length })),
      el("div", { class: "ti-sets" }, setCards(ctx, table, 0, view.sets[0]))));
  }

  const sized = measure(memory, view.centre.length);
  hookResize(memory);
  // On a wide screen the shell lays the centre on the felt, between the seats.
  const centre = el("div", { class: `tw-centre ti-centre${over ? " ti-ended" : ""}`, "data-felt": "", role: "group", "aria-label": t("twinit.centre"),
    "data-slots": view.centre.length, style: `--ti-size:${sized.size}px;--ti-cols:${sized.cols}` });
  view.centre.forEach((pictureId, slot) => {
    centre.append(pictureId === null ? el("div", { class: "tw-empty", "data-slot": `c${slot}`, "aria-hidden": "true" }) : table.card(`c${slot}`, pictureId));
  });
  root.append(centre);

  // Where no seat boxes are drawn (the replay viewer), the piles sit under the centre.
  if (!isTimeAttack(view) && !local.twinitSeats && !document.querySelector(".seats")) {
    root.append(el("div", { class: "ti-strip" }, view.piles.map((_, seat) => el("div", { class: "ti-strip-seat" },
      el("strong", {}, names[seat] ?? String(seat)), seatBox(view, seat, ctx)))));
  }
  queueMicrotask(() => {
    for (const step of motion) step();
    replay(memory);
  });
  noteLayout(memory);
  return root;
}

// -- a seat box: what everyone sees of this seat -----------------------------------------
renderTwinIt.seat = (view, seat, ctx) => {
  ctx.local.twinitSeats = true;  // the page draws seat boxes: the board leaves the piles to them
  return seatBox(view, seat, ctx);
};

function seatBox(view, seat, ctx) {
  const { t, el } = ctx;
  const table = tableOf(view, ctx);
  const pile = view.piles[seat];
  const side = view.sides[seat];
  const root = el("div", { class: `ti-seat${view.turn === seat && view.phase === "play" ? " ti-turn" : ""}`, "data-ti-seat": seat });
  if (view.mode === "team") root.append(el("span", { class: `ti-chip ti-side-${side}` }, teamName(t, side)));
  if (!isTimeAttack(view) && pile) {
    root.append(el("div", { class: "ti-pile" },
      pile.top !== null ? table.card(`p${seat}`, pile.top, "ti-top") : el("div", { class: "ti-pile-empty", "aria-hidden": "true" }),
      el("span", { class: "ti-count" }, t("twinit.cards", { n: pile.cards }))));
  }
  // Sets belong to the seat in competitive play and time attack; teams keep theirs in the
  // team panels on the board.
  if (view.mode === "competitive" || view.mode === "timeattack") {
    const sets = view.sets[side] || [];
    root.append(el("div", { class: "ti-sets", "aria-label": t("twinit.sets", { n: sets.length }) },
      el("span", { class: "ti-label" }, t("twinit.sets", { n: sets.length })), setCards(ctx, table, side, sets)));
    root.append(tabooCards(ctx, table, side, view.taboo[side]));
  }
  return root;
}

renderTwinIt.tick = (board, view) => {
  const timer = board.querySelector("#timer");
  if (timer && view.ends_ms) {
    const left = Math.max(0, Math.ceil((view.ends_ms - clock(view)) / 1000));
    timer.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }
};

renderTwinIt.key = (event, view, ctx) => {
  if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const legal = view.legal || [];
  const key = event.key.toLowerCase();
  if (key === "f" && legal.some((a) => a.kind === "flip")) ctx.act("flip");
  else if (key === "s" && legal.some((a) => a.kind === "start")) ctx.act("start");
  else if (key === "t" && isTimeAttack(view)) { ctx.local.turning = !ctx.local.turning; ctx.redraw(); }
};
