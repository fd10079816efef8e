"""AARHE strait interdiction (module `aarhe_straits`; AARHE-STRAIT-*): the holder of a strait territory fires at
hostile ships moving between its two sea zones, 2 dice in the enemy's combat move and 2 in its non-combat move;
each die aims at a ship the holder names and hits on 3 or less; submarines are never targets.

A move that crosses a strait whose holder has dice left this phase stops play for the holder's answer: a
`declare_targets` naming up to that many of the ships that moved (``"battleship, destroyer"``; nothing: hold
fire). A hit is a normal hit (a battleship is damaged first).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from itertools import pairwise
from typing import Any

from aare.actions import DeclareTargets, Move
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.events import DecisionPending, Event, ExtraSet, UnitsChanged, UnitsRemoved
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase

R_TABLE = "AARHE-STRAIT-table"
R_FIRE = "AARHE-STRAIT-fire"
R_NO_SUBS = "AARHE-STRAIT-no-subs"

# AARHE-STRAIT-table: territory -> its two sea zones
STRAITS: dict[str, tuple[str, str]] = {
    "Gibraltar": ("SZ 12", "SZ 13"),
    "Germany": ("SZ 5", "SZ 6"),
    "United Kingdom": ("SZ 6", "SZ 7"),
    "Western Europe": ("SZ 6", "SZ 7"),
}
DICE_PER_PHASE = 2
HIT_ON = 3
DECISION = "strait_fire"
USED = "aarhe_straits"  # extra: {"turn": "<round>:<nation>:<phase>", "used": {territory: dice}}


def _turn_key(ctx: TurnContext) -> str:
    return f"{ctx.state.round}:{ctx.power}:{ctx.state.phase}"


def dice_used(ctx: TurnContext) -> dict[str, int]:
    record = ctx.state.extra.get(USED) or {}
    return dict(record.get("used") or {}) if record.get("turn") == _turn_key(ctx) else {}


def crossings(path: list[str]) -> list[str]:
    """The strait territories whose two sea zones a path moves between, in order."""
    out = []
    for a, b in pairwise(path):
        out += [t for t, zones in STRAITS.items() if {a, b} == set(zones) and t not in out]
    return out


def targets(ctx: TurnContext, units: dict[str, int]) -> dict[str, int]:
    """The ships of a move that strait fire may aim at: no submarines."""
    cat = ctx.ruleset.units
    return {u: n for u, n in units.items() if cat[u].domain == "sea" and not cat[u].has("submarine")}


class StraitWatch(PhaseExtension):
    """After a move through a strait held by the mover's enemy, its holder answers: which ships its dice aim at."""

    action_types = frozenset({"declare_targets"})
    answers = frozenset({DECISION})

    def __init__(self, phase: str) -> None:
        self.name = phase

    def after(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Move) or ctx.state.pending is not None:
            return
        board = ctx.ruleset.board
        path = [board.resolve(s) for s in action.path]
        ships = targets(ctx, dict(parse_units(action.units, ctx.ruleset.units)))
        if not ships:
            return
        used = dice_used(ctx)
        for territory in crossings(path):
            holder = ctx.state.owners.get(territory)
            left = DICE_PER_PHASE - used.get(territory, 0)
            if holder is None or board.side_of(holder) == board.side_of(ctx.power) or left <= 0:
                continue
            ctx.emit(DecisionPending({"kind": DECISION, "power": holder, "territory": territory, "dice": left,
                                      "zone": path[-1], "mover": ctx.power, "ships": ships, "rule": R_FIRE}))
            return

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        pending = ctx.state.pending
        if space is not None or pending is None or pending.get("kind") != DECISION:
            return []
        ships = sorted(pending["ships"], key=lambda u: -ctx.ruleset.units[u].cost)
        dice = int(pending["dice"])
        named = [u for u in ships for _ in range(pending["ships"][u])][:dice]
        return [DeclareTargets(targets=", ".join(named)), DeclareTargets(targets="")]

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        pending = ctx.state.pending
        if pending is None or pending.get("kind") != DECISION or not isinstance(action, DeclareTargets):
            raise IllegalAction("there is no strait fire to aim now", R_FIRE)
        cat = ctx.ruleset.units
        aimed = [cat.resolve(t.strip()) for t in action.targets.split(",") if t.strip()]
        ships: dict[str, int] = dict(pending["ships"])
        if len(aimed) > int(pending["dice"]):
            raise IllegalAction(f"{pending['territory']} has {pending['dice']} strait dice left", R_FIRE)
        for unit in aimed:
            if unit not in ships:
                rule = R_NO_SUBS if cat[unit].has("submarine") else R_FIRE
                raise IllegalAction(f"no {cat[unit].display} of {pending['mover']} passed the strait", rule)
        territory, zone, mover = str(pending["territory"]), str(pending["zone"]), str(pending["mover"])
        used = dice_used(ctx)
        used[territory] = used.get(territory, 0) + len(aimed)
        events: list[Event] = [ExtraSet(USED, {"turn": _turn_key(ctx), "used": used}, R_FIRE)]
        ctx.emit(*events)
        if aimed:
            values = ctx.roll(len(aimed), f"strait fire from {territory}: {', '.join(aimed)}")
            for unit, value in zip(aimed, values, strict=True):
                if value <= HIT_ON:
                    ctx.emit(*_hit(ctx, zone, mover, unit))
        ctx.emit(DecisionPending(None))


def _hit(ctx: TurnContext, zone: str, owner: str, unit: str) -> list[Event]:
    """A normal hit on one `unit` of `owner` in `zone`: a unit with hits to spare is damaged, else lost."""
    cat = ctx.ruleset.units
    stacks = sorted((s for s in ctx.state.stacks(zone) if s.owner == owner and s.unit == unit),
                    key=lambda s: -s.damage)
    if not stacks:
        return []
    stack = stacks[0].with_count(1)
    if stack.damage + 1 < cat[unit].hits:
        return [UnitsChanged(zone, stack, replace(stack, damage=stack.damage + 1))]
    return [UnitsRemoved(zone, stack, R_FIRE)]


WATCHES = (StraitWatch("combat-move"), StraitWatch("non-combat-move"))

AARHE_STRAITS = register_module(
    RuleModule(
        id="aarhe_straits",
        title="AARHE strait interdiction",
        rule_ids=(R_TABLE, R_FIRE, R_NO_SUBS),
        hooks={"phase_actions": by_phase(*WATCHES)},
    )
)
