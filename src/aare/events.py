"""Events: the only way a game state changes. Each event applies itself to a state and has a JSON form.

An action is validated against the rules, then turned into events; the log stores both, and folding the
events over the initial state reproduces every later state exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from aare.errors import MalformedInput
from aare.state.game_state import DiceState, GameState
from aare.state.unit_stacks import Stack, add_stack, remove_stack

_EVENT_TYPES: dict[str, type[Event]] = {}


@dataclass(frozen=True)
class Event:
    """Base class. Subclasses set `type` and implement `apply`."""

    type: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.type:
            _EVENT_TYPES[cls.type] = cls

    def apply(self, state: GameState) -> GameState:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        names = _FIELD_NAMES.get(type(self))
        if names is None:
            names = _FIELD_NAMES[type(self)] = tuple(f.name for f in fields(self))
        for name in names:
            out[name] = _dump(getattr(self, name))
        return out


_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}
"""Each event class's field names, in order (`dataclasses.fields` builds them afresh on every call)."""


def _dump(value: Any) -> Any:
    if isinstance(value, Stack):
        return value.to_json()
    if isinstance(value, tuple):
        return [_dump(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _dump(v) for k, v in value.items()}
    return value


def event_from_json(raw: Any) -> Event:
    """Read an event; unknown types and fields raise MalformedInput."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("type"), str):
        raise MalformedInput(f"an event must be an object with a type, got {raw!r}")
    cls = _EVENT_TYPES.get(raw["type"])
    if cls is None:
        raise MalformedInput(f"unknown event type {raw['type']!r}")
    names = {f.name: f for f in fields(cls)}
    given = {k: v for k, v in raw.items() if k != "type"}
    if set(given) != set(names):
        raise MalformedInput(f"event {cls.type}: expected fields {sorted(names)}, got {sorted(given)}")
    kwargs: dict[str, Any] = {}
    for name, value in given.items():
        annotation = str(names[name].type)
        if annotation == "Stack":
            value = Stack.from_json(value)
        elif annotation.startswith("tuple") and isinstance(value, list):
            value = tuple(value)
        kwargs[name] = value
    return cls(**kwargs)


def renamed_rules(event: Event, names: Mapping[str, str]) -> Event:
    """`event` naming its rule by `names` (core rule id -> another id for it): its `rule_id`, and the `rule` of
    the decision a `DecisionPending` records; ids `names` does not hold stay as they are."""
    if isinstance(event, DecisionPending):
        rule = event.decision.get("rule") if event.decision is not None else None
        if isinstance(rule, str) and rule in names:
            return replace(event, decision={**(event.decision or {}), "rule": names[rule]})
        return event
    rule_id = getattr(event, "rule_id", None)
    if isinstance(rule_id, str) and rule_id in names:
        return replace(event, rule_id=names[rule_id])  # type: ignore[call-arg]
    return event


def apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = event.apply(state)
    return state


@dataclass(frozen=True)
class PhaseEntered(Event):
    """Play moves to `phase` of `nation`'s turn in `round`."""

    type: ClassVar[str] = "phase_entered"
    round: int
    nation: str
    phase: str

    def apply(self, state: GameState) -> GameState:
        return state.evolve(round=self.round, nation=self.nation, phase=self.phase)


@dataclass(frozen=True)
class UnitsAdded(Event):
    """Units appear in a space (mobilisation, a rule that grants units, set-up)."""

    type: ClassVar[str] = "units_added"
    space: str
    stack: Stack
    rule_id: str = ""

    def apply(self, state: GameState) -> GameState:
        return state.with_stacks(self.space, add_stack(state.stacks(self.space), self.stack))


@dataclass(frozen=True)
class UnitsRemoved(Event):
    """Units leave the game (casualties, a rule that removes units)."""

    type: ClassVar[str] = "units_removed"
    space: str
    stack: Stack
    rule_id: str = ""

    def apply(self, state: GameState) -> GameState:
        try:
            return state.with_stacks(self.space, remove_stack(state.stacks(self.space), self.stack))
        except ValueError as exc:
            raise MalformedInput(f"event units_removed in {self.space}: {exc}") from None


@dataclass(frozen=True)
class UnitsChanged(Event):
    """Units in `space` change from status `before` to status `after` (moved, damaged, submerged...).
    Both stacks have the same count."""

    type: ClassVar[str] = "units_changed"
    space: str
    before: Stack
    after: Stack
    to_space: str = ""

    def apply(self, state: GameState) -> GameState:
        if self.before.count != self.after.count:
            raise MalformedInput("event units_changed: before and after counts differ")
        try:
            left = remove_stack(state.stacks(self.space), self.before)
        except ValueError as exc:
            raise MalformedInput(f"event units_changed in {self.space}: {exc}") from None
        target = self.to_space or self.space
        if target == self.space and left:  # in place: one new mapping of the units, not two
            return state.with_stacks(target, add_stack(left, self.after))
        state = state.with_stacks(self.space, left)  # an emptied space leaves the mapping, then comes back last
        return state.with_stacks(target, add_stack(state.stacks(target), self.after))


@dataclass(frozen=True)
class UnitDamaged(Event):
    """`points` of damage go on one unit in `space` (`stack`, as it was; count 1): an industrial complex hit
    by a raid or a rocket, or repaired when `points` is negative."""

    type: ClassVar[str] = "unit_damaged"
    space: str
    stack: Stack
    points: int
    rule_id: str = ""

    def apply(self, state: GameState) -> GameState:
        after = replace(self.stack, damage=self.stack.damage + self.points)
        if self.stack.count != 1 or after.damage < 0:
            raise MalformedInput(f"event unit_damaged in {self.space}: one unit, damage never below 0")
        return UnitsChanged(self.space, self.stack, after).apply(state)


@dataclass(frozen=True)
class UnitsLoaded(Event):
    """Land `units` leave `territory` and board transports in `sea_zone`: the transports `before` become
    `after` (same count; their cargo flag now lists the new units)."""

    type: ClassVar[str] = "units_loaded"
    territory: str
    units: Stack
    sea_zone: str
    before: Stack
    after: Stack

    def apply(self, state: GameState) -> GameState:
        if self.before.count != self.after.count:
            raise MalformedInput("event units_loaded: before and after counts differ")
        try:
            state = state.with_stacks(self.territory, remove_stack(state.stacks(self.territory), self.units))
            stacks = remove_stack(state.stacks(self.sea_zone), self.before)
        except ValueError as exc:
            raise MalformedInput(f"event units_loaded: {exc}") from None
        return state.with_stacks(self.sea_zone, add_stack(stacks, self.after))


@dataclass(frozen=True)
class UnitsUnloaded(Event):
    """Transports in `sea_zone` put `units` ashore in `territory`: the transports `before` become `after`."""

    type: ClassVar[str] = "units_unloaded"
    sea_zone: str
    before: Stack
    after: Stack
    territory: str
    units: Stack

    def apply(self, state: GameState) -> GameState:
        if self.before.count != self.after.count:
            raise MalformedInput("event units_unloaded: before and after counts differ")
        try:
            stacks = remove_stack(state.stacks(self.sea_zone), self.before)
        except ValueError as exc:
            raise MalformedInput(f"event units_unloaded: {exc}") from None
        state = state.with_stacks(self.sea_zone, add_stack(stacks, self.after))
        return state.with_stacks(self.territory, add_stack(state.stacks(self.territory), self.units))


@dataclass(frozen=True)
class ControlChanged(Event):
    """A territory passes to `owner` (capture, liberation)."""

    type: ClassVar[str] = "control_changed"
    space: str
    owner: str
    rule_id: str = ""

    def apply(self, state: GameState) -> GameState:
        return state.evolve(owners={**state.owners, self.space: self.owner})


@dataclass(frozen=True)
class BankChanged(Event):
    """A power's treasury changes by `delta` for `reason` (income, purchase, capture, a rule)."""

    type: ClassVar[str] = "bank_changed"
    power: str
    delta: int
    reason: str
    rule_id: str = ""

    def apply(self, state: GameState) -> GameState:
        balance = state.banks.get(self.power, 0) + self.delta
        if balance < 0:
            raise MalformedInput(f"event bank_changed: {self.power} would have {balance} IPC")
        return state.evolve(banks={**state.banks, self.power: balance})


@dataclass(frozen=True)
class DiceRolled(Event):
    """Dice were rolled for `purpose`; `counter` is the seeded source's counter after the roll."""

    type: ClassVar[str] = "dice_rolled"
    purpose: str
    values: tuple[int, ...]
    sides: int
    counter: int

    def apply(self, state: GameState) -> GameState:
        return state.evolve(dice=DiceState(state.dice.seed, self.counter))


@dataclass(frozen=True)
class TechGained(Event):
    type: ClassVar[str] = "tech_gained"
    power: str
    tech: str
    rule_id: str = ""

    def apply(self, state: GameState) -> GameState:
        have = state.techs.get(self.power, ())
        if self.tech in have:
            return state
        return state.evolve(techs={**state.techs, self.power: tuple(sorted((*have, self.tech)))})


@dataclass(frozen=True)
class DecisionPending(Event):
    """Play waits for `decision` (who must decide, what, the choices); None clears it."""

    type: ClassVar[str] = "decision_pending"
    decision: Mapping[str, Any] | None

    def apply(self, state: GameState) -> GameState:
        return state.evolve(pending=None if self.decision is None else dict(self.decision))


@dataclass(frozen=True)
class ExtraSet(Event):
    """Ruleset-specific state: `extra[key] = value` (a JSON value), set by the rule `rule_id`."""

    type: ClassVar[str] = "extra_set"
    key: str
    value: Any
    rule_id: str = ""

    def apply(self, state: GameState) -> GameState:
        return state.evolve(extra={**state.extra, self.key: self.value})


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    winner: str
    reason: str
    rule_id: str = ""

    def apply(self, state: GameState) -> GameState:
        return state.evolve(winner=self.winner)


@dataclass(frozen=True)
class TeamTurnStarted(Event):
    """A team turn begins in `round`: every one of `powers` acts, each from `phase` on at its own pace."""

    type: ClassVar[str] = "team_turn_started"
    round: int
    powers: tuple[str, ...]
    phase: str
    rule_id: str = "AARHE-ORDER-team-concurrency"

    def apply(self, state: GameState) -> GameState:
        members = {p: {"phase": self.phase, "status": "acting", "pending": None} for p in self.powers}
        return state.evolve(round=self.round, nation=self.powers[0], phase=self.phase, pending=None,
                       members=members)


@dataclass(frozen=True)
class MemberFocused(Event):
    """The state turns to one member of a team turn: `nation`, `phase` and `pending` become its own."""

    type: ClassVar[str] = "member_focused"
    power: str

    def apply(self, state: GameState) -> GameState:
        member = state.members[self.power]
        extra = {**state.extra, **member.get("extra", {})}
        return state.evolve(nation=self.power, phase=member["phase"], pending=member["pending"], extra=extra)


@dataclass(frozen=True)
class MemberReleased(Event):
    """The focused member's place is stored with `status`, with the `private` records of `extra` that each
    member keeps for itself (its battles, its turn record); the state shows the team again: its first member
    and `phase`, the team's earliest phase."""

    type: ClassVar[str] = "member_released"
    power: str
    status: str
    phase: str
    private: tuple[str, ...] = ()

    def apply(self, state: GameState) -> GameState:
        mine: dict[str, Any] = {"phase": state.phase, "status": self.status, "pending": state.pending}
        own = {k: state.extra[k] for k in self.private if k in state.extra}
        if own:
            mine["extra"] = own
        members = {**state.members, self.power: mine}
        extra = {k: v for k, v in state.extra.items() if k not in self.private}
        return state.evolve(nation=next(iter(members)), phase=self.phase, pending=None, members=members,
                       extra=extra)


@dataclass(frozen=True)
class TeamTurnEnded(Event):
    """Every member of the team has ended its turn."""

    type: ClassVar[str] = "team_turn_ended"

    def apply(self, state: GameState) -> GameState:
        return state.evolve(members={})
