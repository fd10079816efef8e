"""Enhanced Realism '98 victory (module `realism_victory`): the game ends only when a side surrenders; a power
with no units and no industrial complex as its turn begins is eliminated for good (its turns are skipped), and
an ally liberating its territories keeps them."""

from __future__ import annotations

from typing import Any

from aare.events import Event, ExtraSet
from aare.rules.rule_module import RuleModule, register_module

SURRENDER_RULE = "REAL98-VICTORY-surrender"
ELIMINATION_RULE = "REAL98-VICTORY-elimination"
LIBERATION_RULE = "REAL98-VICTORY-liberated-by-ally"
ELIMINATED = "eliminated"


def eliminated(state: Any) -> list[str]:
    """The powers eliminated so far (`extra["eliminated"]`), in the order they fell."""
    return list(state.extra.get(ELIMINATED) or [])


def _victory(winner: str | None, **_: Any) -> str | None:
    """No automatic victory (REAL98-VICTORY-surrender): capitals or income levels end nothing."""
    return None


def _concession(rule: str | None, **_: Any) -> str:
    """Play ends when the Axis or the Allies surrender (REAL98-VICTORY-surrender)."""
    return SURRENDER_RULE


def _turn_skip(skip: list[Event] | None, state: Any, power: str, **_: Any) -> list[Event] | None:
    """An eliminated power's turns are skipped for ever; a power with no units on the board (an industrial
    complex is one) as its turn would begin is eliminated then (REAL98-VICTORY-elimination)."""
    if skip is not None:
        return skip
    fallen = eliminated(state)
    if power in fallen:
        return []
    if any(s.owner == power for stacks in state.units.values() for s in stacks):
        return None
    return [ExtraSet(ELIMINATED, [*fallen, power], ELIMINATION_RULE)]


def _capture_controller(found: tuple[str, str], ruleset: Any, state: Any, territory: str, capturer: str,
                        **_: Any) -> tuple[str, str]:
    """A territory of an eliminated power taken by its ally stays with that ally (REAL98-VICTORY-liberated-by-
    ally)."""
    board = ruleset.board
    original = board.spaces[territory].owner
    if original in eliminated(state) and board.side_of(original) == board.side_of(capturer):
        return capturer, LIBERATION_RULE
    return found


def _nation_records(records: dict[str, Any], state: Any, power: str, **_: Any) -> dict[str, Any]:
    """`aare show` lists an eliminated power as such."""
    return {**records, "eliminated": True} if power in eliminated(state) else records


MODULE = register_module(
    RuleModule(
        id="realism_victory",
        title="Enhanced Realism '98 victory",
        rule_ids=(SURRENDER_RULE, ELIMINATION_RULE, LIBERATION_RULE),
        replaces_options=("axis_economic_victory", "allied_economic_victory"),
        hooks={
            "victory": _victory,
            "concession": _concession,
            "turn_skip": _turn_skip,
            "capture_controller": _capture_controller,
            "nation_records": _nation_records,
        },
    )
)
