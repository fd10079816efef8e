"""Build a position quickly — for tests, scenario files and bug reports.

    game = scenario(ruleset_id, nation=attacker, phase="combat-move", clear=[target],
                    units={target: f"{defender}: 2 infantry", "SZ 5": f"{attacker}: 1 transport"},
                    owners={border: attacker}, dice=[1, 6, 3])

`units` text is ``"Power: unit list; Power: unit list"`` and is added to what is there; `clear` empties
spaces first (``clear=True`` empties the whole board). The result is a Game whose log starts at the
built position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from aare.board.notation import parse_units
from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import MalformedInput
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.rules.registry import default_ruleset
from aare.rules.ruleset import load_ruleset
from aare.state.unit_stacks import Stack, add_stack


def scenario(
    rules: str | None = None,
    *,
    nation: str | None = None,
    phase: str | None = None,
    round: int = 1,
    clear: bool | Iterable[str] = (),
    units: Mapping[str, str] | None = None,
    owners: Mapping[str, str] | None = None,
    banks: Mapping[str, int] | None = None,
    techs: Mapping[str, Iterable[str]] | None = None,
    extra: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    dice: Iterable[int] | None = None,
    seed: int = 1,
) -> Game:
    rules = rules or default_ruleset()
    ruleset = load_ruleset(rules, options)
    board = ruleset.board
    state = new_game(rules, options, seed).state
    if clear is True:
        state = replace(state, units={})
    elif clear:
        emptied = {board.resolve(c) for c in clear}
        state = replace(state, units={k: v for k, v in state.units.items() if k not in emptied})
    for space_name, text in (units or {}).items():
        space = board.resolve(space_name)
        stacks = state.stacks(space)
        for part in text.split(";"):
            power_name, sep, group = part.partition(":")
            if not sep:
                raise MalformedInput(f"units for {space} must be written 'Power: unit list', got {part!r}")
            power = board.resolve_power(power_name.strip())
            for unit, count in parse_units(group, ruleset.units).items():
                stacks = add_stack(stacks, Stack(power, unit, count))
        state = state.with_stacks(space, stacks)
    state = replace(
        state,
        nation=board.resolve_power(nation) if nation else state.nation,
        phase=phase or state.phase,
        round=round,
        owners={**state.owners, **{board.resolve(k): board.resolve_power(v) for k, v in (owners or {}).items()}},
        banks={**state.banks, **{board.resolve_power(k): v for k, v in (banks or {}).items()}},
        techs={**state.techs, **{board.resolve_power(k): tuple(sorted(v)) for k, v in (techs or {}).items()}},
        extra={**state.extra, **(extra or {})},
    )
    return Game(GameLog(state), ScriptedDice(dice) if dice is not None else None)
