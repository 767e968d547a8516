"""The four games. Each lives in its own package and never imports the server."""

from __future__ import annotations

from twintable.core.registry import GameRegistry


def default_registry() -> GameRegistry:
    """A registry holding every built-in game (registered here, not on import)."""
    from twintable.games.timo import TimoGame
    from twintable.games.twinit import TwinItGame
    from twintable.games.twins import TwinsGame
    from twintable.games.twinz import TwinzGame

    registry = GameRegistry()
    registry.register(TimoGame())
    registry.register(TwinsGame())
    registry.register(TwinItGame())
    registry.register(TwinzGame())
    return registry
