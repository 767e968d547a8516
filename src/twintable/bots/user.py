"""A researcher's own agent at any table: ``module:Class`` or a saved policy (``.npz``,
``.zip``), wherever a bot is named (``twintable sim``/``sweep``/``ladder`` ``--bots``,
``twintable.envs.evaluate``, the Gymnasium wrapper's ``opponents``).

- ``package.module:Name`` imports ``Name`` and calls it with no arguments for each seat:
  a bot class (``act(view, rng)``, optionally ``plan`` for races on the clock) or a
  factory returning one. The module must be importable where the games run (simulation
  workers import it again in their own process).
- ``path.npz``: a NumPy policy network as ``twintable train`` writes it (``w1``, ``b1``,
  ``w2``, ``b2`` and an optional input ``scale``: one tanh hidden layer, then masked
  logits; ``w3``/``b3`` add a second hidden layer), the most probable legal move.
- ``path.zip``: a Stable-Baselines3 model (sb3-contrib's ``MaskablePPO`` first, then
  ``PPO``, ``A2C``, ``DQN``), trained on the game's environment observations; it needs
  ``stable-baselines3`` (and PyTorch) installed.

A policy acts on the game environment's observation of its seat, built from the bot's
view by the game's environment module (``observe_view`` and ``view_action``, which every
game environment offers), so it plays the same game at a table as in training. A spec
reports under its own text, so results name the file or class that played.
"""

from __future__ import annotations

import contextlib
import importlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twintable.bots.base import Bot
from twintable.core.plugin import GameEntry

#: A policy: an observation dict (``observation``, ``action_mask``) -> an action index.
Policy = Callable[[dict[str, Any]], Any]
POLICY_SUFFIXES = (".npz", ".zip")
SB3_CLASSES = (("sb3_contrib", "MaskablePPO"), ("stable_baselines3", "PPO"),
               ("stable_baselines3", "A2C"), ("stable_baselines3", "DQN"))


class UserBotError(ValueError):
    """A user's bot spec that cannot be seated, with why."""


def is_user_bot(name: str) -> bool:
    """Whether ``name`` names a user's agent rather than one of the game's bots."""
    text = name.strip()
    return text.lower().endswith(POLICY_SUFFIXES) or (
        ":" in text and not text.startswith(":") and not text.endswith(":"))


def _import_object(spec: str) -> Any:
    module_name, _, attribute = spec.strip().partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise UserBotError(f"cannot import {module_name!r} for the bot {spec!r}: {error}. "
                           "Is its folder on PYTHONPATH?") from error
    target: Any = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise UserBotError(f"{module_name!r} has no {attribute!r} (bot {spec!r})"
                               ) from None
    if not callable(target):
        raise UserBotError(f"{spec!r} is not a class or a factory of bots")
    return target


class NumpyPolicy:
    """A ``.npz`` network as a policy (the module docstring): the most probable legal
    move; a batch of observations gives an array of indices."""

    def __init__(self, path: Path | str):
        import numpy as np

        with np.load(path) as saved:
            self.params = {key: saved[key] for key in saved.files
                           if not key.startswith("meta_")}
        missing = [key for key in ("w1", "b1", "w2", "b2") if key not in self.params]
        if missing:
            raise UserBotError(f"{path}: a policy network needs {', '.join(missing)}")
        self.scale = self.params.get("scale")
        self.layers = 3 if "w3" in self.params else 2

    def logits(self, observation: Any) -> Any:
        import numpy as np

        p = self.params
        x = observation if self.scale is None else observation * self.scale
        hidden = np.tanh(x @ p["w1"] + p["b1"])
        if self.layers == 3:
            hidden = np.tanh(hidden @ p["w2"] + p["b2"])
            return hidden @ p["w3"] + p["b3"]
        return hidden @ p["w2"] + p["b2"]

    def __call__(self, observation: dict[str, Any]) -> Any:
        import numpy as np

        x = np.asarray(observation["observation"], np.float32)
        mask = np.asarray(observation["action_mask"]).astype(bool)
        logits = np.where(mask, self.logits(x), -np.inf)
        choice = logits.argmax(axis=-1)
        return int(choice) if choice.ndim == 0 else choice


class SB3Policy:
    """A Stable-Baselines3 model as a policy: its deterministic move among the legal
    ones (``MaskablePPO`` reads the mask itself; other algorithms' action
    probabilities are masked here)."""

    def __init__(self, path: Path | str):
        errors = []
        self.model: Any = None
        for module_name, class_name in SB3_CLASSES:
            try:
                algorithm = getattr(importlib.import_module(module_name), class_name)
            except ImportError as error:
                errors.append(f"{module_name}: {error}")
                continue
            try:
                self.model = algorithm.load(str(path), device="cpu")
            except Exception as error:
                errors.append(f"{class_name}: {error}")
                continue
            self.masked = class_name == "MaskablePPO"
            return
        raise UserBotError(f"cannot load {path} as a Stable-Baselines3 model (install "
                           f"twintable[sb3]): {'; '.join(errors)}")

    @classmethod
    def of(cls, model: Any) -> SB3Policy:
        """A model already in memory (self-play against the model being trained)."""
        policy = cls.__new__(cls)
        policy.model = model
        policy.masked = type(model).__name__ == "MaskablePPO"
        return policy

    def __call__(self, observation: dict[str, Any]) -> Any:
        import numpy as np

        mask = np.asarray(observation["action_mask"]).astype(bool)
        if self.masked:
            action, _ = self.model.predict(observation, deterministic=True,
                                           action_masks=mask)
            return int(action) if np.ndim(action) == 0 else action
        policy = self.model.policy
        tensor, _ = policy.obs_to_tensor(observation)
        probs = policy.get_distribution(tensor).distribution.probs.detach().cpu().numpy()
        choice = np.where(mask.reshape(probs.shape), probs, -1.0).argmax(axis=-1)
        return int(choice[0]) if np.ndim(observation["action_mask"]) == 1 else choice


def load_policy(spec: Any) -> Policy:
    """A policy from a callable (as it is), a ``.npz`` or ``.zip`` path, or
    ``module:name`` (a callable policy object or factory's result)."""
    if callable(spec):
        return spec  # type: ignore[no-any-return]
    text = str(spec).strip()
    if text.lower().endswith(".npz"):
        _exists(text)
        return NumpyPolicy(text)
    if text.lower().endswith(".zip"):
        _exists(text)
        return SB3Policy(text)
    if ":" in text:
        return _import_object(text)  # type: ignore[no-any-return]
    raise UserBotError(f"{text!r} is not a policy: give a callable, a .npz or .zip file, "
                       "or module:name")


def _exists(path: str) -> None:
    if not Path(path).is_file():
        raise UserBotError(f"no policy file {path!r}")


class PolicyBot:
    """A policy on a game environment's observations, seated as a bot: it sees its
    view, as the environment would encode it, and plays the legal move it picks."""

    def __init__(self, policy: Policy, env_module: Any, name: str):
        self.policy = policy
        self.env = env_module
        self.name = name

    def act(self, view: Any, rng: random.Random) -> Any:
        if not view.legal:
            return None
        observation = self.env.observe_view(view)
        return self.env.view_action(view, int(self.policy(observation)))


class TimedPolicyBot(PolicyBot):
    """A policy in a race on the clock (the environment's ``view_now`` gives a view's
    time). A table does not tick: it asks a bot again only when something changes. So a
    move the policy picks is played :data:`REACTION_MS` after the view's moment (one
    environment tick), and a policy that waits is asked once more with waiting masked
    out: that move is played :data:`PATIENCE_MS` later unless the table changes first
    (then it is asked afresh), so an agent that only waits cannot stall a game."""

    REACTION_MS = 100
    PATIENCE_MS = 2000

    def plan(self, view: Any, rng: random.Random) -> tuple[int, Any] | None:
        if not view.legal:
            return None
        now = int(self.env.view_now(view))
        observation = self.env.observe_view(view)
        action = self.env.view_action(view, int(self.policy(observation)))
        if action is not None:
            return now + self.REACTION_MS, action
        mask = observation["action_mask"].copy()
        mask[self.env.WAIT] = 0
        if not mask.any():
            return None
        index = int(self.policy({"observation": observation["observation"],
                                 "action_mask": mask}))
        action = self.env.view_action(view, index)
        return None if action is None else (now + self.PATIENCE_MS, action)


def _policy_bot(policy: Policy, module: Any, name: str) -> PolicyBot:
    timed = hasattr(module, "view_now")
    return (TimedPolicyBot if timed else PolicyBot)(policy, module, name)


def _env_module(entry: GameEntry, spec: str) -> Any:
    # The environment module the game's "envs" extension names (twintable.envs.extension:
    # EnvGame.module). Bots sit below the environments and may not import them, so this
    # reads the one field it needs from the game's declaration itself.
    name = entry.extensions.get("envs", {}).get("module")
    if name is None:
        raise UserBotError(f"{entry.rules.name} has no environment, so the policy "
                           f"{spec!r} cannot see its table")
    module = importlib.import_module(name)
    if not hasattr(module, "observe_view"):
        raise UserBotError(f"{name} cannot encode a view for the policy {spec!r}")
    return module


_FACTORIES: dict[tuple[str, str], Callable[[], Bot]] = {}


def user_bot_factory(entry: GameEntry, spec: str) -> Callable[[], Bot]:
    """A factory of the user's bot ``spec`` for ``entry``'s game (the module docstring);
    UserBotError says why it cannot be seated. Each bot reports under ``spec``. A
    simulation seats bots game after game: a process loads each spec once."""
    key = (entry.id, spec.strip())
    if key not in _FACTORIES:
        _FACTORIES[key] = _user_bot_factory(entry, key[1])
    return _FACTORIES[key]


def _user_bot_factory(entry: GameEntry, text: str) -> Callable[[], Bot]:
    if text.lower().endswith(POLICY_SUFFIXES):
        policy = load_policy(text)
        module = _env_module(entry, text)
        return lambda: _policy_bot(policy, module, text)
    make = _import_object(text)

    def build() -> Bot:
        bot = make()
        if not callable(getattr(bot, "act", None)):
            if callable(bot):  # a policy on observations, named as module:name
                return _policy_bot(bot, _env_module(entry, text), text)
            raise UserBotError(f"{text!r} made {type(bot).__name__}, which has no "
                               "act(view, rng)")
        with contextlib.suppress(AttributeError):
            bot.name = text
        return bot  # type: ignore[no-any-return]

    return build


__all__ = ["NumpyPolicy", "Policy", "PolicyBot", "SB3Policy", "TimedPolicyBot", "UserBotError",
           "is_user_bot", "load_policy", "user_bot_factory"]
