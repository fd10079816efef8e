"""Core combat mechanisms some rulesets use: hits with priority tiers, hits that mark units instead of harming
them, and dice that repel instead of hitting."""

from __future__ import annotations

import pytest

from aare.combat.battle_state import MARK, DiceGroup, HitBatch, RollRequest, Target, UnitKey, make_stacks
from aare.combat.casualties import refine
from aare.combat.chance import REPEL_STRIDE, hits_and_repels, key_distributions, repel_chances
from aare.combat.engine import apply_casualties, default_units, start_battle

CAT = default_units()
TIERED = Target(exclude_domains=("air", "sea"), first=(("blitz", "artillery"),))


def stacks(**counts: int) -> tuple[tuple[UnitKey, int], ...]:
    return make_stacks((UnitKey(t), n) for t, n in counts.items())


@pytest.mark.rule("AARHE-LANDHIT-tank-priority")
def test_tiered_hits_go_to_the_first_tier_while_it_lasts() -> None:
    batches = refine(CAT, stacks(infantry=3, artillery=1, armour=1), (HitBatch("defender", TIERED, 3, "cycle"),))
    assert [(b.count, b.target.tags) for b in batches] == [(2, ("blitz", "artillery")), (1, ())]
    assert all(not b.target.first for b in batches)
    # no tier units: every hit is plain
    (plain,) = refine(CAT, stacks(infantry=3), (HitBatch("defender", TIERED, 2, "cycle"),))
    assert plain.count == 2 and plain.target.tags == ()


@pytest.mark.rule("AARHE-AIRCOMBAT-air-hits-air-first")
def test_tiers_of_two_batches_share_the_units() -> None:
    air_first = Target(first=(("domain:air",),))
    batches = refine(CAT, stacks(fighter=1, infantry=4),
                     (HitBatch("attacker", air_first, 1, "opening"), HitBatch("attacker", air_first, 1, "opening")))
    assert [(b.count, b.target.tags) for b in batches] == [(1, ("domain:air",)), (1, ())]


@pytest.mark.rule("AARHE-ID-search")
def test_a_mark_removal_flags_the_units_hit() -> None:
    b = start_battle("2 fighter", "1 infantry")
    key = UnitKey("fighter")
    b, events = apply_casualties(b, "attacker", ((key, 1),), MARK + "spotted")
    assert dict(b.state.attacker) == {key: 1, key.with_flag("spotted"): 1}
    assert events[0].flag == "spotted"  # type: ignore[attr-defined]


@pytest.mark.rule("AARHE-ID-attack")
def test_repel_dice_give_a_joint_distribution() -> None:
    one = hits_and_repels(1, 1 / 6, 1 / 6)
    assert one[0] == pytest.approx(4 / 6) and one[1] == pytest.approx(1 / 6)
    assert one[REPEL_STRIDE] == pytest.approx(1 / 6)
    # a unit with two dice: its best die decides
    group = DiceGroup("defender", "fighter", 1, 1, Target(), "opening", dice_per_unit=2, best_of=True, repel_on=2)
    n, hit, repel = repel_chances(group)
    assert (n, hit, repel) == (1, pytest.approx(11 / 36), pytest.approx(25 / 36 - 16 / 36))
    dist = next(iter(key_distributions(RollRequest("id attack", (group, group))).values()))
    assert sum(dist) == pytest.approx(1.0)
    assert dist[REPEL_STRIDE + 1] == pytest.approx(2 * hit * repel)
