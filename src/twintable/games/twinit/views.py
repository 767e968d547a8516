"""What one seat, or a spectator, may see of a Twin It game.

Everyone sees the same table: the centre, each pile's size and top picture, every set
and taboo card, where the hands are and when they lift, the timers and scores. Nobody
sees the cards under a pile's top or any card's hidden face, and no card number ever
leaves the engine (a number would name the hidden face). The public part is built once
per state version and shared by every seat's view; a seat's legal moves are worked out
from the view itself, only when asked for.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from twintable.core.types import Action, plain
from twintable.games.twinit.deck import DECK
from twintable.games.twinit.state import (
    COOP,
    FLIP,
    MAX_TOUCHES_PER_S,
    OVER,
    PLAY,
    READY,
    START,
    TIME_ATTACK,
    TOUCH,
    TURN_OVER,
    TwinItState,
    ref_side,
)

#: The French level table: points at or above each threshold, by players (1-6).
LEVELS = ("beginner", "promising", "expert", "genius")
LEVEL_FLOORS = {1: (5, 7, 10), 2: (10, 13, 18), 3: (15, 19, 27), 4: (20, 25, 36),
                5: (25, 31, 45), 6: (30, 37, 54)}

def level_for(points: int, players: int) -> str:
    """The French rulebook's verdict on a cooperative score."""
    floors = LEVEL_FLOORS[min(max(players, 1), 6)]
    return LEVELS[sum(points >= floor for floor in floors)]


# Refs made once: building them is most of the cost of listing what is visible.
_CENTRE_REFS = tuple(f"c{slot}" for slot in range(len(DECK)))
_PILE_REFS = tuple(f"p{seat}" for seat in range(6))


def visible_items(state: TwinItState) -> list[tuple[str, int]]:
    """Every visible thing as (ref, picture): centre cards, pile tops, sets, taboo cards."""
    up, deck = state.up, DECK
    items = [(_CENTRE_REFS[slot], deck[card][up[card]])
             for slot, card in enumerate(state.centre) if card >= 0]
    items += [(_PILE_REFS[seat], deck[pile[-1]][up[pile[-1]]])
              for seat, pile in enumerate(state.piles) if pile]
    for side, groups in enumerate(state.sets):
        items += [(f"s{side}.{index}", deck[group[0]][up[group[0]]])
                  for index, group in enumerate(groups)]
    for side, row in enumerate(state.taboo):
        items += [(f"t{side}.{index}", deck[card][up[card]]) for index, card in enumerate(row)]
    return items


class PublicTable(NamedTuple):
    """The part of the table everybody sees."""

    options: dict[str, Any]
    players: int
    mode: str
    phase: str
    now_ms: int
    turn: int
    side_of: tuple[int, ...] | list[int]
    centre_slots: int
    """Centre slots, empty ones included (their pictures are in ``picture_at``)."""
    piles: tuple[tuple[int, int], ...]
    """(cards, top picture or -1) per seat."""
    set_sizes: tuple[tuple[int, ...], ...]
    """Cards in each set, per side (their pictures are in ``picture_at``)."""
    taboo: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, str, int], ...]
    """(seat, ref, lift time) per hand on the table."""
    visible: tuple[tuple[str, int], ...]
    picture_at: dict[str, int]
    """The visible things again, by ref."""
    groups: dict[int, list[str]]
    """The visible things again, by picture."""
    twins: tuple[int, ...]
    """Pictures visible more than once."""
    scores: tuple[int, ...]
    """Per side: sets held (competitive, team) or points (time attack)."""
    round_no: int
    ends_ms: int | None
    triple_due: tuple[tuple[int, int], ...]
    contenders: tuple[int, ...] | None
    winners: tuple[int, ...]


def public_table(state: TwinItState) -> PublicTable:
    cached = state.public_cache
    if cached is not None and cached[0] == state.version:
        return cached[1]  # type: ignore[no-any-return]
    up, deck = state.up, DECK
    mode = state.options["mode"]
    if mode in (COOP, TIME_ATTACK):
        # While a round is played its points are not yet in ``points``; once it is over
        # (between time-attack rounds, or at the end) they are.
        scores = tuple(state.points[side] + (state.round_points[side]
                                             if state.phase == PLAY else 0)
                       for side in range(state.sides))
    else:
        scores = tuple(map(len, state.sets))
    visible = visible_items(state)
    groups: dict[int, list[str]] = {}
    for ref, picture in visible:
        if picture in groups:
            groups[picture].append(ref)
        else:
            groups[picture] = [ref]
    table = PublicTable(
        options=state.options,
        players=state.players,
        mode=mode,
        phase=state.phase,
        now_ms=state.clock,
        turn=state.turn,
        side_of=state.side_of,
        centre_slots=len(state.centre),
        piles=tuple((len(p), deck[p[-1]][up[p[-1]]] if p else -1) for p in state.piles),
        set_sizes=tuple(tuple(map(len, groups)) for groups in state.sets),
        taboo=tuple(tuple(deck[c][up[c]] for c in row) for row in state.taboo),
        hands=tuple((h.seat, h.ref, h.lift_ms) for h in state.hands.values()),
        visible=tuple(visible),
        picture_at=dict(visible),
        groups=groups,
        twins=tuple(picture for picture, refs in groups.items() if len(refs) > 1),
        scores=scores,
        round_no=state.round_no,
        ends_ms=state.ends_ms,
        triple_due=tuple(sorted(state.triple_due.items())),
        contenders=tuple(sorted(state.contenders)) if state.contenders is not None else None,
        winners=tuple(sorted(state.winners)),
    )
    state.public_cache = (state.version, table)
    return table


class TwinItView:
    """One audience's view: the public table, plus the viewer's own recent touch times
    (which say when the touch rate limit lets it touch again)."""

    __slots__ = ("_legal", "public", "recent_touches", "viewer")

    def __init__(self, public: PublicTable, viewer: int | None,
                 recent_touches: tuple[int, ...]):
        self.public = public
        self.viewer = viewer
        self.recent_touches = recent_touches
        self._legal: tuple[Action, ...] | None = None

    @property
    def legal(self) -> tuple[Action, ...]:
        if self._legal is None:
            self._legal = legal_moves(self.public, self.viewer, self.recent_touches)
        return self._legal

    def to_json(self) -> dict[str, Any]:
        table = self.public
        return {
            "game": "twinit",
            "viewer": self.viewer,
            "options": plain(table.options),
            "players": table.players,
            "mode": table.mode,
            "phase": table.phase,
            "now_ms": table.now_ms,
            # Nobody flips once the game is over (issue 13, bug 2: no stale "your turn").
            "turn": table.turn if table.turn >= 0 and table.phase != OVER else None,
            "sides": list(table.side_of),
            "centre": [table.picture_at.get(_CENTRE_REFS[slot])
                       for slot in range(table.centre_slots)],
            "piles": [{"cards": size, "top": top if top >= 0 else None}
                      for size, top in table.piles],
            "sets": [[{"picture": table.picture_at[f"s{side}.{index}"], "cards": size}
                      for index, size in enumerate(sizes)]
                     for side, sizes in enumerate(table.set_sizes)],
            "taboo": [list(row) for row in table.taboo],
            "hands": [{"seat": seat, "card": ref, "lift_ms": lift}
                      for seat, ref, lift in table.hands],
            "scores": list(table.scores),
            "round": table.round_no,
            "ends_ms": table.ends_ms,
            "triple_due": [{"picture": p, "at_ms": t} for p, t in table.triple_due],
            "contenders": list(table.contenders) if table.contenders is not None else None,
            "winners": list(table.winners),
            "level": level_for(table.scores[0], table.players)
            if table.mode == COOP and table.phase == OVER else None,
            "legal": [action.to_json() for action in self.legal],
        }


def build_view(state: TwinItState, viewer: int | None) -> TwinItView:
    touches = tuple(state.touches[viewer]) if viewer is not None else ()
    return TwinItView(public_table(state), viewer, touches)


def legal_moves(table: PublicTable, seat: int | None,
                recent_touches: tuple[int, ...]) -> tuple[Action, ...]:
    """Every move ``seat`` may make on this table (none for spectators)."""
    if seat is None or table.phase == OVER:
        return ()
    if table.phase == READY:
        return (Action(seat, START),)
    if table.contenders is not None and seat not in table.contenders:
        return ()
    legal: list[Action] = []
    if table.turn == seat and table.piles[seat][0]:
        legal.append(Action(seat, FLIP))
    if (len(recent_touches) >= MAX_TOUCHES_PER_S
            and recent_touches[-MAX_TOUCHES_PER_S] > table.now_ms - 1000):
        return tuple(legal)
    covered = {ref for _, ref, _ in table.hands}
    side = table.side_of[seat]
    time_attack = table.mode in (COOP, TIME_ATTACK)
    no_steals = table.mode == TIME_ATTACK
    for ref, picture in table.visible:
        if ref in covered:
            continue
        if no_steals and ref[0] == "s" and ref_side(ref) != side:
            continue
        payload = {"card": ref, "picture": picture}
        legal.append(Action(seat, TOUCH, payload))
        if time_attack and ref[0] == "c":
            legal.append(Action(seat, TURN_OVER, payload))
    return tuple(legal)
