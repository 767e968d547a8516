"""Checks every game must pass, run by the test suite over all registered games.

Modelled on PettingZoo's shipped API tests: random playouts end, seats that may act
have legal actions, illegal actions are refused without a trace, the same seed and
actions give the same states, replays survive JSON, and views leak nothing (a seat's view
is unchanged when everything it cannot see is re-dealt; the views written together for
a move's frames are each audience's own).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from twintable.core.errors import RuleError
from twintable.core.game import Game
from twintable.core.replay import Replay
from twintable.core.types import Action

MAX_STEPS = 100_000


@dataclass(slots=True)
class Playout:
    """A finished random game: its replay and how many leak and illegality probes ran."""

    replay: Replay
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    illegal_probes: int = 0
    leak_probes: int = 0
    leak_probes_that_changed_hidden_state: int = 0


def random_playout(game: Game[Any], players: int, seed: int,
                   options: Mapping[str, Any] | None = None, probe_every: int = 0,
                   keep_snapshots: bool = False) -> Playout:
    """Play uniformly random legal actions to the end, checking invariants on the way.

    With ``probe_every`` > 0, every that many steps: actions seen legal earlier but not
    legal now must be refused without changing the state, and every seat's view (and the
    spectators') must survive a re-deal of what it cannot see.
    """
    rng = random.Random(seed)
    state = game.new_state(options, players, seed)
    replay = Replay(game.id, players, seed, dict(game.resolve_options(options)))
    playout = Playout(replay)
    seen_legal: dict[tuple[Any, ...], Action] = {}
    now = 0
    for step in range(MAX_STEPS):
        if keep_snapshots:
            playout.snapshots.append(game.snapshot(state))
        if game.is_over(state):
            _check_finished(game, state, players)
            return playout
        acting = sorted(game.to_act(state))
        legal: list[Action] = []
        for seat in acting:
            seat_legal = game.legal_actions(state, seat)
            if not seat_legal:
                raise AssertionError(f"seat {seat} may act but has no legal action "
                                     f"(step {step}, seed {seed})")
            legal += seat_legal
        deadline = game.deadline(state)
        if not legal and deadline is None:
            raise AssertionError(f"nobody can act and no deadline is set (step {step})")
        if probe_every and step % probe_every == 0:
            playout.illegal_probes += _probe_illegal(game, state, legal, seen_legal, players)
            changed = _probe_leaks(game, state, players, rng)
            playout.leak_probes += players + 1
            playout.leak_probes_that_changed_hidden_state += changed
        for candidate in legal:
            seen_legal.setdefault(candidate.key(), candidate)
        if len(seen_legal) > 400:
            for key in list(seen_legal)[:200]:
                del seen_legal[key]
        later = now + rng.randrange(0, 400)
        if deadline is not None and (not legal or later >= deadline or rng.random() < 0.1):
            # A table fires a timer at its deadline, before any later action.
            now = max(now, deadline)
            timeout = game.timeout_action(state, now)
            if timeout is None:
                raise AssertionError("a deadline passed without a timeout action")
            action = timeout
        else:
            now = later
            action = rng.choice(legal).at(now)
        game.apply(state, action)
        replay.actions.append(action)
    raise AssertionError(f"random playout did not end within {MAX_STEPS} steps (seed {seed})")


def _check_finished(game: Game[Any], state: Any, players: int) -> None:
    outcome = game.outcome(state)
    if outcome is None or not outcome.winners:
        raise AssertionError("a finished game must have an outcome with winners")
    if len(outcome.scores) != players:
        raise AssertionError("the outcome must score every seat")
    if game.to_act(state):
        raise AssertionError("nobody may act after the end")
    for seat in range(players):
        if game.legal_actions(state, seat):
            raise AssertionError("no action may be legal after the end")
    json.dumps(outcome.to_json())


def _probe_illegal(game: Game[Any], state: Any, legal: list[Action],
                   seen_legal: dict[tuple[Any, ...], Action], players: int) -> int:
    legal_keys = {action.key() for action in legal}
    probes = [action for key, action in seen_legal.items() if key not in legal_keys]
    probes.append(Action(0, "no-such-action"))
    probes.append(Action(players + 3, legal[0].kind if legal else "none"))
    probes = probes[-40:] if game.finite_actions else probes[-2:]
    before = game.snapshot(state)
    for action in probes:
        try:
            game.apply(state, action)
        except RuleError as error:
            if not error.code or not error.message:
                raise AssertionError(f"{action} refused without a code or message") from None
        else:
            raise AssertionError(f"illegal action {action} was accepted")
        if game.snapshot(state) != before:
            raise AssertionError(f"refused action {action} changed the state")
    return len(probes)


def _probe_leaks(game: Game[Any], state: Any, players: int, rng: random.Random) -> int:
    changed = 0
    viewers = [*range(players), None]
    shared, own = game.views_json(state, viewers)
    for viewer in viewers:
        redealt = game.determinize(state, viewer, rng)
        if game.snapshot(redealt) != game.snapshot(state):
            changed += 1
        mine = game.view(state, viewer).to_json()
        json.dumps(mine)
        # The views written together (a move's frames) are each audience's own view.
        if shared.keys() & own[viewer].keys() or shared | own[viewer] != mine:
            raise AssertionError(f"views_json does not give the view of {viewer}")
        theirs = game.view(redealt, viewer).to_json()
        if mine != theirs:
            raise AssertionError(f"the view of {viewer} depends on what it cannot see")
    return changed


def check_replay(game: Game[Any], playout: Playout) -> None:
    """The recorded actions rebuild the same states, also after a JSON round-trip."""
    replay = Replay.loads(playout.replay.dumps())
    if replay.to_json() != playout.replay.to_json():
        raise AssertionError("replay JSON round-trip changed the replay")
    state = None
    for index, (_, _, state) in enumerate(replay.steps(game)):
        if playout.snapshots and game.snapshot(state) != playout.snapshots[index]:
            raise AssertionError(f"replayed state {index} differs from the original")
    if not game.is_over(state):
        raise AssertionError("the replayed game did not end")


__all__ = ["Playout", "check_replay", "random_playout"]
