"""Research: the technologies a ruleset offers, the price of a research die, developed-but-not-yet-active
technologies (`state.extra["tech_pending"]`, in force from mobilize per LHTR-TECH-timing)."""

from __future__ import annotations

from aare.errors import IllegalAction
from aare.events import Event, ExtraSet, TechGained
from aare.rules.effects import Explained
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

PENDING = "tech_pending"
DIE_COST = 5


def technologies(ruleset: Ruleset) -> tuple[str, ...]:
    """The technology ids of the ruleset, in its order."""
    techs: tuple[str, ...] = tuple(ruleset.modify("technologies", ()))
    return techs


def resolve_tech(ruleset: Ruleset, name: str) -> str:
    """A technology id from its id or name (`"long range aircraft"`); IllegalAction when there is none."""
    key = "_".join(name.lower().replace("-", " ").split())
    known = technologies(ruleset)
    if key not in known:
        raise IllegalAction(
            f"{name or 'no technology'} is not a technology of this game (choose from {', '.join(known)})",
            "LHTR-TECH-list",
        )
    return key


def research_cost(state: GameState, ruleset: Ruleset, power: str, tech: str = "") -> int:
    """IPCs per research die (for `tech`, when the price depends on it)."""
    return research_price(state, ruleset, power, tech).value


def research_price(state: GameState, ruleset: Ruleset, power: str, tech: str = "") -> Explained:
    """The price of a research die with its explanation; `research_cost` effects see `power`, `state`, `tech`."""
    return ruleset.value("research_cost", power, DIE_COST, "LHTR-TECH-research-dice", power=power, state=state,
                         tech=tech)


def pending(state: GameState, power: str) -> list[str]:
    """Technologies `power` has developed that are not in force yet."""
    return list((state.extra.get(PENDING) or {}).get(power, []))


def pending_event(state: GameState, power: str, techs: list[str], rule_id: str = "LHTR-TECH-timing") -> ExtraSet:
    """Set `power`'s developed-but-not-active technologies."""
    table = {p: list(t) for p, t in (state.extra.get(PENDING) or {}).items() if p != power}
    if techs:
        table[power] = sorted(techs)
    return ExtraSet(PENDING, dict(sorted(table.items())), rule_id)


def held(state: GameState, key: str, power: str) -> int:
    """The count `power` holds in the per-power table `state.extra[key]` (research dice or tokens)."""
    return int((state.extra.get(key) or {}).get(power, 0))


def held_event(state: GameState, key: str, power: str, count: int, rule_id: str) -> ExtraSet:
    """`power` holds `count` in the per-power table `state.extra[key]` (a power holding none is dropped)."""
    table = {p: n for p, n in (state.extra.get(key) or {}).items() if p != power}
    if count:
        table[power] = count
    return ExtraSet(key, dict(sorted(table.items())), rule_id)


def activation_events(state: GameState, power: str) -> list[Event]:
    """Put `power`'s developed technologies in force (TechGained)."""
    techs = pending(state, power)
    if not techs:
        return []
    return [*(TechGained(power, t, "LHTR-TECH-timing") for t in techs), pending_event(state, power, [])]
