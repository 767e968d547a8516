"""The OpenSpiel face of a Twin Table game: what turns a game's engine into an OpenSpiel
Python game, whatever the game (a game's own module says how its moves and views map,
as a :class:`Rules`, and registers it; ``twintable.envs.openspiel`` imports every game's).

A game here is a thin face over the project's own engine: the rules, deals and draws are
the engine's (a fast engine where the game has one), so a game played through OpenSpiel
is the same game, action for action, as one played on the engine with the same seed
(each game's OpenSpiel tests check outcomes).

How the modelling choices were made (docs/openspiel.md has the reader's version):

- **Chance is SAMPLED_STOCHASTIC.** Every shuffle and draw happens inside the engine,
  from the seed kept in its state (core/rng.py), exactly as at a table; that is how the
  project keeps one set of rules (docs/architecture.md: speed never forks the rules).
  Explicit chance nodes would mean dealing and drawing outside the engine, a second copy
  of the rules that the C engine cannot follow. So ``new_initial_state`` draws a fresh
  engine seed from the game's generator (parameter ``seed``; -1 draws it from the
  system's entropy) and the game has no chance nodes: algorithms that need chance
  outcomes listed (CFR, exact best response) do not apply, and would not fit games of
  this size anyway; sampling algorithms (MCTS, IS-MCTS, RL) do.
- **Information states are perfect recall.** A seat's information state string is its
  seat, then every move as that seat saw it (Timo's moves are all public; a Twins pick
  is shown to others only as "committed" until the reveal), each followed by the public
  table after it, and the seat's own hand whenever it gained cards (a deal, a draw, a
  buy). Observation strings and tensors are the seat's current view
  (``Game.view``), which holds only what that seat may see; no information state tensor
  is offered, since a fixed-size tensor of a history this long would not be one.
- **Simultaneous moves are sequential moves with hidden actions**, in seat order, and
  races are the seat on turn's (OpenSpiel has neither): a game's module says how.
- **Returns are win shares**: 1 to the winner, split equally in a tie, 0 to the others
  (CONSTANT_SUM, summing to 1), so an algorithm maximises its chance of winning.
  A game declares the longest game OpenSpiel must know (``max_length``); a game cut
  there goes to the highest score, ties sharing.
- **IS-MCTS**: ``resample_from_infostate(player, sampler)`` re-deals everything
  ``player`` has not seen and reseeds the engine, so future draws are fresh too; other
  seats' private history is replaced by their re-dealt hand, so nothing hidden survives
  in the sample.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from twintable.core.types import Action

Sampler = Callable[[], float]
Tensor = npt.NDArray[np.float32]
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class Rules(ABC):
    """What the OpenSpiel face needs from one engine: integer actions, a seat's view of
    the table in words and numbers, and re-dealing what a seat has not seen."""

    game: Any
    players: int
    size: int
    """How many action ids there are (OpenSpiel's ``num_distinct_actions``)."""
    options: dict[str, Any]

    @abstractmethod
    def new_state(self, seed: int) -> Any:
        """The engine's new game for ``seed``."""

    @abstractmethod
    def current_player(self, state: Any) -> int:
        """The one seat that moves now (the game is not over)."""

    @abstractmethod
    def legal_ids(self, state: Any, seat: int) -> list[int]:
        """The seat's legal moves as ids, ascending."""

    @abstractmethod
    def apply_id(self, state: Any, seat: int, action_id: int) -> None:
        """Play a legal move by its id."""

    @abstractmethod
    def action_of(self, seat: int, action_id: int) -> Action:
        """The engine's action for an id."""

    @abstractmethod
    def id_of(self, action: Action) -> int:
        """The id of an engine action."""

    def is_over(self, state: Any) -> bool:
        return bool(self.game.is_over(state))

    def winners(self, state: Any) -> frozenset[int]:
        outcome = self.game.outcome(state)
        return frozenset(outcome.winners) if outcome is not None else frozenset()

    def view(self, state: Any, viewer: int | None) -> Any:
        return self.game.view(state, viewer)

    @abstractmethod
    def scores(self, view: Any) -> list[int]:
        """What decides the winner, as it stands: Timo's points, Twins' chips."""

    @abstractmethod
    def hand_epoch(self, view: Any) -> int:
        """A number that changes when every hand is dealt afresh (a round, a hand)."""

    @abstractmethod
    def public_text(self, view: Any) -> str:
        """A spectator's view in words."""

    @abstractmethod
    def move_text(self, seat: int, action_id: int, viewer: int) -> str:
        """The move as ``viewer`` saw it."""

    @abstractmethod
    def resample(self, state: Any, viewer: int, rng: random.Random) -> Any:
        """A copy with everything ``viewer`` has not seen re-dealt, reseeded."""

    @abstractmethod
    def observation_pieces(self) -> list[tuple[str, int]]:
        """The observation tensor's named pieces and their lengths, in order."""

    @abstractmethod
    def fill(self, pieces: dict[str, Tensor], view: Any, player: int) -> None:
        """Write ``view`` into the zeroed pieces."""

    @abstractmethod
    def view_text(self, view: Any) -> str:
        """A seat's view in words."""

    def quick_move(self, view: Any) -> Action | None:
        """A move the IS-MCTS bot makes without searching (Timo's TIMO! races), if any."""
        return None

    def rollout_evaluator(self, rng: random.Random) -> Any:
        """An OpenSpiel MCTS evaluator (``evaluate(state)``, ``prior(state)``) for the
        IS-MCTS bot, drawing from ``rng``; None: OpenSpiel's random rollouts."""
        return None

    def engine_from_view(self, view: Any, rng: random.Random) -> Any:
        """An engine state ``view``'s seat cannot tell from the real one: what it has not
        seen dealt at random from ``rng``, under this game's ``options`` (the IS-MCTS bot
        searches from it)."""
        raise NotImplementedError(f"{type(self).__name__} does not seat the IS-MCTS bot")


class _Step:
    """One move: who made it, its id, and the public table after it (as a spectator's
    view, put in words the first time an information state asks: most steps are
    rollout steps that nobody reads)."""

    __slots__ = ("_text", "action_id", "seat", "view")

    def __init__(self, seat: int, action_id: int, view: Any):
        self.seat, self.action_id, self.view = seat, action_id, view
        self._text: str | None = None

    def public(self, rules: Rules) -> str:
        if self._text is None:
            self._text = rules.public_text(self.view)
        return self._text


#: A state that is a clone of a clone ... this many times over and is cloned again is a
#: node of an exhaustive tree walk (CFR, best response, ``get_all_states``) backtracking:
#: sampling algorithms clone their root (MCTS, IS-MCTS) or play on one copy, and a game
#: played as ``state = state.child(a)`` clones each state once.
WALK_DEPTH = 8
#: Histories above which a game is too big to walk: 10**this (about a million).
WALK_LIMIT_LOG10 = 6.0


def tree_size_log10(rules: Rules, seed: int, samples: int = 3) -> float:
    """log10 of the number of histories, estimated from a few random games: the product
    of the numbers of legal moves along each (Knuth's estimator), the largest kept."""
    rng = random.Random(seed)
    largest = 0.0
    for _ in range(samples):
        engine = rules.new_state(rng.getrandbits(63))
        total, moves = 0.0, 0
        while not rules.is_over(engine) and moves < 100_000:
            seat = rules.current_player(engine)
            legal = rules.legal_ids(engine, seat)
            total += float(np.log10(len(legal)))
            rules.apply_id(engine, seat, rng.choice(legal))
            moves += 1
        largest = max(largest, total)
    return largest


class TreeWalkError(RuntimeError):
    """An algorithm that enumerates the game tree (CFR and CFR+, exploitability and
    ``nash_conv``, exact best response, ``TabularPolicy``, ``get_all_states``, value
    iteration, sequence-form LPs) was started on a Twin Table game, which it cannot
    finish: raised at its first backtrack, before it has used any memory to speak of
    (CFR on Twins once grew to 13.7 GB)."""

    def __init__(self, rules: Rules, seed: int):
        size = tree_size_log10(rules, seed)
        name = getattr(rules.game, "name", type(rules.game).__name__)
        super().__init__(
            f"{name} cannot be walked exhaustively: this looks like CFR, a best response, "
            f"exploitability or get_all_states, which enumerate every history, and a game "
            f"here has about 10^{size:.0f} of them (the deals are inside the engine, "
            "SAMPLED_STOCHASTIC, and a game lasts many moves). Use a sampling algorithm: "
            "MCTS, IS-MCTS, reinforcement learning (docs/openspiel.md, 'Which algorithms "
            "apply').")


#: The exact algorithms a Twin Table game refuses (:func:`check_algorithm`).
EXACT_ALGORITHMS = frozenset({
    "cfr", "cfr_plus", "cfr_br", "discounted_cfr", "linear_cfr", "best_response",
    "exploitability", "nash_conv", "tabular_policy", "get_all_states", "value_iteration",
    "sequence_form_lp", "expected_game_score", "external_sampling_mccfr"})


def check_algorithm(game: Any, algorithm: str) -> None:
    """Refuse up front an algorithm that must enumerate ``game``'s tree (TreeWalkError,
    with the tree's estimated size) when that tree is over 10**WALK_LIMIT_LOG10
    histories; any other algorithm passes."""
    if algorithm.strip().lower().replace("-", "_").replace("+", "_plus") not in \
            EXACT_ALGORITHMS:
        return
    rules = game.rules
    if tree_size_log10(rules, 0) > WALK_LIMIT_LOG10:
        raise TreeWalkError(rules, 0)


class _Core:
    """Everything a state holds, copied in one step: OpenSpiel clones a Python state by
    deep-copying its attributes, and a deep copy of an engine state or a long history
    would cost far more than these shallow copies (the steps themselves never change)."""

    __slots__ = ("capped", "chain", "clones", "done", "engine", "epoch", "known", "rules",
                 "seed", "sizes", "steps")

    def __init__(self, rules: Rules, seed: int, engine: Any = None):
        self.rules = rules
        self.seed = seed
        self.engine = rules.new_state(seed) if engine is None else engine
        # How many clones deep this state is, and how often it has been cloned itself:
        # what gives an exhaustive tree walk away (:class:`TreeWalkError`).
        self.chain = 0
        self.clones = 0
        self.capped = False
        self.done = rules.is_over(self.engine)
        self.steps: list[_Step] = []
        public = rules.view(self.engine, None)
        self.epoch = rules.hand_epoch(public)
        self.sizes = tuple(public.hand_sizes)
        # Per seat, (number of steps, own hand) whenever the hand gained cards.
        self.known: list[list[tuple[int, tuple[int, ...]]]] = [
            [(0, self._hand(seat))] for seat in range(rules.players)]

    def _hand(self, seat: int) -> tuple[int, ...]:
        return tuple(sorted(self.rules.view(self.engine, seat).hand))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        self.clones += 1
        if self.clones > 1 and self.chain >= WALK_DEPTH:
            raise TreeWalkError(self.rules, 0)
        other = _Core.__new__(_Core)
        other.chain, other.clones = self.chain + 1, 0
        other.rules, other.seed = self.rules, self.seed
        other.capped, other.done = self.capped, self.done
        other.engine = self.engine.clone()
        other.steps = self.steps[:]
        other.epoch, other.sizes = self.epoch, self.sizes
        other.known = [entries[:] for entries in self.known]
        return other

    def record(self, seat: int, action_id: int) -> None:
        """After a move: the public table, and the hands that gained cards."""
        rules = self.rules
        public = rules.view(self.engine, None)
        self.steps.append(_Step(seat, action_id, public))
        epoch, sizes = rules.hand_epoch(public), tuple(public.hand_sizes)
        dealt = epoch != self.epoch
        for other in range(rules.players):
            if dealt or sizes[other] > self.sizes[other]:
                self.known[other].append((len(self.steps), self._hand(other)))
        self.epoch, self.sizes = epoch, sizes

    def history_text(self, player: int) -> str:
        rules = self.rules
        known = iter(self.known[player])
        entry = next(known, None)
        parts = [f"seat {player}"]
        for index in range(len(self.steps) + 1):
            if index:
                step = self.steps[index - 1]
                parts.append(f"{rules.move_text(step.seat, step.action_id, player)} "
                             f"{step.public(rules)}")
            while entry is not None and entry[0] == index:
                parts.append(f"hand{list(entry[1])}")
                entry = next(known, None)
        return "\n".join(parts)


class TwinTableState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over one engine state (``engine``)."""

    def __init__(self, game: TwinTableGame, seed: int, engine: Any = None):
        """A new game from ``seed``, or (``engine``) a game already under way on the
        engine, its history before now unknown (the IS-MCTS bot searches from one)."""
        super().__init__(game)
        self._core = _Core(game.rules, seed, engine)
        self._max_moves = game.max_moves

    @property
    def engine(self) -> Any:
        """The engine's own state (the game's, or its fast engine's)."""
        return self._core.engine

    @property
    def engine_seed(self) -> int:
        """The seed the engine state was made with: replaying the same actions on a
        ``new_state(options, players, engine_seed)`` gives the same game."""
        return self._core.seed

    def current_player(self) -> int:
        if self._core.done:
            return _TERMINAL
        return self._core.rules.current_player(self._core.engine)

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.rules.legal_ids(self._core.engine, player)

    def _apply_action(self, action: int) -> None:
        core = self._core
        seat = core.rules.current_player(core.engine)
        core.rules.apply_id(core.engine, seat, action)
        core.record(seat, action)
        core.done = core.rules.is_over(core.engine)
        if len(core.steps) >= self._max_moves and not core.done:
            core.capped = core.done = True

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._core.rules.action_of(player, action).to_json())

    def is_terminal(self) -> bool:
        return self._core.done

    def returns(self) -> list[float]:
        core = self._core
        players = core.rules.players
        if not self.is_terminal():
            return [0.0] * players
        if core.capped:
            scores = self.scores()
            best = max(scores)
            winners = frozenset(s for s in range(players) if scores[s] == best)
        else:
            winners = core.rules.winners(core.engine)
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]

    def scores(self) -> list[int]:
        """The engine's scores (Timo's points, Twins' chips) as they stand."""
        rules = self._core.rules
        return rules.scores(rules.view(self._core.engine, None))

    def resample_from_infostate(self, player: int, sampler: Sampler) -> TwinTableState:
        """A state ``player`` cannot tell from this one, with everything it has not seen
        re-dealt from ``sampler`` (any callable giving uniform floats in [0, 1), such as
        ``pyspiel.UniformProbabilitySampler``); IS-MCTS calls this."""
        rng = random.Random(int(sampler() * (1 << 53)))
        other: TwinTableState = self.clone()
        core = other._core
        core.engine = core.rules.resample(core.engine, player, rng)
        core.seed = rng.getrandbits(63)
        steps = len(core.steps)
        for seat in range(core.rules.players):
            if seat != player:
                core.known[seat] = [(steps, core._hand(seat))]
        return other

    def __str__(self) -> str:
        return self._core.rules.view_text(self._core.rules.view(self._core.engine, None))


class TwinTableObserver:
    """A seat's observation (its current view) or information state (its history)."""

    def __init__(self, rules: Rules, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or not iig_obs_type.public_info:
            raise ValueError("observers show a seat's view (public and own private "
                             "information) or the public view, nothing else")
        self.rules = rules
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        pieces = [] if self.perfect_recall else rules.observation_pieces()
        self.tensor: Tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, Tensor] = {}
        start = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[start:start + size]
            start += size

    def _view(self, state: TwinTableState, player: int) -> Any:
        return self.rules.view(state.engine, None if self.public_only else player)

    def set_from(self, state: TwinTableState, player: int) -> None:
        self.tensor.fill(0)
        if not self.perfect_recall:
            self.rules.fill(self.dict, self._view(state, player), player)

    def string_from(self, state: TwinTableState, player: int) -> str:
        if self.perfect_recall:
            if self.public_only:
                raise ValueError("no public information state string is offered")
            return state._core.history_text(player)
        return f"seat {player} {self.rules.view_text(self._view(state, player))}"


class TwinTableGame(pyspiel.Game):  # type: ignore[misc]
    """Shared by every game; a subclass says which rules and parameters."""

    game_type: Any
    max_moves: int

    def __init__(self, game_type: Any, params: dict[str, Any] | None, rules: Rules,
                 max_length: int, seed: int):
        self.rules = rules
        self.max_moves = max_length
        # -1: seeds from the system's entropy; else a reproducible sequence of games.
        self._seeds = random.Random(None if seed < 0 else seed)
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.size, max_chance_outcomes=0,
            num_players=rules.players, min_utility=0.0, max_utility=1.0,
            utility_sum=1.0, max_game_length=max_length)
        super().__init__(game_type, info, params or {})

    def new_initial_state(self, seed: int | None = None) -> TwinTableState:
        """A new game; ``seed`` (0 to 2**63 - 1) picks the deal, else the game's
        generator does."""
        return TwinTableState(self, self._seeds.getrandbits(63) if seed is None else seed)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> TwinTableObserver:
        return TwinTableObserver(
            self.rules, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params)


class ISMCTSViewBot:
    """OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts``) as a Twin Table bot:
    it decides from its seat's view, like every bot, so it sits at tables, in ``sim`` and
    in the environments. Each decision deals what the seat has not seen at random
    (:meth:`Rules.engine_from_view`), makes that the root of a fresh search (its
    history before now unknown, which IS-MCTS does not need: the root is the seat's
    information set) and runs ``simulations`` simulations with one random rollout per
    leaf (the game's own rollout when its rules offer one, :meth:`Rules.rollout_evaluator`:
    Timo's plays the round out on the C engine with the ``search`` bot's rollout policy,
    where a random rollout of a 108-card round takes hundreds of Python moves);
    ``resample_from_infostate`` re-deals at every simulation. ``load(players,
    options)`` gives the OpenSpiel game to search, one per table size and options.

    Its think budget is small on purpose (OpenSpiel's Python tree is slow; the bench
    ``bench/openspiel_ismcts.py`` gives it equal wall-clock time instead). Every random
    draw comes from the generator it is handed, so a seed replays."""

    name = "ismcts"

    def __init__(self, load: Callable[[int, dict[str, Any]], TwinTableGame],
                 simulations: int = 64, uct_c: float = 1.4):
        self.load, self.simulations, self.uct_c = load, simulations, uct_c
        self._games: dict[tuple[int, str], TwinTableGame] = {}

    def act(self, view: Any, rng: random.Random) -> Action | None:
        from open_spiel.python.algorithms import ismcts, mcts

        if not view.legal or view.viewer is None:
            return None
        key = (view.players, repr(sorted(view.options.items())))
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = self.load(view.players, dict(view.options))
        rules = game.rules
        quick = rules.quick_move(view)
        if quick is not None:
            return quick
        seat: int = view.viewer
        legal: dict[int, Action] = {rules.id_of(action): action for action in view.legal}
        if len(legal) == 1:
            return next(iter(legal.values()))
        state = TwinTableState(game, 0, rules.engine_from_view(view, rng))
        if state.current_player() != seat:
            return None  # not this seat's move in OpenSpiel's order yet
        numbers = np.random.RandomState(rng.getrandbits(32))
        evaluator = rules.rollout_evaluator(rng) or mcts.RandomRolloutEvaluator(1, numbers)
        search = ismcts.ISMCTSBot(game, evaluator, self.uct_c,
                                  max_simulations=self.simulations, random_state=numbers)
        search.set_resampler(lambda root, player: root.resample_from_infostate(
            player, rng.random))
        return legal[int(search.step(state))]


def game_type(short_name: str, long_name: str, low: int, high: int,
               parameters: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name, long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=parameters)


__all__ = ["EXACT_ALGORITHMS", "ISMCTSViewBot", "Rules", "Sampler", "Tensor", "TreeWalkError",
           "TwinTableGame", "TwinTableObserver", "TwinTableState", "check_algorithm",
           "game_type", "tree_size_log10"]
