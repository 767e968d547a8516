// Twins at the table: the felt with the bank's chips, the cash card with the round being
// played, and this hand's picks, which turn over together at each reveal with the chips
// each seat won or paid in that round; the hand as a fan, the buy step, pick two and
// commit. What everyone sees of a seat (chip stacks, hand size, a face-down pair once
// chosen) comes from `renderTwins.seat`.
import { cardFace } from "./pictures.js";

const ROUNDS = 4;
const FLIP_MS = 700;

function back(el, extra = "") {
  return el("span", { class: `tw2-back ${extra}`.trim(), "aria-hidden": "true" });
}

// Chips drawn as stacks of 5s, 2s and 1s (the chips a player starts with), tallest first.
function chipStacks(ctx, amount, label) {
  const { el } = ctx;
  const stacks = [];
  let left = Math.max(0, amount);
  for (const value of [5, 2, 1]) {
    const count = Math.floor(left / value);
    left -= count * value;
    if (count) stacks.push([value, count]);
  }
  return el("span", { class: "tw2-chips", role: "img", "aria-label": label },
    stacks.length ? stacks.map(([value, count]) => el("span", { class: `tw2-stack v${value}`, style: `--h:${Math.min(count, 10)}` },
      Array.from({ length: Math.min(count, 10) }, (_, i) => el("span", { class: "tw2-chip", style: `--i:${i}` }))))
      : el("span", { class: "tw2-stack tw2-none" }));
}

// Where a revealed set placed in its round: 1 is the strongest.
function place(played, set) {
  const same = played.filter((other) => other.round === set.round);
  if (same.length < 2 || set.rank === undefined) return null;
  return 1 + same.filter((other) => other.rank > set.rank).length;
}

// Chips are paid only at a reveal, so the chips each seat won or paid in a round are the
// difference between the chips seen while that round was open and the chips right after.
function trackChips(view, local) {
  local.moves = local.moves || {};
  local.hands = local.hands || {};
  if (view.played.length) local.hands[view.hand_no] = view.played;
  const key = `${view.hand_no}:${view.round}`;
  const base = local.chipBase;
  if (base && (base.key !== key || view.phase !== "pick")) {
    // Only the round that just closed (a replay may jump: then nothing is recorded).
    const next = view.hand_no === base.hand ? view.round === base.round + 1 || view.phase === "over"
      : view.hand_no === base.hand + 1 && view.phase === "buy";
    if (next) local.moves[`${base.hand}:${base.round}`] = view.chips.map((chips, seat) => chips - base.chips[seat]);
    local.chipBase = null;
  }
  if (view.phase === "pick" && !local.chipBase) {
    local.chipBase = { key, hand: view.hand_no, round: view.round, chips: [...view.chips] };
  }
}

// The team of each seat (0, 1, ...) from the table's `teams` option ("alternate" or a
// team number per seat), or null when everyone plays for themselves.
export function teamsOf(options, players) {
  const value = options ? options.teams : null;
  if (value === "alternate") return Array.from({ length: players }, (_, seat) => seat % 2);
  return Array.isArray(value) && value.length === players ? value.map((team) => team - 1) : null;
}

// The most chips wins; with teams, the team holding the most together (a bankrupt seat
// counts 0), every member of it.
function winners(view) {
  const teams = teamsOf(view.options, view.players);
  const held = teams ? view.chips.map((_, seat) => teams.reduce((sum, team, other) =>
    sum + (team === teams[seat] && !view.out[other] ? view.chips[other] : 0), 0)) : view.chips;
  const best = Math.max(...held);
  return held.map((chips, seat) => (chips === best ? seat : -1)).filter((seat) => seat >= 0);
}

function status(view, ctx) {
  const { t, el } = ctx;
  if (view.phase === "over") {
    const won = winners(view);
    const names = ctx.joinNames(won.map((seat) => ctx.names[seat] ?? ""));
    return el("div", { class: "tw2-status", id: "turn" },
      el("strong", {}, t("twins.game_over")), " ",
      // One winner or a shared win is a different sentence, not a plural form: Korean
      // has no "one" form, so a count would have made a lone winner "joint winner".
      teamsOf(view.options, view.players)
        ? (won.includes(ctx.me) ? t("twins.your_team_wins") : t("twins.team_wins", { names }))
        : won.includes(ctx.me) ? t("twins.you_win") : t(won.length === 1 ? "twins.winner" : "twins.shared_win", { names }));
  }
  const pips = el("span", { class: "tw2-pips", "aria-hidden": "true" },
    Array.from({ length: ROUNDS }, (_, i) => el("span", { class: `tw2-pip${i + 1 < view.round ? " done" : ""}${i + 1 === view.round && view.phase === "pick" ? " now" : ""}` })));
  let what;
  const legal = view.legal || [];
  if (view.phase === "buy") {
    what = view.buyer === ctx.me ? el("strong", {}, t("twins.your_buy")) : t("twins.buying_now", { name: ctx.names[view.buyer] ?? "" });
  } else if (legal.some((a) => a.kind === "pick")) {
    what = el("strong", {}, t("twins.pick_two"));
  } else {
    const waiting = view.committed.map((done, seat) => (!done && !view.out[seat] && !view.sitting_out[seat] ? seat : -1)).filter((s) => s >= 0);
    const list = ctx.joinNames(waiting.map((s) => ctx.names[s] ?? ""));
    what = waiting.length ? t("twins.waiting_for", { names: list }) : "";
  }
  return el("div", { class: "tw2-status", id: "turn" },
    el("span", { class: "tw2-where" }, t("twins.hand_no", { n: view.hand_no }), " · ",
      view.phase === "buy" ? t("twins.buy_phase") : t("twins.round_n", { round: view.round, total: ROUNDS }), " ", pips),
    el("span", { class: "tw2-what" }, what));
}

function move(ctx, seat, amount) {
  const { t, el } = ctx;
  if (!amount) return "";
  const name = ctx.names[seat] ?? "";
  const text = amount > 0 ? t("twins.gets", { name, n: amount }) : t("twins.pays", { name, n: -amount });
  return el("span", { class: `tw2-move ${amount > 0 ? "gain" : "loss"}`, title: text, "aria-label": text },
    amount > 0 ? `+${amount}` : `−${-amount}`);
}

function reveals(view, ctx, hand, played) {
  const { t, el, local } = ctx;
  const rounds = [...new Set(played.map((set) => set.round))].sort((a, b) => b - a);
  local.seen = local.seen || {};
  return el("section", { class: "tw2-reveals", id: "reveals", "aria-label": t("twins.revealed") },
    el("h2", {}, hand === view.hand_no ? t("twins.revealed") : t("twins.last_hand", { n: hand })),
    // The newest round in full; the hand's earlier rounds folded (the log tells them too),
    // so the sheet beside the hand needs no scrollbar of its own.
    foldEarlier(ctx, rounds.map((round) => {
      const sets = played.filter((set) => set.round === round).sort((a, b) => b.rank - a.rank);
      const key = `${hand}:${round}`;
      // A round's pairs turn over together the first time this screen shows them.
      if (local.seen[key] === undefined) local.seen[key] = performance.now();
      const since = performance.now() - local.seen[key];
      const flipping = since < FLIP_MS ? `--flip-delay:${-Math.round(since)}ms` : null;
      const moved = local.moves?.[key];
      return el("div", { class: "tw2-round", "data-round": round },
        el("h3", {}, t("twins.round_label", { n: round })),
        el("ol", { class: "tw2-sets" }, sets.map((set) => {
          const at = place(played, set);
          return el("li", { class: `tw2-set${set.seat === ctx.me ? " mine" : ""}` },
            el("span", { class: "tw2-who" }, ctx.names[set.seat] ?? ""),
            el("span", { class: `tw2-pair${flipping ? " tw2-flip" : ""}`, style: flipping || undefined },
              set.cards.map((card) => el("span", { class: "tw2-flipper" }, back(el, "tw2-under"), cardFace(ctx, card)))),
            el("span", { class: "tw2-rank" }, t(`twins.set.${set.set}`), at ? ` · #${at}` : ""),
            moved ? move(ctx, set.seat, moved[set.seat]) : "");
        })));
    })));
}

function foldEarlier({ t, el }, rounds) {
  const [newest, ...earlier] = rounds;
  if (!earlier.length) return rounds;
  return [newest, el("details", { class: "tw2-earlier" },
    el("summary", {}, t("twins.earlier_rounds", { n: earlier.length })), earlier)];
}

// Chips that change hands travel: when a seat's chips go down and the bank's go up, a
// few chips fly from that seat to the bank, and back the other way when a seat is paid.
// Drawn after the frame is on screen, above everything, and gone when they land; they
// never block a click and are skipped under prefers-reduced-motion.
const FLIGHT_MS = 650;

function flyChips(view, local) {
  const before = local.flightChips;
  local.flightChips = { chips: [...view.chips], hand: view.hand_no };
  if (!before || before.hand !== view.hand_no || !document.body.animate
    || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const moves = view.chips.map((chips, seat) => chips - (before.chips[seat] ?? chips));
  if (!moves.some(Boolean)) return;
  requestAnimationFrame(() => {
    const bank = document.querySelector(".tw2-bank");
    if (!bank) return;
    moves.forEach((delta, seat) => {
      const box = document.querySelector(`.seat[data-seat="${seat}"]`);
      if (!delta || !box) return;
      const [from, to] = delta < 0 ? [box, bank] : [bank, box];
      const a = from.getBoundingClientRect();
      const b = to.getBoundingClientRect();
      for (let i = 0; i < Math.min(Math.abs(delta), 5); i++) {
        const chip = document.createElement("span");
        chip.className = "tw2-flying-chip";
        chip.setAttribute("aria-hidden", "true");
        chip.style.left = `${a.left + a.width / 2}px`;
        chip.style.top = `${a.top + a.height / 2}px`;
        document.body.append(chip);
        chip.animate([{ transform: "translate(0, 0)" },
          { transform: `translate(${b.left - a.left + (b.width - a.width) / 2}px, ${b.top - a.top + (b.height - a.height) / 2}px)` }],
        { duration: FLIGHT_MS, delay: i * 70, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards" })
          .finished.finally(() => chip.remove());
      }
    });
  });
}

export function renderTwins(view, ctx) {
  const { t, el, local } = ctx;
  const legal = view.legal || [];
  const over = view.phase === "over";
  const live = !over && ctx.me !== null;
  trackChips(view, local);
  flyChips(view, local);
  const root = el("div", { class: `twins tw2-table${over ? " tw2-over" : ""}${live ? " tt-live" : ""}` });

  const cash = view.cash_card;
  const current = over ? 0 : view.phase === "pick" ? view.round : 0;
  const cashCard = el("section", { class: "tw2-cash", id: "cash-card" }, el("h2", {}, t("twins.cash_card")),
    el("ol", {}, [
    // "the lowest pays 2", "the 2 lowest pay 2": the count picks the sentence's form.
    t("twins.cash.round1", { ...cash.round1, n: cash.round1.lowest }), t("twins.cash.round2", { ...cash.round2, n: cash.round2.highest }),
    t("twins.cash.round3", { ...cash.round3, n: cash.round3.lowest }), t("twins.cash.round4")]
      .map((text, i) => el("li", { class: i + 1 === current ? "now" : "", "aria-current": i + 1 === current ? "step" : null }, text))));
  const bankLabel = t("twins.bank", { n: view.bank });
  // On a wide screen this lies on the table between the seats (the chips fly there).
  const felt = el("section", { class: "tw2-felt", "data-felt": "", "aria-label": t("twins.table") },
    status(view, ctx),
    el("div", { class: "tw2-bank" }, chipStacks(ctx, view.bank, bankLabel), el("span", {}, bankLabel)));

  // This hand's reveals; just after a new deal, the hand before stays on the table until
  // the first reveal of the new one, so round 4 and its payout can be seen.
  let shown = view.played;
  let hand = view.hand_no;
  // The hand before as it ended, all four rounds (the server keeps it: the frame that
  // ends a hand already shows the next one).
  if (!shown.length && view.last_played?.length) { hand = view.hand_no - 1; shown = view.last_played; }
  else if (!shown.length && local.hands?.[view.hand_no - 1]) { hand = view.hand_no - 1; shown = local.hands[hand]; }
  const revealed = shown.length ? reveals(view, ctx, hand, shown)
    : el("section", { class: "tw2-reveals tw2-empty" }, el("p", {}, t("twins.no_reveal")));

  root.append(felt);
  // Once the game is over the cards left in a hand count for nothing: no hand to show.
  if (ctx.me === null || over) { root.append(revealed, cashCard); return root; }

  const buys = legal.filter((a) => a.kind === "buy");
  const picks = legal.filter((a) => a.kind === "pick");
  local.picked = (local.picked || []).filter((id) => view.hand.some((c) => c.id === id));
  const count = view.hand.length;
  const handBox = el("div", { class: "hand tw2-hand", role: "group", "aria-label": t("twins.your_hand"), style: `--n:${Math.max(count, 1)}` },
    view.hand.map((card, index) => {
      const picked = local.picked.includes(card.id);
      const tilt = count > 1 ? (index - (count - 1) / 2) * Math.min(3, 20 / count) : 0;
      return cardFace(ctx, card, {
        class: `${picked ? "picked" : ""}${picks.length ? " legal" : ""}`, style: `--tilt:${tilt.toFixed(2)}deg`,
        "aria-pressed": picked ? "true" : "false", disabled: !picks.length,
        "data-key": `card-${card.id}`, "data-card": card.id,
        onclick: () => {
          local.picked = picked ? local.picked.filter((id) => id !== card.id) : [...local.picked, card.id].slice(-2);
          ctx.redraw();
        } }, "button");
    }));
  const pair = [...local.picked].sort((a, b) => a - b);
  const chosen = picks.find((a) => a.payload.cards[0] === pair[0] && a.payload.cards[1] === pair[1]);
  const controls = el("div", { class: "tw2-actions" });
  for (const action of buys) {
    controls.append(el("button", { class: action.payload.count === 0 ? "" : "tw2-buy", "data-buy": action.payload.count, "data-key": `buy-${action.payload.count}`,
      onclick: () => ctx.act("buy", action.payload) }, t(`twins.buy.${action.payload.count}`)));
  }
  if (picks.length) {
    controls.append(el("button", { class: "primary", id: "commit", "data-key": "commit", disabled: !chosen,
      onclick: () => { local.picked = []; ctx.act("pick", chosen.payload); } }, t("twins.commit")));
  }
  if (view.my_pick) {
    controls.append(el("span", { class: "tw2-mypick" }, t("twins.your_pick"), " ", view.my_pick.map((card) => cardFace(ctx, card, { class: "small" }))));
  }
  root.append(el("section", { class: `tw2-me${picks.length || buys.length ? " tw2-my-turn" : ""}`, "aria-label": t("twins.your_hand") }, controls, handBox));
  root.append(revealed, cashCard);
  return root;
}

// What everyone sees of a seat: chip stacks, the cards in hand as backs, and a face-down
// pair once the seat has chosen this round.
renderTwins.seat = (view, seat, ctx) => {
  const { t, el } = ctx;
  const chips = view.chips[seat] ?? 0;
  const size = view.hand_sizes[seat] ?? 0;
  const over = view.phase === "over";
  const label = t("twins.chips_n", { n: chips });
  let state = "";
  if (view.out[seat]) state = el("span", { class: "tw2-flag tw2-out" }, t("twins.out"));
  else if (over && winners(view).includes(seat)) state = el("span", { class: "tw2-flag tw2-won" }, `★ ${t("twins.won")}`);
  else if (over) state = "";
  else if (view.sitting_out[seat] && view.phase === "pick") state = el("span", { class: "tw2-flag" }, t("twins.sitting_out"));
  else if (view.committed[seat]) {
    state = el("span", { class: "tw2-flag tw2-chosen", title: t("twins.committed") },
      el("span", { class: "tw2-facedown", "aria-hidden": "true" }, back(el), back(el)), t("twins.committed"));
  } else if (view.phase === "buy" && view.buyer === seat) state = el("span", { class: "tw2-flag" }, t("twins.buying"));
  const shown = Math.min(size, 10);
  const teams = teamsOf(view.options, view.players);
  const team = teams ? el("span", { class: `tw2-flag tw2-team tw2-team-${teams[seat] + 1}` }, t("table.team_n", { n: teams[seat] + 1 })) : "";
  return el("div", { class: "tw2-seat" },
    el("span", { class: "tw2-seat-chips" }, chipStacks(ctx, chips, label), el("span", { class: "tw2-count" }, label)),
    el("span", { class: "tw2-seat-hand" },
      el("span", { class: "tw2-fan", "aria-hidden": "true", style: `--n:${shown}` },
        Array.from({ length: shown }, (_, i) => el("span", { class: "tw2-back", style: `--i:${i}` }))),
      el("span", { class: "tw2-count" }, t("twins.cards_n", { n: size }))),
    team, state);
};
