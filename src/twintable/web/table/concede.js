// Giving the game up: asked once more, then a stand-in plays the seat to the end and the
// game counts as a loss (the server's concede); offered while the game is in play.
import { api, errorText } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

// `table`: { tableId, mine, info(), over(), conceded(), concededNow(info) (the server's
// answer: the seat is conceded), flash(text), redraw() }.
export function concedeControls(table) {
  const box = el("div", { class: "concede", id: "concede" });
  const ask = el("div", { class: "concede-ask panel", id: "concede-panel", hidden: true });
  const note = el("p", { class: "conceded-note", id: "conceded-note", hidden: true }, t("table.you_conceded"));

  async function concede() {
    ask.hidden = true;
    try {
      table.concededNow(await api("POST", `/api/tables/${table.tableId}/concede`, null, table.mine.token));
    } catch (error) { table.flash(errorText(error)); }
    table.redraw();
  }

  function askAgain() {
    ask.replaceChildren(el("p", { role: "alert" }, t("table.concede_confirm")),
      el("div", { class: "row" },
        el("button", { class: "danger", id: "concede-yes", onclick: concede }, t("table.concede_yes")),
        el("button", { id: "concede-no", onclick: () => { ask.hidden = true; } }, t("table.concede_no"))));
    ask.hidden = false;
    ask.querySelector("#concede-no").focus();
  }

  function draw() {
    const info = table.info();
    note.hidden = !(table.conceded() && info.status === "running");
    const seat = table.mine ? info.seats[table.mine.seat] : null;
    const open = info.status === "running" && seat && seat.kind === "human" && !seat.conceded && !table.over();
    if (!open) { box.replaceChildren(); ask.hidden = true; return; }
    if (box.childElementCount) return;
    // A flag and the word; on a phone the flag alone, so the table's name keeps its line.
    box.replaceChildren(el("button", { id: "concede-ask", "aria-label": t("table.concede"), title: t("table.concede"), onclick: askAgain },
      el("span", { class: "concede-flag", "aria-hidden": "true" }, "⚑"), " ",
      el("span", { class: "concede-label", "aria-hidden": "true" }, t("table.concede"))));
  }

  return { box, ask, note, draw };
}
