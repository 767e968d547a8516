// The order of the final results (pure: tests/web/js runs it under Node): by score, then
// by the game's tie-break (e.g. cards won), then by seat; tied seats share a rank.
export function ranking(scores, tieBreak = null) {
  const extra = (seat) => (tieBreak ? tieBreak[seat] : 0);
  const order = scores.map((_, seat) => seat).sort((a, b) => scores[b] - scores[a] || extra(b) - extra(a) || a - b);
  const rank = (seat) => 1 + order.filter((other) => scores[other] > scores[seat]
    || (scores[other] === scores[seat] && extra(other) > extra(seat))).length;
  const tiedTop = order.filter((seat) => scores[seat] === scores[order[0]]);
  // Whether the tie-break decided between seats tied on the score at the top.
  const brokeTie = Boolean(tieBreak) && tiedTop.length > 1 && new Set(tiedTop.map(extra)).size > 1;
  return { order, rank, brokeTie };
}

// The order of a team game's results (the result's `teams`: each seat's team from 0, and
// `team_scores`): teams by their score, partners side by side, best own score first;
// partners share their team's rank, teams level share a rank.
export function teamRanking(scores, teams, teamScores) {
  const total = (seat) => teamScores[teams[seat]];
  const order = scores.map((_, seat) => seat)
    .sort((a, b) => total(b) - total(a) || teams[a] - teams[b] || scores[b] - scores[a] || a - b);
  const rank = (seat) => 1 + new Set(teams.filter((team) => teamScores[team] > total(seat))).size;
  return { order, rank, brokeTie: false };
}

// A change of chips or points as people read it: +3, −2 (a real minus), ±0.
export const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "±0");
