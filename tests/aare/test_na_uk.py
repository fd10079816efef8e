"""The United Kingdom's national advantages (AARE-NA-UK-*): Colonial Garrison, The Commonwealth, Radar, Royal Navy,
Royal Air Force, UK Lend-Lease."""

from __future__ import annotations

from typing import Any

import pytest

from aare.combat.board_battle import build_battle
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import DiceRolled
from aare.movement.battles import BattleSite
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, count_units
from tests.aare.common import GER, JPN, RULES, UK, US, battle, one_cycle, rolls, units


def declared(*ids: str, power: str = UK, round_: int = 1, phase: str = "develop-weapons") -> dict[str, Any]:
    return {"advantages": {"declared": {power: [{"id": i, "round": round_, "phase": phase, "delayed": False}
                                                for i in ids]}}}


def to_phase(game: Game, phase: str) -> None:
    while game.state.phase != phase:
        game.apply({"type": "end_phase"})


def end_turn(game: Game) -> None:
    nation = game.state.nation
    while game.state.nation == nation:
        game.apply({"type": "end_phase"})


def rule_of(game: Game, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    return err.value.rule_id


def have(game: Game, space: str, power: str = UK) -> dict[str, int]:
    return count_units(game.state.stacks(space), power)


def offered(game: Game, kind: str) -> list[dict[str, Any]]:
    return [a.to_json() for a in game.legal_actions() if a.type == kind]


def free(adv: str, units_: str, space: str) -> dict[str, Any]:
    return {"type": "place_free", "advantage": adv, "units": units_, "space": space}


def declare_then_mobilize(adv: str, **kwargs: Any) -> Game:
    game = scenario(RULES, nation=UK, phase="develop-weapons", round=1, **kwargs)
    game.apply({"type": "declare_advantage", "advantage": adv})
    to_phase(game, "mobilize")
    return game


# ---------------------------------------------------------------- Colonial Garrison, The Commonwealth


@pytest.mark.rule("AARE-NA-UK-cg-free-ic-inf")
def test_colonial_garrison_complex_and_infantry_together() -> None:
    game = declare_then_mobilize("colonial_garrison")
    spaces = {a["space"] for a in offered(game, "place_free")}
    assert spaces == {"Eastern Canada", "Anglo Egypt", "Union of South Africa", "India", "Australia"}
    game.apply(free("colonial_garrison", "1 factory", "Anglo Egypt"))
    assert rule_of(game, free("colonial_garrison", "1 infantry", "Australia")) == "AARE-NA-UK-cg-free-ic-inf"
    game.apply(free("colonial_garrison", "1 infantry", "Anglo Egypt"))
    assert have(game, "Anglo Egypt")["factory"] == 1


@pytest.mark.rule("AARE-NA-UK-cg-free-ic-inf")
def test_colonial_garrison_not_where_a_complex_stands() -> None:
    game = declare_then_mobilize("colonial_garrison", units={"India": "United Kingdom: 1 factory"})
    assert rule_of(game, free("colonial_garrison", "1 factory", "India")) == "LHTR-MOBILIZE-new-complex-placement"


@pytest.mark.rule("AARE-NA-UK-cg-new-ic-idle")
def test_colonial_garrison_complex_builds_from_the_next_turn() -> None:
    game = scenario(RULES, nation=UK, phase="develop-weapons", round=2, extra=declared("radar"))
    game.apply({"type": "declare_advantage", "advantage": "colonial_garrison"})
    to_phase(game, "purchase")
    game.apply({"type": "purchase", "units": "1 infantry"})
    to_phase(game, "mobilize")
    game.apply(free("colonial_garrison", "1 factory", "Union of South Africa"))
    game.apply(free("colonial_garrison", "1 infantry", "Union of South Africa"))
    place = {"type": "place", "units": "1 infantry", "space": "Union of South Africa"}
    with pytest.raises(IllegalAction):
        game.apply(place)
    game.apply({"type": "place", "units": "1 infantry", "space": "United Kingdom"})
    for _ in range(5):
        end_turn(game)
    assert game.state.nation == UK and game.state.round == 3
    to_phase(game, "purchase")
    game.apply({"type": "purchase", "units": "1 infantry"})
    to_phase(game, "mobilize")
    game.apply(place)
    assert have(game, "Union of South Africa")["infantry"] >= 2


@pytest.mark.rule("AARE-NA-UK-cw-free-inf")
def test_commonwealth_one_infantry_every_turn() -> None:
    game = scenario(RULES, nation=UK, phase="non-combat-move", round=3, extra=declared("commonwealth"))
    before = have(game, "Anglo Egypt").get("infantry", 0)
    to_phase(game, "mobilize")
    game.apply(free("commonwealth", "1 infantry", "Anglo Egypt"))
    assert have(game, "Anglo Egypt")["infantry"] == before + 1
    assert offered(game, "place_free") == []
    lost = {t: JPN for t in ("Eastern Canada", "Anglo Egypt", "Union of South Africa", "India", "Australia")}
    none = scenario(RULES, nation=UK, phase="non-combat-move", round=3, extra=declared("commonwealth"), owners=lost,
                    clear=list(lost))
    to_phase(none, "mobilize")
    assert offered(none, "place_free") == []


# ---------------------------------------------------------------- Radar


@pytest.mark.rule("AARE-NA-UK-radar-free-aa")
def test_radar_free_aa_gun() -> None:
    game = declare_then_mobilize("radar")
    assert "United Kingdom" in {a["space"] for a in offered(game, "place_free")}
    before = have(game, "Anglo Egypt").get("aa_gun", 0)
    game.apply(free("radar", "1 aa gun", "Anglo Egypt"))
    assert have(game, "Anglo Egypt")["aa_gun"] == before + 1


def raid_aa(space: str, owners: dict[str, str] | None = None, techs: frozenset[str] = frozenset()) -> int:
    """What AA fire hits a German bomber raiding `space` on, with a UK AA gun there and Radar declared."""
    game = scenario(RULES, nation=GER, phase="conduct-combat", round=2, extra=declared("radar"), owners=owners)
    site = BattleSite(space, "bombing", GER, (Stack(GER, "bomber", 1),),
                      {UK: (Stack(UK, "aa_gun", 1), Stack(UK, "factory", 1))})
    b = build_battle(game.state, game.ruleset, site)
    _, events = one_cycle(b, [6, 6])
    return next(r.hit_on for r in rolls(events, "aa fire"))


@pytest.mark.rule("AARE-NA-UK-radar-aa-2")
def test_radar_aa_guns_in_tan_territories_hit_on_2() -> None:
    assert raid_aa("United Kingdom") == 2
    assert raid_aa("Norway", owners={"Norway": UK}) == 1  # captured, not tan
    b = battle("2 fighter, 1 infantry", "1 infantry", "land", defender_aa=True, defender_techs={"na:radar"})
    _, events = one_cycle(b, [6, 6, 6, 6, 6, 6])
    assert next((r.step, r.hit_on) for r in rolls(events)) == ("aa fire", 2)
    jets = battle("2 fighter, 1 infantry", "1 infantry", "land", defender_aa=True, defender_techs={"na:radar"},
                  attacker_techs={"jet_fighters"})
    _, events = one_cycle(jets, [6, 6, 6, 6, 6, 6])
    assert next((r.step, r.hit_on) for r in rolls(events)) == ("aa fire", 1)  # jets take 1 off


@pytest.mark.rule("AARE-NA-UK-radar-ca-bb-2")
def test_radar_combined_arms_battleships_aa_on_2() -> None:
    techs = {"combined_bombardment", "na:radar"}
    b = battle(units(JPN, fighter=2), units(UK, battleship=1), "sea", defender_techs=techs)
    _, events = one_cycle(b, [6, 6, 6, 6, 6])
    assert next((r.step, r.hit_on) for r in rolls(events)) == ("battleship aa", 2)
    plain = battle(units(JPN, fighter=2), units(UK, battleship=1), "sea", defender_techs={"combined_bombardment"})
    _, events = one_cycle(plain, [6, 6, 6, 6, 6])
    assert next((r.step, r.hit_on) for r in rolls(events)) == ("battleship aa", 1)
    game = scenario(RULES, nation=JPN, phase="conduct-combat", round=2, extra=declared("radar"))
    site = BattleSite("SZ 35", "sea", JPN, (Stack(JPN, "fighter", 1),), {UK: (Stack(UK, "battleship", 1),)})
    assert "na:radar" in build_battle(game.state, game.ruleset, site).setup.owner_techs[UK]  # any sea zone


def rocket_game(dice: list[int]) -> Game:
    return scenario(RULES, nation=GER, phase="conduct-combat", round=2, techs={GER: ["rockets"]},
                    extra=declared("radar"), dice=dice)


@pytest.mark.rule("AARE-NA-UK-radar-rocket-defense")
def test_radar_aa_shoots_down_a_rocket_on_2() -> None:
    game = rocket_game([2])
    bank = game.state.banks[UK]
    events = game.apply({"type": "rocket", "launcher": "Western Europe", "target": "United Kingdom"})
    assert next(e.purpose for e in events if isinstance(e, DiceRolled)).startswith(
        "rocket at United Kingdom: radar rocket defence")
    assert game.state.banks[UK] == bank
    game = rocket_game([3, 5])
    game.apply({"type": "rocket", "launcher": "Western Europe", "target": "United Kingdom"})
    assert game.state.banks[UK] == bank - 5


@pytest.mark.rule("AARE-NA-UK-radar-tech-grant")
def test_radar_grant_is_for_research_only() -> None:
    game = scenario(RULES, nation=UK, phase="develop-weapons", round=1, banks={UK: 30})
    game.apply({"type": "declare_advantage", "advantage": "radar"})
    assert game.state.banks[UK] == 30 and game.state.extra["research_funds"] == {"radar": 8}
    to_phase(game, "purchase")
    assert rule_of(game, {"type": "purchase", "units": "1 fighter, 7 infantry"}) == "LHTR-PURCHASE-budget"  # 31


@pytest.mark.rule("AARE-NA-UK-radar-tech-four-rolls", "AARE-NA-UK-radar-tech-grant")
def test_radar_four_rolls_develop_the_chosen_tech() -> None:
    game = scenario(RULES, nation=UK, phase="develop-weapons", round=1, banks={UK: 30}, dice=[])
    game.apply({"type": "declare_advantage", "advantage": "radar"})
    game.apply({"type": "research", "dice": 4, "tech": "jet_fighters"})  # 16: 8 of the grant, 8 own
    assert game.state.banks[UK] == 22
    assert "jet_fighters" in game.state.extra.get("tech_pending", {}).get(UK, [])
    assert "research_funds" not in game.state.extra or not game.state.extra["research_funds"].get("radar")
    assert game.state.extra["radar"]["tech"] == "jet_fighters"


@pytest.mark.rule("AARE-NA-UK-radar-tech-four-rolls")
def test_radar_benefit_is_tied_to_one_tech() -> None:
    extra = {**declared("radar"), "radar": {"tech": "combined_bombardment", "round": 1},
             "research_funds": {"radar": 8}}
    game = scenario(RULES, nation=UK, phase="develop-weapons", round=2, banks={UK: 30}, extra=extra, dice=[1, 1, 1, 1])
    game.apply({"type": "research", "dice": 4, "tech": "jet_fighters"})  # rolled, not automatic; own IPCs
    assert game.state.banks[UK] == 14 and game.state.extra["research_funds"] == {"radar": 8}
    assert "jet_fighters" not in game.state.extra.get("tech_pending", {}).get(UK, [])


@pytest.mark.rule("AARE-NA-UK-radar-grant-carryover")
def test_radar_grant_carries_over_still_restricted() -> None:
    game = scenario(RULES, nation=UK, phase="develop-weapons", round=2, banks={UK: 30},
                    extra=declared("royal_navy"))
    game.apply({"type": "declare_advantage", "advantage": "radar"})
    end_turn(game)
    for _ in range(4):
        end_turn(game)
    assert (game.state.round, game.state.nation) == (3, UK)
    assert game.state.extra["research_funds"] == {"radar": 8}
    bank = game.state.banks[UK]
    game.apply({"type": "research", "dice": 4, "tech": "combined_bombardment"})
    assert game.state.banks[UK] == bank - 8


# ---------------------------------------------------------------- Royal Navy, Royal Air Force


@pytest.mark.rule("AARE-NA-UK-rn-free-dd")
def test_royal_navy_destroyer_off_a_held_territory_even_among_enemies() -> None:
    game = declare_then_mobilize("royal_navy", units={"SZ 2": "Germany: 1 submarine"},
                                 owners={"Australia": JPN}, clear=["Australia", "SZ 2"])
    action = {"type": "place_free", "advantage": "royal_navy", "units": "1 destroyer"}
    assert rule_of(game, {**action, "space": "SZ 39"}) == "AARE-NA-DEPLOY-free-unit-conditions"  # off Australia
    assert rule_of(game, {**action, "space": "SZ 12"}) == "AARE-NA-UK-rn-free-dd"
    game.apply({**action, "space": "SZ 2"})
    assert have(game, "SZ 2")["destroyer"] >= 1


@pytest.mark.rule("AARE-NA-UK-rn-free-dd")
def test_royal_navy_coast_table_matches_the_board() -> None:
    from aare.rules.ruleset import load_ruleset
    from aare.rulesets.aare.advantages.united_kingdom import COAST, HOME_AND_COLONIES

    board = load_ruleset(RULES).board
    expected = {z: t for t in HOME_AND_COLONIES for z in board.spaces[t].neighbors if board.spaces[z].is_sea}
    assert expected == COAST


@pytest.mark.rule("AARE-NA-UK-rn-dd-discount", "AARE-NA-UK-raf-ftr-discount")
def test_uk_destroyers_and_fighters_cost_9() -> None:
    game = scenario(RULES, nation=UK, phase="purchase", round=2, banks={UK: 36},
                    extra=declared("royal_navy", "royal_air_force"))
    game.apply({"type": "purchase", "units": "2 destroyer, 2 fighter"})
    assert game.state.banks[UK] == 0


@pytest.mark.rule("AARE-NA-UK-raf-free-ftr")
def test_royal_air_force_fighter_on_land_or_a_carrier_with_room() -> None:
    game = declare_then_mobilize("royal_air_force", units={"SZ 35": "United Kingdom: 1 carrier"}, clear=["SZ 35"])
    action = {"type": "place_free", "advantage": "royal_air_force", "units": "1 fighter"}
    game.apply({**action, "space": "SZ 35"})  # next to India
    assert have(game, "SZ 35")["fighter"] == 1
    full = declare_then_mobilize("royal_air_force", units={"SZ 35": "United Kingdom: 1 carrier, 2 fighter"},
                                 clear=["SZ 35"])
    assert rule_of(full, {**action, "space": "SZ 35"}) == "AARE-NA-UK-raf-free-ftr"
    assert rule_of(full, {**action, "space": "SZ 39"}) == "AARE-NA-UK-raf-free-ftr"  # no carrier there
    full.apply({**action, "space": "India"})


# ---------------------------------------------------------------- UK Lend-Lease


@pytest.mark.rule("AARE-NA-UK-ll-bonus-5")
def test_uk_lend_lease_grant_of_5() -> None:
    game = scenario(RULES, nation=UK, phase="develop-weapons", round=1, banks={UK: 30})
    game.apply({"type": "declare_advantage", "advantage": "uk_lend_lease"})
    assert game.state.banks[UK] == 35


def lend_lease(phase: str = "mobilize", **kwargs: Any) -> Game:
    return scenario(RULES, nation=UK, phase=phase, round=2, extra=declared("uk_lend_lease"), **kwargs)


def convert(units_: str, space: str) -> dict[str, Any]:
    return {"type": "convert", "units": units_, "owner": US, "space": space}


@pytest.mark.rule("AARE-NA-UK-ll-convert-units")
def test_us_units_in_listed_territories_become_uk_units() -> None:
    game = lend_lease(units={"Anglo Egypt": "United States: 1 armour, 1 infantry",
                             "Persia": "United States: 1 infantry"})
    before = have(game, "Anglo Egypt")
    game.apply(convert("1 armour, 1 infantry", "Anglo Egypt"))
    after = have(game, "Anglo Egypt")
    assert after["armour"] == before.get("armour", 0) + 1 and after["infantry"] == before.get("infantry", 0) + 1
    assert have(game, "Anglo Egypt", US) == {}
    assert rule_of(game, convert("1 infantry", "Persia")) == "AARE-NA-UK-ll-convert-units"


@pytest.mark.rule("AARE-NA-UK-ll-convert-sea")
def test_us_ships_and_cargo_next_to_held_territories() -> None:
    game = lend_lease(units={"SZ 35": "United States: 1 destroyer", "SZ 40": "United States: 1 destroyer"},
                      owners={"Australia": JPN}, clear=["Australia", "SZ 35"])
    game.apply(convert("1 destroyer", "SZ 35"))
    assert have(game, "SZ 35").get("destroyer") == 1 and have(game, "SZ 35", US) == {}
    assert rule_of(game, convert("1 destroyer", "SZ 40")) == "AARE-NA-UK-ll-convert-sea"


@pytest.mark.rule("AARE-NA-UK-ll-convert-sea")
def test_us_infantry_aboard_a_transport_is_converted_aboard() -> None:
    from aare.movement import flags

    game = lend_lease()
    boat = flags.with_cargo(Stack(US, "transport", 1), [(US, "infantry")])
    game.log.state = game.state.with_stacks("SZ 9", (*game.state.stacks("SZ 9"), boat))
    game.apply(convert("1 infantry", "SZ 9"))
    transport = next(s for s in game.state.stacks("SZ 9") if s.unit == "transport" and s.owner == US)
    assert flags.cargo(transport) == ((UK, "infantry"),)


@pytest.mark.rule("AARE-NA-UK-ll-convert-loses-bonuses")
def test_converted_infantry_loses_mechanized_infantry() -> None:
    from aare.movement.pathing import allowance
    from aare.movement.situation import situation

    extra = {"advantages": {"declared": {
        UK: [{"id": "uk_lend_lease", "round": 1, "phase": "develop-weapons", "delayed": False}],
        US: [{"id": "mechanized_infantry", "round": 1, "phase": "develop-weapons", "delayed": False}]}}}
    game = scenario(RULES, nation=UK, phase="mobilize", round=2, extra=extra,
                    units={"Anglo Egypt": "United States: 1 infantry"})
    game.apply(convert("1 infantry", "Anglo Egypt"))
    converted = [s for s in game.state.stacks("Anglo Egypt") if s.unit == "infantry"]
    assert all(s.owner == UK and not s.flags for s in converted)
    view = situation(game.state, game.ruleset)
    assert allowance(view, game.ruleset.units["infantry"], UK) == 1


@pytest.mark.rule("AARE-NA-UK-ll-convert-base-cost")
def test_conversion_counts_the_base_price() -> None:
    extra = {"advantages": {"declared": {
        UK: [{"id": "uk_lend_lease", "round": 1, "phase": "develop-weapons", "delayed": False}],
        US: [{"id": "naval_industry", "round": 1, "phase": "develop-weapons", "delayed": False}]}}}
    game = scenario(RULES, nation=UK, phase="mobilize", round=2, extra=extra,
                    units={"SZ 9": "United States: 1 transport"})
    game.apply(convert("1 transport", "SZ 9"))
    assert game.state.extra["lend_lease"][UK]["converted"] == 8


@pytest.mark.rule("AARE-NA-UK-ll-cash-loan")
def test_us_lends_the_uk_up_to_2() -> None:
    game = lend_lease("purchase", banks={UK: 10, US: 20})
    assert rule_of(game, {"type": "lend", "lender": US, "amount": 3}) == "AARE-NA-UK-ll-cash-loan"
    assert rule_of(game, {"type": "lend", "lender": "Russia", "amount": 1}) == "AARE-NA-UK-ll-cash-loan"
    game.apply({"type": "lend", "lender": US, "amount": 2})
    assert (game.state.banks[UK], game.state.banks[US]) == (12, 18)
    assert rule_of(game, {"type": "lend", "lender": US, "amount": 1}) == "AARE-NA-UK-ll-cash-loan"


@pytest.mark.rule("AARE-NA-UK-ll-total-cap-12")
def test_loan_and_conversions_come_to_12() -> None:
    from aare.movement import flags

    game = lend_lease("purchase", banks={US: 20}, units={"SZ 9": "United States: 1 destroyer"})
    boat = flags.with_cargo(Stack(US, "transport", 1), [(US, "infantry")])
    game.log.state = game.state.with_stacks("SZ 9", (*game.state.stacks("SZ 9"), boat))
    game.apply({"type": "lend", "lender": US, "amount": 2})
    to_phase(game, "mobilize")
    assert rule_of(game, convert("1 destroyer, 1 infantry", "SZ 9")) == "AARE-NA-UK-ll-total-cap-12"  # 2 + 13
    game.apply(convert("1 destroyer", "SZ 9"))  # 2 + 10 = 12
    assert rule_of(game, convert("1 infantry", "SZ 9")) == "AARE-NA-UK-ll-total-cap-12"
