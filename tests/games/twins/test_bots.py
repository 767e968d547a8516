"""The Twins bots: the heuristic's picks, and the strong bot's search, whose rollouts
commit picks straight into the state and must end each hand as the rules would."""

from __future__ import annotations

import random

from twintable.core.types import Action
from twintable.games.twins.bots import (
    HeuristicTwinsBot,
    StrongTwinsBot,
    heuristic_buy,
    heuristic_pick,
)
from twintable.games.twins.rules import TwinsGame
from twintable.games.twins.state import BUY, BUY_KIND, OVER, PICK_KIND, TwinsState

GAME = TwinsGame()


def reference_rollout(state: TwinsState, seat: int) -> float:
    """The rest of the hand through the rules' own moves, one pick at a time."""
    while state.phase != OVER:
        if state.phase == BUY:
            buyer = state.buyer
            count = heuristic_buy(state.hands[buyer], state.chips[buyer])
            GAME.apply(state, Action(buyer, BUY_KIND, {"count": count}))
            continue
        players = GAME.participants(state)
        player = next(p for p in players if state.picks[p] is None)
        pair = heuristic_pick(state.hands[player], state.round_no, state.players,
                              len(players) - 1)
        GAME.apply(state, Action(player, PICK_KIND, {"cards": pair}))
    return -12.0 if state.out[seat] else float(state.chips[seat])


def states_met_in_play(games: int) -> list[tuple[TwinsState, int]]:
    """States where a seat decides, from a few heuristic games of 3 to 6 players."""
    met = []
    bot = HeuristicTwinsBot()
    for seed in range(games):
        state = GAME.new_state({}, 3 + seed % 4, seed)
        rng = random.Random(seed)
        while not GAME.is_over(state):
            seat = min(GAME.to_act(state))
            met.append((state.clone(), seat))
            action = bot.act(GAME.view(state, seat), rng)
            assert action is not None
            GAME.apply(state, action)
    return met


def test_the_heuristic_pick_does_not_depend_on_the_hands_order() -> None:
    rng = random.Random(4)
    for _ in range(200):
        round_no = rng.randrange(1, 5)
        # A hand holds two cards for each round still to play, and what was bought.
        hand = rng.sample(range(60), 2 * (5 - round_no) + rng.randrange(0, 3))
        shuffled = rng.sample(hand, len(hand))
        pair = heuristic_pick(hand, round_no, 5, 3)
        assert pair == heuristic_pick(shuffled, round_no, 5, 3)
        assert pair[0] < pair[1] and set(pair) <= set(hand)


def test_the_strong_bots_rollouts_end_the_hand_as_the_rules_do() -> None:
    strong = StrongTwinsBot(samples=1)
    checked = 0
    for state, seat in states_met_in_play(3)[::7]:
        mine, theirs = state.clone(), state.clone()
        # Stop at the end of this hand, as the bot's sampled states do.
        for each in (mine, theirs):
            each.options = {**each.options, "max_hands": each.hand_no}
        assert strong._rollout(mine, seat) == reference_rollout(theirs, seat)
        # Everything but the version, which counts the moves applied through the rules.
        ours, reference = GAME.snapshot(mine), GAME.snapshot(theirs)
        assert {**ours, "version": 0} == {**reference, "version": 0}
        checked += 1
    assert checked > 20


def test_the_strong_bot_answers_every_decision_with_a_legal_move_and_replays() -> None:
    strong = StrongTwinsBot(samples=3)
    for state, seat in states_met_in_play(2)[::5]:
        view = GAME.view(state, seat)
        action = strong.act(view, random.Random(9))
        assert action is not None
        assert action.key() in {a.key() for a in GAME.legal_actions(state, seat)}
        assert action == strong.act(view, random.Random(9))
