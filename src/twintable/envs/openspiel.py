"""Timo's Twist and Twins as OpenSpiel Python games, so OpenSpiel's algorithms and tools
run on them. Importing this module imports ``pyspiel`` and registers both games:

>>> import pyspiel, twintable.envs.openspiel
>>> game = pyspiel.load_game("python_twintable_timo", {"players": 4, "seed": 7})

A game here is a thin face over the project's own engine: the rules, deals and draws
are the engine's (the C engine of Timo's Twist when it was built), so a game played
through OpenSpiel is the same game, action for action, as one played on ``TimoGame`` or
``TwinsGame`` with the same seed (tests/envs/test_openspiel.py checks outcomes).

How the modelling choices were made (docs/openspiel.md has the reader's version):

- **Chance is SAMPLED_STOCHASTIC.** Every shuffle and draw happens inside the engine,
  from the seed kept in its state (core/rng.py), exactly as at a table; that is how the
  project keeps one set of rules (docs/architecture.md: speed never forks the rules).
  Explicit chance nodes would mean dealing and drawing outside the engine, a second copy
  of the rules that the C engine cannot follow. So ``new_initial_state`` draws a fresh
  engine seed from the game's generator (parameter ``seed``; -1 draws it from the
  system's entropy) and the game has no chance nodes: algorithms that need chance
  outcomes listed (CFR, exact best response) do not apply, and would not fit games of
  this size anyway; sampling algorithms (MCTS, IS-MCTS, RL) do.
- **Information states are perfect recall.** A seat's information state string is its
  seat, then every move as that seat saw it (Timo's moves are all public; a Twins pick
  is shown to others only as "committed" until the reveal), each followed by the public
  table after it, and the seat's own hand whenever it gained cards (a deal, a draw, a
  buy). Observation strings and tensors are the seat's current view
  (``Game.view``), which holds only what that seat may see; no information state tensor
  is offered, since a fixed-size tensor of a history this long would not be one.
- **Twins' simultaneous picks are sequential moves with hidden actions**, in seat order:
  a seat that picks later sees only *that* earlier seats committed (the engine's own
  view), so the information structure is that of a simultaneous move, and OpenSpiel's
  IS-MCTS and other sequential-game algorithms apply (its IS-MCTS refuses simultaneous
  games).
- **Timo's TIMO! race is the seat on turn's.** OpenSpiel has no races: the seat on turn
  always acts, with the engine's legal moves for it, which include catching an exposed
  opponent (or calling TIMO! when it is the exposed seat). Late calls and catches by
  seats not on turn are left out; catching is free, so the seat on turn always has the
  move that matters.
- **Returns are win shares**: 1 to the winner, split equally in a tie, 0 to the others
  (CONSTANT_SUM, summing to 1), so an algorithm maximises its chance of winning.
  Timo's ``max_moves`` bounds the game length OpenSpiel must declare; a game cut there
  goes to the highest score, ties sharing (none was: random games to 300 points took
  230 to 1,140 moves). Twins games end after ``max_hands`` hands (default 5) for the
  same reason.
- **IS-MCTS**: ``resample_from_infostate(player, sampler)`` re-deals everything
  ``player`` has not seen and reseeds the engine, so future draws are fresh too; other
  seats' private history is replaced by their re-dealt hand, so nothing hidden survives
  in the sample.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from twintable.core.rng import Rng
from twintable.core.types import Action
from twintable.games.timo.cards import COLOURS
from twintable.games.timo.fast import NATIVE, FastTimoGame
from twintable.games.timo.rules import CALL, CATCH, DRAW, PASS, PLAY, TimoGame
from twintable.games.timo.views import TimoView
from twintable.games.twins.cards import DECK_SIZE
from twintable.games.twins.rules import BUY_KIND, PICK_KIND, TwinsGame
from twintable.games.twins.state import BUY, OVER, PICK, TwinsState
from twintable.games.twins.views import TwinsView

TIMO_NAME = "python_twintable_timo"
TWINS_NAME = "python_twintable_twins"
Sampler = Callable[[], float]
Tensor = npt.NDArray[np.float32]
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class _Rules(ABC):
    """What the OpenSpiel face needs from one engine: integer actions, a seat's view of
    the table in words and numbers, and re-dealing what a seat has not seen."""

    game: Any
    players: int
    size: int
    """How many action ids there are (OpenSpiel's ``num_distinct_actions``)."""
    options: dict[str, Any]

    @abstractmethod
    def new_state(self, seed: int) -> Any:
        """The engine's new game for ``seed``."""

    @abstractmethod
    def current_player(self, state: Any) -> int:
        """The one seat that moves now (the game is not over)."""

    @abstractmethod
    def legal_ids(self, state: Any, seat: int) -> list[int]:
        """The seat's legal moves as ids, ascending."""

    @abstractmethod
    def apply_id(self, state: Any, seat: int, action_id: int) -> None:
        """Play a legal move by its id."""

    @abstractmethod
    def action_of(self, seat: int, action_id: int) -> Action:
        """The engine's action for an id."""

    @abstractmethod
    def id_of(self, action: Action) -> int:
        """The id of an engine action."""

    def is_over(self, state: Any) -> bool:
        return bool(self.game.is_over(state))

    def winners(self, state: Any) -> frozenset[int]:
        outcome = self.game.outcome(state)
        return frozenset(outcome.winners) if outcome is not None else frozenset()

    def view(self, state: Any, viewer: int | None) -> Any:
        return self.game.view(state, viewer)

    @abstractmethod
    def scores(self, view: Any) -> list[int]:
        """What decides the winner, as it stands: Timo's points, Twins' chips."""

    @abstractmethod
    def hand_epoch(self, view: Any) -> int:
        """A number that changes when every hand is dealt afresh (a round, a hand)."""

    @abstractmethod
    def public_text(self, view: Any) -> str:
        """A spectator's view in words."""

    @abstractmethod
    def move_text(self, seat: int, action_id: int, viewer: int) -> str:
        """The move as ``viewer`` saw it."""

    @abstractmethod
    def resample(self, state: Any, viewer: int, rng: random.Random) -> Any:
        """A copy with everything ``viewer`` has not seen re-dealt, reseeded."""

    @abstractmethod
    def observation_pieces(self) -> list[tuple[str, int]]:
        """The observation tensor's named pieces and their lengths, in order."""

    @abstractmethod
    def fill(self, pieces: dict[str, Tensor], view: Any, player: int) -> None:
        """Write ``view`` into the zeroed pieces."""

    @abstractmethod
    def view_text(self, view: Any) -> str:
        """A seat's view in words."""


class _TimoRules(_Rules):
    """Timo's Twist. Action ids: ``10 * card + 2 * slot + timo`` plays ``card`` (slot 0 for
    a coloured card, 1-4 naming blue, green, orange or pink for a black one; ``timo`` 1
    calls TIMO! with it), then ``10 * deck`` draw, ``+1`` pass, ``+2`` call TIMO!, and
    ``+3 + seat`` catch that seat; the same layout as the C engine's move codes."""

    def __init__(self, options: dict[str, Any], players: int):
        # The C engine when it was built; its move codes are our ids but for a shift.
        self.native = NATIVE
        self.game: TimoGame = FastTimoGame() if self.native else TimoGame()
        self.code_draw = 0
        if self.native:
            from twintable.games.timo import _native

            self.code_draw = _native.CODE_DRAW  # the first move code that is not a play
        self.options = self.game.resolve_options(options)
        self.game.check_players(players)
        self.players = players
        probe = self.game.new_state(self.options, players, 0)
        self.deck = probe.deck
        self.draw_id = 10 * self.deck.size
        self.size = self.draw_id + 3 + players

    def new_state(self, seed: int) -> Any:
        return self.game.new_state(self.options, self.players, seed)

    def current_player(self, state: Any) -> int:
        return int(state.turn)

    def legal_ids(self, state: Any, seat: int) -> list[int]:
        if self.native:
            code_draw, shift = self.code_draw, self.draw_id - self.code_draw
            return sorted(code if code < code_draw else code + shift
                          for code in state.legal(seat))
        return sorted(self.id_of(action) for action in self.game.legal_actions(state, seat))

    def apply_id(self, state: Any, seat: int, action_id: int) -> None:
        if self.native:
            code = action_id if action_id < self.draw_id else (
                action_id - self.draw_id + self.code_draw)
            state.apply(seat, code)
        else:
            self.game.apply(state, self.action_of(seat, action_id))

    def action_of(self, seat: int, action_id: int) -> Action:
        if action_id < self.draw_id:
            card, slot, timo = action_id // 10, action_id % 10 // 2, action_id % 2
            payload: dict[str, Any] = {"card": card}
            if slot:
                payload["colour"] = COLOURS[slot - 1]
            if timo:
                payload["timo"] = True
            return Action(seat, PLAY, payload)
        rest = action_id - self.draw_id
        if rest < 3:
            return Action(seat, (DRAW, PASS, CALL)[rest])
        return Action(seat, CATCH, {"target": rest - 3})

    def id_of(self, action: Action) -> int:
        if action.kind == PLAY:
            colour = action.payload.get("colour")
            slot = 0 if colour is None else 1 + COLOURS.index(str(colour))
            return int(str(action.payload["card"])) * 10 + 2 * slot + bool(
                action.payload.get("timo"))
        if action.kind == CATCH:
            return self.draw_id + 3 + int(str(action.payload["target"]))
        return self.draw_id + (DRAW, PASS, CALL).index(action.kind)

    def winners(self, state: Any) -> frozenset[int]:
        return frozenset((int(state.round_winner),))

    def scores(self, view: TimoView) -> list[int]:
        return list(view.scores)

    def hand_epoch(self, view: TimoView) -> int:
        return view.round_no

    def public_text(self, view: TimoView) -> str:
        return (f"sizes{list(view.hand_sizes)} top{view.discard[-1]} colour{view.colour} "
                f"turn{view.turn} dir{view.direction} penalty{view.penalty} "
                f"pile{view.draw_pile_size} exposed{view.exposed} round{view.round_no} "
                f"dealer{view.dealer} scores{list(view.scores)}")

    def move_text(self, seat: int, action_id: int, viewer: int) -> str:
        return f"{seat}:{action_id}"  # every Timo move is public: the card goes face up

    def resample(self, state: Any, viewer: int, rng: random.Random) -> Any:
        # determinize() re-deals the unseen cards and reseeds the engine's generator.
        return self.game.determinize(state, viewer, rng)

    def observation_pieces(self) -> list[tuple[str, int]]:
        n, cards = self.players, self.deck.size
        return [("player", n), ("hand", cards), ("drawn", cards), ("top", cards),
                ("discard", cards), ("colour", len(COLOURS)), ("hand_sizes", n),
                ("turn", n), ("exposed", n), ("direction", 1), ("penalty", 1),
                ("draw_pile", 1), ("scores", n), ("dealer", n)]

    def fill(self, pieces: dict[str, Tensor], view: TimoView, player: int) -> None:
        pieces["player"][player] = 1
        for card in view.hand:
            pieces["hand"][card] = 1
        if view.drawn >= 0:
            pieces["drawn"][view.drawn] = 1
        pieces["top"][view.discard[-1]] = 1
        for card in view.discard:
            pieces["discard"][card] = 1
        if view.colour < len(COLOURS):
            pieces["colour"][view.colour] = 1
        pieces["hand_sizes"][:] = view.hand_sizes
        pieces["turn"][view.turn] = 1
        if view.exposed >= 0:
            pieces["exposed"][view.exposed] = 1
        pieces["direction"][0] = view.direction
        pieces["penalty"][0] = view.penalty
        pieces["draw_pile"][0] = view.draw_pile_size
        pieces["scores"][:] = view.scores
        pieces["dealer"][view.dealer] = 1

    def view_text(self, view: TimoView) -> str:
        drawn = f" drawn{view.drawn}" if view.drawn >= 0 else ""
        return f"hand{sorted(view.hand)}{drawn} {self.public_text(view)}"


_PAIRS = list(combinations(range(DECK_SIZE), 2))
_PAIR_ID = {pair: index for index, pair in enumerate(_PAIRS)}
_BUYS = 3


class _TwinsRules(_Rules):
    """Twins. Action ids: 0, 1, 2 buy that many cards; ``3 + i`` picks the i-th pair of
    ``itertools.combinations(range(60), 2)`` (card ids, lower first)."""

    def __init__(self, options: dict[str, Any], players: int):
        self.game: TwinsGame = TwinsGame()
        self.options = self.game.resolve_options(options)
        self.game.check_players(players)
        self.players = players
        self.size = _BUYS + len(_PAIRS)

    def new_state(self, seed: int) -> TwinsState:
        return self.game.new_state(self.options, self.players, seed)

    def current_player(self, state: TwinsState) -> int:
        if state.phase == BUY:
            return state.buyer
        return min(self.game.waiting(state))

    def legal_ids(self, state: TwinsState, seat: int) -> list[int]:
        ids = []
        for action in self.game.legal_actions(state, seat):
            if action.kind == PICK_KIND:
                ids.append(_BUYS + _PAIR_ID[action.payload["cards"]])
            else:
                ids.append(self.id_of(action))
        return sorted(ids)

    def apply_id(self, state: TwinsState, seat: int, action_id: int) -> None:
        self.game.apply(state, self.action_of(seat, action_id))

    def action_of(self, seat: int, action_id: int) -> Action:
        if action_id < _BUYS:
            return Action(seat, BUY_KIND, {"count": action_id})
        return Action(seat, PICK_KIND, {"cards": _PAIRS[action_id - _BUYS]})

    def id_of(self, action: Action) -> int:
        if action.kind == BUY_KIND:
            return int(str(action.payload["count"]))
        first, second = sorted(action.payload["cards"])
        return _BUYS + _PAIR_ID[first, second]

    def scores(self, view: TwinsView) -> list[int]:
        return list(view.chips)

    def hand_epoch(self, view: TwinsView) -> int:
        return view.hand_no

    def public_text(self, view: TwinsView) -> str:
        return (f"phase {view.phase} hand{view.hand_no} round{view.round_no} "
                f"dealer{view.dealer} buyer{view.buyer} chips{list(view.chips)} "
                f"bank{view.bank} out{[int(o) for o in view.out]} "
                f"sits{[int(s) for s in view.sitting_out]} "
                f"bought{list(view.bought)} committed{[int(c) for c in view.committed]} "
                f"sizes{list(view.hand_sizes)} shown{[list(p) for p in view.played]}")

    def move_text(self, seat: int, action_id: int, viewer: int) -> str:
        if action_id >= _BUYS and seat != viewer:
            return f"{seat}:pick"  # RULES.md §2: picks stay secret until the reveal
        return f"{seat}:{action_id}"

    def resample(self, state: TwinsState, viewer: int, rng: random.Random) -> TwinsState:
        """Like ``TwinsGame.determinize``, and also: a committed pick of another seat is
        a random pair of its new hand, and the generator is reseeded, since the next
        hand's deal is as unknown as the cards in other hands."""
        other = state.clone()
        hidden = [seat for seat in range(state.players) if seat != viewer]
        pool = [card for seat in hidden for card in state.hands[seat]] + state.draw_pile
        rng.shuffle(pool)
        for seat in hidden:
            other.hands[seat] = sorted(pool.pop() for _ in state.hands[seat])
            if state.picks[seat] is not None:
                first, second = sorted(rng.sample(other.hands[seat], 2))
                other.picks[seat] = (first, second)
        other.draw_pile = pool
        other.rng = Rng(rng.getrandbits(64))
        return other

    def observation_pieces(self) -> list[tuple[str, int]]:
        n = self.players
        return [("player", n), ("hand", DECK_SIZE), ("my_pick", DECK_SIZE),
                ("shown", n * DECK_SIZE), ("chips", n), ("bank", 1), ("out", n),
                ("sitting_out", n), ("committed", n), ("bought", n), ("hand_sizes", n),
                ("dealer", n), ("buyer", n), ("round", 5), ("phase", 3), ("hand_no", 1)]

    def fill(self, pieces: dict[str, Tensor], view: TwinsView, player: int) -> None:
        pieces["player"][player] = 1
        for card in view.hand:
            pieces["hand"][card] = 1
        for card in view.my_pick or ():
            pieces["my_pick"][card] = 1
        for _, seat, first, second in view.played:
            pieces["shown"][seat * DECK_SIZE + first] = 1
            pieces["shown"][seat * DECK_SIZE + second] = 1
        pieces["chips"][:] = view.chips
        pieces["bank"][0] = view.bank
        pieces["out"][:] = view.out
        pieces["sitting_out"][:] = view.sitting_out
        pieces["committed"][:] = view.committed
        pieces["bought"][:] = view.bought
        pieces["hand_sizes"][:] = view.hand_sizes
        pieces["dealer"][view.dealer] = 1
        if view.buyer >= 0:
            pieces["buyer"][view.buyer] = 1
        pieces["round"][min(view.round_no, 4)] = 1
        pieces["phase"][(BUY, PICK, OVER).index(view.phase)] = 1
        pieces["hand_no"][0] = view.hand_no

    def view_text(self, view: TwinsView) -> str:
        return f"hand{list(view.hand)} pick{view.my_pick} {self.public_text(view)}"


class _Step:
    """One move: who made it, its id, and the public table after it (as a spectator's
    view, put in words the first time an information state asks: most steps are
    rollout steps that nobody reads)."""

    __slots__ = ("_text", "action_id", "seat", "view")

    def __init__(self, seat: int, action_id: int, view: Any):
        self.seat, self.action_id, self.view = seat, action_id, view
        self._text: str | None = None

    def public(self, rules: _Rules) -> str:
        if self._text is None:
            self._text = rules.public_text(self.view)
        return self._text


class _Core:
    """Everything a state holds, copied in one step: OpenSpiel clones a Python state by
    deep-copying its attributes, and a deep copy of an engine state or a long history
    would cost far more than these shallow copies (the steps themselves never change)."""

    __slots__ = ("capped", "done", "engine", "epoch", "known", "rules", "seed", "sizes",
                 "steps")

    def __init__(self, rules: _Rules, seed: int):
        self.rules = rules
        self.seed = seed
        self.engine = rules.new_state(seed)
        self.capped = False
        self.done = rules.is_over(self.engine)
        self.steps: list[_Step] = []
        public = rules.view(self.engine, None)
        self.epoch = rules.hand_epoch(public)
        self.sizes = tuple(public.hand_sizes)
        # Per seat, (number of steps, own hand) whenever the hand gained cards.
        self.known: list[list[tuple[int, tuple[int, ...]]]] = [
            [(0, self._hand(seat))] for seat in range(rules.players)]

    def _hand(self, seat: int) -> tuple[int, ...]:
        return tuple(sorted(self.rules.view(self.engine, seat).hand))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = _Core.__new__(_Core)
        other.rules, other.seed = self.rules, self.seed
        other.capped, other.done = self.capped, self.done
        other.engine = self.engine.clone()
        other.steps = self.steps[:]
        other.epoch, other.sizes = self.epoch, self.sizes
        other.known = [entries[:] for entries in self.known]
        return other

    def record(self, seat: int, action_id: int) -> None:
        """After a move: the public table, and the hands that gained cards."""
        rules = self.rules
        public = rules.view(self.engine, None)
        self.steps.append(_Step(seat, action_id, public))
        epoch, sizes = rules.hand_epoch(public), tuple(public.hand_sizes)
        dealt = epoch != self.epoch
        for other in range(rules.players):
            if dealt or sizes[other] > self.sizes[other]:
                self.known[other].append((len(self.steps), self._hand(other)))
        self.epoch, self.sizes = epoch, sizes

    def history_text(self, player: int) -> str:
        rules = self.rules
        known = iter(self.known[player])
        entry = next(known, None)
        parts = [f"seat {player}"]
        for index in range(len(self.steps) + 1):
            if index:
                step = self.steps[index - 1]
                parts.append(f"{rules.move_text(step.seat, step.action_id, player)} "
                             f"{step.public(rules)}")
            while entry is not None and entry[0] == index:
                parts.append(f"hand{list(entry[1])}")
                entry = next(known, None)
        return "\n".join(parts)


class TwinTableState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over one engine state (``engine``)."""

    def __init__(self, game: TwinTableGame, seed: int):
        super().__init__(game)
        self._core = _Core(game.rules, seed)
        self._max_moves = game.max_moves

    @property
    def engine(self) -> Any:
        """The engine's own state (``TimoGame``/``FastTimoGame``/``TwinsGame``)."""
        return self._core.engine

    @property
    def engine_seed(self) -> int:
        """The seed the engine state was made with: replaying the same actions on a
        ``new_state(options, players, engine_seed)`` gives the same game."""
        return self._core.seed

    def current_player(self) -> int:
        if self._core.done:
            return _TERMINAL
        return self._core.rules.current_player(self._core.engine)

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.rules.legal_ids(self._core.engine, player)

    def _apply_action(self, action: int) -> None:
        core = self._core
        seat = core.rules.current_player(core.engine)
        core.rules.apply_id(core.engine, seat, action)
        core.record(seat, action)
        core.done = core.rules.is_over(core.engine)
        if len(core.steps) >= self._max_moves and not core.done:
            core.capped = core.done = True

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._core.rules.action_of(player, action).to_json())

    def is_terminal(self) -> bool:
        return self._core.done

    def returns(self) -> list[float]:
        core = self._core
        players = core.rules.players
        if not self.is_terminal():
            return [0.0] * players
        if core.capped:
            scores = self.scores()
            best = max(scores)
            winners = frozenset(s for s in range(players) if scores[s] == best)
        else:
            winners = core.rules.winners(core.engine)
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]

    def scores(self) -> list[int]:
        """The engine's scores (Timo's points, Twins' chips) as they stand."""
        rules = self._core.rules
        return rules.scores(rules.view(self._core.engine, None))

    def resample_from_infostate(self, player: int, sampler: Sampler) -> TwinTableState:
        """A state ``player`` cannot tell from this one, with everything it has not seen
        re-dealt from ``sampler`` (any callable giving uniform floats in [0, 1), such as
        ``pyspiel.UniformProbabilitySampler``); IS-MCTS calls this."""
        rng = random.Random(int(sampler() * (1 << 53)))
        other: TwinTableState = self.clone()
        core = other._core
        core.engine = core.rules.resample(core.engine, player, rng)
        core.seed = rng.getrandbits(63)
        steps = len(core.steps)
        for seat in range(core.rules.players):
            if seat != player:
                core.known[seat] = [(steps, core._hand(seat))]
        return other

    def __str__(self) -> str:
        return self._core.rules.view_text(self._core.rules.view(self._core.engine, None))


class TwinTableObserver:
    """A seat's observation (its current view) or information state (its history)."""

    def __init__(self, rules: _Rules, iig_obs_type: Any, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or not iig_obs_type.public_info:
            raise ValueError("observers show a seat's view (public and own private "
                             "information) or the public view, nothing else")
        self.rules = rules
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        pieces = [] if self.perfect_recall else rules.observation_pieces()
        self.tensor: Tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, Tensor] = {}
        start = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[start:start + size]
            start += size

    def _view(self, state: TwinTableState, player: int) -> Any:
        return self.rules.view(state.engine, None if self.public_only else player)

    def set_from(self, state: TwinTableState, player: int) -> None:
        self.tensor.fill(0)
        if not self.perfect_recall:
            self.rules.fill(self.dict, self._view(state, player), player)

    def string_from(self, state: TwinTableState, player: int) -> str:
        if self.perfect_recall:
            if self.public_only:
                raise ValueError("no public information state string is offered")
            return state._core.history_text(player)
        return f"seat {player} {self.rules.view_text(self._view(state, player))}"


class TwinTableGame(pyspiel.Game):  # type: ignore[misc]
    """Shared by both games; a subclass says which rules and parameters."""

    game_type: Any
    max_moves: int

    def __init__(self, game_type: Any, params: dict[str, Any] | None, rules: _Rules,
                 max_length: int, seed: int):
        self.rules = rules
        self.max_moves = max_length
        # -1: seeds from the system's entropy; else a reproducible sequence of games.
        self._seeds = random.Random(None if seed < 0 else seed)
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.size, max_chance_outcomes=0,
            num_players=rules.players, min_utility=0.0, max_utility=1.0,
            utility_sum=1.0, max_game_length=max_length)
        super().__init__(game_type, info, params or {})

    def new_initial_state(self, seed: int | None = None) -> TwinTableState:
        """A new game; ``seed`` (0 to 2**63 - 1) picks the deal, else the game's
        generator does."""
        return TwinTableState(self, self._seeds.getrandbits(63) if seed is None else seed)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> TwinTableObserver:
        return TwinTableObserver(
            self.rules, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params)


def _game_type(short_name: str, long_name: str, low: int, high: int,
               parameters: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name, long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=parameters)


TIMO_TYPE = _game_type(TIMO_NAME, "Twin Table: Timo's Twist", TimoGame.min_players,
                       TimoGame.max_players,
                       {"players": 2, "target": 300, "stacking": True,
                        "draw_when_able": False, "deck": "timo54", "seed": -1,
                        "max_moves": 20_000})
TWINS_TYPE = _game_type(TWINS_NAME, "Twin Table: Twins", TwinsGame.min_players,
                        TwinsGame.max_players, {"players": 3, "max_hands": 5, "seed": -1})


class TimoOpenSpielGame(TwinTableGame):
    """Timo's Twist: parameters ``players`` (2-6), the game's options ``target``,
    ``stacking``, ``draw_when_able`` and ``deck``, ``seed`` and ``max_moves``."""

    def __init__(self, params: dict[str, Any] | None = None):
        values = {**TIMO_TYPE.parameter_specification, **(params or {})}
        options = {name: values[name] for name in ("target", "stacking", "draw_when_able",
                                                    "deck")}
        seed = int(values["seed"])
        super().__init__(TIMO_TYPE, params, _TimoRules(options, int(values["players"])),
                         int(values["max_moves"]), seed)


class TwinsOpenSpielGame(TwinTableGame):
    """Twins: parameters ``players`` (3-6), ``max_hands`` (the game ends after that many
    hands, or after a bankruptcy) and ``seed``."""

    def __init__(self, params: dict[str, Any] | None = None):
        values = {**TWINS_TYPE.parameter_specification, **(params or {})}
        players, hands = int(values["players"]), int(values["max_hands"])
        rules = _TwinsRules({"max_hands": hands}, players)
        # Each hand: one buy per seat, then four rounds of at most one pick per seat.
        super().__init__(TWINS_TYPE, params, rules, hands * 5 * players,
                         int(values["seed"]))


pyspiel.register_game(TIMO_TYPE, TimoOpenSpielGame)
pyspiel.register_game(TWINS_TYPE, TwinsOpenSpielGame)
