"""The battles a combat move sets up, read from the state: land and sea battles, amphibious assaults with
their landing zones and bombarding ships, strategic bombing raids and AA fire at aircraft flying over.
Conduct-combat resolves them; nothing here rolls a die."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from aare.movement import flags
from aare.movement.situation import Situation, situation
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

KIND_ORDER = {"flyover": 0, "bombing": 1, "sea": 2, "land": 3, "amphibious": 3}
COMBINED_BOMBARDMENT = "combined_bombardment"


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
        seas = _sea_battles(view)
        sea_spaces = {b.space for b in seas}
        sites = [*_flyovers(view), *_raids(view), *seas, *_land_battles(view, sea_spaces)]
        cached = view.cache["pending_battles"] = tuple(sorted(sites, key=lambda b: (KIND_ORDER[b.kind], b.space)))
    return list(cached)


def _defenders(view: Situation, space: str) -> dict[str, tuple[Stack, ...]]:
    """The enemy's units in `space` by owner, but those away on a mission (`flags.ELSEWHERE`)."""
    out: dict[str, list[Stack]] = {}
    for stack in view.enemies(space):
        if not flags.has(stack, flags.ELSEWHERE):
            out.setdefault(stack.owner, []).append(stack)
    return {owner: tuple(stacks) for owner, stacks in sorted(out.items())}


def _allied(view: Situation, space: str) -> tuple[Stack, ...]:
    return tuple(s for s in view.stacks(space) if not view.commands(s) and view.friend(s.owner))


def _flyovers(view: Situation) -> list[BattleSite]:
    over: dict[str, list[tuple[str, Stack]]] = {}
    for space, stacks in sorted(view.own_spaces.items()):
        for stack in stacks:
            for territory in flags.values(stack, flags.FLYOVER):
                over.setdefault(territory, []).append((space, stack))
    return [
        BattleSite(t, "flyover", view.power, defenders=_defenders(view, t), overflying=tuple(found))
        for t, found in sorted(over.items())
    ]


def _raids(view: Situation) -> list[BattleSite]:
    return [site for space in sorted(view.own_spaces) if (site := _raid(view, space)) is not None]


def _raid(view: Situation, space: str) -> BattleSite | None:
    raiders = tuple(s for s in view.own(space) if flags.value(s, flags.SBR) == space)
    if any(view.unit(s).has("strategic_bomber") for s in raiders):  # escorts alone raid nothing
        return BattleSite(space, "bombing", view.power, raiders, _defenders(view, space))
    return None


def _sea_battles(view: Situation) -> list[BattleSite]:
    """Sea zones where the mover's units meet enemy ships: those that moved in, and those that started there
    and stayed (LHTR-COMBAT-shared-space-forces-battle)."""
    sites = [site for space in sorted(s for s in view.own_spaces if s in view.graph.sea)
             if (site := _sea_site(view, space)) is not None]
    fought = {b.space for b in sites}
    return [_without_retreats_to(b, fought.__contains__) for b in sites]


def _without_retreats_to(site: BattleSite, fought: Callable[[str], bool]) -> BattleSite:
    """A sea zone someone fights in this turn is no retreat."""
    return BattleSite(site.space, site.kind, site.attacker, site.attackers, site.defenders, site.allied,
                      retreat_to=tuple(r for r in site.retreat_to if not fought(r)), optional=site.optional)


def _sea_site(view: Situation, space: str) -> BattleSite | None:
    """The sea battle in `space`, its retreats not yet checked for battles there."""
    if space not in view.graph.sea or not view.hostile(space):
        return None
    # units that retreated into the zone from a battle take no part in one here (none in LHTR)
    mine = tuple(s for s in view.own(space) if not flags.has(s, flags.RETREATED))
    enemies = {o: kept for o, stacks in _defenders(view, space).items()
               if (kept := tuple(s for s in stacks if not flags.has(s, flags.RETREATED)))}
    if not mine or not enemies:
        return None
    origins = {flags.value(s, flags.FROM) for s in mine if view.unit(s).domain == "sea"}
    retreat = tuple(sorted(o for o in origins if o and not view.hostile(o)))
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
            seas[zone] = _sea_site(view, zone) is not None
        return seas[zone]

    sites = []
    if (raid := _raid(view, space)) is not None:
        sites.append(raid)
    if (sea := _sea_site(view, space)) is not None:
        sites.append(_without_retreats_to(sea, sea_battle))
    if space in view.graph.land and (land := _land_site(view, space, sea_battle)) is not None:
        sites.append(land)
    return sites


def _land_battles(view: Situation, sea_battles: set[str]) -> list[BattleSite]:
    return [site for space in sorted(s for s in view.own_spaces if s in view.graph.land)
            if (site := _land_site(view, space, sea_battles.__contains__)) is not None]


def _land_site(view: Situation, space: str, sea_battle: Callable[[str], bool]) -> BattleSite | None:
    """The land battle or amphibious assault in `space` (`sea_battle`: whether a sea zone has a sea battle)."""
    attackers = tuple(
        s for s in view.own(space) if flags.has(s, flags.COMBAT) and flags.value(s, flags.SBR) is None
        and view.unit(s).domain != "building"
    )
    if not attackers or not (view.enemy_land(space) or view.enemies(space)):
        return None
    land = [s for s in attackers if view.unit(s).domain == "land"]
    landed_from = tuple(sorted({z for s in land if (z := flags.value(s, flags.AMPHIBIOUS))}))
    origins = tuple(sorted({f for s in land if (f := flags.value(s, flags.FROM))}))
    retreat = () if landed_from else origins
    bombard = tuple(
        (z, s) for z in landed_from if not sea_battle(z) for s in view.own(z) if _bombards(view, s)
    )
    # units that retreated into the territory from a battle this turn take no part in one here
    defenders = {o: kept for o, stacks in _defenders(view, space).items()
                 if (kept := tuple(s for s in stacks if not flags.has(s, flags.RETREATED)))}
    if not defenders and not view.enemy_land(space):
        return None  # a friendly territory (taken meanwhile by an ally) where only retreated enemies stand
    return BattleSite(
        space,
        "amphibious" if landed_from else "land",
        view.power,
        attackers,
        defenders,
        _allied(view, space),
        amphibious_from=landed_from,
        fight_after=tuple(z for z in landed_from if sea_battle(z)),
        bombard=bombard,
        retreat_to=tuple(r for r in retreat if view.friendly_land(r)),
        overland_from=tuple(r for r in origins if view.friendly_land(r)) if landed_from else (),
        can_capture=bool(land),
    )


def _bombards(view: Situation, stack: Stack) -> bool:
    """Battleships, and destroyers whose owner has Combined Bombardment (LHTR-BOMBARD-who-and-when)."""
    unit = view.unit(stack)
    return unit.has("bombard") or (
        unit.has("destroyer") and COMBINED_BOMBARDMENT in view.state.techs.get(stack.owner, ())
    )
