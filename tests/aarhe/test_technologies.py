"""AARHE technologies' effects: Long Range Aircraft, Heavy Bomber, Heavy Artillery and Heavy Tank, Advanced
Submarine, Advanced Production."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from aare.combat.decisions import PressOrRetreat
from aare.combat.engine import advance
from aare.combat.events import DiceRolled
from aare.combat.policy import DEFAULT_POLICY
from aare.dice import ScriptedDice
from aare.economy.complex_damage import complex_damage, complex_stack
from aare.economy.summary import income
from aare.engine import Game
from aare.odds import build_battle, odds
from aare.rulesets.aarhe.income import ATTACKED, interrupted
from aare.scenario import scenario
from aare.state.unit_stacks import Stack
from tests.aarhe.common import GER, RULES, UK, end_phase, refused
from tests.aarhe.move_common import at
from tests.aarhe.test_land_combat import fire


def with_techs(g: Game, power: str, *techs: str) -> Game:
    g.log.state = replace(g.state, techs={**g.state.techs, power: tuple(sorted(techs))})
    g.log.initial = g.log.state
    return g


def rolls(events: Iterable[Any], step: str) -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled) and e.step == step]


def buyer(power: str, *techs: str, options: dict[str, Any] | None = None) -> Game:
    g = at(power, "purchase", {"Germany" if power == GER else "United Kingdom": f"{power}: 1 factory"},
           banks={power: 100}, options=options)
    return with_techs(g, power, *techs)


def paid(g: Game, units: str) -> int:
    before = g.state.banks[g.state.nation]
    g.apply({"type": "purchase", "units": units})
    return before - g.state.banks[g.state.nation]


@pytest.mark.rule("AARHE-TECH-advanced-production", "AARHE-TECH-advanced-production-table")
def test_advanced_production_lowers_ship_and_aircraft_prices() -> None:
    plain, tech = buyer(UK), buyer(UK, "advanced_production")
    assert paid(plain, "1 destroyer, 1 fighter") == 20
    assert paid(tech, "1 destroyer, 1 fighter") == 8 + 9
    prices = {u: paid(tech, f"1 {u}") for u in ("battleship", "carrier", "submarine", "transport", "bomber")}
    assert prices == {"battleship": 17, "carrier": 13, "submarine": 7, "transport": 7, "bomber": 13}
    assert paid(tech, "1 armour") == paid(plain, "1 armour")
    cruiser = buyer(UK, "advanced_production", options={"cruiser": True})
    assert paid(cruiser, "1 cruiser") == 13


@pytest.mark.rule("AARHE-TECH-heavy-artillery")
def test_heavy_artillery_is_bought_only_with_its_technology() -> None:
    assert refused(buyer(GER), {"type": "purchase", "units": "1 heavy artillery"}) == "AARHE-TECH-heavy-artillery"
    assert paid(buyer(GER, "heavy_artillery"), "1 heavy artillery") == 5
    assert not any(a.type == "purchase" and "heavy" in a.units for a in buyer(GER).legal_actions())
    assert paid(buyer(GER, options={"heavy_artillery": True}), "1 heavy artillery") == 5  # the game option


@pytest.mark.rule("AARHE-TECH-heavy-tank")
def test_heavy_tank_is_bought_only_with_its_technology() -> None:
    assert refused(buyer(GER), {"type": "purchase", "units": "1 heavy tank"}) == "AARHE-TECH-heavy-tank"
    g = buyer(GER, "heavy_tank")
    assert paid(g, "1 heavy tank") == 8
    assert g.ruleset.units["heavy_tank"].attack == 4


@pytest.mark.rule("AARHE-TECH-long-range-aircraft")
def test_long_range_aircraft_add_two_to_every_air_unit() -> None:
    path = ["Germany", "Eastern Europe", "Ukraine S.S.R.", "Caucasus"]
    units = {"Germany": "Germany: 1 fighter", "Caucasus": "Russia: 1 infantry"}
    plain = at(GER, "combat-move", units)
    assert refused(plain, {"type": "move", "units": "1 fighter", "path": path}) == "AARHE-AIRMOVE-combat-half-out"
    lra = with_techs(at(GER, "combat-move", units), GER, "long_range_aircraft")
    lra.apply({"type": "move", "units": "1 fighter", "path": path})  # half of 6
    leg = ["Caucasus", "Kazakh S.S.R.", "Novosibirsk", "Evenki National Okrug", "Yakut S.S.R."]
    plain = at("Russia", "non-combat-move", {"Caucasus": "Russia: 1 fighter"})
    assert refused(plain, {"type": "move", "units": "1 fighter", "path": leg}).startswith("AARHE-AIRMOVE")
    ferry = with_techs(at("Russia", "non-combat-move", {"Caucasus": "Russia: 1 fighter"}), "Russia",
                       "long_range_aircraft")
    ferry.apply({"type": "move", "units": "1 fighter", "path": leg})
    ferry.apply({"type": "move", "units": "1 fighter", "path": leg[::-1]})  # 8 in two legs of 4


@pytest.mark.rule("AARHE-TECH-heavy-bomber")
def test_heavy_bombers_roll_two_dice_in_combat_each_able_to_hit() -> None:
    hb = frozenset({"heavy_bombers"})
    _, events = fire(build_battle("1 bomber, 1 infantry", "3 infantry", RULES, attacker_techs=hb), [1] * 8)
    bombers = [r for r in rolls(events, "attacker air fire") if r.unit == "bomber"]
    assert sum(len(r.dice) for r in bombers) == 2
    assert sum(r.hits for r in bombers) == 2
    _, events = fire(build_battle("1 bomber, 1 infantry", "3 infantry", RULES), [1] * 8)
    assert sum(len(r.dice) for r in rolls(events, "attacker air fire") if r.unit == "bomber") == 1
    _, events = fire(build_battle("2 infantry", "1 bomber, 1 infantry", RULES, defender_techs=hb), [6] * 8)
    assert sum(len(r.dice) for r in rolls(events, "defender air fire") if r.unit == "bomber") == 2


@pytest.mark.rule("AARHE-TECH-heavy-bomber")
def test_a_heavy_bombers_raid_damage_is_the_sum_of_two_dice() -> None:
    g = scenario(RULES, nation=UK, phase="combat-move", units={"Western Europe": "United Kingdom: 1 bomber"},
                 owners={"Western Europe": UK}, clear=["Western Europe"], banks={GER: 20}, dice=[6, 2, 1], round=2)
    with_techs(g, UK, "heavy_bombers")
    g.apply({"type": "move", "units": "1 bomber", "path": ["Western Europe", "Southern Europe"], "raid": True})
    end_phase(g)
    g.apply({"type": "fight", "space": "Southern Europe"})
    assert complex_damage(g.state, g.ruleset, "Southern Europe") == 3  # 2 + 1


@pytest.mark.rule("AARHE-TECH-advanced-submarine")
def test_advanced_submarines_attack_and_defend_one_higher() -> None:
    subs = frozenset({"super_submarines"})

    def hit_on(side: str, techs: frozenset[str]) -> int:
        attacker, defender = ("1 submarine", "1 transport") if side == "attacker" else ("1 transport", "1 submarine")
        key = f"{side}_techs"
        _, events = fire(build_battle(attacker, defender, RULES, "sea", **{key: techs}), [6] * 6)
        found = [r.hit_on for r in events if isinstance(r, DiceRolled) and r.side == side and r.unit == "submarine"]
        return found[0]

    assert hit_on("attacker", subs) == hit_on("attacker", frozenset()) + 1
    assert hit_on("defender", subs) == hit_on("defender", frozenset()) + 1


def sea_rolls(attacker: str, defender: str, dice: list[int], **techs: frozenset[str]) -> list[DiceRolled]:
    b = build_battle(attacker, defender, RULES, "sea", **techs)

    def policy(bt: Any, decision: Any) -> Any:  # stop at the first press-or-retreat
        return None if isinstance(decision, PressOrRetreat) else DEFAULT_POLICY(bt, decision)

    _, events = advance(b, ScriptedDice(dice), policy)
    return [e for e in events if isinstance(e, DiceRolled)]


def asw(found: list[DiceRolled], step: str) -> list[tuple[int, int]]:
    """(hit on, dice) of each ASW roll of `step`."""
    return [(r.hit_on, r.count * r.per_unit) for r in found if r.step == step]


@pytest.mark.rule("AARHE-TECH-advanced-submarine-stealth")
def test_asw_searches_an_advanced_submarine_one_lower() -> None:
    stealthy = frozenset({"super_submarines"})
    found = sea_rolls("1 submarine", "1 destroyer", [6] * 12, attacker_techs=stealthy)
    assert asw(found, "defender asw search") == [(2, 1)]
    assert asw(sea_rolls("1 submarine", "1 destroyer", [6] * 12), "defender asw search") == [(3, 1)]
    g = with_techs(passing(), GER, "super_submarines")
    g.apply({"type": "move", "units": "1 submarine", "path": ["SZ 5", "SZ 6", "SZ 7"]})
    assert g.state.pending is not None and g.state.pending["kind"] == "sub_passage"  # a 2 misses: searching at 1


@pytest.mark.rule("AARHE-TECH-advanced-asw")
def test_advanced_asw_searches_and_attacks_one_higher() -> None:
    asw_tech = frozenset({"advanced_asw"})
    found = sea_rolls("1 submarine", "1 destroyer", [6, 1, 6, 6, 6, 6, 6], defender_techs=asw_tech)
    assert asw(found, "defender asw search") == [(4, 1)]
    assert asw(found, "defender asw attack") == [(3, 1)]
    g = with_techs(passing(dice=[3]), UK, "advanced_asw")
    g.apply({"type": "move", "units": "1 submarine", "path": ["SZ 5", "SZ 6", "SZ 7"]})
    assert g.state.pending is None  # detected on a 3: it stops in SZ 6
    assert any(s.unit == "submarine" for s in g.state.stacks("SZ 6"))


@pytest.mark.rule("AARHE-TECH-advanced-asw-air")
def test_with_advanced_asw_aircraft_hunt_submarines_without_the_bonus() -> None:
    asw_tech = frozenset({"advanced_asw"})
    found = sea_rolls("1 submarine", "1 fighter, 1 transport", [6, 1, 6, 6, 6, 6, 6, 6], defender_techs=asw_tech)
    assert asw(found, "defender asw search") == [(3, 1)]
    assert asw(found, "defender asw attack") == [(2, 1)]
    assert not asw(sea_rolls("1 submarine", "1 fighter, 1 transport", [6] * 12), "defender asw search")


def passing(dice: Iterable[int] = (2,)) -> Game:
    """A German submarine in SZ 5 to sail past a British destroyer in SZ 6."""
    return at(GER, "combat-move", {"SZ 5": f"{GER}: 1 submarine", "SZ 6": f"{UK}: 1 destroyer, 1 battleship",
                                   "SZ 7": f"{UK}: 1 transport"}, dice=list(dice))


@pytest.mark.rule("AARHE-TECH-advanced-radar")
def test_advanced_radar_ids_detect_on_two() -> None:
    radar = frozenset({"advanced_radar"})
    b = build_battle("1 fighter, 1 infantry", "1 aa_gun, 1 infantry", RULES, defender_techs=radar)
    _, events = fire(b, [2, 1, 6, 6, 6])  # a 2 detects, the attack's 1 destroys
    assert [(r.step, r.hit_on, r.hits) for r in rolls(events, "id search")] == [("id search", 2, 1)]
    assert rolls(events, "id attack")[0].hit_on == 1
    _, events = fire(build_battle("1 fighter, 1 infantry", "1 aa_gun, 1 infantry", RULES), [2, 6, 6, 6])
    assert rolls(events, "id search")[0].hit_on == 1 and not rolls(events, "id attack")


@pytest.mark.rule("AARHE-TECH-underground-factory-interruption")
def test_an_underground_factory_suffers_no_production_interruption() -> None:
    g = scenario(RULES, nation=GER, phase="purchase", round=2)
    g.log.state = replace(g.state, extra={**g.state.extra, ATTACKED: {GER: {"Southern Europe": 4}}})
    assert interrupted(g.state, g.ruleset, GER) == {"Southern Europe": 2}
    cut = income(g.state, g.ruleset, GER)
    with_techs(g, GER, "underground_factory")
    assert interrupted(g.state, g.ruleset, GER) == {}
    assert income(g.state, g.ruleset, GER) == cut + 2


def _bombed(*techs: str) -> int:
    """What Germany collects with 6 damage (its whole value) on the complex in Southern Europe."""
    g = scenario(RULES, nation=GER, phase="purchase", round=2)
    stack = complex_stack(g.state, g.ruleset, "Southern Europe")
    assert stack is not None
    g.log.state = g.state.with_stacks("Southern Europe", [replace(stack, damage=6) if s == stack else s
                                                          for s in g.state.stacks("Southern Europe")])
    with_techs(g, GER, *techs)
    bank = g.state.banks[GER]
    end_phase(g)
    return g.state.banks[GER] - bank


@pytest.mark.rule("AARHE-TECH-underground-factory-bombing")
def test_an_underground_factory_keeps_its_interruption_amount_against_raids() -> None:
    assert _bombed("underground_factory") == _bombed() + 2  # Southern Europe (6) keeps 2


def rocketeer(*techs: str, dice: Iterable[int] = (4, 3)) -> Game:
    """Germany's conduct combat: two deployed IDs and an undeployed one in Western Europe."""
    lying = Stack(GER, "aa_gun", 1, flags=("undeployed",))
    units = {"Western Europe": "Germany: 2 aa_gun", "United Kingdom": "United Kingdom: 1 factory"}
    g = at(GER, "conduct-combat", units, owners={"Western Europe": GER},
           stacks=[("Western Europe", lying)], dice=list(dice))
    return with_techs(g, GER, *techs)


@pytest.mark.rule("AARHE-TECH-rockets")
def test_each_deployed_id_fires_an_undefended_rocket_at_a_complex_within_three() -> None:
    shot = {"type": "rocket", "launcher": "Western Europe", "target": "United Kingdom"}
    assert refused(rocketeer(), shot) == "AARHE-TECH-rockets"
    g = rocketeer("rockets")
    g.apply(shot)
    assert complex_damage(g.state, g.ruleset, "United Kingdom") == 4  # one die, no defence rolled
    g.apply(shot)  # the second ID, at the same complex
    assert complex_damage(g.state, g.ruleset, "United Kingdom") == 7
    assert [e.type for e in g.log.entries[-1].events].count("dice_rolled") == 1
    assert refused(g, shot) == "AARHE-TECH-rockets"  # the undeployed one does not fire
    assert refused(rocketeer("rockets"), {**shot, "target": "Russia"}) == "AARHE-TECH-rockets"  # out of range


@pytest.mark.rule("AARHE-TECH-advanced-asw", "AARHE-TECH-heavy-bomber")
def test_the_calculator_takes_the_technologies() -> None:
    def win(attacker: str, defender: str, kind: str = "land", **techs: frozenset[str]) -> float:
        return odds(attacker, defender, RULES, battle=kind, **techs).attacker_win

    subs = ("2 submarine", "1 destroyer, 1 fighter", "sea")
    assert win(*subs, defender_techs=frozenset({"advanced_asw"})) < win(*subs)
    raid = ("1 bomber, 2 infantry", "3 infantry")
    assert win(*raid, attacker_techs=frozenset({"heavy_bombers"})) > win(*raid) + 0.2
