"""AARe national advantages: the declaration schedule (AARE-NA-DEPLOY-*)."""

from __future__ import annotations

from typing import Any

import pytest

from aare.economy.capture import capture_territory_events
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_setup import new_game
from aare.rulesets.aare.advantages.base import in_force, record
from aare.scenario import scenario
from aare.state.unit_stacks import count_units
from tests.aare.common import GER, JPN, RULES, RUS, UK, US

NO_BID = {"straight_bid": False}  # play starts with Russia's round-1 turn

PHASES_AFTER_FIRST = 6  # purchase .. collect-income: end_phase seven times from develop-weapons ends the turn


def declare(game: Game, adv: str) -> None:
    game.apply({"type": "declare_advantage", "advantage": adv})


def rule_of(game: Game, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    return err.value.rule_id


def end_turn(game: Game) -> None:
    nation = game.state.nation
    while game.state.nation == nation:
        game.apply({"type": "end_phase"})


def to_phase(game: Game, phase: str) -> None:
    while game.state.phase != phase:
        game.apply({"type": "end_phase"})


def offered(game: Game, kind: str = "declare_advantage") -> list[dict[str, Any]]:
    return [a.to_json() for a in game.legal_actions() if a.type == kind]


ROUND1 = {RUS: "russian_winter", GER: "wolf_packs", UK: "radar", JPN: "yamato", US: "naval_industry"}


def after_round1(seed: int = 1) -> Game:
    game = Game(new_game(RULES, NO_BID, seed=seed))
    for nation, adv in ROUND1.items():
        assert game.state.nation == nation
        declare(game, adv)
        end_turn(game)
    assert game.state.round == 2
    return game


def declared(game: Game, power: str) -> list[str]:
    return [d["id"] for d in record(game.state)["declared"].get(power, [])]


@pytest.mark.rule("AARE-NA-DEPLOY-round1")
def test_round1_every_nation_declares_one_before_anything_else() -> None:
    game = Game(new_game(RULES, NO_BID, seed=1))
    assert game.state.phase == "develop-weapons"
    assert {a["advantage"] for a in offered(game)} == {
        "russian_winter", "russian_railway", "russian_t34s", "russian_lend_lease", "mobile_industry",
        "siberian_conscripts"}
    assert not game.is_legal({"type": "end_phase"})
    assert rule_of(game, {"type": "end_phase"}) == "AARE-NA-DEPLOY-round1"
    assert rule_of(game, {"type": "research", "dice": 1, "tech": "rockets"}) == "AARE-NA-DEPLOY-round1"
    declare(game, "siberian_conscripts")
    assert declared(game, RUS) == ["siberian_conscripts"]
    assert offered(game) == []
    assert rule_of(game, {"type": "declare_advantage", "advantage": "russian_winter"}) == "AARE-NA-DEPLOY-round1"
    end_turn(game)
    assert game.state.nation == GER and rule_of(game, {"type": "end_phase"}) == "AARE-NA-DEPLOY-round1"
    declare(game, "panzerblitz")
    game.apply({"type": "end_phase"})
    assert game.state.phase == "purchase"


@pytest.mark.rule("AARE-NA-DEPLOY-round1")
def test_round1_declaration_is_not_delayed_to_mobilize() -> None:
    game = scenario(RULES, nation=RUS, phase="non-combat-move")
    to_phase(game, "mobilize")
    assert offered(game) == []
    assert rule_of(game, {"type": "declare_advantage", "advantage": "russian_winter"}) == "AARE-NA-DEPLOY-delay-second"


@pytest.mark.rule("AARE-NA-DEPLOY-own-list")
def test_nations_choose_from_their_own_list() -> None:
    game = Game(new_game(RULES, NO_BID, seed=1))
    end_game = after_round1()
    assert rule_of(game, {"type": "declare_advantage", "advantage": "wolf_packs"}) == "AARE-NA-DEPLOY-own-list"
    assert end_game.state.nation == RUS
    assert rule_of(end_game, {"type": "declare_advantage", "advantage": "radar"}) == "AARE-NA-DEPLOY-own-list"
    with pytest.raises(Exception, match="unknown national advantage"):
        game.apply({"type": "declare_advantage", "advantage": "death_star"})


@pytest.mark.rule("AARE-NA-DEPLOY-no-repeat")
def test_an_advantage_is_declared_once() -> None:
    game = after_round1()
    assert rule_of(game, {"type": "declare_advantage", "advantage": "russian_winter"}) == "AARE-NA-DEPLOY-no-repeat"
    assert "russian_winter" not in {a["advantage"] for a in offered(game)}
    declare(game, "russian_t34s")
    assert declared(game, RUS) == ["russian_winter", "russian_t34s"]


@pytest.mark.rule("AARE-NA-DEPLOY-round2", "AARE-NA-DEPLOY-four-per-side")
def test_round2_germany_japan_and_one_allied_nation() -> None:
    game = after_round1()
    declare(game, "russian_t34s")  # Russia takes the Allied second NA
    end_turn(game)
    declare(game, "german_88s")
    end_turn(game)
    assert game.state.nation == UK and offered(game) == []
    assert rule_of(game, {"type": "declare_advantage", "advantage": "royal_navy"}) == "AARE-NA-DEPLOY-round2"
    end_turn(game)
    declare(game, "tokyo_express")
    end_turn(game)
    assert rule_of(game, {"type": "declare_advantage", "advantage": "marines"}) == "AARE-NA-DEPLOY-round2"
    counts = {p: len(declared(game, p)) for p in (RUS, GER, UK, JPN, US)}
    assert counts == {RUS: 2, GER: 2, UK: 1, JPN: 2, US: 1}
    end_turn(game)
    # round 3: every side has its four; nothing more anywhere, not even delayed in Mobilize
    to_phase(game, "mobilize")
    assert game.state.nation == RUS and offered(game) == []
    third = {"type": "declare_advantage", "advantage": "mobile_industry"}
    assert rule_of(game, third) == "AARE-NA-DEPLOY-four-per-side"
    end_turn(game)
    to_phase(game, "mobilize")
    assert rule_of(game, {"type": "declare_advantage", "advantage": "panzerblitz"}) == "AARE-NA-DEPLOY-four-per-side"


@pytest.mark.rule("AARE-NA-DEPLOY-round2")
def test_any_allied_nation_may_take_the_second() -> None:
    game = after_round1()
    end_turn(game)  # Russia passes
    end_turn(game)  # Germany delays
    assert game.state.nation == UK
    declare(game, "royal_navy")
    end_turn(game)
    end_turn(game)
    assert rule_of(game, {"type": "declare_advantage", "advantage": "marines"}) == "AARE-NA-DEPLOY-round2"


@pytest.mark.rule("AARE-NA-DEPLOY-delay-second")
def test_second_advantage_delayed_to_a_later_mobilize() -> None:
    game = after_round1()
    end_turn(game)  # Russia
    assert game.state.nation == GER and offered(game)
    game.apply({"type": "end_phase"})  # G2 starts without a declaration: the start-of-turn chance is gone
    assert rule_of(game, {"type": "declare_advantage", "advantage": "panzerblitz"}) == "AARE-NA-DEPLOY-delay-second"
    end_turn(game)
    for _ in range(4):
        end_turn(game)
    assert (game.state.round, game.state.nation) == (3, GER)
    assert offered(game) == []  # round 3 starts: no start-of-turn declaration
    assert rule_of(game, {"type": "declare_advantage", "advantage": "panzerblitz"}) == "AARE-NA-DEPLOY-delay-second"
    to_phase(game, "mobilize")
    assert "panzerblitz" in {a["advantage"] for a in offered(game)}
    declare(game, "panzerblitz")
    entry = record(game.state)["declared"][GER][-1]
    assert entry == {"id": "panzerblitz", "round": 3, "phase": "mobilize", "delayed": True}


@pytest.mark.rule("AARE-NA-DEPLOY-delay-second")
def test_another_action_first_closes_the_start_of_turn() -> None:
    game = after_round1()
    end_turn(game)
    game.apply({"type": "research", "dice": 4, "tech": "rockets"})  # AARE-TECH-42: 4 rolls at least
    assert offered(game) == []
    assert rule_of(game, {"type": "declare_advantage", "advantage": "panzerblitz"}) == "AARE-NA-DEPLOY-delay-second"


@pytest.mark.rule("AARE-NA-DEPLOY-immediate-effect")
def test_declared_advantage_is_in_force_at_once() -> None:
    game = scenario(RULES, nation=US, phase="develop-weapons")
    assert not in_force(game.state, US, "mechanized_infantry")
    declare(game, "mechanized_infantry")
    assert in_force(game.state, US, "mechanized_infantry")
    assert record(game.state)["declared"][US] == [
        {"id": "mechanized_infantry", "round": 1, "phase": "develop-weapons", "delayed": False}]
    assert offered(game, "place_free") == []  # its units come in Mobilize
    to_phase(game, "mobilize")
    places = offered(game, "place_free")
    assert {a["space"] for a in places} == {"Eastern United States", "Central United States", "Western United States"}
    game.apply({"type": "place_free", "advantage": "mechanized_infantry", "units": "2 infantry",
                "space": "Central United States"})
    assert infantry(game, "Central United States", US) == 2 + _start(US, "Central United States")


def _start(power: str, space: str) -> int:
    return infantry(Game(new_game(RULES, NO_BID, seed=1)), space, power)


def infantry(game: Game, space: str, power: str) -> int:
    return count_units(game.state.stacks(space), power).get("infantry", 0)


@pytest.mark.rule("AARE-NA-DEPLOY-delayed-effects")
def test_delayed_advantage_works_from_that_mobilize() -> None:
    extra = {"advantages": {"declared": {RUS: [{"id": "russian_winter", "round": 1, "phase": "develop-weapons",
                                                 "delayed": False}]}}}
    game = scenario(RULES, nation=RUS, phase="non-combat-move", round=2, extra=extra)
    assert not in_force(game.state, RUS, "siberian_conscripts")
    to_phase(game, "mobilize")
    assert offered(game, "place_free") == []
    declare(game, "siberian_conscripts")
    assert in_force(game.state, RUS, "siberian_conscripts")
    assert record(game.state)["declared"][RUS][-1]["delayed"] is True
    assert {a["space"] for a in offered(game, "place_free")} == {"Yakut S.S.R.", "Soviet Far East", "Buryatia S.S.R."}
    before = infantry(game, "Yakut S.S.R.", RUS)
    game.apply({"type": "place_free", "advantage": "siberian_conscripts", "units": "1 infantry",
                "space": "Yakut S.S.R."})
    assert infantry(game, "Yakut S.S.R.", RUS) == before + 1
    assert offered(game, "place_free") == []


def _conscripts(round_: int = 3) -> dict[str, Any]:
    return {"advantages": {"declared": {RUS: [
        {"id": "russian_winter", "round": 1, "phase": "develop-weapons", "delayed": False},
        {"id": "siberian_conscripts", "round": 2, "phase": "develop-weapons", "delayed": False}]}}}


@pytest.mark.rule("AARE-NA-DEPLOY-capital-loss-mobilize")
def test_without_its_capital_russia_still_mobilizes_its_free_infantry() -> None:
    game = scenario(RULES, nation=RUS, phase="non-combat-move", round=3, owners={"Russia": GER},
                    clear=["Russia"], extra=_conscripts())
    to_phase(game, "mobilize")
    assert game.state.phase == "mobilize"
    before = infantry(game, "Buryatia S.S.R.", RUS)
    game.apply({"type": "place_free", "advantage": "siberian_conscripts", "units": "1 infantry",
                "space": "Buryatia S.S.R."})
    assert infantry(game, "Buryatia S.S.R.", RUS) == before + 1


@pytest.mark.rule("AARE-NA-DEPLOY-capital-loss-mobilize")
def test_without_its_capital_a_nation_still_declares_a_delayed_advantage() -> None:
    extra = {"advantages": {"declared": {GER: [{"id": "wolf_packs", "round": 1, "phase": "develop-weapons",
                                                 "delayed": False}]}}}
    game = scenario(RULES, nation=GER, phase="non-combat-move", round=3, owners={"Germany": RUS},
                    clear=["Germany"], extra=extra)
    to_phase(game, "mobilize")
    declare(game, "panzerblitz")
    assert in_force(game.state, GER, "panzerblitz")


@pytest.mark.rule("AARE-NA-DEPLOY-persist-after-capital-loss")
def test_advantages_stay_after_the_capital_falls() -> None:
    game = scenario(RULES, nation=RUS, phase="non-combat-move", round=3, extra=_conscripts())
    game.log.append(None, capture_territory_events(game.state, game.ruleset, "Russia", GER))
    assert game.state.owner("Russia") == GER
    assert in_force(game.state, RUS, "siberian_conscripts") and in_force(game.state, RUS, "russian_winter")
    to_phase(game, "mobilize")
    assert offered(game, "place_free")


@pytest.mark.rule("AARE-NA-DEPLOY-free-unit-conditions")
def test_free_units_need_their_listed_space_when_placed() -> None:
    siberia = {"Yakut S.S.R.": JPN, "Soviet Far East": JPN, "Buryatia S.S.R.": JPN}
    game = scenario(RULES, nation=RUS, phase="non-combat-move", round=3, owners=siberia,
                    clear=list(siberia), extra=_conscripts())
    to_phase(game, "mobilize")
    assert offered(game, "place_free") == []
    action = {"type": "place_free", "advantage": "siberian_conscripts", "units": "1 infantry"}
    assert rule_of(game, {**action, "space": "Buryatia S.S.R."}) == "AARE-NA-DEPLOY-free-unit-conditions"
    assert rule_of(game, {**action, "space": "Russia"}) == "AARE-NA-RUS-sib-free-inf"  # not a listed space
    assert record(game.state)["owed"]
    game.apply({"type": "end_phase"})
    assert record(game.state)["owed"] == []  # forfeited: no substitute space, no carry-over


@pytest.mark.rule("AARE-NA-DEPLOY-free-unit-conditions")
def test_unplaced_free_units_do_not_carry_over() -> None:
    game = scenario(RULES, nation=RUS, phase="non-combat-move", round=3, extra=_conscripts())
    to_phase(game, "mobilize")
    game.apply({"type": "end_phase"})
    assert record(game.state)["owed"] == []
    action = {"type": "place_free", "advantage": "siberian_conscripts", "units": "1 infantry",
              "space": "Buryatia S.S.R."}
    assert not game.is_legal(action)


@pytest.mark.rule("AARE-NA-DEPLOY-free-unit-conditions")
def test_grouped_free_units_go_to_one_held_space() -> None:
    game = scenario(RULES, nation=RUS, phase="develop-weapons", round=1)
    declare(game, "mobile_industry")
    to_phase(game, "mobilize")
    factories = {a["space"] for a in offered(game, "place_free") if "factory" in a["units"]}
    assert "Karelia S.S.R." in factories and "Russia" not in factories  # Russia already has a complex
    game.apply({"type": "place_free", "advantage": "mobile_industry", "units": "1 factory", "space": "Karelia S.S.R."})
    assert rule_of(game, {"type": "place_free", "advantage": "mobile_industry", "units": "1 infantry",
                          "space": "Caucasus"}) == "AARE-NA-RUS-mi-free-ic-inf"
    game.apply({"type": "place_free", "advantage": "mobile_industry", "units": "1 infantry",
                "space": "Karelia S.S.R."})
    assert offered(game, "place_free") == []
