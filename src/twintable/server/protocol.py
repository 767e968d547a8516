"""The versioned JSON protocol: every message between a client and the server.

Client to server, over one WebSocket per client (``/ws/tables/{table_id}``): ``hello``
(with the seat token, or none to spectate), ``action``, ``ping``, and the table's talk:
``chat``, ``react``, ``chat_setting``. Server to client: ``welcome``, ``snapshot``,
``event``, ``ack``, ``error``, ``table``, ``pong``, ``chat``. The lobby
speaks plain HTTP with the request and response models below. docs/protocol.md explains
the flow; ``twintable protocol-schema`` prints the JSON Schema of all of it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from twintable.bots.noise import split_noise

PROTOCOL_VERSION = 1

#: Format characters that reorder or hide text (bidi overrides and isolates, zero-width
#: joiners, the BOM...): in a name they can disguise one player as another.
_HIDDEN = frozenset(chr(c) for c in (*range(0x200B, 0x2010), *range(0x202A, 0x202F),
                                     *range(0x2060, 0x2070), 0xFEFF, 0x00AD, 0x180E))


def _plain_name(name: str) -> str:
    """A name as people will see it: NFC, trimmed; refused when it holds control
    characters (C0, DEL, C1 such as U+0085), line or paragraph separators, text
    direction overrides, or nothing visible at all."""
    name = unicodedata.normalize("NFC", name).strip()
    for char in name:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp") or char in _HIDDEN or char in "<>":
            raise ValueError(f"names may not contain U+{ord(char):04X}")
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        raise ValueError("a name needs at least one visible character")
    return name


#: The name rules as a JSON Schema pattern (for clients and schema-driven testers), a
#: little stricter than :func:`_plain_name`, which stays the rule: none of the characters
#: it refuses, and at least one letter or digit (``\w``: Unicode letters and digits in
#: Python, ASCII ones in JavaScript; a name of punctuation or symbols alone is accepted
#: but not described).
_NAME_REFUSED = (r"\x00-\x1f\x7f-\x9f<>\u00ad\u180e\u200b-\u200f\u2028-\u202e"
                 r"\u2060-\u206f\ufeff")
NAME_PATTERN = rf"^[^{_NAME_REFUSED}]*\w[^{_NAME_REFUSED}]*$"


@dataclass(frozen=True)
class DescribedPattern:
    """Adds ``pattern`` to a string's JSON Schema without checking it (the validators
    check what it describes)."""

    pattern: str

    def __get_pydantic_json_schema__(self, core: CoreSchema,
                                     handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        schema = handler(core)
        schema["pattern"] = self.pattern
        return schema


DisplayName = Annotated[str, StringConstraints(min_length=1, max_length=40),
                        AfterValidator(_plain_name), DescribedPattern(NAME_PATTERN)]
PlayerId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
Token = Annotated[str, StringConstraints(min_length=16, max_length=100)]
InviteKey = Annotated[str, StringConstraints(min_length=1, max_length=100)]


def _bot_choice(name: str) -> str:
    """A bot's name or level, with a noise or without (``medium@0.2``: a random legal
    move one time in five, bots/noise.py); a malformed noise is refused here, what the
    name seats by the game (``bot.unknown``)."""
    split_noise(name)
    return name


#: A bot for a seat, as the lobby's requests name it: ``medium``, ``heuristic``,
#: ``medium@0.2``.
BotChoice = Annotated[str, StringConstraints(min_length=1, max_length=64),
                      AfterValidator(_bot_choice)]


def _whole_number(value: Any) -> Any:
    """JSON has one kind of number, and JSON Schema (so the OpenAPI schema) counts 3.0 as
    the integer 3: a whole float is read as that integer; 3.5, "3" and true stay refused."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


#: Read an HTTP request body's integer with it (the WebSocket's moves stay exact: 1.0 is
#: not 1).
WHOLE = BeforeValidator(_whole_number)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- client -> server over the WebSocket ---------------------------------------------
class Hello(Strict):
    """First message: who is connecting. Without a token the client spectates."""

    type: Literal["hello"]
    protocol: Annotated[int, Field(strict=True)] = PROTOCOL_VERSION
    token: Token | None = None
    key: InviteKey | None = None
    """A private table's invite secret: a spectator needs it (a seat token is enough)."""
    redirects: bool = False
    """The client follows a ``moved`` answer: with several workers, a client that reached
    a worker other than its table's is then sent to that worker's own address rather than
    served through it (each frame crossing Redis twice)."""
    since: Annotated[int, Field(ge=0, strict=True)] | None = None
    """The state version up to which this client has told the table's story: the moves
    after it come first, as ``missed`` events, then the snapshot (when the server still
    keeps them all; a snapshot with a later version says some are not told)."""


class ActionMessage(Strict):
    """A move. ``id`` is chosen by the client (a resend with the same id is answered with
    the first answer); ``version`` is the state version the move was made against. In a
    real-time game (Twin It) a client may leave ``version`` out: every touch races anyway,
    and the move itself names what it expects (the picture on the touched card)."""

    type: Literal["action"]
    id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    version: Annotated[int, Field(ge=0, strict=True)] | None = None
    kind: Annotated[str, StringConstraints(min_length=1, max_length=32)]
    payload: dict[str, Any] = Field(default_factory=dict)
    seat: Annotated[int, Field(strict=True)] | None = None
    """Optional check: the seat the client believes it holds."""
    table: str | None = None
    """Optional check: the table the client believes it is at."""


class Ping(Strict):
    type: Literal["ping"]


#: The longest chat line, in characters (after trimming).
CHAT_MAX_CHARS = 200
#: The quick reactions: a fixed set of emotes, shown as themselves in every language.
Reaction = Literal["👍", "👏", "😂", "😮", "😢", "😡", "🎉", "🤝"]
REACTIONS: tuple[str, ...] = get_args(Reaction)


def _chat_text(text: str) -> str:
    """A chat line as people will see it: NFC, trimmed, one line; refused when it holds
    control characters or the format characters that reorder or hide text (as names)."""
    text = unicodedata.normalize("NFC", text).strip()
    for char in text:
        if unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in _HIDDEN:
            raise ValueError(f"chat lines may not contain U+{ord(char):04X}")
    if not text:
        raise ValueError("a chat line needs at least one visible character")
    return text


ChatText = Annotated[str, StringConstraints(max_length=CHAT_MAX_CHARS, strip_whitespace=True),
                     AfterValidator(_chat_text)]


class ChatSay(Strict):
    """A line of chat. A seated player's goes to the players' channel, a spectator's to
    the spectators' (``name``: the spectator's name; seats speak under their own)."""

    type: Literal["chat"]
    id: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None
    text: ChatText
    name: DisplayName | None = None


class ChatReact(Strict):
    """A quick reaction: one of :data:`REACTIONS`, on the sender's channel."""

    type: Literal["react"]
    id: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None
    emote: Reaction
    name: DisplayName | None = None


class ChatSetting(Strict):
    """The table's host (its creator's seat) turns the table's chat on or off."""

    type: Literal["chat_setting"]
    id: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None
    enabled: bool


ChatMessage = ChatSay | ChatReact | ChatSetting
ClientMessage = Annotated[Hello | ActionMessage | Ping | ChatSay | ChatReact | ChatSetting,
                          Field(discriminator="type")]
#: The type of every client message, for the first look at a frame. A tuple, not a set:
#: a frame's "type" may be any JSON value, and a set cannot be asked about a dict.
CLIENT_TYPES = ("hello", "action", "ping", "chat", "react", "chat_setting")
client_message = TypeAdapter(ClientMessage)

_ACTION_KEYS = frozenset(ActionMessage.model_fields)


def quick_action(data: dict[str, Any]) -> ActionMessage | None:
    """A move as :data:`client_message` would read it, checked without pydantic (the
    path every move takes); None when any field is not plainly right, and then pydantic
    judges it, so a refusal's code and message are always pydantic's. Only what pydantic
    would accept unchanged passes here."""
    if data.get("type") != "action" or not _ACTION_KEYS.issuperset(data):
        return None
    ident, kind = data.get("id"), data.get("kind")
    version, seat = data.get("version"), data.get("seat")
    payload, table = data.get("payload", {}), data.get("table")
    if (type(ident) is not str or not 1 <= len(ident) <= 64
            or type(kind) is not str or not 1 <= len(kind) <= 32
            or not (version is None or (type(version) is int and version >= 0))
            or not (seat is None or type(seat) is int)
            or type(payload) is not dict
            or not (table is None or type(table) is str)):
        return None
    return ActionMessage.model_construct(
        type="action", id=ident, version=version, kind=kind, payload=payload, seat=seat,
        table=table)


def chat_refusal(message_id: str | None, error: ValidationError) -> ErrorMessage:
    """A chat message pydantic refused, with the code a person's client explains."""
    first = error.errors()[0]
    where = [str(part) for part in first["loc"]]
    if where and where[0] in ("chat", "react", "chat_setting"):
        where = where[1:]  # the union's tag
    field = where[0] if where else ""
    if field == "text" and first["type"] == "string_too_long":
        return ErrorMessage(id=message_id, code="chat.too_long",
                            message=f"chat lines have at most {CHAT_MAX_CHARS} characters",
                            details={"max": CHAT_MAX_CHARS})
    if field == "text":
        return ErrorMessage(id=message_id, code="chat.invalid",
                            message="a chat line needs visible text, on one line, "
                                    "without control characters")
    if field == "emote":
        return ErrorMessage(id=message_id, code="chat.unknown_reaction",
                            message="that is not one of the table's quick reactions")
    return ErrorMessage(id=message_id, code="message.invalid",
                        message=f"{'.'.join(map(str, first['loc']))}: {first['msg']}")


# -- server -> client over the WebSocket ---------------------------------------------
class SeatInfo(BaseModel):
    seat: int
    kind: Literal["empty", "human", "bot"]
    bot: str | None = None
    display_name: str | None = None
    connected: bool = False
    stand_in: bool = False
    """A bot is playing this person's moves (away past the grace period, or out of time)."""
    conceded: bool = False
    """The person conceded: a stand-in plays the seat to the end, and it is rated a loss."""
    reserved: bool = False
    """An empty seat kept for the person who held it at the table this one rematches
    (``display_name`` is theirs); they take it with ``POST .../rematch`` there."""


class TableInfo(BaseModel):
    id: str
    game: str
    name: str
    host_name: str | None = None
    """The creator's name when the table has no name of its own: clients show the name
    in their language ("{host_name}'s table"); ``name`` is the English fallback."""
    private: bool = False
    """Reached only through its invite link (the secret ``key``), never listed."""
    players: int
    status: Literal["open", "running", "finished", "abandoned"]
    options: dict[str, Any]
    seats: list[SeatInfo]
    result: dict[str, Any] | None = None
    turn_limit_s: int | None = None
    grace_s: int = 60
    creator_seat: int = 0
    """The seat whose token manages the table before the start (a rematch keeps seats, so
    its creator may sit anywhere)."""
    rematch: str | None = None
    """Once finished: the table of the rematch, when someone asked for one."""
    rematch_of: str | None = None
    chat: bool = True
    """Whether the table's chat and reactions are on (its host turns them off)."""
    tutorial: bool = False
    """A guided first game: clients show its game's hints (``GameInfo.tutorial``)."""


class Welcome(BaseModel):
    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    table: TableInfo
    seat: int | None


class Snapshot(BaseModel):
    """The viewer's whole view; sent on connect, on resume and when the game starts."""

    type: Literal["snapshot"] = "snapshot"
    seq: int
    version: int
    view: dict[str, Any]


class EventFrame(BaseModel):
    """What one accepted action changed, as this viewer may see it, and the new view."""

    type: Literal["event"] = "event"
    seq: int
    version: int
    seat: int
    kind: str
    events: list[dict[str, Any]]
    missed: bool = False
    """A move told to a client that came back after it (its hello's ``since``), before
    its snapshot: the view is the one of now, not the move's."""
    view: dict[str, Any]


class Ack(BaseModel):
    type: Literal["ack"] = "ack"
    id: str
    seq: int
    version: int


class ErrorMessage(BaseModel):
    type: Literal["error"] = "error"
    id: str | None = None
    code: str
    message: str
    details: dict[str, Any] = Field(default_factory=dict)


def _plain_json(value: Any) -> Any:
    """What orjson cannot write itself, as pydantic writes it (a view's read-only mapping,
    a set)."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, set | frozenset):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _dumps(value: Any) -> str:
    return orjson.dumps(value, default=_plain_json).decode()


def event_frame(seq: int, version: int, seat: int, kind: str,
                events: list[dict[str, Any]], view: dict[str, Any],
                shared: bytes = b"", missed: bool = False) -> str:
    """:class:`EventFrame`'s JSON, written by orjson: one is made per distinct view of
    each move, on the hot path (pydantic's validation and writer cost several times
    more; tests/server/test_protocol.py checks that the two agree).

    ``shared``: more keys of the view, already written (:func:`shared_keys`): the keys
    every seat sees alike are written once per move, not once per seat."""
    head: dict[str, Any] = {"type": "event", "seq": seq, "version": version, "seat": seat,
                            "kind": kind, "events": events}
    if missed:
        head["missed"] = True
    framed = orjson.dumps(head | {"view": view}, default=_plain_json)
    if shared:
        # The view is the frame's last key: the text ends with its brace, then the frame's.
        framed = b"".join((framed[:-2], b"," if view else b"", shared, b"}}"))
    return framed.decode()


def shared_keys(view: dict[str, Any]) -> bytes:
    """The keys of a view written as they go inside a JSON object (no braces), for
    :func:`event_frame`."""
    return orjson.dumps(view, default=_plain_json)[1:-1] if view else b""


def snapshot_frame(seq: int, version: int, view: dict[str, Any]) -> str:
    """:class:`Snapshot`'s JSON, written by orjson."""
    return _dumps({"type": "snapshot", "seq": seq, "version": version, "view": view})


def ack_frame(ident: str, seq: int, version: int) -> str:
    """:class:`Ack`'s JSON, written by orjson."""
    return _dumps({"type": "ack", "id": ident, "seq": seq, "version": version})


#: The most steps one page of a replay holds (``/replay/steps?count=``): each step carries
#: every seat's view, so a page stays small enough to draw its first frame at once.
REPLAY_PAGE_MAX = 100
#: The steps a page holds when the client does not say.
REPLAY_PAGE_DEFAULT = 40


class ReplayPage(BaseModel):
    """Steps ``from`` to ``from + len(steps) - 1`` of a finished game's replay; step 0 is
    the deal, step ``n`` follows move ``n``, and the last is step ``moves``."""
    start: int = Field(serialization_alias="from")
    moves: int
    steps: list[dict[str, Any]]


class ChatLine(BaseModel):
    """One line of a table's talk: a chat line (``text``) or a quick reaction (``emote``).
    Chat is never a game view: it holds only what a person typed or a bot's emote.

    ``channel``: ``players`` (seated players and bots; every client sees it) or
    ``spectators`` (seen by spectators only while the game is played, and by everyone in
    the replay). ``author``: who said it, stable at this table (``seat:<n>``, or
    ``watcher:<id>`` for a spectator: a keyed hash of their address group, the same
    across their tabs and reconnections), for a viewer's mute. ``seq``: the
    moves made when it was said: the replay shows it at that step."""

    n: int
    channel: Literal["players", "spectators"]
    author: str
    seat: int | None = None
    name: str
    bot: bool = False
    text: str | None = None
    emote: str | None = None
    seq: int
    t_ms: int


class ChatFrame(BaseModel):
    """New lines of the table's talk, oldest first. ``history``: the latest lines this
    client may see, sent after its snapshot when it connects (they replace what it
    shows); otherwise one line just said."""

    type: Literal["chat"] = "chat"
    lines: list[ChatLine]
    history: bool = False


class ReplayChat(BaseModel):
    """A finished game's talk, both channels, each line placed at its replay step
    (``seq``)."""

    lines: list[ChatLine]


class TableUpdate(BaseModel):
    type: Literal["table"] = "table"
    table: TableInfo


class Pong(BaseModel):
    type: Literal["pong"] = "pong"


class Moved(BaseModel):
    """The answer to a hello with ``redirects`` on a worker that does not run the table:
    the connection closes (1012); connect to ``url`` and say the same hello there."""

    type: Literal["moved"] = "moved"
    url: str


ServerMessage = Annotated[Welcome | Snapshot | EventFrame | Ack | ErrorMessage | TableUpdate
                          | Pong | Moved | ChatFrame, Field(discriminator="type")]


# -- the lobby over HTTP ------------------------------------------------------------
class SeatRequest(Strict):
    kind: Literal["human", "bot"]
    bot: BotChoice | None = None
    """A bot's name or level, optionally with a noise (``medium@0.2``)."""


class CreateTable(Strict):
    game: str
    players: Annotated[int, Field(ge=1, le=10, strict=True), WHOLE]
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] | None = None
    """Per seat: a human place or a bot; default: seat 0 for the creator, bots elsewhere."""
    name: DisplayName | None = None
    display_name: DisplayName
    player_id: PlayerId | None = None
    """A profile's public id, to be rated; it needs the profile's ``player_secret``."""
    player_secret: Token | None = None
    turn_limit_s: Annotated[int, Field(ge=1, le=3600, strict=True), WHOLE] | None = None
    """Seconds a person has for a move before a bot plays it for them (none: no limit)."""
    grace_s: Annotated[int, Field(ge=0, le=3600, strict=True), WHOLE] = 60
    """Seconds a person may be disconnected before a bot takes their seat (until they
    return)."""
    private: bool = False
    """A private table is never listed; joining or watching it needs the invite link's
    secret key (``Joined.key``, 192 random bits; the server keeps only its hash)."""
    tutorial: bool = False
    """The game's guided first game (``GameInfo.tutorial``): its own deal, seats and bot
    replace ``players``, ``options`` and ``seats``; private and never rated."""


class JoinTable(Strict):
    display_name: DisplayName
    player_id: PlayerId | None = None
    player_secret: Token | None = None
    seat: Annotated[int, Field(ge=0, strict=True), WHOLE] | None = None
    key: InviteKey | None = None
    """A private table's invite secret (from its invite link)."""


class CreateProfile(Strict):
    display_name: DisplayName


class RenameProfile(Strict):
    display_name: DisplayName


class Profile(BaseModel):
    """A player's identity. ``secret`` is sent once, when the profile is made: the browser
    keeps it (and can move it to another device); the server keeps only its hash."""

    player_id: str
    display_name: str
    secret: str | None = None


#: How far a player went with a game's guided first game.
GuidedHow = Literal["started", "skipped", "done"]


class MarkGuided(Strict):
    """What a profile did with a game's guided game (the lobby offers it no more)."""

    how: GuidedHow


class GuidedGames(BaseModel):
    """The games whose guided game a profile started, skipped or finished, and how."""

    games: dict[str, GuidedHow]


class SeatBot(Strict):
    bot: BotChoice
    """A bot's name or level, optionally with a noise (``medium@0.2``)."""


class Joined(BaseModel):
    table: TableInfo
    seat: int
    token: str
    invite: str
    key: str | None = None
    """A private table's invite secret (also in ``invite``), for the creator and those who
    joined with it to pass on."""
    socket: str | None = None
    """With several workers, the table's WebSocket at the own address of the worker that
    runs it (when that worker has one): a client connects there at once, instead of
    reaching another worker and being sent on with ``moved``. None: connect to
    ``/ws/tables/{id}`` at the server's address."""


class BotLevelInfo(BaseModel):
    """A bot's level on the scale people see (``beginner``, ``easy``, ``medium``,
    ``hard``, ``expert``): clients show the level, never the bot's id."""

    bot: str
    level: str


class WebModule(BaseModel):
    """Where a game's browser module lives: its ES module (the fixed client interface),
    its style sheets, the folder of its strings (``<lang>.json``) and its bot ladder;
    ``pictures``: a small module of what the lobby and the rules pages draw (``facts``,
    ``picture``, ``drawCard``), so that they never load the board (None: they use
    ``module``)."""

    module: str
    styles: list[str]
    i18n: str | None = None
    pictures: str | None = None
    ladder: str | None = None
    """The game's bot ladder (``web/ladder.json``: its bots rated against each other by
    table size, ``twintable.sim.ladder``), shown in the leaderboard's bots tab; None when
    the game ships none."""


class TutorialStepInfo(BaseModel):
    """One hint of a guided game (``core/tutorial.py``): what it points at (a CSS
    selector), its catalogue key, and when it is done: ``{"move": kind}`` (the player's
    move), ``{"event": kind, "mine": bool}`` or ``{"next": true}`` (the player read it)."""

    id: str
    anchor: str
    text: str
    advance: dict[str, Any]
    keep: str = ""
    """What the bubble must leave in sight (a CSS selector; empty: the seat and hand)."""


class TutorialInfo(BaseModel):
    steps: list[TutorialStepInfo]


class GameInfo(BaseModel):
    """A game, as its plug-in entry declares it (``core/plugin.py``). Each option carries
    its ``unit`` (``ms``, ``s``, ``points``, ``cards``, ``chips``, ``hands`` or null),
    whether its values are seat numbers (``names_seats``) and, where set, the ``modes`` it
    applies to."""

    id: str
    name: str
    min_players: int
    max_players: int
    options: list[dict[str, Any]]
    bots: list[str]
    default_bot: str = "random"
    players_by_mode: dict[str, list[int]] | None = None
    """For a game with a ``mode`` option: the [fewest, most] players of each mode."""
    levels: list[BotLevelInfo] = []
    """The level of every bot in ``bots``."""
    unversioned_kinds: list[str] = Field(default_factory=list)
    """Kinds a client sends without a state version (they race by nature)."""
    rematch: bool = False
    """True when the game changes the options of a rematch (the server applies it)."""
    web: WebModule | None = None
    """The game's browser module (None: the game ships none)."""
    rules_languages: list[str] = []
    """The languages of the game's rules pages."""
    minutes: dict[str, float] = Field(default_factory=dict)
    """How long a game lasts, per mode ("" for a game without modes): measured on the
    simulator's virtual clock (``Game.table_minutes``)."""
    tutorial: TutorialInfo | None = None
    """The hints of the game's guided first game (None: it has none here)."""


class LeaderboardRow(BaseModel):
    """A rated player of one game. ``rating`` is OpenSkill's conservative estimate,
    mu - 3 sigma; ``games``: the rated games played; ``opponents``: the distinct
    opponents (profiles, and bots by kind) of those games; ``rank``: 1 + how many ranked
    players rate higher. ``ranked``: False for a provisional rating (too few games or
    opponents yet), which only its owner is shown, with the rank it would have."""

    player_id: str
    display_name: str
    rating: float
    mu: float
    sigma: float
    games: int
    rank: int
    opponents: int = 0
    ranked: bool = True


class RatingPoint(BaseModel):
    """A rating right after one rated game: the ``games``-th, ended at ``at_ms`` (Unix
    ms) at table ``table_id``; ``rating`` is mu - 3 sigma, as on the leaderboard."""

    games: int
    rating: float
    mu: float
    sigma: float
    table_id: str
    at_ms: int


class PlayerRating(LeaderboardRow):
    """A player's rating of one game, with its history (the latest points, oldest first;
    ratings earned before history was kept start their history at the next game)."""

    game: str
    history: list[RatingPoint]


def json_schema() -> dict[str, Any]:
    """One JSON Schema document for every protocol message."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Twin Table protocol v{PROTOCOL_VERSION}",
        "client_message": TypeAdapter(ClientMessage).json_schema(),
        "server_message": TypeAdapter(ServerMessage).json_schema(),
        "lobby": {model.__name__: model.model_json_schema() for model in (
            CreateTable, JoinTable, SeatBot, Joined, TableInfo, GameInfo, LeaderboardRow)},
    }
