"""How the load harness's scripted people play Twinz (its ``"loadtest"`` extension's
``chooser``): a move from the protocol's JSON view, after a person's delay; no server
code, no engine."""

from __future__ import annotations

import random
from typing import Any

from twintable.core.plugin import ClientMove as Move


def choose(view: dict[str, Any], rng: random.Random) -> Move | None:
    """Twinz: the legal moves carry words the engine offers (the duo's clue, a guess);
    contests are left alone, so rounds end by guesses or by the clock."""
    legal = [action for action in view.get("legal") or [] if action["kind"] != "contest"]
    if not legal:
        return None
    action = rng.choice(legal)
    delay = {"draw": 0.1, "clue": 0.2, "guess": 0.4}.get(action["kind"], 0.2)
    return Move(action["kind"], action["payload"], delay * rng.uniform(0.5, 1.5))
