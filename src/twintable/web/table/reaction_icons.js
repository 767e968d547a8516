// The quick reactions drawn as our own small pictures (inline SVG), not as emoji: a
// device without an emoji font (headless Chromium, some Linux desktops, old phones) drew
// the emoji as empty boxes. The server and the chat keep the emoji as each reaction's
// name (protocol.py REACTIONS); only the drawing is ours. Each picture is a few shapes
// on a 24x24 grid, with presentation attributes only (no inline styles: the page's
// Content-Security-Policy forbids them). Nothing happens on import.
const SVG = "http://www.w3.org/2000/svg";

const SKIN = { fill: "#ffcc4d", stroke: "#a8731a", "stroke-width": 1.2 };
const LINE = { fill: "none", stroke: "#5b3a12", "stroke-width": 1.6, "stroke-linecap": "round", "stroke-linejoin": "round" };
const DARK = { fill: "#5b3a12" };
const TEAR = { fill: "#4aa3df" };
const face = (extra = {}) => ["circle", { cx: 12, cy: 12, r: 10, ...SKIN, ...extra }];

// [tag, attributes] per shape, in drawing order.
const SHAPES = {
  // Thumbs up: a cuff and a fist with the thumb raised.
  "👍": [
    ["rect", { x: 2.5, y: 10, width: 4.5, height: 11, rx: 1, fill: "#4a78c2", stroke: "#2c4f8a", "stroke-width": 1.2 }],
    ["path", { d: "M8 10.5 11.6 3.4c1.6-.2 2.8 1 2.5 2.7L13.4 9H19c1.5 0 2.5 1.3 2.2 2.7l-1.5 6.9c-.3 1.3-1.3 2.2-2.6 2.2H8z", ...SKIN }],
    ["path", { d: "M14.5 13h5.8M14.2 16.2h5.3", ...LINE, "stroke-width": 1.1 }],
  ],
  // Clapping: two palms meeting, with lines for the sound.
  "👏": [
    ["rect", { x: 5, y: 7, width: 7, height: 14, rx: 3.5, transform: "rotate(-22 8.5 14)", ...SKIN }],
    ["rect", { x: 11, y: 7, width: 7, height: 14, rx: 3.5, transform: "rotate(22 14.5 14)", ...SKIN }],
    ["path", { d: "M7.2 7.6v3.6M9.8 7.6v3.6", transform: "rotate(-22 8.5 14)", ...LINE, "stroke-width": 1 }],
    ["path", { d: "M13.2 7.6v3.6M15.8 7.6v3.6", transform: "rotate(22 14.5 14)", ...LINE, "stroke-width": 1 }],
    ["path", { d: "M12 2.2v2.6M7.6 3.6l1.2 2.2M16.4 3.6l-1.2 2.2", ...LINE, stroke: "#d9822b" }],
  ],
  // Laughing: closed eyes, a wide open mouth and a tear of joy each side.
  "😂": [
    face(),
    ["path", { d: "M6.8 9.6 8.6 8l1.8 1.6M13.6 9.6 15.4 8l1.8 1.6", ...LINE }],
    ["path", { d: "M6.5 13h11c0 3.2-2.5 5.6-5.5 5.6S6.5 16.2 6.5 13z", ...DARK }],
    ["path", { d: "M8.6 16.6c1 .8 2.1 1.2 3.4 1.2s2.4-.4 3.4-1.2", fill: "none", stroke: "#e06666", "stroke-width": 1.4 }],
    ["path", { d: "M3.2 11.4c-1 1.5-1.4 2.7-.9 3.5.5.8 1.8.7 2.2-.2.3-.9-.4-2-1.3-3.3z", ...TEAR }],
    ["path", { d: "M20.8 11.4c1 1.5 1.4 2.7.9 3.5-.5.8-1.8.7-2.2-.2-.3-.9.4-2 1.3-3.3z", ...TEAR }],
  ],
  // Surprised: round eyes, raised brows, a round open mouth.
  "😮": [
    face(),
    ["circle", { cx: 8.5, cy: 10, r: 1.4, ...DARK }],
    ["circle", { cx: 15.5, cy: 10, r: 1.4, ...DARK }],
    ["path", { d: "M6.8 6.6c1-.8 2.2-1 3.3-.6M17.2 6.6c-1-.8-2.2-1-3.3-.6", ...LINE, "stroke-width": 1.2 }],
    ["ellipse", { cx: 12, cy: 16, rx: 2.4, ry: 2.9, ...DARK }],
  ],
  // Sad: a frown and a tear.
  "😢": [
    face(),
    ["circle", { cx: 8.5, cy: 10, r: 1.3, ...DARK }],
    ["circle", { cx: 15.5, cy: 10, r: 1.3, ...DARK }],
    ["path", { d: "M8.2 17.4c2.2-2.1 5.4-2.1 7.6 0", ...LINE }],
    ["path", { d: "M16.6 12.2c-1 1.6-1.5 2.8-1 3.6.5.8 1.8.8 2.3-.1.4-.9-.3-2.1-1.3-3.5z", ...TEAR }],
  ],
  // Angry: a red face, brows pulled down, a tight frown.
  "😡": [
    face({ fill: "#f26b4f", stroke: "#a33a25" }),
    ["path", { d: "M6.4 7.6l3.8 1.8M17.6 7.6l-3.8 1.8", ...LINE, stroke: "#4a1a10", "stroke-width": 1.8 }],
    ["circle", { cx: 8.8, cy: 11.4, r: 1.3, fill: "#4a1a10" }],
    ["circle", { cx: 15.2, cy: 11.4, r: 1.3, fill: "#4a1a10" }],
    ["path", { d: "M8.4 17.2c2-1.6 5.2-1.6 7.2 0", ...LINE, stroke: "#4a1a10" }],
  ],
  // Party popper: a cone, with confetti flying out of it.
  "🎉": [
    ["path", { d: "M3 21 8.2 7.6l8.2 8.2z", fill: "#f2a33a", stroke: "#a8611a", "stroke-width": 1.2, "stroke-linejoin": "round" }],
    ["path", { d: "M5.4 15 9 18.6M6.8 11.4l5.8 5.8", fill: "none", stroke: "#d9482b", "stroke-width": 1.4 }],
    ["path", { d: "M12.5 6.5c.8-1.6.2-3 1.6-4M17.5 11.5c1.6-.8 3-.2 4-1.6", fill: "none", stroke: "#7a4fd0", "stroke-width": 1.5, "stroke-linecap": "round" }],
    ["circle", { cx: 17.6, cy: 5, r: 1.3, fill: "#3bb273" }],
    ["circle", { cx: 20.4, cy: 15.4, r: 1.1, fill: "#e0475b" }],
    ["circle", { cx: 10.6, cy: 2.8, r: 1, fill: "#4aa3df" }],
    ["rect", { x: 14.4, y: 8.4, width: 2.2, height: 2.2, rx: .4, fill: "#e0b020", transform: "rotate(30 15.5 9.5)" }],
  ],
  // Good game: two hands shaking, a sleeve each side.
  "🤝": [
    ["rect", { x: 1, y: 8, width: 4.5, height: 8.5, rx: 1, fill: "#4a78c2", stroke: "#2c4f8a", "stroke-width": 1.2 }],
    ["rect", { x: 18.5, y: 8, width: 4.5, height: 8.5, rx: 1, fill: "#3bb273", stroke: "#23774b", "stroke-width": 1.2 }],
    ["path", { d: "M5.5 9.2 9.4 7.4c1.2-.5 2.4-.4 3.4.3l5.7 3.9v4.6l-5.4 3.4c-1 .6-2.2.5-3-.3L5.5 15.6z", ...SKIN }],
    ["path", { d: "M9.4 12.6l2.6 2.2M10.6 10.8l3.2 2.6M13 16.6l1.6 1.2", ...LINE, "stroke-width": 1.2 }],
    ["path", { d: "M18.5 11.6l-4.6-2.6-3.5 2.6c-.7.5-.6 1.4.2 1.7.8.3 1.6.1 2.2-.4l1.5-1.1", ...SKIN }],
  ],
};

export const drawnReactions = () => Object.keys(SHAPES);

// The reaction's picture (an <svg>, hidden from screen readers: the button or line that
// holds it says the reaction's name), or the emote as text for one we never drew.
export function reactionIcon(emote) {
  const shapes = SHAPES[emote];
  if (!shapes) return document.createTextNode(emote);
  const svg = document.createElementNS(SVG, "svg");
  for (const [name, value] of Object.entries({ viewBox: "0 0 24 24", class: "reaction-icon", "aria-hidden": "true", focusable: "false" })) {
    svg.setAttribute(name, value);
  }
  for (const [tag, attributes] of shapes) {
    const shape = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) shape.setAttribute(name, String(value));
    svg.append(shape);
  }
  return svg;
}
