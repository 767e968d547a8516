"""What a Twin It game adds up to: each seat's score in every mode, the figures
simulation reports aggregate, and the state's snapshot for tests and audits. Read-only
over the state; the rules that change it are in :mod:`.rules`.
"""

from __future__ import annotations

from typing import Any

from twintable.games.twinit.state import COOP, TIME_ATTACK, TwinItState
from twintable.games.twinit.views import LEVELS, level_for


def seat_scores(state: TwinItState) -> tuple[int, ...]:
    """Each seat's score: its side's points against the clock, else its side's sets."""
    if state.options["mode"] in (COOP, TIME_ATTACK):
        per_side = [state.points[side] for side in range(state.sides)]
    else:
        per_side = [len(groups) for groups in state.sets]
    return tuple(per_side[state.side_of[seat]] for seat in range(state.players))


def game_stats(state: TwinItState) -> dict[str, float]:
    """The figures sims report (``Game.stats``): virtual time, takes, errors, claims."""
    figures: dict[str, float] = {
        "virtual_s": (state.clock - state.started_ms) / 1000
        if state.started_ms is not None else 0.0,
        "takes": float(sum(state.takes)),
        "errors": float(sum(state.errors)),
    }
    figures.update({key: float(value) for key, value in state.tally.items()})
    for seat in range(state.players):
        figures[f"seat{seat}_takes"] = float(state.takes[seat])
        figures[f"seat{seat}_errors"] = float(state.errors[seat])
        figures[f"seat{seat}_claims"] = float(state.claims[seat])
        figures[f"seat{seat}_claim_ms"] = float(state.claim_ms[seat])
    if state.options["mode"] == COOP:
        figures["points"] = float(state.points[0])
        # Success, for a simulation's success rate: a score past the rulebook's Beginner
        # band (Promising or better for so many players).
        level = LEVELS.index(level_for(state.points[0], state.players))
        figures["level"] = float(level)
        figures["success"] = float(level >= 1)
    return figures

def snapshot(state: TwinItState) -> dict[str, Any]:
    """The whole state as JSON-compatible data (``Game.snapshot``)."""
    return {
        "options": dict(state.options), "players": state.players,
        "rng": state.rng.to_json(), "version": state.version, "clock": state.clock,
        "phase": state.phase, "up": state.up[:], "piles": [p[:] for p in state.piles],
        "centre": state.centre[:], "sets": [[g[:] for g in s] for s in state.sets],
        "taboo": [r[:] for r in state.taboo], "box": state.box[:],
        "hands": sorted(h.to_json().items() for h in state.hands.values()),
        "touches": [t[:] for t in state.touches], "triple_due": dict(state.triple_due),
        "turn": state.turn, "ends_ms": state.ends_ms, "round": state.round_no,
        "round_points": state.round_points[:], "points": state.points[:],
        "contenders": sorted(state.contenders) if state.contenders is not None else None,
        "finishers": sorted(state.finishers), "finish_due": state.finish_due,
        "winners": sorted(state.winners), "takes": state.takes[:],
        "errors": state.errors[:],
    }
