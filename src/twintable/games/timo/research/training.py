"""A reproducible A2C run on the C vector engine (``twintable train timo``, research/trainer.py),
its weights saved as a small ``.npz``, and :class:`LearnedPolicy` to play them back.

The algorithm is ``examples/timo_a2c.py``'s (a one-hidden-layer masked-softmax policy
with a value head, GAE, Adam, NumPy only), kept here so that a run is a command with a
seed: the same seed, sizes and step count give the same weights on the same machine
(BLAS sums may round differently elsewhere). Opponents are chosen game by game, a share
of them random and the rest the engine's greedy policy. The policy plays in
``twintable.envs.evaluate``, as an opponent of ``TimoSelfPlayVectorEnv``, and, as the
``learned`` bot level (``research/policy.py: LearnedTimoBot``), at tables, in ``sim`` and
in the environments. ``--teacher search`` trains the same network by distilling the
search bot instead (``research/distill.py``): the shipped ``games/timo/data/timo_learned.npz``
was made so.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]


class Network:
    """x -> tanh hidden layer -> masked action probabilities and a value."""

    def __init__(self, params: dict[str, Array], scale: Array):
        self.params, self.scale = params, scale

    @classmethod
    def initial(cls, inputs: int, hidden: int, actions: int, scale: Array,
                rng: np.random.Generator) -> Network:
        def init(rows: int, cols: int, gain: float) -> Array:
            return rng.normal(0, gain / np.sqrt(rows), (rows, cols)).astype(np.float32)

        return cls({"w1": init(inputs, hidden, 1.0), "b1": np.zeros(hidden, np.float32),
                    "w2": init(hidden, actions, 0.01), "b2": np.zeros(actions, np.float32),
                    "wv": init(hidden, 1, 1.0)[:, 0], "bv": np.zeros(1, np.float32)}, scale)

    def forward(self, observation: Array, mask: Array) -> tuple[Array, Array, Array]:
        p = self.params
        hidden = np.tanh((observation * self.scale) @ p["w1"] + p["b1"])
        logits = np.where(mask, hidden @ p["w2"] + p["b2"], -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits) * mask
        probs /= probs.sum(axis=1, keepdims=True)
        return hidden, probs, hidden @ p["wv"] + p["bv"][0]

    def gradients(self, observation: Array, mask: Array, actions: Array, advantages: Array,
                  returns: Array, ent_coef: float, vf_coef: float) -> dict[str, Array]:
        """Gradients of the A2C loss: policy gradient, minus entropy, plus value error."""
        p, n = self.params, len(observation)
        hidden, probs, value = self.forward(observation, mask)
        log_probs = np.log(np.where(mask, probs, 1.0))
        entropy = -(probs * log_probs).sum(axis=1)
        d_logits = probs.copy()
        d_logits[np.arange(n), actions] -= 1.0
        d_logits *= advantages[:, None] / n
        d_logits += ent_coef * probs * (log_probs + entropy[:, None]) / n
        d_logits *= mask
        d_value = vf_coef * (value - returns) / n
        d_hidden = (d_logits @ p["w2"].T + d_value[:, None] * p["wv"][None, :]) * \
            (1 - hidden * hidden)
        inputs = observation * self.scale
        return {"w2": hidden.T @ d_logits, "b2": d_logits.sum(axis=0),
                "wv": hidden.T @ d_value, "bv": np.array([d_value.sum()], np.float32),
                "w1": inputs.T @ d_hidden, "b1": d_hidden.sum(axis=0)}

    def save(self, path: Path, **meta: Any) -> None:
        arrays: dict[str, Any] = {"scale": self.scale, **self.params}
        arrays.update({f"meta_{key}": np.asarray(value) for key, value in meta.items()})
        np.savez_compressed(path, **arrays)


class Adam:
    def __init__(self, params: dict[str, Array], lr: float):
        self.lr, self.t = lr, 0
        self.m = {key: np.zeros_like(value) for key, value in params.items()}
        self.v = {key: np.zeros_like(value) for key, value in params.items()}

    def step(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        self.t += 1
        for key, grad in grads.items():
            self.m[key] = 0.9 * self.m[key] + 0.1 * grad
            self.v[key] = 0.999 * self.v[key] + 0.001 * grad * grad
            m_hat = self.m[key] / (1 - 0.9 ** self.t)
            v_hat = self.v[key] / (1 - 0.999 ** self.t)
            params[key] -= (self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


class LearnedPolicy:
    """Saved weights as a policy: the most probable legal move. Called with one
    observation (``evaluate``) it returns an index; with a batch (a self-play opponent),
    an array of indices."""

    def __init__(self, network: Network, meta: dict[str, Any]):
        self.network, self.meta = network, meta

    @classmethod
    def load(cls, path: Path | str) -> LearnedPolicy:
        with np.load(path) as saved:
            params = {key: saved[key] for key in ("w1", "b1", "w2", "b2", "wv", "bv")}
            meta = {key[5:]: saved[key].item() for key in saved.files
                    if key.startswith("meta_")}
            return cls(Network(params, saved["scale"]), meta)

    def __call__(self, observation: dict[str, Array]) -> Any:
        single = observation["observation"].ndim == 1
        x = observation["observation"][None] if single else observation["observation"]
        mask = observation["action_mask"].astype(bool)
        mask = mask[None] if single else mask
        _, probs, _ = self.network.forward(x, mask)
        choice = probs.argmax(axis=1)
        return int(choice[0]) if single else choice


def train(steps: int, seed: int = 1, num_envs: int = 256, rollout: int = 16,
          hidden: int = 64, lr: float = 1e-3, random_share: float = 0.25,
          target: int = 300, log: Any = None) -> tuple[Network, dict[str, Any]]:
    """Train for ``steps`` learner decisions; the network and a summary."""
    from twintable.games.timo.research.vector import TimoVectorEnv

    gamma, lam, ent_coef, vf_coef = 1.0, 0.95, 0.01, 0.5
    rng = np.random.default_rng(seed)
    opponents = ["random" if rng.random() < random_share else "greedy"
                 for _ in range(num_envs)]
    envs = TimoVectorEnv(num_envs, players=2, options={"target": target},
                         opponents=opponents)
    space = envs.single_observation_space["observation"]  # type: ignore[index]
    actions_n = int(envs.single_action_space.n)  # type: ignore[attr-defined]
    net = Network.initial(space.shape[0], hidden, actions_n,
                          (1.0 / np.maximum(space.high, 1.0)).astype(np.float32), rng)
    optimizer = Adam(net.params, lr)
    observations, _ = envs.reset(seed=seed)
    shape = (rollout, num_envs)
    xs = np.zeros((*shape, space.shape[0]), np.float32)
    masks = np.zeros((*shape, actions_n), bool)
    chosen = np.zeros(shape, np.int64)
    values, rewards, live, dones = (np.zeros(shape) for _ in range(4))
    results: list[float] = []
    done_steps, start = 0, time.time()
    while done_steps < steps:
        for t in range(rollout):
            mask = np.asarray(observations["action_mask"], dtype=np.bool_)
            alive = np.asarray(mask.any(axis=1))  # a game's last observation: the reset step
            safe = np.where(alive[:, None], mask, True)
            _, probs, value = net.forward(observations["observation"], safe)
            picks = (probs.cumsum(axis=1) < rng.random((num_envs, 1))).sum(axis=1)
            picks = np.where(alive, picks.clip(0, actions_n - 1), 0)
            xs[t], masks[t], chosen[t], values[t], live[t] = (
                observations["observation"], safe, picks, value, alive)
            observations, rewards[t], terminated, truncated, infos = envs.step(picks)
            dones[t] = terminated | truncated
            if infos:
                results.extend((infos["winner"][infos["_winner"]] == 0).tolist())
            done_steps += int(alive.sum())
        mask = np.asarray(observations["action_mask"], dtype=np.bool_)
        any_legal = np.asarray(mask.any(axis=1))
        _, _, following = net.forward(observations["observation"],
                                      np.where(any_legal[:, None], mask, True))
        advantages, running = np.zeros(shape), np.zeros(num_envs)
        for t in reversed(range(rollout)):
            after = following if t == rollout - 1 else values[t + 1]
            carry = 1.0 - dones[t]
            delta = rewards[t] + gamma * after * carry - values[t]
            running = (delta + gamma * lam * carry * running) * live[t]
            advantages[t] = running
        keep = live.reshape(-1).astype(bool)
        flat = advantages.reshape(-1)[keep]
        grads = net.gradients(xs.reshape(-1, space.shape[0])[keep],
                              masks.reshape(-1, actions_n)[keep], chosen.reshape(-1)[keep],
                              (flat - flat.mean()) / (flat.std() + 1e-8),
                              (advantages + values).reshape(-1)[keep], ent_coef, vf_coef)
        optimizer.step(net.params, grads)
        if log is not None and optimizer.t % 50 == 0:
            recent = results[-500:]
            log(f"{done_steps:,} steps, {done_steps / (time.time() - start):,.0f}/s, "
                f"{len(results)} games, win rate of the last 500: "
                f"{np.mean(recent) if recent else float('nan'):.3f}")
    summary = {"steps": done_steps, "games": len(results), "seconds": time.time() - start,
               "seed": seed, "hidden": hidden, "target": target, "num_envs": num_envs,
               "random_share": random_share}
    return net, summary


__all__ = ["LearnedPolicy", "Network", "train"]
