"""The guarded door `POST /games/{id}/actions`: seats, versions, rules, malformed input, races."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest

from aare.game_setup import new_game
from aare.server.seats import acting_power, seat_names, seat_of
from tests.server.conftest import NATIONS, LiveServer, Player, bearer

END = {"type": "end_phase"}


def log_length(player: Player, game_id: str) -> int:
    export = player.http.get(f"/games/{game_id}/export").json()
    return len(export["entries"])


def test_an_accepted_action_is_stored_and_moves_the_version(player: Player) -> None:
    game = player.new_game()
    answer = player.act(game["id"], END, 0)
    assert answer.status_code == 200, answer.text
    entry = answer.json()
    assert (entry["seq"], entry["version"], entry["action"]) == (0, 1, END)
    assert entry["phase"] == "purchase"
    view = player.view(game["id"])
    assert view["version"] == 1 and view["state_hash"] == entry["state_hash"]
    assert log_length(player, game["id"]) == 1


def test_the_answer_to_an_action_carries_what_changed(player: Player) -> None:
    """The answer is the entry's events, the new version and state hash and who acts now; the game, the actor
    and the message kind, which the caller knows, are left to the live-update message."""
    game = player.new_game()
    with player.http.stream("GET", f"/games/{game['id']}/events", params={"after": 0}) as stream:
        answer = player.act(game["id"], END, 0)
        lines = stream.iter_lines()
        data = next(line for line in lines if line.startswith("data:"))
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    entry = answer.json()
    assert set(entry) == {"seq", "version", "state_hash", "action", "events", "round", "nation", "phase",
                          "to_act", "winner"}
    assert entry["events"] and all("type" in e for e in entry["events"])
    published = json.loads(data.removeprefix("data:"))
    assert published["kind"] == "entry" and published["game_id"] == game["id"] and published["actor"]
    assert {k: published[k] for k in entry} == entry  # the same entry, less what the caller knows


def test_acting_for_a_seat_you_do_not_hold_is_403(player: Player, other_player: Player) -> None:
    game = player.new_game({"Russia": "me", "Germany": "me"})
    answer = other_player.act(game["id"], END, 0)
    assert answer.status_code == 403
    assert answer.json()["seat"] == "Russia"
    assert log_length(player, game["id"]) == 0


def test_taking_an_open_seat_lets_you_act(player: Player, other_player: Player) -> None:
    game = player.new_game({"Germany": "me"})
    assert other_player.act(game["id"], END, 0).status_code == 403
    assert other_player.post(f"/games/{game['id']}/seats/Russia/take").status_code == 204
    assert player.post(f"/games/{game['id']}/seats/Russia/take").status_code == 403  # no longer open
    assert other_player.act(game["id"], END, 0).status_code == 200
    assert other_player.post(f"/games/{game['id']}/seats/Russia/leave").status_code == 204
    assert other_player.act(game["id"], END, 1).status_code == 403


def test_illegal_action_is_422_with_the_rule_and_stores_nothing(player: Player) -> None:
    game = player.new_game()
    before = player.view(game["id"])
    answer = player.act(game["id"], {"type": "purchase", "units": "1 infantry"}, 0)  # develop-weapons phase
    assert answer.status_code == 422
    body = answer.json()
    assert body["error"] == "illegal_action"
    assert body["rule_id"] == "LHTR-TURN-phase-sequence"
    assert "purchase" in body["message"]
    after = player.view(game["id"])
    assert (after["version"], after["state_hash"]) == (before["version"], before["state_hash"])
    assert log_length(player, game["id"]) == 0


def test_stale_version_is_409_with_the_current_version(player: Player) -> None:
    game = player.new_game()
    assert player.act(game["id"], END, 0).status_code == 200
    answer = player.act(game["id"], END, 0)
    assert answer.status_code == 409
    assert answer.json()["version"] == 1
    assert log_length(player, game["id"]) == 1


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"{not json", "malformed_json"),
        (b'{"action": {"type": "end_phase"}}', "malformed_request"),
        (b'{"action": "end_phase", "version": 0}', "malformed_request"),
        (b'{"action": {"type": "fly_to_the_moon"}, "version": 0}', "malformed_input"),
        (b'{"action": {"type": "purchase"}, "version": 0}', "malformed_input"),
    ],
)
def test_malformed_requests_are_400(player: Player, body: bytes, error: str) -> None:
    game = player.new_game()
    answer = player.http.post(f"/games/{game['id']}/actions", content=body,
                              headers={"X-CSRF-Token": player.csrf, "Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == error
    assert log_length(player, game["id"]) == 0


def test_the_lean_door_and_the_route_answer_alike(player: Player) -> None:
    """Well-formed submissions are served by `ActionDoor` (plain ASGI), the rest by the FastAPI route: both carry
    the headers every answer has, and what the route's model accepts (a version sent as a string) still lands."""
    game = player.new_game()
    answer = player.act(game["id"], END, 0)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["x-content-type-options"] == "nosniff" and "app;dur=" in answer.headers["server-timing"]
    assert "rules;dur=" in answer.headers["server-timing"]
    routed = player.http.post(f"/games/{game['id']}/actions", content=json.dumps({"action": END, "version": "1"}),
                              headers={"X-CSRF-Token": player.csrf, "Content-Type": "application/json"})
    assert routed.status_code == 200, routed.text
    assert routed.json()["version"] == 2 and routed.headers["x-frame-options"] == "DENY"
    plain = player.http.post(f"/games/{game['id']}/actions", content=json.dumps({"action": END, "version": 2}),
                             headers={"X-CSRF-Token": player.csrf, "Content-Type": "text/plain"})
    assert plain.status_code == 400 and plain.json()["error"] == "malformed_request"
    refused = player.http.post(f"/games/{game['id']}/actions", json={"action": END, "version": 2})  # no CSRF token
    assert refused.status_code == 403 and refused.json()["error"] == "csrf_failed"
    assert log_length(player, game["id"]) == 2


def test_unknown_game_is_404(player: Player) -> None:
    assert player.act("no-such-game", END, 0).status_code == 404
    assert player.http.get("/games/no-such-game").status_code == 404


def test_concurrent_submissions_on_one_version_exactly_one_wins(server: LiveServer, player: Player) -> None:
    game = player.new_game()
    token = player.token("racer")
    clients = [bearer(server.url, token) for _ in range(6)]
    rounds = 8
    try:
        for version in range(rounds):
            barrier = threading.Barrier(len(clients))
            results: list[int] = []

            def submit(http: httpx.Client, version: int = version, barrier: threading.Barrier = barrier,
                       results: list[int] = results) -> None:
                barrier.wait()
                answer = http.post(f"/games/{game['id']}/actions", json={"action": END, "version": version})
                results.append(answer.status_code)

            threads = [threading.Thread(target=submit, args=(c,)) for c in clients]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(results) == [200] + [409] * (len(clients) - 1), results
    finally:
        for c in clients:
            c.close()
    export = player.http.get(f"/games/{game['id']}/export").json()
    assert len(export["entries"]) == rounds
    assert [e["action"] for e in export["entries"]] == [END] * rounds


def test_hot_seat_one_user_plays_several_nations(player: Player) -> None:
    game = player.new_game(dict.fromkeys(NATIONS, "me"))
    version = 0
    while player.view(game["id"])["to_act"] == "Russia":
        assert player.act(game["id"], END, version).status_code == 200
        version += 1
    view = player.view(game["id"])
    assert view["to_act"] == "Germany" and view["your_turn"]
    assert player.act(game["id"], END, version).status_code == 200


def test_side_seating_covers_the_side(player: Player, other_player: Player) -> None:
    game = player.new_game({"Allies": "me"}, seating="sides")
    assert sorted(s["seat"] for s in game["seats"]) == ["Allies", "Axis"]
    assert game["acting_seat"] == "Allies"
    assert other_player.act(game["id"], END, 0).status_code == 403
    assert player.act(game["id"], END, 0).status_code == 200


def test_legal_actions_are_listed_for_the_seat_to_act(player: Player, other_player: Player) -> None:
    game = player.new_game({"Russia": "me"})
    mine = player.http.get(f"/games/{game['id']}/legal").json()
    assert mine["your_turn"] and END in mine["actions"]
    assert any(a["type"] == "research" for a in mine["actions"])
    theirs = other_player.http.get(f"/games/{game['id']}/legal").json()
    assert not theirs["your_turn"] and theirs["actions"] == []


def test_bad_seat_specs_are_400(player: Player) -> None:
    assert player.post("/games", {"seats": {"Atlantis": "me"}}).status_code == 400
    assert player.post("/games", {"seats": {"Russia": "skynet"}}).status_code == 400
    assert player.post("/games", {"ruleset": "no-such-rules"}).status_code == 400


def test_seat_helpers() -> None:
    state = new_game("lhtr-1.3", seed=1).state
    assert seat_names(state.ruleset, state.options, "nations") == list(NATIONS)
    assert seat_names(state.ruleset, state.options, "sides") == ["Allies", "Axis"]
    assert seat_of(state, "sides", "Japan") == "Axis"
    assert acting_power(state) == "Russia"


def test_a_pending_decision_belongs_to_the_power_it_names() -> None:
    from dataclasses import replace

    state = replace(new_game("lhtr-1.3", seed=1).state, nation="Germany")
    decision: dict[str, Any] = {"kind": "choose_casualties", "power": "Russia", "space": "Ukraine"}
    assert acting_power(replace(state, pending=decision)) == "Russia"
    assert acting_power(replace(state, pending={"kind": "something"})) == "Germany"


def test_the_database_lets_one_of_two_prepared_actions_land(server: LiveServer, player: Player) -> None:
    """Both submissions pass the version check, then race to commit: the conditional update and the
    (game_id, seq) key let exactly one land."""
    from aare.server.errors import VersionConflict
    from aare.server.service import Actor

    game = player.new_game()
    service = server.service
    user_id = player.http.get("/auth/me").json()["user"]["id"]
    for version in range(4):
        prepared = [service.prepare(game["id"], Actor(user_id=user_id), END, version) for _ in range(4)]
        barrier = threading.Barrier(len(prepared))
        outcomes: list[str] = []

        def commit(p: Any, barrier: threading.Barrier = barrier, outcomes: list[str] = outcomes) -> None:
            barrier.wait()
            try:
                service.commit(p)
                outcomes.append("won")
            except VersionConflict as exc:
                outcomes.append(f"409 at {exc.current}")

        threads = [threading.Thread(target=commit, args=(p,)) for p in prepared]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes) == [f"409 at {version + 1}"] * 3 + ["won"], outcomes
    assert log_length(player, game["id"]) == 4
