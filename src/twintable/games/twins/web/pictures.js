// Twins' pictures outside a table: a card's face (the table draws its cards with it too),
// the lobby's tile and the rules pages' cards. Small on purpose: the lobby and the rules
// pages load this module, never the board.
export const SYMBOLS = { red: "●", orange: "◆", yellow: "▲", green: "♣", blue: "■", purple: "★" };

export function cardFace(ctx, card, attrs = {}, tag = "div") {
  const { t, el } = ctx;
  const label = t("twins.card", { colour: t(`colour.${card.colour}`), value: card.value, ink: t(`twins.ink.${card.ink}`) });
  const { class: extra = "", ...rest } = attrs;
  return el(tag, { class: `card tw2-card c-${card.colour} ink-${card.ink} ${extra}`.trim(), role: tag === "button" ? null : "img", "aria-label": label, title: label, ...rest },
    el("span", { class: "tw2-idx", "aria-hidden": "true" }, el("span", {}, card.value), el("span", { class: "sym" }, SYMBOLS[card.colour])),
    el("span", { class: "val", "aria-hidden": "true" }, card.value),
    el("span", { class: "sym tw2-big", "aria-hidden": "true" }, SYMBOLS[card.colour]));
}

// A card picture for the rules pages: `spec` is "colour/value" ("red/7"), or
// "colour/value/ink" to force the ink; by default the ink follows the deck's ruling
// (white when value + colour position is even, red first).
const INK_ORDER = ["red", "orange", "yellow", "green", "blue", "purple"];
export function drawCard(spec, ctx) {
  const [colour, text, given] = String(spec).split("/");
  const value = Number(text);
  const ink = given || ((value + INK_ORDER.indexOf(colour)) % 2 === 0 ? "white" : "black");
  return cardFace(ctx, { colour, value, ink }, { class: "rules-card-face" }, "span");
}

export default {
  facts: { players: 4 },
  picture(box, ctx) {
    box.replaceChildren(...["red/7", "blue/7", "green/3"].map((spec) => ctx.el("span", { class: "lb-card" }, drawCard(spec, ctx))));
  },
  drawCard,
};
