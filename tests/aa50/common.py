"""Shared pieces of the Anniversary combat tests: battles under `aa50-1942` and board positions."""

from __future__ import annotations

from typing import Any

from aare.combat.decisions import ChooseSubmerge, Submerge
from aare.combat.engine import decide, run
from aare.combat.events import BattleEnded, DiceRolled, Event
from aare.combat.setup import Battle
from aare.combat.steps import START_OF_BATTLE
from aare.engine import Game
from aare.odds import build_battle

RULES = "aa50-1942"


def battle(attacker: Any, defender: Any, kind: str = "sea", rules: str = RULES, **inputs: Any) -> Battle:
    """A battle under the Anniversary rules (units as text or ``{type: n}``)."""
    return build_battle(attacker, defender, rules, kind, **inputs)


def ended(events: list[Event]) -> BattleEnded:
    return [e for e in events if isinstance(e, BattleEnded)][-1]


def fire(events: list[Event], step: str | None = None) -> list[tuple[str, int, int]]:
    """(unit, dice, value) of each group of dice rolled (in `step` only, if given)."""
    return [(e.unit, e.count, e.hit_on) for e in events
            if isinstance(e, DiceRolled) and (step is None or e.step == step)]


def left(stacks: tuple[Any, ...]) -> dict[str, int]:
    """Unit counts of battle stacks."""
    out: dict[str, int] = {}
    for k, n in stacks:
        out[k.type] = out.get(k.type, 0) + n
    return out


def move(game: Game, units: str, *path: str, power: str | None = None) -> None:
    action: dict[str, Any] = {"type": "move", "units": units, "path": list(path)}
    if power:
        action["power"] = power
    game.apply(action)


def dice_rolled(game: Game) -> list[tuple[int, ...]]:
    return [tuple(e.values) for entry in game.log.entries for e in entry.events  # type: ignore[attr-defined]
            if e.type == "dice_rolled"]


def begun(b: Battle) -> Battle:
    """`b` past the offers to submerge before the first fire, each declined."""
    b, _ = run(b)
    while isinstance(b.pending, ChooseSubmerge) and b.pending.stage == START_OF_BATTLE:
        b, _ = run(decide(b, Submerge(0)))
    return b


def position(nation: str, phase: str, units: dict[str, str], *, stacks: tuple[tuple[str, Any], ...] = (),
             dice: list[int] | None = None, rules: str = RULES, **kw: Any) -> Game:
    """A game of `rules` with `units` placed on an empty board, extra `stacks` (with flags) and scripted dice."""
    from aare.dice import ScriptedDice
    from aare.game_log import GameLog
    from aare.scenario import scenario
    from aare.state.unit_stacks import add_stack

    game = scenario(rules, nation=nation, phase=phase, clear=True, units=units, **kw)
    state = game.state
    for space, stack in stacks:
        state = state.with_stacks(space, add_stack(state.stacks(space), stack))
    return Game(GameLog(state), ScriptedDice(dice) if dice is not None else None)


def to_combat(game: Game, power: str | None = None) -> None:
    """End the combat move."""
    game.apply({"type": "end_phase", **({"power": power} if power else {})})
