// The guided game's hints, the pure part (web/table/coach_steps.js): when a step is done,
// read from table frames as core/tutorial.py reads moves, and where the bubble goes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bubbleWidth, nextStep, placeBubble, readOnly, stepDone, stepReady } from "../../../src/twintable/web/table/coach_steps.js";

const ME = 0;
const frame = (seat, kind, ...events) => ({ type: "event", seat, kind, events: events.map((e) => ({ kind: e })) });
const steps = [
  { id: "top", advance: { next: true } },
  { id: "play", advance: { move: "play" } },
  { id: "take", advance: { event: "taken", mine: true } },
  { id: "end", advance: { event: "round_over", mine: false } },
];

test("a move step is done by the player's own move of its kind only", () => {
  assert.equal(stepDone(steps[1], frame(ME, "play", "played"), ME), true);
  assert.equal(stepDone(steps[1], frame(1, "play", "played"), ME), false);
  assert.equal(stepDone(steps[1], frame(ME, "draw", "drew"), ME), false);
  assert.equal(stepDone(steps[1], { type: "snapshot", seat: ME, kind: "play" }, ME), false);
});

test("an event step is done by the event, from the player's move where it says mine", () => {
  assert.equal(stepDone(steps[2], frame(ME, "touch", "touched", "taken"), ME), true);
  assert.equal(stepDone(steps[2], frame(1, "touch", "taken"), ME), false);
  assert.equal(stepDone(steps[3], frame(-1, "timeout", "round_over"), ME), true);
  assert.equal(stepDone(steps[3], frame(1, "play", "played"), ME), false);
});

test("a step that explains waits for Next; steps advance one at a time and stop at the end", () => {
  assert.equal(readOnly(steps[0]), true);
  assert.equal(readOnly(steps[1]), false);
  assert.equal(nextStep(steps, 0, frame(ME, "play", "played"), ME), 0);
  assert.equal(nextStep(steps, 1, frame(ME, "play", "played"), ME), 2);
  assert.equal(nextStep(steps, 2, frame(ME, "play", "played"), ME), 2);
  assert.equal(nextStep(steps, 4, frame(ME, "play", "round_over"), ME), 4);
});

test("a hint asking for a move shows once the player may make it; others show at once", () => {
  const canPlay = { legal: [{ kind: "play", payload: { card: 3 } }, { kind: "call_timo", payload: {} }] };
  assert.equal(stepReady(steps[1], canPlay), true);
  assert.equal(stepReady({ advance: { move: "draw" } }, canPlay), false);
  assert.equal(stepReady(steps[1], { legal: [] }), false);
  assert.equal(stepReady(steps[1], null), false);
  assert.equal(stepReady(steps[0], null), true);
  assert.equal(stepReady(steps[2], { legal: [] }), true);
});

test("the game's end skips the hints still waiting for a move, to the closing ones", () => {
  const withClosing = [...steps, { id: "score", advance: { next: true } }];
  assert.equal(nextStep(withClosing, 1, frame(1, "play", "round_over", "game_over"), ME), 4);
  assert.equal(nextStep(withClosing, 4, frame(1, "play", "game_over"), ME), 4);
  assert.equal(nextStep(steps, 2, frame(1, "touch", "taken", "game_over"), ME), 4);
});

const overlaps = (a, b) => a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

test("the bubble goes below its target where it fits, else above, never over it", () => {
  const view = { width: 1280, height: 800 };
  const size = { width: 340, height: 120 };
  const high = { top: 100, left: 600, width: 100, height: 140 };
  const below = placeBubble(high, size, view);
  assert.equal(below.side, "below");
  assert.ok(!overlaps({ ...below, ...size }, high));
  const low = { top: 640, left: 600, width: 100, height: 140 };
  const above = placeBubble(low, size, view);
  assert.equal(above.side, "above");
  assert.ok(!overlaps({ ...above, ...size }, low));
});

test("on a phone the bubble fits the screen's width and points at its target", () => {
  const view = { width: 390, height: 844 };
  const width = bubbleWidth(view.width);
  assert.ok(width <= 390 - 16);
  const size = { width, height: 160 };
  const rightEdge = { top: 300, left: 330, width: 50, height: 60 };
  const spot = placeBubble(rightEdge, size, view);
  assert.ok(spot.left >= 8 && spot.left + width <= 390 - 8 + 0.5);
  assert.ok(!overlaps({ ...spot, ...size }, rightEdge));
  // The pointer sits over the target's middle, inside the bubble.
  assert.ok(Math.abs(spot.left + spot.arrow - (330 + 25)) <= 1 && spot.arrow <= width - 16);
});

test("the bubble keeps clear of the player's own seat, beside the target where it must", () => {
  const view = { width: 1280, height: 800 };
  const size = { width: 340, height: 240 };
  const felt = { top: 234, left: 105, width: 782, height: 131 };
  const mySeat = { top: 300, left: 400, width: 190, height: 110 };
  const spot = placeBubble(felt, size, view, 10, 8, [mySeat]);
  assert.equal(spot.side, "right");
  assert.ok(!overlaps({ ...spot, ...size }, felt) && !overlaps({ ...spot, ...size }, mySeat));
  assert.ok(spot.left + size.width <= 1280 - 8);
  // Nowhere clear: the spot that hides least (above, over a corner of the seat, rather
  // than over the rest of the hand beside the card).
  const card = { top: 565, left: 385, width: 80, height: 110 };
  const hand = { top: 560, left: 290, width: 440, height: 125 };
  const least = placeBubble(card, { width: 340, height: 136 }, view, 10, 8, [mySeat, hand]);
  assert.equal(least.side, "above");
  // What a hint says to keep in sight weighs more than the rest (the word to clue for
  // above the box, the table below it).
  const input = { top: 460, left: 8, width: 270, height: 44 };
  const word = { top: 380, left: 8, width: 374, height: 60, weight: 5 };
  const table = { top: 520, left: 8, width: 374, height: 90 };
  const kept = placeBubble(input, { width: 374, height: 200 }, { width: 390, height: 844 }, 10, 8, [word, table]);
  assert.equal(kept.side, "below");
  // Nowhere clear on a phone: it still fits the screen and leaves the target visible.
  const phone = placeBubble({ top: 340, left: 4, width: 382, height: 120 }, { width: 374, height: 240 },
    { width: 390, height: 844 }, 10, 8, [{ top: 0, left: 0, width: 390, height: 844 }]);
  assert.equal(phone.side, "below");
});

test("a target taller than the screen keeps the bubble on screen", () => {
  const view = { width: 390, height: 844 };
  const spot = placeBubble({ top: -100, left: 0, width: 390, height: 1200 }, { width: 374, height: 150 }, view);
  assert.equal(spot.side, "inside");
  assert.ok(spot.top >= 0 && spot.top + 150 <= 844);
});
