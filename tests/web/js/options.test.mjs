// Option forms from the server's declarations: units, seats counted from 1, modes,
// player bounds, and what is sent back.
import assert from "node:assert/strict";
import { test } from "node:test";
import { TYPED, differs, initialText, inMode, playerBounds, rangeOf, readOption, scaleOf, seatCount } from "../../../src/twintable/web/pages/options.js";

const hold = { name: "hold_ms", kind: "int", default: 1500, minimum: 200, maximum: 10_000, unit: "ms" };
const rounds = { name: "rounds", kind: "int", default: 3, minimum: 1, maximum: 10, modes: ["timeattack"] };
const taboo = { name: "taboo", kind: "int_list", default: [], minimum: 0, maximum: 5, names_seats: true };
const teams = { name: "teams", kind: "int_list", default: [], minimum: 1, maximum: 2 };

test("milliseconds are shown and typed as seconds; other units as they are", () => {
  assert.equal(scaleOf(hold), 1000);
  assert.equal(scaleOf({ ...hold, unit: "s" }), 1);
  assert.equal(scaleOf({ ...hold, unit: undefined }), 1);  // an undeclared unit: a plain number
  assert.equal(initialText(hold), "1.5");
  assert.deepEqual(readOption(hold, "2", 3, "Hold"), { value: 2000 });
  assert.deepEqual(readOption(hold, "", 3, "Hold"), { value: 1500 });
  assert.deepEqual(readOption(hold, "0.1", 3, "Hold"),
    { problem: ["lobby.bad_number", { field: "Hold", min: "0.2", max: "10" }] });
});

test("seats are typed from 1 and sent from 0, never past the table", () => {
  assert.equal(initialText({ ...taboo, default: [0, 2] }), "1, 3");
  assert.deepEqual(readOption(taboo, "1, 3", 4, "Taboo"), { value: [0, 2] });
  assert.deepEqual(readOption(taboo, "0", 4, "Taboo"), { problem: ["lobby.bad_seats", { field: "Taboo", min: 1, max: 4 }] });
  assert.deepEqual(readOption(taboo, "5", 4, "Taboo").problem[0], "lobby.bad_seats");
  assert.deepEqual(readOption(teams, "1 2;1", 4, "Teams"), { value: [1, 2, 1] });
  assert.deepEqual(readOption(teams, "3", 4, "Teams"), { problem: ["lobby.bad_list", { field: "Teams", min: 1, max: 2 }] });
});

test("an option shows only in its modes", () => {
  assert.equal(inMode(rounds, "timeattack"), true);
  assert.equal(inMode(rounds, "competitive"), false);
  assert.equal(inMode(hold, "competitive"), true);
  assert.equal(inMode(rounds, null), true);
});

test("the players follow the mode's bounds", () => {
  const game = { min_players: 1, max_players: 8, players_by_mode: { team: [4, 8], coop: [1, 8] } };
  assert.deepEqual(playerBounds(game, "team"), { min: 4, max: 8 });
  assert.deepEqual(playerBounds(game, null), { min: 1, max: 8 });
  assert.equal(seatCount("99", { min: 4, max: 8 }), 8);
  assert.equal(seatCount("", { min: 4, max: 8 }), 4);
  assert.equal(seatCount("5.4", { min: 4, max: 8 }), 5);
});

test("only what differs from the default is sent", () => {
  assert.equal(differs(1500, hold), false);
  assert.equal(differs(2000, hold), true);
  assert.equal(differs(null, { default: null }), false);
  assert.equal(differs([], taboo), false);
});

test("a bounded number shows its range in the unit people read", () => {
  assert.deepEqual(rangeOf({ kind: "int", minimum: 1, maximum: 20, unit: "cards" }), { min: "1", max: "20", unit: "cards" });
  assert.deepEqual(rangeOf({ kind: "int", minimum: 200, maximum: 10000, unit: "ms" }), { min: "0.2", max: "10", unit: "s" });
  assert.deepEqual(rangeOf({ kind: "int", minimum: 1, maximum: 5, unit: null }), { min: "1", max: "5", unit: null });
  assert.equal(rangeOf({ kind: "int", minimum: 1, maximum: null, unit: "hands" }), null);
  assert.equal(rangeOf({ kind: "bool", default: true }), null);
});

test("a list that also takes words (Timo's and Twins' teams) sends the word or the typed list", () => {
  const partners = { name: "teams", kind: "int_list", default: [], minimum: 1, maximum: 3, choices: ["alternate"] };
  assert.deepEqual(readOption(partners, "alternate", 4, "Teams"), { value: "alternate" });
  assert.deepEqual(readOption(partners, "1, 1, 2, 2", 4, "Teams"), { value: [1, 1, 2, 2] });
  assert.deepEqual(readOption(partners, "", 4, "Teams"), { value: [] });
  assert.equal(differs([], partners), false);  // none: every player for themselves, not sent
  assert.deepEqual(readOption(partners, "1, 4", 4, "Teams").problem[0], "lobby.bad_list");
  assert.equal(readOption(partners, TYPED, 4, "Teams").problem[0], "lobby.bad_list");
});
