"""Enumeration and validation agree: every action `legal_actions()` lists applies; mutated actions (wrong
space, too many units, broken path, wrong phase) are rejected and change nothing; a random walk through
combat move never gets stuck, and its log replays from JSON."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

import pytest

from aare.engine import Game
from aare.errors import AareError, MalformedInput
from aare.game_log import GameLog
from aare.movement.battles import pending_battles
from aare.scenario import scenario
from aare.state.unit_stacks import Stack
from tests.movement.helpers import boat, position, to_phase

POWERS = ["Russia", "Germany", "United Kingdom", "Japan", "United States"]
PHASES = ["combat-move", "non-combat-move"]


def built_positions() -> list[Game]:
    """Positions the starting set-up never shows: cargo at sea, allied cargo, aircraft after combat, hover."""
    return [
        position("United Kingdom", "combat-move", {
            "United Kingdom": "United Kingdom: 2 infantry, 1 armour, 1 aa gun, 1 fighter, 1 bomber",
            "SZ 7": "United Kingdom: 1 battleship, 1 transport; Germany: 1 submarine",
            "SZ 6": "United Kingdom: 1 carrier, 1 fighter; United States: 1 fighter",
            "Western Europe": "Germany: 2 infantry, 1 aa gun, 1 factory", "Norway": "Germany: 1 infantry",
        }, stacks=[("SZ 8", boat("United Kingdom", "United Kingdom:infantry", "United States:armour", count=2)),
                   ("SZ 3", boat("United States", "United Kingdom:infantry"))]),
        position("Germany", "non-combat-move", {
            "Germany": "Germany: 1 factory, 2 infantry", "SZ 5": "Germany: 1 transport",
            "Karelia S.S.R.": "Germany: 1 armour",
        }, owners={"Karelia S.S.R.": "Germany"}, extra={"purchased": {"Germany": {"carrier": 1}}},
            stacks=[("Karelia S.S.R.", Stack("Germany", "fighter", 2, moved=2, flags=("turn:combat",))),
                    ("SZ 6", Stack("Germany", "fighter", 1, moved=3, flags=("turn:combat",)))]),
        position("Japan", "combat-move", {
            "Japan": "Japan: 3 infantry, 1 fighter", "SZ 60": "Japan: 2 transports, 1 carrier",
            "SZ 61": "Japan: 1 transport", "Manchuria": "Japan: 1 armour", "Buryatia S.S.R.": "Russia: 1 infantry",
            "SZ 62": "United States: 1 destroyer",
        }),
    ]


def positions() -> list[tuple[str, Game]]:
    found = [(f"{p} {ph}", scenario(nation=p, phase=ph)) for p in POWERS for ph in PHASES]
    return found + [(f"built {i}", g) for i, g in enumerate(built_positions())]


def copy(game: Game) -> Game:
    return Game(GameLog(game.state))


def mutations(action: dict[str, Any], game: Game) -> list[dict[str, Any]]:
    out = []
    if action["type"] == "move":
        path = action["path"]
        far = "SZ 64" if path[0] != "SZ 64" else "Borneo"
        out.append({**action, "path": [far, *path[1:]]})  # wrong space
        out.append({**action, "units": re.sub(r"^\d+", "99", action["units"])})  # too many units
        broken = [*path[:1], *path[2:]] if len(path) >= 3 else [*path, far]
        out.append({**action, "path": broken})  # broken path
    else:
        out.append({**action, "territory": "Borneo" if action["territory"] != "Borneo" else "Japan"})
        out.append({**action, "units": "99 infantry"})
    return out


@pytest.mark.parametrize("name", [n for n, _ in positions()])
def test_every_legal_action_applies_and_mutations_are_rejected(name: str) -> None:
    game = dict(positions())[name]
    actions = game.legal_actions()
    assert actions[0].type == "end_phase" and len(actions) > 1
    for action in actions:
        trial = copy(game)
        trial.apply(action)
    before = game.state.hash()
    purchase = copy(game)
    purchase.log.state = replace(purchase.state, phase="purchase")
    for action in actions[1::3]:
        raw = action.to_json()
        for bad in mutations(raw, game):
            if game.is_legal(bad):
                continue  # a mutation may happen to be a legal move too
            with pytest.raises(AareError):
                game.apply(bad)
            assert game.state.hash() == before
        with pytest.raises(AareError):
            purchase.apply(raw)  # wrong phase
    assert game.state.hash() == before and not game.log.entries


@pytest.mark.parametrize("power", POWERS)
def test_random_walk_through_both_movement_phases(power: str) -> None:
    rng = random.Random(power)
    game = scenario(nation=power, phase="combat-move", seed=3)
    for phase in PHASES:
        if phase == "non-combat-move":
            game = to_phase(game, phase)
        for _ in range(25):
            actions = game.legal_actions()
            assert actions, "no legal action at all"
            moves = [a for a in actions if a.type != "end_phase"]
            if not moves:
                break
            game.apply(rng.choice(moves))
            for sample in rng.sample(game.legal_actions(), min(5, len(game.legal_actions()))):
                copy(game).apply(sample)
        replayed = GameLog.from_json(json.loads(json.dumps(game.log.to_json())))
        assert replayed.state.hash() == game.state.hash()  # the new events round-trip through a game file
        if phase == "combat-move":
            sites = pending_battles(game.state, game.ruleset)
            assert all(s.attacker == power for s in sites)
            while not game.is_legal({"type": "end_phase"}):
                game.undo()  # undo always reaches a position where the phase can end
        game.apply({"type": "end_phase"})


def test_legal_actions_exist_in_every_movement_phase_of_every_power() -> None:
    """Speed is measured in bench/selfplay.py; here only that every start position offers moves."""
    for power in POWERS:
        for phase in PHASES:
            actions = scenario(nation=power, phase=phase).legal_actions()
            assert actions[0].type == "end_phase" and len(actions) > 1


def test_legal_actions_for_one_space_and_unknown_names() -> None:
    game = scenario(nation="Germany", phase="combat-move")
    here = game.legal_actions("Eastern Europe")
    assert here[0].type == "end_phase" and len(here) > 1
    assert all(a.path[0] == "Eastern Europe" for a in here[1:] if a.type == "move")
    everything = {repr(a) for a in game.legal_actions()}
    assert {repr(a) for a in here} <= everything
    with pytest.raises(MalformedInput, match="unknown space"):
        game.apply({"type": "move", "units": "1 infantry", "path": ["Eastern Europe", "Atlantis"]})
    with pytest.raises(MalformedInput):
        game.apply({"type": "move", "units": "1 dragon", "path": ["Eastern Europe", "Karelia S.S.R."]})
    assert not game.log.entries
