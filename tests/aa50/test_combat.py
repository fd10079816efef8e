"""Anniversary land battles, AA guns and shore bombardment, in battles and on the board."""

from __future__ import annotations

import pytest

from aare.combat.decisions import ChooseCasualties, Press, PressOrRetreat, Retreat
from aare.engine import Game
from aare.errors import IllegalAction
from aare.movement.battles import pending_battles
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from tests.aa50.common import battle, dice_rolled, ended, fire, left, move, position, to_combat
from tests.combat.helpers import play, steps
from tests.movement.helpers import boat

GER, RUS, UK, US, ITA = "Germany", "Soviet Union", "United Kingdom", "United States", "Italy"
KARELIA = "Karelia S.S.R."


@pytest.mark.rule("AA50-COMBAT-sequence", "AA50-BOMBARD-who")
def test_aa_fire_then_bombardment_both_in_the_first_round_only() -> None:
    b = battle("2 infantry, 1 fighter", "2 infantry, 1 aa gun", "amphibious", bombard="1 cruiser, 1 battleship")
    b, events = play(b, [6, 6, 6, 6, 6, 6, 6, 6])
    assert [s for s, c in steps(events)][:4] == ["aa fire", "bombardment", "remove opening fire casualties",
                                                 "attacker fire"]
    assert fire(events, "aa fire") == [("fighter", 1, 1)]
    assert sorted(fire(events, "bombardment")) == [("battleship", 1, 4), ("cruiser", 1, 3)]
    assert isinstance(b.pending, PressOrRetreat) and not b.pending.can_retreat_all  # landed units stay
    _, events = play(b, [6, 6, 6, 6, 6], Press())
    assert {s for s, c in steps(events) if c == 2}.isdisjoint({"aa fire", "bombardment"})


@pytest.mark.rule("AA50-COMBAT-simultaneous-fire")
def test_the_defenders_hit_still_fire_back() -> None:
    _, events = play(battle("2 armour", "2 infantry", "land"), [1, 1, 2, 2])
    assert fire(events, "defender fire") == [("infantry", 2, 2)]
    assert ended(events).result == "draw"


@pytest.mark.rule("AA50-COMBAT-owner-chooses-casualties")
def test_the_defender_picks_its_losses_and_excess_hits_are_lost() -> None:
    b, _ = play(battle("3 armour", "1 infantry, 1 fighter", "land"), [1, 6, 6])
    assert isinstance(b.pending, ChooseCasualties) and b.pending.side == "defender"
    b, _ = play(b, [6, 6], {"fighter": 1})
    assert left(b.state.defender) == {"infantry": 1}
    _, events = play(battle("3 armour", "1 infantry", "land"), [1, 1, 1, 2])
    assert ended(events).result == "attacker"


@pytest.mark.rule("AA50-COMBAT-owner-chooses-casualties", "AA50-TURN-allied-territory-sharing")
def test_in_a_game_each_defending_owner_is_asked_and_both_allies_defend() -> None:
    game = position(ITA, "combat-move", {"Libya": "Italy: 3 armour", "Egypt": "United Kingdom: 1 fighter, "
                                         "1 infantry; United States: 1 fighter"}, dice=[1, 6, 6, 6, 6, 6])
    move(game, "3 armour", "Libya", "Egypt")
    to_combat(game)
    game.apply({"type": "fight", "space": "Egypt"})
    assert game.state.pending is not None and game.state.pending["kind"] == "choose_casualties"
    game.apply({"type": "choose_casualties", "units": "United States: 1 fighter"})
    assert sum(map(len, dice_rolled(game))) == 6  # 3 armour; the UK infantry, the UK and the US fighter
    assert game.state.pending is not None and game.state.pending["kind"] == "press_or_retreat"
    assert game.state.pending["defender"] == {UK: "1 infantry, 1 fighter"}


@pytest.mark.rule("AA50-TURN-allied-territory-sharing")
def test_an_allied_unit_never_joins_an_attack() -> None:
    game = position(UK, "combat-move", {"Egypt": "United Kingdom: 1 infantry; United States: 1 fighter",
                                        "Libya": "Italy: 1 infantry"})
    with pytest.raises(IllegalAction):
        move(game, "1 fighter", "Egypt", "Libya")


@pytest.mark.rule("AA50-COMBAT-retreat")
def test_retreat_goes_to_one_territory_attackers_came_from() -> None:
    game = position(GER, "combat-move", {"Finland": "Germany: 1 armour", "Baltic States": "Germany: 2 infantry",
                                         KARELIA: "Soviet Union: 3 infantry"}, dice=[6, 6, 6, 6, 6, 6])
    move(game, "1 armour", "Finland", KARELIA)
    move(game, "2 infantry", "Baltic States", KARELIA)
    to_combat(game)
    game.apply({"type": "fight", "space": KARELIA})
    assert game.state.pending is not None and game.state.pending["kind"] == "press_or_retreat"
    with pytest.raises(IllegalAction):
        game.apply({"type": "retreat", "to": "Belorussia"})
    game.apply({"type": "retreat", "to": "Finland"})
    assert {s.unit: s.count for s in game.state.stacks("Finland")} == {"armour": 1, "infantry": 2}
    assert game.state.stacks("Baltic States") == ()


@pytest.mark.rule("AA50-COMBAT-retreat-air-only")
def test_no_part_of_a_land_attack_retreats_alone() -> None:
    b, _ = play(battle("1 armour, 1 fighter", "3 infantry", "land"), [6, 6, 6, 6, 6])
    assert isinstance(b.pending, PressOrRetreat) and not b.pending.can_retreat_air
    with pytest.raises(IllegalAction):
        play(b, [], Retreat(air_only=True))


@pytest.mark.rule("AA50-COMBAT-capture-land")
def test_the_survivor_captures_and_the_territory_counts_at_collect_income() -> None:
    def income(capture: bool) -> int:
        game = position(GER, "combat-move", {"Finland": "Germany: 1 armour", KARELIA: "Soviet Union: 1 infantry",
                                             "Germany": "Germany: 1 factory"}, dice=[1, 6] if capture else [6, 1],
                        options={"national_objectives": False})  # Karelia would also meet an objective
        move(game, "1 armour", "Finland", KARELIA)
        to_combat(game)
        game.apply({"type": "fight", "space": KARELIA})
        assert (game.state.owners[KARELIA] == GER) is capture
        bank = game.state.banks[GER]
        while game.state.phase != "collect-income":
            game.apply({"type": "end_phase"})
        game.apply({"type": "end_phase"})
        return game.state.banks[GER] - bank

    value = load_ruleset("aa50-1942").board.space(KARELIA).ipc
    assert income(True) - income(False) == value


@pytest.mark.rule("AA50-AA-fires-at-attackers")
def test_one_aa_die_per_attacking_aircraft_hits_removed_before_they_fire() -> None:
    _, events = play(battle("3 fighters, 1 armour", "2 infantry, 1 aa gun", "land"), [1, 1, 4, 6, 6, 6, 6])
    assert fire(events, "aa fire") == [("fighter", 3, 1)]
    assert fire(events, "attacker fire") == [("armour", 1, 3), ("fighter", 1, 3)]


@pytest.mark.rule("AA50-AA-one-per-territory")
def test_several_aa_guns_in_a_territory_fire_as_one() -> None:
    _, events = play(battle("2 fighters, 1 armour", "2 infantry, 2 aa guns", "land"), [6, 6, 6, 6, 6, 6, 6])
    assert fire(events, "aa fire") == [("fighter", 2, 1)]


@pytest.mark.rule("AA50-AA-only-own-territory", "AA50-AA-fires-at-attackers")
def test_aa_guns_fire_only_at_aircraft_attacking_their_territory() -> None:
    game = position(GER, "combat-move", {"Baltic States": "Germany: 2 fighters, 1 infantry",
                                         "Belorussia": "Soviet Union: 1 aa gun, 1 infantry",
                                         KARELIA: "Soviet Union: 1 infantry, 1 aa gun"},
                    owners={"Belorussia": RUS}, dice=[6, 6, 6, 6, 6, 6])
    move(game, "2 fighters", "Baltic States", "Belorussia", KARELIA)  # over Belorussia's gun
    to_combat(game)
    game.apply({"type": "fight", "space": KARELIA})
    assert dice_rolled(game)[0] == (6, 6)  # Karelia's gun: one die per fighter; Belorussia's never fired


@pytest.mark.rule("AA50-AA-move-limits")
def test_aa_guns_do_not_move_in_combat_move() -> None:
    game = position(GER, "combat-move", {"Finland": "Germany: 1 aa gun, 1 armour", KARELIA: "Soviet Union: "
                                         "1 infantry"})
    with pytest.raises(IllegalAction):
        move(game, "1 aa gun", "Finland", KARELIA)
    game = position(GER, "non-combat-move", {"Finland": "Germany: 1 aa gun", "Norway": "Germany: 1 infantry"})
    move(game, "1 aa gun", "Finland", "Norway")


@pytest.mark.rule("AA50-BOMBARD-per-land-unit")
@pytest.mark.parametrize("rules", ["aa50-1941", "aa50-1942"])
def test_no_more_bombarding_ships_than_land_units_landing(rules: str) -> None:
    with pytest.raises(IllegalAction) as err:
        battle("1 infantry", "1 infantry", "amphibious", bombard="2 battleships")
    assert err.value.rule_id == "AA50-BOMBARD-per-land-unit"
    game = position(UK, "combat-move", {"SZ 6": "United Kingdom: 2 battleships", "Norway": "Germany: 1 infantry"},
                    stacks=(("SZ 6", boat(UK, "United Kingdom:infantry")),), dice=[6, 1, 6], rules=rules)
    move(game, "1 infantry", "SZ 6", "Norway")
    to_combat(game)
    game.apply({"type": "fight", "space": "Norway"})
    assert dice_rolled(game)[0] == (6,)  # one battleship bombards for the one infantry


@pytest.mark.rule("AA50-BOMBARD-who", "AA50-BOMBARD-allied-ships")
def test_own_cruisers_and_battleships_bombard_allied_ships_do_not() -> None:
    game = position(UK, "combat-move", {"SZ 6": "United Kingdom: 1 cruiser, 1 destroyer; United States: "
                                        "1 battleship", "Norway": "Germany: 1 infantry"},
                    stacks=(("SZ 6", boat(UK, "United Kingdom:infantry", "United Kingdom:armour")),))
    move(game, "1 infantry, 1 armour", "SZ 6", "Norway")
    [site] = pending_battles(game.state, game.ruleset)
    assert [(s.owner, s.unit) for _, s in site.bombard] == [(UK, "cruiser")]


@pytest.mark.rule("AA50-BOMBARD-not-after-sea-battle")
def test_ships_of_a_zone_with_a_sea_battle_do_not_bombard() -> None:
    with pytest.raises(IllegalAction, match="sea battle"):
        battle("2 infantry", "1 infantry", "amphibious", bombard="1 cruiser", sea_battle_fought=True)
    game = position(UK, "combat-move", {"SZ 7": "United Kingdom: 1 cruiser, 1 battleship",
                                        "SZ 6": "Germany: 1 destroyer", "Norway": "Germany: 1 infantry"},
                    stacks=(("SZ 6", boat(UK, "United Kingdom:infantry", "United Kingdom:armour")),))
    move(game, "1 cruiser, 1 battleship", "SZ 7", "SZ 6")
    move(game, "1 infantry, 1 armour", "SZ 6", "Norway")
    [land] = [s for s in pending_battles(game.state, game.ruleset) if s.space == "Norway"]
    assert land.bombard == ()


@pytest.mark.rule("AA50-BOMBARD-casualties-fire-back")
def test_a_bombardment_casualty_still_fires_in_the_first_round() -> None:
    _, events = play(battle("2 infantry", "1 infantry", "amphibious", bombard="1 cruiser"), [3, 6, 6, 2])
    assert fire(events, "bombardment") == [("cruiser", 1, 3)]
    assert fire(events, "defender fire") == [("infantry", 1, 2)]
    assert ended(events).result == "attacker" and ended(events).attacker == {"infantry": 1}


@pytest.mark.rule("AA50-OPTIONS-low-luck-not-base")
def test_no_low_luck_every_unit_rolls_its_die() -> None:
    for rules in ("aa50-1941", "aa50-1942"):
        assert not [o.key for o in load_ruleset(rules).spec.option_specs if "luck" in o.key]
    _, events = play(battle("3 infantry", "1 armour", "land"), [6, 6, 6, 6])
    assert fire(events, "attacker fire") == [("infantry", 3, 1)]


def _mobilizing(options: dict[str, bool]) -> Game:
    game = scenario("aa50-1942", nation=GER, phase="purchase", banks={GER: 30}, options=options)
    game.apply({"type": "purchase", "units": "2 aa guns"})
    while game.state.phase != "mobilize":
        game.apply({"type": "end_phase"})
    return game


@pytest.mark.rule("AA50-AA-one-per-territory")
def test_a_second_aa_gun_may_be_mobilized_unless_the_option_forbids_it() -> None:
    game = _mobilizing({})
    game.apply({"type": "place", "units": "1 aa gun", "space": "Germany"})  # Germany already has one
    assert sum(s.count for s in game.state.stacks("Germany") if s.unit == "aa_gun") == 2
    strict = _mobilizing({"one_aa_gun_per_territory": True})
    with pytest.raises(IllegalAction, match="one AA gun") as err:
        strict.apply({"type": "place", "units": "1 aa gun", "space": "Germany"})
    assert err.value.rule_id == "AA50-AA-one-per-territory"
    assert sum(s.count for s in strict.state.stacks("Germany") if s.unit == "aa_gun") == 1


@pytest.mark.rule("AA50-COMBAT-sequence", "AA50-BOMBARD-who", "AA50-UNITS-cruiser")
@pytest.mark.parametrize("rules", ["aa50-1941", "aa50-1942"])
def test_on_the_board_aa_fire_comes_before_the_cruisers_bombardment(rules: str) -> None:
    game = position(UK, "combat-move", {"SZ 6": "United Kingdom: 1 cruiser", "United Kingdom": "United Kingdom: "
                                        "1 fighter", "Norway": "Germany: 1 infantry, 1 aa gun"},
                    stacks=(("SZ 6", boat(UK, "United Kingdom:infantry", "United Kingdom:armour")),),
                    dice=[6, 4, 1, 1, 1, 6], rules=rules)
    move(game, "1 infantry, 1 armour", "SZ 6", "Norway")
    move(game, "1 fighter", "United Kingdom", "SZ 6", "Norway")
    to_combat(game)
    game.apply({"type": "fight", "space": "Norway"})
    purposes = [e.purpose.split(": ")[1] for entry in game.log.entries for e in entry.events  # type: ignore[attr-defined]
                if e.type == "dice_rolled"]
    assert purposes[:2] == ["aa fire", "bombardment"]
    assert game.state.owners["Norway"] == UK
