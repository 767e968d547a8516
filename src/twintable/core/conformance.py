"""Checks every game must pass, run over every installed game (``twintable check``,
``twintable.kit``).

Modelled on PettingZoo's shipped API tests: random playouts end, seats that may act
have legal actions, illegal actions are refused without a trace, the same seed and
actions give the same states, replays survive JSON, views leak nothing (a seat's view
is unchanged when everything it cannot see is re-dealt, and the re-deal replaces the
RNG; the views written together for a move's frames are each audience's own), what the
game declares conserved never changes, and the seed matters exactly when the game
declares chance. Which checks apply comes from the game's declared type
(``core/gametype.py``). A failed check raises :class:`ConformanceError` naming it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass, field
from typing import Any

from twintable.core.errors import RuleError
from twintable.core.game import Game
from twintable.core.gametype import Dynamics, Information
from twintable.core.replay import Replay
from twintable.core.rng import Rng
from twintable.core.schedule import Plan
from twintable.core.table_engine import TableEngine, TableStuck
from twintable.core.types import Action

MAX_STEPS = 100_000
#: How many of a step's legal actions a playout remembers to probe later.
SEEN_PER_STEP = 12
#: Steps after which the probes' spacing grows by ``probe_every`` again.
PROBE_STRETCH = 100

#: The checks a random playout runs, by the name a failure reports.
PLAYOUT = "playouts"
LEGAL = "legal moves"
REFUSALS = "refusals"
VIEWS = "views hide"
CONSERVATION = "conservation"
SERIALIZATION = "serialization"
REPLAY = "replay"
SEED = "seed"
TYPE = "type"


class ConformanceError(AssertionError):
    """A game failed the check named ``check`` (one of this module's check names)."""

    def __init__(self, check: str, message: str):
        super().__init__(f"{check}: {message}")
        self.check = check
        self.reason = message


@dataclass(slots=True)
class Playout:
    """A finished random game: its replay and how many leak and illegality probes ran."""

    replay: Replay
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    illegal_probes: int = 0
    leak_probes: int = 0
    leak_probes_that_changed_hidden_state: int = 0
    steps: int = 0
    steps_with_one_seat: int = 0
    most_seats_at_once: int = 0


def random_playout(game: Game[Any], players: int, seed: int,
                   options: Mapping[str, Any] | None = None, probe_every: int = 0,
                   keep_snapshots: bool = False) -> Playout:
    """Play uniformly random legal actions to the end on the table engine's virtual clock
    (a random move a random moment later, or the game's timer), checking invariants on
    the way.

    With ``probe_every`` > 0, every that many steps (thinning out in long games, see
    :func:`_probe_due`): actions seen legal earlier but not legal now must be refused
    without changing the state, and every seat's view (and the spectators') must survive
    a re-deal of what it cannot see.
    """
    rng = random.Random(seed)
    state = game.new_state(options, players, seed)
    if game.snapshot(game.new_state(options, players, seed)) != game.snapshot(state):
        raise ConformanceError(REPLAY, f"two games set up from seed {seed} differ")
    replay = Replay(game.id, players, seed, dict(game.resolve_options(options)))
    playout = Playout(replay)
    declared = getattr(game, "game_type", None)
    conserved = game.conserved(state)
    if declared is not None and set(conserved) != set(declared.conserves):
        raise ConformanceError(CONSERVATION, f"conserved() reports {sorted(conserved)}, "
                               f"the game type declares {sorted(declared.conserves)}")
    seen_legal: dict[tuple[Any, ...], Action] = {}
    moves = _RandomMoves(rng)
    table = TableEngine(game, state, moves)
    for step in range(MAX_STEPS):
        if keep_snapshots:
            playout.snapshots.append(game.snapshot(state))
        if game.is_over(state):
            _check_finished(game, state, players)
            playout.steps = step
            return playout
        acting = sorted(game.to_act(state))
        playout.steps_with_one_seat += len(acting) == 1
        playout.most_seats_at_once = max(playout.most_seats_at_once, len(acting))
        legal: list[Action] = []
        for seat in acting:
            seat_legal = game.legal_actions(state, seat)
            if not seat_legal:
                raise ConformanceError(LEGAL, f"seat {seat} may act but has no legal action "
                                       f"(step {step}, seed {seed})")
            legal += seat_legal
        deadline = game.deadline(state)
        if not legal and deadline is None:
            raise ConformanceError(LEGAL, f"nobody can act and no deadline is set "
                                   f"(step {step}, seed {seed})")
        if probe_every and _probe_due(step, probe_every):
            playout.illegal_probes += _probe_illegal(game, state, legal, seen_legal, players)
            changed = _probe_leaks(game, state, players, rng)
            playout.leak_probes += players + 1
            playout.leak_probes_that_changed_hidden_state += changed
        # Remembered to probe later as no longer legal: a spread of at most
        # SEEN_PER_STEP of them (a real-time game offers a hundred touches a step, and
        # keying every one cost a quarter of its playout).
        for candidate in legal[::len(legal) // SEEN_PER_STEP + 1] if probe_every else ():
            seen_legal.setdefault(candidate.key(), candidate)
        if len(seen_legal) > 400:
            for key in list(seen_legal)[:200]:
                del seen_legal[key]
        moves.legal, moves.deadline = legal, deadline
        try:
            next_move = table.next()
        except TableStuck:
            raise ConformanceError(LEGAL, "a deadline passed without a timeout action") from None
        assert next_move is not None and next_move.action is not None  # legal or a deadline
        table.play(next_move)
        replay.actions.append(next_move.action)
        if conserved and game.conserved(state) != conserved:
            raise ConformanceError(CONSERVATION, f"{next_move.action} changed what the game "
                                   f"conserves ({', '.join(sorted(conserved))}; seed {seed}, "
                                   f"step {step})")
    raise ConformanceError(PLAYOUT, f"random playout did not end within {MAX_STEPS} steps "
                           f"(seed {seed})")


def _probe_due(step: int, probe_every: int) -> bool:
    """Whether to probe at ``step``: every ``probe_every`` steps at first, then ever more
    sparsely (twice as far apart after :data:`PROBE_STRETCH` steps, three times after
    twice that…). A random playout of a real-time game runs to thousands of steps, mostly
    wrong touches in the same few positions; probing each third one cost 10 of a game's
    20 s, while a long game still gets a probe in every stretch of it."""
    return step % (probe_every * (1 + step // PROBE_STRETCH)) == 0


class _RandomMoves:
    """The players of a random playout: one uniformly random legal move of any seat to
    act, a random moment (up to 0.4 s) later, unless the game's timer is let run out (it
    would come first, nobody may move, or one time in ten)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.legal: list[Action] = []
        self.deadline: int | None = None
        """The moves and deadline of the state the playout is at."""

    def plans(self, state: Any, now_ms: int, step: int,
              refused: Set[int]) -> Iterator[Plan]:
        rng, legal, deadline = self.rng, self.legal, self.deadline
        later = now_ms + rng.randrange(0, 400)
        if deadline is not None and (not legal or later >= deadline or rng.random() < 0.1):
            return
        choice = rng.choice(legal)
        yield Plan(later, choice.seat, choice)


def _check_finished(game: Game[Any], state: Any, players: int) -> None:
    outcome = game.outcome(state)
    if outcome is None or not outcome.winners:
        raise ConformanceError(PLAYOUT, "a finished game must have an outcome with winners")
    if len(outcome.scores) != players:
        raise ConformanceError(PLAYOUT, "the outcome must score every seat")
    if game.to_act(state):
        raise ConformanceError(LEGAL, "nobody may act after the end")
    for seat in range(players):
        if game.legal_actions(state, seat):
            raise ConformanceError(LEGAL, "no action may be legal after the end")
    # Clients know a game has ended from its views alone (``over``, or its phase).
    ended = game.view(state, None).to_json()
    if ended.get("over") is not True and ended.get("phase") != "over":
        raise ConformanceError(PLAYOUT, "a finished game's views do not say so (give them "
                               "over: true)")
    _as_json(outcome.to_json(), "the outcome")
    _as_json(game.snapshot(state), "the snapshot")


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
                raise ConformanceError(REFUSALS, f"{action} refused without a code or "
                                       "message") from None
        else:
            raise ConformanceError(REFUSALS, f"illegal action {action} was accepted")
        if game.snapshot(state) != before:
            raise ConformanceError(REFUSALS, f"refused action {action} changed the state")
    return len(probes)


def _probe_leaks(game: Game[Any], state: Any, players: int, rng: random.Random) -> int:
    changed = 0
    viewers = [*range(players), None]
    shared, own = game.views_json(state, viewers)
    declared = getattr(game, "game_type", None)
    chance = declared is None or declared.chance
    for viewer in viewers:
        before = game.snapshot(state)
        try:
            redealt = game.determinize(state, viewer, rng)
        except NotImplementedError:
            raise ConformanceError(VIEWS, "determinize is not implemented (a game with "
                                   "hidden information must re-deal what a seat cannot "
                                   "see)") from None
        if game.snapshot(state) != before:
            raise ConformanceError(VIEWS, "determinize changed the state it copied")
        if game.snapshot(redealt) != before:
            changed += 1
        kept, fresh = getattr(state, "rng", None), getattr(redealt, "rng", None)
        if chance and isinstance(kept, Rng) and (
                not isinstance(fresh, Rng) or fresh.to_json() == kept.to_json()):
            raise ConformanceError(VIEWS, f"determinize for {viewer} kept the RNG: the "
                                   "re-dealt copy would know the draws to come")
        mine = game.view(state, viewer).to_json()
        _as_json(mine, f"the view of {viewer}", exact=True)
        # The views written together (a move's frames) are each audience's own view.
        if shared.keys() & own[viewer].keys() or shared | own[viewer] != mine:
            raise ConformanceError(VIEWS, f"views_json does not give the view of {viewer}")
        theirs = game.view(redealt, viewer).to_json()
        if mine != theirs:
            raise ConformanceError(VIEWS, f"the view of {viewer} depends on what it cannot "
                                   "see")
    return changed


def _as_json(data: Any, what: str, exact: bool = False) -> None:
    """``data`` survives JSON unchanged (tuples read back as lists). ``exact``: it reads
    back equal, tuples included, as a view must: a client's frame is compared with the
    view as the game made it (a ``teams`` option kept as a tuple once failed that)."""
    try:
        text = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError) as error:
        raise ConformanceError(SERIALIZATION, f"{what} is not JSON: {error}") from None
    if json.dumps(json.loads(text), sort_keys=True) != text or (
            exact and json.loads(text) != data):
        raise ConformanceError(SERIALIZATION, f"{what} changes through JSON")


def check_replay(game: Game[Any], playout: Playout) -> None:
    """The recorded actions rebuild the same states, also after a JSON round-trip."""
    replay = Replay.loads(playout.replay.dumps())
    if replay.to_json() != playout.replay.to_json():
        raise ConformanceError(SERIALIZATION, "replay JSON round-trip changed the replay")
    state = None
    for index, (_, _, state) in enumerate(replay.steps(game)):
        if playout.snapshots and game.snapshot(state) != playout.snapshots[index]:
            raise ConformanceError(REPLAY, f"replayed state {index} differs from the "
                                   "original")
    if not game.is_over(state):
        raise ConformanceError(REPLAY, "the replayed game did not end")


def check_hidden_state(game: Game[Any], playouts: list[Playout]) -> None:
    """A game declaring hidden information re-deals something in its playouts (else the
    leak check proved nothing); one declaring perfect information re-deals nothing a
    seat could see (its views already passed)."""
    declared = getattr(game, "game_type", None)
    hidden = declared is None or declared.information is Information.HIDDEN
    if hidden and not any(p.leak_probes_that_changed_hidden_state for p in playouts):
        raise ConformanceError(VIEWS, "no re-deal changed any hidden state: declare "
                               "perfect information, or re-deal what is hidden")


def check_seed(game: Game[Any], playout: Playout, other_seeds: range = range(1, 7)) -> None:
    """Chance exactly where declared: without chance, the recorded moves played from
    another seed show every seat the same views; with chance, some seeds set up
    different games (their snapshots differ beyond the seed and the RNG)."""
    declared = getattr(game, "game_type", None)
    if declared is None:
        return
    replay = playout.replay
    viewers = [*range(replay.players), None]
    if not declared.chance:
        openings = {json.dumps([game.view(game.new_state(replay.options, replay.players, seed),
                                          viewer).to_json() for viewer in viewers],
                               sort_keys=True, default=str) for seed in other_seeds}
        if len(openings) > 1:
            raise ConformanceError(SEED, "declared without chance, but seeds set up games "
                                   "that seats see differently")
        first = game.new_state(replay.options, replay.players, replay.seed)
        other = game.new_state(replay.options, replay.players, replay.seed + 1)
        for index, action in enumerate([None, *replay.actions]):
            if action is not None:
                game.apply(first, action)
                try:
                    game.apply(other, action)
                except RuleError as error:
                    raise ConformanceError(SEED, f"declared without chance, but move "
                                           f"{index} is refused under another seed: "
                                           f"{error.code}") from None
            for viewer in viewers:
                if game.view(first, viewer).to_json() != game.view(other, viewer).to_json():
                    raise ConformanceError(SEED, "declared without chance, but another "
                                           f"seed shows {viewer} another game (move "
                                           f"{index})")
        return
    # The seed itself and the RNG holding it are left out: what chance did with them counts.
    openings = {json.dumps({key: value for key, value in game.snapshot(
        game.new_state(replay.options, replay.players, seed)).items()
        if key not in ("seed", "rng")}, sort_keys=True, default=str) for seed in other_seeds}
    if len(openings) < 2:
        raise ConformanceError(SEED, "declared with chance, but every seed sets up the same "
                               "game")


def check_type(game: Game[Any], playouts: list[Playout]) -> None:
    """The declared type is there and agrees with play: simultaneous and real-time games
    let several seats act at once somewhere (with two or more seats); a turn-based game
    mostly lets one seat act at a time."""
    declared = getattr(game, "game_type", None)
    if declared is None:
        raise ConformanceError(TYPE, "the rules declare no game_type (core/gametype.py)")
    if game.realtime != (declared.dynamics is Dynamics.REAL_TIME):
        raise ConformanceError(TYPE, "realtime disagrees with the declared dynamics")
    several = [p for p in playouts if p.replay.players > 1]
    if not several:
        return
    most = max(p.most_seats_at_once for p in several)
    if declared.dynamics is not Dynamics.TURN_BASED and most < 2:
        raise ConformanceError(TYPE, f"declared {declared.dynamics}, but no seats ever "
                               "acted at once")
    steps = sum(p.steps for p in several)
    single = sum(p.steps_with_one_seat for p in several)
    if declared.dynamics is Dynamics.TURN_BASED and steps and single * 2 < steps:
        raise ConformanceError(TYPE, f"declared turn-based, but one seat acted alone in "
                               f"only {single} of {steps} steps")


__all__ = ["ConformanceError", "Playout", "check_hidden_state", "check_replay",
           "check_seed", "check_type", "random_playout"]
