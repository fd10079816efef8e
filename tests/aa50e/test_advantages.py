"""AA50E national advantages (game option `national_advantages`): each tested with the option on and off."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.battle_state import UnitKey
from aare.combat.decisions import Press
from aare.combat.setup import Battle
from aare.economy.pool import pool
from aare.engine import Game
from aare.errors import IllegalAction, MalformedInput
from aare.invariants import check_log
from aare.odds import odds
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from aare.state.unit_stacks import count_units
from tests.aa50.common import battle, begun, fire
from tests.aa50e.test_convoy import collect
from tests.combat.helpers import play

RULES = "aa50e-1941"
ON = {"national_advantages": True}
GER, UK, ITA, US, JPN, CN = "Germany", "United Kingdom", "Italy", "United States", "Japan", "China"


def opts(on: bool) -> dict[str, Any]:
    return ON if on else {}


def close(value: float, exact: Fraction | float) -> bool:
    return abs(value - float(exact)) < 1e-9


def abilities(power: str, space: str, attacker: str, on: bool = True) -> frozenset[str]:
    """`power`'s battle techs in a battle in `space` attacked by `attacker`."""
    ruleset = load_ruleset(RULES, opts(on))
    inputs: dict[str, Any] = {"attacker_techs": frozenset(),
                              "owner_techs": {power: frozenset()} if power != attacker else {}}
    site = SimpleNamespace(space=space, attacker=attacker)
    for module in ruleset.modules:
        if module.id == "aa50e_advantages":
            inputs = module.hooks["battle_inputs"](inputs, ruleset=ruleset, state=None, site=site)
    return frozenset(inputs["attacker_techs"] if power == attacker else inputs["owner_techs"][power])


@pytest.mark.rule("AA50E-NA-selection")
@pytest.mark.parametrize("on", [True, False])
def test_the_option_gives_every_nation_all_its_advantages_or_none(on: bool) -> None:
    ruleset = load_ruleset(RULES, opts(on))
    assert ("aa50e_advantages" in {m.id for m in ruleset.modules}) is on
    assert ("na:wolf_packs" in abilities(GER, "SZ 7", GER, on)) is on
    assert ("na:atlantic_wall" in abilities(GER, "France", UK, on)) is on
    assert not load_ruleset(RULES, {}).options.get("national_advantages")


# --- Germany ----------------------------------------------------------------------------------------------------


def without_detection(b: Battle) -> Battle:
    """`b` under rules without submarine detection (every sub counts as detected)."""
    return replace(b, setup=replace(b.setup, rules=replace(b.setup.rules, sub_detection=None)))


@pytest.mark.rule("AA50E-NA-ger-wolf-packs-attack")
@pytest.mark.parametrize("on", [True, False])
def test_undetected_german_subs_attack_at_3_in_the_first_cycle(on: bool) -> None:
    tags = abilities(GER, "SZ 7", GER, on)
    b = battle("1 submarine", "1 cruiser", rules=RULES, options=opts(on), attacker_techs=tags)
    assert b.setup.rules.sub_detection is not None  # no destroyer: the sub stays undetected
    _, events = play(begun(b), [6])  # its hit is removed before the cruiser fires back
    assert fire(events)[0] == ("submarine", 1, 3 if on else 2)
    detected = replace(b, state=b.state.with_units("attacker", ((UnitKey("submarine", "", flags=("detected",)), 1),)))
    _, events = play(begun(detected), [6, 6])
    assert fire(events)[0] == ("submarine", 1, 2)  # detected: no bonus
    _, events = play(begun(without_detection(b)), [6, 6])
    assert fire(events)[0] == ("submarine", 1, 2)  # no detection rules: every sub counts as detected


@pytest.mark.rule("AA50E-NA-ger-wolf-packs-crd")
@pytest.mark.parametrize("on", [True, False])
def test_german_subs_take_2_ipcs_each_in_convoy_raids(on: bool) -> None:
    ic = {"United Kingdom": "United Kingdom: 1 factory"}
    game, _ = collect(UK, {**ic, "SZ 7": "Germany: 2 submarines", "SZ 8": "Italy: 1 submarine"}, options=opts(on))
    assert game.state.extra["convoy"]["raids"][0]["damage"] == (5 if on else 3)
    game, _ = collect(UK, {"India": "United Kingdom: 1 factory", "SZ 35": "Germany: 2 submarines"},
                      options=opts(on))
    assert game.state.extra["convoy"]["raids"][0]["damage"] == 3 if on else 2  # India is worth 3: capped


@pytest.mark.rule("AA50E-NA-ger-atlantic-wall-infantry")
@pytest.mark.parametrize("on", [True, False])
def test_german_infantry_defend_at_3_in_the_first_cycle_on_the_atlantic_wall(on: bool) -> None:
    for space in ("France", "Norway", "Northwestern Europe"):
        assert ("na:atlantic_wall" in abilities(GER, space, UK, on)) is on
    assert "na:atlantic_wall" not in abilities(GER, "Germany", UK, on)
    assert "na:atlantic_wall" not in abilities(GER, "France", GER, on)  # attacking: no
    b = battle("1 armour", "1 infantry", "land", rules=RULES, options=opts(on),
               defender_techs=abilities(GER, "France", UK, on))
    _, events = play(b, [6, 6, 6, 6], Press())
    assert [v for u, _, v in fire(events, "defender fire")] == [3 if on else 2, 2]
    wall = odds("1 infantry", "1 infantry", RULES, options=ON, defender_abilities=("atlantic_wall",))
    # round 1: 1/6 against 1/2, then 1/6 against 1/3: (1/6 * 1/2) + (5/6 * 1/2) * (1/6 * 2/3) / (1 - 5/6 * 2/3)
    win = Fraction(1, 12) + Fraction(5, 12) * (Fraction(1, 9) / (1 - Fraction(10, 18)))
    assert close(wall.attacker_win, win)


@pytest.mark.rule("AA50E-NA-ger-atlantic-wall-artillery")
@pytest.mark.parametrize("on", [True, False])
def test_german_artillery_defend_at_3_in_the_first_cycle_on_the_atlantic_wall(on: bool) -> None:
    b = battle("1 armour", "1 artillery", "land", rules=RULES, options=opts(on),
               defender_techs=abilities(GER, "Norway", UK, on))
    _, events = play(b, [6, 6])
    assert fire(events, "defender fire") == [("artillery", 1, 3 if on else 2)]


# --- Japan, the United States -----------------------------------------------------------------------------------


@pytest.mark.rule("AA50E-NA-jpn-yamato")
@pytest.mark.parametrize("on", [True, False])
def test_japanese_battleships_roll_twice_in_the_first_cycle(on: bool) -> None:
    tags = abilities(JPN, "SZ 60", JPN, on)
    b = begun(battle("1 battleship", "1 battleship", rules=RULES, options=opts(on), attacker_techs=tags))
    _, events = play(b, [6, 6, 6] if on else [6, 6])
    dice = [(e.unit, e.count * e.per_unit) for e in events if type(e).__name__ == "DiceRolled"]
    assert dice[0] == ("battleship", 2 if on else 1)
    defending = begun(battle("1 battleship", "1 battleship", rules=RULES, options=opts(on),
                             defender_techs=abilities(JPN, "SZ 60", US, on)))
    _, events = play(defending, [6, 6, 6] if on else [6, 6])
    assert [e.count * e.per_unit for e in events if type(e).__name__ == "DiceRolled"][1] == (2 if on else 1)
    if on:  # round 1: 2 dice at 4 (8/9), then 4/6 against 1/3 with the battleship's two hits: 48/49
        yamato = odds("1 battleship", "1 destroyer", RULES, battle="sea", options=ON, attacker_abilities=("yamato",))
        assert close(yamato.attacker_win, Fraction(48, 49))
        sea = odds("1 destroyer", "1 battleship", RULES, battle="sea", options=ON, defender_abilities=("yamato",))
        plain = odds("1 destroyer", "1 battleship", RULES, battle="sea", options=ON)
        assert sea.defender_win > plain.defender_win


@pytest.mark.rule("AA50E-NA-jpn-yamato")
def test_a_yamato_bombards_with_two_dice() -> None:
    b = battle("1 infantry", "2 infantry", "amphibious", rules=RULES, options=ON, bombard="1 battleship",
               attacker_techs=frozenset({"na:yamato"}))
    _, events = play(b, [1, 1, 6, 6, 6])
    bombard = [e for e in events if type(e).__name__ == "DiceRolled" and e.step == "bombardment"]
    assert [(e.unit, e.count, e.per_unit) for e in bombard] == [("battleship", 1, 2)]


@pytest.mark.rule("AA50E-NA-usa-marines")
@pytest.mark.parametrize("on", [True, False])
def test_us_infantry_landing_from_the_sea_attack_at_2_then_1(on: bool) -> None:
    tags = abilities(US, "Norway", US, on)
    b = battle("2 infantry, 1 artillery", "3 infantry", "amphibious", rules=RULES, options=opts(on),
               attacker_techs=tags)
    _, events = play(b, [6] * 6 + [1, 1, 1, 6, 6, 6])
    first = fire(events, "attacker fire")[:2]
    assert first == ([("infantry", 1, 3), ("infantry", 1, 2)] if on else [("infantry", 1, 2), ("infantry", 1, 1)])
    assert fire(events, "attacker fire")[3:5] == [("infantry", 1, 2), ("infantry", 1, 1)]  # round 2
    marines = odds("1 infantry", "1 infantry", RULES, battle="amphibious", options=ON, attacker_abilities=("marines",))
    assert close(marines.attacker_win, Fraction(1, 3) * Fraction(2, 3) + Fraction(4, 9) * Fraction(1, 4))
    overland = battle("2 infantry", "1 infantry", "land", rules=RULES, options=opts(on), attacker_techs=tags)
    _, events = play(overland, [6, 6, 6])
    assert fire(events, "attacker fire") == [("infantry", 2, 1)]  # not from the sea


@pytest.mark.rule("AA50E-NA-usa-tech-investment")
@pytest.mark.parametrize("on", [True, False])
def test_us_research_succeeds_after_4_rolls(on: bool) -> None:
    game = scenario(RULES, nation=US, phase="develop-weapons", banks={US: 40}, dice=[1, 1, 1, 1], options=opts(on))
    game.apply({"type": "research", "dice": 4, "power": US, "tech": "radar"})
    assert ("radar" in game.state.techs.get(US, ())) is on
    uk = scenario(RULES, nation=UK, phase="develop-weapons", banks={UK: 40}, dice=[1, 1, 1, 1], options=opts(on))
    uk.apply({"type": "research", "dice": 4, "tech": "radar"})
    assert "radar" not in uk.state.techs.get(UK, ())  # the United States' advantage only


# --- Italy, the United Kingdom, China ---------------------------------------------------------------------------


def italy_end(on: bool, **kw: Any) -> Game:
    game = scenario(RULES, nation=ITA, phase="mobilize", options=opts(on), **kw)
    game.apply({"type": "end_phase"})
    return game


@pytest.mark.rule("AA50E-NA-ita-africa-corps")
@pytest.mark.parametrize("on", [True, False])
def test_africa_corps_appear_in_libya_at_the_end_of_each_italian_turn(on: bool) -> None:
    before = count_units(scenario(RULES, nation=ITA, phase="mobilize").state.stacks("Libya"), ITA)
    game = italy_end(on)
    added = {"infantry": 1, "artillery": 1, "armour": 1} if on else {}
    after = count_units(game.state.stacks("Libya"), ITA)
    assert {u: after.get(u, 0) - before.get(u, 0) for u in after if after.get(u, 0) != before.get(u, 0)} == added
    lost = italy_end(on, owners={"Libya": UK})
    assert count_units(lost.state.stacks("Libya"), ITA) == before  # Libya not held: none


MED = {t: ITA for t in ("Egypt", "Trans-Jordan", "Libya", "Anglo-Egyptian Sudan", "Italian Africa", "Gibraltar",
                        "Balkans", "Morocco Algeria")}


def med_income(on: bool, units: dict[str, str], owners: dict[str, str]) -> int:
    game = scenario(RULES, nation=ITA, phase="mobilize", clear=["SZ 13", "SZ 14", "SZ 15", "SZ 16"], units=units,
                    owners=owners, options=opts(on), banks={ITA: 0})
    game.apply({"type": "end_phase"})
    return game.state.banks[ITA]


@pytest.mark.rule("AA50E-NA-ita-mediterranean-bonus")
@pytest.mark.parametrize("on", [True, False])
def test_italy_gains_5_for_an_axis_mediterranean(on: bool) -> None:
    base = med_income(False, {}, MED)
    assert med_income(on, {}, MED) == base + (5 if on else 0)
    assert med_income(on, {"SZ 15": "United Kingdom: 1 transport"}, MED) == base  # an enemy surface ship
    assert med_income(on, {"SZ 15": "United Kingdom: 1 submarine"}, MED) == base + (5 if on else 0)
    short = {**MED, "Gibraltar": UK}
    assert med_income(on, {}, short) == med_income(False, {}, short)


@pytest.mark.rule("AA50E-NA-uk-colonial-garrison")
@pytest.mark.parametrize("on", [True, False])
def test_the_uk_places_one_free_infantry_a_round_in_a_colony(on: bool) -> None:
    game = scenario(RULES, nation=UK, phase="non-combat-move", options=opts(on))
    game.apply({"type": "end_phase"})
    assert game.state.phase == "mobilize"
    offered = {a.space for a in game.legal_actions() if a.type == "place_free"}
    assert offered == ({"Australia", "Egypt", "India", "Union of South Africa"} if on else set())
    free = {"type": "place_free", "advantage": "colonial_garrison", "units": "1 infantry"}
    if not on:
        with pytest.raises(IllegalAction):
            game.apply({**free, "space": "India"})
        return
    with pytest.raises(IllegalAction) as info:
        game.apply({**free, "space": "United Kingdom"})
    assert info.value.rule_id == "AA50E-NA-uk-colonial-garrison"
    before = count_units(game.state.stacks("India"), UK).get("infantry", 0)
    game.apply({**free, "space": "India"})
    assert count_units(game.state.stacks("India"), UK)["infantry"] == before + 1
    with pytest.raises(IllegalAction):
        game.apply({**free, "space": "Egypt"})  # one a round


def china_mobilize(on: bool) -> Game:
    from tests.aa50.test_china import to_mobilize, us_turn

    game = us_turn(RULES, clear=["Yunnan", "Hupeh"], units={"Yunnan": "China: 2 infantry",
                                                             "Hupeh": "China: 4 infantry"}, options=opts(on))
    to_mobilize(game)
    return game


@pytest.mark.rule("AA50E-NA-chn-round-up")
@pytest.mark.parametrize("on", [True, False])
def test_china_rounds_its_infantry_up(on: bool) -> None:
    game = china_mobilize(on)
    held = len([t for t, o in game.state.owners.items() if o == CN])
    assert held % 2 == 1
    assert pool(game.state, CN) == {"infantry": held // 2 + (1 if on else 0)}


@pytest.mark.rule("AA50E-NA-chn-no-placement-cap")
@pytest.mark.parametrize("on", [True, False])
def test_china_places_any_number_in_one_territory(on: bool) -> None:
    game = china_mobilize(on)
    n = pool(game.state, CN)["infantry"]
    action = {"type": "place", "units": f"{n} infantry", "space": "Hupeh", "power": CN}
    if on:
        game.apply(action)
        assert count_units(game.state.stacks("Hupeh"), CN) == {"infantry": 4 + n}
    else:
        with pytest.raises(IllegalAction):
            game.apply(action)


@pytest.mark.rule("AA50E-NA-selection")
def test_the_calculator_names_the_battle_advantages() -> None:
    with pytest.raises(MalformedInput, match="unknown national advantage"):
        odds("1 infantry", "1 infantry", RULES, options=ON, attacker_abilities=("banzai",))
    result = CliRunner().invoke(cli, ["odds", "--rules", RULES, "--option", "national_advantages=true",
                                      "--defender-advantage", "atlantic_wall", "--attacker", "1 infantry",
                                      "--defender", "1 infantry"])
    assert result.exit_code == 0, result.output


def uk_purchase(on: bool, us_bank: int = 30) -> Game:
    return scenario(RULES, nation=UK, phase="purchase", banks={UK: 10, US: us_bank}, options=opts(on),
                    units={"Egypt": "United States: 1 fighter, 1 armour", "SZ 7": "United States: 1 battleship"})


@pytest.mark.rule("AA50E-NA-uk-lend-lease")
@pytest.mark.parametrize("on", [True, False])
def test_the_uk_borrows_5_from_the_us(on: bool) -> None:
    game = uk_purchase(on)
    loan = {"type": "lend", "lender": US, "amount": 5}
    if not on:
        with pytest.raises(IllegalAction):
            game.apply(loan)
        return
    with pytest.raises(IllegalAction, match="the loan is 5"):
        game.apply({**loan, "amount": 3})
    game.apply(loan)
    assert (game.state.banks[UK], game.state.banks[US]) == (15, 25)
    with pytest.raises(IllegalAction, match="not both") as info:
        game.apply(loan)
    assert info.value.rule_id == "AA50E-NA-uk-lend-lease"
    with pytest.raises(IllegalAction, match="no conversion too"):
        game.apply({"type": "convert", "units": "1 fighter", "owner": US, "space": "Egypt"})
    assert not check_log(game.log)


@pytest.mark.rule("AA50E-NA-uk-lend-lease")
@pytest.mark.parametrize("on", [True, False])
def test_the_uk_converts_up_to_12_ipcs_of_us_units(on: bool) -> None:
    game = uk_purchase(on)
    convert = {"type": "convert", "owner": US}
    if not on:
        with pytest.raises(IllegalAction):
            game.apply({**convert, "units": "1 fighter", "space": "Egypt"})
        return
    with pytest.raises(IllegalAction, match="conversions come to 12"):
        game.apply({**convert, "units": "1 battleship", "space": "SZ 7"})  # 20
    game.apply({**convert, "units": "1 fighter", "space": "Egypt"})  # 10
    assert count_units(game.state.stacks("Egypt"), US) == {"armour": 1}  # the fighter is British now
    with pytest.raises(IllegalAction, match="conversions come to 12"):
        game.apply({**convert, "units": "1 armour", "space": "Egypt"})  # 10 + 6 > 12
    with pytest.raises(IllegalAction, match="not both"):
        game.apply({"type": "lend", "lender": US, "amount": 5})
    assert game.state.banks == uk_purchase(on).state.banks and not check_log(game.log)
