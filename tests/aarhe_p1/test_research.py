"""AARHE Phase 1 weapons development: rolls declared and bought at 5 IPCs in develop weapons, at most half the IPCs
held, a restart fee after a turn without research, target numbers, breakthroughs and their free dice."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from aare.events import DiceRolled
from aare.rulesets.aarhe_p1.research import PROGRESS, TECHS, breakthroughs
from tests.aarhe_p1.common import GER, RUS, at, refused


def lab(power: str = GER, bank: int = 100, dice: list[int] | None = None, last: int = 1, round: int = 2,
        found: dict[str, int] | None = None) -> Game:
    """`power` in develop weapons with `bank` IPCs, its last roll bought in round `last`, its breakthroughs."""
    extra = {PROGRESS: {power: {"last": last, "breakthroughs": found or {}}}}
    return at(power, "develop-weapons", banks={power: bank}, round=round, extra=extra, dice=dice or [])


def research(dice: int, tech: str = "") -> dict[str, Any]:
    return {"type": "research", "dice": dice, "tech": tech}


def rolled(g: Game) -> list[tuple[int, ...]]:
    return [e.values for entry in g.log.entries for e in entry.events if isinstance(e, DiceRolled)]


@pytest.mark.rule("AARHEP1-OPT-target-table")
def test_the_six_technologies_and_their_target_numbers() -> None:
    assert {t.title: (t.target, t.breakthrough) for t in TECHS.values()} == {
        "Radar": (1, 6), "Rockets": (2, 5), "Super Subs": (3, 4), "Long-range aircraft": (4, 3),
        "Jet Fighters": (5, 2), "Heavy Bombers": (6, 1)}
    g = lab(dice=[3])
    assert g.ruleset.modify("technologies", ()) == tuple(TECHS)
    g.apply(research(1, "super subs"))
    assert "super_submarines" in g.state.techs[GER]


@pytest.mark.rule("AARHEP1-TECH-roll-cost")
def test_each_roll_costs_5() -> None:
    g = lab(dice=[1, 1])
    g.apply(research(2, "rockets"))
    assert g.state.banks[GER] == 90


@pytest.mark.rule("AARHEP1-TECH-restart-fee")
def test_a_nation_that_skipped_research_pays_5_more_with_its_next_roll() -> None:
    g = lab(last=1, round=2, dice=[1])  # researched in its previous turn: no fee
    g.apply(research(1, "rockets"))
    assert g.state.banks[GER] == 95
    g = lab(last=3, round=5, dice=[1, 1])  # none in round 4: 5 + 5
    g.apply(research(1, "rockets"))
    assert g.state.banks[GER] == 90
    g.apply(research(1, "rockets"))  # the fee is paid once
    assert g.state.banks[GER] == 85
    g = lab(last=0, round=1, dice=[1])  # the first turn of the game
    g.apply(research(1, "rockets"))
    assert g.state.banks[GER] == 95


@pytest.mark.rule("AARHEP1-TECH-spend-cap")
def test_at_most_half_the_ipcs_held_go_to_research() -> None:
    g = lab(bank=24, dice=[1, 1, 1])
    assert refused(g, research(3, "rockets")) == "AARHEP1-TECH-spend-cap"
    g.apply(research(2, "rockets"))
    assert refused(g, research(1, "rockets")) == "AARHEP1-TECH-spend-cap"  # 15 > 12
    g = lab(bank=24, last=1, round=3, dice=[1])
    assert refused(g, research(2, "rockets")) == "AARHEP1-TECH-spend-cap"  # 10 + the fee
    g.apply(research(1, "rockets"))
    assert g.state.banks[GER] == 14


@pytest.mark.rule("AARHEP1-TECH-declare")
def test_the_technology_is_declared_before_rolling() -> None:
    g = lab(dice=[2])
    assert refused(g, research(1)) == "AARHEP1-TECH-declare"
    assert refused(g, research(1, "industrial technology")) == "AARHEP1-TECH-declare"


@pytest.mark.rule("AARHEP1-TECH-develop")
def test_a_roll_of_the_target_number_develops_the_technology() -> None:
    g = lab(dice=[2])
    g.apply(research(1, "rockets"))
    assert "rocket_launchers" in g.state.techs[GER]
    g = lab(dice=[3])
    g.apply(research(1, "rockets"))
    assert "rocket_launchers" not in g.state.techs.get(GER, ())
    assert breakthroughs(g.state, GER, "rocket_launchers") == 0


@pytest.mark.rule("AARHEP1-TECH-breakthrough")
def test_a_roll_of_seven_less_the_target_is_a_breakthrough() -> None:
    g = lab(dice=[2])
    g.apply(research(1, "jet fighters"))
    assert "jet_fighters" not in g.state.techs.get(GER, ())
    assert breakthroughs(g.state, GER, "jet_fighters") == 1
    g = lab(dice=[4, 4])
    g.apply(research(2, "super subs"))
    assert breakthroughs(g.state, GER, "super_submarines") == 2


@pytest.mark.rule("AARHEP1-TECH-breakthrough-free-dice")
def test_each_breakthrough_adds_a_free_die_when_rolls_are_bought_for_its_technology() -> None:
    g = lab(dice=[1, 1, 3], found={"super_submarines": 2})
    g.apply(research(1, "super subs"))
    assert rolled(g)[-1] == (1, 1, 3)
    assert g.state.banks[GER] == 95 and "super_submarines" in g.state.techs[GER]
    g = lab(dice=[1, 1, 1, 1], found={"super_submarines": 2})
    g.apply(research(1, "super subs"))
    g.apply(research(1, "super subs"))  # the free dice come once a turn
    assert [len(r) for r in rolled(g)] == [3, 1]


@pytest.mark.rule("AARHEP1-TECH-breakthrough-bound")
def test_breakthroughs_help_only_their_own_technology() -> None:
    g = lab(RUS, dice=[2, 3, 3], found={"rocket_launchers": 1})
    g.apply(research(1, "radar"))
    assert [len(r) for r in rolled(g)] == [1]
    g.apply(research(1, "rockets"))
    assert [len(r) for r in rolled(g)] == [1, 2]
