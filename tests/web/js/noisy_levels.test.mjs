// Bots with a noise at a table ("heuristic@0.2", the server's bots/noise.py): named by
// their level and "noisy" in each language, and kept among a seat's choices.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { games } from "../../../src/twintable/web/lib/api.js";
import { useLanguage } from "../../../src/twintable/web/lib/i18n.js";
import { botChoices, levelLabel, splitNoise } from "../../../src/twintable/web/lib/levels.js";
import { gameFolders, serveCatalogues } from "./catalogues.mjs";

const game = { id: "g", bots: ["heuristic", "random", "search"], default_bot: "heuristic",
  levels: [{ bot: "random", level: "beginner" }, { bot: "heuristic", level: "medium" }, { bot: "search", level: "expert" }] };

before(async () => {
  serveCatalogues();
  const catalogues = globalThis.fetch;
  globalThis.fetch = async (url, ...rest) => (url === "/api/games"
    ? { ok: true, status: 200, json: async () => [game] } : catalogues(url, ...rest));
  await games();
});

test("a noisy bot is its level, noisy, in every language", async () => {
  const expected = { en: "Medium (noisy)", fr: "Moyen (distrait)", ko: "보통 (실수가 있음)", nl: "Gemiddeld (afgeleid)" };
  for (const [lang, label] of Object.entries(expected)) {
    await useLanguage(lang, gameFolders());
    assert.equal(levelLabel("g", "heuristic@0.2"), label);
    assert.notEqual(levelLabel("g", "heuristic"), label);
  }
  await useLanguage("en", gameFolders());
  assert.equal(levelLabel("g", "heuristic@0"), "Medium");  // no noise: the bot itself
});

test("a seat's noisy bot stays among its choices; a noise on an unknown bot does not", () => {
  assert.deepEqual(splitNoise("search@0.5"), { base: "search", noisy: true });
  assert.deepEqual(botChoices(game, "search@0.5"), ["random", "heuristic", "search", "search@0.5"]);
  assert.deepEqual(botChoices(game, "oracle@0.5"), ["random", "heuristic", "search"]);
});
