"""Russian Winter (seed NATIONAL ADVANTAGES / RUSSIA 1, AARE-NA-RUS-winter-*).

Once a game, in a Russian collect-income phase, Russia declares a Severe Winter (`severe_winter`). From then
until the end of Russia's next turn Russian infantry defend at 3 in any battle and attack at 2 in battles in
Red territories or West Russia, at 3 there when paired 1:1 with artillery (the ordinary artillery support on
top). The declaration is kept in ``extra["severe_winter"] = {"round": r}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from aare.actions import SevereWinter
from aare.combat.rules import CombatRules, TechBonus
from aare.errors import IllegalAction
from aare.events import ExtraSet
from aare.movement.battles import BattleSite
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.ruleset import Ruleset
from aare.rulesets.aare.advantages.russia_common import RUSSIA, holds, red, tag_russia
from aare.state.game_state import GameState

ID = "russian_winter"
KEY = "severe_winter"
PHASE = "collect-income"
WEST_RUSSIA = "West Russia"
R_TRIGGER = "AARE-NA-RUS-winter-trigger"
R_DURATION = "AARE-NA-RUS-winter-duration"
R_DEFENSE = "AARE-NA-RUS-winter-defense-3"
R_ATTACK = "AARE-NA-RUS-winter-attack-2"
R_ARTILLERY = "AARE-NA-RUS-winter-artillery-3"
RULE_IDS = (R_TRIGGER, R_DURATION, R_DEFENSE, R_ATTACK, R_ARTILLERY)

# infantry +1 (defence anywhere, attack where the winter attack applies); artillery support adds its +1 on
# top of the attack, so paired infantry attack at 3 (AARE-NA-RUS-winter-artillery-3)
BONUSES = (
    TechBonus("na:" + ID, "infantry", "defense", 1, R_DEFENSE),
    TechBonus("na:" + ID, "infantry", "attack", 1, R_ATTACK),
)


def declared_round(state: GameState) -> int | None:
    """The round in which Russia declared its Severe Winter, if it has."""
    raw = state.extra.get(KEY)
    return int(raw["round"]) if isinstance(raw, dict) and "round" in raw else None


def winter(state: GameState, ruleset: Ruleset) -> bool:
    """Whether a Severe Winter is in effect: from its declaration to the end of Russia's next turn, every other
    nation's turn in between included (AARE-NA-RUS-winter-duration)."""
    start = declared_round(state)
    if start is None:
        return False
    order = [p.name for p in ruleset.board.powers]
    russia = order.index(RUSSIA)
    now = (state.round, order.index(state.nation))
    return (start, russia) <= now <= (start + 1, russia)


class WinterExtension(PhaseExtension):
    """The `severe_winter` action: Russia's, once a game, in its collect-income phase (AARE-NA-RUS-winter-trigger)."""

    name = "russian-winter"
    action_types = frozenset({"severe_winter"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state = ctx.state
        if space is None and ctx.power == RUSSIA and state.phase == PHASE and holds(state, ID) \
                and declared_round(state) is None:
            yield SevereWinter()

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state = ctx.state
        if not holds(state, ID):
            raise IllegalAction("only Russia, with the Russian Winter advantage, declares a Severe Winter", R_TRIGGER)
        if ctx.power != RUSSIA or state.phase != PHASE:
            raise IllegalAction("a Severe Winter is declared in Russia's collect-income phase", R_TRIGGER)
        if declared_round(state) is not None:
            raise IllegalAction(f"Russia declared its Severe Winter in round {declared_round(state)}: once a game",
                                R_TRIGGER)
        ctx.emit(ExtraSet(KEY, {"round": state.round}, R_TRIGGER))


EXTENSION = WinterExtension()


def phase_actions(found: list[Any], state: GameState | None = None, **_: Any) -> list[Any]:
    """The Severe Winter action, in every phase (so that a declaration out of place names the rule)."""
    return [*found, EXTENSION] if state is not None else found


def combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    return replace(rules, tech_bonuses=(*rules.tech_bonuses, *BONUSES))


def battle_inputs(inputs: dict[str, Any], ruleset: Ruleset, state: GameState, site: BattleSite,
                  **_: Any) -> dict[str, Any]:
    """During a Severe Winter: Russian infantry defending anywhere (AARE-NA-RUS-winter-defense-3), attacking in
    Red territories or West Russia only (AARE-NA-RUS-winter-attack-2)."""
    if not holds(state, ID) or site.kind not in ("land", "amphibious") or not winter(state, ruleset):
        return inputs
    if site.attacker == RUSSIA:
        if site.space in red(ruleset) | {WEST_RUSSIA}:
            return tag_russia(inputs, site, ID, "attacker")
        return inputs
    return tag_russia(inputs, site, ID, "defender")
