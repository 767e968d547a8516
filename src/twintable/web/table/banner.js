// The banner above the board (the flash): a line the game declares worth it (its
// `banners`, table/cues.js), a refusal, a notice. It belongs to its moment: it goes after
// a few moves without another.
import { el } from "../lib/dom.js";
import { glow } from "../lib/motion.js";

const FLASH_MOVES = 6;

export function flashBanner() {
  const box = el("p", { class: "tw-flash", role: "alert", id: "flash" });
  let moves = 0;
  return {
    box,
    text(text) { box.textContent = text; },
    clear() { box.replaceChildren(); },
    // A game's line (strings and nodes; a node may stand in the log too, so a copy).
    show(line) {
      box.replaceChildren(...[line].flat().map((part) => (part instanceof Node ? part.cloneNode(true) : part)));
      fitFlash(box);
      glow(box);
      moves = 0;
    },
    // No banner from an earlier round: it fades out of the page after a few moves.
    moved() { if (++moves > FLASH_MOVES && box.childNodes.length) box.replaceChildren(); },
  };
}

// The banner is one line on a wide screen; a line too long for it (six seats' cards shown
// at once) is set smaller on two lines rather than cut off with an ellipsis.
function fitFlash(box) {
  box.classList.remove("long");
  if (box.scrollWidth > box.clientWidth + 1) box.classList.add("long");
}
