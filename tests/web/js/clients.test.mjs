// Every registered game's client keeps the interface the shell calls (README.md in
// src/twintable/web) and has, in every language, the strings the shell asks for it.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { client, DECLARED, GAMES } from "./catalogues.mjs";

const LANGUAGES = ["en", "fr", "ko", "nl"];
const REQUIRED = ["render", "seat", "whoActs", "narrate", "replayHand"];
const OPTIONAL = ["picture", "key", "tick", "deadline", "remember", "breakdown", "ranking", "result", "drawCard", "opening", "toldOnBoard"];
const SHELL = fileURLToPath(new URL("../../../src/twintable/web/i18n/", import.meta.url));
const json = async (path) => JSON.parse(await readFile(path, "utf8"));

for (const id of GAMES) {
  test(`${id}: the client implements the interface`, async () => {
    const game = await client(id);
    for (const hook of REQUIRED) assert.equal(typeof game[hook], "function", `${id}.${hook}`);
    for (const hook of OPTIONAL) assert.ok(game[hook] === undefined || typeof game[hook] === "function", `${id}.${hook}`);
    assert.ok(Number.isInteger(game.facts.players) && game.facts.players > 0, `${id}.facts.players`);
    // A game's length is measured and sent by the server (/api/games `minutes`), never guessed here.
    assert.equal(game.facts.minutes, undefined, `${id}.facts.minutes`);
    assert.ok(Array.isArray(game.styles) && game.styles.length, `${id}.styles`);
    if (game.score) for (const hook of ["track", "summary", "forget"]) assert.equal(typeof game.score[hook], "function", `${id}.score.${hook}`);
  });

  test(`${id}: every language has the strings the shell asks for`, async () => {
    const declared = DECLARED[id];
    for (const lang of LANGUAGES) {
      const strings = { ...(await json(`${SHELL}${lang}.json`)), ...(await json(`${declared.web}i18n/${lang}.json`)) };
      const has = (key) => strings[key] ?? strings[`${key}#other`];
      const wanted = [`game.${id}`, `game.${id}.about`, `event.${id}.game_over`,
        ...(declared.options || []).flatMap((name) => [`option.${id}.${name}`, `option.${id}.${name}.help`]),
        ...(declared.choices || []).map((choice) => `choice.${choice}`),
        ...(declared.kinds || []).map((kind) => `replay.action.${kind}`),
        ...(declared.bots || []).map((bot) => `bot.${bot}`)];
      const missing = wanted.filter((key) => !has(key));
      assert.deepEqual(missing, [], `${id} ${lang}`);
    }
  });
}
