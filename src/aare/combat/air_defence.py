"""AARe weapons development in battle: jet interceptors, Combined Arms battleship AA, escorts' partial AA
protection on raids (seed "WEAPONS DEVELOPMENT" 1, 4, 5). The steps read the battle's techs; the
`aare_tech` rule module puts them at the anchors of the AARe sequences.

Interceptors are the defending side's fighters of powers with jet fighters: in a raid (a bombing battle) the
fighters standing by in the territory, at sea the defending fighters in the zone. Escorts are the attacking
fighters of a raid, of a power with long range aircraft.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from aare.combat.battle_state import DiceGroup, Side, Target, UnitKey, make_stacks
from aare.combat.events import Event, Retreated, UnitsRemoved
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, aa_applies, aa_groups, aa_value, roll
from aare.combat.values import present

JETS = "jet_fighters"
LONG_RANGE = "long_range_aircraft"
COMBINED_ARMS = "combined_bombardment"
KAMIKAZE = "kamikaze"
ROCKET = "rocket"
INTERCEPT_ON = 1  # AARE-TECH-jet-intercept-roll
PROTECTION_LOST_ON = 3  # AARE-TECH-lra-escort-partial-aa-protection: 1-3 the bomber is lost
PROTECTION_DIE = "escort protection"


def _fighters(battle: Battle, side: Side, tech: str) -> int:
    """`side`'s present fighters of powers with `tech`."""
    setup = battle.setup
    return sum(
        n for k, n in present(battle, side)
        if setup.unit(k).has("fighter") and not k.marked and tech in setup.techs(side, k)
    )  # fmt: skip


def jets(battle: Battle) -> int:
    """Defending jet fighters: the interceptors (AARE-TECH-jet-intercept-roll)."""
    return _fighters(battle, "defender", JETS)


def escorts(battle: Battle) -> int:
    """Attacking long range fighters of a raid (AARE-TECH-lra-escort-neutralize)."""
    return _fighters(battle, "attacker", LONG_RANGE) if battle.state.kind == "bombing" else 0


def protected(battle: Battle) -> bool:
    """AARE-TECH-lra-escort-partial-aa-protection: more escorts than interceptors (none counts)."""
    return escorts(battle) > 0 and escorts(battle) > jets(battle)


def incoming(battle: Battle) -> list[UnitKey]:
    """What interceptors may hit: raiding bombers and rockets, or at sea Kamikaze aircraft
    (AARE-TECH-jet-intercept-attackers-only)."""
    setup = battle.setup
    out = []
    for key, _ in present(battle, "attacker"):
        if key.marked:
            continue
        unit = setup.unit(key)
        raid = battle.state.kind == "bombing" and (unit.has("strategic_bomber") or key.has(ROCKET))
        if raid or (battle.state.kind == "sea" and unit.domain == "air" and key.has(KAMIKAZE)):
            out.append(key)
    return out


def _intercepting(battle: Battle) -> int:
    return max(0, jets(battle) - escorts(battle))


def intercept(battle: Battle) -> StepResult:
    """AARE-TECH-jet-intercept-roll, -intercept-timing, AARE-TECH-lra-escort-neutralize: each interceptor not
    neutralised by an escort rolls one die; a 1 destroys an incoming bomber, rocket or Kamikaze at once. The
    attacker assigns the hits (AARE-TECH-jet-intercept-mixed-choice)."""
    keys = incoming(battle)
    if battle.state.kind == "sea":
        target = Target(flags=(KAMIKAZE,), rule="AARE-TECH-jet-intercept-roll")
    else:
        target = Target(types=tuple(sorted({k.type for k in keys})), rule="AARE-TECH-jet-intercept-mixed-choice")
    group = DiceGroup("defender", "fighter", _intercepting(battle), INTERCEPT_ON, target, "now")
    return roll(battle, "interceptors", [group])


def can_intercept(battle: Battle) -> bool:
    return _intercepting(battle) > 0 and bool(incoming(battle))


# ---------------------------------------------------------------- Combined Arms battleships


def ca_battleship(battle: Battle) -> bool:
    """A defending battleship of a power with Combined Arms (AARE-TECH-ca-bb-one-per-sz: one of them fires)."""
    setup = battle.setup
    return any(
        setup.unit(k).has("bombard") and setup.unit(k).domain == "sea" and not k.marked
        and COMBINED_ARMS in setup.techs("defender", k)
        for k, _ in present(battle, "defender")
    )  # fmt: skip


def _attacking_air(battle: Battle) -> list[tuple[UnitKey, int]]:
    return [(k, n) for k, n in present(battle, "attacker") if battle.setup.unit(k).domain == "air" and not k.marked]


def battleship_aa(battle: Battle) -> StepResult:
    """AARE-TECH-ca-bb-aa-attackers: one die per attacking aircraft at the AA value (AARE-TECH-jet-ca-bb-reduction
    for jets); Kamikazes, fighters and bombers are rolled apart and hits are removed at once."""
    cat = battle.setup.catalogue
    per: dict[tuple[str, bool, int, str], int] = {}
    owners_of: dict[tuple[str, bool], set[int]] = {}
    for key, n in sorted(_attacking_air(battle), key=lambda kn: (cat.order(kn[0].type), kn[0])):
        kami = key.has(KAMIKAZE)
        value = aa_value(battle, key)
        group = (key.type, kami, value, key.owner)
        per[group] = per.get(group, 0) + n
        owners_of.setdefault((key.type, kami), set()).add(value)
    groups = []
    for (unit, kami, value, owner), n in per.items():
        split = len(owners_of[(unit, kami)]) > 1
        target = Target(
            types=(unit,), rule="AARE-TECH-ca-bb-aa-attackers", owners=(owner,) if split else (),
            flags=(KAMIKAZE,) if kami else (), exclude_flags=() if kami else (KAMIKAZE,),
        )  # fmt: skip
        label = f"{unit} ({KAMIKAZE})" if kami else unit
        groups.append(DiceGroup("defender", label, n, value, target, "now"))
    return roll(battle, "battleship aa", _merge(groups))


def _merge(groups: list[DiceGroup]) -> list[DiceGroup]:
    """Groups with the same unit, value and target roll together."""
    out: dict[tuple[str, int, Target], DiceGroup] = {}
    for g in groups:
        key = (g.unit, g.hit_on, g.target)
        out[key] = replace(out[key], count=out[key].count + g.count) if key in out else g
    return list(out.values())


def battleship_aa_applies(battle: Battle) -> bool:
    return ca_battleship(battle) and bool(_attacking_air(battle))


# ---------------------------------------------------------------- raids


def raid_aa(battle: Battle) -> StepResult:
    """LHTR-AA-sbr-fire with AARe techs: one die per raiding bomber at the AA value (escorts are not fired on,
    AARE-TECH-lra-escort-aa-exempt). Under escort protection a hit bomber is marked, not removed: it does no
    damage and rolls to survive next (AARE-TECH-lra-escort-partial-aa-protection)."""

    def keep(key: UnitKey) -> bool:
        return battle.setup.unit(key).has("strategic_bomber")

    removal = "cycle" if protected(battle) else "now"
    return roll(battle, "aa fire", aa_groups(battle, keep, lambda k: aa_value(battle, k), removal, "LHTR-AA-sbr-fire"))


def _hit_bombers(battle: Battle) -> list[tuple[UnitKey, int]]:
    return [(k, n) for k, n in present(battle, "attacker") if k.marked and battle.setup.unit(k).has("strategic_bomber")]


def protection_roll_for(surplus_only: bool) -> Callable[[Battle], StepResult]:
    """AARE-TECH-lra-escort-partial-aa-protection: each bomber hit by AA rolls a die: 1-3 it is lost, 4-6 it
    survives and turns back (one lost-or-saved group per bomber, so the calculator enumerates them). With
    `surplus_only`, only as many hit bombers as escorts outnumber interceptors roll; the others are lost."""

    def run(battle: Battle) -> StepResult:
        total = sum(n for _, n in _hit_bombers(battle))
        if surplus_only:
            total = min(total, escorts(battle) - jets(battle))
        groups = [
            DiceGroup("attacker", f"{PROTECTION_DIE} {i}", 1, PROTECTION_LOST_ON, removal="now", lowest=True,
                      threshold=True)
            for i in range(1, total + 1)
        ]
        return roll(battle, PROTECTION_DIE, groups)

    return run


def protection_result(battle: Battle) -> StepResult:
    """Bombers whose protection die was 4-6 leave the raid (``retreated``: no damage, they land in non-combat
    move); the others are lost."""
    st = battle.state
    lows = [low for side, label, low in st.rolled if side == "attacker" and label.startswith(PROTECTION_DIE)]
    saved = sum(1 for low in lows if low > PROTECTION_LOST_ON)
    kept: list[tuple[UnitKey, int]] = []
    back: dict[str, int] = {}
    lost: dict[str, int] = {}
    for key, n in st.attacker:
        if not (key.marked and battle.setup.unit(key).has("strategic_bomber")):
            kept.append((key, n))
            continue
        k = min(n, saved)
        saved -= k
        kept.append((key.without("casualty", "casualty:opening").with_flag("retreated"), k))
        if k:
            back[key.type] = back.get(key.type, 0) + k
        if n - k:
            lost[key.type] = lost.get(key.type, 0) + n - k
    st = replace(st.with_units("attacker", make_stacks(kept)), rolled=())
    events: list[Event] = []
    if back:
        events.append(Retreated(back, None))
    if lost:
        events.append(UnitsRemoved("attacker", lost, PROTECTION_DIE))
    return st, events


def _has_hit_bombers(battle: Battle) -> bool:
    return bool(_hit_bombers(battle))


def _rolled_protection(battle: Battle) -> bool:
    return any(label.startswith(PROTECTION_DIE) for _, label, _ in battle.state.rolled)


def step(name: str, run: Callable[[Battle], StepResult], when: Callable[[Battle], bool], rule: str) -> Step:
    return Step(name, run, when, cycles=1, rule=rule)


INTERCEPTORS = step("interceptors", intercept, can_intercept, "AARE-TECH-jet-intercept-roll")
BATTLESHIP_AA = step("battleship aa", battleship_aa, battleship_aa_applies, "AARE-TECH-ca-bb-aa-attackers")
RAID_AA = step("aa fire", raid_aa, aa_applies, "LHTR-AA-sbr-fire")
PROTECTION_RULE = "AARE-TECH-lra-escort-partial-aa-protection"
ESCORT_PROTECTION_RESULT = step("escort protection result", protection_result, _rolled_protection, PROTECTION_RULE)


ESCORT_PROTECTION = {
    surplus: step(PROTECTION_DIE, protection_roll_for(surplus), _has_hit_bombers, PROTECTION_RULE)
    for surplus in (False, True)
}  # the protection roll for every hit bomber, or (True) for the surplus of escorts only
