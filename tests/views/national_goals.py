"""Shared pieces of the views tests of AARHE's secret national goals: the choices and the words that would give
the Soviet Union's away."""

from __future__ import annotations

RULES = "aarhe"
OPTIONS = {"national_victory": True}
SECRET = "AARHE-NATVICTORY-selection"
SOVIET_CHOICE = "eastern-europe-buffer, heavy-industry, east-asia"
GERMAN_CHOICE = "lebensraum, barbarossa, defend-fatherland"
# the Soviet goals' ids and titles: none of them may show to another seat (the ids are the Soviet Union's alone)
SOVIET_WORDS = ("eastern-europe-buffer", "heavy-industry", "east-asia", "Eastern Europe Buffer",
                "Protect Heavy Industry", "East Asia Influence")
GERMAN_WORDS = ("lebensraum", "barbarossa", "defend-fatherland", "Establish Lebensraum", "Operation Barbarossa",
                "Defend the Fatherland")


def leaks(text: str, words: tuple[str, ...] = SOVIET_WORDS) -> list[str]:
    """The words of `words` found in `text` (its lines joined: a console wraps long lines)."""
    joined = " ".join(text.split())
    return [w for w in words if w in joined]
