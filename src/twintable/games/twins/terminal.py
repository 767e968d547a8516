"""Twins in the terminal: chips, the bank, the cash card, your hand, and secret picks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.prompt import IntPrompt, Prompt
from rich.table import Table
from rich.text import Text

from twintable.core.types import Action, Event
from twintable.games.twins.cards import (
    BUY_COST,
    CASH_CARDS,
    COLOURS,
    classify,
    colour_of,
    is_white,
    set_name,
    value_of,
)
from twintable.games.twins.views import TwinsView

INTRO = "Keep a poker face: pay least, win most. The most chips at the end wins."
STYLES = ("bold red", "bold dark_orange", "bold yellow", "bold green", "bold blue",
          "bold magenta")


def card_text(card: int) -> Text:
    ink = "○" if is_white(card) else "●"  # white/black ink shown by shape, not only colour
    return Text(f"{COLOURS[colour_of(card)]} {value_of(card)}{ink}",
                style=STYLES[colour_of(card)])


def set_label(first: int, second: int) -> str:
    return set_name(classify(first, second))


def cash_line(view: TwinsView) -> str:
    card = CASH_CARDS[view.players]
    return {1: f"round 1: lowest {card.lowest_r1} pay {card.pay_r1}",
            2: f"round 2: highest {card.top_r2} get {card.gain}",
            3: f"round 3: lowest {card.lowest_r3} pay {card.pay_r3} and sit out round 4",
            4: "round 4: the best set takes the whole bank"}.get(view.round_no, "buying cards")


def render(view: TwinsView, names: list[str]) -> Panel:
    table = Table(box=None, padding=(0, 2))
    for column in ("", "player", "chips", "cards", "status"):
        table.add_column(column)
    for seat in range(view.players):
        status = ("bankrupt" if view.out[seat] else "sits out" if view.sitting_out[seat]
                  else "picked ✓" if view.committed[seat] else "")
        marker = "D" if seat == view.dealer else ""
        table.add_row(marker, names[seat], str(view.chips[seat]), str(view.hand_sizes[seat]),
                      status)
    parts: list[Any] = [table, Text(f"Bank: {view.bank}   Hand {view.hand_no}, "
                                    f"{cash_line(view)}")]
    if view.played:
        shown = Text("Revealed: ")
        for round_no, seat, a, b in view.played:
            shown.append(f"R{round_no} {names[seat]}: ").append(card_text(a)).append(" ")
            shown.append(card_text(b)).append(f" ({set_label(a, b)})  ")
        parts.append(shown)
    if view.viewer is not None:
        hand = Text("Your hand: ")
        for number, card in enumerate(view.hand, start=1):
            hand.append(f"{number}:").append(card_text(card)).append("  ")
        parts.append(hand)
        parts.append(Text("○ white number, ● black number", style="dim"))
    return Panel(Group(*parts), title="Twins")


def describe_action(view: TwinsView, action: Action, names: list[str]) -> str | None:
    if action.kind == "buy":
        count = action.payload["count"]
        return f"{names[action.seat]} buys {count} card{'s' if count != 1 else ''}"
    if action.kind == "pick":
        return f"{names[action.seat]} has picked"
    return None


def describe_event(view: TwinsView, event: Event, names: list[str],
                   viewer: int | None) -> str | None:
    data = event.data
    if event.kind == "revealed":
        sets = ", ".join(f"{names[p['seat']]} {p['set']} {p['value']}" for p in data["picks"])
        return f"round {data['round']} reveal: {sets}"
    if event.kind == "paid":
        return f"{names[data['seat']]} pays {data['amount']} (bank {data['bank']})"
    if event.kind == "received":
        return f"{names[data['seat']]} receives {data['amount']} (bank {data['bank']})"
    if event.kind == "sits_out":
        return f"{names[data['seat']]} sits out round 4"
    if event.kind == "bankrupt":
        return f"{names[data['seat']]} is bankrupt and leaves the game"
    if event.kind == "bank_stays":
        return f"the bank ({data['bank']}) stays"
    if event.kind == "hand_started":
        return f"hand {data['hand']}: {names[data['dealer']]} deals"
    if event.kind == "game_over":
        winners = " and ".join(names[s] for s in data["winners"])
        return f"{winners} win{'s' if len(data['winners']) == 1 else ''} the game!"
    return None


def next_move(game: Any, state: Any, bots: Sequence[Any], human: int, names: list[str],
              rng: random.Random, console: Console) -> Action:
    """The human answers when their seat may act (picks are secret, so order is free)."""
    acting = sorted(game.to_act(state))
    if human not in acting:
        seat = acting[0]
        action = bots[seat].act(game.view(state, seat), rng)
        assert action is not None
        return action  # type: ignore[no-any-return]
    view: TwinsView = game.view(state, human)
    console.print(render(view, names))
    if view.phase == "buy":
        affordable = [str(n) for n in range(3) if BUY_COST[n] <= view.chips[human]]
        count = IntPrompt.ask("Buy how many cards (1 costs 1 chip, 2 cost 3)?",
                              choices=affordable, default=0, console=console)
        return Action(human, "buy", {"count": count})
    while True:
        answer = Prompt.ask("Pick two cards by number (e.g. 1 4)", console=console)
        numbers = answer.replace(",", " ").split()
        if len(numbers) == 2 and all(n.isdigit() for n in numbers):
            first, second = (int(n) - 1 for n in numbers)
            if first != second and 0 <= first < len(view.hand) and 0 <= second < len(view.hand):
                cards = (view.hand[first], view.hand[second])
                console.print(f"  you play {set_label(*cards)}")
                return Action(human, "pick", {"cards": cards})
        console.print("  two different card numbers from your hand, please")


class TwinsTerminal:
    """The person's seat at a Twins table: picks are secret and simultaneous, so nothing
    races the clock and the loop simply waits for typed answers."""

    def __init__(self, game: Any, bots: Sequence[Any], human: int, names: list[str],
                 rng: random.Random, console: Console, keyboard: Any = None,
                 pace: float = 1.0):
        self.game, self.bots, self.human, self.names = game, bots, human, names
        self.rng, self.console = rng, console

    def next_move(self, state: Any) -> Action:
        return next_move(self.game, state, self.bots, self.human, self.names, self.rng,
                         self.console)


Terminal = TwinsTerminal
