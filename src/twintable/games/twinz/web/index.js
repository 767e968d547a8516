// Twinz in the browser: the game's side of the client interface (README.md in
// twintable/web). The board and the log's sentences are made in board.js.
import { renderTwinz } from "./board.js";
import pictures from "./pictures.js";

function narrate(event, { ctx }) {
  const line = renderTwinz.describe(event, ctx);
  return line === null && event.kind === "game_over" ? undefined : line;  // undefined: the shell's "… wins!"
}

// The duo's countdown and the guessers' time, on the seats that are racing them.
function deadline(view, seat, { acting, local }) {
  if (!acting.includes(seat)) return null;
  if (view.phase === "clues" && (view.clue_due || view.countdown_ends)) {
    return [local(view.countdown_ends || view.clue_due), (view.options.countdown_s || 5) * 1000];
  }
  if (view.phase === "guesses" && view.guess_due) return [local(view.guess_due), (view.options.guess_timeout_s || 30) * 1000];
  return null;
}

function breakdown(seat, total, { t, view, points }) {
  return view?.points ? t("table.twinz_breakdown", { points: view.points[seat], n: view.cards[seat] }) : points(total);
}

// Tied on points, more cards won ranks higher (RULES.md).
function ranking(view) {
  return view?.cards ? { tieBreak: view.cards, note: "table.tie_on_cards" } : null;
}

// What a seat knew in the replay: the mystery word (the duo) and its own clue.
function replayHand(view, { t, el }) {
  const known = [view.mystery ? t("replay.word", { word: view.mystery.toUpperCase() }) : "",
    view.my_clue ? t("replay.clue", { word: view.my_clue.toUpperCase() }) : ""].filter(Boolean);
  return el("span", { class: known.length ? "" : "replay-none" }, known.length ? known.join(" · ") : t("replay.no_word"));
}

export default {
  styles: ["twinz.css"],
  ...pictures,
  render: renderTwinz,
  seat: renderTwinz.seat,
  tick: renderTwinz.tick,
  whoActs: renderTwinz.toAct,
  deadline,
  narrate,
  isOver: (view) => view.phase === "over",
  sounds: { clue_given: "card", clues_revealed: "reveal", round_over: "reveal" },
  // The round's result stands on the board (its banner through the pause, its recap until
  // the next card is dealt), and the revealed clues on their turned cards: neither is
  // flashed above the board too (issue 40: on a phone the clues were announced twice).
  banners: {
    round_over: (event, { view }, told) => (view?.phase === "over"
      || (view?.phase === "draw" && (view.pause_until != null || view.recap != null)) ? null : told),
    clues_revealed: (event, { view }, told) => (Array.isArray(view?.clues) || view?.recap != null ? null : told),
  },
  breakdown,
  ranking,
  replayHand,
};
