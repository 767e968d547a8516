// The pure part of the seat ring: where each seat sits, who acts, what the felt says,
// and each seat's clock. No DOM here (tests/web/js runs it under Node).
import { isOver } from "./cues.js";

// Where each seat sits, counted clockwise from the viewer's (place 0, bottom centre):
// a bottom row, a seat at each end of the table, and a top row. Returns the places in
// each row, left to right.
export function tableLayout(n) {
  if (n <= 3) return { bottom: [0], left: [], top: Array.from({ length: n - 1 }, (_, i) => i + 1), right: [] };
  const rest = n - 2;  // one seat at each end
  const top = Math.ceil(rest / 2);
  const bottom = rest - top;
  const leftOfMe = Math.floor((bottom - 1) / 2);
  const rightOfMe = bottom - 1 - leftOfMe;
  const row = [];
  for (let place = leftOfMe; place >= 1; place--) row.push(place);
  row.push(0);
  for (let i = 0; i < rightOfMe; i++) row.push(n - 1 - i);
  const left = leftOfMe + 1;
  return { bottom: row, left: [left],
    top: Array.from({ length: top }, (_, i) => left + 1 + i), right: [left + 1 + top] };
}

// On a phone every seat stays in sight where it fits: up to PHONE_ROWS rows of at most
// three seats (a narrow seat's name and level still read at a third of 390 px), yours
// first. Returns how many columns, or 0 where more seats than that fold into a strip
// that scrolls sideways.
export const PHONE_ROWS = 2;
export function phoneColumns(n) {
  if (n <= 3) return Math.max(n, 1);
  const columns = Math.ceil(n / PHONE_ROWS);
  return columns <= 3 ? columns : 0;
}

// Who may act now (seats): the game says, while it is not over (its `isOver`).
export const actingSeats = (game, view) => (isOver(game, view) ? [] : game.whoActs(view));

// A seat's clock, as [end (local ms), total ms], or null: the game's own clocks first
// (a hand about to lift, a countdown), then the table's time limit for a person's move.
// `clock`: when the last frame arrived (local ms) and when the last move was made.
export function seatDeadline(game, info, view, seat, acting, clock) {
  if (isOver(game, view)) return null;
  const local = (serverMs) => clock.received + (serverMs - (view.now_ms ?? serverMs));
  const own = game.deadline ? game.deadline(view, seat, { acting, local }) : null;
  if (own) return own;
  if (info.turn_limit_s && acting.includes(seat) && info.seats[seat]?.kind === "human") {
    return [clock.lastMove + info.turn_limit_s * 1000, info.turn_limit_s * 1000];
  }
  return null;
}

// How much of a clock is left, from 1 (all) to 0.
export const timeLeft = (end, total, now) => Math.max(0, Math.min(1, (end - now) / total));

// The line on the felt: whose turn it is, in words.
export function turnLine(t, { status, acting, me, names }) {
  if (status === "finished") return t("table.game_over");
  if (status === "open") return t("table.waiting");
  if (!acting.length) return "";
  if (acting.includes(me) && acting.length === 1) return t("table.your_turn");
  if (acting.length === 1) return t("table.turn_of", { name: names[acting[0]] });
  return acting.includes(me) ? t("table.your_turn") : t("table.many_to_move", { n: acting.length });
}
