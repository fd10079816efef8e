"""AA50 research & development: research tokens, the roll per token, breakthroughs on the two charts, the
chart choice, technologies in force at once; War Bonds, Improved Mechanized Infantry, Improved Shipyards and
Long-Range Aircraft."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from aare.action_text import format_action, format_decision, parse_action_text
from aare.cli.main import cli
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import save_log
from aare.invariants import check_log
from aare.movement.pathing import allowance
from aare.movement.situation import Situation
from aare.rulesets.aa50.modules import CHART_1, CHART_2
from aare.scenario import scenario

TOKENS = "research_tokens"


def research(power: str, *, bank: int = 40, held: int = 0, techs: tuple[str, ...] = (), dice: list[int] | None = None,
             options: dict[str, Any] | None = None) -> Game:
    """`power` at the start of its research phase, holding `held` tokens."""
    extra = {TOKENS: {power: held}} if held else {}
    return scenario("aa50-1942", nation=power, phase="develop-weapons", banks={power: bank},
                    techs={power: techs} if techs else None, extra=extra, dice=dice or [], options=options)


def tokens(game: Game, power: str) -> int:
    return int((game.state.extra.get(TOKENS) or {}).get(power, 0))


def rolls(game: Game, purpose: str) -> list[tuple[int, ...]]:
    """The dice rolled for `purpose` (a prefix) in the whole game."""
    return [tuple(e.values) for entry in game.log.entries for e in entry.events  # type: ignore[attr-defined]
            if e.type == "dice_rolled" and e.purpose.startswith(purpose)]  # type: ignore[attr-defined]


@pytest.mark.rule("AA50-RESEARCH-buy-tokens", "AA50-PURCHASE-research-tokens")
def test_tokens_cost_5_each_and_the_rest_is_left_for_units() -> None:
    game = research("Germany", bank=31, dice=[1, 3])
    game.apply({"type": "research", "dice": 2})
    assert (game.state.banks["Germany"], tokens(game, "Germany")) == (21, 2)
    game.apply({"type": "end_phase"})
    assert game.state.phase == "purchase" and game.state.banks["Germany"] == 21
    with pytest.raises(IllegalAction, match="cost 24 IPCs; Germany has 21"):
        game.apply({"type": "purchase", "units": "8 infantry"})
    with pytest.raises(IllegalAction, match="not an action of the purchase phase"):
        game.apply({"type": "research", "dice": 1})  # tokens are bought in the research phase only


@pytest.mark.rule("AA50-RESEARCH-buy-tokens")
def test_tokens_beyond_the_treasury_or_for_a_named_technology_are_refused() -> None:
    game = research("Japan", bank=14)
    with pytest.raises(IllegalAction, match="cost 15 IPCs; Japan has 14") as info:
        game.apply({"type": "research", "dice": 3})
    assert info.value.rule_id == "AA50-RESEARCH-buy-tokens"
    with pytest.raises(IllegalAction, match="buys tokens, not dice for a named technology"):
        game.apply({"type": "research", "dice": 1, "tech": "radar"})
    assert game.state.banks["Japan"] == 14 and tokens(game, "Japan") == 0 and not game.log.entries
    game.apply({"type": "research", "dice": 1})
    game.apply({"type": "research", "dice": 1})  # any number, in several buys
    assert (game.state.banks["Japan"], tokens(game, "Japan")) == (4, 2)
    with pytest.raises(IllegalAction, match="cost 5 IPCs; Japan has 4"):
        game.apply({"type": "research", "dice": 1})


@pytest.mark.rule("AA50-RESEARCH-roll-per-token")
def test_one_die_per_token_held_and_without_a_6_every_token_is_kept() -> None:
    game = research("Germany", held=3, dice=[1, 3, 5, 2])
    game.apply({"type": "research", "dice": 1})  # 3 kept + 1 new
    game.apply({"type": "end_phase"})
    assert rolls(game, "research") == [(1, 3, 5, 2)]
    assert tokens(game, "Germany") == 4 and game.state.pending is None
    assert game.state.techs.get("Germany", ()) == ()


@pytest.mark.rule("AA50-RESEARCH-roll-per-token")
def test_kept_tokens_are_rolled_without_buying_and_no_tokens_no_roll() -> None:
    game = research("United Kingdom", held=2, dice=[4, 4])
    game.apply({"type": "end_phase"})
    assert rolls(game, "research") == [(4, 4)] and tokens(game, "United Kingdom") == 2
    empty = research("Italy")
    empty.apply({"type": "end_phase"})
    assert rolls(empty, "research") == [] and empty.state.phase == "purchase"


@pytest.mark.rule("AA50-RESEARCH-tokens-discarded", "AA50-RESEARCH-chart-2", "AA50-RESEARCH-effective-immediately")
def test_a_6_discards_every_token_and_the_power_chooses_a_chart() -> None:
    game = research("United Kingdom", held=5, dice=[2, 6, 1, 3, 5, 4])
    game.apply({"type": "end_phase"})
    assert tokens(game, "United Kingdom") == 0
    pending = game.state.pending
    assert pending is not None and (pending["kind"], pending["power"], pending["count"]) == (
        "research_chart", "United Kingdom", 1)
    assert game.to_act() == ["United Kingdom"]
    assert sorted(a.chart for a in game.legal_actions()) == [1, 2]
    with pytest.raises(IllegalAction, match="must first answer"):
        game.apply({"type": "purchase", "units": "1 infantry"})
    game.apply({"type": "choose_chart", "chart": 2})
    assert rolls(game, "research chart 2") == [(4,)]
    assert game.state.techs["United Kingdom"] == ("radar",) and game.state.pending is None
    assert not check_log(game.log)


@pytest.mark.rule("AA50-RESEARCH-one-tech-per-six", "AA50-RESEARCH-chart-2")
def test_each_6_is_a_technology_and_a_result_already_held_is_rolled_again() -> None:
    game = research("Italy", held=2, dice=[6, 6, 4, 4, 6])
    game.apply({"type": "end_phase"})
    assert game.state.pending is not None and game.state.pending["count"] == 2
    game.apply({"type": "choose_chart", "chart": 2})
    assert game.state.techs["Italy"] == ("radar",) and game.state.pending["count"] == 1
    game.apply({"type": "choose_chart", "chart": 2})
    assert rolls(game, "research chart") == [(4,), (4,), (6,)]
    assert set(game.state.techs["Italy"]) == {"radar", "heavy_bombers"} and game.state.pending is None


@pytest.mark.rule("AA50-RESEARCH-one-tech-per-six")
def test_a_complete_chart_cannot_be_chosen() -> None:
    game = research("Germany", held=1, techs=CHART_1, dice=[6, 1])
    game.apply({"type": "end_phase"})
    assert game.state.pending is not None and game.state.pending["charts"] == [2]
    with pytest.raises(IllegalAction, match="every technology of chart 1") as info:
        game.apply({"type": "choose_chart", "chart": 1})
    assert info.value.rule_id == "AA50-RESEARCH-one-tech-per-six"
    with pytest.raises(IllegalAction, match="2 breakthrough charts"):
        game.apply({"type": "choose_chart", "chart": 3})
    game.apply({"type": "choose_chart", "chart": 2})
    assert "super_submarines" in game.state.techs["Germany"]


@pytest.mark.rule("AA50-RESEARCH-one-tech-per-six")
def test_breakthroughs_beyond_every_technology_are_lost() -> None:
    game = research("Germany", held=2, techs=(*CHART_1, *CHART_2[:-1]), dice=[6, 6, 6])
    game.apply({"type": "end_phase"})
    game.apply({"type": "choose_chart", "chart": 2})
    assert "heavy_bombers" in game.state.techs["Germany"]
    assert game.state.pending is None and tokens(game, "Germany") == 0


@pytest.mark.rule("AA50-RESEARCH-one-tech-per-six")
def test_the_one_breakthrough_a_turn_switch() -> None:
    game = research("Germany", held=3, dice=[6, 6, 6, 2], options={"one_breakthrough_per_turn": True})
    game.apply({"type": "end_phase"})
    assert game.state.pending is not None and game.state.pending["count"] == 1
    game.apply({"type": "choose_chart", "chart": 1})
    assert game.state.techs["Germany"] == ("rockets",) and game.state.pending is None


CHARTS = {
    1: ("advanced_artillery", "rockets", "paratroopers", "increased_factory_production", "war_bonds",
        "improved_mechanized_infantry"),
    2: ("super_submarines", "jet_fighters", "improved_shipyards", "radar", "long_range_aircraft", "heavy_bombers"),
}


@pytest.mark.rule("AA50-RESEARCH-chart-1", "AA50-RESEARCH-chart-2")
@pytest.mark.parametrize(("chart", "die"), [(c, d) for c in CHARTS for d in range(1, 7)])
def test_the_chart_roll_names_the_technology(chart: int, die: int) -> None:
    game = research("Soviet Union", held=1, dice=[6, die])
    game.apply({"type": "end_phase"})
    game.apply({"type": "choose_chart", "chart": chart})
    assert game.state.techs["Soviet Union"] == (CHARTS[chart][die - 1],)


@pytest.mark.rule("AA50-RESEARCH-effective-immediately", "AA50-RESEARCH-improved-shipyards")
def test_a_technology_gained_in_research_works_in_the_same_turns_purchase() -> None:
    game = research("Germany", bank=30, held=1, dice=[6, 3])
    game.apply({"type": "end_phase"})
    game.apply({"type": "choose_chart", "chart": 2})
    assert game.state.phase == "purchase" and game.state.techs["Germany"] == ("improved_shipyards",)
    game.apply({"type": "purchase", "units": "1 destroyer"})
    assert game.state.banks["Germany"] == 23


@pytest.mark.rule("AA50-RESEARCH-improved-shipyards")
def test_improved_shipyards_naval_costs() -> None:
    game = scenario("aa50-1942", nation="United Kingdom", phase="purchase", banks={"United Kingdom": 30},
                    techs={"United Kingdom": ("improved_shipyards",)})
    game.apply({"type": "purchase", "units": "1 carrier, 1 destroyer"})
    assert game.state.banks["United Kingdom"] == 12
    ruleset = game.ruleset
    costs = {u: ruleset.unit_cost(u, power="United Kingdom", state=game.state).value
             for u in ("battleship", "carrier", "cruiser", "destroyer", "transport", "submarine", "infantry")}
    assert costs == {"battleship": 17, "carrier": 11, "cruiser": 10, "destroyer": 7, "transport": 6, "submarine": 5,
                     "infantry": 3}
    assert ruleset.unit_cost("destroyer", power="Germany", state=game.state).value == 8  # never shared


@pytest.mark.rule("AA50-OPTIONS-research")
def test_without_research_no_tokens_can_be_bought() -> None:
    game = scenario("aa50-1942", nation="Germany", options={"research": False}, banks={"Germany": 40})
    assert game.state.phase == "purchase"
    assert not [a for a in game.legal_actions() if a.type == "research"]
    with pytest.raises(IllegalAction, match="not an action of the purchase phase"):
        game.apply({"type": "research", "dice": 1})
    assert game.state.banks["Germany"] == 40 and TOKENS not in game.state.extra


@pytest.mark.rule("AA50-RESEARCH-war-bonds")
def test_war_bonds_add_a_die_of_ipcs_at_collect_income() -> None:
    plain = scenario("aa50-1942", nation="Germany", phase="mobilize", banks={"Germany": 0}, dice=[4])
    plain.apply({"type": "end_phase"})
    income = plain.state.banks["Germany"]
    assert income > 0 and rolls(plain, "war bonds") == []
    bonds = scenario("aa50-1942", nation="Germany", phase="mobilize", banks={"Germany": 0}, dice=[4],
                     techs={"Germany": ("war_bonds",)})
    events = bonds.apply({"type": "end_phase"})
    assert bonds.state.banks["Germany"] == income + 4
    assert rolls(bonds, "war bonds") == [(4,)]
    assert any(e.type == "bank_changed" and e.rule_id == "AA50-RESEARCH-war-bonds" and e.delta == 4  # type: ignore
               for e in events)


@pytest.mark.rule("AA50-RESEARCH-war-bonds", "AA50-ECON-capital-captured")
def test_no_war_bonds_while_the_capital_is_held_by_the_enemy() -> None:
    game = scenario("aa50-1942", nation="Germany", phase="mobilize", banks={"Germany": 0}, dice=[4],
                    techs={"Germany": ("war_bonds",)}, owners={"Germany": "Soviet Union"})
    game.apply({"type": "end_phase"})
    assert game.state.banks["Germany"] == 0 and rolls(game, "war bonds") == []


MECH = {"Germany": "Germany: 2 infantry, 1 armour"}


def mech_game(phase: str, techs: bool = True, owners: dict[str, str] | None = None) -> Game:
    return scenario("aa50-1942", nation="Germany", phase=phase, clear=["Germany", "Poland", "East Poland"],
                    units=MECH, owners=owners or {"Poland": "Germany", "East Poland": "Germany"},
                    techs={"Germany": ("improved_mechanized_infantry",)} if techs else None)


@pytest.mark.rule("AA50-RESEARCH-mechanized-infantry")
def test_mechanized_infantry_move_2_with_a_tank_each() -> None:
    game = mech_game("non-combat-move")
    path = ["Germany", "Poland", "East Poland"]
    with pytest.raises(IllegalAction, match="only with one tank each") as info:
        game.apply({"type": "move", "units": "2 infantry, 1 armour", "path": path})
    assert info.value.rule_id == "AA50-RESEARCH-mechanized-infantry"
    with pytest.raises(IllegalAction, match="only with one tank each"):
        game.apply({"type": "move", "units": "1 infantry", "path": path})
    game.apply({"type": "move", "units": "1 infantry, 1 armour", "path": path})
    with pytest.raises(IllegalAction, match="only with one tank each"):
        game.apply({"type": "move", "units": "1 infantry", "path": path})
    game.apply({"type": "move", "units": "1 infantry", "path": path[:2]})
    assert game.state.stacks("East Poland") and {s.unit: s.count for s in game.state.stacks("East Poland")} == {
        "infantry": 1, "armour": 1}


@pytest.mark.rule("AA50-RESEARCH-mechanized-infantry")
def test_without_the_technology_infantry_move_1() -> None:
    game = mech_game("non-combat-move", techs=False)
    with pytest.raises(IllegalAction, match="1 movement left, this path needs 2"):
        game.apply({"type": "move", "units": "1 infantry, 1 armour", "path": ["Germany", "Poland", "East Poland"]})


@pytest.mark.rule("AA50-RESEARCH-mechanized-infantry")
def test_mechanized_infantry_blitz_with_their_tank() -> None:
    enemy = {"Poland": "Soviet Union", "East Poland": "Soviet Union"}
    game = mech_game("combat-move", owners=enemy)
    path = ["Germany", "Poland", "East Poland"]
    with pytest.raises(IllegalAction, match="only with one tank each"):
        game.apply({"type": "move", "units": "2 infantry, 1 armour", "path": path})
    game.apply({"type": "move", "units": "1 infantry, 1 armour", "path": path})
    assert game.state.owners["Poland"] == "Germany"
    assert {s.unit for s in game.state.stacks("East Poland")} == {"infantry", "armour"}
    plain = mech_game("combat-move", techs=False, owners=enemy)
    with pytest.raises(IllegalAction):
        plain.apply({"type": "move", "units": "1 infantry, 1 armour", "path": path})


LONG_FLIGHT = ["United Kingdom", "SZ 3", "SZ 4", "Archangel", "Russia", "Caucasus", "Persia"]


@pytest.mark.rule("AA50-RESEARCH-long-range-aircraft")
@pytest.mark.parametrize(("techs", "legal"), [((), False), (("long_range_aircraft",), True)])
def test_long_range_fighters_fly_6(techs: tuple[str, ...], legal: bool) -> None:
    game = scenario("aa50-1942", nation="United Kingdom", phase="non-combat-move", clear=["United Kingdom"],
                    units={"United Kingdom": "United Kingdom: 1 fighter, 1 bomber"},
                    techs={"United Kingdom": techs} if techs else None)
    move = {"type": "move", "units": "1 fighter", "path": LONG_FLIGHT}
    if not legal:
        with pytest.raises(IllegalAction, match="movement left"):
            game.apply(move)
        return
    game.apply(move)
    assert [s.unit for s in game.state.stacks("Persia") if s.owner == "United Kingdom"].count("fighter") == 1
    ruleset = game.ruleset
    view = Situation(game.state, ruleset, "United Kingdom")
    assert (allowance(view, ruleset.units["fighter"]), allowance(view, ruleset.units["bomber"])) == (6, 8)


@pytest.mark.rule("AA50-RESEARCH-buy-tokens")
def test_tokens_held_are_public_in_show(tmp_path: Path) -> None:
    game = research("Germany", bank=31)
    game.apply({"type": "research", "dice": 2})
    path = tmp_path / "game.json"
    save_log(game.log, path)
    result = CliRunner().invoke(cli, ["show", str(path), "--json"])
    assert result.exit_code == 0, result.output
    nations = json.loads(result.stdout)["nations"]
    assert nations["Germany"]["records"] == {"research tokens": 2}
    assert "records" not in nations["Japan"]
    result = CliRunner().invoke(cli, ["show", str(path), "--as", "Soviet Union"])
    assert result.exit_code == 0 and "Germany: research tokens 2" in result.stdout


@pytest.mark.rule("AA50-RESEARCH-one-tech-per-six", "AA50-CHINA-turn-with-us")
def test_in_the_team_turn_the_united_states_choose_their_chart_while_china_plays_on() -> None:
    game = scenario("aa50-1942", nation="Italy", phase="collect-income", dice=[6, 5])
    game.apply({"type": "end_phase"})
    game.apply({"type": "research", "dice": 1, "power": "United States"})
    game.apply({"type": "end_phase", "power": "United States"})
    assert game.to_act() == ["United States", "China"]
    assert [a.chart for a in game.legal_actions(power="United States")] == [1, 2]
    game.apply({"type": "end_phase", "power": "China"})  # China is not held up by the decision
    game.apply({"type": "choose_chart", "chart": 2, "power": "United States"})
    assert game.state.techs["United States"] == ("long_range_aircraft",)
    assert not game.state.techs.get("China") and not check_log(game.log)


def para_game(techs: tuple[str, ...] = ("paratroopers",), units: str = "Germany: 2 bomber, 2 infantry") -> Game:
    return scenario("aa50-1942", nation="Germany", phase="combat-move", techs={"Germany": techs},
                    clear=["Germany", "Poland", "Belorussia", "East Poland"], units={"Germany": units},
                    owners={"Poland": "Germany", "East Poland": "Soviet Union", "Belorussia": "Soviet Union"})


DROP = ["Germany", "Poland", "East Poland"]


@pytest.mark.rule("AA50-RESEARCH-paratroopers")
def test_a_bomber_drops_one_infantry_in_the_first_enemy_territory_and_both_attack() -> None:
    game = para_game()
    with pytest.raises(IllegalAction, match="must stop in East Poland, the first enemy territory") as info:
        game.apply({"type": "air_transport", "units": "1 infantry", "path": [*DROP, "Belorussia"]})
    assert info.value.rule_id == "AA50-RESEARCH-paratroopers"
    with pytest.raises(IllegalAction, match="not enemy territory"):
        game.apply({"type": "air_transport", "units": "1 infantry", "path": DROP[:2]})
    with pytest.raises(IllegalAction, match="carries one infantry, not armour"):
        game.apply({"type": "air_transport", "units": "1 armour", "path": DROP})
    with pytest.raises(IllegalAction, match="fewer than 3 bomber"):
        game.apply({"type": "air_transport", "units": "3 infantry", "path": DROP})
    game.apply({"type": "air_transport", "units": "1 infantry", "path": DROP})
    assert {s.unit: s.count for s in game.state.stacks("East Poland")} == {"bomber": 1, "infantry": 1}
    assert {s.unit: s.count for s in game.state.stacks("Germany")} == {"bomber": 1, "infantry": 1}
    with pytest.raises(IllegalAction, match="already moved in this combat move"):  # no raid by the carrier
        game.apply({"type": "move", "units": "1 bomber", "path": ["East Poland", "Belorussia"], "raid": True})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "East Poland"})  # empty: the dropped infantry takes it
    assert game.state.owners["East Poland"] == "Germany"
    assert not check_log(game.log)


@pytest.mark.rule("AA50-RESEARCH-paratroopers")
def test_paratroopers_need_the_technology_and_a_bomber_with_the_infantry() -> None:
    with pytest.raises(IllegalAction, match="Germany has no paratroopers"):
        para_game(techs=("war_bonds",)).apply({"type": "air_transport", "units": "1 infantry", "path": DROP})
    alone = para_game(units="Germany: 1 infantry")
    assert not [a for a in alone.legal_actions() if a.type == "air_transport"]
    with pytest.raises(IllegalAction, match="Germany has fewer than 1 bomber"):
        alone.apply({"type": "air_transport", "units": "1 infantry", "path": DROP})
    empty = para_game(units="Germany: 1 bomber")
    with pytest.raises(IllegalAction, match="must wait in Germany or on the way"):
        empty.apply({"type": "air_transport", "units": "1 infantry", "path": DROP})
    game = para_game()
    assert {"type": "air_transport", "units": "1 infantry", "path": DROP} in [
        a.to_json() for a in game.legal_actions() if a.type == "air_transport"]


@pytest.mark.rule("AA50-RESEARCH-paratroopers")
def test_the_infantry_may_join_its_bomber_on_the_way() -> None:
    game = scenario("aa50-1942", nation="Germany", phase="combat-move", techs={"Germany": ("paratroopers",)},
                    clear=["Germany", "Poland", "East Poland"],
                    units={"Germany": "Germany: 1 bomber", "Poland": "Germany: 2 infantry"},
                    owners={"Poland": "Germany", "East Poland": "Soviet Union"})
    game.apply({"type": "air_transport", "units": "1 infantry", "path": DROP})
    assert {s.unit: s.count for s in game.state.stacks("East Poland")} == {"bomber": 1, "infantry": 1}
    assert {s.unit: s.count for s in game.state.stacks("Poland")} == {"infantry": 1}


@pytest.mark.rule("AA50-RESEARCH-buy-tokens", "AA50-RESEARCH-one-tech-per-six")
def test_text_notation_of_tokens_and_the_chart() -> None:
    ruleset = research("Germany").ruleset
    assert parse_action_text("research 3", ruleset) == {"type": "research", "dice": 3}
    assert parse_action_text("United States: chart 2", ruleset) == {"type": "choose_chart", "chart": 2,
                                                                     "power": "United States"}
    assert format_action({"type": "choose_chart", "chart": 1}) == "chart 1"
    assert "chooses the breakthrough chart of 2 new technologies" in format_decision(
        {"kind": "research_chart", "power": "Italy", "count": 2, "options": [{"type": "choose_chart", "chart": 1}]})
