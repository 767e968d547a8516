"""Twinz rules (RULES.md §4): duos, the mystery word, secret clues revealed together with
every penalty, the guessing race with simultaneous winners, contests, two attempts,
scoring with the token floor, and the end.

Actions: ``clue`` {word} from a duo member, ``guess`` {word} from anyone else,
``contest`` {member} and ``vote`` {uphold} from the others, and the system's ``tick``
when the clue deadline, the tie window or the guess timeout passes. Handlers check
everything before they change anything.

The tie window (RULES.md §4): the first right guess opens it, and from then until it
closes every guess, right or wrong, reaches the others only as "a guess came in" (the
guesser alone sees their own word); when it closes, the verdicts, the words and every
winner are revealed together. So nobody can copy a right guess inside the window: what
a copier sees there is the same whether a guess was right or wrong, and it never holds
the word.

Time matters to the bots (they answer after a human reaction time), so the game is
``realtime``: the table and the simulator ask timed bots *when* they act.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from pydantic import ValidationError

from twintable.core.errors import RuleError
from twintable.core.game import Game, Outcome
from twintable.core.gametype import Dynamics, GameType, Information
from twintable.core.options import Option, OptionSchema
from twintable.core.payloads import SEAT, ActionPayloads, PayloadField
from twintable.core.rng import Rng
from twintable.core.types import Action, Event
from twintable.games.twinz.decks import DECKS, Card, WordListFile, deck_cards, fold
from twintable.games.twinz.roots import refusal
from twintable.games.twinz.state import CLUES, DRAW, GUESSES, OVER, TwinzState
from twintable.games.twinz.views import TwinzView

DRAW_KIND, CLUE, GUESS, CONTEST, VOTE = "draw", "clue", "guess", "contest", "vote"
PILE_SIZE = {4: 13, 5: 16, 6: 19, 7: 15, 8: 17, 9: 19, 10: 21}
MAX_WORD = 30
#: One word: letters, with an apostrophe or a hyphen allowed inside.
ONE_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
#: Words bots and random players may try (public, never derived from the mystery word).
SAMPLE_WORDS = ("maison", "voyage", "musique", "animal", "couleur", "lumière")

class DeckOption(Option):
    """The ``deck`` option: a printed deck by name, or a designer's word list
    (``{"words": [...]}``: :class:`~twintable.games.twinz.decks.WordListFile`), kept in
    the options so that config and seed still replay every game."""

    __slots__ = ()

    def validate(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            try:
                return {"words": WordListFile.model_validate(value).words}
            except ValidationError as error:
                problem = error.errors()[0]
                where = ".".join(map(str, problem["loc"]))
                raise self._bad(f"{len(value.get('words') or ())} words",
                                f"{where + ': ' if where else ''}{problem['msg']}") from None
        return super().validate(value)

    def range_text(self) -> str:
        return f"{super().range_text()}, or a word list (--deck)"


OPTIONS = OptionSchema([
    DeckOption("deck", "choice", "yellow", "yellow (novice, everyday words) or blue "
               "(expert), or a word list.", choices=DECKS),
    Option("countdown_s", "int", 5, "Seconds the duo has before giving its clues.",
           minimum=1, maximum=60, unit="s"),
    Option("grace_ms", "int", 1500, "A clue up to this long after the countdown is on time; "
           "up to twice this long it is late (-1).", minimum=0, maximum=10_000, unit="ms"),
    Option("guess_timeout_s", "int", 30, "Seconds to guess before the attempt fails.",
           minimum=5, maximum=300, unit="s"),
    Option("tie_ms", "int", 300, "Right guesses this close to the first one share the win.",
           minimum=0, maximum=5000, unit="ms"),
    Option("accept_plural", "bool", True, "A plain plural of the mystery word counts as right."),
    Option("result_pause_ms", "int", 3000, "A round's result stays on screen at least this long: "
           "nobody takes the next card sooner.", minimum=0, maximum=10_000, unit="ms"),
    Option("read_ms", "int", 1500, "Time the duo has to read the word before the countdown "
           "starts.", minimum=0, maximum=10_000, unit="ms"),
])


def check_word(word: Any, what: str) -> str:
    """The word, stripped, or a RuleError saying what is wrong with it."""
    if not isinstance(word, str) or not word.strip():
        raise RuleError(f"{what}.empty", f"the {what} is empty")
    text = str(word).strip()
    if len(text) > MAX_WORD:
        raise RuleError(f"{what}.too_long", f"a {what} has at most {MAX_WORD} letters")
    if not ONE_WORD.fullmatch(text):
        raise RuleError(f"{what}.not_one_word", f"a {what} is one single word")
    return text


class TwinzGame(Game[TwinzState]):
    id = "twinz"
    name = "Twinz"
    min_players = 4
    max_players = 10
    options_schema = OPTIONS
    # Measured: sim.durations.typical_minutes (12 games, seed 0) with the reading time and
    # the result pause in the engine (2.2 before them).
    table_minutes: ClassVar[Mapping[str, tuple[int, float]]] = {"": (4, 3.1)}
    # A word longer than MAX_WORD gets the rules' own clue/guess.too_long refusal.
    payloads: ClassVar[ActionPayloads] = {
        DRAW_KIND: {}, CLUE: {"word": PayloadField("str", max_length=64)},
        GUESS: {"word": PayloadField("str", max_length=64)},
        CONTEST: {"member": SEAT}, VOTE: {"uphold": PayloadField("bool")}}
    finite_actions = False
    #: Real time: bots plan *when* they act (a reaction time): the table and the simulator run the
    #: game as a race on the clock, as they do Twin It.
    game_type = GameType(Dynamics.REAL_TIME, Information.HIDDEN, chance=True)

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[TwinzState, Action], list[Event]]] = {
            DRAW_KIND: self._draw, CLUE: self._clue, GUESS: self._guess,
            CONTEST: self._contest, VOTE: self._vote,
        }

    def deck(self, state: TwinzState) -> Any:
        return deck_cards(state.options["deck"])

    def player_range(self, options: Mapping[str, Any] | None = None) -> tuple[int, int]:
        """A word list of few cards seats fewer players: each count draws its pile."""
        cards = len(deck_cards(self.resolve_options(options)["deck"]))
        most = max((players for players, pile in PILE_SIZE.items() if pile <= cards),
                   default=self.min_players - 1)
        return self.min_players, min(self.max_players, most)

    # -- set-up ---------------------------------------------------------------------
    def new_state(self, options: Mapping[str, Any] | None, players: int,
                  seed: int) -> TwinzState:
        resolved = self.resolve_options(options)
        self.check_players(players, resolved)
        state = TwinzState(resolved, players, seed)
        order = list(range(len(deck_cards(resolved["deck"]))))
        state.rng.shuffle(order)
        state.pile = order[:PILE_SIZE[players]]
        self._start_round(state, 0, first=True)
        return state

    def _start_round(self, state: TwinzState, t: int, first: bool = False) -> list[Event]:
        if len(state.pile) <= 1:
            return self._finish(state)
        if not first:
            second = state.duo[1]
            state.duo = (second, (second + 1) % state.players)
        state.round_no += 1
        state.opened_ms = t
        # The last round's result stays on screen (RULES.md §4): the next card waits for
        # the pause, a timer the table fires, so a bot cannot take it sooner either.
        pause = 0 if first else state.options["result_pause_ms"]
        state.pause_until = t + pause if pause > 0 else None
        state.card = state.pile.pop()
        state.orientation = state.rng.randrange(2)
        state.line = self.deck(state)[state.pile[-1]].back
        state.attempt = 1
        state.attempts = []
        state.phase = DRAW  # the countdown starts when the duo has the card in hand
        state.clues, state.revealed, state.guessed, state.right = {}, {}, {}, []
        state.hidden, state.dismissed = [], []
        # A contest still open when the round ended (a right guess came first) ends with it.
        state.tie_due, state.contest, state.votes = None, None, {}
        return [Event("round_started", {"round": state.round_no, "duo": list(state.duo),
                                        "line": state.line, "pause_until": state.pause_until})]

    def _draw(self, state: TwinzState, action: Action) -> list[Event]:
        if state.phase != DRAW:
            raise RuleError("draw.not_now", "the card is already drawn")
        if action.seat not in state.duo:
            raise RuleError("draw.not_duo", "the duo draws the card")
        if state.pause_until is not None:
            raise RuleError("draw.too_soon", "the last round's result is still on show",
                            {"until_ms": state.pause_until})
        state.recap = None  # the next card is dealt: the last round leaves the board
        return self._open_clues(state, action.t_ms)

    def _open_clues(self, state: TwinzState, t: int) -> list[Event]:
        state.phase = CLUES
        state.clues, state.revealed, state.guessed, state.right = {}, {}, {}, []
        state.hidden, state.tie_due, state.contest, state.votes = [], None, None, {}
        state.dismissed = []
        # The countdown starts once the duo has had read_ms to read the word on its
        # screens (RULES.md §4); a clue may come sooner.
        state.countdown_ends = (t + state.options["read_ms"]
                                + state.options["countdown_s"] * 1000)
        state.clue_due = state.countdown_ends + 2 * state.options["grace_ms"]
        word = self.mystery(state)
        return [Event("countdown", {"attempt": state.attempt, "ends_ms": state.countdown_ends}),
                Event("mystery", {"word": word}, frozenset(state.duo))]

    def mystery(self, state: TwinzState) -> str:
        card: Card = self.deck(state)[state.card]
        return card.word(state.line, state.orientation)

    # -- who acts -------------------------------------------------------------------
    def to_act(self, state: TwinzState) -> frozenset[int]:
        return frozenset(s for s in range(state.players) if self.legal_actions(state, s))

    def legal_actions(self, state: TwinzState, seat: int) -> list[Action]:
        if state.phase == OVER or not 0 <= seat < state.players:
            return []
        if state.phase == DRAW:
            ready = seat in state.duo and state.pause_until is None
            return [Action(seat, DRAW_KIND)] if ready else []
        if state.phase == CLUES:
            if seat in state.duo and seat not in state.clues:
                return [Action(seat, CLUE, {"word": w}) for w in self._samples(state)]
            return []
        actions: list[Action] = []
        if seat not in state.duo:
            if seat not in state.guessed:
                actions += [Action(seat, GUESS, {"word": w}) for w in self._samples(state)]
            if state.contest is None and state.tie_due is None:
                actions += [Action(seat, CONTEST, {"member": m}) for m in state.duo
                            if state.revealed.get(m) and m not in state.dismissed]
            if state.contest is not None and seat not in state.votes:
                actions += [Action(seat, VOTE, {"uphold": True}),
                            Action(seat, VOTE, {"uphold": False})]
        return actions

    def _samples(self, state: TwinzState) -> list[str]:
        used = set(state.used)
        return [w for w in SAMPLE_WORDS if fold(w) not in used][:3] or ["indice"]

    # -- applying -------------------------------------------------------------------
    def apply(self, state: TwinzState, action: Action) -> list[Event]:
        events = self.dispatch_timed(state, action, self.handlers, state.players,
                                     self._run_timers)
        state.clock = max(state.clock, action.t_ms)
        return events

    def deadline(self, state: TwinzState) -> int | None:
        if state.phase == DRAW:
            return state.pause_until
        if state.phase == CLUES:
            return state.clue_due
        if state.phase == GUESSES:
            return state.tie_due if state.tie_due is not None else state.guess_due
        return None

    def timeout_action(self, state: TwinzState, now_ms: int) -> Action | None:
        return self.tick_when_due(state, now_ms)

    def _run_timers(self, state: TwinzState, t: int) -> list[Event]:
        if state.phase == DRAW:
            # The result pause is over: the duo may take the card.
            state.pause_until = None
            return [Event("card_ready", {"duo": list(state.duo)})]
        if state.phase == CLUES:
            return self._reveal(state, t)
        if state.tie_due is not None:
            return self._found(state, t)
        return self._attempt_failed(state, t, "timeout")

    # -- clues ------------------------------------------------------------------------
    def _clue(self, state: TwinzState, action: Action) -> list[Event]:
        seat = action.seat
        if state.phase != CLUES:
            raise RuleError("clue.too_late", "clues are closed for this attempt")
        if seat not in state.duo:
            raise RuleError("clue.not_duo", "only the duo gives clues")
        if seat in state.clues:
            raise RuleError("clue.already_given", "you gave your clue for this attempt")
        word = check_word(action.payload.get("word"), "clue")
        state.clues[seat] = (word, action.t_ms)
        events = [Event("clue_given", {"seat": seat}),
                  Event("your_clue", {"seat": seat, "word": word}, frozenset({seat}))]
        if len(state.clues) == 2:
            events += self._reveal(state, action.t_ms)
        return events

    def _reveal(self, state: TwinzState, t: int) -> list[Event]:
        """Show both clues and apply every penalty; a clue on the mystery word's root ends
        the duo's turn."""
        mystery = self.mystery(state)
        late_after = state.countdown_ends + state.options["grace_ms"]
        penalties: dict[int, list[str]] = {seat: [] for seat in state.duo}
        # RULES.md §4: the board says which clue the root rule refused and why.
        refused: dict[str, dict[str, str]] = {}
        words: dict[int, str | None] = {}
        for seat in state.duo:
            given = state.clues.get(seat)
            words[seat] = given[0] if given else None
            if given is None:
                penalties[seat].append("missing")
                continue
            word, at = given
            if at > late_after:
                penalties[seat].append("late")
            if fold(word) in state.used:
                penalties[seat].append("reused")
            why = refusal(word, mystery)
            if why is not None:
                penalties[seat].append("mystery_root")
                refused[str(seat)] = {"clue": word, "reason": why, "word": mystery}
        first, second = state.duo
        same = (words[first] is not None and words[second] is not None
                and fold(words[first] or "") == fold(words[second] or ""))
        for seat in state.duo:
            cost = len(penalties[seat]) + (2 if same else 0)
            if same:
                penalties[seat].append("same_clue")
            self._lose(state, seat, cost)
            clue = words[seat]
            if clue is not None and fold(clue) not in state.used:
                state.used.append(fold(clue))
        state.revealed = words
        state.attempts.append({"attempt": state.attempt,
                               "clues": [[seat, words[seat]] for seat in state.duo],
                               "penalties": {str(s): list(p) for s, p in penalties.items()},
                               "refused": refused, "guesses": []})
        events = [Event("clues_revealed", {"clues": {str(s): w for s, w in words.items()},
                                           "penalties": {str(s): p for s, p in penalties.items()},
                                           "refused": refused, "attempt": state.attempt})]
        if any("mystery_root" in p for p in penalties.values()):
            return events + self._end_round(state, t, "mystery_word", [])
        state.phase = GUESSES
        state.guess_due = t + state.options["guess_timeout_s"] * 1000
        events.append(Event("guessing", {"until_ms": state.guess_due}))
        return events

    def _lose(self, state: TwinzState, seat: int, amount: int) -> None:
        # Points from tokens never go below 0.
        state.points[seat] = max(0, state.points[seat] - amount)

    # -- guesses ----------------------------------------------------------------------
    def _guess(self, state: TwinzState, action: Action) -> list[Event]:
        seat = action.seat
        if state.phase != GUESSES:
            raise RuleError("guess.not_now", "wait for the clues")
        if seat in state.duo:
            raise RuleError("guess.from_duo", "the duo does not guess its own word")
        if seat in state.guessed:
            raise RuleError("guess.already", "one guess per attempt")
        word = check_word(action.payload.get("word"), "guess")
        state.guessed[seat] = word
        if state.attempts:
            last = state.attempts[-1]
            state.attempts[-1] = {**last, "guesses": [*last["guesses"], [seat, word]]}
        right = self._matches(state, word)
        if right:
            state.right.append(seat)
        everyone = all(s in state.guessed for s in range(state.players) if s not in state.duo)
        if state.tie_due is None and not right:
            # Wrong, with no window open: heard at once, as at a real table.
            events = [Event("guessed", {"seat": seat, "word": word, "right": False})]
            if everyone:
                return events + self._attempt_failed(state, action.t_ms, "all_wrong")
            return events
        # Inside the tie window (this right guess opens it, or it is open): the others
        # learn only that a guess came in, the same for a right and a wrong one.
        state.hidden.append(seat)
        events = [Event("guessed", {"seat": seat, "word": None, "right": None}),
                  Event("your_guess", {"seat": seat, "word": word}, frozenset({seat}))]
        if state.tie_due is None:
            state.tie_due = action.t_ms + state.options["tie_ms"]
        if state.options["tie_ms"] == 0 or everyone:
            # Nobody else can tie: the window closes now.
            return events + self._found(state, action.t_ms)
        return events

    def _matches(self, state: TwinzState, word: str) -> bool:
        target, guess = fold(self.mystery(state)), fold(word)
        if guess == target:
            return True
        return bool(state.options["accept_plural"]) and guess in (target + "s", target + "x")

    def _found(self, state: TwinzState, t: int) -> list[Event]:
        """The tie window closes: every hidden guess, its verdict and the winners are
        revealed together, and the round ends."""
        winners = list(state.right)
        revealed = Event("guesses_revealed", {
            "word": self.mystery(state), "winners": winners,
            "guesses": [{"seat": s, "word": state.guessed[s], "right": s in state.right}
                        for s in state.hidden]})
        for member in state.duo:
            state.points[member] += 1
        if len(winners) == 1:
            state.cards_won[winners[0]] += 1
        else:
            for seat in winners:
                state.points[seat] += 1
        return [revealed, *self._end_round(state, t, "found", winners)]

    def _attempt_failed(self, state: TwinzState, t: int, why: str) -> list[Event]:
        if state.attempt == 1:
            state.attempt = 2
            return [Event("attempt_failed", {"reason": why, "attempt": 1}),
                    *self._open_clues(state, t)]
        for member in state.duo:
            self._lose(state, member, 1)
        return self._end_round(state, t, why, [])

    # -- contests ---------------------------------------------------------------------
    def _contest(self, state: TwinzState, action: Action) -> list[Event]:
        member = action.payload.get("member")
        if state.phase != GUESSES or state.tie_due is not None:
            raise RuleError("contest.not_now", "clues can be contested while people guess")
        if action.seat in state.duo:
            raise RuleError("contest.from_duo", "the duo cannot contest its own clue")
        if state.contest is not None:
            raise RuleError("contest.open", "a contest is already being voted on")
        if member not in state.duo or not state.revealed.get(member):
            raise RuleError("contest.no_clue", "that player gave no clue", {"member": member})
        if member in state.dismissed:
            # A vote settled it; contesting again would only stall the round.
            raise RuleError("contest.settled", "the vote let that clue stand",
                            {"member": member})
        state.contest = member
        state.votes = {action.seat: True}
        return [Event("contested", {"seat": action.seat, "member": member}),
                *self._count_votes(state, action.t_ms)]

    def _vote(self, state: TwinzState, action: Action) -> list[Event]:
        if state.contest is None:
            raise RuleError("vote.no_contest", "nothing to vote on")
        if action.seat in state.duo:
            raise RuleError("vote.from_duo", "the duo does not vote")
        if action.seat in state.votes:
            raise RuleError("vote.already", "you voted")
        uphold = action.payload.get("uphold")
        if not isinstance(uphold, bool):
            raise RuleError("vote.invalid", "vote true (uphold) or false (dismiss)")
        state.votes[action.seat] = uphold
        return [Event("voted", {"seat": action.seat}), *self._count_votes(state, action.t_ms)]

    def _count_votes(self, state: TwinzState, t: int) -> list[Event]:
        voters = state.players - 2
        yes = sum(state.votes.values())
        no = len(state.votes) - yes
        member = state.contest
        assert member is not None
        if yes * 2 > voters:
            self._lose(state, member, 1)
            if state.attempts:
                state.attempts[-1] = {**state.attempts[-1], "contested": member}
            return [Event("contest_upheld", {"member": member}),
                    *self._end_round(state, t, "contest", [])]
        if no * 2 >= voters:
            state.contest, state.votes = None, {}
            state.dismissed.append(member)
            return [Event("contest_dismissed", {"member": member})]
        return []

    # -- rounds and the end -------------------------------------------------------------
    def _end_round(self, state: TwinzState, t: int, why: str,
                   winners: list[int]) -> list[Event]:
        mystery = self.mystery(state)
        state.history.append({"word": mystery,
                              "clues": [state.revealed.get(s) for s in state.duo],
                              "guesses": dict(state.guessed), "winners": winners,
                              "result": why})
        state.tally[why] = state.tally.get(why, 0) + 1
        state.recap = {"round": state.round_no, "word": mystery, "duo": list(state.duo),
                       "result": why, "winners": list(winners),
                       "attempts": list(state.attempts)}
        events = [Event("round_over", {"word": mystery, "reason": why, "winners": winners,
                                       "points": list(state.points),
                                       "cards": list(state.cards_won)})]
        return events + self._start_round(state, t)

    def _finish(self, state: TwinzState) -> list[Event]:
        state.phase = OVER
        outcome = self.outcome(state)
        assert outcome is not None
        return [Event("game_over", outcome.to_json())]

    # -- seeing ---------------------------------------------------------------------
    def view(self, state: TwinzState, viewer: int | None) -> TwinzView:
        in_duo = viewer is not None and viewer in state.duo
        hidden = set(state.hidden)
        legal = tuple(self.legal_actions(state, viewer)) if viewer is not None else ()
        return TwinzView(
            viewer=viewer, options=state.options, players=state.players, phase=state.phase,
            now_ms=state.clock, opened_ms=state.opened_ms,
            pause_until=state.pause_until if state.phase == DRAW else None,
            round_no=state.round_no, attempt=state.attempt, duo=state.duo, line=state.line,
            pile=len(state.pile), mystery=self.mystery(state) if in_duo and
            state.phase in (CLUES, GUESSES) else None,
            countdown_ends=state.countdown_ends, clue_due=state.clue_due,
            guess_due=state.guess_due if state.phase == GUESSES else None,
            clue_given=tuple(seat in state.clues for seat in state.duo),
            my_clue=state.clues[viewer][0] if viewer in state.clues else None,
            clues=tuple(state.revealed.get(seat) for seat in state.duo)
            if state.revealed else None,
            # A guess in the tie window shows its word to its guesser only (RULES.md §4).
            guessed=tuple((seat, word if seat not in hidden or seat == viewer else None)
                          for seat, word in sorted(state.guessed.items())),
            hidden=tuple(sorted(hidden)), used=tuple(state.used),
            points=tuple(state.points), cards=tuple(state.cards_won),
            contest=state.contest, votes=len(state.votes), recap=state.recap, legal=legal)

    def determinize(self, state: TwinzState, viewer: int | None,
                    rng: random.Random) -> TwinzState:
        """Re-deal the hidden cards: the pile under its top card, and (for anyone outside
        the duo) the card in play and its orientation; the partner's secret clue too, and
        the words of other seats' guesses inside the tie window."""
        other = state.clone()
        if len(other.pile) > 1:
            under = other.pile[:-1]
            if viewer is None or viewer not in other.duo:
                under.append(other.card)
                rng.shuffle(under)
                other.card = under.pop()
                other.orientation = rng.randrange(2)
            else:
                rng.shuffle(under)
            other.pile = [*under, other.pile[-1]]
        for seat, (_, at) in list(other.clues.items()):
            if seat != viewer:
                other.clues[seat] = (rng.choice(SAMPLE_WORDS), at)
        for seat in other.hidden:
            if seat != viewer:
                other.guessed[seat] = rng.choice(SAMPLE_WORDS)
        # What chance does next is hidden from everyone too.
        other.rng = Rng(rng.getrandbits(64))
        return other

    # -- the end --------------------------------------------------------------------
    def is_over(self, state: TwinzState) -> bool:
        return state.phase == OVER

    def outcome(self, state: TwinzState) -> Outcome | None:
        if state.phase != OVER:
            return None
        totals = tuple(state.points[s] + 2 * state.cards_won[s] for s in range(state.players))
        best = max(totals)
        tied = [s for s in range(state.players) if totals[s] == best]
        most = max(state.cards_won[s] for s in tied)
        return Outcome(totals, frozenset(s for s in tied if state.cards_won[s] == most))

    def stats(self, state: TwinzState) -> dict[str, float]:
        return {"rounds": float(state.round_no), **{k: float(v) for k, v in state.tally.items()}}

    def snapshot(self, state: TwinzState) -> dict[str, Any]:
        return {name: (getattr(state, name).to_json() if name == "rng" else
                       _plain(getattr(state, name))) for name in TwinzState.__slots__}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value

