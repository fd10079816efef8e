"""AARe naval units starting in a hostile sea zone: they leave in combat move, and one that left into a friendly
zone may finish its turn in non-combat move, transports loading and unloading then (AARE-HOSTILESZ-*,
AARE-LHTR-transport-combat-unload)."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.state.unit_stacks import Stack
from tests.aare.common import GER, UK, position
from tests.movement.helpers import end, move, mv, rejected, stacks_of, units_in

LOADED = Stack(UK, "transport", 1, flags=("cargo=United Kingdom:infantry,United Kingdom:infantry",))


def hostile_start(*stacks: tuple[str, Stack], **placed: str) -> Game:
    """UK combat move with a German sub in SZ 6 where UK ships start."""
    return position(UK, "combat-move", {"SZ 6": "Germany: 1 submarine", **placed}, stacks=stacks)


def to_noncombat(game: Game) -> None:
    end(game)
    assert game.state.phase == "conduct-combat"
    end(game)
    assert game.state.phase == "non-combat-move"


@pytest.mark.rule("AARE-HOSTILESZ-leave-in-combat-move")
def test_ships_leave_a_hostile_start_zone_in_combat_move() -> None:
    game = hostile_start(("SZ 6", Stack(UK, "transport", 1)))
    move(game, "1 transport", "SZ 6", "SZ 7")  # leaving is its combat move
    assert units_in(game, "SZ 7", UK) == {"transport": 1}
    stay = hostile_start(("SZ 6", Stack(UK, "transport", 1)))
    end(stay)
    rejected(stay, {"type": "end_phase"}, "LHTR-COMBAT-battle-order", "SZ 6")  # staying means a sea battle
    fought = position(UK, "non-combat-move", {"SZ 6": "Germany: 1 submarine"},
                      stacks=[("SZ 6", Stack(UK, "transport", 1, flags=("turn:combat",)))])
    rejected(fought, mv("1 transport", "SZ 6", "SZ 7"), "LHTR-SEAMOVE-one-phase-only")


@pytest.mark.rule("AARE-HOSTILESZ-finish-in-one-phase")
def test_the_rest_of_the_move_in_combat_move_or_noncombat_move_not_both() -> None:
    game = hostile_start(("SZ 6", Stack(UK, "transport", 1)))
    move(game, "1 transport", "SZ 6", "SZ 7")
    rejected(game, mv("1 transport", "SZ 7", "SZ 8"), "LHTR-COMBAT-one-battle-per-unit")  # one combat move
    to_noncombat(game)
    move(game, "1 transport", "SZ 7", "SZ 8")  # option B: the rest in non-combat move
    assert stacks_of(game, "SZ 8", "transport")[0].moved == 2
    whole = hostile_start(("SZ 6", Stack(UK, "transport", 1)))
    move(whole, "1 transport", "SZ 6", "SZ 7", "SZ 8")  # option A: all of it in combat move
    to_noncombat(whole)
    rejected(whole, mv("1 transport", "SZ 8", "SZ 2"), "LHTR-SEAMOVE-one-phase-only")


@pytest.mark.rule("AARE-HOSTILESZ-transport-ncm-exception")
@pytest.mark.rule("AARE-LHTR-transport-combat-unload")
def test_a_transport_that_left_a_hostile_zone_unloads_in_noncombat_move() -> None:
    game = hostile_start(("SZ 6", LOADED))
    move(game, "1 transport, 2 infantry", "SZ 6", "SZ 7")
    to_noncombat(game)
    move(game, "2 infantry", "SZ 7", "United Kingdom")
    assert units_in(game, "United Kingdom", UK) == {"infantry": 2}
    fought = position(UK, "non-combat-move", {}, stacks=[("SZ 7", Stack(
        UK, "transport", 1, moved=1, flags=("cargo=United Kingdom:infantry,United Kingdom:infantry", "turn:combat",
                                            "turn:from=SZ 8")))])
    rejected(fought, mv("2 infantry", "SZ 7", "United Kingdom"), "LHTR-TRANSPORT-combat-transport-no-ncm-unload")


@pytest.mark.rule("AARE-HOSTILESZ-hostile-first-sz")
def test_leaving_into_another_hostile_zone_is_an_attack_there() -> None:
    game = hostile_start(("SZ 6", Stack(UK, "transport", 1)), **{"SZ 7": "Germany: 1 destroyer"})
    rejected(game, mv("1 transport", "SZ 6", "SZ 7", "SZ 8"), "LHTR-SEAMOVE-hostile-sea-zone-stops")
    move(game, "1 transport", "SZ 6", "SZ 7")
    [transport] = stacks_of(game, "SZ 7", "transport")
    assert "turn:withdrew" not in transport.flags and "turn:combat" in transport.flags
    won = position(UK, "conduct-combat", {}, stacks=[("SZ 7", transport)])
    end(won)
    assert won.state.phase == "non-combat-move"
    rejected(won, mv("1 transport", "SZ 7", "SZ 8"), "LHTR-SEAMOVE-one-phase-only")
    assert GER in {s.owner for s in game.state.stacks("SZ 7")}
