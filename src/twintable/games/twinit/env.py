"""Twin It as a PettingZoo environment in discrete time: ``env()`` (AEC) and
``parallel_env()``.

Twin It is a real-time race; here time moves in ticks of ``dt`` ms (default 100). In each
tick every agent may do one thing (touch a card, flip, turn a card over, start a round) or
wait; then the virtual clock moves on by ``dt`` and every game timer that ran out by then
fires (a hand lifting after ``hold_ms``, a triple turning over, the end of a time-attack
round), exactly as the engine's timers would (``Game.dispatch_timed``). Every action is
stamped with its tick's time, so the engine's touch rate limit and deadlines apply.

- In the AEC form the agents act one after another within a tick, in an order that
  rotates by one seat every tick (tick ``k`` starts with ``seat_{k mod n}``), so no seat
  always wins a race; each agent sees what those before it did in the same tick.
- In the parallel form all agents choose at once from the table at the start of the tick;
  the moves are then played in the same rotating order. A move that was legal when chosen
  but is no longer possible because an earlier move in the tick changed the table (the
  card was taken, a hand is already on it) has lost the race: it is not played and that
  agent's info says ``{"refused": True}``, as a server refuses a late touch.

Modes and every other game option come through ``options`` (``{"mode": "coop"}``,
``"team"``, ``"timeattack"``; default competitive); 1–6 players as the mode allows.

Cards are addressed by where they lie, never by card number (a number would name the
hidden face): *places* are the 135 centre slots ``c0``–``c134``, the six pile tops
``p0``–``p5``, up to 67 sets per side ``s<side>.<i>`` and three taboo cards per side
``t<side>.<i>`` (561 places, ``PLACES`` in order).

Actions (``N_ACTIONS`` = 699): 0 wait, 1 flip my pile, 2 start the round (time attack),
3–563 touch place ``PLACES[i - 3]``, 564–698 turn over centre slot ``i - 564`` (time
attack). A touch names the picture the place shows now.

Observation (``OBSERVATION``, 4,549 float32; per place, in ``PLACES`` order, then the table;
seats are absolute, as the places name them). Only the seat's view is encoded: what is
visible, where hands are, the timers and scores everyone sees, and its own touch times.

==================  ====  =============================================================
field               size  meaning
==================  ====  =============================================================
``picture``         561   picture id + 1 shown at each place (0: nothing there); the
                          90 pictures are ``family * 5 + variant`` (games/twinit/deck.py)
``copies``          561   other places showing the same picture (0–2)
``my_hand``         561   1 where my hand is
``ally_hand``       561   1 where a teammate's hand is (team and coop)
``rival_hand``      561   1 where an opponent's hand is
``lift``            561   time until that hand lifts / ``hold_ms``
``banned``          561   1 where touching is an error for me (taboo; ``ko``: my top)
``triple``          561   time until an unclaimed triple turns over / its timeout
``me``              6     one-hot my seat
``my_side``         6     one-hot my side (a side owns sets: a seat, a team, or all)
``allies``          6     1 for each seat on my side, me included
``present``         6     1 for seats at the table
``piles``           6     cards in each seat's pile / 135
``turn``            6     one-hot seat that flips next (all 0: nobody)
``scores``          6     score of each seat's side (sets; points in time attack), raw
``contenders``      6     seats playing sudden death (``ko``), all 0 otherwise
``mode``            4     one-hot competitive, team, coop, timeattack
``edition``         2     one-hot fr, ko
``phase``           3     one-hot ready, play, over
``time_left``       1     time-attack round time left / its duration
``round``           1     time-attack round / rounds
``target``          1     ``sets_to_win`` / 20
``touches_left``    1     touches the rate limit still allows this second / 8
==================  ====  =============================================================

Rewards: ``reward="score"`` (default) gives each agent the change in its side's score
after every step (a set taken +1, a set stolen or lost −1; time-attack points);
``reward="win"`` gives +1 to each winner and −1 to the others at the end.

Engine: ``env(native=None)`` steps the AEC form on the C engine (``games/twinit/_native.c``,
built by setup.py where a C compiler is found), every mode and option, and on the
reference rules (rules.py) otherwise or with ``native=False``; the parallel form runs on
the rules. Both give the same observations, masks, rewards, infos and states for the same
seed and actions (tests/games/twinit/test_native.py). Chance stays in Python, drawn by
core/rng.py as the rules draw it: the deal, and each time-attack round's shuffle and
faces when a seat starts it. On the engine ``env.unwrapped.state`` and
``env.unwrapped.table`` are fresh copies of the engine's state at each read (changing
them changes nothing).

Episode cap: ``max_ticks`` truncates an episode (default ``"auto"``: 15 virtual minutes,
or in coop and time attack each round's ``duration_s`` plus a minute to start it, where
that is longer; None: no cap). A seat that never flips its pile or never starts a round
would otherwise stall the game for ever. The last ``info`` of every agent holds
``winner``, ``winners``, ``score`` and ``scores`` (each seat's side's score; at a
truncation the scores so far, and no winner).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from twintable.core.rng import Rng
from twintable.core.table_engine import run_timers
from twintable.core.types import Action
from twintable.envs.aec import (
    AUTO,
    Seeds,
    TableEnv,
    agent_names,
    check_render_mode,
    check_reward,
    episode_cap,
    standing,
    win_rewards,
)
from twintable.envs.errors import IllegalActionError
from twintable.envs.fast_wrapper import FastOrderEnforcingWrapper
from twintable.envs.layout import Field, Layout
from twintable.envs.parallel import TableParallelEnv
from twintable.games.twinit.deck import CARDS, DECK, PICTURES
from twintable.games.twinit.rules import TwinItGame
from twintable.games.twinit.state import (
    COMPETITIVE,
    COOP,
    FLIP,
    MAX_TOUCHES_PER_S,
    OVER,
    PLAY,
    READY,
    START,
    TEAM,
    TIME_ATTACK,
    TOUCH,
    TURN_OVER,
    Hand,
    TwinItState,
    ref_side,
)
from twintable.games.twinit.views import PublicTable, legal_moves, public_table

try:
    from twintable.games.twinit import _native
except ImportError:  # built without a C compiler: see setup.py
    _native = None  # type: ignore[assignment]

#: Whether the C engine was built (the AEC form then runs on it where it covers the options).
NATIVE = _native is not None

MAX_SEATS = 6
MAX_SETS = CARDS // 2
TABOO_CARDS = 3
PLACES: tuple[str, ...] = (
    tuple(f"c{slot}" for slot in range(CARDS))
    + tuple(f"p{seat}" for seat in range(MAX_SEATS))
    + tuple(f"s{side}.{index}" for side in range(MAX_SEATS) for index in range(MAX_SETS))
    + tuple(f"t{side}.{index}" for side in range(MAX_SEATS) for index in range(TABOO_CARDS)))
PLACE_INDEX = {place: index for index, place in enumerate(PLACES)}
WAIT, FLIP_INDEX, START_INDEX = 0, 1, 2
TOUCH_BASE = 3
TURN_BASE = TOUCH_BASE + len(PLACES)
N_ACTIONS = TURN_BASE + CARDS
MODES = (COMPETITIVE, TEAM, COOP, TIME_ATTACK)
#: The default episode cap (``max_ticks="auto"``) in virtual time: 15 minutes, or each
#: timed round's length plus a minute to start it where that is longer.
CAP_MS = 15 * 60_000
START_ALLOWANCE_MS = 60_000
PHASES = (READY, PLAY, OVER)
REWARDS = ("score", "win")
_R = len(PLACES)

OBSERVATION = Layout([
    Field("picture", _R, PICTURES, "picture id + 1 at each place (0: nothing there)"),
    Field("copies", _R, 2, "other places showing the same picture"),
    Field("my_hand", _R, 1, "1 where my hand is"),
    Field("ally_hand", _R, 1, "1 where a teammate's hand is"),
    Field("rival_hand", _R, 1, "1 where an opponent's hand is"),
    Field("lift", _R, 1, "time until that hand lifts / hold_ms"),
    Field("banned", _R, 1, "1 where touching is an error for me (taboo, ko own top)"),
    Field("triple", _R, 1, "time until an unclaimed triple turns over / its timeout"),
    Field("me", MAX_SEATS, 1, "one-hot my seat"),
    Field("my_side", MAX_SEATS, 1, "one-hot my side"),
    Field("allies", MAX_SEATS, 1, "1 for each seat on my side, me included"),
    Field("present", MAX_SEATS, 1, "1 for seats at the table"),
    Field("piles", MAX_SEATS, 1, "cards in each seat's pile / 135"),
    Field("turn", MAX_SEATS, 1, "one-hot seat that flips next"),
    Field("scores", MAX_SEATS, PICTURES,
          "score of each seat's side (sets; time-attack points), raw"),
    Field("contenders", MAX_SEATS, 1, "seats playing sudden death (ko)"),
    Field("mode", len(MODES), 1, "one-hot competitive, team, coop, timeattack"),
    Field("edition", 2, 1, "one-hot fr, ko"),
    Field("phase", len(PHASES), 1, "one-hot ready, play, over"),
    Field("time_left", 1, 1, "time-attack round time left / its duration"),
    Field("round", 1, 1, "time-attack round / rounds"),
    Field("target", 1, 1, "sets_to_win / 20"),
    Field("touches_left", 1, 1, "touches the rate limit still allows this second / 8"),
])
if _native is not None and (OBSERVATION.size, N_ACTIONS, len(PLACES)) != (
        _native.OBSERVATION_SIZE, _native.N_ACTIONS, _native.PLACES):
    raise ImportError("games/twinit/_native.c encodes another layout than env.py's")
#: The deck as the engine reads it: face 0 and face 1 of each card, one byte each.
_FACES = bytes(picture for card in DECK for picture in card)


def index_of(action: Action) -> int:
    """The action index of an engine action (the picture a touch names is not part of it)."""
    if action.kind == FLIP:
        return FLIP_INDEX
    if action.kind == START:
        return START_INDEX
    if action.kind in (TOUCH, TURN_OVER):
        place = action.payload["card"]
        if place not in PLACE_INDEX:
            raise ValueError(f"no action index for the place {place!r}")
        if action.kind == TOUCH:
            return TOUCH_BASE + PLACE_INDEX[place]
        if place[0] != "c":
            raise ValueError(f"only centre cards are turned over, not {place!r}")
        return TURN_BASE + PLACE_INDEX[place]
    raise ValueError(f"Twin It has no action index for {action.kind!r}")


_AT = {name: where.start for name, where in OBSERVATION.slices.items()}
_PICTURE, _MY_HAND, _ALLY_HAND, _RIVAL_HAND = (_AT["picture"], _AT["my_hand"],
                                               _AT["ally_hand"], _AT["rival_hand"])
_LIFT, _BANNED, _TRIPLE, _ME, _MY_SIDE = (_AT["lift"], _AT["banned"], _AT["triple"],
                                          _AT["me"], _AT["my_side"])
_ALLIES, _PRESENT, _PILES, _TURN, _SCORES = (_AT["allies"], _AT["present"], _AT["piles"],
                                             _AT["turn"], _AT["scores"])
_CONTENDERS, _MODE, _EDITION, _PHASE = (_AT["contenders"], _AT["mode"], _AT["edition"],
                                        _AT["phase"])
_TIME_LEFT, _ROUND, _TARGET, _TOUCHES_LEFT = (_AT["time_left"], _AT["round"], _AT["target"],
                                              _AT["touches_left"])


def encode(table: PublicTable, seat: int, recent_touches: tuple[int, ...],
           now: int) -> np.ndarray:
    """One seat's view at time ``now`` as the observation vector (the layout above).

    Its hot path: per-place values go in with one fancy assignment per field, the rest
    one element at a time at offsets worked out once (no Layout lookups)."""
    out = np.zeros(OBSERVATION.size, dtype=np.float32)
    options = table.options
    side_of = table.side_of
    side = side_of[seat]
    visible = table.visible
    groups = table.groups
    if visible:
        places = _places([place for place, _ in visible])
        out[places] = [picture + 1 for _, picture in visible]
        out[[_COPIES + index for index in places]] = [len(groups[picture]) - 1
                                                      for _, picture in visible]
    hold = options["hold_ms"]
    for owner, place, lift_ms in table.hands:
        index = _place(place)
        kind = (_MY_HAND if owner == seat else
                _ALLY_HAND if side_of[owner] == side else _RIVAL_HAND)
        out[kind + index] = 1.0
        out[_LIFT + index] = min(max((lift_ms - now) / hold, 0.0), 1.0)
    banned = set(table.taboo[side])
    size, top = table.piles[seat]
    if options["edition"] == "ko" and table.mode in (COMPETITIVE, TEAM) and size:
        banned.add(top)
    for picture in banned:
        for place in groups.get(picture, ()):
            out[_BANNED + _place(place)] = 1.0
    timeout = options["triple_timeout_ms"]
    for picture, due in table.triple_due:
        for place in groups.get(picture, ()):
            if place[0] in "cp":
                out[_TRIPLE + _place(place)] = min(max((due - now) / timeout, 0.0), 1.0)
    out[_ME + seat] = 1.0
    out[_MY_SIDE + side] = 1.0
    players, piles, scores = table.players, table.piles, table.scores
    out[_ALLIES:_ALLIES + players] = [float(side_of[other] == side) for other in range(players)]
    out[_PRESENT:_PRESENT + players] = 1.0
    out[_PILES:_PILES + players] = [piles[other][0] / CARDS for other in range(players)]
    out[_SCORES:_SCORES + players] = [min(scores[side_of[other]], PICTURES)
                                      for other in range(players)]
    if 0 <= table.turn < players and table.phase != OVER:
        out[_TURN + table.turn] = 1.0
    for contender in table.contenders or ():
        out[_CONTENDERS + contender] = 1.0
    out[_MODE + MODES.index(table.mode)] = 1.0
    out[_EDITION + ("fr", "ko").index(options["edition"])] = 1.0
    out[_PHASE + PHASES.index(table.phase)] = 1.0
    if table.ends_ms is not None:
        out[_TIME_LEFT] = min(max((table.ends_ms - now) / (options["duration_s"] * 1000),
                                  0.0), 1.0)
    if table.mode == TIME_ATTACK:
        out[_ROUND] = table.round_no / options["rounds"]
    if table.mode in (COMPETITIVE, TEAM):
        out[_TARGET] = options["sets_to_win"] / 20
    within = sum(1 for t in recent_touches if t > now - 1000)
    out[_TOUCHES_LEFT] = max(MAX_TOUCHES_PER_S - within, 0) / MAX_TOUCHES_PER_S
    return out


def observe_view(view: Any) -> dict[str, np.ndarray]:
    """A seat's observation from its view alone, at the view's clock (a policy seated as
    a bot: ``twintable.bots.user``); wait is always allowed until the end."""
    table, seat = view.public, view.viewer
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    if table.phase != OVER:
        mask[WAIT] = 1
        for action in legal_moves(table, seat, view.recent_touches):
            mask[index_of(action)] = 1
    return {"observation": encode(table, seat, view.recent_touches, table.now_ms),
            "action_mask": mask}


def view_now(view: Any) -> int:
    """The moment a view shows (a policy seated as a bot plans from it)."""
    return int(view.public.now_ms)


def view_action(view: Any, index: int) -> Action | None:
    """The move ``index`` names for the view's seat now (None: wait);
    IllegalActionError when the view does not allow it."""
    if index == WAIT:
        return None
    for action in legal_moves(view.public, view.viewer, view.recent_touches):
        if index_of(action) == index:
            return action
    raise IllegalActionError(f"action {index} is not legal for seat {view.viewer} now")


_COPIES = OBSERVATION.slices["copies"].start


def _place(place: str) -> int:
    try:
        return PLACE_INDEX[place]
    except KeyError:
        raise RuntimeError(f"the table shows a place the encoding has no room for: "
                           f"{place!r}") from None


def legal_indices(table: PublicTable, seat: int, recent_touches: tuple[int, ...]) -> list[int]:
    """The action index of each of ``legal_moves(table, seat, recent_touches)``, in the
    same order, without building the actions (most of a step's cost when every visible
    card is a move). tests/games/twinit/test_env_fast.py holds the two equal."""
    phase = table.phase
    if phase == OVER:
        return []
    if phase == READY:
        return [START_INDEX]
    if table.contenders is not None and seat not in table.contenders:
        return []
    indices = []
    if table.turn == seat and table.piles[seat][0]:
        indices.append(FLIP_INDEX)
    if (len(recent_touches) >= MAX_TOUCHES_PER_S
            and recent_touches[-MAX_TOUCHES_PER_S] > table.now_ms - 1000):
        return indices
    covered = {ref for _, ref, _ in table.hands}
    mode = table.mode
    refs = [ref for ref, _ in table.visible if ref not in covered]
    if mode == TIME_ATTACK:  # no steals: another side's sets are not touched
        side = table.side_of[seat]
        refs = [ref for ref in refs if ref[0] != "s" or ref_side(ref) == side]
    places = _places(refs)
    if mode not in (COOP, TIME_ATTACK):
        indices += [TOUCH_BASE + place for place in places]
        return indices
    for ref, place in zip(refs, places, strict=True):
        indices.append(TOUCH_BASE + place)
        if ref[0] == "c":
            indices.append(TURN_BASE + place)
    return indices


def _places(refs: list[str]) -> list[int]:
    """The place index of each ref (:func:`_place`'s error for one without)."""
    try:
        return [PLACE_INDEX[ref] for ref in refs]
    except KeyError:
        return [_place(ref) for ref in refs]


def move_at(table: PublicTable, seat: int, index: int) -> Action:
    """The action ``legal_moves`` lists for a legal move's index (its picture read from
    the table)."""
    if index == FLIP_INDEX:
        return Action(seat, FLIP)
    if index == START_INDEX:
        return Action(seat, START)
    kind, ref = ((TOUCH, PLACES[index - TOUCH_BASE]) if index < TURN_BASE
                 else (TURN_OVER, PLACES[index - TURN_BASE]))
    return Action(seat, kind, {"card": ref, "picture": table.picture_at[ref]})


class TwinItTable:
    """What both forms share: one engine state, the virtual clock, masks and rewards."""

    def __init__(self, players: int, options: Mapping[str, Any] | None, dt: int,
                 reward: str, max_ticks: int | str | None):
        check_reward(reward, REWARDS)
        if dt <= 0:
            raise ValueError("dt must be a positive number of milliseconds")
        self.game = TwinItGame()
        self.options = dict(options or {})
        self.game.check_players(players, self.options)
        self.players = players
        self.dt = int(dt)
        self.reward = reward
        self.agents = agent_names(players)
        self.state: TwinItState = self.game.new_state(self.options, players, 0)
        self.max_ticks = episode_cap(max_ticks, self.default_cap(), "max_ticks")
        self.now = 0
        self.tick = 0
        self._seeds = Seeds()
        # Legal moves by seat, for one (episode, state version, time): a step asks twice.
        self._episode = 0
        self._legal_key: tuple[int, int, int] = (-1, -1, -1)
        self._tables_key: tuple[int, int, int] = (-1, -1, -1)
        self._tables: dict[int, tuple[PublicTable, tuple[int, ...]]] = {}
        self._public: PublicTable | None = None
        self._legal_moves: dict[int, dict[int, Action]] = {}
        self._indices_key: tuple[int, int, int] = (-1, -1, -1)
        self._indices: dict[int, list[int]] = {}

    def default_cap(self) -> int:
        """Ticks in :data:`CAP_MS`, or in every timed round and its start if longer."""
        resolved = self.state.options
        cap_ms = CAP_MS
        if resolved["mode"] in (COOP, TIME_ATTACK):
            rounds = resolved.get("rounds", 1) if resolved["mode"] == TIME_ATTACK else 1
            cap_ms = max(cap_ms, rounds * (resolved["duration_s"] * 1000 + START_ALLOWANCE_MS))
        return -(-cap_ms // self.dt)

    def reset(self, seed: int | None) -> None:
        self.state = self.game.new_state(self.options, self.players, self._seeds.next(seed))
        self.now = 0
        self.tick = 0
        self._episode += 1

    def order(self) -> list[int]:
        """This tick's seats in the order they act (rotating by one seat a tick)."""
        first = self.tick % self.players
        return [(first + step) % self.players for step in range(self.players)]

    def _table(self, seat: int) -> tuple[PublicTable, tuple[int, ...]]:
        """The seat's table at the tick's time and its recent touches (built once per
        state version and tick: a step observes and checks against the same table)."""
        key = (self._episode, self.state.version, self.now)
        if key != self._tables_key:
            self._tables_key, self._tables = key, {}
            # Every seat's view shares one public table (views.build_view). The view's
            # clock is the last change; the rate limit is judged at the tick's time.
            public = public_table(self.state)
            self._public = (public if public.now_ms >= self.now
                            else public._replace(now_ms=self.now))
        found = self._tables.get(seat)
        if found is None:
            assert self._public is not None
            found = self._tables[seat] = (self._public, tuple(self.state.touches[seat]))
        return found

    def legal(self, seat: int) -> dict[int, Action]:
        """The seat's legal moves now by action index (``checked`` stamps the one played
        with the tick's time)."""
        key = (self._episode, self.state.version, self.now)
        if key != self._legal_key:
            self._legal_key, self._legal_moves = key, {}
        moves = self._legal_moves.get(seat)
        if moves is None:
            if self.game.is_over(self.state):
                moves = {}
            else:
                table, touches = self._table(seat)
                moves = {index_of(action): action
                         for action in legal_moves(table, seat, touches)}
            self._legal_moves[seat] = moves
        return moves

    def legal_indices(self, seat: int) -> list[int]:
        """The seat's legal moves now as action indices, wait left out (kept like
        :meth:`legal`: a step masks, then checks the move)."""
        key = (self._episode, self.state.version, self.now)
        if key != self._indices_key:
            self._indices_key, self._indices = key, {}
        indices = self._indices.get(seat)
        if indices is None:
            if self.state.phase == OVER:
                indices = []
            else:
                table, touches = self._table(seat)
                indices = legal_indices(table, seat, touches)
            self._indices[seat] = indices
        return indices

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        if self.state.phase != OVER:
            mask[WAIT] = 1
            mask[self.legal_indices(seat)] = 1
        return mask

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        table, touches = self._table(seat)
        return {"observation": encode(table, seat, touches, self.now),
                "action_mask": self.mask(seat)}

    observe_all = observe

    def checked(self, seat: int, index: Any) -> Action | None:
        """The engine action for a masked-legal index (None: wait), or IllegalActionError."""
        if index is None:
            raise IllegalActionError(f"seat_{seat} must give an action index (0 waits)")
        number = int(index)
        over = self.state.phase == OVER
        if number == WAIT and not over:
            return None
        if over or number == WAIT or number not in self.legal_indices(seat):
            raise IllegalActionError(f"action {number} is not legal for seat_{seat} now")
        return move_at(self._table(seat)[0], seat, number).at(self.now)

    action_at = checked

    def index_of(self, action: Action) -> int:
        return index_of(action)

    def still_legal(self, seat: int, move: Action) -> bool:
        key = move.key()
        return any(action.key() == key for action in self.legal(seat).values())

    def play(self, move: Action | None) -> None:
        if move is not None:
            self.game.apply(self.state, move)

    def advance(self) -> None:
        """The next tick: the clock moves on and every timer that ran out fires."""
        self.tick += 1
        self.now += self.dt
        run_timers(self.game, self.state, self.now)

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    @property
    def truncated(self) -> bool:
        return self.max_ticks is not None and self.tick >= self.max_ticks and not self.over

    def scores(self) -> list[int]:
        """Each seat's side's score from the state (the rewards' source, not an
        observation): sets held, or time-attack points with the running round's."""
        state = self.state
        if state.options["mode"] in (COOP, TIME_ATTACK):
            per_side = [state.points[side] + (state.round_points[side]
                                              if state.phase == PLAY else 0)
                        for side in range(state.sides)]
        else:
            per_side = [len(groups) for groups in state.sets]
        return [per_side[state.side_of[seat]] for seat in range(self.players)]

    def standing(self) -> tuple[list[int] | None, list[int]]:
        """The final scores and winners, or at a truncation each seat's side's score so
        far and no winner."""
        if self.over:
            return standing(self.game, self.state)
        return self.scores(), []

    def rewards(self, before: list[int]) -> dict[str, float]:
        if self.reward == "score":
            return {agent: float(after - earlier) for agent, after, earlier
                    in zip(self.agents, self.scores(), before, strict=True)}
        if not self.over:
            return dict.fromkeys(self.agents, 0.0)
        return win_rewards(self.agents, self.state.winners)

    def play_step(self, actions: Mapping[str, Any], agents: list[str]
                  ) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
        """The parallel form's tick: every move is checked against the table at the
        tick's start, then played in the tick's order; a move an earlier one made
        impossible has lost the race (``infos[agent]["refused"]``)."""
        moves = {seat: self.checked(seat, actions.get(agent, WAIT))
                 for seat, agent in enumerate(self.agents) if agent in agents}
        before = self.scores()
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        for seat in self.order():
            move = moves[seat]
            if move is None or self.over:
                continue
            if self.still_legal(seat, move):
                self.play(move)
            else:
                infos[self.agents[seat]]["refused"] = True
        if not self.over:
            self.advance()
        return self.rewards(before), infos

    def describe(self) -> str:
        table = self.game.view(self.state, None).public
        lines = [f"Twin It {table.mode}, t={self.now} ms, {table.phase}, "
                 f"scores {list(table.scores)}, turn {table.turn}"]
        lines.append("  piles: " + ", ".join(f"seat_{seat} {size}" for seat, (size, _)
                                              in enumerate(table.piles)))
        lines.append(f"  visible: {len(table.visible)}, twins: {len(table.twins)}, "
                     f"hands: {[(seat, place) for seat, place, _ in table.hands]}")
        return "\n".join(lines)


class raw_env(TableEnv):
    """Twin It in ticks, every agent acting once a tick in a rotating order."""

    metadata: ClassVar[dict[str, Any]] = {"name": "twinit_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": True}
    wait_index = WAIT

    def __init__(self, players: int = 4, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, dt: int = 100, reward: str = "score",
                 max_ticks: int | str | None = AUTO, native: bool | None = None):
        check_render_mode(self.metadata, render_mode)
        if native and not NATIVE:
            raise RuntimeError("the C engine of Twin It was not built (no C compiler at "
                               "install time); use native=False")
        #: The rules' side: it plays the episode without the engine, and with it holds
        #: the episode's deal (``table`` reads it up to date).
        self._rules = TwinItTable(players, options, dt, reward, max_ticks)
        self.game = self._rules.game
        super().__init__(players, render_mode, OBSERVATION.box(), N_ACTIONS)
        self._order: list[int] = []
        self._position = 0
        self.native = NATIVE if native is None else native
        self._engine: _native.Engine | None = None
        #: The episode's chance on the engine (rounds against the clock draw at the start).
        self._rng = self._rules.state.rng.clone()
        if self.native:
            self._engine = native_engine(self._rules)
            self._load(self._engine)
        self._by_score = reward == "score"
        #: Whether ``rewards`` may hold a non-zero reward (the lean step then resets it).
        self._rewarded = True

    @property
    def _state(self) -> TwinItState:
        engine = self._engine
        if engine is None:
            return self._rules.state
        return state_of(engine.fields(), self._rules.state, self._rng)

    @property
    def table(self) -> TwinItTable:
        """The rules' table of the episode; on the engine a copy synced with it at each
        read (changing it changes nothing)."""
        engine = self._engine
        return (self._rules if engine is None
                else _synced(self._rules, engine.fields(), self._rng))

    @property
    def truncated(self) -> bool:
        """Whether the episode cap has cut the game."""
        engine = self._engine
        return self._rules.truncated if engine is None else bool(engine.truncated)

    @property
    def now_ms(self) -> int:
        """The virtual clock: the time every action of this tick is stamped with."""
        engine = self._engine
        return self._rules.now if engine is None else engine.now

    @property
    def max_ticks(self) -> int | None:
        """The episode cap in ticks (the module docstring)."""
        return self._rules.max_ticks

    def standing(self) -> tuple[list[int] | None, list[int]]:
        engine = self._engine
        if engine is None:
            return self._rules.standing()
        return list(engine.scores), list(engine.winners) if engine.over else []

    def action_of(self, index: int, agent: str | None = None) -> Action | None:
        """The engine action an index means now for ``agent`` (None: wait)."""
        seat = self.seat(agent or self.agent_selection)
        if self._engine is None:
            return self._rules.checked(seat, index)
        return self.table.checked(seat, index)

    def index_of(self, action: Action) -> int:
        return index_of(action)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        engine = self._engine
        if engine is None:
            return self._rules.observe(self.seat(agent))
        observation = np.empty(OBSERVATION.size, dtype=np.float32)
        mask = np.empty(N_ACTIONS, dtype=np.int8)
        engine.encode(self._seat_of[agent], observation, mask)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rules.reset(seed)
        engine = self._engine
        if engine is not None:
            self._load(engine)
            self._rewarded = False
            self._start(self.possible_agents[engine.next_seat])
            return
        self._order = self._rules.order()
        self._position = 0
        self._start(self.possible_agents[self._order[0]])

    def _load(self, engine: _native.Engine) -> None:
        """The engine takes the rules' deal (before the first reset too, as the rules'
        state holds one), and its chance so far."""
        state = self._rules.state
        engine.load(state.piles, state.taboo, state.box, state.up)
        self._rng = state.rng.clone()

    def play(self, agent: str, action: Any) -> None:
        engine = self._engine
        if engine is not None:
            self._play_native(engine, agent, action)
            return
        table = self._rules
        move = table.checked(self.seat(agent), action)
        before = table.scores()
        table.play(move)
        self._position += 1
        if self._position == len(self._order) and not table.over:
            table.advance()
            self._order = table.order()
            self._position = 0
        ended = table.over or table.truncated
        self._settle(agent, table.rewards(before),
                     self.agents[0] if ended else self.possible_agents[self._order[self._position]],
                     over=table.over, truncated=table.truncated)

    def _play_native(self, engine: _native.Engine, agent: str, action: Any) -> None:
        """``play`` on the C engine: the same checks, errors and rewards as the rules'."""
        seat = self._seat_of[agent]
        if action is None:
            raise IllegalActionError(f"{agent} must give an action index (0 waits)")
        number = int(action)
        if number == START_INDEX and engine.ready:
            # A round starts: its shuffle and faces are drawn as rules' _start draws them.
            cards, rng = engine.box, self._rng
            rng.shuffle(cards)
            chance = rng.stream()
            played = engine.step(seat, number, cards, [chance.randrange(2) for _ in cards])
        else:
            played = engine.step(seat, number)
        if not played:
            raise IllegalActionError(f"action {number} is not legal for {agent} now")
        over, truncated = engine.over, engine.truncated
        if not (over or truncated) and (played == 1 or not self._by_score):
            self._settle_quietly(agent, self.possible_agents[engine.next_seat])
            return
        if self._by_score:
            rewards = {name: float(after - earlier) for name, after, earlier
                       in zip(self.possible_agents, engine.scores, engine.scores_before,
                              strict=True)}
        elif over:
            rewards = win_rewards(self.possible_agents, set(engine.winners))
        else:
            rewards = dict.fromkeys(self.possible_agents, 0.0)
        self._rewarded = True
        self._settle(agent, rewards,
                     self.agents[0] if over or truncated
                     else self.possible_agents[engine.next_seat],
                     over=over, truncated=truncated)

    def describe(self) -> str:
        engine = self._engine
        if engine is None:
            return self._rules.describe()
        return self.table.describe()


def native_engine(table: TwinItTable) -> _native.Engine:
    """A C engine for the table's options, player count, tick and episode cap."""
    assert _native is not None
    state = table.state
    options = state.options
    return _native.Engine(table.players, MODES.index(options["mode"]), list(state.side_of),
                          options["edition"] == "ko", int(options["sets_to_win"]),
                          int(options["hold_ms"]), int(options["triple_timeout_ms"]),
                          int(options["finish_window_ms"]), int(options["duration_s"]) * 1000,
                          int(options["rounds"]), table.dt, table.max_ticks or 0, _FACES)


def state_of(fields: Mapping[str, Any], dealt: TwinItState, rng: Rng) -> TwinItState:
    """The rules' :class:`TwinItState` holding the engine's ``fields()``; ``dealt`` is the
    episode's deal (its options and seed), ``rng`` its chance so far."""
    state = TwinItState(dealt.options, dealt.players, dealt.seed, list(dealt.side_of))
    state.rng = rng.clone()
    state.version, state.clock = fields["version"], fields["clock"]
    state.phase = PHASES[fields["phase"]]
    state.up = fields["up"]
    state.piles = fields["piles"]
    state.centre = fields["centre"]
    state.sets = fields["sets"]
    state.taboo = fields["taboo"]
    state.hands = {PLACES[place]: Hand(seat, PLACES[place], lift_ms)
                   for seat, place, lift_ms in fields["hands"]}
    state.touches = fields["touches"]
    state.triple_due = fields["triple_due"]
    state.pair_since = fields["pair_since"]
    state.turn = fields["turn"]
    state.winners = frozenset(fields["winners"])
    state.finish_due = None if fields["finish_due"] < 0 else fields["finish_due"]
    state.finishers = frozenset(fields["finishers"])
    contenders = fields["contenders"]
    state.contenders = None if contenders is None else frozenset(contenders)
    state.box = fields["box"]
    state.ends_ms = None if fields["ends_ms"] < 0 else fields["ends_ms"]
    state.round_no = fields["round_no"]
    state.round_points, state.points = fields["round_points"], fields["points"]
    state.started_ms = None if fields["started_ms"] < 0 else fields["started_ms"]
    state.takes, state.errors = fields["takes"], fields["errors"]
    state.claims, state.claim_ms = fields["claims"], fields["claim_ms"]
    state.tally = {name: fields[name] for name in ("flips", "steals", "ties") if fields[name]}
    return state


def _synced(table: TwinItTable, fields: Mapping[str, Any], rng: Rng) -> TwinItTable:
    """A copy of the rules' ``table`` (which holds the episode's deal) at the engine's
    ``fields()`` and chance: its state, clock and tick."""
    copy = TwinItTable.__new__(TwinItTable)
    copy.__dict__.update(table.__dict__)
    copy.state = state_of(fields, table.state, rng)
    copy.now, copy.tick = fields["now"], fields["tick"]
    copy._episode = -1 - table._episode  # none of the table's caches applies to the copy
    return copy


class parallel_env(TableParallelEnv):
    """Twin It in ticks, every agent choosing at once from the table at the tick's start.

    A missing agent waits. An index its mask forbids raises IllegalActionError before any
    move is played; a legal move that an earlier move in the same tick made impossible is
    not played, and ``infos[agent]["refused"]`` says so.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "twinit_v0", "render_modes": ["ansi", "human"]}
    wait_index = WAIT

    def __init__(self, players: int = 4, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, dt: int = 100, reward: str = "score",
                 max_ticks: int | str | None = AUTO):
        check_render_mode(self.metadata, render_mode)
        super().__init__(TwinItTable(players, options, dt, reward, max_ticks), render_mode,
                         OBSERVATION.box(), N_ACTIONS)

    @property
    def now_ms(self) -> int:
        return self.table.now  # type: ignore[attr-defined, no-any-return]


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment, wrapped only in PettingZoo's order checks (an
    ``OrderEnforcingWrapper`` whose hot reads are direct: ``twintable.envs.fast_wrapper``)."""
    return FastOrderEnforcingWrapper(raw_env(**kwargs))


__all__ = [
    "NATIVE",
    "N_ACTIONS",
    "OBSERVATION",
    "PLACES",
    "WAIT",
    "encode",
    "env",
    "index_of",
    "legal_indices",
    "move_at",
    "observe_view",
    "parallel_env",
    "raw_env",
    "view_action",
    "view_now",
]
