"""Bots with a noise at server tables (``medium@0.2``, bots/noise.py): the lobby takes a
level or a bot with a noise, refuses a malformed noise at the edge and a user's agent
(a table never imports code nor reads a file a request names), and the bot plays."""

from __future__ import annotations

from tests.server.client import app_client, auth, create_table, hello, play_to_end, start
from twintable.bots.noise import NoisyBot
from twintable.bots.registry import resolve_bot
from twintable.core.registry import default_registry


def test_a_noisy_level_is_seated_plays_and_is_refused_when_malformed(sqlite_url: str) -> None:
    entry = default_registry().entry("timo")
    medium = resolve_bot(entry, "medium")
    assert medium is not None
    with app_client(sqlite_url) as client:
        joined = create_table(client, "timo", 3, {"target": 1},
                              seats=[{"kind": "human"}, {"kind": "bot", "bot": "medium@0.2"},
                                     {"kind": "bot", "bot": "Easy"}])
        table_id, creator = joined["table"]["id"], auth(joined["token"])
        seats = client.get(f"/api/tables/{table_id}").json()["seats"]
        # A level is seated as the bot it names, with its noise: what results name.
        assert seats[1]["bot"] == f"{medium}@0.2"
        assert seats[2]["bot"] == resolve_bot(entry, "easy")

        for bad in ("medium@2", "medium@", "medium@lots", "@0.2"):
            refused = client.put(f"/api/tables/{table_id}/seats/2/bot", json={"bot": bad},
                                 headers=creator)
            assert refused.status_code == 422, bad
            body = refused.json()
            assert body["code"] == "request.invalid" and "noise" in body["message"], body
            assert body["details"]["errors"][0]["loc"][-1] == "bot"
        for agent in ("agent.zip", "policy.npz", "os:system", "agent.zip@0.2", "oracle@0.2"):
            refused = client.put(f"/api/tables/{table_id}/seats/2/bot", json={"bot": agent},
                                 headers=creator)
            assert refused.json()["code"] == "bot.unknown", agent
        # The same checks guard a new table.
        made = client.post("/api/tables", json={
            "game": "timo", "players": 2, "display_name": "Ann",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "hard@1.5"}]})
        assert made.status_code == 422 and "noise" in made.json()["message"]

        assert client.put(f"/api/tables/{table_id}/seats/2/bot", json={"bot": "random@0.5"},
                          headers=creator).status_code == 200
        assert client.get(f"/api/tables/{table_id}").json()["seats"][2]["bot"] == "random@0.5"
        start(client, table_id, joined["token"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as player:
            hello(player, joined["token"])
            play_to_end(player)
            server = client.app.state.server  # type: ignore[attr-defined]
            bots = server.tables[table_id].automation.bots
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
    # Both bots played (a target of 1 point: the first hand ends the game), with noise.
    assert sorted(bots) == [1, 2] and all(isinstance(bot, NoisyBot) for bot in bots.values())
    assert bots[1].noise == 0.2 and bots[2].noise == 0.5
