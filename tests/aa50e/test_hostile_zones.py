"""Naval units starting in a hostile sea zone (AA50E-MOVE-*): they leave in combat move; having left into a friendly
zone they finish their turn in combat move or in non-combat move, not both."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.movement.battles import pending_battles
from tests.aa50.test_movement import at
from tests.movement.helpers import move, mv, rejected, units_in

US, GER = "United States", "Germany"
START = {"SZ 10": "United States: 1 transport, 1 destroyer; Germany: 1 destroyer",
         "Eastern Canada": "United States: 2 infantry"}


def to_noncombat(game: Game) -> None:
    """End combat move and conduct combat (no battle left) through the phases' own entries."""
    game.apply({"type": "end_phase"})
    assert game.state.phase == "conduct-combat" and not pending_battles(game.state, game.ruleset)
    game.apply({"type": "end_phase"})
    assert game.state.phase == "non-combat-move"


@pytest.mark.rule("AA50E-MOVE-hostile-start-exit-in-combat-move")
@pytest.mark.parametrize("rules", ["aa50e-1941", "aa50e-1942"])
def test_ships_leave_a_hostile_start_zone_in_combat_move_not_in_non_combat_move(rules: str) -> None:
    late = at(rules, US, "non-combat-move", START)
    before = late.state
    rejected(late, mv("1 transport", "SZ 10", "SZ 9"), "AA50E-MOVE-hostile-start-exit-in-combat-move",
             "started its turn in a hostile sea zone")
    assert late.state == before
    game = at(rules, US, "combat-move", START)
    move(game, "1 transport", "SZ 10", "SZ 9")
    move(game, "1 destroyer", "SZ 10", "SZ 9")
    assert pending_battles(game.state, game.ruleset) == []  # leaving is their combat move: no battle, no refusal
    to_noncombat(game)
    assert units_in(game, "SZ 9", US) == {"transport": 1, "destroyer": 1}
    # a ship in a friendly zone is not held by the check
    calm = at(rules, US, "non-combat-move", {"SZ 9": "United States: 1 destroyer"})
    move(calm, "1 destroyer", "SZ 9", "SZ 10")


@pytest.mark.rule("AA50E-MOVE-hostile-start-finish-one-phase")
def test_a_ship_that_stopped_in_the_first_friendly_zone_finishes_in_non_combat_move() -> None:
    game = at("aa50e-1941", US, "combat-move", START)
    move(game, "1 transport", "SZ 10", "SZ 9")  # one zone, into a friendly zone
    move(game, "1 destroyer", "SZ 10", "SZ 9", "SZ 1")
    to_noncombat(game)
    [transport] = [s for s in game.state.stacks("SZ 9") if s.unit == "transport"]
    assert "turn:combat" not in transport.flags
    game.apply({"type": "load", "units": "2 infantry", "territory": "Eastern Canada", "sea_zone": "SZ 9"})
    move(game, "2 infantry, 1 transport", "SZ 9", "SZ 1")  # its second zone, in non-combat move
    assert units_in(game, "SZ 1", US)["transport"] == 1 and units_in(game, "Eastern Canada", US) == {}
    # the base game keeps it out of non-combat move
    base = at("aa50-1941", US, "combat-move", START)
    move(base, "1 transport", "SZ 10", "SZ 9")
    move(base, "1 destroyer", "SZ 10", "SZ 9")
    to_noncombat(base)
    rejected(base, mv("1 transport", "SZ 9", "SZ 1"), "AA50-PHASES-ncm-unmoved-only", "moved or fought in combat move")


@pytest.mark.rule("AA50E-MOVE-hostile-start-finish-one-phase")
def test_a_ship_that_went_on_in_combat_move_has_finished_its_turn() -> None:
    game = at("aa50e-1941", US, "combat-move", START)
    move(game, "1 destroyer", "SZ 10", "SZ 9", "SZ 1")  # leaves and completes its move in combat move
    move(game, "1 transport", "SZ 10", "SZ 9")
    to_noncombat(game)
    before = game.state
    rejected(game, mv("1 destroyer", "SZ 1", "SZ 9"), "AA50-PHASES-ncm-unmoved-only", "moved or fought in combat move")
    assert game.state == before
    # nor may it move twice in combat move (leaving, then going on, is one move)
    twice = at("aa50e-1941", US, "combat-move", START)
    move(twice, "1 destroyer", "SZ 10", "SZ 9")
    rejected(twice, mv("1 destroyer", "SZ 9", "SZ 1"), "LHTR-COMBAT-one-battle-per-unit", "already moved")
