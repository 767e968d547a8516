// The table's socket (docs/protocol.md): hello with the seat token and invite key,
// frames handed to the page, reconnection with back-off, and the server's redirects to
// the worker that holds the table (followed at most three times in a row; an address
// that cannot be reached makes later connections stay on the shared one).

// The back-off after a lost connection: short and capped, so that a connection comes
// back within two seconds of the network's return (an 8 s cap made a person wait 31 s
// after a worker's restart), and at once when the browser sees the network come back
// (its "online" event).
export const FIRST_RETRY_MS = 250;
export const LONGEST_RETRY_MS = 2000;
// A server restarting or handing its tables to another worker (1012), or asking for a
// moment (1013): another worker answers at once.
export const RESTART_RETRY_MS = 100;

export class TableSocket {
  // `hello()`: the hello frame's fields; `onFrame(frame)`; `onLost()`: the connection
  // dropped and will come back; `onOpen()`; `finished()`: nothing more will come.
  // `direct`: the socket of the table's worker as the lobby named it (`Joined.socket`,
  // null with one process): the first connection goes there instead of being redirected
  // from the shared address; the later ones start from the shared address, as the table
  // may have moved since.
  constructor(tableId, { hello, onFrame, onOpen = () => {}, onLost = () => {}, finished = () => false, direct = null }) {
    Object.assign(this, { tableId, hello, onFrame, onOpen, onLost, finished, direct });
    this.socket = null;
    this.closed = false;
    this.retry = FIRST_RETRY_MS;
    this.followRedirects = true;
    this.redirectsInARow = 0;
    this.sent = 0;
    this.pending = null;  // the next try, while one waits
  }

  shared() {
    return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${this.tableId}`;
  }

  connect(sentTo = null) {
    const direct = sentTo ? null : this.direct;
    this.direct = null;
    const socket = new WebSocket(sentTo || direct || this.shared());
    this.socket = socket;
    let movedTo = null;
    let welcomed = false;
    socket.onopen = () => {
      this.retry = FIRST_RETRY_MS;
      this.onOpen();
      socket.send(JSON.stringify({ type: "hello", protocol: 1, ...this.hello(), redirects: this.followRedirects }));
    };
    socket.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "moved") { movedTo = frame.url; return; }  // the server closes this socket next
      if (frame.type === "welcome") { welcomed = true; this.redirectsInARow = 0; }
      this.onFrame(frame);
    };
    socket.onclose = (event) => {
      if (this.closed) return;
      if (movedTo && this.redirectsInARow < 3) {
        this.redirectsInARow += 1;
        this.connect(movedTo);
        return;
      }
      if (movedTo || ((sentTo || direct) && !welcomed)) this.followRedirects = false;
      // A finished game sends nothing more, and its table leaves the server's memory.
      if (this.finished()) return;
      // The lobby's address for the table did not answer (its worker stopped, or workers'
      // own addresses are not reachable from here): the shared one at once.
      if (direct && !welcomed) { this.connect(); return; }
      this.onLost();
      const restarting = event && (event.code === 1012 || event.code === 1013);
      this.later(restarting ? RESTART_RETRY_MS : this.retry);
      this.retry = restarting ? FIRST_RETRY_MS : Math.min(this.retry * 2, LONGEST_RETRY_MS);
    };
  }

  // The next try, after `ms`; or at once when the browser says the network is back.
  later(ms) {
    const again = () => {
      clearTimeout(timer);
      globalThis.removeEventListener?.("online", again);
      if (!this.closed && this.pending === again) { this.pending = null; this.connect(); }
    };
    const timer = setTimeout(again, ms);
    this.pending = again;
    globalThis.addEventListener?.("online", again);
  }

  // An action: every move names the state version it was made against, except the kinds
  // that race by nature (`unversioned`), which name what they expect instead.
  act(kind, payload, version, unversioned) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    const message = { type: "action", id: `a${Date.now().toString(36)}${++this.sent}`, kind, payload };
    if (!unversioned.includes(kind)) message.version = version;
    this.socket.send(JSON.stringify(message));
  }

  // A message of the table's talk (chat, react, chat_setting); false while disconnected.
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  // A new connection at once, the current one dropped quietly (the hello has changed:
  // a person who conceded goes on as a spectator).
  renew() {
    const old = this.socket;
    if (old) { old.onclose = null; old.onmessage = null; old.close(); }
    this.pending = null;
    this.connect();
  }

  close() {
    this.closed = true;
    this.pending = null;
    if (this.socket) this.socket.close();
  }
}
