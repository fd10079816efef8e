"""The step engine: start a battle, advance it with dice until it ends or needs a decision, decide.

battle = start_battle("3 infantry, 1 armour", "2 infantry", kind="land", units=catalogue)
battle, events = advance(battle, SeededDice(1))
while battle.pending is not None:
    battle = decide(battle, answer)
    battle, more = advance(battle, dice)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from aare.board.notation import parse_units
from aare.board.units import UnitCatalogue
from aare.combat import casualties as cas
from aare.combat.battle_state import (
    EXTRA_HIT,
    MARK,
    REPELLED,
    SIDES,
    BattleState,
    HitBatch,
    RollRequest,
    Side,
    Stacks,
    UnitKey,
    add_units,
    hit_points,
    joined,
    make_stacks,
    other,
    remove_units,
)
from aare.combat.chance import REPEL_STRIDE
from aare.combat.decisions import (
    Answer,
    Casualties,
    ChooseCasualties,
    ChooseOption,
    ChooseSubmerge,
    ChooseTargets,
    Option,
    Press,
    PressOrRetreat,
    Retreat,
    Submerge,
    Targets,
    targets_note,
)
from aare.combat.events import (
    CasualtiesChosen,
    DiceRolled,
    Event,
    HitsScored,
    Retreated,
    StepEntered,
    Submerged,
    UnitsMarked,
    UnitsRemoved,
)
from aare.combat.rules import CombatRules
from aare.combat.sequences import Sequence, lhtr_sequence
from aare.combat.setup import Battle, BattleSetup
from aare.combat.steps import can_hit, combat_units, end_check, finish, remove_lone_defenceless
from aare.dice import DiceSource
from aare.errors import IllegalAction, MalformedInput

Policy = Callable[[Battle, Any], Answer | None]
UnitsIn = str | Mapping[str, int] | Mapping[UnitKey, int]


@lru_cache(maxsize=1)
def default_units() -> UnitCatalogue:
    """The unit catalogue of the default ruleset (battles built without one)."""
    from aare.rules.registry import default_ruleset
    from aare.rules.ruleset import load_ruleset

    return load_ruleset(default_ruleset()).units


def to_stacks(units: UnitsIn | Stacks, catalogue: UnitCatalogue, owner: str = "") -> Stacks:
    """Unit text, ``{type: n}``, ``{UnitKey: n}`` or stacks as canonical stacks."""
    if isinstance(units, str):
        units = parse_units(units, catalogue)
    if isinstance(units, tuple):
        return make_stacks(units)
    out: dict[UnitKey, int] = {}
    for key, n in units.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise MalformedInput(f"unit count must be a non-negative integer, got {n!r}")
        k = key if isinstance(key, UnitKey) else UnitKey(catalogue.resolve(key), owner)
        catalogue[k.type]
        out[k] = out.get(k, 0) + n
    return make_stacks(out)


def _check_units(kind: str, side: Side, stacks: Stacks, catalogue: UnitCatalogue, rules: CombatRules) -> None:
    for key, _ in stacks:
        unit = catalogue[key.type]
        name = unit.display
        if kind == "bombing" and _raid_extra(side, key, unit, rules):
            continue
        if kind in ("land", "amphibious") and unit.domain == "sea":
            raise MalformedInput(
                f"{name} cannot fight in a land battle (LHTR-LANDCOMBAT-ships-not-in-land-battle; "
                "use bombard for shore bombardment)"
            )
        if kind == "sea" and unit.domain in ("land", "building"):
            raise MalformedInput(f"{name} cannot fight in a sea battle (cargo never fights at sea)")
        if side == "attacker" and unit.has("not_casualty"):
            raise MalformedInput(f"{name} cannot attack")
        if kind == "bombing" and side == "attacker" and not unit.has("strategic_bomber"):
            raise MalformedInput(f"only bombers may raid, not {name} (LHTR-SBR-eligibility)")
        if kind == "bombing" and side == "defender" and not unit.has("not_casualty"):
            raise MalformedInput(f"{name} takes no part in a bombing raid")


def _raid_extra(side: Side, key: UnitKey, unit: Any, rules: CombatRules) -> bool:
    """Units a raid admits besides bombers, AA guns and complexes: rockets (keyed as the AA gun that fired them,
    flagged ``rocket``), escorting fighters (`sbr_escorts`) and standing-by fighters (`sbr_interceptors`)."""
    if side == "attacker":
        return key.has("rocket") or (rules.sbr_escorts and unit.has("fighter"))
    return rules.sbr_interceptors and unit.has("fighter")


def start_battle(
    attacker: UnitsIn | Stacks,
    defender: UnitsIn | Stacks,
    kind: str = "land",
    *,
    units: UnitCatalogue | None = None,
    rules: CombatRules | None = None,
    sequence: Sequence | None = None,
    attacker_techs: frozenset[str] | set[str] | tuple[str, ...] = frozenset(),
    defender_techs: frozenset[str] | set[str] | tuple[str, ...] = frozenset(),
    owner_techs: Mapping[str, frozenset[str]] | None = None,
    bombard: UnitsIn | Stacks | None = None,
    defender_aa: bool = False,
    retreat_to: tuple[str, ...] = ("origin",),
    overland: UnitsIn | None = None,
    sea_battle_fought: bool = False,
    territory_value: int | None = None,
    already_lost: int = 0,
    treasury: int | None = None,
    joint_attack: bool = False,
    defender_retreat_to: tuple[str, ...] = (),
    defender_stays: frozenset[str] | set[str] = frozenset(),
    site_tags: frozenset[str] | set[str] = frozenset(),
) -> Battle:
    """A battle at its first cycle. Bad inputs raise MalformedInput; forbidden ones IllegalAction.
    Allies attack together only with `joint_attack` (a rule's exception, e.g. AARe's D-Day).

    `kind`: land, sea, amphibious or bombing. In an amphibious assault every attacking land unit came
    from the sea except those listed in `overland`. `bombard` ships may not come from a sea zone that
    had a sea battle (`sea_battle_fought`, LHTR-BOMBARD-no-sea-battle).
    """
    catalogue = units or default_units()
    seq = sequence or lhtr_sequence(kind)
    if seq.kind != kind and not (kind == "amphibious" and seq.kind == "land"):
        raise MalformedInput(f"a {seq.kind} sequence cannot run a {kind} battle")
    a = to_stacks(attacker, catalogue)
    d = to_stacks(defender, catalogue)
    if defender_aa:
        d = add_units(d, UnitKey("aa_gun"))
    combat_rules = rules or CombatRules()
    for side, stacks in (("attacker", a), ("defender", d)):
        _check_units(kind, side, stacks, catalogue, combat_rules)  # type: ignore[arg-type]
    if not a:
        raise MalformedInput("the attacker has no units")
    if kind == "bombing" and not any(catalogue[k.type].has("strategic_bomber") or k.has("rocket") for k, _ in a):
        raise IllegalAction("a raid needs bombers (escorts fly only with them)", "LHTR-SBR-eligibility")
    if len({k.owner for k, _ in a}) > 1 and not joint_attack:
        raise IllegalAction("allied powers never attack together", "LHTR-COMBAT-no-joint-attacks")
    if kind == "bombing" and not any(catalogue[k.type].has("bombing_target") for k, _ in d):
        raise IllegalAction("a raid needs an enemy industrial complex to bomb", "LHTR-SBR-eligibility")
    for check in combat_rules.declaration_checks:
        refused = check(kind, a, d, catalogue)
        if refused is not None:
            raise refused
    ships = to_stacks(bombard, catalogue) if bombard else ()
    if ships:
        if kind != "amphibious":
            raise MalformedInput("shore bombardment happens only in amphibious assaults (LHTR-BOMBARD-who-and-when)")
        if sea_battle_fought:
            raise IllegalAction(
                "no ship may bombard from a sea zone that had a sea battle", "LHTR-BOMBARD-no-sea-battle"
            )
        for key, _ in ships:
            if catalogue[key.type].domain != "sea":
                raise MalformedInput(f"{key.type} cannot bombard")
    if kind == "amphibious":
        dry = to_stacks(overland, catalogue) if overland else ()
        left = dict(dry)
        flagged = []
        for key, n in a:
            if catalogue[key.type].domain != "land":
                flagged.append((key, n))
                continue
            keep = min(n, left.get(key, 0))
            left[key] = left.get(key, 0) - keep
            flagged += [(key, keep), (key.with_flag("amphibious"), n - keep)]
        a = make_stacks(flagged)
        limit = combat_rules.bombard_per_landing_unit
        landing = sum(n for k, n in a if k.has("amphibious"))
        if limit and sum(n for _, n in ships) > limit * landing:
            raise IllegalAction(f"{sum(n for _, n in ships)} ships cannot bombard for {landing} land unit(s) "
                                "landing from the sea", combat_rules.bombard_limit_rule)
    setup = BattleSetup(
        kind=kind,
        catalogue=catalogue,
        rules=combat_rules,
        sequence=seq,
        attacker_techs=frozenset(attacker_techs),
        defender_techs=frozenset(defender_techs),
        owner_techs=dict(owner_techs or {}),
        retreat_to=tuple(retreat_to),
        bombard=ships,
        territory_value=territory_value,
        already_lost=already_lost,
        treasury=treasury,
        defender_retreat_to=tuple(defender_retreat_to),
        defender_stays=frozenset(defender_stays),
        site_tags=frozenset(site_tags),
    )
    return Battle(setup, BattleState(kind, _extra_hits(setup, "attacker", a), _extra_hits(setup, "defender", d)))


def _extra_hits(setup: BattleSetup, side: Side, stacks: Stacks) -> Stacks:
    """Units that a "hits" tech bonus of their side makes sturdier carry the ``extra_hit`` flag (`TechBonus`)."""
    bonuses = [b for b in setup.rules.tech_bonuses if b.role == "hits"]
    if not bonuses:
        return stacks
    out = []
    for key, n in stacks:
        unit = setup.unit(key)
        if any(b.tech in setup.techs(side, key) and unit.has(b.tag) for b in bonuses):
            key = key.with_flag(EXTRA_HIT)
        out.append((key, n))
    return make_stacks(out)


# ---------------------------------------------------------------- running steps


def stalemate(battle: Battle) -> bool:
    """Neither side can hurt the other any more (e.g. only submarines against only aircraft)."""
    if not (combat_units(battle, "attacker") and combat_units(battle, "defender")):
        return False
    return not can_hit(battle, "attacker") and not can_hit(battle, "defender")


def run(
    battle: Battle, stop_at_cycle_start: bool = False, stop_at: tuple[int, int] | None = None
) -> tuple[Battle, list[Event]]:
    """Run steps until a chance node, a decision, the end, or (optionally) the start of the next cycle or
    the point ``(cycle, step index)``."""
    events: list[Event] = []
    steps = battle.setup.sequence.steps
    length = len(steps)
    while True:
        st = battle.state
        if st.result is not None or st.pending is not None or st.roll is not None:  # ended or waiting
            return battle, events
        if st.hits:
            battle, more = _process_hits(battle)
            events += more
            continue
        if stop_at is not None and (st.cycle, st.cursor) == stop_at:
            return battle, events
        if st.cursor >= length:
            # marks named "cycle:..." last for one cycle
            notes = frozenset(n for n in st.notes if not n.startswith("cycle:"))
            battle = battle.with_state(joined(st).evolve(cycle=st.cycle + 1, cursor=0, notes=notes))
            if stop_at_cycle_start:
                return battle, events
            continue
        if st.cursor == 0 and battle.setup.rules.lone_defenceless_removed:
            st2, removed = remove_lone_defenceless(battle)
            if removed:
                st3, more = end_check(battle.with_state(st2))
                battle = battle.with_state(st3)
                events += removed + more
                continue
        if st.cursor == 0 and stalemate(battle):
            st2, more = finish(battle, "stalemate")
            return battle.with_state(st2), events + more
        # steps that do not apply are passed over in one move (their conditions read the units, not the cursor)
        cursor = st.cursor
        stop = stop_at[1] if stop_at is not None and stop_at[0] == st.cycle and stop_at[1] > cursor else length
        while cursor < stop - 1 and not steps[cursor].applies(battle):
            cursor += 1
        step = steps[cursor]
        battle = battle.with_state(st.evolve(cursor=cursor + 1))
        if step.applies(battle):
            events.append(StepEntered(step.name, st.cycle))
            st2, more = step.run(battle)
            battle = battle.with_state(st2)
            events += more


def hit_key(group_side: Side, target: Any, removal: str) -> tuple[Any, ...]:
    return ("hits", other(group_side), target, removal)


def resolve_roll(battle: Battle, outcome: Mapping[tuple[Any, ...], int]) -> tuple[Battle, list[Event]]:
    """Apply a chance outcome: ``{("hits", side hit, target, removal): n, ("damage",): total,
    ("lowest", side rolling, group unit): lowest die}``."""
    st = battle.state
    batches = list(st.hits)
    events: list[Event] = []
    damage = st.damage
    rolled = list(st.rolled)
    for key, n in outcome.items():
        if key[0] == "damage":
            damage += n
        elif key[0] == "lowest":
            rolled.append((key[1], key[2], n))
        elif key[0] == "hits+repels":
            _, side, target, removal = key
            hits, repels = divmod(n, REPEL_STRIDE)
            step = st.roll.step if st.roll else ""
            if hits:
                batches.append(HitBatch(side, target, hits, removal, step))
                events.append(HitsScored(side, hits, target.describe(), removal))
            if repels:
                batches.append(HitBatch(side, target, repels, MARK + REPELLED, step))
                events.append(HitsScored(side, repels, target.describe(), MARK + REPELLED))
        elif n:
            _, side, target, removal = key
            n = min(n, target.most) if target.most else n  # hits beyond the target's limit are lost
            if not n:
                continue
            batches.append(HitBatch(side, target, n, removal, st.roll.step if st.roll else ""))
            events.append(HitsScored(side, n, target.describe(), removal))
    st = st.evolve(roll=None, hits=tuple(batches), damage=damage, rolled=tuple(sorted(rolled)))
    return battle.with_state(st), events


def roll_with_dice(battle: Battle, dice: DiceSource) -> tuple[Battle, list[Event]]:
    """Resolve the pending chance node with real dice, logging every die."""
    request = battle.state.roll
    assert request is not None
    plan = getattr(dice, "plan_roll", None)
    if plan is not None:  # a source that chooses a whole request's outcome at once (`aare.dice`)
        plan(request)
    outcome: dict[tuple[Any, ...], int] = {}
    events: list[Event] = []
    for g in request.groups:
        values = dice.roll(g.count * g.dice_per_unit)
        if g.lowest:
            low = min(values)
            kept = g.hit_on if g.threshold else low
            outcome[("lowest", g.side, g.unit)] = kept if low <= g.hit_on else g.hit_on + 1
            hits = sum(1 for v in values if v <= g.hit_on)
            events.append(DiceRolled(request.step, g.side, g.unit, g.count, g.hit_on, values, hits, "lowest die"))
            continue
        per = _per_unit(values, g) if g.damage or g.best_of else []
        if g.damage:
            total = sum((max(v) if g.best_of else sum(v)) + g.bonus for v in per)
            outcome[("damage",)] = outcome.get(("damage",), 0) + total
            events.append(
                DiceRolled(request.step, g.side, g.unit, g.count, 0, values, total, "damage", g.dice_per_unit)
            )
            continue
        if g.repel_on:
            decisive = [min(v) for v in per] if g.best_of else values
            hits = sum(1 for v in decisive if v <= g.hit_on)
            repels = sum(1 for v in decisive if g.hit_on < v <= g.repel_on)
            key = ("hits+repels", other(g.side), g.target, g.removal)
            outcome[key] = outcome.get(key, 0) + hits * REPEL_STRIDE + repels
            events.append(DiceRolled(request.step, g.side, g.unit, g.count, g.hit_on, values, hits,
                                     g.target.describe(), g.dice_per_unit, repels))
            continue
        hits = sum(1 for v in per if min(v) <= g.hit_on) if g.best_of else sum(1 for v in values if v <= g.hit_on)
        key = hit_key(g.side, g.target, g.removal)
        outcome[key] = outcome.get(key, 0) + hits
        events.append(
            DiceRolled(
                request.step, g.side, g.unit, g.count, g.hit_on, values, hits, g.target.describe(), g.dice_per_unit
            )
        )
    battle, more = resolve_roll(battle, outcome)
    return battle, events + more


def _per_unit(values: tuple[int, ...], group: Any) -> list[tuple[int, ...]]:
    """The dice of a group, unit by unit."""
    each = group.dice_per_unit
    return [values[i * each : (i + 1) * each] for i in range(group.count)]


def _process_hits(battle: Battle) -> tuple[Battle, list[Event]]:
    st = battle.state
    first = st.hits[0]
    group = tuple(b for b in st.hits if (b.side, b.removal) == (first.side, first.removal))
    rest = tuple(b for b in st.hits if b.side != first.side or b.removal != first.removal)  # the others
    cat = battle.setup.catalogue
    stacks = st.units(first.side)
    group = cas.refine(cat, stacks, group)
    required = cas.assignable(cat, stacks, group)
    battle = battle.with_state(st.evolve(hits=rest))
    if required == 0:
        return battle, []
    last = battle.setup.rules.last_casualty_tags
    if cas.is_forced(cat, cas.choosable(cat, stacks, group, required, last), group, required):
        choice = cas.choose_by_order(cat, stacks, group, cas.default_rank(cat, first.side, last))
        return apply_casualties(battle, first.side, choice, first.removal)
    decision = ChooseCasualties(first.side, group, required)
    return battle.with_state(battle.state.evolve(pending=decision)), []


def apply_casualties(
    battle: Battle, side: Side, choice: tuple[tuple[UnitKey, int], ...], removal: str
) -> tuple[Battle, list[Event]]:
    cat = battle.setup.catalogue
    counts = dict(battle.state.units(side))  # the units, one chosen unit after the other: canonical stacks at the end
    if removal.startswith(MARK):
        flag = removal[len(MARK):]
        marked: dict[str, int] = {}
        for key, _hits in choice:
            _take(counts, key)
            flagged = key.with_flag(flag)
            counts[flagged] = counts.get(flagged, 0) + 1
            marked[key.type] = marked.get(key.type, 0) + 1
        return battle.with_state(battle.state.with_units(side, make_stacks(counts))), [UnitsMarked(side, marked, flag)]
    lost: dict[str, int] = {}
    damaged: dict[str, int] = {}
    removed: dict[str, int] = {}
    for key, hits in choice:
        _take(counts, key)
        hurt = UnitKey(key.type, key.owner, key.damage + hits, key.flags)
        if hurt.damage >= hit_points(cat, key):
            lost[key.type] = lost.get(key.type, 0) + 1
            if removal == "now":
                removed[key.type] = removed.get(key.type, 0) + 1
                continue
            hurt = hurt.with_flag("casualty:opening" if removal == "opening" else "casualty")
        else:
            damaged[key.type] = damaged.get(key.type, 0) + 1
        counts[hurt] = counts.get(hurt, 0) + 1
    events: list[Event] = [CasualtiesChosen(side, lost, damaged, removal)]
    if removed:
        events.append(UnitsRemoved(side, removed, "immediately"))
    return battle.with_state(battle.state.with_units(side, make_stacks(counts))), events


def _take(counts: dict[UnitKey, int], key: UnitKey) -> None:
    """One unit of `key` less in `counts` (`remove_units` for one unit)."""
    have = counts.get(key, 0)
    if have < 1:
        raise ValueError(f"cannot remove 1 {key.label()}: only {have}")
    counts[key] = have - 1


# ---------------------------------------------------------------- decisions


def casualties_from_types(battle: Battle, side: Side, wanted: Mapping[str, int] | str) -> Casualties:
    """``{"infantry": 1, "battleship": 1}`` as a Casualties answer: hits per unit type, spread one per
    unit with undamaged multi-hit units absorbing first, units the pending hits may take before those they may
    not (of a type, only the detected aircraft, say)."""
    cat = battle.setup.catalogue
    if isinstance(wanted, str):
        wanted = parse_units(wanted, cat)
    decision = battle.state.pending
    batches = decision.batches if isinstance(decision, ChooseCasualties) else ()

    def aimed(key: UnitKey) -> bool:  # a unit some batch of hits may take
        return any(cas.eligible(cat, key, b.target) for b in batches)

    def takes(key: UnitKey) -> bool:  # units that left the battle only where the hits may reach them
        return (key.present or aimed(key)) and not key.marked

    hits: list[tuple[UnitKey, int]] = []
    for name, n in wanted.items():
        type_id = cat.resolve(name)
        units = sorted(
            (
                k
                for k, c in battle.state.units(side)
                for _ in range(c)
                if k.type == type_id and takes(k)
            ),
            key=lambda k: (not aimed(k), k.damage, k),  # first those the hits may take (e.g. only detected ones)
        )
        taken = [0] * len(units)
        left = n
        while left and units:
            progressed = False
            for i, k in enumerate(units):
                if left and taken[i] < hit_points(cat, k) - k.damage:
                    taken[i] += 1
                    left -= 1
                    progressed = True
            if not progressed:
                break
        if left:
            raise IllegalAction(f"{side} has too few {type_id} to take {n} hit(s)", "LHTR-COMBAT-hit-eligibility")
        hits += [(k, t) for k, t in zip(units, taken, strict=True) if t]
    return Casualties(tuple(sorted(hits)))


def apply_answer(battle: Battle, answer: Answer | Mapping[str, int] | str) -> tuple[Battle, list[Event]]:
    """Answer the pending decision; a wrong answer raises IllegalAction naming the rule."""
    decision = battle.state.pending
    if decision is None:
        raise IllegalAction("no decision is pending in this battle", "LHTR-COMBAT-land-sequence")
    st = battle.state.evolve(pending=None)
    cleared = battle.with_state(st)
    if isinstance(decision, ChooseCasualties):
        if isinstance(answer, (Mapping, str)):
            answer = casualties_from_types(battle, decision.side, answer)
        if not isinstance(answer, Casualties):
            raise IllegalAction("casualties must be chosen now", decision.rule)
        why = cas.check_choice(
            battle.setup.catalogue, st.units(decision.side), decision.batches, answer.hits, decision.required
        )
        if why is not None:
            rule = "LHTR-COMBAT-hit-eligibility" if "cannot" in why else decision.rule
            raise IllegalAction(why, rule)
        rules = battle.setup.rules
        why = cas.check_last(battle.setup.catalogue, st.units(decision.side), decision.batches, answer.hits,
                             decision.required, rules.last_casualty_tags)
        if why is not None:
            raise IllegalAction(why, rules.last_casualty_rule)
        return apply_casualties(cleared, decision.side, answer.hits, decision.batches[0].removal)
    if isinstance(decision, PressOrRetreat):
        if isinstance(answer, Press):
            if decision.forced:
                raise IllegalAction(f"the {decision.side} must retreat now", decision.rule)
            return cleared, []
        if not isinstance(answer, Retreat):
            raise IllegalAction("the attacker must press or retreat", decision.rule)
        return _retreat(cleared, decision, answer)
    if isinstance(decision, ChooseSubmerge):
        if not isinstance(answer, Submerge):
            raise IllegalAction("answer with Submerge(count)", decision.rule)
        if not 0 <= answer.count <= decision.available:
            raise IllegalAction(f"at most {decision.available} submarine(s) may submerge now", decision.rule)
        return _submerge(cleared, decision.side, answer.count, decision.exclude_flags, decision.mark_stayers)
    if isinstance(decision, ChooseTargets):
        if not isinstance(answer, Targets):
            raise IllegalAction("the targets must be declared now", decision.rule)
        found = decision.resolve(answer)
        if isinstance(found, str):
            raise IllegalAction(found, decision.rule)
        return cleared.with_state(st.evolve(notes=st.notes | {targets_note(found, decision.note)})), []
    if isinstance(decision, ChooseOption):
        if not isinstance(answer, Option) or answer.name not in decision.options:
            raise IllegalAction(f"choose one of: {', '.join(decision.options)}", decision.rule)
        return cleared.with_state(st.evolve(notes=st.notes | {decision.note + answer.name})), []
    raise IllegalAction(f"unknown decision {decision!r}", "LHTR-COMBAT-land-sequence")


def decide(battle: Battle, answer: Answer | Mapping[str, int] | str) -> Battle:
    """Answer the pending decision; its events are reported by the next `advance`."""
    new, events = apply_answer(battle, answer)
    return new.with_state(replace(new.state, echo=new.state.echo + tuple(events)))


def _retreat(battle: Battle, decision: PressOrRetreat, answer: Retreat) -> tuple[Battle, list[Event]]:
    cat = battle.setup.catalogue
    if answer.air_only:
        if not decision.can_retreat_air:
            raise IllegalAction(
                "only attacking air units of an amphibious assault retreat alone", "LHTR-COMBAT-air-retreat"
            )
    elif not decision.can_retreat_all:
        rule = (
            "LHTR-LANDCOMBAT-no-retreat-amphibious" if decision.can_retreat_air else "LHTR-COMBAT-retreat-destination"
        )
        raise IllegalAction("the attacking land units cannot retreat from this battle", rule)
    to = answer.to
    if decision.destinations and not answer.air_only:
        if to is None and len(decision.destinations) == 1:
            to = decision.destinations[0]
        if to not in decision.destinations:
            raise IllegalAction(
                f"retreat must go to one of {', '.join(decision.destinations)}", "LHTR-COMBAT-retreat-destination"
            )
    side = decision.side
    stays = battle.setup.defender_stays if side == "defender" else frozenset()
    if answer.units and not decision.partial:
        raise IllegalAction(f"the {side}'s units retreat together or not at all", decision.rule)
    wanted = dict(answer.units)
    moved: dict[str, int] = {}
    kept = []
    for key, n in battle.state.units(side):
        goes = key.present and (not answer.air_only or cat[key.type].domain == "air") and not (
            decision.leaves_amphibious and key.has("amphibious"))
        if side == "defender":  # infrastructure stays, and units the rules keep in the battle
            goes = key.present and not cat[key.type].has("not_casualty") and key.type not in stays
        if goes and answer.units:  # a partial retreat: the units named, no amphibious landers, no casualties
            take = 0 if key.has("amphibious") or key.marked else min(n, wanted.get(key.type, 0))
            wanted[key.type] = wanted.get(key.type, 0) - take
            if take < n:
                kept.append((key, n - take))
            n = take
            goes = take > 0
        if goes:
            moved[key.type] = moved.get(key.type, 0) + n
            kept.append((key.with_flag("retreated"), n))
        elif n:
            kept.append((key, n))
    short = sorted(u for u, n in wanted.items() if n > 0)
    if short:
        raise IllegalAction(f"not that many {', '.join(short)} of the {side} can retreat", decision.rule)
    battle = battle.with_state(battle.state.with_units(side, make_stacks(kept)))
    events: list[Event] = [Retreated(moved, None if answer.air_only else to, side)]
    battle = battle.with_state(battle.state.evolve(notes=battle.state.notes | {f"cycle:retreated:{side}"}))
    if decision.partial and side == "defender":
        return battle, events  # the steps after a defender's partial retreat (e.g. capture dice) judge the end
    if answer.air_only or decision.leaves_amphibious or (side == "defender" and combat_units(battle, side)) or (
            answer.units and combat_units(battle, side)):
        st, more = end_check(battle)
    else:
        st, more = finish(battle, "retreat" if side == "attacker" else "attacker")
    return battle.with_state(st), events + more


def _submerge(
    battle: Battle, side: Side, count: int, exclude: tuple[str, ...] = (), mark_stayers: str = ""
) -> tuple[Battle, list[Event]]:
    """Submerge `count` of `side`'s subs (none with a flag in `exclude`); with `mark_stayers`, the subs that
    could have gone and stay get that flag."""
    cat = battle.setup.catalogue

    def choosable(key: UnitKey) -> bool:
        return key.present and cat[key.type].has("submerge") and not any(key.has(f) for f in exclude)

    left = count
    moved: dict[str, int] = {}
    stacks = battle.state.units(side)
    for key, n in list(stacks):
        if left and choosable(key) and not key.marked:
            k = min(n, left)
            left -= k
            stacks = add_units(remove_units(stacks, key, k), key.with_flag("submerged"), k)
            moved[key.type] = moved.get(key.type, 0) + k
    if mark_stayers:
        stacks = make_stacks((k.with_flag(mark_stayers) if choosable(k) else k, n) for k, n in stacks)
    battle = battle.with_state(battle.state.with_units(side, stacks))
    if count == 0:
        return battle, []
    st, more = end_check(battle)
    return battle.with_state(st), [Submerged(side, moved), *more]


def advance(battle: Battle, dice: DiceSource, policy: Policy | None = None) -> tuple[Battle, list[Event]]:
    """Run the battle with `dice` until it ends or a decision is pending.

    With a `policy` (e.g. `aare.combat.policy.Policy`), decisions are answered by it as they come; it may
    return None to leave one pending.
    """
    events: list[Event] = list(battle.state.echo)
    if events:
        battle = battle.with_state(battle.state.evolve(echo=()))
    while True:
        battle, more = run(battle)
        events += more
        if battle.state.roll is not None:
            battle, more = roll_with_dice(battle, dice)
            events += more
            continue
        if battle.state.pending is not None and policy is not None:
            answer = policy(battle, battle.state.pending)
            if answer is None:
                return battle, events
            battle, more = apply_answer(battle, answer)
            events += more
            continue
        return battle, events


def repair_damage(stacks: Stacks) -> Stacks:
    """LHTR-NAVALCOMBAT-battleship-repair: every damaged unit is whole again (called at end of turn)."""
    return make_stacks((replace(k, damage=0), n) for k, n in stacks)


def flyover_fire(
    aircraft: UnitsIn,
    dice: DiceSource,
    units: UnitCatalogue | None = None,
    rules: CombatRules | None = None,
    techs: frozenset[str] = frozenset(),
) -> tuple[dict[str, int], list[Event]]:
    """LHTR-AA-flyover: an AA gun overflown in combat move fires one die at each aircraft passing over it
    (fighters of a power with `rules.jet_tech` in `techs` are hit on `jet_aa_reduction` less).

    Returns the surviving aircraft and the dice events.
    """
    catalogue = units or default_units()
    rules = rules or CombatRules()
    left: dict[str, int] = {}
    events: list[Event] = []
    for key, n in to_stacks(aircraft, catalogue):
        if catalogue[key.type].domain != "air":
            raise MalformedInput(f"AA guns fire only at aircraft, not {key.type} (LHTR-AA-targets-air-only)")
        jet = catalogue[key.type].has("fighter") and rules.jet_tech in techs
        hit_on = rules.aa_hit_on - (rules.jet_aa_reduction if jet else 0)
        if hit_on <= 0:
            left[key.type] = left.get(key.type, 0) + n
            continue
        values = dice.roll(n)
        hits = sum(1 for v in values if v <= hit_on)
        events.append(DiceRolled("aa flyover", "defender", key.type, n, hit_on, values, hits, f"only {key.type}"))
        if n - hits:
            left[key.type] = left.get(key.type, 0) + n - hits
    return left, events


def side_units(battle: Battle) -> dict[Side, dict[str, int]]:
    from aare.combat.steps import survivors

    return {side: survivors(battle, side) for side in SIDES}


__all__ = [
    "RollRequest",
    "advance",
    "apply_answer",
    "decide",
    "default_units",
    "resolve_roll",
    "run",
    "start_battle",
]
