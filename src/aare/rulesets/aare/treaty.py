"""The Russia-Japan non-aggression treaty of AARe (seed "BASE GAME" 4, AARE-NAT-*): its record, what breaks or
voids it, and the free infantry it grants.

The record is `state.extra["treaty"]`: `status` ("active", "broken" or "void"; once not active it is out of
play for good), `round`, `by` (the power whose act ended it), `reasons` (the triggers), `infantry` (where the
free infantry went) and, during a combat move of Russia or Japan, `pending` (triggers of that combat move,
settled together when conduct-combat begins, so that a void and a break of one combat move give one set).

A trigger is ``{"kind": "break" | "void", "rule", "by", "victim", "space", "reason"}``. The victim (the
attacked or infringed treaty partner) receives the free infantry: in the attacked territory for a break, in
its capital for a void, and where it chooses when there are several such places.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from aare.movement.battles import BattleSite
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

KEY = "treaty"
RUSSIA, JAPAN = "Russia", "Japan"
PARTIES = (RUSSIA, JAPAN)
ACTIVE, BROKEN, VOID = "active", "broken", "void"
FREE_INFANTRY = 4
DECISION = "treaty_infantry"

R_INITIAL = "AARE-NAT-initial-state"
R_BREAK_FREE = "AARE-NAT-break-free-inf"
R_BREAK_ONE = "AARE-NAT-break-single-territory"
R_VOID_FREE = "AARE-NAT-void-free-inf"
R_CAPITAL = "AARE-NAT-void-capital-capture"
R_BOTH = "AARE-NAT-void-and-break-same-phase"
R_ENDS = "AARE-NAT-ends-permanently"
R_BREAK = {RUSSIA: "AARE-NAT-break-russia-attacks-orange", JAPAN: "AARE-NAT-break-japan-attacks-red"}
R_VOID_ATTACK = {
    RUSSIA: "AARE-NAT-void-russia-attacks-japanese-nonorange",
    JAPAN: "AARE-NAT-void-japan-attacks-russian-nonred",
}
R_VOID_ENTER = {RUSSIA: "AARE-NAT-void-russia-enters-allied-orange", JAPAN: "AARE-NAT-void-japan-enters-german-red"}
R_OVERFLIGHT = "AARE-NAT-void-overflight"
R_NAVAL = "AARE-NAT-void-naval-attack"
R_ECONOMIC = "AARE-NAT-void-economic-attack"
# whose territories a party may not enter: Russia not UK/US-held Orange land, Japan not German-held Red land
FORBIDDEN_HOLDERS = {RUSSIA: ("United Kingdom", "United States"), JAPAN: ("Germany",)}


def fresh() -> dict[str, Any]:
    return {"status": ACTIVE, "round": None, "by": None, "reasons": [], "infantry": None, "pending": []}


def record(state: GameState) -> dict[str, Any]:
    """The treaty record (a state without one is at the start: the treaty is active, AARE-NAT-initial-state)."""
    raw = state.extra.get(KEY)
    return {**fresh(), **raw} if isinstance(raw, Mapping) else fresh()


def active(state: GameState) -> bool:
    return bool(record(state)["status"] == ACTIVE)


def partner(power: str) -> str:
    return JAPAN if power == RUSSIA else RUSSIA


def trigger(kind: str, rule: str, by: str, space: str, reason: str) -> dict[str, Any]:
    return {"kind": kind, "rule": rule, "by": by, "victim": partner(by), "space": space, "reason": reason}


def _original(ruleset: Ruleset, territory: str) -> str | None:
    return ruleset.board.spaces[territory].owner


def attack_triggers(state: GameState, ruleset: Ruleset, sites: Iterable[BattleSite]) -> list[dict[str, Any]]:
    """What the moving party's declared attacks do to the treaty: attacking an original territory of the
    partner breaks it; attacking other land the partner holds, its ships, or raiding it voids it."""
    power = state.nation
    other = partner(power)
    out: list[dict[str, Any]] = []
    for site in sites:
        space = site.space
        if site.kind in ("land", "amphibious"):
            if _original(ruleset, space) == other:
                out.append(trigger("break", R_BREAK[power], power, space, f"{power} attacks {space}"))
            elif state.owners.get(space) == other:
                out.append(trigger("void", R_VOID_ATTACK[power], power, space, f"{power} attacks {space}"))
        elif site.kind == "sea" and other in site.defenders:
            out.append(trigger("void", R_NAVAL, power, space, f"{power} attacks {other}'s ships in {space}"))
        elif site.kind == "bombing" and state.owners.get(space) == other:
            out.append(trigger("void", R_ECONOMIC, power, space, f"{power} raids {space}"))
    return out


def move_triggers(state: GameState, ruleset: Ruleset, path: Sequence[str], air: bool) -> list[dict[str, Any]]:
    """What a move of the moving party along `path` does to the treaty: entering, passing or flying over an
    original territory of the partner held by the partner's listed enemies, or flying over land the partner
    holds without fighting there (every space but the last of an aircraft's path)."""
    power = state.nation
    other = partner(power)
    board = ruleset.board
    out: list[dict[str, Any]] = []
    for space in path[1:]:
        if not board.spaces[space].is_land:
            continue
        if _original(ruleset, space) == other and state.owners.get(space) in FORBIDDEN_HOLDERS[power]:
            out.append(trigger("void", R_VOID_ENTER[power], power, space, f"{power} moves into {space}"))
    if air:
        for space in path[1:-1]:
            if board.spaces[space].is_land and state.owners.get(space) == other:
                out.append(trigger("void", R_OVERFLIGHT, power, space, f"{power} flies over {space}"))
    return out


def infantry_count(state: GameState, ruleset: Ruleset, power: str, rule: str) -> int:
    """The free infantry `power` receives: 4, changed by `treaty_infantry` effects (e.g. Siberian Conscripts)."""
    return ruleset.value("treaty_infantry", power, FREE_INFANTRY, rule, power=power, state=state).value


def places(state: GameState, ruleset: Ruleset, triggers: Sequence[Mapping[str, Any]]) -> list[str]:
    """Where the one set of free infantry may go: the attacked territories of the breaks that the victim still
    holds, and its capital when a trigger voided the treaty (AARE-NAT-break-single-territory,
    AARE-NAT-void-and-break-same-phase)."""
    victim = str(triggers[0]["victim"])
    out = [str(t["space"]) for t in triggers if t["kind"] == "break" and state.owners.get(t["space"]) == victim]
    if any(t["kind"] == "void" for t in triggers):
        capital = ruleset.board.capital_of(victim)
        if capital is not None and state.owners.get(capital) == victim:
            out.append(capital)
    return sorted(dict.fromkeys(out))


def ended(
    state: GameState, triggers: Sequence[Mapping[str, Any]], infantry: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The record once `triggers` have ended the treaty."""
    status = BROKEN if any(t["kind"] == "break" for t in triggers) else VOID
    return {**record(state), "status": status, "round": state.round, "by": triggers[0]["by"],
            "reasons": [dict(t) for t in triggers], "infantry": infantry, "pending": []}


def capital_lost(state: GameState, ruleset: Ruleset) -> str | None:
    """A treaty party whose capital someone else holds (AARE-NAT-void-capital-capture)."""
    for power in PARTIES:
        if not ruleset.board.holds_capital(power, state.owners):
            return power
    return None
