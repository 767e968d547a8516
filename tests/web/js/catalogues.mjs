// The real catalogues, served to lib/i18n.js's loader from the source tree (Node has no
// server): `fetch("/static/i18n/en.json")` and `fetch("/static/games/<id>/i18n/en.json")`.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../../src/twintable/", import.meta.url));
export const GAMES = ["timo", "twins", "twinit", "twinz"];

export function serveCatalogues() {
  globalThis.fetch = async (url) => {
    const game = /^\/static\/games\/([a-z0-9_]+)\/i18n\/([a-z]+)\.json$/.exec(url);
    const shell = /^\/static\/i18n\/([a-z]+)\.json$/.exec(url);
    const path = game ? `${SRC}games/${game[1]}/web/i18n/${game[2]}.json` : shell ? `${SRC}web/i18n/${shell[1]}.json` : null;
    if (!path) return { ok: false, json: async () => ({}) };
    const text = await readFile(path, "utf8");
    return { ok: true, json: async () => JSON.parse(text) };
  };
}

export const gameFolders = () => GAMES.map((id) => `/static/games/${id}/i18n/`);
export const client = async (id) => (await import(`${SRC}games/${id}/web/index.js`)).default;
