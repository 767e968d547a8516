// The guided first game from the lobby: offered once per game to a player (on its first
// "Play now" or "Set up a table"), always on the game's card, and started as a table the
// server deals from the game's declaration (`tutorial: true`). Whether a player has seen
// a game's guided game is kept on their profile (the server), so another browser holding
// the profile does not offer it again, and on this browser (for a player with no profile
// yet, or a server that cannot be asked). Nothing happens on import.
import { api, errorText } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { profile, saveKey, saveSetting, saveToken, setting } from "../lib/store.js";

const LOCAL = "guided.";
const localMarks = () => Object.fromEntries(Object.keys(localStorage)
  .filter((key) => key.startsWith(`tt.${LOCAL}`)).map((key) => [key.slice(3 + LOCAL.length), localStorage.getItem(key)]));
const guidedUrl = (id, game = "") => `/api/profiles/${encodeURIComponent(id)}/guided${game ? `/${encodeURIComponent(game)}` : ""}`;

// The profile's marks ({game: how}), asked once per profile and page load; marks made
// on this browser before the profile knew them are sent to it then. {} without a
// profile or when the server does not answer (this browser's marks still count).
let asked = { id: null, marks: null };
export function profileMarks() {
  const { id, secret } = profile();
  if (!id || !secret) return Promise.resolve({});
  if (asked.id !== id) {
    asked = { id, marks: api("GET", guidedUrl(id), null, secret).then(async ({ games }) => {
      const untold = Object.entries(localMarks()).filter(([game]) => !(game in games));
      for (const [game, how] of untold) {
        await api("PUT", guidedUrl(id, game), { how }, secret).catch(() => {});  // a game not installed here
      }
      return { ...Object.fromEntries(untold), ...games };
    }).catch(() => ({})) };
  }
  return asked.marks;
}

// Whether this player has played, skipped or been through the game's guided game.
export async function guidedSeen(gameId) {
  if (setting(`${LOCAL}${gameId}`) !== null) return true;
  const kept = (await profileMarks())[gameId];
  if (kept) saveSetting(`${LOCAL}${gameId}`, kept);
  return Boolean(kept);
}

// Kept here at once, and on the profile when there is one (a failed request leaves this
// browser's mark, sent again with the next lobby's).
export function markGuided(gameId, how) {
  saveSetting(`${LOCAL}${gameId}`, how);
  const { id, secret } = profile();
  if (!id || !secret) return Promise.resolve();
  return api("PUT", guidedUrl(id, gameId), { how }, secret).then(({ games }) => {
    asked = { id, marks: Promise.resolve(games) };
  }).catch(() => {});
}

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
