"""The error every environment raises for an action its mask forbids."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action index whose mask bit is 0 (or no index at all where one is needed).

    The environment is left exactly as it was: an illegal action is refused, never
    replaced by a legal one.
    """


class OpponentMoveError(RuntimeError):
    """A bot playing another seat chose a move the environment does not allow now.

    Raised by the environments that seat the project's bots (``twintable.envs.gym``), so a
    bot's mistake is never reported as the learner's: the message names the bot and its
    seat. It is not an :class:`IllegalActionError`, which code may catch to punish the
    learner.
    """
