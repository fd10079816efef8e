"""Convoy raids in Anniversary Enhanced: at the collect income of the UK, the US, Japan and Italy each enemy
submarine next to one of their industrial complexes takes 1 IPC, at most the complex territory's value; no damage
on the complex, none from submerged submarines (AA50E-CONVOY-*)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from aare.engine import Game
from aare.events import BankChanged
from aare.rulesets.aa50e.convoy import REASON
from aare.state.unit_stacks import Stack
from tests.aa50.common import position

RULES = "aa50e-1941"
GER, SOV, JPN, UK, ITA, US = "Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States"


def collect(nation: str, units: Mapping[str, str], stacks: Iterable[tuple[str, Any]] = (),
            **kw: Any) -> tuple[Game, int]:
    """From `nation`'s mobilize (empty 1941 board but `units`) into its collect income; the game and the IPCs
    gained."""
    game = position(nation, "mobilize", dict(units), stacks=tuple(stacks), rules=RULES, **kw)
    before = game.state.banks[nation]
    game.apply({"type": "end_phase"})
    assert game.state.phase == "collect-income" and game.state.nation == nation
    return game, game.state.banks[nation] - before


def raid_losses(game: Game) -> list[BankChanged]:
    return [e for e in game.log.entries[-1].events if isinstance(e, BankChanged) and e.reason == REASON]


def base_income(nation: str, units: Mapping[str, str], **kw: Any) -> int:
    return collect(nation, units, **kw)[1]


@pytest.mark.rule("AA50E-CONVOY-subject-nations")
@pytest.mark.parametrize(("nation", "complex_at", "zone", "raider"), [
    (UK, "United Kingdom", "SZ 7", GER), (US, "Eastern United States", "SZ 10", GER), (JPN, "Japan", "SZ 62", US),
    (ITA, "Italy", "SZ 14", UK),
])
def test_the_uk_the_us_japan_and_italy_are_raided(nation: str, complex_at: str, zone: str, raider: str) -> None:
    ic = {complex_at: f"{nation}: 1 factory"}
    _, gained = collect(nation, {**ic, zone: f"{raider}: 1 submarine"})
    assert gained == base_income(nation, ic) - 1


@pytest.mark.rule("AA50E-CONVOY-subject-nations")
def test_germany_and_the_soviet_union_are_never_raided() -> None:
    ic = {"Germany": "Germany: 1 factory"}
    game, gained = collect(GER, {**ic, "SZ 5": "United Kingdom: 2 submarines"})
    assert gained == base_income(GER, ic) and raid_losses(game) == [] and "convoy" not in game.state.extra
    ic = {"Karelia S.S.R.": "Soviet Union: 1 factory"}
    game, gained = collect(SOV, {**ic, "SZ 4": "Germany: 2 submarines"})
    assert gained == base_income(SOV, ic) and raid_losses(game) == []


@pytest.mark.rule("AA50E-CONVOY-adjacent-sub-damage")
def test_each_adjacent_enemy_submarine_takes_one_ipc() -> None:
    ic = {"United Kingdom": "United Kingdom: 1 factory"}
    game, gained = collect(UK, {**ic, "SZ 7": "Germany: 2 submarines", "SZ 8": "Italy: 1 submarine"})
    assert gained == base_income(UK, ic) - 3
    [loss] = raid_losses(game)
    assert (loss.delta, loss.rule_id) == (-3, "AA50E-CONVOY-adjacent-sub-damage")
    [raid] = game.state.extra["convoy"]["raids"]
    assert (raid["territory"], raid["damage"]) == ("United Kingdom", 3)
    assert raid["subs"] == [{"zone": "SZ 7", "owner": GER, "count": 2}, {"zone": "SZ 8", "owner": ITA, "count": 1}]


@pytest.mark.rule("AA50E-CONVOY-adjacent-sub-damage")
def test_a_submarine_next_to_two_complexes_raids_each() -> None:
    ics = {"United Kingdom": "United Kingdom: 1 factory", "Norway": "United Kingdom: 1 factory"}
    owners = {"Norway": UK}
    game, gained = collect(UK, {**ics, "SZ 3": "Germany: 1 submarine"}, owners=owners)
    assert gained == base_income(UK, ics, owners=owners) - 2
    assert [r["territory"] for r in game.state.extra["convoy"]["raids"]] == ["Norway", "United Kingdom"]


@pytest.mark.rule("AA50E-CONVOY-replaces-zone-disruption")
def test_no_damage_from_submarines_away_from_the_complexes_nor_from_other_ships() -> None:
    ic = {"United Kingdom": "United Kingdom: 1 factory"}
    income = base_income(UK, ic)
    game, gained = collect(UK, {**ic, "SZ 12": "Germany: 3 submarines"})  # two zones away
    assert gained == income and raid_losses(game) == []
    game, gained = collect(UK, {**ic, "SZ 7": "Germany: 1 battleship, 1 destroyer, 1 cruiser, 1 transport",
                                "SZ 8": "Germany: 1 carrier"})
    assert gained == income and raid_losses(game) == []
    game, gained = collect(UK, {"SZ 7": "Germany: 2 submarines"})  # no complex: nothing to raid
    assert gained == base_income(UK, {}) and raid_losses(game) == []
    game, gained = collect(UK, {**ic, "SZ 7": "United States: 2 submarines"})  # an ally's submarines
    assert gained == income


@pytest.mark.rule("AA50E-CONVOY-cap-per-ic")
def test_the_damage_to_one_complex_is_capped_at_its_territorys_value() -> None:
    ic = {"Italy": "Italy: 1 factory"}
    game, gained = collect(ITA, {**ic, "SZ 14": "United Kingdom: 5 submarines; United States: 3 submarines"})
    assert gained == base_income(ITA, ic) - 6
    [raid] = game.state.extra["convoy"]["raids"]
    assert (raid["raw"], raid["damage"]) == (8, 6)
    # and never more than the income collected
    poor = {"Libya": UK, "Balkans": UK, "Morocco Algeria": UK, "Italian Africa": UK}
    game, gained = collect(ITA, {**ic, "SZ 14": "United Kingdom: 8 submarines"}, owners=poor)
    assert gained == 0 and game.state.extra["convoy"]["raids"][0]["damage"] == base_income(ITA, ic, owners=poor)


@pytest.mark.rule("AA50E-CONVOY-income-not-ic-damage")
def test_convoy_damage_is_income_only_and_comes_on_top_of_bombing_damage() -> None:
    bombed = (("Italy", Stack(ITA, "factory", 1, damage=12)),)
    game, gained = collect(ITA, {"SZ 14": "United Kingdom: 6 submarines"}, stacks=bombed)
    _, unraided = collect(ITA, {}, stacks=bombed)
    assert gained == unraided - 6  # the complex's 12 damage did not stop the raids
    [factory] = [s for s in game.state.stacks("Italy") if s.unit == "factory"]
    assert factory.damage == 12  # and the raids put no damage on it


@pytest.mark.rule("AA50E-CONVOY-submerged-no-damage")
def test_submarines_that_submerged_raid_nothing() -> None:
    ic = {"United Kingdom": "United Kingdom: 1 factory"}
    dived = (("SZ 7", Stack(GER, "submarine", 2, flags=("turn:submerged",))),)
    game, gained = collect(UK, {**ic, "SZ 8": "Germany: 1 submarine"}, stacks=dived)
    assert gained == base_income(UK, ic) - 1
    assert game.state.extra["convoy"]["raids"][0]["subs"] == [{"zone": "SZ 8", "owner": GER, "count": 1}]


@pytest.mark.rule("AA50E-CONVOY-submerged-no-damage")
def test_submarines_forced_under_in_the_uk_turn_do_not_raid_at_its_collect_income() -> None:
    game = position(UK, "combat-move", {"United Kingdom": "United Kingdom: 1 factory",
                                        "SZ 6": "United Kingdom: 1 cruiser", "SZ 7": "Germany: 2 submarines"},
                    rules=RULES, dice=[])
    game.apply({"type": "move", "units": "1 cruiser", "path": ["SZ 6", "SZ 7"]})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "SZ 7"})
    game.apply({"type": "submerge", "units": "2 submarines"})  # Germany's answer: both dive before any fire
    before = game.state.banks[UK]
    while game.state.phase != "collect-income":
        game.apply({"type": "end_phase"})
    assert game.state.banks[UK] - before == base_income(UK, {"United Kingdom": "United Kingdom: 1 factory"})
    assert "convoy" not in game.state.extra
