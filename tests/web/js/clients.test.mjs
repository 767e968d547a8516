// Every registered game's client keeps the interface the shell calls (README.md in
// src/twintable/web) and has, in every language, the strings the shell asks for it.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { SOUNDS } from "../../../src/twintable/web/table/cues.js";
import { client, DECLARED, GAMES } from "./catalogues.mjs";

const LANGUAGES = ["en", "fr", "ko", "nl"];
const REQUIRED = ["render", "seat", "whoActs", "isOver", "narrate", "replayHand"];
const OPTIONAL = ["picture", "key", "tick", "deadline", "remember", "breakdown", "ranking", "result", "drawCard", "opening"];
const WEB = fileURLToPath(new URL("../../../src/twintable/web/", import.meta.url));
const SHELL = `${WEB}i18n/`;
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
    // Sounds and banners are declared by event kind: a sound the shell can play, a
    // banner `true` (the log's line) or a function that phrases it.
    for (const [kind, sound] of Object.entries(game.sounds || {})) assert.ok(SOUNDS.includes(sound), `${id}.sounds.${kind}: ${sound}`);
    for (const [kind, banner] of Object.entries(game.banners || {})) {
      assert.ok(banner === true || typeof banner === "function", `${id}.banners.${kind}`);
    }
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

// The shell's own words for frames and the end every game shares; any other event kind a
// game declares a sound or a banner for is the game's, and no shell module names it.
const SHARED = new Set(["game_over", "error"]);

test("the shell names no game's event", async () => {
  const files = [];
  for (const folder of ["", "lib/", "table/", "pages/", "net/"]) {
    for (const name of await readdir(`${WEB}${folder}`)) if (name.endsWith(".js")) files.push(`${WEB}${folder}${name}`);
  }
  const kinds = new Set();
  for (const id of GAMES) {
    const game = await client(id);
    for (const kind of [...Object.keys(game.sounds || {}), ...Object.keys(game.banners || {})]) if (!SHARED.has(kind)) kinds.add(kind);
  }
  assert.ok(kinds.size > 5, [...kinds].join(" "));
  const named = [];
  for (const file of files) {
    const text = await readFile(file, "utf8");
    for (const kind of kinds) if (text.includes(`"${kind}"`)) named.push(`${file.slice(WEB.length)}: ${kind}`);
  }
  assert.deepEqual(named, []);
});
