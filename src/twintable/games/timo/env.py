"""Timo's Twist (game ``timo``) as a PettingZoo AEC environment, ``timo_v0``.

The real game, on the C engine when it was built (``games/timo/fast.py``) and on the
reference rules otherwise; docs/envs_timo.md says all of this at more length.

**Agents** ``seat_0`` ... ``seat_{players-1}``; options are the game's own
(``deck``, ``stacking``, ``draw_when_able``, ``target``), so an episode is a whole game to
``target`` points (300 by default) over as many rounds as it takes.

**Actions**: ``Discrete(125)``; plays are indexed by card type, colour named and TIMO!
called or not, then draw, pass, call TIMO!, catch and wait (the table is in
``twintable.games.timo.research.codec``). An index whose mask bit is 0 raises
:class:`~twintable.envs.IllegalActionError` and changes nothing.

**Observations**: ``{"observation": Box(float32, 171 + 4 * players), "action_mask":
Box(0, 1, (125,), int8)}``, built from the seat's view only (``game.view``): its own hand,
the discard pile, counts of the other hands, scores, whose turn, who is exposed. Every
slice is listed in ``twintable.games.timo.research.codec`` and docs/envs_timo.md.

**Turn order and the TIMO! race.** Normally the seat on turn acts. A play that leaves its
player at one card without calling TIMO! opens a race (RULES.md §1: the first catch
counts, the window closes when the next player acts). The environment turns that race
into a fixed order of questions, each seat asked once: first every opponent of the
exposed player, in play order from the seat on turn (catch or wait), then the exposed
player unless it is on turn (call TIMO! late, or wait); the first catch or call closes the
race and nobody else is asked. Then the seat on turn moves; if the race is still open its
move may still be a catch (or the call). So calling TIMO! with the play is the safe move,
as at a table; a late call only helps when every opponent lets the race go by.

**Rewards**: zero until a round ends; then each seat gets the points it scored that step
minus the average points scored by all seats, in hundreds
(``(players * gained - total gained) / (100 * players)``): zero-sum, and summing to the
seat's final score minus the average final score, over 100.

**Determinism**: ``reset(seed=s)`` deals the engine's game ``s`` (the same deal as
``TimoGame().new_state(options, players, s)``); a later ``reset()`` without a seed deals
the next seed from a generator seeded with ``s``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from twintable.core.types import Action
from twintable.envs.aec import AUTO, TableEnv, check_render_mode, episode_cap
from twintable.envs.errors import IllegalActionError
from twintable.envs.fast_wrapper import FastOrderEnforcingWrapper
from twintable.games.timo.cards import COLOUR_NAMES, load_deck
from twintable.games.timo.fast import NATIVE, SEED_LIMIT, FastTimoGame
from twintable.games.timo.research import codec
from twintable.games.timo.rules import CALL, CATCH, TimoGame
from twintable.games.timo.state import NOBODY

N_ACTIONS = codec.N_ACTIONS
WAIT = codec.WAIT_INDEX
render_modes = ["ansi", "human"]
metadata: dict[str, Any] = {"name": "timo_v0", "render_modes": render_modes,
                            "is_parallelizable": False}


#: The default episode cap: this many AEC steps per point of the target (12,000 steps at
#: 300 points; random play's longest game of 20 at two seats took 1,776).
STEPS_PER_POINT = 40


def env(players: int = 2, options: Mapping[str, Any] | None = None,
        render_mode: str | None = None, native: bool | None = None,
        max_steps: int | str | None = AUTO) -> AECEnv:
    """The AEC environment, wrapped only in PettingZoo's order checks (a
    :class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper` whose hot reads are direct:
    ``twintable.envs.fast_wrapper``)."""
    return FastOrderEnforcingWrapper(raw_env(players, options, render_mode, native,
                                             max_steps))


def race_order(players: int, turn: int, exposed: int, direction: int) -> list[int]:
    """Who is asked, in order, to react when ``exposed`` has not called TIMO! (see the
    module docstring): the exposed seat's opponents from the seat on turn, then the
    exposed seat itself unless it is on turn."""
    order = [(turn + step * direction) % players for step in range(players)]
    asked = [seat for seat in order if seat != exposed]
    return [*asked, exposed] if exposed != turn else asked


def observe_view(view: Any) -> dict[str, npt.NDArray[Any]]:
    """A seat's observation from its view alone, as ``observe`` gives it (a policy seated
    as a bot: ``twintable.bots.user``): a seat not on turn is asked to react (catch, call
    TIMO! late, or wait)."""
    observation = np.zeros(codec.observation_size(view.players), np.float32)
    mask = np.zeros(N_ACTIONS, np.int8)
    codec.encode(view, view.viewer != view.turn, observation, mask)
    return {"observation": observation, "action_mask": mask}


def view_action(view: Any, index: int) -> Action | None:
    """The move ``index`` names for the view's seat (None: wait); ValueError when the
    view does not allow it."""
    if index == WAIT:
        return None
    action = codec.indexed_legal(view).get(int(index))
    if action is None:
        raise IllegalActionError(f"action {index} is not legal for seat {view.viewer} now")
    return action


class raw_env(TableEnv):
    """Timo's Twist, one seat acting at a time; see the module docstring."""

    metadata = metadata

    def __init__(self, players: int = 2, options: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, native: bool | None = None,
                 max_steps: int | str | None = AUTO):
        check_render_mode(metadata, render_mode)
        if native and not NATIVE:
            raise RuntimeError("the C engine of Timo's Twist was not built")
        self.native = NATIVE if native is None else native
        self.game: TimoGame = FastTimoGame() if self.native else TimoGame()
        self.options = self.game.resolve_options(options)
        self.game.check_players(players)
        self.players = players
        self.layout = codec.layout(players, load_deck(self.options["deck"]),
                                   self.options["target"])
        super().__init__(players, render_mode, self.layout.box(), N_ACTIONS)
        self.max_steps = episode_cap(max_steps, STEPS_PER_POINT * self.options["target"])
        self._seeds = np.random.default_rng()
        self._state: Any = None
        self._asked: list[int] = []
        self._scores: tuple[int, ...] = ()
        self._rounds = 0
        self._rewarded = False

    # -- what the conventions promise --------------------------------------------------
    @property
    def reacting(self) -> bool:
        """Whether the selected agent is asked to react to a TIMO! race (not to move)."""
        return bool(self._asked)

    def action_of(self, index: int) -> Action | None:
        """The game action that ``index`` stands for, for the selected agent now; None
        for wait, or for an index that is not legal now."""
        seat = self.seat(self.agent_selection)
        legal = codec.indexed_legal(self.game.view(self._state, seat))
        action = legal.get(int(index))
        if action is not None and self.reacting and action.kind not in (CALL, CATCH):
            return None
        return action

    def index_of(self, action: Action | None) -> int:
        """The index of a game action (None, a bot's "not now", is wait)."""
        return WAIT if action is None else codec.index_of(action, self._state.deck)

    # -- the AEC cycle -----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``options`` (PettingZoo's reset options) are not used: the game's
        options are the constructor's."""
        if seed is not None:
            if not 0 <= seed < SEED_LIMIT:
                raise ValueError(f"seeds go from 0 to 2**64 - 1, not {seed}")
            self._seeds = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = int(self._seeds.integers(0, 2**63))
        self._state = self.game.new_state(self.options, self.players, game_seed)
        self._asked = []
        self._scores = tuple(self._state.scores)
        self._rounds = self._state.round_no + self._state.over
        self._rewarded = False
        self._start(self.possible_agents[self._state.turn])

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self._seat_of[agent]
        # The engine writes every element; the reference encoder only the non-zero ones.
        make = np.empty if self.native else np.zeros
        observation = make(self.layout.size, dtype=np.float32)
        mask = make(N_ACTIONS, dtype=np.int8)
        selected = agent == self.agent_selection and not self._state.over
        # A seat that is not asked anything now has nothing it may do: an all-zero mask.
        if self.native:
            self._state.encode(seat, selected and bool(self._asked), observation, mask)
        else:
            codec.encode(self.game.view(self._state, seat), selected and bool(self._asked),
                         observation, mask)
        if not selected:
            mask[:] = 0
        return {"observation": observation, "action_mask": mask}

    def play(self, agent: str, action: int | None) -> None:
        # Not TableEnv._settle: rewards change only when a round ends (_score_round).
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is not an action index")
        index, seat, state, asked = int(action), self._seat_of[agent], self._state, self._asked
        reacting = bool(asked)
        legal = (state.apply_index(seat, index, reacting) if self.native
                 else self._apply_reference(seat, index, reacting))
        if not legal:
            raise IllegalActionError(f"action {index} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        if index == WAIT:
            asked.pop(0)
        elif state.exposed == NOBODY:
            self._asked = []
        elif not reacting and index < codec.CALL_INDEX:
            # A turn move that left its player exposed: a new race.
            self._asked = race_order(self.players, state.turn, state.exposed, state.direction)
        # Scores change only when a round ends, and then a round starts or the game ends.
        rounds = state.round_no + state.over
        if rounds != self._rounds:
            self._rounds = rounds
            self._score_round(state)
        elif self._rewarded:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if state.over:
            self.terminations = dict.fromkeys(self.agents, True)
            self._final_infos()
        else:
            asked = self._asked
            self.agent_selection = self.possible_agents[asked[0] if asked else state.turn]
        if self.render_mode == "human":
            self.render()

    def _score_round(self, state: Any) -> None:
        """Reward the points the round just ended gave (see the module docstring)."""
        after = tuple(state.scores)
        before, self._scores = self._scores, after
        total, scale = sum(after) - sum(before), 100.0 * self.players
        for other, name in enumerate(self.possible_agents):
            self.rewards[name] = (self.players * (after[other] - before[other]) - total) / scale
        self._accumulate_rewards()
        self._rewarded = True

    def _apply_reference(self, seat: int, index: int, reacting: bool) -> bool:
        """Play ``index`` for ``seat`` on the reference rules if it is legal now; whether
        it was."""
        if index == WAIT:
            return reacting
        action = codec.indexed_legal(self.game.view(self._state, seat)).get(index)
        if action is None or (reacting and action.kind not in (CALL, CATCH)):
            return False
        self.game.apply(self._state, action)
        return True

    # -- showing -------------------------------------------------------------------------
    def render(self) -> str | None:
        """A spectator's line: top card, colour, hands, scores, whose move (no secret)."""
        if self._state is None:
            return None
        view = self.game.view(self._state, None)
        deck = view.deck
        seats = ", ".join(f"seat_{seat}: {size} cards, {score} pts"
                          for seat, (size, score) in enumerate(zip(view.hand_sizes,
                                                                   view.scores, strict=True)))
        text = (f"round {view.round_no}, top {deck.label(view.top)}, colour "
                f"{COLOUR_NAMES[view.colour]}, penalty {view.penalty}; {seats}; "
                + ("game over" if view.over else f"{self.agent_selection} to act"))
        if self.render_mode == "human":
            print(text)
        return text

    def close(self) -> None:
        self._state = None

