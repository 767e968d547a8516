"""Twins in the terminal: chips, the bank, the cash card, your hand, and secret picks.

Every sentence is the game's catalogue's (``web/i18n/<lang>.json``, the browser's: the
log's lines are the same keys), in the language the environment asks for
(:mod:`twintable.terminal.catalogue`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence, Set
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.prompt import IntPrompt, Prompt
from rich.table import Table
from rich.text import Text

from twintable.core.schedule import Plan
from twintable.core.table_engine import TableEngine, TableStuck, TakeTurns
from twintable.core.teams import seat_teams
from twintable.core.types import Action, Event
from twintable.games.twins.cards import (
    BUY_COST,
    CASH_CARDS,
    CATEGORY_NAMES,
    COLOURS,
    classify,
    colour_of,
    is_white,
    value_of,
)
from twintable.games.twins.views import TwinsView
from twintable.terminal.catalogue import Catalogue

STYLES = ("bold red", "bold dark_orange", "bold yellow", "bold green", "bold blue",
          "bold magenta")


def words() -> Catalogue:
    """Twins' sentences and the shell's, in the language the environment asks for now."""
    return Catalogue("twintable.games.twins")


def __getattr__(name: str) -> str:
    # INTRO is read when the game starts, in the language the environment asks for then.
    if name == "INTRO":
        return words().say("twins.terminal.intro")
    raise AttributeError(name)


def card_text(card: int, say: Catalogue | None = None) -> Text:
    say = say or words()
    ink = "○" if is_white(card) else "●"  # white/black ink shown by shape, not only colour
    colour = say.say(f"colour.{COLOURS[colour_of(card)]}")
    return Text(f"{colour} {value_of(card)}{ink}", style=STYLES[colour_of(card)])


def set_words(say: Catalogue, category: str, value: int) -> str:
    return f"{say.say(f'twins.set.{category}')} {value}"


def set_label(first: int, second: int, say: Catalogue | None = None) -> str:
    category, value = classify(first, second)
    return set_words(say or words(), CATEGORY_NAMES[category], value)


def cash_line(view: TwinsView, say: Catalogue) -> str:
    """The cash card's rule for the round under way (the browser's lines)."""
    card = CASH_CARDS[view.players]
    if view.round_no == 1:
        return say.say("twins.cash.round1", n=card.lowest_r1, pay=card.pay_r1)
    if view.round_no == 2:
        return say.say("twins.cash.round2", n=card.top_r2, gain=card.gain)
    if view.round_no == 3:
        return say.say("twins.cash.round3", n=card.lowest_r3, pay=card.pay_r3)
    if view.round_no == 4:
        return say.say("twins.cash.round4")
    return say.say("twins.buy_phase")


def render(view: TwinsView, names: list[str]) -> Panel:
    say = words()
    table = Table(box=None, padding=(0, 2))
    teams = seat_teams(view.options.get("teams", ()), view.players)
    for column in ("", "player", "chips", "cards", "status"):
        table.add_column(say.say(f"twins.terminal.col.{column}") if column else "")
    for seat in range(view.players):
        status = (say.say("twins.out") if view.out[seat]
                  else say.say("twins.sitting_out") if view.sitting_out[seat]
                  else say.say("twins.committed") + " ✓" if view.committed[seat] else "")
        marker = "D" if seat == view.dealer else ""
        team = ("" if teams is None
                else f" ({say.say('table.team_n', n=teams[seat] + 1)})")
        table.add_row(marker, names[seat] + team, str(view.chips[seat]),
                      str(view.hand_sizes[seat]), status)
    parts: list[Any] = [table, Text(f"{say.say('twins.bank', n=view.bank)}   "
                                    f"{say.say('twins.hand_no', n=view.hand_no)}, "
                                    f"{cash_line(view, say)}")]
    if view.played:
        shown = Text(say.say("twins.terminal.revealed"))
        for round_no, seat, a, b in view.played:
            shown.append(say.say("twins.round_of", round=round_no, name=names[seat]) + " ")
            shown.append(card_text(a, say)).append(" ")
            shown.append(card_text(b, say)).append(f" ({set_label(a, b, say)})  ")
        parts.append(shown)
    if view.viewer is not None:
        hand = Text(say.say("twins.terminal.your_hand"))
        for number, card in enumerate(view.hand, start=1):
            hand.append(f"{number}:").append(card_text(card, say)).append("  ")
        parts.append(hand)
        parts.append(Text(say.say("twins.terminal.ink"), style="dim"))
    return Panel(Group(*parts), title=say.say("game.twins"))


def describe_action(view: TwinsView, action: Action, names: list[str]) -> str | None:
    say = words()
    if action.kind == "buy":
        count = action.payload["count"]
        return (say.say("twins.terminal.buys", name=names[action.seat], n=count) if count
                else say.say("event.twins.bought_none", name=names[action.seat]))
    if action.kind == "pick":
        return say.say("event.twins.committed", name=names[action.seat])
    return None


def describe_event(view: TwinsView, event: Event, names: list[str],
                   viewer: int | None) -> str | None:
    """The browser's log line for the event (``event.twins.*``), in plain text."""
    say, data = words(), event.data

    def chips(n: int) -> str:
        return say.say("twins.chips_n", n=n)
    if event.kind == "revealed":
        picks = ", ".join(say.say("event.twins.shown", name=names[p["seat"]],
                                  set=say.say(f"twins.set.{p['set']}"), value=p["value"])
                          for p in data["picks"])
        return say.say("event.twins.revealed", round=data["round"], picks=picks)
    if event.kind in ("paid", "received"):
        return (say.say(f"event.twins.{event.kind}", name=names[data["seat"]],
                        chips=chips(data["amount"]))
                + " " + say.say("twins.terminal.bank_now", n=data["bank"]))
    if event.kind in ("sits_out", "bankrupt"):
        return say.say(f"event.twins.{event.kind}", name=names[data["seat"]])
    if event.kind == "bank_stays":
        return say.say("event.twins.bank_stays", chips=chips(data["bank"]))
    if event.kind == "hand_started":
        return say.say("event.twins.hand_started", hand=data["hand"],
                       name=names[data["dealer"]])
    if event.kind == "game_over":
        won = [names[seat] for seat in data["winners"]]
        return say.say("event.won", names=say.list_of(won), n=len(won))
    return None


class PersonFirst:
    """The table engine's players at the person's table
    (:class:`~twintable.core.table_engine.Players`): while the person's seat may act
    nobody plans (picks are secret, so order is free: the table waits for the person);
    otherwise the bots to act, asked in seat order (:class:`TakeTurns`, no draw), and the
    first that acts moves."""

    def __init__(self, game: Any, bots: Sequence[Any], human: int, rng: random.Random):
        self.human, self.to_act = human, game.to_act
        self.turns = TakeTurns(game, bots, rng, shuffle=False)

    def plans(self, state: Any, now_ms: int, step: int,
              refused: Set[int]) -> Iterator[Plan]:
        if self.human in self.to_act(state):
            return iter(())
        return self.turns.plans(state, now_ms, step, refused)


def next_move(game: Any, state: Any, bots: Sequence[Any], human: int, names: list[str],
              rng: random.Random, console: Console) -> Action:
    """The table engine's next step (:class:`PersonFirst`), or when the engine waits for
    the person, their typed answer."""
    step = TableEngine(game, state, PersonFirst(game, bots, human, rng)).next()
    if step is not None:
        assert step.action is not None
        return step.action
    if human not in game.to_act(state):
        raise TableStuck(f"{game.id}: no bot acted and the person may not act")
    view: TwinsView = game.view(state, human)
    console.print(render(view, names))
    say = words()
    if view.phase == "buy":
        affordable = [str(n) for n in range(3) if BUY_COST[n] <= view.chips[human]]
        count = IntPrompt.ask(say.say("twins.terminal.buy_prompt"),
                              choices=affordable, default=0, console=console)
        return Action(human, "buy", {"count": count})
    while True:
        answer = Prompt.ask(say.say("twins.terminal.pick_prompt"), console=console)
        numbers = answer.replace(",", " ").split()
        if len(numbers) == 2 and all(n.isdigit() for n in numbers):
            first, second = (int(n) - 1 for n in numbers)
            if first != second and 0 <= first < len(view.hand) and 0 <= second < len(view.hand):
                cards = (view.hand[first], view.hand[second])
                console.print("  " + say.say("twins.terminal.you_play",
                                             set=set_label(*cards, say=say)))
                return Action(human, "pick", {"cards": cards})
        console.print("  " + say.say("twins.terminal.bad_pick"))


class TwinsTerminal:
    """The person's seat at a Twins table: picks are secret and simultaneous, so nothing
    races the clock: the table engine moves the bots, and waits for typed answers."""

    def __init__(self, game: Any, bots: Sequence[Any], human: int, names: list[str],
                 rng: random.Random, console: Console, keyboard: Any = None,
                 pace: float = 1.0):
        self.game, self.bots, self.human, self.names = game, bots, human, names
        self.rng, self.console = rng, console

    def next_move(self, state: Any) -> Action:
        return next_move(self.game, state, self.bots, self.human, self.names, self.rng,
                         self.console)


Terminal = TwinsTerminal
