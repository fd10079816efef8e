"""AARe 5.0 national advantages (seed NATIONAL ADVANTAGES): the declaration schedule and the declared NAs.

The NAs themselves are records in `aare.rulesets.aare.advantages` (one module per nation). This module adds the phase
actions of the schedule (`declare_advantage`, `place_free`; see `aare.rulesets.aare.advantages.deploy`), applies each
NA's effects while the acting power has it in force, and folds each NA's own hooks into the core hooks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aare.rules.effects import Context, Effect
from aare.rules.options import OptionSpec
from aare.rules.rule_module import HOOKS, RuleModule, register_module
from aare.rulesets.aare.advantages.base import Advantage, all_advantages, in_force
from aare.rulesets.aare.advantages.battle_tags import battle_tags
from aare.rulesets.aare.advantages.deploy import extensions
from aare.rulesets.aare.advantages.japan_combat import suicide_attackers


def _guarded(adv: Advantage, effect: Effect) -> Effect:
    """`effect`, applying only when the context's power has declared `adv` (and its own requirement holds)."""
    inner = effect.requires

    def requires(context: Context) -> bool:
        if context.get("power") != adv.nation or not in_force(context.get("state"), adv.nation, adv.id):
            return False
        return inner is None or bool(inner(context))

    return Effect(effect.kind, effect.subject, effect.op, effect.value, effect.source_rule_id,
                  effect.description or adv.title, requires)


def _phase_actions(found: list[Any], ruleset: Any, phase: str, state: Any, **context: Any) -> list[Any]:
    """The schedule's declarations and free-unit placements (AARE-NA-DEPLOY-*), then every NA's own."""
    found = [*found, *extensions(phase, state, ruleset)]
    return list(_fold("phase_actions", found, ruleset=ruleset, phase=phase, state=state, **context))


def _fold(hook: str, value: Any, **context: Any) -> Any:
    for adv in all_advantages().values():
        fn = adv.hooks.get(hook)
        if fn is not None and context["ruleset"].options.get("national_advantages", True):
            value = fn(value, advantage=adv, **context)
    return value


def _hook(name: str) -> Callable[..., Any]:
    def fold(value: Any, **context: Any) -> Any:
        return _fold(name, value, **context)

    fold.__doc__ = f"Every NA's `{name}` hook, in registry order."
    return fold


def _hooks() -> dict[str, Callable[..., Any]]:
    used = {name for adv in all_advantages().values() for name in adv.hooks}
    unknown = used - set(HOOKS)
    if unknown:
        raise ValueError(f"national advantages use unknown hook(s) {sorted(unknown)}")
    hooks = {name: _hook(name) for name in sorted(used) if name != "phase_actions"}
    hooks["phase_actions"] = _phase_actions
    hooks["calculator_specials"] = _calculator_specials
    hooks["battle_abilities"] = _battle_abilities
    hooks["titles"] = _titles
    return hooks


def _calculator_specials(attacker: Any, ruleset: Any, specials: dict[str, int], **_: Any) -> Any:
    """Kaitens and Kamikazes among the calculator's attackers (AARE-NA-JPN-kaiten-*, AARE-NA-JPN-kamikaze-*)."""
    kaitens, kamikazes = specials.pop("kaitens", 0), specials.pop("kamikazes", 0)
    if not (kaitens or kamikazes):
        return attacker
    return {key: n for key, n in suicide_attackers(attacker, ruleset.units, kaitens, kamikazes)}


def _battle_abilities(tags: frozenset[str], names: Any = (), **_: Any) -> frozenset[str]:
    """National advantages named for a calculated battle count as their ability tags (`battle_tags`)."""
    return tags | battle_tags(names)


def _titles(found: dict[str, Any], **_: Any) -> dict[str, Any]:
    """Every national advantage with its title, number and timing, for the table's declaration panel."""
    records = {a.id: {"title": a.title, "number": a.number, "timing": a.timing} for a in all_advantages().values()}
    return {**found, "advantage": {**found.get("advantage", {}), **records}}


AARE_ADVANTAGES = register_module(
    RuleModule(
        id="aare_advantages",
        title="AARe 5.0 national advantages",
        rule_ids=(
            "AARE-NA-DEPLOY-four-per-side",
            "AARE-NA-DEPLOY-own-list",
            "AARE-NA-DEPLOY-no-repeat",
            "AARE-NA-DEPLOY-round1",
            "AARE-NA-DEPLOY-round2",
            "AARE-NA-DEPLOY-immediate-effect",
            "AARE-NA-DEPLOY-delay-second",
            "AARE-NA-DEPLOY-delayed-effects",
            "AARE-NA-DEPLOY-capital-loss-mobilize",
            "AARE-NA-DEPLOY-persist-after-capital-loss",
            "AARE-NA-DEPLOY-free-unit-conditions",
            *(r for adv in all_advantages().values() for r in adv.rule_ids),
        ),
        hooks=_hooks(),
        effects=tuple(_guarded(adv, e) for adv in all_advantages().values() for e in adv.effects),
        requires=("lhtr",),
        options=(
            OptionSpec(
                key="national_advantages",
                type=bool,
                default=True,
                help="play with national advantages (off: none are declared)",
                rule_id="AARE-NA-DEPLOY-four-per-side",
            ),
            *(o for adv in all_advantages().values() for o in adv.options),
        ),
    )
)
