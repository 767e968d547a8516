"""What the server accepts from the network before any route or table sees it.

Every HTTP body and every WebSocket frame is JSON read under the same limits: nesting
depth, string and key length, whole numbers of a sane size, finite numbers only (no
``NaN``: PostgreSQL's ``json`` refuses it, and one such value in a batch used to fail
other tables' moves), and valid Unicode (a lone surrogate cannot be stored or sent back;
PostgreSQL stores no NUL); a path with a NUL is refused too. A body larger than the
limit is refused with 413 before it is read whole. Every answer carries the security
headers a page served on the open internet needs.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import orjson

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class JsonLimits:
    max_depth: int = 16
    max_string: int = 2_000
    max_digits: int = 18
    max_items: int = 1_000
    """Entries in one array or object."""


DEFAULT_LIMITS = JsonLimits()


class BadJson(ValueError):
    """Input refused by :func:`bounded_json`, with a stable code for the client."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > DEFAULT_LIMITS.max_digits:
        raise BadJson("json.number_too_large",
                      f"whole numbers have at most {DEFAULT_LIMITS.max_digits} digits")
    return int(text)


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJson("json.number_too_large", "numbers must be finite")
    return value


def _constant(name: str) -> None:
    raise BadJson("json.not_finite", f"{name} is not a JSON number")


def _check_text(text: str, limits: JsonLimits) -> None:
    if len(text) > limits.max_string:
        raise BadJson("json.string_too_long",
                      f"strings have at most {limits.max_string} characters")
    if "\x00" in text:  # PostgreSQL stores no NUL: one in a move's id failed the move
        raise BadJson("json.bad_unicode", "strings may not contain U+0000")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise BadJson("json.bad_unicode", "strings must be valid Unicode") from None


def check_value(value: Any, limits: JsonLimits = DEFAULT_LIMITS) -> None:
    """Raise BadJson if a parsed JSON value breaks a limit (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, limits)
        elif isinstance(item, dict | list):
            if depth > limits.max_depth:
                raise BadJson("json.too_deep", f"nesting is limited to {limits.max_depth}")
            if len(item) > limits.max_items:
                raise BadJson("json.too_many_items",
                              f"arrays and objects hold at most {limits.max_items} entries")
            if isinstance(item, dict):
                for key, child in item.items():
                    _check_text(key, limits)
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)


#: Whole numbers of at most ``max_digits`` digits lie strictly between -_WHOLE and _WHOLE.
_WHOLE = 10 ** DEFAULT_LIMITS.max_digits


def _plain(value: Any, limits: JsonLimits) -> bool:
    """Whether a value orjson read keeps every limit and holds no number it may have read
    otherwise than ``json.loads`` (orjson reads a whole number past 64 bits as a float;
    floats are rare in messages, so any float takes the slow path)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is str:
            if len(item) > limits.max_string or "\x00" in item:
                return False  # (orjson refuses unpaired surrogates itself)
        elif kind is dict or kind is list:
            if depth > limits.max_depth or len(item) > limits.max_items:
                return False
            if kind is dict:
                for key, child in item.items():
                    if len(key) > limits.max_string or "\x00" in key:
                        return False
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)
        elif kind is int:
            if not -_WHOLE < item < _WHOLE:
                return False
        elif kind is float:
            return False
    return True


def bounded_json(text: str | bytes, limits: JsonLimits = DEFAULT_LIMITS) -> Any:
    """Parse JSON under the limits, or raise BadJson (``json.invalid`` if it is not JSON).

    orjson reads every frame first (a tenth of the standard library's time on a move);
    what it refuses, or reads in a way the limits cannot judge, is read again by
    ``json.loads`` with the limits' hooks, whose answer (the value, or the error and its
    code) is the reference."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    else:
        if _plain(value, limits):
            return value
    return _bounded_json(text, limits)


def _bounded_json(text: str | bytes, limits: JsonLimits) -> Any:
    try:
        value = json.loads(text, parse_int=_whole, parse_float=_real,
                           parse_constant=_constant)
    except BadJson:
        raise
    except RecursionError:
        raise BadJson("json.too_deep", f"nesting is limited to {limits.max_depth}") from None
    except (ValueError, UnicodeDecodeError):
        raise BadJson("json.invalid", "that is not JSON") from None
    check_value(value, limits)
    return value


_ID_NEAR_START = re.compile(r'"id"\s*:\s*"([^"\\\x00-\x1f]{1,64})"')


def glanced_id(text: str) -> str | None:
    """The client's ``id`` as it reads near the start of a frame, without parsing it: a
    frame refused for its rate is answered without reading its JSON (a flood of large
    frames cost a worker its time parsing what it then refused, issue #38). A frame
    whose ``id`` comes late, or an ``id`` key inside its payload, may be misnamed: the
    answer names it only to help an honest client match its refusal."""
    found = _ID_NEAR_START.search(text, 0, 256)
    return found[1] if found else None


def readable_id(text: str | bytes) -> str | None:
    """The client's ``id`` in a frame refused under the limits, when plain JSON still
    reads it (a move with a NaN in its payload): the refusal then names the move it
    refuses. Frames are small by then (the size is checked first)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    ident = data.get("id") if isinstance(data, dict) else None
    if isinstance(ident, str) and 0 < len(ident) <= 64 and ident.isprintable():
        return ident
    return None


#: Sent with every HTTP answer. Scripts and styles only from this server (the client has
#: no inline script; the Twin It art is inline SVG, hence data: images and inline styles
#: on SVG elements), no framing by other sites, no MIME sniffing.
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     b"img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
     b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


#: FastAPI's API pages load Swagger UI and ReDoc from their CDN with an inline script.
API_DOCS_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
     b"style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
     b"img-src 'self' data: https://fastapi.tiangolo.com; worker-src 'self' blob:; "
     b"frame-ancestors 'none'"),
    *SECURITY_HEADERS[1:],
]
API_DOCS_PATHS = frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"})


def _decodes(body: bytes) -> bool:
    """Whether ``body`` is text in the encoding ``json.loads`` would read it in."""
    try:
        body.decode(json.detect_encoding(body))
    except UnicodeDecodeError:
        return False
    return True


def _json_error(status: int, code: str, message: str) -> tuple[int, bytes]:
    return status, json.dumps({"type": "error", "id": None, "code": code,
                               "message": message, "details": {}}).encode()


def with_worker_sockets(headers: list[tuple[bytes, bytes]],
                        sources: list[str]) -> list[tuple[bytes, bytes]]:
    """``headers`` whose policy also lets the page open WebSockets at ``sources``: the
    workers' own ports on the server's public host (``server/public.py``), where
    ``moved`` sends a client; never a host the request named."""
    if not sources:
        return headers
    policy = headers[0][1].replace(b"connect-src 'self'",
                                   f"connect-src 'self' {' '.join(sources)}".encode(), 1)
    return [(headers[0][0], policy), *headers[1:]]


class EdgeMiddleware:
    """Pure ASGI middleware: security headers on every HTTP answer; request bodies capped
    (413 from the Content-Length alone, or as soon as a streamed body passes the cap) and
    JSON bodies read under :class:`JsonLimits` before a route parses them."""

    def __init__(self, app: ASGIApp, max_body_bytes: int = 65_536,
                 worker_sockets: list[str] | None = None):
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.page_headers = with_worker_sockets(SECURITY_HEADERS, worker_sockets or [])
        """The security headers, the policy naming the workers' own sockets."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        extra = API_DOCS_HEADERS if scope["path"] in API_DOCS_PATHS else self.page_headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers") or []) + extra
            await send(message)

        if "\x00" in scope["path"]:  # /api/tables/%00: PostgreSQL cannot even look it up
            await self._refuse(send_with_headers, *_json_error(
                422, "request.invalid", "paths may not contain U+0000"))
            return

        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send_with_headers)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit()
                                     or int(declared) > self.max_body_bytes):
            await self._refuse(send_with_headers, *_json_error(
                413, "request.too_large", f"bodies are limited to {self.max_body_bytes} bytes"))
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_body_bytes:
                await self._refuse(send_with_headers, *_json_error(
                    413, "request.too_large",
                    f"bodies are limited to {self.max_body_bytes} bytes"))
                return
            if not message.get("more_body", False):
                break
        # Media types are case-insensitive, and routes parse "Application/JSON" as JSON.
        if body and b"json" in headers.get(b"content-type", b"json").lower():
            try:
                bounded_json(bytes(body))
            except BadJson as error:
                if error.code != "json.invalid":  # plain bad JSON: the route's own 422
                    await self._refuse(send_with_headers,
                                       *_json_error(422, error.code, error.message))
                    return
                if not _decodes(bytes(body)):  # the route would answer a bare 400
                    await self._refuse(send_with_headers, *_json_error(
                        422, "request.invalid", "the body is not text in a JSON encoding"))
                    return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)

    @staticmethod
    async def _refuse(send: Send, status: int, body: bytes) -> None:
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
