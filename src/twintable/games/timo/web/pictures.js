// Timo's Twist's pictures outside a table: a card's face (the table draws its cards with
// it too), the lobby's tile and the rules pages' cards. Small on purpose: the lobby and
// the rules pages load this module, never the board.
export const SYMBOLS = { blue: "♦", green: "♣", orange: "▲", pink: "♥", black: "★" };
export const COLOURS = ["blue", "green", "orange", "pink"];
// What the centre of an action card shows instead of a word, so a face never depends on
// the length of a word in the player's language (the word sits below, in small type).
const GLYPHS = { stop: "⊘", twist: "⇄", "+2": "+2", "+4": "+4", colour: "" };
const WORDS = new Set(["stop", "twist", "colour"]);
function rankText(t, rank) {
  const key = `timo.rank.${rank}`;
  const text = t(key);
  return text === key ? rank : text;
}

function cardLabel(t, card) {
  return t("timo.card", { colour: t(`colour.${card.colour}`), rank: rankText(t, card.rank) });
}

export function cardFace(ctx, card, attrs = {}, tag = "div") {
  const { t, el } = ctx;
  const label = cardLabel(t, card);
  const word = WORDS.has(card.rank) ? rankText(t, card.rank) : "";
  const glyph = card.rank in GLYPHS ? GLYPHS[card.rank] : card.rank;
  const { class: extra = "", ...rest } = attrs;
  return el(tag, { class: `card tm-card c-${card.colour} r-${card.rank.replace("+", "plus")}${word.length > 5 ? " long" : ""} ${extra}`.trim(),
    role: tag === "button" ? null : "img", "aria-label": label, title: label, ...rest },
  el("span", { class: "tm-idx", "aria-hidden": "true" }, el("span", {}, glyph || SYMBOLS[card.colour]), el("span", { class: "sym" }, SYMBOLS[card.colour])),
  el("span", { class: `tm-mid${card.rank === "colour" ? " tm-wheel" : ""}`, "aria-hidden": "true" }, glyph),
  word ? el("span", { class: "tm-word", "aria-hidden": "true" }, word) : "");
}

// A card picture for the rules pages: `spec` is "colour/rank" ("blue/7", "pink/+2",
// "black/+4", "black/colour"), drawn by the same code as at the table.
export function drawCard(spec, ctx) {
  const [colour, rank] = String(spec).split("/");
  return cardFace(ctx, { colour, rank }, { class: "rules-card-face" }, "span");
}

export default {
  facts: { players: 3 },
  picture(box, ctx) {
    box.replaceChildren(...["orange/7", "pink/+2", "black/+4"].map((spec) => ctx.el("span", { class: "lb-card" }, drawCard(spec, ctx))));
  },
  drawCard,
};
