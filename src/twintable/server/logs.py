"""Structured logs: one JSON object per line, with the fields passed as ``extra``; secrets
in request paths redacted from the server's logs, and passwords taken out of the service
URLs that a banner or a message names."""

from __future__ import annotations

import json
import logging
import re
import time
from urllib.parse import urlsplit

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)),
                 "level": record.levelname.lower(), "logger": record.name,
                 "message": record.getMessage()}
        entry.update({k: v for k, v in record.__dict__.items() if k not in _STANDARD})
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure(level: str = "info") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("twintable")
    logger.handlers[:] = [handler]
    logger.setLevel(level.upper())
    logger.propagate = False


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
