"""The battle calculator: exact odds by dynamic programming and Monte Carlo odds, on the combat engine's
sequences. `odds("3 infantry, 1 armour", "2 infantry")` is the one-call entry point."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from aare.combat.battle_state import JOINS_NEXT_CYCLE, make_stacks
from aare.combat.engine import start_battle, to_stacks
from aare.combat.policy import Policy
from aare.combat.rules import CombatRules
from aare.combat.sequences import lhtr_sequence
from aare.combat.setup import Battle
from aare.errors import MalformedInput
from aare.odds.calculator import exact_odds
from aare.odds.exact import TooLarge
from aare.odds.ladder import fast_path_ok
from aare.odds.monte_carlo import monte_carlo_odds
from aare.odds.raid import RAID_KINDS, check_raid_policy, raid_inputs
from aare.odds.report import BattleOdds

KINDS = {"land": "land", "sea": "sea", "naval": "sea", "amphibious": "amphibious", **RAID_KINDS}


# The CPU seconds the command line gives the general step engine for an exact answer, and the Monte Carlo battles
# that stand in past them.
EXACT_LIMIT = 10.0
FALLBACK_RUNS = 2_000


def _ruleset(rules: Any, options: Mapping[str, Any] | None = None) -> Any:
    """A ruleset object: `rules` itself, the ruleset of that id, or (None) the installed default."""
    from aare.rules.registry import default_ruleset
    from aare.rules.ruleset import load_ruleset

    if rules is None:
        rules = default_ruleset()
    if not isinstance(rules, str):
        return rules
    return load_ruleset(rules, options)


def build_battle(
    attacker: str | Mapping[str, Any],
    defender: str | Mapping[str, Any],
    rules: Any = None,
    battle: str = "land",
    options: Mapping[str, Any] | None = None,
    base_sequence: bool = False,
    **inputs: Any,
) -> Battle:
    """A battle of `battle` kind under a ruleset (id, with game `options`, or an object with `units` and
    `modify`). A raid or rocket strike (`aare.odds.raid`) is a bombing battle."""
    kind = KINDS.get(battle)
    if kind is None:
        raise MalformedInput(f"unknown battle kind {battle!r} (land, sea, amphibious, raid, rocket)")
    rs = _ruleset(rules, options)
    known = set(rs.modify("technologies", ()))
    for side in ("attacker_techs", "defender_techs"):
        unknown = sorted(t for t in set(inputs.get(side, ())) - known if not t.startswith("na:"))  # NA abilities
        if known and unknown:
            raise MalformedInput(f"unknown technology {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    combat_rules = rs.modify("combat_rules", CombatRules())
    a: Any = attacker
    d: Any = defender
    if kind in RAID_KINDS.values():
        a, d, inputs = raid_inputs(kind, attacker, defender, rs.units, combat_rules, inputs)
        kind = "bombing"
    sequence = lhtr_sequence(kind) if base_sequence else rs.modify("combat_sequence", lhtr_sequence(kind), kind=kind)
    late = inputs.pop("late_defender", "")
    b = start_battle(a, d, kind, units=rs.units, rules=combat_rules, sequence=sequence, **inputs)
    if not late:
        return b
    held = ((k.with_flag(JOINS_NEXT_CYCLE), n) for k, n in to_stacks(late, rs.units))
    return b.with_state(b.state.evolve(defender=make_stacks((*b.state.defender, *held))))


def odds(
    attacker: str | Mapping[str, Any],
    defender: str | Mapping[str, Any],
    rules: Any = None,
    *,
    battle: str = "land",
    options: Mapping[str, Any] | None = None,
    method: str = "exact",
    runs: int = 100_000,
    seed: int = 0,
    ool_attacker: Sequence[str] | str = (),
    ool_defender: Sequence[str] | str = (),
    retreat_after: int | None = None,
    retreat_at_units: int | None = None,
    retreat_when_only_air: bool = False,
    retreat_below: float | None = None,
    land_on_carriers: Sequence[str] | str = (),
    attacker_submerge_undetected: bool = False,
    defender_submerge_undetected: bool = False,
    explain: bool = False,
    kaitens: int = 0,
    kamikazes: int = 0,
    targets: Sequence[str] | str = (),
    estimate: bool = False,
    exact_limit: float | None = None,
    **inputs: Any,
) -> BattleOdds:
    """Odds of a battle. `attacker` / `defender`: unit text or ``{unit: count}``. `options`: the ruleset's
    game options. `retreat_below` (0-1): the attacker retreats whenever its chance to win by pressing on is
    under it (exact method). `land_on_carriers`: "attacker", "defender" or both — that side's aircraft can
    land only on its surviving carriers after a sea battle; the rest are lost
    (LHTR-AIRMOVE-defending-carrier-lost). `inputs` go to `aare.combat.engine.start_battle` (bombard,
    defender_aa, attacker_techs, defender_techs, owner_techs, ...). `*_submerge_undetected`: undetected subs
    submerge after opening fire (rulesets with sub detection). `kaitens` / `kamikazes`: that many attacking
    subs / fighters are Kaitens / Kamikazes (aare-5.0), aiming at `targets` (unit types in order; default:
    the dearest ships). `attacker_abilities` / `defender_abilities`: ability names the ruleset turns into
    battle tags (aare-5.0: national advantages that count as if their conditions held). A whole amphibious
    assault, the sea battle first (`aare.odds.assault`): `fleet`, `sea_defender`, `loads` (one per transport,
    ``;``-separated, the last-listed lost first), `other_zone_bombard`, `ool_fleet`, `ool_sea_defender`.
    `estimate` (for bots that judge many battles): where the ruleset's own sequence has no fast exact solver, the
    odds of the base LHTR sequence with the ruleset's units and switches stand in for them (an estimate).
    `exact_limit`: CPU seconds the exact method may spend in the general step engine (None: no limit; the command
    line and the web table set one); past them Monte Carlo stands in, with `min(runs, FALLBACK_RUNS)` battles, its
    95 % intervals and a `note` saying so (the choice then depends on the machine's speed)."""
    specials = {name: n for name, n in (("kaitens", kaitens), ("kamikazes", kamikazes)) if n}
    if specials:
        attacker = _ruleset(rules, options).modify("calculator_specials", attacker, specials=specials)
        if specials:
            raise MalformedInput(f"this ruleset has no special attackers {', '.join(sorted(specials))}")
    for side in ("attacker", "defender"):
        names = inputs.pop(f"{side}_abilities", ())
        if names:
            tags = _ruleset(rules, options).modify("battle_abilities", frozenset(), names=tuple(names))
            if not tags:
                raise MalformedInput(f"this ruleset knows no battle abilities ({', '.join(names)})")
            inputs[f"{side}_techs"] = frozenset(inputs.get(f"{side}_techs", ())) | tags
    from aare.odds import assault as amphibious  # imports this package

    assault = amphibious.take_assault_inputs(battle, inputs)
    if assault is not None and inputs.get("late_defender"):
        raise MalformedInput("late defenders join a land or sea battle, not a whole amphibious assault")
    b = build_battle(attacker, defender, rules, battle, options, **inputs)
    cat = b.setup.catalogue

    def order(value: Sequence[str] | str) -> tuple[str, ...]:
        names = [x.strip() for x in value.split(",")] if isinstance(value, str) else list(value)
        return tuple(cat.resolve(x) for x in names if x)

    if retreat_below is not None and not 0.0 <= retreat_below <= 1.0:
        raise MalformedInput(f"retreat_below is a chance between 0 and 1, got {retreat_below}")
    policy = Policy(
        attacker_order=order(ool_attacker),
        defender_order=order(ool_defender),
        retreat_after=retreat_after,
        retreat_at_units=retreat_at_units,
        retreat_when_only_air=retreat_when_only_air,
        retreat_below=retreat_below,
        attacker_submerge_undetected=attacker_submerge_undetected,
        defender_submerge_undetected=defender_submerge_undetected,
        targets=order(targets),
    )
    if b.state.kind == "bombing":
        check_raid_policy(policy)
    if assault is not None:
        result = amphibious.assault_odds(attacker, defender, rules, options, b, policy, inputs, assault, method)
    elif method == "exact":
        if estimate and not fast_path_ok(b, policy) and b.setup.sequence.kind in ("land", "sea"):
            b = build_battle(attacker, defender, rules, battle, options, base_sequence=True, **inputs)
        try:
            result = exact_odds(b, policy, limit=exact_limit)
        except TooLarge as too:
            result = monte_carlo_odds(b, policy, runs=min(runs, FALLBACK_RUNS), seed=seed)
            result = replace(result, note=f"too large for the exact method ({too}): Monte Carlo over "
                             f"{result.runs:,} battles instead")
    elif method == "mc":
        result = monte_carlo_odds(b, policy, runs=runs, seed=seed)
    else:
        raise MalformedInput(f"unknown method {method!r} (exact, mc)")
    landing = (land_on_carriers,) if isinstance(land_on_carriers, str) else tuple(land_on_carriers)
    landing = tuple(x for x in landing if x)
    if landing:
        if b.setup.sequence.kind != "sea" or any(x not in ("attacker", "defender") for x in landing):
            raise MalformedInput("land_on_carriers: attacker and/or defender, in sea battles")
        from aare.odds.landing import on_carriers

        result = on_carriers(result, landing)
    if explain:
        result = replace(result, explain=tuple(b.setup.sequence.explain()))
    return result


__all__ = ["EXACT_LIMIT", "BattleOdds", "Policy", "build_battle", "exact_odds", "monte_carlo_odds", "odds"]
