"""A2C on Timo's Twist in one file, CleanRL style: NumPy only, every step in sight.

A one-hidden-layer policy and value network learns the learner's seat of 2-player Timo's
Twist on the C vector engine (``TimoVectorEnv``), against a mix of opponents chosen game by
game (the engine's greedy policy and uniform random), with masked softmax actions,
advantages from GAE, and Adam. The games' results come from ``infos`` at the end of each
game; at the end the policy is measured against the project's ``heuristic`` bot with
``twintable.envs.evaluate`` (seats rotated, Wilson intervals).

    python examples/timo_a2c.py --total-steps 2000000 --seed 1

Run it with a small ``--total-steps`` to see it work; the tests run it for a few updates.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from twintable.envs import evaluate
from twintable.envs.timo_vector import TimoVectorEnv


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--num-steps", type=int, default=16, help="steps per rollout")
    parser.add_argument("--total-steps", type=int, default=2_000_000)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--random-share", type=float, default=0.25,
                        help="share of games whose opponent plays at random")
    parser.add_argument("--target", type=int, default=300, help="points to win a game")
    parser.add_argument("--eval-games", type=int, default=200)
    return parser.parse_args(argv)


class Network:
    """x -> tanh hidden layer -> masked action logits and a value."""

    def __init__(self, inputs: int, hidden: int, actions: int, rng: np.random.Generator):
        def init(rows: int, cols: int, gain: float) -> np.ndarray:
            return rng.normal(0, gain / np.sqrt(rows), (rows, cols)).astype(np.float32)

        self.params = {"w1": init(inputs, hidden, 1.0), "b1": np.zeros(hidden, np.float32),
                       "w2": init(hidden, actions, 0.01), "b2": np.zeros(actions, np.float32),
                       "wv": init(hidden, 1, 1.0)[:, 0], "bv": np.zeros(1, np.float32)}

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, ...]:
        p = self.params
        h = np.tanh(x @ p["w1"] + p["b1"])
        logits = np.where(mask, h @ p["w2"] + p["b2"], -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits) * mask
        probs /= probs.sum(axis=1, keepdims=True)
        value = h @ p["wv"] + p["bv"][0]
        return h, probs, value

    def gradients(self, x: np.ndarray, mask: np.ndarray, actions: np.ndarray,
                  advantages: np.ndarray, returns: np.ndarray, ent_coef: float,
                  vf_coef: float) -> tuple[dict[str, np.ndarray], dict[str, float]]:
        """Gradients of the A2C loss (policy gradient, minus entropy, plus value error)."""
        p, n = self.params, len(x)
        h, probs, value = self.forward(x, mask)
        rows = np.arange(n)
        log_probs = np.log(np.where(mask, probs, 1.0))
        entropy = -(probs * log_probs).sum(axis=1)
        d_logits = probs.copy()
        d_logits[rows, actions] -= 1.0
        d_logits *= advantages[:, None] / n
        d_logits += ent_coef * probs * (log_probs + entropy[:, None]) / n
        d_logits *= mask
        d_value = vf_coef * (value - returns) / n
        d_hidden = (d_logits @ p["w2"].T + d_value[:, None] * p["wv"][None, :]) * (1 - h * h)
        grads = {"w2": h.T @ d_logits, "b2": d_logits.sum(axis=0),
                 "wv": h.T @ d_value, "bv": np.array([d_value.sum()], np.float32),
                 "w1": x.T @ d_hidden, "b1": d_hidden.sum(axis=0)}
        stats = {"entropy": float(entropy.mean()),
                 "value_loss": float(((value - returns) ** 2).mean())}
        return grads, stats


class Adam:
    def __init__(self, params: dict[str, np.ndarray], lr: float):
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        for key, grad in grads.items():
            self.m[key] = 0.9 * self.m[key] + 0.1 * grad
            self.v[key] = 0.999 * self.v[key] + 0.001 * grad * grad
            m_hat = self.m[key] / (1 - 0.9 ** self.t)
            v_hat = self.v[key] / (1 - 0.999 ** self.t)
            params[key] -= (self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    rng = np.random.default_rng(args.seed)
    opponents = ["random" if rng.random() < args.random_share else "greedy"
                 for _ in range(args.num_envs)]
    envs = TimoVectorEnv(args.num_envs, players=2, options={"target": args.target},
                         opponents=opponents)
    space = envs.single_observation_space["observation"]
    scale = 1.0 / np.maximum(space.high, 1.0)  # counts and scores to about 0-1
    net = Network(space.shape[0], args.hidden, envs.single_action_space.n, rng)
    optimizer = Adam(net.params, args.lr)
    observations, _ = envs.reset(seed=args.seed)
    n, t_max = args.num_envs, args.num_steps
    buffers = {"x": np.zeros((t_max, n, space.shape[0]), np.float32),
               "mask": np.zeros((t_max, n, envs.single_action_space.n), bool),
               "action": np.zeros((t_max, n), np.int64), "value": np.zeros((t_max, n)),
               "reward": np.zeros((t_max, n)), "live": np.zeros((t_max, n)),
               "done": np.zeros((t_max, n))}
    results: list[float] = []
    steps, start, updates = 0, time.time(), 0
    while steps < args.total_steps:
        for t in range(t_max):
            x = observations["observation"] * scale
            mask = observations["action_mask"].astype(bool)
            live = mask.any(axis=1)  # a game's last observation has no move: a reset step
            safe = np.where(live[:, None], mask, True)
            _, probs, value = net.forward(x, safe)
            cumulative = probs.cumsum(axis=1)
            actions = (cumulative < rng.random((n, 1))).sum(axis=1).clip(0, probs.shape[1] - 1)
            actions = np.where(live, actions, 0)
            buffers["x"][t], buffers["mask"][t], buffers["action"][t] = x, safe, actions
            buffers["value"][t], buffers["live"][t] = value, live
            observations, rewards, terminated, truncated, infos = envs.step(actions)
            buffers["reward"][t], buffers["done"][t] = rewards, terminated | truncated
            if infos:
                ended = infos["_winner"]
                results.extend((infos["winner"][ended] == 0).astype(float).tolist())
            steps += int(live.sum())
        # GAE over the rollout; a reset step (not live) neither learns nor carries value.
        x = observations["observation"] * scale
        mask = observations["action_mask"].astype(bool)
        _, _, next_value = net.forward(x, np.where(mask.any(axis=1)[:, None], mask, True))
        advantages = np.zeros((t_max, n))
        running = np.zeros(n)
        for t in reversed(range(t_max)):
            following = next_value if t == t_max - 1 else buffers["value"][t + 1]
            carry = 1.0 - buffers["done"][t]
            delta = buffers["reward"][t] + args.gamma * following * carry - buffers["value"][t]
            running = delta + args.gamma * args.gae_lambda * carry * running
            running *= buffers["live"][t]
            advantages[t] = running
        returns = advantages + buffers["value"]
        live = buffers["live"].reshape(-1).astype(bool)
        flat_adv = advantages.reshape(-1)[live]
        flat_adv = (flat_adv - flat_adv.mean()) / (flat_adv.std() + 1e-8)
        grads, stats = net.gradients(
            buffers["x"].reshape(-1, space.shape[0])[live],
            buffers["mask"].reshape(-1, envs.single_action_space.n)[live],
            buffers["action"].reshape(-1)[live], flat_adv, returns.reshape(-1)[live],
            args.ent_coef, args.vf_coef)
        optimizer.step(net.params, grads)
        updates += 1
        if updates % 50 == 0:
            recent = results[-500:]
            print(f"steps {steps:>9,}  {steps / (time.time() - start):>8,.0f}/s  "
                  f"games {len(results):>6}  win rate (last 500) "
                  f"{np.mean(recent) if recent else float('nan'):.3f}  "
                  f"entropy {stats['entropy']:.3f}", flush=True)

    def policy(observation: dict[str, np.ndarray]) -> int:
        mask = observation["action_mask"].astype(bool)[None]
        _, probs, _ = net.forward(observation["observation"][None] * scale, mask)
        return int(probs[0].argmax())

    result = evaluate(policy, "heuristic", args.eval_games, seed=args.seed + 10_000,
                      game="timo", options={"target": args.target})
    print(f"against heuristic: {result}")
    return {"steps": steps, "games": len(results), "evaluation": result}


if __name__ == "__main__":
    main()
