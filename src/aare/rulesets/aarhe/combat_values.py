"""AARHE combat values and hit allocation: dogfights and air supremacy, tanks with fighters, terrain, and which
enemy units each kind of hit must go to (AARHE-AIRCOMBAT-*, AARHE-LANDHIT-*, AARHE-TERRAIN-combat-modifier)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from aare.board.units import UnitType
from aare.combat.battle_state import DiceGroup, Side, Target, UnitKey, hit_points, other
from aare.combat.decisions import ChooseTargets, declared_targets
from aare.combat.rules import TechBonus
from aare.combat.setup import Battle
from aare.combat.values import base_value, dice_per_unit, present, supports
from aare.rulesets.aarhe.national_attacks import blitzkrieg, radar, shock_troop_early

R_OPENING = "AARHE-AIRCOMBAT-opening-fire"
R_DOGFIGHT = "AARHE-AIRCOMBAT-dogfight-values"
R_AIR_FIRST = "AARHE-AIRCOMBAT-air-hits-air-first"
R_SUPREMACY = "AARHE-AIRCOMBAT-supremacy-values"
R_SELECTIVE = "AARHE-AIRCOMBAT-supremacy-selective"
R_BOMBER_SHIPS = "AARHE-AIRCOMBAT-bomber-no-ships"
R_TANK_BONUS = "AARHE-AIRCOMBAT-fighter-tank-bonus"
R_LAND_ON_LAND = "AARHE-LANDHIT-land-on-land"
R_TANK_PRIORITY = "AARHE-LANDHIT-tank-priority"
R_TERRAIN = "AARHE-TERRAIN-combat-modifier"
R_JETS_FIRST = "AARHE-AIRCOMBAT-jet-hits-jets-first"
R_JET_SUPREMACY = "AARHE-AIRCOMBAT-jet-supremacy"
R_JET_PLANE = "AARHE-TECH-jet-plane"

# AARHE-AIRCOMBAT-dogfight-values: (attack, defence) while both sides have aircraft, by the unit's first tag listed
# (the optional naval fighter, module `aarhe_naval_fighter`, is a fighter with values of its own)
DOGFIGHT: dict[str, tuple[int, int]] = {"naval_fighter": (2, 2), "fighter": (2, 3), "bomber": (0, 1),
                                        "dive_bomber": (1, 2)}
# AARHE-TECH-jet-plane: the aircraft of a power with Jet Plane are jets: other values in combat and in dogfights.
# Until AARHE's own weapons development comes, Jet Plane is the jet technology of the development table in play
JET_TECH, JET = "jet_fighters", "jet"  # the technology, the battle flag of a jet
# a jet NAV gains what a jet fighter gains: dogfight +2/+1 (docs/rulings.md)
JET_DOGFIGHT: dict[str, tuple[int, int]] = {"naval_fighter": (4, 3), "fighter": (4, 4), "bomber": (0, 2),
                                            "dive_bomber": (1, 2)}
JET_BONUSES = (TechBonus(JET_TECH, "fighter", "attack", 1, R_JET_PLANE),  # fighter 4/5, bomber 3/3
               TechBonus(JET_TECH, "fighter", "defense", 1, R_JET_PLANE),
               TechBonus(JET_TECH, "bomber", "attack", -1, R_JET_PLANE),
               TechBonus(JET_TECH, "bomber", "defense", 2, R_JET_PLANE))
SKIPS = "skips-dogfight"  # a jet that attacks land units instead of dogfighting this cycle
TANK = "tank"  # the tag AARHE gives armour (tank hits, the fighters' bonus, capture dice)
HARSH_TERRAIN = frozenset({"terrain:snowy", "terrain:mountainous"})  # land units fight at -1, never below 1

AIR_FIRST = Target(first=(("domain:air",),), rule=R_AIR_FIRST)
JETS_FIRST = Target(first=(("flag:" + JET,), ("domain:air",)), rule=R_JETS_FIRST)
LAND_ONLY = Target(exclude_domains=("air", "sea"), rule=R_LAND_ON_LAND)
TANK_HITS = Target(exclude_domains=("air", "sea"), first=((TANK, "artillery"),), rule=R_TANK_PRIORITY)


def air(battle: Battle, side: Side) -> list[tuple[UnitKey, int]]:
    """`side`'s aircraft in the battle (hit ones too, until they are removed)."""
    return [(k, n) for k, n in present(battle, side) if battle.setup.unit(k).domain == "air"]


def dogfight(battle: Battle) -> bool:
    """Both sides have aircraft: they fight with their dogfight values."""
    return bool(air(battle, "attacker")) and bool(air(battle, "defender"))


def supremacy(battle: Battle, side: Side) -> bool:
    """Only `side` has aircraft in the battle."""
    return bool(air(battle, side)) and not air(battle, other(side))


def dogfight_value(battle: Battle, side: Side, key: UnitKey) -> int:
    unit = battle.setup.unit(key)
    table = JET_DOGFIGHT if key.has(JET) else DOGFIGHT
    values = next((v for tag, v in table.items() if unit.has(tag)), (0, 0))
    return values[0] if side == "attacker" else values[1] + radar(battle, side, key)


def jets(battle: Battle, side: Side) -> list[tuple[UnitKey, int]]:
    return [(k, n) for k, n in air(battle, side) if k.has(JET)]


def jet_supremacy(battle: Battle, side: Side) -> bool:
    """Only `side` has jets, and the enemy has other aircraft (AARHE-AIRCOMBAT-jet-supremacy)."""
    return bool(jets(battle, side)) and not jets(battle, other(side)) and bool(air(battle, other(side)))


def targets_prefix(side: Side) -> str:
    return f"cycle:air-targets:{side}="


def selective(battle: Battle, side: Side) -> list[tuple[UnitKey, int]]:
    """`side`'s aircraft that choose their own targets: all but bombers, while `side` alone has aircraft in a land
    battle (AARHE-AIRCOMBAT-supremacy-selective)."""
    if battle.state.kind not in ("land", "amphibious"):
        return []
    if supremacy(battle, side):
        shooters = air(battle, side)
    elif jet_supremacy(battle, side):  # jet fighters choose: an enemy land unit, or an enemy aircraft to dogfight
        shooters = jets(battle, side)
    else:
        return []
    return [(k, n) for k, n in shooters if not battle.setup.unit(k).has("bomber") and not k.marked]


def target_choice(battle: Battle, side: Side) -> ChooseTargets | None:
    """The decision naming the targets of `side`'s selective aircraft, before any die is rolled; None when there
    is nothing to choose."""
    shooters = sum(n for _, n in selective(battle, side))
    room: dict[tuple[str, str], int] = {}
    cat = battle.setup.catalogue
    for key, n in present(battle, other(side)):
        if not cat[key.type].has("not_casualty") and not key.marked:
            room[(key.owner, key.type)] = room.get((key.owner, key.type), 0) + n * (hit_points(cat, key) - key.damage)
    count = min(shooters, sum(room.values()))
    if not count:
        return None
    eligible = tuple((o, t, h) for (o, t), h in sorted(room.items()))
    rule = R_SELECTIVE if supremacy(battle, side) else R_JET_SUPREMACY
    return ChooseTargets(side, count, eligible, rule, note=targets_prefix(side))


def skipping(battle: Battle, side: Side) -> int:
    """How many of `side`'s jets named an enemy land unit this cycle (they skip the dogfight)."""
    if not jet_supremacy(battle, side):
        return 0
    named = declared_targets(battle.state.notes, targets_prefix(side)) or ()
    return sum(1 for _, unit in named if battle.setup.unit(unit).domain != "air")


def _selective_groups(battle: Battle, side: Side) -> list[DiceGroup]:
    """One die per selective aircraft at its combat value, its hit on the unit it named."""
    named = list(declared_targets(battle.state.notes, targets_prefix(side)) or ())
    cat = battle.setup.catalogue
    counts: dict[tuple[str, int, Target], int] = {}
    shooters = sorted(selective(battle, side), key=lambda kn: (cat.order(kn[0].type), kn[0]))
    for key, n in shooters:
        for _ in range(n):
            if not named:
                break
            owner, unit = named.pop(0)
            if cat[unit].domain == "air" and dogfight(battle):  # a jet that chose to dogfight
                target, value = JETS_FIRST, dogfight_value(battle, side, key)
            else:
                rule = R_SELECTIVE if supremacy(battle, side) else R_JET_SUPREMACY
                target = Target(types=(unit,), owners=(owner,) if owner else (), rule=rule)
                value = base_value(battle, side, key)
            counts[(key.type, value, target)] = counts.get((key.type, value, target), 0) + 1
    return [DiceGroup(side, t, n, v, target, "opening") for (t, v, target), n in counts.items() if v > 0]


def air_groups(battle: Battle, side: Side) -> list[DiceGroup]:
    """`side`'s aircraft in opening fire: dogfight values while both sides have aircraft, else their combat values
    (with their side's bonuses), each but bombers on the target it chose; their hits go to enemy aircraft first;
    bombers never hit ships, nor aircraft submarines (only ASW does, docs/rulings.md)."""
    sea = battle.state.kind == "sea"
    both = dogfight(battle)
    chosen = {k for k, _ in selective(battle, side)}
    # jets that skipped the dogfight cannot be hit by aircraft (AARHE-AIRCOMBAT-jet-supremacy)
    out_of_reach = (SKIPS,) if any(k.has(SKIPS) for k, _ in present(battle, other(side))) else ()
    counts: dict[tuple[str, int, Target], int] = {}
    groups = _selective_groups(battle, side) if chosen else []
    for key, n in air(battle, side):
        if key in chosen:
            continue
        unit = battle.setup.unit(key)
        value = dogfight_value(battle, side, key) if both else base_value(battle, side, key)
        target = JETS_FIRST if key.has(JET) else AIR_FIRST
        if sea:
            target = replace(target, exclude_tags=("submarine",))
        if out_of_reach:
            target = replace(target, exclude_flags=out_of_reach)
        if sea and unit.has("bomber"):
            if not both:
                continue  # AARHE-AIRCOMBAT-bomber-no-ships: nothing a bomber could hit
            target = Target(exclude_domains=("sea",), first=(("domain:air",),), rule=R_BOMBER_SHIPS)
        if value > 0:
            dice = dice_per_unit(battle, side, key)[0]  # a heavy bomber's two dice each hit (AARHE-TECH-heavy-bomber)
            counts[(key.type, value, target)] = counts.get((key.type, value, target), 0) + n * dice
    return groups + [DiceGroup(side, t, n, v, target, "opening") for (t, v, target), n in counts.items()]


def terrain_value(battle: Battle, value: int) -> int:
    """AARHE-TERRAIN-combat-modifier: -1 in snow and mountains, never below 1."""
    if value > 1 and HARSH_TERRAIN & battle.setup.site_tags:
        return value - 1
    return value


def land_groups(battle: Battle, side: Side, keep: Callable[[UnitType], bool] | None = None,
                target: Target | None = None, removal: str = "cycle", lifts: tuple[tuple[str, int], ...] = ()
                ) -> list[DiceGroup]:
    """`side`'s land units (those `keep` accepts) in the main round: artillery support for the attacker, +1 for a
    tank per fighter of a side with air supremacy or Germany's blitzkrieg, +1 for each of `lifts` ((tag, count):
    that many units with the tag, one each, after support: bonuses never stack), the terrain's -1; land hits go to
    land units, tank hits to tanks and artillery first (or all to `target`), removed at `removal`."""
    setup = battle.setup
    cat = setup.catalogue
    units = sorted(((k, n) for k, n in present(battle, side)
                    if setup.unit(k).domain == "land" and not setup.unit(k).has("not_casualty")
                    and (keep is None or keep(setup.unit(k))) and not shock_troop_early(battle, side, k)),
                   key=lambda kn: (cat.order(kn[0].type), kn[0]))
    support = sum(n * supports(battle, side, k) for k, n in units) if side == "attacker" else 0
    lifting = supremacy(battle, side) or blitzkrieg(battle, side)  # one lift a tank, never two
    escorts = sum(n for k, n in air(battle, side) if setup.unit(k).has("fighter")) if lifting else 0
    left = dict(lifts)
    if escorts:
        left[TANK] = left.get(TANK, 0) + escorts
    bonus = setup.rules.artillery_support_bonus
    counts: dict[tuple[str, int, Target], int] = {}
    for key, n in units:
        unit = setup.unit(key)
        value = base_value(battle, side, key)
        hits = target or (TANK_HITS if unit.has(TANK) else LAND_ONLY)
        shares: list[tuple[int, int]] = []  # (units, extra)
        if support and unit.has("artillery_supported"):
            paired = min(n, support)
            support -= paired
            shares.append((paired, bonus))
            n -= paired
        for tag, free in left.items():
            if free and unit.has(tag):
                paired = min(n, free)
                left[tag] -= paired
                shares.append((paired, 1))
                n -= paired
        shares.append((n, 0))
        for count, extra in shares:
            v = terrain_value(battle, value + extra)
            if count and v > 0:
                counts[(key.type, v, hits)] = counts.get((key.type, v, hits), 0) + count
    return [DiceGroup(side, t, n, v, hits, removal) for (t, v, hits), n in counts.items()]
