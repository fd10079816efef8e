"""AARHE Phase 1 turn: purchase, collect income, combat move, conduct combat, place, non-combat move, research."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.game_setup import new_game
from tests.aarhe.common import end_phase
from tests.aarhe_p1.common import GER, RULES, RUS, at, place, purchase


@pytest.mark.rule("AARHEP1-TURN-sequence")
def test_a_turn_runs_the_seven_phases_in_the_proposals_order() -> None:
    g = Game(new_game(RULES))
    assert [p.name for p in g.ruleset.phase_table()] == [
        "purchase", "collect-income", "combat-move", "conduct-combat", "mobilize", "non-combat-move",
        "develop-weapons"]
    seen = []
    while g.state.nation == RUS:
        seen.append(g.state.phase)
        end_phase(g)
    assert seen[0] == "purchase" and seen[-1] == "develop-weapons"
    assert (g.state.nation, g.state.phase) == (GER, "purchase")


@pytest.mark.rule("AARHEP1-TURN-income-before-combat")
def test_income_is_collected_before_combat_so_a_capture_pays_next_turn() -> None:
    g = at(RUS, banks={RUS: 0})
    end_phase(g)  # purchase
    assert g.state.phase == "collect-income"
    assert g.state.banks[RUS] > 0
    # after the collection, a territory taken in combat does not add to this turn's income
    g2 = at(RUS, "combat-move", banks={RUS: 0}, owners={"Ukraine S.S.R.": RUS})
    while g2.state.phase != "develop-weapons":
        end_phase(g2)
    assert g2.state.banks[RUS] == 0


@pytest.mark.rule("AARHEP1-TURN-place-before-noncombat")
def test_units_are_placed_before_non_combat_move_and_may_then_move() -> None:
    g = at(RUS)
    g.apply(purchase("1 armour"))
    while g.state.phase != "mobilize":
        end_phase(g)
    g.apply(place("1 armour", "Russia"))
    end_phase(g)
    assert g.state.phase == "non-combat-move"
    g.apply({"type": "move", "units": "1 armour", "path": ["Russia", "Archangel"]})
    assert any(s.unit == "armour" and s.owner == RUS for s in g.state.stacks("Archangel"))


@pytest.mark.rule("AARHEP1-TURN-sequence")
def test_without_research_the_turn_ends_with_non_combat_move() -> None:
    g = at(RUS, "non-combat-move", options={"weapons_development": False})
    assert [p.name for p in g.ruleset.phase_table()][-1] == "non-combat-move"
    g.apply({"type": "move", "units": "1 infantry", "path": ["Russia", "Archangel"]})
    end_phase(g)
    assert (g.state.nation, g.state.phase) == (GER, "purchase")
    assert all(not s.moved for s in g.state.stacks("Archangel"))
