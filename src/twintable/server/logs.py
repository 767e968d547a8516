"""Structured logs: one JSON object per line for the app's loggers (``twintable.*``) and
uvicorn's (``uvicorn.error``, ``uvicorn.access``) alike, with a millisecond UTC
timestamp, the fields passed as ``extra`` (``table`` on lines about a table) and the id
of the HTTP request being served; repeated warnings collapsed; secrets in request paths
redacted from the server's logs, and passwords taken out of the service URLs that a
banner or a message names."""

from __future__ import annotations

import json
import logging
import re
import sys
import threading
import time
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

#: Attributes every record has; what else a record carries came as ``extra``. uvicorn
#: passes ``color_message`` (its message with terminal colours) along with its own.
_STANDARD = (set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__)
             | {"message", "color_message", "taskName"})


@dataclass(slots=True)
class Request:
    """The HTTP request being served, as the lines logged meanwhile name it."""

    ident: str
    over: bool = False
    """Answered: a task the request started (a table's timers) inherits this context and
    may log long after; its lines are not the request's."""


#: The request whose handling is running in this context (``server/instrumentation.py``
#: sets it for each HTTP request).
current_request: ContextVar[Request | None] = ContextVar("current_request", default=None)


def timestamp(created: float) -> str:
    """ISO 8601 in UTC with milliseconds: ``2026-12-05T12:32:58.123+00:00``."""
    return datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {"time": timestamp(record.created),
                                 "level": record.levelname.lower(), "logger": record.name,
                                 "message": record.getMessage()}
        request = current_request.get()
        if request is not None and not request.over:
            entry["request_id"] = request.ident
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) \
                and len(record.args) == 5:
            # uvicorn's access line, as fields too: '%s - "%s %s HTTP/%s" %d'.
            client, method, path, _, status = record.args
            entry.update(client=client, method=method, path=path, status=status)
        entry.update({k: v for k, v in record.__dict__.items() if k not in _STANDARD})
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class RepeatedWarnings(logging.Filter):
    """A warning (or worse) repeated is shown ``burst`` times, then once every
    ``every_s`` seconds while it goes on; the lines dropped meanwhile are counted, and
    the next line of that message says how many (``dropped``). A message is its logger,
    level and unformatted text, so lines differing only in their arguments (an error's
    text) count as one: an outage of Redis logged 257 warnings in a minute (issue 38),
    and a minute of it with a request a second still made 60 lines of one warning."""

    def __init__(self, burst: int = 5, every_s: float = 10.0, clock: Any = time.monotonic):
        super().__init__()
        self.burst, self.every_s, self.clock = burst, every_s, clock
        self.buckets: dict[tuple[str, int, str], list[float]] = {}
        """Each message's [lines it may still show, when that was counted, lines dropped]."""
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        with self.lock:
            bucket = self.buckets.get(key)
            if bucket is None:
                if len(self.buckets) > 1000:  # messages made of varying text
                    self.buckets = {k: b for k, b in self.buckets.items()
                                    if b[2] or now - b[1] < self.every_s * self.burst}
                bucket = self.buckets[key] = [float(self.burst), now, 0]
            left = min(self.burst, bucket[0] + (now - bucket[1]) / self.every_s)
            if left >= 1:
                if bucket[2]:
                    record.dropped = int(bucket[2])
                bucket[:] = [left - 1, now, 0]
                return True
            bucket[:] = [left, now, bucket[2] + 1]
            return False


#: The loggers that :func:`configure` sends to one JSON stream.
SERVER_LOGGERS = ("twintable", "uvicorn", "uvicorn.access")


def configure(level: str = "info") -> None:
    """Send the app's and uvicorn's logs to standard error as JSON lines (without
    ``logging.config``: it closes every handler of the process, a test runner's too)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RedactSecrets())
    handler.addFilter(RepeatedWarnings())
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
    logging.getLogger("uvicorn.error").setLevel(level.upper())


def uvicorn_log_config(level: str = "info") -> dict[str, Any]:
    """:func:`configure`'s set-up as ``logging.config`` takes it: uvicorn applies it in
    each worker process as it starts, before its first line."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "filters": {"secrets": {"()": RedactSecrets},
                    "repeats": {"()": RepeatedWarnings}},
        "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json",
                              "stream": "ext://sys.stderr",
                              "filters": ["secrets", "repeats"]}},
        "loggers": {**{name: {"handlers": ["json"], "level": level.upper(),
                              "propagate": False} for name in SERVER_LOGGERS},
                    "uvicorn.error": {"level": level.upper()}},
    }


#: A private table's invite key in a query string (``?key=...``, ``&key=...``).
_SECRET_IN_QUERY = re.compile(r"([?&](?:key|token)=)[^&\s\"]*")


def redacted(text: str) -> str:
    """``text`` with the secrets a URL may carry replaced by ``…``."""
    return _SECRET_IN_QUERY.sub(r"\1…", text)


#: A password given as a URL's query parameter (asyncpg takes ``?password=``).
_PASSWORD_IN_QUERY = re.compile(r"(?i)([?&]password=)[^&#]*")


def without_password(url: str) -> str:
    """A database or Redis URL as it may be shown: its password, in the user part or in
    the query, replaced by ``***`` (SQLAlchemy's ``hide_password`` does the same, but
    only for URLs it can parse, and Redis URLs are not among them)."""
    netloc = urlsplit(url).netloc
    user, at, place = netloc.rpartition("@")
    if at and ":" in user:
        # In place, not rebuilt: urlunsplit drops the empty host of sqlite:////path.
        url = url.replace(netloc, f"{user.split(':', 1)[0]}:***@{place}", 1)
    return _PASSWORD_IN_QUERY.sub(r"\1***", url)


class RedactSecrets(logging.Filter):
    """Invite keys in request paths never reach a log (uvicorn's access log and its
    WebSocket lines print the path with its query)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redacted(arg) if isinstance(arg, str) else arg
                                for arg in record.args)
        if isinstance(record.msg, str):
            record.msg = redacted(record.msg)
        return True


def redact_server_logs() -> None:
    """Put :class:`RedactSecrets` on uvicorn's loggers (once uvicorn configured them)."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
