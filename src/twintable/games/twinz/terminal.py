"""Twinz in the terminal: the person types clues when in the duo, and otherwise guesses,
contests a clue and votes, all on the wall clock.

Time is real here, as at a table (RULES.md §4): the countdown runs while you type, so a
clue typed too slowly is late (or missing), and the bots plan *when* they act
(``plan(view, rng)``, a human reaction time) and act at that moment unless you typed
first. Lines and the clock come from a :class:`~twintable.terminal.keyboard.Keyboard`, so
tests run the race on a virtual clock.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from twintable.core.errors import RuleError
from twintable.core.plugin import default_plan
from twintable.core.types import SYSTEM_SEAT, Action, Event
from twintable.games.twinz.decks import fold
from twintable.games.twinz.state import CLUES, DRAW, GUESSES
from twintable.games.twinz.views import TwinzView
from twintable.terminal.keyboard import Keyboard, StdinKeyboard

INTRO = ("Get the others to find your mystery word with one clue word, given at the same "
         "time as your partner's; guess the others' words before the bots do. While "
         "people guess, 'contest 1' or 'contest 2' disputes a clue (no real word, the "
         "mystery word's root...), and 'vote yes' or 'vote no' settles a contest. "
         "Most points wins.")
_REASONS = {"found": "found", "timeout": "time ran out", "all_wrong": "every guess was wrong",
            "mystery_word": "a clue was on the mystery word's root",
            "contest": "a contested clue was upheld"}
_YES, _NO = ("yes", "y", "oui", "uphold"), ("no", "n", "non", "dismiss")


def render(view: TwinzView, names: list[str]) -> Panel:
    table = Table(show_header=True)
    for column in ("player", "points", "cards"):
        table.add_column(column)
    for seat, name in enumerate(names):
        marker = " (duo)" if seat in view.duo else ""
        table.add_row(name + marker, str(view.points[seat]), str(view.cards[seat]))
    lines = [f"round {view.round_no}, attempt {view.attempt}, {view.pile} cards in the pile"]
    if view.mystery:
        lines.append(f"your mystery word: [bold]{view.mystery.upper()}[/]")
    if view.clues:
        lines.append("clues: " + " + ".join((c or "(nothing)").upper() for c in view.clues))
    if view.guessed:
        # A guess inside the tie window shows no word (RULES.md §4).
        lines.append("guesses: " + ", ".join(f"{names[s]}: {w or '(a guess)'}"
                                             for s, w in view.guessed))
    return Panel(table, title="\n".join(lines))


def describe_action(view: TwinzView, action: Action, names: list[str]) -> str | None:
    # Guesses are told by their events: a guess in the tie window shows no word.
    if action.kind == "draw":
        return f"{names[action.seat]} takes the card"
    return None


def describe_event(view: TwinzView, event: Event, names: list[str],
                   viewer: int | None) -> str | None:
    data = event.data
    if event.kind == "round_started":
        first, second = data["duo"]
        return f"round {data['round']}: {names[first]} and {names[second]} give clues"
    if event.kind == "countdown":
        return f"attempt {data['attempt']}: the duo has {view.options['countdown_s']} s " \
               "for its clues"
    if event.kind == "clue_given":
        return f"{names[data['seat']]} has a clue"
    if event.kind == "clues_revealed":
        shown = [f"{names[int(s)]}: {(w or '(nothing)').upper()}"
                 for s, w in data["clues"].items()]
        penalties = [f"{names[int(s)]} {', '.join(p)}" for s, p in data["penalties"].items() if p]
        return "clues: " + "; ".join(shown) + (f" (penalties: {'; '.join(penalties)})"
                                                if penalties else "")
    if event.kind == "guessed":
        if data["word"] is None:
            return f"{names[data['seat']]} makes a guess"
        return f"{names[data['seat']]} guesses {str(data['word']).upper()}: wrong"
    if event.kind == "contested":
        clue = view.clues[view.duo.index(data["member"])] if view.clues else None
        return (f"{names[data['seat']]} contests {names[data['member']]}'s clue "
                f"{(clue or '').upper()}: vote!")
    if event.kind == "voted":
        return f"{names[data['seat']]} votes"
    if event.kind == "contest_upheld":
        return f"the contest is upheld: {names[data['member']]} loses a point"
    if event.kind == "contest_dismissed":
        return f"the vote lets {names[data['member']]}'s clue stand"
    if event.kind == "attempt_failed":
        return "nobody found it: a second attempt with new clues"
    if event.kind == "round_over":
        winners = ", ".join(names[s] for s in data["winners"]) or "nobody"
        reason = _REASONS.get(str(data["reason"]), str(data["reason"]))
        return f"the word was {str(data['word']).upper()} ({reason}); won by {winners}"
    if event.kind == "game_over":
        return "game over"
    return None


class TwinzTerminal:
    """The person's seat at a Twinz table of bots, on the keyboard's clock.

    ``next_move(state)`` returns the next action: a timer that ran out, a bot's planned
    move at its moment (the server's ``_realtime_move`` does the same: times count from
    the last change on the table, stretched by ``pace``), or the person's typed line,
    whichever comes first.
    """

    def __init__(self, game: Any, bots: Sequence[Any], human: int, names: list[str],
                 rng: random.Random, console: Console, keyboard: Keyboard | None = None,
                 pace: float = 1.0):
        self.game, self.bots, self.human, self.names = game, bots, human, names
        self.rng, self.console, self.pace = rng, console, pace
        self.keyboard: Keyboard = keyboard if keyboard is not None else StdinKeyboard()
        self.start = self.keyboard.now()
        self.refused: set[int] = set()
        self.refused_at = -1
        self.shown: tuple[Any, ...] | None = None

    def now_ms(self) -> int:
        """The game's clock: milliseconds since the terminal opened the table."""
        return int((self.keyboard.now() - self.start) * 1000)

    def next_move(self, state: Any) -> Action:
        self._show(state)
        if self.refused_at != state.version:
            self.refused.clear()
        while True:
            moment = self._first_moment(state)
            now = max(self.now_ms(), state.clock)
            timeout = None if moment is None else max(0, moment[0] - now) / 1000
            line = self.keyboard.read(timeout, prompted=self._prompted(state))
            if line is not None:
                action = self.parse(line, state)
                if action is not None:
                    return action
                continue
            if moment is None:
                continue
            at, seat, action = moment
            if seat == SYSTEM_SEAT:
                timeout_action = self.game.timeout_action(state, max(now, at))
                assert timeout_action is not None
                return timeout_action  # type: ignore[no-any-return]
            planned: Action = action.at(max(at, state.clock))
            try:
                self.game.apply(state.clone(), planned)
            except RuleError:
                # The bot misjudged the table: it sits this state out (as in sim/runner).
                self.refused.add(seat)
                self.refused_at = state.version
                continue
            return planned

    def _first_moment(self, state: Any) -> tuple[int, int, Any] | None:
        """The earliest of the bots' planned moves and the game's own deadline."""
        best: tuple[int, int, Any] | None = None
        for seat, bot in enumerate(self.bots):
            if seat == self.human or bot is None or seat in self.refused:
                continue
            plan = default_plan(bot, self.game.view(state, seat), self.rng, state.clock)
            if plan is not None:
                at = state.clock + int((plan[0] - state.clock) * self.pace)
                if best is None or at < best[0]:
                    best = (at, seat, plan[1])
        deadline = self.game.deadline(state)
        if deadline is not None and (best is None or deadline <= best[0]):
            return deadline, SYSTEM_SEAT, None
        return best

    # -- the person ----------------------------------------------------------------
    def _prompted(self, state: Any) -> bool:
        """Whether the person is being asked for something: a card, a clue, a guess, a
        vote."""
        kinds = {action.kind for action in self.game.legal_actions(state, self.human)}
        return bool(kinds & {"draw", "clue", "guess", "vote"})

    def _show(self, state: Any) -> None:
        view: TwinzView = self.game.view(state, self.human)
        key = (view.round_no, view.attempt, view.phase, view.contest)
        if key == self.shown:
            return
        self.shown = key
        human, print_ = self.human, self.console.print
        if view.phase == DRAW and human in view.duo:
            print_("[bold]Your duo's turn[/]: press Enter to take the card")
        elif view.phase == CLUES and human in view.duo:
            print_(render(view, self.names))
            print_(f"[bold]Your clue[/], one word: the {view.options['countdown_s']} s "
                   "countdown is running!")
        elif view.phase == GUESSES and human not in view.duo:
            if view.contest is not None:
                if any(action.kind == "vote" for action in view.legal):
                    print_("[bold]Vote[/]: 'vote yes' upholds the contest, 'vote no' lets "
                           "the clue stand")
            else:
                print_(render(view, self.names))
                print_(f"[bold]Your guess[/], one word ({view.options['guess_timeout_s']} s; "
                       "'contest 1' or 'contest 2' disputes a clue)")

    def parse(self, line: str, state: Any) -> Action | None:
        """The action a typed line asks for, if the rules take it now; else None, after
        saying why."""
        view: TwinzView = self.game.view(state, self.human)
        words = line.split()
        human, t = self.human, max(self.now_ms(), state.clock)
        command = words[0].lower() if words else ""
        if view.phase == DRAW:
            if human not in view.duo:
                self.console.print("  wait: the duo is taking its card")
                return None
            action = Action(human, "draw", {}, t)
        elif command == "contest" and len(words) <= 2:
            member = self._member(view, words[1]) if len(words) == 2 else None
            if member is None:
                self.console.print("  contest 1 or contest 2 (or the clue itself)")
                return None
            action = Action(human, "contest", {"member": member}, t)
        elif command == "vote" and len(words) >= 2:
            # "vote" alone is a French word, so it stays a guess.
            if len(words) > 2 or words[1].lower() not in _YES + _NO:
                self.console.print("  vote yes (the clue breaks the rules) or vote no")
                return None
            action = Action(human, "vote", {"uphold": words[1].lower() in _YES}, t)
        elif view.phase == CLUES and human in view.duo:
            action = Action(human, "clue", {"word": line.strip()}, t)
        elif view.phase == GUESSES and human not in view.duo:
            action = Action(human, "guess", {"word": line.strip()}, t)
        else:
            self.console.print("  wait for the others" if line.strip() else "")
            return None
        try:
            self.game.apply(state.clone(), action)
        except RuleError as error:
            self.console.print(f"  {error.message}")
            return None
        return action

    def _member(self, view: TwinzView, which: str) -> int | None:
        if which in ("1", "2"):
            return view.duo[int(which) - 1]
        for member, clue in zip(view.duo, view.clues or (), strict=False):
            if clue and fold(clue) == fold(which):
                return member
        return None


Terminal = TwinzTerminal
