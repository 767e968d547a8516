"""``twintable train timo --teacher search``: the ``search`` bot distilled into the
``learned`` bot's network, so that one forward pass plays about as well as a search.

Behaviour cloning with DAgger rounds (Ross et al., 2011). Round 0 records the teacher
(``SearchTimoBot`` with ``teacher_samples`` deals per decision, more than it uses at a
table) at every turn decision with a choice, in full 2-player games against a mix of
opponents; each later round lets the network trained so far play the games while the
teacher still labels every decision it meets, so the network learns to recover from its
own mistakes. The network (``training.Network``, the A2C run's shape) is trained on all
labels with the cross-entropy of its masked softmax and Adam.

Games are dealt from ``seed + i`` and recorded in chunks on worker processes; the same
seed, sizes and worker count give the same weights on the same machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from twintable.core.game import Outcome
from twintable.core.table_engine import TableEngine, TakeTurns
from twintable.games.timo.bots import HeuristicTimoBot, SearchTimoBot
from twintable.games.timo.cards import load_deck
from twintable.games.timo.fast import NATIVE, FastTimoGame
from twintable.games.timo.research import codec
from twintable.games.timo.research.policy import GreedyTimoPolicy
from twintable.games.timo.research.training import Adam, Network
from twintable.games.timo.rules import TimoGame
from twintable.games.timo.views import TimoView

#: The opponents of the recorded seat, game by game in turn.
OPPONENTS = ("heuristic", "search", "heuristic", "greedy")
#: More moves than any game takes: a game past it is a bug, not a long game.
MAX_STEPS = 100_000


@dataclass(frozen=True)
class Chunk:
    first: int
    count: int
    seed: int
    target: int
    teacher_samples: int
    student: Path | None


class Recorder:
    """A seat whose every turn decision with a choice is labelled by the teacher; it plays
    the teacher's move (round 0) or the student's (later rounds)."""

    def __init__(self, teacher: SearchTimoBot, student: Any, labels_rng: random.Random):
        self.teacher, self.student, self.labels_rng = teacher, student, labels_rng
        self.name = (student or teacher).name
        self.observations: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.actions: list[int] = []

    def act(self, view: TimoView, rng: random.Random) -> Any:
        legal = codec.indexed_legal(view) if view.viewer == view.turn else {}
        if len(legal) < 2:
            return (self.student or self.teacher).act(view, rng)
        observation = np.zeros(codec.observation_size(view.players), np.float32)
        mask = np.zeros(codec.N_ACTIONS, np.int8)
        codec.encode(view, False, observation, mask)
        if self.student is None:
            label = self.teacher.act(view, rng)
            chosen = label
        else:
            label = self.teacher.act(view, self.labels_rng)
            chosen = self.student.act(view, rng)
        assert label is not None, "the teacher passed a turn with a choice"
        self.observations.append(observation)
        self.masks.append(mask.astype(bool))
        self.actions.append(codec.index_of(label, view.deck))
        return chosen


def _opponent(name: str) -> Any:
    if name == "heuristic":
        return HeuristicTimoBot()
    if name == "search":
        return SearchTimoBot()
    return GreedyTimoPolicy()


def play(game: Any, bots: list[Any], options: dict[str, Any], seed: int) -> Outcome:
    """One game as the simulator's bots play it (``act``: TIMO! called with the play,
    every race answered at once), stepped by the table engine: the seats to act asked
    in a seeded order (:class:`~twintable.core.table_engine.TakeTurns`)."""
    state = game.new_state(options, len(bots), seed)
    TableEngine(game, state, TakeTurns(game, bots, random.Random(seed))).run(MAX_STEPS)
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome  # type: ignore[no-any-return]


def _record(chunk: Chunk) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    from twintable.games.timo.research.policy import LearnedTimoBot

    game = FastTimoGame() if NATIVE else TimoGame()
    student = LearnedTimoBot(chunk.student) if chunk.student is not None else None
    recorder = Recorder(SearchTimoBot(samples=chunk.teacher_samples), student,
                        random.Random(chunk.seed ^ 0x5EED))
    wins = 0.0
    for index in range(chunk.first, chunk.first + chunk.count):
        opponent = _opponent(OPPONENTS[index % len(OPPONENTS)])
        bots: list[Any] = [recorder, opponent] if index % 2 == 0 else [opponent, recorder]
        outcome = play(game, bots, {"target": chunk.target}, chunk.seed + index)
        wins += (index % 2 in outcome.winners) / len(outcome.winners)
    return (np.array(recorder.observations), np.array(recorder.masks),
            np.array(recorder.actions, np.int64), wins)


def record(games: int, seed: int, target: int, teacher_samples: int,
           student: Path | None, workers: int, chunk: int = 10) -> tuple[Any, Any, Any, float]:
    """The labelled decisions of ``games`` games, and the recorded seat's win share."""
    jobs = [Chunk(first, min(chunk, games - first), seed, target, teacher_samples, student)
            for first in range(0, games, chunk)]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_record, jobs))
    else:
        parts = [_record(job) for job in jobs]
    parts = [part for part in parts if len(part[2])]
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]), sum(p[3] for p in parts) / games)


def fit(network: Network, observations: Any, masks: Any, actions: Any, epochs: int,
        rng: np.random.Generator, lr: float = 1e-3, batch: int = 256) -> float:
    """Cross-entropy training of the policy head; the share of labels it then agrees with."""
    optimizer = Adam(network.params, lr)
    size = len(actions)
    ones, zeros = np.ones(batch), np.zeros(batch)
    for _ in range(epochs):
        order = rng.permutation(size)
        for start in range(0, size - batch + 1, batch):
            pick = order[start:start + batch]
            # The A2C gradient with every advantage 1 and no value or entropy term is the
            # cross-entropy's.
            grads = network.gradients(observations[pick], masks[pick], actions[pick], ones,
                                      zeros, 0.0, 0.0)
            optimizer.step(network.params, grads)
    _, probs, _ = network.forward(observations, masks)
    return float((probs.argmax(axis=1) == actions).mean())


def distill(games: int, rounds: int = 3, seed: int = 1, hidden: int = 128,
            teacher_samples: int = 300, epochs: int = 8, target: int = 300,
            workers: int = 2, out: Path | None = None,
            log: Callable[[str], None] | None = None) -> tuple[Network, dict[str, Any]]:
    """Distil the teacher over ``rounds`` rounds of ``games`` games each; with ``out``,
    each round's weights are written there (the next round's student plays them)."""
    say = log or (lambda line: None)
    deck = load_deck(TimoGame().resolve_options({"target": target})["deck"])
    high = codec.layout(2, deck, target).high
    rng = np.random.default_rng(seed)
    started = time.time()
    data: list[tuple[Any, Any, Any]] = []
    network: Network | None = None
    student: Path | None = None
    summary: dict[str, Any] = {}
    for round_no in range(rounds):
        observations, masks, actions, wins = record(
            games, seed + round_no * games, target, teacher_samples, student, workers)
        data.append((observations, masks, actions))
        say(f"round {round_no}: {len(actions):,} decisions from {games} games, "
            f"{'teacher' if student is None else 'student'} won {wins:.1%}")
        network = Network.initial(len(high), hidden, codec.N_ACTIONS,
                                  (1.0 / np.maximum(high, 1.0)).astype(np.float32), rng)
        observations, masks, actions = (np.concatenate([part[column] for part in data])
                                        for column in range(3))
        agreement = fit(network, observations, masks, actions, epochs, rng)
        summary = {"method": "distill", "rounds": round_no + 1, "games": games,
                   "decisions": int(sum(len(d[2]) for d in data)), "seed": seed,
                   "hidden": hidden, "target": target, "teacher_samples": teacher_samples,
                   "epochs": epochs, "agreement": agreement,
                   "seconds": time.time() - started}
        say(f"round {round_no}: agrees with the teacher on {agreement:.1%} of "
            f"{summary['decisions']:,} decisions ({summary['seconds']:.0f} s)")
        if out is not None:
            network.save(out, **summary)
            student = out
    assert network is not None
    return network, summary


__all__ = ["Recorder", "distill", "fit", "record"]
