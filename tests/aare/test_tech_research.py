"""AARe research (seed WEAPONS DEVELOPMENT 7-9): major 5 / minor 4 IPCs a roll, the 4:2 rule, the shared-tech
discount, techs in force from mobilize."""

from __future__ import annotations

import pytest

from aare.economy.tech import research_price
from aare.events import BankChanged, TechGained
from aare.movement.pathing import allowance
from aare.movement.situation import situation
from tests.aare.common import GER, JPN, RUS, UK, US
from tests.aare.tech_helpers import act, dice_of, end, game, rejected


def research(dice: int, tech: str) -> dict[str, object]:
    return {"type": "research", "dice": dice, "tech": tech}


def paid(events: tuple[object, ...]) -> list[tuple[int, str]]:
    return [(e.delta, e.rule_id) for e in events if isinstance(e, BankChanged)]


@pytest.mark.rule("AARE-TECH-major-cost-5")
def test_major_techs_cost_five_a_roll() -> None:
    g = game(GER, "develop-weapons", banks={GER: 40}, dice=[1, 2, 3, 4])
    events = act(g, research(4, "rockets"))
    assert paid(events) == [(-20, "AARE-TECH-major-cost-5")] and g.state.banks[GER] == 20
    for tech in ("long_range_aircraft", "heavy_bombers"):
        assert research_price(g.state, g.ruleset, GER, tech).value == 5


@pytest.mark.rule("AARE-TECH-minor-cost-4")
def test_minor_techs_cost_four_a_roll() -> None:
    g = game(UK, "develop-weapons", banks={UK: 30}, dice=[1, 2, 3, 4])
    events = act(g, research(4, "jet fighters"))
    assert paid(events) == [(-16, "AARE-TECH-minor-cost-4")] and g.state.banks[UK] == 14
    for tech in ("super_submarines", "combined_bombardment"):
        price = research_price(g.state, g.ruleset, UK, tech)
        assert price.value == 4 and "AARE-TECH-minor-cost-4" in price.explain()


@pytest.mark.rule("AARE-TECH-42-first-attempt-min-4")
def test_a_first_attempt_needs_four_rolls_and_any_six_succeeds() -> None:
    g = game(JPN, "develop-weapons", banks={JPN: 40}, dice=[2, 6, 3, 1])
    rejected(g, research(3, "super_submarines"), "AARE-TECH-42-first-attempt-min-4")
    events = act(g, research(4, "super_submarines"))
    assert dice_of(events) == [(2, 6, 3, 1)]
    assert g.state.extra["tech_pending"] == {JPN: ["super_submarines"]}
    assert g.state.extra["research_attempts"] == {JPN: {"super_submarines": [2]}}
    missed = game(JPN, "develop-weapons", banks={JPN: 40}, dice=[2, 5, 3, 1])
    act(missed, research(4, "super_submarines"))
    assert "tech_pending" not in missed.state.extra or not missed.state.extra["tech_pending"]
    offered = {(a.dice, a.tech) for a in missed.legal_actions() if a.type == "research"}
    assert (4, "rockets") in offered and not any(t == "super_submarines" for _, t in offered)  # once a turn


@pytest.mark.rule("AARE-TECH-42-second-attempt-auto")
def test_the_second_attempt_needs_two_rolls_and_always_succeeds() -> None:
    j1 = game(JPN, "develop-weapons", round=1, banks={JPN: 40}, dice=[1, 2, 3, 4])
    act(j1, research(4, "super_submarines"))
    assert not j1.state.extra.get("tech_pending")
    rejected(j1, research(2, "super_submarines"), "AARE-TECH-42-second-attempt-auto")  # not in the same turn
    j2 = game(JPN, "develop-weapons", round=2, banks={JPN: 20}, dice=[],
              extra={"research_attempts": j1.state.extra["research_attempts"]})
    rejected(j2, research(1, "super_submarines"), "AARE-TECH-42-second-attempt-auto")
    events = act(j2, research(2, "super_submarines"))
    assert dice_of(events) == [] and paid(events) == [(-8, "AARE-TECH-minor-cost-4")]
    assert j2.state.extra["tech_pending"] == {JPN: ["super_submarines"]}


@pytest.mark.rule("AARE-TECH-42-six-rolls-auto")
def test_six_rolls_in_one_turn_succeed_without_a_roll() -> None:
    g = game(US, "develop-weapons", banks={US: 40}, dice=[])
    rejected(g, research(7, "long_range_aircraft"), "AARE-TECH-42-six-rolls-auto")
    events = act(g, research(6, "long_range_aircraft"))
    assert dice_of(events) == [] and paid(events) == [(-30, "AARE-TECH-major-cost-5")]
    assert g.state.extra["tech_pending"] == {US: ["long_range_aircraft"]}


@pytest.mark.rule("AARE-TECH-effective-at-mobilize")
def test_a_new_tech_works_from_the_mobilize_phase_of_its_turn() -> None:
    g = game(GER, "develop-weapons", {"Germany": "Germany: 1 fighter"}, banks={GER: 40}, dice=[],
             owners={"Germany": GER})
    act(g, research(6, "long range aircraft"))

    def fighter_move() -> int:
        view = situation(g.state, g.ruleset, GER)
        return allowance(view, g.ruleset.units["fighter"])

    assert g.state.techs.get(GER, ()) == () and fighter_move() == 4
    end(g, 2)  # purchase, then combat move: still 4
    assert g.state.phase == "combat-move" and fighter_move() == 4
    end(g, 2)  # conduct combat, then non-combat move: still 4
    assert g.state.phase == "non-combat-move" and fighter_move() == 4
    events = act(g, {"type": "end_phase"})
    assert g.state.phase == "mobilize" and [e.tech for e in events if isinstance(e, TechGained)] == [
        "long_range_aircraft"]
    assert fighter_move() == 6 and g.state.techs[GER] == ("long_range_aircraft",)


@pytest.mark.rule("AARE-TECH-shared-discount")
def test_an_allys_tech_costs_one_less_a_roll() -> None:
    g = game(GER, "develop-weapons", banks={GER: 40}, techs={JPN: ["super_submarines"]}, dice=[1, 1, 1, 1])
    events = act(g, research(4, "super_submarines"))
    assert paid(events) == [(-12, "AARE-TECH-minor-cost-4")]
    assert "AARE-TECH-shared-discount" in research_price(g.state, g.ruleset, GER, "super_submarines").explain()
    enemy = game(RUS, "develop-weapons", banks={RUS: 40}, techs={JPN: ["super_submarines"]})
    assert research_price(enemy.state, enemy.ruleset, RUS, "super_submarines").value == 4  # an enemy's: no


@pytest.mark.rule("AARE-TECH-shared-discount-max-1")
def test_the_discount_stays_one_with_two_allies_having_it() -> None:
    g = game(RUS, "develop-weapons", banks={RUS: 40}, techs={UK: ["long_range_aircraft"],
                                                             US: ["long_range_aircraft"]}, dice=[1, 2, 3, 4])
    assert research_price(g.state, g.ruleset, RUS, "long_range_aircraft").value == 4
    assert paid(act(g, research(4, "long_range_aircraft"))) == [(-16, "AARE-TECH-major-cost-5")]


@pytest.mark.rule("AARE-TECH-shared-42-applies")
def test_the_four_two_rule_holds_at_the_shared_price() -> None:
    g = game(GER, "develop-weapons", banks={GER: 40}, techs={JPN: ["super_submarines"]}, dice=[6, 6])
    rejected(g, research(2, "super_submarines"), "AARE-TECH-42-first-attempt-min-4")
    assert g.state.banks[GER] == 40


def test_lhtr_research_is_unchanged() -> None:
    from aare.scenario import scenario

    lhtr = scenario(nation=GER, phase="develop-weapons", dice=[4])
    lhtr.apply(research(1, "rockets"))
    assert lhtr.state.banks[GER] == 35 and "research_attempts" not in lhtr.state.extra
