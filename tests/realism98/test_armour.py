"""Enhanced Realism '98 armour on the Classic board: no blitz in the combat move, the second armour move with its
own combats between combat and non-combat move, the one-territory non-combat move of armour that attacked, and
armour carried by sea staying put. Illegal moves name the Realism ledger's rule and change nothing."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace

import pytest

from aare.dice import ScriptedDice
from aare.economy.turn import turn_record
from aare.engine import Game
from aare.events import PhaseEntered
from aare.game_file import check_play
from aare.game_log import GameLog
from aare.phases.base import phase_kind
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from aare.selfplay import play_game
from aare.state.unit_stacks import Stack, add_stack
from tests.movement.helpers import end, legal, move, mv, rejected, units_in

R98 = "realism-98"
EE, UKR, CAU, KAR, RUS = "East Europe", "Ukraine S.S.R.", "Caucasus", "Karelia S.S.R.", "Russia"
BLACK_SEA = "Black Sea Zone"


def at(
    units: Mapping[str, str],
    *,
    rules: str = R98,
    phase: str = "combat-move",
    owners: Mapping[str, str] | None = None,
    stacks: Iterable[tuple[str, Stack]] = (),
    dice: Iterable[int] = (),
    options: Mapping[str, bool] | None = None,
) -> Game:
    """Germany to move on an empty Classic board with `units`; the Ukraine is Russian; the turn began with these
    owners."""
    game = scenario(rules, nation="Germany", phase=phase, clear=True, units=units,
                    owners={UKR: "Russia", **(owners or {})}, options=options)
    state = game.state
    state = replace(state, extra={**state.extra, "turn": {**turn_record(state), "owners": dict(state.owners)}})
    for space, stack in stacks:
        state = state.with_stacks(space, add_stack(state.stacks(space), stack))
    return Game(GameLog(state), ScriptedDice(list(dice)))


def fight(game: Game, space: str) -> None:
    game.apply({"type": "fight", "space": space})


def after_first_combat(units: Mapping[str, str], path: tuple[str, ...] = (EE, UKR), dice: Iterable[int] = (1, 6),
                       **kw: object) -> Game:
    """One tank attacks along `path` in the combat move and wins with `dice`; play is then in the second armour
    move."""
    game = at(units, dice=[*dice, *kw.pop("later", ())], **kw)  # type: ignore[arg-type]
    move(game, "1 armour", *path)
    end(game)
    fight(game, path[-1])
    assert game.state.owners[path[-1]] == "Germany"
    end(game)
    assert game.state.phase == "armour-move"
    return game


def moves_offered(game: Game) -> list[tuple[str, ...]]:
    return [tuple(a.to_json()["path"]) for a in game.legal_actions() if a.to_json()["type"] == "move"]


# ------------------------------------------------------------------------------------------------ the turn


@pytest.mark.rule("REAL98-ARMOR-second-move-step")
def test_the_armour_move_and_its_combat_come_between_combat_and_non_combat_move() -> None:
    phases = [p.name for p in load_ruleset(R98).phase_table()]
    i = phases.index("conduct-combat")
    assert phases[i:i + 4] == ["conduct-combat", "armour-move", "armour-combat", "non-combat-move"]
    assert "armour-move" not in [p.name for p in load_ruleset("classic-2e").phase_table()]
    titles = {p.name: p.title for p in load_ruleset(R98).phase_table()}
    assert titles["armour-move"] == "Second armour move" and titles["armour-combat"] == "Second armour combat"
    assert phase_kind("armour-move") == "combat-move" and phase_kind("armour-combat") == "conduct-combat"

    game = at({EE: "Germany: 2 armour", UKR: "Russia: 1 infantry", CAU: "Russia: 1 infantry"}, dice=[1, 6, 2, 6])
    entered: list[str] = []
    steps = [mv("1 armour", EE, UKR), {"type": "end_phase"}, {"type": "fight", "space": UKR}, {"type": "end_phase"},
             mv("1 armour", UKR, CAU), {"type": "end_phase"}, {"type": "fight", "space": CAU}, {"type": "end_phase"}]
    for step in steps:
        entered += [e.phase for e in game.apply(step) if isinstance(e, PhaseEntered)]
    assert entered == ["conduct-combat", "armour-move", "armour-combat", "non-combat-move"]
    assert game.state.owners[CAU] == "Germany"  # the armour combat took Caucasus


@pytest.mark.rule("REAL98-ARMOR-second-move-step")
def test_only_armour_moves_in_the_second_armour_move() -> None:
    game = after_first_combat({EE: "Germany: 1 armour, 1 infantry, 1 fighter", UKR: "Russia: 1 infantry",
                               CAU: "Russia: 1 infantry"})
    rejected(game, mv("1 infantry", EE, UKR), "REAL98-ARMOR-second-move-step", "only armour")
    rejected(game, mv("1 fighter", EE, UKR, CAU), "REAL98-ARMOR-second-move-step", "only armour")
    rejected(game, mv("1 armour, 1 infantry", UKR, CAU), "REAL98-ARMOR-second-move-step", "only armour")
    offered = {(a.to_json()["units"]) for a in game.legal_actions() if a.to_json()["type"] == "move"}
    assert offered == {"1 armour"}
    move(game, "1 armour", UKR, CAU)
    rejected(game, mv("1 armour", CAU, RUS), "REAL98-ARMOR-second-move-step", "has made its second armour move")


@pytest.mark.rule("REAL98-ARMOR-second-move-step")
def test_the_armour_combat_fights_only_the_armour_moves_battles() -> None:
    # the bomber's raid on Russia, fought in the combat phase, is not fought again
    game = at({EE: "Germany: 2 armour, 1 bomber", UKR: "Russia: 1 infantry", RUS: "Russia: 1 industrial complex"},
              owners={KAR: "Germany"}, dice=[3, 1, 6])
    move(game, "1 bomber", EE, KAR, RUS, raid=True)
    move(game, "1 armour", EE, UKR)
    end(game)
    fight(game, RUS)
    fight(game, UKR)
    end(game)
    end(game)  # no armour move
    assert game.state.phase == "armour-combat"
    assert [a.to_json() for a in game.legal_actions()] == [{"type": "end_phase"}]  # no raid again, no rocket


# ------------------------------------------------------------------------------------------------ no blitz


@pytest.mark.rule("REAL98-ARMOR-adjacent-only")
def test_armour_attacks_only_adjacent_territories_in_the_combat_move() -> None:
    game = at({EE: "Germany: 1 armour", CAU: "Russia: 1 infantry"}, owners={KAR: "Germany"})
    # through the empty Ukraine (a blitz): refused
    rejected(game, mv("1 armour", EE, UKR, CAU), "REAL98-ARMOR-adjacent-only", "adjacent")
    # two territories through a friendly one: refused too (Caucasus is not adjacent to East Europe)
    rejected(game, mv("1 armour", EE, KAR, CAU), "REAL98-ARMOR-adjacent-only", "adjacent")
    assert all(len(p) == 2 for p in moves_offered(game))
    move(game, "1 armour", EE, UKR)  # the empty adjacent territory
    assert units_in(game, UKR) == {"armour": 1}


@pytest.mark.rule("REAL98-ARMOR-adjacent-only")
def test_classic_armour_still_blitzes() -> None:
    game = at({EE: "Germany: 1 armour", CAU: "Russia: 1 infantry"}, rules="classic-2e")
    move(game, "1 armour", EE, UKR, CAU)
    assert game.state.owners[UKR] == "Germany"


# ------------------------------------------------------------------------------------------------ second move


@pytest.mark.rule("REAL98-ARMOR-veterans-move-one")
def test_a_tank_that_won_moves_one_and_attacks_again() -> None:
    game = after_first_combat({EE: "Germany: 1 armour", UKR: "Russia: 1 infantry", CAU: "Russia: 1 infantry"},
                              later=[2, 6])
    rejected(game, mv("1 armour", UKR, CAU, RUS), "REAL98-ARMOR-veterans-move-one", "moves 1 territory")
    assert (UKR, CAU) in moves_offered(game)
    assert all(len(p) == 2 for p in moves_offered(game))
    move(game, "1 armour", UKR, CAU)
    end(game)
    fight(game, CAU)
    assert game.state.owners[CAU] == "Germany"
    assert units_in(game, CAU) == {"armour": 1}


@pytest.mark.rule("REAL98-ARMOR-veterans-move-one")
def test_a_tank_that_retreated_moves_one_and_attacks_again() -> None:
    game = at({EE: "Germany: 1 armour", UKR: "Russia: 1 infantry", CAU: "Russia: 1 infantry"}, dice=[6, 6, 1, 6])
    move(game, "1 armour", EE, UKR)
    end(game)
    fight(game, UKR)
    assert game.state.pending is not None and game.state.pending["kind"] == "press_or_retreat"
    game.apply({"type": "retreat", "to": EE})
    assert units_in(game, EE) == {"armour": 1} and game.state.owners[UKR] == "Russia"
    end(game)
    rejected(game, mv("1 armour", EE, KAR, CAU), "REAL98-ARMOR-veterans-move-one", "attacked this turn")
    move(game, "1 armour", EE, UKR)  # the same territory again
    end(game)
    fight(game, UKR)
    assert game.state.owners[UKR] == "Germany"


@pytest.mark.rule("REAL98-ARMOR-fresh-move-two")
def test_an_unmoved_tank_moves_two_and_attacks() -> None:
    # the reserve tank races through the Ukraine just taken to Caucasus
    game = after_first_combat({EE: "Germany: 2 armour", UKR: "Russia: 1 infantry", CAU: "Russia: 1 infantry"},
                              later=[3, 6])
    assert (EE, UKR, CAU) in moves_offered(game)
    move(game, "1 armour", EE, UKR, CAU)
    end(game)
    fight(game, CAU)
    assert game.state.owners[CAU] == "Germany" and units_in(game, CAU) == {"armour": 1}
    assert units_in(game, UKR) == {"armour": 1}


@pytest.mark.rule("REAL98-ARMOR-fresh-move-two")
def test_an_unmoved_tank_moves_one_and_attacks() -> None:
    game = after_first_combat({EE: "Germany: 2 armour", UKR: "Russia: 1 infantry", KAR: "Russia: 1 infantry"},
                              later=[3, 6])
    move(game, "1 armour", EE, KAR)
    end(game)
    fight(game, KAR)
    assert game.state.owners[KAR] == "Germany"


@pytest.mark.rule("REAL98-ARMOR-fresh-move-two")
def test_an_unmoved_tank_may_blitz_in_the_armour_move_unless_the_option_is_off() -> None:
    units = {EE: "Germany: 1 armour", CAU: "Russia: 1 infantry"}
    game = at(units, phase="armour-move")
    move(game, "1 armour", EE, UKR, CAU)  # through the empty Ukraine
    assert game.state.owners[UKR] == "Germany"
    strict = at(units, phase="armour-move", options={"second_armour_move_blitz": False})
    rejected(strict, mv("1 armour", EE, UKR, CAU), "REAL98-ARMOR-fresh-move-two", "does not blitz")
    move(strict, "1 armour", EE, UKR)


# ------------------------------------------------------------------------------------------------ non-combat


@pytest.mark.rule("REAL98-ARMOR-noncombat-one")
def test_a_tank_with_a_move_left_moves_one_in_non_combat_move() -> None:
    game = after_first_combat({EE: "Germany: 1 armour", UKR: "Russia: 1 infantry"})
    end(game)  # no armour move
    end(game)  # no armour combat
    assert game.state.phase == "non-combat-move"
    assert (UKR, EE) in moves_offered(game)
    rejected(game, mv("1 armour", UKR, EE, "Germany"), "REAL98-ARMOR-noncombat-one", "moves 1 territory")
    move(game, "1 armour", UKR, EE)  # back where it came from
    assert units_in(game, EE) == {"armour": 1}


@pytest.mark.rule("REAL98-ARMOR-noncombat-one")
def test_a_tank_that_used_both_moves_stays_and_one_that_used_one_moves_one() -> None:
    game = after_first_combat({EE: "Germany: 2 armour", UKR: "Russia: 1 infantry", CAU: "Russia: 1 infantry",
                               KAR: "Russia: 1 infantry"}, later=[1, 6, 1, 6])
    move(game, "1 armour", UKR, CAU)  # the veteran: its second move
    move(game, "1 armour", EE, KAR)  # the reserve: one move of two
    end(game)
    fight(game, CAU)
    fight(game, KAR)
    end(game)
    assert game.state.phase == "non-combat-move"
    rejected(game, mv("1 armour", CAU, UKR), "REAL98-ARMOR-noncombat-one", "both of its moves")
    assert not any(p[0] == CAU for p in moves_offered(game))
    assert (KAR, RUS) not in moves_offered(game)  # Russia is enemy territory
    assert legal(game, mv("1 armour", KAR, EE))
    move(game, "1 armour", KAR, EE)


# ------------------------------------------------------------------------------------------------ by sea


@pytest.mark.rule("REAL98-ARMOR-sea-transported")
def test_a_tank_landed_from_the_sea_moves_no_more_that_turn() -> None:
    cargo = Stack("Germany", "transport", 1, flags=("cargo=Germany:armour",))
    game = after_first_combat({CAU: "Russia: 1 infantry", RUS: "Russia: 1 infantry"}, (BLACK_SEA, CAU),
                              owners={UKR: "Germany"}, stacks=[(BLACK_SEA, cargo)])
    rejected(game, mv("1 armour", CAU, RUS), "REAL98-ARMOR-sea-transported", "carried by sea")
    assert moves_offered(game) == []
    end(game)
    end(game)
    assert game.state.phase == "non-combat-move"
    rejected(game, mv("1 armour", CAU, UKR), "REAL98-ARMOR-sea-transported", "carried by sea")
    assert not any(p[0] == CAU for p in moves_offered(game))


@pytest.mark.rule("REAL98-ARMOR-second-move-step")
def test_nothing_is_loaded_or_unloaded_in_the_armour_move() -> None:
    cargo = Stack("Germany", "transport", 1, flags=("cargo=Germany:armour",))
    game = at({EE: "Germany: 1 armour", CAU: "Russia: 1 infantry"}, phase="armour-move",
              stacks=[(BLACK_SEA, cargo), ("Baltic Sea Zone", Stack("Germany", "transport", 1))])
    rejected(game, {"type": "load", "units": "1 armour", "territory": EE, "sea_zone": "Baltic Sea Zone"},
             "REAL98-ARMOR-second-move-step", "nothing is loaded")
    rejected(game, mv("1 armour", BLACK_SEA, CAU), "REAL98-ARMOR-second-move-step", "overland")
    assert all(p[0] == EE for p in moves_offered(game))


@pytest.mark.rule("REAL98-ARMOR-second-move-step")
def test_no_rocket_flies_in_the_armour_combat() -> None:
    units = {"Germany": "Germany: 1 aa gun", EE: "Germany: 1 armour", KAR: "Russia: 1 industrial complex"}
    start = at(units, phase="armour-move").state
    game = Game(GameLog(replace(start, techs={**start.techs, "Germany": ("rockets",)})))
    rocket = {"type": "rocket", "launcher": "Germany", "target": KAR}
    end(game)
    assert game.state.phase == "armour-combat"
    rejected(game, rocket, "REAL98-ARMOR-second-move-step", "rockets")
    combat = Game(GameLog(replace(game.state, phase="conduct-combat")), ScriptedDice([1]))
    assert legal(combat, rocket)  # in the combat phase it may fly


@pytest.mark.rule("REAL98-ARMOR-second-move-step")
def test_bots_play_the_armour_move_and_the_game_file_proves_it() -> None:
    result = play_game(R98, seed=2, rounds=2)
    assert not result.violations and not result.stuck
    phase, armour_actions = "", []
    for entry in result.log.entries:
        phase = next((e.phase for e in entry.events if isinstance(e, PhaseEntered)), phase)
        if phase in ("armour-move", "armour-combat") and (entry.action or {}).get("type") != "end_phase":
            armour_actions.append(entry.action)
    assert any(a and a["type"] == "move" for a in armour_actions)
    check_play(GameLog.from_json(json.loads(json.dumps(result.log.to_json()))))
