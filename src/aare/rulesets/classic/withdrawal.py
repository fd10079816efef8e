"""Classic submarine withdrawal (part of module `classic_combat`): after a round, attacking submarines withdraw
to the sea zone they came from and defending ones to an adjacent sea zone holding no enemy unit, chosen by their
owner; never into a zone where a battle was fought or is still to be fought this turn, nor through a canal
closed to them. The rest of the battle goes on (CL-NAVALCOMBAT-sub-withdraw).

The withdrawal is the engine's submerge with destinations (`ChooseSubmerge.destinations`): the attacker's are its
retreat destinations, the defender's are computed here (`battle_inputs`, as `defender_retreat_to`: the Classic
defender has no retreat step of its own), and each answer is checked and routed by `retreat_routes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from aare.combat.board_battle import deciding_power
from aare.combat.setup import Battle
from aare.errors import IllegalAction
from aare.movement import flags
from aare.movement.battles import BattleSite
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.rulesets.classic.sea_passage import closed_passage
from aare.state.game_state import GameState

WITHDRAW_RULE = "CL-NAVALCOMBAT-sub-withdraw"
Routes = tuple[tuple[str, str, int], ...]


def embattled(state: GameState, ruleset: Ruleset, site: BattleSite) -> set[str]:
    """Spaces where a battle was fought this turn or is still to be fought (the battle at `site` aside)."""
    from aare.phases.conduct_combat import combat_record, open_battles

    fought = {f for f in combat_record(state)["fought"] if "|" not in f}
    return (fought | {b.space for b in open_battles(state, ruleset)}) - {site.space}


def _side_of(ruleset: Ruleset, power: str) -> str:
    return ruleset.board.side_of(power)


def open_zone(state: GameState, ruleset: Ruleset, site: BattleSite, power: str, zone: str) -> str | None:
    """Why `power`'s submarines may not withdraw from `site` into `zone`, or None."""
    if zone in embattled(state, ruleset, site):
        return f"a battle is fought in {zone} this turn"
    side = _side_of(ruleset, power)
    if any(_side_of(ruleset, s.owner) != side for s in state.stacks(zone)):
        return f"{zone} holds enemy units"
    closed = closed_passage(state, ruleset, power, site.space, zone)
    return closed[0] if closed is not None else None


def defender_zones(state: GameState, ruleset: Ruleset, site: BattleSite, power: str) -> tuple[str, ...]:
    """The adjacent sea zones, friendly or empty, where `power`'s defending submarines may withdraw."""
    near = graph_of(ruleset.board).sea_nbrs.get(site.space, ())
    return tuple(sorted(z for z in near if open_zone(state, ruleset, site, power, z) is None))


def origins(site: BattleSite, units: Any) -> dict[str, int]:
    """Sea zone -> the attacking submarines that came from it."""
    out: dict[str, int] = {}
    for stack in site.attackers:
        origin = flags.value(stack, flags.FROM)
        if units[stack.unit].has("submerge") and origin:
            out[origin] = out.get(origin, 0) + stack.count
    return out


def battle_inputs(inputs: dict[str, Any], ruleset: Ruleset, state: GameState, site: BattleSite, **_: Any
                  ) -> dict[str, Any]:
    """A sea battle's withdrawal destinations: the defender's (`defender_retreat_to`); a side whose submarines
    have nowhere to go is offered no withdrawal."""
    if site.kind != "sea":
        return inputs
    power = deciding_power(state, ruleset, site, "defender")
    zones = defender_zones(state, ruleset, site, power)
    attacker_open = any(open_zone(state, ruleset, site, site.attacker, z) is None
                        for z in origins(site, ruleset.units) if z in site.retreat_to)
    rules = inputs["rules"]
    rules = replace(rules, defender_subs_may_submerge=rules.defender_subs_may_submerge and bool(zones),
                    attacker_subs_may_submerge=rules.attacker_subs_may_submerge and attacker_open)
    return {**inputs, "defender_retreat_to": zones, "rules": rules}


def retreat_routes(routes: Routes | None, ruleset: Ruleset, state: GameState, site: BattleSite, battle: Battle,
                   side: str, to: str | None, split: Mapping[str, Mapping[str, int]], withdrawing: bool = False,
                   earlier: Routes = (), **_: Any) -> Routes | None:
    """Check a withdrawal: attacking submarines go to a zone some of them came from, as many as came from it
    (counting those `earlier` withdrawals sent there); defending ones to one of the defender's zones; none into
    an embattled or enemy-held zone."""
    if not withdrawing or site.kind != "sea" or to is None:
        return routes
    count = sum(n for parts in split.values() for n in parts.values())
    if side == "attacker":
        came = origins(site, ruleset.units).get(to, 0) - sum(n for place, _, n in earlier if place == to)
        if count > came:
            raise IllegalAction(f"attacking submarines withdraw to the sea zone they came from: {max(0, came)} more "
                                f"came from {to}", WITHDRAW_RULE)
        power = site.attacker
    else:
        power = deciding_power(state, ruleset, site, "defender")
    why = open_zone(state, ruleset, site, power, to)
    if why is not None:
        raise IllegalAction(f"submarines cannot withdraw to {to}: {why}", WITHDRAW_RULE)
    return tuple((to, unit, n) for parts in split.values() for unit, n in sorted(parts.items()) if n)
