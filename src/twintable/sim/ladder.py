"""The bot ladder: OpenSkill ratings of the project's bots from round-robin matches.

Each ladder is one game at one table size. Every pair of its bots meets in ``games``
games: at two seats the pair sits face to face; at four, each bot of the pair holds two
alternate seats (``a, b, a, b``); the simulator rotates the seats game by game
(``sim.runner.run_games``), and game ``i`` of a pairing uses seed ``seed + i``. Every
game then updates PlackettLuce ratings (the server's model), seats ranked by final
score, equal scores sharing a rank; a bot holding two seats is rated once, with the mean
of its two seats' updates. Games are rated in a fixed order, so a run replays.

Which ladders to climb is given as ``GAME:PLAYERS``; a ladder's bots are the ones the
game offers people, one a level, weakest first (``bots.registry.level_bots``), so a
plug-in game's bots climb it the same way and the ladder never rates a bot nobody can
choose::

    python -m twintable.sim.ladder timo:2 timo:4 twins:4 --games 40 --out ladder.json

``--short`` plays every game at its entry's short options (Timo to 100 points instead of
300), so a ladder with slow bots fits a small machine; ``--note`` says in the file how
it was made. Each rating names the bot's level on the shared scale (Beginner to Expert),
which the browser's leaderboard shows ("bots" tab). Each game ships its own ladders in
its ``web/ladder.json`` (``/api/games`` names the file); ``scripts/ladder.py`` climbs
every game's and writes those files and docs/figures/ladder.json, which gathers them
(a test checks that they agree). ``--bot SPEC`` (repeatable) adds a researcher's own
agent to the round robin (``module:Class``, ``policy.npz``, ``model.zip``:
``twintable.bots.user``); ``--bots`` may name levels (``hard``) as well as bots.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from twintable.bots.registry import bot_factory, bot_levels, level_bots, resolve_bot
from twintable.core.errors import TwinTableError
from twintable.core.registry import GameRegistry, default_registry
from twintable.core.stats import wilson_interval
from twintable.sim.runner import GameResult, run_games

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Ladder:
    """One ladder: a game, its options, a table size and the bots that climb it."""

    name: str
    game: str
    options: dict[str, Any]
    players: int
    bots: tuple[str, ...]
    levels: dict[str, str] = field(default_factory=dict, compare=False)
    """Each bot's level on the shared scale (``core/plugin.py: LEVELS``)."""


def game_ladder(game: str, players: int, options: dict[str, Any] | None = None,
                registry: GameRegistry | None = None, short: bool = False,
                only: Sequence[str] | None = None, agents: Sequence[str] = ()) -> Ladder:
    """The ladder of ``game`` at ``players`` seats, named ``<game>-<players>p``: the bot
    each level seats here (:func:`~twintable.bots.registry.level_bots`), weakest first,
    or those of them named in ``only`` (names or levels; other bots the game can seat, by
    name, are added), then each of the user's ``agents`` (``twintable.bots.user``: loaded
    now, so a bad one fails before any game); ``short``: the entry's short options under
    ``options``."""
    entry = (registry or default_registry()).entry(game)
    options = {**(entry.short_options if short else {}), **(options or {})}
    entry.rules.check_players(players, options)
    offered = {bot: level for level, bot in level_bots(entry).items()}
    seatable = {level.name: level.level for level in bot_levels(entry)}
    wanted = None if only is None else [resolve_bot(entry, name) or name for name in only]
    levels = ({name: level for name, level in offered.items() if name in wanted}
              | {name: seatable[name] for name in wanted if name in seatable}
              if wanted is not None else offered)
    bots = list(levels)
    for agent in agents:
        bot_factory(entry, agent)
        bots.append(agent.strip())
    if len(bots) < 2:
        raise ValueError(f"{game} has fewer than two bots to rate here")
    return Ladder(f"{game}-{players}p", game, options, players, tuple(bots), levels)


def parse_ladder(spec: str, registry: GameRegistry | None = None,
                 short: bool = False, only: Sequence[str] | None = None,
                 agents: Sequence[str] = ()) -> Ladder:
    """``GAME:PLAYERS`` (``twins:4``) -> its :func:`game_ladder`."""
    game, _, players = spec.partition(":")
    if not players.isdigit():
        raise ValueError(f"a ladder is GAME:PLAYERS (a game id and a table size), "
                         f"not {spec!r}")
    return game_ladder(game, int(players), registry=registry, short=short, only=only,
                       agents=agents)


def lineups(ladder: Ladder) -> list[tuple[str, ...]]:
    """Every pairing's lineup (see the module docstring)."""
    pairs = combinations(ladder.bots, 2)
    return [tuple(pair[seat % 2] for seat in range(ladder.players)) for pair in pairs]


def rate(results: Sequence[GameResult], bots: Sequence[str]) -> dict[str, Any]:
    """Ratings and win shares of ``bots`` after ``results``, rated in order."""
    ratings = {bot: MODEL.rating(name=bot) for bot in bots}
    games = dict.fromkeys(bots, 0)
    wins = dict.fromkeys(bots, 0.0)
    for result in results:
        ordered = sorted(set(result.scores), reverse=True)
        ranks = [float(ordered.index(score) + 1) for score in result.scores]
        teams = [[ratings[bot]] for bot in result.bots]
        new = MODEL.rate(teams, ranks=ranks)
        seats_of: dict[str, list[int]] = {}
        for seat, bot in enumerate(result.bots):
            seats_of.setdefault(bot, []).append(seat)
        for bot, seats in seats_of.items():
            old = ratings[bot]
            mu = old.mu + sum(new[s][0].mu - old.mu for s in seats) / len(seats)
            sigma = old.sigma + sum(new[s][0].sigma - old.sigma for s in seats) / len(seats)
            ratings[bot] = MODEL.rating(mu=mu, sigma=sigma, name=bot)
            games[bot] += 1
            share = len([s for s in seats if s in result.winners]) / len(result.winners)
            wins[bot] += share
    table = []
    for bot in sorted(bots, key=lambda b: ratings[b].mu - 3 * ratings[b].sigma, reverse=True):
        low, high = wilson_interval(wins[bot], games[bot])
        table.append({"bot": bot, "mu": round(ratings[bot].mu, 3),
                      "sigma": round(ratings[bot].sigma, 3),
                      "ordinal": round(ratings[bot].mu - 3 * ratings[bot].sigma, 3),
                      "games": games[bot], "win_share": round(wins[bot] / max(games[bot], 1), 4),
                      "win_share_interval": [round(low, 4), round(high, 4)]})
    return {"ratings": table}


def climb(ladder: Ladder, games: int, seed: int, workers: int | None = None
          ) -> dict[str, Any]:
    """Play a ladder's round robin and rate it."""
    results: list[GameResult] = []
    for index, lineup in enumerate(lineups(ladder)):
        for chunk in run_games(ladder.game, ladder.options, lineup, games,
                               seed + 1_000_000 * index, workers=workers):
            results.extend(chunk)
    rated = rate(results, ladder.bots)
    for row in rated["ratings"]:
        row["level"] = ladder.levels.get(row["bot"])
    return {"game": ladder.game, "players": ladder.players, "options": ladder.options,
            "games_per_pairing": games, "seed": seed, **rated}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    registry = default_registry()
    parser = argparse.ArgumentParser(description="Rate the bots from round-robin matches.")
    parser.add_argument("ladders", nargs="+", metavar="GAME:PLAYERS",
                        help=f"a game and a table size; games: {', '.join(registry.ids())}")
    parser.add_argument("--games", type=int, default=40, help="games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--short", action="store_true",
                        help="play each game at its short options (Timo to 100 points)")
    parser.add_argument("--bots", help="only these bots or levels, comma-separated "
                        "(default: all)")
    parser.add_argument("--bot", action="append", default=[], metavar="SPEC",
                        help="add your own agent: module:Class, policy.npz or model.zip "
                             "(may be given again)")
    parser.add_argument("--note", help="how the ladder was made, kept in the file")
    parser.add_argument("--out", type=Path, action="append", default=[],
                        help="write the ladders here as JSON (may be given again)")
    args = parser.parse_args(argv)
    try:
        only = args.bots.split(",") if args.bots else None
        chosen = [parse_ladder(spec, registry, args.short, only, args.bot)
                  for spec in args.ladders]
    except (ValueError, TwinTableError) as error:
        parser.error(str(error))
    report: dict[str, Any] = {"note": args.note} if args.note else {}
    report.update({each.name: climb(each, args.games, args.seed, args.workers)
                   for each in chosen})
    text = json.dumps(report, indent=2)
    for out in args.out:
        out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return report


if __name__ == "__main__":
    main()
