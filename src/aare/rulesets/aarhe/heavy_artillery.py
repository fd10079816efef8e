"""AARHE heavy artillery firing into a neighbouring battle (module `aarhe_heavy_artillery`, for the unit of the
option `heavy_artillery` or the technology; AARHE-OPTUNIT-hart-adjacent-fire, -hart-no-casualty).

A land battle draws in the heavy artillery next to it that stands where no battle is fought this turn: the
attacker's own that did not move, and the defending side's (a neighbouring defence, the proposed reading). Each
fires in the main round of every cycle, among its side's land fire, at its value less 1 (and the terrain's -1,
never below 1); its hits go to land units. It stays where it is: it is never a unit of the battle, so never a
casualty, and its side's hits beyond the units in the battle are lost. A heavy artillery fires into one battle a
team turn: the first fought next to it (the order of battles is the attacker's)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from aare.combat.battle_state import DiceGroup, RollRequest, Side
from aare.combat.sequences import Sequence
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult
from aare.events import Event, ExtraSet
from aare.movement.battles import BattleSite, pending_battles
from aare.phases.conduct_combat import combat_record
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.combat_values import LAND_ONLY, terrain_value
from aare.rulesets.aarhe.optional_units import HEAVY_ARTILLERY

R_ADJACENT = "AARHE-OPTUNIT-hart-adjacent-fire"
R_NO_CASUALTY = "AARHE-OPTUNIT-hart-no-casualty"
PENALTY = 1
TAG = "hart-from:"  # a battle's site tag: "hart-from:<side>:<owner>@<territory>=<count>"
USED = "aarhe_heavy_artillery"  # extra: {"turn": "<round>:<attacking side>", "used": {"<owner>@<territory>": n}}


def _turn(state: Any, ruleset: Any, site: BattleSite) -> str:
    return f"{state.round}:{ruleset.board.side_of(site.attacker)}"


def used(state: Any, turn: str) -> dict[str, int]:
    record = state.extra.get(USED) or {}
    return dict(record.get("used") or {}) if record.get("turn") == turn else {}


def attacked(state: Any, ruleset: Any) -> set[str]:
    """The territories with a battle this turn, fought or still to fight."""
    return {s.space for s in pending_battles(state, ruleset)} | set(combat_record(state)["fought"])


def supporters(state: Any, ruleset: Any, site: BattleSite) -> dict[tuple[Side, str], int]:
    """The heavy artillery that fires into the battle at `site`: (side, "<owner>@<territory>") -> count."""
    board = ruleset.board
    side = board.side_of(site.attacker)
    busy = attacked(state, ruleset)
    taken = used(state, _turn(state, ruleset, site))
    found: dict[tuple[Side, str], int] = {}
    for territory in board.spaces[site.space].neighbors:
        if not board.spaces[territory].is_land or territory in busy:
            continue
        for stack in state.stacks(territory):
            if stack.unit != HEAVY_ARTILLERY:
                continue
            if stack.owner == site.attacker and not stack.moved:
                who: Side = "attacker"
            elif board.side_of(stack.owner) != side:
                who = "defender"
            else:
                continue
            key = f"{stack.owner}@{territory}"
            free = stack.count - taken.get(key, 0)
            if free > 0:
                found[(who, key)] = found.get((who, key), 0) + free
    return found


def _tags(battle: Battle, side: Side) -> dict[str, int]:
    prefix = f"{TAG}{side}:"
    out: dict[str, int] = {}
    for tag in battle.setup.site_tags:
        if tag.startswith(prefix):
            key, _, count = tag[len(prefix):].rpartition("=")
            out[key] = int(count)
    return out


def _inputs(inputs: dict[str, Any], state: Any, ruleset: Any, site: BattleSite, **_: Any) -> dict[str, Any]:
    if site.kind not in ("land", "amphibious"):
        return inputs
    found = supporters(state, ruleset, site)
    if not found:
        return inputs
    tags = {f"{TAG}{side}:{key}={n}" for (side, key), n in found.items()}
    return {**inputs, "site_tags": frozenset(inputs.get("site_tags") or ()) | tags}


def groups(battle: Battle, side: Side) -> list[DiceGroup]:
    """The dice of `side`'s heavy artillery next door: its value less 1 (and the terrain's), hits on land units."""
    count = sum(_tags(battle, side).values())
    if not count:
        return []
    unit = battle.setup.catalogue[HEAVY_ARTILLERY]  # in the catalogue whenever one is on the board
    value = terrain_value(battle, (unit.attack if side == "attacker" else unit.defense) - PENALTY)
    return [DiceGroup(side, HEAVY_ARTILLERY, count, value, LAND_ONLY)] if value > 0 else []


@cache
def _with_heavy_artillery(step: Step, side: Side) -> Step:
    """`step` (a side's land fire in the main round) with the heavy artillery next door rolling among its dice (one
    step per step wrapped: a battle rebuilt from the board equals the one kept)."""

    def run(battle: Battle) -> StepResult:
        state, events = step.run(battle)
        more = groups(battle, side)
        if not more:
            return state, events
        asked = state.roll
        request = RollRequest(step.name, (*(asked.groups if asked else ()), *more))
        return state.evolve(roll=request), events

    return replace(step, run=run)


# the main round's land fire of each side: the land cycle's, and the landing's first cycle (module aarhe_amphibious)
LAND_FIRE: dict[str, Side] = {"attacker land fire": "attacker", "attacking infantry fire": "attacker",
                              "defender land fire": "defender", "other defending land fire": "defender"}


def _sequence(sequence: Sequence, kind: str, **_: Any) -> Sequence:
    """The neighbouring heavy artillery fires with its side's land units in the main round."""
    if kind not in ("land", "amphibious"):
        return sequence
    return Sequence(sequence.kind, tuple(_with_heavy_artillery(st, LAND_FIRE[st.name]) if st.name in LAND_FIRE
                                         else st for st in sequence.steps))


def _outcome(events: list[Event], state: Any, ruleset: Any, site: BattleSite, battle: Battle, **_: Any
             ) -> list[Event]:
    """The heavy artillery that fired is spent for the team turn (AARHE-OPTUNIT-hart-no-casualty: nothing else
    happens to it)."""
    fired = {**_tags(battle, "attacker"), **_tags(battle, "defender")}
    if not fired:
        return events
    turn = _turn(state, ruleset, site)
    spent = used(state, turn)
    for key, n in fired.items():
        spent[key] = spent.get(key, 0) + n
    return [*events, ExtraSet(USED, {"turn": turn, "used": dict(sorted(spent.items()))}, R_ADJACENT)]


AARHE_HEAVY_ARTILLERY = register_module(
    RuleModule(
        id="aarhe_heavy_artillery",
        title="AARHE heavy artillery firing into a neighbouring battle",
        rule_ids=(R_ADJACENT, R_NO_CASUALTY),
        hooks={"battle_inputs": _inputs, "combat_sequence": _sequence, "battle_outcome": _outcome},
    )
)
