"""Combat steps: a name, a condition and a function from a battle to its next state and events.

A step that rolls dice leaves a `RollRequest` in the state (a chance node); a step that needs a choice
leaves a pending decision. The engine resolves both; the calculator enumerates the chance outcomes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from aare.combat.battle_state import (
    ANY,
    CASUALTY_FLAGS,
    REPELLED,
    SIDES,
    BattleState,
    DiceGroup,
    RollRequest,
    Side,
    Target,
    UnitKey,
    make_stacks,
    other,
)
from aare.combat.casualties import eligible
from aare.combat.decisions import ChooseSubmerge, PressOrRetreat
from aare.combat.events import BattleEnded, BombingDamage, Event, Retreated, UnitsRemoved
from aare.combat.setup import Battle
from aare.combat.values import base_value, extra_dice, has_tag, main_fire_groups, present, sub_fire_groups

StepResult = tuple[BattleState, list[Event]]
START_OF_BATTLE = "start of battle"  # a `ChooseSubmerge` stage: before the first fire of the battle


def _always(_battle: Battle) -> bool:
    return True


@dataclass(frozen=True)
class Step:
    """One named step of a battle cycle. `cycles` = N limits it to cycles 1..N ("1st cycle only")."""

    name: str
    run: Callable[[Battle], StepResult]
    when: Callable[[Battle], bool] = _always
    cycles: int | None = None
    rule: str = ""
    # the standard step this one behaves as once no first-cycle rule applies (the calculator's fast paths
    # then treat it as that step)
    model: str = ""
    # a choice the calculator's policies always decline (e.g. a defender's retreat): the fast paths pass the
    # step over, and the explanation says so
    declined_by_calculator: str = ""

    def applies(self, battle: Battle) -> bool:
        if self.cycles is not None and battle.state.cycle > self.cycles:
            return False
        return self.when(battle)

    def describe(self) -> str:
        limit = ""
        if self.cycles == 1:
            limit = " — 1st cycle only"
        elif self.cycles is not None:
            limit = f" — cycles 1-{self.cycles} only"
        empty = " (empty: no rule fills it yet)" if self.run is _nothing else ""
        note = f" (calculator: {self.declined_by_calculator})" if self.declined_by_calculator else ""
        return f"{self.name}{limit}" + (f" [{self.rule}]" if self.rule else "") + empty + note


def _never(_battle: Battle) -> bool:
    return False


def _nothing(battle: Battle) -> StepResult:
    return battle.state, []


def anchor(name: str, rule: str = "", cycles: int | None = 1) -> Step:
    """An empty step: a named place in a sequence that a rule module fills later with `replace`."""
    return Step(name, _nothing, _never, cycles, rule)


def is_anchor(step: Step) -> bool:
    return step.run is _nothing


def passed_over(step: Step) -> bool:
    """A step the calculator's fast paths leave out: an empty anchor, or a choice its policies always decline."""
    return is_anchor(step) or bool(step.declined_by_calculator)


# ---------------------------------------------------------------- helpers


def combat_units(battle: Battle, side: Side) -> int:
    """Present units of `side` that can be casualties (infrastructure does not keep a battle going). The last
    stacks counted are kept, found again by their identity (the same frozen value)."""
    stacks = battle.state.units(side)
    cat = battle.setup.catalogue
    last = _LAST_COUNTED[side == "attacker"]
    if last is not None and last[0] is stacks and last[1] is cat:
        return last[2]
    found = sum(n for k, n in stacks if k.present and not cat[k.type].has("not_casualty"))
    _LAST_COUNTED[side == "attacker"] = (stacks, cat, found)
    return found


_LAST_COUNTED: list[tuple[object, object, int] | None] = [None, None]


def survivors(battle: Battle, side: Side) -> dict[str, int]:
    """Units of `side` still alive (present, submerged or retreated), infrastructure excluded."""
    out: dict[str, int] = {}
    for key, n in battle.state.units(side):
        if not battle.setup.unit(key).has("not_casualty") and not key.marked:
            out[key.type] = out.get(key.type, 0) + n
    return out


def can_capture(battle: Battle) -> bool:
    """LHTR-COMBAT-capture: a land territory falls only to a surviving attacking land unit."""
    st = battle.state
    if st.kind not in ("land", "amphibious") or st.result != "attacker":
        return False
    return any(
        battle.setup.unit(k).domain == "land" and not battle.setup.unit(k).has("not_casualty")
        for k, _ in present(battle, "attacker")
    )


def finish(battle: Battle, result: str) -> StepResult:
    st = battle.state.evolve(result=result, roll=None, pending=None, hits=())
    done = battle.with_state(st)
    return st, [
        BattleEnded(result, survivors(done, "attacker"), survivors(done, "defender"), can_capture(done), st.cycle)
    ]


def can_hit(battle: Battle, side: Side) -> bool:
    """Whether some die `side` would roll now could hit a present enemy unit."""
    groups = main_fire_groups(battle, side)
    if battle.state.kind == "sea":
        groups += sub_fire_groups(battle, side)
    enemy = [k for k, _ in present(battle, other(side))]
    cat = battle.setup.catalogue
    for g in groups:
        if g.hit_on > 0:
            for k in enemy:
                if eligible(cat, k, g.target):
                    return True
    return False


def defenceless(battle: Battle, key: UnitKey) -> bool:
    """A unit that can be a casualty but has neither attack nor defence value (e.g. a transport at 0/0)."""
    unit = battle.setup.unit(key)
    return not unit.has("not_casualty") and unit.attack <= 0 and unit.defense <= 0


def remove_lone_defenceless(battle: Battle) -> StepResult:
    """`CombatRules.lone_defenceless_removed`: a side left with only defenceless units, facing enemy units able
    to hit them, loses them without rolls."""
    st = battle.state
    for side in SIDES:
        mine = [(k, n) for k, n in present(battle, side) if not battle.setup.unit(k).has("not_casualty")]
        if not mine or not all(defenceless(battle, k) and not k.marked for k, _ in mine):
            continue
        if not combat_units(battle, other(side)) or not can_hit(battle, other(side)):
            continue
        gone: dict[str, int] = {}
        for key, n in mine:
            gone[key.type] = gone.get(key.type, 0) + n
        kept = [(k, n) for k, n in st.units(side) if (k, n) not in mine]
        st = st.with_units(side, make_stacks(kept))
        return st, [UnitsRemoved(side, gone, "defenceless units removed")]
    return st, []


def end_check(battle: Battle) -> StepResult:
    """LHTR-COMBAT-end-conditions: the battle ends when a side has no units left on the board (after a side
    left with only defenceless units is removed, where the rules say so)."""
    events: list[Event] = []
    if battle.setup.rules.lone_defenceless_removed:
        st, events = remove_lone_defenceless(battle)
        battle = battle.with_state(st)
    a, d = combat_units(battle, "attacker"), combat_units(battle, "defender")
    if a and d:
        return battle.state, events
    if not a and not d:
        st, more = finish(battle, "draw")
    elif not d:
        st, more = finish(battle, "attacker")
    else:
        out = any(not k.present for k, _ in battle.state.attacker)
        st, more = finish(battle, "retreat" if out else "defender")
    return st, events + more


def remove_marked(battle: Battle, flags: frozenset[str], step: str) -> StepResult:
    st = battle.state
    leaving = flags | {REPELLED}
    if not any(k.flags and leaving.intersection(k.flags) for k, _ in (*st.attacker, *st.defender)):
        return end_check(battle)  # nothing to remove
    events: list[Event] = []
    notes = set(st.notes)
    for side in SIDES:
        gone: dict[str, int] = {}
        gone_out: dict[str, int] = {}
        kept = []
        for key, n in st.units(side):
            if not key.flags:
                kept.append((key, n))
            elif key.has(REPELLED):  # a repelled unit leaves the battle at the removal of casualties
                kept.append((key.without(REPELLED).with_flag("retreated"), n))
                gone_out[key.type] = gone_out.get(key.type, 0) + n
            elif flags.intersection(key.flags):
                gone[key.type] = gone.get(key.type, 0) + n
                if battle.setup.unit(key).has("anti_submarine"):
                    notes.add(f"cycle:destroyer-lost:{side}")
            else:
                kept.append((key, n))
        if gone or gone_out:
            st = st.with_units(side, make_stacks(kept))
        if gone:
            events.append(UnitsRemoved(side, gone, step))
        if gone_out:
            events.append(Retreated(gone_out, None, side))
    st = st.evolve(notes=frozenset(notes))
    st2, more = end_check(battle.with_state(st))
    return st2, events + more


def roll(battle: Battle, step: str, groups: list[DiceGroup]) -> StepResult:
    groups = [g for g in groups if g.count > 0 and (g.hit_on > 0 or g.damage)]
    if not groups:
        return battle.state, []
    return battle.state.evolve(roll=RollRequest(step, tuple(groups))), []


# ---------------------------------------------------------------- land and shared steps


def _air(battle: Battle, side: Side) -> dict[str, int]:
    out: dict[str, int] = {}
    cat = battle.setup.catalogue
    for key, n in sorted(present(battle, side), key=lambda kn: cat.order(kn[0].type)):
        if battle.setup.unit(key).domain == "air":
            out[key.type] = out.get(key.type, 0) + n
    return out


def aa_value(battle: Battle, key: UnitKey) -> int:
    """What AA fire hits attacking aircraft `key` on: `aa_hit_on`, less `jet_aa_reduction` for fighters of a
    power with the jet tech (AARE-TECH-jet-aa-reduction)."""
    rules = battle.setup.rules
    jet = battle.setup.unit(key).has("fighter") and rules.jet_tech in battle.setup.techs("attacker", key)
    return rules.aa_hit_on + aa_bonus(battle) - (rules.jet_aa_reduction if jet else 0)


def aa_bonus(battle: Battle) -> int:
    """The best AA bonus of a defending unit: tech bonuses with role "aa" (e.g. an NA's ``na:<id>`` ability) on
    units tagged `tag` of a power with the tech."""
    setup = battle.setup
    return max((b.delta for b in setup.rules.tech_bonuses if b.role == "aa"
                for k, _ in present(battle, "defender")
                if setup.unit(k).has(b.tag) and b.tech in setup.techs("defender", k)
                and (b.when is None or b.when(battle, "defender", k))), default=0)


def aa_groups(
    battle: Battle, keep: Callable[[UnitKey], bool], value: Callable[[UnitKey], int], removal: str = "now",
    rule: str = "LHTR-AA-rolled-per-aircraft",
) -> list[DiceGroup]:
    """One die per attacking aircraft that `keep` accepts, grouped by type and by what it is hit on (`value`);
    a type whose owners are hit on different values is rolled per owner, and every type is with
    `CombatRules.aa_per_owner` (AARE-DDAY-aa-per-nation)."""
    cat = battle.setup.catalogue
    per_owner = battle.setup.rules.aa_per_owner
    per: dict[tuple[str, int, str], dict[str, int]] = {}
    for key, n in sorted(present(battle, "attacker"), key=lambda kn: (cat.order(kn[0].type), kn[0])):
        if battle.setup.unit(key).domain == "air" and keep(key):
            owners = per.setdefault((key.type, value(key), key.owner if per_owner else ""), {})
            owners[key.owner] = owners.get(key.owner, 0) + n
    split = {t for t, _, _ in per if sum(1 for u, _, _ in per if u == t) > 1}
    groups = []
    for (t, hit_on, _), owners in per.items():
        target = Target(types=(t,), rule=rule, owners=tuple(sorted(owners)) if t in split else ())
        groups.append(DiceGroup("defender", t, sum(owners.values()), hit_on, target, removal))
    return groups


def aa_fire(battle: Battle) -> StepResult:
    """LHTR-AA-battle-fire, LHTR-AA-one-gun-per-territory, LHTR-AA-rolled-per-aircraft: one die per
    attacking aircraft, grouped by type, hits on `aa_hit_on` (`aa_value`), removed at once."""
    bombing = battle.state.kind == "bombing"

    def keep(key: UnitKey) -> bool:
        return not bombing or battle.setup.unit(key).has("strategic_bomber")

    return roll(battle, "aa fire", aa_groups(battle, keep, lambda k: aa_value(battle, k)))


def aa_applies(battle: Battle) -> bool:
    return has_tag(battle, "defender", "aa") and bool(_air(battle, "attacker"))


def bombards(battle: Battle, key: UnitKey) -> bool:
    """Whether the ship `key` may bombard: a bombarding type, or a destroyer with the tech that lets it."""
    setup = battle.setup
    unit = setup.unit(key)
    return unit.has("bombard") or (
        unit.has("anti_submarine") and setup.rules.destroyer_bombard_tech in setup.techs("attacker", key)
    )


def bombard_groups(battle: Battle, target: Target = ANY, removal: str = "") -> list[DiceGroup]:
    """The bombarding ships' dice: each rolls once at its attack value (with its side's bonuses); hits on
    `target`, removed at `removal` (by default as `CombatRules.bombard_casualties_fire_back` says)."""
    setup = battle.setup
    removal = removal or ("cycle" if setup.rules.bombard_casualties_fire_back else "opening")
    groups = []
    for key, n in setup.bombard:
        if bombards(battle, key):
            dice = 1 + extra_dice(battle, "attacker", key)
            value = base_value(battle, "attacker", key)
            groups.append(DiceGroup("attacker", key.type, n, value, target, removal, dice_per_unit=dice))
    return groups


def bombardment(battle: Battle) -> StepResult:
    """LHTR-BOMBARD-who-and-when: each bombarding ship rolls once at its attack value (with its side's bonuses)."""
    return roll(battle, "bombardment", bombard_groups(battle))


def remove_opening(battle: Battle) -> StepResult:
    return remove_marked(battle, frozenset({"casualty:opening"}), "remove opening fire casualties")


def remove_casualties(battle: Battle) -> StepResult:
    return remove_marked(battle, CASUALTY_FLAGS, "remove casualties")


def attacker_fire(battle: Battle) -> StepResult:
    return roll(battle, "attacker fire", main_fire_groups(battle, "attacker"))


def defender_fire(battle: Battle) -> StepResult:
    return roll(battle, "defender fire", main_fire_groups(battle, "defender"))


def retreat_options(battle: Battle) -> PressOrRetreat | None:
    """LHTR-COMBAT-attacker-retreat, -retreat-destination, -air-retreat, LHTR-LANDCOMBAT-no-retreat-amphibious;
    the overland units' retreat from an assault with `CombatRules.partial_amphibious_retreat`."""
    units = present(battle, "attacker")
    if not units or not combat_units(battle, "defender"):
        return None
    air = [k for k, _ in units if battle.setup.unit(k).domain == "air"]
    rest = [k for k, _ in units if battle.setup.unit(k).domain != "air"]
    amphibious = any(k.has("amphibious") for k in rest)
    destinations = battle.setup.retreat_to
    overland = [k for k in rest if not k.has("amphibious")]
    if amphibious and overland and destinations and battle.setup.rules.partial_amphibious_retreat:
        return PressOrRetreat(destinations, True, bool(air), leaves_amphibious=True)
    can_all = not amphibious and (bool(destinations) or not rest)
    can_air = bool(air) and bool(rest) and amphibious and battle.setup.rules.amphibious_air_retreat
    if not can_all and not can_air:
        return None
    return PressOrRetreat(destinations if rest else (), can_all, can_air)


def defender_retreat_options(battle: Battle, rule: str) -> PressOrRetreat | None:
    """The defender's retreat after the attacker pressed on: every defending unit that may go, to one of
    `BattleSetup.defender_retreat_to` (none: no retreat)."""
    setup = battle.setup
    if not setup.defender_retreat_to or not combat_units(battle, "attacker"):
        return None
    able = [k for k, _ in present(battle, "defender")
            if not setup.unit(k).has("not_casualty") and k.type not in setup.defender_stays]
    if not able:
        return None
    return PressOrRetreat(setup.defender_retreat_to, True, False, side="defender", rule=rule)


def defender_retreat_step(rule: str) -> Callable[[Battle], StepResult]:
    """A step offering the defender a retreat (`defender_retreat_options`), when it may."""

    def run(battle: Battle) -> StepResult:
        decision = defender_retreat_options(battle, rule)
        if decision is None:
            return battle.state, []
        return battle.state.evolve(pending=decision), []

    return run


def press_or_retreat(battle: Battle) -> StepResult:
    decision = retreat_options(battle)
    if decision is None:
        return battle.state, []
    return battle.state.evolve(pending=decision), []


# ---------------------------------------------------------------- naval steps


def _sub_strike(side: Side) -> Callable[[Battle], StepResult]:
    def run(battle: Battle) -> StepResult:
        # LHTR-NAVALCOMBAT-destroyer-cancels-surprise: casualties stay and fire back if the side hit
        # has a destroyer in the battle.
        removal = "cycle" if has_tag(battle, other(side), "anti_submarine") else "opening"
        groups = [replace(g, removal=removal) for g in sub_fire_groups(battle, side)]
        return roll(battle, f"{side} sub first strike", groups)

    return run


def _has_subs(side: Side) -> Callable[[Battle], bool]:
    return lambda battle: has_tag(battle, side, "first_strike")


def submerge_available(battle: Battle, side: Side) -> int:
    """Subs of `side` that may submerge now: none while an enemy destroyer is present; for defending subs
    also none if an attacking destroyer was removed this cycle (LHTR-NAVALCOMBAT-defender-subs-submerge)."""
    enemy = other(side)
    blocked = battle.setup.rules.submerge_blocked_by_destroyer_lost
    lost = blocked and side == "defender" and f"cycle:destroyer-lost:{enemy}" in battle.state.notes
    if has_tag(battle, enemy, "anti_submarine") or lost:
        return 0
    return sum(n for k, n in present(battle, side) if battle.setup.unit(k).has("submerge") and not k.marked)


def submerge_step(side: Side, rule: str, stage: str = "end of cycle", withdraw: bool = False
                  ) -> Callable[[Battle], StepResult]:
    """A step offering `side`'s submarines to submerge (`ChooseSubmerge` at `stage`), when they may; with
    `withdraw` they leave for another sea zone: the attacker's retreat destinations or the defender's
    (`BattleSetup.retreat_to`, `defender_retreat_to`) are offered."""

    def run(battle: Battle) -> StepResult:
        rules = battle.setup.rules
        allowed = rules.attacker_subs_may_submerge if side == "attacker" else rules.defender_subs_may_submerge
        n = submerge_available(battle, side) if allowed else 0
        if not n or not combat_units(battle, other(side)):
            return battle.state, []
        setup = battle.setup
        places = (setup.retreat_to if side == "attacker" else setup.defender_retreat_to) if withdraw else ()
        return battle.state.evolve(pending=ChooseSubmerge(side, n, rule, stage, destinations=tuple(places))), []

    return run


# ---------------------------------------------------------------- strategic bombing


def bombing_damage(battle: Battle) -> StepResult:
    """LHTR-SBR-damage-roll, LHTR-TECH-heavy-bombers-sbr: each surviving bomber (not hit, not marked) rolls its
    damage; a rocket in the raid (a key flagged ``rocket``) rolls one die."""
    setup = battle.setup
    groups = []
    for key, n in present(battle, "attacker"):
        if key.marked:
            continue
        if key.has("rocket"):
            groups.append(DiceGroup("attacker", "rocket", n, 0, Target(), "now", 1, True, True))
            continue
        if not setup.unit(key).has("strategic_bomber"):
            continue
        heavy = "heavy_bombers" in setup.techs("attacker", key)
        dice = setup.rules.heavy_bomber_dice if heavy else 1
        bonus = setup.rules.heavy_bomber_sbr_bonus if heavy else 0
        best = setup.rules.heavy_bomber_sbr_best_of or not heavy
        groups.append(DiceGroup("attacker", key.type, n, 0, Target(), "now", dice, best, True, bonus))
    return roll(battle, "bombing damage", groups)


def bombing_result(battle: Battle) -> StepResult:
    """LHTR-SBR-turn-cap, LHTR-ECON-economic-damage-from-treasury: cap the damage, end the raid."""
    setup, st = battle.setup, battle.state
    caps = []
    if setup.rules.sbr_turn_cap and setup.territory_value is not None:
        caps.append(max(setup.territory_value - setup.already_lost, 0))
    if setup.treasury is not None:
        caps.append(setup.treasury)
    cap = min(caps) if caps else None
    damage = st.damage if cap is None else min(st.damage, cap)
    st = st.evolve(damage=damage)
    st2, events = finish(battle.with_state(st), "bombed")
    return st2, [BombingDamage((), battle.state.damage, damage, cap), *events]


# ---------------------------------------------------------------- the named steps


def is_amphibious(battle: Battle) -> bool:
    return battle.state.kind == "amphibious" and bool(battle.setup.bombard)


AA_FIRE = Step("aa fire", aa_fire, aa_applies, cycles=1, rule="LHTR-AA-battle-fire")
BOMBARDMENT = Step("bombardment", bombardment, is_amphibious, cycles=1, rule="LHTR-BOMBARD-who-and-when")
REMOVE_OPENING_LAND = Step(
    "remove opening fire casualties", remove_opening, cycles=1, rule="LHTR-BOMBARD-casualties-no-return-fire"
)
REMOVE_OPENING_SEA = Step("remove opening fire casualties", remove_opening, rule="LHTR-NAVALCOMBAT-sub-surprise-strike")
ATTACKER_SUBS = Step(
    "attacker sub first strike",
    _sub_strike("attacker"),
    _has_subs("attacker"),
    rule="LHTR-NAVALCOMBAT-sub-surprise-strike",
)
DEFENDER_SUBS = Step(
    "defender sub first strike",
    _sub_strike("defender"),
    _has_subs("defender"),
    rule="LHTR-NAVALCOMBAT-sub-surprise-strike",
)
ATTACKER_FIRE = Step("attacker fire", attacker_fire, rule="LHTR-COMBAT-simultaneous-fire")
DEFENDER_FIRE = Step("defender fire", defender_fire, rule="LHTR-COMBAT-simultaneous-fire")
REMOVE_CASUALTIES = Step("remove casualties", remove_casualties, rule="LHTR-COMBAT-end-conditions")
PRESS_OR_RETREAT = Step("press or retreat", press_or_retreat, rule="LHTR-COMBAT-attacker-retreat")
ATTACKER_SUBMERGE = Step(
    "attacker submerge",
    submerge_step("attacker", "LHTR-NAVALCOMBAT-attacker-subs-submerge"),
    rule="LHTR-NAVALCOMBAT-attacker-subs-submerge",
)
DEFENDER_SUBMERGE = Step(
    "defender submerge",
    submerge_step("defender", "LHTR-NAVALCOMBAT-defender-subs-submerge"),
    rule="LHTR-NAVALCOMBAT-defender-subs-submerge",
)
BOMBING_AA = Step("aa fire", aa_fire, aa_applies, cycles=1, rule="LHTR-AA-sbr-fire")
BOMBING_DAMAGE = Step("bombing damage", bombing_damage, rule="LHTR-SBR-damage-roll")
BOMBING_RESULT = Step("bombing result", bombing_result, rule="LHTR-SBR-turn-cap")
