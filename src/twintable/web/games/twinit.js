// Twin It at the table: the centre, piles, sets and taboo cards drawn from the generated
// SVG art. Each click or tap is a hand (Enter or Space on a focused card does the same);
// F flips your pile, S starts a time-attack round, T toggles turning cards over.
const drawings = new Map();  // picture id -> parsed SVG, cloned for each card (cheap)

function drawing(assets, pictureId) {
  if (!drawings.has(pictureId)) {
    const template = document.createElement("template");
    template.innerHTML = assets.pictures[pictureId];
    drawings.set(pictureId, template.content.firstElementChild);
  }
  return drawings.get(pictureId).cloneNode(true);
}

function picture(ctx, ref, pictureId, extra = {}) {
  const { el, assets } = ctx;
  const name = assets.names[pictureId];
  return el("button", { class: "tw-card", "data-ref": ref, "data-picture": pictureId, "data-key": ref,
    "aria-label": name, title: name, ...extra }, drawing(assets, pictureId));
}

function clock(view) {
  // Server time now, from the view's time and when it arrived.
  return view.now_ms + (performance.now() - (view._arrived ?? performance.now()));
}

export function renderTwinIt(view, ctx) {
  const { t, el, local } = ctx;
  if (view._arrived === undefined) view._arrived = performance.now();
  const names = ctx.names;
  const legal = view.legal || [];
  const me = ctx.me;
  const held = new Map(view.hands.map((h) => [h.card, h.seat]));
  const canTouch = new Set(legal.filter((a) => a.kind === "touch").map((a) => a.payload.card));
  const canTurn = new Set(legal.filter((a) => a.kind === "turn_over").map((a) => a.payload.card));
  const act = (ref, pictureId) => {
    if (local.turning && canTurn.has(ref)) ctx.act("turn_over", { card: ref, picture: pictureId });
    else if (canTouch.has(ref)) ctx.act("touch", { card: ref, picture: pictureId });
  };
  const card = (ref, pictureId) => {
    const owner = held.get(ref);
    const cls = owner === undefined ? "tw-card" : owner === me ? "tw-card held" : "tw-card held-other";
    return picture(ctx, ref, pictureId, { class: cls, disabled: me === null || (!canTouch.has(ref) && !canTurn.has(ref)),
      "aria-pressed": owner === me ? "true" : "false", onclick: () => act(ref, pictureId) });
  };
  const root = el("div", { class: "twinit" });
  const side = (seat) => view.sides[seat];
  const scoreLine = view.mode === "team"
    ? [0, 1].map((team) => t("twinit.team_score", { team: team + 1, n: view.scores[team] })).join(" · ")
    : view.mode === "coop" ? t("twinit.points", { n: view.scores[0] })
      : view.scores.map((score, s) => `${names[s] ?? s}: ${score}`).join(" · ");
  const top = el("section", { class: "panel row" },
    el("span", {}, t(`choice.${view.mode}`)), el("strong", { id: "scores" }, scoreLine),
    view.ends_ms ? el("span", { class: "timer", id: "timer", "aria-label": t("twinit.time_left") }, "") : "",
    view.turn !== null && view.turn !== undefined ? el("span", { id: "turn" },
      view.turn === me ? el("strong", {}, t("twinit.your_flip")) : t("table.turn_of", { name: names[view.turn] ?? "" })) : "");
  if (legal.some((a) => a.kind === "flip")) {
    top.append(el("button", { class: "primary", id: "flip", "data-key": "flip", onclick: () => ctx.act("flip") }, t("twinit.flip")));
  }
  if (legal.some((a) => a.kind === "start")) {
    top.append(el("button", { class: "primary", id: "start-round", "data-key": "start", onclick: () => ctx.act("start") }, t("twinit.start", { n: view.round })));
  }
  if (me !== null && (view.mode === "coop" || view.mode === "timeattack") && view.phase === "play") {
    top.append(el("label", {}, el("input", { type: "checkbox", id: "turning", checked: Boolean(local.turning),
      onchange: (e) => { local.turning = e.target.checked; } }), " ", t("twinit.turn_mode")));
  }
  if (view.level) top.append(el("strong", { id: "level" }, t("twinit.level", { level: t(`twinit.level.${view.level}`) })));
  root.append(top);
  const centre = el("div", { class: "tw-centre", role: "group", "aria-label": t("twinit.centre") });
  view.centre.forEach((pictureId, slot) => {
    centre.append(pictureId === null ? el("div", { class: "tw-empty", "aria-hidden": "true" }) : card(`c${slot}`, pictureId));
  });
  root.append(el("section", { class: "panel" }, el("h2", {}, t("twinit.centre")), centre));
  const piles = el("div", { class: "tw-piles" });
  view.piles.forEach((pile, seat) => {
    if (view.mode === "coop" || view.mode === "timeattack") return;
    piles.append(el("div", { class: "tw-side", "data-seat": seat },
      el("div", {}, el("strong", {}, names[seat] ?? seat), view.mode === "team" ? ` · ${t("twinit.team", { team: side(seat) + 1 })}` : ""),
      el("div", {}, t("twinit.pile", { n: pile.cards })),
      pile.top !== null ? card(`p${seat}`, pile.top) : ""));
  });
  view.sets.forEach((sets, owner) => {
    if (!sets.length && !(view.taboo[owner] || []).length) return;
    const label = view.mode === "team" ? t("twinit.team", { team: owner + 1 }) : view.mode === "coop" ? t("twinit.together") : names[owner] ?? owner;
    piles.append(el("div", { class: "tw-side" }, el("div", {}, el("strong", {}, t("twinit.sets_of", { name: label }))),
      sets.map((set, index) => el("span", {}, card(`s${owner}.${index}`, set.picture), set.cards === 3 ? "×3" : "")),
      (view.taboo[owner] || []).length ? el("div", {}, t("twinit.taboo"), view.taboo[owner].map((p, index) => card(`t${owner}.${index}`, p))) : ""));
  });
  root.append(piles);
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
  const legal = view.legal || [];
  const key = event.key.toLowerCase();
  if (key === "f" && legal.some((a) => a.kind === "flip")) ctx.act("flip");
  else if (key === "s" && legal.some((a) => a.kind === "start")) ctx.act("start");
  else if (key === "t") { ctx.local.turning = !ctx.local.turning; ctx.redraw(); }
};
