"""Twin Tricks as a PettingZoo AEC environment: ``env()``, ``raw_env``.

Follows Twin Table's environment convention (docs/envs.md), on its shared AEC base
(``twintable.envs.aec.TableEnv``: agents, spaces, seeding, the step's tail). Agents are ``seat_0`` …
``seat_{n-1}`` (2–4 players); one seat acts at a time. Each observation encodes only
what that seat's view (``TricksGame.view``) shows. Seats are *relative*: slot 0 is the
observing seat, slot ``k`` the seat ``k`` places to its left; slots past the player
count stay 0, so one policy fits every table size.

Actions (``N_ACTIONS`` = 40): play the card with that id (``suit * 10 + rank - 1``).
An index whose mask bit is 0 raises :class:`~twintable.envs.IllegalActionError` and
changes nothing.

Rewards: ``reward="win"`` (default) gives +1 to each winner and −1 to everyone else when
the game ends; ``reward="score"`` gives each seat the points it scored at the end of
each hand, divided by the points a hand gives out.

Episode cap: ``max_steps`` (default ``"auto"``: 50 hands' worth of plays, ``50 × players ×
hand_size`` steps; None: no cap) truncates a game that would not end. The last ``info``
of every agent holds ``winner``, ``winners``, ``score`` and ``scores``.

Needs Twin Table's ``[rl]`` extra (PettingZoo, Gymnasium, NumPy).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv
from twintable.core.types import Action
from twintable.envs import IllegalActionError
from twintable.envs.aec import (
    AUTO,
    Seeds,
    TableEnv,
    check_render_mode,
    check_reward,
    episode_cap,
    masked_index,
    win_rewards,
)
from twintable.envs.fast_wrapper import FastOrderEnforcingWrapper
from twintable.envs.layout import Field, Layout

from twintable_tricks.cards import DECK_SIZE
from twintable_tricks.rules import PLAY, TricksGame
from twintable_tricks.state import TricksState
from twintable_tricks.views import TricksView

MAX_SEATS = 4
N_ACTIONS = DECK_SIZE
REWARDS = ("win", "score")
#: The default episode cap, in hands' worth of plays.
HANDS_CAP = 50

OBSERVATION = Layout([
    Field("hand", DECK_SIZE, 1, "1 for each card id in my hand"),
    Field("played", DECK_SIZE, 1, "1 for each card in this hand's finished tricks"),
    Field("trick", MAX_SEATS * DECK_SIZE, 1,
          "per relative seat × card: 1 for the card that seat has on the table"),
    Field("led", 4, 1, "one-hot suit led in the trick on the table (0 when none)"),
    Field("tricks_won", MAX_SEATS, 1, "tricks taken this hand / cards per hand"),
    Field("scores", MAX_SEATS, 1, "min(points, target) / target, per relative seat"),
    Field("present", MAX_SEATS, 1, "1 for slots that hold a seat"),
    Field("leader", MAX_SEATS, 1, "one-hot relative seat that led this trick"),
    Field("dealer", MAX_SEATS, 1, "one-hot relative seat of the dealer"),
    Field("players", 3, 1, "one-hot player count 2–4"),
])


def encode(view: TricksView) -> np.ndarray:
    """One seat's view as the observation vector (the layout above)."""
    out = OBSERVATION.zeros()
    where = OBSERVATION.slices
    me, players = view.viewer, view.players
    assert me is not None, "observations are for seats, not spectators"

    def rel(seat: int) -> int:
        return (seat - me) % players

    out[where["hand"]][list(view.hand)] = 1.0
    played = [card for _, plays in view.taken for _, card in plays]
    out[where["played"]][played] = 1.0
    trick = out[where["trick"]].reshape(MAX_SEATS, DECK_SIZE)
    for seat, card in view.trick:
        trick[rel(seat), card] = 1.0
    if view.trick:
        out[where["led"].start + view.trick[0][1] // 10] = 1.0
    hand_size, target = view.options["hand_size"], view.options["target"]
    for seat in range(players):
        out[where["tricks_won"].start + rel(seat)] = view.tricks_won[seat] / hand_size
        out[where["scores"].start + rel(seat)] = min(view.scores[seat], target) / target
        out[where["present"].start + rel(seat)] = 1.0
    out[where["leader"].start + rel(view.leader)] = 1.0
    out[where["dealer"].start + rel(view.dealer)] = 1.0
    out[where["players"].start + players - 2] = 1.0
    return out


def action_of(index: int, seat: int) -> Action:
    if not 0 <= index < N_ACTIONS:
        raise IllegalActionError(f"action index {index} is outside 0–{N_ACTIONS - 1}")
    return Action(seat, PLAY, {"card": index})


def index_of(action: Action) -> int:
    return int(action.payload["card"])


def observe_view(view: TricksView) -> dict[str, np.ndarray]:
    """A seat's observation from its view alone (a policy seated as a bot)."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    for action in view.legal:
        mask[index_of(action)] = 1
    return {"observation": encode(view), "action_mask": mask}


def view_action(view: TricksView, index: int) -> Action:
    """The card ``index`` names for the view's seat; IllegalActionError when the view
    does not allow it."""
    for action in view.legal:
        if index_of(action) == index:
            return action
    raise IllegalActionError(f"action {index} is not legal for seat {view.viewer} now")


class raw_env(TableEnv):
    """Twin Tricks, the seat on turn acting."""

    metadata: ClassVar[dict[str, Any]] = {"name": "tricks_v0",
                                          "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, players: int = 4, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, reward: str = "win",
                 max_steps: int | str | None = AUTO):
        check_render_mode(self.metadata, render_mode)
        check_reward(reward, REWARDS)
        self.game = TricksGame()
        self.game.check_players(players)
        self.options = self.game.resolve_options(options)
        self.players = players
        self.reward = reward
        super().__init__(players, render_mode, OBSERVATION.box(), N_ACTIONS)
        self._state: TricksState = self.game.new_state(self.options, players, 0)
        self._seeds = Seeds()
        self.max_steps = episode_cap(max_steps, HANDS_CAP * players * self.options["hand_size"])

    def action_of(self, index: int, agent: str | None = None) -> Action:
        return action_of(int(index), self.seat(agent or self.agent_selection))

    def index_of(self, action: Action) -> int:
        return index_of(action)

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        for action in self.game.legal_actions(self._state, seat):
            mask[index_of(action)] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat(agent)
        return {"observation": encode(self.game.view(self._state, seat)),
                "action_mask": self.mask(seat)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._state = self.game.new_state(self.options, self.players, self._seeds.next(seed))
        self._start(self.possible_agents[self._state.turn])

    def play(self, agent: str, action: Any) -> None:
        seat = self.seat(agent)
        index = masked_index(action, self.mask(seat), agent)
        events = self.game.apply(self._state, action_of(index, seat))
        self._settle(agent, self._rewards(events), self.possible_agents[self._state.turn],
                     over=self.game.is_over(self._state))

    def _rewards(self, events: list[Any]) -> dict[str, float]:
        rewards = dict.fromkeys(self.agents, 0.0)
        if self.reward == "score":
            per_hand = self.options["hand_size"] + 1
            for event in events:
                if event.kind == "hand_over":
                    for seat, points in enumerate(event.data["points"]):
                        rewards[self.possible_agents[seat]] = points / per_hand
            return rewards
        outcome = self.game.outcome(self._state)
        if outcome is not None:
            rewards = win_rewards(self.possible_agents, outcome.winners)
        return rewards

    def standing(self) -> tuple[list[int] | None, list[int]]:
        """The outcome, or at a truncation the points so far and no winner."""
        if self.game.is_over(self._state):
            return super().standing()
        return list(self._state.scores), []

    def describe(self) -> str:
        view = self.game.view(self._state, None)
        lines = [f"Twin Tricks hand {view.hand_no}, seat_{view.turn} to play"]
        for seat in range(self.players):
            lines.append(f"  seat_{seat}: {view.scores[seat]} points, "
                         f"{view.tricks_won[seat]} tricks, {view.hand_sizes[seat]} cards")
        return "\n".join(lines)


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment, wrapped only in PettingZoo's order checks (an
    ``OrderEnforcingWrapper`` whose hot reads are direct: ``twintable.envs.fast_wrapper``)."""
    return FastOrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["N_ACTIONS", "OBSERVATION", "action_of", "encode", "env", "index_of",
           "observe_view", "raw_env", "view_action"]
