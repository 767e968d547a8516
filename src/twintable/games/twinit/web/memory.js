// Twin It's table memory: what each slot showed and when it changed (so a touch names the
// picture the person saw), the centre's size, and the motion planned from one view to the
// next (a new card flips in, a taken pair slides to the taker). Used by board.js.
/** A human reaction time: a touch sooner than this after a change was aimed at what showed before. */
export const REACTION_MS = 400;
// px: the smallest card a finger taps (44), or a mouse clicks (34: a centre of thirty
// cards and more then still fits a 1280 x 800 screen, flip button included).
const fine = typeof matchMedia === "function" ? matchMedia("(pointer: fine)") : null;
const minCard = () => (fine && fine.matches ? 34 : 44);
const MAX_CARD = 150;   // px: the largest centre card
const GAP = 6;          // px between centre cards
const FLIP_MS = 280;
const SLIDE_MS = 480;
const reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;
const calm = () => Boolean(reduced && reduced.matches);

// -- what each slot showed, and when it changed ---------------------------------------------
// memory.slots: ref -> [{ picture, at }, ...] oldest first; picture null = nothing there.
export function memoryOf(local) {
  if (!local.twinit) local.twinit = { slots: new Map(), anims: new Map(), first: true, last: null, fit: null };
  return local.twinit;
}

export function visibleNow(view) {
  const now = new Map();
  view.centre.forEach((picture, slot) => { if (picture !== null) now.set(`c${slot}`, picture); });
  view.piles.forEach((pile, seat) => { if (pile.top !== null) now.set(`p${seat}`, pile.top); });
  view.sets.forEach((sets, side) => sets.forEach((set, index) => now.set(`s${side}.${index}`, set.picture)));
  (view.taboo || []).forEach((row, side) => row.forEach((picture, index) => now.set(`t${side}.${index}`, picture)));
  return now;
}

/** Note every slot whose picture changed in this view; returns the refs that changed. */
export function remember(memory, now, at) {
  const changed = [];
  const refs = new Set([...now.keys(), ...memory.slots.keys()]);
  for (const ref of refs) {
    const picture = now.has(ref) ? now.get(ref) : null;
    const history = memory.slots.get(ref);
    if (!history) {
      memory.slots.set(ref, [{ picture, at: memory.first ? -Infinity : at }]);
      if (!memory.first && picture !== null) changed.push(ref);
      continue;
    }
    if (history[history.length - 1].picture === picture) continue;
    history.push({ picture, at });
    // Keep what a touch could still be aimed at: the changes of the last moments and the
    // picture that showed before them.
    while (history.length > 1 && history[1].at <= at - 2 * REACTION_MS) history.shift();
    if (picture !== null) changed.push(ref);
  }
  return changed;
}

/** The picture a touch at `time` was aimed at: what the slot showed REACTION_MS earlier.
 * A slot that was empty then has only one thing to aim at, the card that landed in it. */
export function seenPicture(memory, ref, time) {
  const history = memory.slots.get(ref);
  if (!history) return null;
  let seen = null;
  for (const entry of history) if (entry.at <= time - REACTION_MS) seen = entry.picture;
  return seen ?? history[history.length - 1].picture;
}

export function changedAt(memory, ref) {
  const history = memory.slots.get(ref);
  return history ? history[history.length - 1].at : -Infinity;
}

// -- the size of the centre ------------------------------------------------------------------
/** Columns and card size for `n` cards: rows as wide as `width`, all rows within `height`,
 * the largest cards that do that (of equal sizes, the most columns), never below `smallest`. */
export function fit(n, width, height, smallest = minCard()) {
  const count = Math.max(n, 12);  // size for a filling centre, so cards do not shrink at every flip
  let best = null;
  for (let cols = 1; cols <= count; cols++) {
    const size = Math.min(MAX_CARD, Math.floor((width - (cols - 1) * GAP) / cols));
    if (size < smallest) break;
    const rows = Math.ceil(count / cols);
    if (rows * size + (rows - 1) * GAP > height) continue;
    if (!best || size >= best.size) best = { cols, size };
  }
  if (best) return best;
  // Too many cards for one screen: fill the width with tap-sized cards and let it scroll.
  const cols = Math.max(1, Math.floor((width + GAP) / (smallest + GAP)));
  return { cols, size: Math.max(smallest, Math.min(MAX_CARD, Math.floor((width - (cols - 1) * GAP) / cols))) };
}

export function measure(memory, n) {
  // The layout is read after each frame is drawn (memory.layout); this only does the sums.
  // It fits again when the centre grows or shrinks, and when the room around it changed
  // by more than a few pixels (a seat that grew with a won set, the window): cards that
  // outgrew the screen would push the flip button below it.
  const seen = memory.layout;
  const width = seen && seen.width ? seen.width : (window.innerWidth || 800) - 24;
  const top = seen && seen.top !== null ? seen.top : 220;
  // The rest of the screen below the centre's top: the whole centre in sight without
  // scrolling, unless the seats leave it less than a fifth of the screen.
  const below = seen && seen.below ? Math.min(seen.below, 400) : 0;
  const height = Math.max((window.innerHeight || 800) * 0.2, (window.innerHeight || 800) - top - below - 12);
  const old = memory.fit;
  // A little more room keeps the cards as they are (no jitter); any less fits them again
  // (kept, cards 2-3 px too tall left the page as much past a 1280 x 800 screen).
  if (old && old.n === n && old.width === width && height >= old.height && height - old.height <= 8) return old;
  memory.fit = { n, width, height, ...fit(n, width - 16, height) };
  return memory.fit;
}

let resizeHooked = false;
let shown = null;  // the memory of the table on screen
export function hookResize(memory) {
  shown = memory;
  if (resizeHooked || typeof window === "undefined") return;
  resizeHooked = true;
  window.addEventListener("resize", () => {
    const centre = document.querySelector(".ti-centre");
    if (!centre || !shown) return;
    shown.fit = null;
    resize(shown, centre);
  });
}

// -- motion ------------------------------------------------------------------------------------
// Animations are visual only (transforms on the card in its final place, ghosts that ignore
// the pointer), so they never delay a touch or hide the current table. The board is rebuilt
// from every frame; an animation still running resumes on the new element where it was.
function animate(memory, ref, keyframes, duration) {
  memory.anims.set(ref, { keyframes, duration, start: performance.now() });
}

export function replay(memory) {
  const now = performance.now();
  for (const [ref, anim] of memory.anims) {
    const elapsed = now - anim.start;
    if (elapsed >= anim.duration) { memory.anims.delete(ref); continue; }
    for (const node of document.querySelectorAll(`.tw-card[data-ref="${ref}"]`)) {
      if (!node.animate) continue;
      const running = node.animate(anim.keyframes, { duration: anim.duration, easing: "cubic-bezier(.2,.8,.3,1)" });
      running.currentTime = elapsed;
    }
  }
}

// Where things are on screen, read once the browser has painted a frame (the layout is
// then clean, so reading it costs nothing): a frame that moves cards uses the positions the
// person last saw, and never forces a layout of its own.
export function noteLayout(memory) {
  if (memory.noting) return;
  memory.noting = true;
  requestAnimationFrame(() => setTimeout(() => {
    memory.noting = false;
    const rects = new Map();
    for (const node of document.querySelectorAll(".tw-card[data-ref], .tw-empty[data-slot]")) {
      rects.set(node.dataset.ref || node.dataset.slot, node.getBoundingClientRect());
    }
    const places = new Map();
    for (const node of document.querySelectorAll(".ti-seat[data-ti-seat], .ti-team[data-side]")) {
      const key = node.dataset.tiSeat !== undefined ? `seat${node.dataset.tiSeat}` : `side${node.dataset.side}`;
      const sets = node.querySelector(".ti-sets");
      places.set(key, (sets && sets.getBoundingClientRect().width ? sets : node).getBoundingClientRect());
    }
    const board = document.getElementById("board");
    const centre = document.querySelector(".ti-centre");
    // On the felt (a wide screen) the centre has the felt's width, and everything under
    // it on the page takes its share of the screen's height: the felt's rim, the seats
    // below the felt, the bar with the flip button, the page's margin.
    const felt = centre && centre.closest(".felt");
    const main = centre && centre.closest("main");
    const below = felt && main ? main.getBoundingClientRect().bottom - centre.getBoundingClientRect().bottom : 0;
    memory.layout = { rects, places, width: felt ? felt.clientWidth - 80 : board ? board.clientWidth : 0,
      top: centre ? centre.getBoundingClientRect().top + window.scrollY : null, below };
    // The room around the centre changed since its cards were sized (a seat grew with a
    // won set): size them again now, not at the next move, which may be seconds away.
    if (centre && resize(memory, centre)) noteLayout(memory);
  }, 0));
}

// Sizes the centre's cards for the room noted last; true when that changed them.
function resize(memory, centre) {
  const sized = measure(memory, Number(centre.dataset.slots || 0));
  const size = `${sized.size}px`;
  const cols = String(sized.cols);
  if (centre.style.getPropertyValue("--ti-size") === size && centre.style.getPropertyValue("--ti-cols") === cols) return false;
  centre.style.setProperty("--ti-size", size);
  centre.style.setProperty("--ti-cols", cols);
  return true;
}

function rectOf(memory, ref) {
  const rect = memory.layout && memory.layout.rects.get(ref);
  if (!rect || !rect.width) return null;
  const node = document.querySelector(`.tw-card[data-ref="${ref}"]`);
  return node ? { node, rect } : null;
}

/** A copy of a card that was taken, gliding from where it lay to the taker's seat. */
function ghost(found, target) {
  const { node, rect } = found;
  // A plain picture, not a card: nothing may find, focus or press it.
  const copy = document.createElement("div");
  copy.className = "ti-ghost";
  copy.setAttribute("aria-hidden", "true");
  for (const child of node.childNodes) copy.append(child.cloneNode(true));
  Object.assign(copy.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  document.body.append(copy);
  return () => {
    const to = target();
    const dx = to ? to.left + to.width / 2 - (rect.left + rect.width / 2) : 0;
    const dy = to ? to.top + to.height / 2 - (rect.top + rect.height / 2) : -30;
    const moving = copy.animate([{ transform: "none", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(.45)`, opacity: 0.15 }],
    { duration: SLIDE_MS, easing: "cubic-bezier(.4,0,.2,1)" });
    moving.onfinish = () => copy.remove();
    moving.oncancel = () => copy.remove();
  };
}

function seatTarget(memory, view, side, takerSeat) {
  return () => {
    const places = memory.layout ? memory.layout.places : new Map();
    if ((view.mode === "team" || view.mode === "coop") && places.has(`side${side}`)) return places.get(`side${side}`);
    return places.get(`seat${takerSeat ?? side}`) || null;
  };
}

/** Work out from the previous view what moved (a take, a flip), and set the motion up. */
export function plan(memory, view, now, changed) {
  const last = memory.last;
  const later = [];
  if (!last || calm()) return later;
  const taken = new Set();
  view.sets.forEach((sets, side) => {
    const before = last.sets[side] ?? 0;
    if (sets.length <= before || !sets.length) return;
    const picture = sets[sets.length - 1].picture;
    // Where the pair came from: the places that showed its picture and no longer do (a
    // centre card flipped in place, the third of a triple, stays where it is).
    const from = [...last.pictures].filter(([ref, pic]) => {
      if (pic !== picture || ref.startsWith(`s${side}.`)) return false;
      const current = memory.slots.get(ref).at(-1).picture;
      return ref.startsWith("c") ? current === null : current !== picture;
    }).map(([ref]) => ref);
    const hand = last.hands.find((h) => from.includes(h.card) && view.sides[h.seat] === side);
    const taker = view.mode === "competitive" || view.mode === "timeattack" ? side : hand ? hand.seat : null;
    for (const ref of from) {
      taken.add(ref);
      const found = rectOf(memory, ref);
      if (found) later.push(ghost(found, seatTarget(memory, view, side, taker)));
    }
  });
  // A flip: a pile one card shorter whose top was not taken, and a centre slot filled.
  const flippedFrom = [];
  view.piles.forEach((pile, seat) => {
    const before = last.piles[seat];
    if (before && pile.cards === before.cards - 1 && !taken.has(`p${seat}`)) flippedFrom.push(seat);
  });
  const landed = changed.filter((ref) => ref.startsWith("c") && !last.pictures.has(ref));
  for (const ref of changed) {
    const source = ref.startsWith("c") && landed.includes(ref) && flippedFrom.length ? rectOf(memory, `p${flippedFrom.shift()}`) : null;
    if (source) {
      const noted = memory.layout && memory.layout.rects.get(ref);
      later.push(() => {
        // The slot's place as last painted (an empty slot), else where it lies now.
        const target = noted && noted.width ? null : document.querySelector(`.tw-card[data-ref="${ref}"]`);
        if (!noted && !target) return;
        const to = noted && noted.width ? noted : target.getBoundingClientRect();
        const dx = source.rect.left + source.rect.width / 2 - (to.left + to.width / 2);
        const dy = source.rect.top + source.rect.height / 2 - (to.top + to.height / 2);
        animate(memory, ref, [{ transform: `translate(${dx}px, ${dy}px) rotateY(180deg) scale(.8)` },
          { transform: "none" }], SLIDE_MS);
      });
    } else {
      animate(memory, ref, [{ transform: "rotateY(80deg) scale(.85)", opacity: 0.5 }, { transform: "none", opacity: 1 }], FLIP_MS);
    }
  }
  return later;
}
