"""AARHE naval combat (module `aarhe_naval`): the sea battle's cycle (AARHE-NAVALSEQ-*) with its submarine
warfare (screens, selective submarine fire, the wolf pack, ASW), its air combat (the ships' anti-air, aircraft
with dogfight or supremacy values, battleships) and its main round, then the carriers' limit on the aircraft
that stay, the submarines' submerge and the retreats and break off of `naval_retreats` (AARHE-SUBWAR-*,
AARHE-ASW-*, AARHE-SCREEN-*, AARHE-CARRIER-*).

Selections the rules leave to a side are pending `ChooseTargets` decisions kept in the cycle's notes: the
screens (each DD/CA names a ship type of its side), the submarines' targets and, under air supremacy, the
aircraft's targets. The ASW dice are dealt out over the submarines like the IDs' (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aare.combat import steps as s
from aare.combat.battle_state import MARK, DiceGroup, Side, Target, UnitKey, make_stacks, other
from aare.combat.decisions import ChooseSubmerge, ChooseTargets, declared_targets, targets_note
from aare.combat.events import Retreated
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, combat_units, end_check, finish, roll
from aare.combat.values import present
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe import combat_values as v
from aare.rulesets.aarhe import naval_retreats as retreats
from aare.rulesets.aarhe import naval_values as nv
from aare.rulesets.aarhe.infrastructure import spread
from aare.rulesets.aarhe.research import ADVANCED_ASW, ADVANCED_SUB

R_TABLE = "AARHE-NAVALSEQ-table"
R_SUB_STEP = "AARHE-NAVALSEQ-submarine-step"
R_AIR_STEP = "AARHE-NAVALSEQ-air-step"
R_MAIN = "AARHE-NAVALSEQ-main-round"
R_SCREEN = "AARHE-SCREEN-assign"
R_SUB_REMOVED = "AARHE-SUBWAR-casualties-removed"
R_SUBMERGE = "AARHE-SUBWAR-submerge"
R_SEARCH = "AARHE-ASW-search"
R_ATTACK = "AARHE-ASW-attack"
R_ADVANCED_ASW = "AARHE-TECH-advanced-asw"
R_ASW_AIR = "AARHE-TECH-advanced-asw-air"
R_CARRIER = "AARHE-CARRIER-cycle-end-standard"
R_SELECTIVE = "AARHE-AIRCOMBAT-supremacy-selective"  # at sea (land battles: `combat_values.selective`)

SEARCH_ON, ATTACK_ON = 3, 2  # AARHE-ASW-search, AARHE-ASW-attack
DETECTED = "asw-detected"  # the battle flag of a submarine the enemy's ASW detected this cycle
SUB_CASUALTIES = "sub_casualties_removed"  # option: after the submarine warfare, or at the end of opening fire
AFTER_SUB_WARFARE, AFTER_OPENING_FIRE = "after-submarine-warfare", "after-opening-fire"


def _note(purpose: str, side: Side) -> str:
    return f"cycle:{purpose}:{side}="


# ---------------------------------------------------------------- screens


def _escorts(battle: Battle, side: Side) -> int:
    return sum(n for _, n in nv.units_of(battle, side, nv.ESCORT))


def _screens_matter(battle: Battle, side: Side) -> bool:
    """A screen changes something: `side` has DD/CA and ships to screen, and the enemy aims hits at ships (with
    submarines, or aircraft alone in the air)."""
    enemy = other(side)
    aims = bool(nv.units_of(battle, enemy, nv.SUB)) or v.supremacy(battle, enemy)
    return aims and _escorts(battle, side) > 0 and bool(nv.screenable(battle, side))


def _screen_decision(side: Side) -> Callable[[Battle], StepResult]:
    def run(battle: Battle) -> StepResult:
        """AARHE-SCREEN-assign: each of `side`'s DD/CA may name a ship type of its side to screen this cycle; by
        default one per ship, the dearest first."""
        ships = nv.screenable(battle, side)
        escorts = _escorts(battle, side)
        options = nv.eligible(battle, ships, lambda _k, _n: escorts)
        suggested = nv.dealt(options, {}, min(escorts, sum(n for _, n in ships)))
        decision = ChooseTargets(side, escorts, options, R_SCREEN, _note("screens", side), True, suggested)
        return battle.state.evolve(pending=decision), []

    return run


def _form_screens(battle: Battle) -> StepResult:
    """The named screens take station: a DD/CA of the ship's power is flagged for each (docs/rulings.md)."""
    st = battle.state
    for side in ("attacker", "defender"):
        named = declared_targets(st.notes, _note("screens", side)) or ()
        stacks = dict(st.units(side))
        for owner, unit in named:
            key = next((k for k, n in sorted(stacks.items()) if n and k.owner == owner and not k.marked
                        and nv.is_a(battle, k, nv.ESCORT) and not any(f.startswith(nv.SCREENING) for f in k.flags)),
                       None)
            if key is not None:
                stacks[key] -= 1
                flagged = key.with_flag(nv.SCREENING + unit)
                stacks[flagged] = stacks.get(flagged, 0) + 1
        st = st.with_units(side, make_stacks(stacks))
    return st, []


# ---------------------------------------------------------------- selective fire: submarines and aircraft


def _aims(purpose: str, side: Side, shooters: Callable[[Battle, Side], list[nv.Shooter]], rule: str
          ) -> Callable[[Battle], StepResult]:
    def run(battle: Battle) -> StepResult:
        """`side`'s shooters each select an enemy surface ship, all before any die is rolled (asked only when
        there is a choice)."""
        n = len(shooters(battle, side))
        options = nv.eligible(battle, nv.aimable(battle, side), lambda _k, _n: n)
        if not n or not options:
            return battle.state, []
        if len(options) == 1:  # one ship type to aim at: no choice to ask
            st = battle.state
            return st.evolve(notes=st.notes | {targets_note(((options[0][0], options[0][1]),) * n,
                                                            _note(purpose, side))}), []
        decision = ChooseTargets(side, n, options, rule, _note(purpose, side),
                                 suggested=nv.suggested_aims(battle, side, n))
        return battle.state.evolve(pending=decision), []

    return run


def _sub_fire(side: Side) -> Callable[[Battle], StepResult]:
    def run(battle: Battle) -> StepResult:
        """AARHE-SUBWAR-targeting, AARHE-WOLFPACK-bonus: each submarine rolls at the ship it selected; the ships
        sunk are removed at the end of the submarine warfare (AARHE-SUBWAR-casualties-removed)."""
        groups = nv.aimed_groups(battle, side, nv.sub_shooters(battle, side), _note("sub-targets", side),
                                 nv.R_SCREEN_SUB, "opening")
        return roll(battle, f"{side} sub fire", groups)

    return run


def _air_fire(side: Side) -> Callable[[Battle], StepResult]:
    def run(battle: Battle) -> StepResult:
        """AARHE-AIRCOMBAT-opening-fire at sea: dogfight values and air-first hits while both sides have
        aircraft; under air supremacy each aircraft but bombers rolls at the ship it selected."""
        if v.supremacy(battle, side):
            groups = nv.aimed_groups(battle, side, nv.air_shooters(battle, side), _note("air-targets", side),
                                     nv.R_SCREEN_AIR, "opening")
        else:
            groups = nv.reachable(battle, v.air_groups(battle, side))
        return roll(battle, f"{side} air fire", groups)

    return run


# ---------------------------------------------------------------- ASW


def _subs(battle: Battle, side: Side, flag: str = "") -> list[UnitKey]:
    """`side`'s submarines one by one (those with `flag`, if given), the dearest first."""
    cat = battle.setup.catalogue
    keys = [k for k, n in nv.units_of(battle, side, nv.SUB, unmarked=True) for _ in range(n)
            if not flag or k.has(flag)]
    return sorted(keys, key=lambda k: (-cat[k.type].cost, cat.order(k.type), k))


def _side_has(battle: Battle, side: Side, tech: str) -> bool:
    """Whether a power of `side` present in the battle (the side, when none is) has `tech`."""
    keys = [k for k, _ in present(battle, side)]
    return any(tech in battle.setup.techs(side, k) for k in keys) if keys else tech in battle.setup.techs(side)


def _air_hunters(battle: Battle, side: Side) -> int:
    """`side`'s aircraft that perform ASW: all of them with Advanced ASW (AARHE-TECH-advanced-asw-air)."""
    if not _side_has(battle, side, ADVANCED_ASW):
        return 0
    return sum(n for k, n in present(battle, side) if battle.setup.unit(k).domain == "air")


def _searchers(battle: Battle, side: Side) -> list[tuple[int, int, str]]:
    """(dice each enemy submarine draws, search value before stealth, rule) of `side`'s DD/CA (+1 with Advanced
    ASW, AARHE-TECH-advanced-asw) and of its aircraft hunting with Advanced ASW (no +1)."""
    bonus = 1 if _side_has(battle, side, ADVANCED_ASW) else 0
    out = [(_escorts(battle, side), SEARCH_ON + bonus, R_ADVANCED_ASW if bonus else R_SEARCH),
           (_air_hunters(battle, side), SEARCH_ON, R_ASW_AIR)]
    return [x for x in out if x[0] > 0]


def stealth(battle: Battle, side: Side, key: UnitKey) -> int:
    """-1 to ASW search against a submarine whose owner has Advanced Submarine (AARHE-TECH-advanced-submarine-
    stealth)."""
    return 1 if ADVANCED_SUB in battle.setup.techs(side, key) else 0


def _search(side: Side) -> Callable[[Battle], StepResult]:
    def run(battle: Battle) -> StepResult:
        """AARHE-ASW-search: each of `side`'s DD/CA rolls a search die against each enemy submarine; one at 3 or
        less detects it."""
        per: dict[UnitKey, int] = {}
        for key in _subs(battle, other(side)):
            per[key] = per.get(key, 0) + 1
        groups = [DiceGroup(side, key.type, n, value - stealth(battle, other(side), key),
                            Target(types=(key.type,), owners=(key.owner,), exclude_flags=(DETECTED,), rule=rule),
                            MARK + DETECTED, dice_per_unit=dice, best_of=True)
                  for key, n in per.items() for dice, value, rule in _searchers(battle, side)]
        return roll(battle, f"{side} asw search", groups)

    return run


def _attack(side: Side) -> Callable[[Battle], StepResult]:
    def run(battle: Battle) -> StepResult:
        """AARHE-ASW-attack: each DD/CA rolls an attack die at a detected submarine, hitting on 2 or less; the
        dice are dealt out over the detected submarines, the dearest first."""
        detected = _subs(battle, other(side), DETECTED)
        bonus = 1 if _side_has(battle, side, ADVANCED_ASW) else 0
        groups = []
        for hunters, value, rule in ((_escorts(battle, side), ATTACK_ON + bonus, R_ADVANCED_ASW if bonus else R_ATTACK),
                                     (_air_hunters(battle, side), ATTACK_ON, R_ASW_AIR)):
            if hunters and detected:
                groups += [DiceGroup(side, key.type, n, value,
                                     Target(types=(key.type,), owners=(key.owner,), flags=(DETECTED,), rule=rule),
                                     "opening", dice_per_unit=dice, best_of=True)
                           for (key, dice), n in spread(hunters, detected).items()]
        return roll(battle, f"{side} asw attack", groups)

    return run


def _asw_applies(side: Side, flag: str = "") -> Callable[[Battle], bool]:
    return lambda battle: bool(_searchers(battle, side)) and bool(_subs(battle, other(side), flag))


# ---------------------------------------------------------------- removals, the cycle's end


def _removal(name: str, clear: Callable[[UnitKey], UnitKey]) -> Callable[[Battle], StepResult]:
    def run(battle: Battle) -> StepResult:
        st, events = s.remove_marked(battle, frozenset({"casualty:opening"}), name)
        if st.ended:
            return st, events
        for side in ("attacker", "defender"):
            st = st.with_units(side, make_stacks((clear(k), n) for k, n in st.units(side)))
        return st, events

    return run


def _clear_detection(key: UnitKey) -> UnitKey:
    return key.without(DETECTED)


def _clear_screens(key: UnitKey) -> UnitKey:
    return key.without(DETECTED, *[f for f in key.flags if f.startswith(nv.SCREENING)])


def carrier_return(battle: Battle) -> StepResult:
    """AARHE-CARRIER-cycle-end-standard: at the end of a cycle every aircraft that cannot land on carriers retreats,
    and so do those beyond the capacity of their side's carriers: fighters, or naval fighters alone with the
    option `naval_fighter` (AARHE-CARRIER-cycle-end-with-nav; the catalogue's carrier room says which)."""
    st = battle.state
    events: list[Any] = []
    for side in ("attacker", "defender"):
        room = sum(n * battle.setup.unit(k).carrier_capacity for k, n in nv.units_of(battle, side, nv.CAPITAL))
        moved: dict[str, int] = {}
        kept = []
        for key, n in st.units(side):
            unit = battle.setup.unit(key)
            if key.present and unit.domain == "air":
                stay = min(n, room // unit.carrier_size) if unit.carrier_size else 0
                room -= stay * unit.carrier_size
                if n - stay:
                    moved[key.type] = moved.get(key.type, 0) + n - stay
                    kept.append((key.with_flag("retreated"), n - stay))
                n = stay
            kept.append((key, n))
        if moved:
            st = st.with_units(side, make_stacks(kept))
            events.append(Retreated(moved, None, side))
    if not events:
        return st, []
    st2, more = end_check(battle.with_state(st))
    return st2, events + more


def _must_leave(battle: Battle) -> bool:
    return any(battle.setup.unit(k).domain == "air" for side in ("attacker", "defender")
               for k, _ in present(battle, side))


def _submerge(side: Side) -> Callable[[Battle], StepResult]:
    def run(battle: Battle) -> StepResult:
        """AARHE-SUBWAR-submerge: `side`'s submarines may submerge at the end of a cycle, enemy DD/CA or not."""
        n = sum(n for k, n in nv.units_of(battle, side, nv.SUB, unmarked=True) if battle.setup.unit(k).has("submerge"))
        if not n or not combat_units(battle, other(side)):
            return battle.state, []
        return battle.state.evolve(pending=ChooseSubmerge(side, n, R_SUBMERGE)), []

    return run


# ---------------------------------------------------------------- a battle no one can win


def can_hurt(battle: Battle, side: Side) -> bool:
    """Whether some fire of `side` could still hit an enemy unit under AARHE's hit allocation."""
    enemy = other(side)
    has = bool(nv.units_of(battle, enemy, nv.SURFACE))
    air = v.air(battle, enemy)
    if nv.units_of(battle, side, nv.SUB) and has:
        return True
    if nv.units_of(battle, side, nv.ESCORT) and nv.units_of(battle, enemy, nv.SUB):
        return True
    if air and any(nv.anti_air(battle, k) for k, _ in present(battle, side)):
        return True
    if any(g.hit_on > 0 for g in v.air_groups(battle, side)) and (air or has):
        return True
    ships = nv.fire_groups(battle, side, (*nv.CAPITAL, *nv.ESCORT), "cycle")
    transports = nv.fire_groups(battle, side, nv.TRANSPORT, "cycle")
    return (bool(ships) and has) or (bool(transports) and bool(nv.units_of(battle, enemy, nv.TRANSPORT)))


def _stalemate(battle: Battle) -> StepResult:
    return finish(battle, "stalemate")


def _no_one_can_hurt(battle: Battle) -> bool:
    return not can_hurt(battle, "attacker") and not can_hurt(battle, "defender")


# ---------------------------------------------------------------- the sequence


def _fire(side: Side, tags: tuple[str, ...], removal: str, name: str) -> Callable[[Battle], StepResult]:
    return lambda battle: roll(battle, name, nv.fire_groups(battle, side, tags, removal))


def _both(make: Callable[[Side], Step]) -> tuple[Step, Step]:
    return make("attacker"), make("defender")


def _steps() -> dict[str, tuple[Step, ...]]:
    def screens(side: Side) -> Step:
        return Step(f"{side} screens", _screen_decision(side), lambda b: _screens_matter(b, side), rule=R_SCREEN)

    def sub_aims(side: Side) -> Step:
        return Step(f"{side} sub targets", _aims("sub-targets", side, nv.sub_shooters, nv.R_SUB_TARGETS),
                    lambda b: bool(nv.units_of(b, side, nv.SUB)), rule=nv.R_SUB_TARGETS)

    def sub_fire(side: Side) -> Step:
        return Step(f"{side} sub fire", _sub_fire(side), lambda b: bool(nv.units_of(b, side, nv.SUB)),
                    rule=nv.R_SUB_TARGETS)

    def search(side: Side) -> Step:
        return Step(f"{side} asw search", _search(side), _asw_applies(side), rule=R_SEARCH)

    def attack(side: Side) -> Step:
        return Step(f"{side} asw attack", _attack(side), _asw_applies(side, DETECTED), rule=R_ATTACK)

    def anti_air(side: Side) -> Step:
        return Step(f"{side} anti-air", lambda b: roll(b, f"{side} anti-air", nv.aa_groups(b, side)),
                    lambda b: bool(v.air(b, other(side))), rule=nv.R_AA)

    def air_aims(side: Side) -> Step:
        return Step(f"{side} air targets", _aims("air-targets", side, nv.air_shooters, R_SELECTIVE),
                    lambda b: v.supremacy(b, side), rule=R_SELECTIVE)

    def air_fire(side: Side) -> Step:
        return Step(f"{side} air fire", _air_fire(side), lambda b: bool(v.air(b, side)), rule=v.R_OPENING)

    def battleships(side: Side) -> Step:
        name = f"{side} battleship fire"
        return Step(name, _fire(side, ("battleship",), "opening", name), rule=R_AIR_STEP)

    def main(side: Side) -> Step:
        name = f"{side} sea fire"
        return Step(name, _fire(side, ("carrier", *nv.ESCORT, *nv.TRANSPORT), "cycle", name), rule=R_MAIN)

    sub_removal = Step("remove sub warfare casualties", _removal("remove sub warfare casualties", _clear_detection),
                       rule=R_SUB_REMOVED)
    air_removal = Step("remove air combat casualties", _removal("remove air combat casualties", _clear_screens),
                       rule=R_AIR_STEP)
    return {
        "start": (Step("no one can hit", _stalemate, _no_one_can_hurt, rule=R_TABLE),),
        "screens": (*_both(screens), Step("screens formed", _form_screens, rule=R_SCREEN)),
        "subs": (sub_aims("attacker"), sub_fire("attacker"), sub_aims("defender"), sub_fire("defender")),
        "asw": (search("attacker"), attack("attacker"), search("defender"), attack("defender")),
        "sub removal": (sub_removal,),
        "air": (*_both(anti_air), air_aims("attacker"), air_fire("attacker"), air_aims("defender"),
                air_fire("defender"), *_both(battleships), air_removal),
        "main": (*_both(main), s.REMOVE_CASUALTIES),
        "end": (Step("carrier aircraft return", carrier_return, _must_leave, rule=R_CARRIER),
                Step("attacker submerge", _submerge("attacker"), rule=R_SUBMERGE), retreats.ATTACKER_RETREAT,
                retreats.ATTACKER_STANCE, Step("defender submerge", _submerge("defender"), rule=R_SUBMERGE),
                retreats.DEFENDER_RETREAT, retreats.DEFENDER_STANCE, retreats.CHASE_STEP, retreats.BREAK_OFF_STEP),
    }


def sea_sequence(sub_casualties: str = AFTER_SUB_WARFARE) -> Sequence:
    """The sea battle's cycle; with `AFTER_OPENING_FIRE` the submarine warfare's casualties are removed with the
    air combat's."""
    parts = _steps()
    order = ["start", "screens", "subs", "asw", "sub removal", "air", "main", "end"]
    if sub_casualties == AFTER_OPENING_FIRE:
        order.remove("sub removal")
    return Sequence("sea", tuple(step for part in order for step in parts[part]))


SEQUENCES = {mode: sea_sequence(mode) for mode in (AFTER_SUB_WARFARE, AFTER_OPENING_FIRE)}


def _sequence(sequence: Sequence, kind: str, ruleset: Any = None, **_: Any) -> Sequence:
    if kind != "sea":
        return sequence
    mode = str(ruleset.options.get(SUB_CASUALTIES, AFTER_SUB_WARFARE)) if ruleset is not None else AFTER_SUB_WARFARE
    return SEQUENCES.get(mode, SEQUENCES[AFTER_SUB_WARFARE])


AARHE_NAVAL = register_module(
    RuleModule(
        id="aarhe_naval",
        title="AARHE naval combat: submarine warfare, screens, ASW, anti-air, battleships, carriers",
        rule_ids=(R_TABLE, R_SUB_STEP, R_AIR_STEP, R_MAIN, R_SCREEN, nv.R_SCREEN_AIR, nv.R_SCREEN_SUB,
                  nv.R_SUB_TARGETS, R_SUB_REMOVED, R_SUBMERGE, nv.R_WOLFPACK, R_SEARCH, R_ATTACK, R_CARRIER,
                  nv.R_AA, R_SELECTIVE, nv.R_SUB_HITS, nv.R_CAPITAL_HITS, nv.R_ESCORT_HITS, nv.R_TRANSPORT_HITS),
        hooks={"combat_sequence": _sequence},
        options=(
            OptionSpec(
                key=SUB_CASUALTIES,
                type=str,
                default=AFTER_SUB_WARFARE,
                choices=(AFTER_SUB_WARFARE, AFTER_OPENING_FIRE),
                help="When the ships the submarines sink are removed: after the submarine warfare (the sequence) "
                "or at the end of the whole opening fire",
                rule_id=R_SUB_REMOVED,
            ),
        ),
    )
)
