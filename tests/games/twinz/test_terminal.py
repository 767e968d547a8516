"""Twinz in the terminal: the person races timed bots on the clock, contests and votes
(RULES.md §4), driven with scripted lines on a virtual clock and stand-in timed bots."""

from __future__ import annotations

import random
from typing import Any

from rich.console import Console

from twintable.core.types import Action
from twintable.games.twinz.rules import TwinzGame
from twintable.games.twinz.state import TwinzState
from twintable.games.twinz.terminal import TwinzTerminal
from twintable.games.twinz.views import TwinzView
from twintable.terminal.keyboard import ScriptedKeyboard

GAME = TwinzGame()
NAMES = ["Player 0 (you)", "bot (1)", "bot (2)", "bot (3)"]


class TimedBot:
    """A stand-in timed bot: draws and clues fast; guesses ``answer`` (the right word,
    read from the state: it is a test) ``guess_ms`` after the clues show; contests clue 1
    after ``contest_ms``; votes ``uphold`` after ``vote_ms``."""

    name = "timed"

    def __init__(self, state: TwinzState, clue: str = "soleil", guess_ms: int | None = None,
                 contest_ms: int | None = None, vote_ms: int | None = None,
                 uphold: bool = True):
        self.state, self.clue, self.guess_ms = state, clue, guess_ms
        self.contest_ms, self.vote_ms, self.uphold = contest_ms, vote_ms, uphold

    def act(self, view: TwinzView, rng: random.Random) -> Action | None:
        return None

    def plan(self, view: TwinzView, rng: random.Random) -> tuple[int, Action] | None:
        seat = view.viewer
        assert seat is not None
        kinds = {action.kind for action in view.legal}
        if "draw" in kinds:
            return view.now_ms + 500, Action(seat, "draw")
        if "clue" in kinds:
            return view.countdown_ends - 4000, Action(seat, "clue", {"word": self.clue})
        if view.guess_due is None:
            return None
        shown = view.guess_due - view.options["guess_timeout_s"] * 1000
        if "vote" in kinds and self.vote_ms is not None:
            return shown + self.vote_ms, Action(seat, "vote", {"uphold": self.uphold})
        if "contest" in kinds and self.contest_ms is not None:
            return shown + self.contest_ms, Action(seat, "contest", {"member": view.duo[0]})
        if "guess" in kinds and self.guess_ms is not None:
            return shown + self.guess_ms, Action(seat, "guess",
                                                 {"word": GAME.mystery(self.state)})
        return None


def guessing_round(seed: int = 5) -> TwinzState:
    """A 4-player game whose first duo is the two bots 1 and 2: the person guesses."""
    state = GAME.new_state({}, 4, seed)
    state.duo = (1, 2)
    return state


def play_round(seat: TwinzTerminal, state: TwinzState) -> list[Action]:
    played = []
    while state.round_no == 1 and not GAME.is_over(state):
        action = seat.next_move(state)
        played.append(action)
        GAME.apply(state, action)
    return played


def typed(*lines: tuple[float, str]) -> ScriptedKeyboard:
    """Lines typed their delay after the person was asked for something."""
    return ScriptedKeyboard(lines, on_prompt=True)


def make(state: TwinzState, keyboard: ScriptedKeyboard, bots: list[Any],
         console: Console | None = None) -> TwinzTerminal:
    return TwinzTerminal(GAME, [None, *bots], 0, NAMES, random.Random(0),
                         console or Console(record=True, width=120), keyboard)


def test_the_person_guesses_before_the_bots() -> None:
    state = guessing_round()
    word = GAME.mystery(state)
    # Typed 2.5 s after the prompt appears (the clues): the bot needs 4 s.
    keyboard = typed((2.5, word))
    bots = [TimedBot(state, "soleil"), TimedBot(state, "lune"),
            TimedBot(state, guess_ms=4000)]
    seat = make(state, keyboard, bots)
    played = play_round(seat, state)
    guesses = [a for a in played if a.kind == "guess"]
    assert guesses[0].seat == 0
    assert state.history[0]["winners"] == [0] and state.cards_won[0] == 1


def test_a_faster_bot_wins_at_its_planned_time() -> None:
    state = guessing_round()
    keyboard = typed((6.0, GAME.mystery(state)))
    bots = [TimedBot(state, "soleil"), TimedBot(state, "lune"),
            TimedBot(state, guess_ms=3000)]
    seat = make(state, keyboard, bots)
    played = play_round(seat, state)
    clues = [a for a in played if a.kind == "clue"]
    guess = next(a for a in played if a.kind == "guess")
    assert guess.seat == 3 and state.history[0]["winners"] == [3]
    # The bot acted at its planned moment: 3 s after the clues came out.
    assert guess.t_ms == max(c.t_ms for c in clues) + 3000
    assert keyboard.typed == []  # the person had not typed yet


def test_the_person_contests_a_clue_and_a_bot_upholds_it() -> None:
    state = guessing_round()
    keyboard = typed((1.0, "contest 1"))
    bots = [TimedBot(state, "soleil"), TimedBot(state, "lune"), TimedBot(state, vote_ms=2500)]
    seat = make(state, keyboard, bots)
    played = play_round(seat, state)
    assert Action(0, "contest", {"member": 1}) in [a.at(0) for a in played]
    assert state.history[0]["result"] == "contest"


def test_the_person_votes_a_contest_down() -> None:
    state = guessing_round()
    console = Console(record=True, width=120)
    # The bot contests after 1 s; the person is asked to vote and lets the clue stand,
    # then guesses the word.
    keyboard = typed((1.5, "vote maybe"), (0.5, "vote no"), (0.5, GAME.mystery(state)))
    bots = [TimedBot(state, "soleil"), TimedBot(state, "lune"),
            TimedBot(state, contest_ms=1000)]
    seat = make(state, keyboard, bots, console)
    played = play_round(seat, state)
    kinds = [a.kind for a in played if a.seat == 0]
    assert kinds == ["vote", "guess"]
    assert state.history[0]["winners"] == [0]
    text = console.export_text()
    assert "Vote" in text and "vote yes (the clue breaks the rules) or vote no" in text


def test_the_person_in_the_duo_draws_and_gives_a_clue_in_time() -> None:
    state = GAME.new_state({}, 4, 5)
    keyboard = typed((0.2, ""), (1.0, "two words"), (1.0, "soleil"))
    console = Console(record=True, width=120)
    bots = [TimedBot(state, "lune"), TimedBot(state, guess_ms=3000),
            TimedBot(state, guess_ms=5000)]
    seat = make(state, keyboard, bots, console)
    played = play_round(seat, state)
    mine = [a for a in played if a.seat == 0]
    assert [a.kind for a in mine] == ["draw", "clue"]
    assert "one single word" in console.export_text()
    revealed = state.history[0]["clues"]
    assert revealed == ["soleil", "lune"]


def test_a_clue_typed_after_the_deadline_is_missing() -> None:
    state = GAME.new_state({}, 4, 5)
    keyboard = typed((0.1, ""), (20.0, "soleil"))
    bots = [TimedBot(state, "lune"), TimedBot(state, guess_ms=3000),
            TimedBot(state, guess_ms=5000)]
    seat = make(state, keyboard, bots)
    played = play_round(seat, state)
    assert [a.kind for a in played if a.seat == 0] == ["draw"]
    assert state.history[0]["clues"][0] is None  # the timer revealed without it
