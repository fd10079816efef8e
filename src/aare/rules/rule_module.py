"""Rule modules: the pieces a ruleset is composed of, plugged into named hooks of the core."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aare.rules.effects import Effect
from aare.rules.options import OptionSpec
from aare.rules.registry import load_families

# The named hooks of the core. A module hook is called as ``fn(value, **context)`` and returns the new
# value; the ruleset folds the active modules' hooks over the value in module order.
HOOKS: dict[str, str] = {
    "unit_catalogue": "the unit catalogue (stat and cost overrides)",
    "board_changes": "names of board changes files (data/board_changes/<name>.toml) applied to the board after the "
    "ruleset file's own, in order (tuple of str), e.g. a map variant an option plays on",
    "victory_cities": "territory -> city name of the cities that count for victory",
    "initial_state": "the game state at set-up, before the first action",
    "phase_table": "the ordered list of phases of a turn",
    "turn_order": "the turns of a round (TurnOrder): one power each, or teams acting together, context: round",
    "member_records": "keys of state.extra that each member of a team turn keeps for itself (set of str)",
    "trusted_candidates": "action types whose candidates the phase handler makes legal by construction (or judges "
    "with `PhaseHandler.admits`), so that `Game.legal_actions` need not judge them again by a dry run (frozenset of "
    "str; default none; `end_phase`: judged by the "
    "phase's end conditions alone), context: phase, pending (the kind of decision pending, or None)",
    "phase_actions": "PhaseExtension objects adding actions to a phase, context: phase, state",
    "income": "a power's income at collect-income, context: power, state",
    "income_bonuses": "named additions to a power's income at collect-income, each logged with its title (list of "
    "aare.rules.bonuses.IncomeBonus), context: power, state",
    "technologies": "the technologies a power may research (ids)",
    "victory": "the winning side after a round, or None, context: state",
    "victory_reason": "(reason, rule id) the end of a game won by the `victory` hook records (default: victory "
    "cities, LHTR-VICTORY-check-end-of-round), context: state, winner",
    "victory_standing": "how victory stands, for the summary of a game: records {text, rule_id, ...} (list; default "
    "none: the victory cities held are shown), context: state",
    "victory_thresholds": "victory cities each side must hold at the end of a round to win ({side: n})",
    "combat_rules": "the combat rule switches (read the ruleset and its options only: worked out once per ruleset)",
    "combat_sequence": "a battle's ordered steps, context: kind (read the ruleset, its options and the kind only)",
    "move_checks": "the list of movement checks",
    "combat_move_supported": "sea zones where the mover's warships that moved in combat move have a purpose "
    "without a battle or an amphibious assault there (set of str; e.g. carriers whose fighters launched to "
    "attack), context: view",
    "moved_flags": "per-turn flags (``turn:...``) a stack gets when it moves, e.g. a record of an aircraft's "
    "mission (list of str), context: view, stack (before the move), path, combat, raid, riding (fighters carried "
    "aboard a moving carrier, `MovementRules.own_fighters_ride`)",
    "bid_funds": "each side's bid IPCs granted before the game ({side: n}), context: state (None before set-up)",
    "co_movers": "{ally: flag}: the ally's units carrying the flag move and attack with the power to move this "
    "turn (a joint attack such as D-Day), context: state, power",
    "battle_decider": "the power that answers a battle decision of one side, context: state, site, side",
    "battle_inputs": "the start_battle inputs of a battle on the board (dict), context: state, site",
    "battle_outcome": "game events a rule module adds to a finished battle's outcome on the map (list of Event), "
    "context: state (with the core's outcome applied), site, battle (its end), fought (spaces fought this turn)",
    "retreat_routes": "where each unit of a retreating side goes (((space, unit type, count), ...); its own space "
    "for units that stay, e.g. ships breaking off contact), or None (the default: every land or sea unit to the "
    "one destination); raises IllegalAction for a refused route, context: state, site, battle, side, to, split "
    "({space: {unit type: count}} the player asked for)",
    "flyover_aa": "space -> rule id of the spaces whose enemy fire meets aircraft flying over, context: view",
    "flyover_battle": "the engine battle (aare.combat.setup.Battle) in which the fire of a space meets one stack of "
                      "aircraft flying over it, or None for one AA die per aircraft; context: state, site, stack",
    "movement_left": "movement points a stack has left this turn (int; the same for any count of its units), "
    "context: view, stack, space (where it stands, None when not known)",
    "order_cost": "the IPCs an order of units costs (int), context: state, power, units ({unit: count})",
    "calculator_specials": "the calculator's attacker with special units flagged, context: specials ({name: count}, "
    "e.g. suicide attackers), units (UnitCatalogue); a ruleset that knows a special removes it from `specials`",
    "battle_abilities": "battle ability tags (frozenset) for the calculator from ability names a player gives "
    "(e.g. national advantages), context: names; unknown names raise UnknownName",
    "titles": "{kind: {id: {title, number, timing}}} of named things a ruleset adds, for surfaces to list "
    "(e.g. national advantages)",
    "stack_unit": "the unit type of a stack in movement, e.g. destroyers that carry infantry (UnitType), context: "
    "view, stack (cached per unit and owner)",
    "concession": "the rule id under which a side may concede the game at any time, the other side winning (str); "
    "None (the default): no concession",
    "summary_records": "keys of state.extra a game's summary (`aare show --json`) shows at its top level (list of "
    "str)",
    "nation_records": "public records of a power that `aare show` lists ({label: value}, e.g. research tokens "
    "held), context: state, power",
    "movement_rules": "the movement rule switches (aare.movement.rules.MovementRules), asked once per ruleset: "
    "they may depend on its options, nothing else",
    "move_events": "the events of a move or unload with what rule modules add (list of Event), e.g. a fee paid on "
    "entering a space, context: view (Situation), combat, path",
    "sealed_seas": "sea zones the power's ships may neither enter nor leave now (frozenset of str), e.g. a sea "
    "behind straits its side does not hold; the reach of ships and transports passes them over, context: state, "
    "power",
    "barred_ends": "spaces the power to move may pass through but not end a move in now (frozenset of str), e.g. "
    "where units of a power it may not share a space with are; no amphibious assault is planned from such a sea "
    "zone, context: view (Situation)",
    "air_closed": "spaces aircraft may neither fly over nor enter now (frozenset of str), e.g. neutrals; air routes "
    "and landing ranges go around them, context: view (Situation)",
    "entry_refusals": "{territory: (reason, rule id)} of the enemy territories the power to move may not enter with "
    "land units in combat move now (e.g. for a fee it cannot pay); no amphibious assault is planned on them, "
    "context: view (Situation)",
    "rule_ids": "{core rule id: the ruleset's own ledger id for the same rule}: an illegal action names the "
    "ruleset's id",
    "log_rule_ids": "{core rule id: the ruleset's own ledger id} that events and pending decisions name instead of "
    "the core's (default: none, they name the core's ids, as recorded games do)",
    "capture_controller": "(power, rule id) that takes control of a territory captured by `capturer` (by default "
    "the capturer, or the original owner it liberates), context: state, territory, capturer",
    "capture_events": "the events of the units in a captured territory changing hands (list of Event; by default "
    "its complexes and AA guns pass to the new controller), e.g. a complex destroyed instead, context: state (before "
    "the capture), territory, controller",
    "placement_rules": "rule ids under which units placed on the board leave the purchase pool (set of str; "
    "for the invariant checks)",
    "free_pool_rules": "rule ids under which units enter the purchase pool without being paid for (set of str; for "
    "the invariant checks), e.g. reinforcements a power receives",
    "damage_rules": "how raids and rockets hurt (aare.economy.complex_damage.DamageRules): IPCs out of the owner's "
    "treasury (the default) or damage points on the industrial complex, context: state (may be None)",
    "keep_unplaced": "whether units still waiting in the purchase pool when mobilize ends stay there for a later "
    "turn (bool; default False: they are lost), context: state, power",
    "purchase_refusal": "why `power` may not buy units now: (reason, rule id), or None to allow it; the default "
    "refuses while its capital is enemy-held (LHTR-PURCHASE-needs-capital), context: state, power",
    "turn_skip": "whether a power's own turn is skipped as it would begin: None (the default) to play it, else the "
    "events recording why (a list, may be empty; e.g. the power eliminated), context: state, power",
    "rocket_defence": "dice the target's defenders roll at an incoming rocket before it strikes, in order: list of "
    "(purpose, dice, hit on, rule id); the first die at or under its number destroys the rocket, context: state, "
    "power (the launcher's), launcher, target",
    "reinforcement_rules": "the rules (a ruleset's own record) by which a power without income receives free units, "
    "context: power",
    "hidden_fields": "the fields of the state only some powers may see (list of aare.rules.hidden.Hidden), "
    "context: state",
}


@dataclass(frozen=True)
class RuleModule:
    """A named, optional or core piece of rules.

    `rule_ids` lists the ledger items the module implements; `option` names a boolean game option that
    switches the module on; `conflicts` and `requires` name other modules; `replaces_options` names options
    of earlier modules that this module's rules make meaningless (they are not offered in the ruleset).
    """

    id: str
    title: str
    rule_ids: tuple[str, ...] = ()
    hooks: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    effects: tuple[Effect, ...] = ()
    options: tuple[OptionSpec, ...] = ()
    option: str | None = None
    conflicts: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    replaces_options: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = set(self.hooks) - set(HOOKS)
        if unknown:
            raise ValueError(f"rule module {self.id}: unknown hook(s) {sorted(unknown)}; known: {sorted(HOOKS)}")


_MODULES: dict[str, RuleModule] = {}


def register_module(module: RuleModule) -> RuleModule:
    """Add a module to the registry that ruleset files name modules from."""
    if module.id in _MODULES and _MODULES[module.id] is not module:
        raise ValueError(f"rule module {module.id} registered twice")
    _MODULES[module.id] = module
    return module


def registered_modules() -> dict[str, RuleModule]:
    load_families()  # each family registers its modules when imported

    return dict(_MODULES)
