"""Free units that come with an AA50E technology (seed 9), granted in the turn the tech is gained:

- Advanced Artillery: 1 artillery in the capital at once, usable this turn (AA50E-TECH-adv-artillery-free-capital),
  and 1 more placed in mobilize in any territory held since the turn began (-free-mobilize).
- Rockets: 1 AA gun in the capital at the end of the turn (collect income) (AA50E-TECH-rockets-free-aa).
- Mechanized Infantry: 2 infantry in the capital in mobilize (AA50E-TECH-mech-inf-free-infantry).
- Radar: 1 AA gun placed in mobilize in a territory worth 2 or more held since the turn began
  (AA50E-TECH-radar-free-aa).

Grants due later wait in ``extra["tech_grants"] = {power: [{"tech", "units", "where", "phase", "rule"}]}`` (a
national advantage's free units too, `spaces` listing where they may go). Those with a fixed place
(the capital) appear when their phase begins; the others are placed with `place_free` (the `advantage` field
naming the tech: `free radar: 1 aa in Egypt`) and are lost when mobilize ends unplaced. With the capital not
held a capital grant is lost. Free units use no factory capacity and are not bought.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import PlaceFree
from aare.board.notation import parse_units
from aare.economy.turn import held_since_turn_start
from aare.errors import IllegalAction
from aare.events import Event, ExtraSet, UnitsAdded
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

KEY = "tech_grants"
R_ART_CAPITAL = "AA50E-TECH-adv-artillery-free-capital"
R_ART_MOBILIZE = "AA50E-TECH-adv-artillery-free-mobilize"
R_ROCKETS_AA = "AA50E-TECH-rockets-free-aa"
R_MECH = "AA50E-TECH-mech-inf-free-infantry"
R_RADAR_AA = "AA50E-TECH-radar-free-aa"
RADAR_MIN_VALUE = 2

# tech -> grants due later: (units, where: "capital" | "held", phase, rule)
LATER: dict[str, tuple[tuple[dict[str, int], str, str, str], ...]] = {
    "advanced_artillery": (({"artillery": 1}, "held", "mobilize", R_ART_MOBILIZE),),
    "rockets": (({"aa_gun": 1}, "capital", "collect-income", R_ROCKETS_AA),),
    "improved_mechanized_infantry": (({"infantry": 2}, "capital", "mobilize", R_MECH),),
    "radar": (({"aa_gun": 1}, "held", "mobilize", R_RADAR_AA),),
}
MIN_VALUE = {R_RADAR_AA: RADAR_MIN_VALUE}


def owed(state: GameState, power: str) -> list[dict[str, Any]]:
    """The grants `power` is still due."""
    return [dict(g) for g in (state.extra.get(KEY) or {}).get(power, [])]


def owed_event(state: GameState, power: str, grants: list[dict[str, Any]], rule_id: str) -> ExtraSet:
    table = {p: list(g) for p, g in (state.extra.get(KEY) or {}).items() if p != power}
    if grants:
        table[power] = grants
    return ExtraSet(KEY, dict(sorted(table.items())), rule_id)


def _capital(state: GameState, ruleset: Ruleset, power: str) -> str | None:
    capital = ruleset.board.capital_of(power)
    return capital if capital is not None and state.owners.get(capital) == power else None


def _added(space: str, power: str, units: dict[str, int], rule: str) -> list[Event]:
    return [UnitsAdded(space, Stack(power, unit, n), rule) for unit, n in units.items()]


def grant_events(state: GameState, ruleset: Ruleset, power: str, tech: str) -> list[Event]:
    """What gaining `tech` grants now: the capital's artillery of Advanced Artillery, and the grants due later."""
    out: list[Event] = []
    capital = _capital(state, ruleset, power)
    if tech == "advanced_artillery" and capital is not None:
        out += _added(capital, power, {"artillery": 1}, R_ART_CAPITAL)
    later = LATER.get(tech, ())
    if later:
        grants = [*owed(state, power), *({"tech": tech, "units": u, "where": w, "phase": p, "rule": r}
                                         for u, w, p, r in later)]
        out.append(owed_event(state, power, grants, later[0][3]))
    return out


def _where_ok(state: GameState, ruleset: Ruleset, power: str, grant: dict[str, Any], space: str) -> bool:
    if not held_since_turn_start(state, power, space) or space not in grant.get("spaces", (space,)):
        return False
    return bool(ruleset.board.spaces[space].ipc >= MIN_VALUE.get(str(grant["rule"]), 0))


class DueGrants(PhaseExtension):
    """The grants due in this phase: capital grants appear as it begins, the others are placed with
    `place_free` and lost when it ends."""

    name = "tech-grants"
    action_types = frozenset({"place_free"})

    def __init__(self, phase: str) -> None:
        self.phase = phase

    def _due(self, ctx: TurnContext) -> list[dict[str, Any]]:
        return [g for g in owed(ctx.state, ctx.power) if g["phase"] == self.phase]

    def on_enter(self, ctx: TurnContext) -> None:
        grants = owed(ctx.state, ctx.power)
        fixed = [g for g in grants if g["phase"] == self.phase and g["where"] == "capital"]
        if not fixed:
            return
        capital = _capital(ctx.state, ctx.ruleset, ctx.power)
        for grant in fixed:
            if capital is not None:
                ctx.emit(*_added(capital, ctx.power, grant["units"], grant["rule"]))
        ctx.emit(owed_event(ctx.state, ctx.power, [g for g in grants if g not in fixed], fixed[0]["rule"]))

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        seen: set[str] = set()
        for grant in self._due(ctx):
            if grant["tech"] in seen:
                continue
            seen.add(grant["tech"])
            units = ", ".join(f"{n} {u}" for u, n in grant["units"].items())
            for where in sorted(ctx.state.owners) if space is None else [space]:
                if where in ctx.state.owners and _where_ok(ctx.state, ctx.ruleset, ctx.power, grant, where):
                    yield PlaceFree(advantage=grant["tech"], units=units, space=where)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, PlaceFree):
            raise IllegalAction(f"{action.type} is not a free placement", "AA50-PHASES-sequence")
        ruleset, state = ctx.ruleset, ctx.state
        grants = owed(state, ctx.power)
        grant = next((g for g in grants if g["phase"] == self.phase and g["tech"] == action.advantage), None)
        if grant is None:
            raise IllegalAction(f"{ctx.power} is owed no free units for {action.advantage} now", R_ART_MOBILIZE)
        rule = str(grant["rule"])
        space = ruleset.board.resolve(action.space)
        if parse_units(action.units, ruleset.units) != grant["units"]:
            raise IllegalAction(f"{action.advantage} grants {grant['units']}, not {action.units}", rule)
        if not _where_ok(state, ruleset, ctx.power, grant, space):
            least = MIN_VALUE.get(rule, 0)
            worth = f" worth {least} or more" if least else ""
            among = f" among {', '.join(grant['spaces'])}" if grant.get("spaces") else ""
            raise IllegalAction(f"the free units of {action.advantage} go to a territory{worth}{among} {ctx.power} "
                                f"has held since its turn began, not {space}", rule)
        grants.remove(grant)
        ctx.emit(*_added(space, ctx.power, grant["units"], rule), owed_event(ctx.state, ctx.power, grants, rule))

    def on_exit(self, ctx: TurnContext) -> None:
        due = self._due(ctx)
        if due:
            rest = [g for g in owed(ctx.state, ctx.power) if g not in due]
            ctx.emit(owed_event(ctx.state, ctx.power, rest, due[0]["rule"]))


GRANTS = {phase: DueGrants(phase) for phase in ("mobilize", "collect-income")}


def phase_actions(found: list[Any], phase: str) -> list[Any]:
    """The grants of `phase`, if any may be due in it."""
    grants = GRANTS.get(phase)
    return [*found, grants] if grants is not None else found
