"""Twins bots: a round-aware rule-of-thumb player and a Monte Carlo "strong" player.

Both decide from their seat's :class:`TwinsView` only. Set strength is measured as the
share of all 1,770 possible sets a set beats or ties (``PERCENTILE``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from twintable.core.types import Action
from twintable.games.twins.cards import BUY_COST, CASH_CARDS, DECK_SIZE, PERCENTILE, SET_RANK
from twintable.games.twins.rules import TwinsGame
from twintable.games.twins.state import BUY, BUY_KIND, PICK_KIND, TwinsState
from twintable.games.twins.views import TwinsView

Pair = tuple[int, int]


def strength(pair: Pair) -> float:
    return PERCENTILE[SET_RANK[pair[0]][pair[1]]]


def best_pair(cards: Sequence[int]) -> Pair:
    return max(combinations(sorted(cards), 2), key=lambda p: SET_RANK[p[0]][p[1]])


def heuristic_pick(hand: Sequence[int], round_no: int, players: int, rivals: int) -> Pair:
    """Round-aware choice of two cards (:func:`_pick_for`, remembered: the strong bot's
    rollouts ask the same question of the same hand for every candidate it weighs)."""
    return _pick_for(tuple(sorted(hand)), round_no, players, rivals)


@lru_cache(maxsize=1 << 16)
def _pick_for(hand: tuple[int, ...], round_no: int, players: int, rivals: int) -> Pair:
    """Round-aware choice of two cards from a sorted hand.

    Keeps the hand's best set for round 4 (the whole bank); in rounds 1 and 3 plays the
    cheapest set that should stay clear of the paying bottom places, in round 2 plays its
    best remaining set only when that set is likely to be paid, else dumps its weakest.
    ``rivals`` is how many others play this round.
    """
    if round_no == 4 or len(hand) == 2:
        return best_pair(hand)
    keep = best_pair(hand)
    rest = [c for c in hand if c not in keep]
    candidates = sorted(combinations(sorted(rest), 2), key=lambda p: SET_RANK[p[0]][p[1]])
    card = CASH_CARDS[players]
    field = rivals + 1
    if round_no == 2:
        wanted = 1 - 0.8 * card.top_r2 / field
        return candidates[-1] if strength(candidates[-1]) >= wanted else candidates[0]
    bottom = card.lowest_r1 if round_no == 1 else card.lowest_r3
    safe = min(0.95, bottom / field + 0.1)
    for pair in candidates:
        if strength(pair) >= safe:
            return pair
    # Nothing is safe: in round 1 pay cheaply; in round 3 fight, since payers sit out
    # the round that pays the bank.
    return candidates[0] if round_no == 1 else candidates[-1]


def rivals(view: TwinsView) -> int:
    """How many others play this round (not bankrupt, not sitting out)."""
    return sum(1 for seat in range(view.players) if seat != view.viewer
               and not view.out[seat] and not view.sitting_out[seat])


def heuristic_buy(hand: Sequence[int], chips: int) -> int:
    """Buy when the hand lacks a strong set for the bank round and chips allow it."""
    top = strength(best_pair(hand))
    if top < 0.8 and chips >= 9:
        return 2
    if top < 0.93 and chips >= 5:
        return 1
    return 0


class HeuristicTwinsBot:
    name = "heuristic"

    def act(self, view: TwinsView, rng: random.Random) -> Action | None:
        if not view.legal or view.viewer is None:
            return None
        if view.phase == BUY:
            count = heuristic_buy(view.hand, view.chips[view.viewer])
            return Action(view.viewer, BUY_KIND, {"count": count})
        pair = heuristic_pick(view.hand, view.round_no, view.players, rivals(view))
        return Action(view.viewer, PICK_KIND, {"cards": pair})


class StrongTwinsBot:
    """Monte Carlo over sampled deals, with heuristic opponents as the opponent model.

    For each candidate (a buy count, or one of the distinct-strength picks), it samples
    the unseen cards into the other hands and the draw pile, consistently with everything
    revealed so far this hand, plays the rest of the hand with every seat on the
    heuristic, and keeps the candidate with the highest mean chips at the end of the hand
    (losing everything on a bankruptcy).
    """

    name = "strong"

    def __init__(self, samples: int = 24, max_candidates: int = 7,
                 game: TwinsGame | None = None):
        self.samples = samples
        self.max_candidates = max_candidates
        self.game = game or TwinsGame()

    def act(self, view: TwinsView, rng: random.Random) -> Action | None:
        if not view.legal or view.viewer is None:
            return None
        seat = view.viewer
        candidates: list[Action]
        if view.phase == BUY:
            candidates = [Action(seat, BUY_KIND, {"count": count}) for count in range(3)
                          if BUY_COST[count] <= view.chips[seat]]
        else:
            candidates = [Action(seat, PICK_KIND, {"cards": pair})
                          for pair in self._pick_candidates(view)]
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        for _ in range(self.samples):
            world = self.sample_state(view, rng)
            for index, action in enumerate(candidates):
                state = world.clone()
                self.game.apply(state, action)
                totals[index] += self._rollout(state, seat)
        return candidates[max(range(len(candidates)), key=lambda i: totals[i])]

    def _pick_candidates(self, view: TwinsView) -> list[Pair]:
        """One pair per distinct set strength, spread from weakest to strongest, plus the
        heuristic's own choice."""
        by_rank: dict[int, Pair] = {}
        for pair in combinations(sorted(view.hand), 2):
            by_rank.setdefault(SET_RANK[pair[0]][pair[1]], pair)
        ranks = sorted(by_rank)
        if len(ranks) > self.max_candidates:
            step = (len(ranks) - 1) / (self.max_candidates - 1)
            ranks = sorted({ranks[round(i * step)] for i in range(self.max_candidates)})
        chosen = [by_rank[rank] for rank in ranks]
        own = heuristic_pick(view.hand, view.round_no, view.players, rivals(view))
        if own not in chosen:
            chosen.append(own)
        return chosen

    def sample_state(self, view: TwinsView, rng: random.Random) -> TwinsState:
        """A full state consistent with the view: unseen cards dealt at random."""
        assert view.viewer is not None
        state = TwinsState(dict(view.options), view.players, rng.getrandbits(48))
        seen = set(view.hand) | {c for _, _, a, b in view.played for c in (a, b)}
        unseen = [c for c in range(DECK_SIZE) if c not in seen]
        rng.shuffle(unseen)
        for seat in range(view.players):
            if seat == view.viewer:
                state.hands[seat] = list(view.hand)
            else:
                state.hands[seat] = sorted(unseen.pop() for _ in range(view.hand_sizes[seat]))
        state.draw_pile = unseen
        state.chips, state.bank = list(view.chips), view.bank
        state.out, state.sitting_out = list(view.out), list(view.sitting_out)
        state.dealer, state.hand_no, state.round_no = view.dealer, view.hand_no, view.round_no
        state.phase, state.buyer, state.bought = view.phase, view.buyer, list(view.bought)
        state.played = list(view.played)
        state.picks = [None] * view.players
        if view.my_pick is not None:
            state.picks[view.viewer] = view.my_pick
        # Stop the rollout at the end of this hand.
        state.options["max_hands"] = view.hand_no
        return state

    def _rollout(self, state: TwinsState, seat: int) -> float:
        """The rest of the hand with every seat on the heuristic; this seat's chips at its
        end (-12 for a bankruptcy). Picks are committed straight into the state, as the
        rules' pick would after checking them (they come from the hands, so they pass)."""
        game = self.game
        while state.phase != "over":
            if state.phase == BUY:
                buyer = state.buyer
                count = heuristic_buy(state.hands[buyer], state.chips[buyer])
                game.apply(state, Action(buyer, BUY_KIND, {"count": count}))
                continue
            players = game.participants(state)
            rivals_now = len(players) - 1
            picks = state.picks
            for player in players:
                if picks[player] is None:
                    picks[player] = heuristic_pick(state.hands[player], state.round_no,
                                                   state.players, rivals_now)
            game.reveal(state)
        return -12.0 if state.out[seat] else float(state.chips[seat])
