"""The JSON reader at the server's edge: orjson's quick reading gives exactly what the
standard library's reading under the limits gives, value or refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twintable.server.limits import (
    DEFAULT_LIMITS,
    BadJson,
    _bounded_json,
    bounded_json,
    glanced_id,
)

SCALARS = (st.none() | st.booleans() | st.integers(-(10**25), 10**25)
           | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=30) | st.text(min_size=1990, max_size=2010, alphabet="ab")
           | st.sampled_from(["\x00", "a\x00b", "é", "日本"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                      max_leaves=40)


def reference(text: str | bytes) -> Any:
    return _bounded_json(text, DEFAULT_LIMITS)


def outcome(read: Any, text: str | bytes) -> Any:
    try:
        return ("value", read(text))
    except BadJson as error:
        return ("refused", error.code, error.message)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_quick_reading_agrees_on_json_values(value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert outcome(bounded_json, text) == outcome(reference, text)


DEEP = "[" * 17 + "]" * 17


@pytest.mark.parametrize("text", [
    "NaN", '{"a": Infinity}', "1e400", "12345678901234567890", "123456789012345678",
    "-123456789012345678", "1234567890123456789", '"\\ud800"', '"\\u0000"', DEEP,
    "[" * 2000 + "]" * 2000, "[1,]", "", "{", '{"a":1,"a":2}', " [1] ", "\ufeff[1]",
    b'\xff\xfe[\x001\x00]\x00', b'[1]', '{"x": 1.5}', "[" + ",".join(["1"] * 1001) + "]"])
def test_quick_reading_agrees_on_awkward_input(text: str | bytes) -> None:
    assert outcome(bounded_json, text) == outcome(reference, text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40) | st.binary(max_size=40))
def test_quick_reading_agrees_on_any_text(text: str | bytes) -> None:
    assert outcome(bounded_json, text) == outcome(reference, text)


@given(ident=st.text(st.characters(min_codepoint=0x20, exclude_characters='"\\'),
                     min_size=1, max_size=64),
       payload=st.dictionaries(st.text(max_size=8), st.integers(), max_size=5))
def test_a_refused_frames_id_is_glanced_as_the_parser_reads_it(
        ident: str, payload: dict[str, int]) -> None:
    """A frame refused for its rate is answered without being parsed (issue #38: a flood
    of 15 KB frames cost a worker its time reading what it refused); the id it names is
    the one JSON would read, for the frames clients send (the id near the start)."""
    for frame in ({"type": "action", "id": ident, "kind": "draw", "payload": payload},
                  {"id": ident, "type": "action", "version": 3}):
        assert glanced_id(json.dumps(frame, ensure_ascii=False)) == ident
        assert glanced_id(json.dumps(frame)) in (ident, None)  # \\u escapes: not glanced
    assert glanced_id('{"type": "ping"}') is None
    assert glanced_id('{"type": "action", "pad": "' + "x" * 300 + '", "id": "late"}') is None
