// The table's socket: where each connection goes (the lobby's address for the table
// first, the shared one after, the server's redirects followed), with a stand-in for the
// browser's WebSocket that the test opens, answers and closes.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.location = { protocol: "http:", host: "play.example:8000" };
const opened = [];
class FakeWebSocket {
  static OPEN = 1;
  constructor(url) { Object.assign(this, { url, sent: [], readyState: 0 }); opened.push(this); }
  send(data) { this.sent.push(JSON.parse(data)); }
  close() { this.readyState = 3; }
  // What the server does: accept, say something, close.
  accept() { this.readyState = 1; this.onopen(); }
  say(frame) { this.onmessage({ data: JSON.stringify(frame) }); }
  drop(code = 1006) { this.readyState = 3; this.onclose({ code }); }
}
globalThis.WebSocket = FakeWebSocket;
const { TableSocket, FIRST_RETRY_MS, LONGEST_RETRY_MS, RESTART_RETRY_MS } = await import("../../../src/twintable/web/net/socket.js");

const SHARED = "ws://play.example:8000/ws/tables/t1";
const WORKER = "ws://play.example:8002/ws/tables/t1";

function tableSocket(direct) {
  opened.length = 0;
  const frames = [];
  const socket = new TableSocket("t1", { hello: () => ({ token: "tok" }), onFrame: (f) => frames.push(f), direct });
  return { socket, frames };
}

test("the first connection goes to the table's worker as the lobby named it; a later one to the shared address", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { socket, frames } = tableSocket(WORKER);
  socket.connect();
  assert.equal(opened[0].url, WORKER);
  opened[0].accept();
  assert.deepEqual(opened[0].sent[0], { type: "hello", protocol: 1, token: "tok", redirects: true });
  opened[0].say({ type: "welcome" });
  assert.equal(frames.length, 1);
  opened[0].drop();  // the connection is lost: back after the back-off, from the shared address
  t.mock.timers.tick(FIRST_RETRY_MS - 1);
  assert.equal(opened.length, 1);
  t.mock.timers.tick(1);
  assert.deepEqual(opened.map((ws) => ws.url), [WORKER, SHARED]);
});

test("a lost connection is tried again within two seconds, however long the server was away", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { socket } = tableSocket(null);
  socket.connect();
  opened[0].accept();
  opened[0].say({ type: "welcome" });
  const waits = [];
  for (let n = 0; n < 8; n++) {  // the server does not answer: each try fails at once
    const before = opened.length;
    opened[opened.length - 1].drop();
    let waited = 0;
    while (opened.length === before) { t.mock.timers.tick(10); waited += 10; }
    waits.push(waited);
  }
  assert.deepEqual(waits, [250, 500, 1000, 2000, 2000, 2000, 2000, 2000]);
  assert.ok(Math.max(...waits) <= LONGEST_RETRY_MS);
});

test("a server restarting or handing its table over (1012) is answered again at once", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { socket } = tableSocket(null);
  socket.connect();
  opened[0].accept();
  opened[0].say({ type: "welcome" });
  opened[0].drop();  // a network drop first: the back-off grows
  t.mock.timers.tick(FIRST_RETRY_MS);
  opened[1].accept();
  opened[1].say({ type: "welcome" });
  opened[1].drop(1012);
  t.mock.timers.tick(RESTART_RETRY_MS);
  assert.equal(opened.length, 3);
  assert.equal(opened[2].url, SHARED);
});

test("a table's worker that does not answer is passed over for the shared address at once, which serves without redirects", () => {
  const { socket } = tableSocket(WORKER);
  socket.connect();
  opened[0].drop();  // refused: never opened, never welcomed
  assert.deepEqual(opened.map((ws) => ws.url), [WORKER, SHARED]);
  opened[1].accept();
  // As after a redirect to an address that failed: workers' own addresses are not trusted
  // from here any more, so the shared one relays the table instead.
  assert.equal(opened[1].sent[0].redirects, false);
});

test("a redirect from the shared address is followed", () => {
  const { socket } = tableSocket(null);
  socket.connect();
  opened[0].accept();
  assert.equal(opened[0].sent[0].redirects, true);
  opened[0].say({ type: "moved", url: WORKER });
  opened[0].drop();
  assert.deepEqual(opened.map((ws) => ws.url), [SHARED, WORKER]);
});

test("with one process (no address for the table) every connection goes to the shared address", () => {
  const { socket } = tableSocket(null);
  socket.connect();
  assert.equal(opened[0].url, SHARED);
});

test("a connection waiting to retry goes at once when the network comes back", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const listeners = {};
  globalThis.addEventListener = (name, fn) => { (listeners[name] ||= new Set()).add(fn); };
  globalThis.removeEventListener = (name, fn) => { listeners[name]?.delete(fn); };
  try {
    const { socket } = tableSocket(null);
    socket.connect();
    opened[0].accept();
    for (let n = 0; n < 4; n += 1) {  // the back-off grows to its cap while offline
      opened.at(-1).drop();
      t.mock.timers.tick(LONGEST_RETRY_MS);
    }
    const before = opened.length;
    opened.at(-1).drop();
    t.mock.timers.tick(100);
    assert.equal(opened.length, before);  // still waiting for the back-off
    for (const fn of [...listeners.online]) fn();  // the browser: "online"
    assert.equal(opened.length, before + 1);
    assert.equal(listeners.online.size, 0);
    t.mock.timers.tick(LONGEST_RETRY_MS);  // the timer it replaced does not try again
    assert.equal(opened.length, before + 1);
    socket.close();
  } finally {
    delete globalThis.addEventListener;
    delete globalThis.removeEventListener;
  }
});
