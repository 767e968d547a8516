"""Typed lines that arrive while the game goes on: the terminal's input, on a clock.

The terminal loops of games where time matters (Timo's Twist's TIMO! races, Twinz's
guessing) wait for a typed line *or* a moment on the clock, whichever comes first: bots
act at their planned time unless the person typed first. Both the lines and the clock
come from a :class:`Keyboard`, so tests drive those loops with lines typed at set
moments on a virtual clock, and never sleep.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Protocol, TextIO


class Keyboard(Protocol):
    """Where the person's lines and the time come from."""

    def now(self) -> float:
        """Seconds on a monotonic clock."""
        ...

    def read(self, timeout: float | None, prompted: bool = True) -> str | None:
        """The next typed line (without its newline), or None once ``timeout`` seconds
        have passed without one (None: wait as long as it takes). Raises EOFError when the
        input has ended. ``prompted``: the person has been asked for something (their
        turn, a clue, a guess); input from a file or a pipe is answers to prompts, handed
        over only then."""
        ...


class StdinKeyboard:
    """Lines from a text stream (standard input). From a terminal, a background thread
    reads them, so that a wait for a line can give up when a bot's moment comes. From a
    file or a pipe (a script answering prompts, as the tests' runner does), a line is read
    only when the person is prompted, at once: nothing typed ahead is lost to a moment
    when nobody asked."""

    def __init__(self, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 interactive: bool | None = None):
        self._stream = stream if stream is not None else sys.stdin
        self._clock = clock
        if interactive is None:
            try:
                interactive = self._stream.isatty()
            except (AttributeError, ValueError):
                interactive = False
        self.interactive = interactive
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader: threading.Thread | None = None
        self._ended = False

    def now(self) -> float:
        return self._clock()

    def _read_lines(self) -> None:
        try:
            for line in iter(self._stream.readline, ""):
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):  # the stream was closed under us
            pass
        self._lines.put(None)

    def read(self, timeout: float | None, prompted: bool = True) -> str | None:
        if self._ended:
            raise EOFError
        if not self.interactive:
            if not prompted and timeout is not None:
                time.sleep(max(0.0, timeout))
                return None
            line = self._stream.readline()
            if not line:
                self._ended = True
                raise EOFError
            return line.rstrip("\r\n")
        if self._reader is None:
            # A daemon: a reader still blocked on the terminal never holds the exit up.
            self._reader = threading.Thread(target=self._read_lines, daemon=True,
                                            name="twintable-keyboard")
            self._reader.start()
        try:
            line = self._lines.get(timeout=None if timeout is None else max(0.0, timeout))
        except queue.Empty:
            return None
        if line is None:
            self._ended = True
            raise EOFError
        return line


class ScriptedKeyboard:
    """A person on a virtual clock: each line is typed ``delay`` seconds after the
    terminal began waiting for it (after the previous line), or with ``on_prompt``, after
    the person was first prompted since then. Waiting moves the clock on instead of
    sleeping; when the script runs out, the input ends (EOFError) as soon as the terminal
    waits for a line with no moment to wake up at."""

    def __init__(self, script: Iterable[tuple[float, str]], start: float = 0.0,
                 on_prompt: bool = False):
        self.script = deque(script)
        self.clock = start
        self.on_prompt = on_prompt
        self._since: float | None = None
        self.typed: list[tuple[float, str]] = []

    def now(self) -> float:
        return self.clock

    def read(self, timeout: float | None, prompted: bool = True) -> str | None:
        if self._since is None and (prompted or not self.on_prompt):
            self._since = self.clock
        if self.script and self._since is not None:
            delay, line = self.script[0]
            due = max(self.clock, self._since + delay)
            if timeout is None or due <= self.clock + timeout:
                self.script.popleft()
                self.clock, self._since = due, None
                self.typed.append((due, line))
                return line
        if timeout is None:
            raise EOFError
        self.clock += max(0.0, timeout)
        return None
