"""Enhanced Realism '98 retreats (module `realism_retreat`): after any round the attacker may retreat, else the
defender may; retreating units may split between several destinations; a retreating side takes all its units
(submarines too; aircraft of an amphibious assault excepted); defending aircraft fly to an adjacent friendly
territory, else to the closest friendly one in range; ships may retreat into any adjacent sea zone, taking no
part in a battle there, or break off contact and stay in the zone.

Destinations are computed when a battle is built (`battle_inputs`) and each retreating unit is routed when the
retreat is answered (`retreat_routes`); see docs/rulings.md, "Realism '98 (retreats)".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from aare.actions import Retreat
from aare.board.notation import format_units
from aare.combat import steps as s
from aare.combat.battle_state import Side
from aare.combat.rules import CombatRules
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.errors import IllegalAction
from aare.movement.battles import BattleSite
from aare.movement.graph import graph_of
from aare.movement.rules import MovementRules
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.ruleset import Ruleset
from aare.rulesets.classic.sea_passage import closed_passage
from aare.state.game_state import GameState

ANY_ROUND = "REAL98-RETREAT-attacker-any-round"
DEFENDER = "REAL98-RETREAT-defender"
SPLIT = "REAL98-RETREAT-split-destinations"
ALL_UNITS = "REAL98-RETREAT-all-units"
INTO_BATTLE = "REAL98-RETREAT-into-battle"
AIRCRAFT = "REAL98-RETREAT-defending-aircraft"
SHIPS = "REAL98-RETREAT-ships-any-adjacent"
BREAK_OFF = "REAL98-RETREAT-break-off-contact"
NEXT_PLAYER = "REAL98-RETREAT-shared-zone-next-player"
NEW_SHIPS = "REAL98-RETREAT-new-ships-in-enemy-zone"
DEFENDER_RETREAT = s.Step("defender retreat", s.defender_retreat_step(DEFENDER), rule=DEFENDER,
                          declined_by_calculator="the defender never retreats")

Routes = tuple[tuple[str, str, int], ...]


# ---------------------------------------------------------------- combat switches and sequence


def _combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    """No partial retreat, not even for submarines: they leave a battle only with the rest of their side; the
    usual exception stands: the aircraft of an amphibious assault may retreat alone (REAL98-RETREAT-all-units)."""
    return replace(rules, attacker_subs_may_submerge=False, defender_subs_may_submerge=False,
                   amphibious_air_retreat=True)


def _combat_sequence(seq: Sequence, kind: str, **_: Any) -> Sequence:
    """After the attacker's press-or-retreat the defender may retreat (REAL98-RETREAT-defender)."""
    if kind not in ("land", "amphibious", "sea"):
        return seq
    if "press or retreat" in seq.names:
        return seq.insert_after("press or retreat", DEFENDER_RETREAT)
    return Sequence(seq.kind, (*seq.steps, DEFENDER_RETREAT))


# ---------------------------------------------------------------- destinations


def _friends(ruleset: Ruleset, power: str) -> set[str]:
    board = ruleset.board
    return {p.name for p in board.powers if board.side_of(p.name) == board.side_of(power)}


def _embattled(state: GameState, ruleset: Ruleset, site: BattleSite) -> set[str]:
    """Territories with a land battle still to be fought this turn (the battle at `site` aside)."""
    from aare.phases.conduct_combat import open_battles

    return {b.space for b in open_battles(state, ruleset) if b.kind in ("land", "amphibious") and b.space != site.space}


def land_destinations(state: GameState, ruleset: Ruleset, site: BattleSite, power: str, defending: bool
                      ) -> tuple[str, ...]:
    """Friendly territories next to the battle where `power`'s land units may retreat: those with no battle to
    come, else (a defender with no other choice) those where one is still to be fought
    (REAL98-RETREAT-split-destinations, REAL98-RETREAT-into-battle)."""
    graph = graph_of(ruleset.board)
    friends = _friends(ruleset, power)
    near = [t for t in graph.land_nbrs.get(site.space, ()) if state.owners.get(t) in friends]
    fighting = _embattled(state, ruleset, site)
    calm = tuple(sorted(t for t in near if t not in fighting))
    if calm or not defending:
        return calm
    return tuple(sorted(near))


def air_destinations(state: GameState, ruleset: Ruleset, site: BattleSite, power: str, unit: str
                     ) -> tuple[str, ...]:
    """Where a defending aircraft of `power` may retreat from a land battle: an adjacent friendly territory
    with no battle to come, else the closest such territory within its normal range (fighter 4, bomber 6),
    else nowhere (REAL98-RETREAT-defending-aircraft)."""
    graph = graph_of(ruleset.board)
    friends = _friends(ruleset, power)
    fighting = _embattled(state, ruleset, site) | {site.space}
    reach = graph.ball(site.space, ruleset.units[unit].move)
    found = {t: d for t, d in reach.items() if t in graph.land and t not in fighting
             and state.owners.get(t) in friends}
    if not found:
        return ()
    closest = min(found.values())
    return tuple(sorted(t for t, d in found.items() if d == closest))


def sea_destinations(state: GameState, ruleset: Ruleset, site: BattleSite, power: str) -> tuple[str, ...]:
    """Every adjacent sea zone, enemy-occupied or embattled alike, and the zone itself (breaking off contact)
    (REAL98-RETREAT-ships-any-adjacent, REAL98-RETREAT-break-off-contact); not through a canal closed to
    `power`'s side (a zone its ships could not enter by movement)."""
    graph = graph_of(ruleset.board)
    near = [z for z in graph.sea_nbrs.get(site.space, ())
            if closed_passage(state, ruleset, power, site.space, z) is None]
    return tuple(sorted({site.space, *near}))


def _defender(state: GameState, ruleset: Ruleset, site: BattleSite) -> str:
    from aare.combat.board_battle import deciding_power

    return deciding_power(state, ruleset, site, "defender")


def _defending(ruleset: Ruleset, site: BattleSite) -> Counter[str]:
    units = ruleset.units
    return Counter({u: n for u, n in _count(s for stacks in site.defenders.values() for s in stacks).items()
                    if not units[u].has("not_casualty")})


def _count(stacks: Iterable[Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    for stack in stacks:
        out[stack.unit] += stack.count
    return out


def _battle_inputs(inputs: dict[str, Any], ruleset: Ruleset, state: GameState, site: BattleSite, **_: Any
                   ) -> dict[str, Any]:
    """Each side's retreat destinations, and the defending aircraft that cannot retreat."""
    if site.kind == "sea":
        return {**inputs, "retreat_to": sea_destinations(state, ruleset, site, site.attacker),
                "defender_retreat_to": sea_destinations(state, ruleset, site, _defender(state, ruleset, site))}
    if site.kind not in ("land", "amphibious"):
        return inputs
    out = dict(inputs)
    if site.kind == "land":
        out["retreat_to"] = land_destinations(state, ruleset, site, site.attacker, False)
    power = _defender(state, ruleset, site)
    units = ruleset.units
    defending = _defending(ruleset, site)
    ground = [u for u in defending if units[u].domain != "air"]
    land = land_destinations(state, ruleset, site, power, True) if ground else ()
    air = {u: air_destinations(state, ruleset, site, power, u) for u in defending if units[u].domain == "air"}
    if ground and not land:
        return {**out, "defender_retreat_to": ()}  # the ground units cannot go: no retreat (no partial retreat)
    places = set(land) | {t for found in air.values() for t in found}
    out["defender_retreat_to"] = tuple(sorted(places))
    out["defender_stays"] = frozenset(u for u, found in air.items() if not found)
    return out


# ---------------------------------------------------------------- routes


def _retreating(battle: Battle, side: Side) -> Counter[str]:
    """The units of `side` that go when it retreats."""
    setup = battle.setup
    out: Counter[str] = Counter()
    for key, n in battle.state.units(side):
        unit = setup.unit(key)
        if not key.present or key.marked or unit.has("not_casualty"):
            continue
        if side == "defender" and key.type in setup.defender_stays:
            continue
        if side == "attacker" and (unit.domain == "air" or key.has("amphibious")):
            continue  # attacking aircraft stay over the battle and land in non-combat move
        out[key.type] += n
    return out


def _retreat_routes(routes: Routes | None, ruleset: Ruleset, state: GameState, site: BattleSite, battle: Battle,
                    side: Side, to: str | None, split: Mapping[str, Mapping[str, int]], withdrawing: bool = False,
                    **_: Any) -> Routes | None:
    """Route every retreating unit: the player's `split` (which must send all of them), else everything to `to`
    (aircraft of a land battle's defender to a place they may reach when `to` is not one). Submarines never
    withdraw alone here (`withdrawing`: nothing to do)."""
    if site.kind not in ("land", "amphibious", "sea") or withdrawing:
        return routes
    going = _retreating(battle, side)
    units = ruleset.units
    wanted: dict[str, Counter[str]] = {place: Counter(dict(parts)) for place, parts in split.items()}
    if not wanted:
        if to is None:
            return routes
        wanted = {to: Counter(going)}
        air_free = True
    else:
        air_free = False
        named = sum(wanted.values(), Counter())
        if named != going:
            raise IllegalAction(f"every unit retreats: {_text(going)} must go, the split names {_text(named)}",
                                ALL_UNITS)
    out: list[tuple[str, str, int]] = []
    power = site.attacker if side == "attacker" else _defender(state, ruleset, site)
    land_ok = (land_destinations(state, ruleset, site, power, side == "defender") if site.kind != "sea"
               else sea_destinations(state, ruleset, site, power))
    for place, parts in sorted(wanted.items()):
        for unit, n in sorted(parts.items()):
            if not n:
                continue
            allowed = land_ok
            if site.kind != "sea" and units[unit].domain == "air":
                allowed = air_destinations(state, ruleset, site, power, unit)
                if place not in allowed and air_free and allowed and place in land_ok:  # aircraft fly on
                    out.append((allowed[0], unit, n))
                    continue
            closed = closed_passage(state, ruleset, power, site.space, place) if site.kind == "sea" else None
            if closed is not None:
                raise IllegalAction(f"{units[unit].display_plural} cannot retreat to {place}: {closed[0]}", closed[1])
            if place not in allowed:
                rule = AIRCRAFT if units[unit].domain == "air" else INTO_BATTLE if place in _embattled(
                    state, ruleset, site) else SPLIT
                raise IllegalAction(f"{units[unit].display_plural} cannot retreat to {place} (they may go to "
                                    f"{', '.join(allowed) or 'nowhere'})", rule)
            out.append((place, unit, n))
    if site.kind == "sea":
        _check_carriers(ruleset, out)
    return tuple(out)


def _check_carriers(ruleset: Ruleset, routes: list[tuple[str, str, int]]) -> None:
    """Aircraft retreating at sea need room on the carriers retreating to the same place."""
    units = ruleset.units
    for place in {p for p, _, _ in routes}:
        room = sum(units[u].carrier_capacity * n for p, u, n in routes if p == place)
        need = sum(units[u].carrier_size * n for p, u, n in routes if p == place and units[u].domain == "air")
        if need > room:
            raise IllegalAction(f"the aircraft retreating to {place} need room on carriers retreating with them",
                                SPLIT)


def _text(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {u}" for u, n in sorted(counts.items()) if n) or "nothing"


# ---------------------------------------------------------------- split retreats offered to players and bots


class SplitRetreats(PhaseExtension):
    """Conduct combat: besides a retreat to each destination, a few split retreats (REAL98-RETREAT-split-
    destinations): for each pair of the first three destinations, every unit type halved between them, and the
    first unit type to one, the rest to the other. Defending aircraft of a land battle go where they may. The
    phase's own answer checks each (those the rules refuse are not offered)."""

    name = "realism-split-retreats"

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        pending = ctx.state.pending
        if not pending or pending.get("kind") != "press_or_retreat" or len(pending.get("destinations", ())) < 2:
            return []
        from aare.phases.conduct_combat import battle_in_progress

        found = battle_in_progress(ctx)
        if found is None:
            return []
        site, battle = found
        side: Side = "defender" if pending.get("side") == "defender" else "attacker"
        going = _retreating(battle, side)
        units = ctx.ruleset.units
        power = site.attacker if side == "attacker" else _defender(ctx.state, ctx.ruleset, site)
        fixed: dict[str, Counter[str]] = {}
        if site.kind != "sea":  # aircraft fly where they may, not split
            for unit in [u for u in going if units[u].domain == "air"]:
                allowed = air_destinations(ctx.state, ctx.ruleset, site, power, unit)
                if allowed:
                    fixed.setdefault(allowed[0], Counter())[unit] += going.pop(unit)
        if sum(going.values()) < 2:
            return []
        places = list(pending["destinations"])[:3]
        out: list[Retreat] = []
        for i, a in enumerate(places):
            for b in places[i + 1:]:
                halves = ({u: n // 2 for u, n in going.items()}, {u: n - n // 2 for u, n in going.items()})
                first = sorted(going)[0]
                by_type = ({first: going[first]}, {u: n for u, n in going.items() if u != first})
                for to_a, to_b in (halves, by_type):
                    split = _merge(fixed, {a: Counter(to_a), b: Counter(to_b)})
                    if len(split) > 1:
                        out.append(Retreat(split={p: format_units(dict(c), units) for p, c in split.items()}))
        return list(dict.fromkeys(out))


def _merge(*parts: Mapping[str, Counter[str]]) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for part in parts:
        for place, counts in part.items():
            out.setdefault(place, Counter()).update(+counts)
    return {p: c for p, c in out.items() if +c}


SPLIT_RETREATS = SplitRetreats()


def _phase_actions(found: list[PhaseExtension], phase: str, **_: Any) -> list[PhaseExtension]:
    """The split retreats, in every combat phase (conduct combat and the armour's second combat)."""
    return [*found, SPLIT_RETREATS] if phase in ("conduct-combat", "armour-combat") else found


def _movement_rules(rules: MovementRules, **_: Any) -> MovementRules:
    """Opposing fleets may share a sea zone: the power to move attacks them, leaves the zone or stays there
    without a battle (breaking off contact) as it chooses (REAL98-RETREAT-shared-zone-next-player)."""
    return replace(rules, shared_zones_optional=True)


def _rule_ids(ids: dict[str, str], **_: Any) -> dict[str, str]:
    """A refused retreat or destination names the Realism rule."""
    return {**ids, "LHTR-COMBAT-attacker-retreat": ANY_ROUND, "LHTR-COMBAT-retreat-destination": SPLIT}


# The 2nd-edition optional rule, required here (REAL98-RETREAT-new-ships-in-enemy-zone): the Classic option,
# declared again with the one value allowed.
NEW_SHIPS_OPTION = OptionSpec(
    "naval_placement_in_enemy_zones", bool, True,
    "new ships may be placed in a sea zone holding enemy ships (required in Realism '98)", NEW_SHIPS,
    choices=(True,),
)
# Classic options whose rules the Realism retreats replace: no submarine withdraws alone, and the aircraft of an
# amphibious assault may always retreat alone.
REPLACED_OPTIONS = ("attacking_subs_withdraw", "defending_subs_withdraw", "amphibious_air_retreat")


MODULE = register_module(RuleModule(
    id="realism_retreat",
    title="Enhanced Realism '98 retreats",
    rule_ids=(ANY_ROUND, DEFENDER, SPLIT, ALL_UNITS, INTO_BATTLE, AIRCRAFT, SHIPS, BREAK_OFF, NEXT_PLAYER,
              NEW_SHIPS),
    hooks={"combat_rules": _combat_rules, "combat_sequence": _combat_sequence, "battle_inputs": _battle_inputs,
           "retreat_routes": _retreat_routes, "movement_rules": _movement_rules, "rule_ids": _rule_ids,
           "phase_actions": _phase_actions},
    options=(NEW_SHIPS_OPTION,),
    replaces_options=REPLACED_OPTIONS,
))
