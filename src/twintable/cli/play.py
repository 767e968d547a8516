"""``twintable play`` and ``replay``: a game in the terminal, against bots or as it was
saved."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from twintable.bots.registry import level_of, seat_names
from twintable.cli.replay_file import BadReplayFile, checked_replay
from twintable.cli.shell import (
    TERMINAL_GAMES,
    bot_lineup,
    console,
    fail,
    game_ids,
    parse_options,
    terminal_of,
)
from twintable.core.errors import TwinTableError, in_words
from twintable.core.registry import default_registry
from twintable.core.replay import Replay
from twintable.core.types import events_for
from twintable.sim.runner import make_bots
from twintable.terminal.catalogue import Catalogue


def shell_line(key: str, **values: object) -> str:
    """The terminal shell's own sentences (who sits where, the seed, the final scores) in
    the player's language, from the shell's catalogue (``terminal.<key>``, the one the
    browser reads; ``level`` is a level id: easy, hard...)."""
    words = Catalogue()
    if "level" in values:
        values["level"] = words.say(f"level.{values['level']}")
    return words.say(f"terminal.{key}", **values)


def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME",
                                           help=f"Game id: {game_ids(TERMINAL_GAMES)}.")]
    = TERMINAL_GAMES[0].id if TERMINAL_GAMES else "",
    players: Annotated[int | None, typer.Option(
        help="Players at the table, you included (default: the fewest the game takes).")]
    = None,
    bots: Annotated[str | None, typer.Option(
        help="Bots for the other seats by level (beginner, easy, medium, hard, expert; "
             "see `twintable games` for each game's) or by name, comma-separated; "
             "repeated to fill (default: the game's usual bot).")] = None,
    pace: Annotated[float, typer.Option(
        help="Bots' speed where time counts (races): 1 = a person's, 2 = twice as slow, "
             "0 = at once.", min=0)] = 1.0,
    seed: Annotated[int | None, typer.Option(help="Seed for the shuffle (random if unset).")]
    = None,
    option: Annotated[list[str] | None, typer.Option(help="A table option, key=value.")]
    = None,
    save: Annotated[Path | None, typer.Option(help="Write the game's replay here.")] = None,
) -> None:
    """Play in the terminal against bots. You sit in seat 0 (see `twintable games` for
    each game's bots)."""
    tui = terminal_of(game_id)

    registry = default_registry()
    entry = registry.entry(game_id)
    game = entry.rules
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    try:
        options = game.resolve_options(parse_options(option))
        players = players if players is not None else game.player_range(options)[0]
        game.check_players(players, options)
        bot_names = seat_names(entry, bot_lineup(bots or entry.default_bot, players - 1))
        seat_bots = make_bots(entry, bot_names)
    except (TwinTableError, ValueError, RuntimeError) as error:
        raise fail(in_words(error)) from None
    speak = shell_line
    # Bots are shown by their level on the shared scale (Hard), never by a bot's name.
    names = [speak("you", seat=0)]
    names += [speak("bot", seat=seat, level=str(level_of(entry, name)))
              for seat, name in enumerate(bot_names, start=1)]
    state = game.new_state(options, players, seed)
    replay = Replay(game.id, players, seed, dict(options))
    rng = random.Random(seed)
    human = 0
    terminal = tui.Terminal(game, [None, *seat_bots], human, names, rng, console, pace=pace)
    console.print(f"[bold]{escape(speak('header', game=game.name, seed=seed, n=players))}[/] "
                  f"{tui.INTRO}")
    while not game.is_over(state):
        try:
            action = terminal.next_move(state)
        except (EOFError, KeyboardInterrupt):
            console.print("\n" + speak("left"))
            if save:
                replay.save(save)
                console.print(speak("saved_so_far", path=save))
            raise typer.Exit(1) from None
        events = game.apply(state, action)
        replay.actions.append(action)
        line = tui.describe_action(game.view(state, None), action, names)
        if line:
            console.print(f"  {line}")
        for event in events_for(events, human):
            line = tui.describe_event(game.view(state, None), event, names, human)
            if line:
                console.print(f"  [bold]{line}[/]")
    outcome = game.outcome(state)
    assert outcome is not None
    final = zip(names, outcome.scores, strict=True)
    console.print(speak("final", scores=", ".join(f"{name} {score}" for name, score in final)))
    if save:
        replay.save(save)
        console.print(speak("saved", path=save))


def replay(
    path: Annotated[Path, typer.Argument(help="A replay file written by play --save.")],
    seat: Annotated[int | None, typer.Option(help="Watch as this seat (default: spectator).")]
    = None,
    step: Annotated[bool | None, typer.Option(
        "--step/--all", help="Wait for Enter between moves (default: when interactive).")]
    = None,
) -> None:
    """Step through a saved game in the terminal."""
    try:
        saved, game = checked_replay(path)
    except BadReplayFile as error:
        raise fail(str(error)) from None
    tui = terminal_of(saved.game)
    if seat is not None and not 0 <= seat < saved.players:
        raise fail(f"--seat takes 0 to {saved.players - 1} for this game")

    interactive = sys.stdin.isatty() if step is None else step
    names = [f"seat {s}" for s in range(saved.players)]
    for index, (action, events, state) in enumerate(saved.steps(game)):
        public = game.view(state, None)
        if action is not None:
            # Some moves are told by their events alone (a Twinz clue, a timer).
            said = tui.describe_action(public, action, names)
            console.print(f"[bold]{index}.[/] {said or ''}".rstrip())
        for event in events_for(events, seat):
            line = tui.describe_event(public, event, names, seat)
            if line:
                console.print(f"   {line}")
        console.print(tui.render(game.view(state, seat), names))
        if interactive and index < len(saved.actions):
            console.input("[dim]Enter for the next move[/]")
    outcome = game.outcome(state)
    if outcome is not None:
        console.print(f"Final scores: {outcome.scores}, winner(s): {sorted(outcome.winners)}")
