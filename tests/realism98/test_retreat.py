"""Enhanced Realism '98 retreats on the board: the attacker after any round, else the defender; split
destinations; all units go; a defender into an embattled territory only as a last resort; defending aircraft."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import GameLog
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario

RULES = "realism-98"
GER, RUS = "Germany", "Russia"
KARELIA, EAST_EUROPE, UKRAINE = "Karelia S.S.R.", "East Europe", "Ukraine S.S.R."
MISS = [6] * 30


def position(nation: str, units: dict[str, str], *, owners: dict[str, str] | None = None,
             dice: list[int] | None = None) -> Game:
    return scenario(RULES, nation=nation, phase="combat-move", clear=True, units=units, owners=owners or {},
                    dice=dice if dice is not None else MISS)


def move(game: Game, units: str, *path: str) -> None:
    game.apply({"type": "move", "units": units, "path": list(path)})


def fight(game: Game, space: str) -> None:
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": space})


def here(game: Game, space: str, owner: str | None = None) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in game.state.stacks(space):
        if owner is None or s.owner == owner:
            out[s.unit] = out.get(s.unit, 0) + s.count
    return out


def pending(game: Game) -> dict[str, Any]:
    assert game.state.pending is not None
    return dict(game.state.pending)


def refused(game: Game, action: dict[str, Any], rule: str) -> None:
    before = game.state
    with pytest.raises(IllegalAction, match=rule):
        game.apply(action)
    assert game.state == before


def karelia_attack(defenders: str = "3 infantry", **kw: Any) -> Game:
    """Germany attacks Karelia from East Europe with 2 infantry and 2 armour; round 1 all misses."""
    game = position(GER, {EAST_EUROPE: "Germany: 2 infantry, 2 armour", KARELIA: f"Russia: {defenders}"}, **kw)
    move(game, "2 infantry, 2 armour", EAST_EUROPE, KARELIA)
    fight(game, KARELIA)
    return game


@pytest.mark.rule("REAL98-RETREAT-attacker-any-round", "REAL98-RETREAT-split-destinations")
def test_the_attacker_retreats_after_a_round_to_several_friendly_neighbours() -> None:
    game = karelia_attack()
    view = pending(game)
    assert (view["kind"], view["side"], view["power"]) == ("press_or_retreat", "attacker", GER)
    # every friendly neighbour of Karelia, not only East Europe where the attack came from
    assert set(view["destinations"]) == {EAST_EUROPE, "Finland Norway", UKRAINE}
    game.apply({"type": "retreat", "split": {UKRAINE: "1 armour", EAST_EUROPE: "2 infantry, 1 armour"}})
    assert here(game, UKRAINE) == {"armour": 1}
    assert here(game, EAST_EUROPE) == {"infantry": 2, "armour": 1}
    assert here(game, KARELIA) == {"infantry": 3} and game.state.owners[KARELIA] == RUS
    assert game.state.pending is None


@pytest.mark.rule("REAL98-RETREAT-attacker-any-round")
def test_the_attacker_may_also_retreat_after_a_later_round() -> None:
    game = karelia_attack()
    game.apply({"type": "press"})
    game.apply({"type": "press"})  # the defender stays
    assert pending(game)["cycle"] == 2 and pending(game)["side"] == "attacker"
    game.apply({"type": "retreat", "to": UKRAINE})
    assert here(game, UKRAINE) == {"infantry": 2, "armour": 2}


@pytest.mark.rule("REAL98-RETREAT-all-units")
def test_no_partial_retreat_and_no_enemy_destination() -> None:
    game = karelia_attack()
    refused(game, {"type": "retreat", "split": {UKRAINE: "2 armour"}}, "REAL98-RETREAT-all-units")
    refused(game, {"type": "retreat", "split": {UKRAINE: "2 armour", "Russia": "2 infantry"}},
            "REAL98-RETREAT-split-destinations")
    refused(game, {"type": "retreat", "to": "Caucasus"}, "REAL98-RETREAT-split-destinations")


@pytest.mark.rule("REAL98-RETREAT-all-units")
def test_submarines_never_submerge_alone() -> None:
    game = position(GER, {"Baltic Sea Zone": "Germany: 2 submarine",
                          "North Sea Zone": "United Kingdom: 1 battleship"})
    move(game, "2 submarine", "Baltic Sea Zone", "North Sea Zone")
    fight(game, "North Sea Zone")
    view = pending(game)
    assert view["kind"] == "press_or_retreat"  # no offer to submerge: only the whole side retreats
    kinds = {a.type for a in game.legal_actions()}
    assert "submerge" not in kinds and {"press", "retreat"} <= kinds


@pytest.mark.rule("REAL98-RETREAT-defender")
def test_the_defender_retreats_when_the_attacker_stays_and_the_attacker_takes_the_territory() -> None:
    game = karelia_attack()
    game.apply({"type": "press"})
    view = pending(game)
    assert (view["kind"], view["side"], view["power"]) == ("press_or_retreat", "defender", RUS)
    assert set(view["destinations"]) == {"Caucasus", "Russia"}
    game.apply({"type": "retreat", "to": "Russia", "power": RUS})
    assert here(game, "Russia") == {"infantry": 3}
    assert here(game, KARELIA) == {"infantry": 2, "armour": 2}
    assert game.state.owners[KARELIA] == GER
    assert game.state.pending is None


@pytest.mark.rule("REAL98-RETREAT-defender")
def test_the_defender_may_stand_and_fight_on() -> None:
    game = karelia_attack()
    game.apply({"type": "press"})
    game.apply({"type": "press"})
    assert pending(game)["cycle"] == 2 and pending(game)["side"] == "attacker"


@pytest.mark.rule("REAL98-RETREAT-split-destinations", "REAL98-RETREAT-defender")
def test_the_defender_splits_its_retreat() -> None:
    game = karelia_attack("2 infantry, 1 armour")
    game.apply({"type": "press"})
    game.apply({"type": "retreat", "split": {"Russia": "2 infantry", "Caucasus": "1 armour"}})
    assert here(game, "Russia") == {"infantry": 2}
    assert here(game, "Caucasus") == {"armour": 1}
    assert game.state.owners[KARELIA] == GER


@pytest.mark.rule("REAL98-RETREAT-into-battle")
def test_into_an_embattled_territory_only_without_another_choice() -> None:
    units = {EAST_EUROPE: "Germany: 2 infantry, 2 armour", KARELIA: "Russia: 3 infantry",
             UKRAINE: "Germany: 1 armour", "Caucasus": "Russia: 1 infantry"}
    # with Russia (the territory) friendly: Caucasus, under attack, is refused
    game = position(GER, units)
    move(game, "2 infantry, 2 armour", EAST_EUROPE, KARELIA)
    move(game, "1 armour", UKRAINE, "Caucasus")
    fight(game, KARELIA)
    game.apply({"type": "press"})
    assert pending(game)["destinations"] == ["Russia"]
    refused(game, {"type": "retreat", "to": "Caucasus"}, "REAL98-RETREAT-into-battle")
    # with Russia held by Germany the embattled Caucasus is the only way out: the infantry join its battle
    game = position(GER, units, owners={"Russia": GER})
    move(game, "2 infantry, 2 armour", EAST_EUROPE, KARELIA)
    move(game, "1 armour", UKRAINE, "Caucasus")
    fight(game, KARELIA)
    game.apply({"type": "press"})
    assert pending(game)["destinations"] == ["Caucasus"]
    game.apply({"type": "retreat", "to": "Caucasus"})
    assert here(game, "Caucasus", RUS) == {"infantry": 4}
    game.apply({"type": "fight", "space": "Caucasus"})
    assert pending(game)["defender"] == {RUS: "4 infantry"}


def _only_friendly(keep: set[str]) -> dict[str, str]:
    """Every Allied territory but `keep` held by Germany."""
    board = load_ruleset(RULES).board
    return {name: GER for name, owner in board.owners.items()
            if owner is not None and board.side_of(owner) != board.side_of(GER) and name not in keep | {KARELIA}}


@pytest.mark.rule("REAL98-RETREAT-defending-aircraft")
def test_defending_aircraft_fly_to_the_closest_friendly_territory_in_range() -> None:
    # no friendly neighbour: Kazakh S.S.R. (2 away) is the closest friendly territory; India (3) is not
    game = karelia_attack("1 fighter", owners=_only_friendly({"Kazakh S.S.R.", "India"}))
    game.apply({"type": "press"})
    assert pending(game)["destinations"] == ["Kazakh S.S.R."]
    refused(game, {"type": "retreat", "to": "India"}, "REAL98-RETREAT-defending-aircraft")
    game.apply({"type": "retreat", "to": "Kazakh S.S.R."})
    assert here(game, "Kazakh S.S.R.") == {"fighter": 1}
    assert here(game, KARELIA) == {"infantry": 2, "armour": 2}


@pytest.mark.rule("REAL98-RETREAT-defending-aircraft")
def test_defending_aircraft_go_to_an_adjacent_friendly_territory_first() -> None:
    game = karelia_attack("1 infantry, 1 fighter")
    game.apply({"type": "press"})
    refused(game, {"type": "retreat", "split": {"Russia": "1 infantry", "Kazakh S.S.R.": "1 fighter"}},
            "REAL98-RETREAT-defending-aircraft")
    game.apply({"type": "retreat", "split": {"Russia": "1 infantry", "Caucasus": "1 fighter"}})
    assert here(game, "Caucasus") == {"fighter": 1} and here(game, "Russia") == {"infantry": 1}


@pytest.mark.rule("REAL98-RETREAT-defending-aircraft")
def test_aircraft_with_no_friendly_territory_in_range_cannot_retreat() -> None:
    # the closest friendly territory is 5 away: a bomber (range 6) retreats, a fighter (4) stays and fights
    far = {"Alaska"}
    game = karelia_attack("1 fighter, 1 bomber", owners=_only_friendly(far))
    game.apply({"type": "press"})
    assert pending(game)["destinations"] == ["Alaska"]
    game.apply({"type": "retreat", "to": "Alaska"})
    assert pending(game)["side"] == "attacker" and pending(game)["defender"] == {RUS: "1 fighter"}
    game.apply({"type": "press"})
    # a lone fighter that cannot retreat is offered no retreat
    assert pending(game)["side"] == "attacker" and pending(game)["cycle"] == 3
    assert here(game, "Alaska") == {}  # the bomber arrives when the battle ends


def test_a_game_file_replays_a_split_retreat() -> None:
    game = karelia_attack("2 infantry, 1 armour")
    game.apply({"type": "press"})
    game.apply({"type": "retreat", "split": {"Russia": "2 infantry", "Caucasus": "1 armour"}})
    again = GameLog(game.log.initial, game.log.entries).replay()
    assert again == game.state
