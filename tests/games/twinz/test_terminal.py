"""Twinz in the terminal: the person races timed bots on the clock, contests and votes
(RULES.md §4), driven with scripted lines on a virtual clock and stand-in timed bots."""

from __future__ import annotations

import json
import random
import re
from importlib import resources
from typing import Any

import pytest
from rich.console import Console

from twintable.cli.play import shell_line
from twintable.core.plugin import default_plan
from twintable.core.table_engine import Race, TableEngine
from twintable.core.types import SYSTEM_SEAT, Action, Event
from twintable.games.twinz import terminal as terminal_module
from twintable.games.twinz.rules import TwinzGame
from twintable.games.twinz.state import TwinzState
from twintable.games.twinz.terminal import (
    TwinzTerminal,
    describe_event,
    key_of,
    paced_plan,
    say,
)
from twintable.games.twinz.views import TwinzView
from twintable.terminal.catalogue import LANGUAGES, language
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


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal speaks the environment's language: these tests read English."""
    monkeypatch.setenv("TWINTABLE_LANG", "en")


def make(state: TwinzState, keyboard: ScriptedKeyboard, bots: list[Any],
         console: Console | None = None, lang: str | None = None) -> TwinzTerminal:
    return TwinzTerminal(GAME, [None, *bots], 0, NAMES, random.Random(0),
                         console or Console(record=True, width=120), keyboard, lang=lang)


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


# -- the player's language (issue 25: the terminal game was English only) ------------------

def test_the_language_comes_from_the_environment() -> None:
    assert language({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert language({"LC_ALL": "ko_KR.UTF-8", "LANG": "fr_FR.UTF-8"}) == "ko"
    assert language({"TWINTABLE_LANG": "nl", "LANG": "fr_FR.UTF-8"}) == "nl"
    assert language({"LANG": "C.UTF-8"}) == "en" and language({}) == "en"
    assert language({"LANG": "de_DE.UTF-8"}) == "en"


def _catalogue(lang: str) -> dict[str, str]:
    """The terminal Twinz's sentences in ``lang``: its own keys in the game's catalogue,
    the one the browser reads."""
    folder = resources.files("twintable.games.twinz").joinpath("web", "i18n")
    words = json.loads(folder.joinpath(f"{lang}.json").read_text(encoding="utf-8"))
    return {key: text for key, text in words.items() if key.startswith("twinz.terminal.")}


def test_every_language_says_everything_english_says() -> None:
    english = _catalogue("en")
    assert len(english) > 50
    for lang in LANGUAGES:
        catalogue = _catalogue(lang)
        assert set(catalogue) == set(english), lang
        for key, text in catalogue.items():
            # The same placeholders as the English sentence.
            assert set(re.findall(r"{(\w+)}", text)) | {"n"} == \
                set(re.findall(r"{(\w+)}", english[key])) | {"n"}, (lang, key)
    # Every sentence the terminal says is in the catalogue (not its key read out).
    assert say("ko", "intro") != key_of("intro") and say("nl", "level.easy") == "Makkelijk"


def test_french_counts_points_as_a_french_player_does() -> None:
    assert say("fr", "penalised", name="Ève", n=1, reasons="en retard") == \
        "Ève perd 1 point : en retard"
    assert say("fr", "penalised", name="Ève", n=3, reasons="x") == "Ève perd 3 points : x"
    assert say("fr", "state", round=1, attempt=1, n=1).endswith("1 carte dans la pioche")
    assert say("fr", "state", round=1, attempt=1, n=0).endswith("0 carte dans la pioche")
    assert say("en", "state", round=1, attempt=1, n=0).endswith("0 cards in the pile")
    # French never writes "de Ève": the clue is "donné par" its giver.
    assert "donné par Ève" in say("fr", "contested", name="Luc", member="Ève", clue="LUNE")


def test_the_terminal_plays_in_french(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TWINTABLE_LANG", "fr")
    state = guessing_round()
    console = Console(record=True, width=120)
    keyboard = typed((1.5, "vote peut-être"), (0.5, "vote non"), (0.5, GAME.mystery(state)))
    bots = [TimedBot(state, "soleil"), TimedBot(state, "lune"),
            TimedBot(state, contest_ms=1000)]
    seat = make(state, keyboard, bots, console)
    played = play_round(seat, state)
    assert [a.kind for a in played if a.seat == 0] == ["vote", "guess"]
    text = console.export_text()
    assert "Votez : « vote oui » soutient la contestation" in text
    assert "vote oui (l'indice enfreint les règles) ou vote non" in text
    assert "Votre proposition, un seul mot (30 s" in text
    events = [describe_event(GAME.view(state, None), Event("contest_upheld", {"member": 1}),
                             NAMES, 0)]
    assert events == ["contestation retenue : bot (1) perd 1 point, le duo s'arrête"]
    assert "Faites trouver votre mot mystère" in terminal_module.INTRO


def test_the_person_waits_out_the_result_pause_in_their_language() -> None:
    # The last round's result stays on screen 3 s: Enter before then takes no card, and
    # the terminal says why, in French here.
    state = GAME.new_state({"read_ms": 0}, 4, 5)
    state.duo = (3, 0)
    GAME.apply(state, Action(3, "draw", {}, 0))
    GAME.apply(state, Action(3, "clue", {"word": GAME.mystery(state)}, 100))
    GAME.apply(state, Action(0, "clue", {"word": "soleil"}, 200))  # the round ends
    assert state.duo == (0, 1) and state.pause_until == 3200
    console = Console(record=True, width=120)
    seat = make(state, typed(), [None, None, None], console, lang="fr")
    seat._show(state)
    assert seat.parse("", state) is None
    GAME.apply(state, Action(SYSTEM_SEAT, "tick", {}, 3200))
    seat._show(state)
    assert seat.parse("", state) == Action(0, "draw", {}, 3200)
    text = console.export_text()
    assert "la carte suivante arrive dans un instant" in text
    assert "le résultat de la manche est encore affiché : un instant" in text
    assert "À votre duo : appuyez sur Entrée pour prendre la carte" in text


def test_the_shell_speaks_french_when_the_player_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 40: "Player 0 (you)", "Bot 1 (Easy)", "seed 11, 4 players" were English.
    monkeypatch.setenv("TWINTABLE_LANG", "fr")
    assert shell_line("you", seat=0) == "Joueur 0 (vous)"
    assert shell_line("bot", seat=1, level="easy") == "Robot 1 (Facile)"
    assert shell_line("header", game="Twinz", seed=11, n=4) == (
        "Twinz — graine 11, 4 joueurs.")
    assert shell_line("final", scores="Joueur 0 (vous) 7").startswith(
        "Scores finaux")


def test_a_refused_clue_is_named_with_its_reason_in_french(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TWINTABLE_LANG", "fr")
    state = guessing_round()
    event = Event("clues_revealed", {
        "clues": {"0": "ciel", "1": "nageoire"}, "attempt": 1,
        "penalties": {"0": [], "1": ["mystery_root"]},
        "refused": {"1": {"clue": "nageoire", "reason": "family", "word": "nager"}}})
    line = describe_event(GAME.view(state, None), event, NAMES, 0)
    assert line is not None and "NAGEOIRE est de la famille de NAGER" in line


# -- the table engine decides (issue 42: the terminal had a scheduler of its own) -----------

class Silent:
    """The person, in the engine's game: never plans a move."""

    name = "silent"

    def act(self, view: TwinzView, rng: random.Random) -> Action | None:
        return None

    def plan(self, view: TwinzView, rng: random.Random) -> tuple[int, Action] | None:
        return None


@pytest.mark.parametrize("pace", [1.0, 2.0])
def test_the_terminal_takes_the_table_engines_steps(pace: float) -> None:
    # The person never types: every move is the table's own, and each is the step the
    # simulator's engine takes on a twin table (the same bots, race and seeds).
    state, twin = guessing_round(), guessing_round()

    def bots(state: TwinzState) -> list[TimedBot]:
        return [TimedBot(state, "soleil"), TimedBot(state, "lune"),
                TimedBot(state, guess_ms=4000)]

    seat = TwinzTerminal(GAME, [None, *bots(state)], 0, NAMES, random.Random(3),
                         Console(record=True, width=120), typed(), pace=pace)
    plan = default_plan if pace == 1.0 else paced_plan(pace)
    engine = TableEngine(GAME, twin, Race(GAME, [Silent(), *bots(twin)], plan,
                                          random.Random(3)), sit_out_refused=True)
    played = play_round(seat, state)
    expected = []
    while twin.round_no == 1:
        step = engine.next()
        assert step is not None and step.action is not None
        assert engine.play(step)
        expected.append(step.action)
    assert played == expected
    kinds = [(a.seat, a.kind) for a in played]
    assert (SYSTEM_SEAT, "tick") in kinds and (3, "guess") in kinds
    clues = max(a.t_ms for a in played if a.kind == "clue")
    guess = next(a for a in played if a.kind == "guess")
    assert guess.t_ms == clues + int(4000 * pace)
    # The person was waited for until each step's moment, on the keyboard's clock.
    assert seat.now_ms() == played[-1].t_ms



class Eager(TimedBot):
    """A bot that misjudges the table: as soon as the clues show, it votes, with no
    contest to vote on."""

    votes = 0

    def plan(self, view: TwinzView, rng: random.Random) -> tuple[int, Action] | None:
        seat = view.viewer
        assert seat is not None
        if view.guess_due is not None:
            self.votes += 1
            return view.now_ms, Action(seat, "vote", {"uphold": True})
        return super().plan(view, rng)


def test_a_bot_whose_move_is_refused_sits_the_state_out() -> None:
    state = guessing_round()
    eager = Eager(state)
    seat = make(state, typed(), [TimedBot(state, "soleil"), TimedBot(state, "lune"), eager])
    played = play_round(seat, state)
    # The vote never reached the table, and the bot, asked once an attempt, held nothing
    # up: each attempt's guesses ran out on the game's timer.
    assert all(a.seat != 3 for a in played)
    assert eager.votes == 2
    assert [(a.kind, a.t_ms) for a in played if a.kind == "tick"] == [
        ("tick", 33000), ("tick", 65500)]
    assert state.history[0]["result"] == "timeout"
