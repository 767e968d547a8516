"""Timo's Twist in the terminal: what a seat sees, drawn with Rich, and plain-words logs."""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from twintable.core.types import Action, Event
from twintable.games.timo.cards import BLACK, COLOUR_NAMES, COLOUR_SYMBOLS, Deck
from twintable.games.timo.views import TimoView

STYLES = ("bold blue", "bold green", "bold dark_orange", "bold magenta", "bold white on grey23")


def card_text(deck: Deck, card: int) -> Text:
    colour = deck.colour[card]
    return Text(f"{COLOUR_SYMBOLS[colour]} {deck.label(card)}", style=STYLES[colour])


def describe_action(deck: Deck, action: Action, names: list[str]) -> str:
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


def describe_event(deck: Deck, event: Event, names: list[str]) -> str | None:
    data = event.data
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
