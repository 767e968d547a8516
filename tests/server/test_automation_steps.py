"""A server's table steps the table engine (``core/table_engine.py``): from the same
state, clock and seeds, the step its automation decides (which bot acts, when, with what;
a timer firing; a wait for a person) is the step the simulator's table engine takes with
the players :func:`table_players` gives a table of the same bots.

The table here is a stand-in for :class:`~twintable.server.tables.Table` holding only
what the automation reads, and the wall clock is held still, so a decision is compared
without a server running or any sleep."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import pytest

import twintable.server.clock as clock
from twintable.bots.registry import bot_factories, default_bot
from twintable.core.plugin import GameEntry, Pacing
from twintable.core.registry import default_registry
from twintable.core.table_engine import (
    EventKind,
    Step,
    TableEngine,
    next_step,
    table_players,
)
from twintable.server.automation import PEOPLE_PACE_BOT_DELAY_MS, Automation

SEED = 11
#: Seats at a table, unless the game takes more (Twinz: four).
PLAYERS = 3
#: Moves the simulator plays before each comparison: the opening, then mid-game states.
MOVES = (0, 3, 12, 30)


class NobodyAway:
    """Presence at a table of bots: no person's seat, so no stand-in ever starts."""

    def stand_in_from(self, seat: int) -> float | None:
        return None

    def stands_in(self, seat: int, now: float) -> bool:
        return False


def seats(entry: GameEntry) -> int:
    return max(PLAYERS, entry.rules.min_players)


def server_table(entry: GameEntry, state: Any, bot: str, bot_delay_ms: int) -> Any:
    """What :class:`Automation` reads of a running table whose seats are all ``bot``."""
    seats_ = [SimpleNamespace(seat=seat, kind="bot", bot=bot) for seat in range(seats(entry))]
    settings = SimpleNamespace(bot_delay_ms=bot_delay_ms, realtime_bot_pace=1.0)
    return SimpleNamespace(
        id="t1", entry=entry, game=entry.rules, state=state, seats=seats_,
        row=SimpleNamespace(seed=SEED, status="running"), presence=NobodyAway(),
        server=SimpleNamespace(settings=settings, records={}), unsure=False)


def server_step(entry: GameEntry, state: Any, bot: str, rng_seed: int,
                bot_delay_ms: int = PEOPLE_PACE_BOT_DELAY_MS) -> tuple[Step | None, Any]:
    """The step the server's automation decides at ``state``, its bots drawing from
    ``random.Random(rng_seed)``, and the generator's state after it."""
    automation = Automation(server_table(entry, state, bot, bot_delay_ms))
    automation.rng = random.Random(rng_seed)

    async def decide() -> Step | None:
        return (await automation.decide())[1]

    return asyncio.run(decide()), automation.rng.getstate()


def reached(entry: GameEntry, bot: str, moves: int,
            until: Any = None) -> tuple[Any, int]:
    """The state the simulator's table engine reaches after ``moves`` moves of a seeded
    game of ``bot`` (fewer if it ends first; more, while ``until(state)`` is false), and
    its clock then."""
    game = entry.rules
    factory = bot_factories(entry)[bot]
    state = game.new_state(game.resolve_options({}), seats(entry), SEED)
    players = table_players(game, [factory() for _ in range(seats(entry))],
                            random.Random(SEED), entry.plan,
                            people_pace=entry.pacing is Pacing.PEOPLE)
    table = TableEngine(game, state, players, sit_out_refused=True)
    while (table.moves < moves or (until is not None and not until(state))) \
            and not table.over:
        step = table.next()
        assert step is not None
        table.play(step)
    return state, table.now_ms


@pytest.mark.parametrize(("game_id", "bot"), [
    ("timo", None), ("twins", None), ("twinit", None), ("tricks", None),
    # Random bots all plan a step from now in a race: every plan ties.
    ("twinit", "random")])
@pytest.mark.parametrize("moves", MOVES)
def test_the_server_takes_the_step_the_table_engine_takes(
        game_id: str, bot: str | None, moves: int, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = default_registry().entry(game_id)
    game, bot = entry.rules, bot or default_bot(entry)
    state, now = reached(entry, bot, moves)
    if game.is_over(state):
        pytest.skip("the seeded game ended first")
    monkeypatch.setattr(clock, "now_ms", lambda: now)
    factory = bot_factories(entry)[bot]
    # The players a simulation of these bots has (sim/runner.py), Timo's bots racing at
    # people's pace as at a table of people.
    players = table_players(game, [factory() for _ in range(seats(entry))],
                            random.Random(SEED + moves), entry.plan,
                            people_pace=entry.pacing is Pacing.PEOPLE)
    simulated = TableEngine(game, state.clone(), players, now_ms=now).next()
    served, _ = server_step(entry, state.clone(), bot, SEED + moves, bot_delay_ms=(
        PEOPLE_PACE_BOT_DELAY_MS if entry.pacing is Pacing.PEOPLE else 0))
    assert simulated is not None and served == simulated


def test_turn_by_turn_a_bot_moves_after_the_thinking_delay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's thinking delay is the time of the plan the engine picks, not a sleep
    of the server's own: a bot of a game that times its turns (Twins) moves that long
    after the table looks."""
    entry = default_registry().entry("twins")
    state, now = reached(entry, "random", 2)
    monkeypatch.setattr(clock, "now_ms", lambda: now)
    served, _ = server_step(entry, state, "random", SEED, bot_delay_ms=700)
    assert served is not None and served.kind is EventKind.BOT and served.at_ms == now + 700


def test_a_timer_run_out_fires_at_its_deadline_before_any_bot_thinks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As in the simulator: the deadline has passed while the table looked away, so the
    timer's action is the step, stamped at the deadline, and no bot drew for a move that
    would come too late (the server's generator is untouched)."""
    entry = default_registry().entry("twinit")
    game, bot = entry.rules, default_bot(entry)
    state, _ = reached(entry, bot, 3, until=lambda state: game.deadline(state) is not None)
    deadline = game.deadline(state)
    assert deadline is not None
    monkeypatch.setattr(clock, "now_ms", lambda: deadline + 250)
    served, rng_after = server_step(entry, state, bot, SEED)
    assert served == next_step(game, state, deadline + 250, ())
    assert served is not None and served.kind is EventKind.TIMER and served.at_ms == deadline
    assert rng_after == random.Random(SEED).getstate()
