// The seat ring's pure parts: places around the table, who acts, clocks, the felt's line,
// and the order of the results.
import assert from "node:assert/strict";
import { test } from "node:test";
import { actingSeats, phoneColumns, seatDeadline, tableLayout, timeLeft, turnLine } from "../../../src/twintable/web/table/layout.js";
import { ranking, signed, teamRanking } from "../../../src/twintable/web/table/ranking.js";

test("every seat has exactly one place, the viewer at the bottom", () => {
  for (let n = 1; n <= 10; n++) {
    const layout = tableLayout(n);
    const places = [...layout.bottom, ...layout.left, ...layout.top, ...layout.right];
    assert.deepEqual([...places].sort((a, b) => a - b), Array.from({ length: n }, (_, i) => i), `n=${n}`);
    assert.ok(layout.bottom.includes(0));
  }
});

test("a small table puts everyone else across; a large one has a seat at each end", () => {
  assert.deepEqual(tableLayout(3), { bottom: [0], left: [], top: [1, 2], right: [] });
  const six = tableLayout(6);
  assert.equal(six.left.length, 1);
  assert.equal(six.right.length, 1);
  assert.deepEqual(six, { bottom: [0, 5], left: [1], top: [2, 3], right: [4] });  // clockwise from the left end
});

test("on a phone up to six seats sit in rows of at most three, more in a strip", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 10].map(phoneColumns), [1, 2, 3, 2, 3, 3, 0, 0]);
  for (let n = 1; n <= 6; n++) assert.ok(Math.ceil(n / phoneColumns(n)) <= 2, `n=${n}`);
});

const game = { isOver: (view) => view.over, whoActs: (view) => [view.turn], deadline: (view, seat) => (view.held === seat ? [1000, 500] : null) };
const info = { turn_limit_s: 30, seats: [{ kind: "human" }, { kind: "bot" }] };
const clock = { received: 10_000, lastMove: 9_000 };

test("nobody acts once the game is over", () => {
  assert.deepEqual(actingSeats(game, { turn: 1 }), [1]);
  assert.deepEqual(actingSeats(game, { turn: 1, over: true }), []);
  // The game says when it is over: the shell reads no field of the view itself.
  const phased = { ...game, isOver: (view) => view.phase === "over" };
  assert.deepEqual(actingSeats(phased, { turn: 1, phase: "over" }), []);
  assert.deepEqual(actingSeats(phased, { turn: 1, over: true }), [1]);
  assert.deepEqual(actingSeats(game, null), []);
});

test("a game's own clock comes first, then the table's limit for a person to move", () => {
  assert.deepEqual(seatDeadline(game, info, { held: 1 }, 1, [0], clock), [1000, 500]);
  assert.deepEqual(seatDeadline(game, info, {}, 0, [0], clock), [9_000 + 30_000, 30_000]);
  assert.equal(seatDeadline(game, info, {}, 1, [1], clock), null);  // a bot has no limit
  assert.equal(seatDeadline(game, info, {}, 0, [1], clock), null);  // not this seat's move
  assert.equal(seatDeadline(game, info, { over: true }, 0, [0], clock), null);
});

test("server times become local times through the frame's clock", () => {
  const timed = { deadline: (view, seat, { local }) => [local(view.due), 1000], whoActs: () => [], isOver: () => false };
  assert.deepEqual(seatDeadline(timed, {}, { now_ms: 500, due: 1500 }, 0, [], clock), [11_000, 1000]);
});

test("time left is a share between 0 and 1", () => {
  assert.equal(timeLeft(2000, 1000, 1500), 0.5);
  assert.equal(timeLeft(2000, 1000, 5000), 0);
  assert.equal(timeLeft(2000, 1000, 0), 1);
});

test("the felt says whose turn it is", () => {
  const say = (key, params) => `${key}${params ? JSON.stringify(params) : ""}`;
  const names = ["Ann", "Bo", "Chen"];
  assert.equal(turnLine(say, { status: "finished", acting: [], me: 0, names }), "table.game_over");
  assert.equal(turnLine(say, { status: "running", acting: [0], me: 0, names }), "table.your_turn");
  assert.equal(turnLine(say, { status: "running", acting: [1], me: 0, names }), 'table.turn_of{"name":"Bo"}');
  assert.equal(turnLine(say, { status: "running", acting: [1, 2], me: 0, names }), 'table.many_to_move{"n":2}');
  assert.equal(turnLine(say, { status: "running", acting: [], me: 0, names }), "");
});

test("results rank by score, then by the game's tie-break, tied seats sharing a rank", () => {
  const plain = ranking([5, 9, 5]);
  assert.deepEqual(plain.order, [1, 0, 2]);
  assert.deepEqual([0, 1, 2].map(plain.rank), [2, 1, 2]);
  assert.equal(plain.brokeTie, false);
  const broken = ranking([7, 7, 3], [2, 5, 9]);
  assert.deepEqual(broken.order, [1, 0, 2]);
  assert.deepEqual([0, 1, 2].map(broken.rank), [2, 1, 3]);
  assert.equal(broken.brokeTie, true);
  assert.equal(ranking([7, 7], [4, 4]).brokeTie, false);
});

test("a team game ranks the teams, partners side by side sharing their team's place", () => {
  // Twins, alternate seats: seats 1 and 3 hold 14 chips together against 13.
  const twins = teamRanking([10, 5, 3, 9], [0, 1, 0, 1], [13, 14]);
  assert.deepEqual(twins.order, [3, 1, 0, 2]);
  assert.deepEqual([0, 1, 2, 3].map(twins.rank), [2, 1, 2, 1]);
  // Three teams of two, two of them level at the top.
  const level = teamRanking([4, 4, 6, 1, 5, 0], [0, 0, 1, 2, 1, 2], [8, 11, 11]);
  assert.deepEqual(level.order, [2, 4, 3, 5, 0, 1]);
  assert.deepEqual([0, 1, 2, 3, 4, 5].map(level.rank), [3, 3, 1, 1, 1, 1]);
});

test("a change is signed with a real minus", () => {
  assert.deepEqual([3, -2, 0].map(signed), ["+3", "−2", "±0"]);
});
