// What each game declares beyond its lines (table/cues.js): the events that sound, the
// ones that make a banner and how it reads, and when the game is over.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { useLanguage } from "../../../src/twintable/web/lib/i18n.js";
import { bannerOf, isOver, soundOf } from "../../../src/twintable/web/table/cues.js";
import { client, gameFolders, GAMES, serveCatalogues } from "./catalogues.mjs";

const games = {};
before(async () => {
  serveCatalogues();
  await useLanguage("en", gameFolders());
  for (const id of GAMES) games[id] = await client(id);
});

test("a sound and a banner come from the game's declaration, by event kind", () => {
  const game = { sounds: { dealt: "card", odd: "trumpet" }, banners: { won: true, hidden: (event, use, told) => (use.view.shown ? null : told) } };
  assert.equal(soundOf(game, { kind: "dealt" }), "card");
  assert.equal(soundOf(game, { kind: "odd" }), null);  // not a sound the shell has
  assert.equal(soundOf(game, { kind: "won" }), null);
  assert.equal(soundOf({}, { kind: "dealt" }), null);
  assert.equal(bannerOf(game, { kind: "won" }, {}, "Ann wins the round"), "Ann wins the round");
  assert.equal(bannerOf(game, { kind: "dealt" }, {}, "dealt"), undefined);
  assert.equal(bannerOf(game, { kind: "hidden" }, { view: { shown: true } }, "x"), null);  // on the board already
  assert.equal(bannerOf(game, { kind: "hidden" }, { view: {} }, "x"), "x");
});

test("each built-in game keeps its sounds and banners", () => {
  const heard = (id, kind) => soundOf(games[id], { kind });
  assert.equal(heard("timo", "played"), "card");
  assert.equal(heard("timo", "caught"), "take");
  assert.equal(heard("twins", "revealed"), "reveal");
  assert.equal(heard("twinit", "error"), "error");
  assert.equal(heard("twinz", "clues_revealed"), "reveal");
  assert.equal(heard("timo", "drew"), null);
  const shown = (id, kind, view = {}) => bannerOf(games[id], { kind }, { view }, "line");
  assert.equal(shown("twins", "bankrupt"), "line");
  assert.equal(shown("twinit", "taken"), "line");
  assert.equal(shown("timo", "played"), undefined);
  // Twinz's round result stands on its own board during the pause: no banner above it.
  assert.equal(shown("twinz", "round_over", { phase: "draw", pause_until: 5 }), null);
  assert.equal(shown("twinz", "round_over", { phase: "draw" }), "line");
  assert.equal(shown("twinz", "clues_revealed", { clues: ["a", "b"] }), null);
});

test("each game says when it is over, and no view yet is not a game in play", () => {
  assert.equal(isOver(games.timo, { over: true }), true);
  assert.equal(isOver(games.timo, { over: false, phase: "over" }), false);
  for (const id of ["twins", "twinit", "twinz"]) {
    assert.equal(isOver(games[id], { phase: "over" }), true, id);
    assert.equal(isOver(games[id], { phase: "play", over: true }), false, id);
  }
  for (const id of GAMES) assert.equal(isOver(games[id], null), true, id);
});
