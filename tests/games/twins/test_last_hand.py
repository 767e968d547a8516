"""The hand before, as it ended: the frame that ends a hand already shows the next one,
so the view keeps the last hand's reveals, round 4 (the bank's) included (issue 24)."""

from __future__ import annotations

import random

from twintable.games.twins.plugin import entry
from twintable.sim.runner import make_bots


def test_the_view_keeps_every_round_of_the_hand_before() -> None:
    twins = entry()
    game = twins.rules
    state = game.new_state(None, 4, seed=5)
    bots = make_bots(twins, ["heuristic"] * 4)
    rng = random.Random(5)
    ended_with: list[tuple[int, int, int, int]] = []
    while state.hand_no == 1:
        ended_with = list(state.played)
        (seat, *_) = sorted(game.to_act(state))
        action = bots[seat].act(game.view(state, seat), rng)
        assert action is not None
        game.apply(state, action)
    view = game.view(state, 0)
    assert view.played == () and view.last_played
    rounds = {round_no for round_no, *_ in view.last_played}
    assert rounds == {1, 2, 3, 4}, view.last_played
    # Round 4 was revealed in the very move that dealt the next hand.
    assert len(view.last_played) > len(ended_with)
    shown = view.to_json()["last_played"]
    assert [entry["round"] for entry in shown] == [entry[0] for entry in view.last_played]
