"""Invariants of play, checked after every action in self-play and tests. Each check returns a list of
violations (empty when all is well):

- units appear only through a rule (every `UnitsAdded` names one), and units placed in mobilize leave the
  purchase pool one for one; units leave only through a rule (`UnitsRemoved` names one); a status change
  keeps the unit type and changes the owner only of units that are captured (complexes, AA guns). Units
  aboard transports count too: they travel in their transports' `cargo=` flag, which a status change may
  hand to another owner but never fill or empty;
- IPCs move only for known reasons, each naming a rule; what a purchase adds to the pool is paid for
  exactly, and a bid fund shrinks by exactly what its bid units cost;
- the state after a step is the state before with the step's events applied, and the whole log replays
  (also through its JSON form) to the same state hash.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from aare.economy.bids import RULE as BID_RULE
from aare.economy.bids import funds
from aare.economy.pool import PURCHASED, pool
from aare.events import BankChanged, Event, ExtraSet, UnitsAdded, UnitsChanged, UnitsRemoved
from aare.game_log import GameLog
from aare.phases.mobilize import PLACEMENT_RULES
from aare.phases.purchase import order_cost
from aare.rules.ruleset import Ruleset, load_ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

CARGO = "cargo="
BANK_REASONS = frozenset({"income", "purchase", "research", "capture", "bid", "economic damage", "repair", "rule"})


def cargo(stack: Stack) -> Counter[tuple[str, str]]:
    """(owner, unit) -> count of the units aboard a transport stack: each of its `count` transports carries
    the load its ``cargo=<owner>:<unit>,...`` flag lists."""
    out: Counter[tuple[str, str]] = Counter()
    for flag in stack.flags:
        if flag.startswith(CARGO) and len(flag) > len(CARGO):
            for item in flag[len(CARGO):].split(","):
                owner, _, unit = item.partition(":")
                out[owner, unit] += stack.count
    return out


def _by_unit(load: Counter[tuple[str, str]]) -> Counter[str]:
    out: Counter[str] = Counter()
    for (_, unit), n in load.items():
        out[unit] += n
    return out


def _totals(state: GameState, spaces: Iterable[str]) -> Counter[tuple[str, str]]:
    """(owner, unit) -> units in `spaces`, those aboard transports included."""
    out: Counter[tuple[str, str]] = Counter()
    for space in spaces:
        for s in state.units.get(space, ()):
            out[s.owner, s.unit] += s.count
            if any(f.startswith(CARGO) for f in s.flags):
                out.update(cargo(s))
    return out


def logged(ruleset: Ruleset, rules: Iterable[str]) -> set[str]:
    """Core rule ids with the ids a ruleset's events name them by (the ``log_rule_ids`` hook)."""
    return {name for rule in rules for name in (rule, ruleset.logged_rule_id(rule))}


def check_step(
    before: GameState, events: Iterable[Event], after: GameState, ruleset: Ruleset | None = None
) -> list[str]:
    """Violations in one step from `before` to `after` through `events`."""
    ruleset = ruleset or load_ruleset(before.ruleset, before.options)
    events = tuple(events)
    problems: list[str] = []
    # Only spaces whose stacks changed need counting: events leave every other space's tuple untouched.
    changed = [s for s in set(before.units) | set(after.units) if before.units.get(s) is not after.units.get(s)]
    expected = _totals(before, changed)
    placed: Counter[tuple[str, str]] = Counter()
    paid: Counter[str] = Counter()
    placing = logged(ruleset, ruleset.modify("placement_rules", set(PLACEMENT_RULES)))
    for e in events:
        if isinstance(e, UnitsAdded):
            expected[e.stack.owner, e.stack.unit] += e.stack.count
            expected.update(cargo(e.stack))  # a stack that appears with a load (a converted transport)
            if not e.rule_id:
                problems.append(f"units created without a rule: {e.stack.count} {e.stack.unit} in {e.space}")
            if e.rule_id in placing:
                placed[e.stack.owner, e.stack.unit] += e.stack.count
        elif isinstance(e, UnitsRemoved):
            expected[e.stack.owner, e.stack.unit] -= e.stack.count
            expected.subtract(cargo(e.stack))  # the load goes down with its transports
            if not e.rule_id:
                problems.append(f"units destroyed without a rule: {e.stack.count} {e.stack.unit} in {e.space}")
        elif isinstance(e, UnitsChanged):
            b, a = e.before, e.after
            if a.unit != b.unit:
                problems.append(f"{b.unit} turned into {a.unit} in {e.space}")
            load_before, load_after = cargo(b), cargo(a)
            if load_before != load_after:  # cargo may change hands (a rule converting it), never appear or vanish
                if _by_unit(load_before) != _by_unit(load_after):
                    problems.append(f"the load of {b.count} {b.unit} in {e.space} changed without loading")
                expected.subtract(load_before)
                expected.update(load_after)
            if a.owner != b.owner:
                if not ruleset.units[b.unit].has("captured"):
                    problems.append(f"{b.unit} changed owner {b.owner} -> {a.owner} in {e.space}")
                expected[b.owner, b.unit] -= b.count
                expected[a.owner, a.unit] += a.count
        elif isinstance(e, BankChanged):
            if e.reason.partition(": ")[0] not in BANK_REASONS or not e.rule_id:  # "income: <bonus>" names one
                why = f"{e.power} {e.delta:+d} {e.reason!r} [{e.rule_id}]"
                problems.append(f"IPCs changed for an unknown reason: {why}")
            if e.reason == "purchase":
                paid[e.power] -= e.delta
        elif isinstance(e, ExtraSet) and not e.rule_id:
            problems.append(f"extra[{e.key!r}] set without a rule")
    actual = _totals(after, changed)
    for key in set(expected) | set(actual):
        if expected[key] != actual[key]:
            problems.append(f"{key[0]} {key[1]}: {actual[key]} on the board, events account for {expected[key]}")
    problems += _pool_accounting(before, after, ruleset, placed, paid, events, _granted(before, events, ruleset))
    problems += _bid_accounting(before, after, ruleset, events)
    for power, bank in after.banks.items():
        if bank < 0:
            problems.append(f"{power} has a negative treasury ({bank})")
    delta = sum(e.delta for e in events if isinstance(e, BankChanged))
    if sum(after.banks.values()) - sum(before.banks.values()) != delta:
        problems.append("treasuries changed by more than the step's bank events")
    return problems


def _pool_accounting(
    before: GameState,
    after: GameState,
    ruleset: Ruleset,
    placed: Mapping[tuple[str, str], int],
    paid: Mapping[str, int],
    events: tuple[Event, ...],
    granted: Mapping[tuple[str, str], int],
) -> list[str]:
    problems: list[str] = []
    lost = logged(ruleset, {"LHTR-PURCHASE-unplaced-lost"})
    unplaced_lost = any(isinstance(e, ExtraSet) and e.rule_id in lost for e in events)
    for power in {p.name for p in ruleset.board.powers}:
        old, new = pool(before, power), pool(after, power)
        grown = {u: new.get(u, 0) - old.get(u, 0) - granted.get((power, u), 0) for u in set(old) | set(new)}
        bought = {u: n for u, n in grown.items() if n > 0}
        cost = order_cost(before, ruleset, power, bought) if bought else 0
        if cost != paid.get(power, 0):
            problems.append(f"{power} paid {paid.get(power, 0)} IPCs for purchases worth {cost}")
        for unit in set(old) | set(new) | {u for p, u in placed if p == power}:
            gone = old.get(unit, 0) - new.get(unit, 0)
            put = placed.get((power, unit), 0)
            if put > max(gone, 0) or (put < gone and not unplaced_lost):
                problems.append(f"{power}: {max(gone, 0)} {unit} left the pool, {put} were placed")
    return problems


def _granted(before: GameState, events: tuple[Event, ...], ruleset: Ruleset) -> Counter[tuple[str, str]]:
    """Units that entered a purchase pool free, under a rule of the ``free_pool_rules`` hook."""
    free = logged(ruleset, ruleset.modify("free_pool_rules", set()))
    found: Counter[tuple[str, str]] = Counter()
    if not any(isinstance(e, ExtraSet) and e.key == PURCHASED and e.rule_id in free for e in events):
        return found
    state = before
    for e in events:
        after = e.apply(state)
        if isinstance(e, ExtraSet) and e.key == PURCHASED and e.rule_id in free:
            for power in {*(state.extra.get(PURCHASED) or {}), *(after.extra.get(PURCHASED) or {})}:
                old, new = pool(state, power), pool(after, power)
                found.update({(power, u): new[u] - old.get(u, 0) for u in new if new[u] > old.get(u, 0)})
        state = after
    return found


def _bid_accounting(before: GameState, after: GameState, ruleset: Ruleset, events: tuple[Event, ...]) -> list[str]:
    """A side's bid fund shrinks by exactly the price of the bid units placed and the IPCs banked (a fund that
    appears where the side had none is granted: a settled straight bid)."""
    spent: Counter[str] = Counter()
    bid = logged(ruleset, {BID_RULE})
    for e in events:
        if isinstance(e, UnitsAdded) and e.rule_id in bid:
            side = ruleset.board.side_of(e.stack.owner)
            spent[side] += order_cost(before, ruleset, e.stack.owner, {e.stack.unit: e.stack.count})
        elif isinstance(e, BankChanged) and e.reason == "bid":
            spent[ruleset.board.side_of(e.power)] += e.delta
    old, new = funds(before), funds(after)
    return [
        f"the {side} bid fund fell by {old.get(side, 0) - new.get(side, 0)}, {spent[side]} was spent"
        for side in set(old) | set(new) | set(spent)
        if old.get(side, 0) - new.get(side, 0) != spent[side] and not (side not in old and not spent[side])
    ]


def check_log(log: GameLog) -> list[str]:
    """The log replays to its state, also after a round trip through its JSON form."""
    problems: list[str] = []
    replayed = log.replay()
    if replayed.hash() != log.state.hash():
        problems.append("the log does not replay to the current state")
    try:
        reread = GameLog.from_json(_roundtrip(log.to_json()))
    except Exception as exc:  # any failure to reread is a violation, reported, not raised
        problems.append(f"the log does not survive its JSON form: {exc}")
    else:
        if reread.state.hash() != log.state.hash():
            problems.append("the log's JSON form replays to a different state")
    return problems


def _roundtrip(raw: Any) -> Any:
    return json.loads(json.dumps(raw))
