"""Battles on the board: an engine `Battle` built from a `BattleSite` of the game state, and the game events
its outcome produces (casualties, damage, retreats, submerged submarines, cargo that lands or stays aboard,
capture, bombing damage). The map does not change while a battle is fought; its outcome is written in one go.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from aare.board.notation import format_units
from aare.board.units import UnitCatalogue
from aare.combat.battle_state import Side, Stacks, UnitKey, make_stacks
from aare.combat.engine import start_battle
from aare.combat.rules import CombatRules
from aare.combat.sequences import Sequence, lhtr_sequence
from aare.combat.setup import Battle
from aare.economy.capture import capture_territory_events
from aare.economy.complex_damage import damage_rules
from aare.economy.damage import bombing_damage_events, damage_cap_remaining
from aare.errors import IllegalAction
from aare.events import Event, UnitsChanged, UnitsLoaded, UnitsRemoved, apply_events
from aare.identity_cache import ByIdentity
from aare.movement import flags
from aare.movement.battles import BattleSite
from aare.movement.landing import carrier_lost_spots
from aare.movement.situation import situation
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

BOMBARDED = "turn:bombarded"  # a ship that bombarded this turn (LHTR-BOMBARD-one-battle-per-ship)
SUBMERGED = "turn:submerged"
LOSS_RULE = {
    "land": "LHTR-COMBAT-land-sequence",
    "amphibious": "LHTR-COMBAT-land-sequence",
    "sea": "LHTR-COMBAT-naval-sequence",
    "bombing": "LHTR-AA-sbr-fire",
}


def combat_setup(ruleset: Ruleset, kind: str) -> tuple[CombatRules, Sequence]:
    """The ruleset's combat switches and its sequence for a battle of `kind` (the hooks read the ruleset and the
    kind alone: worked out once per ruleset and kind)."""
    known = _SETUPS.get(ruleset)
    if known is None:
        known = _SETUPS.put(ruleset, {})
    found = known.get(kind)
    if found is None:
        rules = ruleset.modify("combat_rules", CombatRules())
        found = known[kind] = (rules, ruleset.modify("combat_sequence", lhtr_sequence(kind), kind=kind))
    return found


_SETUPS: ByIdentity[dict[str, tuple[CombatRules, Sequence]]] = ByIdentity(1_000)


def _keys(stacks: Iterable[Stack]) -> Stacks:
    return make_stacks((UnitKey(s.unit, s.owner, s.damage), s.count) for s in stacks)


def bombarding(state: GameState, site: BattleSite, fought: Iterable[str]) -> tuple[tuple[str, Stack], ...]:
    """The ships that may bombard in `site`: none from a zone that had a sea battle this turn, and none that
    already bombarded (LHTR-BOMBARD-no-sea-battle, LHTR-BOMBARD-one-battle-per-ship)."""
    done = set(fought)
    return tuple((z, s) for z, s in site.bombard if z not in done and not flags.has(s, BOMBARDED))


def _strongest(
    ships: tuple[tuple[str, Stack], ...], units: UnitCatalogue, room: int
) -> tuple[tuple[str, Stack], ...]:
    """At most `room` of the bombarding ships, the strongest first (`CombatRules.bombard_per_landing_unit`)."""
    out = []
    for zone, ship in sorted(ships, key=lambda zs: -units[zs[1].unit].attack):
        take = min(ship.count, room)
        room -= take
        if take:
            out.append((zone, ship.with_count(take)))
    return tuple(out)


def build_battle(state: GameState, ruleset: Ruleset, site: BattleSite, fought: Iterable[str] = (),
                 frozen: Mapping[str, Any] | None = None) -> Battle:
    """The engine battle for `site` as the map stands; `frozen` (from `frozen_inputs`) fixes the inputs that were
    read from the map around it when the battle began."""
    inputs = battle_inputs(state, ruleset, site, fought)
    if frozen:
        inputs |= thaw_inputs(frozen)
    return start_battle(**inputs)


def battle_begins(state: GameState, ruleset: Ruleset, site: BattleSite, fought: Iterable[str] = ()) -> bool:
    """Whether the rules let the battle at `site` begin (`build_battle` refuses it with IllegalAction, e.g. aircraft
    left alone against submarines)."""
    return _kept_battle(state, ruleset, site, tuple(fought)) is not None


def begun_battle(state: GameState, ruleset: Ruleset, site: BattleSite, fought: Iterable[str] = ()) -> Battle:
    """`build_battle` of `site`, as the map stands (IllegalAction: the rules refuse it)."""
    fought = tuple(fought)
    found = _kept_battle(state, ruleset, site, fought)
    return build_battle(state, ruleset, site, fought) if found is None else found


def _kept_battle(state: GameState, ruleset: Ruleset, site: BattleSite, fought: tuple[str, ...]) -> Battle | None:
    """The battle `build_battle` begins at `site` (None: the rules refuse it). Where no rule module changes the
    inputs (the ``battle_inputs`` hook), they read of the state only the site, the ships that may bombard and the
    techs of the powers in the battle (and for a raid more: a raid's is built each time): it is kept per ruleset by
    those. With AARE_CHECK_BATTLE_MEMO=1 (the tests) a kept battle is built again and compared."""
    if site.kind == "bombing" or _inputs_hooked(ruleset):
        return _begin(state, ruleset, site, fought)
    techs = state.techs
    ships = bombarding(state, site, fought) if site.kind == "amphibious" else ()
    key = (site.kind, site.attacker, site.attackers, tuple(site.defenders.items()), ships, site.retreat_to,
           site.overland_from, frozenset(techs.get(site.attacker, ())),
           tuple(frozenset(techs.get(owner, ())) for owner in site.defenders))
    known = _BEGUN.get(ruleset)
    if known is None:
        known = _BEGUN.put(ruleset, {})
    found = known.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        if len(known) >= _BEGUN_KEPT:
            known.clear()
        found = known[key] = _begin(state, ruleset, site, fought)
    elif CHECK and found != _begin(state, ruleset, site, fought):
        raise AssertionError(f"the battle in {site.space} differs from the one kept")
    return found  # type: ignore[return-value]


def _begin(state: GameState, ruleset: Ruleset, site: BattleSite, fought: tuple[str, ...]) -> Battle | None:
    try:
        return build_battle(state, ruleset, site, fought)
    except IllegalAction:
        return None


def _inputs_hooked(ruleset: Ruleset) -> bool:
    known = _HOOKED.get(ruleset)
    if known is None:
        known = _HOOKED.put(ruleset, any("battle_inputs" in m.hooks for m in ruleset.modules))
    return known


CHECK = os.environ.get("AARE_CHECK_BATTLE_MEMO") == "1"
_UNKNOWN = object()
_BEGUN: ByIdentity[dict[tuple[Any, ...], Battle | None]] = ByIdentity(1_000)
_BEGUN_KEPT = 4_096
_HOOKED: ByIdentity[bool] = ByIdentity(1_000)


def battle_inputs(state: GameState, ruleset: Ruleset, site: BattleSite, fought: Iterable[str] = ()
                  ) -> dict[str, Any]:
    """The arguments of `start_battle` for `site` as the map stands (after the `battle_inputs` hook)."""
    units = ruleset.units
    rules, sequence = combat_setup(ruleset, site.kind)
    defenders = [s for stacks in site.defenders.values() for s in stacks]
    if site.kind == "bombing":
        defenders = [s for s in defenders if units[s.unit].has("not_casualty")]
    elif site.kind == "sea":
        defenders = [s for s in defenders if not flags.submerged(s)]
    overland = None
    if site.kind == "amphibious":
        dry = [s for s in site.attackers if units[s.unit].domain == "land" and not flags.value(s, flags.AMPHIBIOUS)]
        overland = {k: n for k, n in _keys(dry)}
    ships = bombarding(state, site, fought) if site.kind == "amphibious" else ()
    if ships and rules.bombard_per_landing_unit:
        ships = _strongest(ships, units, rules.bombard_per_landing_unit * sum(
            s.count for s in site.attackers if units[s.unit].domain == "land" and flags.value(s, flags.AMPHIBIOUS)))
    owner_techs = {owner: frozenset(state.techs.get(owner, ())) for owner in site.defenders}
    extra: dict[str, object] = {}
    if site.kind == "bombing":
        owner = state.owners.get(site.space)
        on_complex = damage_rules(ruleset, state).on_complex  # damage on the complex: the treasury is no cap
        extra = {
            "territory_value": damage_cap_remaining(state, ruleset, site.space),
            "treasury": None if on_complex else state.banks.get(owner, 0) if owner else 0,
        }
    inputs: dict[str, Any] = {
        "attacker": _keys(site.attackers),
        "defender": _keys(defenders),
        "kind": site.kind,
        "units": units,
        "rules": rules,
        "sequence": sequence,
        "attacker_techs": frozenset(state.techs.get(site.attacker, ())),
        "owner_techs": owner_techs,
        "bombard": _keys(s for _, s in ships) or None,
        "retreat_to": site.overland_from if rules.partial_amphibious_retreat and overland else site.retreat_to,
        "overland": overland,
        **extra,
    }
    found: dict[str, Any] = ruleset.modify("battle_inputs", inputs, state=state, site=site)
    return found


def with_tag(inputs: Mapping[str, Any], attacker: str, power: str, tag: str, side: str = "") -> dict[str, Any]:
    """The battle inputs with `tag` among `power`'s techs: those of the attacking side when `power` is the
    `attacker`, and `power`'s own entry of `owner_techs` when it has one (a defender, or a power attacking
    jointly). `side` ("attacker"/"defender") limits it to `power` in that role."""
    attacking = power == attacker or any(k.owner == power for k, _ in inputs.get("attacker") or ())
    if side and (side == "attacker") != attacking:
        return dict(inputs)
    out = dict(inputs)
    if power == attacker:
        out["attacker_techs"] = frozenset(out.get("attacker_techs") or ()) | {tag}
    owners = dict(out.get("owner_techs") or {})
    if power in owners:
        owners[power] = frozenset(owners[power]) | {tag}
        out["owner_techs"] = owners
    return out


def _plain(value: Any) -> bool:
    if value is None or isinstance(value, bool | int | str):
        return True
    return isinstance(value, tuple | frozenset) and all(isinstance(v, str | int) for v in value)


def frozen_inputs(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The plain inputs of a battle (where each side may retreat, which types must stay, the caps ...) as JSON,
    so that a battle rebuilt later reads them as they were when it began, not from a map teammates have changed
    since (a team turn: docs/rulings.md, "A battle's surroundings are fixed when it begins")."""
    out: dict[str, Any] = {}
    for key, value in sorted(inputs.items()):
        if key == "kind" or not _plain(value):
            continue
        if isinstance(value, frozenset):
            out[key] = {"set": sorted(value, key=str)}
        elif isinstance(value, tuple):
            out[key] = {"tuple": list(value)}
        else:
            out[key] = value
    return out


def thaw_inputs(frozen: Mapping[str, Any]) -> dict[str, Any]:
    """The inputs `frozen_inputs` wrote, as `start_battle` takes them."""
    out: dict[str, Any] = {}
    for key, value in frozen.items():
        if isinstance(value, Mapping) and "set" in value:
            out[key] = frozenset(value["set"])
        elif isinstance(value, Mapping) and "tuple" in value:
            out[key] = tuple(value["tuple"])
        else:
            out[key] = value
    return out


def deciding_power(state: GameState, ruleset: Ruleset, site: BattleSite, side: Side) -> str:
    """Who answers a decision of `side`: the attacker, or for the defenders the power that holds the territory,
    else the one with the most units there (LHTR-COMBAT-owner-chooses-casualties, see docs/rulings.md); a rule
    module may name someone else (the `battle_decider` hook)."""
    found = _default_decider(state, ruleset, site, side)
    decider: str = ruleset.modify("battle_decider", found, state=state, site=site, side=side)
    return decider


def _default_decider(state: GameState, ruleset: Ruleset, site: BattleSite, side: Side) -> str:
    if side == "attacker":
        return site.attacker
    owners = [o for o, stacks in site.defenders.items() if any(not ruleset.units[s.unit].has("not_casualty")
                                                              for s in stacks)]
    if not owners:
        owners = list(site.defenders)
    holder = state.owners.get(site.space)
    if holder in owners or not owners:
        return holder or "defender"
    powers = [p.name for p in ruleset.board.powers]
    return max(owners, key=lambda o: (sum(s.count for s in site.defenders[o]), -powers.index(o)))


# ---------------------------------------------------------------- the outcome on the map


@dataclass(frozen=True)
class Fate:
    """What became of one unit of the map: `status` is lost, stays, retreated or submerged."""

    status: str
    damage: int = 0


def _fates(ruleset: Ruleset, stacks: Iterable[Stack], final: Stacks, side_units: set[str]) -> list[tuple[Stack, Fate]]:
    """Match the battle's final units to the map's units of one side, unit by unit: a unit landed from the sea
    takes the fate of a battle unit that landed (in a partial amphibious retreat they stay while the overland
    units retreat). Among identical units the most valuable (a transport with the most cargo) is kept first;
    the rest are lost."""
    units = ruleset.units
    survivors: dict[tuple[str, str], list[tuple[int, str, bool]]] = {}
    for key, n in final:
        if key.marked or key.type not in side_units:
            continue
        status = "retreated" if key.has("retreated") else "submerged" if key.has("submerged") else "stays"
        survivors.setdefault((key.owner, key.type), []).extend([(key.damage, status, key.has("amphibious"))] * n)

    def value(stack: Stack) -> tuple[bool, int, int]:
        load = sum(units[u].cost for _, u in flags.cargo(stack))
        return (not flags.has(stack, flags.SUICIDE), -stack.damage, load)  # one-way units are lost first

    out: list[tuple[Stack, Fate]] = []
    pool: dict[tuple[str, str], list[Stack]] = {}
    for stack in stacks:
        pool.setdefault((stack.owner, stack.unit), []).append(stack)
    for group, heaps in pool.items():
        if len(heaps) > 1:  # (a stable sort: the units of a stack stay together, in the order of the stacks)
            heaps.sort(key=value, reverse=True)
        members: list[tuple[Stack, bool]] = []
        for stack in heaps:
            members += [(stack.with_count(1), flags.value(stack, flags.AMPHIBIOUS) is not None)] * stack.count
        alive = sorted(survivors.get(group, []), reverse=True)
        fates: list[Fate | None] = [None] * len(members)
        landed = members[0][1] if members else False
        if all(unit.damage <= 0 and on == landed for unit, on in members) and all(a == landed for _, _, a in alive):
            # every survivor suits every unit: they go in order (what the matching below gives)
            n = min(len(alive), len(members))
            fates[:n] = [Fate(status, damage) for damage, status, _ in alive[:n]]
            out += [(unit, fate or Fate("lost")) for (unit, _), fate in zip(members, fates, strict=True)]
            continue
        for same in (True, False):  # units landed from the sea match battle units that landed, first
            for i, (unit, landed) in enumerate(members):
                if fates[i] is not None:
                    continue
                pick = next((j for j, (d, _, a) in enumerate(alive)
                             if d >= unit.damage and (a == landed or not same)), None)
                if pick is not None:
                    damage, status, _ = alive.pop(pick)
                    fates[i] = Fate(status, damage)
        out += [(unit, fate or Fate("lost")) for (unit, _), fate in zip(members, fates, strict=True)]
    return out


def _grouped(fates: list[tuple[Stack, Fate]]) -> list[tuple[Stack, Fate]]:
    counts: Counter[tuple[Stack, Fate]] = Counter((s, f) for s, f in fates)
    if len(counts) < 2:
        return [(stack.with_count(n), fate) for (stack, fate), n in counts.items()]
    texts: dict[int, str] = {}  # the units of one map stack are the same object: its text is made once

    def text(item: tuple[tuple[Stack, Fate], int]) -> str:  # the text of the pair (stack, fate)
        stack, fate = item[0]
        found = texts.get(id(stack))
        if found is None:
            found = texts[id(stack)] = repr(stack)
        return f"({found}, {fate!r})"

    return [(stack.with_count(n), fate) for (stack, fate), n in sorted(counts.items(), key=text)]


# Where a retreating side's units go, unit by unit: (space, unit type, count); the battle's own space for units
# that stay in it (ships breaking off contact). Units of the side left out of its routes keep the default.
Routes = tuple[tuple[str, str, int], ...]


def withdraw_key(side: str) -> str:
    """The key of `side`'s withdrawn submarines' routes (those that submerged into another sea zone)."""
    return f"{side} withdrawn"


class Outcome:
    """Builds the events of a finished battle against a working state."""

    def __init__(self, state: GameState, ruleset: Ruleset, site: BattleSite, battle: Battle, to: str | None,
                 routes: Mapping[str, Routes] | None = None) -> None:
        self.state, self.ruleset, self.site, self.battle, self.to = state, ruleset, site, battle, to
        self.routes = {side: list(r) for side, r in (routes or {}).items()}
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        self.events.extend(events)
        self.state = apply_events(self.state, events)

    def run(self, fought: Iterable[str]) -> list[Event]:
        site = self.site
        fought = tuple(fought)
        if site.kind == "bombing":
            self._bombing()
            return self.events
        self._side("defender", [s for stacks in site.defenders.values() for s in stacks])
        self._side("attacker", site.attackers)
        if site.kind == "amphibious":
            # the ships the battle let bombard (a rule module may have left some out, `battle_inputs`)
            left = Counter({(k.owner, k.type): n for k, n in self.battle.setup.bombard})
            for zone, ship in bombarding(self.state, site, fought):
                take = min(ship.count, left[ship.owner, ship.unit])
                left[ship.owner, ship.unit] -= take
                if take:
                    self._mark_bombarded(zone, ship.with_count(take))
        if site.kind == "sea":
            self._defending_planes()
            self._allied_planes()
        elif self.battle.state.result == "attacker" and (capturer := self._capturer()) is not None:
            self.emit(*capture_territory_events(self.state, self.ruleset, site.space, capturer))
        self.emit(*self.ruleset.modify("battle_outcome", [], state=self.state, site=site, battle=self.battle,
                                       fought=fought))
        return self.events

    def _capturer(self) -> str | None:
        """Who takes the territory: the attacker when one of its land units that fought stands there, else a
        power attacking with it (a joint attack) that has one."""
        units = self.ruleset.units
        owners = [self.site.attacker, *sorted({s.owner for s in self.site.attackers} - {self.site.attacker})]
        for owner in owners:
            if any(s.owner == owner and units[s.unit].domain == "land" and not units[s.unit].has("not_casualty")
                   and flags.has(s, flags.COMBAT) for s in self.state.stacks(self.site.space)):
                return owner
        return None

    def _side(self, side: Side, stacks: Iterable[Stack]) -> None:
        space, units = self.site.space, self.ruleset.units
        kinds = {s.unit for s in stacks if not units[s.unit].has("not_casualty")}
        fates = _grouped(_fates(self.ruleset, [s for s in stacks if s.unit in kinds],
                                self.battle.state.units(side), kinds))
        cleared = self.battle.state.result == "attacker" or not any(
            k.present and not units[k.type].has("not_casualty") for k, _ in self.battle.state.defender)
        for stack, fate in fates:
            if side == "attacker" and flags.cargo_list(stack, flags.DROPPED):  # a transport (or a carrying ship)
                stack = self._landing(stack, fate, cleared)
            if fate.status == "lost":
                self.emit(UnitsRemoved(space, stack, LOSS_RULE[self.site.kind]))
                continue
            after = stack if stack.damage == fate.damage else replace(stack, damage=fate.damage)
            if side == "attacker" and not flags.has(after, flags.COMBAT):
                after = flags.with_flags(after, [flags.COMBAT])  # LHTR-COMBAT-one-battle-per-unit
            if fate.status == "submerged":
                after = flags.with_flags(after, [SUBMERGED])
            if fate.status == "retreated" and side in self.routes:
                stack, after = self._route(side, stack, after)
                if not stack.count:
                    continue
            if fate.status == "submerged" and withdraw_key(side) in self.routes:
                stack, after = self._route(withdraw_key(side), stack, after)
                if not stack.count:
                    continue
            move_air = units[stack.unit].domain != "air"
            to = self.to if fate.status == "retreated" and move_air and self.to else ""
            if to and self.battle.setup.rules.mark_land_retreats:
                after = flags.with_flags(after, [flags.RETREATED])
            if after != stack or to:
                self.emit(UnitsChanged(space, stack, after, to_space=to))

    def _route(self, side: str, stack: Stack, after: Stack) -> tuple[Stack, Stack]:
        """Send the retreating `stack` along the routes under `side` (a side, or its `withdraw_key`); what is
        left of it (no route: count 0 if none).
        Units that retreat into another sea zone are marked `flags.RETREATED`: they take no part in a battle
        there."""
        space = self.site.space
        left = stack.count
        routes = self.routes[side]
        for i, (dest, unit, n) in enumerate(routes):
            if unit != stack.unit or not n or not left:
                continue
            take = min(n, left)
            routes[i] = (dest, unit, n - take)
            left -= take
            moved = after.with_count(take)
            sea = dest in self.ruleset.board.spaces and self.ruleset.board.spaces[dest].is_sea
            if dest != space and (sea or self.battle.setup.rules.mark_land_retreats):
                moved = flags.with_flags(moved, [flags.RETREATED])
            if moved != stack.with_count(take) or dest != space:
                self.emit(UnitsChanged(space, stack.with_count(take), moved,
                                       to_space=dest if dest != space else ""))
        return stack.with_count(left), after.with_count(left)

    def _landing(self, transport: Stack, fate: Fate, cleared: bool) -> Stack:
        """The units a transport put ashore from this zone: lost with it if it sinks, back aboard if the zone is
        not cleared (LHTR-TRANSPORT-sea-battle-lost, LHTR-TRANSPORT-amphibious-assault)."""
        territory = flags.value(transport, flags.UNLOADED)
        dropped = flags.cargo_list(transport, flags.DROPPED)
        if territory is None or (fate.status != "lost" and cleared):
            return transport
        ashore = []
        for owner, unit in dropped:
            stack = next((s for s in self.state.stacks(territory) if s.owner == owner and s.unit == unit
                          and flags.value(s, flags.AMPHIBIOUS) == self.site.space), None)
            if stack is not None:
                ashore.append(stack.with_count(transport.count))
        if fate.status == "lost":
            self.emit(*(UnitsRemoved(territory, s, "LHTR-TRANSPORT-sea-battle-lost") for s in ashore))
            return transport
        after = flags.with_cargo(transport, (*flags.cargo(transport), *dropped))
        after = flags.with_flags(after, drop=[flags.DROPPED, flags.UNLOADED])
        before = transport
        for i, stack in enumerate(ashore):
            step = after if i == len(ashore) - 1 else flags.with_cargo(
                before, (*flags.cargo(before), (stack.owner, stack.unit)))
            self.emit(UnitsLoaded(territory, stack, self.site.space, before, step))
            before = step
        return before

    def _mark_bombarded(self, zone: str, ship: Stack) -> None:
        self.emit(UnitsChanged(zone, ship, flags.with_flags(ship, [BOMBARDED])))

    def _bombing(self) -> None:
        space = self.site.space
        fates = _grouped(_fates(self.ruleset, self.site.attackers, self.battle.state.attacker,
                                {s.unit for s in self.site.attackers}))
        for stack, fate in fates:
            if fate.status == "lost":
                self.emit(UnitsRemoved(space, stack, "LHTR-AA-sbr-fire"))
        if self.battle.state.damage:
            self.emit(*bombing_damage_events(self.state, self.ruleset, space, self.battle.state.damage, "raid"))

    def _carrier_room(self, owners: Iterable[str]) -> int:
        units, mine = self.ruleset.units, set(owners)
        return sum(units[s.unit].carrier_capacity * s.count for s in self.state.stacks(self.site.space)
                   if s.owner in mine)

    def _defending_planes(self) -> None:
        """LHTR-AIRMOVE-defending-carrier-lost: defending fighters left without a carrier move one space to a
        friendly territory or carrier with room, or are lost."""
        units = self.ruleset.units
        board = self.ruleset.board
        for owner in self.site.defenders:
            side = side_powers(board, owner)
            here = self.state.stacks(self.site.space)
            planes = [s for s in here if s.owner == owner and units[s.unit].domain == "air"]
            if not planes:
                continue
            room = self._carrier_room(side) - sum(
                units[s.unit].carrier_size * s.count for s in self.state.stacks(self.site.space)
                if s.owner in side and units[s.unit].domain == "air" and s.owner != owner)
            for stack in planes:
                size = units[stack.unit].carrier_size or 1
                stay = min(stack.count, max(0, room) // size)
                room -= stay * size
                extra = stack.count - stay
                if not extra:
                    continue
                view = situation(self.state, self.ruleset, owner)
                spots = carrier_lost_spots(view, self.site.space)
                land = [t for t in spots if view.is_land(t)]
                if self.battle.setup.rules.defending_fighters_islands_only:
                    land = [t for t in land if not view.graph.land_nbrs[t]]
                if land:
                    self.emit(UnitsChanged(self.site.space, stack.with_count(extra), stack.with_count(extra),
                                           to_space=land[0]))
                    continue
                if self.battle.setup.rules.defending_fighters_to_adjacent_carriers:
                    extra = self._to_carriers(stack, extra, side, [t for t in spots if view.is_sea(t)])
                if extra:
                    self.emit(UnitsRemoved(self.site.space, stack.with_count(extra),
                                           "LHTR-AIRMOVE-defending-carrier-lost"))

    def _to_carriers(self, stack: Stack, count: int, side: frozenset[str], zones: list[str]) -> int:
        """Fly up to `count` of `stack` onto the `side`'s carriers with room in `zones`; how many are left."""
        units = self.ruleset.units
        size = units[stack.unit].carrier_size
        for zone in zones:
            if not count or not size:
                break
            friends = [s for s in self.state.stacks(zone) if s.owner in side]
            free = sum((units[s.unit].carrier_capacity - units[s.unit].carrier_size) * s.count for s in friends)
            take = min(count, max(0, free) // size)
            if take:
                self.emit(UnitsChanged(self.site.space, stack.with_count(take), stack.with_count(take),
                                       to_space=zone))
                count -= take
        return count

    def _allied_planes(self) -> None:
        """The attacker's allies' fighters riding on its carriers share their fate: those left without room are
        lost with the carriers."""
        units = self.ruleset.units
        board = self.ruleset.board
        side = side_powers(board, self.site.attacker)
        room = self._carrier_room(side)
        for stack in self.state.stacks(self.site.space):
            if stack.owner in side and stack.owner != self.site.attacker and units[stack.unit].domain == "air":
                size = units[stack.unit].carrier_size or 1
                stay = min(stack.count, max(0, room) // size)
                room -= stay * size
                if stack.count - stay:
                    self.emit(UnitsRemoved(self.site.space, stack.with_count(stack.count - stay),
                                           "LHTR-NAVALCOMBAT-carrier-fighters-defend"))


def side_powers(board: Any, power: str) -> frozenset[str]:
    """The powers on `power`'s side, itself included (worked out once per board)."""
    known = _SIDE_POWERS.get(board)
    if known is None:
        known = _SIDE_POWERS.put(board, {})
    found = known.get(power)
    if found is None:
        found = known[power] = frozenset(p.name for p in board.powers if board.side_of(p.name) == board.side_of(power))
    return found


_SIDE_POWERS: ByIdentity[dict[str, frozenset[str]]] = ByIdentity(64)


def outcome_events(
    state: GameState, ruleset: Ruleset, site: BattleSite, battle: Battle, retreat_to: str | None,
    fought: Iterable[str] = (), routes: Mapping[str, Routes] | None = None,
) -> list[Event]:
    """The game events of `battle`, fought at `site`, once it has ended; `routes` per side where its retreating
    units go (`retreat_routes` hook), else every retreating land or sea unit goes to `retreat_to`."""
    return outcome(state, ruleset, site, battle, retreat_to, fought, routes)[0]


def outcome(
    state: GameState, ruleset: Ruleset, site: BattleSite, battle: Battle, retreat_to: str | None,
    fought: Iterable[str] = (), routes: Mapping[str, Routes] | None = None,
) -> tuple[list[Event], GameState]:
    """`outcome_events`, and the state they lead to from `state` (they are applied one by one as they are made)."""
    found = Outcome(state, ruleset, site, battle, retreat_to, routes)
    events = found.run(fought)
    return events, found.state


def units_text(stacks: Stacks, catalogue: UnitCatalogue) -> dict[str, str]:
    """Present units of a battle side as unit text per owner (kept per stacks: a side's units often stand unchanged
    from one decision to the next)."""
    known = _TEXTS.get(stacks)
    if known is None or known[0] is not catalogue:
        known = _TEXTS.put(stacks, (catalogue, _units_text(stacks, catalogue)))
    return dict(known[1])


_TEXTS: ByIdentity[tuple[UnitCatalogue, dict[str, str]]] = ByIdentity(1_024)


def _units_text(stacks: Stacks, catalogue: UnitCatalogue) -> dict[str, str]:
    per: dict[str, dict[str, int]] = {}
    for key, n in stacks:
        if key.present and not key.marked:
            per.setdefault(key.owner, {})
            per[key.owner][key.type] = per[key.owner].get(key.type, 0) + n
    return {owner: format_units(counts, catalogue) for owner, counts in sorted(per.items())}
