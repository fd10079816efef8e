"""Combat rule switches. Rule modules replace fields through the ``combat_rules`` hook."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TechBonus:
    """A tech that changes a combat value: units tagged `tag` of a side with `tech` get `delta` on `role`."""

    tech: str
    tag: str
    role: str  # "attack" or "defense"
    delta: int
    rule: str = ""


LHTR_TECH_BONUSES = (
    TechBonus("jet_fighters", "fighter", "defense", 1, "LHTR-TECH-jet-fighters"),
    TechBonus("super_submarines", "submarine", "attack", 1, "LHTR-TECH-super-subs"),
    TechBonus("super_submarines", "submarine", "defense", 1, "LHTR-TECH-super-subs"),
)


@dataclass(frozen=True)
class CombatRules:
    """Switches and numbers of the combat rules; the defaults are LHTR 1.3."""

    # LHTR-NAVALCOMBAT-air-can-hit-subs: aircraft hits may go to submarines with no friendly destroyer.
    air_hits_subs_without_destroyer: bool = True
    # LHTR-NAVALCOMBAT-sub-surprise-strike: subs always fire in opening fire; an enemy destroyer only keeps
    # their casualties on the board. When True (Anniversary style) subs facing an enemy destroyer fire with
    # the main group instead.
    destroyer_moves_sub_fire_to_main_step: bool = False
    # LHTR-NAVALCOMBAT-defender-subs-submerge
    defender_subs_may_submerge: bool = True
    attacker_subs_may_submerge: bool = True
    # LHTR-AA-battle-fire / LHTR-AA-sbr-fire
    aa_hit_on: int = 1
    # LHTR-TECH-heavy-bombers-combat: dice per heavy bomber; best_of keeps the best die (LHTR), otherwise
    # every die counts (out-of-box Revised).
    heavy_bomber_dice: int = 2
    heavy_bomber_best_of: bool = True
    heavy_bombers_best_of_on_defense: bool = True
    # LHTR-TECH-heavy-bombers-sbr: damage = best of the dice + bonus
    heavy_bomber_sbr_bonus: int = 1
    # LHTR-SBR-turn-cap
    sbr_turn_cap: bool = True
    # LHTR-LANDCOMBAT-artillery-support: attack bonus of a supported infantry
    artillery_support_bonus: int = 1
    # LHTR-TECH-combined-bombardment: tech that lets destroyers bombard
    destroyer_bombard_tech: str = "combined_bombardment"
    # LHTR-BOMBARD-casualties-no-return-fire
    bombard_casualties_fire_back: bool = False
    tech_bonuses: tuple[TechBonus, ...] = LHTR_TECH_BONUSES
