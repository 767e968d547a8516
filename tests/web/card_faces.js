// Draws every Timo and Twins card face through the real renderers and catalogues and
// lists the faces whose text overflows (test_table_timo_twins.py).
async ([phone]) => {
  // The page's own module instances: the addresses it loaded them from (its version).
  const root = new URL('.', document.querySelector('script[src$="app.js"]').src).pathname;
  const { t } = await import(`${root}lib/i18n.js`);
  const { el } = await import(`${root}lib/dom.js`);
  const { renderTimo } = await import(`${root}games/timo/board.js`);
  const { renderTwins } = await import(`${root}games/twins/board.js`);
  const colours = ['blue', 'green', 'orange', 'pink'];
  const ranks = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'stop', 'twist', '+2'];
  const hand = [];
  for (const colour of colours) for (const rank of ranks) hand.push({ id: hand.length, colour, rank });
  hand.push({ id: hand.length, colour: 'black', rank: 'colour' }, { id: hand.length + 1, colour: 'black', rank: '+4' });
  const legal = hand.flatMap((card) => card.colour === 'black'
    ? colours.map((colour) => ({ kind: 'play', payload: { card: card.id, colour } }))
    : [{ kind: 'play', payload: { card: card.id } }]);
  const ctx = { t, el, local: { choosing: hand.length - 2 }, me: 0, names: ['Ann', 'Bo'],
    act() {}, redraw() {}, flash() {} };
  const timo = { game: 'timo', viewer: 0, players: 2, hand, hand_sizes: [hand.length, 7],
    discard: [hand[3], hand[53]], top: hand[53], colour: 'orange', turn: 0, direction: 1, penalty: 0,
    drawn: null, draw_pile_size: 0, exposed: null, dealer: 0, round: 1, scores: [0, 0], over: false,
    winner: null, legal, options: {} };
  const twinsColours = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'];
  const cards = [];
  for (let c = 0; c < 6; c++) for (let v = 1; v <= 10; v++) {
    cards.push({ id: cards.length, colour: twinsColours[c], value: v, ink: (v + c) % 2 ? 'black' : 'white' }); }
  const played = [1, 2, 3, 4].flatMap((round) => [0, 1, 2].map((seat) => ({ round, seat,
    cards: [cards[round * 10 + seat], cards[round * 10 + seat + 3]], set: 'colours', rank: 100 + round + seat })));
  const twins = { game: 'twins', viewer: 0, players: 3, hand: cards, hand_sizes: [60, 8, 8], chips: [12, 12, 12],
    bank: 0, out: [false, false, false], dealer: 0, hand_no: 1, round: 1, phase: 'pick', buyer: null,
    bought: [0, 0, 0], committed: [false, true, false], my_pick: [cards[0], cards[1]],
    sitting_out: [false, false, false], played,
    cash_card: { round1: { lowest: 1, pay: 2 }, round2: { highest: 1, gain: 3 },
      round3: { lowest: 1, pay: 1, sit_out: true }, round4: { highest: 1, gain: 'bank' } },
    legal: [{ kind: 'pick', payload: { cards: [0, 1] } }], options: {} };
  const box = document.getElementById('board') || document.querySelector('main');
  box.replaceChildren(renderTimo(timo, ctx), renderTwins(twins, { ...ctx, local: {}, names: ['Ann', 'Bo', 'Cy'] }));
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const bad = [];
  for (const face of document.querySelectorAll('.card, .card *, [data-colour], [data-colour] *')) {
    if (!face.clientWidth) continue;
    if (face.scrollWidth > face.clientWidth + 1 || face.scrollHeight > face.clientHeight + 1) {
      bad.push(`${face.className || face.tagName}: ${face.textContent} ${face.scrollWidth}>${face.clientWidth}`);
    }
  }
  return { bad, faces: document.querySelectorAll('.card').length };
}
