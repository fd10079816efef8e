"""Radar (seed NATIONAL ADVANTAGES / UNITED KINGDOM 3): UK AA guns in originally British (tan) territories and UK
battleships with Combined Arms hit aircraft on 2; those AA guns may shoot down rockets aimed at their territory;
8 IPCs for research of Jet Fighters or Combined Arms, whose research succeeds with 4 rolls.

In battle the UK's ability ``na:radar`` is in its techs where Radar counts (`inputs`: a land battle or raid in a
tan territory, any sea battle); the `TechBonus` records of role "aa" raise the AA value of its guns and of its
Combined Arms battleships, and the step `ROCKET_DEFENCE` rolls for each rocket in a raid (after the AA fire,
before the damage). The research grant is kept in ``extra["research_funds"]["radar"]`` (`research_funds`); the
tech it goes to is the first of the two the UK rolls for after declaring Radar (``extra["radar"]``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aare.actions import Research
from aare.combat.battle_state import DiceGroup, Side, Target, UnitKey
from aare.combat.rules import CombatRules, TechBonus
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, roll
from aare.combat.values import present
from aare.economy.tech import research_cost, resolve_tech
from aare.errors import AareError
from aare.events import BankChanged, ExtraSet
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.effects import Context, Effect
from aare.rulesets.aare.advantages.base import Advantage, in_force
from aare.rulesets.aare.advantages.battle_tags import PREFIX, with_tag
from aare.rulesets.aare.advantages.research_funds import funds_event, funds_left
from aare.state.game_state import GameState

UK = "United Kingdom"
RADAR = "radar"
TAG = PREFIX + RADAR
JETS, COMBINED_ARMS = "jet_fighters", "combined_bombardment"
TECHS = (JETS, COMBINED_ARMS)
GRANT = 8
AUTO_DICE = 4
ROCKET_SHOT_ON = 2
R_AA = "AARE-NA-UK-radar-aa-2"
R_BB = "AARE-NA-UK-radar-ca-bb-2"
R_ROCKET = "AARE-NA-UK-radar-rocket-defense"
R_GRANT = "AARE-NA-UK-radar-tech-grant"
R_FOUR = "AARE-NA-UK-radar-tech-four-rolls"
R_CARRY = "AARE-NA-UK-radar-grant-carryover"


# ---------------------------------------------------------------- battle


def _combined_arms(battle: Battle, side: Side, key: UnitKey) -> bool:
    return COMBINED_ARMS in battle.setup.techs(side, key)


BONUSES = (
    TechBonus(TAG, "aa", "aa", 1, R_AA),
    TechBonus(TAG, "bombard", "aa", 1, R_BB, when=_combined_arms),
)


def combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    from dataclasses import replace

    extra = tuple(b for b in BONUSES if b not in rules.tech_bonuses)
    return replace(rules, tech_bonuses=(*rules.tech_bonuses, *extra)) if extra else rules


def _guns(battle: Battle) -> int:
    setup = battle.setup
    return sum(n for k, n in present(battle, "defender") if setup.unit(k).has("aa") and not k.has("rocket")
               and TAG in setup.techs("defender", k))


def _rockets(battle: Battle) -> int:
    return sum(n for k, n in present(battle, "attacker") if k.has("rocket") and not k.marked)


def rocket_defence(battle: Battle) -> StepResult:
    """AARE-NA-UK-radar-rocket-defense: one die per incoming rocket at 2; a hit rocket is gone, no damage."""
    target = Target(flags=("rocket",), rule=R_ROCKET)
    return roll(battle, "radar rocket defence", [DiceGroup("defender", "aa gun (radar)", _rockets(battle),
                                                           ROCKET_SHOT_ON, target, "now")])


ROCKET_DEFENCE = Step("radar rocket defence", rocket_defence, lambda b: _guns(b) > 0 and _rockets(b) > 0, cycles=1,
                      rule=R_ROCKET)


def combat_sequence(seq: Sequence, kind: str, **_: Any) -> Sequence:
    """The rocket shoot-down in raids and rocket strikes, after the AA fire, before any damage is rolled."""
    if kind != "bombing" or ROCKET_DEFENCE.name in seq.names or "bombing damage" not in seq.names:
        return seq
    return seq.insert_before("bombing damage", ROCKET_DEFENCE)


def inputs(inputs_: dict[str, Any], ruleset: Any, state: Any, site: Any, **_: Any) -> dict[str, Any]:
    """The UK's radar where it counts: its guns in tan territories (battles and raids there, rockets aimed there),
    its Combined Arms battleships in any sea battle."""
    if not in_force(state, UK, RADAR) or site.kind == "flyover":
        return inputs_
    tan = ruleset.board.spaces[site.space].is_land and ruleset.board.spaces[site.space].owner == UK
    if site.kind != "sea" and not tan:
        return inputs_
    return with_tag(inputs_, site.attacker, UK, TAG)


# ---------------------------------------------------------------- research


def chosen(state: GameState | None) -> str | None:
    """The tech Radar's grant and 4-roll benefit went to: the first of the two the UK rolled for."""
    if state is None:
        return None
    raw = state.extra.get(RADAR)
    return str(raw["tech"]) if isinstance(raw, Mapping) and raw.get("tech") else None


def _four_rolls(context: Context) -> bool:
    """AARE-NA-UK-radar-tech-four-rolls: for the chosen tech (or, before the choice, either of the two)."""
    tech, state = context.get("tech"), context.get("state")
    pick = chosen(state)
    return tech == pick if pick else tech in TECHS


EFFECTS = (Effect("research_auto_dice", UK, "set", AUTO_DICE, R_FOUR, "Radar", _four_rolls),)


def on_declare(ctx: TurnContext, adv: Advantage) -> None:
    """AARE-NA-UK-radar-tech-grant: 8 IPCs kept apart for research."""
    ctx.emit(funds_event(ctx.state, RADAR, funds_left(ctx.state, RADAR) + GRANT, R_GRANT))


class RadarResearch(PhaseExtension):
    """Develop weapons: the first roll for Jets or Combined Arms chooses Radar's tech; the grant pays first for
    its dice (AARE-NA-UK-radar-grant-carryover: what is left stays for later turns)."""

    name = "radar-research"

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Research) or ctx.power != UK or not action.tech:
            return
        try:
            tech = resolve_tech(ctx.ruleset, action.tech)
        except AareError:
            return
        pick = chosen(ctx.state)
        if pick is None and tech in TECHS:
            ctx.emit(ExtraSet(RADAR, {"tech": tech, "round": ctx.state.round}, R_FOUR))
            pick = tech
        left = funds_left(ctx.state, RADAR)
        if tech != pick or not left:
            return
        use = min(left, action.dice * research_cost(ctx.state, ctx.ruleset, UK, tech))
        ctx.emit(BankChanged(UK, use, "rule", R_GRANT), funds_event(ctx.state, RADAR, left - use, R_CARRY))


RESEARCH = RadarResearch()


def phase_actions(found: list[Any], phase: str, state: GameState | None = None, **_: Any) -> list[Any]:
    if phase == "develop-weapons" and state is not None and state.nation == UK and in_force(state, UK, RADAR):
        return [*found, RESEARCH]
    return found


def rule_ids() -> Iterable[str]:
    return (R_AA, R_BB, R_ROCKET, R_GRANT, R_FOUR, R_CARRY)
