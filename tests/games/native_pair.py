"""What the games' C-engine tests share (tests/games/{twins,twinit,twinz}/test_native.py):
the skip-or-fail check for a missing engine, the pair of AEC environments (one on the
engine, one on the reference rules) reset on the same seed, and the step-for-step
comparison of what each agent sees and what the table hands out. Each game's test keeps
its own moves, options and state comparisons."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from twintable.envs import IllegalActionError


def require_native(env_module: ModuleType, game: str) -> None:
    """Skip when the game's extension was not built; fail instead under
    TWINTABLE_REQUIRE_NATIVE=1 (.ci/run sets it: CI has a compiler, so a missing engine
    there is a broken build). ``env_module.NATIVE`` is read now, so a test that patches
    it is seen."""
    if env_module.NATIVE:
        return
    if os.environ.get("TWINTABLE_REQUIRE_NATIVE") == "1":
        pytest.fail(f"the C engine of {game} was not built (TWINTABLE_REQUIRE_NATIVE=1)")
    pytest.skip(f"the C engine of {game} was not built (no C compiler at install)")


def refuses_native_unbuilt(monkeypatch: pytest.MonkeyPatch, env_module: ModuleType) -> None:
    """Without the extension, asking for the engine is an error, and by default the
    environment runs on the rules."""
    monkeypatch.setattr(env_module, "NATIVE", False)
    with pytest.raises(RuntimeError, match="not built"):
        env_module.raw_env(players=4, native=True)
    assert not env_module.raw_env(players=4).native


def paired(make: Callable[..., Any], seed: int) -> tuple[Any, Any]:
    """(on the engine, on the rules): ``make(native=...)`` for each, both reset on
    ``seed``."""
    native, reference = make(native=True), make(native=False)
    for env in (native, reference):
        env.reset(seed=seed)
    return native, reference


def same_step(native: Any, reference: Any, agents: Iterable[str]) -> None:
    """The same agent to act, the same observations and masks (values and dtypes) for
    ``agents``, and the same rewards, ends and infos for everyone."""
    assert native.agent_selection == reference.agent_selection
    for agent in agents:
        mine, theirs = native.observe(agent), reference.observe(agent)
        assert mine["observation"].dtype == theirs["observation"].dtype
        assert mine["action_mask"].dtype == theirs["action_mask"].dtype
        assert np.array_equal(mine["observation"], theirs["observation"])
        assert np.array_equal(mine["action_mask"], theirs["action_mask"])
    assert native.rewards == reference.rewards
    assert native._cumulative_rewards == reference._cumulative_rewards
    assert native.terminations == reference.terminations
    assert native.truncations == reference.truncations
    assert native.infos == reference.infos


def refuse_alike(envs: Iterable[Any], action: Any, agent: str) -> str:
    """Every environment refuses ``action`` with the same message naming ``agent``, and
    its state does not change; the message, for a game's own checks on it."""
    messages = []
    for env in envs:
        before = env.game.snapshot(env.state)
        with pytest.raises(IllegalActionError) as refused:
            env.step(action)
        assert env.game.snapshot(env.state) == before
        messages.append(str(refused.value))
    assert len(set(messages)) == 1
    assert agent in messages[0]
    return messages[0]
