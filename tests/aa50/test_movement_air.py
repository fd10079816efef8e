"""Anniversary air movement: range over land and sea with no AA fire at aircraft passing over, one allowance
for the whole turn, landing where the side held since the turn began or on carriers, no one-way flights, and
fighters aboard carriers."""

from __future__ import annotations

import pytest

from aare.events import UnitsRemoved
from aare.movement import flags
from aare.movement.battles import pending_battles
from tests.aa50.test_movement import RULESETS, at, fight, settle
from tests.movement.helpers import end, move, mv, rejected, stacks_of, to_phase, units_in, with_owner, without


@pytest.mark.rule("AA50-AIRMOVE-range", "AA50-AA-only-own-territory")
@pytest.mark.parametrize("rules", RULESETS)
def test_aircraft_fly_their_range_over_enemy_guns_without_being_fired_on(rules: str) -> None:
    game = at(rules, "United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 1 bomber, 1 fighter", "France": "Germany: 1 aa gun, 1 infantry",
        "Germany": "Germany: 1 factory"}, dice=[4])
    rejected(game, mv("1 fighter", "United Kingdom", "SZ 7", "France", "Germany", "Poland", "Baltic States"),
             "AA50-AIRMOVE-range", "4 movement left")
    move(game, "1 bomber", "United Kingdom", "SZ 7", "France", "Germany", raid=True)
    [bomber] = stacks_of(game, "Germany", "bomber")
    assert not flags.values(bomber, flags.FLYOVER)
    assert [(s.space, s.kind) for s in pending_battles(game.state, game.ruleset)] == [("Germany", "bombing")]
    end(game)  # entering conduct combat: France's gun rolls no die
    assert not [e for entry in game.log.entries for e in entry.events if e.type == "dice_rolled"]


@pytest.mark.rule("AA50-AIRMOVE-range")
def test_long_range_aircraft_adds_two_spaces() -> None:
    path = ("United Kingdom", "SZ 8", "SZ 9", "SZ 11", "SZ 12", "Gibraltar")
    units = {"United Kingdom": "United Kingdom: 1 fighter"}
    plain = at("aa50-1942", "United Kingdom", "non-combat-move", units)
    rejected(plain, mv("1 fighter", *path), "AA50-AIRMOVE-range", "4 movement left")
    boosted = at("aa50-1942", "United Kingdom", "non-combat-move", units,
                 techs={"United Kingdom": ["long_range_aircraft"]})
    move(boosted, "1 fighter", *path)


@pytest.mark.rule("AA50-AIRMOVE-total-move-per-turn", "AA50-PHASES-ncm-unmoved-only")
def test_combat_and_noncombat_flights_share_one_allowance() -> None:
    game = at("aa50-1942", "Germany", "combat-move", {
        "Germany": "Germany: 1 fighter", "Belorussia": "Soviet Union: 1 infantry"},
        owners={"Baltic States": "Soviet Union", "East Poland": "Soviet Union", "Belorussia": "Soviet Union"})
    move(game, "1 fighter", "Germany", "Poland", "Baltic States", "Belorussia")
    won = to_phase(without(game, "Belorussia", "Soviet Union"), "non-combat-move")
    rejected(won, mv("1 fighter", "Belorussia", "East Poland", "Poland"), "AA50-AIRMOVE-range", "1 movement left")
    move(won, "1 fighter", "Belorussia", "Eastern Ukraine")  # German in 1942: its last space


@pytest.mark.rule("AA50-AIRMOVE-landing-friendly")
def test_aircraft_land_only_where_their_side_held_since_the_turn_began() -> None:
    game = at("aa50-1942", "Germany", "combat-move", {
        "Libya": "Germany: 1 armour, 2 fighters", "Egypt": "United Kingdom: 1 infantry"})
    move(game, "1 armour, 1 fighter", "Libya", "Egypt")
    won = to_phase(with_owner(without(game, "Egypt", "United Kingdom"), "Egypt", "Germany"), "non-combat-move")
    rejected(won, mv("1 fighter", "Libya", "Egypt"), "AA50-AIRMOVE-landing-friendly", "since the turn began")
    events = end(won)  # the fighter that stayed in Egypt has nowhere to land
    lost = [e for e in events if isinstance(e, UnitsRemoved)]
    assert [(e.space, e.stack.unit) for e in lost] == [("Egypt", "fighter")]
    assert units_in(won, "Libya") == {"fighter": 1}


@pytest.mark.rule("AA50-AIRMOVE-no-crash-planning")
def test_noncombat_flights_end_where_the_aircraft_can_land() -> None:
    game = at("aa50-1941", "United Kingdom", "non-combat-move", {"United Kingdom": "United Kingdom: 1 bomber"})
    rejected(game, mv("1 bomber", "United Kingdom", "SZ 8"), "AA50-AIRMOVE-carrier-landing", "cannot land at sea")
    rejected(game, mv("1 bomber", "United Kingdom", "SZ 7", "France"), "AA50-AIRMOVE-landing-friendly")
    attack = at("aa50-1941", "United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 1 fighter", "SZ 11": "Germany: 1 submarine"})
    rejected(attack, mv("1 fighter", "United Kingdom", "SZ 8", "SZ 9", "SZ 11"), "AA50-AIRMOVE-no-crash-planning",
             "no place to land")


@pytest.mark.rule("AA50-AIRMOVE-carrier-landing")
def test_fighters_land_on_friendly_carriers_with_room_and_bombers_never() -> None:
    game = at("aa50-1941", "United States", "non-combat-move", {
        "United Kingdom": "United States: 2 fighters, 1 bomber", "SZ 7": "United Kingdom: 1 carrier, 1 fighter"})
    rejected(game, mv("2 fighters", "United Kingdom", "SZ 7"), "AA50-AIRMOVE-carrier-landing", "no friendly carrier")
    rejected(game, mv("1 bomber", "United Kingdom", "SZ 7"), "AA50-AIRMOVE-carrier-landing", "cannot land at sea")
    move(game, "1 fighter", "United Kingdom", "SZ 7")
    rejected(game, mv("1 fighter", "United Kingdom", "SZ 7"), "AA50-AIRMOVE-carrier-landing", "no friendly carrier")
    events = end(game)
    assert not [e for e in events if isinstance(e, UnitsRemoved)]
    assert units_in(game, "SZ 7", "United States") == {"fighter": 1}


@pytest.mark.rule("AA50-AIRMOVE-carrier-fighters-move-with")
def test_allied_fighters_ride_an_attacking_carrier_and_do_not_fight() -> None:
    game = at("aa50-1942", "United Kingdom", "combat-move", {
        "SZ 13": "United Kingdom: 1 carrier, 1 fighter; United States: 1 fighter", "SZ 14": "Italy: 1 destroyer"})
    move(game, "1 carrier", "SZ 13", "SZ 14")
    move(game, "1 fighter", "SZ 13", "SZ 14")  # the owner's fighter flies off and fights
    assert units_in(game, "SZ 13") == {}
    [site] = pending_battles(game.state, game.ruleset)
    assert sorted(s.unit for s in site.attackers) == ["carrier", "fighter"]
    assert [(s.owner, s.unit) for s in site.allied] == [("United States", "fighter")]


@pytest.mark.rule("AA50-AIRMOVE-defending-carrier-fighters")
@pytest.mark.parametrize(("zone", "near", "landed"), [
    ("SZ 6", {}, {"United Kingdom": {"fighter": 2}}),  # to the United Kingdom, one space away
    ("SZ 11", {"SZ 10": "United States: 1 carrier, 1 fighter"}, {"SZ 10": {"fighter": 2, "carrier": 1}}),
    ("SZ 11", {}, {}),  # no land, no carrier: lost
])
def test_fighters_of_a_sunk_carrier_land_one_space_away_or_are_lost(
        zone: str, near: dict[str, str], landed: dict[str, dict[str, int]]) -> None:
    start = "SZ 5" if zone == "SZ 6" else "SZ 18"
    game = at("aa50-1942", "Germany", "combat-move", {
        start: "Germany: 1 submarine", zone: "United Kingdom: 1 carrier, 2 fighters", **near},
        dice=[1, 6, 6, 6, 6, 6, 6])
    move(game, "1 submarine", start, zone)
    end(game)
    fight(game, zone)  # the sub's surprise strike sinks the carrier; the fighters defend and cannot hit it
    settle(game)
    assert units_in(game, zone, "United Kingdom") == {}
    assert units_in(game, "United Kingdom", "United Kingdom") == landed.get("United Kingdom", {})
    if "SZ 10" in landed:  # one fighter finds the room left on the American carrier; the other is lost
        assert units_in(game, "SZ 10") == landed["SZ 10"]
        assert units_in(game, "SZ 10", "United Kingdom") == {"fighter": 1}


@pytest.mark.rule("AA50-COMBATMOVE-air-reserve-landing", "AA50-AIRMOVE-no-crash-planning")
def test_attacking_aircraft_keep_the_moves_to_reach_a_landing_spot() -> None:
    game = at("aa50-1942", "Germany", "combat-move", {
        "Germany": "Germany: 1 fighter", "Belorussia": "Soviet Union: 1 infantry"},
        owners={"Baltic States": "Soviet Union", "East Poland": "Soviet Union", "Belorussia": "Soviet Union",
                "Eastern Ukraine": "Soviet Union"})
    # three spaces to the attack, Poland two beyond: 5 > 4
    rejected(game, mv("1 fighter", "Germany", "Poland", "Baltic States", "Belorussia"),
             "AA50-AIRMOVE-no-crash-planning", "1 movement left after Belorussia and no place to land")
    far = {"United Kingdom": "United Kingdom: 1 fighter", "SZ 11": "Germany: 1 submarine"}
    alone = at("aa50-1941", "United Kingdom", "combat-move", far)
    rejected(alone, mv("1 fighter", "United Kingdom", "SZ 8", "SZ 9", "SZ 11"), "AA50-AIRMOVE-no-crash-planning")
    carrier = at("aa50-1941", "United Kingdom", "combat-move", {**far, "SZ 17": "United Kingdom: 1 carrier"})
    move(carrier, "1 fighter", "United Kingdom", "SZ 8", "SZ 9", "SZ 11")  # the carrier can come to meet it
