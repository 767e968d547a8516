// The replay: a finished game move by move, the board as spectators saw it, every hand
// (nothing is secret once the game is over; the game draws a hand, its `replayHand`),
// the narrated log up to the move, autoplay at a chosen speed, and the move in the
// address (#/replay/<id>/<move>) to share it. The steps come a page at a time
// (replay_steps.js): the first frame shows as soon as its page is here.
import { assets, errorText, tableGet } from "../lib/api.js";
import { copyLine, el, page } from "../lib/dom.js";
import { joinNames, language, t } from "../lib/i18n.js";
import { client, loadStyles } from "../lib/games.js";
import { inviteKey, saveKey, saveSetting, setting } from "../lib/store.js";
import { replayChat } from "../table/chat.js";
import { levelBadge, seatChip, seatName } from "../table/names.js";
import { describeEvents, tools } from "../table/narration.js";
import { replaySteps } from "./replay_steps.js";

export const REPLAY_SPEEDS = [0.5, 1, 2, 4];
const REPLAY_MOVE_MS = 1200;  // a move's time on screen at 1×
const REPLAY_LOG_LINES = 200;

export async function replayPage(tableArg, moveArg) {
  // A private table's replay is shared as "#/replay/<table>.<key>/<move>".
  const [tableId, given] = String(tableArg || "").split(".");
  if (given) saveKey(tableId, given);
  let ready = false;  // the game's client is here: pages that land are remembered and told
  const steps = replaySteps((from, count) => tableGet(tableId, `/replay/steps?every_seat=true&from=${from}&count=${count}`),
    { onPage: (from, page) => { if (ready) landed(from, page); } });
  // The table, the game's client and assets, and the first page, all on their way at once.
  const table = tableGet(tableId);
  const drawing = table.then((info) => Promise.all([client(info.game), assets(info.game), loadStyles([info.game])]));
  const said = tableGet(tableId, "/replay/chat").then((answer) => answer.lines, () => []);
  const [info, opened, [game, gameAssets], lines] = await Promise.all([table, steps.open(moveArg), drawing, said]);
  const talk = replayChat(tableId, lines, info);
  const shared = inviteKey(tableId) ? `${tableId}.${inviteKey(tableId)}` : tableId;
  const last = steps.last;
  const who = (seat) => seatChip(info.seats, seat, info.game);
  // A spectator's board; `replay` tells a renderer that nobody plays here (Twin It draws
  // its cards as pictures, not as buttons that cannot be pressed).
  const ctx = { t, el, joinNames, local: {}, assets: gameAssets, me: null, replay: true, names: info.seats.map((seat) => seatName(seat, info.game)),
    act() {}, flash() {}, redraw() {} };
  const memory = {};  // what the game remembers of the whole game (every card, to name one played)
  const learn = (page) => {  // every card seen in the steps read so far, to name one played
    if (game.remember) for (const step of page) for (const view of [step.view, ...(step.views || [])]) game.remember(view, memory);
  };
  const tell = (index, withCtx) => (index === 0 ? [] : describeEvents(game, steps.get(index).events,
    tools(info.game, who, { seats: info.seats, memory, view: steps.get(index).view, actor: steps.get(index).action.seat, ctx: withCtx, replay: true }))
    .map(([, line]) => line));
  // Every move's lines, told once for the log (with a renderer's notes kept apart from the board's).
  const told = [];
  const toldAt = (index) => (told[index] ??= tell(index, { ...ctx, local: {} }));

  const board = el("div", { id: "board", class: "replay-board" });
  const caption = el("p", { id: "replay-step", class: "replay-step", "aria-live": "polite" });
  const slider = el("input", { type: "range", min: 0, max: last, value: 0, id: "seek", "aria-label": t("replay.seek") });
  const hands = el("section", { class: "panel replay-hands", id: "replay-hands", "aria-labelledby": "replay-hands-title" });
  const log = el("ol", { class: "log replay-log", id: "replay-log" });
  const share = el("input", { readonly: true, id: "replay-share", size: 40, onfocus: (event) => event.target.select() });
  const playButton = el("button", { id: "play", type: "button", class: "primary", "aria-pressed": "false" }, t("replay.play"));
  const number = new Intl.NumberFormat(language());
  let speed = Number(setting("replay.speed"));
  if (!REPLAY_SPEEDS.includes(speed)) speed = 1;
  const speedSelect = el("select", { id: "speed" }, REPLAY_SPEEDS.map((n) => el("option", { value: n, selected: n === speed },
    t("replay.times", { n: number.format(n) }))));
  let current = 0;  // the step drawn
  let wanted = 0;  // the step asked for: drawn, or its page on its way
  let timer = null;
  let playing = false;
  let closed = false;  // the reader went elsewhere: a page landing late draws nothing
  let logShort = false;  // the log holds fewer lines than it could: steps behind are missing

  function handsOf(step) {
    const rows = (step.views || []).map((view, seat) => {
      const shown = game.replayHand ? game.replayHand(view, ctx) : null;
      return shown && el("li", { class: "replay-hand", "data-seat": seat }, el("span", { class: "replay-who" }, who(seat)), shown);
    }).filter(Boolean);
    return [el("h2", { id: "replay-hands-title" }, t("replay.hands")),
      rows.length ? el("ul", { class: "replay-hand-list" }, rows) : el("p", { class: "replay-none" }, t("replay.all_open"))];
  }

  function drawLog() {
    const items = [];
    for (let index = current; index >= 1 && items.length < REPLAY_LOG_LINES && steps.has(index); index--) {
      for (const line of [...toldAt(index)].reverse()) {
        items.push(el("li", { class: index === current ? "latest" : "", "data-move": index },
          el("button", { type: "button", class: "link replay-jump", "aria-label": t("replay.go_to", { n: index }),
            onclick: () => show(index) }, number.format(index)), el("span", {}, copyLine(line))));
      }
    }
    log.replaceChildren(...items);
    // The log reads further back than was fetched: the page before, told when it lands.
    const from = steps.firstRead(current);
    logShort = items.length < REPLAY_LOG_LINES && from > 1;
    if (logShort) steps.load(from - 1).catch(() => {});
  }

  function landed(from, page) {
    learn(page);
    // The log fills in behind the cursor, unless the reader is in it (a redraw would take
    // the focus away from the move they are on).
    if (!closed && logShort && from <= current && !log.contains(document.activeElement)) drawLog();
  }

  // Show a step: at once when its page is here, else when it lands (unless another step
  // was asked for meanwhile).
  function show(index) {
    const target = Math.max(0, Math.min(last, Number(index) || 0));
    wanted = target;
    slider.value = target;
    if (steps.has(target)) {
      draw(target);
      return Promise.resolve();
    }
    board.setAttribute("aria-busy", "true");
    return steps.load(target).then(() => { if (!closed && wanted === target) draw(target); },
      (error) => {
        if (closed || wanted !== target) return;
        board.removeAttribute("aria-busy");
        caption.textContent = errorText(error);
      });
  }

  function draw(index) {
    current = index;
    const step = steps.get(current);
    const lines = tell(current, ctx);  // the board's renderer keeps its own notes (Twinz penalties)
    let action = t("replay.start");
    if (step.action) {
      const text = lines.map((line) => el("span", {}, copyLine(line)).textContent).join(" · ");
      const actor = step.action.seat >= 0 ? ctx.names[step.action.seat] : t("replay.clock");
      action = text || t("replay.did", { name: actor, action: t(`replay.action.${step.action.kind}`) });
    }
    caption.textContent = t("replay.step", { n: current, total: last, action });
    board.replaceChildren(game.render(step.view, ctx));
    board.dataset.move = current;  // which step the board shows (its page may come late)
    board.removeAttribute("aria-busy");
    hands.replaceChildren(...handsOf(step));
    drawLog();
    talk.show(current);
    // The address names the move, to share it; replaceState fires no hashchange.
    history.replaceState(null, "", `#/replay/${tableId}/${current}`);
    share.value = `${location.origin}/#/replay/${shared}/${current}`;
    steps.prefetch(current);
  }

  function play(on) {
    clearTimeout(timer);
    timer = null;
    playing = on;
    playButton.textContent = t(on ? "replay.pause" : "replay.play");
    playButton.setAttribute("aria-pressed", String(on));
    // Every move read aloud at 4× would be noise: the caption speaks when paused.
    caption.setAttribute("aria-live", on ? "off" : "polite");
    if (on) timer = setTimeout(advance, REPLAY_MOVE_MS / speed);
  }
  function advance() {
    timer = null;
    show(wanted + 1).then(() => { if (playing) play(wanted < last); });
  }

  slider.addEventListener("input", () => show(slider.value));
  playButton.addEventListener("click", () => {
    if (playing) { play(false); return; }
    if (wanted >= last) show(0);
    play(true);
  });
  speedSelect.addEventListener("change", () => {
    speed = Number(speedSelect.value);
    saveSetting("replay.speed", speed);
    if (playing) play(true);
  });
  page(t("replay.title", { game: t(`game.${info.game}`) }),
    el("p", { class: "replay-seats" }, info.seats.map((seat, index) => el("span", { class: "replay-seat" }, who(index), levelBadge(seat, info.game))).flatMap((node, i) => (i ? [" ", node] : [node]))),
    el("div", { class: "row replay-controls", role: "group", "aria-label": t("replay.controls") },
      el("button", { id: "first", type: "button", onclick: () => show(0) }, t("replay.first")),
      el("button", { id: "prev", type: "button", onclick: () => show(wanted - 1) }, t("replay.back")),
      slider,
      el("button", { id: "next", type: "button", onclick: () => show(wanted + 1) }, t("replay.next")),
      el("button", { id: "last", type: "button", onclick: () => show(last) }, t("replay.last")),
      playButton,
      el("label", { class: "replay-speed" }, t("replay.speed"), " ", speedSelect)),
    caption,
    el("div", { class: "replay-shell" },
      el("div", { class: "replay-main" }, board, hands),
      el("section", { class: "replay-side panel", "aria-labelledby": "replay-log-title" },
        talk.box, el("h2", { id: "replay-log-title" }, t("replay.log")), log)),
    el("p", { class: "row replay-links" },
      el("label", { class: "replay-share" }, t("replay.share"), " ", share),
      el("a", { href: `#/table/${tableId}` }, t("replay.results"))));
  ready = true;
  for (let index = 0; index <= last; index++) if (steps.has(index)) learn([steps.get(index)]);
  show(opened);
  return () => { closed = true; playing = false; clearTimeout(timer); };
}
