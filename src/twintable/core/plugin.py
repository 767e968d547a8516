"""The game plug-in: the one declaration through which every shell finds a game.

A game is a package. It declares one :class:`GameEntry` and names, in its
``pyproject.toml``, a zero-argument function returning it in the entry-point group
:data:`ENTRY_POINT_GROUP`, under the game's id::

    [project.entry-points."twintable.games"]
    mygame = "mygame.plugin:entry"

The four built-in games register the same way (twintable's own ``pyproject.toml``).
The server, the simulator, the research environments, the terminal and the command line
find games only through these entries (``twintable.games.default_registry``), so a new
game touches no file outside its package.

Loading an entry imports the rules and nothing heavy: bots, the fast simulator, the
terminal game, the environment and the game's commands are named lazily (factories and
dotted module names) and imported when a shell first needs them.

An entry holds:

- ``rules``: the :class:`~twintable.core.game.Game` (id, name, player counts, options,
  move payloads, moves that race without a version). The rules know nothing of bots.
- ``package``: the dotted package holding ``rules/<lang>.md`` (the players' rules pages)
  and ``web/`` (the browser module ``index.js``, its css and ``i18n/<lang>.json``).
- ``bots``: the game's own :class:`BotLevel` s; the uniform random bot, level
  ``beginner``, is added for every game by ``twintable.bots.registry``.
- ``random_is_a_level``: whether the random bot is offered as the game's Beginner level
  (False where random moves make no sense to a person, as random letters for Twinz's
  clues: it can still be seated by its name).
- ``default_bot``: the bot that stands in for a person who is away or out of time.
- ``simulator``: a factory of a faster engine with the same games seed for seed and move
  for move (Timo's C engine), or None: simulations then run the rules themselves.
- ``pacing`` and ``plan_move``: how bots are timed (:class:`Pacing`), and the game's own
  timing of a bot's move (:data:`PlanMove`; None: :func:`default_plan`). Every shell asks
  :meth:`GameEntry.plan` for a timed move: one way to plan one.
- ``rematch_options``: old options and the outcome -> the options of a rematch (Twin It's
  taboo for the last winner), or None when a rematch keeps the options.
- ``round_records``: what a finished game teaches bots that learn from people (Twinz), or
  None; only then does the server replay finished games at start to collect them.
- ``assets``: JSON a client needs to draw the game beyond its views (pictures), or None.
- ``terminal``: dotted module of its terminal game (``Terminal``, ``INTRO``, ``render``,
  ``describe_action``, ``describe_event``), or None when it is played in a browser only.
- ``commands``: ``module:attr`` of a Typer app of the game's own tools, mounted as
  ``twintable <id> ...``, or None.
- ``deck_format``: how the game reads a designer's deck or scoring table from a file
  (:class:`DeckFormat`: ``twintable sim GAME --deck FILE``), or None when it has none.
- ``metrics``: named metrics of the game for simulations (``--metric NAME``), each an
  expression over a game's figures (``sim/metrics.py`` says what it may read).
- ``lobby_order``: where lists of games (the lobby, ``twintable games``) show it: lower
  first, then by id.
- ``env``: dotted module of its PettingZoo environment (``env``, ``raw_env``), or None;
  ``gym_id``: its Gymnasium id (``twintable/Timo-v0``), or None.
- ``env_names``: the names its research modules are published under in
  ``twintable.envs`` (``{"timo_v0": "twintable.games.timo.env"}`` makes
  ``from twintable.envs import timo_v0`` import the game's module); empty for none.
- ``openspiel``: dotted module that registers the game as an OpenSpiel game on import
  (``twintable.envs.openspiel`` imports every game's), or None.
- ``trainer``: ``module:attr`` of a Typer command that trains an agent for the game,
  mounted as ``twintable train <id>``, or None.
- ``load_chooser``: ``module:attr`` of the load harness's move chooser, ``(view, rng) ->
  Move | None`` over the protocol's JSON view (``twintable.loadtest.clients.Chooser``),
  or None: any legal move, at once. ``short_options``: options that keep a game short
  (minutes with people, moments with random moves): the load harness's tables finish and
  new ones open, and the kit's random games (``twintable check``) end quickly.
- ``tutorial``: a factory of the game's guided first game (:class:`~twintable.core.tutorial.
  Tutorial`: its deal, its slow bot and the hints' steps), or None.

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
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel

from twintable.core.game import Game, Outcome
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
    """A move a scripted person makes (the load harness's ``load_chooser``), from the
    protocol's JSON view: sent after ``delay_s`` (a person's reaction time in real-time
    games)."""

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


@dataclass(frozen=True)
class GameEntry:
    """Everything a shell needs to offer one game (the module docstring lists the
    fields)."""

    rules: Game[Any]
    package: str
    bots: tuple[BotLevel, ...] = ()
    default_bot: str = "random"
    simulator: Callable[[], Game[Any]] | None = None
    pacing: Pacing = Pacing.THINK
    plan_move: PlanMove | None = None
    rematch_options: Callable[[Mapping[str, Any], Outcome], dict[str, Any]] | None = None
    round_records: Callable[[Any], list[dict[str, Any]]] | None = None
    assets: Callable[[], dict[str, Any]] | None = None
    terminal: str | None = None
    commands: str | None = None
    env: str | None = None
    gym_id: str | None = None
    env_names: Mapping[str, str] = field(default_factory=dict, hash=False)
    openspiel: str | None = None
    trainer: str | None = None
    load_chooser: str | None = None
    short_options: Mapping[str, Any] = field(default_factory=dict, hash=False)
    lobby_order: int = 1000
    random_is_a_level: bool = True
    tutorial: Callable[[], Tutorial] | None = None
    deck_format: DeckFormat | None = None
    metrics: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        names = [name for bot in self.bots for name in (bot.name, *bot.aliases)]
        if len(set(names)) != len(names) or "random" in names:
            raise ValueError(f"{self.rules.id}: bot names must be unique and not 'random'")

    @property
    def id(self) -> str:
        return self.rules.id

    @property
    def learns_from_rounds(self) -> bool:
        """True when this game's bots learn from finished rounds (:attr:`round_records`)."""
        return self.round_records is not None

    def available_bots(self) -> tuple[BotLevel, ...]:
        """The game's own bots that can run on this install."""
        return tuple(bot for bot in self.bots if bot.available())

    def simulation_engine(self) -> Game[Any]:
        """The engine simulations play this game on: the fast one, else the rules."""
        return self.simulator() if self.simulator is not None else self.rules

    def plan(self, bot: Any, view: Any, rng: random.Random, now: int) -> Plan | None:
        """When (ms, on the clock of ``now``) and how ``bot`` acts on ``view``: the game's
        own timing if it has one, else :func:`default_plan`."""
        return (self.plan_move or default_plan)(bot, view, rng, now)
