"""The game kit: every check the project runs on its own games, for any installed game.

``twintable check GAME`` (``cli/check.py``) prints them; ``twintable.kit.testing`` runs
them under pytest (a game's own tests, and the project's over every game it finds). The
kit names no game: it reads each game's entry and declared type (``core/gametype.py``)
and runs the checks that apply (``checks.py``).
"""

from twintable.kit.checks import CHECKS, CheckResult, check_game

__all__ = ["CHECKS", "CheckResult", "check_game"]
