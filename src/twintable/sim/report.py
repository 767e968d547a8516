"""Summaries of simulated games: win rates with intervals, game lengths, score spreads.

The JSON report keeps one shape for every game (docs/simulation.md documents it).
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from twintable.core.stats import mean_interval, wilson_interval
from twintable.sim.runner import GameResult

REPORT_FORMAT = 1
_SEAT_FIGURE = re.compile(r"seat(\d+)_(\w+)")


def win_shares(result: GameResult) -> dict[int, float]:
    """What each winning seat's win counts for: a tied win is shared equally among the
    winners; in a team game a team's win counts whole for each of its members (a tie
    between teams is shared between them)."""
    if result.sides is None:
        return dict.fromkeys(result.winners, 1 / len(result.winners))
    sides = {result.sides[seat] for seat in result.winners}
    return dict.fromkeys(result.winners, 1 / len(sides))


def even_chance(players: int, results: Sequence[GameResult]) -> float:
    """A seat's win rate if no seat, bot or team had an edge: one in so many players, or
    one in so many teams in a team game."""
    sides = results[0].sides if results else None
    return 1 / (len(set(sides)) if sides is not None else players)


def build_report(game_id: str, players: int, lineup: Sequence[str], seed: int,
                 options: Mapping[str, Any], results: Sequence[GameResult],
                 fixed_seats: bool = False, round_name: str = "round",
                 cooperative: bool = False) -> dict[str, Any]:
    """Win counts share a tied win equally among the winners (see :func:`win_shares`).
    ``round_name``: what the game calls a round (Twins: "hand"), for the labels.
    ``cooperative``: the seats play together (Twin It's coop mode); the report then adds
    the success rate (the game's ``success`` figure), which is what such a game has in
    place of win rates."""
    bot_games: dict[str, int] = defaultdict(int)
    bot_wins: dict[str, float] = defaultdict(float)
    bot_scores: dict[str, list[int]] = defaultdict(list)
    seat_wins = [0.0] * players
    stats: dict[str, list[float]] = defaultdict(list)
    for result in results:
        shares = win_shares(result)
        for seat, name in enumerate(result.bots):
            bot_games[name] += 1
            bot_scores[name].append(result.scores[seat])
            if seat in shares:
                bot_wins[name] += shares[seat]
                seat_wins[seat] += shares[seat]
    # Figures a game reports per seat ("seat2_takes") are summed per bot instead, since
    # seats rotate between games.
    bot_totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for result in results:
        for key, value in result.stats.items():
            match = _SEAT_FIGURE.fullmatch(key)
            if match and int(match[1]) < len(result.bots):
                bot_totals[result.bots[int(match[1])]][match[2]] += value
    # A figure missing from a game's stats (a payout that never happened) counts as 0.
    keys = sorted({key for result in results for key in result.stats
                   if not _SEAT_FIGURE.fullmatch(key)})
    for result in results:
        for key in keys:
            stats[key].append(result.stats.get(key, 0.0))
    if results and all("turns" in r.stats and r.stats.get("rounds") for r in results):
        stats["turns_per_round"] = [r.stats["turns"] / r.stats["rounds"] for r in results]
    n = len(results)
    coop = None
    if cooperative:
        coop = {"success": _rate(sum(r.stats.get("success", 0.0) for r in results), n)}
    return {
        "format": REPORT_FORMAT,
        "game": game_id,
        "players": players,
        "games": n,
        "seed": seed,
        "lineup": list(lineup),
        "options": {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()},
        "bots": {name: _rate(bot_wins[name], bot_games[name]) | {
                     "scores": _spread(bot_scores[name])}
                 | ({"totals": dict(bot_totals[name])} if name in bot_totals else {})
                 for name in dict.fromkeys(lineup)},
        "seats": [_rate(seat_wins[seat], n) | {"seat": seat} for seat in range(players)],
        "stats": {key: dict(zip(("mean", "low", "high"), _mean_interval(values), strict=True))
                  for key, values in stats.items()},
        "fixed_seats": fixed_seats,
        "even": even_chance(players, results),
        "turn_order": turn_order(players, results),
        "teams": teams(results),
        "lengths": lengths(results),
        "leader": leader_curve(results),
        "round_name": round_name,
        "coop": coop,
    }


def position_name(position: int, players: int) -> str:
    """Turn position from the first player: "1st (first player)" ... "4th (dealer)"."""
    ordinal = f"{position + 1}{_SUFFIX.get(position + 1, 'th')}"
    if position == 0:
        return f"{ordinal} (first player)"
    return f"{ordinal} (dealer)" if position == players - 1 else ordinal


_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


def turn_order(players: int, results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """Win rates by turn position (0: the first player; the dealer plays last), overall and
    per bot: the seat number is not turn order when the first dealer is drawn at random.
    Empty for a game without turns."""
    timed = [result for result in results if result.first is not None]
    if not timed:
        return []
    wins = [0.0] * players
    by_bot: list[dict[str, list[float]]] = [defaultdict(lambda: [0, 0.0])
                                             for _ in range(players)]
    for result in timed:
        assert result.first is not None
        shares = win_shares(result)
        for seat, name in enumerate(result.bots):
            position = (seat - result.first) % players
            share = shares.get(seat, 0.0)
            wins[position] += share
            by_bot[position][name][0] += 1
            by_bot[position][name][1] += share
    return [_rate(wins[position], len(timed)) | {
        "position": position, "name": position_name(position, players),
        "bots": {name: _rate(won, int(games)) for name, (games, won) in
                 sorted(by_bot[position].items())}}
        for position in range(players)]


def teams(results: Sequence[GameResult]) -> dict[str, Any] | None:
    """In a team game: each team's win rate (by team number, 1 and up), and each
    partnership's (the bots playing together, "beginner+expert")."""
    if not results or results[0].sides is None:
        return None
    side_wins: dict[int, float] = defaultdict(float)
    side_games: dict[int, int] = defaultdict(int)
    pair_wins: dict[str, float] = defaultdict(float)
    pair_games: dict[str, int] = defaultdict(int)
    for result in results:
        assert result.sides is not None
        shares = win_shares(result)
        for side in sorted(set(result.sides)):
            members = [seat for seat, own in enumerate(result.sides) if own == side]
            partnership = "+".join(sorted(result.bots[seat] for seat in members))
            won = max((shares.get(seat, 0.0) for seat in members), default=0.0)
            side_games[side] += 1
            side_wins[side] += won
            pair_games[partnership] += 1
            pair_wins[partnership] += won
    return {"sides": [_rate(side_wins[side], side_games[side]) | {
                "team": side + 1,
                "seats": [seat for seat, own in enumerate(results[0].sides or ()) if own == side]}
            for side in sorted(side_games)],
            "partnerships": {name: _rate(pair_wins[name], pair_games[name])
                             for name in sorted(pair_games)}}


def margin(result: GameResult) -> int | None:
    """How far the winner(s) finished ahead of the best of the rest (None: all won); in a
    team game whose teams score together, the winning team's score ahead of the best
    other team's (in Twins, partners' chips count together: a winning team's members
    may each hold fewer chips than the best opponent)."""
    if result.sides is not None and result.team_scores is not None:
        won = {result.sides[seat] for seat in result.winners}
        others = [score for team, score in enumerate(result.team_scores) if team not in won]
        if not others:
            return None
        return max(result.team_scores[team] for team in won) - max(others)
    rest = [score for seat, score in enumerate(result.scores) if seat not in result.winners]
    if not rest:
        return None
    return max(result.scores[seat] for seat in result.winners) - max(rest)


def game_length(result: GameResult) -> dict[str, float]:
    """A game's length in every unit it has: moves, rounds (or hands) and what its stats
    count (turns, virtual seconds)."""
    length: dict[str, float] = {"moves": float(result.steps)}
    if result.standings:
        length["rounds"] = float(len(result.standings))
    for key in ("turns", "virtual_s"):
        if key in result.stats:
            length[key] = float(result.stats[key])
    return length


#: Units of a game's length, in the order a designer reads them.
LENGTH_UNITS = ("rounds", "turns", "virtual_s", "moves")


def reading_unit(spreads: Sequence[Mapping[str, Mapping[str, Any]]]) -> str:
    """The unit to read lengths in, shared by several reports (a sweep's cells): the
    first of :data:`LENGTH_UNITS` that every report has and that varies in one of them
    (one-round games are all one round long: their turns say more)."""
    common = [unit for unit in LENGTH_UNITS if spreads and all(unit in s for s in spreads)]
    varying = [unit for unit in common
               if any(s[unit] and s[unit]["max"] > s[unit]["min"] for s in spreads)]
    return (varying or common or ["moves"])[0]


def lengths(results: Sequence[GameResult]) -> dict[str, Any]:
    """The spread of game lengths (per unit) and of winning margins."""
    by_unit: dict[str, list[float]] = defaultdict(list)
    margins: list[int] = []
    for result in results:
        for unit, value in game_length(result).items():
            by_unit[unit].append(value)
        gap = margin(result)
        if gap is not None:
            margins.append(gap)
    return {"length": {unit: _spread(values) for unit, values in by_unit.items()},
            "margin": _spread(margins)}


def leader_curve(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """For each round k: of the games that went on past round k with one seat alone in the
    lead after it, how often that seat won (a tied win counts as its share)."""
    longest = max((len(result.standings) for result in results), default=0)
    curve = []
    for k in range(1, longest):
        games, wins = 0, 0.0
        for result in results:
            if len(result.standings) <= k:
                continue
            after = result.standings[k - 1]
            best = max(after)
            leaders = [seat for seat, score in enumerate(after) if score == best]
            if len(leaders) != 1:
                continue
            games += 1
            wins += win_shares(result).get(leaders[0], 0.0)
        if games:
            curve.append(_rate(wins, games) | {"round": k})
    return curve


def _mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% interval; for figures that cannot be negative (counts, times, chips)
    the interval is bounded at 0, where the normal approximation of a rare count (one
    error in four games) would reach below it ("-0.5 to 1.5")."""
    mean, low, high = mean_interval(list(values))
    if values and min(values) >= 0:
        low = max(0.0, low)
    return mean, low, high


def _rate(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {"games": games, "wins": round(wins, 3),
            "win_rate": wins / games if games else 0.0, "ci95": [low, high]}


def _spread(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {}
    quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    mean, low, high = _mean_interval([float(v) for v in values])
    return {"mean": mean, "mean_ci95": [low, high], "min": min(values), "p25": quartiles[0],
            "median": quartiles[1], "p75": quartiles[2], "max": max(values)}

