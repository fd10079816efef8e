"""Classic land movement on the Classic board: adjacent steps, stopping in enemy territory, the blitz and what
stops it, friendly transit, non-combat moves, AA guns, and what combat movement is for. Illegal moves name the
Classic ledger's rule."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest
from tests.movement.helpers import end, move, mv, rejected, to_phase, units_in, with_owner

from aare.dice import ScriptedDice
from aare.economy.turn import turn_record
from aare.engine import Game
from aare.game_log import GameLog
from aare.movement.battles import pending_battles
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, add_stack

RULES = "classic-2e"


def at(
    nation: str,
    phase: str,
    units: Mapping[str, str],
    *,
    owners: Mapping[str, str] | None = None,
    banks: Mapping[str, int] | None = None,
    stacks: Iterable[tuple[str, Stack]] = (),
    dice: Iterable[int] | None = None,
    options: Mapping[str, Any] | None = None,
    rules: str = RULES,
    extra: Mapping[str, Any] | None = None,
) -> Game:
    """An empty Classic board with `units` ("Power: unit list") and extra `stacks`; the turn began with the owners
    given (`extra`: e.g. the purchase pool)."""
    game = scenario(rules, nation=nation, phase=phase, clear=True, units=units, owners=owners, banks=banks,
                    options=options, extra=extra)
    state = game.state
    state = replace(state, extra={**state.extra, "turn": {**turn_record(state), "owners": dict(state.owners)}})
    for space, stack in stacks:
        state = state.with_stacks(space, add_stack(state.stacks(space), stack))
    return Game(GameLog(state), ScriptedDice(list(dice)) if dice is not None else None)


def fight_all(game: Game) -> None:
    """End combat move and fight every battle, the attacker pressing on and taking casualties as first offered."""
    end(game)
    while game.state.phase == "conduct-combat":
        options = game.legal_actions()
        game.apply(next((a for a in options if a.type in ("fight", "press")), options[0]))


@pytest.mark.rule("CL-LANDMOVE-adjacent-steps")
def test_land_units_step_between_adjacent_territories_up_to_their_movement() -> None:
    game = at("Russia", "non-combat-move", {"Russia": "Russia: 2 infantry, 1 armour"})
    rejected(game, mv("1 infantry", "Russia", "Caucasus", "Persia"), "CL-LANDMOVE-adjacent-steps", "movement left")
    rejected(game, mv("1 infantry", "Russia", "Ukraine S.S.R."), "CL-LANDMOVE-adjacent-steps", "not adjacent")
    rejected(game, mv("1 infantry", "Russia", "Caspian Sea Zone"), "CL-LANDMOVE-adjacent-steps", "aboard transports")
    move(game, "1 infantry", "Russia", "Caucasus")
    move(game, "1 armour", "Russia", "Caucasus", "Persia")  # armour: two steps through friendly Caucasus
    assert units_in(game, "Caucasus") == {"infantry": 1}
    assert units_in(game, "Persia") == {"armour": 1}


@pytest.mark.rule("CL-LANDMOVE-stop-in-enemy", "CL-COMBATMOVE-ending-in-enemy-space")
def test_entering_an_enemy_territory_stops_the_unit_and_starts_a_battle() -> None:
    game = at("Russia", "combat-move", {
        "Caucasus": "Russia: 1 armour", "Karelia S.S.R.": "Russia: 1 infantry",
        "Ukraine S.S.R.": "Germany: 3 infantry, 2 armour, 1 fighter",
    })
    rejected(game, mv("1 armour", "Caucasus", "Ukraine S.S.R.", "East Europe"), "CL-LANDMOVE-stop-in-enemy",
             "must stop there")
    move(game, "1 infantry", "Karelia S.S.R.", "Ukraine S.S.R.")
    [site] = pending_battles(game.state, game.ruleset)
    assert (site.space, site.kind) == ("Ukraine S.S.R.", "land")
    move(game, "1 armour", "Caucasus", "Ukraine S.S.R.")
    rejected(game, mv("1 armour", "Ukraine S.S.R.", "Caucasus"), "CL-COMBATMOVE-ending-in-enemy-space",
             "already moved")
    # a ship entering a sea zone with enemy ships stops there: a sea battle
    sea = at("United Kingdom", "combat-move", {"North Sea Zone": "United Kingdom: 1 battleship",
                                               "Baltic Sea Zone": "Germany: 1 submarine"})
    move(sea, "1 battleship", "North Sea Zone", "Baltic Sea Zone")
    [battle] = pending_battles(sea.state, sea.ruleset)
    assert (battle.space, battle.kind) == ("Baltic Sea Zone", "sea")


@pytest.mark.rule("CL-LANDMOVE-blitz")
def test_armour_blitzes_through_an_empty_enemy_territory_and_takes_it() -> None:
    game = at("Russia", "combat-move", {"Russia": "Russia: 1 armour"}, owners={"Kazakh S.S.R.": "Japan"})
    move(game, "1 armour", "Russia", "Kazakh S.S.R.", "Sinkiang")
    assert game.state.owners["Kazakh S.S.R."] == "Russia"
    assert units_in(game, "Sinkiang") == {"armour": 1}
    # infantry cannot blitz
    foot = at("Russia", "combat-move", {"Russia": "Russia: 1 infantry"}, owners={"Kazakh S.S.R.": "Japan"})
    rejected(foot, mv("1 infantry", "Russia", "Kazakh S.S.R.", "Sinkiang"), "CL-LANDMOVE-adjacent-steps")


@pytest.mark.rule("CL-LANDMOVE-blitz-blockers")
def test_an_aa_gun_and_a_complex_alone_do_not_stop_a_blitz() -> None:
    game = at("Russia", "combat-move", {
        "Karelia S.S.R.": "Russia: 1 armour", "East Europe": "Germany: 1 aa gun, 1 factory",
        "Germany": "Germany: 1 infantry",
    })
    move(game, "1 armour", "Karelia S.S.R.", "East Europe", "Germany")
    assert game.state.owners["East Europe"] == "Russia"
    assert units_in(game, "East Europe", "Russia") == {"aa_gun": 1, "factory": 1}
    assert units_in(game, "East Europe", "Germany") == {}
    [site] = pending_battles(game.state, game.ruleset)
    assert site.space == "Germany"
    held = at("Russia", "combat-move", {"Karelia S.S.R.": "Russia: 1 armour",
                                        "East Europe": "Germany: 1 aa gun, 1 infantry"})
    rejected(held, mv("1 armour", "Karelia S.S.R.", "East Europe", "Germany"), "CL-LANDMOVE-stop-in-enemy",
             "armour must stop there")
    parked = at("Russia", "combat-move", {"Karelia S.S.R.": "Russia: 1 armour",
                                          "East Europe": "Germany: 1 fighter"})
    rejected(parked, mv("1 armour", "Karelia S.S.R.", "East Europe", "Germany"), "CL-LANDMOVE-stop-in-enemy")


@pytest.mark.rule("CL-LANDMOVE-friendly-transit")
def test_land_units_pass_through_friendly_territory_in_both_phases() -> None:
    game = at("United Kingdom", "non-combat-move", {"Anglo Sudan Egypt": "United Kingdom: 1 armour"})
    move(game, "1 armour", "Anglo Sudan Egypt", "Syria Jordan", "Persia")
    assert units_in(game, "Persia") == {"armour": 1}
    attack = at("Russia", "combat-move", {"Russia": "Russia: 1 armour", "Ukraine S.S.R.": "Germany: 1 infantry"},
                owners={"Caucasus": "United Kingdom"})  # an ally's territory on the way
    move(attack, "1 armour", "Russia", "Caucasus", "Ukraine S.S.R.")
    assert units_in(attack, "Ukraine S.S.R.", "Russia") == {"armour": 1}


@pytest.mark.rule("CL-LANDMOVE-noncombat-friendly-only")
def test_non_combat_land_moves_stay_in_friendly_territory() -> None:
    game = at("Germany", "non-combat-move", {"East Europe": "Germany: 2 infantry"})
    game = with_owner(game, "Karelia S.S.R.", "Germany")  # captured this turn
    move(game, "1 infantry", "East Europe", "Karelia S.S.R.")
    game = with_owner(game, "Ukraine S.S.R.", "Russia")
    rejected(game, mv("1 infantry", "East Europe", "Ukraine S.S.R."), "CL-LANDMOVE-noncombat-friendly-only",
             "enemy territory")
    assert units_in(game, "Karelia S.S.R.") == {"infantry": 1}


@pytest.mark.rule("CL-LANDMOVE-aa-noncombat-only")
def test_aa_guns_move_only_in_non_combat_movement_and_complexes_never() -> None:
    game = at("Germany", "combat-move", {"East Europe": "Germany: 1 aa gun, 1 factory",
                                         "Karelia S.S.R.": "Russia: 1 infantry"})
    rejected(game, mv("1 aa gun", "East Europe", "Karelia S.S.R."), "CL-LANDMOVE-aa-noncombat-only",
             "only in non-combat move")
    ncm = to_phase(game, "non-combat-move")
    rejected(ncm, mv("1 factory", "East Europe", "Germany"), "CL-LANDMOVE-aa-noncombat-only", "cannot move")
    rejected(ncm, mv("1 aa gun", "East Europe", "Germany", "West Europe"), "CL-LANDMOVE-adjacent-steps")
    move(ncm, "1 aa gun", "East Europe", "Germany")
    assert units_in(ncm, "Germany") == {"aa_gun": 1}


@pytest.mark.rule("CL-TURN-combat-move-purpose")
def test_combat_movement_is_for_attacks() -> None:
    game = at("United Kingdom", "combat-move", {"East Canada": "United Kingdom: 1 armour"})
    rejected(game, mv("1 armour", "East Canada", "West Canada"), "CL-TURN-combat-move-purpose",
             "waits for non-combat move")
    ncm = to_phase(game, "non-combat-move")
    move(ncm, "1 armour", "East Canada", "West Canada")
    assert units_in(ncm, "West Canada") == {"armour": 1}
    # a blitzing armour may end in a friendly territory
    blitz = at("Russia", "combat-move", {"Russia": "Russia: 1 armour"}, owners={"Kazakh S.S.R.": "Japan"})
    move(blitz, "1 armour", "Russia", "Kazakh S.S.R.", "Sinkiang")


@pytest.mark.rule("CL-TURN-combat-move-then-noncombat")
def test_units_that_moved_in_combat_stay_put_but_aircraft_fly_on_to_land() -> None:
    game = at("Russia", "combat-move", {"Karelia S.S.R.": "Russia: 1 infantry"}, owners={"East Europe": "Germany"})
    move(game, "1 infantry", "Karelia S.S.R.", "East Europe")
    fight_all(game)
    assert game.state.phase == "non-combat-move" and game.state.owners["East Europe"] == "Russia"
    rejected(game, mv("1 infantry", "East Europe", "Karelia S.S.R."), "CL-TURN-combat-move-then-noncombat",
             "moved or fought in combat move")
    air = at("Germany", "combat-move", {"Germany": "Germany: 1 fighter, 1 infantry",
                                        "Karelia S.S.R.": "Russia: 1 infantry"}, dice=[6, 6, 1, 6])
    move(air, "1 fighter", "Germany", "East Europe", "Karelia S.S.R.")  # 2 of its 4 points
    fight_all(air)
    assert air.state.phase == "non-combat-move"
    rejected(air, mv("1 fighter", "Karelia S.S.R.", "Caucasus", "Russia", "Kazakh S.S.R."),
             "CL-AIRMOVE-range-per-turn", "2 movement left")
    move(air, "1 fighter", "Karelia S.S.R.", "East Europe", "Germany")
    assert units_in(air, "Germany") == {"fighter": 1, "infantry": 1}


@pytest.mark.rule("CL-COMBATMOVE-declare-all-attacks")
def test_no_unit_joins_an_attack_once_combat_has_begun() -> None:
    game = at("Germany", "combat-move", {
        "East Europe": "Germany: 2 infantry", "Karelia S.S.R.": "Russia: 1 infantry",
        "South Europe": "Germany: 1 armour", "Ukraine S.S.R.": "Russia: 1 infantry",
    }, owners={"Ukraine S.S.R.": "Russia"}, dice=[1, 1, 6] * 4)
    move(game, "2 infantry", "East Europe", "Karelia S.S.R.")
    end(game)
    game.apply({"type": "fight", "space": "Karelia S.S.R."})
    while game.state.pending is not None:
        game.apply(game.legal_actions()[0])
    assert game.state.owners["Karelia S.S.R."] == "Germany"
    rejected(game, mv("1 armour", "South Europe", "East Europe", "Ukraine S.S.R."), "CL-TURN-phase-sequence",
             "not an action of the conduct-combat phase")
    assert not any(a.type == "move" for a in game.legal_actions())


@pytest.mark.rule("CL-COMBATMOVE-attack-from-several-spaces")
def test_units_from_several_spaces_attack_together_without_allies() -> None:
    game = at("Germany", "combat-move", {
        "Ukraine S.S.R.": "Germany: 1 armour", "East Europe": "Germany: 1 infantry; Japan: 1 fighter",
        "Germany": "Germany: 1 fighter", "Karelia S.S.R.": "Russia: 2 infantry",
    })
    move(game, "1 armour", "Ukraine S.S.R.", "Karelia S.S.R.")
    move(game, "1 infantry", "East Europe", "Karelia S.S.R.")
    move(game, "1 fighter", "Germany", "East Europe", "Karelia S.S.R.")
    rejected(game, mv("1 fighter", "East Europe", "Karelia S.S.R."), "CL-AIRMOVE-range-per-turn",
             "that can make this move")
    [site] = pending_battles(game.state, game.ruleset)
    assert site.space == "Karelia S.S.R." and site.attacker == "Germany"
    assert sorted((s.owner, s.unit, s.count) for s in site.attackers) == [
        ("Germany", "armour", 1), ("Germany", "fighter", 1), ("Germany", "infantry", 1)]
    assert units_in(game, "East Europe", "Japan") == {"fighter": 1}


@pytest.mark.rule("CL-LANDMOVE-blitz-blockers", "CL-AA-flyover")
def test_an_aa_gun_taken_by_a_blitz_still_fires_at_aircraft_flying_over_it_afterwards() -> None:
    units = {"Karelia S.S.R.": "Russia: 1 armour", "Ukraine S.S.R.": "Russia: 1 fighter",
             "East Europe": "Germany: 1 aa gun", "Germany": "Germany: 1 infantry"}
    game = at("Russia", "combat-move", units, dice=[1])
    move(game, "1 armour", "Karelia S.S.R.", "East Europe", "Germany")
    assert game.state.owners["East Europe"] == "Russia"
    assert units_in(game, "East Europe", "Russia") == {"aa_gun": 1}  # the gun is Russian now
    move(game, "1 fighter", "Ukraine S.S.R.", "East Europe", "Germany")  # over the gun, after the blitz
    end(game)
    rolls = [e for entry in game.log.entries for e in entry.events if e.type == "dice_rolled"]
    assert [r.values for r in rolls] == [(1,)]  # type: ignore[attr-defined]
    assert "AA gun in East Europe" in rolls[0].purpose  # type: ignore[attr-defined]
    removed = [e for entry in game.log.entries for e in entry.events if e.type == "units_removed"]
    assert [r.rule_id for r in removed] == ["CL-LANDMOVE-blitz-blockers"]  # type: ignore[attr-defined]
    assert units_in(game, "Germany", "Russia") == {"armour": 1}  # the fighter never reaches its battle
    # flying over it in non-combat movement draws no fire
    calm = at("Russia", "non-combat-move", {**units, "Germany": "Russia: 1 infantry"}, dice=[],
              owners={"Germany": "Russia", "East Europe": "Russia"})
    move(calm, "1 fighter", "Ukraine S.S.R.", "East Europe", "Germany")
    assert not [e for entry in calm.log.entries for e in entry.events if e.type == "dice_rolled"]
