"""Named income bonuses: IPCs a ruleset adds to a power's income at collect income for a reason players should
see (a national objective met), each logged on its own."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IncomeBonus:
    """`amount` IPCs for `title` (what the player reads in the log), by the rule `rule_id`."""

    amount: int
    title: str
    rule_id: str = ""
