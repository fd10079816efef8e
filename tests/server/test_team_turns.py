"""Team turns through the server: two seats of one team act at once through the guarded door, each for its
own power; a joint phase waits for both; undo takes back one member's action and keeps the other's."""

from __future__ import annotations

import threading
from typing import Any

import httpx

from aare.server.verify import verify_export
from tests.server.conftest import Player
from tests.teamturns.family import RULES, install

install()
OPTIONS = {"weapons_development": False}


def _team_game(alice: Player, bob: Player) -> str:
    answer = alice.post("/games", {"ruleset": RULES, "options": OPTIONS, "seats": {"Germany": "me"}})
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    assert bob.post(f"/games/{game_id}/seats/Japan/take").status_code == 204
    return game_id


def _act(player: Player, game_id: str, action: dict[str, Any], version: int) -> httpx.Response:
    return player.post(f"/games/{game_id}/actions", {"action": action, "version": version})


def test_two_seats_of_a_team_act_at_once(player: Player, other_player: Player) -> None:
    alice, bob = player, other_player
    game_id = _team_game(alice, bob)
    view = alice.view(game_id)
    assert view["acting"] == ["Germany", "Japan"] and view["your_turn"]
    assert bob.view(game_id)["your_turn"]
    version = view["version"]
    answers: dict[str, httpx.Response] = {}
    start = threading.Barrier(2)

    def submit(name: str, who: Player, units: str) -> None:
        start.wait()
        answers[name] = _act(who, game_id, {"type": "purchase", "units": units}, version)

    threads = [threading.Thread(target=submit, args=("alice", alice, "1 infantry")),
               threading.Thread(target=submit, args=("bob", bob, "2 infantry"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers["alice"].status_code == 200, answers["alice"].text
    assert answers["bob"].status_code == 200, answers["bob"].text
    after = alice.view(game_id)
    assert after["version"] == version + 2
    assert after["state"]["extra"]["purchased"] == {"Germany": {"infantry": 1}, "Japan": {"infantry": 2}}
    powers = sorted(a.json()["action"]["power"] for a in answers.values())
    assert powers == ["Germany", "Japan"]


def test_each_seat_acts_only_for_its_own_power(player: Player, other_player: Player) -> None:
    alice, bob = player, other_player
    game_id = _team_game(alice, bob)
    answer = _act(bob, game_id, {"type": "end_phase", "power": "Germany"}, 0)
    assert answer.status_code == 403 and answer.json()["seat"] == "Germany"
    legal = bob.http.get(f"/games/{game_id}/legal").json()
    assert legal["to_act"] == "Japan" and all(a["power"] == "Japan" for a in legal["actions"])


def test_a_joint_phase_starts_when_both_have_ended_combat_move(player: Player, other_player: Player) -> None:
    alice, bob = player, other_player
    game_id = _team_game(alice, bob)
    version = 0
    for who in (alice, bob, alice):  # both end purchase; Germany ends combat move
        assert _act(who, game_id, {"type": "end_phase"}, version).status_code == 200
        version += 1
    state = alice.view(game_id)["state"]
    assert state["members"]["Germany"]["status"] == "waiting"
    assert _act(alice, game_id, {"type": "end_phase"}, version).status_code == 403  # Germany waits: not acting
    assert _act(bob, game_id, {"type": "end_phase"}, version).status_code == 200
    state = alice.view(game_id)["state"]
    assert {m["status"] for m in state["members"].values()} == {"acting"}
    assert state["phase"] == "conduct-combat"


def test_undo_takes_back_one_members_action_and_keeps_the_others(player: Player, other_player: Player) -> None:
    alice, bob = player, other_player
    game_id = _team_game(alice, bob)
    assert _act(alice, game_id, {"type": "purchase", "units": "1 infantry"}, 0).status_code == 200
    assert _act(bob, game_id, {"type": "purchase", "units": "2 infantry"}, 1).status_code == 200
    answer = alice.post(f"/games/{game_id}/undo", {"version": 2})
    assert answer.status_code == 200, answer.text
    view = alice.view(game_id)
    assert view["version"] == 1
    assert view["state"]["extra"]["purchased"] == {"Japan": {"infantry": 2}}
    export = alice.http.get(f"/games/{game_id}/export").json()
    assert [e["action"]["power"] for e in export["entries"]] == ["Japan"]
    assert verify_export(export).problems == []
