"""AA50E national advantages in movement: the Soviet Railway and Mobile Industry, Japan's Tokyo Express (with the
option `national_advantages` on and off)."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from aare.errors import IllegalAction
from aare.invariants import check_log
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aa50e.advantages_moves import RAIL_LINE
from aare.scenario import scenario
from aare.state.unit_stacks import count_units

RULES = "aa50e-1941"
SOV, JPN = "Soviet Union", "Japan"


def opts(on: bool) -> dict[str, Any]:
    return {"national_advantages": True} if on else {}


def soviet(phase: str, units: dict[str, str], on: bool = True, **kw: Any) -> Game:
    return scenario(RULES, nation=SOV, phase=phase, clear=True, units=units, options=opts(on), **kw)


def move(game: Game, units: str, *path: str) -> None:
    game.apply({"type": "move", "units": units, "path": list(path)})


@pytest.mark.rule("AA50E-NA-rus-railway-territories")
def test_the_rail_line_is_the_fourteen_territories_and_connected() -> None:
    board = load_ruleset(RULES, {}).board
    assert len(RAIL_LINE) == 14 and all(board.resolve(t) == t for t in RAIL_LINE)
    seen, todo = set(), [next(iter(sorted(RAIL_LINE)))]
    while todo:
        here = todo.pop()
        seen.add(here)
        todo += [n for n in board.spaces[here].neighbors if n in RAIL_LINE and n not in seen]
    assert seen == RAIL_LINE


@pytest.mark.rule("AA50E-NA-rus-railway", "AA50E-NA-rus-railway-territories")
@pytest.mark.parametrize("on", [True, False])
def test_soviet_land_units_ride_2_territories_along_the_rail_line(on: bool) -> None:
    units = {"Novosibirsk": "Soviet Union: 2 infantry, 1 artillery, 1 aa gun", "Russia": "Soviet Union: 1 infantry",
             "Kazakh S.S.R.": "Soviet Union: 1 infantry"}
    game = soviet("non-combat-move", units, on)
    if not on:
        with pytest.raises(IllegalAction):
            move(game, "1 infantry", "Novosibirsk", "Russia", "Caucasus")
        return
    move(game, "1 infantry", "Novosibirsk", "Russia", "Caucasus")
    move(game, "1 artillery, 1 aa gun", "Novosibirsk", "Kazakh S.S.R.", "Russia")
    assert count_units(game.state.stacks("Caucasus"), SOV) == {"infantry": 1}
    with pytest.raises(IllegalAction) as info:
        move(game, "1 infantry", "Russia", "Caucasus", "Persia")  # Persia is off the line
    assert info.value.rule_id == "AA50E-NA-rus-railway"
    with pytest.raises(IllegalAction):
        move(game, "1 infantry", "Novosibirsk", "Russia", "Caucasus", "Ukraine")  # 3 territories
    assert not check_log(game.log)
    combat = soviet("combat-move", units, on)
    with pytest.raises(IllegalAction):
        move(combat, "1 infantry", "Novosibirsk", "Russia", "Caucasus")  # not in combat move


@pytest.mark.rule("AA50E-NA-rus-mobile-industry")
@pytest.mark.parametrize("on", [True, False])
def test_soviet_complexes_move_as_aa_guns(on: bool) -> None:
    units = {"Caucasus": "Soviet Union: 1 factory", "Karelia S.S.R.": "Soviet Union: 1 factory"}
    game = soviet("non-combat-move", units, on)
    if not on:
        with pytest.raises(IllegalAction):
            move(game, "1 factory", "Caucasus", "Russia")
        return
    move(game, "1 factory", "Caucasus", "Russia")
    assert count_units(game.state.stacks("Russia"), SOV) == {"factory": 1}
    move(game, "1 factory", "Karelia S.S.R.", "Archangel", "Russia")  # on the railway too
    assert count_units(game.state.stacks("Russia"), SOV) == {"factory": 2}
    assert not check_log(game.log)
    combat = soviet("combat-move", units, on)
    with pytest.raises(IllegalAction):
        move(combat, "1 factory", "Caucasus", "Russia")  # non-combat move only


def japan(phase: str, on: bool, ships: str = "1 destroyer, 1 cruiser", **kw: Any) -> Game:
    units = {"SZ 61": f"Japan: {ships}", "Formosa": "Japan: 3 infantry", "Fukien": "China: 1 infantry"}
    return scenario(RULES, nation=JPN, phase=phase, clear=True, units=units, options=opts(on), **kw)


@pytest.mark.rule("AA50E-NA-jpn-tokyo-express-carry", "AA50E-NA-jpn-tokyo-express-fight")
@pytest.mark.parametrize("on", [True, False])
def test_japanese_destroyers_and_cruisers_carry_one_infantry(on: bool) -> None:
    game = japan("non-combat-move", on)
    load = {"type": "load", "units": "2 infantry", "territory": "Formosa", "sea_zone": "SZ 61"}
    if not on:
        with pytest.raises(IllegalAction):
            game.apply(load)
        return
    game.apply(load)
    with pytest.raises(IllegalAction):
        game.apply({**load, "units": "1 infantry"})  # one each: no room left
    assert count_units(game.state.stacks("Formosa"), JPN) == {"infantry": 1} and not check_log(game.log)


@pytest.mark.rule("AA50E-NA-jpn-tokyo-express-carry", "AA50E-NA-jpn-tokyo-express-fight")
def test_a_loaded_cruiser_lands_its_infantry_and_bombards() -> None:
    game = japan("combat-move", True, "1 cruiser", dice=[1, 6, 6])
    game.apply({"type": "load", "units": "1 infantry", "territory": "Formosa", "sea_zone": "SZ 61"})
    move(game, "1 infantry", "SZ 61", "Fukien")
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "Fukien"})
    purposes = [e.purpose for e in game.log.entries[-1].events if e.type == "dice_rolled"]  # type: ignore[attr-defined]
    assert any("bombardment" in p and "cruiser" in p for p in purposes)
    assert game.state.owners["Fukien"] == JPN and not check_log(game.log)
