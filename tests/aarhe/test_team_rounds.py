"""Two whole AARHE rounds through the engine: the Soviet Union's first round alone, then the Axis team turn with
Germany and Japan acting interleaved in every phase (combat joint), then the Allied team turn with the Soviet
Union, the United Kingdom and the United States interleaved; the log replays to the same state."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from aare.state.unit_stacks import count_units
from tests.aarhe.common import ALLIED_TEAM, AXIS_TEAM, GER, JAP, RUS, UK, game, refused
from tests.aarhe.team_play import battle_step, planned

END = {"type": "end_phase"}
Played = list[tuple[int, str, str, str]]  # (round, power, phase, action type)


def _phase(g: Game, power: str) -> str:
    return g.acting_as(power).state.phase


def _step(g: Game, power: str, done: dict[tuple[int, str, str], int], played: Played) -> None:
    """`power`'s next action: its planned one in its phase, a battle's next step, else the end of the phase."""
    round_, phase = g.state.round, _phase(g, power)
    key = (round_, power, phase)
    action: dict[str, Any] | None = None
    if phase == "conduct-combat":
        action = battle_step([a.to_json() for a in g.legal_actions(power=power)])
    elif g.actors()[power] == power:
        action = planned(round_, power, phase, done.get(key, 0))
        done[key] = done.get(key, 0) + 1
    action = action or END
    g.apply(action, power=power)
    played.append((round_, power, phase, action["type"]))


def play_round(g: Game, played: Played) -> None:
    """Play the round to its end: in turn, each power acting now takes one step (the members of a team turn
    act interleaved, one action each in turn)."""
    round_, done = g.state.round, {}
    while g.state.round == round_ and g.state.winner is None:
        for power in g.to_act():
            if power in g.actors() and g.state.round == round_:
                _step(g, power, done, played)


def _interleaved(powers: list[str], team: list[str]) -> bool:
    """Whether every member acted, and no member twice in a row (each has two actions or more)."""
    return set(powers) == set(team) and all(a != b for a, b in pairwise(powers))


def _mixed(powers: list[str], team: list[str]) -> bool:
    """Whether every member acted and their actions mixed (one member's come not all before the others')."""
    changes = sum(a != b for a, b in pairwise(powers))
    return set(powers) == set(team) and changes >= len(team)


def _powers(played: Played, round_: int, phase: str, team: list[str]) -> list[str]:
    return [p for r, p, ph, _ in played if r == round_ and ph == phase and p in team]


@pytest.mark.rule("AARHE-ORDER-round-one-soviet", "AARHE-ORDER-team-turns", "AARHE-ORDER-team-concurrency")
def test_two_rounds_soviet_alone_then_the_axis_and_the_allies_acting_interleaved() -> None:
    g = game()
    assert refused(g, END, power=GER) == "LHTR-TURN-power-order"
    played: Played = []
    play_round(g, played)
    assert {p for r, p, _, _ in played if r == 1} == {RUS}  # round 1: the Soviet Union alone
    assert (g.state.round, g.to_act()) == (2, AXIS_TEAM)
    assert count_units(g.state.stacks("Russia"), RUS)["armour"] == 3  # its purchase placed

    play_round(g, played)
    assert (g.state.round, g.to_act()) == (3, AXIS_TEAM)
    axis = [(p, ph, t) for r, p, ph, t in played if r == 2 and p in AXIS_TEAM]
    # purchase and mobilize: Germany and Japan interleaved, action after action
    assert _powers(played, 2, "purchase", AXIS_TEAM) == [GER, JAP] * 3
    assert _powers(played, 2, "combat-move", AXIS_TEAM) == [GER, JAP] * 2
    for phase in ("non-combat-move", "mobilize"):  # after their battles, each at its own pace
        assert _mixed(_powers(played, 2, phase, AXIS_TEAM), AXIS_TEAM)
    # the joint combat: no battle before both have ended their combat move
    ends = [i for i, (_, ph, t) in enumerate(axis) if ph == "combat-move" and t == "end_phase"]
    first_battle = next(i for i, (_, ph, _) in enumerate(axis) if ph == "conduct-combat")
    assert len(ends) == 2 and first_battle > max(ends)
    fought = {p for p, ph, t in axis if ph == "conduct-combat" and t == "fight"}
    assert fought == {GER, JAP}
    # a defender answers in the Axis turn (the Allies make no attack in this round)
    assert any(p == UK and ph == "conduct-combat" and t != "end_phase" for r, p, ph, t in played if r == 2)
    # the Allied team turn after both Axis members ended their turns: its three members interleaved
    last_axis = max(i for i, (r, p, _, _) in enumerate(played) if r == 2 and p in AXIS_TEAM)
    allied = [p for r, p, ph, t in played[last_axis + 1:] if r == 2]
    assert set(allied) == set(ALLIED_TEAM)
    assert _powers(played[last_axis + 1:], 2, "purchase", ALLIED_TEAM) == ALLIED_TEAM * 2
    assert _interleaved(_powers(played[last_axis + 1:], 2, "mobilize", ALLIED_TEAM), ALLIED_TEAM)
    assert {(p, t) for r, p, ph, t in played if r == 2 and p == UK and ph == "mobilize"} == {
        (UK, "place"), (UK, "end_phase")}
    for power, space, unit in ((GER, "Germany", "armour"), (JAP, "Japan", "fighter"), (UK, "United Kingdom",
                                                                                       "infantry")):
        assert count_units(g.state.stacks(space), power).get(unit, 0) >= 1
    assert not g.state.extra.get("purchased")
    assert GameLog.from_json(g.log.to_json()).state == g.state
