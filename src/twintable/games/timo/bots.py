"""Timo's Twist bots: a rule-of-thumb player and a determinized Monte Carlo searcher.

Both decide from their seat's :class:`TimoView` only. The searcher samples the unseen
cards consistently with what its seat has seen (its hand, every discard, the card counts),
plays each candidate forward in every sample, and keeps the best on average.

``act`` is the simulation's player: it always calls TIMO! with its play and catches at
once. At a table with people (the terminal) bots are people-like instead (RULES.md §1:
calling and catching are races): :func:`table_move` and :func:`timo_reaction` say how
long a bot takes to play, how often it forgets TIMO!, and whether and when it calls late
or catches, by the level's :class:`Reflexes`. Every draw comes from the generator the
bot is handed, so a seed gives the same table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from twintable.core.rng import Rng
from twintable.core.teams import seat_teams
from twintable.core.types import Action
from twintable.games.timo.cards import BLACK, COLOURS, PLUS2, PLUS4, STOP, TWIST
from twintable.games.timo.fast import NATIVE, FastTimoGame
from twintable.games.timo.rules import TimoGame
from twintable.games.timo.state import CALL, CATCH, DRAW, NOBODY, PASS, PLAY, TimoState
from twintable.games.timo.views import TimoView


def best_colour(view: TimoView, without: int) -> str:
    """The colour the rest of the hand can follow best: most cards, then most points."""
    deck = view.deck
    weight: Counter[int] = Counter()
    for card in view.hand:
        if card != without and deck.colour[card] != BLACK:
            weight[deck.colour[card]] += 100 + deck.points[card]
    if not weight:
        return COLOURS[view.colour] if view.colour != BLACK else COLOURS[0]
    return COLOURS[max(weight, key=lambda c: (weight[c], -c))]


def teams_of(view: TimoView) -> tuple[int, ...] | None:
    """The team of each seat at this table (the ``teams`` option), None: no teams."""
    return seat_teams(view.options.get("teams", ()), view.players)


def _round_value(view: TimoView, winner: int, scores: Sequence[int]) -> float:
    """What a finished round was worth to ``view``'s seat: the points it (or, with
    teams, its team) scored, or minus the points an opponent scored, in hundreds."""
    points = scores[winner] - view.scores[winner]
    teams, viewer = teams_of(view), view.viewer
    ours = winner == viewer if teams is None or viewer is None else teams[winner] == teams[viewer]
    return points / 100 if ours else -points / 100


def _reaction(view: TimoView) -> Action | None:
    """TIMO! to call, or a player to catch; never a partner (the rules allow it, but it
    only makes our own team draw)."""
    teams = teams_of(view)
    for action in view.legal:
        if action.kind == CALL:
            return action
        if action.kind == CATCH:
            target = action.payload["target"]
            if teams is None or view.viewer is None or teams[target] != teams[view.viewer]:
                return action
    return None


@dataclass(frozen=True, slots=True)
class Reflexes:
    """How a level handles TIMO! among people. Times are medians (ms) of log-normal
    draws, as people's reaction times are; chances are per occasion."""

    forget: float
    """Chance of playing the last-but-one card without calling TIMO!."""
    recall: float
    """Chance that a bot that forgot notices and calls late (if nobody catches it first)."""
    recall_ms: float
    """From its own play to the late call."""
    notice: float
    """Chance of noticing an opponent at one card who did not call."""
    catch_ms: float
    """From that opponent's play to the catch."""
    turn_ms: float
    """From its turn coming round to its move."""
    spread: float = 0.35
    """Sigma of the log-normal: people vary from one moment to the next."""

    def draw(self, median: float, rng: random.Random) -> int:
        """One reaction time (ms) from ``rng``."""
        return int(median * rng.lognormvariate(0.0, self.spread))


#: By bot name. A person types "catch" about 1.5-2.5 s after the play that exposed
#: someone; the careful levels are about as quick, the random bot slower and absent-minded.
REFLEXES = {
    "random": Reflexes(forget=0.5, recall=0.4, recall_ms=2600, notice=0.35, catch_ms=2800,
                       turn_ms=1500),
    # The C policy's greedy bot: careful about TIMO! (it always calls in the simulator),
    # only its play is simple.
    "greedy": Reflexes(forget=0.12, recall=0.6, recall_ms=2000, notice=0.7, catch_ms=2100,
                       turn_ms=1200),
    "ismcts": Reflexes(forget=0.1, recall=0.6, recall_ms=1900, notice=0.75, catch_ms=2000,
                       turn_ms=1600),
    "learned": Reflexes(forget=0.08, recall=0.7, recall_ms=1700, notice=0.85,
                        catch_ms=1800, turn_ms=1400),
    "heuristic": Reflexes(forget=0.12, recall=0.6, recall_ms=1900, notice=0.75,
                          catch_ms=2000, turn_ms=1300),
    "search": Reflexes(forget=0.05, recall=0.75, recall_ms=1500, notice=0.9, catch_ms=1600,
                       turn_ms=1600),
}


def reflexes_of(bot: Any) -> Reflexes:
    """The bot's reflexes: its own, else its name's, else the random bot's."""
    own = getattr(bot, "reflexes", None)
    if isinstance(own, Reflexes):
        return own
    return REFLEXES.get(getattr(bot, "name", ""), REFLEXES["random"])


def table_move(bot: Any, view: TimoView, rng: random.Random) -> Action:
    """The bot's move on its turn at a table with people: its choice among the turn's
    moves (a TIMO!/catch race is :func:`timo_reaction`'s), and with its level's chance it
    forgets to call TIMO! with a play that leaves it one card."""
    turn_only = view._replace(legal=tuple(a for a in view.legal if a.kind not in (CALL, CATCH)))
    action: Action = bot.act(turn_only, rng)
    payload = action.payload
    if action.kind == PLAY and payload.get("timo") and rng.random() < reflexes_of(bot).forget:
        return next(a for a in turn_only.legal if a.kind == PLAY
                    and a.payload["card"] == payload["card"]
                    and a.payload.get("colour") == payload.get("colour")
                    and not a.payload.get("timo"))
    return action


def turn_delay(bot: Any, rng: random.Random) -> int:
    """How long (ms) the bot takes to move once its turn has come."""
    reflexes = reflexes_of(bot)
    return reflexes.draw(reflexes.turn_ms, rng)


def timo_reaction(bot: Any, view: TimoView, rng: random.Random) -> tuple[int, Action] | None:
    """When a player is at one card without TIMO! (``view.exposed``): how long (ms) after
    that play this bot calls TIMO! (it is that player) or catches them, or None if it does
    not notice. Ask once per such moment: each answer is a fresh draw."""
    reaction = _reaction(view)
    if reaction is None:
        return None
    reflexes = reflexes_of(bot)
    if reaction.kind == CALL:
        chance, median = reflexes.recall, reflexes.recall_ms
    else:
        chance, median = reflexes.notice, reflexes.catch_ms
    if rng.random() >= chance:
        return None
    return reflexes.draw(median, rng), reaction


class HeuristicTimoBot:
    """Plays like a careful person.

    Follows the colour it holds most of, dumps high numbers first, keeps Stop/Twist/+2
    and black cards for when the next player is close to going out, stacks penalties,
    always calls TIMO! and catches anyone who forgets. In a team game (``partner_aware``)
    a partner who plays next is no threat, and it plays Stop, +2 or +4 on them only when
    nothing else goes.
    """

    name = "heuristic"

    def __init__(self, partner_aware: bool = True):
        self.partner_aware = partner_aware

    def act(self, view: TimoView, rng: random.Random) -> Action | None:
        reaction = _reaction(view)
        if reaction is not None:
            return reaction
        if view.viewer != view.turn or not view.legal:
            return None
        return self.choose_turn(view)

    def choose_turn(self, view: TimoView) -> Action:
        plays = [a for a in view.legal if a.kind == PLAY]
        if not plays:
            return next(a for a in view.legal if a.kind in (DRAW, PASS))
        deck = view.deck
        next_seat = (view.turn + view.direction) % view.players
        teams = teams_of(view) if self.partner_aware else None
        partner_next = teams is not None and teams[next_seat] == teams[view.turn]
        threat = view.hand_sizes[next_seat] <= 2 and not partner_next
        colour_count = Counter(deck.colour[c] for c in view.hand)

        def score(card: int) -> float:
            rank = deck.rank[card]
            if view.penalty:
                return 10 if rank == PLUS2 else 5
            if partner_next and rank in (STOP, PLUS2, PLUS4):
                return 0.5 if rank != PLUS4 else 0  # after even the Colour card
            if rank < 10:
                return 30 + rank + 2 * colour_count[deck.colour[card]]
            if rank in (STOP, TWIST, PLUS2):
                return 80 if threat else 10 + 2 * colour_count[deck.colour[card]]
            if rank == PLUS4:
                return 70 if threat else 2
            return 60 if threat else 1  # the Colour card: a last resort, kept for a rescue

        card = max({a.payload["card"] for a in plays}, key=score)
        return self._play(view, plays, card)

    def _play(self, view: TimoView, plays: Sequence[Action], card: int) -> Action:
        colour = best_colour(view, card) if view.deck.colour[card] == BLACK else None
        matching = [a for a in plays if a.payload["card"] == card
                    and a.payload.get("colour") == colour]
        # Always call TIMO! together with the play when it leaves one card.
        return max(matching, key=lambda a: bool(a.payload.get("timo")))


MASK64 = (1 << 64) - 1


class Mix:
    """splitmix64: the search's own small generator (``_native.c: Mix``), so that the C
    search and this one draw the same numbers from the same seed."""

    __slots__ = ("x",)

    def __init__(self, seed: int):
        self.x = seed & MASK64

    def next(self) -> int:
        self.x = z = (self.x + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return ((self.next() >> 32) * n) >> 32


#: Deals per decision. At 4 seats one move is a small part of a long round, and 150 deals
#: left Expert no stronger than Medium there (51%, 44-58%, bench/levels.py); 1000 make
#: it so (58.2% of 400 games, 53.4-63.0%; 4000 did no better, 56.5% of 200). A decision
#: costs the C engine about 13 ms of one core on average, 45 ms at worst (2 to 6 seats);
#: the Python search, for installs without a compiler, is many times slower.
SAMPLES = 1000


class SearchTimoBot:
    """Determinized Monte Carlo: deal the unseen cards again many times, play each
    candidate forward in every deal, keep the best on average.

    ``samples`` deals are shared by all candidates (common random numbers). Each rollout
    plays the round out with :class:`HeuristicTimoBot`'s rules of thumb, a little noise
    added so that rollouts differ, and a candidate is worth the round's points to this
    seat (positive if it goes out, negative if an opponent does).

    The search runs in C when the engine was built (``native``, default: when available;
    ``_native.c: engine_search``); this module's Python search is the same algorithm,
    draw for draw, for installs without a compiler, and many times slower. Either way the
    bot draws one seed and a sampled state from the ``random.Random`` it is handed, so a
    seed gives the same decisions on both.
    """

    name = "search"

    def __init__(self, samples: int = SAMPLES, game: TimoGame | None = None,
                 native: bool | None = None):
        self.samples = samples
        self.game = game or TimoGame()
        if native and not NATIVE:
            raise RuntimeError("the C engine of Timo's Twist was not built")
        self._fast = FastTimoGame() if NATIVE and native is not False else None
        self._templates: dict[tuple[Any, ...], Any] = {}

    def act(self, view: TimoView, rng: random.Random) -> Action | None:
        reaction = _reaction(view)
        if reaction is not None:
            return reaction
        if view.viewer != view.turn or not view.legal:
            return None
        candidates = self._candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        # A state the view allows; each sample deals its unseen cards again.
        base = self.game.sample_state(view, rng)
        seed = rng.getrandbits(64)
        if self._fast is not None:
            totals = self._native_search(base, view.turn, candidates, seed)
        else:
            totals = self._search(base, view, candidates, seed)
        best = max(range(len(candidates)), key=lambda i: totals[i])
        return candidates[best]

    def _candidates(self, view: TimoView) -> list[Action]:
        """Distinct decisions: TIMO! is always called, and a black card names either the
        colour the hand follows best or, failing that, the colour in force."""
        seen: dict[tuple[int, str | None], Action] = {}
        for action in view.legal:
            if action.kind != PLAY:
                seen[(-1, action.kind)] = action
                continue
            card = action.payload["card"]
            colour = action.payload.get("colour")
            if colour is not None and colour != best_colour(view, card):
                continue
            key = (card, colour)
            if key not in seen or action.payload.get("timo"):
                seen[key] = action
        return list(seen.values())

    def _native_search(self, base: TimoState, viewer: int, candidates: Sequence[Action],
                       seed: int) -> list[float]:
        assert self._fast is not None
        codes = [self._fast.code_of(action) for action in candidates]
        totals: list[float] = self.engine_for(base).search(viewer, codes, self.samples, seed)
        return totals

    def engine_for(self, base: TimoState) -> Any:
        """The C engine loaded with ``base`` (its ``search`` deals the unseen cards again)."""
        assert self._fast is not None
        key = (base.players, *sorted(base.options.items()))
        template = self._templates.get(key)
        if template is None:
            template = self._templates[key] = self._fast.new_state(base.options,
                                                                   base.players, 0)
        engine = template.clone()
        engine.load(self._fast.plain(base))
        return engine

    def _search(self, base: TimoState, view: TimoView, candidates: Sequence[Action],
                seed: int) -> list[float]:
        mix = Mix(seed)
        totals = [0.0] * len(candidates)
        for _ in range(self.samples):
            sample = base.clone()
            _determinize(sample, view.turn, mix)
            for index, action in enumerate(candidates):
                state = sample.clone()
                self.game.apply(state, action)
                _rollout_round(self.game, state, mix)
                totals[index] += _round_value(view, state.round_winner, state.scores)
        return totals


def _determinize(state: TimoState, viewer: int, mix: Mix) -> None:
    """Deal what ``viewer`` cannot see (the others' hands, the draw pile) again, each hand
    keeping its size; reshuffles further on follow the sample (``_native.c: determinize``)."""
    pool = [card for seat, hand in enumerate(state.hands) if seat != viewer for card in hand]
    pool += state.draw_pile
    for i in range(len(pool) - 1, 0, -1):
        j = mix.below(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    at = 0
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            state.hands[seat] = pool[at:at + len(hand)]
            at += len(hand)
    state.draw_pile = pool[at:]
    state.rng = Rng(mix.next())


def _rollout_card(game: TimoGame, state: TimoState, mix: Mix) -> int:
    """The rollout's card for the seat on turn (NOBODY: it draws): HeuristicTimoBot's
    scores with noise (``_native.c: rollout_card``)."""
    if state.drawn != NOBODY:
        return state.drawn
    deck, turn = state.deck, state.turn
    hand = state.hands[turn]
    threat = len(state.hands[(turn + state.direction) % state.players]) <= 2
    counts = Counter(deck.colour[c] for c in hand)
    playable = set(game.playable_cards(state, hand))
    best, best_score = NOBODY, -1
    for card in hand:
        if card not in playable:
            continue
        rank, colour = deck.rank[card], deck.colour[card]
        if state.penalty:
            score = 10 if rank == PLUS2 else 5
        elif colour == BLACK:
            score = (70 if rank == PLUS4 else 60) if threat else (2 if rank == PLUS4 else 1)
        elif rank < 10:
            score = 30 + rank + 2 * counts[colour]
        else:
            score = 80 if threat else 10 + 2 * counts[colour]
        score = score * 4 + mix.below(24)
        if score > best_score:
            best, best_score = card, score
    return best


def _rollout_round(game: TimoGame, state: TimoState, mix: Mix) -> None:
    """Play the round out with :func:`_rollout_card`; everybody remembers TIMO!."""
    start_round = state.round_no
    colour_of = state.deck.colour
    for _ in range(100_000):
        if state.over or state.round_no != start_round:
            return
        state.exposed = NOBODY
        turn = state.turn
        card = _rollout_card(game, state, mix)
        if card == NOBODY:
            game.draw_checked(state, turn)
            continue
        colour = colour_of[card]
        if colour == BLACK:
            counts = [0, 0, 0, 0]
            for other in state.hands[turn]:
                if colour_of[other] != BLACK:
                    counts[colour_of[other]] += 1
            colour = counts.index(max(counts)) if any(counts) else state.colour
        game.play_checked(state, turn, card, colour, len(state.hands[turn]) == 2)
