"""AARHE income losses: production interruption after three combat cycles, and desert upkeep."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.economy.summary import base_income, income
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import GameLog
from aare.rulesets.aarhe.income import ATTACKED, interrupted, interruption_loss
from aare.scenario import scenario
from tests.aarhe.common import GER, RULES, RUS, end_phase


def with_extra(g: Game, **extra: Any) -> Game:
    return Game(GameLog(replace(g.state, extra={**g.state.extra, **extra})))


@pytest.mark.rule("AARHE-INCOME-interruption-table")
@pytest.mark.parametrize(("printed", "lost"), [(1, 1), (2, 1), (3, 1), (4, 2), (6, 2), (7, 3), (9, 3), (10, 4),
                                               (12, 4)])
def test_the_loss_follows_the_printed_income(printed: int, lost: int) -> None:
    assert interruption_loss(printed) == lost


@pytest.mark.rule("AARHE-INCOME-interruption")
def test_three_cycles_of_combat_since_the_last_turn_cut_the_income() -> None:
    g = scenario(RULES, nation=RUS, phase="purchase", round=2)
    full = base_income(g.state, g.ruleset, RUS)
    two = with_extra(g, **{ATTACKED: {RUS: {"Caucasus": 2}}})
    assert interrupted(two.state, two.ruleset, RUS) == {} and income(two.state, two.ruleset, RUS) == full
    three = with_extra(g, **{ATTACKED: {RUS: {"Caucasus": 3, "Karelia S.S.R.": 4}}})  # worth 4 and 2
    assert interrupted(three.state, three.ruleset, RUS) == {"Caucasus": 2, "Karelia S.S.R.": 1}
    assert income(three.state, three.ruleset, RUS) == full - 3
    # collected: the counts start again
    bank = three.state.banks[RUS]
    end_phase(three)
    assert three.state.banks[RUS] == bank + full - 3
    end_phase(three)
    assert RUS not in (three.state.extra.get(ATTACKED) or {})
    # a territory lost meanwhile is no longer the power's to lose income on
    gone = with_extra(scenario(RULES, nation=RUS, phase="purchase", round=2, owners={"Caucasus": GER}),
                      **{ATTACKED: {RUS: {"Caucasus": 3}}})
    assert interrupted(gone.state, gone.ruleset, RUS) == {}


@pytest.mark.rule("AARHE-INCOME-interruption")
def test_land_battles_count_their_cycles_against_the_territorys_controller() -> None:
    g = scenario(RULES, nation=GER, phase="conduct-combat", round=2, clear=True)
    combat = {"round": 2, "nation": GER, "fought": ["Caucasus", "SZ 5", "Russia|bombing", "Karelia S.S.R."],
              "current": None, "rockets": {},
              "ended": {"Caucasus": {"result": "defender", "cycle": 2}, "SZ 5": {"result": "attacker", "cycle": 3},
                        "Russia|bombing": {"result": "bombed", "cycle": 1},
                        "Karelia S.S.R.": {"result": "attacker", "cycle": 1}}}
    owners = dict(g.state.owners)
    turn = {"round": 2, "power": GER, "owners": owners, "placed": {}, "damage": {}}
    g = with_extra(g, combat=combat, turn=turn, **{ATTACKED: {RUS: {"Caucasus": 1}}})
    end_phase(g)
    assert g.state.extra[ATTACKED] == {RUS: {"Caucasus": 3, "Karelia S.S.R.": 1}}


def _desert(bank: int) -> Game:
    return scenario(RULES, nation=GER, phase="collect-income", round=2, banks={GER: bank},
                    owners={"Sahara": GER}, units={"Sahara": "Germany: 2 infantry, 1 armour"})


@pytest.mark.rule("AARHE-INCOME-desert-upkeep")
def test_units_in_a_desert_cost_one_ipc_each_or_are_removed() -> None:
    g = _desert(20)
    end_phase(g)
    assert g.state.banks[GER] == 17 and sum(s.count for s in g.state.stacks("Sahara")) == 3
    # or remove two and pay 1
    g = _desert(20)
    disband = {"type": "designate", "advantage": "disband", "units": "2 infantry", "space": "Sahara"}
    g.apply(disband)
    end_phase(g)
    assert g.state.banks[GER] == 19 and [(s.unit, s.count) for s in g.state.stacks("Sahara")] == [("armour", 1)]
    # what the treasury cannot pay for is removed, the cheapest first
    g = _desert(1)
    end_phase(g)
    assert g.state.banks[GER] == 0 and [(s.unit, s.count) for s in g.state.stacks("Sahara")] == [("armour", 1)]
    g = _desert(20)
    with pytest.raises(IllegalAction, match="not a desert"):
        g.apply({**disband, "space": "Libya"})
    with pytest.raises(IllegalAction, match="fewer than 3"):
        g.apply({**disband, "units": "3 infantry"})
    # LHTR: nothing to pay
    lhtr = scenario("lhtr-1.3", nation=GER, phase="collect-income", round=2, banks={GER: 20},
                    owners={"Sahara": GER}, units={"Sahara": "Germany: 2 infantry, 1 armour"})
    end_phase(lhtr)
    assert sum(s.count for s in lhtr.state.stacks("Sahara")) == 3
