"""The invariants catch units, IPCs and pools that change outside the rules, and logs that do not replay."""

from __future__ import annotations

from dataclasses import replace

from aare.events import BankChanged, Event, ExtraSet, UnitsAdded, UnitsChanged, UnitsRemoved, apply_events
from aare.invariants import check_log, check_step
from aare.scenario import scenario
from aare.state.unit_stacks import Stack


def problems(events: list[Event], **kwargs: object) -> list[str]:
    game = scenario(**kwargs)  # type: ignore[arg-type]
    return check_step(game.state, events, apply_events(game.state, events))


def test_units_need_a_rule_to_appear_or_vanish() -> None:
    inf = Stack("Germany", "infantry", 1)
    assert problems([UnitsAdded("Germany", inf, "a-rule-that-grants-units")]) == []
    assert problems([UnitsAdded("Germany", inf, "LHTR-SETUP-bid-placement")])  # not paid from a bid fund
    assert problems([UnitsAdded("Germany", inf)])
    assert problems([UnitsRemoved("Germany", inf)])
    assert problems([UnitsRemoved("Germany", inf, "LHTR-COMBAT-owner-chooses-casualties")]) == []


def test_status_changes_keep_type_and_owner_except_for_captured_units() -> None:
    inf, aa = Stack("Germany", "infantry", 1), Stack("Germany", "aa_gun", 1)
    assert problems([UnitsChanged("Germany", inf, replace(inf, moved=1))]) == []
    assert problems([UnitsChanged("Germany", inf, replace(inf, owner="Russia"))])
    assert problems([UnitsChanged("Germany", aa, replace(aa, owner="Russia"))]) == []
    assert problems([UnitsChanged("Germany", inf, replace(inf, unit="armour"))])


def test_ipcs_move_only_for_known_reasons_and_purchases_are_paid_for() -> None:
    assert problems([BankChanged("Germany", 5, "gift")])
    assert problems([BankChanged("Germany", 5, "income")])
    assert problems([BankChanged("Germany", 5, "income", "LHTR-ECON-income-sum")]) == []
    bought = ExtraSet("purchased", {"Germany": {"infantry": 2}}, "LHTR-PURCHASE-units-wait-for-mobilize")
    assert problems([BankChanged("Germany", -6, "purchase", "LHTR-PURCHASE-budget"), bought], nation="Germany") == []
    assert problems([BankChanged("Germany", -3, "purchase", "LHTR-PURCHASE-budget"), bought], nation="Germany")


def test_placed_units_leave_the_pool_one_for_one() -> None:
    pool = {"purchased": {"Germany": {"infantry": 2}}}
    placed = UnitsAdded("Germany", Stack("Germany", "infantry", 2), "LHTR-MOBILIZE-at-owned-complex")
    emptied = ExtraSet("purchased", {}, "LHTR-PURCHASE-units-wait-for-mobilize")
    assert problems([placed, emptied], extra=pool) == []
    assert problems([placed], extra=pool)
    assert problems([emptied], extra=pool)
    assert problems([ExtraSet("purchased", {}, "LHTR-PURCHASE-unplaced-lost")], extra=pool) == []


def test_a_tampered_log_is_reported() -> None:
    game = scenario(nation="Germany", phase="purchase")
    game.apply({"type": "purchase", "units": "1 infantry"})
    assert check_log(game.log) == []
    game.log.state = replace(game.log.state, banks={**game.log.state.banks, "Germany": 99})
    assert check_log(game.log)


def test_a_load_may_change_hands_but_never_appear_or_vanish_in_a_status_change() -> None:
    us = Stack("United States", "transport", 1, flags=("cargo=United States:infantry",))
    uk = Stack("United Kingdom", "transport", 1, flags=("cargo=United States:infantry",))
    start = scenario(clear=True).state.with_stacks("SZ 8", (us,))

    def found(events: list[Event]) -> list[str]:
        return check_step(start, events, apply_events(start, events))

    handed = replace(us, flags=("cargo=United Kingdom:infantry",))
    assert found([UnitsChanged("SZ 8", us, handed)]) == []
    assert found([UnitsChanged("SZ 8", us, replace(us, flags=()))])  # the infantry vanished
    assert found([UnitsRemoved("SZ 8", us, "a-rule"), UnitsAdded("SZ 8", uk, "a-rule")]) == []
