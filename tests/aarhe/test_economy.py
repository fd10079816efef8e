"""AARHE economic attacks: raids and rockets lower the territory's next income, never below nothing; at a capital
the excess leaves the treasury at once."""

from __future__ import annotations

import pytest

from aare.economy.complex_damage import complex_damage, complex_stack
from aare.economy.damage import bombing_damage_events
from aare.engine import Game
from aare.events import BankChanged, UnitDamaged, apply_events
from aare.game_log import GameLog
from aare.scenario import scenario
from tests.aarhe.common import GER, RULES, UK, end_phase, end_turn


def raid(target: str, dice: list[int], bank: int) -> Game:
    """Three British bombers from Western Europe raid `target`."""
    g = scenario(RULES, nation=UK, phase="combat-move", units={"Western Europe": "United Kingdom: 3 bomber"},
                 owners={"Western Europe": UK}, clear=["Western Europe"], banks={GER: bank}, dice=dice, round=2)
    g.apply({"type": "move", "units": "3 bomber", "path": ["Western Europe", target], "raid": True})
    end_phase(g)
    g.apply({"type": "fight", "space": target})
    return g


@pytest.mark.rule("AARHE-ECON-next-income")
def test_a_raid_lowers_the_next_income_not_the_treasury() -> None:
    g = raid("Southern Europe", [6, 6, 6, 2, 1, 1], bank=20)  # the AA gun misses; 4 damage
    assert g.state.banks[GER] == 20
    assert complex_damage(g.state, g.ruleset, "Southern Europe") == 4
    # Germany's next collection: its income less 4, and the points clear
    state = g.state
    from dataclasses import replace

    g = Game(GameLog(replace(state, nation=GER, phase="purchase", members={})))
    income_before = g.state.banks[GER]
    end_phase(g)
    gained = [e for e in g.log.entries[-1].events if isinstance(e, BankChanged) and e.power == GER]
    from aare.economy.summary import territory_income

    assert sum(e.delta for e in gained) == territory_income(state, g.ruleset, GER) - 4
    assert g.state.banks[GER] == income_before + territory_income(state, g.ruleset, GER) - 4
    cleared = [e for e in g.log.entries[-1].events if isinstance(e, UnitDamaged)]
    assert [(e.space, e.points, e.rule_id) for e in cleared] == [("Southern Europe", -4, "AARHE-ECON-next-income")]
    assert complex_damage(g.state, g.ruleset, "Southern Europe") == 0


@pytest.mark.rule("AARHE-ECON-floor-zero")
def test_damage_beyond_the_territory_value_is_wasted() -> None:
    g = raid("Southern Europe", [6, 6, 6, 6, 6, 6], bank=20)  # 18 rolled on a territory worth 6
    value = g.ruleset.board.spaces["Southern Europe"].ipc
    assert complex_damage(g.state, g.ruleset, "Southern Europe") == value == 6
    assert g.state.banks[GER] == 20
    assert bombing_damage_events(g.state, g.ruleset, "Southern Europe", 3, "raid") == []


@pytest.mark.rule("AARHE-ECON-capital-excess")
def test_at_a_capital_the_excess_leaves_the_stored_ipcs_at_once() -> None:
    g = scenario(RULES, nation=UK, phase="conduct-combat", banks={GER: 5})
    events = bombing_damage_events(g.state, g.ruleset, "Germany", 14, "raid")  # Germany is worth 10
    assert [(type(e).__name__, getattr(e, "points", None), getattr(e, "delta", None)) for e in events] == [
        ("UnitDamaged", 10, None), ("BankChanged", None, -4)]
    assert getattr(events[-1], "rule_id", "") == "AARHE-ECON-capital-excess"
    after = apply_events(g.state, events)
    assert after.banks[GER] == 1 and complex_damage(after, g.ruleset, "Germany") == 10
    # never more than the treasury holds; a complex at its cap passes all of it to the treasury
    assert apply_events(after, bombing_damage_events(after, g.ruleset, "Germany", 6, "raid")).banks[GER] == 0
    # away from a capital nothing leaves the treasury
    stack = complex_stack(g.state, g.ruleset, "Southern Europe")
    assert stack is not None
    assert all(isinstance(e, UnitDamaged) for e in bombing_damage_events(g.state, g.ruleset, "Southern Europe", 9,
                                                                         "raid"))


def test_the_raid_plays_through_a_whole_turn() -> None:
    g = raid("Germany", [6, 6, 6, 6, 6, 2], bank=10)  # 14 on Germany: 10 on the complex, 4 from the treasury
    assert complex_damage(g.state, g.ruleset, "Germany") == 10 and g.state.banks[GER] == 6
    end_turn(g)
    assert g.state.round == 3 and g.to_act() == ["Germany", "Japan"]
