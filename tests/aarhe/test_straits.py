"""AARHE strait interdiction: the holder of a strait territory fires at hostile ships moving between its two sea
zones, two dice in each of the enemy's move phases, never at submarines."""

from __future__ import annotations

from typing import Any

import pytest

from aare.rulesets.aarhe.straits import STRAITS
from tests.aarhe.common import refused
from tests.aarhe.move_common import at

GER, UK = "Germany", "United Kingdom"
FLEET = "1 battleship, 1 destroyer, 1 submarine"


def crossing(phase: str, fleet: str = FLEET, dice: list[int] | None = None) -> Any:
    """A German fleet in SZ 13 (Gibraltar's strait, held by the United Kingdom) and a British transport in SZ 12."""
    return at(GER, phase, {"SZ 13": f"{GER}: {fleet}", "SZ 12": f"{UK}: 1 transport"}, dice=dice or [6] * 10)


def ships(g: Any, zone: str = "SZ 12") -> dict[str, int]:
    return {s.unit: s.damage for s in g.state.stacks(zone) if s.owner == GER}


@pytest.mark.rule("AARHE-STRAIT-table")
def test_the_straits_are_the_seeds() -> None:
    assert {t: tuple(int(z.split()[1]) for z in zones) for t, zones in STRAITS.items()} == {
        "Gibraltar": (12, 13), "Germany": (5, 6), "United Kingdom": (6, 7), "Western Europe": (6, 7)}


@pytest.mark.rule("AARHE-STRAIT-fire")
def test_the_holder_aims_two_dice_at_ships_crossing_in_combat_move() -> None:
    g = crossing("combat-move", dice=[3, 4])
    g.apply({"type": "move", "units": FLEET, "path": ["SZ 13", "SZ 12"]})
    assert g.to_act() == [UK] and g.state.pending["kind"] == "strait_fire" and g.state.pending["dice"] == 2
    assert refused(g, {"type": "declare_targets", "targets": "battleship, battleship, destroyer"}, UK) == \
        "AARHE-STRAIT-fire"  # three dice
    g.apply({"type": "declare_targets", "targets": "battleship, destroyer"}, power=UK)
    # 3 hits the battleship (damaged, a normal hit), 4 misses the destroyer
    assert ships(g) == {"battleship": 1, "destroyer": 0, "submarine": 0}
    assert g.state.pending is None
    # both dice of this phase are spent: crossing back draws no more fire
    g2 = crossing("combat-move", "2 destroyer, 1 battleship", dice=[6, 6])
    g2.apply({"type": "move", "units": "1 destroyer", "path": ["SZ 13", "SZ 12"]})
    g2.apply({"type": "declare_targets", "targets": "destroyer"}, power=UK)
    g2.apply({"type": "move", "units": "1 destroyer", "path": ["SZ 13", "SZ 12"]})
    assert g2.state.pending is not None and g2.state.pending["dice"] == 1
    g2.apply({"type": "declare_targets", "targets": "destroyer"}, power=UK)
    g2.apply({"type": "move", "units": "1 battleship", "path": ["SZ 13", "SZ 12"]})
    assert g2.state.pending is None


@pytest.mark.rule("AARHE-STRAIT-fire")
def test_two_more_dice_in_non_combat_move_and_the_holder_may_hold_fire() -> None:
    g = at(GER, "non-combat-move", {"SZ 13": f"{GER}: 1 destroyer"}, dice=[1])
    g.apply({"type": "move", "units": "1 destroyer", "path": ["SZ 13", "SZ 12"]})
    assert g.state.pending["dice"] == 2
    g.apply({"type": "declare_targets", "targets": ""}, power=UK)
    assert ships(g) == {"destroyer": 0}
    # a friendly holder does not fire
    g = at(UK, "non-combat-move", {"SZ 13": f"{UK}: 1 destroyer"})
    g.apply({"type": "move", "units": "1 destroyer", "path": ["SZ 13", "SZ 12"]})
    assert g.state.pending is None


@pytest.mark.rule("AARHE-STRAIT-no-subs")
def test_submarines_are_never_targets() -> None:
    g = at(GER, "non-combat-move", {"SZ 13": f"{GER}: 1 submarine, 1 destroyer"})
    g.apply({"type": "move", "units": "1 submarine", "path": ["SZ 13", "SZ 12"]})
    assert g.state.pending is None  # a lone submarine draws no fire
    g.apply({"type": "move", "units": "1 destroyer", "path": ["SZ 13", "SZ 12"]})
    assert refused(g, {"type": "declare_targets", "targets": "battleship"}, UK) == "AARHE-STRAIT-fire"  # none came
    g = crossing("combat-move")
    g.apply({"type": "move", "units": FLEET, "path": ["SZ 13", "SZ 12"]})
    assert "submarine" not in g.state.pending["ships"]
    assert refused(g, {"type": "declare_targets", "targets": "submarine"}, UK) == "AARHE-STRAIT-no-subs"
