"""Twin It's entry (games/twinit/plugin.py): the rematch rule of chained games and the
pictures a client draws."""

from __future__ import annotations

from twintable.core.game import Outcome
from twintable.games.twinit.plugin import assets, rematch_options


def test_the_last_winners_play_a_french_competitive_rematch_under_taboo() -> None:
    won = Outcome((5, 2, 3), frozenset({0}))
    chained = {"edition": "fr", "mode": "competitive", "taboo": [2]}
    assert rematch_options(chained, won)["taboo"] == [0]
    # The old options are the old table's: the rematch's are a copy.
    assert chained["taboo"] == [2]
    for options in ({"edition": "ko", "mode": "competitive"},
                    {"edition": "fr", "mode": "team", "taboo": [1]}):
        assert rematch_options(options, won) == options
    nobody = Outcome((0, 0), frozenset())
    assert "taboo" not in rematch_options({"edition": "fr", "mode": "competitive"}, nobody)


def test_a_client_gets_every_picture_with_its_name() -> None:
    drawn = assets()
    assert len(drawn["pictures"]) == len(drawn["names"]) > 0
    assert drawn["pictures"][0].lstrip().startswith("<svg")
