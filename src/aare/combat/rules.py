"""Combat rule switches. Rule modules replace fields through the ``combat_rules`` hook."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from aare.board.units import UnitCatalogue
    from aare.combat.battle_state import Side, Stacks, UnitKey
    from aare.combat.setup import Battle
    from aare.errors import IllegalAction

# A check on a declared battle: (kind, attacking stacks, defending stacks, catalogue) -> why it is illegal.
DeclarationCheck = Callable[[str, "Stacks", "Stacks", "UnitCatalogue"], "IllegalAction | None"]


@dataclass(frozen=True)
class TechBonus:
    """A tech that changes a combat value: units tagged `tag` of a side with `tech` get `delta` on `role`.

    Role "hits": the units take `delta` more hits to destroy (`start_battle` flags them ``extra_hit``).
    `cycles`: only in combat cycles up to this one (1: the first cycle only). `when`, if given, must also hold
    for the unit at the time (e.g. only units that landed from the sea). National advantages put their
    ability into a side's techs as ``na:<id>``."""

    tech: str
    tag: str
    # "attack", "defense", "hits", "aa" (a defending unit's AA fire: guns, Combined Arms battleships) or "support"
    # (how many more units tagged ``artillery_supported`` each attacking unit with the tag supports) or "dice"
    # (more dice each unit rolls, every die counting)
    role: str
    delta: int
    rule: str = ""
    cycles: int | None = None
    when: Callable[[Battle, Side, UnitKey], bool] | None = None


LHTR_TECH_BONUSES = (
    TechBonus("jet_fighters", "fighter", "defense", 1, "LHTR-TECH-jet-fighters"),
    TechBonus("super_submarines", "submarine", "attack", 1, "LHTR-TECH-super-subs"),
    TechBonus("super_submarines", "submarine", "defense", 1, "LHTR-TECH-super-subs"),
)


@dataclass(frozen=True)
class SubDetection:
    """Submarine detection (AARe, Anniversary Enhanced): the DD-to-detect value and its modifiers, with the rule
    behind each (the steps are in `aare.combat.sub_detection`).

    A sub's value against one group of enemy destroyers is `base` + the destroyers' bonuses (aircraft in the
    battle: `air_bonus`, or `long_range_air_bonus` with the `long_range_tech`; the aircraft of the destroyers' own
    nation, or of their whole side with `air_of_side`; `destroyer_tech_bonus` with the `destroyer_tech`) - the
    sub's penalties (`sub_tech_penalty` when its owner has the `sub_tech`, `suicide_penalty` when it carries the
    `suicide_flag`). The defaults are AARe's.
    """

    base: int = 3
    air_bonus: int = 1
    long_range_air_bonus: int = 2
    long_range_tech: str = "long_range_aircraft"
    air_of_side: bool = False
    destroyer_tech_bonus: int = 1
    destroyer_tech: str = "combined_bombardment"
    destroyer_tech_label: str = "combined arms"
    sub_tech_penalty: int = 1
    sub_tech: str = "super_submarines"
    sub_tech_label: str = "super submarines"
    suicide_penalty: int = 1
    suicide_flag: str = "kaiten"
    base_rule: str = "AARE-SUBDET-baseline-value-3"
    air_rule: str = "AARE-SUBDET-air-modifier"
    long_range_rule: str = "AARE-SUBDET-lra-modifier"
    destroyer_tech_rule: str = "AARE-SUBDET-ca-modifier"
    sub_tech_rule: str = "AARE-SUBDET-supersub-modifier"
    suicide_rule: str = "AARE-SUBDET-kaiten-modifier"
    # subs that stay after the undetected submerge are flagged detected at once; without it they are detected
    # by being past the first cycle (where a destroyer moves detected subs' fire to the main step, a sub that
    # fired in opening fire so does not fire again in the main step of that cycle)
    flag_stayers: bool = True
    # the rule ids of the steps: one roll per destroyer, the threshold, undetected subs' hits removed at the end of
    # opening fire, their submerge after it (and those that stay become detected)
    roll_rule: str = "AARE-SUBDET-one-roll-per-dd"
    result_rule: str = "AARE-SUBDET-roll-threshold"
    strike_rule: str = "AARE-NAVALSEQ-regular-sub-values"
    submerge_rule: str = "AARE-SUBDET-undetected-submerge"
    # the units that roll to detect: those with one of these tags, or of a domain named ``domain:<domain>``
    # (never a submarine), and what their dice are called
    detectors: tuple[str, ...] = ("anti_submarine",)
    detector_label: str = "destroyers"


@dataclass(frozen=True)
class CombatRules:
    """Switches and numbers of the combat rules; the defaults are LHTR 1.3."""

    # LHTR-NAVALCOMBAT-air-can-hit-subs: aircraft hits may go to submarines with no friendly destroyer.
    air_hits_subs_without_destroyer: bool = True
    # LHTR-NAVALCOMBAT-sub-surprise-strike: subs always fire in opening fire; an enemy destroyer only keeps
    # their casualties on the board. When True (Anniversary style) subs facing an enemy destroyer fire with
    # the main group instead.
    destroyer_moves_sub_fire_to_main_step: bool = False
    # LHTR-NAVALCOMBAT-sub-surprise-strike: defending subs fire first too. When False (Classic) only attacking
    # subs fire first; defending subs roll with the other defenders in the main step.
    defender_subs_fire_first: bool = True
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
    # whether heavy bombers roll their extra dice when defending (AARe: attack and raids only)
    heavy_bombers_on_defense: bool = True
    # LHTR-TECH-heavy-bombers-sbr: damage = best of the dice + bonus (AARe: the sum of the dice, no bonus)
    heavy_bomber_sbr_bonus: int = 1
    heavy_bomber_sbr_best_of: bool = True
    # AARE-TECH-jet-aa-reduction: AA (guns, Combined Arms battleships) hits fighters of a power with the
    # `jet_tech` on `aa_hit_on` - `jet_aa_reduction`
    jet_tech: str = "jet_fighters"
    jet_aa_reduction: int = 0
    # Strategic bombing raids (AARe): escorting fighters may fly with the bombers and defending fighters may
    # stand by to intercept; in LHTR only bombers raid and only AA guns and complexes defend.
    sbr_escorts: bool = False
    sbr_interceptors: bool = False
    # LHTR-SBR-turn-cap
    sbr_turn_cap: bool = True
    # LHTR-LANDCOMBAT-artillery-support: attack bonus of a supported infantry
    artillery_support_bonus: int = 1
    # LHTR-TECH-combined-bombardment: tech that lets destroyers bombard
    destroyer_bombard_tech: str = "combined_bombardment"
    # LHTR-BOMBARD-casualties-no-return-fire
    bombard_casualties_fire_back: bool = False
    # LHTR-LANDCOMBAT-no-retreat-amphibious: no land unit retreats from an amphibious assault. When True
    # (Anniversary "partial amphibious retreat") the land units that came overland retreat with the aircraft to
    # where they came from; the units landed from the sea stay and fight on.
    partial_amphibious_retreat: bool = False
    # LHTR-COMBAT-air-retreat: the aircraft of an amphibious assault may retreat alone. When False (Classic) no
    # attacking unit retreats once land units came ashore from the sea.
    amphibious_air_retreat: bool = True
    # LHTR-AIRMOVE-defending-carrier-lost: defending fighters of a sunk carrier with no friendly territory one
    # space away are lost. When True they land on friendly carriers with room in an adjacent sea zone first.
    defending_fighters_to_adjacent_carriers: bool = False
    # When True they may land only on an island of the battle's sea zone (a territory next to it with no land
    # neighbour) held since the turn began, besides the carriers with room in the zone itself.
    defending_fighters_islands_only: bool = False
    tech_bonuses: tuple[TechBonus, ...] = LHTR_TECH_BONUSES
    # Checks a battle must pass when it is declared (e.g. AARE-AIRSUB-air-only-vs-subs-only); LHTR has none.
    declaration_checks: tuple[DeclarationCheck, ...] = ()
    # Submarine detection (AARe); None: LHTR, every sub is treated as detected.
    sub_detection: SubDetection | None = None
    # AA fire is rolled per attacking power when several attack together (AARE-DDAY-aa-per-nation)
    aa_per_owner: bool = False
    # Units with one of these tags are chosen as casualties only after every other unit of their side that the
    # hits may reach (e.g. defenceless transports); a choice that breaks it is refused under `last_casualty_rule`.
    last_casualty_tags: tuple[str, ...] = ()
    last_casualty_rule: str = "LHTR-COMBAT-owner-chooses-casualties"
    # Units with no attack and no defence value left alone against enemy units able to hit them are removed
    # without rolls; otherwise (LHTR) they stay and are shot at.
    lone_defenceless_removed: bool = False
    # LHTR-NAVALCOMBAT-defender-subs-submerge: defending subs may not submerge at the end of a cycle in which an
    # attacking destroyer was lost (False: only the destroyers present count)
    submerge_blocked_by_destroyer_lost: bool = True
    # No more ships bombard an amphibious assault than land units land from the sea in it; a battle declared
    # with more is refused under `bombard_limit_rule`. 0: no limit.
    bombard_per_landing_unit: int = 0
    bombard_limit_rule: str = "LHTR-BOMBARD-who-and-when"
    # Units routed out of a battle into another space are marked `movement.flags.RETREATED` (as always for a sea
    # zone) in land battles too, so a rule can find them later in the turn
    mark_land_retreats: bool = False
