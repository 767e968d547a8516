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

// The step to show after a frame: the next one when the frame completes the current one.
export function nextStep(steps, at, frame, me) {
  return at < steps.length && stepDone(steps[at], frame, me) ? at + 1 : at;
}

// Whether the step is read and then closed with "Next" (it names no move or event).
export const readOnly = (step) => !step?.advance?.move && !step?.advance?.event;

// Where a bubble of `size` ({ width, height }) goes beside `target` (a rectangle in
// viewport pixels: { top, left, width, height }) in a viewport of `view` ({ width,
// height }), `gap` pixels away: below the target where it fits, else above, else on the
// side with more room (it may then run past the screen's edge, never over the target,
// unless the target fills the screen). Horizontally it is centred on the target and
// kept inside the screen. Returns { top, left, side, arrow } (arrow: the pointer's x
// inside the bubble).
export function placeBubble(target, size, view, gap = 10, margin = 8) {
  const below = view.height - (target.top + target.height) - gap - margin;
  const above = target.top - gap - margin;
  let side;
  if (size.height <= below) side = "below";
  else if (size.height <= above) side = "above";
  else side = below >= above ? "below" : "above";
  let top = side === "below" ? target.top + target.height + gap : target.top - gap - size.height;
  if (target.height >= view.height - 2 * margin) {
    // A target taller than the screen: the bubble stays on screen, over its lower part.
    side = "inside";
    top = view.height - size.height - margin;
  }
  const centre = target.left + target.width / 2;
  const widest = Math.max(0, view.width - size.width - margin);
  const left = Math.min(Math.max(margin, centre - size.width / 2), widest);
  const arrow = Math.min(Math.max(16, centre - left), Math.max(16, size.width - 16));
  return { top: Math.round(top), left: Math.round(left), side, arrow: Math.round(arrow) };
}

// The bubble's width on a screen `viewWidth` wide: at most `widest`, the screen less its
// margins on a phone.
export const bubbleWidth = (viewWidth, widest = 340, margin = 8) => Math.max(160, Math.min(widest, viewWidth - 2 * margin));
