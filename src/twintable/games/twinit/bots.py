"""Twin It bots: perception models that play like people of a given speed and care.

A bot notices a pair of identical visible pictures some time after it appears (a
reaction time drawn from a log-normal distribution set by its level), reaches for one
card, then the other a moment later, through the same ``touch`` actions a person sends.
It sometimes mistakes a look-alike from the same family for a twin, which is an error
with the usual penalty. It flips its pile on its turn after a pause, helps a teammate
who has a hand on a card, and in time attack turns cards over when it sees nothing.

A bot is a timed bot: ``plan(view, rng)`` answers *when* it would act and how, and the
table (or the simulator's virtual clock) calls it again whenever the table changes. What
it noticed, and when, it remembers between calls, so a change elsewhere on the table
does not reset its reaction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from twintable.core.types import Action
from twintable.games.twinit.deck import VARIANTS
from twintable.games.twinit.state import (
    COOP,
    FLIP,
    MAX_TOUCHES_PER_S,
    READY,
    START,
    TEAM,
    TIME_ATTACK,
    TOUCH,
)
from twintable.games.twinit.state import TURN_OVER as TURN_OVER_KIND
from twintable.games.twinit.views import PublicTable, TwinItView


@dataclass(frozen=True, slots=True)
class Level:
    """A perception model: median reaction, its spread, and how often a look-alike fools it."""

    reaction_ms: float
    spread: float
    """Sigma of the log-normal reaction time."""
    confusion: float
    """Chance that the second hand goes to a look-alike, and half the chance that a new
    look-alike pair is taken for twins."""
    flip_ms: float
    """Median pause before flipping one's own pile."""
    hand_gap_ms: float
    """Time between the first and the second hand."""

    def draw(self, median: float, rng: random.Random) -> float:
        return median * rng.lognormvariate(0.0, self.spread)


LEVELS = {
    # One bot a level, Beginner to Expert (plugin.py). Calibrated against a scripted
    # person who takes a pair a fixed time after it appears (ScriptedPerson below;
    # bench/levels.py --person): a 1.5 s person wins about 80% of two-player games
    # against "beginner", half against "casual", a quarter against "sharp".
    "beginner": Level(1500, 0.5, 0.042, 1000, 190),
    "casual": Level(1200, 0.5, 0.029, 830, 160),
    "sharp": Level(1030, 0.5, 0.022, 740, 140),
    "quick": Level(900, 0.5, 0.016, 660, 120),
    "expert": Level(800, 0.5, 0.012, 600, 110),
}
#: Former names of bots, still accepted: "relaxed" (2.4 s), the old default, was slower
#: than any person who plays a second game.
FORMER = {"relaxed": "beginner"}
#: Pictures on the table at which the level's reaction time holds. Finding a pair takes
#: longer the more there is to look at (between linear and pairwise comparison: count ** 1.6),
#: which is what makes a spread of 135 cards in time attack slow going.
USUAL_VISIBLE = 24


#: Time attack spreads the whole deck in a jumble; searching it stays as slow as at the
#: start even as it thins out (calibrated on the French level table: three sharp bots
#: score in its Promising band, three experts in its Expert band).
SPREAD = 135


_LOADS = tuple(max(1.0, float((visible / USUAL_VISIBLE) ** 1.6))
               for visible in range(SPREAD + 1))


def search_load(visible: int, mode: str) -> float:
    if mode in (COOP, TIME_ATTACK):
        visible = SPREAD
    return _LOADS[min(visible, SPREAD)]


class Reach:
    """What one seat would reach for, picture by picture: free, allowed, not taboo."""

    __slots__ = ("banned", "covered", "no_steals_but", "table")

    def __init__(self, table: PublicTable, seat: int, covered: dict[str, int]):
        self.table = table
        self.covered = covered
        side = table.side_of[seat]
        self.banned = set(table.taboo[side])
        if table.options["edition"] == "ko" and table.mode not in (COOP, TIME_ATTACK):
            size, top = table.piles[seat]
            if size:
                self.banned.add(top)
        self.no_steals_but = f"s{side}." if table.mode == TIME_ATTACK else None

    def refs(self, picture: int) -> list[str]:
        refs = self.table.groups.get(picture)
        if not refs or picture in self.banned:
            return []
        own = self.no_steals_but
        return [ref for ref in refs if ref not in self.covered
                and (own is None or ref[0] != "s" or ref.startswith(own))]


class PerceptionBot:
    """A Twin It player at one of :data:`LEVELS`; sees only its seat's view."""

    def __init__(self, level: str = "sharp"):
        self.name = FORMER.get(level, level)
        self.level = LEVELS[self.name]
        # The pair it is looking at: (when it will reach, first ref, picture, second ref,
        # picture); one search at a time, as a person's attention works.
        self.target: tuple[float, str, int, str, int] | None = None
        self.looked_at = -1  # table time of the last search that found nothing
        self.memo: dict[Any, float] = {}  # other decisions already timed (flips, help)
        self.second: tuple[str, int] | None = None

    # The plain Bot contract: act now if the plan is due.
    def act(self, view: TwinItView, rng: random.Random) -> Action | None:
        planned = self.plan(view, rng)
        if planned is None or planned[0] > view.public.now_ms:
            return None
        return planned[1]

    def plan(self, view: TwinItView, rng: random.Random) -> tuple[int, Action] | None:
        """When this bot will act next and what it will do, or None for "nothing"."""
        table, seat = view.public, view.viewer
        if seat is None or table.phase not in (READY, "play"):
            return None
        now = table.now_ms
        if table.phase == READY:
            due = self._timed(("start", table.round_no), now, self.level.flip_ms, rng)
            return due, Action(seat, START)
        if table.contenders is not None and seat not in table.contenders:
            return None
        covered = {ref: owner for owner, ref, _ in table.hands}
        pictures = table.picture_at
        earliest = now + _spacing(view.recent_touches, now)
        mine = [ref for ref, owner in covered.items() if owner == seat] if covered else []
        if mine:
            if self.target is not None and self.target[1] in mine:
                self.second = (self.target[3], self.target[4])
                self.target = None
            if table.mode != TEAM:
                return self._second_hand(seat, pictures, covered, earliest)
        reach = Reach(table, seat, covered)
        if table.mode == TEAM and not mine:
            helping = self._help(table, seat, reach, now, earliest, rng)
            if helping is not None:
                return helping
        if not self._still_there(pictures, covered):
            self.target = None
        if self.target is None and self.looked_at != now:
            self.target = self._search(table, reach, now, rng)
            if self.target is None:
                self.looked_at = now
        if self.target is not None and not mine:
            when, first, picture = self.target[0], self.target[1], self.target[2]
            return max(int(when), earliest), Action(seat, TOUCH,
                                                   {"card": first, "picture": picture})
        if table.turn == seat and table.piles[seat][0]:
            due = self._timed(("flip", table.piles[seat][0]), now, self.level.flip_ms, rng)
            return due, Action(seat, FLIP)
        if table.mode in (COOP, TIME_ATTACK) and not mine:
            return self._turn_something(table, seat, covered, now, earliest, rng)
        return None

    def _timed(self, key: Any, now: int, median: float, rng: random.Random) -> int:
        if key not in self.memo:
            self.memo[key] = now + self.level.draw(median, rng)
        return int(max(self.memo[key], now))

    def load(self, table: PublicTable) -> float:
        """How much longer than usual a search takes on this table (more to look at)."""
        return search_load(len(table.visible), table.mode)

    def _still_there(self, pictures: dict[str, int], covered: dict[str, int]) -> bool:
        if self.target is None:
            return False
        _, first, first_picture, second, second_picture = self.target
        return (pictures.get(first) == first_picture and pictures.get(second) == second_picture
                and first not in covered and second not in covered)

    def _search(self, table: PublicTable, reach: Reach, now: int,
                rng: random.Random) -> tuple[float, str, int, str, int] | None:
        """Start looking for a pair: which one it will find (or mistake), and when."""
        look = self.level.reaction_ms * self.load(table)
        pairs = [(picture, refs) for picture in table.twins
                 if len(refs := reach.refs(picture)) >= 2]
        if pairs:
            picture, refs = rng.choice(pairs)
            first, second = rng.sample(refs, 2)
            second_picture = picture
            if rng.random() < self.level.confusion:
                # The second hand slips to a look-alike of the same family.
                family = picture - picture % VARIANTS
                alikes = [(other, refs[0]) for other in range(family, family + VARIANTS)
                          if other != picture and (refs := reach.refs(other))]
                if alikes:
                    second_picture, second = rng.choice(alikes)
            return now + self.level.draw(look, rng), first, picture, second, second_picture
        if rng.random() >= self.level.confusion / 2:
            return None
        families: dict[int, list[int]] = {}
        for picture in table.groups:
            if reach.refs(picture):
                families.setdefault(picture // VARIANTS, []).append(picture)
        lookalikes = [group for group in families.values() if len(group) >= 2]
        if not lookalikes:
            return None
        first_picture, second_picture = rng.sample(rng.choice(lookalikes), 2)
        return (now + self.level.draw(look, rng) * 1.3, reach.refs(first_picture)[0],
                first_picture, reach.refs(second_picture)[0], second_picture)

    def _help(self, table: PublicTable, seat: int, reach: Reach, now: int, earliest: int,
              rng: random.Random) -> tuple[int, Action] | None:
        """Team play: a teammate's hand is on a card whose twin is free; put ours on it."""
        side = table.side_of[seat]
        for owner, ref, _ in table.hands:
            if owner == seat or table.side_of[owner] != side:
                continue
            picture = table.picture_at.get(ref, -1)
            twins = reach.refs(picture)
            if twins:
                due = self._timed(("help", ref, twins[0]), now, self.level.reaction_ms * 0.6,
                                  rng)
                return max(due, earliest), Action(seat, TOUCH, {
                    "card": twins[0], "picture": picture})
        return None

    def _second_hand(self, seat: int, pictures: dict[str, int], covered: dict[str, int],
                     earliest: int) -> tuple[int, Action] | None:
        if self.second is None:
            return None
        target, picture = self.second
        if target in covered or pictures.get(target) != picture:
            return None  # someone got there first: let the hand lift by itself
        return int(earliest + self.level.hand_gap_ms), Action(seat, TOUCH, {
            "card": target, "picture": picture})

    def _turn_something(self, table: PublicTable, seat: int, covered: dict[str, int],
                        now: int, earliest: int,
                        rng: random.Random) -> tuple[int, Action] | None:
        """Time attack with nothing spotted: turn a centre card over to see its back."""
        free = [ref for ref, _ in table.visible if ref[0] == "c" and ref not in covered]
        if not free:
            return None
        key = ("turn", len(table.visible), table.scores)
        if key not in self.memo:
            self.memo = {key: now + self.level.draw(self.level.reaction_ms, rng)}
        ref = free[int(self.memo[key]) % len(free)]
        return max(int(self.memo[key]), earliest), Action(seat, TURN_OVER_KIND, {
            "card": ref, "picture": dict(table.visible)[ref]})


class PersonLevel(Level):
    """A person's reaction: the same every time, give or take ``jitter`` (evenly)."""

    jitter = 0.2

    def draw(self, median: float, rng: random.Random) -> float:
        return median * rng.uniform(1 - self.jitter, 1 + self.jitter)


class ScriptedPerson(PerceptionBot):
    """A person as the levels are calibrated against: takes a pair ``reaction_ms`` after it
    appears (give or take 20%), on a crowded table as fast as on a bare one; flips their
    own pile in about 0.7 s; never mistakes a look-alike for a twin."""

    def __init__(self, reaction_ms: float):
        super().__init__("beginner")
        self.name = f"person {reaction_ms / 1000:.1f} s"
        self.level = PersonLevel(reaction_ms, 0.0, 0.0, 700, 200)

    def load(self, table: PublicTable) -> float:
        return 1.0


def _spacing(recent: tuple[int, ...], now: int) -> int:
    """How long to wait so as never to touch faster than a person may."""
    if len(recent) < MAX_TOUCHES_PER_S:
        return 0
    return max(0, recent[-MAX_TOUCHES_PER_S] + 1001 - now)
