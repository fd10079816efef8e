"""The Classic unit catalogue: the roster, each unit's cost, move, attack, defence and hits, and the roles the
combat rules read from it (AA guns and complexes never casualties, submarines, bombers, carriers)."""

from __future__ import annotations

import pytest
from tests.aa50.common import battle, fire
from tests.combat.helpers import play

from aare.combat.battle_state import UnitKey
from aare.errors import IllegalAction, UnknownName
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario

RULES = "classic-2e"
# unit: (cost, move, attack, defence, hits)
VALUES = {
    "infantry": (3, 1, 1, 2, 1),
    "armour": (5, 2, 3, 2, 1),
    "aa_gun": (5, 1, 0, 0, 1),
    "factory": (15, 0, 0, 0, 1),
    "fighter": (12, 4, 3, 4, 1),
    "bomber": (15, 6, 4, 1, 1),
    "transport": (8, 2, 0, 1, 1),
    "submarine": (8, 2, 2, 2, 1),
    "carrier": (18, 2, 1, 3, 1),
    "battleship": (24, 2, 4, 4, 1),
}
RULE_OF = {"infantry": "CL-UNITS-infantry", "armour": "CL-UNITS-armour", "aa_gun": "CL-UNITS-aa-gun",
           "factory": "CL-UNITS-factory", "fighter": "CL-UNITS-fighter", "bomber": "CL-UNITS-bomber",
           "transport": "CL-UNITS-transport", "submarine": "CL-UNITS-submarine", "carrier": "CL-UNITS-carrier",
           "battleship": "CL-UNITS-battleship"}


@pytest.mark.rule("CL-UNITS-roster")
def test_the_roster_has_no_artillery_and_no_destroyers() -> None:
    units = load_ruleset(RULES).units
    assert sorted(u.id for u in units) == sorted(VALUES)
    for missing in ("artillery", "destroyer"):
        with pytest.raises(UnknownName):
            units.resolve(missing)


@pytest.mark.rule(*RULE_OF.values(), "CL-UNITS-same-for-all-powers")
@pytest.mark.parametrize("unit", sorted(VALUES))
def test_each_units_values(unit: str) -> None:
    u = load_ruleset(RULES).units[unit]
    assert (u.cost, u.move, u.attack, u.defense, u.hits) == VALUES[unit]
    assert u.rule == RULE_OF[unit]


@pytest.mark.rule("CL-UNITS-aa-gun", "CL-UNITS-factory", "CL-UNITS-carrier", "CL-UNITS-transport",
                  "CL-UNITS-bomber", "CL-UNITS-submarine")
def test_the_roles_the_rules_read() -> None:
    units = load_ruleset(RULES).units
    assert units["aa_gun"].has("not_casualty") and units["aa_gun"].has("captured") and units["aa_gun"].has("aa")
    assert units["factory"].has("not_casualty") and units["factory"].has("bombing_target")
    assert units["carrier"].carrier_capacity == 2 and units["fighter"].carrier_size == 1
    assert units["transport"].transport_capacity == 2
    assert (units["infantry"].transport_size, units["armour"].transport_size, units["aa_gun"].transport_size) == (
        1, 2, 2)
    assert units["bomber"].has("strategic_bomber") and not units["fighter"].has("strategic_bomber")
    sub = units["submarine"]
    assert sub.has("first_strike") and sub.has("cannot_hit_air") and sub.has("submerge")


@pytest.mark.rule("CL-UNITS-same-for-all-powers", "CL-UNITS-fighter", "CL-UNITS-bomber")
def test_a_japanese_and_a_british_fighter_defend_alike() -> None:
    for owner in ("Japan", "United Kingdom"):
        _, events = play(battle("1 armour", {UnitKey("fighter", owner): 1}, "land", RULES), [6, 6])
        assert fire(events, "defender fire") == [("fighter", 1, 4)]
    _, events = play(battle("1 bomber", "1 fighter", "land", RULES), [4, 6])
    assert fire(events, "attacker fire") == [("bomber", 1, 4)]
    _, events = play(battle("1 fighter", "1 bomber", "land", RULES), [6, 1])
    assert fire(events, "defender fire") == [("bomber", 1, 1)]


@pytest.mark.rule("CL-UNITS-factory")
def test_a_second_complex_in_a_territory_is_refused_at_placement() -> None:
    game = scenario(RULES, nation="Germany", phase="mobilize", extra={"purchased": {"Germany": {"factory": 1}}})
    assert any(s.unit == "factory" for s in game.state.stacks("Germany"))
    before = game.state
    with pytest.raises(IllegalAction, match="already has an industrial complex"):
        game.apply({"type": "place", "units": "1 factory", "space": "Germany"})
    assert game.state == before
