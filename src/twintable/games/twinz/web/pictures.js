// Twinz's pictures outside a table: the lobby's tile. Small on purpose: the lobby loads
// this module, never the board.

// The lobby's picture: a word card, numbered lines of two words, the second upside down.
function picture(box, { el }) {
  const lines = [["chat", "lune"], ["plage", "neige"], ["orage", "sucre"]];
  box.replaceChildren(el("span", { class: "lb-word lb-word-blue" }),
    el("span", { class: "lb-word" }, lines.map(([word, other], index) => el("span", { class: "lb-word-line" },
      el("small", {}, index + 1), el("strong", {}, word), el("span", { class: "lb-upside" }, other)))));
}

export default {
  facts: { players: 4 },
  picture,
};
