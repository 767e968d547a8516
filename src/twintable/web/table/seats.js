// The seat ring around the table: a box per seat (name, level, badges, the seat's clock,
// what the game shows of it), laid out around the felt, which holds the game's centre on
// a wide screen; on a phone the seats sit in rows of at most three, all in sight, or where
// too many for that, in a sideways strip.
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { phoneWidth, pulse, seatColour } from "../lib/motion.js";
import { levelBadge, seatName } from "./names.js";
import { actingSeats, phoneColumns, seatDeadline, tableLayout, timeLeft, turnLine } from "./layout.js";

// `state()` gives { info, view, mine, lastActor, clock }; `ctx` is the game's context;
// `reactionOn(seat)`: the reaction showing on a seat (a node) or null.
export function seatRing(game, state, ctx, reactionOn = () => null) {
  // Focusable: on a phone the seats are a strip that scrolls sideways (by keyboard too).
  // The seats are a list; the felt between them is not one of its items.
  const box = el("div", { class: "seats ring", id: "seats", role: "group", "aria-label": t("table.seats"), tabindex: 0 });
  // The table between the seats. On a wide screen it holds what the game lays on the
  // table (the part of the board marked data-felt), so the seats sit around the play;
  // otherwise it only says whose turn it is.
  const felt = el("div", { class: "felt" });
  const feltLine = el("span", { class: "felt-line", id: "felt-turn" });
  // Both stay in place from frame to frame (a focused pile on the felt keeps its focus).
  const list = el("div", { class: "ring-seats", role: "list" });
  box.append(list, felt);
  let acting = [];

  // On a phone the strip fades out at an edge with more seats beyond it, so a seat cut
  // there reads as "scroll for more". (It measures only on a phone: a desktop frame must
  // not force a layout.)
  const markEdges = () => {
    const more = phoneWidth().matches && box.scrollWidth > box.clientWidth + 4;
    box.classList.toggle("more-left", more && box.scrollLeft > 4);
    box.classList.toggle("more-right", more && box.scrollLeft + box.clientWidth < box.scrollWidth - 4);
  };
  box.addEventListener("scroll", markEdges, { passive: true });

  function seatBox(index, place) {
    const { info, view, mine, lastActor, clock } = state();
    const seat = info.seats[index];
    const finished = info.status === "finished";
    const isMe = mine && mine.seat === index;
    const turn = !finished && acting.includes(index);
    const deadline = finished ? null : seatDeadline(game, info, view, index, acting, clock);
    const initial = (seat.display_name || "?").trim().charAt(0).toUpperCase() || "?";
    const badges = [];
    if (seat.kind === "human" && !seat.connected && !finished && !seat.conceded) badges.push(el("span", { class: "badge away" }, t("table.away")));
    if (seat.conceded) badges.push(el("span", { class: "badge conceded" }, t("table.conceded")));
    else if (seat.stand_in) badges.push(el("span", { class: "badge stand-in" }, t("table.stand_in")));
    if (seat.reserved) badges.push(el("span", { class: "badge invited" }, t("table.invited")));
    if (turn) badges.push(el("span", { class: "badge turn-badge" }, isMe && !seat.conceded ? t("table.your_move") : t("table.to_move")));
    const classes = ["seat", turn ? "turn" : "", seat.kind === "bot" ? "bot" : "", seat.kind === "empty" ? "empty" : "",
      isMe ? "me" : "", seat.kind === "human" && !seat.connected ? "is-away" : "",
      index === lastActor ? "acted" : ""].filter(Boolean).join(" ");
    return el("div", { class: classes, role: "listitem", "data-seat": index,
      // On a phone the rows fold into one strip in seat order, starting with yours.
      style: `order:${place};--seat:${seatColour(index)}`, "aria-current": turn ? "true" : null },
    el("div", { class: "seat-head" },
      el("span", { class: `avatar${deadline ? " timed" : ""}`, "aria-hidden": "true",
        "data-end": deadline ? deadline[0] : null, "data-total": deadline ? deadline[1] : null }, el("span", {}, initial)),
      el("span", { class: "seat-name" },
        el("strong", {}, seatName(seat, info.game)), levelBadge(seat, info.game),
        isMe ? ` (${t("table.you")})` : "")),
    el("div", { class: "badges" }, badges),
    // What the others can see of this seat (a fan of card backs, chips, a pile...).
    view && game.seat ? el("div", { class: "seat-game" }, game.seat(view, index, ctx)) : "",
    reactionOn(index) || "");
  }

  function drawFelt(board) {
    const { info, mine } = state();
    const centre = phoneWidth().matches ? null
      : felt.querySelector(":scope > [data-felt]") || board.querySelector("[data-felt]");
    feltLine.textContent = turnLine(t, { status: info.status, acting, me: mine ? mine.seat : null, names: info.seats.map((seat) => seatName(seat, info.game)) });
    if (centre) {
      if (centre.parentNode !== felt) felt.replaceChildren(centre);
    } else if (feltLine.parentNode !== felt) {
      felt.replaceChildren(feltLine);
    }
    felt.classList.toggle("holds", Boolean(centre));
    // The turn line repeats what the seats say (hidden from screen readers); the game's
    // centre is the board itself.
    if (centre) felt.removeAttribute("aria-hidden"); else felt.setAttribute("aria-hidden", "true");
  }

  function tick() {
    const now = Date.now();
    for (const avatar of box.querySelectorAll(".avatar[data-end]")) {
      const left = timeLeft(Number(avatar.dataset.end), Number(avatar.dataset.total), now);
      avatar.style.setProperty("--left", left.toFixed(3));
      avatar.classList.toggle("hurry", left < 0.25);
    }
  }

  function draw(board) {
    const { info, view, mine } = state();
    acting = actingSeats(game, view);
    const n = info.seats.length;
    const offset = mine ? mine.seat : 0;  // the viewer sits at the bottom of the table
    box.style.setProperty("--n", n);
    // On a phone: every seat in rows where they fit (--cols), else a sideways strip.
    const columns = phoneColumns(n);
    box.classList.toggle("all-in-sight", columns > 0);
    box.style.setProperty("--cols", columns || n);
    const boxes = info.seats.map((_, index) => seatBox(index, (index - offset + n) % n));
    const layout = tableLayout(n);
    const byPlace = (place) => boxes[(place + offset) % n];
    list.replaceChildren(
      el("div", { class: "ring-row ring-top" }, layout.top.map(byPlace)),
      el("div", { class: "ring-side ring-left" }, layout.left.map(byPlace)),
      el("div", { class: "ring-side ring-right" }, layout.right.map(byPlace)),
      el("div", { class: "ring-row ring-bottom" }, layout.bottom.map(byPlace)));
    drawFelt(board);
    tick();
    // In the phone's strip of seats, keep the seat whose move it is in sight.
    // (Only there: measuring forces a layout, which costs a desktop frame several ms.)
    const turnSeat = phoneWidth().matches ? box.querySelector(".seat.turn") : null;
    if (turnSeat && box.scrollWidth > box.clientWidth + 4) {
      const left = turnSeat.offsetLeft - box.offsetLeft;
      if (left < box.scrollLeft || left + turnSeat.offsetWidth > box.scrollLeft + box.clientWidth) {
        box.scrollLeft = Math.max(0, left - 8);
      }
    }
    markEdges();
  }

  return {
    box, felt, draw, tick,
    acting: () => acting,
    // The seat that just acted pulses once.
    pulse: (seat) => pulse(box.querySelector(`.seat[data-seat="${seat}"]`)),
  };
}
