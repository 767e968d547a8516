// The table's talk without the page (web/table/chat_rules.js): the reactions match the
// server's, the client's bucket keeps the server's rate, typed lines are cleaned, frames
// merge in order, mutes persist per table, and a replay shows what was said by its step.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  Bucket, CHAT_BURST, CHAT_MAX_CHARS, CHAT_PER_S, REACTIONS, cleanLine, mergeLines, mutedAuthors,
  reactionKey, setMuted, shownLines,
} from "../../../src/twintable/web/table/chat_rules.js";

const SERVER = new URL("../../../src/twintable/server/", import.meta.url);

test("the reactions and limits are the server's own", () => {
  const protocol = readFileSync(new URL("protocol.py", SERVER), "utf8");
  const declared = protocol.match(/Reaction = Literal\[([^\]]*)\]/)[1].match(/"([^"]+)"/g).map((s) => s.slice(1, -1));
  assert.deepEqual(REACTIONS.map(([emote]) => emote), declared);
  assert.equal(new Set(REACTIONS.map(([, key]) => key)).size, REACTIONS.length);
  assert.match(protocol, new RegExp(`CHAT_MAX_CHARS = ${CHAT_MAX_CHARS}\\b`));
  const chat = readFileSync(new URL("chat.py", SERVER), "utf8");
  assert.match(chat, new RegExp(`CHAT_BURST = ${CHAT_BURST}\\b`));
  assert.match(chat, new RegExp(`CHAT_PER_S = ${CHAT_PER_S}\\b`));
  assert.equal(reactionKey("🤝"), "gg");
  assert.equal(reactionKey("💩"), null);
});

test("the bucket lets a burst through, then one line per refill", () => {
  const bucket = new Bucket(0.5, 5, 0);
  for (let i = 0; i < 5; i++) assert.equal(bucket.take(0), 0);
  assert.equal(bucket.take(0), 2000);  // one line every 2 s
  assert.equal(bucket.take(1500), 500);
  assert.equal(bucket.take(2000), 0);
  assert.equal(bucket.take(2000), 2000);
  assert.equal(bucket.take(60_000), 0);  // refilled, never past the burst
  for (let i = 0; i < 4; i++) assert.equal(bucket.take(60_000), 0);
  assert.ok(bucket.take(60_000) > 0);
});

test("a typed line is trimmed to one line of at most the limit, or nothing", () => {
  assert.equal(cleanLine("  hi\n  there \t"), "hi there");
  assert.equal(cleanLine("   "), null);
  assert.equal(cleanLine(undefined), null);
  assert.equal(cleanLine("é".repeat(300)).length, CHAT_MAX_CHARS);
  // Characters, not UTF-16 units: an emoji is not cut in half.
  assert.equal([...cleanLine("🎉".repeat(250))].length, CHAT_MAX_CHARS);
  assert.equal(cleanLine("<img src=x onerror=alert(1)>"), "<img src=x onerror=alert(1)>");
});

test("frames merge once each, in order; a history frame replaces the lines", () => {
  const line = (n) => ({ n, author: "seat:0", seq: n, channel: "players", text: `l${n}` });
  let lines = mergeLines([], { lines: [line(2)] });
  lines = mergeLines(lines, { lines: [line(1)] });
  lines = mergeLines(lines, { lines: [line(2)] });
  assert.deepEqual(lines.map((l) => l.n), [1, 2]);
  lines = mergeLines(lines, { history: true, lines: [line(5), line(6)] });
  assert.deepEqual(lines.map((l) => l.n), [5, 6]);
  const many = Array.from({ length: 150 }, (_, i) => line(i + 1));
  assert.deepEqual(mergeLines([], { lines: many }).map((l) => l.n)[0], 51);
});

test("mutes are kept per table and survive bad storage", () => {
  const stored = new Map();
  const storage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, v) };
  assert.deepEqual([...mutedAuthors(storage, "t1")], []);
  setMuted(storage, "t1", "seat:1", true);
  setMuted(storage, "t1", "watcher:ab", true);
  assert.deepEqual([...mutedAuthors(storage, "t1")].sort(), ["seat:1", "watcher:ab"]);
  assert.deepEqual([...mutedAuthors(storage, "t2")], []);
  setMuted(storage, "t1", "seat:1", false);
  assert.deepEqual([...mutedAuthors(storage, "t1")], ["watcher:ab"]);
  stored.set("tt.mute.t3", "{not json");
  assert.deepEqual([...mutedAuthors(storage, "t3")], []);
  const full = { getItem: () => null, setItem: () => { throw new Error("quota"); } };
  assert.deepEqual([...setMuted(full, "t4", "seat:0", true)], ["seat:0"]);
});

test("shown lines leave out the muted, and in a replay what was not said yet", () => {
  const lines = [
    { n: 1, author: "seat:0", seq: 0 }, { n: 2, author: "seat:1", seq: 3 },
    { n: 3, author: "watcher:x", seq: 3 }, { n: 4, author: "seat:0", seq: 9 },
  ];
  assert.deepEqual(shownLines(lines, new Set()).map((l) => l.n), [1, 2, 3, 4]);
  assert.deepEqual(shownLines(lines, new Set(["seat:0"])).map((l) => l.n), [2, 3]);
  assert.deepEqual(shownLines(lines, new Set(), 3).map((l) => l.n), [1, 2, 3]);
  assert.deepEqual(shownLines(lines, new Set(), 0).map((l) => l.n), [1]);
});

test("the chat panel draws every line as text: no HTML anywhere in it", () => {
  const panel = readFileSync(new URL("../../../src/twintable/web/table/chat.js", import.meta.url), "utf8");
  // el() turns every string child into a text node; only its `html` attribute would parse.
  assert.doesNotMatch(panel, /innerHTML|outerHTML|insertAdjacentHTML|\bhtml:/);
});

test("every reaction has its own picture, and only the reactions have one", async () => {
  const { drawnReactions } = await import("../../../src/twintable/web/table/reaction_icons.js");
  assert.deepEqual(drawnReactions(), REACTIONS.map(([emote]) => emote));
});
