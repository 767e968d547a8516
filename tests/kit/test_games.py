"""Every installed game passes every check of the kit (``twintable check``): the
built-in games and the example plug-ins alike, found through their entry points."""

from __future__ import annotations

from twintable.kit.testing import kit_tests

test_twintable_check = kit_tests()
