"""AARHE: an undeployed infrastructure defence moves one territory in non-combat move; a deployed one never."""

from __future__ import annotations

import pytest

from aare.rulesets.aarhe.build import UNDEPLOYED
from aare.state.unit_stacks import Stack
from tests.aarhe.move_common import at
from tests.movement.helpers import move, mv, rejected, units_in

R_IDMOVE = "AARHE-IDMOVE-undeployed"
LYING = Stack("Germany", "aa_gun", 1, flags=(UNDEPLOYED,))


@pytest.mark.rule(R_IDMOVE)
def test_undeployed_id_moves_one_territory_in_non_combat_move() -> None:
    game = at("Germany", "non-combat-move", {}, stacks=[("Germany", LYING), ("Germany", LYING)])
    rejected(game, mv("1 aa gun", "Germany", "Western Europe", "Spain"), R_IDMOVE, "one territory")
    move(game, "1 aa gun", "Germany", "Western Europe")
    [moved] = [s for s in game.state.stacks("Western Europe") if s.unit == "aa_gun"]
    assert UNDEPLOYED in moved.flags
    fight = at("Germany", "combat-move", {"Eastern Europe": "Russia: 1 infantry"}, owners={"Eastern Europe": "Russia"},
               stacks=[("Germany", LYING)])
    rejected(fight, mv("1 aa gun", "Germany", "Eastern Europe"), R_IDMOVE, "non-combat move only")


@pytest.mark.rule(R_IDMOVE)
def test_deployed_id_does_not_move() -> None:
    game = at("Germany", "non-combat-move", {"Germany": "Germany: 1 aa gun"})
    rejected(game, mv("1 aa gun", "Germany", "Western Europe"), "AARHE-BUILD-id-fixed", "cannot move")
    assert units_in(game, "Germany") == {"aa_gun": 1}
