"""Which bots a game offers, by name and level.

A table on the server, the simulator, the environments and the terminal all seat bots by
name from a game's entry (``core/plugin.py``); what they share lives here, below them
all, so serving never depends on simulation. A timed move has one way to be planned:
the entry's :meth:`~twintable.core.plugin.GameEntry.plan`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from twintable.bots.base import Bot, RandomBot
from twintable.bots.noise import NOISE_MARK, noisy_name, split_noise, with_noise
from twintable.bots.user import is_user_bot, user_bot_factory
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
    the game's own, then its guided game's (``GameEntry.tutorial``)."""
    factories: dict[str, Callable[..., Bot]] = {}
    for bot in bot_levels(entry):
        for name in (bot.name, *bot.aliases):
            factories[name] = bot.make
    guide = entry.tutorial().bot if entry.tutorial is not None else None
    if guide is not None and guide.available():  # the guided game's bot: never a level
        factories.setdefault(guide.name, guide.make)
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
    """The bot ``name`` seats: a bot's name as it is and a former one as the bot's own,
    else a level's name on the shared scale (any case: ``hard``, ``Hard``) as
    :func:`level_bots` seats it, else a user's agent (``module:Class``, ``policy.npz``,
    ``model.zip``: ``twintable.bots.user``) as written; None when it is none of these. A
    bot named like a level (Twin It's ``expert``) is that bot. Any of them may carry a
    noise (``hard@0.2``, bots/noise.py): the bot it seats keeps it (``heuristic@0.2``); a
    malformed noise is a ValueError (a user's path with an ``@`` in it is a path)."""
    factories = bot_factories(entry)
    if name in factories:
        # A former name seats the bot under its own name, the one results carry.
        # (The guided game's bot is no level: it goes by its own name.)
        return next((bot.name for bot in bot_levels(entry)
                     if name in (bot.name, *bot.aliases)), name)
    _, mark, suffix = name.rpartition(NOISE_MARK)
    if mark and is_user_bot(name) and not _number(suffix):
        return name.strip()
    base, noise = split_noise(name)
    if noise is not None:
        seated = resolve_bot(entry, base)
        return None if seated is None else noisy_name(seated, noise)
    if is_user_bot(name):
        return name.strip()
    return level_bots(entry).get(name.strip().lower())


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def bot_factory(entry: GameEntry, name: str) -> Callable[[], Bot]:
    """What seats the bot ``name`` (anything :func:`resolve_bot` reads: a bot, a level, a
    user's agent, with or without a noise); a ValueError says why when nothing can."""
    seated = resolve_bot(entry, name)
    if seated is None:
        raise ValueError(unknown_bot_message(entry, [name]))
    factories = bot_factories(entry)
    if seated in factories:
        return factories[seated]
    base, mark, suffix = seated.rpartition(NOISE_MARK)
    if mark and _number(suffix):
        inner, noise = bot_factory(entry, base), float(suffix)

        def noisy(*args: Any, **kwargs: Any) -> Bot:
            return with_noise(inner(*args, **kwargs), noise, seated)  # type: ignore[no-any-return]

        # Its signature is the inner factory's: a table hands a bot that learns from
        # people (``records``) its rounds through the noise too.
        noisy.__wrapped__ = inner  # type: ignore[attr-defined]
        return noisy
    return user_bot_factory(entry, seated)


def table_bot(entry: GameEntry, name: str) -> str | None:
    """The bot a server table seats for ``name``: a bot's name (a former one too) as it
    is, or a level's name as :func:`level_bots` seats it, either with a noise
    (``medium@0.2`` seats ``heuristic@0.2``); None when it names none of these. Never a
    user's agent (``module:Class``, a file): a table imports no code and reads no file
    a request names. A malformed noise is a ValueError saying what a noise is."""
    factories = bot_factories(entry)
    if name in factories:
        return name
    base, noise = split_noise(name)
    bot = base if base in factories else level_bots(entry).get(base.strip().lower())
    return None if bot is None else noisy_name(bot, noise)


def make_bot(entry: GameEntry, name: str) -> Bot:
    """A fresh bot for ``name`` (:func:`bot_factory`)."""
    return bot_factory(entry, name)()


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
    if bot is not None and not is_user_bot(bot):
        bot = split_noise(bot)[0]
    return next((level.level for level in bot_levels(entry)
                 if bot is not None and bot in (level.name, *level.aliases)), None)


def unknown_bot_message(entry: GameEntry, unknown: Sequence[str]) -> str:
    """Why bots named ``unknown`` cannot be seated, and what can be named instead."""
    levels = ", ".join(level_bots(entry))
    bots = ", ".join(sorted(bot_factories(entry)))
    named = list(dict.fromkeys(unknown))
    missing = [name for name in named
               if name.rpartition(NOISE_MARK)[0 if NOISE_MARK in name else 2].strip().lower()
               in LEVELS]
    others = [name for name in named if name not in missing]
    said = []
    if others:
        said.append(f"unknown bot{'s' if len(others) > 1 else ''} {', '.join(others)}")
    if missing:
        said.append(f"no bot at level {' or '.join(missing)}")
    return (f"{entry.rules.name}: {'; '.join(said)}. Name a level ({levels}), a bot "
            f"({bots}) or your own agent (module:Class, policy.npz, model.zip).")
