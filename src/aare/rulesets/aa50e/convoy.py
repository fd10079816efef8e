"""AA50E convoy raids (module `aa50e_convoy`, seed 4): at the collect income of the United Kingdom, the United
States, Japan and Italy, every enemy submarine in a sea zone next to one of the power's industrial complexes takes
1 IPC from the income collected. Each complex counts the submarines next to it (a submarine next to two complexes
counts for both) and loses at most its territory's value; the whole by no more than the income just collected.
The damage is to income only: the complex takes none, and the strategic bombing cap does not include it. A
submarine that submerged since its owner's turn began (`turn:submerged`) raids nothing. The raids of the turn are
recorded in `extra["convoy"]`."""

from __future__ import annotations

from typing import Any

from aare.events import BankChanged, Event, ExtraSet
from aare.movement import flags
from aare.movement.graph import graph_of
from aare.phases.collect_income import AfterCollection
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

KEY = "convoy"
REASON = "economic damage: convoy raids"  # a bank change the invariants know
SUBJECT = ("United Kingdom", "United States", "Japan", "Italy")  # AA50E-CONVOY-subject-nations
PER_SUB = 1  # AA50E-CONVOY-adjacent-sub-damage
R_DAMAGE = "AA50E-CONVOY-adjacent-sub-damage"
R_CAP = "AA50E-CONVOY-cap-per-ic"


def complexes(state: GameState, ruleset: Ruleset, power: str) -> list[str]:
    """Territories `power` holds with an industrial complex of its own."""
    units = ruleset.units
    return sorted(t for t, owner in state.owners.items() if owner == power
                  and any(s.owner == power and units[s.unit].has("factory") for s in state.stacks(t)))


def raiders(state: GameState, ruleset: Ruleset, power: str, territory: str) -> dict[str, dict[str, int]]:
    """Zone -> raiding power -> submarines: the enemy submarines next to `territory` that have not submerged
    (AA50E-CONVOY-replaces-zone-disruption, AA50E-CONVOY-submerged-no-damage)."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(power)
    graph = graph_of(board)
    found: dict[str, dict[str, int]] = {}
    for zone in sorted(z for z in graph.coast.get(territory, ()) if z in graph.sea):
        for stack in state.stacks(zone):
            if board.side_of(stack.owner) == side or not units[stack.unit].has("submarine") or flags.submerged(stack):
                continue
            per = found.setdefault(zone, {})
            per[stack.owner] = per.get(stack.owner, 0) + stack.count
    return found


def per_sub(state: GameState, ruleset: Ruleset, owner: str) -> int:
    """IPCs one of `owner`'s submarines takes: 1, as `convoy_damage` effects change it."""
    return int(ruleset.value("convoy_damage", owner, PER_SUB, R_DAMAGE, power=owner, state=state).value)


def convoy_events(state: GameState, ruleset: Ruleset, power: str, collected: int) -> list[Event]:
    """The convoy raids on `power` after it collected `collected` IPCs: the treasury loss and its record."""
    if power not in SUBJECT:
        return []
    raids: list[dict[str, Any]] = []
    left = collected
    for territory in complexes(state, ruleset, power):
        subs = raiders(state, ruleset, power, territory)
        count = sum(n for per in subs.values() for n in per.values())
        if not count:
            continue
        raw = sum(n * per_sub(state, ruleset, owner) for per in subs.values() for owner, n in per.items())
        damage = min(raw, ruleset.board.space(territory).ipc, left)
        left -= damage
        raids.append({
            "territory": territory, "raw": raw, "damage": damage,
            "subs": [{"zone": z, "owner": o, "count": n} for z, per in subs.items() for o, n in sorted(per.items())],
        })
    if not raids:
        return []
    total = collected - left
    out: list[Event] = [BankChanged(power, -total, REASON, R_DAMAGE)] if total else []
    return [*out, ExtraSet(KEY, {"round": state.round, "power": power, "raids": raids}, R_DAMAGE)]


CONVOY_RAIDS = AfterCollection("aa50e-convoy-raids", convoy_events)  # the raids follow the collection


def _phase_actions(found: list[Any], phase: str, **_: Any) -> list[Any]:
    return [*found, CONVOY_RAIDS] if phase == "collect-income" else found


MODULE = register_module(
    RuleModule(
        id="aa50e_convoy",
        title="Anniversary Edition - Enhanced: convoy raids",
        rule_ids=(
            "AA50E-CONVOY-subject-nations",
            R_DAMAGE,
            "AA50E-CONVOY-replaces-zone-disruption",
            R_CAP,
            "AA50E-CONVOY-income-not-ic-damage",
            "AA50E-CONVOY-submerged-no-damage",
        ),
        hooks={"phase_actions": _phase_actions},
        requires=("aa50",),
    )
)
