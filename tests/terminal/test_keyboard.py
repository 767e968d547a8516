"""The terminal's keyboard: lines on a clock, from a script, a pipe or a terminal."""

from __future__ import annotations

import io

import pytest

from twintable.terminal.keyboard import ScriptedKeyboard, StdinKeyboard


def test_a_scripted_line_comes_its_delay_after_the_wait_began() -> None:
    keyboard = ScriptedKeyboard([(1.5, "catch"), (0.2, "2")])
    assert keyboard.read(1.0) is None and keyboard.now() == 1.0  # not typed yet
    assert keyboard.read(1.0) == "catch" and keyboard.now() == 1.5
    assert keyboard.read(None) == "2" and keyboard.now() == pytest.approx(1.7)
    assert keyboard.read(3.0) is None and keyboard.now() == pytest.approx(4.7)
    with pytest.raises(EOFError):
        keyboard.read(None)


def test_piped_lines_answer_prompts_only() -> None:
    keyboard = StdinKeyboard(io.StringIO("1\n2\n"), interactive=False)
    assert keyboard.read(0.0, prompted=False) is None  # nobody asked: the line waits
    assert keyboard.read(0.0) == "1"
    assert keyboard.read(None, prompted=True) == "2"
    with pytest.raises(EOFError):
        keyboard.read(0.0)


def test_terminal_lines_arrive_through_the_reader_thread() -> None:
    keyboard = StdinKeyboard(io.StringIO("timo\r\n"), interactive=True)
    assert keyboard.read(5.0, prompted=False) == "timo"
    with pytest.raises(EOFError):
        keyboard.read(5.0)
    with pytest.raises(EOFError):
        keyboard.read(None)
