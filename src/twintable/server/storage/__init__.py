"""Event-sourced storage: a row per table and seat, and an append-only action log."""

from twintable.server.storage.store import Store

__all__ = ["Store"]
