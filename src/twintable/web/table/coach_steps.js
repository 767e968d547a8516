// The guided game's hints, the pure part: when a step is done (the same reading of a
// frame as core/tutorial.py's), and where a bubble goes so that it never covers what it
// points at and fits the screen. No DOM here; table/coach.js draws.

// Whether a table frame completes `step` for the player in seat `me`. A step advances on
// the player's own move of a kind (`{ move }`), on an event anyone's move told (`{ event }`;
// `mine`: the player's own move told it), or only on "Next" (`{ next: true }`).
export function stepDone(step, frame, me) {
  if (!step || !frame || frame.type !== "event") return false;
  const rule = step.advance || {};
  if (rule.move) return frame.seat === me && frame.kind === rule.move;
  if (rule.event) {
    return (!rule.mine || frame.seat === me) && (frame.events || []).some((event) => event.kind === rule.event);
  }
  return false;
}

// Whether the step is read and then closed with "Next" (it names no move or event).
export const readOnly = (step) => !step?.advance?.move && !step?.advance?.event;

// Whether a step's hint shows now: a hint asking for a move waits until the player may
// make it (a game's view lists the player's legal moves: `legal`), so "draw a card" never
// shows on a turn where a card could be played, nor "your clue" before the player's duo.
export function stepReady(step, view) {
  if (!step?.advance?.move) return true;
  return (view?.legal || []).some((action) => action.kind === step.advance.move);
}

// The step to show after a frame: the next one when the frame completes the current one.
// A person does not always do what the hints say (a pair taken while a hint was being
// read, a round won before its hint came): when the game ends, the hints still waiting
// for a move give way to the closing ones that only explain (or to the guide's end).
export function nextStep(steps, at, frame, me) {
  const next = at < steps.length && stepDone(steps[at], frame, me) ? at + 1 : at;
  if (!(frame?.events || []).some((event) => event.kind === "game_over")) return next;
  let closing = steps.length;
  while (closing > 0 && readOnly(steps[closing - 1])) closing -= 1;
  return Math.max(next, closing);
}

const overlap = (a, b) => a.left < b.left + b.width && b.left < a.left + a.width
  && a.top < b.top + b.height && b.top < a.top + a.height;
const clamp = (value, low, high) => Math.min(Math.max(low, value), Math.max(low, high));

// Where a bubble of `size` ({ width, height }) goes beside `target` (a rectangle in
// viewport pixels: { top, left, width, height }) in a viewport of `view` ({ width,
// height }), `gap` pixels away, never over the target: below it, above it, to its right
// or to its left, the first of these that fits the screen and keeps clear of `avoid`
// (rectangles the player must still see: their seat, their hand, the table; a `weight`
// says how much more one matters), else the one that fits and hides least of them, else below or above, whichever has more room (a target
// taller than the screen: over its lower part, on screen). Returns { top, left, side, arrow } (arrow: where the
// pointer sits along the bubble's edge that faces the target).
export function placeBubble(target, size, view, gap = 10, margin = 8, avoid = [], slack = 12) {
  const centreX = target.left + target.width / 2;
  const centreY = target.top + target.height / 2;
  const across = clamp(centreX - size.width / 2, margin, view.width - size.width - margin);
  const along = clamp(centreY - size.height / 2, margin, view.height - size.height - margin);
  const spots = [
    { side: "below", top: target.top + target.height + gap, left: across },
    { side: "above", top: target.top - gap - size.height, left: across },
    { side: "right", top: along, left: target.left + target.width + gap },
    { side: "left", top: along, left: target.left - gap - size.width },
  ];
  const fits = (spot) => spot.top >= margin && spot.left >= margin
    && spot.top + size.height <= view.height - margin && spot.left + size.width <= view.width - margin;
  // How much of what the player must still see a spot would hide (a sliver of a box's
  // padding, under `slack` pixels deep, hides nothing).
  const hidden = (spot) => avoid.reduce((sum, box) => {
    const wide = Math.min(spot.left + size.width, box.left + box.width) - Math.max(spot.left, box.left);
    const high = Math.min(spot.top + size.height, box.top + box.height) - Math.max(spot.top, box.top);
    return sum + (wide > slack && high > slack ? wide * high * (box.weight ?? 1) : 0);
  }, 0);
  const fitting = spots.filter(fits);
  let spot = fitting.find((s) => !hidden(s))
    || fitting.reduce((best, s) => (best && hidden(best) <= hidden(s) ? best : s), null);
  if (!spot) {
    const below = view.height - (target.top + target.height);
    spot = below >= target.top ? spots[0] : spots[1];
    if (target.height >= view.height - 2 * margin) {
      spot = { side: "inside", top: view.height - size.height - margin, left: across };
    }
  }
  const vertical = spot.side === "left" || spot.side === "right";
  const arrow = vertical ? clamp(centreY - spot.top, 16, size.height - 16) : clamp(centreX - spot.left, 16, size.width - 16);
  return { top: Math.round(spot.top), left: Math.round(spot.left), side: spot.side, arrow: Math.round(arrow) };
}

// The bubble's width on a screen `viewWidth` wide: at most `widest`, the screen less its
// margins on a phone.
export const bubbleWidth = (viewWidth, widest = 340, margin = 8) => Math.max(160, Math.min(widest, viewWidth - 2 * margin));
