"""Correctness traps: mixed restricted hits in one step, and artillery support recount."""

from __future__ import annotations

import pytest

from aare.combat.battle_state import ANY, HitBatch
from aare.combat.casualties import check_choice, choose_by_order, default_rank
from aare.combat.engine import advance, decide, default_units, start_battle, to_stacks
from aare.combat.policy import Policy
from aare.combat.rules import CombatRules
from aare.combat.values import SUB_TARGET
from aare.dice import ScriptedDice
from aare.odds.calculator import exact_odds


@pytest.mark.rule("LHTR-COMBAT-hit-eligibility")
@pytest.mark.rule("LHTR-NAVALCOMBAT-subs-cannot-hit-air")
def test_sub_hit_and_general_hit_in_one_step_are_assigned_together() -> None:
    """Cheapest first must give the sub hit to the transport and the other hit to the fighter; assigning the
    general hit first (transport) would wrongly force the sub hit onto the destroyer."""
    rules = CombatRules(destroyer_moves_sub_fire_to_main_step=True)
    battle = start_battle(
        "1 submarine, 1 destroyer", "1 transport, 1 fighter, 1 destroyer, 1 carrier", "sea", rules=rules
    )
    battle, _ = advance(battle, ScriptedDice([1, 1]))
    assert [b.target for b in battle.pending.batches] == [SUB_TARGET, ANY]
    battle = decide(battle, Policy()(battle, battle.pending))
    hit = sorted(k.type for k, _ in battle.state.defender if k.marked)
    assert hit == ["fighter", "transport"]
    cat = default_units()
    stacks = to_stacks("1 transport, 1 fighter, 1 destroyer", cat)
    batches = (HitBatch("defender", SUB_TARGET, 1, "cycle"), HitBatch("defender", ANY, 1, "cycle"))
    choice = choose_by_order(cat, stacks, batches, default_rank(cat, "defender"))
    assert sorted(k.type for k, _ in choice) == ["fighter", "transport"]
    two_fighters = to_stacks("2 fighters, 1 transport", cat)
    fighters = tuple((k, 1) for k, n in two_fighters if k.type == "fighter")
    assert check_choice(cat, two_fighters, batches, fighters[:1] * 2, 2) is not None


@pytest.mark.rule("LHTR-LANDCOMBAT-artillery-support")
def test_artillery_lost_first_is_recounted_in_the_exact_odds() -> None:
    battle = start_battle("2 infantry, 2 artillery", "3 infantry")
    art_first = exact_odds(battle, Policy(attacker_order=("artillery", "infantry")))
    inf_first = exact_odds(battle, Policy(attacker_order=("infantry", "artillery")))
    slow = exact_odds(battle, Policy(attacker_order=("artillery", "infantry")), fast=False)
    assert abs(art_first.attacker_win - slow.attacker_win) < 1e-12
    assert art_first.attacker_win < inf_first.attacker_win
