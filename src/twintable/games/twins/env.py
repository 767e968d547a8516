"""Twins as a PettingZoo environment: ``env()`` (AEC) and ``parallel_env()`` (the secret
picks of a round taken together).

Agents are ``seat_0`` … ``seat_{n-1}`` (3–6 players). Each observation encodes only what
that seat's view (``TwinsGame.view``) shows: its own hand and committed pick, and the
public table. Seats are *relative*: slot 0 is the observing seat, slot ``k`` the seat
``k`` places to its left; slots past the player count stay 0, so one policy fits every
table size. Values are scaled into [0, 1].

Observation (``OBSERVATION``, 549 float32):

==================  ====  =============================================================
field               size  meaning
==================  ====  =============================================================
``hand``            60    1 for each card id (``colour * 10 + value - 1``) in my hand
``my_pick``         60    1 for the two cards I committed this round, if I have
``revealed``        360   per relative seat (6 × 60 cards): round / 4 for each card that
                          seat showed this hand (0.25 round 1 … 1.0 round 4)
``chips``           6     per relative seat: chips / (``starting_chips`` × players)
``bank``            1     bank / (``starting_chips`` × players)
``present``         6     1 for the slots that hold a seat
``out``             6     1 for a bankrupt seat
``sitting_out``     6     1 for a seat that sits out round 4
``committed``       6     1 for a seat that has picked this round (never what)
``bought``          6     cards bought this hand / 2
``hand_sizes``      6     cards in hand / (``deal`` + 2)
``dealer``          6     one-hot relative seat of the dealer
``buyer``           6     one-hot relative seat that buys now (all 0 when nobody)
``phase``           3     one-hot: buy, pick, over
``round``           5     one-hot round 0 (buying) to 4
``players``         4     one-hot player count 3, 4, 5, 6 (it fixes the cash card)
``hand_no``         1     hands played, min(hand, 20) / 20
``last_hand``       1     1 when this hand is the last (a bankruptcy, or ``max_hands``)
==================  ====  =============================================================

Actions (``N_ACTIONS`` = 1774): 0 *wait* (only in the parallel form, for a seat that
does not act this step), 1–3 buy 0, 1 or 2 cards, 4–1773 pick the two cards ``(a, b)``,
``a < b``, numbered in the order of ``itertools.combinations(range(60), 2)``.

Rewards: ``reward="win"`` (default) gives +1 to each winner and −1 to everyone else when
the game ends; ``reward="score"`` gives each seat its change in chips /
``starting_chips`` after every step. The game ends when the engine says so (a bankruptcy's hand, or
``max_hands``).

Engine: ``env(native=None)`` steps the AEC form on the C engine (``games/twins/_native.c``,
built by setup.py where a C compiler is found) and on the reference rules (rules.py)
otherwise or with ``native=False``; both give the same observations, masks, rewards and
states for the same seed and actions (tests/games/twins/test_native.py). On the engine
``env.unwrapped.state`` is a fresh copy of the engine's state at each read (bots and
evaluation read it; changing it changes nothing). The parallel form runs on the rules.

Episode cap: ``max_steps`` (default ``"auto"``: 5 × players × ``max_hands`` AEC steps, or
with no ``max_hands`` 20 × ``starting_chips`` hands' worth, 240 hands at 12 chips; the
parallel form counts its own steps against the same number) truncates a game that would
not end. The last ``info`` of every agent holds ``winner``, ``winners``, ``score`` and
``scores`` (chips; at a truncation the chips so far, and no winner).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from twintable.core.rng import Rng
from twintable.core.types import Action
from twintable.envs.aec import (
    AUTO,
    Seeds,
    TableEnv,
    agent_names,
    check_render_mode,
    check_reward,
    episode_cap,
    masked_index,
    win_rewards,
)
from twintable.envs.errors import IllegalActionError
from twintable.envs.fast_wrapper import FastOrderEnforcingWrapper
from twintable.envs.layout import Field, Layout
from twintable.envs.parallel import TableParallelEnv
from twintable.games.twins.cards import CATEGORY_NAMES, DECK_SIZE, SET_RANK, cash_card
from twintable.games.twins.rules import (
    BUY_KIND,
    MOST_BOUGHT,
    PICK_KIND,
    ROUNDS,
    TwinsGame,
    final_outcome,
)
from twintable.games.twins.state import BUY, OVER, PICK, TwinsState
from twintable.games.twins.views import TwinsView

try:
    from twintable.games.twins import _native
except ImportError:  # built without a C compiler: see setup.py
    _native = None  # type: ignore[assignment]

#: Whether the C engine was built (the AEC form then runs on it by default).
NATIVE = _native is not None

MAX_SEATS = 6
WAIT = 0
BUY_BASE = 1
PICK_BASE = 4
PAIRS = tuple(combinations(range(DECK_SIZE), 2))
N_ACTIONS = PICK_BASE + len(PAIRS)
_PAIR_INDEX = {pair: PICK_BASE + index for index, pair in enumerate(PAIRS)}
HAND_SCALE = 20
REWARDS = ("win", "score")

OBSERVATION = Layout([
    Field("hand", DECK_SIZE, 1, "1 for each card id in my hand"),
    Field("my_pick", DECK_SIZE, 1, "1 for the two cards I committed this round"),
    Field("revealed", MAX_SEATS * DECK_SIZE, 1,
          "per relative seat × card: round / 4 when that seat showed the card this hand"),
    Field("chips", MAX_SEATS, 1, "chips / (starting_chips × players), per relative seat"),
    Field("bank", 1, 1, "bank / (starting_chips × players)"),
    Field("present", MAX_SEATS, 1, "1 for slots that hold a seat"),
    Field("out", MAX_SEATS, 1, "1 for a bankrupt seat"),
    Field("sitting_out", MAX_SEATS, 1, "1 for a seat sitting out round 4"),
    Field("committed", MAX_SEATS, 1, "1 for a seat that has picked this round"),
    Field("bought", MAX_SEATS, 1, "cards bought this hand / 2"),
    Field("hand_sizes", MAX_SEATS, 1, "cards in hand / (deal + 2)"),
    Field("dealer", MAX_SEATS, 1, "one-hot relative seat of the dealer"),
    Field("buyer", MAX_SEATS, 1, "one-hot relative seat buying now"),
    Field("phase", 3, 1, "one-hot buy, pick, over"),
    Field("round", 5, 1, "one-hot round 0 (buying) to 4"),
    Field("players", 4, 1, "one-hot player count 3–6 (it fixes the cash card)"),
    Field("hand_no", 1, 1, "min(hand, 20) / 20"),
    Field("last_hand", 1, 1,
          "1 when this hand is the game's last (a bankruptcy, or `max_hands`)"),
])
_PHASES = {BUY: 0, PICK: 1, OVER: 2}
_PHASE_NAMES = (BUY, PICK, OVER)
if _native is not None and (
        OBSERVATION.size, N_ACTIONS) != (_native.OBSERVATION_SIZE, _native.N_ACTIONS):
    raise ImportError("games/twins/_native.c encodes another layout than env.py's")
#: SET_RANK as the engine reads it: 60 x 60 int16, row by row.
_RANKS = np.array(SET_RANK, dtype=np.int16).tobytes()


def index_of(action: Action) -> int:
    """The action index of an engine action (a buy or a pick)."""
    if action.kind == BUY_KIND:
        return BUY_BASE + int(action.payload["count"])
    if action.kind == PICK_KIND:
        first, second = action.payload["cards"]
        return _PAIR_INDEX[(min(first, second), max(first, second))]
    raise ValueError(f"Twins has no action index for {action.kind!r}")


def action_of(index: int, seat: int) -> Action | None:
    """The engine action behind an index for ``seat`` (None: wait)."""
    if index == WAIT:
        return None
    if BUY_BASE <= index < PICK_BASE:
        return Action(seat, BUY_KIND, {"count": index - BUY_BASE})
    if PICK_BASE <= index < N_ACTIONS:
        return Action(seat, PICK_KIND, {"cards": PAIRS[index - PICK_BASE]})
    raise IllegalActionError(f"action index {index} is outside 0–{N_ACTIONS - 1}")


_AT = {name: where.start for name, where in OBSERVATION.slices.items()}
HAND, MY_PICK, REVEALED = _AT["hand"], _AT["my_pick"], _AT["revealed"]
CHIPS, BANK, PRESENT, OUT = _AT["chips"], _AT["bank"], _AT["present"], _AT["out"]
SITTING_OUT, COMMITTED, BOUGHT = _AT["sitting_out"], _AT["committed"], _AT["bought"]
HAND_SIZES, DEALER, BUYER, PHASE = _AT["hand_sizes"], _AT["dealer"], _AT["buyer"], _AT["phase"]
ROUND, PLAYERS, HAND_NO, LAST_HAND = _AT["round"], _AT["players"], _AT["hand_no"], \
    _AT["last_hand"]


def encode(view: TwinsView) -> np.ndarray:
    """One seat's view as the observation vector (the layout above).

    Written index by index into one zeroed array (no per-field slicing): an environment
    step encodes once, and this is most of its cost."""
    out = np.zeros(OBSERVATION.size, dtype=np.float32)
    me, players = view.viewer, view.players
    assert me is not None, "observations are for seats, not spectators"
    # slot[seat]: the seat's relative slot (0: me, k: k places to my left).
    slot = [(seat - me) % players for seat in range(players)]
    if view.hand:
        out[[HAND + card for card in view.hand]] = 1.0
    if view.my_pick is not None:
        first, second = view.my_pick
        out[MY_PICK + first] = out[MY_PICK + second] = 1.0
    for round_no, seat, first, second in view.played:
        base = REVEALED + slot[seat] * DECK_SIZE
        out[base + first] = out[base + second] = round_no / 4
    # Chips only change hands: every seat's and the bank's share of what the table began
    # with stays in [0, 1] whatever ``starting_chips`` is.
    options = view.options
    total = options["starting_chips"] * players
    most_cards = options["deal"] + MOST_BOUGHT
    chips, outs, sitting, committed = view.chips, view.out, view.sitting_out, view.committed
    bought, sizes = view.bought, view.hand_sizes
    for seat in range(players):
        at = slot[seat]
        out[CHIPS + at] = chips[seat] / total
        out[PRESENT + at] = 1.0
        if outs[seat]:
            out[OUT + at] = 1.0
        if sitting[seat]:
            out[SITTING_OUT + at] = 1.0
        if committed[seat]:
            out[COMMITTED + at] = 1.0
        out[BOUGHT + at] = bought[seat] / 2
        out[HAND_SIZES + at] = min(sizes[seat] / most_cards, 1.0)
    out[BANK] = view.bank / total
    out[DEALER + slot[view.dealer]] = 1.0
    if view.buyer >= 0:
        out[BUYER + slot[view.buyer]] = 1.0
    out[PHASE + _PHASES[view.phase]] = 1.0
    out[ROUND + view.round_no] = 1.0
    out[PLAYERS + players - 3] = 1.0
    out[HAND_NO] = min(view.hand_no, HAND_SCALE) / HAND_SCALE
    if any(outs) or view.hand_no == options.get("max_hands"):
        out[LAST_HAND] = 1.0
    return out


def observe_view(view: TwinsView) -> dict[str, np.ndarray]:
    """A seat's observation from its view alone, as the AEC form's ``observe`` gives it
    (a policy seated as a bot: ``twintable.bots.user``)."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    for action in view.legal:
        mask[index_of(action)] = 1
    return {"observation": encode(view), "action_mask": mask}


def view_action(view: TwinsView, index: int) -> Action | None:
    """The move ``index`` names for the view's seat (None: wait); IllegalActionError when
    the view does not allow it."""
    if index == WAIT:
        return None
    action = action_of(int(index), view.viewer if view.viewer is not None else -1)
    if action is None or all(index_of(legal) != index for legal in view.legal):
        raise IllegalActionError(f"action {index} is not legal for seat {view.viewer} now")
    return action


class TwinsTable:
    """What both forms share: one engine state, the masks, observations and rewards."""

    def __init__(self, players: int, options: Mapping[str, Any] | None, reward: str):
        check_reward(reward, REWARDS)
        self.game = TwinsGame()
        self.options = dict(options or {})
        self.game.check_players(players)
        self.players = players
        self.reward = reward
        self.agents = agent_names(players)
        self.state: TwinsState = self.game.new_state(self.options, players, 0)
        self.start_chips = int(self.state.options["starting_chips"])
        self._seeds = Seeds()
        self._mask_key: tuple[int, int, bool] | None = None
        self._mask = np.zeros(N_ACTIONS, dtype=np.int8)

    def default_cap(self) -> int:
        """AEC steps in ``max_hands`` hands (or 20 × ``starting_chips`` hands): a buy and
        four picks per seat a hand."""
        hands = self.state.options["max_hands"] or 20 * self.start_chips
        return (1 + ROUNDS) * self.players * hands

    def reset(self, seed: int | None) -> None:
        self.state = self.game.new_state(self.options, self.players, self._seeds.next(seed))
        self._mask_key = None

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    #: Every game ends by itself (a bankruptcy, or ``max_hands``).
    truncated = False

    def mask(self, seat: int, waiting_allowed: bool, copy: bool = True) -> np.ndarray:
        """The seat's legal moves now (kept until the state changes: a step reads the
        mask to observe and again to check the move; ``copy=False`` for a read only)."""
        state = self.state
        key = (state.version, seat, waiting_allowed)
        if key == self._mask_key:
            return self._mask.copy() if copy else self._mask
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        legal = self.game.legal_actions(state, seat)
        if legal:
            pairs: dict[Any, int] = _PAIR_INDEX
            mask[[pairs.get(action.payload.get("cards")) or index_of(action)
                  for action in legal]] = 1
        elif waiting_allowed:
            mask[WAIT] = 1
        self._mask_key, self._mask = key, mask
        return mask.copy() if copy else mask

    def observe(self, seat: int, waiting_allowed: bool) -> dict[str, np.ndarray]:
        return {"observation": encode(self.game.view(self.state, seat)),
                "action_mask": self.mask(seat, waiting_allowed)}

    def observe_all(self, seat: int) -> dict[str, np.ndarray]:
        return self.observe(seat, waiting_allowed=True)

    def checked(self, seat: int, index: Any, waiting_allowed: bool) -> Action | None:
        """The engine action for a masked-legal index, or IllegalActionError."""
        number = masked_index(index, self.mask(seat, waiting_allowed, copy=False),
                              self.agents[seat])
        return action_of(number, seat)

    def action_at(self, seat: int, index: Any) -> Action | None:
        return action_of(int(index), seat)

    def index_of(self, action: Action) -> int:
        return index_of(action)

    def chips(self) -> list[int]:
        return list(self.state.chips)

    def rewards(self, chips_before: list[int]) -> dict[str, float]:
        state = self.state
        if self.reward == "score":
            return {agent: (state.chips[seat] - chips_before[seat]) / self.start_chips
                    for seat, agent in enumerate(self.agents)}
        outcome = self.game.outcome(state)
        if outcome is None:
            return dict.fromkeys(self.agents, 0.0)
        return win_rewards(self.agents, outcome.winners)

    def play_step(self, actions: Mapping[str, Any], agents: list[str]
                  ) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
        """The parallel form's step: a buy (the buyer acts, everyone else waits) or a
        round's secret picks, every move checked before any is played."""
        moves = []
        for agent in agents:
            move = self.checked(self.agents.index(agent), actions.get(agent, WAIT),
                                waiting_allowed=True)
            if move is not None:
                moves.append(move)
        before = self.chips()
        for move in moves:
            self.game.apply(self.state, move)
        return self.rewards(before), {agent: {} for agent in agents}

    def describe(self) -> str:
        return describe(self.game, self.state, self.players)


def describe(game: TwinsGame, state: TwinsState, players: int) -> str:
    """The table as a spectator sees it, in words (no secret)."""
    view = game.view(state, None)
    lines = [f"Twins hand {view.hand_no} round {view.round_no} ({view.phase}), "
             f"bank {view.bank}"]
    for seat in range(players):
        flags = " out" if view.out[seat] else ""
        flags += " sits out" if view.sitting_out[seat] else ""
        flags += " picked" if view.committed[seat] else ""
        lines.append(f"  seat_{seat}: {view.chips[seat]} chips, "
                     f"{view.hand_sizes[seat]} cards{flags}")
    return "\n".join(lines)


class raw_env(TableEnv):
    """Twins, one seat acting at a time: buys in turn, then each round's secret picks one
    seat after another (a pick stays hidden until the round's last one reveals all)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "twins_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": True}

    def __init__(self, players: int = 4, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, reward: str = "win",
                 max_steps: int | str | None = AUTO, native: bool | None = None):
        check_render_mode(self.metadata, render_mode)
        if native and not NATIVE:
            raise RuntimeError("the C engine of Twins was not built (no C compiler at "
                               "install time); use native=False")
        self.table = TwinsTable(players, options, reward)
        self.game = self.table.game
        super().__init__(players, render_mode, OBSERVATION.box(), N_ACTIONS)
        self.max_steps = episode_cap(max_steps, self.table.default_cap())
        self.native = NATIVE if native is None else native
        self._engine: _native.Engine | None = (native_engine(self.table.state) if self.native
                                               else None)
        self._by_score = reward == "score"
        #: Whether ``rewards`` may hold a non-zero reward (the lean step then resets it).
        self._rewarded = True

    @property
    def _state(self) -> TwinsState:
        engine = self._engine
        if engine is None:
            return self.table.state
        return state_of(engine.fields(), self.table.state.options, self.table.players)

    def action_of(self, index: int, agent: str | None = None) -> Action | None:
        return action_of(int(index), self.seat(agent or self.agent_selection))

    def index_of(self, action: Action) -> int:
        return index_of(action)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        engine = self._engine
        if engine is None:
            return self.table.observe(self.seat(agent), waiting_allowed=False)
        observation = np.empty(OBSERVATION.size, dtype=np.float32)
        mask = np.empty(N_ACTIONS, dtype=np.int8)
        engine.encode(self._seat_of[agent], observation, mask)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        engine = self._engine
        if engine is None:
            self.table.reset(seed)
        else:
            engine.reset(self.table._seeds.next(seed))
            self._rewarded = False
        self._start(self._next_agent())

    def _next_agent(self) -> str:
        if self._engine is not None:
            return self.possible_agents[self._engine.next_seat]
        acting = self.game.to_act(self.state)
        return self.possible_agents[min(acting)] if acting else self.possible_agents[0]

    def play(self, agent: str, action: Any) -> None:
        engine = self._engine
        if engine is not None:
            self._play_native(engine, agent, action)
            return
        move = self.table.checked(self.seat(agent), action, waiting_allowed=False)
        assert move is not None  # the AEC form never offers waiting
        before = self.table.chips()
        self.game.apply(self.state, move)
        self._settle(agent, self.table.rewards(before), self._next_agent(),
                     over=self.game.is_over(self.state))

    def _play_native(self, engine: _native.Engine, agent: str, action: Any) -> None:
        """``play`` on the C engine: the same checks, errors and rewards as the rules'."""
        if action is None:
            raise IllegalActionError(f"{agent} must act: give an action index")
        index = int(action)
        chips = engine.chips if self._by_score else None
        if not 0 <= index < N_ACTIONS or not engine.apply_index(self._seat_of[agent], index):
            raise IllegalActionError(f"action {index} is not legal for {agent} now")
        over = engine.over
        if chips is None and not over:
            # A step that ends nothing and, winning being the only reward, rewards nobody.
            self._settle_quietly(agent, self.possible_agents[engine.next_seat])
            return
        if chips is not None:
            scale = self.table.start_chips
            rewards = {name: (after - earlier) / scale for name, after, earlier
                       in zip(self.possible_agents, engine.chips, chips, strict=True)}
        else:
            # The rules' own end (teams included): the engine plays, the rules judge.
            outcome = final_outcome(engine.chips, [bool(flag) for flag in engine.fields()["out"]],
                                    self.table.state.teams)
            rewards = win_rewards(self.possible_agents, outcome.winners)
        self._rewarded = True
        self._settle(agent, rewards, self.possible_agents[engine.next_seat], over=over)

    def describe(self) -> str:
        if self._engine is not None:
            return describe(self.game, self._state, self.table.players)
        return self.table.describe()


def native_engine(start: TwinsState) -> _native.Engine:
    """A C engine for the options and player count of ``start`` (a reference state)."""
    assert _native is not None
    options = start.options
    card = cash_card(start.players, options)
    return _native.Engine(start.players, int(options["starting_chips"]), int(options["deal"]),
                          int(options["max_hands"] or 0),
                          (card.lowest_r1, card.pay_r1, card.top_r2, card.gain,
                           card.lowest_r3, card.pay_r3), _RANKS)


def state_of(fields: Mapping[str, Any], options: dict[str, Any], players: int) -> TwinsState:
    """The rules' :class:`TwinsState` holding the engine's ``fields()``."""
    state = TwinsState(options, players, fields["seed"])
    state.rng = Rng(fields["seed"], fields["counter"])
    state.version = fields["version"]
    state.chips = list(fields["chips"])
    state.bank = fields["bank"]
    state.out = [bool(flag) for flag in fields["out"]]
    state.hands = fields["hands"]
    state.draw_pile = list(fields["draw_pile"])
    state.played = fields["played"]
    state.last_played = fields["last_played"]
    state.picks = fields["picks"]
    state.bought = list(fields["bought"])
    state.sitting_out = [bool(flag) for flag in fields["sitting_out"]]
    state.dealer, state.buyer = fields["dealer"], fields["buyer"]
    state.hand_no, state.round_no = fields["hand_no"], fields["round_no"]
    state.phase = _PHASE_NAMES[fields["phase"]]
    state.ending = fields["ending"]
    state.ledger = {f"round{round_no}_{('paid', 'received')[direction]}_"
                    f"{CATEGORY_NAMES[category]}": amount
                    for round_no, direction, category, amount in fields["ledger"]}
    return state


class parallel_env(TableParallelEnv):
    """Twins with every seat that acts now acting together: one step is a buy (the seat
    buying; everyone else waits) or a whole round of secret picks, revealed at once.

    Each step takes an action for every agent: a seat that does not act sends 0 (wait),
    the only bit its mask allows; a seat that acts must send a legal move. Anything else
    raises IllegalActionError before any move is applied.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "twins_v0", "render_modes": ["ansi", "human"]}

    def __init__(self, players: int = 4, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, reward: str = "win",
                 max_steps: int | str | None = AUTO):
        check_render_mode(self.metadata, render_mode)
        table = TwinsTable(players, options, reward)
        super().__init__(table, render_mode, OBSERVATION.box(), N_ACTIONS,
                         episode_cap(max_steps, table.default_cap()))


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment, wrapped only in PettingZoo's order checks (an
    ``OrderEnforcingWrapper`` whose hot reads are direct: ``twintable.envs.fast_wrapper``)."""
    return FastOrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["NATIVE", "N_ACTIONS", "OBSERVATION", "WAIT", "action_of", "encode", "env", "index_of",
           "observe_view", "parallel_env", "raw_env", "view_action"]
