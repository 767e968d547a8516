// The replay: a finished game move by move, the board as spectators saw it, every hand
// (nothing is secret once the game is over; the game draws a hand, its `replayHand`),
// the narrated log up to the move, autoplay at a chosen speed, and the move in the
// address (#/replay/<id>/<move>) to share it.
import { assets, tableGet } from "../lib/api.js";
import { copyLine, el, page } from "../lib/dom.js";
import { language, t } from "../lib/i18n.js";
import { client } from "../lib/games.js";
import { inviteKey, saveKey, saveSetting, setting } from "../lib/store.js";
import { seatChip, seatName } from "../table/names.js";
import { describeEvents, tools } from "../table/narration.js";

export const REPLAY_SPEEDS = [0.5, 1, 2, 4];
const REPLAY_MOVE_MS = 1200;  // a move's time on screen at 1×
const REPLAY_LOG_LINES = 200;

export async function replayPage(tableArg, moveArg) {
  // A private table's replay is shared as "#/replay/<table>.<key>/<move>".
  const [tableId, given] = String(tableArg || "").split(".");
  if (given) saveKey(tableId, given);
  const info = await tableGet(tableId);
  const steps = await tableGet(tableId, "/replay/views?every_seat=true");
  const shared = inviteKey(tableId) ? `${tableId}.${inviteKey(tableId)}` : tableId;
  const game = await client(info.game);
  const gameAssets = await assets(info.game);
  const last = steps.length - 1;
  const who = (seat) => seatChip(info.seats, seat);
  // A spectator's board; `replay` tells a renderer that nobody plays here (Twin It draws
  // its cards as pictures, not as buttons that cannot be pressed).
  const ctx = { t, el, local: {}, assets: gameAssets, me: null, replay: true, names: info.seats.map(seatName),
    act() {}, flash() {}, redraw() {} };
  const memory = {};  // what the game remembers of the whole game (every card, to name one played)
  if (game.remember) for (const step of steps) for (const view of [step.view, ...(step.views || [])]) game.remember(view, memory);
  const tell = (index, withCtx) => (index === 0 ? [] : describeEvents(game, steps[index].events,
    tools(info.game, who, { seats: info.seats, memory, view: steps[index].view, actor: steps[index].action.seat, ctx: withCtx, replay: true }))
    .map(([, line]) => line));
  // Every move's lines, told once for the log (with a renderer's notes kept apart from the board's).
  const told = steps.map((_, index) => tell(index, { ...ctx, local: {} }));

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
  let current = 0;
  let timer = null;

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
    for (let index = current; index >= 1 && items.length < REPLAY_LOG_LINES; index--) {
      for (const line of [...told[index]].reverse()) {
        items.push(el("li", { class: index === current ? "latest" : "", "data-move": index },
          el("button", { type: "button", class: "link replay-jump", "aria-label": t("replay.go_to", { n: index }),
            onclick: () => show(index) }, number.format(index)), el("span", {}, copyLine(line))));
      }
    }
    log.replaceChildren(...items);
  }

  function show(index) {
    current = Math.max(0, Math.min(last, Number(index) || 0));
    const step = steps[current];
    slider.value = current;
    const lines = tell(current, ctx);  // the board's renderer keeps its own notes (Twinz penalties)
    let action = t("replay.start");
    if (step.action) {
      const text = lines.map((line) => el("span", {}, copyLine(line)).textContent).join(" · ");
      const actor = step.action.seat >= 0 ? ctx.names[step.action.seat] : t("replay.clock");
      action = text || t("replay.did", { name: actor, action: t(`replay.action.${step.action.kind}`) });
    }
    caption.textContent = t("replay.step", { n: current, total: last, action });
    board.replaceChildren(game.render(step.view, ctx));
    hands.replaceChildren(...handsOf(step));
    drawLog();
    // The address names the move, to share it; replaceState fires no hashchange.
    history.replaceState(null, "", `#/replay/${tableId}/${current}`);
    share.value = `${location.origin}/#/replay/${shared}/${current}`;
  }

  function play(on) {
    clearTimeout(timer);
    timer = null;
    playButton.textContent = t(on ? "replay.pause" : "replay.play");
    playButton.setAttribute("aria-pressed", String(on));
    // Every move read aloud at 4× would be noise: the caption speaks when paused.
    caption.setAttribute("aria-live", on ? "off" : "polite");
    if (on) timer = setTimeout(advance, REPLAY_MOVE_MS / speed);
  }
  function advance() {
    show(current + 1);
    play(current < last);
  }

  slider.addEventListener("input", () => show(slider.value));
  playButton.addEventListener("click", () => {
    if (timer !== null) { play(false); return; }
    if (current >= last) show(0);
    play(true);
  });
  speedSelect.addEventListener("change", () => {
    speed = Number(speedSelect.value);
    saveSetting("replay.speed", speed);
    if (timer !== null) play(true);
  });
  page(t("replay.title", { game: t(`game.${info.game}`) }),
    el("p", { class: "replay-seats" }, info.seats.map((seat, index) => who(index)).flatMap((node, i) => (i ? [" ", node] : [node]))),
    el("div", { class: "row replay-controls", role: "group", "aria-label": t("replay.controls") },
      el("button", { id: "first", type: "button", onclick: () => show(0) }, t("replay.first")),
      el("button", { id: "prev", type: "button", onclick: () => show(current - 1) }, t("replay.back")),
      slider,
      el("button", { id: "next", type: "button", onclick: () => show(current + 1) }, t("replay.next")),
      el("button", { id: "last", type: "button", onclick: () => show(last) }, t("replay.last")),
      playButton,
      el("label", { class: "replay-speed" }, t("replay.speed"), " ", speedSelect)),
    caption,
    el("div", { class: "replay-shell" },
      el("div", { class: "replay-main" }, board, hands),
      el("section", { class: "replay-side panel", "aria-labelledby": "replay-log-title" },
        el("h2", { id: "replay-log-title" }, t("replay.log")), log)),
    el("p", { class: "row replay-links" },
      el("label", { class: "replay-share" }, t("replay.share"), " ", share),
      el("a", { href: `#/table/${tableId}` }, t("replay.results"))));
  show(moveArg);
  return () => clearTimeout(timer);
}
