"""AARHE infrastructure defence in battle (AARHE-ID-*): the IDs of a territory, built-in ones included, search for
attacking aircraft and attack those they detect, in the opening fire of every cycle of a land battle.

Each ID selects an enemy aircraft and rolls a search die (1 detects it); then each selects a detected aircraft
and rolls an attack die: 1 destroys it, 2 repels it (it leaves the battle). The selections are made for the
defender, spread over different aircraft, the most expensive first (docs/rulings.md): no other choice gives
the defender a better chance of each result.
"""

from __future__ import annotations

from aare.combat.battle_state import MARK, DiceGroup, Target, UnitKey
from aare.combat.setup import Battle
from aare.combat.steps import StepResult, roll
from aare.combat.values import present

R_REPLACES = "AARHE-ID-replaces-aa"
R_LAND_FIRE = "AARHE-ID-land-opening-fire"
R_NOT_CASUALTY = "AARHE-ID-not-casualty"
R_SEARCH = "AARHE-ID-search"
R_ATTACK = "AARHE-ID-attack"
R_STACKING = "AARHE-ID-stacking"
R_IMPLICIT = "AARHE-ID-implicit"

SPOTTED = "id-detected"  # the battle flag of an aircraft an ID detected this cycle
BUILT_IN = "built-in"  # the battle flag of an ID a complex or a victory city holds (not a piece)
PER_COMPLEX, PER_CITY = 3, 1  # AARHE-ID-implicit


def ids(battle: Battle) -> int:
    """The defender's deployed IDs in the battle, built-in ones included (AARHE-ID-stacking)."""
    return sum(n for k, n in present(battle, "defender") if battle.setup.unit(k).has("aa"))


def _aircraft(battle: Battle, flag: str = "") -> list[UnitKey]:
    """The attacker's aircraft one by one (those with `flag`, if given), the most expensive first."""
    setup = battle.setup
    keys = [k for k, n in present(battle, "attacker") for _ in range(n)
            if setup.unit(k).domain == "air" and not k.marked and (not flag or k.has(flag))]
    return sorted(keys, key=lambda k: (-setup.unit(k).cost, setup.catalogue.order(k.type), k))


def spread(n: int, targets: list[UnitKey]) -> dict[tuple[UnitKey, int], int]:
    """{(target, dice on it): how many such targets}: `n` dice dealt out over `targets` in order."""
    per = [n // len(targets) + (1 if i < n % len(targets) else 0) for i in range(len(targets))]
    out: dict[tuple[UnitKey, int], int] = {}
    for key, dice in zip(targets, per, strict=True):
        if dice:
            out[(key, dice)] = out.get((key, dice), 0) + 1
    return out


def _target(key: UnitKey, flags: tuple[str, ...] = (), exclude_flags: tuple[str, ...] = ()) -> Target:
    return Target(types=(key.type,), owners=(key.owner,), rule=R_ATTACK, flags=flags, exclude_flags=exclude_flags)


def search_applies(battle: Battle) -> bool:
    return ids(battle) > 0 and bool(_aircraft(battle))


def search(battle: Battle) -> StepResult:
    """AARHE-ID-search: a search die per ID; an aircraft searched by several IDs is detected if any rolls a 1."""
    groups = [DiceGroup("defender", key.type, count, 1, _target(key, exclude_flags=(SPOTTED,)), MARK + SPOTTED,
                        dice_per_unit=dice, best_of=True)
              for (key, dice), count in spread(ids(battle), _aircraft(battle)).items()]
    return roll(battle, "id search", groups)


def attack_applies(battle: Battle) -> bool:
    return ids(battle) > 0 and bool(_aircraft(battle, SPOTTED))


def attack(battle: Battle) -> StepResult:
    """AARHE-ID-attack: an attack die per ID on a detected aircraft; its best die decides: 1 destroys it (removed
    with the opening fire's casualties), 2 repels it."""
    groups = [DiceGroup("defender", key.type, count, 1, _target(key, flags=(SPOTTED,)), "opening",
                        dice_per_unit=dice, best_of=True, repel_on=2)
              for (key, dice), count in spread(ids(battle), _aircraft(battle, SPOTTED)).items()]
    return roll(battle, "id attack", groups)


def built_in(complexes: int, cities: int) -> int:
    """AARHE-ID-implicit: the IDs a territory holds without pieces."""
    return PER_COMPLEX * complexes + PER_CITY * cities
