"""Hypothesis strategies of fuzz episodes, and the settings the fuzz tests run under: derandomized (the same
examples on every run, so CI is reproducible), no example database, no deadline."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.fuzz.driver import MAX_ACTIONS, Plan

LEGAL_SHARES = (0.15, 0.3, 0.5, 0.8)


def plans(rules: str | st.SearchStrategy[str], actions: int = MAX_ACTIONS) -> st.SearchStrategy[Plan]:
    return st.builds(
        Plan,
        rules=st.just(rules) if isinstance(rules, str) else rules,
        seed=st.integers(0, 2**31 - 1),
        actions=st.just(actions),
        legal_share=st.sampled_from(LEGAL_SHARES),
    )


def fixed(examples: int) -> settings:
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
