"""The guessing race between a scripted person and the word bots, on the virtual clock:
the measure behind Twinz's pace (RULES.md §4: a person who types the word a few seconds
after the clues appear must be able to win). The tests and ``bench/twinz_race.py`` both
run it (it plays through the simulator, which a game's own package may not import);
nothing here sleeps.

Five players: the person in seat 0 types the mystery word ``answer_ms`` after the clues
appear (in the duo they give clues as a bot of the level would), four bots of one level.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from twintable.core.types import Action
from twintable.games.twinz.plugin import round_records
from twintable.games.twinz.rules import TwinzGame
from twintable.games.twinz.state import TwinzState
from twintable.sim.runner import play_game

#: The race's table: the person and four bots.
PLAYERS = 5


class Capturing(TwinzGame):
    """The game, keeping its last new state so the person may know the word, and every
    bot guess's delay after the clues appeared."""

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
    """A scripted person who finds the word ``answer_ms`` after the clues appear; in the
    duo they play as ``helper`` (a word bot) would: only their guesses are measured."""

    def __init__(self, game: Capturing, answer_ms: int, helper: Any):
        self.game, self.answer_ms, self.helper = game, answer_ms, helper
        self.name = "person"

    def act(self, view: Any, rng: random.Random) -> Action | None:
        return None

    def plan(self, view: Any, rng: random.Random) -> tuple[int, Action] | None:
        kinds = {action.kind for action in view.legal}
        if "guess" in kinds:
            if self.game.state is None:
                raise RuntimeError("the person guesses in a game that was never set up")
            shown = view.guess_due - view.options["guess_timeout_s"] * 1000
            return shown + self.answer_ms, Action(view.viewer, "guess", {
                "word": self.game.mystery(self.game.state)})
        if kinds & {"draw", "clue"}:
            return self.helper.plan(view, rng)  # type: ignore[no-any-return]
        return None


@dataclass
class Race:
    """What the person did in the rounds they could guess in (not in their own duo's)."""

    played: int = 0
    alone: int = 0
    """Rounds the person won alone."""
    shared: int = 0
    """Rounds the person won in a tie."""
    bot_delays: list[int] = field(default_factory=list)
    """Every bot guess's time after the clues appeared, in ms."""


def race(answer_ms: int, games: int, level: str | None = None, space: Any = None) -> Race:
    """Full games of a person answering at ``answer_ms`` against four bots of ``level``
    (the default level when None), seeds 0 to ``games`` - 1."""
    from twintable.games.twinz.bots import WordBot

    def bot() -> WordBot:
        return WordBot(space=space, level=level)

    game = Capturing()
    measured = Race()
    for seed in range(games):
        bots: list[Any] = [Person(game, answer_ms, bot())] + [bot() for _ in range(4)]
        play_game(game, None, bots, seed=seed)
        if game.state is None:
            raise RuntimeError("the game was never set up")
        for number, record in enumerate(round_records(game.state)):
            if 0 in (number % PLAYERS, (number + 1) % PLAYERS):  # round n's duo: n-1, n
                continue
            measured.played += 1
            measured.alone += record["winners"] == [0]
            measured.shared += 0 in record["winners"] and len(record["winners"]) > 1
    measured.bot_delays = game.delays
    return measured
