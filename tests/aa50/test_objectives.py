"""National objectives: each paid at its power's collect income when met and not when not, in both scenarios;
the extra conditions (clear seas, no foreign troops), the lost capital, the option, the starting status, and
where players read them (the log, `aare show`, the `titles` hook)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.errors import DataFileError
from aare.events import BankChanged
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aa50.objectives import load_objectives, objectives
from aare.scenario import scenario

GER, SOV, JPN, UK, ITA, US, CHN = (
    "Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States", "China")
SCENARIOS = ("aa50-1941", "aa50-1942")
MEDITERRANEAN = ("SZ 13", "SZ 14", "SZ 15")

# The objectives as the ledger states them: power, value, territories, how many of them the side must hold.
OBJECTIVES: dict[str, tuple[str, int, tuple[str, ...], int]] = {
    "AA50-NO-ger-western-europe": (GER, 5, ("France", "Northwestern Europe", "Germany", "Poland",
                                            "Czechoslovakia Hungary", "Bulgaria Romania"), 6),
    "AA50-NO-ger-eastern-front": (GER, 5, ("Baltic States", "East Poland", "Belorussia", "Eastern Ukraine",
                                           "Ukraine"), 3),
    "AA50-NO-ger-karelia-caucasus": (GER, 5, ("Karelia S.S.R.", "Caucasus"), 1),
    "AA50-NO-rus-archangel": (SOV, 5, ("Archangel",), 1),
    "AA50-NO-rus-eastern-europe": (SOV, 10, ("Norway", "Finland", "Poland", "Bulgaria Romania",
                                             "Czechoslovakia Hungary", "Balkans"), 3),
    "AA50-NO-jpn-china-coast": (JPN, 5, ("Manchuria", "Kiangsu", "French Indo-China Thailand"), 3),
    "AA50-NO-jpn-pacific-islands": (JPN, 5, ("Kwangtung", "East Indies", "Borneo", "Philippine Islands",
                                             "New Guinea", "Solomon Islands"), 4),
    "AA50-NO-jpn-far-targets": (JPN, 5, ("Hawaiian Islands", "Australia", "India"), 1),
    "AA50-NO-uk-japanese-territory": (UK, 5, ("Caroline Islands", "French Indo-China Thailand", "Formosa",
                                              "Iwo Jima", "Japan", "Okinawa"), 1),
    "AA50-NO-uk-empire": (UK, 5, ("Eastern Canada", "Western Canada", "Gibraltar", "Egypt", "Australia",
                                  "Union of South Africa"), 6),
    "AA50-NO-uk-france-balkans": (UK, 5, ("France", "Balkans"), 1),
    "AA50-NO-ita-north-africa-west": (ITA, 5, ("Egypt", "Trans-Jordan", "France", "Gibraltar"), 3),
    "AA50-NO-ita-mare-nostrum": (ITA, 5, ("Italy", "Balkans", "Morocco Algeria", "Libya"), 4),
    "AA50-NO-us-france": (US, 5, ("France",), 1),
    "AA50-NO-us-philippines": (US, 5, ("Philippine Islands",), 1),
    "AA50-NO-us-homeland": (US, 5, ("Western United States", "Central United States", "Eastern United States"), 3),
    "AA50-NO-us-pacific-islands": (US, 5, ("Midway", "Wake Island", "Hawaiian Islands", "Solomon Islands"), 3),
}
START_STATUS = {
    "aa50-1941": {GER: 5, SOV: 5, JPN: 5, UK: 5, ITA: 5, US: 15, CHN: 0},
    "aa50-1942": {GER: 10, SOV: 5, JPN: 10, UK: 5, ITA: 0, US: 5, CHN: 0},
}
AXIS = {GER, JPN, ITA}


def collect(rules: str, power: str, **position: Any) -> list[BankChanged]:
    """`power` ends its mobilize phase in the position; the treasury changes of its collect income."""
    game = scenario(rules, nation=power, phase="mobilize", **position)
    events = game.apply({"type": "end_phase"})
    assert game.state.phase == "collect-income" and game.state.nation == power
    return [e for e in events if isinstance(e, BankChanged)]


def paid(changes: list[BankChanged], rule_id: str) -> list[int]:
    return [e.delta for e in changes if e.rule_id == rule_id]


def objective_params() -> list[Any]:
    return [pytest.param(rules, oid, marks=pytest.mark.rule(oid, "AA50-NO-general"), id=f"{rules}-{oid[8:]}")
            for rules in SCENARIOS for oid in OBJECTIVES]


@pytest.mark.parametrize(("rules", "oid"), objective_params())
def test_objective_paid_when_met_and_not_when_not(rules: str, oid: str) -> None:
    power, value, territories, need = OBJECTIVES[oid]
    capital = load_ruleset(rules).board.capital_of(power)
    met = {t: power for t in territories}
    clear = MEDITERRANEAN if oid == "AA50-NO-ita-mare-nostrum" else ()
    changes = collect(rules, power, owners=met, clear=clear)
    assert paid(changes, oid) == [value]
    title = next(o.title for o in objectives(load_ruleset(rules)) if o.id == oid)
    assert [e.reason for e in changes if e.rule_id == oid] == [f'income: national objective "{title}"']
    # one territory short of the number needed: not paid
    enemy = UK if power in AXIS else GER
    lost = [t for t in territories if t != capital][: len(territories) - need + 1]
    assert paid(collect(rules, power, owners={**met, **{t: enemy for t in lost}}, clear=clear), oid) == []


@pytest.mark.rule("AA50-NO-general", "AA50-NO-uk-japanese-territory", "AA50-NO-us-france")
def test_an_allys_control_counts_for_the_side() -> None:
    assert paid(collect("aa50-1942", UK, owners={"Iwo Jima": US}), "AA50-NO-uk-japanese-territory") == [5]
    assert paid(collect("aa50-1941", US, owners={"France": UK}), "AA50-NO-us-france") == [5]
    assert paid(collect("aa50-1941", ITA, owners={"Egypt": GER, "Gibraltar": JPN}),
                "AA50-NO-ita-north-africa-west") == [5]


@pytest.mark.rule("AA50-NO-ita-mare-nostrum")
@pytest.mark.parametrize("rules", SCENARIOS)
def test_mare_nostrum_needs_no_allied_surface_warship_in_the_three_zones(rules: str) -> None:
    oid = "AA50-NO-ita-mare-nostrum"
    for sea in MEDITERRANEAN:
        for ship, counts in (("cruiser", False), ("destroyer", False), ("battleship", False), ("carrier", False),
                             ("submarine", True), ("transport", True)):
            changes = collect(rules, ITA, clear=MEDITERRANEAN, units={sea: f"United Kingdom: 1 {ship}"})
            assert paid(changes, oid) == ([5] if counts else []), (sea, ship)
    # Axis warships do not spoil it; a ship next door does not either
    assert paid(collect(rules, ITA, clear=MEDITERRANEAN, units={"SZ 14": "Germany: 1 cruiser",
                                                                   "SZ 12": "United Kingdom: 1 battleship"}),
                oid) == [5]


@pytest.mark.rule("AA50-NO-rus-archangel")
@pytest.mark.parametrize("rules", SCENARIOS)
def test_archangel_objective_fails_while_allied_troops_stand_in_soviet_territory(rules: str) -> None:
    oid = "AA50-NO-rus-archangel"
    assert paid(collect(rules, SOV), oid) == [5]
    assert paid(collect(rules, SOV, units={"Caucasus": "United Kingdom: 1 fighter"}), oid) == []
    assert paid(collect(rules, SOV, units={"Russia": "United States: 1 infantry"}), oid) == []
    # allied units in an allied territory, and Soviet units anywhere, do not count
    assert paid(collect(rules, SOV, units={"Persia": "United States: 1 infantry",
                                           "India": "Soviet Union: 1 infantry"}), oid) == [5]
    # a UK-held Archangel counts for the side (the encoding); with the option only a Soviet Archangel does
    assert paid(collect(rules, SOV, owners={"Archangel": UK}), oid) == [5]
    own = {"objectives_own_control": True}
    assert paid(collect(rules, SOV, owners={"Archangel": UK}, options=own), oid) == []


@pytest.mark.rule("AA50-NO-rus-eastern-europe")
def test_soviet_push_into_europe_with_an_allys_help_and_the_own_control_option() -> None:
    oid = "AA50-NO-rus-eastern-europe"
    owners = {"Finland": SOV, "Poland": SOV, "Norway": UK}
    assert paid(collect("aa50-1941", SOV, owners=owners), oid) == [10]
    assert paid(collect("aa50-1941", SOV, owners=owners, options={"objectives_own_control": True}), oid) == []
    assert paid(collect("aa50-1941", SOV, owners={**owners, "Norway": SOV},
                        options={"objectives_own_control": True}), oid) == [10]


@pytest.mark.rule("AA50-NO-capital-required", "AA50-ECON-capital-captured")
@pytest.mark.parametrize("rules", SCENARIOS)
def test_no_objective_and_no_income_while_the_capital_is_in_enemy_hands(rules: str) -> None:
    assert paid(collect(rules, SOV), "AA50-NO-rus-archangel") == [5]
    assert collect(rules, SOV, owners={"Russia": GER}) == []
    assert collect(rules, ITA, owners={"Italy": UK}, clear=MEDITERRANEAN) == []


@pytest.mark.rule("AA50-OPTIONS-national-objectives", "AA50-ECON-income")
@pytest.mark.parametrize(("rules", "income"), [("aa50-1941", 40), ("aa50-1942", 38)])
def test_without_objectives_the_income_is_territories_only(rules: str, income: int) -> None:
    changes = collect(rules, US, options={"national_objectives": False})
    assert [(e.delta, e.reason) for e in changes] == [(income, "income")]
    assert load_ruleset(rules).options.get("national_objectives", True) is True
    spec = {o.key: o for o in load_ruleset(rules).spec.option_specs}["national_objectives"]
    assert spec.default is True and spec.rule_id == "AA50-OPTIONS-national-objectives"


@pytest.mark.rule("AA50-NO-general", "AA50-NO-start-status", "AA50-PHASES-income-end-of-turn")
def test_the_1941_us_collects_its_territories_then_each_objective_on_its_own() -> None:
    changes = collect("aa50-1941", US)
    assert [(e.delta, e.reason, e.rule_id) for e in changes] == [
        (40, "income", "LHTR-ECON-income-sum"),
        (5, 'income: national objective "The Philippines"', "AA50-NO-us-philippines"),
        (5, 'income: national objective "The continental United States"', "AA50-NO-us-homeland"),
        (5, 'income: national objective "Three Pacific islands"', "AA50-NO-us-pacific-islands"),
    ]


@pytest.mark.rule("AA50-NO-start-status")
@pytest.mark.parametrize("rules", SCENARIOS)
def test_objectives_met_in_the_starting_positions(rules: str) -> None:
    game = scenario(rules)
    ruleset = game.ruleset
    bonuses = {p.name: sum(b.amount for b in ruleset.modify("income_bonuses", [], power=p.name, state=game.state))
               for p in ruleset.board.powers}
    assert bonuses == START_STATUS[rules]
    for power, value in START_STATUS[rules].items():
        if power != CHN:
            assert sum(e.delta for e in collect(rules, power) if e.rule_id.startswith("AA50-NO-")) == value


@pytest.mark.rule("AA50-NO-ita-mare-nostrum", "AA50-NO-start-status")
def test_1942_italy_earns_mare_nostrum_once_the_british_destroyer_is_gone() -> None:
    game = scenario("aa50-1942")
    assert [s.unit for s in game.state.stacks("SZ 15") if s.owner == UK] == ["destroyer"]
    assert paid(collect("aa50-1942", ITA), "AA50-NO-ita-mare-nostrum") == []
    assert paid(collect("aa50-1942", ITA, clear=["SZ 15"]), "AA50-NO-ita-mare-nostrum") == [5]


@pytest.mark.rule("AA50-NO-china-none")
@pytest.mark.parametrize("rules", SCENARIOS)
def test_china_has_no_objectives(rules: str) -> None:
    ruleset = load_ruleset(rules)
    assert {o.power for o in objectives(ruleset)} == {GER, SOV, JPN, UK, ITA, US}
    owners = {t: CHN for t in ("Manchuria", "Kiangsu", "France", "Philippine Islands")}
    assert collect(rules, CHN, owners=owners) == []


@pytest.mark.rule("AA50-NO-same-both-scenarios")
def test_the_same_objectives_in_both_scenarios() -> None:
    first, second = (objectives(load_ruleset(r)) for r in SCENARIOS)
    assert first == second and len(first) == 17
    assert {o.id: (o.power, o.value, set(o.held), o.need) for o in first} == {
        oid: (power, value, set(held), need) for oid, (power, value, held, need) in OBJECTIVES.items()}


@pytest.mark.rule("AA50-NO-general")
def test_objectives_listed_for_players_by_the_titles_hook_and_aare_show(tmp_path: Path) -> None:
    ruleset = load_ruleset("aa50-1942")
    listed = ruleset.modify("titles", {})["objective"]
    assert set(listed) == set(OBJECTIVES)
    mare = listed["AA50-NO-ita-mare-nostrum"]
    assert mare["power"] == ITA and mare["value"] == 5
    assert mare["text"] == ("the Axis control all Italy, Balkans, Morocco Algeria, Libya; "
                            "no enemy surface warship in SZ 13, SZ 14, SZ 15")
    assert "national_objectives" not in ruleset.options or ruleset.options["national_objectives"]
    assert "objective" not in load_ruleset("aa50-1942", {"national_objectives": False}).modify("titles", {})
    path = tmp_path / "game.json"
    runner = CliRunner()
    assert runner.invoke(cli, ["new", "--rules", "aa50-1942", "--seed", "1", "-o", str(path)]).exit_code == 0
    data = json.loads(runner.invoke(cli, ["show", str(path), "--json"]).output)
    assert [b["rule_id"] for b in data["nations"][GER]["bonuses"]] == [
        "AA50-NO-ger-western-europe", "AA50-NO-ger-eastern-front"]
    assert data["nations"][GER]["income"] == 37 + 10 and data["nations"][ITA]["bonuses"] == []
    text = " ".join(runner.invoke(cli, ["show", str(path)]).output.split())
    assert 'bonuses Germany would collect now: national objective "Hold the core of Europe" +5' in text


def test_an_objectives_file_names_the_entry_at_fault(tmp_path: Path) -> None:
    board = load_ruleset("aa50-1941").board
    path = tmp_path / "objectives.toml"
    path.write_text('[[objective]]\nid = "X"\npower = "Germans"\ntitle = "t"\nvalue = 5\nheld = ["Atlantis"]\n')
    with pytest.raises(DataFileError) as info:
        load_objectives(path, board)
    assert info.value.key == "objective[0]" and "Atlantis" in info.value.reason
    path.write_text('[[objective]]\nid = "X"\npower = "Germans"\ntitle = "t"\nvalue = 5\nheld = ["Poland"]\nneed = 2\n')
    with pytest.raises(DataFileError, match="need must be 1 to 1"):
        load_objectives(path, board)
    path.write_text('[[objective]]\nid = "X"\npower = "Germans"\ntitle = "t"\nheld = ["Poland"]\n')
    with pytest.raises(DataFileError, match="missing 'value'"):
        load_objectives(path, board)
    path.write_text('[[objective]]\nid = "X"\npower = "Germans"\ntitle = "t"\nvalue = 5\nno_enemy_surface_ships = '
                    '["13 Sea Zone"]\nheld = ["Poland"]\n')
    found = load_objectives(path, board)[0]
    assert (found.power, found.held, found.need) == ("Germany", ("Poland",), 1)
    assert found.no_enemy_surface_ships == ("SZ 13",)
