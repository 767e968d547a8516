// The server's HTTP API (docs/protocol.md): requests, refusals as sentences, the games
// and their assets, this browser's profile. Nothing happens on import.
import { t, language } from "./i18n.js";
import { displayName, forgetProfile, inviteKey, profile, saveProfile, tokens } from "./store.js";

export async function api(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.message || response.statusText);
    error.code = data.code || "http." + response.status;
    error.details = data.details || {};
    throw error;
  }
  return data;
}

// Every refusal as a sentence in the reader's language: each code has its catalogue entry
// (`error.<code>`); a request the server could not read names the field at fault.
const FIELD_KEYS = { display_name: "lobby.name", players: "lobby.players", name: "lobby.table_name",
  seats: "lobby.seats", options: "lobby.options", key: "lobby.invite_key" };
export function errorText(error) {
  if (error.code === "request.invalid") {
    const where = error.details?.errors?.[0]?.loc || [];
    const field = where.map((part) => FIELD_KEYS[part]).find(Boolean);
    return field ? t("error.request.invalid_field", { field: t(field) }) : t("error.request.invalid");
  }
  const key = `error.${error.code}`;
  const known = t(key);
  if (known !== key) return known;
  // A code the catalogue does not know yet: the server's own sentence is English.
  return language() === "en" && error.message ? error.message : t("error.unknown");
}

// Who you are on the leaderboard: a profile the server makes (a public id and a secret
// key only this browser holds; anyone can read the id, only the key plays under it).
export async function identity() {
  let { id, secret } = profile();
  if (!id || !secret) {
    const made = await api("POST", "/api/profiles", { display_name: displayName() || t("lobby.anonymous") });
    [id, secret] = [made.player_id, made.secret];
    saveProfile(id, secret);
  }
  return { player_id: id, player_secret: secret };
}

// `send(me)` with this browser's profile; when the server does not know that profile (its
// database was made anew, or an old link left a key it never issued), the browser makes
// a new one and sends once more, instead of refusing every table from then on.
export async function asPlayer(send) {
  try {
    return await send(await identity());
  } catch (error) {
    const malformed = error.code === "request.invalid" && (error.details?.errors || [])
      .some((problem) => ["player_id", "player_secret"].includes(problem.loc?.at(-1)));
    if (error.code !== "profile.invalid" && !malformed) throw error;
    forgetProfile();
    return send(await identity());
  }
}

// The public part of a profile whose secret key this is, or null when it is not.
export async function checkedProfile(id, secret) {
  try {
    return await api("POST", `/api/profiles/${encodeURIComponent(id)}/check`, null, secret);
  } catch (error) {
    if (error.code === "profile.invalid" || error.code === "http.404") return null;
    throw error;
  }
}

let gameList = null;
export async function games() {
  gameList = gameList || await api("GET", "/api/games");
  return gameList;
}
// The games once loaded (app.js loads them before any page is drawn), for code that
// must answer at once; empty before.
export const knownGames = () => gameList || [];

const assetsOf = {};
export async function assets(gameId) {
  assetsOf[gameId] = assetsOf[gameId] || await api("GET", `/api/games/${gameId}/assets`);
  return assetsOf[gameId];
}

// What a private table's pages ask with: its invite key (from the link) and, for its
// players, their seat token; a public table needs neither.
export function tableGet(tableId, path = "") {
  const key = inviteKey(tableId);
  const sep = path.includes("?") ? "&" : "?";
  const query = key ? `${sep}key=${encodeURIComponent(key)}` : "";
  return api("GET", `/api/tables/${tableId}${path}${query}`, null, tokens()[tableId]?.token);
}
