"""Classic sea battles: attacking submarines' sneak attack every round, defending submarines firing with the
other defenders, submarine hits never on aircraft, withdrawal, one-hit battleships and transports that fight."""

from __future__ import annotations

from typing import Any

import pytest
from tests.aa50.common import battle as any_battle
from tests.aa50.common import ended, fire, left, move, position, to_combat
from tests.combat.helpers import play, steps

from aare.action_text import format_action, format_decision, parse_action_text
from aare.combat.decisions import ChooseCasualties, ChooseSubmerge, Press, PressOrRetreat, Submerge
from aare.combat.engine import decide
from aare.errors import IllegalAction, UnknownName
from aare.phases.conduct_combat import open_battles
from aare.rules.ruleset import load_ruleset

RULES = "classic-2e"
GER, UK = "Germany", "United Kingdom"


def battle(attacker: str, defender: str, kind: str = "sea", **inputs: Any) -> Any:
    return any_battle(attacker, defender, kind, RULES, **inputs)


@pytest.mark.rule("CL-NAVALCOMBAT-sub-sneak-attack", "CL-UNITS-submarine")
def test_an_attacking_sub_strikes_first_and_its_victim_never_fires() -> None:
    _, events = play(battle("1 submarine", "1 transport"), [2])
    assert fire(events, "attacker sub first strike") == [("submarine", 1, 2)]
    assert not fire(events, "defender fire")  # the transport is gone before it could roll
    assert ended(events).result == "attacker"


@pytest.mark.rule("CL-NAVALCOMBAT-sub-sneak-attack", "CL-COMBAT-round-sequence")
def test_the_sneak_attack_opens_every_round() -> None:
    b, events = play(battle("1 submarine, 1 battleship", "2 battleships"), [6, 6, 6, 6])
    assert [s for s, c in steps(events)][:2] == ["attacker sub first strike", "remove opening fire casualties"]
    assert isinstance(b.pending, (PressOrRetreat, ChooseSubmerge))
    while b.pending is not None and not isinstance(b.pending, PressOrRetreat):
        b = decide(b, Submerge(0))
    b, events = play(b, [1, 6, 6], Press())
    assert ("attacker sub first strike", 2) in steps(events)
    assert fire(events, "defender fire") == [("battleship", 1, 4)]  # one battleship sunk before it fired


@pytest.mark.rule("CL-NAVALCOMBAT-defending-subs-normal", "CL-COMBAT-round-sequence")
def test_a_defending_sub_fires_with_the_defenders_after_the_attackers() -> None:
    _, events = play(battle("1 battleship", "1 submarine"), [1, 2])
    assert "defender sub first strike" not in {s for s, _ in steps(events)}
    assert fire(events, "defender fire") == [("submarine", 1, 2)]
    assert ended(events).result == "draw"  # hit by the battleship, the sub still rolled and hit


@pytest.mark.rule("CL-NAVALCOMBAT-sub-no-air-hits", "CL-COMBAT-owner-chooses-casualties")
def test_sub_hits_go_to_ships_never_to_aircraft() -> None:
    b, _ = play(battle("1 fighter, 1 carrier", "1 submarine"), [6, 6, 2])
    assert left(b.state.attacker) == {"fighter": 1}  # the carrier took the sub's hit
    b, _ = play(battle("2 fighters", "1 submarine"), [6, 6, 1])
    assert left(b.state.attacker) == {"fighter": 2}  # the hit is lost: only aircraft to take it
    b, _ = play(battle("1 fighter", "1 submarine"), [3, 6])
    assert b.state.ended and left(b.state.defender) == {}  # aircraft hit submarines


@pytest.mark.rule("CL-NAVALCOMBAT-sub-no-air-hits", "CL-NAVALCOMBAT-sub-sneak-attack")
def test_an_attacking_subs_sneak_attack_cannot_reach_defending_fighters() -> None:
    b, events = play(battle("1 submarine, 1 battleship", "1 carrier, 2 fighters"), [1, 6, 6, 6])
    assert fire(events, "attacker sub first strike") == [("submarine", 1, 2)]
    assert left(b.state.defender) == {"fighter": 2}  # the carrier went: the fighters fight on


@pytest.mark.rule("CL-NAVALCOMBAT-sub-withdraw", "CL-COMBAT-continue-until")
def test_either_sides_subs_may_withdraw_after_a_round_while_the_rest_fight_on() -> None:
    b, _ = play(battle("1 submarine, 1 battleship", "1 submarine, 1 battleship"), [6, 6, 6, 6])
    assert isinstance(b.pending, ChooseSubmerge) and b.pending.side == "attacker"
    assert b.pending.rule == "CL-NAVALCOMBAT-sub-withdraw"
    b, _ = play(b, [], Submerge(0), Press())
    assert isinstance(b.pending, ChooseSubmerge) and b.pending.side == "defender"
    b, events = play(b, [6, 1, 6], Submerge(1))
    assert fire(events, "defender fire") == [("battleship", 1, 4)]  # the withdrawn sub rolls no more
    assert left(b.state.attacker) == {"submarine": 1, "battleship": 1}
    assert b.state.result == "attacker" and [k.type for k, _ in b.state.defender] == ["submarine"]
    assert all(k.has("submerged") for k, _ in b.state.defender)


@pytest.mark.rule("CL-NAVALCOMBAT-sub-withdraw")
def test_withdrawal_can_be_switched_off_per_side() -> None:
    b = any_battle("1 submarine, 1 battleship", "1 submarine, 1 battleship", "sea", RULES,
                   options={"attacking_subs_withdraw": False, "defending_subs_withdraw": False})
    b, _ = play(b, [6, 6, 6, 6])
    assert isinstance(b.pending, PressOrRetreat)


@pytest.mark.rule("CL-NAVALCOMBAT-subs-vs-air-only")
def test_a_sub_facing_only_aircraft_may_withdraw_and_end_the_battle() -> None:
    b, _ = play(battle("2 fighters", "1 submarine"), [6, 6, 1])
    assert isinstance(b.pending, PressOrRetreat)
    b, _ = play(b, [], Press())
    assert isinstance(b.pending, ChooseSubmerge) and b.pending.side == "defender"
    b, _ = play(b, [], Submerge(1))
    assert b.state.ended and left(b.state.attacker) == {"fighter": 2}


@pytest.mark.rule("CL-NAVALCOMBAT-sea-battle-units", "CL-UNITS-transport", "CL-COMBAT-owner-chooses-casualties")
def test_transports_defend_at_one_and_may_be_chosen_first() -> None:
    b, _ = play(battle("2 battleships", "1 battleship, 1 transport"), [1, 6])
    assert isinstance(b.pending, ChooseCasualties) and b.pending.side == "defender"
    b, events = play(b, [6, 1], {"transport": 1})
    assert fire(events, "defender fire") == [("transport", 1, 1), ("battleship", 1, 4)]
    assert left(b.state.defender) == {"battleship": 1} and left(b.state.attacker) == {"battleship": 1}


@pytest.mark.rule("CL-UNITS-transport")
def test_a_lone_transport_fights_back_against_a_sub() -> None:
    _, events = play(battle("1 submarine", "1 transport"), [6, 1])
    assert fire(events, "defender fire") == [("transport", 1, 1)]
    assert ended(events).result == "defender"


@pytest.mark.rule("CL-UNITS-battleship")
def test_one_hit_sinks_a_battleship() -> None:
    _, events = play(battle("1 battleship", "1 battleship"), [4, 6])
    assert ended(events).result == "attacker" and ended(events).defender == {}


@pytest.mark.rule("CL-NAVALCOMBAT-no-destroyers", "CL-UNITS-roster")
def test_there_are_no_destroyers() -> None:
    units = load_ruleset(RULES).units
    with pytest.raises(UnknownName):
        units.resolve("destroyer")
    assert not [u.id for u in units if u.has("anti_submarine")]


@pytest.mark.rule("CL-NAVALCOMBAT-sea-battle-units", "CL-NAVALCOMBAT-sub-sneak-attack")
def test_on_the_board_a_german_sub_sinks_a_british_transport_before_it_fires() -> None:
    game = position(GER, "combat-move", {"Baltic Sea Zone": "Germany: 1 submarine",
                                         "North Sea Zone": "United Kingdom: 1 transport"}, dice=[2], rules=RULES)
    move(game, "1 submarine", "Baltic Sea Zone", "North Sea Zone")
    to_combat(game)
    game.apply({"type": "fight", "space": "North Sea Zone"})
    assert [(s.owner, s.unit) for s in game.state.stacks("North Sea Zone")] == [(GER, "submarine")]


def _refused(game: Any, action: dict[str, str], rule: str, match: str | None = None) -> None:
    before = game.state
    with pytest.raises(IllegalAction, match=match) as err:
        game.apply(action)
    assert game.state == before and err.value.rule_id == rule


def _units(game: Any, space: str) -> set[tuple[str, str]]:
    return {(s.owner, s.unit) for s in game.state.stacks(space)}


@pytest.mark.rule("CL-NAVALCOMBAT-sub-withdraw")
def test_on_the_board_a_defending_sub_withdraws_to_an_adjacent_friendly_or_empty_zone() -> None:
    game = position(UK, "combat-move", {"East Canada Sea Zone": "United Kingdom: 1 battleship",
                                        "North Sea Zone": "Germany: 1 submarine, 1 transport",
                                        "Karelia Sea Zone": "United Kingdom: 1 transport",
                                        "West Spain Sea Zone": "United Kingdom: 1 battleship; Germany: 1 transport"},
                    dice=[6, 6, 6, 1, 6], rules=RULES)
    move(game, "1 battleship", "East Canada Sea Zone", "North Sea Zone")
    to_combat(game)
    game.apply({"type": "fight", "space": "North Sea Zone"})
    game.apply({"type": "press"})
    pending = game.state.pending
    assert pending is not None and pending["kind"] == "submerge" and pending["side"] == "defender"
    # not among the British transport, nor where a battle is still to be fought
    assert pending["destinations"] == ["Baltic Sea Zone", "East Canada Sea Zone"]
    assert {(a.units, a.to) for a in game.legal_actions() if a.type == "submerge"} == {
        ("", ""), ("1 submarine", "Baltic Sea Zone"), ("1 submarine", "East Canada Sea Zone")}
    _refused(game, {"type": "submerge", "units": "1 transport", "to": "Baltic Sea Zone"}, "CL-NAVALCOMBAT-sub-withdraw")
    _refused(game, {"type": "submerge", "units": "1 submarine", "to": "Karelia Sea Zone"},
             "CL-NAVALCOMBAT-sub-withdraw", "one of Baltic Sea Zone, East Canada Sea Zone")
    _refused(game, {"type": "submerge", "units": "1 submarine", "to": "West Spain Sea Zone"},
             "CL-NAVALCOMBAT-sub-withdraw")
    _refused(game, {"type": "submerge", "units": "1 submarine"}, "CL-NAVALCOMBAT-sub-withdraw")  # two places
    game.apply({"type": "submerge", "units": "1 submarine", "to": "Baltic Sea Zone"})
    # round 2 without the sub: the battleship sinks the transport
    assert game.state.pending is None
    assert _units(game, "North Sea Zone") == {(UK, "battleship")}
    assert _units(game, "Baltic Sea Zone") == {(GER, "submarine")}
    assert [s.space for s in open_battles(game.state, game.ruleset)] == ["West Spain Sea Zone"]


@pytest.mark.rule("CL-NAVALCOMBAT-sub-withdraw")
def test_on_the_board_attacking_subs_withdraw_to_the_zone_they_came_from() -> None:
    game = position(GER, "combat-move", {"Baltic Sea Zone": "Germany: 1 submarine",
                                         "Karelia Sea Zone": "Germany: 1 submarine",
                                         "North Sea Zone": "United Kingdom: 1 battleship"},
                    dice=[6, 6, 6, 6, 6], rules=RULES)
    move(game, "1 submarine", "Baltic Sea Zone", "North Sea Zone")
    move(game, "1 submarine", "Karelia Sea Zone", "North Sea Zone")
    to_combat(game)
    game.apply({"type": "fight", "space": "North Sea Zone"})
    pending = game.state.pending
    assert pending is not None and pending["kind"] == "submerge" and pending["side"] == "attacker"
    assert pending["destinations"] == ["Baltic Sea Zone", "Karelia Sea Zone"]
    _refused(game, {"type": "submerge", "units": "2 submarines", "to": "Baltic Sea Zone"},
             "CL-NAVALCOMBAT-sub-withdraw", "1 more came from Baltic Sea Zone")
    _refused(game, {"type": "submerge", "units": "1 submarine", "to": "West Spain Sea Zone"},
             "CL-NAVALCOMBAT-sub-withdraw")
    game.apply({"type": "submerge", "units": "1 submarine", "to": "Baltic Sea Zone"})
    game.apply({"type": "press"})  # round 2: the other sub and the battleship miss again
    _refused(game, {"type": "submerge", "units": "1 submarine", "to": "Baltic Sea Zone"},
             "CL-NAVALCOMBAT-sub-withdraw", "0 more came from Baltic Sea Zone")  # that one withdrew already
    game.apply({"type": "submerge", "units": "1 submarine", "to": "Karelia Sea Zone"})
    assert game.state.pending is None
    assert _units(game, "North Sea Zone") == {(UK, "battleship")}
    assert _units(game, "Baltic Sea Zone") == {(GER, "submarine")}
    assert _units(game, "Karelia Sea Zone") == {(GER, "submarine")}


@pytest.mark.rule("CL-NAVALCOMBAT-carrier-sunk-fighters")
def test_an_attacking_fighter_whose_carrier_sank_with_no_land_in_reach_is_lost() -> None:
    us = "United States"
    game = position(us, "combat-move", {"Hawaiian Islands": "United States: 1 fighter",
                                        "South Pacific Sea Zone": "United States: 1 carrier",
                                        "East Pacific Sea Zone": "Japan: 1 battleship"},
                    dice=[6, 6, 4, 1, 6], rules=RULES)
    move(game, "1 carrier", "South Pacific Sea Zone", "East Pacific Sea Zone")
    move(game, "1 fighter", "Hawaiian Islands", "Hawaii Sea Zone", "South Pacific Sea Zone", "East Pacific Sea Zone")
    to_combat(game)
    game.apply({"type": "fight", "space": "East Pacific Sea Zone"})
    game.apply({"type": "choose_casualties", "units": "1 carrier"})
    game.apply({"type": "press"})  # round 2: the fighter sinks the battleship
    assert [(s.owner, s.unit) for s in game.state.stacks("East Pacific Sea Zone")] == [(us, "fighter")]
    game.apply({"type": "end_phase"})
    assert game.state.phase == "non-combat-move"
    assert {a.type for a in game.legal_actions()} == {"end_phase"}  # one move left: no land, no carrier in reach
    game.apply({"type": "end_phase"})
    assert game.state.stacks("East Pacific Sea Zone") == ()


@pytest.mark.rule("CL-NAVALCOMBAT-sub-no-air-hits", "CL-COMBAT-owner-chooses-casualties")
def test_on_the_board_a_fighter_chosen_for_a_sub_hit_is_refused() -> None:
    game = position(UK, "combat-move", {"North Sea Zone": "United Kingdom: 1 carrier, 1 battleship",
                                        "United Kingdom": "United Kingdom: 1 fighter",
                                        "Baltic Sea Zone": "Germany: 1 submarine"}, dice=[6, 6, 6, 2], rules=RULES)
    move(game, "1 carrier, 1 battleship", "North Sea Zone", "Baltic Sea Zone")
    move(game, "1 fighter", "United Kingdom", "North Sea Zone", "Baltic Sea Zone")
    to_combat(game)
    game.apply({"type": "fight", "space": "Baltic Sea Zone"})
    assert game.state.pending is not None and game.state.pending["kind"] == "choose_casualties"
    before = game.state
    with pytest.raises(IllegalAction, match="cannot") as err:
        game.apply({"type": "choose_casualties", "units": "1 fighter"})
    assert err.value.rule_id == "CL-COMBAT-owner-chooses-casualties" and game.state == before
    game.apply({"type": "choose_casualties", "units": "1 carrier"})


@pytest.mark.rule("CL-NAVALCOMBAT-sub-withdraw")
def test_a_withdrawal_in_text() -> None:
    ruleset = load_ruleset(RULES)
    action = parse_action_text("submerge 1 submarine to Baltic Sea Zone", ruleset)
    assert action == {"type": "submerge", "units": "1 submarine", "to": "Baltic Sea Zone"}
    assert format_action(action) == "submerge 1 submarine to Baltic Sea Zone"
    assert parse_action_text("submerge 1 submarine", ruleset) == {"type": "submerge", "units": "1 submarine"}
    line = format_decision({"kind": "submerge", "power": GER, "available": 1, "space": "North Sea Zone",
                            "destinations": ["Baltic Sea Zone", "East Canada Sea Zone"]})
    assert "withdraw up to 1 submarine(s) to Baltic Sea Zone or East Canada Sea Zone" in line
