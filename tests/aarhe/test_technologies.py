"""AARHE technologies' effects: Long Range Aircraft, Heavy Bomber, Heavy Artillery and Heavy Tank, Advanced
Submarine, Advanced Production."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from aare.combat.events import DiceRolled
from aare.economy.complex_damage import complex_damage
from aare.engine import Game
from aare.odds import build_battle
from aare.scenario import scenario
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
