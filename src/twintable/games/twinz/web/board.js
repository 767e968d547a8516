// Twinz at the table: one banner says the phase and what to do (the duo draws, the
// countdown, both clues turned over together, the guessing race); the duo sees its
// mystery word, everyone sees the clue cards, the guesses as they come, contests and votes.
//
// The board is rebuilt from every frame, so the word boxes are kept alive across rebuilds
// (ctx.local): a person typing while a partner's clue or a bot's guess arrives keeps the
// focus, the caret and every character.

// The server's one-word rule (rules.py ONE_WORD), checked here so a refused word is never
// sent and lost from the box.
const ONE_WORD = /^\p{L}+(?:['’-]\p{L}+)*$/u;
const FLIP_MS = 700;  // keep in step with the tz-flip animation in twinz.css
// A box that appears while the person is typing (the round ended under a half-typed
// guess, say) takes the focus only once the keys have been quiet this long: no key meant
// for the old box ever reaches the new one (issue 25: "LO", "NAIRE" sent as clues).
const QUIET_MS = 1000;
let lastKeyAt = -Infinity;
let listening = false;
function listenForKeys() {
  if (listening) return;
  listening = true;
  document.addEventListener("keydown", () => { lastKeyAt = performance.now(); }, true);
}

function duoNames(view, ctx) {
  return { a: ctx.names[view.duo[0]] ?? "", b: ctx.names[view.duo[1]] ?? "" };
}

// A word box that survives re-renders. `moment` names the round, attempt and kind: a new
// moment starts empty, so an unsent word never pre-fills the next box.
function wordBox(ctx, kind, moment) {
  const { t, el, local } = ctx;
  const boxes = (local.tzBoxes ??= {});
  const kept = boxes[kind];
  if (kept && kept.moment === moment) return kept;
  const id = `${kind}-word`;
  const input = el("input", { id, maxlength: 30, autocomplete: "off", autocapitalize: "none",
    spellcheck: "false", enterkeyhint: "send", class: "tz-input", "aria-describedby": `${kind}-hint` });
  const hint = el("p", { class: "tz-hint", id: `${kind}-hint`, "aria-live": "polite" });
  const send = () => {
    const word = input.value.trim();
    if (!word) return;
    if (!ONE_WORD.test(word)) { hint.textContent = t("twinz.one_word"); return; }
    hint.textContent = "";
    ctx.act(kind, { word });
    // Sent words leave the box at once; the next frame decides what comes next.
    input.value = "";
  };
  // Enter that ends an IME composition (Korean, say) is not a send.
  input.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.isComposing) { e.preventDefault(); send(); } });
  input.addEventListener("input", () => { hint.textContent = ""; });
  const row = el("div", { class: "tz-word" },
    el("label", { for: id }, t(`twinz.your_${kind}`)),
    el("div", { class: "tz-word-row" }, input,
      el("button", { class: "primary", id: `${kind}-send`, onclick: send }, t(`twinz.send_${kind}`))),
    hint);
  const box = { moment, row, input, fresh: true };
  boxes[kind] = box;
  return box;
}

// Read before the kept boxes move into the new board: moving a node takes its focus.
function focusedBox(local) {
  const box = Object.values(local.tzBoxes || {}).find((kept) => kept.input === document.activeElement);
  return box ? { box, selection: [box.input.selectionStart, box.input.selectionEnd, box.input.selectionDirection] } : null;
}

// After app.js puts the new board in the page: give the focus back (with its caret) to the
// box that had it, or hand it to a box that has just become this person's moment.
function keepFocus(boxes, before) {
  const had = before && boxes.includes(before.box) ? before.box : null;
  const selection = had ? before.selection : null;
  const fresh = boxes.find((box) => box.fresh);
  for (const box of boxes) box.fresh = false;
  // A microtask runs once app.js has swapped the board in, before the next key press.
  queueMicrotask(() => {
    const active = document.activeElement;
    if (had && had.input.isConnected) {
      if (active !== had.input) had.input.focus({ preventScroll: true });
      had.input.setSelectionRange(...selection);
    } else if (fresh) {
      focusWhenQuiet(fresh);
    }
  });
}

// Give a new box the focus once nobody is typing: keys pressed meanwhile land nowhere.
function focusWhenQuiet(box) {
  const { input } = box;
  if (!input.isConnected || document.activeElement === input || typingElsewhere(document.activeElement)) return;
  const quietFor = performance.now() - lastKeyAt;
  if (quietFor < QUIET_MS) { setTimeout(() => focusWhenQuiet(box), QUIET_MS - quietFor); return; }
  input.focus();
}

// Someone typing in another field keeps it; a button (Start, Draw) gives way.
function typingElsewhere(active) {
  if (!active || !active.isConnected || active.closest("[hidden]")) return false;
  if (active.isContentEditable || active.tagName === "TEXTAREA" || active.tagName === "SELECT") return true;
  return active.tagName === "INPUT" && !active.readOnly && !["button", "submit", "checkbox", "radio", "range"].includes(active.type);
}

// The clock's figure and bar for the view's phase, from the server time it carries.
function clock(view) {
  const clues = view.phase === "clues";
  const target = clues ? view.countdown_ends : view.guess_due;
  if (!target || (!clues && view.phase !== "guesses")) return null;
  // The view's time is the server's at the last change; count on from its arrival.
  const now = view.now_ms + (performance.now() - (view._arrived ?? performance.now()));
  const total = (clues ? view.options?.countdown_s ?? 5 : view.options?.guess_timeout_s ?? 30) * 1000;
  // While the duo reads the word (read_ms) the countdown has not started: it shows whole.
  const ms = Math.min(total, Math.max(0, target - now));
  return { clues, left: Math.ceil(ms / 1000), part: ms / total };
}

function showClock(box, view, t) {
  const timer = box.querySelector("#twinz-timer");
  const state = clock(view);
  if (!timer || !state) { if (timer) timer.textContent = ""; return; }
  timer.textContent = state.clues && state.left === 0 ? t("twinz.now") : String(state.left);
  timer.setAttribute("aria-label", t(state.clues ? "twinz.countdown" : "twinz.guess_time", { n: state.left }));
  const bar = box.querySelector(".tz-bar > span");
  if (bar) bar.style.transform = `scaleX(${state.part})`;
  box.querySelector(".tz-clock")?.classList.toggle("tz-hurry", state.left <= 3);
}

function banner(view, ctx, role) {
  const { t, el } = ctx;
  const { a, b } = duoNames(view, ctx);
  const partner = role.partner !== null ? ctx.names[role.partner] ?? "" : "";
  let title;
  let detail = "";
  if (view.phase === "over") {
    title = t("twinz.banner.over");
    // How the last word went; the ranking itself is the results panel's.
    if (view.recap) detail = recapLine(view.recap, ctx);
    else if (ctx.local.tzLast) detail = roundLine(ctx.local.tzLast, ctx);
  } else if (view.phase === "draw" && view.pause_until !== null && view.pause_until !== undefined) {
    // The last round's result stays on screen a moment before anyone takes the card.
    title = t("twinz.banner.pause");
    if (view.recap) detail = recapLine(view.recap, ctx);
    else if (ctx.local.tzLast) detail = roundLine(ctx.local.tzLast, ctx);
  } else if (view.phase === "draw") {
    title = role.duo ? t("twinz.banner.draw_you", { partner }) : t("twinz.banner.draw_others", { a, b });
  } else if (view.phase === "clues") {
    if (role.duo && !view.my_clue) {
      title = t("twinz.banner.clue_you");
      detail = t("twinz.banner.clue_you_detail", { partner });
    } else if (role.duo) {
      title = t("twinz.banner.clue_sent", { word: view.my_clue.toUpperCase() });
      detail = t("twinz.banner.wait_partner", { partner });
    } else {
      title = t("twinz.banner.clue_others", { a, b });
      detail = t("twinz.banner.clue_others_detail");
    }
  } else if (view.contest !== null && view.contest !== undefined) {
    title = t("twinz.banner.contest", { name: ctx.names[view.contest] ?? "" });
  } else if (role.guessed) {
    title = t("twinz.banner.guessed", { word: role.guessed.toUpperCase() });
    detail = t(role.wrong ? "twinz.banner.guessed_wrong" : "twinz.banner.guessed_detail");
  } else if (role.canGuess) {
    title = t("twinz.banner.guess_you");
  } else if (role.duo) {
    title = t("twinz.banner.guess_duo");
  } else {
    title = t("twinz.banner.guess_others");
  }
  const timed = view.phase === "clues" || view.phase === "guesses";
  return el("section", { class: `tz-banner tz-phase-${view.phase}`, "data-phase": view.phase },
    el("div", { class: "tz-banner-text" },
      view.phase !== "over" ? el("p", { class: "tz-round" }, t("twinz.round_no", { n: view.round }), " · ",
        view.attempt > 1 ? [el("span", { class: "tz-attempt" }, t("twinz.second_try")), " · "] : "",
        t("twinz.pile", { n: view.pile })) : "",
      el("h2", { id: "twinz-phase" }, title),
      detail ? el("p", { class: "tz-detail" }, detail) : ""),
    timed ? el("div", { class: "tz-clock" },
      el("span", { class: "tz-timer timer", id: "twinz-timer", "aria-live": "off" }, ""),
      el("span", { class: "tz-bar", "aria-hidden": "true" }, el("span", {}))) : "");
}

function clueCards(view, ctx) {
  const { t, el, local } = ctx;
  const revealed = Array.isArray(view.clues);
  // Both cards turn over together, once, when the clues first show; a frame arriving during
  // the turn continues it (negative delay) instead of starting it again.
  const key = `${view.round}/${view.attempt}`;
  if (revealed && local.tzFlipKey !== key) { local.tzFlipKey = key; local.tzFlipAt = performance.now(); }
  const since = revealed && local.tzFlipKey === key ? performance.now() - local.tzFlipAt : Infinity;
  const flipping = since < FLIP_MS;
  const penalties = local.tzReveal && local.tzReveal.key === key ? local.tzReveal.penalties : {};
  const contests = (view.legal || []).filter((a) => a.kind === "contest");
  // On a wide screen the two cards lie on the table between the seats.
  return el("section", { class: "tz-clues", "data-felt": "", "aria-label": t("twinz.clues") }, view.duo.map((seat, i) => {
    const mine = seat === ctx.me;
    const clue = revealed ? view.clues[i] : mine ? view.my_clue : null;
    const faceUp = revealed || (mine && clue);
    const given = view.clue_given ? view.clue_given[i] : false;
    let face;
    // A long clue is drawn smaller to fit its card on one line, never split mid-word.
    if (faceUp) face = el("span", { class: `tz-clue-word${clue ? "" : " tz-none"}`, "data-clue": i,
      style: clue ? `--letters: ${[...clue].length}` : null }, clue ? clue.toUpperCase() : t("twinz.no_clue"));
    else if (view.phase === "clues") face = el("span", { class: "tz-back" }, given ? t("twinz.card.ready") : t("twinz.card.thinking"));
    else face = el("span", { class: "tz-back" }, "?");
    const contest = contests.find((a) => a.payload.member === seat);
    const lost = penalties[String(seat)] || [];
    return el("div", { class: "tz-slot" },
      el("div", { class: `tz-card${faceUp ? " tz-up" : " tz-down"}${given && !faceUp ? " tz-given" : ""}${flipping ? " tz-flip" : ""}${view.contest === seat ? " tz-contested" : ""}`,
        style: flipping ? `animation-delay: -${Math.round(since)}ms` : null }, face),
      el("span", { class: "tz-card-name" }, ctx.names[seat] ?? "", mine ? ` (${t("table.you")})` : ""),
      lost.length ? el("span", { class: "tz-penalty" }, lost.map((reason) => t(`twinz.penalty.${reason}`)).join(", ")) : "",
      contest ? el("button", { class: "tz-contest-btn", "data-contest": seat, "aria-label": t("twinz.contest", { name: ctx.names[seat] ?? "" }),
        onclick: () => ctx.act("contest", contest.payload) },
        t("twinz.contest_short")) : "");
  }));
}

function votePanel(view, ctx) {
  const { t, el } = ctx;
  const votes = (view.legal || []).filter((a) => a.kind === "vote");
  const voters = view.players - 2;
  const i = view.duo.indexOf(view.contest);
  const clue = Array.isArray(view.clues) && i >= 0 ? view.clues[i] : null;
  return el("section", { class: "tz-vote", role: "group", "aria-label": t("twinz.vote_title") },
    el("p", {}, t("twinz.contested", { name: ctx.names[view.contest] ?? "", word: (clue || "").toUpperCase() })),
    el("p", { class: "tz-tally", id: "twinz-tally" }, t("twinz.tally", { n: view.votes, total: voters })),
    votes.length ? el("div", { class: "row" }, votes.map((a) => el("button", {
      class: a.payload.uphold ? "primary" : "", "data-vote": String(a.payload.uphold), onclick: () => ctx.act("vote", a.payload) },
      a.payload.uphold ? t("twinz.uphold") : t("twinz.dismiss"))))
      : el("p", { class: "tz-detail" }, view.duo.includes(ctx.me) ? t("twinz.vote_duo") : t("twinz.voted")));
}

function guessList(view, ctx) {
  const { t, el, local } = ctx;
  if (!view.guesses.length) return "";
  // Only guesses that are new since the last frame pop in.
  const key = `${view.round}/${view.attempt}`;
  const seen = local.tzSeen && local.tzSeen.key === key ? local.tzSeen.n : 0;
  local.tzSeen = { key, n: view.guesses.length };
  return el("section", { class: "tz-guesses", "aria-label": t("twinz.guesses") },
    el("h3", {}, t("twinz.guesses")),
    // A guess shown with its word and not held back by the tie window was wrong (views.py).
    el("ul", {}, view.guesses.map((g, index) => {
      const wrong = Boolean(g.word) && !g.hidden;
      return el("li", { class: `${index >= seen ? "tz-new" : ""}${wrong ? " tz-wrong" : ""}`, "data-guess": g.seat },
        el("span", { class: "tz-who" }, ctx.names[g.seat] ?? ""),
        g.word ? el("span", { class: "tz-guess-word" }, g.word.toUpperCase()) : el("span", { class: "tz-guess-word tz-none" }, "…"),
        wrong ? el("span", { class: "tz-mark", "aria-label": t("twinz.wrong") }, "✗") : "");
    })));
}

function roundLine(data, ctx) {
  const { t } = ctx;
  const word = String(data.word || "").toUpperCase();
  const winners = (data.winners || []).map((seat) => ctx.names[seat] ?? "");
  if (data.reason === "found" && winners.length === 1) return t("twinz.last.found", { word, name: winners[0] });
  if (data.reason === "found") return t("twinz.last.shared", { word, names: ctx.joinNames(winners) });
  // A clue the root rule refused: say whose, which and why (RULES.md §4).
  const refused = data.refused ? Object.entries(data.refused)[0] : null;
  if (data.reason === "mystery_word" && refused) {
    return t("twinz.last.refused", { word, name: ctx.names[Number(refused[0])] ?? "", why: refusedLine(refused[1], ctx) });
  }
  return t(`twinz.last.${data.reason}`, { word });
}

function recapLine(recap, ctx) {
  const last = recap.attempts[recap.attempts.length - 1];
  return roundLine({ word: recap.word, reason: recap.result, winners: recap.winners, refused: last ? last.refused : null }, ctx);
}

function refusedLine(why, ctx) {
  return ctx.t(`twinz.refused.${why.reason}`, { clue: String(why.clue).toUpperCase(), word: String(why.word).toUpperCase() });
}

// The round just played, from the view's recap: the word, each attempt's two clue cards
// turned face up with their penalties and refusals, every guess with its guesser. It stays
// until the next card is dealt (the view drops it then).
function recapPanel(recap, ctx) {
  const { t, el } = ctx;
  const last = recap.attempts[recap.attempts.length - 1];
  const line = recapLine(recap, ctx);
  return el("section", { class: "tz-recap", id: "twinz-recap", "aria-label": t("twinz.recap.title", { word: recap.word.toUpperCase() }) },
    el("h3", {}, t("twinz.recap.title", { word: "" }), el("strong", { class: "tz-recap-word" }, recap.word.toUpperCase())),
    el("p", { class: "tz-recap-result" }, line),
    recap.attempts.map((attempt) => el("div", { class: "tz-recap-attempt", "data-attempt": attempt.attempt },
      recap.attempts.length > 1 ? el("h4", {}, t("twinz.recap.attempt", { n: attempt.attempt })) : "",
      el("ul", { class: "tz-recap-clues", "aria-label": t("twinz.recap.clues") }, attempt.clues.map(([seat, word]) => {
        const lost = (attempt.penalties[String(seat)] || []).filter((reason) => reason !== "mystery_root");
        const refused = attempt.refused[String(seat)];
        return el("li", { class: `tz-recap-clue${refused ? " tz-refused" : ""}`, "data-seat": seat },
          el("span", { class: `tz-card tz-up tz-mini${word ? "" : " tz-none"}` }, word ? word.toUpperCase() : t("twinz.no_clue")),
          el("span", { class: "tz-who" }, ctx.names[seat] ?? ""),
          refused ? el("span", { class: "tz-penalty tz-why" }, refusedLine(refused, ctx)) : "",
          lost.length ? el("span", { class: "tz-penalty" }, lost.map((reason) => t(`twinz.penalty.${reason}`)).join(", ")) : "");
      })),
      attempt.guesses.length
        ? el("ul", { class: "tz-recap-guesses", "aria-label": t("twinz.recap.guesses") }, attempt.guesses.map(([seat, word]) => {
          const right = recap.winners.includes(seat) && attempt === last;
          return el("li", { class: right ? "tz-right" : "tz-wrong", "data-guess": seat },
            el("span", { class: "tz-who" }, ctx.names[seat] ?? ""),
            el("span", { class: "tz-guess-word" }, String(word).toUpperCase()),
            el("span", { class: "tz-mark" }, right ? "✓" : "✗"));
        }))
        : el("p", { class: "tz-detail" }, t("twinz.recap.no_guess")))));
}

export function renderTwinz(view, ctx) {
  const { t, el, local } = ctx;
  if (view._arrived === undefined) view._arrived = performance.now();
  const me = ctx.me;
  const legal = view.legal || [];
  const inDuo = me !== null && me !== undefined && view.duo.includes(me);
  const mine = view.guesses.find((g) => g.seat === me);
  const role = {
    duo: inDuo,
    partner: inDuo ? view.duo.find((seat) => seat !== me) : null,
    canGuess: legal.some((a) => a.kind === "guess"),
    guessed: mine ? mine.word || "…" : null,
    wrong: Boolean(mine && mine.word && !mine.hidden),
  };
  listenForKeys();
  const before = focusedBox(local);
  local.tzRound = view.round;
  // tt-live: the page folds its header away on a phone while a person plays (style.css).
  const live = me !== null && view.phase !== "over";
  const root = el("div", { class: `twinz tz-table${inDuo ? " tz-in-duo" : ""}${live ? " tt-live" : ""}` });
  root.append(banner(view, ctx, role));
  showClock(root, view, t);
  if (view.phase === "over") {
    // The game is over: no clock, no boxes, nobody's move; the last round stays readable.
    local.tzBoxes = {};
    if (view.recap) root.append(recapPanel(view.recap, ctx));
    return root;
  }
  if (view.mystery) {
    root.append(el("section", { class: "tz-mystery" }, el("span", {}, t("twinz.mystery")),
      el("strong", { id: "mystery" }, view.mystery.toUpperCase())));
  }
  const boxes = [];
  if (legal.some((a) => a.kind === "draw")) {
    root.append(el("div", { class: "tz-action" }, el("button", { class: "primary tz-draw", id: "draw-card", "data-key": "draw",
      onclick: () => ctx.act("draw") }, t("twinz.draw"))));
  }
  const moment = `${view.round}/${view.attempt}`;
  const clueBox = legal.some((a) => a.kind === "clue") ? wordBox(ctx, "clue", moment) : null;
  const guessBox = role.canGuess ? wordBox(ctx, "guess", moment) : null;
  if (clueBox) { boxes.push(clueBox); root.append(el("div", { class: "tz-action" }, clueBox.row)); }
  if (view.phase === "clues" || view.phase === "guesses") root.append(clueCards(view, ctx));
  else if (view.recap) root.append(recapPanel(view.recap, ctx));
  if (view.contest !== null && view.contest !== undefined) root.append(votePanel(view, ctx));
  if (guessBox) { boxes.push(guessBox); root.append(el("div", { class: "tz-action" }, guessBox.row)); }
  root.append(guessList(view, ctx));
  keepFocus(boxes, before);
  return root;
}

renderTwinz.tick = (board, view, ctx) => showClock(board, view, ctx.t);

// Who may act now, for the seat ring: either duo member may draw; a duo member until
// their clue is in; while guessing, whoever may still guess or vote.
renderTwinz.toAct = (view) => {
  if (view.phase === "draw") return [...view.duo];
  if (view.phase === "clues") return view.duo.filter((seat, i) => !view.clue_given?.[i]);
  if (view.phase !== "guesses") return [];
  const guessed = new Set(view.guesses.map((g) => g.seat));
  const seats = Array.from({ length: view.players }, (_, seat) => seat).filter((seat) => !view.duo.includes(seat));
  // A contest waits on votes nobody can see by seat: every guesser may still be needed.
  return view.contest !== null && view.contest !== undefined ? seats : seats.filter((seat) => !guessed.has(seat));
};

// What others can see of a seat, inside its seat box: points, cards won, the duo marked.
renderTwinz.seat = (view, seat, ctx) => {
  const { t, el } = ctx;
  const i = view.duo.indexOf(seat);
  const inDuo = i >= 0 && view.phase !== "over";
  let doing = "";
  if (inDuo && view.phase === "clues") doing = view.clue_given?.[i] ? t("twinz.card.ready") : t("twinz.card.thinking");
  else if (!inDuo && view.phase === "guesses" && view.guesses.some((g) => g.seat === seat)) doing = t("twinz.seat.guessed");
  return el("span", { class: `tz-seat${inDuo ? " tz-seat-duo" : ""}`, "data-tz-seat": seat },
    inDuo ? el("span", { class: "tz-duo-mark" }, t("twinz.seat.duo")) : "",
    el("span", { class: "tz-points" }, t("twinz.seat.points", { n: view.points[seat] })),
    el("span", { class: "tz-cards" }, t("twinz.seat.cards", { n: view.cards[seat] })),
    doing ? el("span", { class: "tz-doing" }, doing) : "");
};

// The log, in words: every clue, guess, penalty, contest and round result.
renderTwinz.describe = (event, ctx) => {
  const { t, local } = ctx;
  const name = (seat) => ctx.names[Number(seat)] ?? "";
  const data = event.data || {};
  switch (event.kind) {
    case "round_started":
      return t("event.twinz.round_started", { n: data.round, a: name(data.duo[0]), b: name(data.duo[1]) });
    case "clue_given":
      return t("event.twinz.clue_given", { name: name(data.seat) });
    case "clues_revealed": {
      // The clue cards show each penalty under its card for this attempt.
      local.tzReveal = { key: `${local.tzRound}/${data.attempt}`, penalties: data.penalties || {} };
      // A refused clue ends the round: its line says which clue and why (round_over).
      local.tzRefused = data.refused || null;
      const said = Object.entries(data.clues).map(([seat, word]) => word
        ? t("event.twinz.said", { name: name(seat), word: word.toUpperCase() })
        : t("event.twinz.said_nothing", { name: name(seat) }));
      const lines = Object.entries(data.penalties)
        .filter(([, reasons]) => reasons.length)
        .map(([seat, reasons]) => t("twinz.penalised", { name: name(seat),
          reasons: reasons.map((reason) => (reason === "mystery_root" && data.refused?.[seat]
            ? refusedLine(data.refused[seat], ctx) : t(`twinz.penalty.${reason}`))).join(", ") }));
      return [t("event.twinz.clues_revealed"), ...said, ...lines].join(" ");
    }
    case "guessed":
      if (!data.word) return t("event.twinz.guess_in", { name: name(data.seat) });
      return t(data.right ? "event.twinz.guessed_right" : "event.twinz.guessed", { name: name(data.seat), word: data.word.toUpperCase() });
    case "guesses_revealed":
      // The tie window has closed: the guesses it held back, with their verdicts.
      return (data.guesses || []).map((g) => t(g.right ? "event.twinz.guessed_right" : "event.twinz.guessed",
        { name: name(g.seat), word: String(g.word).toUpperCase() })).join(" ") || null;
    case "attempt_failed":
      return t(`event.twinz.attempt_failed.${data.reason === "timeout" ? "timeout" : "all_wrong"}`);
    case "contested":
      return t("event.twinz.contested", { name: name(data.seat), member: name(data.member) });
    case "voted":
      return t("event.twinz.voted", { name: name(data.seat) });
    case "contest_upheld":
    case "contest_dismissed":
      return t(`event.twinz.${event.kind}`, { member: name(data.member) });
    case "round_over":
      local.tzLast = data.reason === "mystery_word" ? { ...data, refused: local.tzRefused } : data;
      return roundLine(local.tzLast, ctx);
    default:
      return null;
  }
};
