"""Classic weapons development: research dice at 5 IPCs rolled all at once, each 6 a roll on the development chart
(a development the power has is rerolled), developments in force at once and not shared; Long-Range Aircraft,
Industrial Technology and Rockets."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.rulesets.classic.modules import CHART
from aare.scenario import scenario

RULES = "classic-2e"
LONG_FLIGHT = ["United Kingdom", "North Sea Zone", "West Spain Sea Zone", "West Mediterranean Sea Zone",
               "Central Mediterranean Sea Zone", "East Mediterranean Sea Zone", "Syria Jordan"]
BOMBER_FLIGHT = [*LONG_FLIGHT, "Persia", "India"]
PRICES = {"infantry": 3, "armour": 5, "aa_gun": 5, "factory": 15, "fighter": 12, "bomber": 15, "transport": 8,
          "submarine": 8, "carrier": 18, "battleship": 24}


def research(power: str, *, bank: int = 40, techs: tuple[str, ...] = (), dice: list[int] | None = None,
             **kw: Any) -> Game:
    """`power` at the start of its develop-weapons phase."""
    return scenario(RULES, nation=power, phase="develop-weapons", banks={power: bank},
                    techs={power: techs} if techs else None, dice=dice or [], **kw)


def rolls(game: Game, purpose: str) -> list[tuple[int, ...]]:
    """The dice rolled for `purpose` (a prefix) in the whole game."""
    return [tuple(e.values) for entry in game.log.entries for e in entry.events  # type: ignore[attr-defined]
            if e.type == "dice_rolled" and e.purpose.startswith(purpose)]  # type: ignore[attr-defined]


def end(game: Game, times: int = 1) -> None:
    for _ in range(times):
        game.apply({"type": "end_phase"})


@pytest.mark.rule("CL-WEAPONS-optional-phase")
def test_a_power_may_skip_research_and_groups_may_play_without_it() -> None:
    game = research("Germany", bank=32)
    assert {"type": "research", "dice": 1} in [a.to_json() for a in game.legal_actions()]
    end(game)
    assert game.state.phase == "purchase" and game.state.banks["Germany"] == 32
    assert game.state.techs.get("Germany", ()) == ()
    off = new_game(RULES, {"weapons_development": False}).state
    assert (off.nation, off.phase) == ("Russia", "purchase")
    assert "develop-weapons" not in [p.name for p in load_ruleset(RULES, {"weapons_development": False})
                                     .phase_table()]


@pytest.mark.rule("CL-WEAPONS-die-cost")
def test_dice_cost_5_each_and_are_rolled_all_at_once() -> None:
    game = research("Japan", bank=25, dice=[2, 4, 5])
    game.apply({"type": "research", "dice": 2})
    game.apply({"type": "research", "dice": 1})
    assert game.state.banks["Japan"] == 10 and not rolls(game, "research")
    end(game)
    assert rolls(game, "research") == [(2, 4, 5)]  # one roll of the three dice
    assert game.state.banks["Japan"] == 10 and game.state.techs.get("Japan", ()) == ()
    assert game.state.phase == "purchase"
    assert not game.state.extra.get("research_dice")


@pytest.mark.rule("CL-WEAPONS-die-cost", "CL-PURCHASE-spend-treasury")
def test_dice_beyond_the_treasury_are_refused() -> None:
    game = research("Japan", bank=14)
    before = game.state
    with pytest.raises(IllegalAction, match="3 research dice cost 15 IPCs; Japan has 14") as info:
        game.apply({"type": "research", "dice": 3})
    assert info.value.rule_id == "CL-WEAPONS-die-cost"
    assert game.state == before and not game.log.entries


@pytest.mark.rule("CL-WEAPONS-six-succeeds")
def test_dice_buy_the_chart_not_a_named_development() -> None:
    game = research("Germany")
    before = game.state
    with pytest.raises(IllegalAction, match="not for a named development") as info:
        game.apply({"type": "research", "dice": 1, "tech": "jet_fighters"})
    assert info.value.rule_id == "CL-WEAPONS-six-succeeds" and game.state == before
    assert all(not a.to_json().get("tech") for a in game.legal_actions())


@pytest.mark.rule("CL-WEAPONS-six-succeeds")
@pytest.mark.parametrize("die", range(1, 7))
def test_a_six_rolls_on_the_chart(die: int) -> None:
    game = research("Germany", dice=[6, 3, die])
    game.apply({"type": "research", "dice": 2})
    end(game)
    assert game.state.techs["Germany"] == (CHART[die - 1],)
    assert rolls(game, "weapons development chart") == [(die,)]
    assert CHART == ("jet_fighters", "rockets", "super_submarines", "long_range_aircraft", "industrial_technology",
                     "heavy_bombers")


@pytest.mark.rule("CL-WEAPONS-six-succeeds")
def test_a_development_already_held_is_rerolled_and_each_six_is_a_breakthrough() -> None:
    game = research("Germany", techs=("heavy_bombers",), dice=[6, 6, 1, 6, 4, 4, 2])
    game.apply({"type": "research", "dice": 3})
    end(game)
    # two 6s: two breakthroughs; 6 (held) is rerolled to 4, then 4 (just gained) is rerolled to 2
    assert rolls(game, "research") == [(6, 6, 1)]
    assert rolls(game, "weapons development chart") == [(6,), (4,), (4,), (2,)]
    assert set(game.state.techs["Germany"]) == {"heavy_bombers", "long_range_aircraft", "rockets"}
    assert game.state.banks["Germany"] == 25


@pytest.mark.rule("CL-WEAPONS-six-succeeds")
def test_a_power_with_every_development_buys_no_dice() -> None:
    game = research("Germany", techs=CHART)
    assert not [a for a in game.legal_actions() if a.type == "research"]


@pytest.mark.rule("CL-WEAPONS-immediate-effect", "CL-WEAPONS-long-range-aircraft")
def test_long_range_aircraft_fly_the_same_turn_they_are_developed() -> None:
    game = research("United Kingdom", clear=True, units={"United Kingdom": "United Kingdom: 1 fighter"},
                    dice=[6, 4])
    game.apply({"type": "research", "dice": 1})
    end(game, 4)  # develop weapons, purchase, combat movement, combat
    assert game.state.phase == "non-combat-move"
    assert game.state.techs["United Kingdom"] == ("long_range_aircraft",)
    game.apply({"type": "move", "units": "1 fighter", "path": LONG_FLIGHT})
    assert game.state.stacks("Syria Jordan")[0].unit == "fighter"


@pytest.mark.rule("CL-WEAPONS-long-range-aircraft")
@pytest.mark.parametrize(("unit", "path"), [("fighter", LONG_FLIGHT), ("bomber", BOMBER_FLIGHT)])
def test_long_range_fighters_fly_6_and_bombers_8(unit: str, path: list[str]) -> None:
    def flight(techs: tuple[str, ...]) -> Game:
        return scenario(RULES, nation="United Kingdom", phase="non-combat-move", clear=True,
                        units={"United Kingdom": f"United Kingdom: 1 {unit}"},
                        techs={"United Kingdom": techs} if techs else None)

    game = flight(())
    before = game.state
    with pytest.raises(IllegalAction):
        game.apply({"type": "move", "units": f"1 {unit}", "path": path})
    assert game.state == before
    game = flight(("long_range_aircraft",))
    game.apply({"type": "move", "units": f"1 {unit}", "path": path})
    assert [s.unit for s in game.state.stacks(path[-1])] == [unit]


@pytest.mark.rule("CL-WEAPONS-industrial-technology", "CL-PURCHASE-industrial-technology-prices",
                  "CL-WEAPONS-immediate-effect")
def test_industrial_technology_takes_1_ipc_off_every_unit_from_the_same_turn() -> None:
    game = research("Germany", bank=38, dice=[6, 5])
    game.apply({"type": "research", "dice": 1})
    end(game)
    assert game.state.techs["Germany"] == ("industrial_technology",)
    ruleset = game.ruleset
    assert {u: ruleset.unit_cost(u, power="Germany", state=game.state).value for u in PRICES} == {
        u: p - 1 for u, p in PRICES.items()}
    game.apply({"type": "purchase", "units": "3 fighters"})
    assert game.state.banks["Germany"] == 0  # 38 - 5 for the die - 33


@pytest.mark.rule("CL-WEAPONS-industrial-technology", "CL-WEAPONS-immediate-effect")
def test_developments_are_not_shared_with_allies() -> None:
    game = scenario(RULES, nation="Japan", phase="purchase", banks={"Japan": 23},
                    techs={"Germany": ("industrial_technology",)})
    assert game.ruleset.unit_cost("battleship", power="Germany", state=game.state).value == 23
    before = game.state
    with pytest.raises(IllegalAction, match="cost 24 IPCs; Japan has 23") as info:
        game.apply({"type": "purchase", "units": "1 battleship"})
    assert info.value.rule_id == "CL-PURCHASE-spend-treasury" and game.state == before


def rocket_position(uk_bank: int, dice: list[int]) -> Game:
    return scenario(RULES, nation="Germany", phase="conduct-combat", techs={"Germany": ("rockets",)},
                    banks={"United Kingdom": uk_bank}, dice=dice)


@pytest.mark.rule("CL-WEAPONS-rockets")
def test_an_aa_gun_fires_a_rocket_at_a_complex_within_3_spaces() -> None:
    game = rocket_position(30, [4])
    rockets = [a.to_json() for a in game.legal_actions() if a.type == "rocket"]
    assert {"type": "rocket", "launcher": "West Europe", "target": "United Kingdom"} in rockets
    game.apply({"type": "rocket", "launcher": "West Europe", "target": "United Kingdom"})
    assert game.state.banks["United Kingdom"] == 26
    before = game.state
    with pytest.raises(IllegalAction) as info:  # one rocket a turn at each complex
        game.apply({"type": "rocket", "launcher": "Germany", "target": "United Kingdom"})
    assert info.value.rule_id == "CL-WEAPONS-rockets" and game.state == before


@pytest.mark.rule("CL-WEAPONS-rockets")
def test_rockets_need_the_development_and_range() -> None:
    game = scenario(RULES, nation="Germany", phase="conduct-combat")
    with pytest.raises(IllegalAction, match="has not developed Rockets") as info:
        game.apply({"type": "rocket", "launcher": "West Europe", "target": "United Kingdom"})
    assert info.value.rule_id == "CL-WEAPONS-rockets"
    game = rocket_position(30, [4])
    with pytest.raises(IllegalAction, match="no rocket target") as info:
        game.apply({"type": "rocket", "launcher": "West Europe", "target": "East US"})
    assert info.value.rule_id == "CL-WEAPONS-rockets"


@pytest.mark.rule("CL-WEAPONS-rockets", "CL-ECON-treasury-not-negative")
def test_a_rocket_takes_no_more_than_the_treasury() -> None:
    game = rocket_position(2, [5])
    game.apply({"type": "rocket", "launcher": "West Europe", "target": "United Kingdom"})
    assert game.state.banks["United Kingdom"] == 0


@pytest.mark.rule("CL-WEAPONS-rockets")
def test_a_rocket_takes_its_whole_die_whatever_the_territorys_value() -> None:
    game = scenario(RULES, nation="Germany", phase="conduct-combat", techs={"Germany": ("rockets",)},
                    banks={"Russia": 10}, dice=[5])
    game.apply({"type": "rocket", "launcher": "Germany", "target": "Karelia S.S.R."})  # worth 3
    assert game.state.banks["Russia"] == 5
