"""Replays: a game id, its options, the player count, the seed and the ordered actions.

That is all it takes to rebuild every state, because engines are deterministic.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from twintable.core.game import Game
from twintable.core.types import Action, Event

REPLAY_FORMAT = 1


@dataclass(slots=True)
class Replay:
    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": REPLAY_FORMAT, "game": self.game, "players": self.players,
                "seed": self.seed, "options": _jsonable(self.options),
                "actions": [action.to_json() for action in self.actions]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Replay:
        if data.get("format") != REPLAY_FORMAT:
            raise ValueError(f"unsupported replay format {data.get('format')!r}")
        return cls(game=str(data["game"]), players=int(data["players"]),
                   seed=int(data["seed"]), options=dict(data.get("options", {})),
                   actions=[Action.from_json(item) for item in data["actions"]])

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> Replay:
        return cls.from_json(json.loads(text))

    def save(self, path: Path) -> None:
        path.write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Replay:
        return cls.loads(path.read_text(encoding="utf-8"))

    def steps(self, game: Game[Any]) -> Iterator[tuple[Action | None, list[Event], Any]]:
        """Yield (action, events, state) from the initial state (action None) onwards.

        The yielded state is the live one; clone it to keep it past the next step.
        """
        if game.id != self.game:
            raise ValueError(f"replay is for {self.game!r}, not {game.id!r}")
        state = game.new_state(self.options, self.players, self.seed)
        yield None, [], state
        for action in self.actions:
            events = game.apply(state, action)
            yield action, events, state

    def final_state(self, game: Game[Any]) -> Any:
        (_, _, state), = deque(self.steps(game), maxlen=1)
        return state


def _jsonable(options: Mapping[str, Any]) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, tuple) else value
            for key, value in options.items()}
