"""The four built-in games, each in its own package (``games/<id>/``) that declares itself
in ``plugin.py`` like any other game's package. Nothing here finds or registers them:
discovery is the core's (``twintable.core.registry.default_registry``), through the
``twintable.games`` entry points twintable's own ``pyproject.toml`` declares."""
