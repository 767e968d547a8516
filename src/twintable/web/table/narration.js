// The narrated log, for the table and the replay alike: each game tells its own events
// (its `narrate`); the shell adds what every game shares (who won) and the counted words.
import { el, listOf } from "../lib/dom.js";
import { t, tNodes } from "../lib/i18n.js";

const cards = (n) => t("event.cards", { n });
const points = (n) => t("event.points", { n });

// What a game's hooks get besides the view: translation, elements, names and counts.
export function tools(gameId, who, extra = {}) {
  return { t, el, tNodes, listOf, who, cards, points,
    line: (key, params = {}) => tNodes(`event.${gameId}.${key}`, params), ...extra };
}

// The end of any game, when the game has nothing more particular to say.
export function gameOverLine(event, use) {
  const data = event.data || {};
  const won = data.winners || (data.winner !== undefined && data.winner !== null ? [data.winner] : []);
  return won.length ? use.tNodes("event.won", { names: use.listOf(won.map(use.who)), n: won.length }) : use.line("game_over");
}

// [event, line] for each event of one move that is worth a line (a line: a list of
// nodes and strings, or a string). `use`: tools() with the view, memory, actor, replay.
export function describeEvents(game, events, use) {
  const told = [];
  for (const event of events) {
    let line = game.narrate(event, use);
    if (line === undefined && event.kind === "game_over") line = gameOverLine(event, use);
    if (line === null || line === undefined || (typeof line === "string" && line.startsWith("event."))) continue;
    told.push([event, line]);
  }
  return told;
}
