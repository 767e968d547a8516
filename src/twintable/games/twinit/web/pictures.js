// Twin It's pictures outside a table: the lobby's tile (three discs of the deck's own
// pictures). Small on purpose: the lobby loads this module, never the board.
export default {
  facts: { players: 3 },
  async picture(box, ctx) {
    const { pictures } = await ctx.assets();
    box.replaceChildren(...[5, 5, 17].map((n) => ctx.el("span", { class: "lb-disc", html: pictures[n % pictures.length] })));
  },
};
