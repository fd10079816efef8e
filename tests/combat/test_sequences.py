"""Sequences as data: anchors, insertion, explanation, and the ruleset hooks."""

from __future__ import annotations

from typing import Any

import pytest

from aare.combat.sequences import LAND, SEA, lhtr_sequence
from aare.combat.steps import Step
from aare.errors import UnknownName
from aare.odds import build_battle
from tests.combat.helpers import play, steps


def _noop(battle: Any) -> Any:
    return battle.state, []


DETECT = Step("sub detection", _noop, cycles=1)


@pytest.mark.rule("LHTR-COMBAT-naval-sequence")
def test_insert_replace_remove_at_anchors() -> None:
    seq = SEA.insert_before("attacker sub first strike", DETECT)
    assert seq.names[0] == "sub detection" and SEA.names[0] == "attacker sub first strike"
    assert seq.insert_after("remove opening fire casualties", Step("undetected submerge", _noop)).names[4] == (
        "undetected submerge"
    )
    assert "aa fire" not in LAND.remove("aa fire").names
    assert LAND.replace("bombardment", DETECT).names[1] == "sub detection"
    assert seq.horizon == 2 and SEA.horizon == 1
    with pytest.raises(UnknownName):
        LAND.insert_before("no such step", DETECT)
    assert lhtr_sequence("land").explain()[0] == "1. aa fire — 1st cycle only [LHTR-AA-battle-fire]"


class StandIn:
    """A ruleset stand-in with the `units` / `modify` contract."""

    def __init__(self) -> None:
        from aare.combat.engine import default_units

        self.units = default_units()

    def modify(self, hook: str, value: Any, **context: Any) -> Any:
        if hook == "combat_sequence" and context["kind"] == "land":
            return value.insert_before("attacker fire", Step("german 88s", _noop, cycles=1))
        return value


@pytest.mark.rule("LHTR-COMBAT-land-sequence")
def test_rule_modules_insert_steps_through_the_ruleset_hook() -> None:
    battle = build_battle("1 infantry", "1 infantry", StandIn())
    _, events = play(battle, [1, 6])
    assert [s for s, _ in steps(events)][:3] == ["remove opening fire casualties", "german 88s", "attacker fire"]
    assert build_battle("1 infantry", "1 infantry", "lhtr-1.3").setup.sequence.names == LAND.names


@pytest.mark.rule("LHTR-COMBAT-land-sequence")
def test_a_battle_state_pickled_leaves_its_kept_hash_behind() -> None:
    """String hashes differ from one process to another: a state (and its targets) sent to another process
    works its hash out there."""
    import pickle

    battle, _ = play(build_battle("2 infantry", "1 infantry", "lhtr-1.3"), [1, 1, 6])
    state = battle.state
    hash(state)
    assert "_hash" in state.__dict__
    copy = pickle.loads(pickle.dumps(state))
    assert "_hash" not in copy.__dict__ and copy == state and hash(copy) == hash(state)
