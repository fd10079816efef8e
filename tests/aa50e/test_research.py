"""AA50E research: rolls for a named technology at 5 (major) or 4 (minor) IPCs, the 4:2 rule, the shared
technology discount; the twelve technologies of the two charts."""

from __future__ import annotations

from typing import Any

import pytest

from aare.economy.tech import research_cost, technologies
from aare.engine import Game
from aare.errors import IllegalAction
from aare.invariants import check_log
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario

RULES = "aa50e-1942"


def research(power: str, *, bank: int = 60, techs: dict[str, tuple[str, ...]] | None = None,
             dice: list[int] | None = None, attempts: dict[str, Any] | None = None, rules: str = RULES) -> Game:
    """`power` at the start of its research phase."""
    extra = {"research_attempts": attempts} if attempts else {}
    return scenario(rules, nation=power, phase="develop-weapons", banks={power: bank}, techs=techs, extra=extra,
                    dice=dice or [], round=3)


def rolls(game: Game, purpose: str) -> list[tuple[int, ...]]:
    return [tuple(e.values) for entry in game.log.entries for e in entry.events  # type: ignore[attr-defined]
            if e.type == "dice_rolled" and e.purpose.startswith(purpose)]  # type: ignore[attr-defined]


@pytest.mark.rule("AA50E-TECH-charts")
@pytest.mark.parametrize("rules", ["aa50e-1941", "aa50e-1942"])
def test_the_twelve_technologies_of_the_two_charts(rules: str) -> None:
    techs = technologies(load_ruleset(rules, {}))
    assert techs[:6] == ("advanced_artillery", "rockets", "paratroopers", "improved_factories", "war_bonds",
                         "improved_mechanized_infantry")
    assert techs[6:] == ("super_destroyers", "jet_fighters", "improved_shipyards", "radar", "long_range_aircraft",
                         "heavy_bombers")
    assert "super_submarines" not in techs and "increased_factory_production" not in techs


@pytest.mark.rule("AA50E-TECHCOST-table", "AA50E-TECHCOST-major", "AA50E-TECHCOST-minor")
def test_major_rolls_cost_5_and_minor_rolls_4() -> None:
    ruleset = load_ruleset(RULES, {})
    state = research("Germany").state
    prices = {t: research_cost(state, ruleset, "Germany", t) for t in technologies(ruleset)}
    assert {t for t, p in prices.items() if p == 5} == {
        "rockets", "improved_factories", "jet_fighters", "improved_shipyards", "long_range_aircraft", "heavy_bombers"}
    assert {t for t, p in prices.items() if p == 4} == {
        "advanced_artillery", "paratroopers", "war_bonds", "improved_mechanized_infantry", "super_destroyers", "radar"}


@pytest.mark.rule("AA50E-TECHCOST-table", "AA50E-TECHCOST-major", "AA50E-TECHCOST-minor")
def test_four_rolls_for_rockets_cost_20_and_for_radar_16() -> None:
    game = research("Germany", bank=40, dice=[1, 2, 3, 4, 1, 2, 3, 4])
    game.apply({"type": "research", "dice": 4, "tech": "rockets"})
    assert game.state.banks["Germany"] == 20
    game.apply({"type": "research", "dice": 4, "tech": "radar"})
    assert game.state.banks["Germany"] == 4 and not game.state.techs.get("Germany")
    with pytest.raises(IllegalAction) as info:
        research("Germany", bank=19).apply({"type": "research", "dice": 4, "tech": "heavy_bombers"})
    assert info.value.rule_id == "AA50E-TECHCOST-major"
    with pytest.raises(IllegalAction) as info:
        research("Germany", bank=15).apply({"type": "research", "dice": 4, "tech": "war_bonds"})
    assert info.value.rule_id == "AA50E-TECHCOST-minor"


@pytest.mark.rule("AA50E-TECHRULE-named-tech")
def test_a_6_gains_the_named_technology_at_once() -> None:
    game = research("Germany", bank=40, dice=[2, 6, 1, 3])
    game.apply({"type": "research", "dice": 4, "tech": "rockets"})
    assert game.state.techs["Germany"] == ("rockets",)  # the named tech, in force at once: no chart roll
    assert game.state.banks["Germany"] == 20 and rolls(game, "research") == [(2, 6, 1, 3)]
    assert not game.state.extra.get("tech_pending")
    with pytest.raises(IllegalAction, match="already has rockets"):
        game.apply({"type": "research", "dice": 4, "tech": "rockets"})
    with pytest.raises(IllegalAction, match="name the technology"):
        game.apply({"type": "research", "dice": 4})  # no tokens: a tech must be named
    assert not check_log(game.log)


@pytest.mark.rule("AA50E-TECHRULE-named-tech")
def test_without_a_6_nothing_is_kept_but_the_attempt() -> None:
    game = research("Japan", bank=40, dice=[1, 2, 3, 4, 1, 1, 1, 1])
    game.apply({"type": "research", "dice": 4, "tech": "jet_fighters"})
    assert not game.state.techs.get("Japan") and "research_tokens" not in game.state.extra
    assert game.state.extra["research_attempts"] == {"Japan": {"jet_fighters": [game.state.round]}}
    with pytest.raises(IllegalAction, match="already rolled for jet_fighters this turn"):
        game.apply({"type": "research", "dice": 2, "tech": "jet_fighters"})
    game.apply({"type": "research", "dice": 4, "tech": "radar"})  # several techs in one turn, each on its own
    assert game.state.banks["Japan"] == 4


@pytest.mark.rule("AA50E-TECHRULE-named-tech")
def test_china_does_no_research() -> None:
    game = scenario("aa50e-1941", nation="China", phase="develop-weapons", banks={"China": 20}, dice=[6] * 4)
    with pytest.raises(IllegalAction) as info:
        game.apply({"type": "research", "dice": 4, "tech": "radar", "power": "China"})
    assert info.value.rule_id == "AA50-RESEARCH-china-none"


@pytest.mark.rule("AA50E-TECHRULE-first-attempt-four")
def test_a_first_attempt_buys_at_least_four_rolls() -> None:
    game = research("Germany", bank=45, dice=[1, 1, 1, 1, 1])
    with pytest.raises(IllegalAction, match="first attempt at rockets needs at least 4 rolls") as info:
        game.apply({"type": "research", "dice": 3, "tech": "rockets"})
    assert info.value.rule_id == "AA50E-TECHRULE-first-attempt-four" and game.state.banks["Germany"] == 45
    game.apply({"type": "research", "dice": 5, "tech": "rockets"})  # more than 4 is allowed
    assert game.state.banks["Germany"] == 20 and rolls(game, "research") == [(1, 1, 1, 1, 1)]
    legal = [a.to_json() for a in game.legal_actions() if a.type == "research"]
    assert {"type": "research", "dice": 4, "tech": "radar"} in legal
    assert all(a["dice"] == 4 for a in legal) and all(a["tech"] != "rockets" for a in legal)


@pytest.mark.rule("AA50E-TECHRULE-second-attempt-auto")
def test_a_second_attempt_buys_exactly_two_rolls_and_succeeds() -> None:
    game = research("Germany", bank=40, attempts={"Germany": {"rockets": [1]}}, dice=[])
    for dice in (1, 3, 4):
        with pytest.raises(IllegalAction) as info:
            game.apply({"type": "research", "dice": dice, "tech": "rockets"})
        assert info.value.rule_id == "AA50E-TECHRULE-second-attempt-auto"
    assert {"type": "research", "dice": 2, "tech": "rockets"} in [a.to_json() for a in game.legal_actions()]
    game.apply({"type": "research", "dice": 2, "tech": "rockets"})
    assert game.state.techs["Germany"] == ("rockets",) and game.state.banks["Germany"] == 30
    assert rolls(game, "research") == []  # no dice: the tech comes by the rule


@pytest.mark.rule("AA50E-TECHRULE-shared-discount")
def test_an_ally_with_the_tech_makes_each_roll_1_cheaper() -> None:
    game = research("Japan", bank=40, techs={"Germany": ("rockets",)}, dice=[1, 1, 1, 1])
    game.apply({"type": "research", "dice": 4, "tech": "rockets"})
    assert game.state.banks["Japan"] == 24  # 16, not 20
    game = research("Germany", bank=40, techs={"Italy": ("radar",)}, attempts={"Germany": {"radar": [1]}})
    game.apply({"type": "research", "dice": 2, "tech": "radar"})
    assert game.state.banks["Germany"] == 34 and "radar" in game.state.techs["Germany"]
    game = research("Japan", bank=40, techs={"United Kingdom": ("rockets",)}, dice=[1, 1, 1, 1])
    game.apply({"type": "research", "dice": 4, "tech": "rockets"})
    assert game.state.banks["Japan"] == 20  # an enemy's tech gives no discount


@pytest.mark.rule("AA50E-TECHRULE-single-discount")
def test_the_discount_does_not_stack() -> None:
    game = research("Japan", bank=40, techs={"Germany": ("rockets",), "Italy": ("rockets",)}, dice=[1, 1, 1, 1])
    game.apply({"type": "research", "dice": 4, "tech": "rockets"})
    assert game.state.banks["Japan"] == 24  # 4 a roll, not 3
