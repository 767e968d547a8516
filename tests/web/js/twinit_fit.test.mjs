// Twin It's centre on the felt: the cards as large as fit the room, a mouse's smaller.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fit } from "../../../src/twintable/games/twinit/web/memory.js";

const height = (sized, n) => Math.ceil(Math.max(n, 12) / sized.cols) * (sized.size + 6) - 6;

test("a centre of thirty cards fits the felt's room with a mouse's smaller cards", () => {
  const sized = fit(30, 360, 230, 34);
  assert.ok(sized.size >= 34 && height(sized, 30) <= 230, JSON.stringify(sized));
  // For a finger the cards stay tap-sized, even where the centre must then scroll.
  const finger = fit(30, 360, 230, 44);
  assert.ok(finger.size >= 44 && height(finger, 30) > 230, JSON.stringify(finger));
});

test("a few cards are as large as the room allows, and never larger than 150 px", () => {
  const sized = fit(5, 360, 300, 34);
  assert.ok(height(sized, 5) <= 300 && sized.cols * sized.size <= 360, JSON.stringify(sized));
  assert.ok(fit(1, 2000, 2000, 34).size <= 150);
});
