"""`odds(battle="raid")` and `odds(battle="rocket")`: exact damage distributions checked against hand-computed
figures, the caps, heavy bombers, escorts and interceptors, and Monte Carlo against the exact solver."""

from __future__ import annotations

import time

import pytest

from aare.errors import IllegalAction, MalformedInput
from aare.odds import odds
from aare.odds.report import BattleOdds

LHTR = "lhtr-1.3"
AARE = "aare-5.0"
LRA = frozenset({"long_range_aircraft"})
JETS = frozenset({"jet_fighters"})
HB = frozenset({"heavy_bombers"})
SIXTH = 1 / 6


def dist(result: BattleOdds) -> dict[int, float]:
    return dict(result.damage)


def approx_dist(result: BattleOdds, expected: dict[int, float]) -> None:
    got = {d: p for d, p in dist(result).items() if p > 1e-12}
    assert got.keys() == expected.keys()
    for d, p in expected.items():
        assert got[d] == pytest.approx(p, abs=1e-12), d
    assert sum(got.values()) == pytest.approx(1.0)
    assert result.expected_damage == pytest.approx(sum(d * p for d, p in expected.items()))


def agrees(exact: BattleOdds, mc: BattleOdds) -> None:
    """The exact expected damage lies in the Monte Carlo 95 % interval (widened by 0.1 IPC)."""
    assert mc.ci95 is not None and exact.expected_damage is not None
    low, high = mc.ci95["expected_damage"]
    assert low - 0.1 <= exact.expected_damage <= high + 0.1


@pytest.mark.rule("LHTR-AA-sbr-fire")
@pytest.mark.rule("LHTR-SBR-damage-roll")
def test_one_bomber_against_an_aa_gun() -> None:
    r = odds("1 bomber", "", LHTR, battle="raid")  # the target's AA gun by default
    approx_dist(r, {0: SIXTH, **{k: 5 / 36 for k in range(1, 7)}})
    assert r.expected_damage == pytest.approx(5 / 6 * 3.5)
    assert dict(r.attacker_survivors) == pytest.approx({(("bomber", 1),): 5 / 6, (): SIXTH})
    assert r.attacker_ipc_lost == pytest.approx(15 / 6) and r.defender_ipc_lost == 0
    assert odds("1 bomber", "", LHTR, battle="bombing").damage == r.damage  # the alias
    no_aa = odds("1 bomber", "", LHTR, battle="raid", defender_aa=False)
    approx_dist(no_aa, {k: SIXTH for k in range(1, 7)})
    assert no_aa.attacker_ipc_lost == 0


@pytest.mark.rule("LHTR-SBR-turn-cap")
@pytest.mark.rule("LHTR-ECON-damage-cap-per-turn")
@pytest.mark.rule("LHTR-ECON-economic-damage-from-treasury")
def test_damage_capped_by_territory_value_and_treasury() -> None:
    r = odds("1 bomber", "", LHTR, battle="raid", territory_value=4)
    approx_dist(r, {0: SIXTH, 1: 5 / 36, 2: 5 / 36, 3: 5 / 36, 4: 15 / 36})
    assert r.expected_damage == pytest.approx(5 / 6 * 3)
    poor = odds("2 bombers", "", LHTR, battle="raid", defender_aa=False, territory_value=10, treasury=1)
    approx_dist(poor, {1: 1.0})
    earlier = odds("1 bomber", "", LHTR, battle="raid", defender_aa=False, territory_value=4, already_lost=3)
    approx_dist(earlier, {1: 1.0})
    two = odds("2 bombers", "", LHTR, battle="raid", defender_aa=False, territory_value=3)
    approx_dist(two, {2: 1 / 36, 3: 35 / 36})
    with pytest.raises(MalformedInput, match="territory_value"):
        odds("1 bomber", "", LHTR, battle="raid", territory_value=-1)


@pytest.mark.rule("LHTR-TECH-heavy-bombers-sbr")
def test_lhtr_heavy_bombers_best_of_two_plus_one() -> None:
    r = odds("1 bomber", "", LHTR, battle="raid", defender_aa=False, attacker_techs=HB)
    approx_dist(r, {k + 1: (2 * k - 1) / 36 for k in range(1, 7)})
    assert r.expected_damage == pytest.approx(161 / 36 + 1)
    aa = odds("1 bomber", "", LHTR, battle="raid", attacker_techs=HB)
    assert aa.expected_damage == pytest.approx(5 / 6 * (161 / 36 + 1))


@pytest.mark.rule("AARE-TECH-hb-two-dice")
@pytest.mark.rule("AARE-TECH-hb-sbr-cap")
def test_aare_heavy_bombers_sum_two_dice() -> None:
    r = odds("1 bomber", "", AARE, battle="raid", defender_aa=False, attacker_techs=HB)
    approx_dist(r, {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)})
    assert r.expected_damage == pytest.approx(7.0)
    capped = odds("1 bomber", "", AARE, battle="raid", defender_aa=False, attacker_techs=HB, territory_value=10)
    assert dist(capped)[10] == pytest.approx(6 / 36) and max(dist(capped)) == 10


@pytest.mark.rule("AARE-TECH-jet-intercept-roll")
@pytest.mark.rule("AARE-TECH-lra-escort-neutralize")
def test_interceptors_and_escorts_by_hand() -> None:
    intercepted = odds("1 bomber", "1 fighter", AARE, battle="raid", defender_aa=False, defender_techs=JETS)
    approx_dist(intercepted, {0: SIXTH, **{k: 5 / 36 for k in range(1, 7)}})
    assert intercepted.attacker_ipc_lost == pytest.approx(14 / 6)
    escorted = odds("1 bomber, 1 fighter", "1 fighter", AARE, battle="raid", defender_aa=False,
                    attacker_techs=LRA, defender_techs=JETS)  # fmt: skip
    approx_dist(escorted, {k: SIXTH for k in range(1, 7)})
    assert escorted.attacker_ipc_lost == 0
    # both: the interceptor rolls first (1/6), then the AA gun at the survivor (1/6)
    both = odds("1 bomber", "1 fighter", AARE, battle="raid", defender_techs=JETS)
    assert dist(both)[0] == pytest.approx(1 - (5 / 6) ** 2)


@pytest.mark.rule("AARE-TECH-lra-escort-partial-aa-protection")
@pytest.mark.rule("AARE-TECH-lra-escort-aa-exempt")
def test_escort_protection_halves_the_bombers_lost_to_aa() -> None:
    r = odds("1 bomber, 1 fighter", "", AARE, battle="raid", attacker_techs=LRA)
    approx_dist(r, {0: SIXTH, **{k: 5 / 36 for k in range(1, 7)}})
    assert r.attacker_ipc_lost == pytest.approx(14 / 12)  # hit on 1/6, then lost on 1-3: the escort is never fired on
    assert dict(r.attacker_survivors)[(("fighter", 1),)] == pytest.approx(1 / 12)


@pytest.mark.rule("AARE-TECH-jet-intercept-roll")
@pytest.mark.rule("AARE-TECH-lra-escort-neutralize")
@pytest.mark.rule("AARE-TECH-lra-escort-partial-aa-protection")
def test_aare_escorts_and_interceptors_exact_against_monte_carlo() -> None:
    raid = {"attacker": "4 bombers, 1 fighter", "defender": "2 fighters", "rules": AARE, "battle": "raid",
            "territory_value": 12, "attacker_techs": LRA | HB, "defender_techs": JETS}  # fmt: skip
    t0 = time.perf_counter()
    exact = odds(**raid)
    assert time.perf_counter() - t0 < 2.0
    mc = odds(**raid, method="mc", runs=4000, seed=3)
    assert mc.runs == 4000
    agrees(exact, mc)
    assert mc.attacker_ipc_lost == pytest.approx(exact.attacker_ipc_lost, abs=1.0)
    assert sum(p for _, p in mc.damage) == pytest.approx(1.0)
    assert max(dist(exact)) == 12 and exact.expected_damage == pytest.approx(sum(d * p for d, p in exact.damage))


@pytest.mark.rule("LHTR-TECH-rockets-damage")
@pytest.mark.rule("AARE-TECH-rockets-cap")
def test_rocket_rolls_one_die_capped_and_aa_does_not_fire() -> None:
    r = odds("", "", LHTR, battle="rocket")
    approx_dist(r, {k: SIXTH for k in range(1, 7)})
    assert odds("1 aa gun", "", LHTR, battle="rocket", defender_aa=True).damage == r.damage
    capped = odds("1 rocket", "", AARE, battle="rocket", territory_value=2)
    approx_dist(capped, {1: SIXTH, 2: 5 / 6})
    assert r.attacker_ipc_lost == 0


@pytest.mark.rule("AARE-TECH-jet-intercept-roll")
@pytest.mark.rule("AARE-LANDSEQ-interceptors-sbr-rocket-only")
def test_rocket_against_jet_interceptors() -> None:
    r = odds("", "2 fighters", AARE, battle="rocket", defender_techs=JETS)
    approx_dist(r, {0: 11 / 36, **{k: 25 / 216 for k in range(1, 7)}})
    mc = odds("", "2 fighters", AARE, battle="rocket", defender_techs=JETS, method="mc", runs=3000, seed=1)
    agrees(r, mc)


ILLEGAL = [
    ("1 bomber, 1 fighter", "", LHTR, "raid", "only bombers may raid"),
    ("1 bomber", "1 fighter", LHTR, "raid", "no fighter defends"),
    ("1 bomber", "2 infantry", LHTR, "raid", "infantry"),
    ("", "", LHTR, "raid", "no units"),
    ("1 bomber", "1 fighter", AARE, "raid", "jet_fighters"),
    ("1 bomber, 1 fighter", "", AARE, "raid", "long_range_aircraft"),
    ("2 bombers", "", LHTR, "rocket", "one rocket"),
    ("1 bomber", "", LHTR, "blitz", "raid, rocket"),
]


def test_a_raid_has_no_retreat() -> None:
    for policy in ({"retreat_after": 1}, {"retreat_below": 0.3}, {"retreat_when_only_air": True}):
        with pytest.raises(MalformedInput, match="no retreat"):
            odds("2 bombers", "", LHTR, battle="raid", **policy)  # type: ignore[arg-type]


@pytest.mark.rule("LHTR-SBR-eligibility")
@pytest.mark.parametrize(("attacker", "defender", "rules", "battle", "why"), ILLEGAL)
def test_illegal_raids_say_why(attacker: str, defender: str, rules: str, battle: str, why: str) -> None:
    with pytest.raises((MalformedInput, IllegalAction), match=why):
        odds(attacker, defender, rules, battle=battle)


def test_json_has_the_damage_only_for_raids_and_rockets() -> None:
    land = odds("2 infantry", "1 infantry", LHTR)
    assert land.expected_damage is None and land.damage == ()
    assert "expected_damage" not in land.to_json() and "damage" not in land.to_json()
    data = odds("1 bomber", "", LHTR, battle="raid", territory_value=4).to_json()
    assert data["expected_damage"] == pytest.approx(2.5)
    assert data["damage"][0] == {"damage": 0, "p": pytest.approx(SIXTH)}
    assert [row["damage"] for row in data["damage"]] == [0, 1, 2, 3, 4]
    assert data["attacker_survivors"][0]["units"] == "1 bomber"
    mc = odds("1 bomber", "", LHTR, battle="raid", method="mc", runs=500).to_json()
    assert "expected_damage" in mc["ci95"] and mc["runs"] == 500


@pytest.mark.rule("AARE-TECH-lra-escort-partial-aa-protection")
def test_many_protected_bombers_solve_exactly_in_seconds() -> None:
    """Each hit bomber's protection die is lost-or-saved (two chance outcomes, not four): ten bombers under
    surplus escorts solve in about a second instead of minutes."""
    t0 = time.perf_counter()
    r = odds("10 bombers, 12 fighters", "2 fighters", AARE, battle="raid", territory_value=30,
             attacker_techs=LRA | HB, defender_techs=JETS)  # fmt: skip
    assert time.perf_counter() - t0 < 20.0
    assert r.attacker_ipc_lost == pytest.approx(10 * 14 / 12)  # AA hits 1/6, the protection die loses 1/2
