// A table: the seats around the felt, the game's board, the narrated log, the round
// summary and the results, kept live over the table's socket. Everything about the game
// itself comes from its client module (README.md): its lines, the events that sound or
// make a banner, when it is over (table/cues.js). This page names no game.
//
// The page is one object (`tb`, made by openTable) that the pieces below draw and update:
// the board, the waiting room, the results, a move told, a frame received.
import { assets, games, tableGet, errorText } from "../lib/api.js";
import { el, page, status } from "../lib/dom.js";
import { joinNames, t, tNodes } from "../lib/i18n.js";
import { client, loadStyles } from "../lib/games.js";
import { phoneWidth, reducedMotion } from "../lib/motion.js";
import { muteButton, play } from "../lib/sound.js";
import { inviteKey, tokens } from "../lib/store.js";
import { TableSocket } from "../net/socket.js";
import { flashBanner } from "./banner.js";
import { chatPanel } from "./chat.js";
import { concedeControls } from "./concede.js";
import { bannerOf, isOver, soundOf } from "./cues.js";
import { seatChip, seatName, tableName } from "./names.js";
import { describeEvents, tools } from "./narration.js";
import { fitResults, resultNodes, summaryPanel } from "./results.js";
import { seatRing } from "./seats.js";
import { storyLog } from "./story.js";
import { waitingNodes } from "./waiting.js";
import { coachFor } from "./coach.js";
import { coachStyles } from "../pages/guided.js";

export async function tablePage(tableId) {
  const tb = await openTable(tableId);
  mount(tb);
  await startCoach(tb);
  return start(tb);
}

// The table as this page holds it: what the server said (info, the last view and its
// version), the game's client, and the page's parts.
async function openTable(tableId) {
  const info = await tableGet(tableId);
  const gameInfo = (await games()).find((g) => g.id === info.game);
  const [game, gameAssets] = await Promise.all([client(info.game), assets(info.game), loadStyles([info.game])]);
  const mine = tokens()[tableId];
  const tb = {
    tableId, info, gameInfo, game, mine, view: null, version: 0, lastActor: null, celebrated: false,
    clock: { received: Date.now(), lastMove: Date.now() },
    memory: {},  // what the game keeps between frames (cards seen, rounds won...)
    local: {},  // the board's own UI state (a pending pick, a chosen colour...)
    socket: null,
    coach: null,  // the guided game's hints (table/coach.js), on a guided table
    board: el("div", { id: "board" }),
    story: storyLog(tableId),
    banner: flashBanner(),
    waiting: el("section", { class: "panel", id: "waiting" }),
    results: el("section", { class: "panel results", id: "results", hidden: true }),
  };
  tb.who = (seat) => seatChip(tb.info.seats, seat, tb.info.game);
  // A person who conceded watches the rest as a spectator (a stand-in plays their seat).
  tb.conceded = () => Boolean(mine && tb.info.seats[mine.seat]?.conceded);
  tb.me = () => (mine && !tb.conceded() ? mine.seat : null);
  tb.use = (extra = {}) => tools(tb.info.game, tb.who, { seats: tb.info.seats, memory: tb.memory, ...extra });
  tb.ctx = boardContext(tb, gameAssets);
  tb.ring = seatRing(game, () => tb, tb.ctx, (seat) => tb.chat.reactionOn(seat));
  tb.summary = summaryPanel(game, tb.memory, () => tb.use({ view: tb.view }));
  tb.chat = chatPanel({ tableId, info: () => tb.info, me: tb.me, send: (message) => tb.socket.send(message) });
  tb.concede = concedeControls({ tableId, mine, info: () => tb.info, over: () => Boolean(tb.view) && isOver(game, tb.view),
    conceded: tb.conceded, flash: tb.banner.text, redraw: () => drawTable(tb),
    concededNow(answer) { tb.info = answer; tb.socket.renew(); } });  // from now on as a spectator
  return tb;
}

// What the game's board gets (README.md, `ctx`).
function boardContext(tb, gameAssets) {
  const unversioned = tb.gameInfo?.unversioned_kinds || [];
  return {
    t, el, local: tb.local, assets: gameAssets,
    get me() { return tb.me(); },
    get names() { return tb.info.seats.map((seat) => seatName(seat, tb.info.game)); },
    joinNames,
    act(kind, payload = {}) { tb.socket.act(kind, payload, tb.version, unversioned); },
    flash(text) { tb.banner.text(text); },
    redraw() { drawBoard(tb); },
  };
}

function drawBoard(tb) {
  if (!tb.view) return;
  const { ring, board } = tb;
  const focused = document.activeElement?.dataset ? document.activeElement.dataset.key : null;
  // User timings (tt:render, tt:seats, tt:log) show where a frame's time goes
  // (bench/web_smoothness.py reports them).
  const started = performance.now();
  ring.felt.querySelector(":scope > [data-felt]")?.remove();  // the last frame's centre
  board.replaceChildren(tb.game.render(tb.view, tb.ctx));
  const drawn = performance.now();
  ring.draw(board);  // moves the new centre onto the felt, so the focus comes back after it
  if (focused) {
    const selector = `[data-key="${CSS.escape(focused)}"]`;
    (ring.felt.querySelector(selector) || board.querySelector(selector))?.focus({ preventScroll: true });
  }
  performance.measure("tt:render", { start: started, end: drawn });
  performance.measure("tt:seats", { start: drawn, end: performance.now() });
  tb.coach?.place();
}

function drawWaiting(tb) {
  const { waiting } = tb;
  waiting.hidden = tb.info.status !== "open";
  // Once the game runs, the start button and the seat controls go, not only out of sight.
  waiting.replaceChildren(...(waiting.hidden ? []
    : waitingNodes({ info: tb.info, mine: tb.mine, tableId: tb.tableId, game: tb.gameInfo, flash: tb.ctx.flash })));
}

function drawResults(tb) {
  const { results, summary } = tb;
  if (tb.info.status !== "finished" || !tb.info.result) { results.hidden = true; return; }
  results.hidden = false;
  summary.box.hidden = true;
  results.replaceChildren(...resultNodes(tb.game, { ...tb, flash: tb.ctx.flash,
    use: () => tb.use({ view: tb.view }), lastRound: summary.nodes }));
  const wide = matchMedia("(min-width: 701px)").matches;
  fitResults(results, wide);
  if (!tb.celebrated) {
    tb.celebrated = true;
    play("end");
    // The results come into view by themselves, once, wherever the page was. On a wide
    // screen they go to its top (the table's title scrolls away), so that your own seat
    // and hand stay in view below them, also around four or more seats; on a phone no
    // further than into view.
    results.scrollIntoView({ block: wide ? "start" : "nearest",
                             behavior: reducedMotion() ? "auto" : "smooth" });
  }
}

function drawTable(tb) {
  tb.ring.draw(tb.board);
  drawWaiting(tb);
  drawResults(tb);
  tb.concede.draw();
  tb.chat.refresh();
}

function remember(tb, view) { if (view && tb.game.remember) tb.game.remember(view, tb.memory); }

// One move told: its lines in the log, and for each the sound and the banner the game
// declares. `missed`: a move told after a drop or a reload, before the table as it is
// now: it goes in the story without a sound or a banner of its own.
function narrate(tb, events, seat, view, missed = false) {
  const started = performance.now();
  const { game, banner } = tb;
  tb.summary.track(events, view);
  const use = tb.use({ view, actor: seat, ctx: tb.ctx, replay: false });
  const lines = [];
  for (const [event, line] of describeEvents(game, events, use)) {
    lines.push(line);
    if (missed) continue;
    const sound = soundOf(game, event);
    if (sound) play(sound);
    const shown = bannerOf(game, event, use, line);
    // null: the board tells this one itself; an older banner above it would be stale.
    if (shown === null) banner.clear();
    else if (shown !== undefined) banner.show(shown);
  }
  banner.moved();
  remember(tb, view);
  // A round's or a hand's summary stays for a few moves of the next one (or until closed).
  tb.summary.draw(tb.info.status === "finished", true);
  tb.story.tellMove(lines);
  tb.story.save(tb.version);
  performance.measure("tt:log", { start: started, end: performance.now() });
}

// A game whose first moves are not told (Twin It's flips) says what is under way, so
// the log does not stand empty until the first take.
function opening(tb) {
  const { game, story, view } = tb;
  if (story.box.childElementCount || !game.opening || tb.info.status !== "running" || !view) return;
  const line = game.opening(view, tb.use({ view, ctx: tb.ctx, replay: false }));
  if (!line) return;
  story.tell(line, null);
  story.save(tb.version);
}

// A move (`event`) or the table as it is (`snapshot`): the view, the story, the board.
function onView(tb, frame) {
  const { ring, story } = tb;
  const wasMine = ring.acting().includes(tb.me());
  tb.view = frame.view;
  tb.version = frame.version;
  tb.clock.received = Date.now();
  const moved = frame.type === "event";
  const live = moved && !frame.missed;
  if (moved) {
    if (live) tb.clock.lastMove = tb.clock.received;  // the server restarts a move's time limit on every move
    // A move already told (the log came back from before a reload, or the frame came
    // twice) is not told again.
    if (frame.version > story.told) {
      story.told = frame.version;
      narrate(tb, frame.events, frame.seat, frame.view, frame.missed);
    } else remember(tb, frame.view);
    if (frame.seat >= 0) tb.lastActor = frame.seat;
    tb.coach?.frame(frame);
  } else {
    // Moves made while this page was away that the server could not tell (it keeps
    // the latest few hundred, and none across a restart): the story says so.
    if (story.told >= 0 && frame.version > story.told && tb.info.status !== "open") {
      story.tell(t("table.missed_moves", { n: frame.version - story.told }), null);
      story.told = frame.version;
      story.save(frame.version);
    }
    remember(tb, frame.view);
  }
  opening(tb);
  if (frame.missed) return;  // the snapshot that follows draws the table as it is now
  drawBoard(tb);
  if (live && frame.seat >= 0) ring.pulse(frame.seat);
  if (live && !wasMine && tb.me() !== null && ring.acting().includes(tb.me())) play("turn");
}

// The table itself changed (seats, status, a rematch): who conceded is told.
function onTableInfo(tb, frame) {
  const hadRematch = tb.info.rematch;
  const hadConceded = new Set(tb.info.seats.filter((seat) => seat.conceded).map((seat) => seat.seat));
  tb.info = frame.table;
  for (const seat of tb.info.seats) {
    if (seat.conceded && !hadConceded.has(seat.seat) && frame.type === "table") {
      tb.story.tell(tNodes("table.someone_conceded", { name: tb.who(seat.seat) }) || "", null);
    }
  }
  drawTable(tb);
  if (frame.type === "table" && tb.info.rematch && !hadRematch && !tokens()[tb.info.rematch]) tb.banner.text(t("table.rematch_ready"));
}

function onFrame(tb, frame) {
  if (frame.type === "chat") tb.chat.onFrame(frame);
  else if (frame.type === "snapshot" || frame.type === "event") onView(tb, frame);
  else if (frame.type === "table" || frame.type === "welcome") onTableInfo(tb, frame);
  else if (frame.type === "error") tb.banner.text(errorText(frame));
}

// The page: the tools above, the table (results, seats, summary, banner, board) and,
// beside it, the chat and the log.
function mount(tb) {
  const { info, summary, chat, concede, banner } = tb;
  const head = el("div", { class: "table-tools" }, concede.box, muteButton(),
    el("a", { href: `#/rules/${info.game}`, title: t("table.rules") }, t("nav.rules")));
  const main = el("div", { class: "table-main" }, tb.results, concede.ask, concede.note, tb.ring.box, summary.box, banner.box, tb.board);
  // Focusable: the log scrolls, and a keyboard must be able to scroll it.
  const side = el("aside", { class: "table-side panel", "aria-label": t("table.log"), tabindex: 0 }, el("h2", {}, t("table.log")), tb.story.box);
  // A round's or a hand's summary: on a wide screen at the head of the log, beside the
  // table, so that it never pushes the hand below the screen; on a phone above the board.
  // The chat: beside the table, above the log, on a wide screen; folded above the board
  // on a phone (in the page's flow, so it never covers the board).
  tb.place = () => {
    if (!phoneWidth().matches) {
      if (summary.box.parentNode !== side) side.prepend(summary.box);
      if (chat.box.parentNode !== side) side.insertBefore(chat.box, side.querySelector(":scope > h2"));
    } else {
      if (summary.box.parentNode !== main) main.insertBefore(summary.box, banner.box);
      if (chat.box.parentNode !== main) main.insertBefore(chat.box, banner.box);
    }
  };
  tb.place();
  page(`${t(`game.${info.game}`)} · ${tableName(info)}`, head, tb.waiting,
    el("div", { class: `table-shell game-${info.game}` }, main, side));
  drawTable(tb);
}

async function startCoach(tb) {
  if (!(tb.info.tutorial && tb.gameInfo?.tutorial && tb.me() !== null)) return;
  await coachStyles();
  tb.coach = coachFor({ tableId: tb.tableId, gameId: tb.info.game, steps: tb.gameInfo.tutorial.steps, me: tb.me(), view: () => tb.view });
}

// The socket, the keys, the clocks and the phone width: returns what stops them all.
function start(tb) {
  const { game, mine, story } = tb;
  tb.celebrated = tb.info.status === "finished";  // a finished table opened later: no confetti, no fanfare
  tb.socket = new TableSocket(tb.tableId, {
    // `since`: the moves after the last one this page told come first (a drop, a reload).
    hello: () => ({ token: mine && !tb.conceded() ? mine.token : null, key: inviteKey(tb.tableId),
      since: story.told >= 0 ? story.told : undefined }),
    onFrame: (frame) => onFrame(tb, frame),
    onOpen: () => status(""),
    onLost: () => status(t("table.reconnecting")),
    finished: () => tb.info.status === "finished",
    direct: mine ? mine.socket : null,
  });
  tb.socket.connect();
  const keys = (event) => { if (tb.view && game.key) game.key(event, tb.view, tb.ctx); };
  document.addEventListener("keydown", keys);
  const ticker = setInterval(() => {
    if (tb.view && game.tick) game.tick(tb.board, tb.view, tb.ctx);
    tb.ring.tick();
  }, 250);
  // Crossing the phone width moves the game's centre between the felt and the board, and
  // the round's summary and the chat between the side and the board.
  const refold = () => { drawBoard(tb); tb.ring.draw(tb.board); tb.place(); };
  phoneWidth().addEventListener("change", refold);
  return () => {
    clearInterval(ticker);
    document.removeEventListener("keydown", keys);
    phoneWidth().removeEventListener("change", refold);
    tb.coach?.close();
    tb.socket.close();
  };
}
