// Twin Tricks' web module under Node's built-in runner: it imports without a DOM, it
// implements the hooks the shell calls, and its narration, through the shell's own
// narration and its real catalogues, reads as people see it in the log.
// TWINTABLE_WEB: the installed Twin Table's web folder (set by test_web_module.py).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const WEB = process.env.TWINTABLE_WEB;
const OWN = fileURLToPath(new URL("../../src/twintable_tricks/web/", import.meta.url));
const NAMES = ["Ann", "Bo", "Chen"];
const el = (tag, attrs, ...children) => children.flat().join("");
let game;
let shell;

before(async () => {
  // Node has no server: the catalogues come from the files the server would serve.
  globalThis.fetch = async (url) => {
    const mine = /^\/static\/games\/tricks\/i18n\/([a-z]+)\.json$/.exec(url);
    // The shell's, as lib/i18n.js names them: beside it (a file path here, in Node).
    const theirs = /(?:^\/static|\/web)\/i18n\/([a-z]+)\.json$/.exec(url);
    const path = mine ? `${OWN}i18n/${mine[1]}.json` : theirs ? `${WEB}/i18n/${theirs[1]}.json` : null;
    if (!path) return { ok: false, json: async () => ({}) };
    const text = await readFile(path, "utf8");
    return { ok: true, json: async () => JSON.parse(text) };
  };
  game = (await import(pathToFileURL(`${OWN}index.js`))).default;
  const i18n = await import(pathToFileURL(`${WEB}/lib/i18n.js`));
  shell = await import(pathToFileURL(`${WEB}/table/narration.js`));
  await i18n.useLanguage("en", ["/static/games/tricks/i18n/"]);
});

function tell(events) {
  const use = shell.tools("tricks", (seat) => NAMES[seat] ?? "someone",
    { el, listOf: (items) => items.join(", "), memory: {}, seats: NAMES, replay: false });
  return shell.describeEvents(game, events, use).map(([, line]) => [line].flat().join(""));
}

test("the module implements the interface the shell calls", () => {
  for (const hook of ["render", "seat", "whoActs", "isOver", "narrate", "replayHand", "drawCard"]) {
    assert.equal(typeof game[hook], "function", hook);
  }
  assert.ok(game.facts.players >= 2);
  // The lobby's length is measured from the rules (table_minutes; test_sim.py), not set here.
  assert.equal(game.facts.minutes, undefined);
  assert.deepEqual(game.styles, ["tricks.css"]);
});

test("only the seat on turn acts, and nobody once the game is over", () => {
  assert.deepEqual(game.whoActs({ over: false, turn: 2 }), [2]);
  assert.deepEqual(game.whoActs({ over: true, turn: 2 }), []);
  assert.equal(game.isOver({ over: true, turn: 2 }), true);
});

test("a card sounds, a trick taken and a hand's end too; the hand's end shows above the board", () => {
  assert.deepEqual(game.sounds, { played: "card", trick_won: "take", hand_over: "reveal" });
  assert.deepEqual(Object.keys(game.banners), ["hand_over"]);
});

test("the log tells the deal, each card by name, each trick and each hand", () => {
  assert.deepEqual(tell([
    { kind: "hand_started", data: { hand: 1, dealer: 2, leader: 0 } },
    { kind: "dealt", data: { seat: 0, cards: [1, 2] } },
    { kind: "played", data: { seat: 1, card: 26 } },
    { kind: "trick_won", data: { seat: 1, trick: 1, cards: [20, 26] } },
    { kind: "hand_over", data: { hand: 1, last_trick: 1, tricks: [0, 1, 0], points: [0, 2, 0], scores: [0, 2, 0] } },
  ]), ["Hand 1: Chen deals, Ann leads", "Bo plays 7 of suns", "Bo takes the trick",
    "Hand 1 is over: Bo took the last trick"]);
});

test("the end of the game is told by the shell, from its winners", () => {
  const lines = tell([{ kind: "game_over", data: { winners: [0], scores: [11, 4] } }]);
  assert.equal(lines.length, 1);
  assert.match(lines[0], /Ann/);
});
