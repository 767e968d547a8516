"""The checks of the game kit, and the games they play to run them.

One call, :func:`check_game`, runs every check on one game's entry and answers one
:class:`CheckResult` per check, in the order of :data:`CHECKS`: passed (with what was
checked), failed (with the first reason), or skipped (with why it does not apply: a
game that declares nothing conserved). The rules' checks (``core/conformance.py``)
run on seeded random playouts at the fewest, middle and most players of every mode, with
the options the entry names to keep games short (``short_options``), and once for every
other value of each choice option; the rest read the entry, the bots, the rules pages
and the catalogues a game ships.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from twintable.bots.registry import bot_levels
from twintable.core import conformance
from twintable.core.conformance import ConformanceError, Playout
from twintable.core.errors import OptionError
from twintable.core.plugin import LEVELS, Extension, GameEntry
from twintable.core.registry import default_registry
from twintable.envs.extension import EnvGame
from twintable.loadtest.extension import LoadGame
from twintable.server.extension import ServerGame
from twintable.server.rules_pages import LANGUAGES, SECTIONS, render
from twintable.sim.extension import SimGame
from twintable.sim.runner import make_bots, play_game
from twintable.terminal.extension import TERMINAL_NAMES, TerminalGame

#: How often (in steps) a random playout probes refusals and views.
PROBE_EVERY = 3
#: Seeds of the random playouts, per case.
SEEDS = (1, 2, 3)
#: Words that belong in a README or a commit, never on a page for players.
DEVELOPER_WORDS = (".py", "engine", "readme", "commit", "http", "rules.md")


class KitFailure(AssertionError):
    """A check outside the rules failed (``check`` names it)."""

    def __init__(self, check: str, message: str):
        super().__init__(f"{check}: {message}")
        self.check = check
        self.reason = message


class NotApplicable(Exception):
    """A check that does not apply to this game, or could not run (the reason says)."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check on one game: ``passed`` True, False, or None when it does not apply;
    ``detail`` says what was checked, what failed, or why it was skipped."""

    name: str
    passed: bool | None
    detail: str


@dataclass(frozen=True, slots=True)
class Case:
    """One kind of random game to play: the players, the options and a label."""

    players: int
    options: Mapping[str, Any]
    label: str
    variant: bool = False
    """A variant of one option: played at one seed only."""


@dataclass
class Plays:
    """The random playouts of one game, and the first failure of each rules check."""

    cases: list[Case]
    playouts: list[Playout] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)


def cases(entry: GameEntry) -> list[Case]:
    """Every mode at its fewest, middle and most players, then every other value of each
    choice and yes-or-no option (at two players, or the fewest), played at one seed; all
    with the entry's ``short_options``."""
    game = entry.rules
    schema = game.options_schema.options
    base = dict(entry.short_options)
    mode = schema.get("mode")
    modes: list[dict[str, Any]] = ([{"mode": choice} for choice in mode.choices]
                                   if mode is not None and mode.kind == "choice" else [{}])
    found = []
    for chosen in modes:
        options = base | chosen
        low, high = game.player_range(options)
        label = f"{chosen['mode']} " if chosen else ""
        found += [Case(players, options, f"{label}{players}p")
                  for players in sorted({low, (low + high) // 2, high})]
    for name, option in schema.items():
        if option.kind == "int_list" and option.choices:
            # The words a list takes (Timo's and Twins' teams: "alternate"), each at the
            # fewest players it fits.
            for word in option.choices:
                options = base | {name: word}
                low, high = game.player_range(options)
                fits = [players for players in range(low, high + 1)
                        if _takes(game, players, options)]
                if fits:
                    found.append(Case(fits[0], options, f"{name}={word}", variant=True))
            continue
        if name == "mode" or option.kind not in ("choice", "bool"):
            continue
        values = option.choices if option.kind == "choice" else (True, False)
        for value in values:
            if value != option.default:
                options = base | {name: value}
                low, high = game.player_range(options)
                found.append(Case(max(low, min(2, high)), options, f"{name}={value}",
                                  variant=True))
    return found


def _takes(game: Any, players: int, options: Mapping[str, Any]) -> bool:
    """Whether a table of ``players`` takes these options."""
    try:
        game.check_players(players, options)
    except OptionError:
        return False
    return True


def play(entry: GameEntry, seeds: Sequence[int] = SEEDS) -> Plays:
    """Random playouts of every case and seed, each checked as it goes and replayed."""
    game = entry.rules
    plays = Plays(cases(entry))
    for case in plays.cases:
        for seed in seeds[:1] if case.variant else seeds:
            try:
                playout = conformance.random_playout(
                    game, case.players, seed, case.options, probe_every=PROBE_EVERY,
                    keep_snapshots=True)
                conformance.check_replay(game, playout)
                if seed == seeds[0]:
                    conformance.check_seed(game, playout)
            except ConformanceError as error:
                plays.failures.setdefault(error.check, f"{case.label}, seed {seed}: "
                                                       f"{error.reason}")
                continue
            except Exception as error:  # a crash inside the rules is a failed playout
                plays.failures.setdefault(conformance.PLAYOUT, f"{case.label}, seed {seed}: "
                                          f"{type(error).__name__}: {error}")
                continue
            plays.playouts.append(playout)
    for whole in (conformance.check_type, conformance.check_hidden_state):
        try:
            whole(game, plays.playouts)
        except ConformanceError as error:
            plays.failures.setdefault(error.check, error.reason)
    return plays


# -- the checks -----------------------------------------------------------------------

def _games(plays: Plays) -> str:
    players = sorted({p.replay.players for p in plays.playouts})
    return (f"{len(plays.playouts)} random games, {len(plays.cases)} cases, "
            f"{players[0]}-{players[-1]} players" if players else "no game finished")


def _type(entry: GameEntry, plays: Plays) -> str:
    declared = entry.rules.game_type
    chance = "chance" if declared.chance else "no chance"
    return f"{declared.dynamics}, {declared.information} information, {chance}"


def _options(entry: GameEntry, plays: Plays) -> str:
    game = entry.rules
    if game.resolve_options({}) != game.resolve_options(game.options_schema.defaults()):
        raise KitFailure("options", "the defaults do not resolve to themselves")
    described = game.options_schema.to_json()
    for option in described:
        if option["kind"] in ("int", "int_list") and not (
                "minimum" in option and "maximum" in option):
            raise KitFailure("options", f"{option['name']} has no minimum or maximum")
        if option["kind"] == "int_list":
            try:
                game.resolve_options({option["name"]: [option["minimum"]] * 100_000})
            except OptionError:
                continue
            raise KitFailure("options", f"{option['name']} takes a list of any length")
    return f"{len(described)} options, defaults valid, every number bounded"


def _playouts(entry: GameEntry, plays: Plays) -> str:
    return f"{_games(plays)}: each ended with an outcome scoring every seat"


def _legal(entry: GameEntry, plays: Plays) -> str:
    return "every seat to act had a legal move, none after the end"


def _refusals(entry: GameEntry, plays: Plays) -> str:
    probes = sum(p.illegal_probes for p in plays.playouts)
    if not probes:
        raise KitFailure(conformance.REFUSALS, "no illegal move was tried")
    return f"{probes} illegal moves refused with a code, the state unchanged"


def _views(entry: GameEntry, plays: Plays) -> str:
    probes = sum(p.leak_probes for p in plays.playouts)
    changed = sum(p.leak_probes_that_changed_hidden_state for p in plays.playouts)
    return (f"{probes} views unchanged by a re-deal of what they cannot see "
            f"({changed} re-deals changed the state)")


def _conservation(entry: GameEntry, plays: Plays) -> str:
    conserves = entry.rules.game_type.conserves
    if not conserves:
        raise NotApplicable("the game declares nothing conserved")
    return f"{', '.join(conserves)} unchanged after every move"


def _serialization(entry: GameEntry, plays: Plays) -> str:
    return "replays, views, snapshots and outcomes survive JSON"


def _replay(entry: GameEntry, plays: Plays) -> str:
    return "config, seed and moves rebuild every state"


def _seed(entry: GameEntry, plays: Plays) -> str:
    if entry.rules.game_type.chance:
        return "seeds set up different games"
    return "another seed plays the same moves to the same views"


def _bots(entry: GameEntry, plays: Plays) -> str:
    game = entry.rules
    levels = bot_levels(entry)
    for bot in levels:
        if bot.level not in LEVELS:
            raise KitFailure("bots", f"{bot.name}: level {bot.level!r}")
    names = {bot.name for bot in entry.bots}
    if entry.default_bot != "random" and entry.default_bot not in names:
        raise KitFailure("bots", f"the default bot {entry.default_bot!r} is not a bot of "
                                 "the game")
    case = plays.cases[0]
    playing = [bot for bot in levels if bot.available()]
    # Several levels share a game (a whole game each cost a minute in word games), always
    # beside the game's usual stand-in: the random bot alone may never end a race.
    together = max(1, case.players - 1)
    for start in range(0, len(playing), together):
        group = [bot.name for bot in playing[start:start + together]]
        lineup = group + [entry.default_bot] * (case.players - len(group))
        try:
            result = play_game(game, case.options, make_bots(entry, lineup), seed=1,
                               plan=entry.plan)
        except Exception as error:
            raise KitFailure("bots", f"{', '.join(group)} ({case.label}): "
                                     f"{type(error).__name__}: {error}") from None
        if not result.winners:
            raise KitFailure("bots", f"{', '.join(group)}: the game ended without a winner")
    played = [bot.name for bot in playing]
    return (f"{', '.join(played)} each played a game through beside "
            f"{entry.default_bot} ({case.label})")


#: Every shell's extension record (``core/plugin.py``, "Shell extensions"), by the key a
#: game declares it under: what the ``entry`` check builds for every game.
EXTENSIONS: dict[str, type[Extension]] = {
    kind.SHELL: kind for kind in (EnvGame, LoadGame, ServerGame, SimGame, TerminalGame)}


def _extensions(entry: GameEntry) -> tuple[EnvGame, LoadGame, TerminalGame]:
    """Every shell's record of the game, built from what it declared: an unknown shell
    or a field a record does not have fails here rather than when that shell first runs."""
    unknown = sorted(set(entry.extensions) - set(EXTENSIONS))
    if unknown:
        raise KitFailure("entry", f"no shell reads the extension {', '.join(unknown)} "
                                  f"(the shells: {', '.join(sorted(EXTENSIONS))})")
    try:
        for kind in EXTENSIONS.values():
            entry.extension(kind)
        return entry.extension(EnvGame), entry.extension(LoadGame), entry.extension(TerminalGame)
    except (TypeError, ValueError) as error:
        raise KitFailure("entry", str(error)) from None


def _entry(entry: GameEntry, plays: Plays) -> str:
    envs, load, terminal = _extensions(entry)
    named = []
    if terminal.module is not None:
        front = importlib.import_module(terminal.module)
        missing = [name for name in TERMINAL_NAMES if not hasattr(front, name)]
        if missing:
            raise KitFailure("entry", f"{terminal.module} lacks {', '.join(missing)}")
        named.append("terminal")
    for label, dotted in (("commands", terminal.commands), ("trainer", envs.trainer),
                          ("load chooser", load.chooser)):
        if dotted is not None:
            module, _, attr = dotted.partition(":")
            if not hasattr(importlib.import_module(module), attr):
                raise KitFailure("entry", f"{dotted} does not exist")
            named.append(label)
    modules: list[tuple[str, str | None]] = [("env", envs.module),
                                             ("openspiel", envs.openspiel),
                                             *envs.names.items()]
    for label, name in modules:
        if name is not None:
            if importlib.util.find_spec(name) is None:
                raise KitFailure("entry", f"{name} does not exist")
            named.append(label)
    if not _package(entry).joinpath("web", "index.js").is_file():
        raise KitFailure("entry", f"{entry.package}/web/index.js is missing")
    return "exist: the browser module" + "".join(f", {name}" for name in named)


def _package(entry: GameEntry) -> Traversable:
    return resources.files(entry.package)


def _read(path: Traversable) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def _rules_pages(entry: GameEntry, plays: Plays) -> str:
    """The page in every language: the eight sections in order, every option explained,
    written for players, card pictures of this game."""
    options = list(entry.rules.options_schema.options)
    for lang in LANGUAGES:
        text = _read(_package(entry).joinpath("rules", f"{lang}.md"))
        where = f"rules/{lang}.md"
        if text is None:
            raise KitFailure("rules pages", f"{where} is missing")
        if re.search(r"^# ", text, flags=re.MULTILINE):
            raise KitFailure("rules pages", f"{where} has a # title (the client shows it)")
        keys = [key for key, _ in render(text)[1]]
        if keys != list(SECTIONS):
            raise KitFailure("rules pages", f"{where} has {len(keys)} sections, not the "
                                            f"{len(SECTIONS)} in order")
        parts = re.split(r"^## .*$", text, flags=re.MULTILINE)
        unexplained = [name for name in options
                       if f"`{name}`" not in parts[SECTIONS.index("options") + 1]]
        if unexplained:
            raise KitFailure("rules pages", f"{where} does not explain "
                                            f"{', '.join(unexplained)}")
        if entry.rules.table_minutes and not re.search(
                r"\{minutes(:\w+)?\}", parts[SECTIONS.index("overview") + 1]):
            raise KitFailure("rules pages", f"{where}: the overview gives no {{minutes}} "
                                            "(the lobby's measured length)")
        if not parts[SECTIONS.index("rulings") + 1].strip():
            raise KitFailure("rules pages", f"{where} has no rulings")
        developer = [word for word in DEVELOPER_WORDS if word in text.lower()]
        if developer:
            raise KitFailure("rules pages", f"{where} speaks to developers: "
                                            f"{', '.join(developer)}")
        for spec in re.findall(r"\]\(card:([^)]*)\)", text):
            if not spec.startswith(f"{entry.id}/"):
                raise KitFailure("rules pages", f"{where} draws another game's card {spec}")
    return f"{', '.join(LANGUAGES)}: {len(SECTIONS)} sections, {len(options)} options explained"


def _catalogue(folder: Traversable, lang: str) -> dict[str, Any] | None:
    text = _read(folder.joinpath(f"{lang}.json"))
    return None if text is None else dict(json.loads(text))


def required_keys(entry: GameEntry) -> set[str]:
    """The keys the shell looks up for every game (src/twintable/web/README.md)."""
    game = entry.rules
    keys = {f"game.{game.id}", f"game.{game.id}.about", f"event.{game.id}.game_over"}
    for name, option in game.options_schema.options.items():
        keys |= {f"option.{game.id}.{name}", f"option.{game.id}.{name}.help"}
        if option.kind in ("choice", "int_list"):  # a list's choices: the words it takes
            keys |= {f"choice.{value}" for value in option.choices}
    keys |= {f"bot.{bot.name}" for bot in bot_levels(entry)}
    keys |= {f"replay.action.{kind}" for kind in game.payloads}
    return keys


def _translations(entry: GameEntry, plays: Plays) -> str:
    """The catalogues in every language with the same keys (plural forms included: Korean
    too), every line written, the shell's keys present, and only the game's own keys
    besides those the shell shares, reading as the other games read them."""
    own = _package(entry).joinpath("web", "i18n")
    shell = resources.files("twintable").joinpath("web", "i18n")
    english = _catalogue(own, "en")
    if english is None:
        raise KitFailure("translations", "web/i18n/en.json is missing")
    for lang in LANGUAGES:
        mine = _catalogue(own, lang)
        if mine is None:
            raise KitFailure("translations", f"web/i18n/{lang}.json is missing")
        if set(mine) != set(english):
            differ = sorted(set(mine) ^ set(english))
            raise KitFailure("translations", f"{lang} and en differ in "
                                             f"{', '.join(differ[:4])}")
        empty = [key for key, value in mine.items() if not isinstance(value, str) or not value]
        if empty:
            raise KitFailure("translations", f"{lang}: no text for {', '.join(empty[:4])}")
        merged = (_catalogue(shell, lang) or {}) | mine
        missing = sorted(key for key in required_keys(entry)
                         if key not in merged and f"{key}#other" not in merged)
        if missing:
            raise KitFailure("translations", f"{lang} lacks {', '.join(missing[:4])}")
        for key, (theirs, where) in _other_lines(entry, lang).items():
            if key in mine and mine[key] != theirs:
                raise KitFailure("translations", f"{lang}: {key} reads {mine[key]!r}, "
                                                 f"{where} has {theirs!r} (catalogues are "
                                                 "merged: keep your keys under your id)")
    return f"{', '.join(LANGUAGES)}: {len(english)} keys in each, the shell's keys present"


def _other_lines(entry: GameEntry, lang: str) -> dict[str, tuple[str, str]]:
    """What the shell's and the other installed games' catalogues say, by key: the
    catalogues are merged in no fixed order, so a key two of them hold must read alike."""
    lines = {key: (value, "the shell")
             for key, value in (_catalogue(resources.files("twintable").joinpath(
                 "web", "i18n"), lang) or {}).items()}
    for other in default_registry().entries():
        if other.id != entry.id:
            catalogue = _catalogue(_package(other).joinpath("web", "i18n"), lang) or {}
            for key, value in catalogue.items():
                lines.setdefault(key, (value, other.id))
    return lines


Check = Callable[[GameEntry, Plays], str]

#: Every check, in the order they are reported: (name, what it proves, function).
CHECKS: tuple[tuple[str, str, Check], ...] = (
    (conformance.TYPE, "the rules declare their type, and play agrees", _type),
    ("options", "defaults validate; every number and list is bounded", _options),
    (conformance.PLAYOUT, "random games end with an outcome", _playouts),
    (conformance.LEGAL, "seats to act have legal moves", _legal),
    (conformance.REFUSALS, "illegal moves are refused and change nothing", _refusals),
    (conformance.VIEWS, "views show nothing a seat cannot see", _views),
    (conformance.CONSERVATION, "what the game declares conserved stays", _conservation),
    (conformance.SERIALIZATION, "replays, views and outcomes survive JSON", _serialization),
    (conformance.REPLAY, "config, seed and moves rebuild every state", _replay),
    (conformance.SEED, "the seed matters exactly when there is chance", _seed),
    ("bots", "every bot plays a game through", _bots),
    ("entry", "what the entry names exists", _entry),
    ("rules pages", "the rules pages in every language", _rules_pages),
    ("translations", "the catalogues in every language", _translations),
)
CHECK_NAMES = tuple(name for name, _, _ in CHECKS)


def check_game(entry: GameEntry, seeds: Sequence[int] = SEEDS,
               only: Iterable[str] | None = None) -> list[CheckResult]:
    """Every check (or those named in ``only``) on one game, in :data:`CHECKS` order."""
    wanted = set(CHECK_NAMES if only is None else only)
    unknown = wanted - set(CHECK_NAMES)
    if unknown:
        raise ValueError(f"no such check: {', '.join(sorted(unknown))} (the checks: "
                         f"{', '.join(CHECK_NAMES)})")
    if getattr(entry.rules, "game_type", None) is None:
        # Nothing else can be chosen without the type.
        return [CheckResult(name, False if name == conformance.TYPE else None,
                            "the rules declare no game_type (core/gametype.py)"
                            if name == conformance.TYPE else "needs the game's type")
                for name in CHECK_NAMES if name in wanted]
    rules_checks = set(CHECK_NAMES[:10])
    plays = play(entry, seeds) if wanted & rules_checks else Plays(cases(entry))
    results = []
    for name, _, run in CHECKS:
        if name not in wanted:
            continue
        if name in plays.failures:
            results.append(CheckResult(name, False, plays.failures[name]))
            continue
        try:
            if name in rules_checks - {conformance.TYPE, "options"} and not plays.playouts:
                raise NotApplicable("not reached: no random game got past the failed checks")
            detail = run(entry, plays)
        except NotApplicable as why:
            results.append(CheckResult(name, None, str(why)))
        except KitFailure as error:
            results.append(CheckResult(name, False, error.reason))
        except Exception as error:
            results.append(CheckResult(name, False, f"{type(error).__name__}: {error}"))
        else:
            results.append(CheckResult(name, True, detail))
    return results


__all__ = ["CHECKS", "CHECK_NAMES", "Case", "CheckResult", "KitFailure", "NotApplicable", "cases",
           "check_game", "required_keys"]
