// Each game's narration through the shell, with the real catalogues: the lines people
// read in the log, the events left out, and the shell's line for the end of any game.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { useLanguage } from "../../../src/twintable/web/lib/i18n.js";
import { describeEvents, tools } from "../../../src/twintable/web/table/narration.js";
import { client, gameFolders, serveCatalogues } from "./catalogues.mjs";

const NAMES = ["Ann", "Bo", "Chen"];
// Without a DOM: a name chip is the name, an element its text.
const el = (tag, attrs, ...children) => children.flat().join("");
const text = (line) => [line].flat().join("");
const games = {};

before(async () => {
  serveCatalogues();
  await useLanguage("en", gameFolders());
  for (const id of ["timo", "twins", "twinit", "twinz"]) games[id] = await client(id);
});

function tell(id, events, extra = {}) {
  const use = tools(id, (seat) => NAMES[seat] ?? "someone",
    { el, listOf: (items) => items.join(", "), memory: {}, seats: NAMES, replay: false, ...extra });
  return describeEvents(games[id], events, use).map(([, line]) => text(line));
}

test("Timo names the card played, from the pile or from memory", () => {
  const memory = {};
  games.timo.remember({ round: 1, discard: [], hand: [{ id: 4, colour: "pink", rank: "7" }] }, memory);
  assert.deepEqual(tell("timo", [{ kind: "played", data: { seat: 1, card: 4 } }], { memory, view: { discard: [] } }),
    ["Bo plays pink 7"]);
  assert.deepEqual(tell("timo", [{ kind: "played", data: { seat: 0, card: 9, colour: "blue" } }],
    { memory, view: { discard: [{ id: 9, colour: "black", rank: "+4" }] } }), ["Ann plays a +4 and picks blue"]);
});

test("Timo's counts take their plural, and a catch says the draw once", () => {
  assert.deepEqual(tell("timo", [{ kind: "drew", data: { seat: 2, count: 1 } }]), ["Chen draws 1 card"]);
  assert.deepEqual(tell("timo", [{ kind: "drew", data: { seat: 2, count: 3 } }]), ["Chen draws 3 cards"]);
  assert.deepEqual(tell("timo", [{ kind: "drew", data: { seat: 2, count: 2, reason: "caught" } },
    { kind: "caught", data: { by: 0, seat: 2 } }]), ["Ann catches Chen: Chen draws 2 cards"]);
});

test("the end of a game names its winners, one or several", () => {
  assert.deepEqual(tell("timo", [{ kind: "game_over", data: { winner: 1 } }]), ["Bo wins!"]);
  assert.deepEqual(tell("twins", [{ kind: "game_over", data: { winners: [0, 2] } }]), ["Ann, Chen win!"]);
  assert.deepEqual(tell("twinz", [{ kind: "game_over", data: { winners: [2] } }], { ctx: { t: () => "", names: NAMES, local: {} } }),
    ["Chen wins!"]);
});

test("Twin It keeps flips for the replay, and the cooperative end is a score together", () => {
  assert.deepEqual(tell("twinit", [{ kind: "flipped", data: { seat: 0 } }]), []);
  assert.deepEqual(tell("twinit", [{ kind: "flipped", data: { seat: 0 } }], { replay: true }), ["Ann flips a card into the centre"]);
  assert.deepEqual(tell("twinit", [{ kind: "game_over", data: { scores: [7] } }], { view: { mode: "coop" } }),
    ["Time is up: 7 points together!"]);
  assert.match(tell("twinit", [{ kind: "error", data: { seat: 1, reason: "taboo", lost_set_picture: 3 } }])[0],
    /Bo touched a taboo picture: error! Bo loses a set\./);
});

test("Twins tells chips in words with their plural", () => {
  assert.deepEqual(tell("twins", [{ kind: "paid", data: { seat: 1, amount: 1 } }]), ["Bo pays 1 chip to the bank"]);
  assert.deepEqual(tell("twins", [{ kind: "bought", data: { seat: 0, count: 2, cost: 3 } }]), ["Ann buys 2 cards for 3 chips"]);
});

test("an event nobody needs to read leaves no line", () => {
  for (const id of ["timo", "twins", "twinit"]) assert.deepEqual(tell(id, [{ kind: "dealt_privately", data: {} }]), [], id);
});

test("Twins sums up a hand's chips by round once the hand is over", () => {
  const memory = {};
  const track = (kind, data) => games.twins.score.track({ kind, data }, memory, { hand_no: 1 });
  assert.equal(track("hand_started", { hand: 1 }), false);
  track("revealed", { round: 2 });
  track("paid", { seat: 0, amount: 2 });
  track("received", { seat: 1, amount: 3 });
  assert.equal(track("hand_started", { hand: 2 }), true);
  assert.deepEqual(memory.done.moves, { "2:0": -2, "2:1": 3 });
});

test("each game's clocks: a hand about to lift, the duo's countdown", () => {
  const local = (ms) => ms + 1;
  const twinit = { hands: [{ seat: 1, lift_ms: 900 }, { seat: 1, lift_ms: 700 }], options: { hold_ms: 1500 } };
  assert.deepEqual(games.twinit.deadline(twinit, 1, { acting: [], local }), [701, 1500]);
  assert.equal(games.twinit.deadline(twinit, 0, { acting: [], local }), null);
  const twinz = { phase: "clues", countdown_ends: 5000, options: { countdown_s: 5 } };
  assert.deepEqual(games.twinz.deadline(twinz, 0, { acting: [0], local }), [5001, 5000]);
  assert.equal(games.twinz.deadline(twinz, 1, { acting: [0], local }), null);
});

test("breakdowns: Twins from the starting chips, Timo's rounds won", () => {
  const use = tools("twins", String, {});
  assert.equal(games.twins.breakdown(0, 15, use), "15 chips (+3 since the start)");
  assert.equal(games.twins.breakdown(0, 9, use), "9 chips (−3 since the start)");
  const memory = { wins: [[0, 40], [1, 10], [0, 25]] };
  assert.equal(games.timo.breakdown(0, 65, { ...tools("timo", String, {}), memory }), "40 + 25 = 65 points");
});
