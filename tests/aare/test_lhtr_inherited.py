"""LHTR rules AARe keeps (seed "LHTR SUMMARY"), checked under the `aare-5.0` ruleset: they come from the LHTR
core and the AARe modules leave them alone."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.combat.decisions import ChooseSubmerge, Press, PressOrRetreat, Retreat, Submerge
from aare.combat.events import Retreated, Submerged
from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import GameLog
from aare.movement import flags
from aare.movement.battles import pending_battles
from aare.state.unit_stacks import Stack, count_units
from tests.aare.common import GER, UK, US, battle, one_cycle, position, steps, units


def move(game: Game, units_text: str, *path: str, raid: bool = False) -> None:
    action: dict[str, Any] = {"type": "move", "units": units_text, "path": list(path)}
    if raid:
        action["raid"] = True
    game.apply(action)


def rule_of(game: Game, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    return err.value.rule_id


def mv(units_text: str, *path: str) -> dict[str, Any]:
    return {"type": "move", "units": units_text, "path": list(path)}


def phase(game: Game, name: str) -> Game:
    return Game(GameLog(replace(game.state, phase=name)))


@pytest.mark.rule("AARE-LHTR-combat-move-scope")
def test_combat_move_is_for_attacks_only() -> None:
    game = position("Russia", "combat-move", {"Russia": "Russia: 1 infantry"})
    assert rule_of(game, mv("1 infantry", "Russia", "Archangel")) == "LHTR-TURN-combat-move-attack-only"


@pytest.mark.rule("AARE-LHTR-ncm-scope")
def test_noncombat_move_is_for_units_that_did_not_fight_except_aircraft() -> None:
    game = position("Russia", "combat-move", {
        "Karelia S.S.R.": "Russia: 1 infantry", "Russia": "Russia: 1 infantry, 1 fighter",
        "Belorussia": "Germany: 1 infantry"}, owners={"West Russia": "Russia"})
    move(game, "1 infantry", "Karelia S.S.R.", "Belorussia")
    move(game, "1 fighter", "Russia", "West Russia", "Belorussia")
    ncm = phase(game, "non-combat-move")
    assert rule_of(ncm, mv("1 infantry", "Belorussia", "Karelia S.S.R.")) == "LHTR-TURN-ncm-unmoved-only"
    move(ncm, "1 fighter", "Belorussia", "West Russia")
    move(ncm, "1 infantry", "Russia", "Archangel")


@pytest.mark.rule("AARE-LHTR-aa-no-ncm")
def test_no_aa_fire_at_noncombat_flights() -> None:
    game = position("Germany", "non-combat-move", {"Ukraine S.S.R.": "Germany: 1 fighter",
                                                   "Caucasus": "Russia: 1 aa gun, 1 infantry"})
    move(game, "1 fighter", "Ukraine S.S.R.", "Caucasus", "West Russia")
    [fighter] = [s for s in game.state.stacks("West Russia") if s.unit == "fighter"]
    assert not flags.values(fighter, flags.FLYOVER)


@pytest.mark.rule("AARE-LHTR-dice-in-conduct-combat")
def test_aa_fire_at_a_bomber_flying_over_is_rolled_in_conduct_combat() -> None:
    game = position("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 1 bomber", "Western Europe": "Germany: 1 infantry, 1 aa gun",
        "Germany": "Germany: 1 industrial complex, 1 aa gun"}, dice=[2, 3, 5])
    move(game, "1 bomber", "United Kingdom", "SZ 7", "Western Europe", "Germany", raid=True)
    assert not any(e.type == "dice_rolled" for entry in game.log.entries for e in entry.events)
    game.apply({"type": "end_phase"})
    rolled = [tuple(e.values) for entry in game.log.entries for e in entry.events  # type: ignore[attr-defined]
              if e.type == "dice_rolled"]
    assert game.state.phase == "conduct-combat" and rolled == [(2,)]


@pytest.mark.rule("AARE-LHTR-combat-load-must-unload")
def test_units_loaded_in_combat_move_must_go_ashore() -> None:
    game = position("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 2 infantry", "SZ 7": "United Kingdom: 1 transport",
        "Western Europe": "Germany: 1 infantry"})
    game.apply({"type": "load", "units": "2 infantry", "territory": "United Kingdom", "sea_zone": "SZ 7"})
    assert rule_of(game, {"type": "end_phase"}) == "LHTR-TRANSPORT-cm-load-must-assault"
    move(game, "2 infantry", "SZ 7", "Western Europe")
    game.apply({"type": "end_phase"})


def mobilize(power: str, pool: dict[str, int], placed: dict[str, str], stacks: Any = ()) -> Game:
    game = position(power, "mobilize", placed, extra={"purchased": {power: pool}}, stacks=stacks)
    return game


@pytest.mark.rule("AARE-LHTR-no-ftr-move-at-mobilize")
def test_fighters_do_not_move_in_mobilize() -> None:
    game = mobilize(UK, {"carrier": 1}, {"United Kingdom": "United Kingdom: 1 fighter, 1 factory"})
    game.apply({"type": "place", "units": "1 carrier", "space": "SZ 7"})
    assert rule_of(game, mv("1 fighter", "United Kingdom", "SZ 7")) == "LHTR-MOBILIZE-no-fighter-movement"


@pytest.mark.rule("AARE-LHTR-ftr-hover-new-carrier")
def test_a_hovering_fighter_lands_on_a_new_carrier() -> None:
    hover = Stack(GER, "fighter", 1, flags=("turn:hover",))
    game = mobilize(GER, {"carrier": 1}, {"Germany": "Germany: 1 factory"}, stacks=[("SZ 5", hover)])
    game.apply({"type": "place", "units": "1 carrier", "space": "SZ 5"})
    game.apply({"type": "end_phase"})
    assert [s for s in game.state.stacks("SZ 5") if s.unit == "fighter"] == [Stack(GER, "fighter", 1)]


@pytest.mark.rule("AARE-LHTR-new-ftr-on-carrier")
def test_new_fighters_go_onto_an_existing_carrier_next_to_the_complex() -> None:
    game = mobilize(US, {"fighter": 2}, {"Western United States": "United States: 1 factory",
                                         "SZ 55": "United States: 1 carrier, 1 fighter",
                                         "SZ 56": "United States: 1 carrier"})
    game.apply({"type": "place", "units": "1 fighter", "space": "SZ 55"})
    assert count_units(game.state.stacks("SZ 55")) == {"carrier": 1, "fighter": 2}
    assert rule_of(game, {"type": "place", "units": "1 fighter", "space": "SZ 55"}) == \
        "LHTR-MOBILIZE-fighters-on-new-carrier"


@pytest.mark.rule("AARE-LHTR-retreat-before-submerge")
def test_the_attacker_decides_before_the_defender_submerges() -> None:
    b = battle(units(UK, battleship=1), units(GER, submarine=1, transport=1))
    b, events = one_cycle(b, [6, 6, 6], Submerge(0), stop=True)  # sub 6; battleship 6; transport 6
    assert isinstance(b.state.pending, PressOrRetreat)
    names = [s for s, _ in steps(events)]
    assert names.index("press or retreat") > names.index("attacker submerge")
    b, _ = one_cycle(b, [], Press(), stop=True)
    assert isinstance(b.state.pending, ChooseSubmerge) and b.state.pending.side == "defender"


@pytest.mark.rule("AARE-LHTR-retreat-sub-submerge")
def test_attacking_subs_may_submerge_while_the_others_retreat_unless_a_destroyer_stops_them() -> None:
    b = battle(units(GER, submarine=1, destroyer=1), units(UK, battleship=1), retreat_to=("SZ 5",))
    b, _ = one_cycle(b, [6], stop=True)  # the sub misses (undetected: no UK destroyer)
    assert isinstance(b.state.pending, ChooseSubmerge) and b.state.pending.stage == "after opening fire"
    b, _ = one_cycle(b, [6, 6], Submerge(0), stop=True)  # destroyer 6; battleship 6
    assert isinstance(b.state.pending, ChooseSubmerge) and b.state.pending.stage == "end of cycle"
    b, events = one_cycle(b, [], Submerge(1), Retreat("SZ 5"))
    assert [e.units for e in events if isinstance(e, Submerged)] == [{"submarine": 1}]
    assert [(e.units, e.to) for e in events if isinstance(e, Retreated)] == [({"destroyer": 1}, "SZ 5")]
    # a detected sub facing a UK destroyer cannot submerge: it retreats with the fleet or stays
    b = battle(units(GER, submarine=1, destroyer=1), units(UK, destroyer=1), retreat_to=("SZ 5",))
    b, events = one_cycle(b, [1, 6, 6, 6], stop=True)
    assert isinstance(b.state.pending, PressOrRetreat)


@pytest.mark.rule("AARE-LHTR-defender-submerge")
def test_a_defending_sub_submerges_while_the_battleship_fights_on() -> None:
    b = battle(units(UK, battleship=1), units(GER, battleship=1, submarine=1))
    b, _ = one_cycle(b, [6, 6, 6], Submerge(0), stop=True)  # sub 6; UK BB 6; German BB 6
    assert isinstance(b.state.pending, PressOrRetreat)
    b, events = one_cycle(b, [], Press(), Submerge(1))
    assert [e.units for e in events if isinstance(e, Submerged)] == [{"submarine": 1}]
    assert b.state.cycle == 2 and not b.state.ended


@pytest.mark.rule("AARE-LHTR-no-multinational-attack")
def test_nations_do_not_attack_together() -> None:
    with pytest.raises(IllegalAction) as err:
        battle({**units(UK, fighter=1), **units(US, fighter=1)}, units(GER, infantry=1), "land")
    assert err.value.rule_id == "LHTR-COMBAT-no-joint-attacks"


@pytest.mark.rule("AARE-LHTR-multinational-defense")
def test_allied_nations_defend_together() -> None:
    game = position("Germany", "combat-move", {"SZ 5": "Germany: 1 battleship",
                                               "SZ 6": "United Kingdom: 1 destroyer; United States: 1 transport"})
    move(game, "1 battleship", "SZ 5", "SZ 6")
    [site] = pending_battles(game.state, game.ruleset)
    assert set(site.defenders) == {UK, US}
    game = Game(game.log, ScriptedDice([1, 6, 6]))  # the battleship hits; destroyer and transport miss
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "SZ 6"})
    pending = game.state.pending
    assert pending is not None and pending["defender"] == {UK: "1 destroyer", US: "1 transport"}
    assert {o["units"] for o in pending["options"]} == {"United States: 1 transport", "United Kingdom: 1 destroyer"}
