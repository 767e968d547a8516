"""OpenSkill ratings per game for named players (those who bring a player id)."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from twintable.core.game import Outcome
from twintable.server.storage.models import RatingRow, SeatRow
from twintable.server.storage.store import Store

MODEL = PlackettLuce()


def conservative(mu: float, sigma: float) -> float:
    """The leaderboard's figure: a rating we are fairly sure the player has earned."""
    return mu - 3 * sigma


async def new_ratings(store: Store, game: str, seats: Sequence[SeatRow],
                      outcome: Outcome) -> list[RatingRow]:
    """The ratings after a finished game, not yet saved: every seat is ranked by its final
    score, bots included (as fixed opponents that are not stored), so beating bots counts
    too. The table saves them with its finished status in one transaction, so a game is
    rated exactly once whenever the server stops."""
    rated = [s for s in seats if s.kind == "human" and s.player_id]
    if not rated or len(seats) < 2 or len(outcome.winners) == len(seats):
        return []  # nobody to compare with (solo or cooperative play, or everyone tied)
    known = await store.ratings(game, [s.player_id for s in rated if s.player_id])
    teams = []
    for seat in seats:
        row = known.get(seat.player_id or "") if seat.kind == "human" else None
        teams.append([MODEL.rating(mu=row.mu, sigma=row.sigma) if row else MODEL.rating()])
    # A higher score is a better (lower) rank; equal scores share a rank.
    ordered = sorted(set(outcome.scores), reverse=True)
    ranks = [float(ordered.index(score) + 1) for score in outcome.scores]
    new = MODEL.rate(teams, ranks=ranks)
    rows = []
    for seat in rated:
        assert seat.player_id is not None
        rating = new[seat.seat][0]
        old = known.get(seat.player_id)
        rows.append(RatingRow(game=game, player_id=seat.player_id,
                              display_name=seat.display_name or seat.player_id,
                              mu=rating.mu, sigma=rating.sigma,
                              games=(old.games if old else 0) + 1))
    return rows
