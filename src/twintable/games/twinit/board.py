"""The Twin It table as the rules touch it: refs to what a hand can cover (``c<slot>``,
``p<seat>``, ``s<side>.<n>``, ``t<side>.<n>``) and what lies behind them, placing and
turning cards over, lifting hands from a row that moved, time-attack points and whose
turn to flip comes next. Helpers of :mod:`.rules`; they check nothing.
"""

from __future__ import annotations

from typing import Any

from twintable.games.twinit.state import TwinItState


def parse_ref(ref: Any) -> tuple[str, int, int] | None:
    """``"c7"`` -> ("c", 7, 0); ``"s1.0"`` -> ("s", 1, 0); None when malformed."""
    if not isinstance(ref, str) or len(ref) < 2 or len(ref) > 8 or ref[0] not in "cpst":
        return None
    head, _, tail = ref[1:].partition(".")
    if not head.isdigit() or (tail and not tail.isdigit()):
        return None
    if (ref[0] in "st") != bool(tail):
        return None
    return ref[0], int(head), int(tail or 0)


def ref_object(state: TwinItState, ref: str) -> Any:
    """The card (centre, pile top, taboo) or set (list of cards) behind a ref, or None."""
    kind = ref[0]
    if kind == "c":
        slot = int(ref[1:])
        return state.centre[slot] if slot < len(state.centre) and state.centre[slot] >= 0 \
            else None
    if kind == "p":
        seat = int(ref[1:])
        return state.piles[seat][-1] if seat < state.players and state.piles[seat] else None
    side_text, _, index_text = ref[1:].partition(".")
    side, index = int(side_text), int(index_text)
    rows = state.sets if kind == "s" else state.taboo
    if side >= state.sides or index >= len(rows[side]):
        return None
    return rows[side][index]


def ref_picture(state: TwinItState, ref: str) -> int:
    target = ref_object(state, ref)
    if target is None:
        return -1
    return state.picture(target[0] if isinstance(target, list) else target)


def place_in_centre(state: TwinItState, card: int) -> int:
    centre = state.centre
    try:
        slot = centre.index(-1)
    except ValueError:
        centre.append(card)
        return len(centre) - 1
    centre[slot] = card
    return slot


def flip_cards(state: TwinItState, refs: list[str]) -> list[str]:
    """Turn cards over: centre cards in place, a pile's top into the centre. Returns where
    each one now lies."""
    landed = []
    for ref in refs:
        state.hands.pop(ref, None)
        if ref[0] == "c":
            card = state.centre[int(ref[1:])]
            state.up[card] ^= 1
            landed.append(ref)
        elif ref[0] == "p":
            seat = int(ref[1:])
            card = state.piles[seat].pop()
            state.up[card] ^= 1
            landed.append(f"c{place_in_centre(state, card)}")
            if not state.piles[seat] and state.turn == seat:
                state.turn = next_turn(state, seat + 1)
    return landed


def lift_row(state: TwinItState, kind: str, side: int) -> None:
    """A side's sets (kind "s") or taboo cards ("t") changed, so their refs moved: lift
    every hand on that row."""
    prefix = f"{kind}{side}."
    for ref in [ref for ref in state.hands if ref.startswith(prefix)]:
        del state.hands[ref]


def time_attack_points(state: TwinItState, side: int) -> int:
    """A pair is worth 1 point and a triple 2."""
    return sum(len(group) - 1 for group in state.sets[side])


def next_turn(state: TwinItState, start: int) -> int:
    """The first seat clockwise from ``start`` (itself included) that can flip, or -1."""
    for step in range(state.players):
        seat = (start + step) % state.players
        if state.piles[seat] and (state.contenders is None or seat in state.contenders):
            return seat
    return -1
