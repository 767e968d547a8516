// Bot levels on one scale (from /api/games `levels`) and the lobby's measured lengths.
import assert from "node:assert/strict";
import { test } from "node:test";
import { botChoices, SCALE } from "../../../src/twintable/web/lib/levels.js";
import { playNowSeats, typicalMinutes } from "../../../src/twintable/web/pages/lobby.js";

const declared = { id: "g", bots: ["casual", "expert", "random", "relaxed", "sharp"], default_bot: "relaxed",
  levels: [{ bot: "expert", level: "expert" }, { bot: "sharp", level: "medium" }, { bot: "relaxed", level: "beginner" },
    { bot: "casual", level: "easy" }] };

test("levels are offered weakest first, the random bot left out unless already seated", () => {
  assert.deepEqual(botChoices(declared), ["relaxed", "casual", "sharp", "expert"]);
  assert.deepEqual(botChoices(declared, "random"), ["relaxed", "casual", "sharp", "expert", "random"]);
  assert.deepEqual(SCALE, ["beginner", "easy", "medium", "hard", "expert"]);
});

test("one bot per level: the default where it has that level, never an alias or the random bot", () => {
  const withAliases = { bots: ["easy", "heuristic", "random", "search", "strong"], default_bot: "heuristic",
    levels: [{ bot: "easy", level: "easy" }, { bot: "heuristic", level: "easy" }, { bot: "random", level: "beginner" },
      { bot: "search", level: "hard" }, { bot: "strong", level: "hard" }] };
  assert.deepEqual(botChoices(withAliases), ["random", "heuristic", "search"]);
});

test("a game that declares no levels offers its bots as before", () => {
  assert.deepEqual(botChoices({ bots: ["heuristic", "random", "search"] }), ["heuristic", "random", "search"]);
});

test("Play now seats bots of the level chosen", () => {
  const game = { min_players: 1, max_players: 6, default_bot: "relaxed" };
  assert.deepEqual(playNowSeats(game, { players: 3 }, "sharp").seats.map((seat) => seat.bot ?? seat.kind),
    ["human", "sharp", "sharp"]);
  assert.equal(playNowSeats(game, { players: 3 }).seats[1].bot, "relaxed");
});

test("the lobby's length is the measured one of the default mode, in whole minutes", () => {
  const modes = { options: [{ name: "mode", default: "competitive" }], minutes: { competitive: 1.6, timeattack: 6.1 } };
  assert.equal(typicalMinutes(modes), 2);
  assert.equal(typicalMinutes({ options: [], minutes: { "": 17.9 } }), 18);
  assert.equal(typicalMinutes({ options: [], minutes: { "": 0.4 } }), 1);
  assert.equal(typicalMinutes({ options: [] }), null);
});

test("Play now forgets a remembered bot the game no longer offers as a level", async () => {
  const kept = new Map();
  globalThis.localStorage = { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => kept.set(key, String(value)) };
  const { chooseBot, chosenBot } = await import("../../../src/twintable/web/lib/levels.js");
  chooseBot(declared, "sharp");
  assert.equal(chosenBot(declared), "sharp");
  chooseBot(declared, "random");  // chosen when the game still offered it as Beginner
  assert.equal(chosenBot(declared), "relaxed");
  delete globalThis.localStorage;
});
