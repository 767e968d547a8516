"""Pebbles passes every check of Twin Table's kit (``twintable check pebbles``): one test
per check, through the kit's pytest helper, as any game's own tests can."""

from __future__ import annotations

from twintable.kit.testing import kit_tests

test_twintable_check = kit_tests("pebbles")
