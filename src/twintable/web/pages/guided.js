// The guided first game from the lobby: offered once per game on this browser (its first
// "Play now"), always on the game's card, and started as a table the server deals from
// the game's declaration (`tutorial: true`). Nothing happens on import.
import { api, errorText } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { saveKey, saveSetting, saveToken, setting } from "../lib/store.js";

// Whether this browser has played, skipped or been through the game's guided game.
export const guidedSeen = (gameId) => setting(`guided.${gameId}`) !== null;
export const markGuided = (gameId, how) => saveSetting(`guided.${gameId}`, how);

// A guided table, started at once, and the page goes to it. No profile is sent: a
// lesson is never rated.
export async function startGuided(game, displayName) {
  markGuided(game.id, "started");
  const joined = await api("POST", "/api/tables", { game: game.id, players: game.min_players,
    tutorial: true, display_name: displayName });
  saveToken(joined.table.id, joined.token, joined.seat, joined.socket);
  if (joined.key) saveKey(joined.table.id, joined.key);
  await api("POST", `/api/tables/${joined.table.id}/start`, null, joined.token);
  location.hash = `#/table/${joined.table.id}`;
}

// The offer on a game's card: a guided game, or skip it (and go on as asked).
export function guidedOffer(game, { displayName, onSkip, message }) {
  const play = el("button", { class: "primary", id: `guided-${game.id}`, "data-guided-play": game.id, onclick: async () => {
    play.disabled = true;
    try { await startGuided(game, displayName()); } catch (error) {
      message.textContent = errorText(error);
      play.disabled = false;
    }
  } }, t("guided.play"));
  const box = el("div", { class: "guided-offer", role: "group", "data-guided-offer": game.id, "aria-label": t("guided.link") },
    el("p", {}, t("guided.offer", { game: t(`game.${game.id}`) })),
    el("div", { class: "row" }, play,
      el("button", { id: `guided-skip-${game.id}`, onclick: () => { markGuided(game.id, "skipped"); box.remove(); onSkip(); } }, t("guided.skip"))));
  queueMicrotask(() => play.focus());
  return box;
}

// The card's lasting way in: a link-like button that starts the guided game.
export function guidedLink(game, { displayName, message }) {
  const link = el("button", { class: "lb-guided link", "data-guided": game.id, onclick: async () => {
    link.disabled = true;
    try { await startGuided(game, displayName()); } catch (error) {
      message.textContent = errorText(error);
      link.disabled = false;
    }
  } }, t("guided.link"));
  return link;
}

// The coach mark's and the offer's styles, added once and waited for, so nothing is
// measured or drawn unstyled.
let styled = null;
export function coachStyles() {
  styled = styled || new Promise((resolve) => {
    const link = el("link", { rel: "stylesheet", href: new URL("../coach.css", import.meta.url).pathname });
    link.onload = link.onerror = resolve;
    document.head.append(link);
  });
  return styled;
}
