"""Twins in the terminal: the table engine moves the bots, and the person, asked first
whenever their seat may act, answers at the prompt."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from twintable.core.table_engine import TableEngine, TakeTurns
from twintable.games.twins.bots import HeuristicTwinsBot
from twintable.games.twins.rules import TwinsGame
from twintable.games.twins.terminal import TwinsTerminal

GAME = TwinsGame()
NAMES = ["Ann", "Bo", "Chen"]


def test_the_terminal_takes_the_table_engines_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    # The person buys nothing and picks their first two cards; every other move is the
    # step the engine takes on a twin table (the bots to act in seat order, same seeds),
    # and the person is asked whenever their seat may act, before any bot moves.
    asked: list[str] = []

    def answer(prompt: str = "") -> str:
        asked.append(prompt)
        return "0" if len(asked) % 2 else "1 2"

    monkeypatch.setattr("builtins.input", answer)
    options = GAME.resolve_options({"max_hands": 2})
    state, twin = GAME.new_state(options, 3, 8), GAME.new_state(options, 3, 8)
    bots = [None, HeuristicTwinsBot(), HeuristicTwinsBot()]
    seat = TwinsTerminal(GAME, bots, 0, NAMES, random.Random(8), Console(file=io.StringIO()))
    engine = TableEngine(GAME, twin, TakeTurns(GAME, bots, random.Random(8), shuffle=False))
    people = table = 0
    while not GAME.is_over(state):
        person_asked = 0 in GAME.to_act(state)
        before = len(asked)
        action = seat.next_move(state)
        if person_asked:
            assert action.seat == 0 and len(asked) > before
            people += 1
        else:
            step = engine.next()
            assert step is not None and action == step.action and len(asked) == before
            table += 1
        GAME.apply(state, action)
        GAME.apply(twin, action)
    assert people and table > people
