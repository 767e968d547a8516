// Motion: what moves on screen and when it must not (prefers-reduced-motion), and the
// phone width at which the table folds its seats into a strip. Nothing happens on import.
import { el } from "./dom.js";

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

let phone = null;
// table.css folds the seats into a strip below this width.
export const phoneWidth = () => (phone = phone || window.matchMedia("(max-width: 700px)"));

// Avatar colours by seat: distinct at a 10-seat table, readable with white initials.
export const SEAT_COLOURS = ["#c2410c", "#1d4ed8", "#047857", "#7e22ce", "#be123c", "#0e7490", "#a16207", "#4338ca", "#15803d", "#9d174d"];
export const seatColour = (index) => SEAT_COLOURS[index % SEAT_COLOURS.length];

// A short burst of CSS confetti (none at all under prefers-reduced-motion).
export function confetti() {
  if (reducedMotion()) return "";
  return el("div", { class: "confetti", "aria-hidden": "true" }, Array.from({ length: 36 }, (_, i) => el("i", {
    style: `--x:${(i * 37) % 100}%;--d:${(i % 9) * 0.09}s;--r:${(i * 53) % 360}deg;--c:${seatColour(i)}` })));
}

// One pulse of a box (a highlight that stays under reduced motion is the caller's).
export function pulse(box) {
  if (box && !reducedMotion() && box.animate) {
    box.animate([{ scale: "1" }, { scale: "1.08" }, { scale: "1" }], { duration: 420, easing: "ease-out" });
  }
}

export function glow(box) {
  if (!reducedMotion() && box.animate) {
    box.animate([{ backgroundColor: "#ffe27a" }, { backgroundColor: "transparent" }], { duration: 1200, easing: "ease-out" });
  }
}
