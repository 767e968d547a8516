// The rating history chart's geometry (web/lib/chart.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { chartPoints, linePath } from "../../../src/twintable/web/lib/chart.js";

test("points run left to right, the highest rating at the top, zoomed to the data", () => {
  const { points, low, high } = chartPoints([10, 12, 11], 100, 50, 0);
  assert.deepEqual(points.map(([x]) => x), [0, 50, 100]);
  const [first, best, last] = points.map(([, y]) => y);
  assert.ok(best < last && last < first);
  // Zoomed: two points of difference fill most of the height, not a sliver of 0-50.
  assert.ok(first - best > 40, `${first} ${best}`);
  assert.ok(low < 10 && high > 12 && high - low < 3);
});

test("one point sits in the middle; equal ratings lie on one middle line", () => {
  assert.deepEqual(chartPoints([7], 100, 50, 0).points, [[50, 25]]);
  const flat = chartPoints([3, 3, 3], 100, 50, 0).points;
  assert.ok(flat.every(([, y]) => Math.abs(y - 25) < 1e-9));
  assert.deepEqual(chartPoints([], 100, 50).points, []);
});

test("the path moves to the first point and draws lines to the rest", () => {
  assert.equal(linePath([[0, 1], [2.25, 3], [4, 5.04]]), "M0.0 1.0 L2.3 3.0 L4.0 5.0");
});
