"""D-Day (AARe, seed "BASE GAME" 6, AARE-DDAY-*): the record and the pure rules of the joint UK and US
invasion of Western Europe.

The record is `state.extra["d_day"]`: `status` ("available"; "declared" at the start of a UK turn; then
"done" once the Western Europe battle is fought, "lapsed" when the US turn passed without it, or "lost" when
the Allies held Western Europe first), `round` of the declaration, `start_closed` (the round whose UK turn
start is over) and `sz7_clear` (no enemy unit in SZ 7 when the US turn began).

Eligible UK units carry the flag `d-day`: every UK land unit, aircraft, transport, battleship and destroyer
on the board when D-Day is declared; a UK unit that moves, loads or fights in the UK turn loses it, units
bought then never get it. On the US turn of the round the US player commands the flagged units
(`Situation.commands`, the `co_movers` hook): land units only into Western Europe (from SZ 7, or overland
from Germany or Southern Europe), aircraft only to attack it, transports only into SZ 7, warships only to
bombard from SZ 7 and only if SZ 7 held no enemy unit when the US turn began.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aare.board.units import UnitType
from aare.events import Event, UnitsChanged
from aare.movement import flags
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

KEY = "d_day"
FLAG = "d-day"
DECLARER, EXECUTOR = "United Kingdom", "United States"
TARGET, ASSAULT_ZONE = "Western Europe", "SZ 7"
OVERLAND = ("Germany", "Southern Europe")
AVAILABLE, DECLARED, DONE, LAPSED, LOST = "available", "declared", "done", "lapsed", "lost"

R_ONCE = "AARE-DDAY-once-per-game"
R_DECLARE = "AARE-DDAY-declare-at-uk-turn-start"
R_US_TURN = "AARE-DDAY-resolved-on-us-turn"
R_TARGET = "AARE-DDAY-target-weur"
R_SZ7 = "AARE-DDAY-amphib-from-sz7"
R_OVERLAND = "AARE-DDAY-overland-exception"
R_AIR = "AARE-DDAY-air-any-origin"
R_USED = "AARE-DDAY-uk-used-units-excluded"
R_NEW = "AARE-DDAY-uk-new-units-excluded"
R_COMMAND = "AARE-DDAY-us-moves-uk-units"
R_WEUR_ONLY = "AARE-DDAY-uk-units-weur-only"
R_LOADED_TRN = "AARE-DDAY-uk-loaded-trn-sz7"
R_BOMBARD = "AARE-DDAY-uk-bombard-if-sz7-empty"
R_CASUALTIES = "AARE-DDAY-casualty-agreement"
R_AA = "AARE-DDAY-aa-per-nation"
R_OWN_BONUS = "AARE-DDAY-bonuses-own-units"
R_IRREVOCABLE = "AARE-DDAY-irrevocable"
R_LOST = "AARE-DDAY-lost-if-allies-held-weur"


def record(state: GameState) -> dict[str, Any]:
    raw = state.extra.get(KEY)
    base: dict[str, Any] = {"status": AVAILABLE, "round": None, "start_closed": None, "sz7_clear": None}
    return {**base, **raw} if isinstance(raw, Mapping) else base


def status(state: GameState) -> str:
    return str(record(state)["status"])


def executing(state: GameState) -> bool:
    """Whether this is the US turn of a declared D-Day."""
    rec = record(state)
    return rec["status"] == DECLARED and rec["round"] == state.round and state.nation == EXECUTOR


def warship(unit: UnitType) -> bool:
    return unit.domain == "sea" and not unit.has("transport")


def eligible_kind(unit: UnitType) -> bool:
    """UK units that can take part: land units and aircraft that fight, transports, bombarding ships."""
    if unit.domain in ("land", "air"):
        return not unit.has("not_casualty")
    return unit.domain == "sea" and (unit.has("transport") or unit.has("bombard") or unit.has("destroyer"))


def used(stack: Stack) -> bool:
    """A unit that moved, loaded or fought this turn (LHTR marks such units `turn:`)."""
    return stack.moved > 0 or bool(flags.turn_flags(stack))


def unflag_events(state: GameState, keep: Callable[[Stack], bool] = lambda s: False) -> list[Event]:
    """Drop the D-Day flag from every flagged UK stack that `keep` rejects (by default: all of them)."""
    out: list[Event] = []
    for space, stacks in sorted(state.units.items()):
        for stack in stacks:
            if stack.owner == DECLARER and FLAG in stack.flags and not keep(stack):
                out.append(UnitsChanged(space, stack, flags.with_flags(stack, drop=[FLAG])))
    return out


def flag_events(state: GameState, ruleset: Ruleset) -> list[Event]:
    """Flag the UK's eligible units at the declaration."""
    out: list[Event] = []
    for space, stacks in sorted(state.units.items()):
        for stack in stacks:
            if stack.owner == DECLARER and FLAG not in stack.flags and eligible_kind(ruleset.units[stack.unit]):
                out.append(UnitsChanged(space, stack, flags.with_flags(stack, [FLAG])))
    return out


def allied_hold_target(state: GameState, ruleset: Ruleset) -> bool:
    owner = state.owners.get(TARGET)
    return owner is not None and ruleset.board.side_of(owner) == ruleset.board.side_of(DECLARER)


def sz7_clear(state: GameState, ruleset: Ruleset) -> bool:
    """No enemy unit in SZ 7 (AARE-DDAY-uk-bombard-if-sz7-empty reads "empty" as "no enemy units")."""
    side = ruleset.board.side_of(DECLARER)
    return all(ruleset.board.side_of(s.owner) == side for s in state.stacks(ASSAULT_ZONE))
