// A table waiting for players: the invite link, the seats its creator may open or give
// to a bot, and the start button.
import { api, errorText } from "../lib/api.js";
import { copyField, el } from "../lib/dom.js";
import { botChoices, levelLabel } from "../lib/levels.js";
import { t } from "../lib/i18n.js";
import { inviteKey } from "../lib/store.js";

export function waitingNodes({ info, mine, tableId, game, flash }) {
  const invite = `${location.origin}/#/join/${tableId}${inviteKey(tableId) ? `.${inviteKey(tableId)}` : ""}`;
  const isCreator = mine && mine.seat === (info.creator_seat ?? 0);
  const full = info.seats.every((s) => s.kind !== "empty");
  const seatControls = isCreator && game ? el("div", { id: "seat-controls" }, info.seats.map((seat, number) => {
    if (number === mine.seat) return "";
    let openLabel = t("lobby.seat_open");
    if (seat.kind === "human") openLabel = t("table.kick", { name: seat.display_name });
    else if (seat.reserved) openLabel = t("table.kept_for", { name: seat.display_name });
    return el("label", { class: "field" }, t("lobby.seat", { n: number + 1 }), " ",
      el("select", { "data-seat-control": number, onchange: async (event) => {
        try {
          if (event.target.value === "") await api("DELETE", `/api/tables/${tableId}/seats/${number}`, null, mine.token);
          else await api("PUT", `/api/tables/${tableId}/seats/${number}/bot`, { bot: event.target.value }, mine.token);
        } catch (error) { flash(errorText(error)); }
      } },
      el("option", { value: "", selected: seat.kind !== "bot" }, openLabel),
      botChoices(game, seat.bot).map((bot) => el("option", { value: bot, selected: seat.bot === bot }, t("lobby.bot", { level: levelLabel(game.id, bot) })))));
  })) : "";
  return [
    el("h2", {}, t("table.waiting")),
    info.rematch_of ? el("p", { class: "rematch-note" }, t("table.rematch_note")) : "",
    seatControls,
    el("div", { class: "invite" }, el("label", { for: "invite" }, t("table.invite")),
      copyField({ id: "invite", value: invite, label: t("table.invite") })),
    isCreator ? el("button", { class: "primary", id: "start", disabled: !full, onclick: async () => {
      try { await api("POST", `/api/tables/${tableId}/start`, null, mine.token); } catch (error) { flash(errorText(error)); }
    } }, t("table.start")) : el("p", {}, t("table.wait_for_start")),
    !mine ? el("button", { onclick: () => { location.hash = `#/join/${tableId}`; } }, t("lobby.join")) : "",
  ];
}
