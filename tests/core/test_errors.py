"""Errors cross process boundaries whole: a worker's error reaches the caller with its
code, message and details, not as a failure to rebuild it."""

from __future__ import annotations

import pickle

import pytest

from twintable.core.errors import OptionError, RuleError, TwinTableError


@pytest.mark.parametrize("kind", [TwinTableError, RuleError, OptionError])
def test_every_kernel_error_pickles_with_its_code_message_and_details(
        kind: type[TwinTableError]) -> None:
    error = kind("rule.not_your_turn", "seat 2 is not on turn", {"seat": 2})
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is kind
    assert (copy.code, copy.message, copy.details) == (
        "rule.not_your_turn", "seat 2 is not on turn", {"seat": 2})
    assert str(copy) == str(error)
    assert copy.to_json() == error.to_json()
