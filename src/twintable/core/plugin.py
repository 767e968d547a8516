"""The game plug-in: the one declaration through which every shell finds a game.

A game is a package. It declares one :class:`GameEntry` and names, in its
``pyproject.toml``, a zero-argument function returning it in the entry-point group
:data:`ENTRY_POINT_GROUP`, under the game's id::

    [project.entry-points."twintable.games"]
    mygame = "mygame.plugin:entry"

The four built-in games register the same way (twintable's own ``pyproject.toml``).
Every shell finds games only through these entries (:func:`twintable.core.registry.
default_registry`), so a new game touches no file outside its package.

The core contract is small: what every shell needs. The rest belongs to one shell each,
and that shell defines it:

- ``rules``: the :class:`~twintable.core.game.Game`, which declares its type as data
  (``Game.game_type``: dynamics, information, chance, what it conserves) besides its id,
  name, player counts, options and move payloads. The rules know nothing of bots.
- ``package``: the dotted package holding ``rules/<lang>.md`` (the players' rules pages)
  and ``web/`` (the browser module ``index.js``, its css and ``i18n/<lang>.json``).
- ``bots``: the game's own :class:`BotLevel` s; the uniform random bot, level
  ``beginner``, is added for every game by ``twintable.bots.registry``.
- ``default_bot``: the bot that stands in for a person who is away or out of time.
- ``random_is_a_level``: whether the random bot is offered as the game's Beginner level
  (False where random moves make no sense to a person, as random letters for Twinz's
  clues: it can still be seated by its name).
- ``pacing`` and ``plan_move``: how bots are timed (:class:`Pacing`), and the game's own
  timing of a bot's move (:data:`PlanMove`; None: :func:`default_plan`). Every shell that
  steps a table (server, simulator, environments, checks) asks :meth:`GameEntry.plan` for
  a timed move: one way to plan one.
- ``short_options``: options that keep a game short (minutes with people, moments with
  random moves): the load harness's tables finish and new ones open, the kit's random
  games (``twintable check``) and the ladder's end quickly.
- ``tutorial``: a factory of the game's guided first game (:class:`~twintable.core.tutorial.
  Tutorial`: its deal, its slow bot and the hints' steps), or None.
- ``lobby_order``: where lists of games (the lobby, ``twintable games``) show it: lower
  first, then by id.
- ``extensions``: what each shell needs beyond that, by shell name, as keyword data
  (below).

Shell extensions. A shell that needs more of a game defines a typed record of it in its
own package (a frozen dataclass with a ``SHELL`` class attribute naming the key it reads,
:class:`Extension`), and reads it with :meth:`GameEntry.extension`, which builds the
record from the keyword data the game declared under that key::

    extensions={"envs": {"module": "mygame.env", "gym_id": "mygame/MyGame-v0"},
                "server": {"rematch_options": rematch_options}}

The records and their fields (each record's docstring says more):

- ``"envs"`` (``twintable.envs.extension.EnvGame``): ``module`` (the PettingZoo
  environment), ``gym_id``, ``names`` (versioned names published in ``twintable.envs``),
  ``openspiel`` (a module registering the game with OpenSpiel), ``trainer``
  (``twintable train <id>``).
- ``"server"`` (``twintable.server.extension.ServerGame``): ``rematch_options``,
  ``round_records`` (what learning bots learn from finished games), ``assets`` (JSON a
  client draws with beyond the views).
- ``"sim"`` (``twintable.sim.extension.SimGame``): ``simulator`` (a faster engine, same
  games seed for seed), ``deck_format`` (:class:`DeckFormat`), ``metrics``.
- ``"terminal"`` (``twintable.terminal.extension.TerminalGame``): ``module`` (the terminal
  game) and ``commands`` (the game's own ``twintable <id> ...`` tools).
- ``"loadtest"`` (``twintable.loadtest.extension.LoadGame``): ``chooser`` (a scripted
  person's moves over the protocol's JSON view).

Why keyword data and not the records themselves: a game never imports a shell (the server
least of all), so the direction stays core <- games <- shells, and loading every game's
entry imports no shell at all. The shell's record still checks what it is given: a
misspelt or unknown field raises a TypeError naming the game and the shell when the shell
reads it, and the kit's ``entry`` check (``twintable check``) builds every shell's record
for the game, so such a mistake fails the check before anyone plays.

Loading an entry imports the rules and nothing heavy: bots, the fast simulator, the
terminal game, the environment and the game's commands are named lazily (factories and
dotted module names) and imported when a shell first needs them.

Bot levels: people see a level, never a bot's name. One scale for every game, by how a
bot fares against people (docs/architecture.md, "Bot levels"): ``beginner`` (plays
legal moves, little more), ``easy`` (a casual player), ``medium`` (a regular player: the
usual default), ``hard`` (a strong player), ``expert`` (beats most people). A game
offers one bot a level, in this order, and may leave levels out; each beats the level
below in at least 55% of games (``bench/levels.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Protocol, TypeVar

from pydantic import BaseModel

from twintable.core.game import Game
from twintable.core.types import Action

if TYPE_CHECKING:
    from twintable.core.tutorial import Tutorial

#: The entry-point group games register in; an entry's name is its game id.
ENTRY_POINT_GROUP = "twintable.games"

#: The human scale of bot levels, weakest first (the module docstring says what each is).
LEVELS = ("beginner", "easy", "medium", "hard", "expert")

#: How long after "now" a bot without a plan of its own acts in a timed game; also the
#: simulator's virtual time between two actions when the game sets no deadline.
STEP_MS = 1000

#: A timed move: the time (ms, on the clock of the ``now`` it was planned at) and the move.
Plan = tuple[int, Action]
#: ``(bot, view, rng, now) -> Plan | None``: when and how a bot acts; None when it does
#: nothing (not its move, or it lets a race go by). Each call is a fresh draw.
PlanMove = Callable[[Any, Any, random.Random, int], Plan | None]


class ClientMove(NamedTuple):
    """A move a scripted person makes (the load harness's chooser, its ``"loadtest"``
    extension), from the protocol's JSON view: sent after ``delay_s`` (a person's
    reaction time in real-time games)."""

    kind: str
    payload: dict[str, Any]
    delay_s: float = 0.0


class Pacing(StrEnum):
    """How a table times a game's bots."""

    THINK = "think"
    """The seats to act move after the table's fixed thinking delay (turn by turn)."""
    PEOPLE = "people"
    """Every bot seat to act plans its move at a person's pace (:meth:`GameEntry.plan`)
    and the first plan is played: bots race people (Timo's TIMO! and catches)."""


def default_plan(bot: Any, view: Any, rng: random.Random, now: int) -> Plan | None:
    """A bot's own plan if it makes one (a bot with a ``plan(view, rng)`` method: Twin It's
    and Twinz's), otherwise its choice now, :data:`STEP_MS` later (the random bot)."""
    plan = getattr(bot, "plan", None)
    if plan is not None:
        return plan(view, rng)  # type: ignore[no-any-return]
    action = bot.act(view, rng)
    return (now + STEP_MS, action) if action is not None else None


def _always() -> bool:
    return True


@dataclass(frozen=True, slots=True)
class BotLevel:
    """One bot of a game: ``name`` is its id in the API and the command line,
    ``level`` its place on :data:`LEVELS` (what people see), ``make`` builds one (a bot
    that learns from people takes ``records=``), ``aliases`` are former names still
    accepted, and ``available`` says whether it can run here (a bot that needs an
    optional extra). A game offers people one bot a level; ``offered=False`` keeps a
    bot for research and simulations, seated by its name only (``level`` then says where
    it would stand)."""

    name: str
    level: str
    make: Callable[..., Any]
    aliases: tuple[str, ...] = ()
    available: Callable[[], bool] = _always
    offered: bool = True

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"bot {self.name!r}: level {self.level!r} is not one of "
                             f"{', '.join(LEVELS)}")


@dataclass(frozen=True)
class DeckFormat:
    """A custom deck or scoring table as data: ``schema`` (a pydantic model) checks a
    file, ``options`` turns a checked file into the table options that play it (so the
    options, recorded with every game, still replay it), and ``summary`` says in a few
    words what a file holds, for help texts and errors."""

    schema: type[BaseModel]
    options: Callable[[Any], dict[str, Any]]
    summary: str


class Extension(Protocol):
    """A shell's typed record of what it needs from a game beyond the core contract,
    defined in the shell's own package and built by :meth:`GameEntry.extension` from the
    keyword data the game declared under :attr:`SHELL`. Every field has a default: a game
    that declares nothing for a shell gets the record of a game the shell has nothing
    more of."""

    SHELL: ClassVar[str]


E = TypeVar("E", bound=Extension)


@dataclass(frozen=True)
class GameEntry:
    """Everything every shell needs to offer one game, and each shell's own extension
    (the module docstring lists the fields)."""

    rules: Game[Any]
    package: str
    bots: tuple[BotLevel, ...] = ()
    default_bot: str = "random"
    random_is_a_level: bool = True
    pacing: Pacing = Pacing.THINK
    plan_move: PlanMove | None = None
    short_options: Mapping[str, Any] = field(default_factory=dict, hash=False)
    tutorial: Callable[[], Tutorial] | None = None
    lobby_order: int = 1000
    extensions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        names = [name for bot in self.bots for name in (bot.name, *bot.aliases)]
        if len(set(names)) != len(names) or "random" in names:
            raise ValueError(f"{self.rules.id}: bot names must be unique and not 'random'")
        for shell, declared in self.extensions.items():
            if not isinstance(declared, Mapping):
                raise TypeError(f"{self.rules.id}: the {shell!r} extension must be keyword "
                                f"data (a mapping of field names), not "
                                f"{type(declared).__name__}")

    @property
    def id(self) -> str:
        return self.rules.id

    def available_bots(self) -> tuple[BotLevel, ...]:
        """The game's own bots that can run on this install."""
        return tuple(bot for bot in self.bots if bot.available())

    def extension(self, kind: type[E]) -> E:
        """The shell record ``kind`` built from what the game declared under its
        ``SHELL`` (every field at its default when it declared nothing there)."""
        declared = self.extensions.get(kind.SHELL, {})
        try:
            return kind(**declared)
        except TypeError as error:
            raise TypeError(f"{self.id}: its {kind.SHELL!r} extension does not fit "
                            f"{kind.__name__}: {error}") from None

    def plan(self, bot: Any, view: Any, rng: random.Random, now: int) -> Plan | None:
        """When (ms, on the clock of ``now``) and how ``bot`` acts on ``view``: the game's
        own timing if it has one, else :func:`default_plan`."""
        return (self.plan_move or default_plan)(bot, view, rng, now)
