// The games' clients and the real catalogues, served to lib/i18n.js's loader from the
// source tree (Node has no server): the shell's beside lib/i18n.js (`.../web/i18n/en.json`) and
// `fetch("/static/games/<id>/i18n/en.json")`. The games come from TWINTABLE_GAME_CLIENTS
// (set by tests/web/test_js_units.py from the server's registry: each game's web folder,
// options, action kinds and bots); run alone, from every src/twintable/games/*/web.
import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

const SRC = fileURLToPath(new URL("../../../src/twintable/", import.meta.url));

function builtIn() {
  const games = {};
  for (const id of readdirSync(`${SRC}games`)) {
    if (existsSync(`${SRC}games/${id}/web/index.js`)) games[id] = { web: `${SRC}games/${id}/web/` };
  }
  return games;
}

export const DECLARED = process.env.TWINTABLE_GAME_CLIENTS ? JSON.parse(process.env.TWINTABLE_GAME_CLIENTS) : builtIn();
export const GAMES = Object.keys(DECLARED);

export function serveCatalogues() {
  globalThis.fetch = async (url) => {
    const game = /^\/static\/games\/([a-z0-9_]+)\/i18n\/([a-z]+)\.json$/.exec(url);
    // The shell's, as its module names them: beside it (a file path here, in Node).
    const shell = /(?:^\/static|\/web)\/i18n\/([a-z]+)\.json$/.exec(url);
    const path = game && DECLARED[game[1]] ? `${DECLARED[game[1]].web}i18n/${game[2]}.json`
      : shell ? `${SRC}web/i18n/${shell[1]}.json` : null;
    if (!path) return { ok: false, json: async () => ({}) };
    const text = await readFile(path, "utf8");
    return { ok: true, json: async () => JSON.parse(text) };
  };
}

export const gameFolders = () => GAMES.map((id) => `/static/games/${id}/i18n/`);
export const client = async (id) => (await import(pathToFileURL(`${DECLARED[id].web}index.js`).href)).default;
