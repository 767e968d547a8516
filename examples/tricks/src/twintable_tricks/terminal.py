"""Twin Tricks in the terminal (``twintable play tricks``, ``twintable replay``): the
table, your hand numbered, and a prompt for the card to play."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.prompt import IntPrompt
from rich.table import Table
from rich.text import Text
from twintable.core.types import Action, Event

from twintable_tricks.cards import SUIT_SYMBOLS, SUITS, rank_of, suit_of
from twintable_tricks.rules import PLAY
from twintable_tricks.views import TricksView

INTRO = "Follow suit; the highest card of the suit led takes the trick. The last trick " \
        "of a hand scores double."
STYLES = ("bold blue", "bold yellow", "bold red", "bold cyan")


def card_text(card: int) -> Text:
    suit = suit_of(card)
    # The suit's symbol as well as its colour: never told by colour alone.
    return Text(f"{rank_of(card)}{SUIT_SYMBOLS[suit]} {SUITS[suit]}", style=STYLES[suit])


def render(view: TricksView, names: list[str]) -> Panel:
    table = Table(box=None, padding=(0, 2))
    for column in ("", "player", "points", "tricks", "cards"):
        table.add_column(column)
    for seat in range(view.players):
        marker = "D" if seat == view.dealer else ""
        marker += "*" if seat == view.turn and not view.over else ""
        table.add_row(marker, names[seat], str(view.scores[seat]),
                      str(view.tricks_won[seat]), str(view.hand_sizes[seat]))
    parts: list[Any] = [table, Text(f"Hand {view.hand_no}, first to "
                                    f"{view.options['target']} points")]
    trick = Text("On the table: ")
    for seat, card in view.trick:
        trick.append(f"{names[seat]} ").append(card_text(card)).append("  ")
    parts.append(trick if view.trick else Text("On the table: nothing yet", style="dim"))
    if view.viewer is not None and view.hand:
        hand = Text("Your hand: ")
        for number, card in enumerate(view.hand, start=1):
            hand.append(f"{number}:").append(card_text(card)).append("  ")
        parts.append(hand)
    return Panel(Group(*parts), title="Twin Tricks")


def describe_action(view: TricksView, action: Action, names: list[str]) -> str | None:
    # The "played" event names the card: one line per move is enough.
    return None


def describe_event(view: TricksView, event: Event, names: list[str],
                   viewer: int | None) -> str | None:
    data = event.data
    if event.kind == "played":
        return f"{names[data['seat']]} plays {card_text(data['card']).plain}"
    if event.kind == "trick_won":
        return f"{names[data['seat']]} takes the trick"
    if event.kind == "hand_started":
        return (f"hand {data['hand']}: {names[data['dealer']]} deals, "
                f"{names[data['leader']]} leads")
    if event.kind == "hand_over":
        points = ", ".join(f"{names[seat]} +{gained}" for seat, gained in
                           enumerate(data["points"]))
        return f"hand {data['hand']} over ({points}); last trick: {names[data['last_trick']]}"
    if event.kind == "game_over":
        winners = " and ".join(names[seat] for seat in data["winners"])
        return f"{winners} win{'s' if len(data['winners']) == 1 else ''} the game!"
    return None


class TricksTerminal:
    """The person's seat: the bots play in turn, the person types a card's number."""

    def __init__(self, game: Any, bots: Sequence[Any], human: int, names: list[str],
                 rng: random.Random, console: Console, keyboard: Any = None,
                 pace: float = 1.0):
        self.game, self.bots, self.human, self.names = game, bots, human, names
        self.rng, self.console = rng, console

    def next_move(self, state: Any) -> Action:
        (seat,) = self.game.to_act(state)
        view: TricksView = self.game.view(state, seat)
        if seat != self.human:
            action = self.bots[seat].act(view, self.rng)
            assert action is not None
            return action  # type: ignore[no-any-return]
        self.console.print(render(view, self.names))
        legal = {action.payload["card"] for action in view.legal}
        while True:
            number = IntPrompt.ask("Play which card (its number)?", console=self.console)
            if 1 <= number <= len(view.hand) and view.hand[number - 1] in legal:
                return Action(seat, PLAY, {"card": view.hand[number - 1]})
            self.console.print("  a card from your hand that follows suit, please")


Terminal = TricksTerminal
