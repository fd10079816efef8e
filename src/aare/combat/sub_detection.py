"""Submarine detection (AARe, Anniversary Enhanced): detection dice, undetected subs' opening fire and their early
submerge.

Every sub starts a battle undetected (no ``detected`` flag). In the first cycle, before opening fire, each
side's destroyers roll one die each, grouped by nation (a group's bonuses come from that nation's aircraft in
the battle and techs); a group reports its lowest die, a chance node the calculator enumerates. A die at or
under a sub's DD-to-detect value (`SubDetection`) detects that sub and every enemy sub of that value or more.

Undetected subs' opening-fire casualties are removed at the end of opening fire even with an enemy destroyer
present, and undetected subs may submerge right after opening fire; those that stay become detected. From
then on the ruleset's own sub rules apply. The steps read `CombatRules.sub_detection`; a rule module puts
`steps(detection)` into its sea sequence. Where a destroyer moves the enemy subs' fire to the main step
(`CombatRules.destroyer_moves_sub_fire_to_main_step`), undetected subs still fire in opening fire
(`aare.combat.values.undetected`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from aare.board.units import UnitType
from aare.combat.battle_state import SIDES, DiceGroup, Side, UnitKey, make_stacks, other
from aare.combat.decisions import ChooseSubmerge
from aare.combat.events import Event, SubsDetected
from aare.combat.rules import CombatRules, SubDetection
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, combat_units, roll
from aare.combat.values import DETECTED, has_tag, present, sub_fire_groups, undetected

Reasons = tuple[tuple[str, str], ...]  # (rule id, text) of each part of a value


@dataclass(frozen=True)
class DetectorGroup:
    """The destroyers (`SubDetection.detectors`) of one nation on `side`, rolling together with the same bonus."""

    side: Side
    owner: str
    count: int
    bonus: int
    reasons: Reasons
    noun: str = "destroyers"

    @property
    def label(self) -> str:
        return f"{self.owner} {self.noun}" if self.owner else self.noun


def is_detector(det: SubDetection, unit: UnitType) -> bool:
    """Whether `unit` rolls to detect: a tag of `det.detectors` or its domain named there; never a submarine."""
    return not unit.has("submarine") and any(unit.has(t) or t == f"domain:{unit.domain}" for t in det.detectors)


def rules_of(battle: Battle) -> SubDetection | None:
    return battle.setup.rules.sub_detection if battle.state.kind == "sea" else None


def is_detectable(battle: Battle, key: UnitKey) -> bool:
    return battle.setup.unit(key).has("submarine")


def hidden_subs(battle: Battle, side: Side) -> list[tuple[UnitKey, int]]:
    """`side`'s undetected subs on the battle board (every sub starts a battle undetected)."""
    return [(k, n) for k, n in present(battle, side) if undetected(battle, k)]


def detector_groups(battle: Battle, side: Side) -> list[DetectorGroup]:
    """`side`'s destroyers by nation, with each nation's bonus (each nation rolls apart)."""
    det = rules_of(battle)
    if det is None:
        return []
    setup = battle.setup
    units = present(battle, side)
    counts: dict[str, int] = {}
    for key, n in units:
        if is_detector(det, setup.unit(key)):
            counts[key.owner] = counts.get(key.owner, 0) + n
    groups = []
    for owner in sorted(counts):
        techs = setup.techs(side, UnitKey("destroyer", owner))
        reasons: list[tuple[str, str]] = []
        bonus = 0
        if (det.air_bonus or det.long_range_air_bonus) and any(
                setup.unit(k).domain == "air" and (det.air_of_side or k.owner == owner) for k, _ in units):
            long_range = det.long_range_tech in techs
            step = det.long_range_air_bonus if long_range else det.air_bonus
            bonus += step
            whose = "their side's" if det.air_of_side else "own"
            text = f"+{step} {whose} aircraft" + (" with long range aircraft" if long_range else "")
            reasons.append((det.long_range_rule if long_range else det.air_rule, text))
        if det.destroyer_tech in techs:
            bonus += det.destroyer_tech_bonus
            reasons.append((det.destroyer_tech_rule, f"+{det.destroyer_tech_bonus} {det.destroyer_tech_label}"))
        groups.append(DetectorGroup(side, owner, counts[owner], bonus, tuple(reasons), det.detector_label))
    return groups


def sub_penalty(battle: Battle, side: Side, key: UnitKey) -> tuple[int, Reasons]:
    """How much harder `side`'s sub `key` is to detect (its owner's `sub_tech`, the suicide flag)."""
    det = rules_of(battle)
    if det is None:
        return 0, ()
    penalty, reasons = 0, []
    if det.sub_tech in battle.setup.techs(side, key):
        penalty += det.sub_tech_penalty
        reasons.append((det.sub_tech_rule, f"-{det.sub_tech_penalty} {det.sub_tech_label}"))
    if det.suicide_flag and key.has(det.suicide_flag):
        penalty += det.suicide_penalty
        reasons.append((det.suicide_rule, f"-{det.suicide_penalty} {det.suicide_flag}"))
    return penalty, tuple(reasons)


def detect_value(battle: Battle, group: DetectorGroup, key: UnitKey) -> tuple[int, Reasons]:
    """The DD-to-detect value of enemy sub `key` against `group` (the modifiers summed), explained."""
    det = rules_of(battle)
    assert det is not None
    penalty, minus = sub_penalty(battle, other(group.side), key)
    reasons = ((det.base_rule, f"{det.base} base"), *group.reasons, *minus)
    return det.base + group.bonus - penalty, reasons


def explain_value(battle: Battle, group: DetectorGroup, key: UnitKey) -> str:
    value, reasons = detect_value(battle, group, key)
    parts = ", ".join(f"{text} [{rule}]" for rule, text in reasons)
    return f"{key.label()} vs {group.label}: {value} = {parts}"


# ---------------------------------------------------------------- steps


def detection_possible(battle: Battle) -> bool:
    return any(hidden_subs(battle, other(side)) and detector_groups(battle, side) for side in SIDES)


def detection_roll(battle: Battle) -> StepResult:
    """One die per destroyer facing enemy subs; each nation's group keeps its lowest die (capped just above the
    highest value it could detect)."""
    groups = []
    for side in SIDES:
        subs = hidden_subs(battle, other(side))
        if not subs:
            continue
        for group in detector_groups(battle, side):
            cap = min(max(detect_value(battle, group, k)[0] for k, _ in subs), 6)
            groups.append(DiceGroup(side, group.label, group.count, cap, removal="now", lowest=True))
    return roll(battle, "sub detection", groups)


def detection_result(battle: Battle) -> StepResult:
    """A lowest die at or under a sub's value detects it (and every enemy sub of that value or more); a side's
    dice only detect the other side's subs."""
    st = battle.state
    events: list[Event] = []
    for sub_side in SIDES:
        rollers = other(sub_side)
        lows = {label: low for side, label, low in st.rolled if side == rollers}
        groups = [g for g in detector_groups(battle, rollers) if g.label in lows]
        if not groups:
            continue
        found: dict[str, int] = {}
        hidden: dict[str, int] = {}
        values: list[str] = []
        stacks = []
        for key, n in st.units(sub_side):
            if not (key.present and undetected(battle, key)):
                stacks.append((key, n))
                continue
            values += [explain_value(battle, g, key) for g in groups]
            seen = any(lows[g.label] <= detect_value(battle, g, key)[0] for g in groups)
            tally = found if seen else hidden
            tally[key.type] = tally.get(key.type, 0) + n
            stacks.append((key.with_flag(DETECTED) if seen else key, n))
        st = st.with_units(sub_side, make_stacks(stacks))
        events.append(SubsDetected(sub_side, found, hidden, tuple(values)))
    return st.evolve(rolled=()), events


def _regular(battle: Battle, key: UnitKey) -> bool:
    det = battle.setup.rules.sub_detection
    return not (det is not None and det.suicide_flag and key.has(det.suicide_flag))


def sub_strike(side: Side) -> Callable[[Battle], StepResult]:
    """Regular (non-suicide) subs fire in opening fire; undetected subs' casualties go at the end of opening fire
    even with an enemy destroyer present; detected subs' casualties stay and fire back when the enemy has a
    destroyer (LHTR; where the destroyer moves their fire to the main step they fire there instead)."""

    def run(battle: Battle) -> StepResult:
        hidden = [
            replace(g, removal="opening")
            for g in sub_fire_groups(battle, side, lambda k: _regular(battle, k) and undetected(battle, k))
        ]
        removal = "cycle" if has_tag(battle, other(side), "anti_submarine") else "opening"
        seen = [
            replace(g, removal=removal)
            for g in sub_fire_groups(battle, side, lambda k: _regular(battle, k) and not undetected(battle, k))
        ]
        return roll(battle, f"{side} sub first strike", hidden + seen)

    return run


def _has_regular_subs(side: Side) -> Callable[[Battle], bool]:
    return lambda battle: any(
        battle.setup.unit(k).has("first_strike") and _regular(battle, k) for k, _ in present(battle, side)
    )


def undetected_submerge(side: Side) -> Callable[[Battle], StepResult]:
    """Right after opening fire each undetected sub may submerge, enemy destroyers or not; those that stay are
    detected from now on (flagged at once, or without `flag_stayers` by being past the first cycle: they fired
    in opening fire and do not fire again in the main step)."""

    def run(battle: Battle) -> StepResult:
        det = battle.setup.rules.sub_detection
        assert det is not None
        rule = det.submerge_rule
        exclude = tuple(f for f in (DETECTED, det.suicide_flag) if f)
        rules = battle.setup.rules
        allowed = rules.attacker_subs_may_submerge if side == "attacker" else rules.defender_subs_may_submerge
        free = sum(
            n
            for k, n in present(battle, side)
            if battle.setup.unit(k).has("submerge") and not k.marked and not any(k.has(f) for f in exclude)
        )
        mark = DETECTED if det.flag_stayers else ""
        if allowed and free and combat_units(battle, other(side)):
            decision = ChooseSubmerge(side, free, rule, "after opening fire", exclude, mark)
            return battle.state.evolve(pending=decision), []
        if not mark:
            return battle.state, []
        stacks = make_stacks(
            (k.with_flag(DETECTED) if k.present and undetected(battle, k) and _regular(battle, k) else k, n)
            for k, n in battle.state.units(side)
        )
        return battle.state.with_units(side, stacks), []

    return run


def _has_undetected(side: Side) -> Callable[[Battle], bool]:
    return lambda battle: any(_regular(battle, k) for k, _ in hidden_subs(battle, side))


class DetectionSteps(NamedTuple):
    """The steps of sub detection, tagged with the ruleset's rule ids."""

    detection: Step
    result: Step
    attacker_subs: Step
    defender_subs: Step
    attacker_submerge: Step
    defender_submerge: Step


def steps(det: SubDetection) -> DetectionSteps:
    """The detection roll and its result (first cycle, before opening fire), the subs' first strike (in place of
    the standard steps) and the undetected subs' submerge after opening fire."""
    return DetectionSteps(
        Step("sub detection", detection_roll, detection_possible, cycles=1, rule=det.roll_rule),
        Step("sub detection result", detection_result, lambda battle: bool(battle.state.rolled), cycles=1,
             rule=det.result_rule),
        Step("attacker sub first strike", sub_strike("attacker"), _has_regular_subs("attacker"),
             rule=det.strike_rule, model="attacker sub first strike"),
        Step("defender sub first strike", sub_strike("defender"), _has_regular_subs("defender"),
             rule=det.strike_rule, model="defender sub first strike"),
        Step("attacker undetected subs submerge", undetected_submerge("attacker"), _has_undetected("attacker"),
             cycles=1, rule=det.submerge_rule),
        Step("defender undetected subs submerge", undetected_submerge("defender"), _has_undetected("defender"),
             cycles=1, rule=det.submerge_rule),
    )


def with_detection(seq: Sequence, found: DetectionSteps) -> Sequence:
    """A sea sequence with LHTR's anchors opening with the detection roll and its result, the subs' first strike
    detection's, the undetected subs' submerge after the removal of opening-fire casualties."""
    first = seq.steps[0].name
    seq = seq.insert_before(first, found.detection).insert_before(first, found.result)
    seq = seq.replace("attacker sub first strike", found.attacker_subs)
    seq = seq.replace("defender sub first strike", found.defender_subs)
    seq = seq.insert_after("remove opening fire casualties", found.attacker_submerge)
    return seq.insert_after(found.attacker_submerge.name, found.defender_submerge)


def detection_hooks(det: SubDetection) -> dict[str, Callable[..., Any]]:
    """The `combat_rules` and `combat_sequence` hooks of a rule module whose sea battles open with `det`'s
    detection (`with_detection`)."""
    found = steps(det)

    def combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
        return replace(rules, sub_detection=det)

    def combat_sequence(seq: Sequence, kind: str, **_: Any) -> Sequence:
        return with_detection(seq, found) if kind == "sea" else seq

    return {"combat_rules": combat_rules, "combat_sequence": combat_sequence}
