"""Tokyo Express (seed NATIONAL ADVANTAGES / JAPAN 2): Japanese destroyers carry infantry.

In movement a Japanese destroyer is also a transport (the ``stack_unit`` hook): up to 2 infantry and nothing
else (tag ``carries:infantry``), at most 1 infantry on or off in combat move (``combat_cargo:1``); the
transport rules do the rest: cargo loaded in combat move must land in an assault that turn, an assault from a
hostile zone waits for the sea battle (the destroyer fights at 3/3 whatever it carries; its cargo sinks with
it), a destroyer used in combat move cannot load or unload in non-combat move (except one leaving a hostile
start zone, `aare_hostile_zones`), cargo loaded in non-combat move may stay aboard. With Combined Arms a
destroyer that unloaded bombards only the territory it unloaded into (`battle_inputs`).

The extension here refuses the actions the destroyers cannot make with the Tokyo Express rule behind them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from aare.actions import Load, Move
from aare.board.notation import parse_units
from aare.board.units import UnitType
from aare.combat.battle_state import Stacks, UnitKey, make_stacks
from aare.errors import IllegalAction
from aare.movement import flags
from aare.movement.situation import Situation, situation
from aare.movement.transport import CARRIES, COMBAT_CARGO, unloadable
from aare.phases.base import PhaseExtension, TurnContext
from aare.rulesets.aare.advantages.base import Advantage, in_force
from aare.rulesets.aare.advantages.japan_record import JAPAN
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

TE = "tokyo_express"
CAPACITY, COMBAT_LIMIT = 2, 1  # AARE-NA-JPN-te-capacity, AARE-NA-JPN-te-combat-one-inf
R_CAPACITY, R_ONE_PHASE = "AARE-NA-JPN-te-capacity", "AARE-NA-JPN-te-one-phase"
R_COMBAT_ONE, R_BOMBARD = "AARE-NA-JPN-te-combat-one-inf", "AARE-NA-JPN-te-ca-bombard"
RULE_IDS = (
    R_CAPACITY, R_ONE_PHASE, R_COMBAT_ONE, "AARE-NA-JPN-te-combat-cargo-must-land",
    "AARE-NA-JPN-te-hostile-sz-fight-first", R_BOMBARD, "AARE-NA-JPN-te-ncm-two-inf",
    "AARE-NA-JPN-te-ncm-cargo-may-stay", "AARE-NA-JPN-te-no-penalty",
)


def express(state: GameState | None, stack: Stack, unit: UnitType) -> bool:
    """A Japanese destroyer while Tokyo Express is in force."""
    return stack.owner == JAPAN and unit.has("anti_submarine") and unit.domain == "sea" and in_force(state, JAPAN, TE)


def stack_unit(unit: UnitType, view: Situation, stack: Stack, **_: Any) -> UnitType:
    """AARE-NA-JPN-te-capacity, AARE-NA-JPN-te-combat-one-inf: the destroyer as a transport of 2 infantry."""
    if not express(view.state, stack, unit) or unit.has("transport"):
        return unit
    room = CAPACITY * view.units["infantry"].transport_size
    tags = unit.tags | {"transport", f"{CARRIES}infantry", f"{COMBAT_CARGO}{COMBAT_LIMIT}"}
    return replace(unit, transport_capacity=room, tags=frozenset(tags))


# ---------------------------------------------------------------- actions the destroyers cannot make


def _carriers(view: Situation, sea: str) -> tuple[list[Stack], list[Stack]]:
    """Friendly carriers in `sea`: the Tokyo Express destroyers and the others."""
    ships = [s for s in view.stacks(sea) if view.friend(s.owner) and view.unit(s).has("transport")]
    dds = [s for s in ships if express(view.state, s, view.units[s.unit])]
    return dds, [s for s in ships if s not in dds]


def _check_load(view: Situation, combat: bool, sea: str, want: dict[str, int]) -> None:
    dds, others = _carriers(view, sea)
    if not dds or others:
        return
    if set(want) - {"infantry"}:
        raise IllegalAction("a Tokyo Express destroyer carries infantry only", R_CAPACITY)
    if not combat and any(flags.has(s, flags.COMBAT) for s in dds) and all(flags.has(s, flags.COMBAT) for s in dds):
        raise IllegalAction("a destroyer used in combat move carries nothing in non-combat move", R_ONE_PHASE)
    room = sum(s.count * (CAPACITY - len(flags.cargo(s))) for s in dds if not flags.has(s, flags.COMBAT) or combat)
    if want.get("infantry", 0) > room:
        raise IllegalAction(f"the destroyers in {sea} have room for {room} infantry (2 each)", R_CAPACITY)
    if combat:
        free = sum(s.count for s in dds if not flags.cargo_list(s, flags.BOARDED) and len(flags.cargo(s)) < CAPACITY)
        if want.get("infantry", 0) > free:
            raise IllegalAction("a destroyer takes on or puts off only 1 infantry in combat move", R_COMBAT_ONE)


def _check_unload(view: Situation, combat: bool, sea: str, want: dict[str, int]) -> None:
    dds, others = _carriers(view, sea)
    mine = [s for s in dds if unloadable(view, s)]
    if not mine or any(unloadable(view, s) for s in others):
        return
    if not combat and all(flags.has(s, flags.COMBAT) for s in mine):
        raise IllegalAction("a destroyer used in combat move carries nothing in non-combat move", R_ONE_PHASE)
    if combat:
        free = sum(s.count for s in mine if not flags.cargo_list(s, flags.DROPPED))
        if sum(want.values()) > free:
            raise IllegalAction("a destroyer takes on or puts off only 1 infantry in combat move", R_COMBAT_ONE)


class TokyoExpress(PhaseExtension):
    """Combat and non-combat move: loads and unloads the destroyers cannot make, refused with their rule."""

    name = "tokyo-express"

    def __init__(self, combat: bool) -> None:
        self.combat = combat

    def before(self, ctx: TurnContext, action: Any) -> None:
        if ctx.power != JAPAN:
            return
        view = situation(ctx.state, ctx.ruleset)
        board = ctx.ruleset.board
        if isinstance(action, Load):
            _check_load(view, self.combat, board.resolve(action.sea_zone), parse_units(action.units, view.units))
        elif isinstance(action, Move) and len(action.path) == 2:
            sea, land = board.resolve(action.path[0]), board.resolve(action.path[1])
            want = parse_units(action.units, view.units)
            if view.is_sea(sea) and view.is_land(land) and want and all(view.units[u].domain == "land" for u in want):
                _check_unload(view, self.combat, sea, want)


COMBAT_EXT, NONCOMBAT_EXT = TokyoExpress(True), TokyoExpress(False)


def phase_actions(found: list[Any], phase: str, state: GameState, **_: Any) -> list[Any]:
    if state is None or state.nation != JAPAN or not in_force(state, JAPAN, TE):
        return found
    wanted = {"combat-move": COMBAT_EXT, "non-combat-move": NONCOMBAT_EXT}.get(phase)
    return [*found, wanted] if wanted is not None and wanted not in found else found


# ---------------------------------------------------------------- bombardment


def _without(stacks: Stacks, unit: str, n: int) -> Stacks:
    out: list[tuple[UnitKey, int]] = []
    for key, count in stacks:
        take = min(count, n) if key.type == unit and key.owner == JAPAN else 0
        n -= take
        out.append((key, count - take))
    return make_stacks(out)


def battle_inputs(inputs: dict[str, Any], advantage: Advantage, state: Any, site: Any, **_: Any) -> dict[str, Any]:
    """AARE-NA-JPN-te-ca-bombard: a destroyer that unloaded this turn bombards only the territory it unloaded into
    (and, as every ship, only where its zone had no sea battle)."""
    if site.kind != "amphibious" or site.attacker != JAPAN or not inputs.get("bombard"):
        return inputs
    if not in_force(state, JAPAN, TE):
        return inputs
    away = [s for _, s in site.bombard if s.owner == JAPAN and flags.value(s, flags.UNLOADED) not in (None, site.space)]
    by_unit: dict[str, int] = {}
    for s in away:
        by_unit[s.unit] = by_unit.get(s.unit, 0) + s.count
    bombard: Stacks = inputs["bombard"]
    for unit, n in by_unit.items():
        bombard = _without(bombard, unit, n)
    return {**inputs, "bombard": bombard or None}


HOOKS: dict[str, Callable[..., Any]] = {
    "stack_unit": stack_unit,
    "phase_actions": phase_actions,
    "battle_inputs": battle_inputs,
}

