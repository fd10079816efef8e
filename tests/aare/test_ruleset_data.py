"""AARe 5.0 as data on the LHTR core: 15 victory cities and the thresholds per side, prices and attributes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.economy.capture import capture_territory_events
from aare.economy.summary import victory_cities_held
from aare.engine import Game
from aare.errors import IllegalAction, UnknownName
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from tests.aare.common import RULES, UK, first_cycle, rolls, units
from tests.aare.common import battle as aare_battle

# Axis captures giving 10 cities (6 + Stalingrad, Leningrad, Moscow, Calcutta)
AXIS_TEN = {"Caucasus": "Germany", "Karelia S.S.R.": "Germany", "Russia": "Germany", "India": "Japan"}
# Allied captures giving 11 (9 + Paris, Rome)
ALLIES_ELEVEN = {"Western Europe": "United Kingdom", "Southern Europe": "United Kingdom"}


def by_side(game: Game) -> dict[str, int]:
    out: dict[str, int] = {}
    for power, cities in victory_cities_held(game.state, game.ruleset).items():
        side = game.ruleset.board.side_of(power)
        out[side] = out.get(side, 0) + len(cities)
    return out


def end_turn_of(nation: str, owners: dict[str, str], **options: object) -> Game:
    game = scenario(RULES, nation=nation, phase="collect-income", owners=owners, options=options)
    game.apply({"type": "end_phase"})
    return game


@pytest.mark.rule("AARE-VC-fifteen-cities")
def test_fifteen_cities_with_stalingrad_sydney_and_honolulu() -> None:
    cities = load_ruleset(RULES).victory_cities()
    assert len(cities) == 15
    assert {cities["Caucasus"], cities["Australia"], cities["Hawaiian Islands"]} == {"Stalingrad", "Sydney", "Honolulu"}
    assert len(load_ruleset("lhtr-1.3").victory_cities()) == 12  # the board itself is unchanged
    taken = scenario(RULES, owners={"Caucasus": "Germany"})
    assert by_side(taken) == {"Allies": 8, "Axis": 7}


@pytest.mark.rule("AARE-VC-starting-split")
def test_allies_start_with_nine_cities_and_the_axis_with_six() -> None:
    game = Game(new_game(RULES, seed=1))
    assert by_side(game) == {"Allies": 9, "Axis": 6}
    assert game.state.ruleset == RULES and game.state.winner is None


@pytest.mark.rule("AARE-VC-axis-win-10")
@pytest.mark.parametrize(("owners", "won"), [(AXIS_TEN, True), ({**AXIS_TEN, "India": "United Kingdom"}, False)])
def test_the_axis_win_with_ten_cities_after_the_us_turn(owners: dict[str, str], won: bool) -> None:
    game = end_turn_of("United States", owners)
    assert (game.state.winner == "Axis") is won


@pytest.mark.rule("AARE-VC-allied-win-11")
@pytest.mark.parametrize(("owners", "won"), [(ALLIES_ELEVEN, True), ({"Western Europe": "United Kingdom"}, False)])
def test_the_allies_win_with_eleven_cities_after_the_us_turn(owners: dict[str, str], won: bool) -> None:
    game = end_turn_of("United States", owners)
    assert (game.state.winner == "Allies") is won


@pytest.mark.rule("AARE-VC-allied-win-11", "AARE-VC-axis-win-10")
def test_thresholds_are_game_options_and_the_lhtr_level_is_not_offered() -> None:
    ruleset = load_ruleset(RULES)
    assert ruleset.modify("victory_thresholds", {}) == {"Allies": 11, "Axis": 10}
    assert "victory_cities" not in ruleset.options
    with pytest.raises(UnknownName, match="victory_cities_allies"):
        load_ruleset(RULES, {"victory_cities": 9})
    lower = end_turn_of("United States", {"Western Europe": "United Kingdom"}, victory_cities_allies=10)
    assert lower.state.winner == "Allies"
    assert load_ruleset("lhtr-1.3").modify("victory_thresholds", {}) == {"Allies": 9, "Axis": 9}


@pytest.mark.rule("AARE-VC-check-end-of-round")
def test_cities_held_mid_round_do_not_win() -> None:
    game = end_turn_of("Japan", AXIS_TEN, national_advantages=False)
    assert game.state.winner is None and game.state.nation == "United States"
    game.log.append(None, capture_territory_events(game.state, game.ruleset, "India", "United States"))
    assert game.state.owner("India") == "United Kingdom"  # the US liberates it: Axis down to 9
    for _ in range(7):
        game.apply({"type": "end_phase"})
    assert game.state.winner is None and game.state.round == 2


def test_aare_rulesets_lists_the_ruleset_and_its_options() -> None:
    result = CliRunner().invoke(cli, ["rulesets", "--json"])
    assert result.exit_code == 0, result.output
    [aare] = [r for r in json.loads(result.output) if r["id"] == RULES]
    assert aare["modules"][:2] == ["lhtr", "aare_base"]
    assert {"aare_combat", "aare_advantages"} <= set(aare["modules"])
    keys = {o["key"] for o in aare["option_specs"]}
    assert {"victory_cities_allies", "victory_cities_axis", "air_attack_transports_are_surface"} <= keys
    assert "victory_cities" not in keys


def test_aare_new_starts_a_game(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "g.json"
    result = CliRunner().invoke(cli, ["new", "--rules", RULES, "--seed", "3", "-o", str(out)])
    assert result.exit_code == 0, result.output
    shown = CliRunner().invoke(cli, ["show", str(out), "--json"])
    data = json.loads(shown.output)
    assert data["victory_cities"]["total"] == 15


PRICES = {"factory": 12, "destroyer": 10, "bomber": 14, "carrier": 14, "battleship": 20}
UNCHANGED = {"infantry": 3, "artillery": 4, "armour": 5, "aa_gun": 5, "fighter": 10, "transport": 8, "submarine": 8}


@pytest.mark.rule("AARE-COST-ic-12", "AARE-COST-destroyer-10", "AARE-COST-bomber-14", "AARE-COST-carrier-14",
                  "AARE-COST-battleship-20")
def test_new_prices_carry_their_rule_ids() -> None:
    ruleset = load_ruleset(RULES)
    for unit, cost in PRICES.items():
        value = ruleset.unit_cost(unit)
        assert value.value == cost and value.steps[0][0].startswith("AARE-COST-"), value.explain()
        assert ruleset.units[unit].cost == cost  # the calculator counts IPC lost at these prices


@pytest.mark.rule("AARE-COST-unlisted-unchanged")
def test_other_units_keep_their_prices() -> None:
    ruleset = load_ruleset(RULES)
    assert {u: ruleset.unit_cost(u).value for u in UNCHANGED} == UNCHANGED


@pytest.mark.rule("AARE-COST-ic-12", "AARE-COST-destroyer-10", "AARE-COST-bomber-14", "AARE-COST-carrier-14",
                  "AARE-COST-battleship-20")
@pytest.mark.parametrize(("power", "units", "paid"), [
    ("United Kingdom", "1 factory", 12), ("Germany", "2 destroyers", 20), ("United States", "1 bomber", 14),
    ("Japan", "1 carrier", 14), ("United Kingdom", "1 battleship", 20)])
def test_purchases_pay_aare_prices(power: str, units: str, paid: int) -> None:
    game = scenario(RULES, nation=power, phase="purchase", banks={power: 40})
    game.apply({"type": "purchase", "units": units})
    assert game.state.banks[power] == 40 - paid


@pytest.mark.rule("AARE-COST-ic-12")
def test_a_complex_needs_twelve_ipcs() -> None:
    game = scenario(RULES, nation="United Kingdom", phase="purchase", banks={"United Kingdom": 11})
    with pytest.raises(IllegalAction) as err:
        game.apply({"type": "purchase", "units": "1 factory"})
    assert err.value.rule_id == "LHTR-PURCHASE-budget"


@pytest.mark.rule("AARE-COST-carrier-attack1-defend2")
def test_the_carrier_is_a_one_two_unit() -> None:
    carrier = load_ruleset(RULES).units["carrier"]
    assert (carrier.attack, carrier.defense, carrier.carrier_capacity, carrier.hits) == (1, 2, 2, 1)
    # defending carrier: a 2 hits, a 3 misses (the attacking transport never rolls)
    _, events = first_cycle(aare_battle(units(UK, destroyer=1), units(UK, carrier=1)), [6, 2])
    assert [(r.unit, r.hit_on, r.hits) for r in rolls(events)] == [("destroyer", 3, 0), ("carrier", 2, 1)]
    _, events = first_cycle(aare_battle(units(UK, destroyer=1), units(UK, carrier=1)), [6, 3])
    assert rolls(events)[-1].hits == 0
    # attacking carrier: a 1 hits, a 2 misses (the defending transport rolls a 6)
    b, events = first_cycle(aare_battle(units(UK, carrier=1), units(UK, transport=1)), [1, 6])
    assert (rolls(events)[0].hit_on, b.state.result) == (1, "attacker")
    _, events = first_cycle(aare_battle(units(UK, carrier=1), units(UK, transport=1)), [2, 6])
    assert rolls(events)[0].hits == 0


@pytest.mark.rule("AARE-LHTR-baseline")
def test_lhtr_governs_what_aare_does_not_change() -> None:
    lhtr, aare = load_ruleset("lhtr-1.3"), load_ruleset(RULES)
    assert next(m.id for m in aare.modules) == "lhtr"
    assert aare.phase_table() == lhtr.phase_table()
    assert aare.units["transport"].transport_capacity == lhtr.units["transport"].transport_capacity == 5
    assert aare.units["infantry"] == lhtr.units["infantry"]
    assert (lhtr.unit_cost("destroyer").value, aare.unit_cost("destroyer").value) == (12, 10)  # AARe wins
