"""Every refusal the server can send a person has a sentence in each language of the
browser client (``web/i18n/<lang>.json``, ``error.<code>``): without one, the client
shows the server's English message to an English reader only and a vague "try again" to
everyone else. The codes are read from the server's source, so a new one is caught."""

from __future__ import annotations

import json
import re
from pathlib import Path

import twintable

PACKAGE = Path(twintable.__file__).resolve().parent
LANGUAGES = ("en", "fr", "ko", "nl")

#: Where the server names a refusal's code: ``LobbyError(404, "table.unknown", ...)``,
#: ``refuse("game.over", ...)``, ``ErrorMessage(code="auth.spectator", ...)`` and the like.
CODE = re.compile(r'(?:LobbyError\(\d+, |refuse\(|code=|code, message = )"([a-z_]+\.[a-z_.]+)"')

#: Codes the browser client never shows, each with why: it never sends what they refuse,
#: or it acts on them itself.
NOT_SHOWN = {
    "auth.required": "the client says hello before anything else",
    "auth.wrong_seat": "the client acts only for the seat its token holds",
    "auth.wrong_table": "the client uses a table's token on that table only",
    "hello.repeated": "the client says hello once per connection",
    "message.invalid": "the client sends only messages the protocol defines",
    "message.too_large": "the client's messages are small",
    "message.unknown_type": "the client sends only messages the protocol defines",
    "method.not_allowed": "the client uses each path's own method",
    "protocol.unsupported": "the client speaks the server's protocol, served with it",
    "table.moved": "the client reconnects to the table's new server by itself",
}


def _codes() -> set[str]:
    found: set[str] = set()
    for source in (PACKAGE / "server").rglob("*.py"):
        found.update(CODE.findall(source.read_text(encoding="utf-8")))
    return found


def test_the_scan_finds_the_servers_codes() -> None:
    codes = _codes()
    assert {"table.unknown", "storage.down", "storage.failed", "game.over"} <= codes
    assert set(NOT_SHOWN) <= codes, set(NOT_SHOWN) - codes  # no stale exemption


def test_every_refusal_a_person_can_see_has_a_sentence_in_every_language() -> None:
    shown = _codes() - set(NOT_SHOWN)
    for language in LANGUAGES:
        catalogue = json.loads((PACKAGE / "web" / "i18n" / f"{language}.json")
                               .read_text(encoding="utf-8"))
        missing = sorted(code for code in shown if f"error.{code}" not in catalogue)
        assert not missing, (language, missing)
