"""The land units and the complex as the ledger states them: cost, movement, combat values, transport size,
and what they do in play."""

from __future__ import annotations

import pytest

from aare.rules.ruleset import load_ruleset
from tests.combat.helpers import play, rolls, start_battle
from tests.movement.helpers import move, position, rejected, units_in


def unit(name: str):  # type: ignore[no-untyped-def]
    return load_ruleset("lhtr-1.3").units[name]


@pytest.mark.rule("LHTR-UNITS-infantry")
def test_infantry() -> None:
    inf = unit("infantry")
    assert (inf.cost, inf.move, inf.attack, inf.defense, inf.hits, inf.transport_size) == (3, 1, 1, 2, 1, 2)
    _, events = play(start_battle("2 infantry, 1 artillery", "1 infantry"), [6, 6, 6, 6])
    assert sorted((r.unit, r.hit_on, r.count) for r in rolls(events, "attacker fire")) == [
        ("artillery", 2, 1), ("infantry", 1, 1), ("infantry", 2, 1)]
    game = position("Russia", "combat-move", {"Russia": "Russia: 1 infantry", "Belorussia": "Germany: 1 infantry"})
    rejected(game, {"type": "move", "units": "1 infantry", "path": ["Russia", "West Russia", "Belorussia"]},
             "LHTR-LANDMOVE-movement-allowance")


@pytest.mark.rule("LHTR-UNITS-armour", "LHTR-LANDMOVE-blitz")
def test_armour() -> None:
    arm = unit("armour")
    assert (arm.cost, arm.move, arm.attack, arm.defense, arm.hits, arm.transport_size) == (5, 2, 3, 3, 1, 3)
    game = position("Russia", "combat-move", {"Russia": "Russia: 1 armour", "Belorussia": "Germany: 1 infantry"},
                    owners={"West Russia": "Germany"})
    move(game, "1 armour", "Russia", "West Russia", "Belorussia")  # West Russia is empty: blitzed
    assert game.state.owners["West Russia"] == "Russia" and units_in(game, "Belorussia", "Russia") == {"armour": 1}


@pytest.mark.rule("LHTR-UNITS-factory")
def test_industrial_complex() -> None:
    factory = unit("factory")
    assert (factory.cost, factory.move) == (15, 0)
    assert factory.has("not_casualty") and factory.has("bombing_target") and factory.has("captured")
    game = position("United Kingdom", "mobilize", {"United Kingdom": "United Kingdom: 1 factory"},
                    extra={"purchased": {"United Kingdom": {"infantry": 9}}})
    rejected(game, {"type": "place", "units": "9 infantry", "space": "United Kingdom"},
             "LHTR-MOBILIZE-capacity-ipc-value")
    game.apply({"type": "place", "units": "8 infantry", "space": "United Kingdom"})
