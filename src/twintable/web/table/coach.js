// The guided game's coach mark: a bubble beside what the current hint points at, with
// the hint in the player's language, "Next" for a hint that only explains, and "Skip the
// guide". The steps come from /api/games (`tutorial`, declared by the game); which one
// is shown survives a reload (this browser remembers it per table). Nothing happens on
// import; table/page.js makes one for a guided table.
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { markGuided } from "../pages/guided.js";
import { bubbleWidth, nextStep, placeBubble, readOnly, stepReady } from "./coach_steps.js";

const progressKey = (tableId) => `tt.coach.${tableId}`;
const FALLBACK = "#board";

function savedStep(tableId) {
  const kept = localStorage.getItem(progressKey(tableId));
  return kept === null ? 0 : Number(kept) || 0;
}

// The first element drawn (a hidden one has no boxes) of the selector's alternatives,
// taken in the order written ("the first playable card, else the hand"), else the board.
function anchorOf(selector) {
  for (const part of [...selector.split(","), FALLBACK]) {
    let found = [];
    try { found = [...document.querySelectorAll(part)]; } catch { found = []; }
    const shown = found.find((node) => node.getClientRects().length);
    if (shown) return shown;
  }
  return null;
}

export function coachFor({ tableId, gameId, steps, me, view: viewOf = () => null }) {
  let at = Math.min(savedStep(tableId), steps.length + 1);
  let closed = at > steps.length;  // skipped, or read to its end
  let shownAt = -1;
  let target = null;
  const text = el("p", { class: "coach-text", id: "coach-text" });
  const count = el("span", { class: "coach-count" });
  const buttons = el("div", { class: "coach-buttons" });
  const bubble = el("div", { class: "coach", id: "coach", role: "dialog", "aria-labelledby": "coach-text", hidden: true },
    el("div", { class: "coach-head" }, el("strong", {}, t("coach.label")), " ", count), text, buttons);
  document.body.append(bubble);
  // While a hint waits for the player's turn its bubble is away: the guide can still be
  // skipped from the table's tools, at any moment.
  const skipAll = el("button", { class: "coach-skip-all", id: "coach-skip-all", title: t("coach.skip"),
    "aria-label": t("coach.skip"), onclick: () => finish() }, t("coach.label"), " ", el("span", { "aria-hidden": "true" }, "✕"));
  if (!closed) document.querySelector(".table-tools")?.prepend(skipAll);

  const save = () => localStorage.setItem(progressKey(tableId), String(at));
  function finish() {
    closed = true;
    at = steps.length + 1;
    save();
    markGuided(gameId, "done");
    clearTarget();
    bubble.hidden = true;
    skipAll.remove();
  }
  function clearTarget() {
    target?.classList.remove("coach-target");
    target = null;
  }

  function draw() {
    if (closed) return;
    const step = steps[at];
    if (shownAt !== at) {
      shownAt = at;
      if (step) {
        count.textContent = t("coach.step", { n: at + 1, total: steps.length });
        text.textContent = t(step.text);
        buttons.replaceChildren(
          el("button", { class: "coach-skip", id: "coach-skip", onclick: finish }, t("coach.skip")),
          readOnly(step) ? el("button", { class: "primary", id: "coach-next", onclick: () => { at += 1; save(); draw(); } }, t("coach.next")) : "");
      } else {
        count.textContent = "";
        text.textContent = t("coach.done");
        buttons.replaceChildren(el("button", { class: "primary", id: "coach-close", onclick: finish }, t("coach.close")));
      }
    }
    place(step);
  }

  // The bubble beside the hint's target, which is marked; the target is brought into
  // view when its hint first shows.
  let scrolledFor = -1;
  function place(step = steps[at]) {
    if (closed) return;
    if (step && !stepReady(step, viewOf())) {  // not yet the player's to do: out of the way
      clearTarget();
      bubble.hidden = true;
      return;
    }
    const anchor = anchorOf(step ? step.anchor : FALLBACK);
    if (anchor !== target) {
      clearTarget();
      target = anchor;
      if (step) target?.classList.add("coach-target");
    }
    bubble.hidden = false;
    if (!anchor) return;
    if (scrolledFor !== at) {
      scrolledFor = at;
      anchor.scrollIntoView({ block: "nearest" });
    }
    const view = { width: document.documentElement.clientWidth, height: window.innerHeight };
    bubble.style.width = `${bubbleWidth(view.width)}px`;
    const box = anchor.getBoundingClientRect();
    // What the hint says to keep in sight (the word to give a clue for) comes first, then
    // the player's own seat, their hand and the middle of the table (their pile, their
    // cards, the card to follow), as far as can be.
    const boxes = (selector) => { try { return [...document.querySelectorAll(selector)]; } catch { return []; } };
    const kept = step?.keep ? boxes(step.keep).filter((node) => !node.contains(anchor)) : [];
    const rect = (node, weight) => {
      const { top, left, width, height } = node.getBoundingClientRect();
      return { top, left, width, height, weight };
    };
    // (The table's middle when the hint points into it, at the top card say, gives way.)
    const around = boxes(".seat.me, .hand, [data-felt]").filter((node) => !(node.matches("[data-felt]") && node.contains(anchor)));
    const avoid = [...kept.map((node) => rect(node, 5)), ...around.map((node) => rect(node, 1))];
    const spot = placeBubble({ top: box.top, left: box.left, width: box.width, height: box.height },
      { width: bubble.offsetWidth, height: bubble.offsetHeight }, view, 10, 8, avoid);
    bubble.dataset.side = spot.side;
    bubble.style.setProperty("--coach-arrow", `${spot.arrow}px`);
    bubble.style.top = `${spot.top + window.scrollY}px`;
    bubble.style.left = `${spot.left + window.scrollX}px`;
    afterMotion();
  }

  // A card still flying in is measured where it flies from: once the page's finite
  // animations end, the bubble is placed again.
  const waited = new WeakSet();
  let queued = false;
  function afterMotion() {
    for (const running of document.getAnimations?.() || []) {
      if (waited.has(running)) continue;
      waited.add(running);
      if (running.effect?.getComputedTiming?.().endTime === Infinity) continue;
      running.finished.then(() => {
        if (queued) return;
        queued = true;
        requestAnimationFrame(() => { queued = false; place(); });
      }, () => {});
    }
  }

  const replace = () => place();
  window.addEventListener("resize", replace);
  draw();

  return {
    // A table frame: the hint moves on when the frame completes it.
    frame(frame) {
      if (closed) return;
      const next = nextStep(steps, at, frame, me);
      if (next !== at) { at = next; save(); }
    },
    // After the board was drawn again: the hint beside its (new) target.
    place: () => draw(),
    close() {
      window.removeEventListener("resize", replace);
      clearTarget();
      bubble.remove();
      skipAll.remove();
    },
  };
}
