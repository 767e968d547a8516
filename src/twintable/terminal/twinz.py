"""Twinz in the terminal: the person types clues when in the duo and guesses otherwise.

Time is real here: the countdown runs while you type, so a clue typed too slowly is late
(or missing), as at a table. Bots answer at once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table

from twintable.core.errors import RuleError
from twintable.core.types import SYSTEM_SEAT, Action, Event
from twintable.games.twinz.views import TwinzView

INTRO = ("Get the others to find your mystery word with one clue word, given at the same "
         "time as your partner's; guess the others' words. Most points wins.")
_START = time.monotonic()


def now_ms() -> int:
    return int((time.monotonic() - _START) * 1000)


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
    if action.kind == "guess":
        return f"{names[action.seat]} guesses {action.payload['word']!r}"
    if action.kind == "contest":
        return f"{names[action.seat]} contests a clue"
    return None


def describe_event(view: TwinzView, event: Event, names: list[str],
                   viewer: int | None) -> str | None:
    data = event.data
    if event.kind == "round_started":
        first, second = data["duo"]
        return f"round {data['round']}: {names[first]} and {names[second]} give clues"
    if event.kind == "clues_revealed":
        shown = [f"{names[int(s)]}: {(w or '(nothing)').upper()}"
                 for s, w in data["clues"].items()]
        penalties = [f"{names[int(s)]} {', '.join(p)}" for s, p in data["penalties"].items() if p]
        return "clues: " + "; ".join(shown) + (f" (penalties: {'; '.join(penalties)})"
                                                if penalties else "")
    if event.kind == "attempt_failed":
        return "nobody found it: a second attempt with new clues"
    if event.kind == "round_over":
        winners = ", ".join(names[s] for s in data["winners"]) or "nobody"
        return f"the word was {data['word'].upper()} ({data['reason']}); won by {winners}"
    if event.kind == "game_over":
        return "game over"
    return None


def next_move(game: Any, state: Any, bots: Sequence[Any], human: int, names: list[str],
              rng: random.Random, console: Console) -> Action:
    """The next action: a due timer, a bot's move, or the person's typed word."""
    now = max(now_ms(), state.clock)
    deadline = game.deadline(state)
    if deadline is not None and (now >= deadline or state.tie_due is not None):
        return Action(SYSTEM_SEAT, "tick", {}, max(now, deadline))
    acting = sorted(game.to_act(state))
    for seat in [s for s in acting if s != human]:
        action = bots[seat].act(game.view(state, seat), rng)
        if action is not None:
            return action.at(now)  # type: ignore[no-any-return]
    if human not in acting:
        assert deadline is not None, "nobody can act and no timer is running"
        time.sleep(max(0, deadline - now) / 1000)
        return Action(SYSTEM_SEAT, "tick", {}, deadline)
    view: TwinzView = game.view(state, human)
    kinds = {action.kind for action in view.legal}
    if "draw" in kinds:
        Prompt.ask("Your duo's turn: press Enter to draw the card", default="",
                   console=console)
        return Action(human, "draw", {}, max(now_ms(), state.clock))
    console.print(render(view, names))
    kind = "clue" if "clue" in kinds else "guess"
    prompt = ("Your clue, one word (the countdown is running!)" if kind == "clue"
              else "Your guess, one word")
    while True:
        word = Prompt.ask(prompt, console=console)
        action = Action(human, kind, {"word": word}, max(now_ms(), state.clock))
        try:
            game.apply(state.clone(), action)
        except RuleError as error:
            if error.code.endswith((".empty", ".not_one_word", ".too_long")):
                console.print(f"  {error.message}")
                continue
            console.print(f"  too late: {error.message}")
            return Action(SYSTEM_SEAT, "tick", {}, max(now_ms(), game.deadline(state) or 0))
        return action
