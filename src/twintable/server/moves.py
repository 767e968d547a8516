"""Moves checked at the server's edge: each game's declared payloads as strict schemas.

A client's move is checked here before its table sees it: a kind the game does not
declare, a key it does not know, a value of the wrong type or out of bounds is refused
with ``action.invalid`` (or ``action.unknown``) and nothing is stored. What passes is the
canonical payload: only the declared keys, as the schema parsed them. That is what the
engine plays and what the log keeps, so no stray value a client made up can ever reach
storage, a replay or another table's batch.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from twintable.core.errors import RuleError
from twintable.core.game import Game
from twintable.core.payloads import PayloadField


def _annotation(spec: PayloadField) -> Any:
    if spec.type == "int":
        return Annotated[int, Field(ge=spec.minimum, le=spec.maximum)]
    if spec.type == "bool":
        return bool
    if spec.type == "str":
        return Annotated[str, Field(max_length=spec.max_length)]
    return Annotated[list[Annotated[int, Field(ge=spec.minimum, le=spec.maximum)]],
                     Field(max_length=spec.max_items)]


class _Payload(BaseModel):
    # strict: no coercion ("3" is not 3, true is not 1, 1.0 is not 1); forbid: no extra key.
    model_config = ConfigDict(extra="forbid", strict=True)


@cache
def _schema(game: Game[Any], kind: str) -> type[BaseModel] | None:
    fields = game.payloads.get(kind)
    if fields is None:
        return None
    declared: dict[str, Any] = {
        name: (_annotation(spec), ... if spec.required else None)
        for name, spec in fields.items()}
    model: type[BaseModel] = create_model(f"{game.id}_{kind}", __base__=_Payload, **declared)
    return model


def checked_payload(game: Game[Any], kind: str, payload: Any) -> dict[str, Any]:
    """The canonical payload of a client's move, or a RuleError saying what is wrong."""
    schema = _schema(game, kind)
    if schema is None:
        raise RuleError("action.unknown", f"unknown action {kind!r}",
                        {"kind": kind, "known": sorted(game.payloads)})
    if not isinstance(payload, dict):
        raise RuleError("action.invalid", "the payload must be an object")
    try:
        parsed = schema.model_validate(payload)
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "payload"
        raise RuleError("action.invalid", f"{kind}: {where}: {first['msg']}",
                        {"kind": kind, "field": where}) from None
    # Keys the client left out stay out: the engine treats "absent" as it always did.
    return parsed.model_dump(exclude_unset=True)


def check_version(game: Game[Any], kind: str, version: int | None) -> None:
    """Every move names the state version it was made against, except the kinds a game
    lets race (Twin It's touches, which name their picture instead)."""
    if version is None and kind not in game.unversioned_kinds:
        raise RuleError("action.version_required",
                        "send the version of the state this move was made against",
                        {"kind": kind})


def stored_payload(game: Game[Any], kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """A logged payload with only its declared keys: logs written before moves were
    checked at the edge may carry extra keys (even unencodable text); the engine never
    read them, and a replay must not send them out."""
    fields = game.payloads.get(kind)
    if fields is None:
        return payload  # the table clock's own moves (tick) carry what the server wrote
    return {key: value for key, value in payload.items() if key in fields}
