"""AARHE combat values and hit allocation: dogfights and air supremacy, tanks with fighters, terrain, and which
enemy units each kind of hit must go to (AARHE-AIRCOMBAT-*, AARHE-LANDHIT-*, AARHE-TERRAIN-combat-modifier)."""

from __future__ import annotations

from aare.combat.battle_state import DiceGroup, Side, Target, UnitKey, other
from aare.combat.setup import Battle
from aare.combat.values import base_value, present, supports

R_OPENING = "AARHE-AIRCOMBAT-opening-fire"
R_DOGFIGHT = "AARHE-AIRCOMBAT-dogfight-values"
R_AIR_FIRST = "AARHE-AIRCOMBAT-air-hits-air-first"
R_SUPREMACY = "AARHE-AIRCOMBAT-supremacy-values"
R_BOMBER_SHIPS = "AARHE-AIRCOMBAT-bomber-no-ships"
R_TANK_BONUS = "AARHE-AIRCOMBAT-fighter-tank-bonus"
R_LAND_ON_LAND = "AARHE-LANDHIT-land-on-land"
R_TANK_PRIORITY = "AARHE-LANDHIT-tank-priority"
R_TERRAIN = "AARHE-TERRAIN-combat-modifier"

# AARHE-AIRCOMBAT-dogfight-values: (attack, defence) while both sides have aircraft, by the unit's tag
DOGFIGHT: dict[str, tuple[int, int]] = {"fighter": (2, 3), "bomber": (0, 1)}
TANK = "tank"  # the tag AARHE gives armour (tank hits, the fighters' bonus, capture dice)
HARSH_TERRAIN = frozenset({"terrain:snowy", "terrain:mountainous"})  # land units fight at -1, never below 1

AIR_FIRST = Target(first=(("domain:air",),), rule=R_AIR_FIRST)
# at sea aircraft never hit submarines (only ASW does, docs/rulings.md)
AIR_FIRST_AT_SEA = Target(exclude_tags=("submarine",), first=(("domain:air",),), rule=R_AIR_FIRST)
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
    values = next((v for tag, v in DOGFIGHT.items() if unit.has(tag)), (0, 0))
    return values[0] if side == "attacker" else values[1]


def air_groups(battle: Battle, side: Side) -> list[DiceGroup]:
    """`side`'s aircraft in opening fire: dogfight values while both sides have aircraft, else their combat values
    (with their side's bonuses); their hits go to enemy aircraft first; bombers never hit ships, nor aircraft
    submarines."""
    sea = battle.state.kind == "sea"
    both = dogfight(battle)
    counts: dict[tuple[str, int, Target], int] = {}
    for key, n in air(battle, side):
        unit = battle.setup.unit(key)
        value = dogfight_value(battle, side, key) if both else base_value(battle, side, key)
        target = AIR_FIRST_AT_SEA if sea else AIR_FIRST
        if sea and unit.has("bomber"):
            if not both:
                continue  # AARHE-AIRCOMBAT-bomber-no-ships: nothing a bomber could hit
            target = Target(exclude_domains=("sea",), first=(("domain:air",),), rule=R_BOMBER_SHIPS)
        if value > 0:
            counts[(key.type, value, target)] = counts.get((key.type, value, target), 0) + n
    return [DiceGroup(side, t, n, v, target, "opening") for (t, v, target), n in counts.items()]


def terrain_value(battle: Battle, value: int) -> int:
    """AARHE-TERRAIN-combat-modifier: -1 in snow and mountains, never below 1."""
    if value > 1 and HARSH_TERRAIN & battle.setup.site_tags:
        return value - 1
    return value


def land_groups(battle: Battle, side: Side) -> list[DiceGroup]:
    """`side`'s land units in the main round: artillery support for the attacker, +1 for a tank per fighter of a
    side with air supremacy, the terrain's -1; land hits go to land units, tank hits to tanks and artillery
    first."""
    setup = battle.setup
    cat = setup.catalogue
    units = sorted(((k, n) for k, n in present(battle, side)
                    if setup.unit(k).domain == "land" and not setup.unit(k).has("not_casualty")),
                   key=lambda kn: (cat.order(kn[0].type), kn[0]))
    support = sum(n * supports(battle, side, k) for k, n in units) if side == "attacker" else 0
    escorts = sum(n for k, n in air(battle, side) if setup.unit(k).has("fighter")) if supremacy(battle, side) else 0
    bonus = setup.rules.artillery_support_bonus
    counts: dict[tuple[str, int, Target], int] = {}
    for key, n in units:
        unit = setup.unit(key)
        value = base_value(battle, side, key)
        target = TANK_HITS if unit.has(TANK) else LAND_ONLY
        shares: list[tuple[int, int]] = []  # (units, extra)
        if support and unit.has("artillery_supported"):
            paired = min(n, support)
            support -= paired
            shares.append((paired, bonus))
            n -= paired
        if escorts and unit.has(TANK):
            paired = min(n, escorts)
            escorts -= paired
            shares.append((paired, 1))
            n -= paired
        shares.append((n, 0))
        for count, extra in shares:
            v = terrain_value(battle, value + extra)
            if count and v > 0:
                counts[(key.type, v, target)] = counts.get((key.type, v, target), 0) + count
    return [DiceGroup(side, t, n, v, target, "cycle") for (t, v, target), n in counts.items()]
