"""Classic land battles, casualties, retreats, AA guns and shore bombardment, in battles and on the board."""

from __future__ import annotations

import pytest
from tests.aa50.common import battle as any_battle
from tests.aa50.common import dice_rolled, ended, fire, left, move, position, to_combat
from tests.combat.helpers import play, steps
from tests.movement.helpers import boat

from aare.combat.decisions import ChooseCasualties, Press, PressOrRetreat
from aare.economy.summary import base_income
from aare.errors import IllegalAction, MalformedInput
from aare.movement.battles import pending_battles

RULES = "classic-2e"
GER, RUS, UK, US, JAP = "Germany", "Russia", "United Kingdom", "United States", "Japan"
KARELIA = "Karelia S.S.R."


def battle(attacker: str, defender: str, kind: str = "land", **inputs: object) -> object:
    return any_battle(attacker, defender, kind, RULES, **inputs)


def game_at(nation: str, units: dict[str, str], dice: list[int] | None = None, phase: str = "combat-move",
            **kw: object) -> object:
    return position(nation, phase, units, dice=dice, rules=RULES, **kw)


# ---------------------------------------------------------------- dice and the round


@pytest.mark.rule("CL-TURN-d6-hit-rule", "CL-UNITS-armour", "CL-UNITS-infantry")
def test_a_die_hits_at_or_below_the_value() -> None:
    _, events = play(battle("1 armour", "1 infantry"), [3, 6])
    assert ended(events).result == "attacker"
    b, events = play(battle("1 armour", "1 infantry"), [4, 3])
    assert fire(events, "attacker fire") == [("armour", 1, 3)]
    assert fire(events, "defender fire") == [("infantry", 1, 2)]
    assert left(b.state.defender) == {"infantry": 1} and left(b.state.attacker) == {"armour": 1}  # 3 misses at 2
    _, events = play(battle("1 infantry", "1 armour"), [2, 2])
    assert ended(events).result == "defender"  # attacking infantry misses on 2; defending armour hits on 2


@pytest.mark.rule("CL-TURN-d6-hit-rule", "CL-UNITS-transport")
def test_a_unit_at_zero_rolls_no_die() -> None:
    _, events = play(battle("1 transport, 1 battleship", "1 battleship", "sea"), [1, 1])
    assert fire(events, "attacker fire") == [("battleship", 1, 4)]  # the transport attacks at 0: no die


@pytest.mark.rule("CL-COMBAT-round-sequence", "CL-COMBAT-defender-casualties-fire-back",
                  "CL-COMBAT-continue-until")
def test_the_defender_hit_still_fires_and_a_new_round_follows() -> None:
    b, events = play(battle("1 armour, 1 infantry", "2 infantry"), [6, 3, 2, 6], {"infantry": 1})
    order = ["attacker fire", "defender fire", "remove casualties", "press or retreat"]
    assert [s for s, _ in steps(events) if s in order] == order
    assert fire(events, "defender fire") == [("infantry", 2, 2)]  # the infantry hit by the armour rolls too
    assert left(b.state.attacker) == {"armour": 1} and left(b.state.defender) == {"infantry": 1}
    assert isinstance(b.pending, PressOrRetreat)
    b, events = play(b, [3, 6], Press())
    assert ended(events).result == "attacker" and b.state.cycle == 2


@pytest.mark.rule("CL-COMBAT-defender-casualties-fire-back", "CL-COMBAT-continue-until")
def test_both_sides_destroyed_the_defender_keeps_the_territory() -> None:
    _, events = play(battle("1 fighter", "1 fighter"), [3, 4])
    assert ended(events).result == "draw"
    game = game_at(RUS, {"Karelia S.S.R.": "Russia: 1 infantry", "East Europe": "Germany: 1 infantry"},
                   dice=[1, 2])
    move(game, "1 infantry", KARELIA, "East Europe")
    to_combat(game)
    game.apply({"type": "fight", "space": "East Europe"})
    assert game.state.owners["East Europe"] == GER and game.state.stacks("East Europe") == ()


@pytest.mark.rule("CL-COMBAT-owner-chooses-casualties")
def test_the_defender_chooses_its_losses_and_excess_hits_are_lost() -> None:
    b, _ = play(battle("3 armour, 2 fighters", "3 infantry, 2 armour"), [1, 1, 6, 6, 6])
    assert isinstance(b.pending, ChooseCasualties) and b.pending.side == "defender"
    b, _ = play(b, [6, 6, 6, 6, 6], {"armour": 2})
    assert left(b.state.defender) == {"infantry": 3}
    _, events = play(battle("3 armour", "1 infantry"), [1, 1, 1, 6])
    assert ended(events).result == "attacker" and ended(events).attacker == {"armour": 3}


@pytest.mark.rule("CL-COMBAT-owner-chooses-casualties", "CL-UNITS-aa-gun", "CL-AA-no-ground-role")
def test_an_aa_gun_is_never_a_casualty_nor_rolls_in_the_battle() -> None:
    _, events = play(battle("3 armour", "1 infantry, 1 aa gun"), [1, 1, 1, 6])
    assert fire(events, "defender fire") == [("infantry", 1, 2)]
    assert ended(events).result == "attacker" and ended(events).defender == {}


@pytest.mark.rule("CL-COMBAT-column-rolling")
def test_dice_are_recorded_by_column_lowest_value_first() -> None:
    """The ruling: a step's dice are rolled together, one group per unit type at its value; the casualty owner
    chooses once for the step, and casualties still fire back."""
    _, events = play(battle("2 infantry, 1 armour", "2 infantry"), [1, 6, 3, 2, 6], {"infantry": 1})
    assert fire(events, "attacker fire") == [("infantry", 2, 1), ("armour", 1, 3)]
    assert fire(events, "defender fire") == [("infantry", 2, 2)]
    assert ended(events).result == "attacker" and ended(events).attacker == {"infantry": 1, "armour": 1}


# ---------------------------------------------------------------- on the board


@pytest.mark.rule("CL-TURN-allied-units-share-spaces")
def test_allied_units_in_one_territory_defend_together() -> None:
    game = game_at(JAP, {"French Indo China": "Japan: 2 armour",
                         "Sinkiang": "United Kingdom: 1 infantry; United States: 1 infantry"},
                   dice=[6, 6, 6, 2])
    move(game, "2 armour", "French Indo China", "Sinkiang")
    to_combat(game)
    game.apply({"type": "fight", "space": "Sinkiang"})
    assert sum(map(len, dice_rolled(game))) == 4  # two armour, the British and the American infantry
    pending = game.state.pending
    assert pending is not None and pending["defender"] == {UK: "1 infantry", US: "1 infantry"}
    assert pending["attacker"] == {JAP: "1 armour"}  # one of the two hits the defenders rolled


@pytest.mark.rule("CL-COMBAT-attacker-orders-battles")
def test_the_attacker_picks_the_order_of_its_battles() -> None:
    units = {"East Europe": "Germany: 1 armour", KARELIA: "Russia: 1 infantry",
             "Baltic Sea Zone": "Germany: 1 battleship", "North Sea Zone": "United Kingdom: 1 transport"}
    for first in ("North Sea Zone", KARELIA):
        game = game_at(GER, units, dice=[1, 6, 1, 6])
        move(game, "1 armour", "East Europe", KARELIA)
        move(game, "1 battleship", "Baltic Sea Zone", "North Sea Zone")
        to_combat(game)
        fights = {a.space for a in game.legal_actions() if a.type == "fight"}
        assert fights == {KARELIA, "North Sea Zone"}
        game.apply({"type": "fight", "space": first})
        fought = {a.space for a in game.legal_actions() if a.type == "fight"}
        assert fought == {KARELIA, "North Sea Zone"} - {first}


@pytest.mark.rule("CL-COMBAT-capture-on-win", "CL-UNITS-factory", "CL-AA-no-ground-role")
def test_a_surviving_land_unit_captures_the_territory_its_complex_and_aa_gun() -> None:
    game = game_at(GER, {"East Europe": "Germany: 1 armour",
                         KARELIA: "Russia: 1 infantry, 1 factory, 1 aa gun"}, dice=[1, 6])
    move(game, "1 armour", "East Europe", KARELIA)
    to_combat(game)
    game.apply({"type": "fight", "space": KARELIA})
    assert game.state.owners[KARELIA] == GER
    assert {(s.owner, s.unit) for s in game.state.stacks(KARELIA)} == {(GER, "armour"), (GER, "factory"),
                                                                      (GER, "aa_gun")}


@pytest.mark.rule("CL-UNITS-aa-gun", "CL-AA-no-ground-role", "CL-COMBAT-capture-on-win")
def test_a_lone_aa_gun_is_captured_by_an_entering_infantry() -> None:
    game = game_at(RUS, {KARELIA: "Russia: 1 infantry", "East Europe": "Germany: 1 aa gun"})
    move(game, "1 infantry", KARELIA, "East Europe")
    to_combat(game)
    for site in [s for s in pending_battles(game.state, game.ruleset)]:
        game.apply({"type": "fight", "space": site.space})
    while game.state.owners["East Europe"] != RUS and game.state.phase == "conduct-combat":
        game.apply({"type": "end_phase"})
    assert game.state.owners["East Europe"] == RUS
    assert {(s.owner, s.unit) for s in game.state.stacks("East Europe")} == {(RUS, "infantry"), (RUS, "aa_gun")}


@pytest.mark.rule("CL-COMBAT-aircraft-only-win")
def test_aircraft_alone_destroy_the_defenders_but_capture_nothing() -> None:
    game = game_at(UK, {"Anglo Sudan Egypt": "United Kingdom: 1 fighter, 1 bomber", "Libya": "Germany: 1 infantry"},
                   dice=[1, 1, 6])
    move(game, "1 fighter, 1 bomber", "Anglo Sudan Egypt", "Libya")
    to_combat(game)
    game.apply({"type": "fight", "space": "Libya"})
    assert not [s for s in game.state.stacks("Libya") if s.owner == GER]
    assert game.state.owners["Libya"] == GER


# ---------------------------------------------------------------- retreat


def _karelia_attack(dice: list[int]) -> object:
    game = game_at(GER, {"East Europe": "Germany: 1 armour", "Finland Norway": "Germany: 1 infantry",
                         KARELIA: "Russia: 3 infantry", "Ukraine S.S.R.": "Russia: 1 infantry"},
                   dice=dice, owners={"Finland Norway": GER})
    move(game, "1 armour", "East Europe", KARELIA)
    move(game, "1 infantry", "Finland Norway", KARELIA)
    to_combat(game)
    game.apply({"type": "fight", "space": KARELIA})
    return game


@pytest.mark.rule("CL-COMBAT-attacker-retreat")
def test_retreat_takes_every_attacker_to_one_territory_they_came_from() -> None:
    game = _karelia_attack([6, 6, 6, 6, 6])
    assert game.state.pending is not None and game.state.pending["kind"] == "press_or_retreat"
    before = game.state
    with pytest.raises(IllegalAction, match="retreat must go") as err:
        game.apply({"type": "retreat", "to": "Ukraine S.S.R."})
    assert err.value.rule_id == "CL-COMBAT-attacker-retreat" and game.state == before
    game.apply({"type": "retreat", "to": "East Europe"})
    assert {s.unit: s.count for s in game.state.stacks("East Europe")} == {"armour": 1, "infantry": 1}
    assert game.state.stacks("Finland Norway") == ()


@pytest.mark.rule("CL-COMBAT-no-defender-retreat")
def test_defenders_never_retreat() -> None:
    b, _ = play(battle("1 armour, 1 infantry", "3 infantry"), [6, 6, 6, 6, 6])
    assert isinstance(b.pending, PressOrRetreat)  # the attacker's decision, never the defender's
    b, _ = play(b, [6, 6, 6, 6, 6], Press())
    assert isinstance(b.pending, PressOrRetreat)
    game = _karelia_attack([6, 6, 6, 6, 6])
    assert {a.type for a in game.legal_actions()} == {"press", "retreat"}
    assert game.state.pending is not None and game.state.pending["power"] == GER


@pytest.mark.rule("CL-TRANSPORT-unloaded-units-no-retreat", "CL-COMBAT-attacker-retreat")
def test_no_unit_retreats_from_an_amphibious_assault_unless_the_option_lets_aircraft() -> None:
    b, events = play(battle("1 infantry, 1 fighter", "2 infantry", "amphibious"), [6, 6, 6, 6, 1, 1, 6, 6])
    assert ended(events).result == "attacker" and b.state.cycle == 2  # no retreat was offered after round 1
    b = any_battle("1 infantry, 1 fighter", "2 infantry", "amphibious", RULES,
                   options={"amphibious_air_retreat": True})
    b, _ = play(b, [6, 6, 6, 6])
    assert isinstance(b.pending, PressOrRetreat) and b.pending.can_retreat_air and not b.pending.can_retreat_all


# ---------------------------------------------------------------- AA guns


@pytest.mark.rule("CL-AA-attacked-territory")
def test_aa_rolls_one_die_per_attacking_aircraft_once_per_battle() -> None:
    b, events = play(battle("2 fighters, 1 bomber, 1 armour", "3 infantry, 1 aa gun"), [6, 6, 1, 6, 6, 6, 6, 6, 6])
    assert fire(events, "aa fire") == [("fighter", 2, 1), ("bomber", 1, 1)]
    assert fire(events, "attacker fire") == [("armour", 1, 3), ("fighter", 2, 3)]  # the bomber fell first
    _, events = play(b, [6, 6, 6, 6, 6, 6], Press())
    assert not fire(events, "aa fire")  # once per battle


@pytest.mark.rule("CL-AA-one-gun-per-territory")
def test_a_second_aa_gun_adds_no_dice() -> None:
    _, events = play(battle("1 fighter, 1 armour", "1 infantry, 2 aa guns"), [6, 6, 6, 6])
    assert fire(events, "aa fire") == [("fighter", 1, 1)]


@pytest.mark.rule("CL-AA-flyover", "CL-AA-attacked-territory")
def test_aa_guns_fire_at_aircraft_flying_over_in_combat_movement_only() -> None:
    units = {"Ukraine S.S.R.": "Russia: 1 fighter", "East Europe": "Germany: 1 aa gun, 1 infantry",
             "Germany": "Germany: 1 infantry, 1 aa gun"}
    game = game_at(RUS, units, dice=[6, 6, 6, 6, 6])
    move(game, "1 fighter", "Ukraine S.S.R.", "East Europe", "Germany")
    to_combat(game)
    game.apply({"type": "fight", "space": "Germany"})
    rolled = dice_rolled(game)
    assert rolled[0] == (6,) and rolled[1] == (6,)  # East Europe's gun as it flies over, then Germany's
    game = game_at(RUS, {**units, "Germany": "Russia: 1 infantry"}, phase="non-combat-move", dice=[],
                   owners={"Germany": RUS})
    move(game, "1 fighter", "Ukraine S.S.R.", "East Europe", "Germany")
    assert dice_rolled(game) == []


@pytest.mark.rule("CL-AA-flyover")
def test_an_aircraft_shot_down_flying_over_never_reaches_its_battle() -> None:
    game = game_at(RUS, {"Ukraine S.S.R.": "Russia: 1 fighter", "East Europe": "Germany: 1 aa gun, 1 infantry",
                         "Germany": "Germany: 1 infantry"}, dice=[1])
    move(game, "1 fighter", "Ukraine S.S.R.", "East Europe", "Germany")
    to_combat(game)
    assert not [s for s in pending_battles(game.state, game.ruleset) if s.space == "Germany"]
    assert not [s for s in game.state.stacks("Germany") if s.owner == RUS]
    removed = [e for entry in game.log.entries for e in entry.events if e.type == "units_removed"]
    assert removed and removed[0].rule_id == "CL-AA-flyover"  # type: ignore[attr-defined]


# ---------------------------------------------------------------- bombardment


@pytest.mark.rule("CL-BOMBARD-battleship-support", "CL-BOMBARD-casualties-fire-back")
def test_a_battleship_bombards_once_and_its_casualty_fires_back() -> None:
    b, events = play(battle("2 infantry", "1 infantry", "amphibious", bombard="1 battleship"), [3, 6, 6, 2])
    assert fire(events, "bombardment") == [("battleship", 1, 4)]
    assert fire(events, "defender fire") == [("infantry", 1, 2)]  # hit by the battleship, it still rolls
    assert ended(events).result == "attacker" and ended(events).attacker == {"infantry": 1}
    b, events = play(battle("2 infantry", "1 infantry", "amphibious", bombard="1 battleship"), [5, 6, 6, 6, 1, 6, 6])
    assert b.state.cycle == 2 and len(fire(events, "bombardment")) == 1  # the first round only


@pytest.mark.rule("CL-BOMBARD-battleship-support")
def test_on_the_board_the_battleships_of_the_landing_zone_bombard() -> None:
    game = game_at(UK, {"North Sea Zone": "United Kingdom: 1 battleship", "Finland Norway": "Germany: 1 infantry"},
                   stacks=(("North Sea Zone", boat(UK, "United Kingdom:infantry", "United Kingdom:infantry")),),
                   dice=[4, 6, 6, 6])
    move(game, "2 infantry", "North Sea Zone", "Finland Norway")
    [site] = pending_battles(game.state, game.ruleset)
    assert [(z, s.unit) for z, s in site.bombard] == [("North Sea Zone", "battleship")]
    to_combat(game)
    game.apply({"type": "fight", "space": "Finland Norway"})
    assert dice_rolled(game)[0] == (4,)
    assert game.state.owners["Finland Norway"] == UK


@pytest.mark.rule("CL-BOMBARD-no-sea-battle")
def test_no_bombardment_from_a_zone_that_had_a_sea_battle() -> None:
    with pytest.raises(IllegalAction, match="sea battle"):
        battle("2 infantry", "1 infantry", "amphibious", bombard="1 battleship", sea_battle_fought=True)
    game = game_at(UK, {"Karelia Sea Zone": "United Kingdom: 1 battleship", "North Sea Zone": "Germany: 1 submarine",
                        "Finland Norway": "Germany: 1 infantry"},
                   stacks=(("North Sea Zone", boat(UK, "United Kingdom:infantry")),))
    move(game, "1 battleship", "Karelia Sea Zone", "North Sea Zone")
    move(game, "1 infantry", "North Sea Zone", "Finland Norway")
    [land] = [s for s in pending_battles(game.state, game.ruleset) if s.space == "Finland Norway"]
    assert land.bombard == () and land.fight_after == ("North Sea Zone",)


@pytest.mark.rule("CL-BOMBARD-not-a-move")
def test_no_bombardment_of_a_territory_attacked_overland() -> None:
    game = game_at(GER, {"Black Sea Zone": "Germany: 1 battleship", "Ukraine S.S.R.": "Germany: 2 armour",
                         "Caucasus": "Russia: 1 infantry"}, dice=[6, 6, 6], owners={"Ukraine S.S.R.": GER})
    move(game, "2 armour", "Ukraine S.S.R.", "Caucasus")
    [site] = pending_battles(game.state, game.ruleset)
    assert site.kind == "land" and site.bombard == ()
    to_combat(game)
    game.apply({"type": "fight", "space": "Caucasus"})
    assert dice_rolled(game)[0] == (6, 6)  # the armour's dice; the battleship never rolls
    with pytest.raises(MalformedInput, match="only in amphibious assaults"):
        battle("2 armour", "1 infantry", "land", bombard="1 battleship")



@pytest.mark.rule("CL-COMBAT-attacker-retreat")
def test_retreating_aircraft_land_in_non_combat_movement() -> None:
    game = game_at(GER, {"East Europe": "Germany: 1 armour, 1 fighter", KARELIA: "Russia: 3 infantry"},
                   dice=[6, 6, 6, 6, 6])
    move(game, "1 armour, 1 fighter", "East Europe", KARELIA)
    to_combat(game)
    game.apply({"type": "fight", "space": KARELIA})
    game.apply({"type": "retreat", "to": "East Europe"})
    assert [s.unit for s in game.state.stacks("East Europe")] == ["armour"]
    game.apply({"type": "end_phase"})
    assert game.state.phase == "non-combat-move"
    move(game, "1 fighter", KARELIA, "East Europe")
    assert sorted(s.unit for s in game.state.stacks("East Europe")) == ["armour", "fighter"]


@pytest.mark.rule("CL-COMBAT-capture-on-win")
def test_a_captured_territory_counts_for_its_new_owner_at_collect_income() -> None:
    game = game_at(GER, {"East Europe": "Germany: 1 armour", KARELIA: "Russia: 1 infantry"}, dice=[1, 6])
    before = base_income(game.state, game.ruleset, GER)
    move(game, "1 armour", "East Europe", KARELIA)
    to_combat(game)
    game.apply({"type": "fight", "space": KARELIA})
    assert game.state.owners[KARELIA] == GER
    bank = game.state.banks[GER]
    while game.state.phase != "collect-income":
        game.apply({"type": "end_phase"})
    game.apply({"type": "end_phase"})
    assert game.state.banks[GER] - bank == before + 3  # Karelia S.S.R. is worth 3

