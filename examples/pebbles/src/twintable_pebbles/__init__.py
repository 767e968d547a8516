"""Pebbles, a Twin Table plug-in: a heap of pebbles, players take one to three in turn,
and whoever takes the last one wins (or, in the misère variant, loses).

Nothing is hidden and nothing is left to chance: the second example game, written from
docs/adding-a-game.md to prove that the kit (``twintable check pebbles``) passes a game
of perfect information.
"""
