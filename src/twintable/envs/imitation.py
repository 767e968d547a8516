"""A first agent for any game in a few seconds, with NumPy alone: a small network trained
to play as one of the game's bots plays (behaviour cloning), saved as a ``.npz`` that
every shell seats (``twintable.bots.user``: ``sim``, ``sweep``, the ladder,
``evaluate()``, the Gymnasium wrapper's opponents).

:func:`record` plays games of the Gymnasium environment in which a *teacher* bot plays
the learner's seat as it would at a table (from its view; in a race on the clock, when
its plan falls due, else it waits) and keeps every observation, mask and move index;
:func:`fit` trains a one-hidden-layer network on them (masked softmax cross-entropy,
Adam); :func:`clone_bot` does both and writes the file. It is where the notebooks in
``docs/notebooks`` start, before reinforcement learning (``twintable.envs.sb3``) where
PyTorch is installed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from twintable.bots.base import Bot
from twintable.bots.registry import bot_factory
from twintable.envs.gym import TwinTableEnv
from twintable.envs.opponents import timed_move, turn_move

Array = npt.NDArray[Any]


@dataclass(slots=True)
class Demonstrations:
    """What a teacher did: observations ``(n, d)``, masks ``(n, a)`` and moves ``(n,)``."""

    observations: Array
    masks: Array
    moves: Array

    def __len__(self) -> int:
        return len(self.moves)


def teacher_index(env: TwinTableEnv, bot: Bot, rng: random.Random, mask: Array) -> int:
    """The index ``bot`` plays at the learner's seat now (the wait index when it lets a
    race go by)."""
    raw, seat = env.raw, env.seat
    if env.realtime:
        action = timed_move(raw, env.entry, seat, bot, env.game.view(raw.state, seat), rng)
    else:
        action = turn_move(raw, env.learner, bot, mask, rng)
    if action is None:
        assert env.wait_index is not None, "the teacher waited where nobody may"
        return int(env.wait_index)
    try:
        index = int(raw.index_of(action))
    except (KeyError, ValueError):  # a word outside the vocabulary: say nothing now
        assert env.wait_index is not None
        return int(env.wait_index)
    return index if mask[index] else int(env.wait_index if env.wait_index is not None
                                          else np.flatnonzero(mask)[0])


def record(game: str, teacher: str, games: int, *, players: int | None = None,
           opponents: Any = None, options: Mapping[str, Any] | None = None,
           seed: int = 0, **env_kwargs: Any) -> Demonstrations:
    """``games`` games in which ``teacher`` (a bot, a level) plays the learner's seat,
    which rotates as in ``evaluate`` (opponents: the teacher too by default)."""
    observations: list[Array] = []
    masks: list[Array] = []
    moves: list[int] = []
    rivals = teacher if opponents is None else opponents
    probe = TwinTableEnv(game, players=players, opponents=rivals,
                         options=dict(options or {}), **env_kwargs)
    make = bot_factory(probe.entry, teacher)
    seats = len(probe.raw.possible_agents)
    for index in range(games):
        env = TwinTableEnv(game, players=players, seat=index % seats,
                           opponents=rivals, options=dict(options or {}), **env_kwargs)
        observation, _ = env.reset(seed=seed + index)
        bot, rng, done = make(), random.Random(seed + index), False
        while not done:
            mask = observation["action_mask"]
            move = teacher_index(env, bot, rng, mask)
            observations.append(observation["observation"])
            masks.append(mask)
            moves.append(move)
            observation, _, terminated, truncated, _ = env.step(move)
            done = terminated or truncated
    return Demonstrations(np.asarray(observations, np.float32),
                          np.asarray(masks, np.bool_), np.asarray(moves, np.int64))


def fit(data: Demonstrations, hidden: int = 32, epochs: int = 10, batch: int = 256,
        learning_rate: float = 3e-3, seed: int = 0) -> dict[str, Array]:
    """A tanh network's weights that predict the teacher's moves among the legal ones
    (the ``.npz`` keys of ``twintable.bots.user.NumpyPolicy``)."""
    if not len(data):
        raise ValueError("no demonstrations to learn from")
    rng = np.random.default_rng(seed)
    inputs, actions = data.observations.shape[1], data.masks.shape[1]
    # Inputs scaled to about [0, 1] (Twin It's pictures are ids up to 90).
    scale = (1.0 / np.maximum(np.abs(data.observations).max(axis=0), 1.0)).astype(np.float32)
    params = {"w1": rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32),
              "b1": np.zeros(hidden, np.float32),
              "w2": rng.normal(0, 1 / np.sqrt(hidden), (hidden, actions)).astype(np.float32),
              "b2": np.zeros(actions, np.float32)}
    moments = {key: (np.zeros_like(value), np.zeros_like(value))
               for key, value in params.items()}
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(data))
        for start in range(0, len(order), batch):
            rows = order[start:start + batch]
            x = data.observations[rows] * scale
            mask, y = data.masks[rows], data.moves[rows]
            hidden_out = np.tanh(x @ params["w1"] + params["b1"])
            logits = np.where(mask, hidden_out @ params["w2"] + params["b2"], -1e9)
            logits -= logits.max(axis=1, keepdims=True)
            probs = np.exp(logits) * mask
            probs /= probs.sum(axis=1, keepdims=True)
            grad_logits = probs
            grad_logits[np.arange(len(rows)), y] -= 1.0
            grad_logits /= len(rows)
            grads = {"w2": hidden_out.T @ grad_logits, "b2": grad_logits.sum(axis=0)}
            grad_hidden = (grad_logits @ params["w2"].T) * (1 - hidden_out ** 2)
            grads["w1"] = x.T @ grad_hidden
            grads["b1"] = grad_hidden.sum(axis=0)
            step += 1
            for key, grad in grads.items():
                first, second = moments[key]
                first *= 0.9
                first += 0.1 * grad
                second *= 0.999
                second += 0.001 * grad ** 2
                corrected = (first / (1 - 0.9 ** step)) / (
                    np.sqrt(second / (1 - 0.999 ** step)) + 1e-8)
                params[key] -= (learning_rate * corrected).astype(np.float32)
    return {"scale": scale, **params}


def agreement(params: Mapping[str, Array], data: Demonstrations) -> float:
    """How often the network's most probable legal move is the teacher's."""
    hidden_out = np.tanh((data.observations * params["scale"]) @ params["w1"] + params["b1"])
    logits = np.where(data.masks, hidden_out @ params["w2"] + params["b2"], -np.inf)
    return float((logits.argmax(axis=1) == data.moves).mean())


def clone_bot(game: str, teacher: str, games: int, out: Path | str, *,
              hidden: int = 32, epochs: int = 10, seed: int = 0,
              **record_kwargs: Any) -> tuple[Path, float]:
    """Record ``teacher``, fit a network, write it to ``out`` (``.npz``); the path and
    the share of the teacher's moves it reproduces on what it saw."""
    data = record(game, teacher, games, seed=seed, **record_kwargs)
    params = fit(data, hidden=hidden, epochs=epochs, seed=seed)
    path = Path(out)
    np.savez(path, **params)  # type: ignore[arg-type]
    return path, agreement(params, data)


__all__ = ["Demonstrations", "agreement", "clone_bot", "fit", "record", "teacher_index"]
