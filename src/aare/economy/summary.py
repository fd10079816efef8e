"""Read-only figures about a state: income, victory cities, the summary `aare show` prints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aare.board.notation import format_units
from aare.economy.complex_damage import damage_view
from aare.rules.bonuses import IncomeBonus
from aare.rules.ruleset import Ruleset, load_ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack, count_units


def ruleset_of(state: GameState) -> Ruleset:
    return load_ruleset(state.ruleset, state.options)


def base_income(state: GameState, ruleset: Ruleset, power: str) -> int:
    """Sum of the IPC values of the territories `power` controls (LHTR-ECON-income)."""
    board = ruleset.board
    return sum(board.spaces[name].ipc for name, owner in state.owners.items() if owner == power)


def territory_income(state: GameState, ruleset: Ruleset, power: str) -> int:
    """Income from territories after every rule module's income adjustment (the `income` hook)."""
    value: int = ruleset.modify("income", base_income(state, ruleset, power), power=power, state=state)
    return value


def income_bonuses(state: GameState, ruleset: Ruleset, power: str) -> list[IncomeBonus]:
    """The named bonuses `power` would collect now (the `income_bonuses` hook), those worth something."""
    found: list[IncomeBonus] = ruleset.modify("income_bonuses", [], power=power, state=state)
    return [b for b in found if b.amount > 0]


def income(state: GameState, ruleset: Ruleset, power: str) -> int:
    """What `power` would collect now: its territories' income and its bonuses."""
    return territory_income(state, ruleset, power) + sum(b.amount for b in income_bonuses(state, ruleset, power))


def victory_cities_held(state: GameState, ruleset: Ruleset) -> dict[str, list[str]]:
    """Power -> the victory cities (territory names) it controls."""
    held: dict[str, list[str]] = {p.name: [] for p in ruleset.board.powers}
    for territory in ruleset.victory_cities():
        owner = state.owners.get(territory)
        if owner in held:
            held[owner].append(territory)
    return held


def declared_advantages(state: GameState, power: str) -> list[str]:
    """The ids of the national advantages `power` has declared (`extra["advantages"]`), in order."""
    record = state.extra.get("advantages")
    entries = record.get("declared", {}).get(power, []) if isinstance(record, dict) else []
    return [str(e["id"]) for e in entries]


def units_text(stacks: Sequence[Stack], ruleset: Ruleset) -> str:
    """The units of a space as text: `2 infantry, 1 fighter`, or per owner in turn order when several own some
    (`Germany: 1 armour; Italy: 2 infantry`)."""
    board = ruleset.board
    owners = sorted({s.owner for s in stacks}, key=lambda n: board.power(n).order)
    if len(owners) == 1:
        return format_units(count_units(stacks), ruleset.units)
    return "; ".join(f"{o}: {format_units(count_units(stacks, o), ruleset.units)}" for o in owners)


def units_by_owner(stacks: Sequence[Stack]) -> dict[str, dict[str, int]]:
    """{owner: {unit: count}} of some stacks."""
    found: dict[str, dict[str, int]] = {}
    for stack in stacks:
        mine = found.setdefault(stack.owner, {})
        mine[stack.unit] = mine.get(stack.unit, 0) + stack.count
    return found
def _records(ruleset: Ruleset, state: GameState, power: str) -> dict[str, Any]:
    """`{"records": {label: value}}` of the ruleset's public records of `power` (`nation_records`), if any."""
    found: dict[str, Any] = ruleset.modify("nation_records", {}, state=state, power=power)
    return {"records": found} if found else {}


def summary(state: GameState) -> dict[str, Any]:
    """The machine-readable summary of a game (`aare show --json`)."""
    ruleset = ruleset_of(state)
    board = ruleset.board
    cities = victory_cities_held(state, ruleset)
    nations = {
        p.name: {
            "side": p.side,
            "bank": state.banks.get(p.name, 0),
            "income": income(state, ruleset, p.name),
            "victory_cities": len(cities[p.name]),
            "capital": p.capital,
            "capital_held": board.holds_capital(p.name, state.owners),
            "bonuses": [{"title": b.title, "amount": b.amount, "rule_id": b.rule_id}
                        for b in income_bonuses(state, ruleset, p.name)],
            "techs": list(state.techs.get(p.name, ())),
            "advantages": declared_advantages(state, p.name),
            **_records(ruleset, state, p.name),
        }
        for p in board.powers
    }
    spaces: dict[str, Any] = {}
    for space in board.spaces.values():
        stacks = state.stacks(space.name)
        entry: dict[str, Any] = {"owner": state.owners.get(space.name), "units": units_text(stacks, ruleset),
                                 "by_owner": units_by_owner(stacks)}
        damage = damage_view(state, ruleset, space.name)
        if damage is not None:
            entry["complex_damage"] = damage
        spaces[space.name] = entry
    standing: list[dict[str, Any]] = ruleset.modify("victory_standing", [], state=state)
    sides: dict[str, int] = {}
    for p in board.powers:
        sides[p.side] = sides.get(p.side, 0) + len(cities[p.name])
    return {
        "ruleset": state.ruleset,
        "options": dict(state.options),
        "round": state.round,
        "nation": state.nation,
        "phase": state.phase,
        "version": state.version,
        "winner": state.winner,
        "pending": state.pending,
        **{key: state.extra.get(key) for key in ruleset.modify("summary_records", [])},
        "victory_cities": {"total": len(ruleset.victory_cities()), "by_side": sides},
        **({"victory": {"standing": standing}} if standing else {}),
        "nations": nations,
        "spaces": spaces,
        "state_hash": state.hash(),
    }
