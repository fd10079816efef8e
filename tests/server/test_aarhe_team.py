"""AARHE team turns through the server: the Soviet first round, then the Axis and the Allied team turns played by
one thread per seat, the seats of a team submitting at once through the one guarded door; and what the door's
version check lets through in a team turn (an action sent before a teammate's, unless that touched the play it
acts in)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from aare.dice import ScriptedDice
from aare.engine import Game
from aare.game_log import GameLog
from aare.game_setup import new_game
from tests.aarhe.common import ALLIED_TEAM, AXIS_TEAM, GER, JAP, RUS, UK, US, no_missions
from tests.aarhe.team_play import battle_step, bought, planned
from tests.server.conftest import LiveServer, Player

RULES = "aarhe"
END = {"type": "end_phase"}
TEAM_RULES = ("AARHE-ORDER-team-turns", "AARHE-ORDER-team-concurrency")
POLL = 0.02  # s between two looks of a seat that is not to act
GIVE_UP = 300.0  # s: a seat thread that has not seen round 3 by then stops (the test then fails, not hangs)


@pytest.fixture
def players(server: LiveServer) -> Iterator[dict[str, Player]]:
    """One account per name: alice, bob, carol, dave."""
    found = {name: Player.register(server.url) for name in ("alice", "bob", "carol", "dave")}
    yield found
    for p in found.values():
        p.http.close()


def _act(player: Player, game_id: str, action: dict[str, Any], version: int, power: str) -> httpx.Response:
    return player.post(f"/games/{game_id}/actions", {"action": {**action, "power": power}, "version": version})


def _seat(players: dict[str, Player], game_id: str, holders: dict[str, str]) -> None:
    for power, name in holders.items():
        answer = players[name].post(f"/games/{game_id}/seats/{power}/take")
        assert answer.status_code == 204, answer.text


@dataclass
class SeatThread:
    """One seat's player acting for `power` by the plan, as a client that learns the game's version from its
    own answers only (what its teammates do meanwhile it does not wait for): 409 makes it look again."""

    player: Player
    game_id: str
    power: str
    actions: list[tuple[int, int, str, str]] = field(default_factory=list)  # (sent version, stored version, ...)
    conflicts: int = 0
    problems: list[str] = field(default_factory=list)

    def run(self, start: threading.Barrier) -> None:
        try:
            self._play(start)
        except Exception as exc:  # reported by the test, not lost in the thread
            self.problems.append(f"{self.power}: {exc!r}")

    def _play(self, start: threading.Barrier) -> None:
        known = self.player.view(self.game_id)["version"]
        done: dict[tuple[int, str], int] = {}
        start.wait()
        deadline = time.monotonic() + GIVE_UP
        while time.monotonic() < deadline and not self.problems:
            view = self.player.view(self.game_id)
            state = view["state"]
            if state["round"] >= 3 or state.get("winner"):
                return
            if self.power not in view["acting"]:
                time.sleep(POLL)
                continue
            member = state.get("members", {}).get(self.power)
            phase = member["phase"] if member else state["phase"]
            action = self._next(state["round"], phase, done)
            if action is None:  # nothing to do yet (its team waits for the enemy's air missions)
                time.sleep(POLL)
                continue
            answer = _act(self.player, self.game_id, action, known, self.power)
            if answer.status_code == 409:  # its play changed since it last looked: look again
                self.conflicts += 1
                known = answer.json()["version"]
                continue
            if answer.status_code != 200:
                self.problems.append(f"{self.power} {action} on {known}: {answer.status_code} {answer.text}")
                return
            stored = answer.json()["version"]
            self.actions.append((known, stored, phase, action["type"]))
            known = stored
            if action["type"] != "end_phase" and phase != "conduct-combat":
                done[(state["round"], phase)] = done.get((state["round"], phase), 0) + 1
        self.problems.append(f"{self.power} did not see round 3 (or stopped on a problem)")

    def _next(self, round_: int, phase: str, done: dict[tuple[int, str], int]) -> dict[str, Any] | None:
        if phase == "conduct-combat":
            legal = self.player.http.get(f"/games/{self.game_id}/legal", params={"power": self.power}).json()
            if not legal["actions"]:
                return None
            step = battle_step(legal["actions"])
            return step or END
        return planned(round_, self.power, phase, done.get((round_, phase), 0)) or END


@pytest.mark.rule("AARHE-ORDER-round-one-soviet", *TEAM_RULES)
def test_two_rounds_with_the_seats_of_each_team_acting_at_once(server: LiveServer,
                                                               players: dict[str, Player]) -> None:
    carol = players["carol"]
    answer = carol.post("/games", {"ruleset": RULES, "seats": {RUS: "me", US: "me"}})
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    _seat(players, game_id, {GER: "alice", JAP: "bob", UK: "dave"})
    # round 1: the Soviet Union alone; the Axis seats may not act
    assert carol.view(game_id)["acting"] == [RUS]
    refused = _act(players["alice"], game_id, END, 0, GER)
    assert refused.status_code == 422 and refused.json()["rule_id"] == "LHTR-TURN-power-order"

    seats = {RUS: carol, GER: players["alice"], JAP: players["bob"], UK: players["dave"], US: carol}
    threads = {power: SeatThread(player, game_id, power) for power, player in seats.items()}
    start = threading.Barrier(len(threads))
    running = [threading.Thread(target=t.run, args=(start,)) for t in threads.values()]
    for t in running:
        t.start()
    for t in running:
        t.join()
    assert [p for t in threads.values() for p in t.problems] == []

    view = carol.view(game_id)
    assert (view["state"]["round"], view["acting"]) == (3, AXIS_TEAM)
    live = server.service.load(game_id)[0]  # the whole log (a seat's export hides the others' convoys)
    assert len(live.log.entries) == view["version"] == sum(len(t.actions) for t in threads.values())
    assert GameLog.from_json(live.log.to_json()).state.hash() == live.state_hash
    powers = [(e.action or {}).get("power") for e in live.log.entries]
    first_axis = next(i for i, p in enumerate(powers) if p in AXIS_TEAM)
    assert set(powers[:first_axis]) == {RUS}  # the Soviet opening
    axis_end = max(i for i, p in enumerate(powers) if p in AXIS_TEAM)
    assert set(powers[axis_end + 1:]) == set(ALLIED_TEAM)
    assert set(powers[first_axis:axis_end + 1]) <= set(AXIS_TEAM) | set(ALLIED_TEAM)  # defenders answer
    for power in (GER, JAP, RUS, UK, US):  # each seat's plan played: what it bought was placed
        assert bought(2, power), power
        assert [t for _, _, phase, t in threads[power].actions if phase == "mobilize"][-1] == "end_phase"
    assert not view["state"]["extra"].get("purchased")
    # each stored action was checked on the version its seat sent: the current one, or an older one that only
    # teammates' actions followed
    for power, thread in threads.items():
        for sent, stored, _, _ in thread.actions:
            between = powers[sent:stored - 1]
            assert power not in between, (power, sent, stored)


@pytest.mark.rule(*TEAM_RULES)
def test_germany_and_japan_buy_on_the_same_version_at_once(players: dict[str, Player]) -> None:
    game_id = _axis_turn(players)
    version = players["alice"].view(game_id)["version"]
    answers: dict[str, httpx.Response] = {}
    start = threading.Barrier(2)

    def buy(power: str, who: str, units: str) -> None:
        start.wait()
        answers[power] = _act(players[who], game_id, {"type": "purchase", "units": units}, version, power)

    threads = [threading.Thread(target=buy, args=(GER, "alice", "1 armour")),
               threading.Thread(target=buy, args=(JAP, "bob", "1 fighter"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [answers[p].status_code for p in AXIS_TEAM] == [200, 200], [answers[p].text for p in AXIS_TEAM]
    view = players["alice"].view(game_id)
    assert view["version"] == version + 2
    assert view["state"]["extra"]["purchased"] == {GER: {"armour": 1}, JAP: {"fighter": 1}}
    # a second action of the same seat on the version it already used is refused: it did not see its own
    assert _act(players["alice"], game_id, END, version, GER).status_code == 409


def _axis_turn(players: dict[str, Player]) -> str:
    """An AARHE game past the Soviet first round: alice holds Germany, bob Japan, carol the Soviet Union."""
    alice = players["alice"]
    answer = alice.post("/games", {"ruleset": RULES, "seats": {GER: "me"}})
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    _seat(players, game_id, {JAP: "bob", RUS: "carol"})
    version = 0
    while alice.view(game_id)["acting"] == [RUS]:
        assert _act(players["carol"], game_id, END, version, RUS).status_code == 200
        version += 1
    return game_id


@pytest.mark.rule(*TEAM_RULES)
def test_a_member_whose_joint_phase_started_since_must_look_again(players: dict[str, Player]) -> None:
    alice, bob = players["alice"], players["bob"]
    game_id = _axis_turn(players)
    version = alice.view(game_id)["version"]
    for who, power in ((alice, GER), (bob, JAP)) * 2:  # both end purchase and collect income
        assert _act(who, game_id, END, version, power).status_code == 200
        version += 1
    assert _act(alice, game_id, _move("1 infantry", "Libya", "Anglo Egypt"), version, GER).status_code == 200
    assert _act(alice, game_id, END, version + 1, GER).status_code == 200  # Germany waits for Japan
    seen = version + 2
    assert _act(bob, game_id, END, version + 2, JAP).status_code == 200  # combat starts for both
    fight = {"type": "fight", "space": "Anglo Egypt"}
    stale = _act(alice, game_id, fight, seen, GER)  # Germany last saw itself waiting
    assert stale.status_code == 409 and stale.json()["version"] == seen + 1
    version = _no_missions(players, game_id, {RUS: "carol", UK: "dave"})
    assert _act(alice, game_id, fight, version, GER).status_code == 200


def _no_missions(players: dict[str, Player], game_id: str, holders: dict[str, str]) -> int:
    """The powers asked for their air missions as the Axis combat starts (AARHE-DAS-declare) take their seats
    and declare none; the version after."""
    while True:
        view = players["alice"].view(game_id)
        asked = [m["pending"]["power"] for m in view["state"]["members"].values()
                 if (m.get("pending") or {}).get("kind") == "air_missions"]
        if not asked:
            return int(view["version"])
        _seat(players, game_id, {asked[0]: holders[asked[0]]})
        answer = _act(players[holders[asked[0]]], game_id, {"type": "air_missions", "missions": ""},
                      view["version"], asked[0])
        assert answer.status_code == 200, answer.text


def _move(units: str, *path: str) -> dict[str, Any]:
    return {"type": "move", "units": units, "path": list(path)}


def _battles_owed_to_russia(germany_attacks: str) -> tuple[GameLog, int, dict[str, Any]]:
    """A game played offline with dice that always roll 1: the Soviet fighter flies to Buryatia in round 1;
    in the Axis combat Japan's battle in Buryatia asks the Soviet Union a decision, then Germany fights in
    `germany_attacks`. The log, its version before Germany's battle, and the Soviet answer to Japan's battle."""
    g = Game(new_game(RULES), ScriptedDice([1] * 200))
    while g.state.phase != "non-combat-move":
        g.apply(END)
    g.apply(_move("1 fighter", "Russia", "Evenki National Okrug", "Yakut S.S.R.", "Buryatia S.S.R."))
    while not g.state.members:
        g.apply(END)
    for power in AXIS_TEAM * 2:
        g.apply(END, power=power)
    origin = {"Karelia S.S.R.": "Belorussia", "Anglo Egypt": "Libya"}[germany_attacks]
    g.apply(_move("1 infantry", origin, germany_attacks), power=GER)
    g.apply(_move("1 infantry", "Manchuria", "Buryatia S.S.R."), power=JAP)
    for power in AXIS_TEAM:
        g.apply(END, power=power)
    no_missions(g)  # the Allies fly no air missions (AARHE-DAS-declare)
    g.apply({"type": "fight", "space": "Buryatia S.S.R."}, power=JAP)
    assert g.actors().get(RUS) == JAP and g.state.members[JAP]["pending"]["power"] == RUS
    seen, answer = g.state.version, g.legal_actions(power=RUS)[0].to_json()
    g.apply({"type": "fight", "space": germany_attacks}, power=GER)
    return g.log, seen, answer


def _imported(players: dict[str, Player], log: GameLog) -> str:
    answer = players["alice"].post("/games/import", {"game": log.to_json(), "seats": {GER: "me"}})
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    _seat(players, game_id, {JAP: "bob", RUS: "carol", UK: "dave"})
    return game_id


@pytest.mark.rule(*TEAM_RULES)
def test_a_defenders_answer_sent_before_another_members_battle_lands_in_the_battle_it_answers(
        players: dict[str, Player]) -> None:
    log, seen, sent = _battles_owed_to_russia("Anglo Egypt")  # Germany's battle asks the United Kingdom
    game_id = _imported(players, log)
    carol = players["carol"]
    answer = _act(carol, game_id, sent, seen, RUS)
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == seen + 2
    assert answer.json()["events"][0] == {"type": "member_focused", "power": JAP}  # Buryatia's battle
    assert carol.view(game_id)["state"]["members"][GER]["pending"]["power"] == UK  # Germany's battle still waits


@pytest.mark.rule(*TEAM_RULES)
def test_a_defenders_answer_is_refused_when_another_members_battle_asks_it_first(
        players: dict[str, Player]) -> None:
    log, seen, sent = _battles_owed_to_russia("Karelia S.S.R.")  # Germany's battle asks the Soviet Union too
    game_id = _imported(players, log)
    carol = players["carol"]
    assert carol.view(game_id)["state"]["members"][GER]["pending"]["power"] == RUS
    stale = _act(carol, game_id, sent, seen, RUS)  # meant for Buryatia, where it was asked
    assert stale.status_code == 409 and stale.json()["version"] == seen + 1
    assert carol.view(game_id)["version"] == seen + 1  # nothing stored: not answered in Germany's battle
    legal = carol.http.get(f"/games/{game_id}/legal", params={"power": RUS}).json()["actions"]
    answer = _act(carol, game_id, legal[0], seen + 1, RUS)  # seen now: Germany's battle in Karelia asks first
    assert answer.status_code == 200, answer.text
    assert answer.json()["events"][0] == {"type": "member_focused", "power": GER}  # Karelia's battle


@pytest.mark.rule("AARHE-DAS-declare", *TEAM_RULES)
def test_a_defending_seat_declares_its_air_missions_during_the_enemy_turn(players: dict[str, Player]) -> None:
    alice, bob, dave = players["alice"], players["bob"], players["dave"]
    game_id = _axis_turn(players)
    _seat(players, game_id, {UK: "dave"})
    version = alice.view(game_id)["version"]
    for who, power in ((alice, GER), (bob, JAP)) * 2:  # both end purchase and collect income
        assert _act(who, game_id, END, version, power).status_code == 200
        version += 1
    assert _act(alice, game_id, _move("1 infantry", "Libya", "Anglo Egypt"), version, GER).status_code == 200
    for who, power in ((alice, GER), (bob, JAP)):
        assert _act(who, game_id, END, version + 1, power).status_code == 200
        version += 1
    version += 1
    assert UK in dave.view(game_id)["acting"]  # the Axis turn waits for the British declaration
    fight = _act(alice, game_id, {"type": "fight", "space": "Anglo Egypt"}, version, GER)
    assert fight.status_code == 422
    legal = dave.http.get(f"/games/{game_id}/legal", params={"power": UK}).json()["actions"]
    assert legal[0] == {"type": "air_missions", "power": UK}  # none: the first answer offered
    assert _act(dave, game_id, {"type": "air_missions", "missions": ""}, version, UK).status_code == 200
    assert _act(alice, game_id, {"type": "fight", "space": "Anglo Egypt"}, version + 1, GER).status_code == 200
