"""China (module `aa50_china`): its reinforcements and their placement, its movement area and fighter, who controls
what it takes, no purchases and no research, and the US/China team turn (one power's combat, then the other's)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.actions import EndPhase, Place
from aare.economy.capture import capture_territory_events
from aare.economy.pool import pool
from aare.economy.summary import income
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import BankChanged, ControlChanged, apply_events
from aare.rulesets.aa50.china import AREA, china_rules, reinforcement_count
from aare.scenario import scenario

RULES = "aa50-1942"
US, CN = "United States", "China"
START = ["Chinghai", "Fukien", "Hupeh", "Ningxia", "Sikang", "Suiyuan", "Yunnan"]


def us_turn(rules: str = RULES, **setup: Any) -> Game:
    """A 1942 position at the end of Italy's turn; ending it starts the US/China team turn."""
    game = scenario(rules, nation="Italy", phase="collect-income", **setup)
    game.apply({"type": "end_phase"})
    assert set(game.to_act()) == {US, CN}
    return game


def reach(game: Game, power: str, phase: str) -> None:
    """End `power`'s phases until it is in `phase` (acting, or waiting for its team)."""
    while game.state.members[power]["phase"] != phase:
        game.apply({"type": "end_phase", "power": power})


def act(game: Game, power: str, **action: Any) -> None:
    game.apply({**action, "power": power})


def refused(game: Game, power: str, rule: str, **action: Any) -> None:
    """The action is refused naming `rule`, and nothing changes."""
    before = game.state.hash()
    with pytest.raises(IllegalAction, match=rule):
        act(game, power, **action)
    assert game.state.hash() == before


def attack(game: Game, power: str, units: str, *path: str) -> None:
    """`power` moves `units` along `path` in combat move and fights the battle at its end."""
    reach(game, power, "combat-move")
    act(game, power, type="move", units=units, path=list(path))
    reach(game, power, "conduct-combat")
    act(game, power, type="fight", space=path[-1])


def to_mobilize(game: Game) -> None:
    """Both powers through combat to non-combat move (a joint phase), then China to mobilize."""
    reach(game, CN, "non-combat-move")
    reach(game, US, "non-combat-move")
    reach(game, CN, "mobilize")


def rules_logged(game: Game) -> list[str]:
    return [getattr(e, "rule_id", "") for entry in game.log.entries for e in entry.events]


def owned(game: Game, power: str) -> list[str]:
    return sorted(t for t, o in game.state.owners.items() if o == power)


# --- reinforcements ---------------------------------------------------------------------------------------------


@pytest.mark.rule("AA50-CHINA-reinforcements", "AA50-CHINA-burma-road")
@pytest.mark.parametrize(("owners", "infantry"), [
    ({}, 3),                                       # 7 territories
    ({"Hupeh": "Japan", "Fukien": "Japan"}, 2),    # 5
    ({"Kiangsu": CN}, 4),                          # 8: a captured Kiangsu counts
    ({"Kiangsu": CN, "Manchuria": CN}, 4),         # 9, rounded down
    ({"Burma": "United Kingdom", "India": "United Kingdom"}, 3),  # no Burma Road: Allied Burma changes nothing
])
def test_one_infantry_per_two_chinese_territories_into_the_pool(owners: dict[str, str], infantry: int) -> None:
    game = us_turn(owners=owners)
    assert pool(game.state, CN) == {}
    reach(game, CN, "purchase")
    assert pool(game.state, CN) == {"infantry": infantry}
    assert "AA50-CHINA-reinforcements" in rules_logged(game)


@pytest.mark.rule("AA50-CHINA-reinforcements", "AA50-CHINA-capture-control", "AA50-CHINA-turn-with-us")
def test_territories_are_counted_as_the_turn_began() -> None:
    """The US liberates Hupeh before China reaches its purchase: Hupeh is China's again, but China held 5
    territories when the turn began, so it receives 2 infantry, not 3."""
    game = us_turn(owners={"Hupeh": "Japan", "Fukien": "Japan"}, clear=["Hupeh"],
                   units={"Hupeh": "Japan: 1 infantry", "Sikang": "United States: 3 infantry"}, dice=[1, 1, 1, 6])
    attack(game, US, "3 infantry", "Sikang", "Hupeh")
    assert game.state.owners["Hupeh"] == CN
    reach(game, CN, "purchase")
    assert pool(game.state, CN) == {"infantry": 2}


@pytest.mark.rule("AA50-CHINA-reinforcements", "AA50-CHINA-placement")
def test_the_numbers_are_parameters_a_variant_can_change() -> None:
    base = china_rules({})
    assert (base.per_territories, base.round_up, base.cap) == (2, False, 3)
    assert [reinforcement_count(n, base) for n in (7, 8, 9)] == [3, 4, 4]
    assert [reinforcement_count(n, replace(base, round_up=True)) for n in (7, 8, 9)] == [4, 4, 5]
    assert china_rules({"china_round_up": True, "china_uncapped": True}).cap is None


# --- no IPCs, no purchases, no research -------------------------------------------------------------------------


@pytest.mark.rule("AA50-RESEARCH-china-none", "AA50-CHINA-no-ipcs")
def test_china_neither_researches_nor_buys_even_with_money() -> None:
    game = us_turn(banks={CN: 30})
    assert [a for a in game.legal_actions(power=CN)] == [EndPhase(power=CN)]
    refused(game, CN, "AA50-RESEARCH-china-none", type="research", dice=1, tech="jet_fighters")
    reach(game, CN, "purchase")
    assert [a.type for a in game.legal_actions(power=CN)] == ["end_phase"]
    refused(game, CN, "AA50-CHINA-no-ipcs", type="purchase", units="1 infantry")
    assert game.state.techs.get(CN, ()) == ()


@pytest.mark.rule("AA50-CHINA-no-ipcs", "AA50-CHINA-turn-with-us")
def test_china_collects_nothing_at_the_end_of_the_us_turn() -> None:
    game = us_turn()
    us_bank = game.state.banks[US]
    while game.state.round == 1:
        game.apply({"type": "end_phase", "power": game.to_act()[0]})
    assert game.state.banks.get(CN, 0) == 0
    assert game.state.banks[US] > us_bank
    assert not [e for entry in game.log.entries for e in entry.events if isinstance(e, BankChanged) and e.power == CN]


@pytest.mark.rule("AA50-CHINA-no-ipcs")
def test_japan_taking_a_chinese_territory_takes_no_treasury_but_gains_its_value() -> None:
    game = scenario(RULES, nation="Japan", phase="conduct-combat")
    state, ruleset = game.state, game.ruleset
    events = capture_territory_events(state, ruleset, "Hupeh", "Japan")
    assert not [e for e in events if isinstance(e, BankChanged)]
    after = scenario(RULES, nation="Japan", phase="conduct-combat", owners={"Hupeh": "Japan"}).state
    assert income(after, ruleset, "Japan") == income(state, ruleset, "Japan") + ruleset.board.spaces["Hupeh"].ipc


# --- placement --------------------------------------------------------------------------------------------------


def placement_game(**setup: Any) -> Game:
    game = us_turn(clear=["Yunnan", "Hupeh"], units={"Yunnan": "China: 2 infantry", "Hupeh": "China: 3 infantry"},
                   **setup)
    to_mobilize(game)
    return game


@pytest.mark.rule("AA50-CHINA-placement")
def test_new_infantry_go_where_fewer_than_three_chinese_units_stood() -> None:
    game = placement_game()
    assert pool(game.state, CN) == {"infantry": 3}
    spaces = {a.space for a in game.legal_actions(power=CN) if isinstance(a, Place)}
    assert spaces == {"Chinghai", "Fukien", "Ningxia", "Sikang", "Suiyuan", "Yunnan"}  # not Hupeh (3 units)
    refused(game, CN, "AA50-CHINA-placement", type="place", units="1 infantry", space="Hupeh")
    refused(game, CN, "AA50-CHINA-placement", type="place", units="1 infantry", space="Burma")  # Japanese
    refused(game, CN, "AA50-CHINA-placement", type="place", units="1 infantry", space="India")  # British
    act(game, CN, type="place", units="2 infantry", space="Yunnan")  # no complex needed
    act(game, CN, type="place", units="1 infantry", space="Yunnan")  # Yunnan held 2 before placement began
    assert {s.unit: s.count for s in game.state.stacks("Yunnan") if s.owner == CN} == {"infantry": 5}
    assert pool(game.state, CN) == {}
    assert "AA50-CHINA-placement" in rules_logged(game)


@pytest.mark.rule("AA50-CHINA-placement")
def test_the_other_reading_places_at_most_three_per_territory() -> None:
    game = placement_game(owners={"Kiangsu": CN}, options={"china_placement": "three-per-territory"})
    assert pool(game.state, CN) == {"infantry": 4}
    act(game, CN, type="place", units="3 infantry", space="Hupeh")  # 3 there already: allowed in this reading
    refused(game, CN, "AA50-CHINA-placement", type="place", units="1 infantry", space="Hupeh")
    act(game, CN, type="place", units="1 infantry", space="Yunnan")


@pytest.mark.rule("AA50-CHINA-fighter", "AA50-CHINA-placement")
def test_china_places_only_what_it_received_and_never_a_fighter() -> None:
    game = placement_game()
    refused(game, CN, "LHTR-PURCHASE-units-wait-for-mobilize", type="place", units="1 fighter", space="Yunnan")
    refused(game, CN, "LHTR-PURCHASE-units-wait-for-mobilize", type="place", units="4 infantry", space="Yunnan")


# --- movement area ----------------------------------------------------------------------------------------------


@pytest.mark.rule("AA50-CHINA-movement-area")
def test_chinese_units_stay_in_the_area_and_off_transports() -> None:
    game = us_turn(clear=["SZ 61"], owners={"Burma": "United Kingdom"},
                   units={"SZ 61": "United States: 1 transport", "Fukien": "United States: 1 infantry"})
    reach(game, CN, "combat-move")
    refused(game, CN, "AA50-CHINA-movement-area", type="move", units="1 infantry",
            path=["Yunnan", "French Indo-China Thailand"])
    moves = [a for a in game.legal_actions(power=CN) if a.type == "move"]
    assert moves and all(set(a.path) <= AREA for a in moves)
    assert game.is_legal({"type": "move", "units": "1 infantry", "path": ["Hupeh", "Kiangsu"], "power": CN})
    reach(game, CN, "non-combat-move")
    reach(game, US, "non-combat-move")
    refused(game, CN, "AA50-CHINA-movement-area", type="move", units="1 infantry", path=["Yunnan", "Burma"])
    refused(game, CN, "AA50-CHINA-movement-area", type="load", units="1 infantry", territory="Fukien",
            sea_zone="SZ 61")
    refused(game, CN, "AA50-CHINA-movement-area", type="move", units="1 infantry", path=["Fukien", "SZ 61"])
    assert not [a for a in game.legal_actions(power=CN) if a.type == "load"]
    act(game, US, type="load", units="1 infantry", territory="Fukien", sea_zone="SZ 61")  # the US may


@pytest.mark.rule("AA50-CHINA-fighter", "AA50-CHINA-movement-area", "AA50-CHINA-capture-control",
                  "AA50-CHINA-placement")
def test_the_flying_tigers_attack_kiangsu_and_land_back_in_china() -> None:
    game = us_turn(clear=["Kiangsu"], units={"Kiangsu": "Japan: 1 infantry", "Hupeh": "China: 2 infantry"},
                   dice=[6, 6, 1, 6])
    reach(game, CN, "combat-move")
    refused(game, CN, "AA50-CHINA-movement-area", type="move", units="1 fighter", path=["Yunnan", "Burma"])
    act(game, CN, type="move", units="2 infantry", path=["Hupeh", "Kiangsu"])
    hupeh = {"type": "move", "units": "1 fighter", "path": ["Yunnan", "Hupeh", "Kiangsu"], "power": CN}
    assert game.is_legal(hupeh)
    act(game, CN, type="move", units="1 fighter", path=["Yunnan", "Hupeh", "Kiangsu"])
    reach(game, CN, "conduct-combat")
    act(game, CN, type="fight", space="Kiangsu")  # infantry 6, 6 miss; the fighter hits; Japan misses
    assert game.state.owners["Kiangsu"] == CN  # originally Chinese: China takes it
    reach(game, CN, "non-combat-move")
    reach(game, US, "non-combat-move")
    refused(game, CN, "AA50-CHINA-movement-area", type="move", units="1 fighter",
            path=["Kiangsu", "SZ 61", "Fukien"])
    act(game, CN, type="move", units="1 fighter", path=["Kiangsu", "Hupeh", "Yunnan"])
    reach(game, CN, "mobilize")
    act(game, CN, type="place", units="3 infantry", space="Kiangsu")  # taken this turn; 2 Chinese units there


@pytest.mark.rule("AA50-CHINA-fighter")
def test_the_chinese_fighter_must_keep_a_landing_spot_in_china() -> None:
    """With Yunnan the only Chinese territory left, the fighter may attack Suiyuan (2 moves back to Yunnan) but
    not Manchuria: from there its last move reaches only Japanese territories in China (the Soviet Buryatia next
    door is outside its area)."""
    game = us_turn(owners={t: "Japan" for t in START if t != "Yunnan"}, clear=["Hupeh", "Suiyuan"],
                   units={"Suiyuan": "Japan: 1 infantry"})
    reach(game, CN, "combat-move")
    refused(game, CN, "AA50-CHINA-fighter", type="move", units="1 fighter",
            path=["Yunnan", "Hupeh", "Suiyuan", "Manchuria"])
    assert game.is_legal({"type": "move", "units": "1 fighter", "path": ["Yunnan", "Hupeh", "Suiyuan"], "power": CN})


# --- control ----------------------------------------------------------------------------------------------------


@pytest.mark.rule("AA50-CHINA-capture-control")
@pytest.mark.parametrize("london", ["United Kingdom", "Germany"])
def test_kwangtung_taken_by_china_goes_to_the_united_kingdom(london: str) -> None:
    game = us_turn(clear=["Kwangtung", "Fukien"], owners={"United Kingdom": london},
                   units={"Kwangtung": "Japan: 1 infantry", "Fukien": "China: 3 infantry"}, dice=[1, 1, 1, 6])
    attack(game, CN, "3 infantry", "Fukien", "Kwangtung")
    assert game.state.owners["Kwangtung"] == "United Kingdom"
    assert {s.owner for s in game.state.stacks("Kwangtung")} == {CN}  # China occupies it
    changes = [e for entry in game.log.entries for e in entry.events if isinstance(e, ControlChanged)]
    assert [(e.space, e.owner, e.rule_id) for e in changes] == [
        ("Kwangtung", "United Kingdom", "AA50-CHINA-capture-control")]


@pytest.mark.rule("AA50-CHINA-capture-control")
@pytest.mark.parametrize(("territory", "liberator"), [
    ("Manchuria", "Soviet Union"), ("Kiangsu", "United Kingdom"), ("Hupeh", US)])
def test_chinese_territories_liberated_by_an_ally_return_to_china(territory: str, liberator: str) -> None:
    game = scenario(RULES, nation=liberator, phase="conduct-combat", owners={territory: "Japan"})
    events = capture_territory_events(game.state, game.ruleset, territory, liberator)
    assert [(e.space, e.owner) for e in events if isinstance(e, ControlChanged)] == [(territory, CN)]


@pytest.mark.rule("AA50-CHINA-capture-control", "AA50-CHINA-reinforcements")
def test_china_starts_without_manchuria_and_kiangsu_but_they_are_originally_chinese() -> None:
    game = us_turn()
    assert owned(game, CN) == START
    spaces = game.ruleset.board.spaces
    assert spaces["Manchuria"].owner == CN and spaces["Kiangsu"].owner == CN
    assert spaces["Kwangtung"].owner == "United Kingdom"


@pytest.mark.rule("AA50-CHINA-capture-control")
def test_a_complex_in_a_liberated_chinese_territory_becomes_chinese() -> None:
    game = scenario(RULES, nation=US, phase="conduct-combat", owners={"Kiangsu": "Japan"}, clear=["Kiangsu"],
                    units={"Kiangsu": "Japan: 1 factory"})
    events = capture_territory_events(game.state, game.ruleset, "Kiangsu", US)
    after = apply_events(game.state, events)
    assert after.owners["Kiangsu"] == CN
    assert [(s.owner, s.unit) for s in after.stacks("Kiangsu")] == [(CN, "factory")]


# --- allied units -----------------------------------------------------------------------------------------------


@pytest.mark.rule("AA50-CHINA-allied-units-in-china", "AA50-CHINA-separate-power-us-player")
def test_us_units_enter_china_without_changing_control() -> None:
    game = us_turn(units={"Hupeh": "United States: 1 fighter", "Sikang": "United States: 1 infantry"})
    reach(game, CN, "non-combat-move")
    reach(game, US, "non-combat-move")
    act(game, US, type="move", units="1 fighter", path=["Hupeh", "Yunnan"])
    act(game, US, type="move", units="1 infantry", path=["Sikang", "Yunnan"])
    assert game.state.owners["Yunnan"] == CN
    assert {s.owner for s in game.state.stacks("Yunnan")} == {US, CN}
    reach(game, US, "collect-income")
    assert game.state.owners["Yunnan"] == CN


# --- the team turn ----------------------------------------------------------------------------------------------


def combat_game(dice: list[int]) -> Game:
    return us_turn(clear=["Kiangsu", "Burma"],
                   units={"Kiangsu": "Japan: 1 infantry", "Burma": "Japan: 1 infantry", "Hupeh": "China: 2 infantry",
                          "Sikang": "United States: 1 fighter"}, dice=dice)


@pytest.mark.rule("AA50-CHINA-separate-power-us-player", "AA50-CHINA-turn-with-us")
def test_us_and_chinese_units_never_attack_together() -> None:
    game = combat_game([])
    reach(game, CN, "combat-move")
    reach(game, US, "combat-move")
    act(game, CN, type="move", units="3 infantry", path=["Hupeh", "Kiangsu"])
    refused(game, US, "AA50-CHINA-separate-power-us-player", type="move", units="1 fighter",
            path=["Sikang", "Hupeh", "Kiangsu"])
    refused(game, US, "AA50-CHINA-turn-with-us", type="move", units="1 fighter", path=["Sikang", "Yunnan", "Burma"])
    assert [a.type for a in game.legal_actions(power=US)] == ["end_phase"]


@pytest.mark.rule("AA50-CHINA-turn-with-us")
def test_china_may_fight_first_then_the_us_and_non_combat_move_waits_for_both() -> None:
    game = combat_game([1, 1, 1, 6, 1, 6])
    attack(game, CN, "3 infantry", "Hupeh", "Kiangsu")
    assert game.state.owners["Kiangsu"] == CN
    reach(game, CN, "non-combat-move")
    assert game.state.members[CN]["status"] == "waiting"  # non-combat move is made together
    assert game.to_act() == [US]
    attack(game, US, "1 fighter", "Sikang", "Yunnan", "Burma")  # China's combat is over
    reach(game, US, "non-combat-move")
    assert {m["status"] for m in game.state.members.values()} == {"acting"}


@pytest.mark.rule("AA50-CHINA-turn-with-us")
def test_the_us_may_fight_first_while_china_waits() -> None:
    game = combat_game([1, 6, 1, 1, 1, 6])
    reach(game, US, "combat-move")
    reach(game, CN, "combat-move")
    act(game, US, type="move", units="1 fighter", path=["Sikang", "Yunnan", "Burma"])
    refused(game, CN, "AA50-CHINA-turn-with-us", type="move", units="3 infantry", path=["Hupeh", "Kiangsu"])
    reach(game, US, "conduct-combat")
    refused(game, CN, "AA50-CHINA-turn-with-us", type="move", units="3 infantry", path=["Hupeh", "Kiangsu"])
    act(game, US, type="fight", space="Burma")  # the fighter hits, Japan misses
    reach(game, US, "non-combat-move")
    assert game.state.members[US]["status"] == "waiting"
    act(game, CN, type="move", units="3 infantry", path=["Hupeh", "Kiangsu"])  # now China fights
    reach(game, CN, "conduct-combat")
    act(game, CN, type="fight", space="Kiangsu")
    assert game.state.owners["Kiangsu"] == CN and game.state.owners["Burma"] == "Japan"
