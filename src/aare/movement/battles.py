"""The battles a combat move sets up, read from the state: land and sea battles, amphibious assaults with
their landing zones and bombarding ships, strategic bombing raids and AA fire at aircraft flying over.
Conduct-combat resolves them; nothing here rolls a die.

What a space's own units and its owner make of it (`_Local`: the aircraft flying over enemy AA guns from it, its
raid, its sea battle, its land battle) reads nothing else of the state, but for a few questions about its
neighbours (which of them are hostile, friendly, or have a sea battle) asked again for each state. It is kept
from one state to the next by the identity of the space's stacks (states share the stacks of every space an
event did not touch), its owner, the power to move and its co-movers, while no rule module changes a stack's unit
type in movement (the ``stack_unit`` hook). With AARE_CHECK_BATTLE_MEMO=1 (the tests) every kept part is worked
out again and compared."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from aare.identity_cache import ByIdentity
from aare.movement import flags
from aare.movement.situation import Situation, situation
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

KIND_ORDER = {"flyover": 0, "bombing": 1, "sea": 2, "land": 3, "amphibious": 3}
COMBINED_BOMBARDMENT = "combined_bombardment"
CHECK = os.environ.get("AARE_CHECK_BATTLE_MEMO") == "1"


@dataclass(frozen=True)
class BattleSite:
    """One fight waiting for conduct-combat.

    `kind`: "land", "amphibious" (a land battle with attackers from the sea), "sea", "bombing" (a strategic
    bombing raid on `space`) or "flyover" (the AA gun in `space` fires at `overflying` aircraft); "rocket" is a
    rocket strike on `space` with no raid, built only for the ``battle_inputs`` hook.
    `attackers`: the attacker's units in the fight (for flyover: none; see `overflying`).
    `defenders`: the enemy's units there, by owner (AA guns and complexes included).
    `allied`: the attacker's allies' units there; they neither attack nor defend (e.g. fighters riding on
    the attacker's carrier), but share its fate.
    `amphibious_from`: the sea zones attacking land units came ashore from; `fight_after`: the sea battles
    among them, which are fought first (LHTR-COMBAT-battle-order).
    `bombard`: (sea zone, ships) that may bombard; none from a zone with a sea battle.
    `retreat_to`: where attacking land or sea units may retreat (the spaces they entered from; none for land
    units in an amphibious assault). `overland_from`: in an amphibious assault, the friendly spaces its land
    units that came overland entered from (where a partial retreat goes). `can_capture`: an attacking land unit
    is present.
    `overflying`: (space the aircraft are in now, stack) for flyover fire.
    `optional`: a sea battle the power to move may leave unfought: its units only share the zone with enemy
    ships, none moved in (`MovementRules.shared_zones_optional`).
    """

    space: str
    kind: str
    attacker: str
    attackers: tuple[Stack, ...] = ()
    defenders: Mapping[str, tuple[Stack, ...]] = field(default_factory=dict)
    allied: tuple[Stack, ...] = ()
    amphibious_from: tuple[str, ...] = ()
    fight_after: tuple[str, ...] = ()
    bombard: tuple[tuple[str, Stack], ...] = ()
    retreat_to: tuple[str, ...] = ()
    overland_from: tuple[str, ...] = ()
    can_capture: bool = False
    overflying: tuple[tuple[str, Stack], ...] = ()
    optional: bool = False

    @property
    def rule_id(self) -> str:
        return {
            "flyover": "LHTR-AA-flyover",
            "bombing": "LHTR-SBR-eligibility",
            "sea": "LHTR-COMBAT-naval-sequence",
            "amphibious": "LHTR-TRANSPORT-amphibious-assault",
        }.get(self.kind, "LHTR-COMBAT-land-sequence")


def pending_battles(state: GameState, ruleset: Ruleset) -> list[BattleSite]:
    """Every battle, raid and flyover the power to move has to fight, flyovers and raids first."""
    view = situation(state, ruleset)
    cached = view.cache.get("pending_battles")
    if cached is None:
        cached = view.cache["pending_battles"] = _pending(view)
    return list(cached)


def _pending(view: Situation) -> tuple[BattleSite, ...]:
    parts = [(space, _local(view, space)) for space in sorted(view.own_spaces)]
    over: dict[str, list[tuple[str, Stack]]] = {}
    for space, part in parts:
        for territory, stack in part.flyovers:
            over.setdefault(territory, []).append((space, stack))
    sites = [BattleSite(t, "flyover", view.power, defenders=_defenders(view, t), overflying=tuple(found))
             for t, found in sorted(over.items())]
    sites += [part.raid for _, part in parts if part.raid is not None]
    seas = [part.sea for _, part in parts if part.sea is not None]
    fought = {b.space for b in seas}
    sites += [_sea_retreats(view, b, fought.__contains__) for b in seas]
    sites += [_land_finished(view, part.land, fought.__contains__) for _, part in parts if part.land is not None]
    return tuple(sorted(sites, key=lambda b: (KIND_ORDER[b.kind], b.space)))


@dataclass(frozen=True)
class _Local:
    """What one space's units and owner make of it: the (territory, stack) of its aircraft flying over
    territories, its raid, its sea battle with every zone its ships came from as retreats (`_sea_retreats` keeps
    those open), its land battle with every space its land units came from (`_land_finished`)."""

    flyovers: tuple[tuple[str, Stack], ...] = ()
    raid: BattleSite | None = None
    sea: BattleSite | None = None
    land: BattleSite | None = None


_NOTHING = _Local()
_Kept = dict[tuple[str, int], tuple[tuple[Stack, ...], str | None, _Local]]
_KEPT: dict[tuple[Any, ...], tuple[Ruleset, _Kept]] = {}
"""Per ruleset (by identity), power to move and its co-movers: each space's `_Local` by its stacks' identity."""
_KEPT_SIZE = 20_000
_MOVED_UNITS: ByIdentity[bool] = ByIdentity(1_000)
_UNSET = object()


def _local(view: Situation, space: str) -> _Local:
    """The `_Local` of `space`, kept while its stacks (by identity), its owner, the power to move and its
    co-movers stay the same."""
    kept: _Kept | None = view.cache.get("battle_memo", _UNSET)
    if kept is _UNSET:
        kept = view.cache["battle_memo"] = _kept(view)
    stacks = view.state.units.get(space, ())
    if kept is None or type(stacks) is not tuple:
        return _read_local(view, space)
    owner = view.state.owners.get(space)
    key = (space, id(stacks))
    found = kept.get(key)
    if found is not None and found[0] is stacks and found[1] == owner:
        if CHECK and _read_local(view, space) != found[2]:
            raise AssertionError(f"the battles kept for {space} differ from those read again")
        return found[2]
    part = _read_local(view, space)
    if len(kept) >= _KEPT_SIZE:
        kept.clear()
    kept[key] = (stacks, owner, part)
    return part


def _kept(view: Situation) -> _Kept | None:
    """The `_Local` parts kept for the power to move and its co-movers (None: keep none, a rule module changes
    unit types in movement)."""
    ruleset = view.ruleset
    moved = _MOVED_UNITS.get(ruleset)
    if moved is None:
        moved = _MOVED_UNITS.put(ruleset, any("stack_unit" in m.hooks for m in ruleset.modules))
    if moved:
        return None
    context = (id(ruleset), view.power, tuple(sorted(view.co_movers.items())))
    found = _KEPT.get(context)
    if found is None or found[0] is not ruleset:
        if len(_KEPT) >= 256:
            _KEPT.clear()
        found = _KEPT[context] = (ruleset, {})
    return found[1]


def _read_local(view: Situation, space: str) -> _Local:
    sea = _sea_local(view, space) if view.is_sea(space) else None
    if not any(s.flags for s in view.own(space)):  # units that stayed: no flight over AA, raid nor attack
        return _NOTHING if sea is None else _Local(sea=sea)
    flyovers = tuple((t, stack) for stack in view.own(space) for t in flags.values(stack, flags.FLYOVER))
    raid = _raid(view, space)
    land = _land_local(view, space) if view.is_land(space) else None
    if not flyovers and raid is None and sea is None and land is None:
        return _NOTHING
    return _Local(flyovers, raid, sea, land)


def _defenders(view: Situation, space: str) -> dict[str, tuple[Stack, ...]]:
    """The enemy's units in `space` by owner, but those away on a mission (`flags.ELSEWHERE`)."""
    out: dict[str, list[Stack]] = {}
    for stack in view.enemies(space):
        if not flags.has(stack, flags.ELSEWHERE):
            out.setdefault(stack.owner, []).append(stack)
    return {owner: tuple(stacks) for owner, stacks in sorted(out.items())}


def _allied(view: Situation, space: str) -> tuple[Stack, ...]:
    return tuple(s for s in view.stacks(space) if not view.commands(s) and view.friend(s.owner))


def _raid(view: Situation, space: str) -> BattleSite | None:
    raiders = tuple(s for s in view.own(space) if flags.value(s, flags.SBR) == space)
    if any(view.unit(s).has("strategic_bomber") for s in raiders):  # escorts alone raid nothing
        return BattleSite(space, "bombing", view.power, raiders, _defenders(view, space))
    return None


def _without_retreats_to(site: BattleSite, fought: Callable[[str], bool]) -> BattleSite:
    """A sea zone someone fights in this turn is no retreat."""
    return BattleSite(site.space, site.kind, site.attacker, site.attackers, site.defenders, site.allied,
                      retreat_to=tuple(r for r in site.retreat_to if not fought(r)), optional=site.optional)


def _sea_retreats(view: Situation, site: BattleSite, sea_battle: Callable[[str], bool]) -> BattleSite:
    """The sea battle `_sea_local` found, its retreats only into zones with neither enemy ships nor a battle
    (LHTR-COMBAT-retreat-destination)."""
    if not any(view.hostile(o) or sea_battle(o) for o in site.retreat_to):
        return site
    return _without_retreats_to(site, lambda o: view.hostile(o) or sea_battle(o))


def _sea_local(view: Situation, space: str) -> BattleSite | None:
    """Sea zones where the mover's units meet enemy ships: those that moved in, and those that started there
    and stayed (LHTR-COMBAT-shared-space-forces-battle); every zone its ships came from among the retreats."""
    if space not in view.graph.sea or not view.hostile(space):
        return None
    # units that retreated into the zone from a battle take no part in one here (none in LHTR)
    mine = tuple(s for s in view.own(space) if not flags.has(s, flags.RETREATED))
    enemies = {o: kept for o, stacks in _defenders(view, space).items()
               if (kept := tuple(s for s in stacks if not flags.has(s, flags.RETREATED)))}
    if not mine or not enemies:
        return None
    origins = {flags.value(s, flags.FROM) for s in mine if view.unit(s).domain == "sea"}
    retreat = tuple(sorted(o for o in origins if o))
    optional = view.rules.shared_zones_optional and not any(flags.has(s, flags.COMBAT) for s in mine)
    return BattleSite(space, "sea", view.power, mine, enemies, _allied(view, space), retreat_to=retreat,
                      optional=optional)


def battles_at(state: GameState, ruleset: Ruleset, space: str) -> list[BattleSite]:
    """The battles and raid the power to move has to fight in `space` (flyovers not included), as
    `pending_battles` gives them, found without looking at the rest of the board."""
    view = situation(state, ruleset)
    cached = view.cache.get("pending_battles")
    if cached is not None:
        return [s for s in cached if s.space == space and s.kind != "flyover"]
    seas: dict[str, bool] = {}

    def sea_battle(zone: str) -> bool:
        if zone not in seas:
            seas[zone] = _local(view, zone).sea is not None
        return seas[zone]

    part = _local(view, space)
    sites = [] if part.raid is None else [part.raid]
    if part.sea is not None:
        sites.append(_sea_retreats(view, part.sea, sea_battle))
    if part.land is not None:
        sites.append(_land_finished(view, part.land, sea_battle))
    return sites


def _land_finished(view: Situation, site: BattleSite, sea_battle: Callable[[str], bool]) -> BattleSite:
    """The battle `_land_local` found, with what its neighbours make of it: the retreats and overland origins
    still friendly, the sea battles fought before the landing and the ships that may bombard."""
    landed_from = site.amphibious_from
    bombard = tuple(
        (z, s) for z in landed_from if not sea_battle(z) for s in view.own(z) if _bombards(view, s)
    )
    retreat = tuple(r for r in site.retreat_to if view.friendly_land(r))
    overland = tuple(r for r in site.overland_from if view.friendly_land(r))
    if not landed_from and retreat == site.retreat_to:
        return site
    return replace(site, fight_after=tuple(z for z in landed_from if sea_battle(z)), bombard=bombard,
                   retreat_to=retreat, overland_from=overland)


def _land_local(view: Situation, space: str) -> BattleSite | None:
    """The land battle or amphibious assault in `space` as its own units and owner make it: every space its
    land units came from among its retreats (or overland origins), no bombardment nor sea battle before it."""
    attackers = tuple(
        s for s in view.own(space) if flags.has(s, flags.COMBAT) and flags.value(s, flags.SBR) is None
        and view.unit(s).domain != "building"
    )
    if not attackers or not (view.enemy_land(space) or view.enemies(space)):
        return None
    land = [s for s in attackers if view.unit(s).domain == "land"]
    landed_from = tuple(sorted({z for s in land if (z := flags.value(s, flags.AMPHIBIOUS))}))
    origins = tuple(sorted({f for s in land if (f := flags.value(s, flags.FROM))}))
    # units that retreated into the territory from a battle this turn take no part in one here; in a territory
    # friendly to the mover (taken meanwhile by an ally), enemy aircraft (there on a mission) hold nothing and
    # fight no battle: they land elsewhere when their mission ends
    enemy_land = view.enemy_land(space)
    defenders = {o: kept for o, stacks in _defenders(view, space).items()
                 if (kept := tuple(s for s in stacks if not flags.has(s, flags.RETREATED)
                                   and (enemy_land or view.unit(s).domain != "air")))}
    if not defenders and not enemy_land:
        return None  # a friendly territory where only retreated enemies or enemy aircraft stand
    return BattleSite(
        space,
        "amphibious" if landed_from else "land",
        view.power,
        attackers,
        defenders,
        _allied(view, space),
        amphibious_from=landed_from,
        retreat_to=() if landed_from else origins,
        overland_from=origins if landed_from else (),
        can_capture=bool(land),
    )


def _bombards(view: Situation, stack: Stack) -> bool:
    """Battleships, and destroyers whose owner has Combined Bombardment (LHTR-BOMBARD-who-and-when)."""
    unit = view.unit(stack)
    return unit.has("bombard") or (
        unit.has("destroyer") and COMBINED_BOMBARDMENT in view.state.techs.get(stack.owner, ())
    )
