"""The game page's side panel: everything it shows for one caller at one moment, as template context."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.engine import Game
from aare.game_log import GameLog, game_end
from aare.phases.base import phase_kind
from aare.player_view import visible_state
from aare.rules.ruleset import Ruleset, load_ruleset
from aare.server.live import LiveGame
from aare.server.seats import Seat, acting_powers, held_by, seat_of, seat_powers
from aare.web import table_view as tv
from aare.web.log_view import event_log, last_battle

MOVE_PHASES = ("combat-move", "non-combat-move")


def my_seats(seats: Mapping[str, Seat], user_id: int | None) -> list[str]:
    return held_by(seats, user_id)


def can_undo(log: GameLog, dice_from_seq: int, power: str | None = None) -> bool:
    """Whether the last entry (a team turn: `power`'s last entry this turn) may be taken back (`Game.undo`: never
    past a roll or a finished phase)."""
    index = len(log.entries) - 1
    while power is not None and index >= 0 and (log.entries[index].action or {}).get("power") != power:
        if any(e.type == "team_turn_started" for e in log.entries[index].events):
            return False
        index -= 1
    if index < max(dice_from_seq, 0):
        return False
    last = log.entries[index]
    return (last.action or {}).get("type") not in (None, "end_phase") and not any(
        e.type == "dice_rolled" for entry in log.entries[index:] for e in entry.events)


def _in_turn_order(seats: Mapping[str, Seat], ruleset: Ruleset) -> list[Seat]:
    order = {name: i for i, name in enumerate(p.name for p in ruleset.board.powers)}
    order.update({side: i for i, side in enumerate(dict.fromkeys(p.side for p in ruleset.board.powers))})
    return sorted(seats.values(), key=lambda s: order.get(s.name, 99))


def focus_space(ruleset: Ruleset, mine: list[str], nation: str) -> str:
    """Where the map opens: the capital of the nation to move when the caller plays it (hot seat), else of the
    caller's first nation, else of the nation to move (powers without a capital are passed over)."""
    held = [(p, p.capital) for p in sorted(ruleset.board.powers, key=lambda p: p.order) if p.capital is not None]
    moving = [(p, capital) for p, capital in held if p.name == nation]
    for power, capital in moving + held:
        if power.name in mine or power.side in mine:
            return capital
    return next((capital for _, capital in moving), held[0][1])


def acting_for(live: LiveGame, seats: Mapping[str, Seat], mine: list[str], power: str | None = None) -> str | None:
    """The power the user acts as now: `power` if it may act and its seat is the user's, else the first such
    power (None when the user holds no acting seat)."""
    held = [p for p in acting_powers(live.state) if seat_of(live.state, live.seating, p) in mine]
    return power if power in held else next(iter(held), None)


def acting_game(live: LiveGame, power: str | None) -> Game:
    """The game as `power` acts in it (a team turn: focused on its member's play), else the whole game."""
    game = Game(live.log)
    return game.acting_as(power) if power is not None and live.state.members else game


def _seen_hash(live: LiveGame, viewer: frozenset[str]) -> str:
    """The hash of the whole game as `viewer` sees it, as the map shows it (in a team turn the panel shows one
    member's place, but the page compares this hash with the map's and with live messages)."""
    seen = visible_state(live.state, viewer)
    return live.state_hash if seen is live.state else seen.hash()


def side_context(live: LiveGame, seats: Mapping[str, Seat], user_id: int | None, space: str | None,
                 bot_error: str | None = None, power: str | None = None) -> dict[str, Any]:
    """Template context of the side panel for `user_id` with `space` selected: what the powers of the user's
    seats see (`aare.player_view`); the legal actions, being the user's own, come from the whole game. In a team
    turn the panel shows the play of the power the user acts as (`power`, default: the first the user holds)."""
    mine = my_seats(seats, user_id)
    viewer = seat_powers(live.state, mine)
    me = acting_for(live, seats, mine, power)
    game = acting_game(live, me)
    shown = me or next((p for p in live.state.members if seat_of(live.state, live.seating, p) in mine), None)
    state = visible_state(acting_game(live, shown).state, viewer)  # a waiting member sees its own place
    ruleset = load_ruleset(state.ruleset, state.options)
    turn = tv.turn_info(state, live.seating, seats, mine, me, live.state.members, ruleset)
    turn["won_by"] = (game_end(live.log) or {}).get("reason")
    legal = [a.to_json() for a in game.legal_actions()] if turn["your_turn"] else []
    if space is not None and space not in ruleset.board.spaces:
        space = None
    kind = phase_kind(state.phase)  # a further move or combat phase (a second armour move) plays as the standard one
    moving = turn["your_turn"] and kind in MOVE_PHASES and state.pending is None
    from_here = [a.to_json() for a in game.legal_actions(space)] if moving and space else []
    placement = tv.placement_panel(state, ruleset, legal)
    battles = tv.battles_panel(state, ruleset, legal) if kind == "conduct-combat" else []
    fighting = [str(state.pending["space"])] if state.pending and state.pending.get("space") else []
    return {
        "game_id": live.id,
        "acting_for": me if live.state.members else None,
        "ruleset": state.ruleset,
        "focus": focus_space(ruleset, mine, state.nation),
        "version": live.version,
        "state_hash": _seen_hash(live, viewer),
        "turn": turn,
        "seats": [{**s.to_json(), "mine": s.name in mine} for s in _in_turn_order(seats, ruleset)],
        "signed_in": user_id is not None,
        "bot_error": bot_error,
        "legal": legal,
        "can_end": any(a["type"] == "end_phase" for a in legal),
        "can_undo": turn["your_turn"] and can_undo(live.log, live.dice_from_seq, me if live.state.members else None),
        "decision": tv.decision_panel(state, ruleset, legal),
        "advantages": tv.advantages_panel(ruleset, legal),
        "research": tv.research_panel(legal),
        "purchase": tv.purchase_panel(state, ruleset, legal),
        "placement": placement,
        "battles": battles,
        "battle_spaces": fighting or [b["space"] for b in battles],
        "last_battle": last_battle(live.log, viewer) if kind == "conduct-combat" else None,
        "moving": moving,
        "selected": space,
        "space": tv.space_info(state, ruleset, space) if space else None,
        "move_rows": tv.move_rows(state, ruleset, space, from_here) if moving and space else [],
        "targets": tv.move_targets(from_here),
        "place_targets": [s["name"] for s in placement["spaces"]] if placement else [],
        "declarations": tv.declarations(legal),
        "other": tv.other_actions(legal),
        "nations": tv.nations(state),
        "log": event_log(live.log, viewer),
    }
