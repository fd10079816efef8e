"""Classic sea movement on the Classic board: adjacent zones, enemy ships stop ships, the Suez and Panama canals
(held since the start of the turn), the open Black Sea, and zones cleared in combat."""

from __future__ import annotations

import pytest
from tests.classic.test_move_land import at
from tests.movement.helpers import move, mv, rejected, turn_began_with, units_in, with_owner, without

from aare.events import apply_events
from aare.movement import flags
from aare.rules.ruleset import load_ruleset
from aare.selfplay import play_game
from aare.state.unit_stacks import Stack


@pytest.mark.rule("CL-SEAMOVE-adjacent-zones")
def test_ships_move_two_adjacent_zones() -> None:
    game = at("United Kingdom", "non-combat-move", {"North Sea Zone": "United Kingdom: 2 battleship"})
    move(game, "1 battleship", "North Sea Zone", "East Canada Sea Zone", "East US Sea Zone")
    rejected(game, mv("1 battleship", "North Sea Zone", "East Canada Sea Zone", "East US Sea Zone",
                      "Caribbean Sea Zone"), "CL-SEAMOVE-adjacent-zones", "movement left")
    rejected(game, mv("1 battleship", "North Sea Zone", "North Atlantic Sea Zone"), "CL-SEAMOVE-adjacent-zones",
             "not adjacent")
    rejected(game, mv("1 battleship", "North Sea Zone", "West Europe"), "CL-SEAMOVE-adjacent-zones")
    assert units_in(game, "East US Sea Zone") == {"battleship": 1}


@pytest.mark.rule("CL-SEAMOVE-enemy-zone-stops", "CL-SEAMOVE-leave-contested-zone")
def test_every_enemy_ship_stops_ships_even_a_lone_submarine_or_transport() -> None:
    for blocker in ("submarine", "transport"):
        game = at("United States", "non-combat-move", {"East US Sea Zone": "United States: 1 transport",
                                                       "East Canada Sea Zone": f"Germany: 1 {blocker}"})
        rejected(game, mv("1 transport", "East US Sea Zone", "East Canada Sea Zone", "North Sea Zone"),
                 "CL-SEAMOVE-enemy-zone-stops", "cannot pass through")
        # non-combat moves never end among enemy ships, so no zone is shared at the end of the turn
        rejected(game, mv("1 transport", "East US Sea Zone", "East Canada Sea Zone"), "CL-SEAMOVE-enemy-zone-stops",
                 "cannot end there")
        combat = at("United States", "combat-move", {"East US Sea Zone": "United States: 1 battleship",
                                                     "East Canada Sea Zone": f"Germany: 1 {blocker}"})
        rejected(combat, mv("1 battleship", "East US Sea Zone", "East Canada Sea Zone", "North Sea Zone"),
                 "CL-SEAMOVE-enemy-zone-stops", "must stop there")
        move(combat, "1 battleship", "East US Sea Zone", "East Canada Sea Zone")


@pytest.mark.rule("CL-SEAMOVE-suez")
def test_suez_opens_only_to_the_side_that_held_both_canal_territories_when_the_turn_began() -> None:
    game = at("Germany", "non-combat-move", {"East Mediterranean Sea Zone": "Germany: 1 battleship"})
    rejected(game, mv("1 battleship", "East Mediterranean Sea Zone", "Red Sea Zone"), "CL-SEAMOVE-suez",
             "Suez Canal is closed")
    taken = with_owner(with_owner(game, "Anglo Sudan Egypt", "Germany"), "Syria Jordan", "Germany")
    rejected(taken, mv("1 battleship", "East Mediterranean Sea Zone", "Red Sea Zone"), "CL-SEAMOVE-suez")
    one = turn_began_with(game, {"Anglo Sudan Egypt": "Germany"})
    one = with_owner(one, "Anglo Sudan Egypt", "Germany")
    rejected(one, mv("1 battleship", "East Mediterranean Sea Zone", "Red Sea Zone"), "CL-SEAMOVE-suez")
    held = at("Germany", "non-combat-move", {"East Mediterranean Sea Zone": "Germany: 1 battleship"},
              owners={"Anglo Sudan Egypt": "Germany", "Syria Jordan": "Germany"})
    move(held, "1 battleship", "East Mediterranean Sea Zone", "Red Sea Zone")
    allied = at("United Kingdom", "non-combat-move", {"East Mediterranean Sea Zone": "United Kingdom: 1 battleship"})
    move(allied, "1 battleship", "East Mediterranean Sea Zone", "Red Sea Zone")
    us = at("United States", "non-combat-move", {"Red Sea Zone": "United States: 1 carrier"})
    move(us, "1 carrier", "Red Sea Zone", "East Mediterranean Sea Zone")
    assert units_in(us, "East Mediterranean Sea Zone") == {"carrier": 1}


@pytest.mark.rule("CL-SEAMOVE-panama")
def test_panama_opens_only_to_the_side_that_held_panama_when_the_turn_began() -> None:
    game = at("Japan", "non-combat-move", {"West Panama Sea Zone": "Japan: 1 carrier"})
    rejected(game, mv("1 carrier", "West Panama Sea Zone", "Caribbean Sea Zone"), "CL-SEAMOVE-panama",
             "Panama Canal is closed")
    rejected(with_owner(game, "Panama", "Japan"), mv("1 carrier", "West Panama Sea Zone", "Caribbean Sea Zone"),
             "CL-SEAMOVE-panama")
    held = at("Japan", "non-combat-move", {"West Panama Sea Zone": "Japan: 1 carrier"}, owners={"Panama": "Japan"})
    move(held, "1 carrier", "West Panama Sea Zone", "Caribbean Sea Zone", "North Atlantic Sea Zone")
    us = at("United States", "non-combat-move", {"Caribbean Sea Zone": "United States: 1 transport"})
    move(us, "1 transport", "Caribbean Sea Zone", "West Panama Sea Zone", "Peru Sea Zone")  # one move through
    assert units_in(us, "Peru Sea Zone") == {"transport": 1}


@pytest.mark.rule("CL-SEAMOVE-black-sea-open")
def test_the_black_sea_is_open_from_the_mediterranean_while_turkey_is_neutral() -> None:
    game = at("Germany", "non-combat-move", {"Central Mediterranean Sea Zone": "Germany: 1 battleship"})
    assert game.state.owners.get("Turkey") is None
    move(game, "1 battleship", "Central Mediterranean Sea Zone", "Black Sea Zone")
    assert units_in(game, "Black Sea Zone") == {"battleship": 1}


@pytest.mark.rule("CL-SEAMOVE-through-cleared-zone")
def test_a_zone_cleared_in_combat_is_open_in_non_combat_movement() -> None:
    units = {"North Sea Zone": "Germany: 1 submarine", "United Kingdom": "United Kingdom: 1 infantry"}
    fought = Stack("United Kingdom", "battleship", 1, moved=1, flags=(flags.COMBAT,))
    game = at("United Kingdom", "non-combat-move", units,
              stacks=[("North Sea Zone", fought), ("East Canada Sea Zone", Stack("United Kingdom", "transport", 1))])
    rejected(game, mv("1 transport", "East Canada Sea Zone", "North Sea Zone", "Baltic Sea Zone"),
             "CL-SEAMOVE-enemy-zone-stops")
    cleared = without(game, "North Sea Zone", "Germany")  # the submarine was sunk
    move(cleared, "1 transport", "East Canada Sea Zone", "North Sea Zone", "Baltic Sea Zone")
    assert units_in(cleared, "Baltic Sea Zone") == {"transport": 1}
    rejected(cleared, mv("1 battleship", "North Sea Zone", "Baltic Sea Zone"), "CL-TURN-combat-move-then-noncombat")


@pytest.mark.rule("CL-SEAMOVE-leave-contested-zone", "CL-NAVALCOMBAT-sub-withdraw")
def test_no_sea_zone_holds_both_sides_when_a_turn_ends() -> None:
    board = load_ruleset("classic-2e").board
    seas = [s for s, space in board.spaces.items() if space.is_sea]
    checked = withdrawals = 0
    for seed in (5, 11):
        result = play_game("classic-2e", seed=seed, rounds=3)
        assert not result.violations and not result.stuck
        state = result.log.initial
        for entry in result.log.entries:
            state = apply_events(state, entry.events)
            action = entry.action or {}
            withdrawals += action.get("type") == "submerge" and bool(action.get("to"))
            if not any(e.type == "phase_entered" for e in entry.events) or state.phase != "collect-income":
                continue
            checked += 1
            for sea in seas:  # withdrawn submarines left the zone too (CL-NAVALCOMBAT-sub-withdraw)
                sides = {board.side_of(s.owner) for s in state.stacks(sea)}
                assert len(sides) <= 1, (state.round, state.nation, sea, state.stacks(sea))
    assert checked >= 10 and withdrawals
