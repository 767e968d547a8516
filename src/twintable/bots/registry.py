"""Which bots a game offers, by name and level.

A table on the server, the simulator, the environments and the terminal all seat bots by
name from a game's entry (``core/plugin.py``); what they share lives here, below them
all, so serving never depends on simulation. A timed move has one way to be planned:
the entry's :meth:`~twintable.core.plugin.GameEntry.plan`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from twintable.bots.base import Bot, RandomBot
from twintable.core.plugin import LEVELS, BotLevel, GameEntry

#: The uniform random bot every game seats; on the shared scale it is a beginner.
RANDOM = BotLevel("random", "beginner", RandomBot)


def bot_levels(entry: GameEntry) -> tuple[BotLevel, ...]:
    """Every bot a game can seat here: the random bot, then the game's own that can run."""
    return (RANDOM, *entry.available_bots())


def offered_bots(entry: GameEntry) -> tuple[BotLevel, ...]:
    """The bots people choose by level: :func:`bot_levels`, less the random bot where
    the game does not offer it as a level (``GameEntry.random_is_a_level``) and the bots
    kept for research (``BotLevel.offered``)."""
    bots = bot_levels(entry) if entry.random_is_a_level else entry.available_bots()
    return tuple(bot for bot in bots if bot.offered)


def bot_factories(entry: GameEntry) -> dict[str, Callable[..., Bot]]:
    """Every bot a game can seat, by name (former names included): the random bot, then
    the game's own."""
    factories: dict[str, Callable[..., Bot]] = {}
    for bot in bot_levels(entry):
        for name in (bot.name, *bot.aliases):
            factories[name] = bot.make
    return factories


def default_bot(entry: GameEntry) -> str:
    """The bot that stands in for a person: the game's default, or the random bot when
    that one cannot run here."""
    return entry.default_bot if entry.default_bot in bot_factories(entry) else "random"


def level_bots(entry: GameEntry) -> dict[str, str]:
    """The bot each level on :data:`~twintable.core.plugin.LEVELS` seats, weakest first
    (levels no bot of the game has are left out): the game's default where it has that
    level, else a bot whose own name is no level's (nor the random bot), else the first
    declared. The lobby offers the same one per level (``web/lib/levels.js``)."""
    bots = offered_bots(entry)
    default = default_bot(entry)
    chosen: dict[str, str] = {}
    for level in LEVELS:
        named = [bot.name for bot in bots if bot.level == level]
        if named:
            chosen[level] = default if default in named else next(
                (name for name in named if name not in LEVELS and name != RANDOM.name),
                named[0])
    return chosen


def resolve_bot(entry: GameEntry, name: str) -> str | None:
    """The bot ``name`` seats: a bot's name or a former one as it is, else a level's name
    on the shared scale (any case: ``hard``, ``Hard``) as :func:`level_bots` seats it;
    None when it is neither. A bot named like a level (Twin It's ``expert``) is that
    bot."""
    if name in bot_factories(entry):
        return name
    return level_bots(entry).get(name.strip().lower())


def seat_names(entry: GameEntry, names: Sequence[str]) -> list[str]:
    """The bot each of ``names`` seats (:func:`resolve_bot`), so that reports name bots
    one way whatever people typed; a ValueError names every name that seats none."""
    seated = [resolve_bot(entry, name) for name in names]
    unknown = [name for name, bot in zip(names, seated, strict=True) if bot is None]
    if unknown:
        raise ValueError(unknown_bot_message(entry, unknown))
    return [bot for bot in seated if bot is not None]


def level_of(entry: GameEntry, name: str) -> str | None:
    """The level on the shared scale of the bot ``name`` (a name, a former name or a level)
    seats, or None when it seats none."""
    bot = resolve_bot(entry, name)
    return next((level.level for level in bot_levels(entry)
                 if bot is not None and bot in (level.name, *level.aliases)), None)


def unknown_bot_message(entry: GameEntry, unknown: Sequence[str]) -> str:
    """Why bots named ``unknown`` cannot be seated, and what can be named instead."""
    levels = ", ".join(level_bots(entry))
    bots = ", ".join(sorted(bot_factories(entry)))
    named = list(dict.fromkeys(unknown))
    missing = [name for name in named if name.strip().lower() in LEVELS]
    others = [name for name in named if name not in missing]
    said = []
    if others:
        said.append(f"unknown bot{'s' if len(others) > 1 else ''} {', '.join(others)}")
    if missing:
        said.append(f"no bot at level {' or '.join(missing)}")
    return (f"{entry.rules.name}: {'; '.join(said)}. Name a level ({levels}) or a bot "
            f"({bots}).")
