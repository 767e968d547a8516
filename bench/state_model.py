"""Benchmark: immutable vs mutable game state, on the step Timo's Twist takes most.

The step is "seat plays a card": remove it from the hand, push it on the discard pile,
set the colour, move the turn. Three ways:

- mutable: lists changed in place (what the engine does);
- mutable + clone: copy the state first (what search does before trying a move);
- immutable: frozen dataclass with tuples, a new state through dataclasses.replace.

Prints time per step and the ratios against the mutable step, measured in this run.
"""

from __future__ import annotations

import dataclasses
import timeit

from twintable.games.timo import TimoGame


@dataclasses.dataclass(frozen=True, slots=True)
class FrozenState:
    hands: tuple[tuple[int, ...], ...]
    discard: tuple[int, ...]
    draw_pile: tuple[int, ...]
    colour: int
    turn: int
    direction: int
    penalty: int
    scores: tuple[int, ...]


def frozen_play(state: FrozenState, seat: int, card: int, colour: int) -> FrozenState:
    hand = state.hands[seat]
    index = hand.index(card)
    hands = (*state.hands[:seat], hand[:index] + hand[index + 1:], *state.hands[seat + 1:])
    return dataclasses.replace(state, hands=hands, discard=(*state.discard, card),
                               colour=colour, turn=(seat + state.direction) % len(hands))


def main() -> None:
    game = TimoGame()
    state = game.new_state({}, 4, seed=1)
    seat, card = state.turn, state.hands[state.turn][0]
    frozen = FrozenState(tuple(tuple(h) for h in state.hands), tuple(state.discard),
                         tuple(state.draw_pile), state.colour, state.turn, state.direction,
                         state.penalty, tuple(state.scores))
    number = 50_000

    def mutable_step() -> None:
        hand = state.hands[seat]
        hand.remove(card)
        state.discard.append(card)
        state.colour = 0
        state.turn = (seat + state.direction) % state.players
        hand.append(card)  # undo, so the next repetition finds the card again
        state.discard.pop()

    def clone_step() -> None:
        copy = state.clone()
        copy.hands[seat].remove(card)
        copy.discard.append(card)
        copy.colour = 0
        copy.turn = (seat + copy.direction) % copy.players

    def immutable_step() -> None:
        frozen_play(frozen, seat, card, 0)

    results = {}
    for name, step in (("mutable", mutable_step), ("mutable + clone", clone_step),
                       ("immutable (replace)", immutable_step)):
        results[name] = min(timeit.repeat(step, number=number, repeat=5)) / number * 1e9
    base = results["mutable"]
    for name, ns in results.items():
        print(f"{name:22s} {ns:8.0f} ns per step   {ns / base:5.2f}x mutable")


if __name__ == "__main__":
    main()
