// The games' own clients, found through /api/games (each item's `web`: its module, styles
// and catalogues; where the server does not say yet, the folder it serves every game's
// client from). The shell knows a game only through the interface in README.md.
import { games } from "./api.js";

// Beside the shell, under the version the page was served with (server/assets.py).
const folder = (game) => new URL(`../games/${game.id}/`, import.meta.url).pathname;
export const webOf = (game) => ({
  module: game.web?.module || `${folder(game)}index.js`,
  styles: game.web?.styles || null,
  i18n: game.web?.i18n || `${folder(game)}i18n/`,
  pictures: game.web?.pictures || null,
});

const modules = {};
// The game's client module (its default export), loaded once.
export async function client(gameId) {
  if (!modules[gameId]) {
    const game = (await games()).find((g) => g.id === gameId);
    if (!game) throw Object.assign(new Error(gameId), { code: "game.unknown" });
    modules[gameId] = import(webOf(game).module).then((module) => module.default);
  }
  return modules[gameId];
}

const pictureModules = {};
// What the lobby and the rules pages draw of a game (`facts`, `picture`, `drawCard`): its
// small pictures module where it has one, so those pages never load a board; else its
// client.
export async function pictures(gameId) {
  if (!pictureModules[gameId]) {
    const game = (await games()).find((g) => g.id === gameId);
    const own = game && webOf(game).pictures;
    pictureModules[gameId] = own ? import(own).then((module) => module.default) : client(gameId);
  }
  return pictureModules[gameId];
}

const styled = {};
// The style sheets of the games named (every game where none is named: the lobby draws
// each one's tile) in the page, each game's once (a game that lists none names its own in
// `styles`, relative to its module), waited for so nothing is drawn unstyled.
export async function loadStyles(gameIds = null) {
  const list = (await games()).filter((game) => gameIds === null || gameIds.includes(game.id));
  await Promise.all(list.map((game) => {
    styled[game.id] = styled[game.id] || sheetsOf(game).then((sheets) => Promise.all(sheets.map(linked)));
    return styled[game.id];
  }));
}

async function sheetsOf(game) {
  const web = webOf(game);
  if (web.styles) return web.styles;
  const own = (await client(game.id).catch(() => ({}))).styles || [];
  return own.map((file) => new URL(file, new URL(web.module, location.href)).pathname);
}

function linked(href) {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = link.onerror = resolve;
    document.head.append(link);
  });
}

// The folders of every game's catalogues, for the language loader.
export async function catalogueFolders() {
  return (await games()).map((game) => webOf(game).i18n);
}
