"""SQLAlchemy models. The schema itself is created by the Alembic migrations."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(80))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), index=True)
    creator_hash: Mapped[str] = mapped_column(String(64))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """Table-level settings that are not game rules: turn_limit_s, grace_s."""
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    """The fencing token of the worker that last took the table over (several workers):
    a write carrying an older token is refused, so a worker that lost its lease cannot
    write. Always 0 with one process."""


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "empty", "human" or "bot"
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    display_name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    player_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    t_ms: Mapped[int] = mapped_column(BigInteger)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ProfileRow(Base):
    """A player's identity: the public id is shown on the leaderboard; only the holder of
    the secret (stored as its SHA-256) may play, be rated or be renamed under it."""

    __tablename__ = "profiles"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    secret_hash: Mapped[str] = mapped_column(String(64))
    display_name: Mapped[str] = mapped_column(String(40))
    created_ms: Mapped[int] = mapped_column(BigInteger)


class GuidedGameRow(Base):
    """How far a profile went with a game's guided first game ("started", "skipped" or
    "done"): once there is a row, the lobby offers that guided game no more."""

    __tablename__ = "guided_games"

    player_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"),
                                           primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    how: Mapped[str] = mapped_column(String(16))
    at_ms: Mapped[int] = mapped_column(BigInteger)


class RatingRow(Base):
    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    display_name: Mapped[str] = mapped_column(String(40))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    opponents: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Distinct opponents (profiles, and bots by kind) of its rated games."""


class RatingOpponentRow(Base):
    """How many rated games of one game a player has played against one opponent: a
    profile's id, or ``bot:<kind>``."""

    __tablename__ = "rating_opponents"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    opponent: Mapped[str] = mapped_column(String(64), primary_key=True)
    games: Mapped[int] = mapped_column(Integer)


class RatingHistoryRow(Base):
    """A player's rating of one game right after one of its rated games: the ``games``-th
    (so each rated game adds one row), when it ended and at which table, for the
    player's rating history."""

    __tablename__ = "rating_history"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    table_id: Mapped[str] = mapped_column(String(32))
    at_ms: Mapped[int] = mapped_column(BigInteger)


class ArchivedGameRow(Base):
    """A finished game whose moves left the live ``actions`` table for an archive file
    (``twintable archive``): the file, named relative to the server's archive folder,
    and how many moves it holds for the game."""

    __tablename__ = "archived_games"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    archive: Mapped[str] = mapped_column(String(64))
    moves: Mapped[int] = mapped_column(Integer)
    archived_ms: Mapped[int] = mapped_column(BigInteger)


class ChatLineRow(Base):
    """One line of a table's talk (``server/chat.py``): a chat line or a quick reaction,
    numbered per table; ``seq``: the moves made when it was said (its replay step)."""

    __tablename__ = "chat_lines"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(16))
    author: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    text: Mapped[str | None] = mapped_column(String(400), nullable=True)
    emote: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seq: Mapped[int] = mapped_column(Integer)
    t_ms: Mapped[int] = mapped_column(BigInteger)
