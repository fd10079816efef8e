"""AARe convoy raids: enemy submarines near the UK's, the US's and Japan's industrial complexes cut the income
they collect, within the cap of all economic damage per territory and turn (AARE-CR-*)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from aare.economy.damage import economic_damage_events
from aare.engine import Game
from aare.game_log import GameLog
from aare.rulesets.aare.convoy import Raider, assign
from aare.scenario import scenario
from aare.state.unit_stacks import Stack
from tests.aare.common import GER, JPN, RULES, UK, US, position

UK_IC = "United Kingdom: 1 factory"
NO_NA = {"national_advantages": False}


def collect(nation: str, placed: Mapping[str, str], **kwargs: Any) -> tuple[Game, int]:
    """From `nation`'s mobilize into its collect-income; returns the game and what the bank gained."""
    game = position(nation, "mobilize", placed, **kwargs)
    before = game.state.banks[nation]
    game.apply({"type": "end_phase"})
    assert game.state.phase == "collect-income"
    return game, game.state.banks[nation] - before


def raids(game: Game) -> list[dict[str, Any]]:
    record = game.state.extra.get("convoy")
    return list(record["raids"]) if record else []


@pytest.mark.rule("AARE-CR-adjacent-sub")
def test_each_adjacent_enemy_sub_takes_two() -> None:
    game, gained = collect(UK, {"United Kingdom": UK_IC, "SZ 7": "Germany: 2 submarines"})
    assert gained == 30 - 4
    [raid] = raids(game)
    assert (raid["territory"], raid["damage"], raid["subs"]) == (
        "United Kingdom", 4, [{"zone": "SZ 7", "owner": GER, "count": 2, "each": 2}])
    bank = [e for e in game.log.entries[-1].events if e.type == "bank_changed"]
    assert [(e.delta, e.reason, e.rule_id) for e in bank] == [
        (30, "income", "LHTR-ECON-income-sum"), (-4, "economic damage", "AARE-CR-adjacent-sub")]


@pytest.mark.rule("AARE-CR-two-sz-sub")
def test_a_sub_two_zones_away_takes_one() -> None:
    game, gained = collect(US, {"Western United States": "United States: 1 factory", "SZ 53": "Japan: 1 submarine"})
    assert gained == 42 - 1
    assert raids(game)[0]["subs"][0]["each"] == 1
    game, gained = collect(US, {"Western United States": "United States: 1 factory", "SZ 54": "Japan: 1 submarine"})
    assert gained == 42 - 2  # adjacent: 2, not 2 + 1


@pytest.mark.rule("AARE-CR-eligible-nations")
def test_only_uk_us_and_japanese_complexes_are_raided() -> None:
    _, gained = collect(GER, {"Germany": "Germany: 1 factory", "SZ 5": "United Kingdom: 2 submarines"})
    assert gained == 40
    _, gained = collect(UK, {"United Kingdom": UK_IC, "SZ 8": "Germany: 1 submarine"})
    assert gained == 28
    _, gained = collect(JPN, {"Japan": "Japan: 1 factory", "SZ 60": "United States: 1 submarine"})
    assert gained == 30 - 2


@pytest.mark.rule("AARE-CR-subs-only")
def test_only_submarines_raid() -> None:
    _, gained = collect(UK, {"United Kingdom": UK_IC, "SZ 7": "Germany: 2 destroyers, 1 battleship, 1 transport",
                             "SZ 8": "Germany: 1 carrier, 1 fighter"})
    assert gained == 30


@pytest.mark.rule("AARE-CR-victim-collect-phase")
def test_raids_happen_at_the_victims_collect_income() -> None:
    placed = {"United Kingdom": UK_IC, "SZ 7": "Germany: 1 submarine"}
    game, gained = collect(GER, placed)
    assert gained == 40 and not raids(game)
    game, gained = collect(UK, placed)
    assert gained == 28 and raids(game)[0]["damage"] == 2
    assert game.state.extra["convoy"]["power"] == UK


@pytest.mark.rule("AARE-CR-submerged-no-damage")
def test_a_sub_that_submerged_this_turn_takes_nothing() -> None:
    submerged = Stack(GER, "submarine", 1, flags=("turn:submerged",))
    _, gained = collect(UK, {"United Kingdom": UK_IC, "SZ 7": "Germany: 1 submarine"}, stacks=[("SZ 7", submerged)])
    assert gained == 30 - 2  # the other sub still raids
    earlier = Stack(GER, "submarine", 1, flags=("submerged",))  # submerged in an earlier turn and stayed
    _, gained = collect(UK, {"United Kingdom": UK_IC}, stacks=[("SZ 7", earlier)])
    assert gained == 28


@pytest.mark.rule("AARE-CR-territory-cap")
def test_raids_on_one_complex_are_capped_at_its_territory_value() -> None:
    game, gained = collect(UK, {"United Kingdom": UK_IC, "SZ 7": "Germany: 3 submarines",
                                "SZ 8": "Germany: 2 submarines"})
    assert gained == 30 - 8
    assert (raids(game)[0]["raw"], raids(game)[0]["damage"]) == (10, 8)
    _, gained = collect(UK, {"Eastern Canada": "United Kingdom: 1 factory", "SZ 9": "Germany: 4 submarines"})
    assert gained == 30 - 3  # Eastern Canada is worth 3


@pytest.mark.rule("AARE-CR-one-ic-per-sub-per-turn")
def test_a_sub_raids_one_complex_a_turn() -> None:
    game, gained = collect(UK, {"United Kingdom": UK_IC, "Eastern Canada": "United Kingdom: 1 factory",
                                "SZ 9": "Germany: 1 submarine"})
    assert gained == 30 - 2  # Eastern Canada (adjacent, 2) or the United Kingdom (2 zones, 1): not both
    assert [r["territory"] for r in raids(game)] == ["Eastern Canada"]
    # the assignment takes the most in all: the second sub goes where the cap still has room
    subs = [Raider("SZ 9", GER, (("Eastern Canada", 2), ("United Kingdom", 1)))] * 3
    assert assign(subs, {"Eastern Canada": 3, "United Kingdom": 8}).count("United Kingdom") >= 1


@pytest.mark.rule("AARE-CR-multiple-ics-per-round")
def test_a_sub_raids_each_nation_in_its_own_collect_phase() -> None:
    placed = {"United Kingdom": UK_IC, "Eastern United States": "United States: 1 factory",
              "SZ 9": "Germany: 1 submarine"}
    _, uk = collect(UK, placed)
    _, us = collect(US, placed)
    assert (uk, us) == (30 - 1, 42 - 1)


@pytest.mark.rule("AARE-CR-combined-economic-cap")
@pytest.mark.rule("AARE-CR-cap-resets-each-turn")
def test_the_worked_example_sixteen_ipcs_in_a_round() -> None:
    """Seed: Germany does 8 to the UK with a raid and rockets on G2, the UK's convoys lose 8 more on UK2."""
    game = scenario(RULES, nation=GER, phase="conduct-combat", round=2, clear=True, options=NO_NA,
                    units={"United Kingdom": UK_IC, "SZ 7": "Germany: 3 submarines", "SZ 8": "Germany: 2 submarines"})
    ruleset, uk_bank = game.ruleset, game.state.banks[UK]
    game.log.append(None, economic_damage_events(game.state, ruleset, UK, 6, "LHTR-SBR-damage-roll"))
    game.log.append(None, economic_damage_events(game.state, ruleset, UK, 5, "LHTR-TECH-rockets-damage"))
    assert uk_bank - game.state.banks[UK] == 8  # 6 + 5 capped at the United Kingdom's 8
    game = Game(GameLog(game.state))
    while (game.state.nation, game.state.phase) != (UK, "collect-income"):
        game.apply({"type": "end_phase"})
    assert uk_bank - game.state.banks[UK] == 8 - 30 + 8  # UK2 income 30, convoys take 8 of it: 16 in the round
    assert raids(game)[0]["damage"] == 8
