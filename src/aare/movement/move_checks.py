"""Move checks: small functions that look at one `Leg` (a stack asked to move along a path) and return a
`Violation` naming the rule it breaks, or None. `LEG_CHECKS` is the default list; rule modules change it
through the ``move_checks`` hook."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass

from aare.board.units import UnitType
from aare.errors import IllegalAction
from aare.movement import flags
from aare.movement.landing import can_land
from aare.movement.pathing import allowance, blitzed, remaining, sea_reach
from aare.movement.situation import Situation
from aare.state.unit_stacks import Stack

RANGE_RULE = {"land": "LHTR-LANDMOVE-movement-allowance", "sea": "LHTR-SEAMOVE-allowance", "air": "LHTR-AIRMOVE-range"}


@dataclass(frozen=True)
class Violation:
    """Why a move is illegal, and the ledger rule that says so."""

    reason: str
    rule_id: str

    def error(self) -> IllegalAction:
        return IllegalAction(self.reason, self.rule_id)


class Leg:
    """`stack` (the units asked to move) along `path` in combat move (`combat`) or non-combat move.
    `raid` marks bombers flying a strategic bombing raid; `others` are the domains of the other units
    moving in the same action; `company` the unit types and counts the action names (empty: `stack` alone).
    `unit` is the stack's unit type as movement sees it (`Situation.unit`) and `domain` its domain, looked up once
    per leg. A plain class, not a dataclass: listing moves builds many legs; it is immutable all the same, and
    equal to another leg of the same fields (`unit` and `domain` aside)."""

    view: Situation
    combat: bool
    stack: Stack
    path: tuple[str, ...]
    raid: bool
    others: frozenset[str]
    company: tuple[tuple[str, int], ...]
    unit: UnitType
    domain: str

    def __init__(self, view: Situation, combat: bool, stack: Stack, path: tuple[str, ...], raid: bool = False,
                 others: frozenset[str] = frozenset(), company: tuple[tuple[str, int], ...] = (),
                 unit: UnitType | None = None) -> None:
        """`unit`: `view.unit(stack)` when the caller has it already."""
        unit = view.unit(stack) if unit is None else unit
        self.__dict__.update(view=view, combat=combat, stack=stack, path=path, raid=raid, others=others,
                             company=company, unit=unit, domain=unit.domain)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _key(self) -> tuple[object, ...]:
        return (self.view, self.combat, self.stack, self.path, self.raid, self.others, self.company)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Leg) and other.__class__ is self.__class__ and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Leg(combat={self.combat!r}, stack={self.stack!r}, path={self.path!r}, raid={self.raid!r}, "
                f"others={self.others!r}, company={self.company!r})")

    @property
    def start(self) -> str:
        return self.path[0]

    @property
    def end(self) -> str:
        return self.path[-1]

    @property
    def cost(self) -> int:
        return self.view.path_cost(self.path, self.domain)

    @property
    def name(self) -> str:
        return self.unit.display_plural if self.stack.count > 1 else self.unit.display

    @property
    def where(self) -> str:
        """E.g. "2 fighters in Norway"."""
        return f"{self.stack.count} {self.name} in {self.start}"


Check = Callable[[Leg], Violation | None]


def movable(leg: Leg) -> Violation | None:
    """Complexes never move; AA guns move only in non-combat move."""
    if leg.domain == "building" or allowance(leg.view, leg.unit) == 0:
        return Violation(f"{leg.unit.display_plural} cannot move", "LHTR-LANDMOVE-complex-immobile")
    if leg.combat and leg.unit.has("noncombat_move_only"):
        return Violation(f"{leg.unit.display_plural} move only in non-combat move", "LHTR-LANDMOVE-aa-noncombat-only")
    return None


def not_committed(leg: Leg) -> Violation | None:
    """Units put ashore, units that already made their combat move, and (in non-combat move) units that
    moved or fought in combat move stay where they are; aircraft alone fly on to land."""
    stack, view = leg.stack, leg.view
    if not stack.flags:
        return None
    if flags.value(stack, flags.LANDED) or flags.value(stack, flags.AMPHIBIOUS):
        return Violation(f"{leg.where} cannot move: put ashore this turn", "LHTR-TRANSPORT-offloaded-units-stop")
    if flags.value(stack, flags.UNLOADED):
        reason = f"{leg.where} can do nothing more: unloaded this turn"
        return Violation(reason, "LHTR-TRANSPORT-unload-ends-activity")
    moved_in_combat = flags.has(stack, flags.COMBAT)
    if leg.combat:
        if flags.value(stack, flags.SBR) is not None:
            return Violation(f"{leg.where} cannot move: on a bombing raid", "LHTR-COMBAT-one-battle-per-unit")
        if moved_in_combat:
            picking_up = leg.unit.has("transport") and not view.hostile(leg.start)
            if not picking_up or flags.has(stack, flags.WITHDREW):
                reason = f"{leg.where} cannot move: already moved in this combat move"
                return Violation(reason, "LHTR-COMBAT-one-battle-per-unit")
        return None
    if moved_in_combat and leg.domain != "air":
        reason = f"{leg.where} cannot move: moved or fought in combat move"
        return Violation(reason, "LHTR-SEAMOVE-one-phase-only" if leg.domain == "sea" else "LHTR-TURN-ncm-unmoved-only")
    return None


def path_shape(leg: Leg) -> Violation | None:
    """Each step goes to an adjacent space, and no space is visited twice."""
    spaces = leg.view.board.spaces
    for a, b in zip(leg.path, leg.path[1:], strict=False):
        if b not in spaces[a].neighbors:
            return Violation(f"{a} and {b} are not adjacent", RANGE_RULE.get(leg.domain, RANGE_RULE["land"]))
    if len(set(leg.path)) != len(leg.path):
        return Violation("a path may not visit a space twice", RANGE_RULE.get(leg.domain, RANGE_RULE["land"]))
    return None


def neutrals(leg: Leg) -> Violation | None:
    for space in leg.path[1:]:
        if space in leg.view.graph.neutral:
            return Violation(f"{space} is neutral and impassable", "LHTR-LANDMOVE-neutrals-impassable")
    return None


def domain(leg: Leg) -> Violation | None:
    """Land units stay on land (they cross water only aboard transports); ships stay at sea."""
    view = leg.view
    if leg.domain == "land":
        wet = next((s for s in leg.path if view.is_sea(s)), None)
        if wet is not None:
            reason = f"{leg.unit.display_plural} cannot enter {wet}: land units go to sea only aboard transports (load)"
            return Violation(reason, "LHTR-LANDMOVE-movement-allowance")
    if leg.domain == "sea":
        dry = next((s for s in leg.path if not view.is_sea(s)), None)
        if dry is not None:
            return Violation(f"{leg.unit.display_plural} cannot enter {dry}", "LHTR-SEAMOVE-allowance")
    return None


def within_allowance(leg: Leg) -> Violation | None:
    left = remaining(leg.view, leg.stack, leg.start)
    if leg.cost > left:
        reason = f"{leg.where}: {left} movement left, this path needs {leg.cost}"
        return Violation(reason, RANGE_RULE.get(leg.domain, RANGE_RULE["land"]))
    return None


def canals(leg: Leg) -> Violation | None:
    """A canal passes only for the side that has held its territories since the turn began."""
    if leg.domain != "sea":
        return None
    view = leg.view
    for a, b in zip(leg.path, leg.path[1:], strict=False):
        canal = view.graph.canal(a, b)
        if canal is not None and canal.bars(a, b) and not view.canal_open(canal):
            needs = " and ".join(canal.requires)
            slug = canal.name.split()[0].lower()
            since = "" if view.rules.control_in_real_time else " since the turn began"
            return Violation(
                f"the {canal.name} is closed: {view.side} have not held {needs}{since}",
                f"LHTR-SEAMOVE-{slug}-canal",
            )
    return None


def land_passage(leg: Leg) -> Violation | None:
    """Non-combat moves stay in friendly territory; in combat move an enemy territory stops a land unit,
    except armour blitzing through one territory empty of enemy units."""
    if leg.domain != "land":
        return None
    view = leg.view
    if not leg.combat:
        hostile = next((s for s in leg.path[1:] if view.enemy_land(s)), None)
        if hostile is not None:
            reason = f"{hostile} is enemy territory: non-combat moves go through friendly territory only"
            return Violation(reason, "LHTR-LANDMOVE-noncombat-friendly-only")
        return None
    refused = next((view.refused()[s] for s in leg.path[1:] if s in view.refused()), None)
    if refused is not None:
        return Violation(*refused)
    through = blitzed(view, leg.path)
    for space in through:
        if not leg.unit.has("blitz"):
            reason = f"{leg.unit.display_plural} must stop in enemy territory {space}"
            return Violation(reason, "LHTR-LANDMOVE-stop-in-enemy-territory")
        if space in view.enemy_fighting:
            reason = f"{space} holds enemy units: armour must stop there"
            return Violation(reason, "LHTR-LANDMOVE-stop-in-enemy-territory")
        if space in view.enemy_occupied and not view.rules.blitz_through_infrastructure:
            reason = f"{space} holds enemy units (an industrial complex or AA gun): armour cannot blitz through it"
            return Violation(reason, "LHTR-LANDMOVE-blitz-blocked-by-infrastructure")
    if len(through) > 1:
        return Violation("armour may blitz through one empty enemy territory only", "LHTR-LANDMOVE-blitz")
    return None


def sea_passage(leg: Leg) -> Violation | None:
    """A hostile sea zone stops ships, except submarines where no enemy destroyer is; non-combat moves
    never end in a hostile zone. Enemy ships the ruleset lets pass (`MovementRules`) do neither; submarines
    may end non-combat move among enemies where the ruleset says so."""
    if leg.domain != "sea":
        return None
    view = leg.view
    for space in leg.path[1:-1]:
        if not view.blocks(space):
            continue
        if leg.unit.has("passes_hostile"):
            if space in view.destroyer_seas:
                reason = f"an enemy destroyer in {space} stops submarines"
                return Violation(reason, "LHTR-SEAMOVE-sub-passage")
            continue
        if leg.combat:
            reason = f"{space} holds enemy ships: {leg.unit.display_plural} must stop there"
            return Violation(reason, "LHTR-SEAMOVE-hostile-sea-zone-stops")
        reason = f"{space} holds enemy ships: non-combat moves cannot pass through it"
        return Violation(reason, "LHTR-SEAMOVE-noncombat-no-hostile")
    sub_may_stay = leg.unit.has("passes_hostile") and view.rules.subs_end_noncombat_among_enemies
    if not leg.combat and view.blocks(leg.end) and not sub_may_stay:
        reason = f"{leg.end} holds enemy ships: non-combat moves cannot end there"
        return Violation(reason, "LHTR-SEAMOVE-noncombat-no-hostile")
    return None


def raid_target(leg: Leg) -> Violation | None:
    """Only bombers raid, only in combat move, only an enemy territory with an industrial complex."""
    if not leg.raid:
        return None
    view = leg.view
    if not leg.unit.has("strategic_bomber"):
        reason = f"{leg.unit.display_plural} cannot fly a bombing raid: only bombers can"
        return Violation(reason, "LHTR-SBR-eligibility")
    if not leg.combat:
        return Violation("bombing raids are declared in combat move", "LHTR-SBR-eligibility")
    if not (view.enemy_land(leg.end) and leg.end in view.enemy_factories):
        return Violation(f"{leg.end} has no enemy industrial complex to bomb", "LHTR-SBR-eligibility")
    return None


def combat_purpose(leg: Leg) -> Violation | None:
    """Combat move is for attacks only (LHTR-TURN-combat-move-attack-only)."""
    if not leg.combat or leg.raid:
        return None
    view, end = leg.view, leg.end
    rule = "LHTR-TURN-combat-move-attack-only"
    if leg.domain == "land":
        if view.enemy_land(end) or blitzed(view, leg.path):
            return None
        return Violation(f"{end} is friendly: moving there waits for non-combat move", rule)
    if leg.domain == "air":
        if view.is_sea(end):
            return None if view.hostile(end) else Violation(f"there is no enemy fleet to attack in {end}", rule)
        if not view.enemy_land(end):
            return Violation(f"{end} is friendly: moving there waits for non-combat move", rule)
        if end in view.enemy_fighting or "land" in leg.others or _land_attack(view, end):
            return None
        reason = f"nothing to fight in {end}: aircraft cannot take a territory, so move land units in first"
        return Violation(reason, "LHTR-COMBAT-capture")
    if view.hostile(end):
        return None
    if view.hostile(leg.start) and leg.stack.moved == 0 and not flags.has(leg.stack, flags.COMBAT):
        return None  # LHTR-SEAMOVE-start-in-hostile: leaving is their move
    if leg.unit.has("transport"):
        left = remaining(view, leg.stack) - leg.cost
        if assault_cargo(view, leg.stack) and can_reach_assault(view, end, left):
            return None
        reason = f"{end} is not hostile and the transport can make no amphibious assault from there"
        if not leg.unit.attack:  # a warship that also carries (Tokyo Express) may still escort or bombard
            return Violation(reason, rule)
    if _assault_from(view, end):
        return None
    reason = f"{end} holds no enemy ships and no amphibious assault is made from it (unload the transports first)"
    return Violation(reason, rule)


def attack_ends(view: Situation, stack: Stack, unit: UnitType, start: str) -> Callable[[str], bool] | None:
    """What `combat_purpose` asks at least of the end of a combat move of `stack` (of `unit`, in `start`) that is
    no raid, given no other units move with it: a quick test that lets a listing skip ends it would refuse (None:
    any end may pass). Land units are left to the listing."""
    if unit.domain == "air":
        def air_end(end: str) -> bool:
            if view.is_sea(end):
                return view.hostile(end)
            return view.enemy_land(end) and (end in view.enemy_fighting or _land_attack(view, end))
        return air_end
    if unit.domain != "sea":
        return None
    if view.hostile(start) and stack.moved == 0 and not flags.has(stack, flags.COMBAT):
        return None  # leaving a hostile zone is their move: any end
    if unit.has("transport") and assault_cargo(view, stack):
        return None  # any end from which the cargo can still go ashore
    return lambda end: view.hostile(end) or _assault_from(view, end)


def boarded_cargo(leg: Leg) -> Violation | None:
    """A transport with units loaded this combat move must stay able to put them ashore in an assault."""
    if not leg.combat or not leg.unit.has("transport"):
        return None
    view = leg.view
    if not any(view.moves_for(o) for o, _ in flags.cargo_list(leg.stack, flags.BOARDED)):
        return None
    left = 0 if view.hostile(leg.end) else remaining(view, leg.stack) - leg.cost
    if can_reach_assault(view, leg.end, left):
        return None
    reason = f"units loaded in combat move must go ashore in an assault, which is not possible from {leg.end}"
    return Violation(reason, "LHTR-TRANSPORT-cm-load-must-assault")


def air_landing(leg: Leg) -> Violation | None:
    """Combat move: aircraft must still be able to reach a landing spot (no kamikaze). Non-combat move:
    they must end where they can land."""
    if leg.domain != "air":
        return None
    view = leg.view
    if leg.combat:
        left = remaining(view, leg.stack) - leg.cost
        if can_land(view, leg.unit, leg.end, left, leg.stack.count, True, leg.start):
            return None
        reason = f"{leg.where} would have {left} movement left after {leg.end} and no place to land"
        return Violation(reason, "LHTR-AIRMOVE-no-kamikaze")
    if can_land(view, leg.unit, leg.end, 0, leg.stack.count, False, leg.start):
        return None
    if view.is_sea(leg.end):
        if not leg.unit.carrier_size:
            return Violation(f"{leg.unit.display_plural} cannot land at sea", "LHTR-AIRMOVE-carrier-landing")
        return Violation(f"no friendly carrier has room in {leg.end}", "LHTR-AIRMOVE-carrier-landing")
    return Violation(
        f"{leg.end} has not been friendly since the turn began: aircraft cannot land there",
        "LHTR-AIRMOVE-land-friendly-since-start",
    )


LEG_CHECKS: tuple[Check, ...] = (
    movable,
    not_committed,
    path_shape,
    neutrals,
    domain,
    within_allowance,
    canals,
    land_passage,
    sea_passage,
    raid_target,
    combat_purpose,
    boarded_cargo,
    air_landing,
)


COUNT_BLIND: frozenset[Check] = frozenset(
    (within_allowance, canals, land_passage, sea_passage, raid_target, combat_purpose, boarded_cargo))
"""Default checks whose verdict on a stack is their verdict on one unit of it: they read its status (type, owner,
movement spent, flags; its movement left, which the ``movement_left`` hook gives per status) and never its count
(`air_landing` does: carrier room)."""


def leg_checks(view: Situation) -> tuple[Check, ...]:
    checks: tuple[Check, ...] = tuple(view.ruleset.modify("move_checks", list(LEG_CHECKS)))
    return checks


def first_violation(leg: Leg, checks: tuple[Check, ...]) -> Violation | None:
    for check in checks:
        found = check(leg)
        if found is not None:
            return found
    return None


# --- what an amphibious assault needs -----------------------------------------------------------------------


def _land_attack(view: Situation, territory: str) -> bool:
    """The mover already has land units attacking `territory`."""
    return any(view.unit(s).domain == "land" and flags.has(s, flags.COMBAT) for s in view.own(territory))


def _assault_from(view: Situation, sea: str) -> bool:
    """Land units of the mover came ashore from `sea` this combat move."""
    return any(
        flags.value(s, flags.AMPHIBIOUS) == sea for t in view.graph.coast[sea] for s in view.own(t)
    )


def assault_cargo(view: Situation, stack: Stack) -> tuple[tuple[str, str], ...]:
    """The mover's units aboard one transport of `stack` that could go ashore in an assault."""
    return tuple(
        (o, u) for o, u in flags.cargo(stack) if view.moves_for(o) and not view.unit(u).has("noncombat_move_only")
    )


def assault_moves_left(view: Situation, transport: Stack, sea: str) -> int:
    """The sea moves a transport in `sea` still has in combat move: none once it withdrew from a hostile zone and
    moved (it moves only once then), none once it moved into a zone where it fights (it stays for the battle),
    else what its movement allows."""
    if flags.has(transport, flags.COMBAT) and (flags.has(transport, flags.WITHDREW) or view.hostile(sea)):
        return 0
    return remaining(view, transport)


def can_reach_assault(view: Situation, sea: str, left: int) -> bool:
    """From `sea`, with `left` moves, a transport can reach a zone next to an enemy territory (worked out once per
    situation: listing moves and loads asks it again and again)."""
    key = ("assault_reach", sea, left)
    found: bool | None = view.cache.get(key)
    if found is None:
        zones = sea_reach(view, sea, left, end_hostile=True) if left else frozenset({sea})
        refused, barred = view.refused(), view.barred_ends()
        found = view.cache[key] = any(view.enemy_land(t) and t not in refused for z in zones
                                      if z == sea or z not in barred for t in view.graph.coast[z])
    return found
