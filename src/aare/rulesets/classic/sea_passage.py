"""Sea passages a ship may not take outside movement either (a withdrawal or a retreat into a neighbouring
sea zone): a canal closed to the ship's side, by the canal rule of the ruleset's movement."""

from __future__ import annotations

from aare.movement.graph import graph_of
from aare.movement.situation import situation
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState


def closed_passage(state: GameState, ruleset: Ruleset, power: str, start: str, end: str) -> tuple[str, str] | None:
    """Why `power`'s ships may not pass from sea zone `start` into the adjacent `end` (reason, rule), or None."""
    canal = graph_of(ruleset.board).canal(start, end)
    if canal is None:
        return None
    view = situation(state, ruleset, power)
    if view.canal_open(canal):
        return None
    slug = canal.name.split()[0].lower()
    return (f"the {canal.name} is closed to {view.side}: they have not held {' and '.join(canal.requires)} since "
            f"the turn began", ruleset.rule_id(f"LHTR-SEAMOVE-{slug}-canal"))
