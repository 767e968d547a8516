"""Timo's Twist in the terminal: what a seat sees, drawn with Rich, plain-words logs, and
the person's seat on the wall clock.

TIMO! is a race (RULES.md §1): a player left with one card who did not call it can be
caught by anyone until the next player acts. Here the person types "catch" (or "timo",
when it is them) whenever they like, while bots call and catch after their level's
reaction time (``games/timo/bots.py``: :func:`timo_reaction`), take a human time over
their turn (which closes the window) and sometimes forget to call. Whoever comes first
counts.

Every sentence is the game's catalogue's (``web/i18n/<lang>.json``, the browser's: the
log's lines are the same keys), in the language the environment asks for
(:mod:`twintable.terminal.catalogue`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence, Set
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from twintable.core.schedule import EventKind, Plan
from twintable.core.table_engine import Step, next_step
from twintable.core.teams import seat_teams
from twintable.core.types import Action, Event
from twintable.games.timo.bots import table_move, timo_reaction, turn_delay
from twintable.games.timo.cards import BLACK, COLOUR_NAMES, COLOUR_SYMBOLS, RANKS, Deck
from twintable.games.timo.state import CALL, CATCH, DRAW, NOBODY, PASS, PLAY
from twintable.games.timo.views import TimoView
from twintable.terminal.catalogue import Catalogue
from twintable.terminal.keyboard import Keyboard, StdinKeyboard

_MOVE = re.compile(r"(\d+)\s*(t|timo!?)?")
_TIMO = ("t", "timo", "timo!")
_CATCH = ("c", "catch")
STYLES = ("bold blue", "bold green", "bold dark_orange", "bold magenta", "bold white on grey23")


def words() -> Catalogue:
    """Timo's sentences and the shell's, in the language the environment asks for now."""
    return Catalogue("twintable.games.timo")


def __getattr__(name: str) -> str:
    # INTRO is read when the game starts, in the language the environment asks for then.
    if name == "INTRO":
        return words().say("timo.terminal.intro")
    raise AttributeError(name)


def colour_name(say: Catalogue, colour: int | str) -> str:
    name = COLOUR_NAMES[colour] if isinstance(colour, int) else colour
    return say.say(f"colour.{name}")


def card_name(say: Catalogue, deck: Deck, card: int) -> str:
    """A card in words, as the browser's log names it (``event.timo.card``)."""
    rank = RANKS[deck.rank[card]]
    rank_key = f"timo.rank.{rank}"
    if deck.colour[card] == BLACK:
        return say.say(rank_key) if say.has(rank_key) else rank
    return say.say("event.timo.card", colour=colour_name(say, deck.colour[card]),
                   rank=say.say(rank_key) if say.has(rank_key) else rank)


def card_text(deck: Deck, card: int, say: Catalogue | None = None) -> Text:
    colour = deck.colour[card]
    return Text(f"{COLOUR_SYMBOLS[colour]} {card_name(say or words(), deck, card)}",
                style=STYLES[colour])


def describe_action(view: TimoView, action: Action, names: list[str]) -> str:
    say, deck = words(), view.deck
    who = names[action.seat] if 0 <= action.seat < len(names) else str(action.seat)
    payload = action.payload
    if action.kind == "play":
        card = card_name(say, deck, payload["card"])
        text = (say.say("event.timo.played_black", name=who, card=card,
                        colour=colour_name(say, payload["colour"])) if "colour" in payload
                else say.say("event.timo.played", name=who, card=card))
        return text + (" — TIMO!" if payload.get("timo") else "")
    if action.kind == "catch":
        return say.say("timo.terminal.catches", name=who, victim=names[payload["target"]])
    key = {"draw": "timo.terminal.draws", "pass": "event.timo.passed",
           "call_timo": "event.timo.timo_called"}.get(action.kind)
    return say.say(key, name=who) if key else f"{who}: {action.kind}"


def describe_event(view: TimoView, event: Event, names: list[str],
                   viewer: int | None) -> str | None:
    say, deck, data = words(), view.deck, event.data
    if event.kind == "drew_cards" and data["seat"] == viewer and data["cards"]:
        return say.say("timo.terminal.you_drew",
                       cards=", ".join(card_name(say, deck, c) for c in data["cards"]))
    if event.kind == "drew" and data["reason"] != "turn":
        key = "event.timo.drew_penalty" if data["reason"] == "penalty" else "event.timo.drew"
        return say.say(key, name=names[data["seat"]], n=data["count"])
    if event.kind == "skipped":
        return say.say("event.timo.skipped", name=names[data["seat"]])
    if event.kind == "direction":
        return say.say("event.timo.direction")
    if event.kind == "reshuffled":
        return say.say("event.timo.reshuffled")
    if event.kind == "round_over":
        key = "event.timo.round_over_team" if "winners" in data else "event.timo.round_over"
        return say.say(key, name=names[data["winner"]], n=data["points"])
    if event.kind == "round_started":
        return (say.say("event.timo.round_started", round=data["round"],
                        name=names[data["dealer"]]) + " "
                + say.say("timo.terminal.start_card", card=card_name(say, deck, data["start"])))
    if event.kind == "game_over":
        # With teams the whole winning team is named.
        won = [names[seat] for seat in data.get("winners", [data["winner"]])]
        return say.say("event.won", names=say.list_of(won), n=len(won))
    return None


def action_label(deck: Deck, action: Action, say: Catalogue | None = None) -> str:
    """How one of the seat's own choices reads in the menu."""
    say = say or words()
    payload = action.payload
    if action.kind == "play":
        text = say.say("timo.terminal.menu.play", card=card_name(say, deck, payload["card"]))
        if "colour" in payload:
            text = say.say("timo.terminal.menu.colour", play=text,
                           colour=colour_name(say, payload["colour"]))
        return say.say("timo.terminal.menu.timo", play=text) if payload.get("timo") else text
    if action.kind == "catch":
        return say.say("timo.terminal.menu.catch", seat=payload["target"])
    return say.say({"draw": "timo.terminal.menu.draw", "pass": "timo.terminal.menu.pass",
                    "call_timo": "timo.terminal.menu.call"}[action.kind])


def render(view: TimoView, names: list[str]) -> Panel:
    say, deck = words(), view.deck
    table = Table(show_header=True, box=None, padding=(0, 2))
    teams = seat_teams(view.options.get("teams", ()), view.players)
    for column in ("", "player", "cards", "score"):
        table.add_column(say.say(f"timo.terminal.col.{column}") if column else "")
    for seat in range(view.players):
        marker = "▶" if seat == view.turn else ("D" if seat == view.dealer else "")
        alert = (f" [bold red]{say.say('timo.terminal.no_timo')}[/]"
                 if seat == view.exposed else "")
        team = ("" if teams is None
                else f" ({say.say('table.team_n', n=teams[seat] + 1)})")
        table.add_row(marker, names[seat] + team + alert, str(view.hand_sizes[seat]),
                      str(view.scores[seat]))
    colour = view.colour
    top = Text(say.say("timo.terminal.discard")).append(card_text(deck, view.top, say))
    if deck.colour[view.top] == BLACK:
        top.append("  " + say.say("timo.terminal.colour_in_force",
                                  colour=f"{COLOUR_SYMBOLS[colour]} {colour_name(say, colour)}"),
                   style=STYLES[colour])
    direction = (say.say("timo.clockwise") + " ↻" if view.direction == 1
                 else say.say("timo.anticlockwise") + " ↺")
    status = Text(direction + "   "
                  + say.say("timo.terminal.draw_pile", n=view.draw_pile_size))
    if view.penalty:
        status.append("   " + say.say("timo.terminal.pending", n=view.penalty), style="bold red")
    parts: list[Text | Table] = [table, top, status]
    if view.viewer is not None:
        playable = {a.payload["card"] for a in view.legal if a.kind == "play"}
        hand = Text(say.say("timo.terminal.your_hand"))
        for card in sorted(view.hand, key=lambda c: (deck.colour[c], deck.rank[c])):
            hand.append(card_text(deck, card, say))
            hand.append("* " if card in playable else "  ")
        parts.append(hand)
        parts.append(Text(say.say("timo.terminal.playable"), style="dim"))
    return Panel(Group(*parts), title=say.say("timo.terminal.title", n=view.round_no))




class TerminalBots:
    """The bots of the terminal's table, as the table engine's players
    (:class:`~twintable.core.table_engine.Players`), timed in ms of the keyboard's clock.

    Each bot's moment is drawn once per occasion and kept while the person types, so
    waiting never re-rolls it: a TIMO! call or catch when a window opens (every bot but
    the person's seat, :func:`timo_reaction`), and on a bot's turn its thinking time
    (:func:`turn_delay`). The turn's move itself is chosen only when that time has come
    (:func:`table_move`, on the table as it is then); until then the turn is a wake
    (:meth:`wake_ms`). Plans are offered in seat order, so of two reactions due at the
    same ms the lower seat's acts; a reaction due at the very ms the bot on turn is done
    thinking acts first (the engine plays a plan before a wake).
    ``pace`` stretches every bot time (0: bots act at once).
    """

    def __init__(self, game: Any, bots: Sequence[Any], human: int, rng: random.Random,
                 pace: float = 1.0):
        self.game, self.bots, self.human, self.rng, self.pace = game, bots, human, rng, pace
        self.window: tuple[int, int, int] | None = None
        self.reactions: dict[int, tuple[int, Action]] = {}
        self.turn_key: tuple[int, int, int] | None = None
        self.turn_due = 0
        self.turn_move: Action | None = None

    def _later(self, now_ms: int, ms: int) -> int:
        return now_ms + round(ms * self.pace)

    def replan(self, state: Any, now_ms: int) -> None:
        """Draw the moments of a window or a turn that opened since the last call."""
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
                        self.reactions[seat] = (self._later(now_ms, reaction[0]), reaction[1])
        turn = (state.round_no, state.turn_count, state.turn)
        if state.turn != self.human and turn != self.turn_key:
            self.turn_key, self.turn_move = turn, None
            self.turn_due = self._later(now_ms, turn_delay(self.bots[state.turn], self.rng))

    def _bot_turn(self, state: Any) -> bool:
        return state.turn != self.human and self.turn_key == (
            state.round_no, state.turn_count, state.turn)

    def wake_ms(self, state: Any, now_ms: int) -> int | None:
        """When the bot on turn will have thought long enough to choose its move (None:
        no bot's turn is pending, or it has chosen)."""
        if self._bot_turn(state) and now_ms < self.turn_due:
            return self.turn_due
        return None

    def plans(self, state: Any, now_ms: int, step: int,
              refused: Set[int]) -> Iterator[Plan]:
        self.replan(state, now_ms)
        turn_seat = state.turn if self._bot_turn(state) and now_ms >= self.turn_due else None
        for seat in range(len(self.bots)):
            if seat in refused:
                continue
            if seat in self.reactions:
                at, action = self.reactions[seat]
                yield Plan(at, seat, action)
            if seat == turn_seat:
                if self.turn_move is None:
                    self.turn_move = table_move(self.bots[seat], self.game.view(state, seat),
                                                self.rng)
                yield Plan(self.turn_due, seat, self.turn_move)

    def next_step(self, state: Any, now_ms: int) -> Step | None:
        """The table engine's next step at ``now_ms`` (:func:`next_step`)."""
        self.replan(state, now_ms)
        return next_step(self.game, state, now_ms, self.plans(state, now_ms, 0, frozenset()),
                         self.wake_ms(state, now_ms))

    def taken(self, step: Step) -> None:
        """``step`` was played: a reaction is spent."""
        reaction = self.reactions.get(step.seat)
        if reaction is not None and step.action is not None \
                and step.action.at(reaction[1].t_ms) == reaction[1]:
            del self.reactions[step.seat]


class TimoTerminal:
    """The person's seat at a table of bots, run on the keyboard's clock.

    ``next_move(state)`` returns the next action at the table: the person's typed move,
    call or catch, or the table engine's next step (``core/table_engine.py``: the
    earliest of the bots' moments, :class:`TerminalBots`) when its moment comes first.
    The engine decides what the bots do and when; this class only waits for that moment,
    reading lines meanwhile. ``pace`` stretches every bot time (0: bots act at once).
    """

    def __init__(self, game: Any, bots: Sequence[Any], human: int, names: list[str],
                 rng: random.Random, console: Console, keyboard: Keyboard | None = None,
                 pace: float = 1.0):
        self.game, self.bots, self.human, self.names = game, bots, human, names
        self.rng, self.console, self.pace = rng, console, pace
        self.keyboard: Keyboard = keyboard if keyboard is not None else StdinKeyboard()
        self.start = self.keyboard.now()
        self.players = TerminalBots(game, bots, human, rng, pace)
        self.shown = -1
        self.words = words()

    def now_ms(self) -> int:
        """Milliseconds since the terminal opened the table, on the keyboard's clock."""
        return round((self.keyboard.now() - self.start) * 1000)

    def next_move(self, state: Any) -> Action:
        view: TimoView = self.game.view(state, self.human)
        now = self.now_ms()
        self.players.replan(state, now)
        self._show(state, view)
        step = self.players.next_step(state, now)
        while True:
            timeout = (None if step is None
                       else self.start + step.at_ms / 1000 - self.keyboard.now())
            line = self.keyboard.read(timeout, prompted=view.turn == self.human)
            if line is None:
                if step is None:
                    continue
                if step.kind is EventKind.WAKE:
                    # The bot on turn has thought: it chooses its move on the table now.
                    step = self.players.next_step(state, step.at_ms)
                    assert step is not None and step.kind is EventKind.BOT
                self.players.taken(step)
                assert step.action is not None
                # Timo keeps no clock: the table's moves carry no time, as the person's.
                return step.action.at(0)
            action = self.parse(line, view)
            if action is not None:
                return action

    # -- the person ----------------------------------------------------------------
    def _show(self, state: Any, view: TimoView) -> None:
        if state.version == self.shown:
            return
        self.shown = state.version
        say = self.words.say
        if view.exposed != NOBODY:
            self.console.print(
                f"  [bold red]{say('timo.terminal.exposed', name=self.names[view.exposed])}[/]")
        if view.turn == self.human:
            self.console.print(render(view, self.names))
            for number, choice in enumerate(choices(view), start=1):
                self.console.print(
                    f"  [bold]{number}[/]. {action_label(view.deck, choice, self.words)}")
            self.console.print(say("timo.terminal.your_move", help=say("timo.terminal.help")))

    def parse(self, line: str, view: TimoView) -> Action | None:
        """The action a typed line asks for, or None (after saying why) if it asks for
        nothing possible now."""
        text = line.strip().lower()
        if not text:
            return None
        if text in _CATCH:
            catch = next((a for a in view.legal if a.kind == CATCH), None)
            if catch is None:
                self.console.print("  " + self.words.say("timo.terminal.nobody_to_catch"))
            return catch
        if text in _TIMO:
            call = next((a for a in view.legal if a.kind == CALL), None)
            if call is None:
                self.console.print("  " + self.words.say("timo.terminal.no_call"))
            return call
        move = _MOVE.fullmatch(text)
        if move is None:
            self.console.print("  " + self.words.say("timo.terminal.bad_line", line=repr(line)))
            return None
        if view.turn != self.human:
            self.console.print("  " + self.words.say("timo.terminal.not_your_turn"))
            return None
        menu = choices(view)
        number = int(move[1])
        if not 1 <= number <= len(menu):
            self.console.print("  " + self.words.say("timo.terminal.choose", n=len(menu)))
            return None
        choice = menu[number - 1]
        if move[2] is None:
            return choice
        calling = next((a for a in view.legal if a.kind == PLAY and a.payload.get("timo")
                        and a.payload["card"] == choice.payload.get("card")
                        and a.payload.get("colour") == choice.payload.get("colour")), None)
        if calling is None:
            self.console.print("  " + self.words.say("timo.terminal.timo_with_play"))
        return calling


def choices(view: TimoView) -> list[Action]:
    """The person's menu on their turn: each play once (TIMO! is typed beside it), draw,
    pass."""
    return [a for a in view.legal
            if a.kind in (PLAY, DRAW, PASS) and not a.payload.get("timo")]


Terminal = TimoTerminal
