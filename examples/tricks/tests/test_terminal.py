"""Twin Tricks in the terminal: the table as text, the log's lines, and a person's move
typed by number (a wrong number is asked again, never swapped for a legal card)."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from rich.console import Console
from twintable.bots.base import RandomBot
from twintable.core.table_engine import TableEngine, TakeTurns
from twintable.core.types import Action

from twintable_tricks.cards import from_label as card
from twintable_tricks.rules import TricksGame
from twintable_tricks.state import TricksState
from twintable_tricks.terminal import TricksTerminal, describe_event, render

Build = Callable[..., TricksState]
NAMES = ["Ann", "Bo"]


def test_the_table_shows_the_trick_and_the_numbered_hand(game: TricksGame,
                                                         build: Build) -> None:
    state = build([["suns 2"], ["suns 9", "moons 3"]], trick=[(0, "suns 2")])
    console = Console(file=io.StringIO(), width=100)
    console.print(render(game.view(state, 1), NAMES))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Ann 2☀ suns" in text and "1:3☾ moons  2:9☀ suns" in text


def test_every_move_and_hand_is_told(game: TricksGame, build: Build) -> None:
    state = build([["suns 2", "moons 1"], ["suns 9", "moons 3"]], target=99)
    told = []
    for seat, name in [(0, "suns 2"), (1, "suns 9"), (1, "moons 3"), (0, "moons 1")]:
        events = game.apply(state, Action(seat, "play", {"card": card(name)}))
        told += [line for e in events if (line := describe_event(
            game.view(state, None), e, NAMES, None))]
    assert told[:5] == ["Ann plays 2☀ suns", "Bo plays 9☀ suns", "Bo takes the trick",
                        "Bo plays 3☾ moons", "Ann plays 1☾ moons"]
    assert "Hand 1 is over: Bo took the last trick (Ann +0, Bo +3)" in told


def test_a_person_types_a_cards_number_and_a_wrong_one_is_asked_again(
        game: TricksGame, build: Build, monkeypatch: pytest.MonkeyPatch) -> None:
    state = build([["suns 2"], ["moons 3", "suns 9"]], trick=[(0, "suns 2")])
    answers = iter(["7", "1", "2"])  # no such card, then a card that does not follow
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    seat = TricksTerminal(game, [RandomBot(), None], 1, NAMES, random.Random(1),
                          Console(file=io.StringIO()))
    assert seat.next_move(state).payload == {"card": card("suns 9")}


def test_the_terminal_takes_the_table_engines_steps(game: TricksGame,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # The person types "1" (their first card, asked again when it does not follow, then
    # each number in turn); every bot move is the step the engine takes on a twin table
    # (the same bots and seeds), and the person is asked only on their own turn.
    typed = iter(str(n) for n in list(range(1, 11)) * 200)
    asked: list[str] = []

    def answer(prompt: str = "") -> str:
        asked.append(prompt)
        return next(typed)

    monkeypatch.setattr("builtins.input", answer)
    state, twin = game.new_state({}, 2, 4), game.new_state({}, 2, 4)
    bots = [None, RandomBot()]
    seat = TricksTerminal(game, bots, 0, NAMES, random.Random(4), Console(file=io.StringIO()))
    engine = TableEngine(game, twin, TakeTurns(game, bots, random.Random(4)))
    moves = {0: 0, 1: 0}
    while not game.is_over(state):
        before = len(asked)
        action = seat.next_move(state)
        if game.to_act(state) == {1}:
            step = engine.next()
            assert step is not None and action == step.action and len(asked) == before
        else:
            assert action.seat == 0 and len(asked) > before
        moves[action.seat] += 1
        game.apply(state, action)
        game.apply(twin, action)
    assert moves[0] and moves[1]
