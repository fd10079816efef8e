"""Enhanced Realism '98 retreats on the board: the attacker after any round, else the defender; split
destinations; all units go; a defender into an embattled territory only as a last resort; defending aircraft."""

from __future__ import annotations

from typing import Any

import pytest

from aare.action_text import format_action, format_decision, parse_action_text
from aare.engine import Game
from aare.errors import IllegalAction, MalformedInput
from aare.game_log import GameLog
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario

RULES = "realism-98"
GER, RUS = "Germany", "Russia"
KARELIA, EAST_EUROPE, UKRAINE = "Karelia S.S.R.", "East Europe", "Ukraine S.S.R."
MISS = [6] * 30


def position(nation: str, units: dict[str, str], *, owners: dict[str, str] | None = None,
             dice: list[int] | None = None) -> Game:
    return scenario(RULES, nation=nation, phase="combat-move", clear=True, units=units, owners=owners or {},
                    dice=dice if dice is not None else MISS)


def move(game: Game, units: str, *path: str) -> None:
    game.apply({"type": "move", "units": units, "path": list(path)})


def fight(game: Game, space: str) -> None:
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": space})


def here(game: Game, space: str, owner: str | None = None) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in game.state.stacks(space):
        if owner is None or s.owner == owner:
            out[s.unit] = out.get(s.unit, 0) + s.count
    return out


def pending(game: Game) -> dict[str, Any]:
    assert game.state.pending is not None
    return dict(game.state.pending)


def refused(game: Game, action: dict[str, Any], rule: str) -> None:
    before = game.state
    with pytest.raises(IllegalAction, match=rule):
        game.apply(action)
    assert game.state == before


def karelia_attack(defenders: str = "3 infantry", **kw: Any) -> Game:
    """Germany attacks Karelia from East Europe with 2 infantry and 2 armour; round 1 all misses."""
    game = position(GER, {EAST_EUROPE: "Germany: 2 infantry, 2 armour", KARELIA: f"Russia: {defenders}"}, **kw)
    move(game, "2 infantry, 2 armour", EAST_EUROPE, KARELIA)
    fight(game, KARELIA)
    return game


@pytest.mark.rule("REAL98-RETREAT-attacker-any-round", "REAL98-RETREAT-split-destinations")
def test_the_attacker_retreats_after_a_round_to_several_friendly_neighbours() -> None:
    game = karelia_attack()
    view = pending(game)
    assert (view["kind"], view["side"], view["power"]) == ("press_or_retreat", "attacker", GER)
    # every friendly neighbour of Karelia, not only East Europe where the attack came from
    assert set(view["destinations"]) == {EAST_EUROPE, "Finland Norway", UKRAINE}
    game.apply({"type": "retreat", "split": {UKRAINE: "1 armour", EAST_EUROPE: "2 infantry, 1 armour"}})
    assert here(game, UKRAINE) == {"armour": 1}
    assert here(game, EAST_EUROPE) == {"infantry": 2, "armour": 1}
    assert here(game, KARELIA) == {"infantry": 3} and game.state.owners[KARELIA] == RUS
    assert game.state.pending is None


@pytest.mark.rule("REAL98-RETREAT-attacker-any-round")
def test_the_attacker_may_also_retreat_after_a_later_round() -> None:
    game = karelia_attack()
    game.apply({"type": "press"})
    game.apply({"type": "press"})  # the defender stays
    assert pending(game)["cycle"] == 2 and pending(game)["side"] == "attacker"
    game.apply({"type": "retreat", "to": UKRAINE})
    assert here(game, UKRAINE) == {"infantry": 2, "armour": 2}


@pytest.mark.rule("REAL98-RETREAT-all-units")
def test_no_partial_retreat_and_no_enemy_destination() -> None:
    game = karelia_attack()
    refused(game, {"type": "retreat", "split": {UKRAINE: "2 armour"}}, "REAL98-RETREAT-all-units")
    refused(game, {"type": "retreat", "split": {UKRAINE: "2 armour", "Russia": "2 infantry"}},
            "REAL98-RETREAT-split-destinations")
    refused(game, {"type": "retreat", "to": "Caucasus"}, "REAL98-RETREAT-split-destinations")


@pytest.mark.rule("REAL98-RETREAT-all-units")
def test_submarines_never_submerge_alone() -> None:
    game = position(GER, {"Baltic Sea Zone": "Germany: 2 submarine",
                          "North Sea Zone": "United Kingdom: 1 battleship"})
    move(game, "2 submarine", "Baltic Sea Zone", "North Sea Zone")
    fight(game, "North Sea Zone")
    view = pending(game)
    assert view["kind"] == "press_or_retreat"  # no offer to submerge: only the whole side retreats
    kinds = {a.type for a in game.legal_actions()}
    assert "submerge" not in kinds and {"press", "retreat"} <= kinds


@pytest.mark.rule("REAL98-RETREAT-defender")
def test_the_defender_retreats_when_the_attacker_stays_and_the_attacker_takes_the_territory() -> None:
    game = karelia_attack()
    game.apply({"type": "press"})
    view = pending(game)
    assert (view["kind"], view["side"], view["power"]) == ("press_or_retreat", "defender", RUS)
    assert set(view["destinations"]) == {"Caucasus", "Russia"}
    game.apply({"type": "retreat", "to": "Russia", "power": RUS})
    assert here(game, "Russia") == {"infantry": 3}
    assert here(game, KARELIA) == {"infantry": 2, "armour": 2}
    assert game.state.owners[KARELIA] == GER
    assert game.state.pending is None


@pytest.mark.rule("REAL98-RETREAT-defender")
def test_the_defender_may_stand_and_fight_on() -> None:
    game = karelia_attack()
    game.apply({"type": "press"})
    game.apply({"type": "press"})
    assert pending(game)["cycle"] == 2 and pending(game)["side"] == "attacker"


@pytest.mark.rule("REAL98-RETREAT-split-destinations", "REAL98-RETREAT-defender")
def test_the_defender_splits_its_retreat() -> None:
    game = karelia_attack("2 infantry, 1 armour")
    game.apply({"type": "press"})
    game.apply({"type": "retreat", "split": {"Russia": "2 infantry", "Caucasus": "1 armour"}})
    assert here(game, "Russia") == {"infantry": 2}
    assert here(game, "Caucasus") == {"armour": 1}
    assert game.state.owners[KARELIA] == GER


@pytest.mark.rule("REAL98-RETREAT-into-battle")
def test_into_an_embattled_territory_only_without_another_choice() -> None:
    units = {EAST_EUROPE: "Germany: 2 infantry, 2 armour", KARELIA: "Russia: 3 infantry",
             UKRAINE: "Germany: 1 armour", "Caucasus": "Russia: 1 infantry"}
    # with Russia (the territory) friendly: Caucasus, under attack, is refused
    game = position(GER, units)
    move(game, "2 infantry, 2 armour", EAST_EUROPE, KARELIA)
    move(game, "1 armour", UKRAINE, "Caucasus")
    fight(game, KARELIA)
    game.apply({"type": "press"})
    assert pending(game)["destinations"] == ["Russia"]
    refused(game, {"type": "retreat", "to": "Caucasus"}, "REAL98-RETREAT-into-battle")
    # with Russia held by Germany the embattled Caucasus is the only way out: the infantry join its battle
    game = position(GER, units, owners={"Russia": GER})
    move(game, "2 infantry, 2 armour", EAST_EUROPE, KARELIA)
    move(game, "1 armour", UKRAINE, "Caucasus")
    fight(game, KARELIA)
    game.apply({"type": "press"})
    assert pending(game)["destinations"] == ["Caucasus"]
    game.apply({"type": "retreat", "to": "Caucasus"})
    assert here(game, "Caucasus", RUS) == {"infantry": 4}
    game.apply({"type": "fight", "space": "Caucasus"})
    assert pending(game)["defender"] == {RUS: "4 infantry"}


def _only_friendly(keep: set[str]) -> dict[str, str]:
    """Every Allied territory but `keep` held by Germany."""
    board = load_ruleset(RULES).board
    return {name: GER for name, owner in board.owners.items()
            if owner is not None and board.side_of(owner) != board.side_of(GER) and name not in keep | {KARELIA}}


@pytest.mark.rule("REAL98-RETREAT-defending-aircraft")
def test_defending_aircraft_fly_to_the_closest_friendly_territory_in_range() -> None:
    # no friendly neighbour: Kazakh S.S.R. (2 away) is the closest friendly territory; India (3) is not
    game = karelia_attack("1 fighter", owners=_only_friendly({"Kazakh S.S.R.", "India"}))
    game.apply({"type": "press"})
    assert pending(game)["destinations"] == ["Kazakh S.S.R."]
    refused(game, {"type": "retreat", "to": "India"}, "REAL98-RETREAT-defending-aircraft")
    game.apply({"type": "retreat", "to": "Kazakh S.S.R."})
    assert here(game, "Kazakh S.S.R.") == {"fighter": 1}
    assert here(game, KARELIA) == {"infantry": 2, "armour": 2}


@pytest.mark.rule("REAL98-RETREAT-defending-aircraft")
def test_defending_aircraft_go_to_an_adjacent_friendly_territory_first() -> None:
    game = karelia_attack("1 infantry, 1 fighter")
    game.apply({"type": "press"})
    refused(game, {"type": "retreat", "split": {"Russia": "1 infantry", "Kazakh S.S.R.": "1 fighter"}},
            "REAL98-RETREAT-defending-aircraft")
    game.apply({"type": "retreat", "split": {"Russia": "1 infantry", "Caucasus": "1 fighter"}})
    assert here(game, "Caucasus") == {"fighter": 1} and here(game, "Russia") == {"infantry": 1}


@pytest.mark.rule("REAL98-RETREAT-defending-aircraft")
def test_aircraft_with_no_friendly_territory_in_range_cannot_retreat() -> None:
    # the closest friendly territory is 5 away: a bomber (range 6) retreats, a fighter (4) stays and fights
    far = {"Alaska"}
    game = karelia_attack("1 fighter, 1 bomber", owners=_only_friendly(far))
    game.apply({"type": "press"})
    assert pending(game)["destinations"] == ["Alaska"]
    game.apply({"type": "retreat", "to": "Alaska"})
    assert pending(game)["side"] == "attacker" and pending(game)["defender"] == {RUS: "1 fighter"}
    game.apply({"type": "press"})
    # a lone fighter that cannot retreat is offered no retreat
    assert pending(game)["side"] == "attacker" and pending(game)["cycle"] == 3
    assert here(game, "Alaska") == {}  # the bomber arrives when the battle ends


@pytest.mark.rule("REAL98-RETREAT-split-destinations")
def test_a_split_retreat_in_text_and_a_game_file_replaying_it() -> None:
    game = karelia_attack("2 infantry, 1 armour")
    game.apply({"type": "press"})
    text = "retreat 2 infantry to Russia; 1 armour to Caucasus"
    action = parse_action_text(text, game.ruleset)
    assert action == {"type": "retreat", "split": {"Russia": "2 infantry", "Caucasus": "1 armour"}}
    assert format_action(action) == text
    assert format_decision(pending(game)).startswith("Russia stands or retreats")
    game.apply(action)
    again = GameLog(game.log.initial, game.log.entries).replay()
    assert again == game.state


# ---------------------------------------------------------------- ships

NORTH_SEA, BALTIC, WEST_SPAIN = "North Sea Zone", "Baltic Sea Zone", "West Spain Sea Zone"


def sea_attack(extra: dict[str, str] | None = None, british: str = "1 carrier, 2 fighter") -> Game:
    """Germany attacks a British carrier with two fighters in the North Sea with two battleships; all miss."""
    units = {BALTIC: "Germany: 2 battleship", NORTH_SEA: f"United Kingdom: {british}", **(extra or {})}
    game = position(GER, units)
    move(game, "2 battleship", BALTIC, NORTH_SEA)
    fight(game, NORTH_SEA)
    return game


@pytest.mark.rule("REAL98-RETREAT-ships-any-adjacent")
def test_a_defending_carrier_retreats_into_a_zone_with_an_enemy_submarine_and_fights_nobody_there() -> None:
    game = sea_attack({WEST_SPAIN: "Germany: 1 submarine"})
    game.apply({"type": "press"})
    view = pending(game)
    assert view["side"] == "defender" and view["power"] == "United Kingdom"
    assert set(view["destinations"]) == {NORTH_SEA, BALTIC, "East Canada Sea Zone", "Karelia Sea Zone", WEST_SPAIN}
    game.apply({"type": "retreat", "to": WEST_SPAIN})
    assert here(game, WEST_SPAIN, "United Kingdom") == {"carrier": 1, "fighter": 2}
    assert here(game, NORTH_SEA) == {"battleship": 2}
    # no battle in West Spain this turn: combat may end with the fleets sharing the zone
    assert not [a for a in game.legal_actions() if a.type == "fight"]
    game.apply({"type": "end_phase"})
    assert game.state.phase != "conduct-combat"


@pytest.mark.rule("REAL98-RETREAT-ships-any-adjacent", "REAL98-RETREAT-split-destinations")
def test_retreating_ships_split_and_fighters_need_a_carrier_beside_them() -> None:
    game = sea_attack(british="1 carrier, 2 fighter, 1 battleship")
    game.apply({"type": "press"})
    refused(game, {"type": "retreat", "split": {WEST_SPAIN: "1 carrier", "East Canada Sea Zone":
                                                 "1 battleship, 2 fighter"}}, "REAL98-RETREAT-split-destinations")
    game.apply({"type": "retreat", "split": {WEST_SPAIN: "1 carrier, 2 fighter", "East Canada Sea Zone":
                                              "1 battleship"}})
    assert here(game, WEST_SPAIN) == {"carrier": 1, "fighter": 2}
    assert here(game, "East Canada Sea Zone") == {"battleship": 1}


@pytest.mark.rule("REAL98-RETREAT-break-off-contact")
def test_the_attacker_breaks_off_contact_and_both_fleets_stay() -> None:
    game = sea_attack()
    game.apply({"type": "retreat", "to": NORTH_SEA})
    assert game.state.pending is None
    assert here(game, NORTH_SEA, GER) == {"battleship": 2}
    assert here(game, NORTH_SEA, "United Kingdom") == {"carrier": 1, "fighter": 2}
    assert not [a for a in game.legal_actions() if a.type == "fight"]
    game.apply({"type": "end_phase"})


@pytest.mark.rule("REAL98-RETREAT-break-off-contact")
def test_the_defender_breaks_off_contact_and_stays() -> None:
    game = sea_attack()
    game.apply({"type": "press"})
    game.apply({"type": "retreat", "to": NORTH_SEA})
    assert game.state.pending is None
    assert here(game, NORTH_SEA) == {"battleship": 2, "carrier": 1, "fighter": 2}


SHARED = {NORTH_SEA: "Germany: 2 battleship; United Kingdom: 1 carrier, 2 fighter"}


def _uk_turn(phase: str = "combat-move") -> Game:
    return scenario(RULES, nation="United Kingdom", phase=phase, clear=True, units=SHARED, dice=MISS)


@pytest.mark.rule("REAL98-RETREAT-shared-zone-next-player")
def test_in_a_shared_zone_the_next_player_may_stay_without_a_battle() -> None:
    game = _uk_turn()
    game.apply({"type": "end_phase"})
    assert game.state.phase == "conduct-combat"
    assert [a.space for a in game.legal_actions() if a.type == "fight"] == [NORTH_SEA]  # it may attack ...
    game.apply({"type": "end_phase"})  # ... or break off contact: no battle
    assert game.state.phase != "conduct-combat"
    assert here(game, NORTH_SEA) == {"battleship": 2, "carrier": 1, "fighter": 2}


@pytest.mark.rule("REAL98-RETREAT-shared-zone-next-player")
def test_in_a_shared_zone_the_next_player_may_attack_or_leave() -> None:
    attack = _uk_turn()
    attack.apply({"type": "end_phase"})
    attack.apply({"type": "fight", "space": NORTH_SEA})
    assert pending(attack)["attacker"] == {"United Kingdom": "2 fighters, 1 carrier"}
    leave = scenario(RULES, nation="United Kingdom", phase="combat-move", clear=True, dice=MISS,
                     units={NORTH_SEA: "Germany: 2 battleship; United Kingdom: 1 battleship"})
    move(leave, "1 battleship", NORTH_SEA, "East Canada Sea Zone")
    leave.apply({"type": "end_phase"})
    assert not [a for a in leave.legal_actions() if a.type == "fight"]


@pytest.mark.rule("REAL98-RETREAT-shared-zone-next-player")
def test_under_the_classic_rules_a_shared_zone_must_be_fought() -> None:
    game = scenario("classic-2e", nation="United Kingdom", phase="combat-move", clear=True, units=SHARED, dice=MISS)
    game.apply({"type": "end_phase"})
    with pytest.raises(IllegalAction, match="CL-COMBAT-attacker-orders-battles"):
        game.apply({"type": "end_phase"})


@pytest.mark.rule("REAL98-RETREAT-new-ships-in-enemy-zone")
def test_new_ships_may_be_placed_in_a_zone_with_enemy_ships_and_share_it() -> None:
    game = scenario(RULES, nation="United Kingdom", phase="purchase", clear=True, banks={"United Kingdom": 30},
                    units={"United Kingdom": "United Kingdom: 1 factory", NORTH_SEA: "Germany: 1 submarine"},
                    dice=MISS)
    game.apply({"type": "purchase", "units": "1 battleship"})
    while game.state.phase != "mobilize":
        game.apply({"type": "end_phase"})
    game.apply({"type": "place", "units": "1 battleship", "space": NORTH_SEA})
    assert here(game, NORTH_SEA) == {"submarine": 1, "battleship": 1}
    # Germany, next to move, finds the zone shared: it may stay there without a battle
    while game.state.nation != GER or game.state.phase != "conduct-combat":
        game.apply({"type": "end_phase"})
    assert [a.space for a in game.legal_actions() if a.type == "fight"] == [NORTH_SEA]
    game.apply({"type": "end_phase"})
    assert here(game, NORTH_SEA) == {"submarine": 1, "battleship": 1}


@pytest.mark.rule("REAL98-RETREAT-split-destinations")
def test_a_retreat_to_a_place_off_the_list_names_the_realism_rule() -> None:
    game = karelia_attack()
    refused(game, {"type": "retreat", "to": "Germany"}, "REAL98-RETREAT-split-destinations")
    game = sea_attack()
    refused(game, {"type": "retreat", "to": "Black Sea Zone"}, "REAL98-RETREAT-split-destinations")


@pytest.mark.rule("REAL98-RETREAT-new-ships-in-enemy-zone")
def test_placing_new_ships_beside_enemy_ships_is_no_option_in_realism() -> None:
    assert load_ruleset(RULES).options["naval_placement_in_enemy_zones"] is True
    with pytest.raises(MalformedInput):
        load_ruleset(RULES, {"naval_placement_in_enemy_zones": "false"})
    assert load_ruleset("classic-2e").options["naval_placement_in_enemy_zones"] is False


@pytest.mark.rule("REAL98-RETREAT-all-units")
def test_the_usual_exception_aircraft_of_an_amphibious_assault_retreat_alone() -> None:
    from aare.combat.decisions import PressOrRetreat, Retreat
    from aare.combat.engine import advance, decide
    from aare.dice import ScriptedDice
    from aare.odds import build_battle

    b, _ = advance(build_battle("1 infantry, 1 fighter", "2 infantry", RULES, "amphibious"), ScriptedDice(MISS))
    assert isinstance(b.state.pending, PressOrRetreat)
    assert b.state.pending.can_retreat_air and not b.state.pending.can_retreat_all
    b = decide(b, Retreat(air_only=True))
    assert [k.type for k, _ in b.state.attacker if k.has("retreated")] == ["fighter"]
    # the Classic options for submarines withdrawing alone and for this exception are not offered
    keys = {spec.key for spec in load_ruleset(RULES).spec.option_specs}
    assert keys.isdisjoint({"attacking_subs_withdraw", "defending_subs_withdraw", "amphibious_air_retreat"})


EAST_MED, CENTRAL_MED, RED_SEA = "East Mediterranean Sea Zone", "Central Mediterranean Sea Zone", "Red Sea Zone"
SUEZ_HELD = {"Anglo Sudan Egypt": "United Kingdom", "Syria Jordan": "United Kingdom"}


@pytest.mark.rule("REAL98-RETREAT-ships-any-adjacent", "CL-SEAMOVE-suez")
def test_ships_retreat_through_a_canal_only_when_their_side_may_pass_it() -> None:
    units = {CENTRAL_MED: "Germany: 2 battleship", EAST_MED: "United Kingdom: 1 battleship"}
    game = position(GER, units, owners=SUEZ_HELD)
    move(game, "2 battleship", CENTRAL_MED, EAST_MED)
    fight(game, EAST_MED)
    view = pending(game)
    assert view["side"] == "attacker" and RED_SEA not in view["destinations"]
    assert CENTRAL_MED in view["destinations"]
    refused(game, {"type": "retreat", "to": RED_SEA}, "CL-SEAMOVE-suez")
    refused(game, {"type": "retreat", "split": {RED_SEA: "1 battleship", CENTRAL_MED: "1 battleship"}},
            "CL-SEAMOVE-suez")
    assert not [a for a in game.legal_actions() if a.type == "retreat" and RED_SEA in (a.to, *a.split)]
    game.apply({"type": "press"})
    view = pending(game)
    assert view["side"] == "defender" and RED_SEA in view["destinations"]  # the British hold the canal
    game.apply({"type": "retreat", "to": RED_SEA})
    assert here(game, RED_SEA) == {"battleship": 1}
    assert here(game, EAST_MED) == {"battleship": 2}


@pytest.mark.rule("REAL98-RETREAT-split-destinations")
def test_split_retreats_are_offered_a_few_at_a_time_and_each_one_is_legal() -> None:
    game = karelia_attack()
    offered = [a for a in game.legal_actions() if a.type == "retreat"]
    splits = [a for a in offered if a.split]
    assert {a.to for a in offered if not a.split} == {EAST_EUROPE, "Finland Norway", UKRAINE}
    assert 2 <= len(splits) <= 6  # a pair of destinations each way: halves, or by unit type
    for action in splits:
        assert sum(int(text.split()[0]) for part in action.split.values() for text in part.split(", ")) == 4
    halves = next(a for a in splits if set(a.split) == {EAST_EUROPE, "Finland Norway"}
                  and a.split[EAST_EUROPE] == "1 infantry, 1 armour")
    game.apply(halves)
    assert here(game, EAST_EUROPE) == {"infantry": 1, "armour": 1}
    assert here(game, "Finland Norway") == {"infantry": 1, "armour": 1}
    # a single retreating unit has no split
    game = position(GER, {EAST_EUROPE: "Germany: 1 armour", KARELIA: "Russia: 3 infantry"})
    move(game, "1 armour", EAST_EUROPE, KARELIA)
    fight(game, KARELIA)
    assert not [a for a in game.legal_actions() if a.type == "retreat" and a.split]
