"""AARHE infrastructure defence in battle (AARHE-ID-*): the IDs of a territory, built-in ones included, search for
attacking aircraft and attack those they detect, in the opening fire of every cycle of a land battle.

Each ID selects an enemy aircraft and rolls a search die (1 detects it); then each selects a detected aircraft
and rolls an attack die: 1 destroys it, 2 repels it (it leaves the battle). The selections are made for the
defender, spread over different aircraft, the most expensive first (docs/rulings.md): no other choice gives
the defender a better chance of each result. In the first cycle of an amphibious assault the IDs run the same
procedure against the bombarding ships (`coastal_search`, `coastal_attack`; AARHE-ID-amphibious-naval).
"""

from __future__ import annotations

from collections.abc import Callable

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
R_NAVAL = "AARHE-ID-amphibious-naval"
R_COASTAL = "AARHE-AMPHIB-id-coastal-fire"
R_RADAR = "AARHE-TECH-advanced-radar"
RADAR = "advanced_radar"  # the technology (aarhe_research)

SPOTTED = "id-detected"  # the battle flag of an aircraft an ID detected this cycle
OFFSHORE = "offshore"  # the battle flag of a ship of an amphibious assault, in the battle while it bombards
SHIP = "ship:"  # with a number: the battle flag naming one such ship (the hits of the IDs on it go to it alone)
BUILT_IN = "built-in"  # the battle flag of an ID a complex or a victory city holds (not a piece)
PER_COMPLEX, PER_CITY = 3, 1  # AARHE-ID-implicit


def ids(battle: Battle) -> int:
    """The defender's deployed IDs in the battle, built-in ones included (AARHE-ID-stacking)."""
    return sum(n for k, n in present(battle, "defender") if battle.setup.unit(k).has("aa"))


Pick = Callable[[Battle, UnitKey], bool]


def _aircraft_key(battle: Battle, key: UnitKey) -> bool:
    return battle.setup.unit(key).domain == "air"


def _offshore_key(_battle: Battle, key: UnitKey) -> bool:
    return key.has(OFFSHORE)


def _targets(battle: Battle, pick: Pick, flag: str = "") -> list[UnitKey]:
    """The attacker's units `pick` accepts one by one (those with `flag`, if given), the most expensive first."""
    setup = battle.setup
    keys = [k for k, n in present(battle, "attacker") for _ in range(n)
            if pick(battle, k) and not k.marked and (not flag or k.has(flag))]
    return sorted(keys, key=lambda k: (-setup.unit(k).cost, setup.catalogue.order(k.type), k))


def _aircraft(battle: Battle, flag: str = "") -> list[UnitKey]:
    """The attacker's aircraft one by one (those with `flag`, if given), the most expensive first."""
    return _targets(battle, _aircraft_key, flag)


def _spread(battle: Battle, targets: list[UnitKey]) -> dict[tuple[UnitKey, int], int]:
    """{(target, IDs on it): how many such targets}: the IDs dealt out over `targets` in order."""
    return spread(ids(battle), targets)


def spread(n: int, targets: list[UnitKey]) -> dict[tuple[UnitKey, int], int]:
    """{(target, dice on it): how many such targets}: `n` dice dealt out over `targets` in order."""
    per = [n // len(targets) + (1 if i < n % len(targets) else 0) for i in range(len(targets))]
    out: dict[tuple[UnitKey, int], int] = {}
    for key, dice in zip(targets, per, strict=True):
        if dice:
            out[(key, dice)] = out.get((key, dice), 0) + 1
    return out


def _target(key: UnitKey, rule: str, detected: bool) -> Target:
    """Where the hits of the IDs on `key` go: that very ship (`SHIP`), else an aircraft of its kind (detected, for
    an attack; not yet, for a search)."""
    own = tuple(f for f in key.flags if f.startswith(SHIP))
    if own:
        return Target(types=(key.type,), owners=(key.owner,), rule=rule, flags=own, one_each=True)
    flags, exclude = ((SPOTTED,), ()) if detected else ((), (SPOTTED,))
    return Target(types=(key.type,), owners=(key.owner,), rule=rule, flags=flags, exclude_flags=exclude,
                  one_each=True)


def radar(battle: Battle) -> int:
    """+1 to the IDs' search rolls when their owner has Advanced Radar (AARHE-TECH-advanced-radar)."""
    return 1 if any(RADAR in battle.setup.techs("defender", k) for k, _ in present(battle, "defender")
                    if battle.setup.unit(k).has("aa")) else 0


def _search(battle: Battle, step: str, pick: Pick, rule: str) -> StepResult:
    search_on = 1 + radar(battle)
    groups = [DiceGroup("defender", key.type, count, search_on, _target(key, R_RADAR if search_on > 1 else rule, False),
                        MARK + SPOTTED, dice_per_unit=dice, best_of=True)
              for (key, dice), count in _spread(battle, _targets(battle, pick)).items()]
    return roll(battle, step, groups)


def _attack(battle: Battle, step: str, pick: Pick, rule: str) -> StepResult:
    groups = [DiceGroup("defender", key.type, count, 1, _target(key, rule, True), "opening",
                        dice_per_unit=dice, best_of=True, repel_on=2)
              for (key, dice), count in _spread(battle, _targets(battle, pick, SPOTTED)).items()]
    return roll(battle, step, groups)


def search_applies(battle: Battle) -> bool:
    return ids(battle) > 0 and bool(_aircraft(battle))


def search(battle: Battle) -> StepResult:
    """AARHE-ID-search: a search die per ID; an aircraft searched by several IDs is detected if any rolls a 1."""
    return _search(battle, "id search", _aircraft_key, R_ATTACK)


def attack_applies(battle: Battle) -> bool:
    return ids(battle) > 0 and bool(_aircraft(battle, SPOTTED))


def attack(battle: Battle) -> StepResult:
    """AARHE-ID-attack: an attack die per ID on a detected aircraft; its best die decides: 1 destroys it (removed
    with the opening fire's casualties), 2 repels it."""
    return _attack(battle, "id attack", _aircraft_key, R_ATTACK)


def coastal_search_applies(battle: Battle) -> bool:
    return ids(battle) > 0 and bool(_targets(battle, _offshore_key))


def coastal_search(battle: Battle) -> StepResult:
    """AARHE-AMPHIB-id-coastal-fire, AARHE-ID-amphibious-naval: the IDs search the ships of an amphibious
    assault (`OFFSHORE`) as they search aircraft."""
    return _search(battle, "id coastal search", _offshore_key, R_COASTAL)


def coastal_attack_applies(battle: Battle) -> bool:
    return ids(battle) > 0 and bool(_targets(battle, _offshore_key, SPOTTED))


def coastal_attack(battle: Battle) -> StepResult:
    """The IDs attack the ships they detected: 1 hits the ship (a battleship's first hit damages it), 2 repels
    it (it takes no further part)."""
    return _attack(battle, "id coastal attack", _offshore_key, R_COASTAL)


def built_in(complexes: int, cities: int) -> int:
    """AARHE-ID-implicit: the IDs a territory holds without pieces."""
    return PER_COMPLEX * complexes + PER_CITY * cities
