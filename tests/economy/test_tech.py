"""Research: dice at 5 IPCs for one named technology, a 6 develops it, in force from mobilize."""

from __future__ import annotations

import pytest

from aare.economy.tech import technologies
from aare.errors import IllegalAction
from aare.events import DiceRolled, TechGained
from aare.scenario import scenario
from tests.economy.helpers import act, end

SIX = ("jet_fighters", "rockets", "super_submarines", "long_range_aircraft", "combined_bombardment", "heavy_bombers")


def research(dice: int, tech: str) -> dict[str, object]:
    return {"type": "research", "dice": dice, "tech": tech}


@pytest.mark.rule("LHTR-TECH-research-dice")
def test_research_dice_cost_5_each_whatever_the_result() -> None:
    game = scenario(nation="Germany", phase="develop-weapons", dice=[4, 5])
    events = act(game, research(2, "rockets"))
    assert game.state.banks["Germany"] == 30 and game.state.techs["Germany"] == ()
    assert [e.values for e in events if isinstance(e, DiceRolled)] == [(4, 5)]
    assert "tech_pending" not in game.state.extra
    poor = scenario(nation="Germany", phase="develop-weapons", banks={"Germany": 9})
    with pytest.raises(IllegalAction) as err:
        poor.apply(research(2, "rockets"))
    assert err.value.rule_id == "LHTR-TECH-research-dice"


@pytest.mark.rule("LHTR-TECH-choose-target")
def test_dice_are_for_one_named_technology_not_yet_owned() -> None:
    game = scenario(nation="Japan", phase="develop-weapons", dice=[2, 6, 3, 6], techs={"Japan": ["rockets"]})
    for bad in ({"type": "research", "dice": 1}, research(1, "rockets")):
        with pytest.raises(IllegalAction) as err:
            game.apply(bad)
        assert err.value.rule_id == "LHTR-TECH-choose-target"
    act(game, research(3, "long range aircraft"))
    assert game.state.extra["tech_pending"] == {"Japan": ["long_range_aircraft"]}
    with pytest.raises(IllegalAction):
        game.apply(research(1, "long_range_aircraft"))
    act(game, research(1, "jet_fighters"))  # a second attempt in the same phase
    assert game.state.extra["tech_pending"] == {"Japan": ["jet_fighters", "long_range_aircraft"]}
    offered = {a.tech for a in game.legal_actions() if a.type == "research"}
    assert offered == {"super_submarines", "combined_bombardment", "heavy_bombers"}


@pytest.mark.rule("LHTR-TECH-breakthrough-on-6")
def test_any_six_develops_the_named_technology_once() -> None:
    game = scenario(nation="United States", phase="develop-weapons", dice=[6, 6, 2, 1, 5, 5])
    act(game, research(4, "heavy_bombers"))
    assert game.state.extra["tech_pending"] == {"United States": ["heavy_bombers"]}
    act(game, research(2, "rockets"))
    assert game.state.extra["tech_pending"] == {"United States": ["heavy_bombers"]}
    end(game, 5)
    assert game.state.techs["United States"] == ("heavy_bombers",)


@pytest.mark.rule("LHTR-TECH-timing")
def test_a_new_technology_is_in_force_from_mobilize() -> None:
    game = scenario(nation="Germany", phase="develop-weapons", dice=[6])
    act(game, research(1, "long_range_aircraft"))
    for phase in ("purchase", "combat-move", "conduct-combat", "non-combat-move"):
        end(game)
        assert game.state.phase == phase and game.state.techs["Germany"] == ()
    events = act(game, {"type": "end_phase"})
    assert game.state.phase == "mobilize" and game.state.techs["Germany"] == ("long_range_aircraft",)
    assert [e.tech for e in events if isinstance(e, TechGained)] == ["long_range_aircraft"]
    end(game, 2)
    assert game.state.nation == "United Kingdom" and game.state.techs["Germany"] == ("long_range_aircraft",)


@pytest.mark.rule("LHTR-TECH-permanent-unshared")
def test_technologies_stay_with_the_power_that_developed_them() -> None:
    game = scenario(nation="United Kingdom", phase="develop-weapons", dice=[6])
    act(game, research(1, "jet_fighters"))
    end(game, 5 + 2 + 7 * 4)  # to the UK's mobilize, then around the table back to the UK
    assert game.state.nation == "United Kingdom" and game.state.round == 2
    assert game.state.techs["United Kingdom"] == ("jet_fighters",)
    assert all(game.state.techs[p] == () for p in ("Russia", "Germany", "Japan", "United States"))


@pytest.mark.rule("LHTR-TECH-list")
def test_six_technologies_and_no_industrial_technology() -> None:
    game = scenario(nation="Germany", phase="develop-weapons")
    assert technologies(game.ruleset) == SIX
    with pytest.raises(IllegalAction) as err:
        game.apply(research(1, "industrial technology"))
    assert err.value.rule_id == "LHTR-TECH-list"


@pytest.mark.rule("LHTR-TURN-research-optional-phase")
def test_research_may_be_skipped_or_left_out() -> None:
    game = scenario(nation="Germany", phase="develop-weapons")
    act(game, {"type": "end_phase"})
    assert game.state.phase == "purchase" and game.state.banks["Germany"] == 40
    off = scenario(nation="Japan", phase="collect-income", options={"weapons_development": False})
    act(off, {"type": "end_phase"})
    assert (off.state.nation, off.state.phase) == ("United States", "purchase")
