"""Germany's national advantages in battle (seed NATIONAL ADVANTAGES / GERMANY 1, 2, 5, 6; the AARe combat
sequences' steps 2c "coastal defence" and 2d "German 88s").

Each NA puts its ability, ``na:<id>``, into Germany's techs in a battle (`tags`, the ``battle_inputs`` hook; in
the calculator ``--attacker-advantage`` / ``--defender-advantage``); the `TechBonus` records and steps here read
it:

- Atlantic Wall: German infantry and artillery defend at 3 in the first cycle of an amphibious assault on Western
  Europe or Norway; the designated artillery's coastal-defence shot (`coastal_shot`) in the naval battle of its
  zone, in opening fire.
- German 88's: attacking artillery fire at 3 in opening fire in the first cycle (their casualties are removed at
  the end of opening fire) and not in the attacker's main fire of that cycle; infantry keep their support.
- Wolf Packs: attacking German subs +1 while at least two of them are in the battle.
- Luftwaffe Dive-Bombers: attacking German fighters hit on 4 in the first cycle unless the defender had a
  fighter when the battle began.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from aare.combat.battle_state import DiceGroup, Side, Target, UnitKey
from aare.combat.rules import CombatRules, TechBonus
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, roll
from aare.combat.values import present
from aare.rulesets.aare.advantages.base import Advantage, in_force
from aare.rulesets.aare.advantages.battle_tags import PREFIX, with_tag

GERMANY = "Germany"
WALL = ("Western Europe", "Norway")
AW, G88, WP, LDB = "atlantic_wall", "german_88s", "wolf_packs", "luftwaffe_dive_bombers"
COASTAL_TAG = "na:coastal_defence="  # + "<unit type>:<owner>": the target of the coastal-defence shot
COASTAL_ON, COASTAL_ON_88 = 2, 3  # AARE-NA-GER-aw-coastal-shot
EIGHTY_EIGHT_ON = 3  # AARE-NA-GER-88-opening-fire
NO_MAIN_FIRE = -6  # the 88s' main-fire value in cycle 1: they fired in opening fire
PACK = 2  # AARE-NA-GER-wp-attack-bonus


def ability(adv_id: str) -> str:
    """The NA's ability in a side's techs (``na:<id>``, as `battle_tags.battle_tag`)."""
    return PREFIX + adv_id


# ---------------------------------------------------------------- conditions


def _attacking(_battle: Battle, side: Side, _key: UnitKey) -> bool:
    return side == "attacker"


def _defending_amphibious(battle: Battle, side: Side, _key: UnitKey) -> bool:
    """AARE-NA-GER-aw-amphib-defense-3: an amphibious assault (at least one attacker came from the sea)."""
    return side == "defender" and battle.state.kind == "amphibious"


def _pack(battle: Battle, side: Side, key: UnitKey) -> bool:
    """AARE-NA-GER-wp-attack-bonus, -wp-bonus-lost, -wp-no-defense-bonus: attacking, with at least two subs of
    the pack's power in the battle when they fire (at the start of the cycle: subs fire first)."""
    if side != "attacker":
        return False
    tag = ability(WP)
    subs = sum(n for k, n in present(battle, side)
               if k.owner == key.owner and battle.setup.unit(k).has("submarine") and tag in battle.setup.techs(side, k))
    return subs >= PACK


def _dive(battle: Battle, side: Side, _key: UnitKey) -> bool:
    """AARE-NA-GER-ldb-first-cycle-4, -ldb-cancel: attacking, with no defending fighter in the battle. On the board
    the ability is given only when the defender has no fighter as the battle begins (`tags`), so one lost in
    opening fire still cancels the bonus; the calculator checks when the fighters roll."""
    return side == "attacker" and not _defender_fighters(battle)


def _defender_fighters(battle: Battle) -> bool:
    return any(battle.setup.unit(k).has("fighter") for k, _ in present(battle, "defender"))


BONUSES: dict[str, tuple[TechBonus, ...]] = {
    AW: tuple(
        TechBonus(ability(AW), tag, "defense", 1, "AARE-NA-GER-aw-amphib-defense-3", cycles=1,
                  when=_defending_amphibious)
        for tag in ("infantry", "artillery")
    ),
    G88: (TechBonus(ability(G88), "artillery", "attack", NO_MAIN_FIRE, "AARE-NA-GER-88-inf-support", cycles=1,
                    when=_attacking),),
    WP: (TechBonus(ability(WP), "submarine", "attack", 1, "AARE-NA-GER-wp-attack-bonus", when=_pack),),
    LDB: (TechBonus(ability(LDB), "fighter", "attack", 1, "AARE-NA-GER-ldb-first-cycle-4", cycles=1, when=_dive),),
}


def combat_rules(rules: CombatRules, advantage: Advantage, **_: Any) -> CombatRules:
    """The NA's value changes (they apply only to units whose techs hold its ability)."""
    extra = tuple(b for b in BONUSES.get(advantage.id, ()) if b not in rules.tech_bonuses)
    return replace(rules, tech_bonuses=(*rules.tech_bonuses, *extra)) if extra else rules


# ---------------------------------------------------------------- German 88s (land step 2d)


def _eighty_eights(battle: Battle) -> int:
    tag = ability(G88)
    setup = battle.setup
    return sum(n for k, n in present(battle, "attacker")
               if setup.unit(k).has("artillery") and tag in setup.techs("attacker", k))


def eighty_eights_fire(battle: Battle) -> StepResult:
    """AARE-NA-GER-88-opening-fire: each attacking German artillery rolls one die at 3; its hits are removed at the
    end of opening fire and do not fire back."""
    group = DiceGroup("attacker", "artillery", _eighty_eights(battle), EIGHTY_EIGHT_ON, Target(), "opening")
    return roll(battle, "german 88s", [group])


EIGHTY_EIGHTS = Step("german 88s", eighty_eights_fire, lambda b: _eighty_eights(b) > 0, cycles=1,
                     rule="AARE-NA-GER-88-opening-fire")


# ---------------------------------------------------------------- coastal defence (sea step 2c)


def coastal_target(battle: Battle) -> tuple[str, str] | None:
    """The unit type and owner the coastal-defence shot of this battle aims at, if one joined it."""
    for tech in battle.setup.attacker_techs:
        if tech.startswith(COASTAL_TAG):
            unit, _, owner = tech[len(COASTAL_TAG):].partition(":")
            return unit, owner
    return None


def coastal_value(techs: frozenset[str] | set[str]) -> int:
    """AARE-NA-GER-aw-coastal-shot: 2, or 3 with German 88's."""
    return COASTAL_ON_88 if ability(G88) in techs else COASTAL_ON


def coastal_fire(battle: Battle) -> StepResult:
    """AARE-NA-GER-aw-coastal-shot, -aw-coastal-timing, -aw-coastal-no-return-fire: the designated artillery (not
    a unit of the battle: it can neither be hit nor fired at) rolls one die at the chosen ship; a hit is removed at
    the end of opening fire."""
    found = coastal_target(battle)
    assert found is not None
    unit, owner = found
    target = Target(types=(unit,), owners=(owner,) if owner else (), exclude_tags=("submarine",),
                    rule="AARE-NA-GER-aw-coastal-shot")
    value = coastal_value(battle.setup.attacker_techs)
    return roll(battle, "coastal defence", [DiceGroup("attacker", "artillery (coastal defence)", 1, value, target,
                                                      "opening")])


def _coastal_applies(battle: Battle) -> bool:
    found = coastal_target(battle)
    return found is not None and any(k.type == found[0] and (not found[1] or k.owner == found[1]) and not k.marked
                                     for k, _ in present(battle, "defender"))


COASTAL = Step("coastal defence", coastal_fire, _coastal_applies, cycles=1, rule="AARE-NA-GER-aw-coastal-timing")


def combat_sequence(seq: Sequence, kind: str, advantage: Advantage, **_: Any) -> Sequence:
    """German 88s and coastal defence at their AARe anchors (land 2d, sea 2c)."""
    names = seq.names
    if advantage.id == G88 and "german 88s" in names and kind in ("land", "amphibious"):
        return seq.replace("german 88s", EIGHTY_EIGHTS)
    if advantage.id == AW and "coastal defence" in names and kind == "sea":
        return seq.replace("coastal defence", COASTAL)
    return seq


# ---------------------------------------------------------------- abilities on the board


def _wall_defence(state: Any, site: Any) -> bool:
    return site.kind == "amphibious" and site.space in WALL and GERMANY in site.defenders


WHEN: Mapping[str, Callable[[Any, Any], bool]] = {
    AW: _wall_defence,
    G88: lambda _state, site: site.attacker == GERMANY,
    WP: lambda _state, site: site.attacker == GERMANY and site.kind == "sea",
    LDB: lambda _state, site: site.attacker == GERMANY,
}


def _no_defending_fighter(inputs: Mapping[str, Any], ruleset: Any) -> bool:
    return not any(ruleset.units[k.type].has("fighter") for k, _ in inputs["defender"])


def tags(inputs: dict[str, Any], advantage: Advantage, ruleset: Any, state: Any, site: Any,
         **_: Any) -> dict[str, Any]:
    """The battle's inputs with the NA's ability in Germany's techs where it can matter (Dive-Bombers: only when
    the defender has no fighter as the battle begins, AARE-NA-GER-ldb-cancel); Atlantic Wall also adds the
    coastal-defence shot that joins the German attack in its sea zone (`germany_coastal`)."""
    when = WHEN.get(advantage.id)
    active = when is not None and in_force(state, GERMANY, advantage.id) and when(state, site)
    if not active or (advantage.id == LDB and not _no_defending_fighter(inputs, ruleset)):
        out = inputs
    else:
        side = "defender" if advantage.id == AW else "attacker"
        out = with_tag(inputs, site.attacker, GERMANY, ability(advantage.id), side)
    if advantage.id == AW and site.kind == "sea" and site.attacker == GERMANY:
        from aare.rulesets.aare.advantages.germany_coastal import joined_shot

        shot = joined_shot(state, site.space)
        if shot is not None:
            out = with_tag(out, site.attacker, GERMANY, f"{COASTAL_TAG}{shot[0]}:{shot[1]}", "attacker")
    return out
