"""AARHE Phase 1 victory conditions (module `aarhep1_victory`): the players choose total, major or minor victory
before the game (option `victory_mode`), checked at the end of each United States turn, the last of a round on the
Revised board (AARHEP1-VICTORY-*).

Major victory: the Axis with at least 45 VCP, the Allies with at least 55. Minor victory: the game ends after the
round the winning bid named (option `minor_turns`, the bid itself by `aare.rulesets.aarhe.victory.round_bid`), won
by the side holding more VCP. Total victory: one side controls every territory a power holds."""

from __future__ import annotations

from typing import Any

from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.victory import victory_hooks
from aare.rulesets.aarhe.victory import points_standing, total_standing, total_winner
from aare.rulesets.aarhe_p1.cities import CITIES, R_STRUCTURE, R_TABLE, side_points

R_SELECT = "AARHEP1-VICTORY-select"
R_TOTAL = "AARHEP1-VICTORY-total"
R_MAJOR = "AARHEP1-VICTORY-major"
R_BID = "AARHEP1-VICTORY-minor-bid"
R_MAJORITY = "AARHEP1-VICTORY-minor-majority"

AXIS, ALLIES = "Axis", "Allies"
TOTAL, MAJOR, MINOR = "total", "major", "minor"
DRAW = "draw"
# the VCP a side needs in major victory (AARHEP1-VICTORY-major)
MAJOR_POINTS = {AXIS: 45, ALLIES: 55}


def victory_by(ruleset: Any, state: Any) -> tuple[str, str, str] | None:
    """The winner at the end of a round (the United States' turn) by the chosen condition, with reason and rule."""
    mode = ruleset.options.get("victory_mode", MAJOR)
    if mode == TOTAL:
        winner = total_winner(ruleset, state)
        return None if winner is None else (winner, "total victory: every territory controlled", R_TOTAL)
    held = side_points(ruleset, state)
    if mode == MAJOR:
        for side in (AXIS, ALLIES):
            if held.get(side, 0) >= MAJOR_POINTS[side]:
                return side, f"major victory: {held[side]} victory city points", R_MAJOR
        return None
    if state.round < int(ruleset.options.get("minor_turns", 8)):
        return None
    axis, allies = held.get(AXIS, 0), held.get(ALLIES, 0)
    text = f"minor victory after round {state.round}: Axis {axis}, Allies {allies} victory city points"
    if axis == allies:
        return DRAW, text, R_MAJORITY
    return (AXIS if axis > allies else ALLIES), text, R_MAJORITY


def _cities(cities: dict[str, str], **_: Any) -> dict[str, str]:
    """The 35 Phase 1 victory cities in place of the Revised twelve."""
    return {territory: found.name for territory, found in CITIES.items()}


def _thresholds(needed: dict[str, int], **_: Any) -> dict[str, int]:
    """No count of cities wins: the condition decides (`victory_by`)."""
    return {}


def _standing(records: list[dict[str, Any]], ruleset: Any, state: Any, **_: Any) -> list[dict[str, Any]]:
    mode = ruleset.options.get("victory_mode", MAJOR)
    held = side_points(ruleset, state)
    if mode == MAJOR:
        return [*records, *points_standing(held, MAJOR_POINTS, R_MAJOR)]
    if mode == MINOR:
        rounds = int(ruleset.options.get("minor_turns", 8))
        text = (f"after round {rounds} the side with more victory city points wins: Axis {held.get(AXIS, 0)}, "
                f"Allies {held.get(ALLIES, 0)}")
        return [*records, {"kind": "minor", "text": text, "rule_id": R_MAJORITY}]
    return [*records, total_standing(R_TOTAL)]


AARHEP1_VICTORY = register_module(
    RuleModule(
        id="aarhep1_victory",
        title="AARHE Phase 1 victory: total, major and minor victory, 35 victory cities",
        rule_ids=(R_SELECT, R_TOTAL, R_MAJOR, R_BID, R_MAJORITY, R_STRUCTURE, R_TABLE),
        hooks={**victory_hooks(victory_by), "victory_cities": _cities, "victory_thresholds": _thresholds,
               "victory_standing": _standing},
        requires=("lhtr",),
        replaces_options=("victory_cities",),
        options=(
            OptionSpec(key="victory_mode", type=str, default=MAJOR, choices=(MAJOR, TOTAL, MINOR),
                       help="the victory condition agreed before the game: major (Axis 45, Allies 55 victory city "
                       "points), total (every territory) or minor (more victory city points after the rounds bid)",
                       rule_id=R_SELECT),
            OptionSpec(key="minor_turns", type=int, default=8, minimum=1,
                       help="minor victory: the round after which the game ends (the winning bid)", rule_id=R_BID),
        ),
    )
)
