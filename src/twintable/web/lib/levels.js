// Bot levels as people see them: one scale for every game (Beginner to Expert, one bot a level),
// from what /api/games declares (`levels`: [{ bot, level }]). A game that declares none
// shows its bots' own names, as the catalogue words them (`bot.<bot>`).
import { knownGames } from "./api.js";
import { setting, saveSetting } from "./store.js";
import { t } from "./i18n.js";

export const SCALE = ["beginner", "easy", "medium", "hard", "expert"];

const declared = (gameId) => knownGames().find((g) => g.id === gameId)?.levels || [];

// The level on the scale of a game's bot, or null where the game declares none.
export function levelOf(gameId, bot) {
  return declared(gameId).find((entry) => entry.bot === bot)?.level || null;
}

// A seat's bot without its noise: "heuristic@0.2" (a random legal move one time in
// five, the server's bots/noise.py) is the heuristic bot, noisy.
export function splitNoise(bot) {
  const at = bot.lastIndexOf("@");
  return at > 0 ? { base: bot.slice(0, at), noisy: Number(bot.slice(at + 1)) > 0 } : { base: bot, noisy: false };
}

// What a bot is called before people: its level, else its own name; with a noise,
// "Medium (noisy)".
export function levelLabel(gameId, bot) {
  const { base, noisy } = splitNoise(bot);
  const level = levelOf(gameId, base);
  const label = level ? t(`level.${level}`) : t(`bot.${base}`);
  return noisy ? t("level.noisy", { level: label }) : label;
}

// The bots a person may choose, weakest first where levels are declared (then only
// those, and `keep`, one already seated: the random bot is a developer's tool),
// otherwise every bot the game offers.
export function botChoices(game, keep = null) {
  const levels = (game.levels || []).filter((entry) => SCALE.includes(entry.level));
  if (!levels.length) return game.bots;
  // One bot per level: the game's default where it has that level, else a bot's own name
  // (not an alias named after a level, nor the random bot), else whichever is declared.
  const bots = [];
  for (const level of SCALE) {
    const named = levels.filter((entry) => entry.level === level).map((entry) => entry.bot);
    if (!named.length) continue;
    bots.push(named.includes(game.default_bot) ? game.default_bot
      : named.find((bot) => !SCALE.includes(bot) && bot !== "random") || named[0]);
  }
  const kept = keep && !bots.includes(keep) && game.bots.includes(splitNoise(keep).base);
  return kept ? [...bots, keep] : bots;
}

// The level "Play now" seats: the one this browser chose last for the game while the
// game still offers it, else the game's default.
export function chosenBot(game) {
  const kept = setting(`bot.${game.id}`);
  return kept && botChoices(game).includes(kept) ? kept : game.default_bot;
}
export const chooseBot = (game, bot) => saveSetting(`bot.${game.id}`, bot);
