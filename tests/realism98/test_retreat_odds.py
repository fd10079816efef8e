"""The calculator under Realism '98: exact odds with the defender never retreating (its default policy), on the
fast solvers and on the general step engine alike; the explanation says so; `aare odds --rules realism-98`."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.decisions import Press, PressOrRetreat
from aare.combat.engine import advance, decide
from aare.combat.policy import DEFAULT_POLICY
from aare.dice import ScriptedDice
from aare.odds import build_battle, fleet, odds
from aare.odds.calculator import exact_tally
from aare.odds.ladder import fast_path_ok
from tests.aa50.test_odds import gap

RULES = "realism-98"
NEVER = "the defender never retreats"


BATTLES = [
    ("land", "3 infantry, 2 armour", "4 infantry"),
    ("land", "2 armour, 1 fighter", "2 infantry, 1 fighter"),
    ("sea", "2 battleships, 1 submarine", "1 carrier, 2 fighters"),
    ("sea", "2 submarines, 1 fighter", "1 battleship, 1 transport"),
]


@pytest.mark.rule("REAL98-RETREAT-defender")
@pytest.mark.parametrize(("kind", "attacker", "defender"), BATTLES)
def test_exact_odds_with_a_defender_that_may_retreat_but_never_does(kind: str, attacker: str, defender: str) -> None:
    # the defender has somewhere to go: the step engine offers it a retreat after every round the attacker presses
    b = build_battle(attacker, defender, RULES, kind, defender_retreat_to=("elsewhere",))
    offered, _ = advance(b, ScriptedDice([6] * 20))  # a round of misses
    assert isinstance(offered.state.pending, PressOrRetreat) and offered.state.pending.side == "attacker"
    offered, _ = advance(decide(offered, Press()), ScriptedDice([]))
    assert isinstance(offered.state.pending, PressOrRetreat) and offered.state.pending.side == "defender"
    assert DEFAULT_POLICY(offered, offered.state.pending) == Press()
    fast_ok = fleet.applies(b, DEFAULT_POLICY) if kind == "sea" else fast_path_ok(b, DEFAULT_POLICY)
    assert fast_ok  # the declined step does not keep the fast solvers away
    slow = exact_tally(b, DEFAULT_POLICY, fast=False)
    assert gap(exact_tally(b, DEFAULT_POLICY), slow) < 1e-9
    plain = build_battle(attacker, defender, RULES, kind)  # no destination: never offered
    assert gap(exact_tally(plain, DEFAULT_POLICY, fast=False), slow) < 1e-12


@pytest.mark.rule("REAL98-RETREAT-defender")
def test_the_explanation_and_the_command_say_the_defender_never_retreats() -> None:
    result = odds("3 infantry, 2 armour", "4 infantry", RULES, battle="land", explain=True)
    assert any("defender retreat" in line and NEVER in line for line in result.explain)
    out = CliRunner().invoke(cli, ["odds", "--rules", RULES, "--attacker", "2 battleships", "--defender",
                                   "1 carrier, 2 fighters", "--battle", "sea", "--explain"])
    assert out.exit_code == 0, out.output
    assert NEVER in out.output and "attacker_win" in out.output
