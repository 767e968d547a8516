// How seats are named and shown everywhere (seats, log, results, replay, lobby).
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { levelLabel } from "../lib/levels.js";
import { seatColour } from "../lib/motion.js";

// A seat's name in a sentence: a bot's own name (distinct at the table, from the
// server), never its level; a bot without a name is "bot: Easy".
export function seatName(seat, gameId) {
  if (!seat) return "?";
  if (seat.kind === "bot") {
    return seat.display_name || t("lobby.bot", { level: levelLabel(gameId, seat.bot) });
  }
  return seat.display_name || t("lobby.seat_open");
}

// A bot's level as a badge beside its name (seats, results, replay, lobby), never
// inside a sentence.
export function levelBadge(seat, gameId) {
  if (!seat || seat.kind !== "bot" || !seat.display_name) return "";
  return el("small", { class: "level-badge", "data-level": seat.bot }, levelLabel(gameId, seat.bot));
}

// A name and, for a bot, its level badge.
export function nameWithBadge(seat, gameId) {
  return [seatName(seat, gameId), levelBadge(seat, gameId)];
}

// A name chip in sentences (the log, summaries): the seat's colour and its name.
export function seatChip(seats, seatIndex, gameId) {
  const seat = seats[seatIndex];
  if (!seat) return el("span", { class: "who" }, t("event.someone"));
  return el("span", { class: "who", style: `--seat:${seatColour(seatIndex)}` }, seatName(seat, gameId));
}

// A table without a name of its own is "<host>'s table" in the viewer's language.
export function tableName(info) {
  return info.host_name ? t("lobby.table_of", { name: info.host_name }) : info.name;
}
