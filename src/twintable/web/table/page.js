// A table: the seats around the felt, the game's board, the narrated log, the round
// summary and the results, kept live over the table's socket. Everything about the game
// itself comes from its client module (README.md); this page names no game.
import { api, assets, games, tableGet, errorText } from "../lib/api.js";
import { el, page, status } from "../lib/dom.js";
import { t, tNodes } from "../lib/i18n.js";
import { client, loadStyles } from "../lib/games.js";
import { glow, phoneWidth, reducedMotion } from "../lib/motion.js";
import { muteButton, play, SOUND_OF } from "../lib/sound.js";
import { inviteKey, tokens } from "../lib/store.js";
import { TableSocket } from "../net/socket.js";
import { chatPanel } from "./chat.js";
import { seatChip, seatName, tableName } from "./names.js";
import { describeEvents, tools } from "./narration.js";
import { fitResults, resultNodes, summaryPanel } from "./results.js";
import { seatRing } from "./seats.js";
import { waitingNodes } from "./waiting.js";
import { coachFor } from "./coach.js";
import { coachStyles } from "../pages/guided.js";

// Events whose line also shows in the flash above the board.
// The end of the game is not among them: the results say who won, above the table (it
// showed four times at once on a phone: results, flash, log and board).
const FLASHED = new Set(["taken", "tie", "error", "round_over", "revealed", "caught", "clues_revealed", "bankrupt"]);
const LOG_LINES = 60;
// A flashed line belongs to its moment: it goes after this many moves without another.
const FLASH_MOVES = 6;

// The log survives a reload in this tab (sessionStorage): the lines as drawn, in the
// language they were told in, up to the version they tell.
const logKey = (tableId) => `tt.log.${tableId}`;
function savedLog(tableId) {
  try { return JSON.parse(sessionStorage.getItem(logKey(tableId)) || "null"); } catch { return null; }
}
function saveLog(tableId, log, version) {
  try {
    sessionStorage.setItem(logKey(tableId), JSON.stringify({ lang: document.documentElement.lang, version, html: log.innerHTML }));
  } catch { /* storage full or refused: the log simply starts afresh after a reload */ }
}

// The text a log line reads as, to tell the same line twice in a row.
const lineText = (item) => item?.dataset?.text ?? "";

export async function tablePage(tableId) {
  let info = await tableGet(tableId);
  const gameInfo = (await games()).find((g) => g.id === info.game);
  const [game, gameAssets] = await Promise.all([client(info.game), assets(info.game), loadStyles([info.game])]);
  const unversioned = gameInfo?.unversioned_kinds || [];
  const mine = tokens()[tableId];
  const board = el("div", { id: "board" });
  const log = el("ol", { class: "log", id: "log", "aria-live": "polite", reversed: true });
  const kept = savedLog(tableId);
  if (kept && kept.lang === document.documentElement.lang) log.innerHTML = kept.html;
  let toldUpTo = kept && kept.lang === document.documentElement.lang ? kept.version : -1;
  let flashMoves = 0;
  const flash = el("p", { class: "tw-flash", role: "alert", id: "flash" });
  const waiting = el("section", { class: "panel", id: "waiting" });
  const results = el("section", { class: "panel results", id: "results", hidden: true });
  const s = { info, view: null, version: 0, mine, lastActor: null, celebrated: false,
    clock: { received: Date.now(), lastMove: Date.now() } };
  const memory = {};  // what the game keeps between frames (cards seen, rounds won...)
  const local = {};  // the board's own UI state (a pending pick, a chosen colour...)
  const who = (seat) => seatChip(s.info.seats, seat, s.info.game);
  // A person who conceded watches the rest as a spectator (a stand-in plays their seat).
  const conceded = () => Boolean(mine && s.info.seats[mine.seat]?.conceded);
  const me = () => (mine && !conceded() ? mine.seat : null);
  const use = (extra = {}) => tools(s.info.game, who, { seats: s.info.seats, memory, ...extra });
  let socket = null;
  let coach = null;  // the guided game's hints (table/coach.js), on a guided table

  const ctx = {
    t, el, local, assets: gameAssets,
    get me() { return me(); },
    get names() { return s.info.seats.map((seat) => seatName(seat, s.info.game)); },
    act(kind, payload = {}) { socket.act(kind, payload, s.version, unversioned); },
    flash(text) { flash.textContent = text; },
    redraw() { drawBoard(); },
  };
  const ring = seatRing(game, () => s, ctx);
  const summary = summaryPanel(game, memory, () => use({ view: s.view }));

  function drawBoard() {
    if (!s.view) return;
    const focused = document.activeElement?.dataset ? document.activeElement.dataset.key : null;
    // User timings (tt:render, tt:seats, tt:log) show where a frame's time goes
    // (bench/web_smoothness.py reports them).
    const started = performance.now();
    ring.felt.querySelector(":scope > [data-felt]")?.remove();  // the last frame's centre
    board.replaceChildren(game.render(s.view, ctx));
    const drawn = performance.now();
    ring.draw(board);  // moves the new centre onto the felt, so the focus comes back after it
    if (focused) {
      const selector = `[data-key="${CSS.escape(focused)}"]`;
      (ring.felt.querySelector(selector) || board.querySelector(selector))?.focus({ preventScroll: true });
    }
    performance.measure("tt:render", { start: started, end: drawn });
    performance.measure("tt:seats", { start: drawn, end: performance.now() });
    coach?.place();
  }

  function drawWaiting() {
    waiting.hidden = s.info.status !== "open";
    // Once the game runs, the start button and the seat controls go, not only out of sight.
    waiting.replaceChildren(...(waiting.hidden ? []
      : waitingNodes({ info: s.info, mine, tableId, game: gameInfo, flash: ctx.flash })));
  }

  function drawResults() {
    if (s.info.status !== "finished" || !s.info.result) { results.hidden = true; return; }
    results.hidden = false;
    summary.box.hidden = true;
    results.replaceChildren(...resultNodes(game, { ...s, memory, tableId, flash: ctx.flash,
      use: () => use({ view: s.view }), lastRound: summary.nodes }));
    fitResults(results, matchMedia("(min-width: 701px)").matches);
    if (!s.celebrated) {
      s.celebrated = true;
      play("end");
      // The results come into view by themselves, once, wherever the page was (no further
      // than that: on a wide screen the seats below them stay in view too).
      results.scrollIntoView({ block: "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
    }
  }

  function drawTable() { ring.draw(board); drawWaiting(); drawResults(); drawConcede(); chat.refresh(); }
  const chat = chatPanel({ tableId, info: () => s.info, me, send: (message) => socket.send(message) });

  // Giving the game up: asked once more, then a stand-in plays the seat to the end and the
  // game counts as a loss (the server's concede); offered while the game is in play.
  const concedeBox = el("div", { class: "concede", id: "concede" });
  const concedeAsk = el("div", { class: "concede-ask panel", id: "concede-panel", hidden: true });
  const concededNote = el("p", { class: "conceded-note", id: "conceded-note", hidden: true }, t("table.you_conceded"));
  function drawConcede() {
    concededNote.hidden = !(conceded() && s.info.status === "running");
    const seat = mine ? s.info.seats[mine.seat] : null;
    const open = s.info.status === "running" && seat && seat.kind === "human" && !seat.conceded
      && !(s.view && s.view.over);
    if (!open) { concedeBox.replaceChildren(); concedeAsk.hidden = true; return; }
    if (concedeBox.childElementCount) return;
    // A flag and the word; on a phone the flag alone, so the table's name keeps its line.
    concedeBox.replaceChildren(el("button", { id: "concede-ask", "aria-label": t("table.concede"), title: t("table.concede"), onclick: () => {
      concedeAsk.replaceChildren(el("p", { role: "alert" }, t("table.concede_confirm")),
        el("div", { class: "row" },
          el("button", { class: "danger", id: "concede-yes", onclick: async () => {
            concedeAsk.hidden = true;
            try {
              s.info = await api("POST", `/api/tables/${tableId}/concede`, null, mine.token);
              socket.renew();  // from now on as a spectator
            } catch (error) { flash.textContent = errorText(error); }
            drawTable();
          } }, t("table.concede_yes")),
          el("button", { id: "concede-no", onclick: () => { concedeAsk.hidden = true; } }, t("table.concede_no"))));
      concedeAsk.hidden = false;
      concedeAsk.querySelector("#concede-no").focus();
    } }, el("span", { class: "concede-flag", "aria-hidden": "true" }, "⚑"), " ",
    el("span", { class: "concede-label", "aria-hidden": "true" }, t("table.concede"))));
  }

  function remember(view) { if (view && game.remember) game.remember(view, memory); }

  // `missed`: a move told after a drop or a reload, before the table as it is now: it
  // goes in the story without a sound or a banner of its own.
  function narrate(events, seat, view, missed = false) {
    const started = performance.now();
    summary.track(events, view);
    const lines = [];
    for (const [event, line] of describeEvents(game, events, use({ view, actor: seat, ctx, replay: false }))) {
      lines.push(line);
      if (missed) continue;
      if (SOUND_OF[event.kind]) play(SOUND_OF[event.kind]);
      if (FLASHED.has(event.kind) && game.toldOnBoard?.(event, view)) {
        // The board tells this one itself; an older flash above it would be stale.
        flash.replaceChildren();
      } else if (FLASHED.has(event.kind)) {
        flash.replaceChildren(...[line].flat().map((part) => (part instanceof Node ? part.cloneNode(true) : part)));
        fitFlash(flash);
        glow(flash);
        flashMoves = 0;
      }
    }
    // No banner from an earlier round: the flash fades out of the page after a few moves.
    if (++flashMoves > FLASH_MOVES && flash.childNodes.length) flash.replaceChildren();
    remember(view);
    // A round's or a hand's summary stays for a few moves of the next one (or until closed).
    summary.draw(s.info.status === "finished", true);
    if (lines.length) {
      log.querySelectorAll(".latest").forEach((item) => item.classList.remove("latest"));
      for (const line of lines) tell(line, "latest");
    }
    saveLog(tableId, log, s.version);
    performance.measure("tt:log", { start: started, end: performance.now() });
  }

  // One line on top of the log (kept to its last LOG_LINES); the same line twice in a
  // row is one line with a count, never a repeat.
  function tell(line, mark) {
    const item = el("li", { class: mark }, [line].flat());
    const text = item.textContent;
    const top = log.firstElementChild;
    if (top && lineText(top) === text) {
      const times = Number(top.dataset.times || 1) + 1;
      top.dataset.times = times;
      if (mark) top.classList.add(mark);
      top.querySelector(".times")?.remove();
      top.append(el("span", { class: "times", "aria-label": t("table.times", { n: times }) }, ` ×${times}`));
      return;
    }
    item.dataset.text = text;
    log.prepend(item);
    while (log.childNodes.length > LOG_LINES) log.lastChild.remove();
  }

  // A game whose first moves are not told (Twin It's flips) says what is under way, so
  // the log does not stand empty until the first take.
  function opening(view) {
    if (log.childElementCount || !game.opening || s.info.status !== "running" || !view) return;
    const line = game.opening(view, use({ view, ctx, replay: false }));
    if (!line) return;
    tell(line, null);
    saveLog(tableId, log, s.version);
  }

  function onFrame(frame) {
    if (frame.type === "chat") { chat.onFrame(frame); return; }
    if (frame.type === "snapshot" || frame.type === "event") {
      const wasMine = ring.acting().includes(me());
      s.view = frame.view;
      s.version = frame.version;
      s.clock.received = Date.now();
      const moved = frame.type === "event";
      const live = moved && !frame.missed;
      if (moved) {
        if (live) s.clock.lastMove = s.clock.received;  // the server restarts a move's time limit on every move
        // A move already told (the log came back from before a reload, or the frame came
        // twice) is not told again.
        if (frame.version > toldUpTo) { toldUpTo = frame.version; narrate(frame.events, frame.seat, frame.view, frame.missed); } else remember(frame.view);
      } else {
        // Moves made while this page was away that the server could not tell (it keeps
        // the latest few hundred, and none across a restart): the story says so.
        if (toldUpTo >= 0 && frame.version > toldUpTo && s.info.status !== "open") {
          tell(t("table.missed_moves", { n: frame.version - toldUpTo }), null);
          toldUpTo = frame.version;
          saveLog(tableId, log, frame.version);
        }
        remember(frame.view);
      }
      if (moved && frame.seat >= 0) s.lastActor = frame.seat;
      if (moved) coach?.frame(frame);
      opening(s.view);
      if (frame.missed) return;  // the snapshot that follows draws the table as it is now
      drawBoard();
      if (live && frame.seat >= 0) ring.pulse(frame.seat);
      if (live && !wasMine && me() !== null && ring.acting().includes(me())) play("turn");
    } else if (frame.type === "table" || frame.type === "welcome") {
      const hadRematch = s.info.rematch;
      const hadConceded = new Set(s.info.seats.filter((seat) => seat.conceded).map((seat) => seat.seat));
      s.info = frame.table;
      for (const seat of s.info.seats) {
        if (seat.conceded && !hadConceded.has(seat.seat) && frame.type === "table") tell(tNodes("table.someone_conceded", { name: who(seat.seat) }) || "", null);
      }
      drawTable();
      if (frame.type === "table" && s.info.rematch && !hadRematch && !tokens()[s.info.rematch]) flash.textContent = t("table.rematch_ready");
    } else if (frame.type === "error") {
      flash.textContent = errorText(frame);
    }
  }

  socket = new TableSocket(tableId, {
    // `since`: the moves after the last one this page told come first (a drop, a reload).
    hello: () => ({ token: mine && !conceded() ? mine.token : null, key: inviteKey(tableId),
      since: toldUpTo >= 0 ? toldUpTo : undefined }),
    onFrame,
    onOpen: () => status(""),
    onLost: () => status(t("table.reconnecting")),
    finished: () => s.info.status === "finished",
    direct: mine ? mine.socket : null,
  });

  const head = el("div", { class: "table-tools" }, concedeBox, muteButton(),
    el("a", { href: `#/rules/${info.game}`, title: t("table.rules") }, t("nav.rules")));
  const main = el("div", { class: "table-main" }, results, concedeAsk, concededNote, ring.box, summary.box, flash, board);
  // Focusable: the log scrolls, and a keyboard must be able to scroll it.
  const side = el("aside", { class: "table-side panel", "aria-label": t("table.log"), tabindex: 0 }, el("h2", {}, t("table.log")), log);
  // A round's or a hand's summary: on a wide screen at the head of the log, beside the
  // table, so that it never pushes the hand below the screen; on a phone above the board.
  const placeSummary = () => {
    if (!phoneWidth().matches) { if (summary.box.parentNode !== side) side.prepend(summary.box); }
    else if (summary.box.parentNode !== main) main.insertBefore(summary.box, flash);
  };
  placeSummary();
  // The chat: beside the table, above the log, on a wide screen; folded above the board on
  // a phone (in the page's flow, so it never covers the board).
  const placeChat = () => {
    if (!phoneWidth().matches) { if (chat.box.parentNode !== side) side.insertBefore(chat.box, side.querySelector(":scope > h2")); }
    else if (chat.box.parentNode !== main) main.insertBefore(chat.box, flash);
  };
  placeChat();
  page(`${t(`game.${info.game}`)} · ${tableName(info)}`, head, waiting,
    el("div", { class: `table-shell game-${info.game}` }, main, side));
  drawTable();
  if (info.tutorial && gameInfo?.tutorial && me() !== null) {
    await coachStyles();
    coach = coachFor({ tableId, gameId: info.game, steps: gameInfo.tutorial.steps, me: me(), view: () => s.view });
  }
  s.celebrated = info.status === "finished";  // a finished table opened later: no confetti, no fanfare
  socket.connect();
  const keys = (event) => { if (s.view && game.key) game.key(event, s.view, ctx); };
  document.addEventListener("keydown", keys);
  const ticker = setInterval(() => {
    if (s.view && game.tick) game.tick(board, s.view, ctx);
    ring.tick();
  }, 250);
  // Crossing the phone width moves the game's centre between the felt and the board, and
  // the round's summary between the log and the board.
  const refold = () => { drawBoard(); ring.draw(board); placeSummary(); placeChat(); };
  phoneWidth().addEventListener("change", refold);
  return () => {
    clearInterval(ticker);
    document.removeEventListener("keydown", keys);
    phoneWidth().removeEventListener("change", refold);
    coach?.close();
    socket.close();
  };
}

// The banner is one line on a wide screen; a line too long for it (six seats' cards shown
// at once) is set smaller on two lines rather than cut off with an ellipsis.
function fitFlash(flash) {
  flash.classList.remove("long");
  if (flash.scrollWidth > flash.clientWidth + 1) flash.classList.add("long");
}
