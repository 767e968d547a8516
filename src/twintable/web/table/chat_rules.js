// The table's talk without the page: the quick reactions, the length and rate limits the
// server keeps (server/chat.py, mirrored here so a person is told at once), each viewer's
// mutes (kept in localStorage, per table), and which lines show, live and in a replay.
// Pure: tested with `node --test` (tests/web/js/chat.test.mjs).

// The server's set (protocol.py REACTIONS), each with the key of its spoken name.
export const REACTIONS = [
  ["👍", "like"], ["👏", "clap"], ["😂", "laugh"], ["😮", "wow"],
  ["😢", "sad"], ["😡", "angry"], ["🎉", "party"], ["🤝", "gg"],
];
export const reactionKey = (emote) => (REACTIONS.find(([e]) => e === emote) || [null, null])[1];

// protocol.py CHAT_MAX_CHARS, and server/chat.py's bucket: CHAT_BURST lines at once, then
// CHAT_PER_S a second.
export const CHAT_MAX_CHARS = 200;
export const CHAT_BURST = 5;
export const CHAT_PER_S = 0.5;
// The lines a page keeps (the server tells the latest 100 on connect).
export const KEPT_LINES = 100;

// A token bucket: `take(now)` spends one line, or says how many ms until one is free.
export class Bucket {
  constructor(rate = CHAT_PER_S, burst = CHAT_BURST, now = 0) {
    Object.assign(this, { rate, burst, left: burst, checked: now });
  }

  // 0 when the line may go now (and it is counted); otherwise the ms to wait.
  take(now) {
    this.left = Math.min(this.burst, this.left + ((now - this.checked) / 1000) * this.rate);
    this.checked = now;
    if (this.left >= 1) { this.left -= 1; return 0; }
    return Math.ceil(((1 - this.left) / this.rate) * 1000);
  }
}

// What will be sent of a typed line: trimmed, on one line; null when nothing is left.
export function cleanLine(text) {
  const line = String(text ?? "").replace(/\s+/g, " ").trim();
  if (!line) return null;
  return [...line].length > CHAT_MAX_CHARS ? [...line].slice(0, CHAT_MAX_CHARS).join("") : line;
}

// The lines after a `chat` frame: a history frame replaces them (a reconnection tells
// the latest again), a new line is added once, in the server's order, the latest kept.
export function mergeLines(lines, frame) {
  const incoming = frame.lines || [];
  const base = frame.history ? [] : lines;
  const known = new Set(base.map((line) => line.n));
  const merged = [...base, ...incoming.filter((line) => !known.has(line.n))];
  merged.sort((a, b) => a.n - b.n);
  return merged.slice(-KEPT_LINES);
}

// Mutes: the authors (`seat:1`, `watcher:ab12cd34`) a viewer does not want to read at one
// table, in `storage` (localStorage, or any object with getItem/setItem).
const muteKey = (tableId) => `tt.mute.${tableId}`;
export function mutedAuthors(storage, tableId) {
  try {
    const list = JSON.parse(storage.getItem(muteKey(tableId)) || "[]");
    return new Set(Array.isArray(list) ? list.filter((a) => typeof a === "string") : []);
  } catch {
    return new Set();
  }
}
export function setMuted(storage, tableId, author, muted) {
  const authors = mutedAuthors(storage, tableId);
  if (muted) authors.add(author); else authors.delete(author);
  try { storage.setItem(muteKey(tableId), JSON.stringify([...authors])); } catch { /* full: for this page only */ }
  return authors;
}

// The lines a viewer reads: none of the muted; in a replay, those said by step `step`.
export function shownLines(lines, muted, step = Infinity) {
  return lines.filter((line) => !muted.has(line.author) && line.seq <= step);
}
