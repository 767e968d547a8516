"""The Pebbles bot: it sees its seat's view only (everything, in this game).

With two players the game is solved: taking the last pebble wins when you leave the
other a multiple of ``max_take + 1`` (in the misère variant, one more than a multiple),
since whatever they take, you can bring the heap back to the next multiple. The bot
leaves such a heap whenever it can and takes a single pebble when it cannot, keeping the
game long for a mistake. With more players nobody controls the heap alone, so the same
aim is only a good habit.
"""

from __future__ import annotations

import random

from twintable.core.types import Action

from twintable_pebbles.views import PebblesView


class CounterBot:
    """Leaves a losing heap to the next seat when it can (perfect with two players)."""

    name = "counter"

    def act(self, view: PebblesView, rng: random.Random) -> Action | None:
        if not view.legal:
            return None
        cycle = view.options["max_take"] + 1
        # The heap to leave: a multiple of the cycle, or one more in the misère variant.
        aim = 1 if view.options["last_loses"] else 0
        for action in view.legal:
            if (view.heap - action.payload["count"]) % cycle == aim % cycle:
                return action
        return view.legal[0]
