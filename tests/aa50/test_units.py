"""The Anniversary units: the unit table, costs in a purchase, and each unit's special abilities in battle."""

from __future__ import annotations

import pytest

from aare.errors import IllegalAction
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from tests.aa50.common import battle, ended, fire, left
from tests.combat.helpers import play

TABLE = {  # AA50-UNITS-table, as the ledger gives it (catalogue ids for aaGun and factory)
    "infantry": (3, 1, 2, 1), "artillery": (4, 2, 2, 1), "armour": (5, 3, 3, 2), "aa_gun": (6, 0, 0, 1),
    "factory": (15, 0, 0, 0), "fighter": (10, 3, 4, 4), "bomber": (12, 4, 1, 6), "transport": (7, 0, 0, 2),
    "submarine": (6, 2, 1, 2), "destroyer": (8, 2, 2, 2), "cruiser": (12, 3, 3, 2), "carrier": (14, 1, 2, 2),
    "battleship": (20, 4, 4, 2),
}


@pytest.mark.rule("AA50-UNITS-table")
@pytest.mark.parametrize("rules", ["aa50-1941", "aa50-1942"])
def test_the_unit_table_is_the_ledgers(rules: str) -> None:
    units = load_ruleset(rules).units
    assert {u.id: (u.cost, u.attack, u.defense, u.move) for u in units} == TABLE
    assert units["battleship"].hits == 2 and all(u.hits == 1 for u in units if u.id != "battleship")


def bought(units: str, power: str = "Germany", rules: str = "aa50-1942") -> int:
    game = scenario(rules, nation=power, phase="purchase", banks={power: 100})
    game.apply({"type": "purchase", "units": units})
    return 100 - game.state.banks[power]


@pytest.mark.rule("AA50-UNITS-aa-gun", "AA50-UNITS-industrial-complex", "AA50-UNITS-cruiser")
def test_purchase_debits_the_table_costs() -> None:
    assert bought("1 aa gun") == 6
    assert bought("1 industrial complex", rules="aa50-1941") == 15
    assert bought("1 cruiser, 1 transport, 1 submarine") == 12 + 7 + 6


@pytest.mark.rule("AA50-UNITS-infantry", "AA50-UNITS-artillery")
def test_each_artillery_raises_one_attacking_infantry() -> None:
    _, events = play(battle("2 infantry, 1 artillery", "3 infantry", "land"), [6] * 6)
    assert fire(events, "attacker fire") == [("infantry", 1, 2), ("infantry", 1, 1), ("artillery", 1, 2)]
    _, events = play(battle("3 infantry, 1 artillery", "3 infantry", "land"), [6] * 7)
    assert fire(events, "attacker fire") == [("infantry", 1, 2), ("infantry", 2, 1), ("artillery", 1, 2)]
    assert fire(events, "defender fire") == [("infantry", 3, 2)]


@pytest.mark.rule("AA50-UNITS-armour", "AA50-UNITS-fighter", "AA50-UNITS-bomber")
def test_land_and_air_values() -> None:
    _, events = play(battle("1 armour, 1 fighter, 1 bomber", "1 armour, 1 fighter, 1 bomber", "land"), [6] * 6)
    assert fire(events, "attacker fire") == [("armour", 1, 3), ("fighter", 1, 3), ("bomber", 1, 4)]
    assert fire(events, "defender fire") == [("armour", 1, 3), ("fighter", 1, 4), ("bomber", 1, 1)]


@pytest.mark.rule("AA50-UNITS-submarine", "AA50-UNITS-destroyer", "AA50-UNITS-cruiser", "AA50-UNITS-carrier",
                  "AA50-UNITS-battleship", "AA50-UNITS-transport")
def test_sea_values_and_a_transport_rolls_nothing() -> None:
    attacker = "1 submarine, 1 destroyer, 1 cruiser, 1 carrier, 1 battleship, 1 transport"
    defender = "1 submarine, 1 destroyer, 1 cruiser, 1 carrier, 1 battleship, 1 transport"
    _, events = play(battle(attacker, defender), [6] * 10)
    assert fire(events, "attacker fire") == [("submarine", 1, 2), ("destroyer", 1, 2), ("cruiser", 1, 3),
                                             ("carrier", 1, 1), ("battleship", 1, 4)]
    assert fire(events, "defender fire") == [("submarine", 1, 1), ("destroyer", 1, 2), ("cruiser", 1, 3),
                                             ("carrier", 1, 2), ("battleship", 1, 4)]


@pytest.mark.rule("AA50-UNITS-battleship", "AA50-COMBAT-owner-chooses-casualties")
def test_a_battleship_absorbs_one_hit_and_is_repaired_after_the_turn() -> None:
    game = scenario("aa50-1942", nation="United Kingdom", phase="combat-move", clear=["SZ 5"],
                    units={"SZ 6": "United Kingdom: 2 cruisers", "SZ 5": "Germany: 1 battleship, 1 destroyer"},
                    dice=[1, 6, 6, 6])
    game.apply({"type": "move", "units": "2 cruisers", "path": ["SZ 6", "SZ 5"]})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "SZ 5"})
    game.apply({"type": "choose_casualties", "units": "1 battleship"})  # Germany keeps both ships
    game.apply({"type": "retreat", "to": "SZ 6"})
    [bb] = [s for s in game.state.stacks("SZ 5") if s.unit == "battleship"]
    assert bb.damage == 1
    while game.state.nation == "United Kingdom":
        game.apply({"type": "end_phase"})
    [bb] = [s for s in game.state.stacks("SZ 5") if s.unit == "battleship"]
    assert bb.damage == 0


@pytest.mark.rule("AA50-UNITS-aa-gun", "AA50-UNITS-industrial-complex", "AA50-AA-no-casualty")
def test_aa_gun_and_complex_never_take_hits_and_are_captured() -> None:
    game = scenario("aa50-1942", nation="Germany", phase="combat-move", clear=["Karelia S.S.R."],
                    units={"Karelia S.S.R.": "Soviet Union: 1 aa gun, 1 factory, 1 infantry",
                           "Finland": "Germany: 2 armour"}, dice=[1, 3, 6])
    game.apply({"type": "move", "units": "2 armour", "path": ["Finland", "Karelia S.S.R."]})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "Karelia S.S.R."})
    assert game.state.owners["Karelia S.S.R."] == "Germany"
    assert {(s.owner, s.unit) for s in game.state.stacks("Karelia S.S.R.")} == {
        ("Germany", "armour"), ("Germany", "aa_gun"), ("Germany", "factory")}


@pytest.mark.rule("AA50-TURN-d6-hit-rule")
def test_a_die_hits_at_or_under_the_value_and_zero_rolls_nothing() -> None:
    _, events = play(battle("1 armour", "1 infantry", "land"), [3, 6])
    assert ended(events).result == "attacker"
    battle_, events = play(battle("1 armour", "1 infantry", "land"), [4, 6])
    assert left(battle_.state.defender) == {"infantry": 1}
    _, events = play(battle("1 destroyer, 1 transport", "1 destroyer"), [6, 6])
    assert fire(events) == [("destroyer", 1, 2), ("destroyer", 1, 2)]



@pytest.mark.rule("AA50-UNITS-carrier", "AA50-UNITS-fighter")
def test_a_carrier_holds_two_fighters_own_or_allied() -> None:
    game = scenario("aa50-1942", nation="United Kingdom", phase="non-combat-move", clear=["SZ 6", "United Kingdom"],
                    units={"SZ 6": "United Kingdom: 1 carrier, 1 fighter; United States: 1 fighter",
                           "United Kingdom": "United Kingdom: 1 fighter"})
    with pytest.raises(IllegalAction):
        game.apply({"type": "move", "units": "1 fighter", "path": ["United Kingdom", "SZ 6"]})
    game = scenario("aa50-1942", nation="United Kingdom", phase="non-combat-move", clear=["SZ 6", "United Kingdom"],
                    units={"SZ 6": "United Kingdom: 1 carrier; United States: 1 fighter",
                           "United Kingdom": "United Kingdom: 1 fighter"})
    game.apply({"type": "move", "units": "1 fighter", "path": ["United Kingdom", "SZ 6"]})
    assert sum(s.count for s in game.state.stacks("SZ 6") if s.unit == "fighter") == 2
