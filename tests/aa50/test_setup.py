"""The two Anniversary scenarios as a player starts them: `aare new --rules aa50-1941|aa50-1942` then `aare show
--json` (banks, incomes, units per space, who moves first, all seven powers), proved against the TripleA encodings
of the board (third-party, parsed only; skipped without `../shared`); the complexes, AA guns, technologies and
1942 owners in play."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.economy.capture import capture_territory_events
from aare.errors import IllegalAction
from aare.events import ControlChanged
from aare.game_setup import new_game
from aare.scenario import scenario
from tests.board.helpers import reference_placements
from tests.board.test_anniversary_board import BANKS, PLAYERS, REFERENCE, THEIR_EXTRA_OWNERS, UNIT_TYPES, ours

GER, SOV, JPN, UK, ITA, US, CHN = (
    "Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States", "China")
POWERS = (GER, SOV, JPN, UK, ITA, US, CHN)
SCENARIOS = ("1941", "1942")
SETUP_ITEM = {GER: "ger", SOV: "rus", JPN: "jpn", UK: "uk", ITA: "ita", US: "us", CHN: "chn"}
# The objectives each power would collect on the untouched start (AA50-NO-start-status).
START_BONUS = {
    "1941": {GER: 5, SOV: 5, JPN: 5, UK: 5, ITA: 5, US: 15, CHN: 0},
    "1942": {GER: 10, SOV: 5, JPN: 10, UK: 5, ITA: 0, US: 5, CHN: 0},
}
COMPLEXES = {GER: {"Germany"}, SOV: {"Russia", "Karelia S.S.R.", "Caucasus"}, JPN: {"Japan"},
             UK: {"United Kingdom"}, ITA: {"Italy"}, US: {"Eastern United States", "Western United States"}}
AA_GUNS = {"Germany", "Russia", "Karelia S.S.R.", "Caucasus", "Japan", "United Kingdom", "India", "Australia",
           "Italy", "Eastern United States", "Western United States"}


def show(tmp_path: Path, year: str, *args: str) -> dict[str, Any]:
    """A new game of the scenario written by `aare new`, read back by `aare show --json`."""
    path = tmp_path / f"aa50-{year}.json"
    runner = CliRunner()
    made = runner.invoke(cli, ["new", "--rules", f"aa50-{year}", "--seed", "7", *args, "-o", str(path)])
    assert made.exit_code == 0, made.output
    shown = runner.invoke(cli, ["show", str(path), "--json"])
    assert shown.exit_code == 0, shown.output
    data: dict[str, Any] = json.loads(shown.output)
    return data


def units_shown(data: dict[str, Any]) -> Counter[tuple[str, str, str]]:
    """`{(power, space, unit): count}` of every unit `aare show --json` lists, those aboard transports too."""
    found: Counter[tuple[str, str, str]] = Counter()
    for space, entry in data["spaces"].items():
        for key in ("by_owner", "aboard"):
            for owner, units in entry.get(key, {}).items():
                for unit, count in units.items():
                    found[owner, space, unit] += count
    return found


def reference(year: str) -> ET.Element:
    path = REFERENCE[year]
    if not path.is_file():
        pytest.skip(f"TripleA reference board not present at {path} (needs ../shared)")
    return ET.parse(path).getroot()


def values_and_capitals(xml: ET.Element) -> tuple[dict[str, int], dict[str, str]]:
    values, capitals = {}, {}
    for a in xml.iter("attachment"):
        if a.get("name") == "territoryAttachment":
            opts = {o.get("name", ""): o.get("value", "") for o in a.iter("option")}
            values[ours(a.get("attachTo", ""))] = int(opts.get("production", "0"))
            if "capital" in opts:
                capitals[PLAYERS[opts["capital"]]] = ours(a.get("attachTo", ""))
    return values, capitals


@pytest.mark.rule("AA50-SETUP-scenario-choice", "AA50-SETUP-banks", "AA50-SETUP-no-starting-tech",
                  "AA50-TURN-powers-and-alliances", "AA50-ECON-income", "AA50-NO-start-status",
                  *(f"AA50-SETUP-{y}-{p}" for y in SCENARIOS for p in SETUP_ITEM.values()))
@pytest.mark.parametrize("year", SCENARIOS)
def test_aare_show_json_gives_the_start_of_the_reference_board(tmp_path: Path, year: str) -> None:
    xml = reference(year)
    data = show(tmp_path, year)
    assert (data["ruleset"], data["round"], data["phase"]) == (f"aa50-{year}", 1, "develop-weapons")
    steps = [PLAYERS[s.get("player", "")] for s in xml.iter("step") if s.get("player")]
    assert data["nation"] == steps[0]  # who moves first
    nations = data["nations"]
    sides = {PLAYERS[a.get("player", "")]: a.get("alliance") for a in xml.iter("alliance")}
    assert {name: n["side"] for name, n in nations.items()} == sides
    assert set(nations) == set(POWERS)
    given = {(PLAYERS[r.get("player", "")], r.get("resource")): int(r.get("quantity", "0"))
             for r in xml.iter("resourceGiven")}
    values, capitals = values_and_capitals(xml)
    owners = {ours(t.get("territory", "")): PLAYERS[t.get("owner", "")] for t in xml.iter("territoryOwner")}
    for power, n in nations.items():
        assert n["bank"] == given[power, "PUs"] == BANKS[year][power]
        assert given.get((power, "techTokens"), 0) == 0 and n["techs"] == []
        territory_income = sum(values[t] for t, o in owners.items() if o == power)
        if power == CHN:  # China collects nothing (AA50-CHINA-no-ipcs) and has no capital
            assert (n["income"], n["capital"], n["capital_held"], n["bonuses"]) == (0, None, True, [])
            continue
        assert n["income"] == territory_income + START_BONUS[year][power]
        assert (n["capital"], n["capital_held"]) == (capitals[power], True)
    spaces = data["spaces"]
    assert {t: e["owner"] for t, e in spaces.items() if e["owner"]} == {
        t: o for t, o in owners.items() if t not in THEIR_EXTRA_OWNERS}
    assert units_shown(data) == reference_placements(xml, PLAYERS, ours, UNIT_TYPES)
    assert data["victory_cities"] == {"total": 18, "by_side": {
        "Axis": 6 if year == "1941" else 8, "Allies": 12 if year == "1941" else 10}}
    for key in ("treaty", "d_day", "straight_bid"):  # records of other rulesets stay out
        assert key not in data


@pytest.mark.rule("AA50-SETUP-scenario-choice")
def test_aare_show_reads_china_s_capital_as_none(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    runner = CliRunner()
    runner.invoke(cli, ["new", "--rules", "aa50-1942", "-o", str(path)])
    rows = [line for line in runner.invoke(cli, ["show", str(path)]).output.splitlines() if "China" in line]
    assert rows and "none" in rows[0] and "lost" not in rows[0]


@pytest.mark.rule("AA50-SETUP-scenario-choice", "AA50-SETUP-banks", "AA50-SETUP-no-starting-tech")
@pytest.mark.parametrize("year", SCENARIOS)
def test_each_scenario_starts_with_its_banks_owners_and_no_technology(year: str) -> None:
    state = new_game(f"aa50-{year}", seed=1).state
    assert state.banks == BANKS[year]
    assert state.nation == (GER if year == "1941" else JPN) and state.round == 1
    assert not any(state.techs.values())
    assert state.owners["Philippine Islands"] == (US if year == "1941" else JPN)


@pytest.mark.rule("AA50-SETUP-industrial-complexes", "AA50-SETUP-aa-guns")
@pytest.mark.parametrize("year", SCENARIOS)
def test_starting_complexes_and_aa_guns_in_play(year: str) -> None:
    state = new_game(f"aa50-{year}", seed=1).state
    complexes: dict[str, set[str]] = {}
    guns = set()
    for space, stacks in state.units.items():
        for stack in stacks:
            if stack.unit == "factory":
                complexes.setdefault(stack.owner, set()).add(space)
            if stack.unit == "aa_gun":
                guns.add(space)
    assert complexes == COMPLEXES
    assert guns == AA_GUNS | ({"France"} if year == "1942" else set())


@pytest.mark.rule("AA50-SETUP-industrial-complexes", "AA50-TURN-no-shared-economy")
@pytest.mark.parametrize("year", SCENARIOS)
def test_the_uk_cannot_mobilize_in_india_on_turn_one(year: str) -> None:
    game = scenario(f"aa50-{year}", nation=UK, phase="mobilize", extra={"purchased": {UK: {"infantry": 2}}})
    with pytest.raises(IllegalAction, match="no industrial complex in India"):
        game.apply({"type": "place", "units": "1 infantry", "space": "India"})
    with pytest.raises(IllegalAction, match="United Kingdom does not control Eastern United States"):
        game.apply({"type": "place", "units": "1 infantry", "space": "Eastern United States"})
    game.apply({"type": "place", "units": "2 infantry", "space": "United Kingdom"})
    assert [s.count for s in game.state.stacks("United Kingdom") if s.unit == "infantry" and s.owner == UK]


@pytest.mark.rule("AA50-SETUP-1942-control-changes", "AA50-ECON-liberation")
def test_1942_conquests_return_to_their_original_owners_when_liberated() -> None:
    game = scenario("aa50-1942")
    state, ruleset = game.state, game.ruleset
    for territory, liberator, owner in (("Borneo", UK, UK), ("Kwangtung", UK, UK), ("Philippine Islands", UK, US),
                                        ("Wake Island", US, US), ("Ukraine", UK, SOV), ("Baltic States", SOV, SOV)):
        assert state.owners[territory] in (GER, JPN)
        events = capture_territory_events(state, ruleset, territory, liberator)
        control = [e for e in events if isinstance(e, ControlChanged)]
        assert [(e.space, e.owner) for e in control] == [(territory, owner)], territory
