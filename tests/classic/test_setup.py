"""The Classic start as the command line shows it: `aare new --rules classic-2e` then `aare show --json` give each
power's treasury and income and every space's units, checked against the rule ledger and the reference board;
Russia moves first, nobody has a development, the carriers at sea carry one fighter and have room for one more."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from tests.board.helpers import reference_banks, reference_placements

from aare.cli.main import cli
from aare.errors import IllegalAction
from aare.game_setup import new_game
from aare.scenario import scenario

RULES = "classic-2e"
SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
LEDGER = SHARED / "rules" / "classic-base.yaml"
REFERENCE = SHARED / "reference" / "boards" / "classic.xml"
PLAYERS = {"Russians": "Russia", "Germans": "Germany", "British": "United Kingdom", "Japanese": "Japan",
           "Americans": "United States"}
RENAMED = {
    "Carribean Sea Zone": "Caribbean Sea Zone", "Columbia": "Colombia",
    "Central Mediteranean Sea Zone": "Central Mediterranean Sea Zone",
    "East Mediteranean Sea Zone": "East Mediterranean Sea Zone",
    "West Mediteranean Sea Zone": "West Mediterranean Sea Zone",
}
UNIT_TYPES = {"aaGun": "aa_gun"}
SETUP_ITEM = {"Russia": "russians", "Germany": "germans", "United Kingdom": "british", "Japan": "japanese",
              "United States": "americans"}


def ours(name: str) -> str:
    return RENAMED.get(name, name)


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """`aare show --json` of a new game made by `aare new --rules classic-2e`."""
    path = tmp_path_factory.mktemp("classic") / "game.json"
    runner = CliRunner()
    made = runner.invoke(cli, ["new", "--rules", RULES, "--seed", "1", "-o", str(path)])
    assert made.exit_code == 0, made.output
    result = runner.invoke(cli, ["show", "--json", str(path)])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


@pytest.fixture(scope="module")
def ledger() -> dict[str, dict[str, Any]]:
    if not LEDGER.is_file():
        pytest.skip(f"Classic rule ledger not present at {LEDGER}")
    return {item["id"]: item for item in yaml.safe_load(LEDGER.read_text(encoding="utf-8"))}


def shown_units(shown: dict[str, Any]) -> Counter[tuple[str, str, str]]:
    """{(power, space, unit): count} of the shown game."""
    return Counter({(power, space, unit): n for space, data in shown["spaces"].items()
                    for power, units in data["by_owner"].items() for unit, n in units.items()})


@pytest.mark.rule("CL-SETUP-banks", "CL-SETUP-income-levels", "CL-SETUP-first-player", "CL-SETUP-no-starting-techs")
def test_the_shown_start_has_the_ledgers_banks_and_incomes(shown: dict[str, Any],
                                                           ledger: dict[str, dict[str, Any]]) -> None:
    assert (shown["ruleset"], shown["round"], shown["nation"], shown["phase"]) == (RULES, 1, "Russia",
                                                                                  "develop-weapons")
    assert shown["winner"] is None and shown["pending"] is None
    banks = {PLAYERS[p]: v for p, v in ledger["CL-SETUP-banks"]["data"].items()}
    income = {PLAYERS[p]: v for p, v in ledger["CL-SETUP-income-levels"]["data"]["income"].items()}
    assert {p: n["bank"] for p, n in shown["nations"].items()} == banks
    assert {p: n["income"] for p, n in shown["nations"].items()} == income
    assert {p: n["techs"] for p, n in shown["nations"].items()} == {p: [] for p in banks}
    territories = ledger["CL-SETUP-income-levels"]["data"]["territories"]
    owners = {ours(t): PLAYERS[p] for p, ts in territories.items() for t in ts}
    assert {s: d["owner"] for s, d in shown["spaces"].items() if d["owner"]} == owners


@pytest.mark.rule(*(f"CL-SETUP-units-{p}" for p in SETUP_ITEM.values()))
def test_the_shown_start_has_the_ledgers_units_space_by_space(shown: dict[str, Any],
                                                             ledger: dict[str, dict[str, Any]]) -> None:
    mine = shown_units(shown)
    for power, item in SETUP_ITEM.items():
        data = ledger[f"CL-SETUP-units-{item}"]["data"]
        theirs = Counter({(power, ours(s), UNIT_TYPES.get(u, u)): n for s, g in data["spaces"].items()
                          for u, n in g.items()})
        assert Counter({k: n for k, n in mine.items() if k[0] == power}) == theirs, power


def test_the_shown_start_matches_the_reference_board(shown: dict[str, Any]) -> None:
    if not REFERENCE.is_file():
        pytest.skip(f"TripleA reference board not present at {REFERENCE} (needs ../shared)")
    xml = ET.parse(REFERENCE).getroot()
    assert shown_units(shown) == reference_placements(xml, PLAYERS, ours, UNIT_TYPES)
    assert {p: n["bank"] for p, n in shown["nations"].items()} == reference_banks(xml, PLAYERS)


@pytest.mark.rule("CL-SETUP-no-starting-techs", "CL-SETUP-first-player")
def test_a_new_game_starts_with_the_russian_turn_and_no_developments() -> None:
    state = new_game(RULES).state
    assert (state.round, state.nation, state.phase, state.winner) == (1, "Russia", "develop-weapons", None)
    assert all(not state.techs.get(p, ()) for p in SETUP_ITEM)
    assert not state.extra.get("purchased")


@pytest.mark.rule("CL-SETUP-carrier-fighters")
def test_the_us_carrier_takes_one_more_fighter_and_no_second() -> None:
    game = scenario(RULES, nation="United States", phase="non-combat-move",
                    units={"Hawaiian Islands": "United States: 2 fighters"})
    game.apply({"type": "move", "units": "1 fighter", "path": ["Hawaiian Islands", "Hawaii Sea Zone"]})
    assert sum(s.count for s in game.state.stacks("Hawaii Sea Zone") if s.unit == "fighter") == 2
    before = game.state
    with pytest.raises(IllegalAction):
        game.apply({"type": "move", "units": "1 fighter", "path": ["Hawaiian Islands", "Hawaii Sea Zone"]})
    assert game.state == before
