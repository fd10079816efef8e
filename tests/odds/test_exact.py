"""Exact odds against an independent Fraction reference, and fast paths against the step engine."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from aare.combat.engine import start_battle
from aare.combat.policy import Policy
from aare.odds import odds
from aare.odds.calculator import exact_odds

F = Fraction


def _pb(chances: list[Fraction]) -> list[Fraction]:
    dist = [F(1)]
    for p in chances:
        nxt = [F(0)] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


def reference(attacker: list[str], defender: list[str]) -> dict[str, Fraction]:
    """Independent exact land battle: units lost in list order, artillery pairs recounted every cycle."""
    att_val = {"infantry": 1, "artillery": 2, "armour": 3, "fighter": 3, "bomber": 4}
    def_val = {"infantry": 2, "artillery": 2, "armour": 3, "fighter": 4, "bomber": 1}

    def att_chances(units: tuple[str, ...]) -> list[Fraction]:
        support = units.count("artillery")
        out = []
        for u in units:
            v = att_val[u]
            if u == "infantry" and support:
                support -= 1
                v += 1
            out.append(F(v, 6))
        return out

    @cache
    def win(a: int, d: int) -> tuple[Fraction, Fraction, Fraction]:
        if a == len(attacker) and d == len(defender):
            return (F(0), F(0), F(1))
        if d == len(defender):
            return (F(1), F(0), F(0))
        if a == len(attacker):
            return (F(0), F(1), F(0))
        ha = _pb(att_chances(tuple(attacker[a:])))
        hd = _pb([F(def_val[u], 6) for u in defender[d:]])
        loop = ha[0] * hd[0]
        total = [F(0)] * 3
        for i, pi in enumerate(hd):
            for j, pj in enumerate(ha):
                if i == 0 and j == 0:
                    continue
                sub = win(min(a + i, len(attacker)), min(d + j, len(defender)))
                for k in range(3):
                    total[k] += pi * pj * sub[k]
        return tuple(x / (1 - loop) for x in total)  # type: ignore[return-value]

    a_win, d_win, draw = win(0, 0)
    return {"attacker": a_win, "defender": d_win, "draw": draw}


@pytest.mark.rule("LHTR-COMBAT-simultaneous-fire")
@pytest.mark.rule("LHTR-TURN-d6-hit-rule")
def test_one_infantry_against_one_is_exactly_a_quarter() -> None:
    ref = reference(["infantry"], ["infantry"])
    assert ref["attacker"] == F(1, 4)
    result = odds("1 infantry", "1 infantry")
    assert abs(result.attacker_win - 0.25) < 1e-12
    assert abs(result.draw - float(ref["draw"])) < 1e-12
    assert abs(result.total - 1) < 1e-12


CASES = [
    (["infantry", "infantry", "armour"], ["infantry", "infantry"]),
    (["infantry", "artillery", "infantry", "fighter"], ["infantry", "infantry", "infantry"]),
    (["artillery", "infantry", "infantry", "armour"], ["infantry", "armour", "fighter"]),
    (["infantry", "infantry", "infantry", "artillery", "bomber"], ["infantry", "infantry", "fighter"]),
]


@pytest.mark.rule("LHTR-LANDCOMBAT-artillery-support")
@pytest.mark.rule("LHTR-COMBAT-owner-chooses-casualties")
@pytest.mark.parametrize(("attacker", "defender"), CASES)
def test_exact_matches_reference_with_explicit_order_of_loss(attacker: list[str], defender: list[str]) -> None:
    """Losses follow the listed type order, including artillery before infantry (support must be recounted)."""
    a_order, d_order = tuple(dict.fromkeys(attacker)), tuple(dict.fromkeys(defender))
    ref = reference(sorted(attacker, key=a_order.index), sorted(defender, key=d_order.index))

    def text(units: list[str]) -> dict[str, int]:
        return {u: units.count(u) for u in set(units)}

    for fast in (True, False):
        battle = start_battle(text(attacker), text(defender))
        policy = Policy(attacker_order=a_order, defender_order=d_order)
        result = exact_odds(battle, policy, fast=fast)
        assert abs(result.attacker_win - float(ref["attacker"])) < 1e-12
        assert abs(result.defender_win - float(ref["defender"])) < 1e-12
        assert abs(result.draw - float(ref["draw"])) < 1e-12
        assert abs(result.total - 1) < 1e-12


SMALL = [
    ("land", "3 infantry, 1 artillery, 2 armour, 1 fighter", "4 infantry, 1 fighter", {}),
    ("land", "2 infantry, 1 artillery, 2 fighters, 1 bomber", "3 infantry, 1 aa gun", {}),
    ("amphibious", "2 infantry, 1 artillery, 1 fighter", "3 infantry, 1 aa gun", {"bombard": "1 battleship"}),
    ("sea", "2 submarines, 1 destroyer, 1 battleship", "1 submarine, 2 destroyers, 1 transport", {}),
    ("sea", "2 submarines, 1 battleship", "2 submarines, 1 transport, 1 battleship", {}),
    ("sea", "1 destroyer, 2 fighters", "2 submarines, 1 carrier, 1 fighter", {}),
    ("land", "3 infantry, 2 armour", "4 infantry", {"retreat_at": 2}),
    ("land", "2 infantry, 2 fighters", "3 infantry", {"only_air": True}),
]


@pytest.mark.rule("LHTR-COMBAT-land-sequence")
@pytest.mark.rule("LHTR-COMBAT-naval-sequence")
@pytest.mark.parametrize(("kind", "attacker", "defender", "extra"), SMALL)
def test_fast_paths_agree_with_the_step_engine(kind: str, attacker: str, defender: str, extra: dict) -> None:
    policy = Policy(retreat_at_units=extra.pop("retreat_at", None), retreat_when_only_air=extra.pop("only_air", False))
    battle = start_battle(attacker, defender, kind, **extra)
    fast, slow = exact_odds(battle, policy), exact_odds(battle, policy, fast=False)
    for name in ("attacker_win", "defender_win", "draw", "stalemate", "retreat", "capture", "expected_cycles"):
        assert abs(getattr(fast, name) - getattr(slow, name)) < 1e-12, name
    assert abs(fast.attacker_ipc_lost - slow.attacker_ipc_lost) < 1e-9
    assert abs(fast.defender_ipc_lost - slow.defender_ipc_lost) < 1e-9
    assert dict(fast.attacker_survivors).keys() == dict(slow.attacker_survivors).keys()
    assert abs(fast.total - 1) < 1e-12


@pytest.mark.rule("LHTR-COMBAT-attacker-retreat")
def test_retreat_after_one_cycle() -> None:
    result = odds("1 infantry", "1 infantry", retreat_after=1)
    assert abs(result.retreat - 20 / 36) < 1e-12
    assert abs(result.attacker_win - 4 / 36) < 1e-12 and abs(result.draw - 2 / 36) < 1e-12
    assert abs(result.expected_cycles - 1) < 1e-12


@pytest.mark.rule("LHTR-NAVALCOMBAT-subs-vs-air-only")
@pytest.mark.rule("LHTR-NAVALCOMBAT-air-can-hit-subs")
def test_stalemate_when_nobody_can_hurt_anybody() -> None:
    from aare.combat.rules import CombatRules

    battle = start_battle("1 fighter", "1 submarine", "sea", rules=CombatRules(air_hits_subs_without_destroyer=False))
    result = exact_odds(battle)
    assert result.stalemate == 1.0 and result.draw == 1.0  # a stalemate counts as a draw
    assert result.attacker_win + result.defender_win + result.draw == 1.0
    assert odds("1 fighter", "1 submarine", battle="sea").attacker_win == pytest.approx(1.0, abs=1e-12)
