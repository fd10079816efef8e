"""Strategic bombing raids and rocket strikes in the calculator: the players' inputs as a bombing battle.

A raid's attacker is its bombers (with escorting fighters where the ruleset has `CombatRules.sbr_escorts`); its
defender is the interceptors standing by (fighters, where the ruleset has `sbr_interceptors`); the target's
industrial complex is added, and its AA gun unless ``defender_aa=False``. A rocket strike is one rocket, keyed as
the AA gun that fires it and flagged ``rocket`` (as a game builds it), against the complex and its interceptors.
Both are fought by the combat engine's bombing sequence; the outcome is the damage after the caps
(`territory_value`, `treasury`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aare.board.units import UnitCatalogue
from aare.combat.air_defence import JETS, LONG_RANGE, ROCKET
from aare.combat.battle_state import Stacks, UnitKey, add_units, make_stacks
from aare.combat.engine import to_stacks
from aare.combat.policy import Policy
from aare.combat.rules import CombatRules
from aare.errors import MalformedInput

RAID = "bombing"
ROCKET_STRIKE = "rocket"
RAID_KINDS = {"raid": RAID, "bombing": RAID, "rocket": ROCKET_STRIKE}
ROCKET_TEXT = ("", "rocket", "1 rocket")


def _tagged(catalogue: UnitCatalogue, tag: str) -> str:
    """The id of the ruleset's unit with `tag`."""
    found = next((u.id for u in catalogue if u.has(tag)), None)
    if found is None:
        raise MalformedInput(f"this ruleset has no unit tagged {tag!r}: it cannot fight a raid or rocket strike")
    return found


def rocket(catalogue: UnitCatalogue) -> Stacks:
    """One rocket: the AA gun that fires it, flagged ``rocket``."""
    return ((UnitKey(_tagged(catalogue, "aa"), flags=(ROCKET,)), 1),)


def _rocket_attacker(attacker: str | Mapping[str, Any], catalogue: UnitCatalogue) -> Stacks:
    """A rocket strike's attacker: empty, "1 rocket" or the one AA gun that fires it."""
    if not attacker or (isinstance(attacker, str) and attacker.strip().lower() in ROCKET_TEXT):
        return rocket(catalogue)
    stacks = to_stacks(attacker, catalogue)
    if [(catalogue[k.type].has("aa"), n) for k, n in stacks] != [(True, 1)]:
        raise MalformedInput("a rocket strike is one rocket: give no attacker, \"1 rocket\" or the 1 AA gun firing it")
    return rocket(catalogue)


def _fighters(stacks: Stacks, catalogue: UnitCatalogue) -> int:
    return sum(n for k, n in stacks if catalogue[k.type].has("fighter"))


def _check_air(attacker: Stacks, defender: Stacks, catalogue: UnitCatalogue, rules: CombatRules,
               techs: tuple[frozenset[str], frozenset[str]]) -> None:
    """Fighters in a raid are escorts with long range aircraft and interceptors with jet fighters; rulesets
    without escorts or interceptors have none (LHTR-SBR-eligibility)."""
    escorts, interceptors = _fighters(attacker, catalogue), _fighters(defender, catalogue)
    if escorts and not rules.sbr_escorts:
        raise MalformedInput("only bombers may raid: this ruleset has no escorts (LHTR-SBR-eligibility)")
    if interceptors and not rules.sbr_interceptors:
        raise MalformedInput("no fighter defends against a raid or rocket in this ruleset (LHTR-SBR-eligibility)")
    if escorts and LONG_RANGE not in techs[0]:
        raise MalformedInput(f"escorting fighters need the attacker tech {LONG_RANGE} "
                             "(AARE-TECH-lra-escort-neutralize)")
    if interceptors and JETS not in techs[1]:
        raise MalformedInput(f"interceptors are jet fighters: give the defender tech {JETS} "
                             "(AARE-TECH-jet-intercept-roll)")


def _target(defender: Stacks, catalogue: UnitCatalogue, aa: bool) -> Stacks:
    """The defender with the target's industrial complex and (with `aa`) its AA gun, each once."""
    have = {k.type for k, _ in defender}
    for unit, wanted in ((_tagged(catalogue, "bombing_target"), True), (_tagged(catalogue, "aa"), aa)):
        if wanted and unit not in have:
            defender = add_units(defender, UnitKey(unit))
    return defender


def _techs(inputs: Mapping[str, Any], side: str) -> frozenset[str]:
    value: Iterable[str] = inputs.get(f"{side}_techs", ())
    return frozenset(value)


def raid_inputs(
    kind: str,
    attacker: str | Mapping[str, Any],
    defender: str | Mapping[str, Any],
    catalogue: UnitCatalogue,
    rules: CombatRules,
    inputs: Mapping[str, Any],
) -> tuple[Stacks, Stacks, dict[str, Any]]:
    """Attacker, defender and `start_battle` inputs of a raid or rocket strike (`kind` a value of
    `RAID_KINDS`). ``defender_aa`` defaults to True for a raid (LHTR-AA-sbr-fire) and False for a rocket,
    which AA guns never fire at (LHTR-TECH-rockets-damage)."""
    out = dict(inputs)
    aa = bool(out.pop("defender_aa", kind == RAID))
    a = _rocket_attacker(attacker, catalogue) if kind == ROCKET_STRIKE else to_stacks(attacker, catalogue)
    d = to_stacks(defender, catalogue) if defender else ()
    _check_air(a, d, catalogue, rules, (_techs(out, "attacker"), _techs(out, "defender")))
    for name in ("territory_value", "treasury", "already_lost"):
        value = out.get(name)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise MalformedInput(f"{name} must be a non-negative whole number of IPCs, got {value!r}")
    return a, make_stacks(_target(d, catalogue, aa)), out


def check_raid_policy(policy: Policy) -> None:
    """A raid or rocket strike is one round (interceptors, AA fire, damage) with no retreat."""
    if policy.retreats:
        raise MalformedInput("a raid or rocket strike has no retreat: leave the retreat policy out")
