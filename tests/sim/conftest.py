"""The simulator's tests read reports as a pipe gets them."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def piped_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """A report written to a pipe takes the width it needs unless COLUMNS says otherwise
    (``sim/lab.py`` widen); pytest-xdist's workers run with COLUMNS=80 set, which made
    the width tests pass alone and fail in the suite."""
    monkeypatch.delenv("COLUMNS", raising=False)
