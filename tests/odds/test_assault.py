"""A whole amphibious assault as one calculation (`aare.odds.assault`): the sea battle, then the landing of the
cargo left, against hand-worked values and against a brute-force composition of the general step engine."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.errors import IllegalAction, MalformedInput
from aare.odds import build_battle, odds
from aare.odds.assault import builder, ends_without_transports, sea_outcomes
from aare.odds.calculator import exact_tally
from aare.odds.exact import solve
from aare.odds.report import Tally, joint_recording

LHTR = "lhtr-1.3"
AARE = "aare-5.0"
TOL = 1e-12


def close(x: float) -> object:
    return pytest.approx(x, abs=TOL)


def brute_force(
    rules: str, fleet: str, sea_defender: str, loads: list[str], overland: str, defender: str, **land: Any
) -> dict[str, float]:
    """The assault composed from the general step engine: every terminal state of the sea battle (result and
    fleet together), its landed loads (the first ones, only if the zone is cleared), their land battle."""
    with joint_recording():
        sea = solve(build_battle(fleet, sea_defender, rules, "sea"))
    assert sea.joint is not None
    out = dict.fromkeys(("attacker", "defender", "draw", "stalemate", "capture", "sea_win"), 0.0)
    for (result, units), p in sea.joint.items():
        cleared = result == "attacker"
        out["sea_win"] += p if cleared else 0.0
        landed = loads[: dict(units).get("transport", 0)] if cleared else []
        force = ", ".join(x for x in (overland, *landed) if x)
        if not force:
            out["defender"] += p
            continue
        battle = solve(build_battle(force, defender, rules, "amphibious", overland=overland or None, **land))
        for r, q in battle.results.items():
            out["defender" if r == "retreat" else r] += p * q
        out["capture"] += p * battle.capture
    return out


def assert_matches(result: object, expected: dict[str, float]) -> None:
    expected = {**expected, "draw": expected["draw"] + expected["stalemate"]}  # a draw counts the stalemates
    for name, field in (("attacker", "attacker_win"), ("defender", "defender_win"), ("draw", "draw"),
                        ("stalemate", "stalemate"), ("capture", "capture"), ("sea_win", "sea_win")):
        assert getattr(result, field) == close(expected[name]), name


@pytest.mark.rule("LHTR-BOMBARD-who-and-when", "LHTR-TRANSPORT-amphibious-assault")
def test_no_enemy_ships_is_todays_amphibious_odds_with_bombardment() -> None:
    today = odds("3 infantry, 1 armour, 1 fighter", "3 infantry", LHTR, battle="amphibious", bombard="1 battleship",
                 overland="1 infantry", defender_aa=True)
    whole = odds("3 infantry, 1 armour, 1 fighter", "3 infantry", LHTR, battle="amphibious", bombard="1 battleship",
                 fleet="2 transports, 1 battleship", loads="1 infantry, 1 armour; 1 infantry", defender_aa=True)
    for name in ("attacker_win", "defender_win", "draw", "stalemate", "capture", "attacker_ipc_lost",
                 "defender_ipc_lost", "expected_cycles"):
        assert getattr(whole, name) == close(getattr(today, name)), name
    assert dict(whole.attacker_survivors) == pytest.approx(dict(today.attacker_survivors), abs=TOL)
    assert whole.sea_win == 1.0 and whole.sea_battle is None
    assert today.sea_win is None and "sea_win" not in today.to_json()


@pytest.mark.rule("LHTR-TRANSPORT-amphibious-assault", "LHTR-TRANSPORT-sea-battle-lost",
                  "LHTR-NAVALCOMBAT-destroyer-cancels-surprise")
def test_transport_and_destroyer_against_a_submarine_by_hand() -> None:
    # Sea: the sub hits on 2 (1/3), the destroyer on 3 (1/2); the transport (cheapest) is lost first. From
    # transport + destroyer: 1/2 win with the transport, 1/4 win without, 1/4 destroyer alone against the sub
    # (then 1/2 win, 1/4 draw, 1/4 loss). Land: 1 infantry (1/6) against 1 infantry (1/3): 1/4 win, 1/8 draw.
    result = odds("1 infantry", "1 infantry", LHTR, battle="amphibious", fleet="1 transport, 1 destroyer",
                  sea_defender="1 submarine", loads="1 infantry")
    assert result.sea_win == close(7 / 8)
    assert result.attacker_win == close(1 / 2 * 1 / 4) and result.capture == close(1 / 8)
    assert result.draw == close(1 / 2 * 1 / 8)
    assert result.defender_win == close(1 - 1 / 8 - 1 / 16)
    # IPC: transport 8 lost 1/2, destroyer 12 lost 1/8, infantry 3 lost 7/8; sub 8 lost 15/16, infantry 3/16
    assert result.attacker_ipc_lost == close(8 / 2 + 12 / 8 + 3 * 7 / 8)
    assert result.defender_ipc_lost == close(8 * 15 / 16 + 3 * 3 / 16)
    assert result.sea_battle is not None and result.sea_battle.attacker_win == close(7 / 8)
    assert dict(result.attacker_survivors) == pytest.approx({(): 7 / 8, (("infantry", 1),): 1 / 8}, abs=TOL)


@pytest.mark.rule("LHTR-NAVALCOMBAT-transports-in-battle", "LHTR-TRANSPORT-sea-battle-lost")
def test_a_lone_transport_never_lands_but_overland_units_still_attack() -> None:
    sunk = odds("1 infantry", "1 infantry", LHTR, battle="amphibious", fleet="1 transport", sea_defender="1 submarine",
                loads="1 infantry")
    assert sunk.sea_win == 0.0 and sunk.defender_win == close(1.0) and sunk.attacker_ipc_lost == close(8 + 3)
    overland = odds("2 infantry", "1 infantry", LHTR, battle="amphibious", fleet="1 transport",
                    sea_defender="1 submarine", loads="1 infantry")
    alone = odds("1 infantry", "1 infantry", LHTR)
    assert overland.attacker_win == close(alone.attacker_win) and overland.draw == close(alone.draw)


@pytest.mark.rule("LHTR-TRANSPORT-amphibious-assault", "LHTR-TRANSPORT-sea-battle-lost")
@pytest.mark.parametrize(("fleet", "sea"), [
    ("2 transports, 1 destroyer, 1 fighter", "1 submarine, 1 destroyer"),
    ("3 transports, 1 battleship", "2 submarines"),  # an empty transport, lost first
])
def test_assault_matches_a_brute_force_composition(fleet: str, sea: str) -> None:
    loads = ["1 infantry, 1 armour", "2 infantry"]
    expected = brute_force(LHTR, fleet, sea, loads, "1 armour", "2 infantry, 1 artillery")
    result = odds("3 infantry, 2 armour", "2 infantry, 1 artillery", LHTR, battle="amphibious", fleet=fleet,
                  sea_defender=sea, loads="; ".join(loads))
    assert_matches(result, expected)
    assert 0 < (result.sea_win or 0.0) < 1 and 0 < result.attacker_win < 1


def test_the_last_listed_load_is_lost_first() -> None:
    kw = {"battle": "amphibious", "fleet": "2 transports, 1 destroyer", "sea_defender": "1 submarine"}
    force = "1 infantry, 1 armour, 2 infantry"
    armour_first = odds(force, "2 infantry", LHTR, loads="1 infantry, 1 armour; 2 infantry", **kw)  # type: ignore[arg-type]
    armour_last = odds(force, "2 infantry", LHTR, loads="2 infantry; 1 infantry, 1 armour", **kw)  # type: ignore[arg-type]
    assert armour_first.sea_win == close(armour_last.sea_win or 0.0)
    assert armour_first.attacker_win > armour_last.attacker_win


def composed_outcomes(tally: Tally) -> dict[tuple[bool, int], float]:
    """P(cleared, transports afloat) straight from a fully recorded joint."""
    assert tally.joint is not None
    out: dict[tuple[bool, int], float] = {}
    for (result, units), p in tally.joint.items():
        key = (result == "attacker", dict(units).get("transport", 0))
        out[key] = out.get(key, 0.0) + p
    return out


@pytest.mark.parametrize(("rules", "fleet", "enemy"), [
    (LHTR, "2 transports, 1 battleship, 2 fighters", "1 submarine, 1 destroyer"),
    (LHTR, "2 transports, 1 destroyer", "2 submarines"),
    (AARE, "1 transport, 1 fighter", "1 submarine"),  # aircraft cannot hit subs alone: a stalemate
    (AARE, "2 transports, 2 fighters, 1 destroyer", "2 submarines, 1 destroyer"),
])
def test_sea_outcomes_from_the_fast_solver_match_the_general_engine(rules: str, fleet: str, enemy: str) -> None:
    battle = build_battle(fleet, enemy, rules, "sea")
    with joint_recording():
        fast, general = exact_tally(battle), exact_tally(battle, fast=False)
    found = sea_outcomes(fast, "transport", ends_without_transports(fast, "transport", builder(rules, None, {})))
    assert found is not None
    expected = {k: p for k, p in composed_outcomes(general).items() if p > TOL}
    assert set(found) == set(expected)
    for key, p in expected.items():
        assert found[key] == close(p), key


def test_stalemate_mass_left_out_of_the_joint_is_not_guessed() -> None:
    tally = Tally((), (), build_battle("1 infantry", "1 infantry", LHTR).setup.catalogue, joint={})
    tally.results.update(attacker=0.5, stalemate=0.5)
    tally.attacker.update({(("transport", 1),): 0.75, (): 0.25})
    assert sea_outcomes(tally, "transport") is None
    tally.joint = {("stalemate", (("transport", 1),)): 0.25, ("stalemate", ()): 0.25}
    assert sea_outcomes(tally, "transport") == {(True, 1): 0.5, (False, 1): 0.25, (False, 0): 0.25}
    assert Tally((), (), tally.catalogue).joint is None  # recorded only inside joint_recording()


def test_a_stalemate_leaves_no_transport_when_every_enemy_remnant_can_hit_one() -> None:
    build = builder(LHTR, None, {})
    tally = Tally((), (), build_battle("1 infantry", "1 infantry", LHTR).setup.catalogue, joint={})
    tally.results.update(attacker=0.5, stalemate=0.5)
    tally.attacker.update({(("transport", 1),): 0.5, (("fighter", 1),): 0.5})
    tally.defender.update({(): 0.5, (("submarine", 1),): 0.5})
    ends = ends_without_transports(tally, "transport", build)
    assert "stalemate" in ends
    assert sea_outcomes(tally, "transport", ends) == {(True, 1): 0.5, (False, 0): 0.5}
    tally.defender[("factory", 1),] = 0.25  # a remnant that cannot fight at sea proves nothing
    assert "stalemate" not in ends_without_transports(tally, "transport", build)


@pytest.mark.rule("LHTR-BOMBARD-no-sea-battle")
def test_no_bombardment_from_a_zone_that_had_a_sea_battle() -> None:
    with pytest.raises(IllegalAction) as err:
        odds("1 infantry", "1 infantry", LHTR, battle="amphibious", fleet="1 transport, 1 battleship",
             sea_defender="1 submarine", loads="1 infantry", bombard="1 battleship")
    assert err.value.rule_id == "LHTR-BOMBARD-no-sea-battle"


@pytest.mark.rule("LHTR-BOMBARD-no-sea-battle", "LHTR-BOMBARD-who-and-when")
def test_ships_of_another_quiet_zone_bombard_after_the_sea_battle() -> None:
    # transport + fighter against a sub: the sea is always won, the transport afloat half the time
    kw = {"battle": "amphibious", "fleet": "1 transport, 1 fighter", "sea_defender": "1 submarine",
          "loads": "1 infantry", "other_zone_bombard": "1 battleship"}
    result = odds("1 infantry", "1 infantry", LHTR, **kw)  # type: ignore[arg-type]
    landed = odds("1 infantry", "1 infantry", LHTR, battle="amphibious", bombard="1 battleship")
    assert result.sea_win == close(1.0)
    assert result.attacker_win == close(1 / 2 * landed.attacker_win)
    assert landed.attacker_win > odds("1 infantry", "1 infantry", LHTR).attacker_win


@pytest.mark.rule("LHTR-BOMBARD-who-and-when")
def test_bombarding_ships_come_from_the_fleet_and_need_a_landing() -> None:
    with pytest.raises(MalformedInput, match="must be in the fleet"):
        odds("1 infantry", "1 infantry", LHTR, battle="amphibious", fleet="1 transport", loads="1 infantry",
             bombard="1 battleship")
    with pytest.raises(IllegalAction) as err:
        odds("1 armour", "1 infantry", LHTR, battle="amphibious", fleet="1 transport, 1 battleship",
             bombard="1 battleship")
    assert err.value.rule_id == "LHTR-BOMBARD-who-and-when"


@pytest.mark.rule("LHTR-TRANSPORT-capacity", "LHTR-UNITS-transport")
def test_loads_are_checked_against_the_transports() -> None:
    base = {"battle": "amphibious", "fleet": "2 transports", "sea_defender": "1 submarine"}
    with pytest.raises(MalformedInput, match="LHTR-TRANSPORT-capacity"):
        odds("1 armour, 1 artillery", "1 infantry", LHTR, loads="1 armour, 1 artillery", **base)  # type: ignore[arg-type]
    with pytest.raises(MalformedInput, match="one load per transport"):
        odds("3 infantry", "1 infantry", LHTR, loads="1 infantry; 1 infantry; 1 infantry", **base)  # type: ignore[arg-type]
    with pytest.raises(MalformedInput, match="cannot be carried"):
        odds("1 fighter", "1 infantry", LHTR, loads="1 fighter", **base)  # type: ignore[arg-type]
    with pytest.raises(MalformedInput, match="more than the attacker lists"):
        odds("1 infantry", "1 infantry", LHTR, loads="2 infantry", **base)  # type: ignore[arg-type]
    with pytest.raises(MalformedInput, match="needs the fleet"):
        odds("1 infantry", "1 infantry", LHTR, battle="amphibious", loads="1 infantry")
    with pytest.raises(MalformedInput, match="only for an amphibious assault"):
        odds("1 infantry", "1 infantry", LHTR, fleet="1 transport")
    with pytest.raises(MalformedInput, match="exactly only"):
        odds("1 infantry", "1 infantry", LHTR, loads="1 infantry", method="mc", **base)  # type: ignore[arg-type]
    ok = odds("1 infantry, 1 armour", "1 infantry", LHTR, battle="amphibious", fleet="2 transports",
              loads="1 infantry, 1 armour")
    assert 0 < ok.attacker_win < 1 and ok.sea_win == 1.0


@pytest.mark.rule("AARE-LHTR-combat-load-must-unload", "AARE-NAVALSEQ-regular-sub-values")
def test_aare_assault_matches_a_brute_force_composition() -> None:
    fleet, sea, loads = "1 transport, 1 destroyer", "1 submarine", ["1 infantry, 1 artillery"]
    expected = brute_force(AARE, fleet, sea, loads, "", "2 infantry")
    result = odds("1 infantry, 1 artillery", "2 infantry", AARE, battle="amphibious", fleet=fleet, sea_defender=sea,
                  loads=loads)
    assert_matches(result, expected)


@pytest.mark.rule("AARE-TECH-ca-dd-bombard")
def test_aare_combined_arms_destroyer_bombards_only_without_a_sea_battle() -> None:
    ca = frozenset({"combined_bombardment"})
    quiet = odds("1 infantry", "1 infantry", AARE, battle="amphibious", fleet="1 transport, 1 destroyer",
                 loads="1 infantry", bombard="1 destroyer", attacker_techs=ca)
    assert quiet.attacker_win == close(1 / 2 + 1 / 2 * 1 / 4) and quiet.sea_win == 1.0
    with pytest.raises(IllegalAction) as err:
        odds("1 infantry", "1 infantry", AARE, battle="amphibious", fleet="1 transport, 1 destroyer",
             sea_defender="1 submarine", loads="1 infantry", bombard="1 destroyer", attacker_techs=ca)
    assert err.value.rule_id == "LHTR-BOMBARD-no-sea-battle"


@pytest.mark.rule("LHTR-TRANSPORT-amphibious-assault")
def test_cli_assault_text_and_json() -> None:
    args = ["odds", "--rules", LHTR, "--battle", "amphibious", "--attacker", "1 infantry", "--defender", "1 infantry",
            "--fleet", "1 transport, 1 destroyer", "--sea-defender", "1 submarine", "--loads", "1 infantry"]
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    assert "sea win: 0.875000" in text.output and "fleet survivors" in text.output
    data = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert data["sea_win"] == close(7 / 8) and data["attacker_win"] == close(1 / 8)
    assert data["sea_battle"]["attacker_win"] == close(7 / 8)
    bad = CliRunner().invoke(cli, [*args[:-1], "1 armour, 1 artillery"])
    assert bad.exit_code == 2 and "LHTR-TRANSPORT-capacity" in bad.output
