"""Timo's Twist as an OpenSpiel Python game, ``python_twintable_timo``; importing this
module (or ``twintable.envs.openspiel``, which imports every game's) registers it.

The face is :mod:`twintable.envs.openspiel_face` (its docstring says how games are
modelled); here is what is Timo's own. The engine is the C engine when it was built.
**The TIMO! race is the seat on turn's.** OpenSpiel has no races: the seat on turn
always acts, with the engine's legal moves for it, which include catching an exposed
opponent (or calling TIMO! when it is the exposed seat). Late calls and catches by seats
not on turn are left out; catching is free, so the seat on turn always has the move that
matters. ``max_moves`` bounds the game length OpenSpiel must declare; a game cut there
goes to the highest score, ties sharing (none was: random games to 300 points took 230
to 1,140 moves).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from twintable.core.types import Action
from twintable.envs.openspiel_face import ISMCTSViewBot, Rules, Tensor, TwinTableGame, game_type
from twintable.games.timo.cards import COLOURS
from twintable.games.timo.fast import NATIVE, FastTimoGame
from twintable.games.timo.rules import CALL, CATCH, DRAW, PASS, PLAY, TimoGame
from twintable.games.timo.views import TimoView

TIMO_NAME = "python_twintable_timo"


class TimoRules(Rules):
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
        self.game.check_players(players, self.options)
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
        # The last round's winner, and with teams every partner of theirs (the outcome's).
        teams = self.game.sides(state)
        winner = int(state.round_winner)
        if teams is None:
            return frozenset((winner,))
        return frozenset(seat for seat, team in enumerate(teams) if team == teams[winner])

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

    def quick_move(self, view: TimoView) -> Action | None:
        # A TIMO! race is answered at once, as every bot of the simulator does.
        return next((a for a in view.legal if a.kind in (CALL, CATCH)), None)

    def engine_from_view(self, view: TimoView, rng: random.Random) -> Any:
        sample = TimoGame().sample_state(view, rng)
        sample.options = self.options
        if not self.native:
            return sample
        engine: Any = self.game.new_state(self.options, self.players, 0)
        engine.load(FastTimoGame.plain(sample))
        return engine

    def rollout_evaluator(self, rng: random.Random) -> GreedyRollouts | None:
        return GreedyRollouts(rng) if self.native else None

    def view_text(self, view: TimoView) -> str:
        drawn = f" drawn{view.drawn}" if view.drawn >= 0 else ""
        return f"hand{sorted(view.hand)}{drawn} {self.public_text(view)}"


class GreedyRollouts:
    """An MCTS evaluator for the IS-MCTS bot: the round played out on the C engine by
    the first ``search`` bot's rollout policy (``search-v1``, ``research/baseline.py``;
    ``_native.c: greedy_round``: a random playable coloured card, a black one only when
    no other fits), the round's winner worth 1; priors uniform. Draws come from the
    bot's generator."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def evaluate(self, state: Any) -> Any:
        if state.is_terminal():
            return np.asarray(state.returns())
        engine = state.engine.clone()
        version, words, gauss = self.rng.getstate()
        self.rng.setstate((version, engine.greedy_round(words), gauss))
        returns = np.zeros(engine.players)
        returns[engine.round_winner] = 1.0
        return returns

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


TIMO_TYPE = game_type(TIMO_NAME, "Twin Table: Timo's Twist", TimoGame.min_players,
                      TimoGame.max_players,
                      {"players": 2, "target": 300, "stacking": True,
                       "draw_when_able": False, "deck": "timo54", "seed": -1,
                       "max_moves": 20_000})


class TimoOpenSpielGame(TwinTableGame):
    """Timo's Twist: parameters ``players`` (2-6), the game's options ``target``,
    ``stacking``, ``draw_when_able`` and ``deck``, ``seed`` and ``max_moves``."""

    def __init__(self, params: dict[str, Any] | None = None):
        values = {**TIMO_TYPE.parameter_specification, **(params or {})}
        options = {name: values[name] for name in ("target", "stacking", "draw_when_able",
                                                    "deck")}
        seed = int(values["seed"])
        super().__init__(TIMO_TYPE, params, TimoRules(options, int(values["players"])),
                         int(values["max_moves"]), seed)


pyspiel.register_game(TIMO_TYPE, TimoOpenSpielGame)


def search_game(players: int, options: dict[str, Any]) -> TimoOpenSpielGame:
    """The game the IS-MCTS bot searches: the table's, to the end of the round (a target
    of 1), as ``SearchTimoBot``'s rollouts: a win is going out first."""
    chosen: dict[str, Any] = {name: options[name] for name in ("stacking", "draw_when_able", "deck")
              if name in options}
    return TimoOpenSpielGame({"players": players, **chosen, "target": 1})


def ismcts_bot() -> ISMCTSViewBot:
    """OpenSpiel's IS-MCTS as a Timo bot (the entry's ``ismcts`` level)."""
    return ISMCTSViewBot(search_game)

__all__ = ["TIMO_NAME", "TIMO_TYPE", "TimoOpenSpielGame", "TimoRules", "ismcts_bot",
           "search_game"]
