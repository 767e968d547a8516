// How seats are named and shown everywhere (seats, log, results, replay, lobby).
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { seatColour } from "../lib/motion.js";

// A bot seat is "Ada · strong": the name comes from the server (distinct at the table),
// the level from the catalogue.
export function seatName(seat) {
  if (!seat) return "?";
  if (seat.kind === "bot") {
    const level = t(`bot.${seat.bot}`);
    return seat.display_name ? t("bot.named", { name: seat.display_name, level }) : t("lobby.bot", { level });
  }
  return seat.display_name || t("lobby.seat_open");
}

// A name chip (the log, summaries and results, the replay): the seat's colour, and a
// bot's level in small type.
export function seatChip(seats, seatIndex) {
  const seat = seats[seatIndex];
  if (!seat) return el("span", { class: "who" }, t("event.someone"));
  const named = seat.kind === "bot" && seat.display_name;
  const level = named ? el("small", {}, ` · ${t(`bot.${seat.bot}`)}`) : "";
  return el("span", { class: "who", style: `--seat:${seatColour(seatIndex)}` }, named ? seat.display_name : seatName(seat), level);
}

// A table without a name of its own is "<host>'s table" in the viewer's language.
export function tableName(info) {
  return info.host_name ? t("lobby.table_of", { name: info.host_name }) : info.name;
}
