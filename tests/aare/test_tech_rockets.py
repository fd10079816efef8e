"""AARe rockets (seed WEAPONS DEVELOPMENT 2): AA guns strike industrial complexes within 3 spaces, one gun per
territory, each complex once a turn, damage capped at the territory's value (shared with raids)."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from aare.events import BankChanged, UnitsChanged
from aare.movement import flags
from tests.aare.common import GER, RUS, UK
from tests.aare.tech_helpers import act, dice_of, end, game, move, rejected, with_dice

WEUR, UKT, ARCH = "Western Europe", "United Kingdom", "Archangel"


def rocket(launcher: str, target: str) -> dict[str, Any]:
    return {"type": "rocket", "launcher": launcher, "target": target}


def germany(placed: dict[str, str], dice: list[int] | None = None, **kwargs: Any) -> Game:
    owners = {WEUR: GER, "Germany": GER, UKT: UK, "Eastern Canada": UK, ARCH: RUS, "Karelia S.S.R.": RUS}
    techs = kwargs.pop("techs", {GER: ["rockets"]})
    return game(GER, "conduct-combat", placed, owners=owners, techs=techs, dice=dice, **kwargs)


def losses(events: tuple[Any, ...]) -> list[tuple[str, int, str]]:
    return [(e.power, e.delta, e.rule_id) for e in events if isinstance(e, BankChanged)]


@pytest.mark.rule("AARE-TECH-rockets-strike")
def test_an_aa_gun_strikes_a_complex_within_three_spaces() -> None:
    placed = {WEUR: "Germany: 1 aa gun", UKT: "United Kingdom: 1 factory",
              "Eastern Canada": "United Kingdom: 1 factory"}
    g = germany(placed, [4])
    rejected(g, rocket(WEUR, "Eastern Canada"), "AARE-TECH-rockets-strike")  # 4 spaces away
    offered = {(a.launcher, a.target) for a in g.legal_actions() if a.type == "rocket"}
    assert offered == {(WEUR, UKT)}
    events = act(g, rocket(WEUR, UKT))
    assert dice_of(events) == [(4,)] and losses(events) == [(UK, -4, "AARE-TECH-rockets-cap")]
    [gun] = [e.after for e in events if isinstance(e, UnitsChanged)]
    assert flags.has(gun, flags.COMBAT)  # the launcher has fought: it stays put this turn
    no_tech = germany(placed, [4], techs={})
    rejected(no_tech, rocket(WEUR, UKT), "AARE-TECH-rockets-strike")


@pytest.mark.rule("AARE-TECH-rockets-one-gun-per-territory")
def test_only_one_gun_a_territory_fires() -> None:
    placed = {"Germany": "Germany: 2 aa guns", UKT: "United Kingdom: 1 factory",
              "Karelia S.S.R.": "Russia: 1 factory"}
    g = germany(placed, [2])
    act(g, rocket("Germany", UKT))
    rejected(g, rocket("Germany", "Karelia S.S.R."), "AARE-TECH-rockets-one-gun-per-territory")


@pytest.mark.rule("AARE-TECH-rockets-ic-once")
def test_each_complex_is_a_rocket_target_once_a_turn() -> None:
    placed = {"Germany": "Germany: 1 aa gun", WEUR: "Germany: 1 aa gun", UKT: "United Kingdom: 1 factory",
              "Karelia S.S.R.": "Russia: 1 factory"}
    g = germany(placed, [2, 3])
    act(g, rocket(WEUR, UKT))
    rejected(g, rocket("Germany", UKT), "AARE-TECH-rockets-ic-once")
    events = act(g, rocket("Germany", "Karelia S.S.R."))  # another complex is fine
    assert losses(events) == [(RUS, -2, "AARE-TECH-rockets-cap")]


@pytest.mark.rule("AARE-TECH-rockets-ic-once")
def test_a_raid_may_still_hit_a_complex_a_rocket_hit() -> None:
    placed = {WEUR: "Germany: 1 aa gun", "Germany": "Germany: 1 bomber", UKT: "United Kingdom: 1 factory"}
    g = game(GER, "combat-move", placed, owners={WEUR: GER, "Germany": GER, UKT: UK}, techs={GER: ["rockets"]})
    move(g, "1 bomber", "Germany", WEUR, "SZ 7", UKT, raid=True)
    end(g)
    g = with_dice(g, [3, 2])
    act(g, {"type": "fight", "space": UKT})  # the raid first: 3
    events = act(g, rocket(WEUR, UKT))  # then a rocket on its own: 2
    assert losses(events) == [(UK, -2, "AARE-TECH-rockets-cap")]


@pytest.mark.rule("AARE-TECH-rockets-cap")
def test_rocket_damage_is_capped_at_the_territory_value() -> None:
    g = germany({WEUR: "Germany: 1 aa gun", ARCH: "Russia: 1 factory"}, [6])
    bank = g.state.banks[RUS]
    events = act(g, rocket(WEUR, ARCH))
    assert losses(events) == [(RUS, -2, "AARE-TECH-rockets-cap")] and g.state.banks[RUS] == bank - 2


@pytest.mark.rule("AARE-TECH-rockets-cap", "AARE-TECH-hb-sbr-cap")
def test_seed_example_raid_and_rocket_on_the_uk_do_at_most_eight() -> None:
    """Seed BASE GAME 5: Germany can do 8 IPCs of damage to the UK with SBR and rockets on G2."""
    placed = {WEUR: "Germany: 1 aa gun", "Germany": "Germany: 1 bomber", UKT: "United Kingdom: 1 factory"}
    g = game(GER, "combat-move", placed, owners={WEUR: GER, "Germany": GER, UKT: UK},
             techs={GER: ["rockets", "heavy_bombers"]})
    move(g, "1 bomber", "Germany", WEUR, "SZ 7", UKT, raid=True)
    end(g)
    act(g, rocket(WEUR, UKT))  # joins the raid
    g = with_dice(g, [6, 5, 4])  # heavy bomber 6 + 5, rocket 4: 15 rolled
    bank = g.state.banks[UK]
    act(g, {"type": "fight", "space": UKT})
    assert g.state.banks[UK] == bank - 8


@pytest.mark.rule("AARE-TECH-rockets-strike", "AARE-TECH-jet-intercept-roll")
def test_the_targets_jets_intercept_a_rocket() -> None:
    placed = {WEUR: "Germany: 1 aa gun", UKT: "United Kingdom: 1 factory, 2 fighters"}
    g = germany(placed, [5, 1], techs={GER: ["rockets"], UK: ["jet_fighters"]})
    bank = g.state.banks[UK]
    events = act(g, rocket(WEUR, UKT))  # interceptors 5, 1: the rocket is down
    assert dice_of(events) == [(5, 1)] and g.state.banks[UK] == bank
    missed = germany(placed, [5, 6, 3], techs={GER: ["rockets"], UK: ["jet_fighters"]})
    events = act(missed, rocket(WEUR, UKT))
    assert dice_of(events) == [(5, 6), (3,)] and losses(events) == [(UK, -3, "AARE-TECH-rockets-cap")]
