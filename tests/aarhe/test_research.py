"""AARHE research: progress boxes, research dice bought in the purchase phase and rolled in develop weapons,
research capacity, technologies in force at once, transfers between allies."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import pytest

from aare.engine import Game
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aarhe.research import progress
from tests.aarhe.common import GER, JAP, RUS, UK, US, end_phase, refused
from tests.aarhe.move_common import at


def to_phase(g: Game, phase: str) -> None:
    while g.state.phase != phase:
        g.apply({"type": "end_phase"})


def researcher(power: str, dice: Iterable[int] = (), bank: int = 40, techs: Iterable[str] = ()) -> Game:
    """`power`'s purchase phase on an empty board with its capital, `bank` IPCs and `techs` in force."""
    capital = {GER: "Germany", JAP: "Japan", RUS: "Russia", UK: "United Kingdom", US: "Eastern United States"}
    g = at(power, "purchase", {capital[power]: f"{power}: 1 factory, 1 infantry"}, banks={power: bank},
           dice=list(dice))
    if techs:
        g.log.state = replace(g.state, techs={**g.state.techs, power: tuple(sorted(techs))})
        g.log.initial = g.log.state
    return g


def research(g: Game, dice: int, tech: str = "") -> None:
    g.apply({"type": "research", "dice": dice, **({"tech": tech} if tech else {})})


@pytest.mark.rule("AARHE-RESEARCH-progress-table")
def test_a_new_game_starts_with_the_tables_ticks() -> None:
    state = Game(new_game("aarhe", {}, seed=1)).state
    assert progress(state, GER, "jet_fighters") == 1
    assert progress(state, US, "atomic_weaponry") == 3
    assert progress(state, GER, "atomic_weaponry") == 2
    assert progress(state, RUS, "heavy_artillery") == 1
    assert progress(state, UK, "advanced_radar") == 1
    assert all(progress(state, JAP, t) == 0 for t in ("jet_fighters", "rockets", "atomic_weaponry"))
    shown = load_ruleset("aarhe").modify("nation_records", {}, state=state, power=GER)["research"]
    assert "Jet Plane 1/4" in shown and "Atomic Weaponry 2/10" in shown


@pytest.mark.rule("AARHE-RESEARCH-roll")
def test_dice_are_bought_at_five_and_each_one_ticks_a_box() -> None:
    g = researcher(JAP, dice=[1, 1, 4])
    research(g, 2)
    assert g.state.banks[JAP] == 30
    assert refused(g, {"type": "research", "dice": 1, "tech": "rockets"}) == "AARHE-RESEARCH-roll"  # not now
    to_phase(g, "develop-weapons")
    research(g, 3, "rockets")
    assert progress(g.state, JAP, "rockets") == 2
    assert "rockets" not in g.state.techs.get(JAP, ())


@pytest.mark.rule("AARHE-RESEARCH-roll")
def test_dice_may_be_split_among_technologies_one_at_a_time() -> None:
    g = researcher(GER, dice=[1, 6, 1])
    to_phase(g, "develop-weapons")
    research(g, 1, "advanced production")
    research(g, 1, "heavy tank")
    assert refused(g, {"type": "research", "dice": 1, "tech": "rockets"}) == "AARHE-RESEARCH-capacity"
    assert progress(g.state, GER, "advanced_production") == 1
    assert progress(g.state, GER, "heavy_tank") == 1  # the starting tick only


@pytest.mark.rule("AARHE-RESEARCH-complete", "AARHE-TECHDEPLOY-immediate")
def test_the_tech_is_gained_when_its_boxes_are_all_ticked_and_is_in_force_at_once() -> None:
    g = researcher(GER, dice=[1, 1])
    to_phase(g, "develop-weapons")
    research(g, 1, "rockets")
    assert "rockets" not in g.state.techs.get(GER, ())
    research(g, 1, "rockets")
    assert "rockets" in g.state.techs[GER]
    assert progress(g.state, GER, "rockets") == 3
    assert refused(g, {"type": "research", "dice": 1, "tech": "rockets"}) == "AARHE-RESEARCH-complete"


@pytest.mark.rule("AARHE-RESEARCH-complete")
def test_surplus_ticks_are_lost() -> None:
    g = researcher(GER, dice=[1, 1, 1, 1, 1])
    research(g, 3)
    to_phase(g, "develop-weapons")
    research(g, 5, "underground factory")  # 1 of 3 ticked; 5 hits
    assert "underground_factory" in g.state.techs[GER]
    assert g.state.extra["aarhe_research"][GER]["underground_factory"] == 2


@pytest.mark.rule("AARHE-RESEARCH-capacity-table", "AARHE-RESEARCH-capacity")
def test_each_nation_has_its_free_dice_and_a_limit_on_bought_dice() -> None:
    for power, free, most in ((GER, 2, 3), (JAP, 1, 2), (RUS, 1, 2), (UK, 1, 1), (US, 2, 4)):
        g = researcher(power, dice=[6] * 9)
        assert refused(g, {"type": "research", "dice": most + 1}) == "AARHE-RESEARCH-capacity"
        research(g, most)
        assert g.state.banks[power] == 40 - 5 * most
        assert refused(g, {"type": "research", "dice": 1}) == "AARHE-RESEARCH-capacity"
        to_phase(g, "develop-weapons")
        assert refused(g, {"type": "research", "dice": free + most + 1, "tech": "rockets"}) == \
            "AARHE-RESEARCH-capacity"
        research(g, free + most, "advanced production")


@pytest.mark.rule("AARHE-RESEARCH-capacity")
def test_free_dice_cost_nothing_and_unrolled_dice_do_not_carry_over() -> None:
    g = researcher(UK, dice=[6, 6])
    to_phase(g, "develop-weapons")
    bank = g.state.banks[UK]
    research(g, 1, "advanced asw")
    assert g.state.banks[UK] == bank
    assert refused(g, {"type": "research", "dice": 1, "tech": "advanced asw"}) == "AARHE-RESEARCH-capacity"
    g2 = researcher(UK, dice=[6, 6])
    research(g2, 1)
    to_phase(g2, "develop-weapons")
    g2.apply({"type": "end_phase"})
    assert not (g2.state.extra.get("aarhe_research_dice") or {}).get(UK)


@pytest.mark.rule("AARHE-RESEARCH-roll")
def test_bots_are_offered_research_in_both_phases() -> None:
    g = researcher(US)
    assert any(a.type == "research" and not a.tech for a in g.legal_actions())
    to_phase(g, "develop-weapons")
    offered = [a for a in g.legal_actions() if a.type == "research"]
    assert offered and all(a.tech for a in offered)


@pytest.mark.rule("AARHE-TECHDEPLOY-transfer")
def test_one_minor_technology_each_way_between_the_us_and_the_uk() -> None:
    g = researcher(US, techs=("heavy_bombers", "rockets", "jet_fighters"))
    to_phase(g, "develop-weapons")
    assert refused(g, {"type": "give_tech", "tech": "jet plane", "to": UK}) == "AARHE-TECHDEPLOY-transfer"
    assert refused(g, {"type": "give_tech", "tech": "rockets", "to": RUS}) == "AARHE-TECHDEPLOY-transfer"
    assert refused(g, {"type": "give_tech", "tech": "advanced radar", "to": UK}) == "AARHE-TECHDEPLOY-transfer"
    g.apply({"type": "give_tech", "tech": "heavy bomber", "to": UK})
    assert refused(g, {"type": "give_tech", "tech": "rockets", "to": UK}) == "AARHE-TECHDEPLOY-transfer"
    uk = researcher(UK, techs=("advanced_asw",))
    uk.log.state = replace(uk.state, extra={**uk.state.extra, **{k: g.state.extra[k] for k in
                                                                  ("aarhe_tech_given", "aarhe_tech_incoming")}})
    to_phase(uk, "develop-weapons")
    uk.apply({"type": "give_tech", "tech": "advanced asw", "to": US})
    assert uk.state.extra["aarhe_tech_given"] == {"United States>United Kingdom": "heavy_bombers",
                                                  "United Kingdom>United States": "advanced_asw"}


def step(g: Game) -> None:
    """The first power to act ends its phase (air missions asked for are declined)."""
    end_phase(g, g.to_act()[0])


@pytest.mark.rule("AARHE-TECHDEPLOY-transfer-timing")
def test_a_given_technology_works_from_the_receivers_next_turn() -> None:
    g = Game(new_game("aarhe", {}, seed=2))
    g.log.state = replace(g.state, techs={**g.state.techs, US: ("heavy_bombers",)})
    g.log.initial = g.log.state
    while g.state.round < 2 or US not in g.state.members or g.state.members[US]["phase"] != "develop-weapons":
        step(g)
    g.apply({"type": "give_tech", "tech": "heavy bomber", "to": UK}, power=US)
    while g.state.round == 2 or UK not in g.state.members:
        assert "heavy_bombers" not in g.state.techs.get(UK, ())  # not in the Axis turn between
        step(g)
    assert "heavy_bombers" in g.state.techs[UK]
