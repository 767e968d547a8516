// Joining a table from its invite link ("#/join/<table>" or, for a private one,
// "#/join/<table>.<key>"): a name, then a seat; or just watching.
import { api, asPlayer, errorText, tableGet } from "../lib/api.js";
import { el, page } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { displayName, inviteKey, saveKey, saveToken, setDisplayName, tokens } from "../lib/store.js";
import { seatName, tableName } from "../table/names.js";

export async function joinPage(arg) {
  const [tableId, given] = String(arg || "").split(".");
  if (given) saveKey(tableId, given);
  let info;
  try { info = await tableGet(tableId); } catch (error) {
    if (error.code !== "table.private") throw error;
    page(t("lobby.join"), el("section", { class: "panel lb-join" }, el("p", { class: "error", role: "alert" }, errorText(error))));
    return;
  }
  if (tokens()[tableId]) { location.hash = `#/table/${tableId}`; return; }
  const key = given || inviteKey(tableId);
  const name = el("input", { id: "join-name", maxlength: 40, value: displayName(), autocomplete: "nickname" });
  const message = el("p", { class: "error", role: "alert" });
  const locked = info.private && !key;
  page(t("join.title", { game: t(`game.${info.game}`) }),
    el("section", { class: "panel lb-join" },
      el("h2", {}, tableName(info)),
      el("p", {}, info.seats.map((s) => (s.reserved ? t("table.kept_for", { name: s.display_name }) : seatName(s, info.game))).join(" · ")),
      locked ? el("p", { class: "error" }, t("error.table.private")) : "",
      el("label", { class: "field", for: "join-name" }, t("lobby.name"), " ", name),
      el("div", { class: "row" },
        el("button", { class: "primary", id: "join", disabled: locked, onclick: async () => {
          setDisplayName(name.value.trim());
          message.textContent = "";
          try {
            const joined = await asPlayer((me) => api("POST", `/api/tables/${tableId}/join`, {
              display_name: name.value.trim() || t("lobby.anonymous"), ...(key ? { key } : {}), ...me }));
            saveToken(tableId, joined.token, joined.seat, joined.socket);
            location.hash = `#/table/${tableId}`;
          } catch (error) { message.textContent = errorText(error); }
        } }, t("lobby.join")),
        el("button", { disabled: locked, onclick: () => { location.hash = `#/table/${tableId}`; } }, t("lobby.watch")),
        el("a", { href: `#/rules/${info.game}` }, t("lobby.rules"))),
      message));
}
