// The replay's pages: which page holds a step, what is fetched around the cursor, each
// page asked for once, a link past the end, and the run of read steps the log walks.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pageStart, pagesAround, replaySteps } from "../../../src/twintable/web/pages/replay_steps.js";

// A fake server: a game of `moves` moves, step i is { i }; it records what it was asked.
function server(moves) {
  const asked = [];
  const fetchPage = async (from, count) => {
    asked.push([from, count]);
    if (from > moves) throw Object.assign(new Error("past"), { code: "replay.past_end" });
    const steps = [];
    for (let i = from; i < Math.min(from + count, moves + 1); i++) steps.push({ i });
    return { from, moves, steps };
  };
  return { asked, fetchPage };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("a step's page starts at a multiple of the page size", () => {
  assert.equal(pageStart(0, 10), 0);
  assert.equal(pageStart(9, 10), 0);
  assert.equal(pageStart(10, 10), 10);
  assert.equal(pageStart(25, 10), 20);
});

test("around the cursor: its page first, the one before, the one after, the last", () => {
  assert.deepEqual(pagesAround(0, 95, 10), [0, 10, 90]);
  assert.deepEqual(pagesAround(10, 95, 10), [10, 0, 20, 90]);
  assert.deepEqual(pagesAround(15, 95, 10), [10, 20, 90]);
  assert.deepEqual(pagesAround(95, 95, 10), [90]);
  assert.deepEqual(pagesAround(3, 5, 10), [0]);
});

test("the first page is the cursor's alone; the rest come ahead of it", async () => {
  const { asked, fetchPage } = server(95);
  const landed = [];
  const steps = replaySteps(fetchPage, { size: 10, onPage: (from, page) => landed.push([from, page.length]) });
  assert.equal(steps.last, null);
  assert.equal(await steps.open(42), 42);
  assert.deepEqual(asked, [[40, 10]]);
  assert.equal(steps.last, 95);
  assert.ok(steps.has(40) && steps.has(49) && !steps.has(39) && !steps.has(50));
  assert.deepEqual(steps.get(42), { i: 42 });
  steps.prefetch(40);
  steps.prefetch(40);  // asked for once, however often wanted
  await settle();
  assert.deepEqual(asked, [[40, 10], [30, 10], [50, 10], [90, 10]]);
  assert.deepEqual(landed, [[40, 10], [30, 10], [50, 10], [90, 6]]);  // the last page is short
  assert.equal(steps.firstRead(45), 30);
  assert.equal(steps.firstRead(30), 30);
  await steps.load(95);
  assert.equal(asked.length, 4);  // already here
});

test("requests in flight are shared, a failed one is asked again", async () => {
  let fail = true;
  const { asked, fetchPage } = server(30);
  const flaky = (from, count) => {
    if (fail) { fail = false; asked.push(["failed", from]); return Promise.reject(new Error("offline")); }
    return fetchPage(from, count);
  };
  const steps = replaySteps(flaky, { size: 10 });
  await assert.rejects(steps.open(0), /offline/);
  const [one, two] = [steps.load(3), steps.load(7)];
  await Promise.all([one, two]);
  assert.deepEqual(asked, [["failed", 0], [0, 10]]);
  assert.equal(steps.firstRead(9), 0);
});

test("a link past the end opens the last step; no link, the deal", async () => {
  const { asked, fetchPage } = server(25);
  const steps = replaySteps(fetchPage, { size: 10 });
  assert.equal(await steps.open(400), 25);
  assert.deepEqual(asked, [[400, 10], [0, 10], [20, 10]]);
  assert.equal(await replaySteps(server(25).fetchPage, { size: 10 }).open(undefined), 0);
  assert.equal(await replaySteps(server(25).fetchPage, { size: 10 }).open("-3"), 0);
});
