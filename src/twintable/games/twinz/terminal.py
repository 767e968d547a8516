"""Twinz in the terminal: the person types clues when in the duo, and otherwise guesses,
contests a clue and votes, all on the wall clock.

Time is real here, as at a table (RULES.md §4): the countdown runs while you type, so a
clue typed too slowly is late (or missing), and the bots plan *when* they act
(``plan(view, rng)``, a human reaction time) and act at that moment unless you typed
first. Lines and the clock come from a :class:`~twintable.terminal.keyboard.Keyboard`, so
tests run the race on a virtual clock.

Every sentence is in the player's language (its catalogue: English, French, Korean or
Dutch, from ``TWINTABLE_LANG`` or the locale, ``LANG=fr_FR.UTF-8``), commands too
("conteste 1", "vote oui").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from twintable.core.errors import RuleError
from twintable.core.plugin import Plan, PlanMove, default_plan
from twintable.core.schedule import EventKind
from twintable.core.table_engine import Race, TableEngine, TableStuck
from twintable.core.types import Action, Event
from twintable.games.twinz.decks import fold
from twintable.games.twinz.state import CLUES, DRAW, GUESSES
from twintable.games.twinz.views import TwinzView
from twintable.terminal.catalogue import Catalogue, language
from twintable.terminal.keyboard import Keyboard, StdinKeyboard

#: What each penalty costs (rules.py: one point each, two for the same clue).
_COST = {"same_clue": 2}

# -- what it says, in the player's language (the game's own catalogue) ----------

#: The commands a person types, in every language (a line of two words or more is never
#: a guess, so these cannot shadow one).
CONTEST_WORDS = ("contest", "conteste", "contester", "이의", "betwist")
VOTE_WORDS = ("vote", "voter", "투표", "stem")
YES = ("yes", "y", "oui", "o", "uphold", "예", "네", "ja", "j")
NO = ("no", "n", "non", "dismiss", "아니오", "아니요", "nee")


def key_of(key: str) -> str:
    """Where a sentence of the terminal Twinz lives in the catalogues."""
    if key.startswith("refused."):
        return f"twinz.{key}"
    return key if key.startswith("level.") else f"twinz.terminal.{key}"


def say(lang: str, key: str, **values: object) -> str:
    """The sentence ``key`` in ``lang`` (English where it has none), filled with
    ``values``; ``n`` picks the plural form of a key that has them."""
    return Catalogue("twintable.games.twinz", lang).say(key_of(key), **values)


def known(lang: str, key: str) -> bool:
    """Whether the catalogues hold the sentence ``key``."""
    return Catalogue("twintable.games.twinz", lang).has(key_of(key))


def __getattr__(name: str) -> str:
    # INTRO is read when the game starts, in the language the environment asks for then.
    if name == "INTRO":
        return say(language(), "intro")
    raise AttributeError(name)


def render(view: TwinzView, names: list[str], lang: str | None = None) -> Panel:
    lang = lang or language()
    table = Table(show_header=True)
    for column in ("player", "points", "cards"):
        table.add_column(say(lang, f"col.{column}"))
    for seat, name in enumerate(names):
        marker = say(lang, "duo") if seat in view.duo else ""
        table.add_row(name + marker, str(view.points[seat]), str(view.cards[seat]))
    lines = [say(lang, "state", round=view.round_no, attempt=view.attempt, n=view.pile)]
    if view.mystery:
        lines.append(say(lang, "mystery", word=view.mystery.upper()))
    if view.clues:
        nothing = say(lang, "nothing")
        lines.append(say(lang, "clues", clues=" + ".join((c or nothing).upper()
                                                          for c in view.clues)))
    if view.guessed:
        # A guess inside the tie window shows no word (RULES.md §4).
        hidden = say(lang, "a_guess")
        lines.append(say(lang, "guesses", guesses=", ".join(
            f"{names[s]}: {w or hidden}" for s, w in view.guessed)))
    return Panel(table, title="\n".join(lines))


def describe_action(view: TwinzView, action: Action, names: list[str]) -> str | None:
    # Guesses are told by their events: a guess in the tie window shows no word.
    if action.kind == "draw":
        return say(language(), "takes_card", name=names[action.seat])
    return None


def describe_event(view: TwinzView, event: Event, names: list[str],
                   viewer: int | None) -> str | None:
    lang = language()
    data = event.data
    if event.kind == "round_started":
        first, second = data["duo"]
        return say(lang, "round_started", round=data["round"], a=names[first], b=names[second])
    simple = {"card_ready": "card_ready", "attempt_failed": "attempt_failed",
              "game_over": "game_over"}
    if event.kind in simple:
        return say(lang, simple[event.kind])
    if event.kind == "countdown":
        return say(lang, "countdown", attempt=data["attempt"], s=view.options["countdown_s"])
    if event.kind == "clue_given":
        return say(lang, "clue_given", name=names[data["seat"]])
    if event.kind == "clues_revealed":
        nothing = say(lang, "nothing")
        shown = [f"{names[int(s)]}: {(w or nothing).upper()}" for s, w in data["clues"].items()]
        lost = [say(lang, "penalised", name=names[int(s)],
                    n=sum(_COST.get(reason, 1) for reason in reasons),
                    reasons=", ".join(say(lang, f"penalty.{reason}") for reason in reasons))
                for s, reasons in data["penalties"].items() if reasons]
        # RULES.md §4: which clue the root rule refused, and why.
        lost += [say(lang, f"refused.{why['reason']}", clue=str(why["clue"]).upper(),
                     word=str(why["word"]).upper())
                 for why in data.get("refused", {}).values()]
        return "; ".join([say(lang, "clues", clues="; ".join(shown)), *lost])
    if event.kind == "guessed":
        if data["word"] is None:
            return say(lang, "guess_in", name=names[data["seat"]])
        return say(lang, "guessed_wrong", name=names[data["seat"]],
                   word=str(data["word"]).upper())
    if event.kind == "contested":
        clue = view.clues[view.duo.index(data["member"])] if view.clues else None
        return say(lang, "contested", name=names[data["seat"]], member=names[data["member"]],
                   clue=(clue or "").upper())
    if event.kind == "voted":
        return say(lang, "voted", name=names[data["seat"]])
    if event.kind in ("contest_upheld", "contest_dismissed"):
        key = "upheld" if event.kind == "contest_upheld" else "dismissed"
        return say(lang, key, member=names[data["member"]])
    if event.kind == "round_over":
        winners = ", ".join(names[s] for s in data["winners"]) or say(lang, "nobody")
        reason = say(lang, f"reason.{data['reason']}")
        return say(lang, "round_over", word=str(data["word"]).upper(), reason=reason,
                   winners=winners)
    return None


def paced_plan(pace: float) -> PlanMove:
    """Bots' plans at ``pace`` (2: twice as slow), timed from ``now`` (the last change on
    the table): a bot's own plan (:func:`~twintable.core.plugin.default_plan`), its delay
    stretched, never before ``now``; no bot (the person's seat) plans nothing."""

    def plan(bot: Any, view: Any, rng: random.Random, now: int) -> Plan | None:
        if bot is None:
            return None
        planned = default_plan(bot, view, rng, now)
        if planned is None:
            return None
        return max(now, now + int((planned[0] - now) * pace)), planned[1]

    return plan


class TwinzTerminal:
    """The person's seat at a Twinz table of bots, on the keyboard's clock.

    ``next_move(state)`` returns the next action: the table engine's next step
    (``core/table_engine.py``, as the simulator plays a race: a timer that ran out, or the
    earliest of the bots' planned moves and the game's deadline), or the person's typed
    line if it comes first. The engine decides what the table does by itself and when;
    this class only waits for that moment on the keyboard's clock, reading lines
    meanwhile. Bots time themselves from the last change on the table, stretched by
    ``pace`` (as a server's table does, ``server/automation.py``). ``lang`` is the
    language it speaks (default: the environment's, :func:`.lines.language`).
    """

    def __init__(self, game: Any, bots: Sequence[Any], human: int, names: list[str],
                 rng: random.Random, console: Console, keyboard: Keyboard | None = None,
                 pace: float = 1.0, lang: str | None = None):
        self.game, self.bots, self.human, self.names = game, bots, human, names
        self.rng, self.console, self.pace = rng, console, pace
        self.lang = lang or language()
        self.keyboard: Keyboard = keyboard if keyboard is not None else StdinKeyboard()
        self.start = self.keyboard.now()
        # The person's seat has no bot: the race asks only the others.
        seated = [None if seat == human else bot for seat, bot in enumerate(bots)]
        self.players = Race(game, seated, paced_plan(pace), rng)
        self.steps = 0
        """Steps the table took so far (a race rotates who is asked first by it)."""
        self.shown: tuple[Any, ...] | None = None

    def say(self, key: str, **values: object) -> str:
        return say(self.lang, key, **values)

    def now_ms(self) -> int:
        """The game's clock: milliseconds since the terminal opened the table."""
        return int((self.keyboard.now() - self.start) * 1000)

    def table(self, state: Any) -> TableEngine:
        """The table engine on a copy of ``state``, its clock at the last change: it
        plans what the table does by itself, and tries a bot's move before the person's
        table takes it (a refused bot sits this state out, as in the simulator)."""
        table = TableEngine(self.game, state.clone(), self.players, now_ms=state.clock,
                            sit_out_refused=True)
        table.steps = self.steps
        return table

    def next_move(self, state: Any) -> Action:
        self._show(state)
        table = self.table(state)
        step = table.next()
        while True:
            now = max(self.now_ms(), state.clock)
            timeout = None if step is None else max(0, step.at_ms - now) / 1000
            line = self.keyboard.read(timeout, prompted=self._prompted(state))
            if line is not None:
                action = self.parse(line, state)
                if action is None:
                    continue  # the same state: the bots keep their plans
                self.steps = table.steps + 1
                return action
            if step is None:
                continue
            if table.play(step):
                self.steps = table.steps
                assert step.action is not None
                return step.action
            if step.kind is not EventKind.BOT:
                raise TableStuck(f"{self.game.id}: the game refused its own timer")
            step = table.next()  # the bot misjudged the table and sits this state out

    # -- the person ----------------------------------------------------------------
    def _prompted(self, state: Any) -> bool:
        """Whether the person is being asked for something: a card, a clue, a guess, a
        vote."""
        kinds = {action.kind for action in self.game.legal_actions(state, self.human)}
        return bool(kinds & {"draw", "clue", "guess", "vote"})

    def _show(self, state: Any) -> None:
        view: TwinzView = self.game.view(state, self.human)
        key = (view.round_no, view.attempt, view.phase, view.contest, view.pause_until)
        if key == self.shown:
            return
        self.shown = key
        human, print_ = self.human, self.console.print
        if view.phase == DRAW and human in view.duo:
            # The last round's result stays a moment before the card may be taken.
            print_(self.say("prompt.pause" if view.pause_until is not None else "prompt.draw"))
        elif view.phase == CLUES and human in view.duo:
            print_(render(view, self.names, self.lang))
            print_(self.say("prompt.clue", s=view.options["countdown_s"]))
        elif view.phase == GUESSES and human not in view.duo:
            if view.contest is not None:
                if any(action.kind == "vote" for action in view.legal):
                    print_(self.say("prompt.vote"))
            else:
                print_(render(view, self.names, self.lang))
                print_(self.say("prompt.guess", s=view.options["guess_timeout_s"]))

    def parse(self, line: str, state: Any) -> Action | None:
        """The action a typed line asks for, if the rules take it now; else None, after
        saying why."""
        view: TwinzView = self.game.view(state, self.human)
        words = line.split()
        human, t = self.human, max(self.now_ms(), state.clock)
        command = words[0].lower() if words else ""
        if view.phase == DRAW:
            if human not in view.duo:
                self.console.print(f"  {self.say('wait.duo')}")
                return None
            action = Action(human, "draw", {}, t)
        elif command in CONTEST_WORDS and len(words) <= 2:
            member = self._member(view, words[1]) if len(words) == 2 else None
            if member is None:
                self.console.print(f"  {self.say('help.contest')}")
                return None
            action = Action(human, "contest", {"member": member}, t)
        elif command in VOTE_WORDS and len(words) >= 2:
            # "vote" alone is a French word, so it stays a guess.
            if len(words) > 2 or words[1].lower() not in YES + NO:
                self.console.print(f"  {self.say('help.vote')}")
                return None
            action = Action(human, "vote", {"uphold": words[1].lower() in YES}, t)
        elif view.phase == CLUES and human in view.duo:
            action = Action(human, "clue", {"word": line.strip()}, t)
        elif view.phase == GUESSES and human not in view.duo:
            action = Action(human, "guess", {"word": line.strip()}, t)
        else:
            self.console.print(f"  {self.say('wait.others')}" if line.strip() else "")
            return None
        try:
            self.game.apply(state.clone(), action)
        except RuleError as error:
            self.console.print(f"  {self._refusal(error)}")
            return None
        return action

    def _refusal(self, error: RuleError) -> str:
        """Why the rules refused a line, in the player's language where it is known."""
        key = f"error.{error.code}"
        return self.say(key) if known(self.lang, key) else error.message

    def _member(self, view: TwinzView, which: str) -> int | None:
        if which in ("1", "2"):
            return view.duo[int(which) - 1]
        for member, clue in zip(view.duo, view.clues or (), strict=False):
            if clue and fold(clue) == fold(which):
                return member
        return None


Terminal = TwinzTerminal
