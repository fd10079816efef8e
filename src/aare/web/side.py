"""The game page's side panel: everything it shows for one caller at one moment, as template context."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.engine import Game
from aare.game_log import GameLog
from aare.player_view import visible_state
from aare.rules.ruleset import Ruleset, load_ruleset
from aare.server.live import LiveGame
from aare.server.seats import Seat, held_by, seat_powers
from aare.web import table_view as tv
from aare.web.log_view import event_log, last_battle

MOVE_PHASES = ("combat-move", "non-combat-move")


def my_seats(seats: Mapping[str, Seat], user_id: int | None) -> list[str]:
    return held_by(seats, user_id)


def can_undo(log: GameLog, dice_from_seq: int) -> bool:
    """Whether the last entry may be taken back (`Game.undo`: never past a roll or a finished phase)."""
    if len(log.entries) <= dice_from_seq or not log.entries:
        return False
    last = log.entries[-1]
    return (last.action or {}).get("type") not in (None, "end_phase") and not any(
        e.type == "dice_rolled" for e in last.events)


def _in_turn_order(seats: Mapping[str, Seat], ruleset: Ruleset) -> list[Seat]:
    order = {name: i for i, name in enumerate(p.name for p in ruleset.board.powers)}
    order.update({side: i for i, side in enumerate(dict.fromkeys(p.side for p in ruleset.board.powers))})
    return sorted(seats.values(), key=lambda s: order.get(s.name, 99))


def focus_space(ruleset: Ruleset, mine: list[str], nation: str) -> str:
    """Where the map opens: the capital of the caller's first nation, else of the nation to move."""
    powers = sorted(ruleset.board.powers, key=lambda p: p.order)
    for power in powers:
        if power.name in mine or power.side in mine:
            return power.capital
    return next((p.capital for p in powers if p.name == nation), powers[0].capital)


def side_context(live: LiveGame, seats: Mapping[str, Seat], user_id: int | None, space: str | None,
                 bot_error: str | None = None) -> dict[str, Any]:
    """Template context of the side panel for `user_id` with `space` selected: what the powers of the user's
    seats see (`aare.player_view`); the legal actions, being the user's own, come from the whole game."""
    mine = my_seats(seats, user_id)
    viewer = seat_powers(live.state, mine)
    state = visible_state(live.state, viewer)
    ruleset = load_ruleset(state.ruleset, state.options)
    turn = tv.turn_info(state, live.seating, seats, mine)
    game = Game(live.log)
    legal = [a.to_json() for a in game.legal_actions()] if turn["your_turn"] else []
    if space is not None and space not in ruleset.board.spaces:
        space = None
    moving = turn["your_turn"] and state.phase in MOVE_PHASES and state.pending is None
    from_here = [a.to_json() for a in game.legal_actions(space)] if moving and space else []
    placement = tv.placement_panel(state, ruleset, legal)
    battles = tv.battles_panel(state, ruleset, legal) if state.phase == "conduct-combat" else []
    fighting = [str(state.pending["space"])] if state.pending and state.pending.get("space") else []
    return {
        "game_id": live.id,
        "ruleset": state.ruleset,
        "focus": focus_space(ruleset, mine, state.nation),
        "version": live.version,
        "state_hash": live.state_hash if state is live.state else state.hash(),
        "turn": turn,
        "seats": [{**s.to_json(), "mine": s.name in mine} for s in _in_turn_order(seats, ruleset)],
        "signed_in": user_id is not None,
        "bot_error": bot_error,
        "legal": legal,
        "can_end": any(a["type"] == "end_phase" for a in legal),
        "can_undo": turn["your_turn"] and can_undo(live.log, live.dice_from_seq),
        "decision": tv.decision_panel(state, ruleset, legal),
        "advantages": tv.advantages_panel(ruleset, legal),
        "research": tv.research_panel(legal),
        "purchase": tv.purchase_panel(state, ruleset, legal),
        "placement": placement,
        "battles": battles,
        "battle_spaces": fighting or [b["space"] for b in battles],
        "last_battle": last_battle(live.log, viewer) if state.phase == "conduct-combat" else None,
        "moving": moving,
        "selected": space,
        "space": tv.space_info(state, ruleset, space) if space else None,
        "move_rows": tv.move_rows(state, ruleset, space, from_here) if moving and space else [],
        "targets": tv.move_targets(from_here),
        "place_targets": [s["name"] for s in placement["spaces"]] if placement else [],
        "other": tv.other_actions(legal),
        "nations": tv.nations(state),
        "log": event_log(live.log, viewer),
    }
