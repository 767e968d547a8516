// Twinz at the table: the duo sees the mystery word and the countdown and types a clue;
// the others see the clues and a guess box; penalties, contests and scores as they come.
export function renderTwinz(view, ctx) {
  const { t, el, local } = ctx;
  if (view._arrived === undefined) view._arrived = performance.now();
  const names = ctx.names;
  const me = ctx.me;
  const legal = view.legal || [];
  const inDuo = me !== null && view.duo.includes(me);
  const root = el("div", { class: "twinz" });
  root.append(el("section", { class: "panel" },
    el("p", {}, t("twinz.round", { n: view.round, attempt: view.attempt, pile: view.pile })),
    el("p", {}, t("twinz.duo", { a: names[view.duo[0]] ?? "", b: names[view.duo[1]] ?? "" })),
    view.mystery ? el("p", {}, t("twinz.mystery"), " ", el("strong", { id: "mystery" }, view.mystery.toUpperCase())) : "",
    el("p", { class: "timer", id: "twinz-timer" }, ""),
    view.clues ? el("p", { id: "clues" }, t("twinz.clues"), " ",
      view.clues.map((clue, i) => el("strong", { "data-clue": i }, clue ? clue.toUpperCase() : t("twinz.no_clue"))).flatMap((x, i) => (i ? [" + ", x] : [x]))) : "",
    el("table", { class: "grid", "aria-label": t("table.score") },
      el("tr", {}, el("th", {}, t("table.player")), el("th", {}, t("twinz.points")), el("th", {}, t("twinz.cards"))),
      view.points.map((points, seat) => el("tr", {}, el("td", {}, names[seat] ?? seat), el("td", {}, points), el("td", {}, view.cards[seat]))))));
  if (view.guesses.length) {
    root.append(el("section", { class: "panel" }, el("h2", {}, t("twinz.guesses")),
      el("ul", {}, view.guesses.map((g) => el("li", {}, `${names[g.seat] ?? g.seat}: ${g.word}`)))));
  }
  const word = (kind, label) => {
    const input = el("input", { id: `${kind}-word`, maxlength: 30, autocomplete: "off", "aria-label": label, value: local[kind] || "",
      oninput: (e) => { local[kind] = e.target.value; } });
    const send = () => { if (input.value.trim()) { ctx.act(kind, { word: input.value.trim() }); local[kind] = ""; } };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") send(); });
    return el("div", { class: "row" }, el("label", { for: `${kind}-word` }, label), input,
      el("button", { class: "primary", id: `${kind}-send`, onclick: send }, t(`twinz.send_${kind}`)));
  };
  if (legal.some((a) => a.kind === "draw")) {
    root.append(el("section", { class: "panel" }, el("button", { class: "primary", id: "draw-card", "data-key": "draw",
      onclick: () => ctx.act("draw") }, t("twinz.draw"))));
  }
  if (legal.some((a) => a.kind === "clue")) root.append(el("section", { class: "panel" }, word("clue", t("twinz.your_clue"))));
  if (view.my_clue) root.append(el("p", {}, t("twinz.you_said", { word: view.my_clue })));
  if (legal.some((a) => a.kind === "guess")) root.append(el("section", { class: "panel" }, word("guess", t("twinz.your_guess"))));
  const contests = legal.filter((a) => a.kind === "contest");
  const votes = legal.filter((a) => a.kind === "vote");
  if (contests.length || votes.length) {
    root.append(el("section", { class: "panel row" },
      contests.map((a) => el("button", { "data-contest": a.payload.member, onclick: () => ctx.act("contest", a.payload) },
        t("twinz.contest", { name: names[a.payload.member] ?? "" }))),
      votes.map((a) => el("button", { "data-vote": String(a.payload.uphold), onclick: () => ctx.act("vote", a.payload) },
        a.payload.uphold ? t("twinz.uphold") : t("twinz.dismiss")))));
  }
  if (inDuo && !view.mystery && view.phase !== "over") root.append(el("p", {}, t("twinz.wait")));
  return root;
}

renderTwinz.tick = (board, view, ctx) => {
  const timer = board.querySelector("#twinz-timer");
  if (!timer) return;
  const target = view.phase === "clues" ? view.countdown_ends : view.guess_due;
  if (!target || view.phase === "over") { timer.textContent = ""; return; }
  // The view's time is the server's at the last change; count on from its arrival.
  const now = view.now_ms + (performance.now() - (view._arrived ?? performance.now()));
  const left = Math.max(0, Math.ceil((target - now) / 1000));
  timer.textContent = ctx.t(view.phase === "clues" ? "twinz.countdown" : "twinz.guess_time", { n: left });
};

renderTwinz.describe = (event, ctx) => {
  if (event.kind !== "clues_revealed") return null;
  const { t } = ctx;
  const lines = Object.entries(event.data.penalties)
    .filter(([, reasons]) => reasons.length)
    .map(([seat, reasons]) => t("twinz.penalised", { name: ctx.names[Number(seat)] ?? seat,
      reasons: reasons.map((reason) => t(`twinz.penalty.${reason}`)).join(", ") }));
  return [t("event.twinz.clues_revealed"), ...lines].join(" ");
};
