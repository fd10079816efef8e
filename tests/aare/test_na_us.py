"""The United States' national advantages (AARE-NA-US-*): Mechanized Infantry, Pacific Divisions, Marines, Naval
Industry, Reinforced Carriers, Tech Investment; and national advantages in the battle calculator."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.battle_state import UnitKey
from aare.combat.board_battle import build_battle
from aare.combat.values import main_fire_groups
from aare.dice import ScriptedDice
from aare.economy.tech import pending
from aare.engine import Game
from aare.errors import IllegalAction
from aare.movement.battles import pending_battles
from aare.odds import odds
from aare.rulesets.aare.advantages.battle_tags import with_tag
from aare.rulesets.aare.advantages.research_funds import funds_left
from aare.scenario import scenario
from aare.state.unit_stacks import count_units
from tests.aare.common import GER, JPN, RULES, UK, US, battle, one_cycle, position, present, units

MARINES = "na:marines"
CARRIERS = "na:reinforced_carriers"


def na(*ids: str, power: str = US, round_: int = 1) -> dict[str, Any]:
    entries = [{"id": i, "round": round_, "phase": "develop-weapons", "delayed": False} for i in ids]
    return {"advantages": {"declared": {power: entries}}}


def rule_of(game: Game, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    return err.value.rule_id


def move(game: Game, units_text: str, *path: str) -> None:
    game.apply({"type": "move", "units": units_text, "path": list(path)})


def to_phase(game: Game, phase: str) -> None:
    while game.state.phase != phase:
        game.apply({"type": "end_phase"})


def infantry(game: Game, space: str, power: str = US) -> int:
    return count_units(game.state.stacks(space), power).get("infantry", 0)


def free(game: Game, adv: str, units_text: str, space: str) -> None:
    game.apply({"type": "place_free", "advantage": adv, "units": units_text, "space": space})


def fire(game: Game, space: str, side: str) -> list[tuple[str, int, int]]:
    site = next(s for s in pending_battles(game.state, game.ruleset) if s.space == space)
    b = build_battle(game.state, game.ruleset, site)
    return sorted((g.unit, g.hit_on, g.count) for g in main_fire_groups(b, side))  # type: ignore[arg-type]


# --- Mechanized Infantry ---------------------------------------------------------------------------------------


@pytest.mark.rule("AARE-NA-US-mech-free-inf")
def test_mechanized_infantry_places_2_infantry_in_one_mainland_territory() -> None:
    game = scenario(RULES, nation=US, phase="develop-weapons")
    game.apply({"type": "declare_advantage", "advantage": "mechanized_infantry"})
    to_phase(game, "mobilize")
    before = infantry(game, "Central United States")
    free(game, "mechanized_infantry", "1 infantry", "Central United States")
    with pytest.raises(IllegalAction) as err:
        free(game, "mechanized_infantry", "1 infantry", "Western United States")
    assert err.value.rule_id == "AARE-NA-US-mech-free-inf"
    free(game, "mechanized_infantry", "1 infantry", "Central United States")
    assert infantry(game, "Central United States") == before + 2


@pytest.mark.rule("AARE-NA-US-mech-move-2")
def test_us_infantry_move_2() -> None:
    placed = {"Eastern United States": "United States: 2 infantry"}
    game = position(US, "non-combat-move", placed, extra=na("mechanized_infantry"))
    move(game, "1 infantry", "Eastern United States", "Central United States", "Western United States")
    assert infantry(game, "Western United States") == 1
    three = {"type": "move", "units": "1 infantry",
             "path": ["Eastern United States", "Central United States", "Western United States", "Western Canada"]}
    assert rule_of(game, three) == "LHTR-LANDMOVE-movement-allowance"
    plain = position(US, "non-combat-move", placed, extra=na("naval_industry"))
    two = {"type": "move", "units": "1 infantry",
           "path": ["Eastern United States", "Central United States", "Western United States"]}
    assert rule_of(plain, two) == "LHTR-LANDMOVE-movement-allowance"
    others = position(UK, "non-combat-move", {"Eastern Canada": "United Kingdom: 1 infantry"},
                      extra=na("mechanized_infantry"))
    two_uk = {"type": "move", "units": "1 infantry", "path": ["Eastern Canada", "Western Canada", "Alaska"]}
    assert rule_of(others, two_uk) == "LHTR-LANDMOVE-movement-allowance"


@pytest.mark.rule("AARE-NA-US-mech-blitz")
def test_us_infantry_blitz_through_empty_enemy_territory() -> None:
    placed = {"China": "United States: 2 infantry", "French Indochina": "Japan: 1 infantry"}
    game = position(US, "combat-move", placed, extra=na("mechanized_infantry"))
    assert game.state.owners["Kwangtung"] == JPN
    move(game, "1 infantry", "China", "Kwangtung", "French Indochina")
    assert game.state.owners["Kwangtung"] == US  # taken by blitz
    assert infantry(game, "French Indochina") == 1
    blocked = position(US, "combat-move", {**placed, "Kwangtung": "Japan: 1 infantry"}, extra=na("mechanized_infantry"))
    through = {"type": "move", "units": "1 infantry", "path": ["China", "Kwangtung", "French Indochina"]}
    assert rule_of(blocked, through) == "LHTR-LANDMOVE-stop-in-enemy-territory"
    plain = position(US, "combat-move", placed, extra=na("naval_industry"))
    assert not plain.is_legal(through)


# --- Pacific Divisions -----------------------------------------------------------------------------------------


@pytest.mark.rule("AARE-NA-US-pd-free-inf")
def test_pacific_divisions_one_infantry_every_turn() -> None:
    game = scenario(RULES, nation=US, phase="non-combat-move", round=2, extra=na("pacific_divisions"))
    before = infantry(game, "China")
    for _ in range(2):
        to_phase(game, "mobilize")
        places = {a.to_json()["space"] for a in game.legal_actions() if a.type == "place_free"}
        assert "China" in places and "Kwangtung" not in places  # Kwangtung is Japanese
        free(game, "pacific_divisions", "1 infantry", "China")
        while game.state.nation != US or game.state.phase != "non-combat-move":
            game.apply({"type": "end_phase"})
    assert infantry(game, "China") == before + 2
    lost = {t: JPN for t in ("Sinkiang", "China", "Alaska", "Hawaiian Islands", "Western United States")}
    none = scenario(RULES, nation=US, phase="non-combat-move", round=2, extra=na("pacific_divisions"), owners=lost)
    to_phase(none, "mobilize")
    assert [a for a in none.legal_actions() if a.type == "place_free"] == []


# --- Marines ---------------------------------------------------------------------------------------------------


@pytest.mark.rule("AARE-NA-US-mar-free-trn")
def test_marines_free_transport_off_eastern_or_western_us() -> None:
    game = scenario(RULES, nation=US, phase="develop-weapons", owners={"Eastern United States": JPN})
    game.apply({"type": "declare_advantage", "advantage": "marines"})
    to_phase(game, "mobilize")
    seas = {a.to_json()["space"] for a in game.legal_actions() if a.type == "place_free"
            and "transport" in a.to_json()["units"]}
    assert seas == {"SZ 54", "SZ 55"}  # SZ 10 is off Eastern US, which is not US-held
    assert rule_of(game, {"type": "place_free", "advantage": "marines", "units": "1 transport", "space": "SZ 10"}) \
        == "AARE-NA-DEPLOY-free-unit-conditions"
    before = count_units(game.state.stacks("SZ 54"), US).get("transport", 0)
    free(game, "marines", "1 transport", "SZ 54")
    assert count_units(game.state.stacks("SZ 54"), US)["transport"] == before + 1


@pytest.mark.rule("AARE-NA-US-mar-free-inf")
def test_marines_free_infantry_may_be_split() -> None:
    game = scenario(RULES, nation=US, phase="develop-weapons")
    game.apply({"type": "declare_advantage", "advantage": "marines"})
    to_phase(game, "mobilize")
    alaska, hawaii = infantry(game, "Alaska"), infantry(game, "Hawaiian Islands")
    free(game, "marines", "1 infantry", "Alaska")
    free(game, "marines", "1 infantry", "Hawaiian Islands")
    assert (infantry(game, "Alaska"), infantry(game, "Hawaiian Islands")) == (alaska + 1, hawaii + 1)


@pytest.mark.rule("AARE-NA-US-mar-amphib-attack-2")
def test_marines_attack_at_2_in_the_first_cycle_of_an_assault() -> None:
    b = battle(units(US, infantry=2), units(JPN, infantry=2), "amphibious", attacker_techs={MARINES})
    assert sorted((g.unit, g.hit_on, g.count) for g in main_fire_groups(b, "attacker")) == [("infantry", 2, 2)]
    b, _ = one_cycle(b, [2, 3, 6, 6])  # the first marine hits on its 2, the second misses on 3; Japan misses
    assert present(b, "defender") == {"infantry": 1}
    assert sorted((g.unit, g.hit_on, g.count) for g in main_fire_groups(b, "attacker")) == [("infantry", 1, 2)]
    b, _ = one_cycle(b, [2, 2, 6])  # cycle 2: 2s miss now
    assert present(b, "defender") == {"infantry": 1}
    plain = battle(units(US, infantry=2), units(JPN, infantry=2), "amphibious")
    assert [g.hit_on for g in main_fire_groups(plain, "attacker")] == [1]
    land = battle(units(US, infantry=2), units(JPN, infantry=2), "land", attacker_techs={MARINES})
    assert [g.hit_on for g in main_fire_groups(land, "attacker")] == [1]


def assault(options: dict[str, Any] | None = None) -> Game:
    placed = {"Western United States": "United States: 3 infantry", "SZ 54": "United States: 1 transport",
              "Mexico": "Japan: 1 infantry"}
    game = scenario(RULES, nation=US, phase="combat-move", clear=True, units=placed, owners={"Mexico": JPN},
                    extra=na("marines"), options=options)
    game.apply({"type": "load", "units": "2 infantry", "territory": "Western United States", "sea_zone": "SZ 54"})
    move(game, "2 infantry", "SZ 54", "Mexico")
    move(game, "1 infantry", "Western United States", "Mexico")
    game.apply({"type": "end_phase"})
    return game


@pytest.mark.rule("AARE-NA-US-mar-amphib-attack-2")
def test_on_the_board_only_the_infantry_landing_from_the_sea_are_marines() -> None:
    game = assault()
    assert fire(game, "Mexico", "attacker") == [("infantry", 1, 1), ("infantry", 2, 2)]
    both = assault({"marines_overland_bonus": True})
    assert fire(both, "Mexico", "attacker") == [("infantry", 2, 3)]
    game = Game(game.log, ScriptedDice([6, 6, 2, 6]))  # overland 6; marines 6, 2 (a hit); Japan 6
    game.apply({"type": "fight", "space": "Mexico"})
    assert game.state.owners["Mexico"] == US


@pytest.mark.rule("AARE-NA-US-mar-artillery-3")
def test_marines_paired_with_artillery_attack_at_3() -> None:
    b = battle(units(US, infantry=2, artillery=1), units(JPN, infantry=3), "amphibious", attacker_techs={MARINES})
    groups = sorted((g.unit, g.hit_on, g.count) for g in main_fire_groups(b, "attacker"))
    assert groups == [("artillery", 2, 1), ("infantry", 2, 1), ("infantry", 3, 1)]
    b, _ = one_cycle(b, [6, 6, 6, 6, 6, 6])
    groups = sorted((g.unit, g.hit_on, g.count) for g in main_fire_groups(b, "attacker"))
    assert groups == [("artillery", 2, 1), ("infantry", 1, 1), ("infantry", 2, 1)]


@pytest.mark.rule("AARE-NA-US-mar-amphib-attack-2")
def test_marines_count_for_us_units_attacking_jointly() -> None:
    inputs = {"attacker": ((UnitKey("infantry", UK), 1), (UnitKey("infantry", US), 2)), "attacker_techs": frozenset(),
              "owner_techs": {UK: frozenset(), US: frozenset({"jet_fighters"}), GER: frozenset()}}
    out = with_tag(inputs, UK, US, MARINES, "attacker")  # a D-Day: the UK leads, the US attacks with it
    assert out["owner_techs"][US] == {"jet_fighters", MARINES}
    assert out["attacker_techs"] == frozenset() and out["owner_techs"][UK] == frozenset()
    assert with_tag(inputs, UK, US, MARINES, "defender") == inputs


# --- Naval Industry --------------------------------------------------------------------------------------------


@pytest.mark.rule("AARE-NA-US-ni-naval-discount")
def test_naval_industry_makes_us_ships_1_cheaper() -> None:
    game = scenario(RULES, nation=US, phase="purchase", banks={US: 60}, extra=na("naval_industry"))
    game.apply({"type": "purchase", "units": "1 transport, 1 destroyer, 1 battleship"})
    assert game.state.banks[US] == 60 - (7 + 9 + 19)
    game.apply({"type": "purchase", "units": "1 submarine, 1 fighter"})
    assert game.state.banks[US] == 25 - (7 + 10)
    prices = {u: game.ruleset.unit_cost(u, power=US, state=game.state).value for u in ("carrier", "infantry")}
    assert prices == {"carrier": 13, "infantry": 3}
    uk = scenario(RULES, nation=UK, phase="purchase", banks={UK: 60}, extra=na("naval_industry"))
    uk.apply({"type": "purchase", "units": "1 transport"})
    assert uk.state.banks[UK] == 52


# --- Reinforced Carriers ---------------------------------------------------------------------------------------


@pytest.mark.rule("AARE-NA-US-rc-two-hits")
def test_us_carriers_take_two_hits() -> None:
    b = battle(units(JPN, battleship=1), units(US, carrier=1), "sea", defender_techs={CARRIERS})
    b, _ = one_cycle(b, [1, 6])  # the battleship hits, the carrier misses
    assert present(b, "defender") == {"carrier": 1}
    assert [(k.damage, n) for k, n in b.state.defender] == [(1, 1)]
    b, _ = one_cycle(b, [1, 6])
    assert present(b, "defender") == {} and b.state.result == "attacker"
    plain = battle(units(JPN, battleship=1), units(US, carrier=1), "sea")
    plain, _ = one_cycle(plain, [1, 6])
    assert plain.state.result == "attacker"


@pytest.mark.rule("AARE-NA-US-rc-two-hits")
def test_a_damaged_us_carrier_on_the_board_is_repaired_at_the_end_of_the_turn() -> None:
    placed = {"SZ 55": "United States: 1 carrier", "SZ 53": "Japan: 1 battleship, 1 destroyer"}
    game = position(JPN, "combat-move", placed, extra=na("reinforced_carriers"))
    move(game, "1 battleship, 1 destroyer", "SZ 53", "SZ 55")
    game.apply({"type": "end_phase"})
    game = Game(game.log, ScriptedDice([1, 6, 6]))  # the battleship hits, the destroyer and the carrier miss
    game.apply({"type": "fight", "space": "SZ 55"})
    assert game.state.pending is not None and game.state.pending["kind"] == "press_or_retreat"
    game.apply({"type": "retreat", "to": "SZ 53"})
    [carrier] = [s for s in game.state.stacks("SZ 55") if s.unit == "carrier"]
    assert carrier.owner == US and carrier.damage == 1
    to_phase(game, "collect-income")
    game.apply({"type": "end_phase"})
    [carrier] = [s for s in game.state.stacks("SZ 55") if s.unit == "carrier"]
    assert carrier.damage == 0


@pytest.mark.rule("AARE-NA-US-rc-first-ac")
def test_the_first_us_carrier_costs_5_less() -> None:
    game = scenario(RULES, nation=US, phase="purchase", banks={US: 60}, extra=na("reinforced_carriers"))
    game.apply({"type": "purchase", "units": "2 carriers"})
    assert game.state.banks[US] == 60 - (9 + 14)
    game.apply({"type": "purchase", "units": "1 carrier"})
    assert game.state.banks[US] == 37 - 14
    both = scenario(RULES, nation=US, phase="purchase", banks={US: 8},
                    extra=na("reinforced_carriers", "naval_industry"))
    assert {"type": "purchase", "units": "1 carrier"} in [a.to_json() for a in both.legal_actions()]
    both.apply({"type": "purchase", "units": "1 carrier"})  # 14 - 1 - 5
    assert both.state.banks[US] == 0


# --- Tech Investment -------------------------------------------------------------------------------------------


@pytest.mark.rule("AARE-NA-US-ti-four-rolls")
def test_tech_investment_develops_with_4_rolls() -> None:
    game = scenario(RULES, nation=US, phase="develop-weapons", round=2, banks={US: 40}, extra=na("tech_investment"),
                    dice=[])
    game.apply({"type": "research", "dice": 4, "tech": "heavy_bombers"})  # no die is rolled
    assert pending(game.state, US) == ["heavy_bombers"] and game.state.banks[US] == 20
    plain = scenario(RULES, nation=JPN, phase="develop-weapons", round=2, banks={JPN: 40}, dice=[5, 5, 5, 5],
                     extra=na("tech_investment"))
    plain.apply({"type": "research", "dice": 4, "tech": "heavy_bombers"})
    assert pending(plain.state, JPN) == []


@pytest.mark.rule("AARE-NA-US-ti-grant-5")
def test_tech_investment_grants_5_ipcs_for_minor_tech_only() -> None:
    game = scenario(RULES, nation=US, phase="develop-weapons", banks={US: 40})
    game.apply({"type": "declare_advantage", "advantage": "tech_investment"})
    assert game.state.banks[US] == 40 and funds_left(game.state, "tech_investment") == 5
    game.apply({"type": "research", "dice": 4, "tech": "long_range_aircraft"})  # major: all from the treasury
    assert game.state.banks[US] == 20 and funds_left(game.state, "tech_investment") == 5
    game.apply({"type": "research", "dice": 4, "tech": "jet_fighters"})  # minor, 16: 5 of them from the grant
    assert game.state.banks[US] == 9 and funds_left(game.state, "tech_investment") == 0
    shop = scenario(RULES, nation=US, phase="develop-weapons", banks={US: 2})
    shop.apply({"type": "declare_advantage", "advantage": "tech_investment"})
    to_phase(shop, "purchase")
    assert rule_of(shop, {"type": "purchase", "units": "1 infantry"}) == "LHTR-PURCHASE-budget"


@pytest.mark.rule("AARE-NA-US-ti-grant-carryover")
def test_the_tech_grant_carries_over_for_minor_tech() -> None:
    game = scenario(RULES, nation=US, phase="develop-weapons", banks={US: 30})
    game.apply({"type": "declare_advantage", "advantage": "tech_investment"})
    while game.state.nation != US or game.state.round != 2:
        game.apply({"type": "end_phase"})
        if game.state.phase == "develop-weapons" and game.state.round == 1:
            game.apply({"type": "declare_advantage", "advantage": _first_na(game.state.nation)})
    assert funds_left(game.state, "tech_investment") == 5
    bank = game.state.banks[US]
    game.apply({"type": "research", "dice": 4, "tech": "super_submarines"})
    assert game.state.banks[US] == bank - 11 and pending(game.state, US) == ["super_submarines"]


def _first_na(power: str) -> str:
    return {"Russia": "russian_t34s", GER: "panzerblitz", UK: "radar", JPN: "yamato", US: "marines"}[power]


# --- the calculator --------------------------------------------------------------------------------------------


@pytest.mark.rule("AARE-NA-US-mar-amphib-attack-2")
def test_the_calculator_counts_marines_exactly() -> None:
    with_na = odds("1 infantry", "1 infantry", RULES, battle="amphibious", attacker_techs=frozenset({MARINES}))
    without = odds("1 infantry", "1 infantry", RULES, battle="amphibious")
    assert without.attacker_win == pytest.approx(0.25)  # 1/6 (2/3) / (1 - 5/6 * 2/3)
    assert with_na.attacker_win == pytest.approx(1 / 3)  # 1/3 * 2/3 + 2/3 * 2/3 * 1/4
    out = CliRunner().invoke(cli, ["odds", "--rules", RULES, "--attacker", "1 infantry", "--defender", "1 infantry",
                                   "--battle", "amphibious", "--attacker-advantage", "marines", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["attacker_win"] == pytest.approx(1 / 3)
    bad = CliRunner().invoke(cli, ["odds", "--rules", RULES, "--attacker", "1 infantry", "--defender", "1 infantry",
                                   "--attacker-advantage", "death_star"])
    assert bad.exit_code != 0


@pytest.mark.rule("AARE-NA-US-rc-two-hits")
def test_the_calculator_counts_reinforced_carriers() -> None:
    args = ["odds", "--rules", RULES, "--attacker", "1 destroyer", "--defender", "1 carrier", "--battle", "sea",
            "--json"]
    plain = json.loads(CliRunner().invoke(cli, args).output)
    sturdy = json.loads(CliRunner().invoke(cli, [*args, "--defender-advantage", "reinforced_carriers"]).output)
    assert sturdy["attacker_win"] < plain["attacker_win"]
    # the destroyer hits on 3, the carrier on 2: it first lands a hit alone (1/2), then the killing one alone (1/2)
    assert sturdy["attacker_win"] == pytest.approx(0.25)
    direct = odds("1 destroyer", "1 carrier", RULES, battle="sea", defender_techs=frozenset({CARRIERS}))
    assert direct.attacker_win == pytest.approx(0.25)


@pytest.mark.rule("AARE-NA-RUS-winter-artillery-3", "AARE-NA-RUS-t34-defense-4")
def test_the_calculator_counts_russian_advantages() -> None:
    base = ["odds", "--rules", RULES, "--attacker", "2 infantry, 1 artillery", "--defender", "2 infantry", "--json"]
    plain = json.loads(CliRunner().invoke(cli, base).output)
    winter = json.loads(CliRunner().invoke(cli, [*base, "--attacker-advantage", "russian_winter"]).output)
    assert winter["attacker_win"] > plain["attacker_win"]
    tanks = ["odds", "--rules", RULES, "--attacker", "2 armour", "--defender", "2 armour", "--json"]
    t34 = json.loads(CliRunner().invoke(cli, [*tanks, "--defender-advantage", "russian_t34s"]).output)
    assert t34["defender_win"] > json.loads(CliRunner().invoke(cli, tanks).output)["defender_win"]
