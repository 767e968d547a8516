"""The single-file A2C example runs end to end (a few updates on a few short games), so
that it cannot rot; training itself never runs in the tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from tests.games.timo.native import require_native

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "timo_a2c.py"


def test_the_a2c_example_trains_a_few_updates_and_evaluates() -> None:
    require_native()
    spec = importlib.util.spec_from_file_location("timo_a2c", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    summary = module.main(["--num-envs", "16", "--num-steps", "8", "--total-steps", "3000",
                           "--hidden", "16", "--target", "30", "--eval-games", "2"])
    assert summary["steps"] >= 3000
    assert summary["games"] > 0
    assert summary["evaluation"].games == 2
