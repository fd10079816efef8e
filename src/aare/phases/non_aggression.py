"""A non-aggression treaty between two powers (the Russia-Japan treaty of AARe and of Anniversary Enhanced), for
rulesets that name its parties, whose land is whose and its rules in a `Pact`.

The record is `state.extra["treaty"]`: `status` ("active", "broken" or "void"; once not active it is out of play
for good), `round`, `by` (the power whose act ended it), `reasons` (the triggers), `infantry` (where the free
infantry went) and, during a combat move of a party, `pending` (triggers of that combat move, settled together when
conduct-combat begins, so that a void and a break of one combat move give one set).

A trigger is ``{"kind": "break" | "void", "rule", "by", "victim", "space", "reason"}``. The victim (the attacked or
infringed party) receives the free infantry: in the attacked territory for a break, in its capital for a void, and
where it chooses when there are several such places (a `treaty_infantry` decision).

What the module watches while the treaty is active: every phase, a party's capital changing hands (void, no
infantry); on a party's turn its moves (entering the partner's original land held by the listed holders,
overflights of land the partner holds), its declared attacks (the partner's original land: break; other land the
partner holds, its ships, raids on it: void), its rockets at the partner, and at the partner's collect income the
convoy raids of its submarines (read from the convoy record `Pact.convoy_key`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from aare.actions import Move, Rocket, TreatyInfantry
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.events import DecisionPending, ExtraSet, UnitsAdded
from aare.movement.battles import BattleSite, pending_battles
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

KEY = "treaty"
ACTIVE, BROKEN, VOID = "active", "broken", "void"
FREE_INFANTRY = 4
DECISION = "treaty_infantry"


@dataclass(frozen=True)
class PactRules:
    """The ledger id of each rule of the treaty, as the ruleset names it (per party where the rule is)."""

    initial: str
    break_free: str
    break_one: str
    void_free: str
    capital: str
    both: str
    ends: str
    break_attack: Mapping[str, str]
    void_attack: Mapping[str, str]
    void_enter: Mapping[str, str]
    overflight: str
    naval: str
    economic: str


@dataclass(frozen=True)
class Pact:
    """The two parties, whose holding of the partner's original land a party may not enter (`forbidden_holders`),
    the rules, the game option that switches the treaty off (None: always on), the parties subject to convoy raids
    and the convoy record to read."""

    parties: tuple[str, str]
    forbidden_holders: Mapping[str, tuple[str, ...]]
    rules: PactRules
    option: str | None = None
    convoy_victims: tuple[str, ...] = ()
    convoy_key: str = "convoy"

    def partner(self, power: str) -> str:
        return self.parties[1] if power == self.parties[0] else self.parties[0]

    def trigger(self, kind: str, rule: str, by: str, space: str, reason: str) -> dict[str, Any]:
        return {"kind": kind, "rule": rule, "by": by, "victim": self.partner(by), "space": space, "reason": reason}

    def on(self, ruleset: Ruleset) -> bool:
        return self.option is None or bool(ruleset.options.get(self.option, True))


def fresh() -> dict[str, Any]:
    return {"status": ACTIVE, "round": None, "by": None, "reasons": [], "infantry": None, "pending": []}


def record(state: GameState) -> dict[str, Any]:
    """The treaty record (a state without one is at the start: the treaty is active)."""
    raw = state.extra.get(KEY)
    return {**fresh(), **raw} if isinstance(raw, Mapping) else fresh()


def active(state: GameState) -> bool:
    return bool(record(state)["status"] == ACTIVE)


def _original(ruleset: Ruleset, territory: str) -> str | None:
    return ruleset.board.spaces[territory].owner


def attack_triggers(
    pact: Pact, state: GameState, ruleset: Ruleset, sites: Iterable[BattleSite]
) -> list[dict[str, Any]]:
    """What the moving party's declared attacks do to the treaty: attacking an original territory of the partner
    breaks it; attacking other land the partner holds, its ships, or raiding it voids it."""
    power = state.nation
    other = pact.partner(power)
    rules = pact.rules
    out: list[dict[str, Any]] = []
    for site in sites:
        space = site.space
        if site.kind in ("land", "amphibious"):
            if _original(ruleset, space) == other:
                out.append(pact.trigger("break", rules.break_attack[power], power, space, f"{power} attacks {space}"))
            elif state.owners.get(space) == other:
                out.append(pact.trigger("void", rules.void_attack[power], power, space, f"{power} attacks {space}"))
        elif site.kind == "sea" and other in site.defenders:
            out.append(pact.trigger("void", rules.naval, power, space, f"{power} attacks {other}'s ships in {space}"))
        elif site.kind == "bombing" and state.owners.get(space) == other:
            out.append(pact.trigger("void", rules.economic, power, space, f"{power} raids {space}"))
    return out


def move_triggers(
    pact: Pact, state: GameState, ruleset: Ruleset, path: Sequence[str], air: bool
) -> list[dict[str, Any]]:
    """What a move of the moving party along `path` does to the treaty: entering, passing or flying over an
    original territory of the partner held by the party's forbidden holders, or flying over land the partner
    holds without fighting there (every space but the last of an aircraft's path)."""
    power = state.nation
    other = pact.partner(power)
    board = ruleset.board
    out: list[dict[str, Any]] = []
    for space in path[1:]:
        if not board.spaces[space].is_land:
            continue
        if _original(ruleset, space) == other and state.owners.get(space) in pact.forbidden_holders[power]:
            out.append(pact.trigger("void", pact.rules.void_enter[power], power, space, f"{power} moves into {space}"))
    if air:
        for space in path[1:-1]:
            if board.spaces[space].is_land and state.owners.get(space) == other:
                out.append(pact.trigger("void", pact.rules.overflight, power, space, f"{power} flies over {space}"))
    return out


def infantry_count(state: GameState, ruleset: Ruleset, power: str, rule: str) -> int:
    """The free infantry `power` receives: 4, changed by `treaty_infantry` effects (e.g. AARe's Siberian
    Conscripts)."""
    return ruleset.value("treaty_infantry", power, FREE_INFANTRY, rule, power=power, state=state).value


def places(state: GameState, ruleset: Ruleset, triggers: Sequence[Mapping[str, Any]]) -> list[str]:
    """Where the one set of free infantry may go: the attacked territories of the breaks that the victim still
    holds, and its capital when a trigger voided the treaty."""
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


def capital_lost(pact: Pact, state: GameState, ruleset: Ruleset) -> str | None:
    """A party whose capital someone else holds."""
    for power in pact.parties:
        if not ruleset.board.holds_capital(power, state.owners):
            return power
    return None


def raided_by(state: GameState, victim: str, raider: str, key: str = "convoy") -> bool:
    """Whether `raider`'s submarines took IPCs from `victim` in the convoy raids of the current turn (the convoy
    record `state.extra[key]`: round, power and its raids with their damage and submarines)."""
    raids = state.extra.get(key)
    if not isinstance(raids, Mapping) or raids.get("power") != victim or raids.get("round") != state.round:
        return False
    return any(raid["damage"] > 0 and any(s["owner"] == raider for s in raid["subs"]) for raid in raids["raids"])


class PactWatch(PhaseExtension):
    """The treaty's watch over a phase while it is active, and the victim's choice of where the infantry go."""

    name = "non-aggression-treaty"
    action_types = frozenset({"treaty_infantry"})
    answers = frozenset({DECISION})

    def __init__(self, pact: Pact) -> None:
        self.pact = pact

    def settle(self, ctx: TurnContext, triggers: Sequence[Mapping[str, Any]]) -> None:
        """End the treaty for `triggers` and grant the one set of free infantry: placed at once when there is one
        place for it, else the victim chooses (a pending decision)."""
        rules = self.pact.rules
        victim = str(triggers[0]["victim"])
        where = places(ctx.state, ctx.ruleset, triggers)
        breaks = any(t["kind"] == "break" for t in triggers)
        rule = rules.break_free if breaks else rules.void_free
        count = infantry_count(ctx.state, ctx.ruleset, victim, rule)
        if len(where) == 1:
            self._place(ctx, triggers, where[0], count, rule)
            return
        ctx.emit(ExtraSet(KEY, ended(ctx.state, triggers, None), str(triggers[0]["rule"])))
        if not where:
            return
        both = breaks and any(t["kind"] == "void" for t in triggers)
        decision = {
            "kind": DECISION,
            "power": victim,
            "space": None,
            "count": count,
            "rule": rules.both if both else rules.break_one,
            "reason": "; ".join(str(t["reason"]) for t in triggers),
            "options": [TreatyInfantry(space=s).to_json() for s in where],
        }
        ctx.emit(DecisionPending(decision))

    @staticmethod
    def _place(ctx: TurnContext, triggers: Sequence[Mapping[str, Any]], space: str, count: int, rule: str) -> None:
        victim = str(triggers[0]["victim"])
        infantry = {"power": victim, "space": space, "count": count}
        ctx.emit(ExtraSet(KEY, ended(ctx.state, triggers, infantry), str(triggers[0]["rule"])))
        ctx.emit(UnitsAdded(space, Stack(victim, "infantry", count), rule))

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        pending = ctx.state.pending
        if pending is not None and pending.get("kind") == DECISION:
            for option in pending.get("options", ()):
                if space in (None, option["space"]):
                    yield TreatyInfantry(space=option["space"])

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        rules = self.pact.rules
        pending = ctx.state.pending
        if pending is None or pending.get("kind") != DECISION:
            raise IllegalAction("no free treaty infantry are waiting to be placed", rules.ends)
        space = ctx.ruleset.board.resolve(action.space)
        allowed = [o["space"] for o in pending.get("options", ())]
        if space not in allowed:
            raise IllegalAction(f"the free infantry go to one of {', '.join(allowed)}", str(pending["rule"]))
        triggers = record(ctx.state)["reasons"]
        rule = rules.break_free if any(t["kind"] == "break" for t in triggers) else rules.void_free
        self._place(ctx, triggers, space, int(pending["count"]), rule)
        ctx.emit(DecisionPending(None))

    def after(self, ctx: TurnContext, action: Any) -> None:
        if not active(ctx.state):
            return
        pact, state, ruleset = self.pact, ctx.state, ctx.ruleset
        lost = capital_lost(pact, state, ruleset)
        if lost is not None:
            capital = {"kind": "void", "rule": pact.rules.capital, "by": ctx.power, "victim": lost, "space": "",
                      "reason": f"{lost}'s capital is captured"}
            ctx.emit(ExtraSet(KEY, ended(state, [capital], None), pact.rules.capital))
            return
        if ctx.power not in pact.parties:
            return
        phase = state.phase
        if isinstance(action, Move) and phase in ("combat-move", "non-combat-move"):
            path = [ruleset.board.resolve(p) for p in action.path]
            air = any(ruleset.units[u].domain == "air" for u in parse_units(action.units, ruleset.units))
            found = move_triggers(pact, state, ruleset, path, air)
            if found and phase == "combat-move":
                rec = record(state)
                new = [t for t in found if t not in rec["pending"]]
                if new:
                    ctx.emit(ExtraSet(KEY, {**rec, "pending": [*rec["pending"], *new]}, str(new[0]["rule"])))
            elif found:
                self.settle(ctx, found)
        elif isinstance(action, Rocket) and phase == "conduct-combat":
            target = ruleset.board.resolve(action.target)
            if state.owners.get(target) == pact.partner(ctx.power):
                reason = f"{ctx.power} fires a rocket at {target}"
                self.settle(ctx, [pact.trigger("void", pact.rules.economic, ctx.power, target, reason)])

    def on_enter(self, ctx: TurnContext) -> None:
        if not active(ctx.state):
            return
        pact, phase, power = self.pact, ctx.state.phase, ctx.power
        if phase == "conduct-combat" and power in pact.parties:
            sites = [s for s in pending_battles(ctx.state, ctx.ruleset) if s.kind != "flyover"]
            found = [*record(ctx.state)["pending"], *attack_triggers(pact, ctx.state, ctx.ruleset, sites)]
            if found:
                self.settle(ctx, found)
        elif phase == "collect-income" and power in pact.convoy_victims:
            raider = pact.partner(power)
            if raided_by(ctx.state, power, raider, pact.convoy_key):
                reason = f"{raider}'s submarines raid {power}'s convoys"
                self.settle(ctx, [pact.trigger("void", pact.rules.economic, raider, "", reason)])


@dataclass(frozen=True)
class PactHooks:
    """The hooks a rule module gives for a `Pact`: the record at the start, the watch, the record in a game's
    summary."""

    pact: Pact

    def hooks(self) -> dict[str, Callable[..., Any]]:
        pact = self.pact
        watch = PactWatch(pact)

        def initial(state: Any, ruleset: Any, **_: Any) -> Any:
            return replace(state, extra={**state.extra, KEY: fresh()}) if pact.on(ruleset) else state

        def phase_actions(found: list[Any], ruleset: Any, state: Any, **_: Any) -> list[Any]:
            """The watch in every phase (once the treaty is out of play it only refuses treaty infantry)."""
            return [*found, watch] if pact.on(ruleset) and state is not None else found

        def summary_records(keys: list[str], **_: Any) -> list[str]:
            return [*keys, KEY]

        return {"initial_state": initial, "phase_actions": phase_actions, "summary_records": summary_records}
