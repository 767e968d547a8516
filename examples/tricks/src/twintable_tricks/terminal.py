"""Twin Tricks in the terminal (``twintable play tricks``, ``twintable replay``): the
table, your hand numbered, and a prompt for the card to play.

Every sentence comes from the game's catalogue (``web/i18n/<lang>.json``, the browser's:
the log's lines are the same ``event.tricks.*`` keys), in the language the environment
asks for (``twintable.terminal.catalogue``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.prompt import IntPrompt
from rich.table import Table
from rich.text import Text
from twintable.core.table_engine import TableEngine, TableStuck, TakeTurns
from twintable.core.types import Action, Event
from twintable.terminal.catalogue import Catalogue

from twintable_tricks.cards import SUIT_SYMBOLS, SUITS, rank_of, suit_of
from twintable_tricks.rules import PLAY
from twintable_tricks.views import TricksView

STYLES = ("bold blue", "bold yellow", "bold red", "bold cyan")


def words() -> Catalogue:
    """The game's sentences and the shell's, in the language the environment asks for."""
    return Catalogue("twintable_tricks")


def __getattr__(name: str) -> str:
    # INTRO is read when the game starts, in the language the environment asks for then.
    if name == "INTRO":
        return words().say("tricks.terminal.intro")
    raise AttributeError(name)


def card_text(card: int, say: Catalogue | None = None) -> Text:
    suit = suit_of(card)
    name = (say or words()).say(f"tricks.suit.{SUITS[suit]}")
    # The suit's symbol as well as its colour: never told by colour alone.
    return Text(f"{rank_of(card)}{SUIT_SYMBOLS[suit]} {name}", style=STYLES[suit])


def render(view: TricksView, names: list[str]) -> Panel:
    say = words()
    table = Table(box=None, padding=(0, 2))
    for column in ("", "tricks.player", "tricks.points", "tricks.tricks",
                   "tricks.terminal.cards"):
        table.add_column(say.say(column) if column else "")
    for seat in range(view.players):
        marker = "D" if seat == view.dealer else ""
        marker += "*" if seat == view.turn and not view.over else ""
        table.add_row(marker, names[seat], str(view.scores[seat]),
                      str(view.tricks_won[seat]), str(view.hand_sizes[seat]))
    parts: list[Any] = [table, Text(f"{say.say('tricks.hand_no', n=view.hand_no)}, "
                                    f"{say.say('tricks.target', n=view.options['target'])}")]
    trick = Text(say.say("tricks.terminal.on_table"))
    for seat, card in view.trick:
        trick.append(f"{names[seat]} ").append(card_text(card, say)).append("  ")
    parts.append(trick if view.trick else Text(say.say("tricks.no_trick"), style="dim"))
    if view.viewer is not None and view.hand:
        hand = Text(say.say("tricks.terminal.your_hand"))
        for number, card in enumerate(view.hand, start=1):
            hand.append(f"{number}:").append(card_text(card, say)).append("  ")
        parts.append(hand)
    return Panel(Group(*parts), title=say.say("game.tricks"))


def describe_action(view: TricksView, action: Action, names: list[str]) -> str | None:
    # The "played" event names the card: one line per move is enough.
    return None


def describe_event(view: TricksView, event: Event, names: list[str],
                   viewer: int | None) -> str | None:
    say, data = words(), event.data
    if event.kind == "played":
        return say.say("event.tricks.played", name=names[data["seat"]],
                       card=card_text(data["card"], say).plain)
    if event.kind == "trick_won":
        return say.say("event.tricks.trick_won", name=names[data["seat"]])
    if event.kind == "hand_started":
        return say.say("event.tricks.hand_started", hand=data["hand"],
                       name=names[data["dealer"]], leader=names[data["leader"]])
    if event.kind == "hand_over":
        points = ", ".join(f"{names[seat]} +{gained}" for seat, gained in
                           enumerate(data["points"]))
        return say.say("event.tricks.hand_over", hand=data["hand"],
                       name=names[data["last_trick"]]) + f" ({points})"
    if event.kind == "game_over":
        won = [names[seat] for seat in data["winners"]]
        return say.say("event.won", names=say.list_of(won), n=len(won))
    return None


class Person:
    """The person's seat, to the table engine: it never moves by itself (when the engine
    waits, the terminal asks the person)."""

    name = "person"

    def act(self, view: TricksView, rng: random.Random) -> Action | None:
        return None


class TricksTerminal:
    """The person's seat: the table engine plays the bots in turn (its
    :class:`~twintable.core.table_engine.TakeTurns`), and when it waits, the person types
    a card's number."""

    def __init__(self, game: Any, bots: Sequence[Any], human: int, names: list[str],
                 rng: random.Random, console: Console, keyboard: Any = None,
                 pace: float = 1.0):
        self.game, self.bots, self.human, self.names = game, bots, human, names
        self.rng, self.console = rng, console
        seated = [Person() if seat == human else bot for seat, bot in enumerate(bots)]
        self.players = TakeTurns(game, seated, rng, shuffle=False)

    def next_move(self, state: Any) -> Action:
        step = TableEngine(self.game, state, self.players).next()
        if step is not None:
            assert step.action is not None
            return step.action
        (seat,) = self.game.to_act(state)
        if seat != self.human:
            raise TableStuck(f"{self.game.id}: the bot in seat {seat} made no move")
        view: TricksView = self.game.view(state, seat)
        self.console.print(render(view, self.names))
        legal = {action.payload["card"] for action in view.legal}
        say = words()
        while True:
            number = IntPrompt.ask(say.say("tricks.terminal.prompt"), console=self.console)
            if 1 <= number <= len(view.hand) and view.hand[number - 1] in legal:
                return Action(seat, PLAY, {"card": view.hand[number - 1]})
            self.console.print("  " + say.say("tricks.terminal.bad_card"))


Terminal = TricksTerminal
