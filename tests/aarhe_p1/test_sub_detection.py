"""AARHE Phase 1 submarine detection (option `submarine_detection`): surface ships and fighters detect enemy subs
on 2, on 4 with Radar; without the option LHTR's destroyer rule alone holds."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from aare.combat.engine import roll_with_dice, run
from aare.combat.events import Event, SubsDetected
from aare.combat.setup import Battle
from aare.dice import ScriptedDice
from aare.odds import build_battle
from tests.aarhe_p1.common import RULES

ON = {"submarine_detection": True}


def first_rolls(b: Battle, dice: Iterable[int]) -> list[Event]:
    """The battle's events up to the roll after `dice` (each scripted die used)."""
    source = ScriptedDice(list(dice))
    events: list[Event] = []
    while source.remaining:
        b, more = run(b, stop_at_cycle_start=True)
        events += more
        assert b.state.roll is not None
        b, more = roll_with_dice(b, source)
        events += more
    return events + run(b, stop_at_cycle_start=True)[1]


def detected(attacker: str, dice: list[int], radar: bool = False) -> dict[str, int]:
    """The German subs the UK `attacker` detects with `dice` (detection on)."""
    techs = frozenset({"radar"}) if radar else frozenset()
    b = build_battle(attacker, "2 submarine", RULES, "sea", options=ON, attacker_techs=techs)
    found = [e for e in first_rolls(b, dice) if isinstance(e, SubsDetected)]
    assert len(found) == 1
    return dict(found[0].detected)


@pytest.mark.rule("AARHEP1-OPT-radar-sub-detection")
def test_radar_detects_subs_on_4() -> None:
    assert detected("1 destroyer", [4]) == {}
    assert detected("1 destroyer", [4], radar=True) == {"submarine": 2}
    assert detected("1 destroyer", [5], radar=True) == {}
    assert detected("1 destroyer", [2]) == {"submarine": 2}


@pytest.mark.rule("AARHEP1-OPT-radar-sub-detection")
def test_every_surface_ship_and_fighter_rolls() -> None:
    # a battleship and a fighter roll a die each (the lower counts): no destroyer needed
    assert detected("1 battleship, 1 fighter", [6, 2]) == {"submarine": 2}
    assert detected("1 battleship, 1 fighter", [6, 3]) == {}


@pytest.mark.rule("AARHEP1-OPT-radar-sub-detection")
def test_without_the_option_no_detection_roll() -> None:
    b = build_battle("1 destroyer", "2 submarine", RULES, "sea", attacker_techs=frozenset({"radar"}))
    b, events = run(b, stop_at_cycle_start=True)
    assert b.state.roll is not None and "detection" not in b.state.roll.step
    assert not any(isinstance(e, SubsDetected) for e in events)
