"""Timo's Twist in the terminal: TIMO! calls and catches are races on the clock
(RULES.md §1), driven here with scripted lines on a virtual clock."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from rich.console import Console

from tests.games.timo.scenario import GAME, build, card
from twintable.core.schedule import EventKind
from twintable.core.table_engine import next_step
from twintable.core.types import Action
from twintable.games.timo.bots import (
    REFLEXES,
    HeuristicTimoBot,
    Reflexes,
    SearchTimoBot,
    table_move,
    timo_reaction,
)
from twintable.games.timo.state import NOBODY, TimoState
from twintable.games.timo.terminal import TerminalBots, TimoTerminal
from twintable.terminal.keyboard import ScriptedKeyboard

NAMES = ["Player 0 (you)", "bot (1)", "bot (2)"]


def bot(**reflexes: float) -> HeuristicTimoBot:
    """A heuristic bot with set reflexes (never forgets unless told)."""
    made = HeuristicTimoBot()
    fields = {"forget": 0.0, "recall": 0.0, "recall_ms": 2000, "notice": 0.0,
              "catch_ms": 2000, "turn_ms": 2000, "spread": 0.01} | reflexes
    made.reflexes = Reflexes(**fields)  # type: ignore[attr-defined]
    return made


def terminal(keyboard: ScriptedKeyboard, *bots: HeuristicTimoBot,
             console: Console | None = None) -> TimoTerminal:
    return TimoTerminal(GAME, [None, *bots], 0, NAMES, random.Random(1),
                        console or Console(record=True, width=100), keyboard)


def bot_forgot() -> TimoState:
    """Bot 1 plays its last-but-one card without calling TIMO!; bot 2 is next."""
    state = build([["blue 1", "blue 2", "green 3"], ["blue 5", "pink 7"],
                   ["green 9", "orange 4", "pink 2", "pink 3"]], top="blue 3", turn=1)
    GAME.apply(state, Action(1, "play", {"card": card("blue 5")}))
    assert state.exposed == 1 and state.turn == 2
    return state


def test_the_person_catches_a_bot_that_forgot() -> None:
    keyboard = ScriptedKeyboard([(0.8, "catch")])
    seat = terminal(keyboard, bot(), bot(notice=1.0, catch_ms=1500))
    state = bot_forgot()
    action = seat.next_move(state)
    assert action == Action(0, "catch", {"target": 1})
    GAME.apply(state, action)
    assert len(state.hands[1]) == 3 and state.exposed == NOBODY


def test_a_bot_catches_when_the_person_is_slower() -> None:
    keyboard = ScriptedKeyboard([(3.0, "catch")])
    seat = terminal(keyboard, bot(), bot(notice=1.0, catch_ms=1500, turn_ms=4000))
    state = bot_forgot()
    action = seat.next_move(state)
    assert action == Action(2, "catch", {"target": 1})
    assert keyboard.now() == pytest.approx(1.5, abs=0.1)  # the bot's reaction time
    GAME.apply(state, action)
    # The person's "catch" arrives too late: nobody is left to catch.
    console = Console(record=True, width=100)
    seat.console = console
    assert seat.parse("catch", GAME.view(state, 0)) is None
    assert "nobody to catch" in console.export_text()


def test_the_next_player_moving_on_closes_the_window() -> None:
    keyboard = ScriptedKeyboard([(5.0, "c")])
    seat = terminal(keyboard, bot(), bot(turn_ms=1000))
    state = bot_forgot()
    action = seat.next_move(state)
    assert action.seat == 2 and action.kind in ("play", "draw")
    GAME.apply(state, action)
    assert state.exposed == NOBODY  # bot 1 got away with it


def person_at_two_cards() -> TimoState:
    return build([["blue 1", "green 3"], ["blue 5", "pink 7", "pink 8"],
                  ["green 9", "orange 4", "pink 2"]], top="blue 3", turn=0)


def test_the_person_who_forgot_is_not_asked_and_races_the_bots() -> None:
    # "1" plays blue 1 without TIMO!; then the person remembers after 0.6 s.
    keyboard = ScriptedKeyboard([(1.0, "1"), (0.6, "timo")])
    seat = terminal(keyboard, bot(notice=1.0, catch_ms=1500), bot(turn_ms=3000))
    state = person_at_two_cards()
    play = seat.next_move(state)
    assert play.kind == "play" and not play.payload.get("timo")
    GAME.apply(state, play)
    assert state.exposed == 0
    assert seat.next_move(state) == Action(0, "call_timo")


def test_the_person_who_forgot_can_be_caught() -> None:
    keyboard = ScriptedKeyboard([(1.0, "1"), (4.0, "timo")])
    seat = terminal(keyboard, bot(notice=1.0, catch_ms=1500), bot(turn_ms=3000))
    state = person_at_two_cards()
    GAME.apply(state, seat.next_move(state))
    assert seat.next_move(state) == Action(1, "catch", {"target": 0})


def test_the_person_calls_timo_with_the_play() -> None:
    keyboard = ScriptedKeyboard([(1.0, "9"), (0.5, "3 timo"), (0.5, "1 timo")])
    console = Console(record=True, width=100)
    seat = terminal(keyboard, bot(), bot(), console=console)
    state = person_at_two_cards()
    action = seat.next_move(state)
    assert action.kind == "play" and action.payload["timo"] is True
    assert "choose a move from 1 to" in console.export_text()
    GAME.apply(state, action)
    assert state.exposed == NOBODY


def test_catch_and_timo_are_refused_when_there_is_nothing_to_catch() -> None:
    keyboard = ScriptedKeyboard([(0.5, "catch"), (0.5, "timo"), (0.5, "hello"), (0.5, "1")])
    console = Console(record=True, width=100)
    seat = terminal(keyboard, bot(), bot(), console=console)
    state = person_at_two_cards()
    assert seat.next_move(state).kind == "play"
    text = console.export_text()
    assert "nobody to catch" in text and "no TIMO! to call" in text
    assert "type a move's number" in text


def test_bot_reflexes_are_seeded_and_follow_the_level() -> None:
    state = build([["blue 1", "green 3"], ["blue 5", "pink 7", "pink 8"],
                   ["green 9", "orange 4", "pink 2"]], top="blue 3", turn=1)
    bots = {"heuristic": HeuristicTimoBot(), "search": SearchTimoBot(samples=2)}
    for name, player in bots.items():
        view = GAME.view(state, 1)
        first = [table_move(player, view, random.Random(seed)) for seed in range(3)]
        again = [table_move(player, view, random.Random(seed)) for seed in range(3)]
        assert first == again, name
    # Forgetting: the heuristic level forgets about as often as its reflexes say.
    view = GAME.view(person_at_two_cards(), 0)
    assert any(a.payload.get("timo") for a in view.legal)
    heuristic = HeuristicTimoBot()
    rng = random.Random(7)
    moves = Counter(bool(table_move(heuristic, view, rng).payload.get("timo"))
                    for _ in range(2000))
    assert abs(moves[False] / 2000 - REFLEXES["heuristic"].forget) < 0.03
    # Catching: a reaction time around the level's median, and not always noticed.
    exposed = bot_forgot()
    reactions = [timo_reaction(heuristic, GAME.view(exposed, 2), rng) for _ in range(2000)]
    seen = [r for r in reactions if r is not None]
    assert abs(len(seen) / 2000 - REFLEXES["heuristic"].notice) < 0.04
    assert all(r[1] == Action(2, "catch", {"target": 1}) for r in seen)
    times = sorted(r[0] for r in seen)
    assert abs(times[len(times) // 2] - REFLEXES["heuristic"].catch_ms) < 150
    # The exposed bot itself may call late instead.
    own = [timo_reaction(heuristic, GAME.view(exposed, 1), rng) for _ in range(200)]
    assert {r[1].kind for r in own if r is not None} == {"call_timo"}


def test_the_simulation_player_still_always_calls_and_catches() -> None:
    view = GAME.view(person_at_two_cards(), 0)
    action = HeuristicTimoBot().act(view, random.Random(0))
    assert action is not None and action.payload.get("timo") is True
    assert HeuristicTimoBot().act(GAME.view(bot_forgot(), 2), random.Random(0)) == Action(
        2, "catch", {"target": 1})


# -- the table engine decides (issue 42: the terminal had a scheduler of its own) -----------

class RandomPerson:
    """A person on a virtual clock who types a seeded line now and then: a menu number
    (sometimes with TIMO!), a catch, a call or nonsense, each 0.2 to 3 s after the last."""

    def __init__(self, seed: int):
        self.clock, self.rng = 0.0, random.Random(seed)
        self.pending: tuple[float, str] | None = None

    def now(self) -> float:
        return self.clock

    def read(self, timeout: float | None, prompted: bool = True) -> str | None:
        if self.pending is None:
            line = self.rng.choice(["1", "2", "1t", "catch", "timo", "9", "x"])
            self.pending = (self.clock + self.rng.uniform(0.2, 3.0), line)
        at, line = self.pending
        if timeout is None or at <= self.clock + timeout:
            self.clock, self.pending = max(self.clock, at), None
            return line
        self.clock += timeout
        return None


@pytest.mark.parametrize("pace", [1.0, 2.0])
def test_the_terminal_takes_the_table_engines_steps(pace: float) -> None:
    # On a twin table with the same bots and seeds, the engine's next step at the moment
    # the terminal began waiting is the move the terminal makes, at that step's moment,
    # unless the person typed first.
    state, twin = GAME.new_state({}, 3, 5), GAME.new_state({}, 3, 5)
    person = RandomPerson(5)

    def quick() -> list[HeuristicTimoBot | None]:
        # Bots that often forget TIMO! and always notice: races every few turns.
        return [None, *(bot(forget=0.5, recall=1.0, notice=1.0, catch_ms=700,
                            recall_ms=800, turn_ms=2500, spread=0.3) for _ in range(2))]

    seat = TimoTerminal(GAME, quick(), 0, NAMES, random.Random(5),
                        Console(record=True, width=100), person, pace)
    bots = TerminalBots(GAME, quick(), 0, random.Random(5), pace)
    kinds: Counter[str] = Counter()
    for _ in range(150):
        now = round(person.now() * 1000)
        bots.replan(twin, now)
        step = next_step(GAME, twin, now, bots.plans(twin, now, 0, frozenset()),
                         bots.wake_ms(twin, now))
        action = seat.next_move(state)
        if action.seat == 0:
            assert step is None or person.now() * 1000 <= step.at_ms + 1e-6
        else:
            assert step is not None
            if step.kind is EventKind.WAKE:  # the bot on turn chooses when it has thought
                step = next_step(GAME, twin, step.at_ms,
                                 bots.plans(twin, step.at_ms, 0, frozenset()))
            assert step is not None and step.kind is EventKind.BOT
            assert step.action is not None and action == step.action.at(0)
            assert person.now() * 1000 == pytest.approx(step.at_ms, abs=1e-6)
            bots.taken(step)
            kinds[action.kind] += 1
        GAME.apply(state, action)
        GAME.apply(twin, action)
    # Bots took turns and won TIMO! races.
    assert kinds["play"] and kinds["catch"] + kinds["call_timo"]
