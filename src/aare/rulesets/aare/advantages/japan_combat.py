"""Japan's national advantages in battle (seed NATIONAL ADVANTAGES / JAPAN 1, 3, 5, 6; NAVAL COMBAT SEQUENCE
1a, 2d, 2e, 3).

- Banzai Attacks: attacking Japanese infantry +1 in the first cycle (2; 3 when paired with artillery).
- Yamato: Japanese battleships attack, defend and bombard at 5.
  Both put ``na:<id>`` into Japan's techs in a battle (`battle_inputs`; ``--attacker-advantage`` in the calculator);
  the `TechBonus` records below read it.
- Kaitens and Kamikazes: attacking units flagged ``kaiten`` (submarines) and ``kamikaze`` (fighters) on a one-way
  mission. At the start of the battle Japan names one target per Kaiten and Kamikaze, in order (a
  `ChooseTargets` decision, answered in the battle's notes). The Kaitens roll first, one die each at 3 (4 with
  Super Subs), then the Kamikazes at 4, each at the first declared target still afloat: the sequence moves on
  only when a target sinks (past the entries naming that unit again); with the option `suicide_target_order`
  = per_hit every hit uses up its entry instead. Detected
  Kaitens roll at an enemy destroyer until one is sunk. Kaitens and Kamikazes cannot be hit by enemy units
  (Kamikazes only by AA and interceptors, before they roll); they and their victims are removed at the end of
  opening fire.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from aare.board.units import UnitCatalogue
from aare.combat.battle_state import BattleState, DiceGroup, Stacks, Target, UnitKey, hit_points, make_stacks
from aare.combat.decisions import ChooseTargets, declared_targets, targets_note
from aare.combat.rules import CombatRules, TechBonus
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, roll
from aare.combat.values import present
from aare.errors import IllegalAction, MalformedInput
from aare.movement import flags
from aare.rulesets.aare.advantages.base import Advantage, in_force
from aare.rulesets.aare.advantages.battle_tags import PREFIX, with_tag
from aare.rulesets.aare.advantages.japan_record import JAPAN

BANZAI, YAMATO, KAITENS, KAMIKAZES = "banzai_attacks", "yamato", "kaiten_torpedoes", "kamikaze_attacks"
KAITEN, KAMIKAZE = "kaiten", "kamikaze"  # battle flags (`SubDetection.suicide_flag`, `air_defence.KAMIKAZE`)
KAITEN_ON, KAITEN_ON_SUPER, KAMIKAZE_ON = 3, 4, 4  # AARE-NA-JPN-kaiten-hit-3, AARE-NA-JPN-kami-hit-4
PER_TURN = 2  # AARE-NA-JPN-kaiten-designation, AARE-NA-JPN-kami-designation
SUPER_SUBS = "super_submarines"
EXPENDED = "casualty:opening"  # removed at the end of opening fire; no enemy hit can be assigned to it
ROLLED = "suicide:rolled"  # a Kaiten or Kamikaze that has rolled
AIM = "suicide:aim"  # the enemy unit the roll in progress aims at
N_NEXT = "suicide:next="  # note: index of the first declared target not yet hit
N_AIM = "suicide:aim="  # note: "<entry>:<damage before>" of the roll in progress ("dd": a detected Kaiten's destroyer)
N_DD = "suicide:dd-done"  # note: the destroyer the detected Kaitens must hit first is sunk
R_KT_TARGETS, R_KM_TARGETS = "AARE-NA-JPN-kaiten-targets", "AARE-NA-JPN-kami-targets"
R_BOTH = "AARE-NA-JPN-kami-with-kaitens"


def ability(adv_id: str) -> str:
    return PREFIX + adv_id


BONUSES: dict[str, tuple[TechBonus, ...]] = {
    BANZAI: (TechBonus(ability(BANZAI), "infantry", "attack", 1, "AARE-NA-JPN-banzai-attack-2", cycles=1),),
    YAMATO: (TechBonus(ability(YAMATO), "battleship", "attack", 1, "AARE-NA-JPN-yamato-5"),
             TechBonus(ability(YAMATO), "battleship", "defense", 1, "AARE-NA-JPN-yamato-5")),
}


# ---------------------------------------------------------------- who is who in a battle


def _flagged(battle: Battle, flag: str) -> list[tuple[UnitKey, int]]:
    return [(k, n) for k, n in present(battle, "attacker") if k.has(flag)]


def _unrolled(battle: Battle, flag: str) -> UnitKey | None:
    """A Kaiten (Kamikaze) that has not rolled yet and is still in the battle."""
    for key, _ in _flagged(battle, flag):
        if not key.has(ROLLED) and (flag == KAITEN or not key.marked):
            return key
    return None


def _rollers(battle: Battle) -> int:
    return sum(n for k, n in present(battle, "attacker") if (k.has(KAITEN) or k.has(KAMIKAZE)) and not k.has(ROLLED))


def _targetable(battle: Battle, key: UnitKey) -> bool:
    """Enemy ships other than submarines may be named (AARE-NA-JPN-kaiten-targets, AARE-NA-JPN-kami-targets)."""
    unit = battle.setup.unit(key)
    return unit.domain == "sea" and not unit.has("submarine") and not key.marked


def _live(battle: Battle) -> list[UnitKey]:
    return [k for k, _ in present(battle, "defender") if _targetable(battle, k)]


def _note(notes: frozenset[str], prefix: str) -> str | None:
    return next((n[len(prefix):] for n in notes if n.startswith(prefix)), None)


def _next(state: BattleState) -> int:
    return int(_note(state.notes, N_NEXT) or 0)


# ---------------------------------------------------------------- 1a: declare the targets


def eligible(battle: Battle) -> tuple[tuple[str, str, int], ...]:
    """``(owner, type, hits)`` of the enemy ships that may be named, with the hits they can take in all."""
    cat = battle.setup.catalogue
    room: dict[tuple[str, str], int] = {}
    for key, n in present(battle, "defender"):
        if _targetable(battle, key):
            room[key.owner, key.type] = room.get((key.owner, key.type), 0) + n * (hit_points(cat, key) - key.damage)
    return tuple((o, t, h) for (o, t), h in sorted(room.items(), key=lambda e: (cat.order(e[0][1]), e[0][0])))


def declare_targets(battle: Battle) -> StepResult:
    """AARE-NA-JPN-kaiten-targets, AARE-NA-JPN-kami-targets, AARE-NA-JPN-kami-with-kaitens: Japan names one target
    per Kaiten and Kamikaze, in order (fewer when the enemy ships cannot take that many hits). The Kaitens are
    expended from here on: no enemy hit can be assigned to them (AARE-NA-JPN-kaiten-expended)."""
    st = battle.state
    kept = [(k.with_flag(EXPENDED) if k.has(KAITEN) else k, n) for k, n in st.attacker]
    st = st.with_units("attacker", make_stacks(kept))
    options = eligible(battle)
    count = min(_rollers(battle), sum(h for _, _, h in options))
    if not count:
        return replace(st, notes=st.notes | {targets_note(())}), []
    kaitens, kamis = bool(_flagged(battle, KAITEN)), bool(_flagged(battle, KAMIKAZE))
    rule = R_BOTH if kaitens and kamis else R_KT_TARGETS if kaitens else R_KM_TARGETS
    return replace(st, pending=ChooseTargets("attacker", count, options, rule)), []


def _must_declare(battle: Battle) -> bool:
    return _rollers(battle) > 0 and declared_targets(battle.state.notes) is None


DECLARE = Step("declare suicide targets", declare_targets, _must_declare, cycles=1, rule=R_KT_TARGETS)


# ---------------------------------------------------------------- 2d, 2e: the rolls


AFLOAT, PER_HIT = "afloat", "per_hit"  # option `suicide_target_order`


def _moved_on(battle: Battle, entry: int, aimed: UnitKey, mode: str) -> int | None:
    """The next target entry after a hit on `aimed` at `entry`, or None to stay. `per_hit`: every hit uses up
    its entry. `afloat`: the roll moves on only when the target sank, past the entries naming that same unit
    again (a two-hit unit named twice)."""
    if mode == PER_HIT:
        return entry + 1
    if not aimed.marked:
        return None
    targets = declared_targets(battle.state.notes) or ()
    nxt, again = entry + 1, hit_points(battle.setup.catalogue, aimed) - 1
    while again and nxt < len(targets) and targets[nxt] == targets[entry]:
        nxt, again = nxt + 1, again - 1
    return nxt


def settle(battle: Battle, mode: str = AFLOAT) -> BattleState:
    """Close the roll in progress: a hit on the detected Kaitens' destroyer fulfils that duty; a hit on a
    declared target moves the sequence on (see `_moved_on`); the aim mark goes."""
    state = battle.state
    aim = _note(state.notes, N_AIM)
    if aim is None:
        return state
    entry, _, before = aim.partition(":")
    aimed = [k for k, _ in state.defender if k.has(AIM)]
    hit = bool(aimed) and (aimed[0].marked or aimed[0].damage > int(before))
    notes = {n for n in state.notes if not n.startswith(N_AIM)}
    if hit and entry == "dd":
        notes.add(N_DD)
    elif hit:
        nxt = _moved_on(battle, int(entry), aimed[0], mode)
        if nxt is not None:
            notes = {n for n in notes if not n.startswith(N_NEXT)} | {f"{N_NEXT}{nxt}"}
    defender = make_stacks((k.without(AIM), n) for k, n in state.defender)
    return replace(state.with_units("defender", defender), notes=frozenset(notes))


def _pick(battle: Battle, owner: str, unit: str) -> UnitKey | None:
    found = [k for k in _live(battle) if k.type == unit and k.owner == owner]
    return max(found, key=lambda k: (k.damage, k)) if found else None


def aim(battle: Battle, roller: UnitKey) -> tuple[str, UnitKey] | None:
    """What `roller` rolls at: a destroyer while detected Kaitens have not sunk one
    (AARE-NA-JPN-kaiten-detected-dd-first; never for Kamikazes, AARE-NA-JPN-kami-no-dd-first), else the first
    declared target not yet hit whose unit is still afloat (AARE-NA-JPN-kaiten-undetected-order,
    AARE-NA-JPN-kami-with-kaitens)."""
    targets = declared_targets(battle.state.notes) or ()
    if roller.has(KAITEN) and roller.has("detected") and N_DD not in battle.state.notes:
        dds = [k for k in _live(battle) if battle.setup.unit(k).has("anti_submarine")]
        named = [o for o, t in targets if battle.setup.unit(t).has("anti_submarine")]
        if dds:
            first = [k for k in dds if named and k.owner == named[0]] or dds
            return "dd", first[0]
    for index in range(_next(battle.state), len(targets)):
        key = _pick(battle, *targets[index])
        if key is not None:
            return str(index), key
    return None


def value(battle: Battle, roller: UnitKey) -> int:
    if roller.has(KAMIKAZE):
        return KAMIKAZE_ON
    return KAITEN_ON_SUPER if SUPER_SUBS in battle.setup.techs("attacker", roller) else KAITEN_ON


def _one(stacks: Stacks, key: UnitKey, flag: str) -> Stacks:
    """One unit of `key` with `flag` added."""
    return make_stacks((*stacks, (key, -1), (key.with_flag(flag), 1)))


def roll_next(kind: str, step: str, rule: str, mode: str) -> Callable[[Battle], StepResult]:
    """The next Kaiten (Kamikaze) rolls one die at its target; it is expended whether it hits or not."""

    def run(battle: Battle) -> StepResult:
        st = settle(battle, mode)
        battle = battle.with_state(st)
        roller = _unrolled(battle, kind)
        if roller is None:
            return st, []
        spent = roller.with_flag(ROLLED).with_flag(EXPENDED)
        st = st.with_units("attacker", make_stacks((*st.attacker, (roller, -1), (spent, 1))))
        battle = battle.with_state(st)
        found = aim(battle, spent)
        if found is None:
            return st, []
        entry, target = found
        st = replace(st.with_units("defender", _one(st.defender, target, AIM)),
                     notes=st.notes | {f"{N_AIM}{entry}:{target.damage}"})
        label = f"{roller.type} ({kind})"
        group = DiceGroup("attacker", label, 1, value(battle, spent), Target(flags=(AIM,), rule=rule), "opening")
        return roll(battle.with_state(st), step, [group])

    return run


def _has_unrolled(kind: str) -> Callable[[Battle], bool]:
    return lambda battle: _unrolled(battle, kind) is not None


def _aiming(battle: Battle) -> bool:
    return _note(battle.state.notes, N_AIM) is not None


def _steps(mode: str) -> tuple[Step, ...]:
    """Two Kaiten rolls, two Kamikaze rolls and the close of the last one, under the target-order `mode`."""
    rolls = [
        Step(name, roll_next(kind, name, rule, mode), _has_unrolled(kind), cycles=1, rule=rule)
        for kind, rule, names in ((KAITEN, "AARE-NA-JPN-kaiten-hit-3", ("kaitens", "kaiten 2")),
                                  (KAMIKAZE, "AARE-NA-JPN-kami-hit-4", ("kamikazes", "kamikaze 2")))
        for name in names
    ]
    done = Step("suicide attacks result", lambda b: (settle(b, mode), []), _aiming, cycles=1,
                rule="AARE-NA-JPN-kaiten-casualties")
    return (*rolls, done)


STEPS = {mode: _steps(mode) for mode in (AFLOAT, PER_HIT)}


def combat_sequence(seq: Sequence, kind: str, advantage: Advantage, ruleset: Any = None, **_: Any) -> Sequence:
    """The target declaration (1a), two Kaiten rolls (2d) and two Kamikaze rolls (2e) at their AARe anchors."""
    if advantage.id != KAITENS or kind != "sea" or "kaitens" not in seq.names or "kaiten 2" in seq.names:
        return seq
    mode = str(ruleset.options.get("suicide_target_order", AFLOAT)) if ruleset is not None else AFLOAT
    kaiten, kaiten2, kami, kami2, done = STEPS[mode]
    seq = seq.replace("declare suicide targets", DECLARE)
    seq = seq.replace("kaitens", kaiten).insert_after("kaitens", kaiten2)
    seq = seq.replace("kamikazes", kami).insert_after("kamikazes", kami2)
    return seq.insert_after("kamikaze 2", done)


# ---------------------------------------------------------------- checks when the battle is declared


def suicide_check(kind: str, attacker: Stacks, defender: Stacks, catalogue: UnitCatalogue) -> IllegalAction | None:
    """Kaitens only attack (AARE-NA-JPN-kaiten-attack-only), Kamikazes only at sea (AARE-NA-JPN-kami-naval-only),
    at most two of each (AARE-NA-JPN-kaiten-designation, AARE-NA-JPN-kami-designation); only subs are Kaitens and
    only fighters Kamikazes."""
    if any(k.has(KAITEN) for k, _ in defender):
        return IllegalAction("Kaitens can only attack", "AARE-NA-JPN-kaiten-attack-only")
    if any(k.has(KAMIKAZE) for k, _ in defender):
        return IllegalAction("Kamikazes can only attack", "AARE-NA-JPN-kami-naval-only")
    for flag, tag, rule in ((KAITEN, "submarine", "AARE-NA-JPN-kaiten-designation"),
                            (KAMIKAZE, "fighter", "AARE-NA-JPN-kami-designation")):
        mine = [(k, n) for k, n in attacker if k.has(flag)]
        if any(not catalogue[k.type].has(tag) for k, _ in mine):
            return IllegalAction(f"only {tag}s can be {flag}s", rule)
        if sum(n for _, n in mine) > PER_TURN:
            return IllegalAction(f"at most {PER_TURN} {flag}s a turn", rule)
        if mine and kind != "sea":
            return IllegalAction(f"{flag}s attack only ships at sea", "AARE-NA-JPN-kami-naval-only")
    return None


def combat_rules(rules: CombatRules, advantage: Advantage, **_: Any) -> CombatRules:
    """The NA's value changes (units whose techs hold its ability) and the Kaiten/Kamikaze checks."""
    extra = tuple(b for b in BONUSES.get(advantage.id, ()) if b not in rules.tech_bonuses)
    if extra:
        rules = replace(rules, tech_bonuses=(*rules.tech_bonuses, *extra))
    if advantage.id == KAITENS and suicide_check not in rules.declaration_checks:
        rules = replace(rules, declaration_checks=(*rules.declaration_checks, suicide_check))
    return rules


# ---------------------------------------------------------------- battles on the board


def _mark(stacks: Stacks, unit: str, n: int, flag: str, owner: str | None = JAPAN) -> Stacks:
    """`n` of `owner`'s (any owner's: None) `unit` in `stacks` flagged `flag`."""
    out = []
    for key, count in stacks:
        take = min(count, n) if key.type == unit and owner in (None, key.owner) and not key.has(flag) else 0
        n -= take
        out += [(key, count - take), (key.with_flag(flag), take)]
    if n:
        raise MalformedInput(f"not enough {unit}s to make {n} more {flag}(s)")
    return make_stacks(out)


def suicide_attackers(attacker: Any, catalogue: UnitCatalogue, kaitens: int, kamikazes: int) -> Stacks:
    """The calculator's attackers (unit text, ``{type: n}`` or ``{UnitKey: n}``) with `kaitens` subs and
    `kamikazes` fighters flagged."""
    from aare.combat.engine import to_stacks

    stacks = to_stacks(attacker, catalogue)
    if kaitens:
        stacks = _mark(stacks, "submarine", kaitens, KAITEN, None)
    return _mark(stacks, "fighter", kamikazes, KAMIKAZE, None) if kamikazes else stacks


SUICIDE_UNITS: Mapping[str, tuple[str, str]] = {KAITENS: ("submarine", KAITEN), KAMIKAZES: ("fighter", KAMIKAZE)}


def battle_inputs(inputs: dict[str, Any], advantage: Advantage, state: Any, site: Any, **_: Any) -> dict[str, Any]:
    """Japan's abilities in its battles: Banzai when attacking, Yamato attacking and defending; Japan's units
    designated as Kaitens / Kamikazes (the map flag ``turn:suicide``) are flagged for the battle."""
    if not in_force(state, JAPAN, advantage.id):
        return inputs
    if advantage.id in BONUSES:
        attacking = site.attacker == JAPAN
        if advantage.id == BANZAI and not attacking:
            return inputs
        return with_tag(inputs, site.attacker, JAPAN, ability(advantage.id), "attacker" if attacking else "")
    found = SUICIDE_UNITS.get(advantage.id)
    if found is None or site.attacker != JAPAN or site.kind != "sea":
        return inputs
    unit, flag = found
    n = sum(s.count for s in site.attackers if s.owner == JAPAN and s.unit == unit and flags.has(s, flags.SUICIDE))
    return {**inputs, "attacker": _mark(inputs["attacker"], unit, n, flag)} if n else inputs
