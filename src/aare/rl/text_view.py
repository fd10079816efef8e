"""The text view an environment renders (`render_mode="ansi"`): the spectator's view of the game, as lines."""

from __future__ import annotations

from aare.player_view import visible_state
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState


def text_view(state: GameState, ruleset: Ruleset) -> str:
    """Round, phase, power to move, banks, and each space's controller and units, as a spectator sees them."""
    seen = visible_state(state, None)
    head = f"{ruleset.title}: round {seen.round}, {seen.nation}, {seen.phase}"
    if seen.pending is not None:
        head += f" (waiting: {seen.pending.get('kind')} by {seen.pending.get('power', seen.nation)})"
    if seen.winner is not None:
        head += f"; won by {seen.winner}"
    lines = [head, "banks: " + ", ".join(f"{p} {b}" for p, b in seen.banks.items())]
    for space in ruleset.board.spaces:
        stacks = seen.units.get(space, ())
        if not stacks:
            continue
        units = ", ".join(f"{s.count} {s.unit} ({s.owner})" for s in stacks)
        owner = seen.owners.get(space)
        lines.append(f"{space}{f' [{owner}]' if owner else ''}: {units}")
    return "\n".join(lines) + "\n"
