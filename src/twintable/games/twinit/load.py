"""How the load harness's scripted people play Twin It (its ``"loadtest"`` extension's
``chooser``): a move from the protocol's JSON view, after a person's reaction time; no
server code, no engine."""

from __future__ import annotations

import random
from typing import Any

from twintable.core.plugin import ClientMove as Move


def _picture_at(view: dict[str, Any], ref: str) -> int | None:
    """The picture a Twin It card shows, by its place: ``c7``, ``p2``, ``s1.0``, ``t0.2``."""
    try:
        if ref[0] == "c":
            return view["centre"][int(ref[1:])]  # type: ignore[no-any-return]
        if ref[0] == "p":
            return view["piles"][int(ref[1:])]["top"]  # type: ignore[no-any-return]
        side, index = (int(part) for part in ref[1:].split("."))
        if ref[0] == "s":
            return view["sets"][side][index]["picture"]  # type: ignore[no-any-return]
        return view["taboo"][side][index]  # type: ignore[no-any-return]
    except (IndexError, KeyError, TypeError, ValueError):
        return None


def choose(view: dict[str, Any], rng: random.Random) -> Move | None:
    """Twin It: touch two cards that show the same picture (one, then the other, after a
    person's reaction time); flip when it is this seat's turn and nothing matches; in
    time attack, turn a card over instead."""
    legal = list(view.get("legal") or [])
    if not legal:
        return None
    seat, mode = view["viewer"], view.get("mode")
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_kind.setdefault(action["kind"], []).append(action)
    if "start" in by_kind:
        return Move("start", {}, 0.3 + 0.3 * seat)
    touches = by_kind.get("touch", [])
    sides = view.get("sides") or []

    def partner(other: int) -> bool:
        if other == seat:
            return True
        if mode == "coop":
            return True
        return mode == "team" and bool(sides) and sides[other] == sides[seat]

    hands = view.get("hands") or []
    mine = [hand for hand in hands if hand["seat"] == seat]
    helpable = [hand for hand in hands if partner(hand["seat"])]
    for hand in helpable:
        picture = _picture_at(view, hand["card"])
        match = [t for t in touches if t["payload"]["picture"] == picture]
        if picture is not None and match:
            return Move("touch", rng.choice(match)["payload"], rng.uniform(0.15, 0.35))
    if mine:
        return None  # one hand down and nothing to pair it with: it lifts by itself
    seen: dict[int, dict[str, Any]] = {}
    pairs = []
    for touch in touches:
        picture = touch["payload"]["picture"]
        if picture in seen:
            pairs.append(seen[picture])
        else:
            seen[picture] = touch
    if pairs:
        return Move("touch", rng.choice(pairs)["payload"], rng.uniform(0.3, 0.7))
    if "flip" in by_kind:
        return Move("flip", {}, rng.uniform(0.2, 0.5))
    turns = by_kind.get("turn_over", [])
    if turns:
        return Move("turn_over", rng.choice(turns)["payload"], rng.uniform(0.4, 0.9))
    return None
