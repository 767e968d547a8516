"""Moves checked at the server's edge: each game's declared payloads as strict schemas.

A client's move is checked here before its table sees it: a kind the game does not
declare, a key it does not know, a value of the wrong type or out of bounds is refused
with ``action.invalid`` (or ``action.unknown``) and nothing is stored. What passes is the
canonical payload: only the declared keys, as the schema parsed them. That is what the
engine plays and what the log keeps, so no stray value a client made up can ever reach
storage, a replay or another table's batch.
"""

from __future__ import annotations

from collections.abc import Mapping
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


def _plain_value(spec: PayloadField, value: Any) -> bool:
    """Whether the schema would take ``value`` as it is (strict: exact types only)."""
    if spec.type == "int":
        return type(value) is int and spec.minimum <= value <= spec.maximum
    if spec.type == "bool":
        return type(value) is bool
    if spec.type == "str":
        return type(value) is str and len(value) <= spec.max_length
    return (type(value) is list and len(value) <= spec.max_items
            and all(type(item) is int and spec.minimum <= item <= spec.maximum
                    for item in value))


def _quick_payload(fields: Mapping[str, PayloadField],
                   payload: dict[str, Any]) -> dict[str, Any] | None:
    """The canonical payload, checked without pydantic (every move comes this way), or
    None when anything is amiss: the schema then says what, in its own words."""
    if not fields.keys() >= payload.keys():
        return None
    canonical: dict[str, Any] = {}
    for name, spec in fields.items():  # the schema's order, as model_dump gives it
        if name in payload:
            value = payload[name]
            if not _plain_value(spec, value):
                return None
            canonical[name] = list(value) if type(value) is list else value
        elif spec.required:
            return None
    return canonical


def checked_payload(game: Game[Any], kind: str, payload: Any) -> dict[str, Any]:
    """The canonical payload of a client's move, or a RuleError saying what is wrong."""
    fields = game.payloads.get(kind)
    if fields is not None and type(payload) is dict:
        quick = _quick_payload(fields, payload)
        if quick is not None:
            return quick
    return schema_payload(game, kind, payload)


def schema_payload(game: Game[Any], kind: str, payload: Any) -> dict[str, Any]:
    """:func:`checked_payload` by the pydantic schema alone: the reference the quick
    check agrees with (tests/server/test_moves.py), and the words of every refusal."""
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
