// Twin It in the browser: the game's side of the client interface (README.md in
// twintable/web). The board itself is drawn in board.js.
import { renderTwinIt } from "./board.js";
import pictures from "./pictures.js";

const ERRORS = ["different", "both_hands", "own_pile", "taboo"];
const together = (view) => view?.mode === "coop";

function narrate(event, { line, who, listOf, view, replay, actor }) {
  const data = event.data || {};
  const name = who(data.seat ?? actor);
  const names = (seats) => listOf((seats || []).map(who));
  switch (event.kind) {
    case "round_started": return line("round_started", { round: data.round });
    // A flip every few seconds would push the takes out of sight: the log keeps them
    // for the replay's caption only.
    case "flipped": return replay ? line("flipped", { name }) : null;
    case "taken":
      if (data.stolen_from !== undefined) return line("stolen", { name, victim: who(data.stolen_from) });
      return line(data.size >= 3 ? "taken_triple" : "taken_pair", { name });
    case "third_flipped": return line("third_flipped");
    case "triple_flipped": return line("triple_flipped");
    case "error": {
      const reason = ERRORS.includes(data.reason) ? data.reason : "different";
      const said = line(`error.${reason}`, { name }) || [];
      // A chip is an element: one node can stand in one place only, so the second
      // sentence gets its own (reusing it took the name out of the first).
      const lost = data.lost_set_picture !== null && data.lost_set_picture !== undefined ? line("lost_set", { name: who(data.seat ?? actor) }) : line("no_set_lost");
      return [...said, " ", ...(lost || [])];
    }
    case "tie": return line("tie", { names: names(data.seats) });
    case "finishing": return line("finishing");
    case "sudden_death": return line("sudden_death", { names: names(data.seats) });
    case "round_over": return line("round_over", { round: data.round });
    case "game_over": return together(view) ? line("coop_over", { n: (data.scores || [0])[0] }) : undefined;
    default: return null;
  }
}

// The round under way when a table opens (a competitive round starts with the deal, no
// move tells it; a cooperative one waits for its start button, whose move does).
function opening(view, { line }) {
  return view.phase === "play" ? line("round_started", { round: view.round || 1 }) : null;
}

// A hand on a card is lifted after hold_ms unless its pair completes.
function deadline(view, seat, { local }) {
  if (!Array.isArray(view.hands)) return null;
  const held = view.hands.filter((hand) => hand.seat === seat && hand.lift_ms);
  return held.length ? [local(Math.min(...held.map((hand) => hand.lift_ms))), view.options.hold_ms || 1500] : null;
}

function breakdown(seat, total, { t, view, points }) {
  return view?.mode === "coop" || view?.mode === "timeattack" ? points(total) : t("table.sets", { n: total });
}

// In the cooperative mode everyone wins or loses together: one score, the level reached.
function result(view, { scores }, { t, el, tNodes }) {
  if (!together(view)) return null;
  return { together: true, headline: tNodes("table.coop_result", { n: scores[0] }),
    extra: view.level ? el("p", { class: "level-reached", id: "result-level" }, t("table.level_reached", { level: t(`twinit.level.${view.level}`) })) : "" };
}

export default {
  styles: ["twinit.css"],
  ...pictures,
  render: renderTwinIt,
  seat: renderTwinIt.seat,
  key: renderTwinIt.key,
  tick: renderTwinIt.tick,
  isOver: (view) => view.phase === "over",
  whoActs: (view) => (view.phase === "play" && typeof view.turn === "number" ? [view.turn] : []),
  sounds: { flipped: "card", taken: "take", error: "error", round_over: "reveal" },
  // A take, an error and a tie are read at a glance above the board, mid-race.
  banners: { taken: true, tie: true, error: true, round_over: true },
  deadline,
  narrate,
  opening,
  breakdown,
  result,
  replayHand: () => null,
};
