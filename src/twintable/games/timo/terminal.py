"""Timo's Twist in the terminal: what a seat sees, drawn with Rich, plain-words logs, and
the person's seat on the wall clock.

TIMO! is a race (RULES.md §1): a player left with one card who did not call it can be
caught by anyone until the next player acts. Here the person types "catch" (or "timo",
when it is them) whenever they like, while bots call and catch after their level's
reaction time (``games/timo/bots.py``: :func:`timo_reaction`), take a human time over
their turn (which closes the window) and sometimes forget to call. Whoever comes first
counts.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from twintable.core.types import Action, Event
from twintable.games.timo.bots import table_move, timo_reaction, turn_delay
from twintable.games.timo.cards import BLACK, COLOUR_NAMES, COLOUR_SYMBOLS, Deck
from twintable.games.timo.state import CALL, CATCH, DRAW, NOBODY, PASS, PLAY
from twintable.games.timo.views import TimoView
from twintable.terminal.keyboard import Keyboard, StdinKeyboard

INTRO = ("Empty your hand first; the first to the target score wins. Type a move's number; "
         "add 'timo' to call TIMO! with the play that leaves you one card (\"2 timo\"). "
         "At any moment 'catch' catches a player at one card who did not call, and 'timo' "
         "calls it late: the bots race you.")
HELP = "[dim]number, 'N timo', 'timo', 'catch'[/]"
_MOVE = re.compile(r"(\d+)\s*(t|timo!?)?")
_TIMO = ("t", "timo", "timo!")
_CATCH = ("c", "catch")
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




class TimoTerminal:
    """The person's seat at a table of bots, run on the keyboard's clock.

    ``next_move(state)`` returns the next action at the table: the person's typed move,
    call or catch, or a bot's when its moment comes first. Bots' moments are drawn once
    per occasion (a turn, a TIMO! window), so waiting never re-rolls them. ``pace``
    stretches every bot time (0: bots act at once).
    """

    def __init__(self, game: Any, bots: Sequence[Any], human: int, names: list[str],
                 rng: random.Random, console: Console, keyboard: Keyboard | None = None,
                 pace: float = 1.0):
        self.game, self.bots, self.human, self.names = game, bots, human, names
        self.rng, self.console, self.pace = rng, console, pace
        self.keyboard: Keyboard = keyboard if keyboard is not None else StdinKeyboard()
        self.window: tuple[int, int, int] | None = None
        self.reactions: dict[int, tuple[float, Action]] = {}
        self.turn_key: tuple[int, int, int] | None = None
        self.turn_due = 0.0
        self.shown = -1

    def next_move(self, state: Any) -> Action:
        view: TimoView = self.game.view(state, self.human)
        self._plan(state)
        self._show(state, view)
        while True:
            moment = self._first_moment(state)
            timeout = None if moment is None else moment[0] - self.keyboard.now()
            line = self.keyboard.read(timeout, prompted=view.turn == self.human)
            if line is None:
                if moment is not None:
                    return self._bot_move(state, moment[1], moment[2])
                continue
            action = self.parse(line, view)
            if action is not None:
                return action

    # -- the bots' moments ---------------------------------------------------------
    def _later(self, ms: int) -> float:
        return self.keyboard.now() + ms / 1000 * self.pace

    def _plan(self, state: Any) -> None:
        window = ((state.round_no, state.turn_count, state.exposed)
                  if state.exposed != NOBODY else None)
        if window != self.window:
            self.window, self.reactions = window, {}
            if window is not None:
                for seat, bot in enumerate(self.bots):
                    if seat == self.human or bot is None:
                        continue
                    reaction = timo_reaction(bot, self.game.view(state, seat), self.rng)
                    if reaction is not None:
                        self.reactions[seat] = (self._later(reaction[0]), reaction[1])
        turn = (state.round_no, state.turn_count, state.turn)
        if state.turn != self.human and turn != self.turn_key:
            self.turn_key = turn
            self.turn_due = self._later(turn_delay(self.bots[state.turn], self.rng))

    def _first_moment(self, state: Any) -> tuple[float, int, Action | None] | None:
        moments: list[tuple[float, int, Action | None]] = [
            (due, seat, action) for seat, (due, action) in self.reactions.items()]
        if state.turn != self.human:
            moments.append((self.turn_due, state.turn, None))
        return min(moments, key=lambda m: (m[0], m[1])) if moments else None

    def _bot_move(self, state: Any, seat: int, reaction: Action | None) -> Action:
        if reaction is not None:
            del self.reactions[seat]
            return reaction
        return table_move(self.bots[seat], self.game.view(state, seat), self.rng)

    # -- the person ----------------------------------------------------------------
    def _show(self, state: Any, view: TimoView) -> None:
        if state.version == self.shown:
            return
        self.shown = state.version
        if view.exposed != NOBODY:
            self.console.print(f"  [bold red]{self.names[view.exposed]} has one card and "
                               "has not called TIMO![/]")
        if view.turn == self.human:
            self.console.print(render(view, self.names))
            for number, choice in enumerate(choices(view), start=1):
                self.console.print(f"  [bold]{number}[/]. {action_label(view.deck, choice)}")
            self.console.print(f"[bold]Your move[/] {HELP}")

    def parse(self, line: str, view: TimoView) -> Action | None:
        """The action a typed line asks for, or None (after saying why) if it asks for
        nothing possible now."""
        text = line.strip().lower()
        if not text:
            return None
        if text in _CATCH:
            catch = next((a for a in view.legal if a.kind == CATCH), None)
            if catch is None:
                self.console.print("  nobody to catch now")
            return catch
        if text in _TIMO:
            call = next((a for a in view.legal if a.kind == CALL), None)
            if call is None:
                self.console.print("  no TIMO! to call: it goes with the play that leaves "
                                   "you one card, or straight after it")
            return call
        move = _MOVE.fullmatch(text)
        if move is None:
            self.console.print(f"  type a move's number, 'timo' or 'catch', not {line!r}")
            return None
        if view.turn != self.human:
            self.console.print("  not your turn yet")
            return None
        menu = choices(view)
        number = int(move[1])
        if not 1 <= number <= len(menu):
            self.console.print(f"  choose a move from 1 to {len(menu)}")
            return None
        choice = menu[number - 1]
        if move[2] is None:
            return choice
        calling = next((a for a in view.legal if a.kind == PLAY and a.payload.get("timo")
                        and a.payload["card"] == choice.payload.get("card")
                        and a.payload.get("colour") == choice.payload.get("colour")), None)
        if calling is None:
            self.console.print("  TIMO! is called with the play that leaves you one card")
        return calling


def choices(view: TimoView) -> list[Action]:
    """The person's menu on their turn: each play once (TIMO! is typed beside it), draw,
    pass."""
    return [a for a in view.legal
            if a.kind in (PLAY, DRAW, PASS) and not a.payload.get("timo")]


Terminal = TimoTerminal
