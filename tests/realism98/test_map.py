"""Enhanced Realism '98 map clarifications: the board changes file (extra complexes, connections removed and
added, the Turkish Straits) and control in real time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.engine import Game
from aare.rules.ruleset import load_ruleset
from tests.movement.helpers import boat, ld, legal, move, mv, rejected, units_in
from tests.realism98.common import CLASSIC, REALISM, at

EXTRA = {
    "Caucasus": "Russia",
    "East Europe": "Germany",
    "East Canada": "United Kingdom",
    "India": "United Kingdom",
    "Australia": "United Kingdom",
    "Manchuria": "Japan",
}


def _show(tmp_path: Path, rules: str) -> dict[str, object]:
    game = tmp_path / f"{rules}.json"
    runner = CliRunner()
    made = runner.invoke(cli, ["new", "--rules", rules, "--seed", "3", "-o", str(game)])
    assert made.exit_code == 0, made.output
    shown = runner.invoke(cli, ["show", str(game), "--json"])
    assert shown.exit_code == 0, shown.output
    data: dict[str, object] = json.loads(shown.stdout)
    return data


@pytest.mark.rule("REAL98-IC-extra-setup", "REAL98-MAP-changes-table")
def test_new_game_has_an_extra_complex_and_aa_gun_in_six_territories(tmp_path: Path) -> None:
    realism = _show(tmp_path, REALISM)["spaces"]
    classic = _show(tmp_path, CLASSIC)["spaces"]
    assert isinstance(realism, dict) and isinstance(classic, dict)
    for territory, owner in EXTRA.items():
        mine = realism[territory]["by_owner"][owner]
        base = classic[territory]["by_owner"][owner]
        assert realism[territory]["owner"] == owner
        assert mine.get("factory", 0) == base.get("factory", 0) + 1 == 1
        assert mine.get("aa_gun", 0) == base.get("aa_gun", 0) + 1
        assert {u: n for u, n in mine.items() if u not in ("factory", "aa_gun")} == {
            u: n for u, n in base.items() if u not in ("factory", "aa_gun")
        }
    others = {t for t in realism if t not in EXTRA}
    assert all(realism[t] == classic[t] for t in others)


@pytest.mark.rule("REAL98-MAP-south-africa-mozambique", "REAL98-MAP-changes-table")
def test_south_africa_is_not_next_to_the_mozambique_sea_zone() -> None:
    assert load_ruleset(CLASSIC).board.adjacent("South Africa", "Mozambique Sea Zone")
    assert not load_ruleset(REALISM).board.adjacent("South Africa", "Mozambique Sea Zone")
    assert not load_ruleset(REALISM).board.adjacent("Mozambique Sea Zone", "South Africa")
    sea = "Mozambique Sea Zone"
    cargo = [(sea, boat("United Kingdom", "United Kingdom:infantry"))]
    game = at("United Kingdom", "non-combat-move", {}, stacks=cargo)
    rejected(game, mv("1 infantry", sea, "South Africa"), "CL-TRANSPORT-load-unload", "not a territory next")
    base = at("United Kingdom", "non-combat-move", {}, stacks=cargo, rules=CLASSIC)
    move(base, "1 infantry", sea, "South Africa")
    assert units_in(base, "South Africa") == {"infantry": 1}


@pytest.mark.rule("REAL98-MAP-west-canada-sea", "REAL98-MAP-changes-table")
def test_transports_cannot_unload_or_load_between_west_canada_and_the_east_canada_sea_zone() -> None:
    sea = "East Canada Sea Zone"
    cargo = [(sea, boat("United Kingdom", "United Kingdom:infantry"))]
    game = at("United Kingdom", "non-combat-move", {}, stacks=cargo)
    rejected(game, mv("1 infantry", sea, "West Canada"), "CL-TRANSPORT-load-unload", "not a territory next")
    assert legal(game, mv("1 infantry", sea, "East Canada"))
    attack = at("United Kingdom", "combat-move", {"West Canada": "Germany: 1 infantry"},
                owners={"West Canada": "Germany"}, stacks=cargo)
    rejected(attack, mv("1 infantry", sea, "West Canada"), "CL-TRANSPORT-amphibious-assault", "not a territory next")
    loading = at("United Kingdom", "non-combat-move", {"West Canada": "United Kingdom: 1 infantry"},
                 stacks=[(sea, boat("United Kingdom"))])
    assert not legal(loading, ld("1 infantry", "West Canada", sea))
    base_loading = at("United Kingdom", "non-combat-move", {"West Canada": "United Kingdom: 1 infantry"},
                      stacks=[(sea, boat("United Kingdom"))], rules=CLASSIC)
    assert legal(base_loading, ld("1 infantry", "West Canada", sea))
    # ships and aircraft still use the connection: it is closed to transports only
    assert load_ruleset(REALISM).board.adjacent("West Canada", sea)
    base = at("United Kingdom", "non-combat-move", {}, stacks=cargo, rules=CLASSIC)
    move(base, "1 infantry", sea, "West Canada")
    assert units_in(base, "West Canada") == {"infantry": 1}


@pytest.mark.rule("REAL98-MAP-turkey-land-attack", "REAL98-MAP-changes-table")
def test_turkey_is_a_land_neighbour_of_south_europe() -> None:
    assert not load_ruleset(CLASSIC).board.adjacent("South Europe", "Turkey")
    assert load_ruleset(REALISM).board.adjacent("Turkey", "South Europe")
    game = at("Germany", "non-combat-move", {"South Europe": "Germany: 1 infantry"}, owners={"Turkey": "Germany"})
    move(game, "1 infantry", "South Europe", "Turkey")
    assert units_in(game, "Turkey") == {"infantry": 1}
    back = at("Germany", "non-combat-move", {"Turkey": "Germany: 1 armour"}, owners={"Turkey": "Germany"})
    move(back, "1 armour", "Turkey", "South Europe")
    assert units_in(back, "South Europe") == {"armour": 1}


@pytest.mark.rule("REAL98-MAP-black-sea", "REAL98-MAP-changes-table")
@pytest.mark.parametrize("sea", ["Central Mediterranean Sea Zone", "East Mediterranean Sea Zone"])
def test_black_sea_entry_from_the_mediterranean_needs_turkey(sea: str) -> None:
    game = at("United Kingdom", "non-combat-move", {sea: "United Kingdom: 1 battleship"})
    rejected(game, mv("1 battleship", sea, "Black Sea Zone"), "REAL98-MAP-black-sea", "Turkey")
    held = at("United Kingdom", "non-combat-move", {sea: "United Kingdom: 1 battleship"},
              owners={"Turkey": "Russia"})  # an ally's control opens the straits
    move(held, "1 battleship", sea, "Black Sea Zone")
    assert units_in(held, "Black Sea Zone") == {"battleship": 1}
    leaving = at("United Kingdom", "non-combat-move", {"Black Sea Zone": "United Kingdom: 1 battleship"})
    move(leaving, "1 battleship", "Black Sea Zone", sea)  # only entry is barred
    assert units_in(leaving, sea) == {"battleship": 1}
    base = at("United Kingdom", "non-combat-move", {sea: "United Kingdom: 1 battleship"}, rules=CLASSIC)
    move(base, "1 battleship", sea, "Black Sea Zone")


@pytest.mark.rule("REAL98-MAP-realtime-ownership")
def test_a_canal_captured_this_turn_is_usable_at_once() -> None:
    # Germany took Anglo Sudan Egypt this turn; it held Syria Jordan already
    owners = {"Anglo Sudan Egypt": "Germany", "Syria Jordan": "Germany"}
    ships = {"East Mediterranean Sea Zone": "Germany: 1 battleship"}
    game = at("Germany", "non-combat-move", ships, owners=owners, turn_owners={"Anglo Sudan Egypt": "United Kingdom"})
    move(game, "1 battleship", "East Mediterranean Sea Zone", "Red Sea Zone")
    assert units_in(game, "Red Sea Zone") == {"battleship": 1}
    base = at("Germany", "non-combat-move", ships, owners=owners, turn_owners={"Anglo Sudan Egypt": "United Kingdom"},
              rules=CLASSIC)
    assert not legal(base, mv("1 battleship", "East Mediterranean Sea Zone", "Red Sea Zone"))


@pytest.mark.rule("REAL98-MAP-land-in-captured")
def test_aircraft_land_in_a_territory_captured_this_turn() -> None:
    # Germany's fighter helped take Ukraine this turn and lands there
    game = at("Germany", "non-combat-move", {"Ukraine S.S.R.": "Germany: 1 fighter, 1 infantry"},
              owners={"Ukraine S.S.R.": "Germany"}, turn_owners={"Ukraine S.S.R.": "Russia"})
    game.apply({"type": "end_phase"})
    assert units_in(game, "Ukraine S.S.R.") == {"infantry": 1, "fighter": 1}
    base = at("Germany", "non-combat-move", {"Ukraine S.S.R.": "Germany: 1 fighter, 1 infantry"}, rules=CLASSIC,
              owners={"Ukraine S.S.R.": "Germany"}, turn_owners={"Ukraine S.S.R.": "Russia"})
    base.apply({"type": "end_phase"})
    assert units_in(base, "Ukraine S.S.R.") == {"infantry": 1}


def _moved(game: Game, space: str, unit: str) -> int:
    return next(s.moved for s in game.state.stacks(space) if s.unit == unit)


@pytest.mark.rule("REAL98-MAP-panama", "REAL98-MAP-changes-table")
def test_the_panama_canal_makes_its_two_sea_zones_one_for_its_side() -> None:
    path = ["Caribbean Sea Zone", "West Panama Sea Zone", "Peru Sea Zone"]
    ships = {path[0]: "United States: 1 transport"}
    game = at("United States", "non-combat-move", ships)
    move(game, "1 transport", *path)
    assert _moved(game, "Peru Sea Zone", "transport") == 1  # the base counts 2
    base = at("United States", "non-combat-move", ships, rules=CLASSIC)
    move(base, "1 transport", *path)
    assert _moved(base, "Peru Sea Zone", "transport") == 2
    # with a move of 2 the transport goes one zone further than in the base
    far = [*path, "East Pacific Sea Zone"]
    assert legal(at("United States", "non-combat-move", ships), mv("1 transport", *far))
    assert not legal(at("United States", "non-combat-move", ships, rules=CLASSIC), mv("1 transport", *far))
    # the Axis hold Panama: the US ship cannot pass, a Japanese one treats the zones as one
    axis = {"Panama": "Japan"}
    assert not legal(at("United States", "non-combat-move", ships, owners=axis), mv("1 transport", *path))
    japan = at("Japan", "non-combat-move", {path[0]: "Japan: 1 transport"}, owners=axis)
    move(japan, "1 transport", *far)
    assert units_in(japan, far[-1]) == {"transport": 1}
