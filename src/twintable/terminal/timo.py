"""Timo's Twist in the terminal: what a seat sees, drawn with Rich, and plain-words logs."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console, Group
from rich.panel import Panel
from rich.prompt import IntPrompt
from rich.table import Table
from rich.text import Text

from twintable.core.types import Action, Event
from twintable.games.timo.cards import BLACK, COLOUR_NAMES, COLOUR_SYMBOLS, Deck
from twintable.games.timo.views import TimoView

INTRO = "Empty your hand first; the first to the target score wins."
STYLES = ("bold blue", "bold green", "bold dark_orange", "bold magenta", "bold white on grey23")


def card_text(deck: Deck, card: int) -> Text:
    colour = deck.colour[card]
    return Text(f"{COLOUR_SYMBOLS[colour]} {deck.label(card)}", style=STYLES[colour])


def describe_action(view: TimoView, action: Action, names: list[str]) -> str:
    deck = view.deck
    who = names[action.seat] if 0 <= action.seat < len(names) else f"seat {action.seat}"
    payload = action.payload
    if action.kind == "play":
        text = f"{who} plays {deck.label(payload['card'])}"
        if "colour" in payload:
            text += f" and names {payload['colour']}"
        return text + (" — TIMO!" if payload.get("timo") else "")
    if action.kind == "catch":
        return f"{who} catches {names[payload['target']]}"
    return {"draw": f"{who} draws", "pass": f"{who} keeps the drawn card",
            "call_timo": f"{who} calls TIMO!"}.get(action.kind, f"{who}: {action.kind}")


def describe_event(view: TimoView, event: Event, names: list[str],
                   viewer: int | None) -> str | None:
    deck, data = view.deck, event.data
    if event.kind == "drew_cards" and data["seat"] == viewer and data["cards"]:
        return "you drew " + ", ".join(deck.label(c) for c in data["cards"])
    if event.kind == "drew" and data["reason"] != "turn":
        why = {"penalty": "as a penalty", "caught": "for forgetting TIMO!"}[data["reason"]]
        return f"{names[data['seat']]} draws {data['count']} {why}"
    if event.kind == "skipped":
        return f"{names[data['seat']]} is skipped"
    if event.kind == "direction":
        return "play now goes " + ("clockwise" if data["direction"] == 1 else "anticlockwise")
    if event.kind == "reshuffled":
        return "the discards are shuffled into a new draw pile"
    if event.kind == "round_over":
        return f"{names[data['winner']]} wins the round and scores {data['points']}"
    if event.kind == "round_started":
        return f"round {data['round']}: {names[data['dealer']]} deals, " \
               f"start card {deck.label(data['start'])}"
    if event.kind == "game_over":
        return f"{names[data['winner']]} wins the game!"
    return None


def action_label(deck: Deck, action: Action) -> str:
    """How one of the seat's own choices reads in the menu."""
    payload = action.payload
    if action.kind == "play":
        text = f"play {deck.label(payload['card'])}"
        if "colour" in payload:
            text += f" → {payload['colour']}"
        return text + (" + call TIMO!" if payload.get("timo") else "")
    if action.kind == "catch":
        return f"catch seat {payload['target']} (forgot TIMO!)"
    return {"draw": "draw a card", "pass": "keep the drawn card and pass",
            "call_timo": "call TIMO!"}[action.kind]


def render(view: TimoView, names: list[str]) -> Panel:
    deck = view.deck
    table = Table(show_header=True, box=None, padding=(0, 2))
    for column in ("", "player", "cards", "score"):
        table.add_column(column)
    for seat in range(view.players):
        marker = "▶" if seat == view.turn else ("D" if seat == view.dealer else "")
        alert = " [bold red]one card, no TIMO![/]" if seat == view.exposed else ""
        table.add_row(marker, names[seat] + alert, str(view.hand_sizes[seat]),
                      str(view.scores[seat]))
    colour = view.colour
    top = Text("Discard: ").append(card_text(deck, view.top))
    if deck.colour[view.top] == BLACK:
        top.append(f"  colour in force: {COLOUR_SYMBOLS[colour]} {COLOUR_NAMES[colour]}",
                   style=STYLES[colour])
    status = Text(f"Direction: {'clockwise ↻' if view.direction == 1 else 'anticlockwise ↺'}"
                  f"   Draw pile: {view.draw_pile_size}")
    if view.penalty:
        status.append(f"   Pending penalty: +{view.penalty}", style="bold red")
    parts: list[Text | Table] = [table, top, status]
    if view.viewer is not None:
        playable = {a.payload["card"] for a in view.legal if a.kind == "play"}
        hand = Text("Your hand: ")
        for card in sorted(view.hand, key=lambda c: (deck.colour[c], deck.rank[c])):
            hand.append(card_text(deck, card))
            hand.append("* " if card in playable else "  ")
        parts.append(hand)
        parts.append(Text("(* can be played now)", style="dim"))
    return Panel(Group(*parts), title=f"Timo's Twist — round {view.round_no}")


def next_move(game: Any, state: Any, bots: Sequence[Any], human: int, names: list[str],
              rng: random.Random, console: Console) -> Action:
    """The next action at the table: a TIMO!/catch race first, then the seat on turn."""
    view: TimoView = game.view(state, human)
    if view.exposed >= 0:
        # A race: the player at one card may still call, the others may catch first.
        others = [s for s in range(view.players) if s != view.exposed]
        rng.shuffle(others)
        for seat in [view.exposed, *others]:
            if seat == human:
                reaction = [a for a in view.legal if a.kind in ("call_timo", "catch")]
                question = ("You have one card left and did not call. Call TIMO! now?"
                            if seat == view.exposed else
                            f"{names[view.exposed]} has one card and did not call TIMO! "
                            "Catch them?")
                if reaction and typer.confirm(question, default=True):
                    return reaction[0]
            else:
                bot_action = bots[seat].act(game.view(state, seat), rng)
                if bot_action is not None and bot_action.kind in ("call_timo", "catch"):
                    return bot_action  # type: ignore[no-any-return]
    if view.turn != human:
        bot_action = bots[view.turn].act(game.view(state, view.turn), rng)
        assert bot_action is not None
        return bot_action  # type: ignore[no-any-return]
    console.print(render(view, names))
    choices = [a for a in view.legal if a.kind in ("play", "draw", "pass")]
    for number, choice in enumerate(choices, start=1):
        console.print(f"  [bold]{number}[/]. {action_label(view.deck, choice)}")
    picked = IntPrompt.ask("Your move", choices=[str(i) for i in range(1, len(choices) + 1)],
                           console=console)
    return choices[picked - 1]
