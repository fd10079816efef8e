"""AARHE naval combat values and hit allocation: the classes of warships, which enemy units each class's hits go
to, the ships' anti-air dice, the wolf pack, and the selective fire of submarines and aircraft with its screens
(AARHE-NAVALHIT-*, AARHE-NAVALAA-rolls, AARHE-WOLFPACK-bonus, AARHE-SUBWAR-targeting, AARHE-SCREEN-*).

A screen is kept per ship type: a DD/CA screening a ship of its power flags itself ``screening:<type>``, and hits
aimed at a ship of that type go to those screeners first (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Callable

from aare.combat.battle_state import DiceGroup, Side, Target, UnitKey, hit_points, other
from aare.combat.casualties import eligible as eligible_unit
from aare.combat.decisions import declared_targets
from aare.combat.setup import Battle
from aare.combat.values import base_value, present

R_SUB_HITS = "AARHE-NAVALHIT-submarine"
R_CAPITAL_HITS = "AARHE-NAVALHIT-capital-ship"
R_ESCORT_HITS = "AARHE-NAVALHIT-escort"
R_TRANSPORT_HITS = "AARHE-NAVALHIT-transport"
R_AA = "AARHE-NAVALAA-rolls"
R_WOLFPACK = "AARHE-WOLFPACK-bonus"
R_SUB_TARGETS = "AARHE-SUBWAR-targeting"
R_SCREEN_AIR = "AARHE-SCREEN-air"
R_SCREEN_SUB = "AARHE-SCREEN-submarine"

SUB, TRANSPORT = ("submarine",), ("transport",)
CAPITAL = ("battleship", "carrier")  # BB/CV
ESCORT = ("destroyer", "cruiser")  # DD/CA
SURFACE = (*CAPITAL, *ESCORT, *TRANSPORT)
# AARHE-NAVALAA-rolls: anti-air dice of a ship, by its tag (the seed's unit table; SS and AP have none)
ANTI_AIR: dict[str, int] = {"battleship": 3, "carrier": 2, "destroyer": 2, "cruiser": 4}
AA_HIT_ON = 1
WOLFPACK_MARGIN = 1  # friendly SS must exceed enemy DD+CA by more than this

CAPITAL_HITS = Target(tags=SURFACE, first=(CAPITAL, ESCORT), rule=R_CAPITAL_HITS)
ESCORT_HITS = Target(tags=SURFACE, first=(ESCORT, CAPITAL), rule=R_ESCORT_HITS)
TRANSPORT_HITS = Target(tags=TRANSPORT, rule=R_TRANSPORT_HITS)
AIRCRAFT = Target(tags=("domain:air",), rule=R_AA)

SCREENING = "screening:"  # the battle flag of a DD/CA screening the ships of the type after it


def is_a(battle: Battle, key: UnitKey, tags: tuple[str, ...]) -> bool:
    unit = battle.setup.unit(key)
    return unit.domain == "sea" and any(unit.has(t) for t in tags)


def units_of(battle: Battle, side: Side, tags: tuple[str, ...], unmarked: bool = False) -> list[tuple[UnitKey, int]]:
    """`side`'s ships of a class (present; hit ones too unless `unmarked`)."""
    return [(k, n) for k, n in present(battle, side) if is_a(battle, k, tags) and not (unmarked and k.marked)]


def count(battle: Battle, side: Side, tags: tuple[str, ...]) -> int:
    return sum(n for _, n in units_of(battle, side, tags))


def reachable(battle: Battle, groups: list[DiceGroup]) -> list[DiceGroup]:
    """The groups whose hits some enemy unit present could take (no die is rolled at nothing)."""
    cat = battle.setup.catalogue
    return [g for g in groups
            if any(eligible_unit(cat, k, g.target) for k, _ in present(battle, other(g.side)))]


def anti_air(battle: Battle, key: UnitKey) -> int:
    unit = battle.setup.unit(key)
    return max((v for tag, v in ANTI_AIR.items() if unit.has(tag)), default=0) if unit.domain == "sea" else 0


def aa_groups(battle: Battle, side: Side) -> list[DiceGroup]:
    """AARHE-NAVALAA-rolls: each of `side`'s ships rolls its anti-air value in dice, each hitting an aircraft on 1
    (the aircraft's owner chooses which; removed with the air combat's casualties)."""
    dice: dict[str, int] = {}
    for key, n in present(battle, side):
        if anti_air(battle, key):
            dice[key.type] = dice.get(key.type, 0) + n * anti_air(battle, key)
    return reachable(battle, [DiceGroup(side, t, n, AA_HIT_ON, AIRCRAFT, "opening") for t, n in dice.items()])


def hits_of(battle: Battle, key: UnitKey) -> Target:
    """Where the hits of ship `key` go (AARHE-NAVALHIT-capital-ship, -escort, -transport)."""
    if is_a(battle, key, CAPITAL):
        return CAPITAL_HITS
    if is_a(battle, key, ESCORT):
        return ESCORT_HITS
    return TRANSPORT_HITS


def _aboard(battle: Battle, side: Side) -> int:
    """`side`'s aircraft in the battle that can be aboard its carriers."""
    return sum(n for k, n in present(battle, side) if battle.setup.unit(k).carrier_size and not k.marked)


def fire_groups(battle: Battle, side: Side, tags: tuple[str, ...], removal: str) -> list[DiceGroup]:
    """Dice of `side`'s ships of the classes `tags` at their combat values; a defending carrier's defence rises by
    one for each aircraft aboard (AARHE-UNIT-carrier: the side's aircraft that can land on carriers, dealt out
    over its carriers, as many as each holds)."""
    counts: dict[tuple[str, int, Target], int] = {}
    aboard = _aboard(battle, side)
    for key, n in units_of(battle, side, tags):
        values = [base_value(battle, side, key)] * n
        if side == "defender" and battle.setup.unit(key).carrier_capacity:  # AARHE-UNIT-carrier
            for i in range(n):
                on = min(aboard, battle.setup.unit(key).carrier_capacity)
                values[i] += on
                aboard -= on
        for value in values:
            if value > 0:
                k = (key.type, value, hits_of(battle, key))
                counts[k] = counts.get(k, 0) + 1
    return reachable(battle, [DiceGroup(side, t, n, v, target, removal) for (t, v, target), n in counts.items()])


def wolf_pack(battle: Battle, side: Side) -> bool:
    """AARHE-WOLFPACK-bonus: `side`'s submarines exceed the enemy's DD+CA by more than one."""
    return count(battle, side, SUB) > count(battle, other(side), ESCORT) + WOLFPACK_MARGIN


# ---------------------------------------------------------------- selective fire and screens


Shooter = tuple[UnitKey, int]  # a unit that selects its target, and the value it hits on


def sub_shooters(battle: Battle, side: Side) -> list[Shooter]:
    """`side`'s submarines one by one with their values (+1 in a wolf pack)."""
    bonus = 1 if wolf_pack(battle, side) else 0
    out = [(k, base_value(battle, side, k) + bonus) for k, n in units_of(battle, side, SUB) for _ in range(n)]
    return [s for s in out if s[1] > 0]


def air_shooters(battle: Battle, side: Side) -> list[Shooter]:
    """`side`'s aircraft other than bombers one by one with their combat values (air supremacy)."""
    out = [(k, base_value(battle, side, k)) for k, n in present(battle, side)
           if battle.setup.unit(k).domain == "air" and not battle.setup.unit(k).has("bomber") for _ in range(n)]
    return [s for s in out if s[1] > 0]


def aimable(battle: Battle, side: Side) -> list[tuple[UnitKey, int]]:
    """The enemy surface ships `side` may select (never submarines), not yet hit."""
    return units_of(battle, other(side), SURFACE, unmarked=True)


def eligible(battle: Battle, stacks: list[tuple[UnitKey, int]], room: Callable[[UnitKey, int], int]
             ) -> tuple[tuple[str, str, int], ...]:
    """``(owner, type, how often it may be named)`` of `stacks`, cheapest last."""
    per: dict[tuple[str, str], int] = {}
    for key, n in stacks:
        per[(key.owner, key.type)] = per.get((key.owner, key.type), 0) + room(key, n)
    cat = battle.setup.catalogue
    return tuple((o, t, h) for (o, t), h in sorted(per.items(), key=lambda e: (-cat[e[0][1]].cost, cat.order(e[0][1]),
                                                                                 e[0][0])))


def dealt(options: tuple[tuple[str, str, int], ...], weights: dict[tuple[str, str], int], n: int
          ) -> tuple[tuple[str, str], ...]:
    """`n` names dealt over `options` in order, each up to its weight a round, round after round."""
    out: list[tuple[str, str]] = []
    while len(out) < n and options:
        for owner, unit, _ in options:
            take = min(weights.get((owner, unit), 1), n - len(out))
            out += [(owner, unit)] * take
    return tuple(out)


def hit_room(battle: Battle) -> Callable[[UnitKey, int], int]:
    cat = battle.setup.catalogue
    return lambda key, n: n * (hit_points(cat, key) - key.damage)


def suggested_aims(battle: Battle, side: Side, shooters: int) -> tuple[tuple[str, str], ...]:
    """A sensible selection: the dearest ships first, each as often as it can be hit, then round again."""
    options = eligible(battle, aimable(battle, side), hit_room(battle))
    weights = {(o, t): h for o, t, h in options}
    return dealt(options, weights, shooters)


def screened_target(battle: Battle, side: Side, owner: str, unit: str, rule: str) -> Target:
    """Hits aimed at `owner`'s ship `unit` of `side`: on its screeners first (AARHE-SCREEN-air,
    AARHE-SCREEN-submarine)."""
    screen = SCREENING + unit
    if not any(k.has(screen) and k.owner == owner for k, _ in present(battle, side)):
        return Target(types=(unit,), owners=(owner,), rule=rule)
    flag = f"flag:{screen}"
    return Target(owners=(owner,), tags=(f"type:{unit}", flag), first=((flag,),), rule=rule)


def aimed_groups(battle: Battle, side: Side, shooters: list[Shooter], note: str, rule: str, removal: str
                 ) -> list[DiceGroup]:
    """One die per shooter at the target it selected (the side's answer under `note`), grouped by target."""
    aims = declared_targets(battle.state.notes, note) or ()
    counts: dict[tuple[str, int, Target], int] = {}
    for (key, value), (owner, unit) in zip(shooters, aims, strict=False):
        k = (key.type, value, screened_target(battle, other(side), owner, unit, rule))
        counts[k] = counts.get(k, 0) + 1
    return reachable(battle, [DiceGroup(side, t, n, v, target, removal) for (t, v, target), n in counts.items()])


def screenable(battle: Battle, side: Side) -> list[tuple[UnitKey, int]]:
    """`side`'s ships a DD/CA may screen: its surface ships other than DD/CA (docs/rulings.md)."""
    return [(k, n) for k, n in units_of(battle, side, (*CAPITAL, *TRANSPORT), unmarked=True)]
