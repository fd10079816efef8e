"""AARHE amphibious assaults (module `aarhe_amphibious`): the first cycle of a land battle whose attacking land
units came from the sea (AARHE-AMPHIB-*, AARHE-ID-amphibious-naval).

First cycle: the attacking armour and artillery landing from the sea stay aboard (they neither fire nor can be
hit); opening fire as in the land cycle; then the bombardment: the bombarding ships fire (at most one defending
land unit per 4 attacking infantry), the IDs search and attack those ships, and the casualties of both go;
the defending artillery fire at the attacking infantry, their casualties go; the first round: the attacking
infantry fire (one +1 per ship still offshore), the other defending land units fire, casualties go. Armour and
artillery come ashore if attacking infantry are left; otherwise they stay aboard and an attacker with no land
unit ashore retreats. Later cycles are the land cycle (`aarhe_combat`). See docs/rulings.md, "AARHE: amphibious
assaults".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from aare.combat import steps as s
from aare.combat.battle_state import CASUALTY_FLAGS, REPELLED, Target, UnitKey, make_stacks
from aare.combat.events import Retreated, UnitsMarked, UnitsRemoved
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, roll
from aare.combat.values import present
from aare.events import Event, UnitsChanged, UnitsLoaded
from aare.events import UnitsRemoved as MapUnitsRemoved
from aare.movement import flags
from aare.movement.battles import BattleSite
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe import combat_values as v
from aare.rulesets.aarhe import infrastructure as infra
from aare.rulesets.aarhe import land_retreats as retreats
from aare.rulesets.aarhe.combat import LAND
from aare.rulesets.aarhe.sea_transport import STAYED_ABOARD
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

R_SEQUENCE = "AARHE-AMPHIB-sequence"
R_CAP = "AARHE-AMPHIB-bombard-cap"
R_BONUS = "AARHE-AMPHIB-bombard-inf-bonus"
R_INFANTRY_FIRST = "AARHE-AMPHIB-infantry-first"
R_ART_ON_INF = "AARHE-AMPHIB-defending-art-on-inf"
R_OFFLOAD = "AARHE-AMPHIB-offload-condition"
R_NO_RETURN = "AARHE-AMPHIB-bombard-casualties-no-return-fire"
R_ART_EARLY = "AARHE-AMPHIB-defending-art-early"

ABOARD = "aboard"  # the battle flag of armour and artillery still on their transports (out of the battle)
INFANTRY = "infantry"
PER_CASUALTY = 4  # attacking infantry per bombardment casualty
OPENING = frozenset({"casualty:opening"})
# a note: the ships' fates are recorded (in notes "offshore:<fate>:<owner>:<type>:<damage>=<count>")
SHIPS_DONE = "offshore:done"
ABOARD_LOST = OptionSpec(
    key="aboard_lost_after_failed_landing", type=bool, default=False,
    help="Armour and artillery left aboard by a failed landing are lost (off: they stay on their transports and go "
    "ashore in their owner's next turn)", rule_id=R_OFFLOAD,
)


# ---------------------------------------------------------------- the battle


def _aboard(battle: Battle, key: UnitKey) -> bool:
    unit = battle.setup.unit(key)
    return key.has("amphibious") and unit.domain == "land" and not unit.has(INFANTRY) \
        and not unit.has("not_casualty")


def stay_aboard(battle: Battle) -> StepResult:
    """AARHE-AMPHIB-infantry-first: armour and artillery landing from the sea are still on the transports."""
    st = battle.state
    kept, held = [], Counter[str]()
    for key, n in st.attacker:
        if key.present and _aboard(battle, key):
            key = key.with_flag(ABOARD).with_flag("retreated")
            held[key.type] += n
        kept.append((key, n))
    return st.evolve(attacker=make_stacks(kept)), [UnitsMarked("attacker", dict(held), ABOARD)]


def _has_aboard(battle: Battle) -> bool:
    return any(_aboard(battle, k) for k, _ in present(battle, "attacker"))


def infantry(battle: Battle) -> int:
    """The attacking infantry ashore and not hit."""
    return sum(n for k, n in present(battle, "attacker") if battle.setup.unit(k).has(INFANTRY) and not k.marked)


def _ships(battle: Battle) -> list[tuple[UnitKey, int]]:
    return [(k, n) for k, n in battle.setup.bombard if s.bombards(battle, k)]


def coastal_bombardment(battle: Battle) -> StepResult:
    """The bombarding ships join the battle offshore (`infra.OFFSHORE`, each named by `infra.SHIP`) and each rolls
    once; its hits go to defending land units, at most one per 4 attacking infantry (AARHE-AMPHIB-bombard-cap),
    removed at the end of the bombardment (AARHE-AMPHIB-bombard-casualties-no-return-fire)."""
    st = battle.state
    ships = [(k.with_flag(infra.OFFSHORE).with_flag(f"{infra.SHIP}{i}"), 1)
             for i, k in enumerate(k for k, n in _ships(battle) for _ in range(n))]
    battle = battle.with_state(st.evolve(attacker=make_stacks((*st.attacker, *ships))))
    most = infantry(battle) // PER_CASUALTY
    target = Target(exclude_domains=("air", "sea"), rule=R_CAP, most=most)
    return roll(battle, "coastal bombardment", s.bombard_groups(battle, target, "opening") if most else [])


def ship_notes(battle: Battle) -> list[tuple[str, str, str, int, int]]:
    """The ships' fates after the bombardment: (fate, owner, type, damage, count), fate "stays" or "repelled"
    (those sunk are not listed)."""
    out = []
    for note in battle.state.notes:
        if note.startswith("offshore:") and note != SHIPS_DONE:
            head, n = note.rsplit("=", 1)
            _, fate, owner, unit, damage = head.split(":")
            out.append((fate, owner, unit, int(damage), int(n)))
    return sorted(out)


def offshore(battle: Battle) -> int:
    """Ships still offshore after the bombardment (neither sunk nor repelled)."""
    return sum(n for fate, *_, n in ship_notes(battle) if fate == "stays")


def remove_bombardment(battle: Battle) -> StepResult:
    """The bombardment's casualties go: defending land units hit by the ships, ships sunk by the IDs; repelled
    ships leave. The ships' part ends here: their fates are kept in the battle's notes."""
    st = battle.state
    kept, sunk, out = [], Counter[str](), Counter[str]()
    fates: Counter[str] = Counter()
    for key, n in st.attacker:
        if not key.has(infra.OFFSHORE):
            kept.append((key, n))
        elif CASUALTY_FLAGS.intersection(key.flags):
            sunk[key.type] += n
        else:
            fate = "repelled" if key.has(REPELLED) else "stays"
            if fate == "repelled":
                out[key.type] += n
            fates[f"offshore:{fate}:{key.owner}:{key.type}:{key.damage}"] += n
    notes = st.notes | {SHIPS_DONE} | {f"{k}={n}" for k, n in fates.items()}
    battle = battle.with_state(st.evolve(attacker=make_stacks(kept), notes=frozenset(notes)))
    step = "remove bombardment casualties"
    events: list[Any] = [UnitsRemoved("attacker", dict(sunk), step)] if sunk else []
    events += [Retreated(dict(out), None, "attacker")] if out else []
    st2, more = s.remove_marked(battle, OPENING, step)
    return st2, events + more


def _artillery(unit: Any) -> bool:
    return bool(unit.has("artillery"))


def defending_artillery(battle: Battle) -> StepResult:
    """AARHE-AMPHIB-defending-art-on-inf, -defending-art-early: the defending artillery fire, their hits on the
    attacking infantry, removed before the first round."""
    target = Target(tags=(INFANTRY,), rule=R_ART_ON_INF)
    return roll(battle, "defending artillery fire", v.land_groups(battle, "defender", _artillery, target, "opening"))


def _has_artillery(battle: Battle) -> bool:
    return any(_artillery(battle.setup.unit(k)) for k, _ in present(battle, "defender"))


def landing_fire(battle: Battle) -> StepResult:
    """AARHE-AMPHIB-infantry-first, AARHE-AMPHIB-bombard-inf-bonus: the attacking land units ashore fire (the
    infantry; armour and artillery only if they came overland), one infantry +1 per ship still offshore."""
    lifts = ((INFANTRY, offshore(battle)),)
    return roll(battle, "attacking infantry fire", v.land_groups(battle, "attacker", lifts=lifts))


def other_defenders(battle: Battle) -> StepResult:
    """AARHE-AMPHIB-defending-art-early: the defending land units but the artillery fire in the first round."""
    groups = v.land_groups(battle, "defender", lambda unit: not _artillery(unit))
    return roll(battle, "other defending land fire", groups)


def offload(battle: Battle) -> StepResult:
    """AARHE-AMPHIB-offload-condition: with attacking infantry left, the armour and artillery aboard come ashore;
    otherwise they stay aboard, and an attacker with no land unit ashore must retreat."""
    st = battle.state
    if infantry(battle):
        landed = [(k.without(ABOARD, "retreated") if k.has(ABOARD) else k, n) for k, n in st.attacker]
        return st.evolve(attacker=make_stacks(landed)), []
    ashore = any(battle.setup.unit(k).domain == "land" and not battle.setup.unit(k).has("not_casualty")
                 for k, _ in present(battle, "attacker"))
    return (st, []) if ashore else retreats.attacker_withdraws(battle)


def _later(battle: Battle) -> bool:
    return battle.state.cycle > 1


STAY_ABOARD = Step("armour and artillery stay aboard", stay_aboard, _has_aboard, cycles=1, rule=R_INFANTRY_FIRST)
COASTAL_BOMBARDMENT = Step("coastal bombardment", coastal_bombardment, lambda b: bool(_ships(b)), cycles=1,
                           rule=R_CAP)
ID_COASTAL_SEARCH = Step("id coastal search", infra.coastal_search, infra.coastal_search_applies, cycles=1,
                         rule=infra.R_NAVAL)
ID_COASTAL_ATTACK = Step("id coastal attack", infra.coastal_attack, infra.coastal_attack_applies, cycles=1,
                         rule=infra.R_COASTAL)
REMOVE_BOMBARDMENT = Step("remove bombardment casualties", remove_bombardment, lambda b: bool(_ships(b)), cycles=1,
                          rule=R_NO_RETURN)
DEFENDING_ARTILLERY = Step("defending artillery fire", defending_artillery, _has_artillery, cycles=1,
                           rule=R_ART_ON_INF)
REMOVE_ARTILLERY = Step("remove artillery casualties",
                        lambda b: s.remove_marked(b, OPENING, "remove artillery casualties"), _has_artillery,
                        cycles=1, rule=R_ART_EARLY)
LANDING_FIRE = Step("attacking infantry fire", landing_fire, cycles=1, rule=R_INFANTRY_FIRST)
OTHER_DEFENDERS = Step("other defending land fire", other_defenders, cycles=1, rule=R_ART_EARLY)
OFFLOAD = Step("offload", offload, cycles=1, rule=R_OFFLOAD)

AMPHIBIOUS = Sequence("amphibious", (
    STAY_ABOARD,
    *(LAND[name] for name in ("jets", "id search", "id attack", "attacker air targets", "defender air targets",
                              "attacker jets skip the dogfight", "defender jets skip the dogfight",
                              "attacker air fire", "defender air fire", "remove opening fire casualties")),
    COASTAL_BOMBARDMENT, ID_COASTAL_SEARCH, ID_COASTAL_ATTACK, REMOVE_BOMBARDMENT,
    DEFENDING_ARTILLERY, REMOVE_ARTILLERY, LANDING_FIRE, OTHER_DEFENDERS,
    replace(LAND["attacker land fire"], when=_later), replace(LAND["defender land fire"], when=_later),
    LAND["remove casualties"], OFFLOAD, *retreats.STEPS,
))


def _sequence(sequence: Sequence, kind: str, **_: Any) -> Sequence:
    return AMPHIBIOUS if kind == "amphibious" else sequence


# ---------------------------------------------------------------- the outcome on the map


def _bombarded(state: GameState, site: BattleSite, owner: str, unit: str) -> list[tuple[str, Stack]]:
    """The ships (sea zone, one ship) of `owner` and type `unit` that bombarded in `site`, the least damaged
    first."""
    zones = sorted({z for z, _ in site.bombard})
    ships = [(z, st.with_count(1)) for z in zones for st in state.stacks(z) for _ in range(st.count)
             if st.owner == owner and st.unit == unit and flags.has(st, "turn:bombarded")]
    return sorted(ships, key=lambda zs: zs[1].damage)


def _ship_events(state: GameState, site: BattleSite, battle: Battle) -> list[Event]:
    """The ships the IDs sank or damaged (AARHE-AMPHIB-id-coastal-fire)."""
    if SHIPS_DONE not in battle.state.notes:
        return []
    alive: dict[tuple[str, str], list[int]] = {}
    for _, owner, unit, damage, n in ship_notes(battle):
        alive.setdefault((owner, unit), []).extend([damage] * n)
    events: list[Event] = []
    fought = Counter[tuple[str, str]]()
    for key, n in _ships(battle):
        fought[(key.owner, key.type)] += n
    for (owner, unit), n in sorted(fought.items()):
        left = sorted(alive.get((owner, unit), []))
        for zone, ship in _bombarded(state, site, owner, unit)[:n]:
            found = next((d for d in left if d >= ship.damage), None)
            if found is None:
                events.append(MapUnitsRemoved(zone, ship, infra.R_COASTAL))
                continue
            damage = found
            left.remove(damage)
            if damage != ship.damage:
                events.append(UnitsChanged(zone, ship, replace(ship, damage=damage)))
    return events


def _reload(state: GameState, site: BattleSite, battle: Battle, lost: bool) -> list[Event]:
    """AARHE-AMPHIB-offload-condition: armour and artillery that never came ashore (no attacking infantry was
    left) go back aboard the transports that brought them, which keep them (or, with `ABOARD_LOST`, they are
    lost)."""
    held = Counter[tuple[str, str]]()
    for key, n in battle.state.attacker:
        if key.has(ABOARD):
            held[(key.owner, key.type)] += n
    if not held or infantry(battle):
        return []
    events: list[Event] = []
    for stack in state.stacks(site.space):
        zone = flags.value(stack, flags.AMPHIBIOUS)
        take = min(stack.count, held[(stack.owner, stack.unit)])
        if zone is None or not take:
            continue
        held[(stack.owner, stack.unit)] -= take
        if lost:
            events.append(MapUnitsRemoved(site.space, stack.with_count(take), R_OFFLOAD))
            continue
        for _ in range(take):
            boats = [b for b in state.stacks(zone) if flags.value(b, flags.UNLOADED) == site.space
                     and (stack.owner, stack.unit) in flags.cargo_list(b, flags.DROPPED)]
            if not boats:
                break
            before = boats[0].with_count(1)
            dropped = list(flags.cargo_list(before, flags.DROPPED))
            dropped.remove((stack.owner, stack.unit))
            after = flags.with_cargo(before, (*flags.cargo(before), (stack.owner, stack.unit)))
            after = flags.with_flags(flags.with_cargo_list(after, flags.DROPPED, dropped), [STAYED_ABOARD])
            event = UnitsLoaded(site.space, stack.with_count(1), zone, before, after)
            events.append(event)
            state = event.apply(state)
    return events


def _outcome(events: list[Event], ruleset: Any, state: GameState, site: BattleSite, battle: Battle, **_: Any
             ) -> list[Event]:
    if site.kind != "amphibious":
        return events
    lost = bool(ruleset.options.get(ABOARD_LOST.key, False))
    mine = _ship_events(state, site, battle)
    for event in mine:
        state = event.apply(state)
    return [*events, *mine, *_reload(state, site, battle, lost)]


AARHE_AMPHIBIOUS = register_module(
    RuleModule(
        id="aarhe_amphibious",
        title="AARHE amphibious assaults: infantry first, bombardment and coastal defence, the landing's end",
        rule_ids=(R_SEQUENCE, R_CAP, R_BONUS, R_INFANTRY_FIRST, R_ART_ON_INF, R_OFFLOAD, R_NO_RETURN, R_ART_EARLY,
                  infra.R_COASTAL, infra.R_NAVAL),
        hooks={"combat_sequence": _sequence, "battle_outcome": _outcome},
        options=(ABOARD_LOST,),
    )
)
