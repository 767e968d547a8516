"""OpenSkill ratings per game for named players (those who bring a player id), and what
keeps them honest.

- A seat is rated only when its person made most of its moves: a stand-in's moves (a
  bot playing for someone away) are not the person's, so closing the tab after "Play
  again" earns nothing.
- One profile in two seats of a game is rated in neither (the lobby refuses it too).
- A seat whose person conceded is rated, as the last place whatever its stand-in made
  of it: giving a game up is a loss, and must not dodge one.
- Games against the same profile weigh less and less: the k-th rated game against the
  profile a player has met most at the table moves their rating by 1/k of a full game's
  change, so two accounts playing each other cannot climb far.
- The leaderboard ranks a rating only once it rests on :data:`RANKED_AFTER_GAMES` rated
  games against :data:`RANKED_AFTER_OPPONENTS` distinct opponents (profiles, or bots by
  kind); before that it is provisional, shown to its owner alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from twintable.core.game import Outcome
from twintable.server.storage.models import RatingOpponentRow, RatingRow, SeatRow
from twintable.server.storage.store import Store

MODEL = PlackettLuce()
#: What a rating needs before the leaderboard ranks it.
RANKED_AFTER_GAMES, RANKED_AFTER_OPPONENTS = 5, 3


def conservative(mu: float, sigma: float) -> float:
    """The leaderboard's figure: a rating we are fairly sure the player has earned."""
    return mu - 3 * sigma


def is_ranked(row: RatingRow) -> bool:
    """Whether a rating rests on enough games and opponents to be ranked."""
    return row.games >= RANKED_AFTER_GAMES and (row.opponents or 0) >= RANKED_AFTER_OPPONENTS


@dataclass
class Rated:
    """A finished game's changes to the ratings, saved with its finished status."""

    ratings: list[RatingRow] = field(default_factory=list)
    met: list[RatingOpponentRow] = field(default_factory=list)


def opponent_name(seat: SeatRow) -> str | None:
    """Who a seat is, as an opponent: its profile, or its bot's kind (None: a person
    without a profile, or an empty seat)."""
    if seat.kind == "bot" and seat.bot:
        return f"bot:{seat.bot}"
    return seat.player_id if seat.kind == "human" else None


def played_by_person(moves: Mapping[int, tuple[int, int]], seat: int) -> bool:
    """Whether the person in ``seat`` made most of its moves (``moves``: each seat's own
    moves and all its moves, stand-ins' included)."""
    own, total = moves.get(seat, (0, 0))
    return total > 0 and 2 * own > total


async def new_ratings(store: Store, game: str, seats: Sequence[SeatRow],
                      outcome: Outcome, moves: Mapping[int, tuple[int, int]],
                      conceded: AbstractSet[int] = frozenset()) -> Rated:
    """The ratings after a finished game, not yet saved: every seat is ranked by its final
    score, bots included (as fixed opponents that are not stored), so beating bots counts
    too; only the seats the module allows are rated. The table saves them with its
    finished status in one transaction, so a game is rated exactly once whenever the
    server stops."""
    profiles = [s.player_id for s in seats if s.kind == "human" and s.player_id]
    rated = [s for s in seats if s.kind == "human" and s.player_id
             and profiles.count(s.player_id) == 1
             and (s.seat in conceded or played_by_person(moves, s.seat))]
    if not rated or len(seats) < 2 or len(outcome.winners) == len(seats):
        return Rated()  # nobody to compare with (solo or cooperative play, or all tied)
    ids = [s.player_id for s in rated if s.player_id]
    known = await store.ratings(game, ids)
    met = await store.opponents(game, ids)
    teams = []
    for seat in seats:
        row = known.get(seat.player_id or "") if seat in rated else None
        teams.append([MODEL.rating(mu=row.mu, sigma=row.sigma) if row else MODEL.rating()])
    # A higher score is a better (lower) rank; equal scores share a rank; a seat that
    # conceded is behind every other, whatever its score. In a team game a seat holds
    # its team's score: partners share the rank their team earned.
    scores = outcome.scores
    if outcome.teams is not None and outcome.team_scores is not None:
        scores = tuple(outcome.team_scores[team] for team in outcome.teams)
    ordered = sorted({score for seat, score in enumerate(scores)
                      if seat not in conceded}, reverse=True)
    ranks = [float(len(ordered) + 1) if seat in conceded else float(ordered.index(score) + 1)
             for seat, score in enumerate(scores)]
    new = MODEL.rate(teams, ranks=ranks)
    changes = Rated()
    for seat in rated:
        player = seat.player_id
        assert player is not None
        old = known.get(player)
        before = MODEL.rating(mu=old.mu, sigma=old.sigma) if old else MODEL.rating()
        after = new[seat.seat][0]
        met_before = met.get(player, {})
        others = [name for other in seats if other.seat != seat.seat
                  and (name := opponent_name(other)) is not None]
        # The profile met most often here decides the weight: the tenth game against
        # the same account moves the rating a tenth as much as the first.
        repeats = max((met_before.get(name, 0) for name in others
                       if not name.startswith("bot:")), default=0)
        weight = 1 / (1 + repeats)
        met_after = dict(met_before)
        for name in set(others):
            met_after[name] = met_after.get(name, 0) + 1
            changes.met.append(RatingOpponentRow(game=game, player_id=player, opponent=name,
                                                 games=met_after[name]))
        changes.ratings.append(RatingRow(
            game=game, player_id=player, display_name=seat.display_name or player,
            mu=before.mu + weight * (after.mu - before.mu),
            sigma=before.sigma + weight * (after.sigma - before.sigma),
            games=(old.games if old else 0) + 1, opponents=len(met_after)))
    return changes
