"""Combat values: who rolls how many dice at what, from the unit catalogue, techs and rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from types import MappingProxyType

from aare.board.units import UnitCatalogue
from aare.combat.battle_state import ANY, DiceGroup, Side, Target, UnitKey, other
from aare.combat.setup import Battle
from aare.identity_cache import ByIdentity

SUB_TARGET = Target(exclude_domains=("air",), rule="LHTR-NAVALCOMBAT-subs-cannot-hit-air")
AIR_NO_SUB_TARGET = Target(exclude_tags=("submarine",), rule="LHTR-NAVALCOMBAT-air-can-hit-subs")


def base_value(battle: Battle, side: Side, key: UnitKey) -> int:
    """Attack or defense value of one unit with tech bonuses (no artillery support)."""
    setup = battle.setup
    unit = setup.unit(key)
    role = "attack" if side == "attacker" else "defense"
    value = unit.attack if role == "attack" else unit.defense
    techs = setup.techs(side, key)
    for bonus in setup.rules.tech_bonuses:
        if bonus.role == role and bonus.tech in techs and unit.has(bonus.tag):
            if bonus.cycles is not None and battle.state.cycle > bonus.cycles:
                continue
            if bonus.when is None or bonus.when(battle, side, key):
                value += bonus.delta
    return value


def supports(battle: Battle, side: Side, key: UnitKey) -> int:
    """How many units tagged ``artillery_supported`` one unit tagged ``artillery`` supports: one, plus the
    "support" tech bonuses of its side (e.g. Advanced Artillery)."""
    setup = battle.setup
    unit = setup.unit(key)
    if not unit.has("artillery"):
        return 0
    techs = setup.techs(side, key)
    return 1 + sum(b.delta for b in setup.rules.tech_bonuses if b.role == "support" and b.tech in techs
                   and unit.has(b.tag))


def dice_per_unit(battle: Battle, side: Side, key: UnitKey) -> tuple[int, bool]:
    """Dice each unit rolls and whether only the best counts (LHTR-TECH-heavy-bombers-combat)."""
    rules = battle.setup.rules
    unit = battle.setup.unit(key)
    if unit.has("bomber") and "heavy_bombers" in battle.setup.techs(side, key):
        if side == "defender" and not rules.heavy_bombers_on_defense:
            return 1, False
        best_of = rules.heavy_bomber_best_of and (side == "attacker" or rules.heavy_bombers_best_of_on_defense)
        return rules.heavy_bomber_dice, best_of
    return 1 + extra_dice(battle, side, key), False


def extra_dice(battle: Battle, side: Side, key: UnitKey) -> int:
    """More dice a unit rolls from tech bonuses with role "dice" (e.g. battleships firing twice in the first
    cycle)."""
    setup = battle.setup
    unit = setup.unit(key)
    techs = setup.techs(side, key)
    extra = 0
    for b in setup.rules.tech_bonuses:
        if b.role != "dice" or b.tech not in techs or not unit.has(b.tag):
            continue
        if (b.cycles is None or battle.state.cycle <= b.cycles) and (b.when is None or b.when(battle, side, key)):
            extra += b.delta
    return extra


def present(battle: Battle, side: Side) -> list[tuple[UnitKey, int]]:
    return [(k, n) for k, n in battle.state.units(side) if k.present]


def has_tag(battle: Battle, side: Side, tag: str, include_marked: bool = True) -> bool:
    """Whether `side` has a present unit with `tag` (marked casualties count until removed)."""
    cat = battle.setup.catalogue
    for k, _ in battle.state.units(side):
        if k.present and cat[k.type].has(tag) and (include_marked or not k.marked):
            return True
    return False


def is_sub(battle: Battle, key: UnitKey) -> bool:
    return battle.setup.unit(key).has("first_strike")


DETECTED = "detected"  # the battle flag of a sub the enemy destroyers detected (sub-detection rules)


def undetected(battle: Battle, key: UnitKey) -> bool:
    """A sub still undetected: only under sub-detection rules (`CombatRules.sub_detection`), in a sea battle's
    first cycle, without the `detected` flag."""
    return (
        battle.setup.rules.sub_detection is not None
        and battle.state.kind == "sea"
        and battle.state.cycle == 1
        and battle.setup.unit(key).has("submarine")
        and not key.has(DETECTED)
    )


def subs_fire_in_opening(battle: Battle, side: Side) -> bool:
    """LHTR: always; with `destroyer_moves_sub_fire_to_main_step` not while the enemy has a destroyer; without
    `defender_subs_fire_first` never for the defender."""
    rules = battle.setup.rules
    if side == "defender" and not rules.defender_subs_fire_first:
        return False
    return not (rules.destroyer_moves_sub_fire_to_main_step and has_tag(battle, other(side), "anti_submarine"))


def catalogue_order(catalogue: UnitCatalogue) -> Mapping[str, int]:
    """Each unit type's position in `catalogue` (`UnitCatalogue.order`), worked out once per catalogue."""
    found = _ORDERS.get(catalogue)
    if found is None:
        found = _ORDERS.put(catalogue, MappingProxyType({u: i for i, u in enumerate(catalogue.ids)}))
    return found


_ORDERS: ByIdentity[Mapping[str, int]] = ByIdentity(64)


def _groups(battle: Battle, side: Side, units: list[tuple[UnitKey, int]], target_for: object) -> list[DiceGroup]:
    counts: Counter[tuple[str, int, int, bool, Target]] = Counter()
    support = 0
    if side == "attacker" and battle.state.kind in ("land", "amphibious"):
        support = sum(n * supports(battle, side, k) for k, n in units)
    bonus = battle.setup.rules.artillery_support_bonus
    if len(units) > 1:
        order = catalogue_order(battle.setup.catalogue)
        units = sorted(units, key=lambda kn: (order[kn[0].type], kn[0].flags, kn[0].owner))
    for key, n in units:
        unit = battle.setup.unit(key)
        value, dice, best = _fire_value(battle, side, key)
        target = target_for(key)  # type: ignore[operator]
        if support and unit.has("artillery_supported"):
            paired = min(n, support)
            support -= paired
            if value + bonus > 0:
                counts[(key.type, value + bonus, dice, best, target)] += paired
            n -= paired
        if n and value > 0:
            counts[(key.type, value, dice, best, target)] += n
    return [
        DiceGroup(side, unit, n, value, target, "cycle", dice, best)
        for (unit, value, dice, best, target), n in counts.items()
    ]


def _fire_value(battle: Battle, side: Side, key: UnitKey) -> tuple[int, int, bool]:
    """`base_value` and `dice_per_unit` of a unit; kept per setup, side and unit key where no tech bonus of the
    battle is limited to some cycles or has a condition (`BattleSetup.conditional_values`): they then read the setup
    alone."""
    setup = battle.setup
    if setup.conditional_values:
        return base_value(battle, side, key), *dice_per_unit(battle, side, key)
    known: dict[tuple[Side, UnitKey], tuple[int, int, bool]] | None = setup.__dict__.get("_fire_values")
    if known is None:
        known = setup.__dict__["_fire_values"] = {}
    found = known.get((side, key))
    if found is None:
        found = known[side, key] = (base_value(battle, side, key), *dice_per_unit(battle, side, key))
    return found


def main_fire_groups(battle: Battle, side: Side) -> list[DiceGroup]:
    """Dice of `side` in the main fire step (LHTR-COMBAT-simultaneous-fire).

    Artillery support is counted from the artillery present now (LHTR-LANDCOMBAT-artillery-support).
    Submarines fire here only when the rules move their fire out of the opening step.
    Kept per setup and by all they read of the battle (the check for a stalemate at the start of a cycle and the
    fire itself both ask, and a side's units often stand unchanged from one cycle to the next): the kind, the
    side's units, whether its submarines fire in the opening step (in a sea battle: the enemy's destroyers), and
    the cycle where a bonus or the detection of submarines depends on it; not where a tech bonus has a
    condition (`TechBonus.when` may read anything).
    """
    setup, st = battle.setup, battle.state
    if setup.conditional_bonus:
        return _main_fire_groups(battle, side)
    own = st.units(side)
    kind = st.kind
    opening = subs_fire_in_opening(battle, side) if kind == "sea" else True
    cycle = st.cycle if setup.conditional_values or setup.rules.sub_detection is not None else 0
    key = (id(setup), id(own), side, kind, cycle, opening)
    known = _FIRE.get(key)
    # the entry holds the setup and units it was worked out for: the same objects (frozen values) alone match
    if known is not None and known[0] is setup and known[1] is own:
        return list(known[2])
    groups = _main_fire_groups(battle, side)
    if len(_FIRE) >= _FIRE_KEPT:
        _FIRE.clear()
    _FIRE[key] = (setup, own, tuple(groups))
    return groups


_FIRE: dict[tuple[int, int, str, str, int, bool], tuple[object, object, tuple[DiceGroup, ...]]] = {}
_FIRE_KEPT = 512


def _main_fire_groups(battle: Battle, side: Side) -> list[DiceGroup]:
    sea = battle.state.kind == "sea"
    subs_here = sea and not subs_fire_in_opening(battle, side)
    units = [
        (k, n)
        for k, n in present(battle, side)
        if not battle.setup.unit(k).has("not_casualty")
        and (not is_sub(battle, k) or (subs_here and not undetected(battle, k)) or not sea)
    ]
    own_destroyer = has_tag(battle, side, "anti_submarine")
    rules = battle.setup.rules

    def target_for(key: UnitKey) -> Target:
        unit = battle.setup.unit(key)
        if sea and unit.has("cannot_hit_air"):
            return SUB_TARGET
        if sea and unit.domain == "air" and not rules.air_hits_subs_without_destroyer and not own_destroyer:
            return AIR_NO_SUB_TARGET
        return ANY

    return _groups(battle, side, units, target_for)


def sub_fire_groups(battle: Battle, side: Side, which: Callable[[UnitKey], bool] | None = None) -> list[DiceGroup]:
    """Dice of `side`'s submarines (those `which` accepts) in opening fire (LHTR-NAVALCOMBAT-sub-surprise-strike);
    where an enemy destroyer moves their fire to the main step, only undetected subs fire here."""
    opening = subs_fire_in_opening(battle, side)
    units = [(k, n) for k, n in present(battle, side)
             if is_sub(battle, k) and (which is None or which(k)) and (opening or undetected(battle, k))]
    return _groups(battle, side, units, lambda _k: SUB_TARGET)
