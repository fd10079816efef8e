"""AARHE spheres of the powers (module `aarhe_spheres`): Stalinist xenophobia and Axis co-operation.

Until the Axis capture Russia, United States and United Kingdom units neither enter nor fly over the Soviet
sphere: the territories the Soviet Union owns at the start, with Eastern Europe, Belorussia, Ukraine S.S.R. and
West Russia (AARHE-XENO-no-entry). American and British territories the Soviet Union liberates stay Soviet
(AARHE-XENO-liberation). Until the Allies capture Japan or Germany, Japanese units never end a move where German
units are, nor German units where Japanese are (AARHE-AXISCOOP-separation).

A capture counts while the territory is held by the enemy, and for good once the control record of the turn
module (`extra["aarhe_control"]`) has seen it change hands."""

from __future__ import annotations

from typing import Any

from aare.movement.move_checks import Check, Leg, Violation, path_shape
from aare.movement.situation import Situation
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.turn import CONTROL

R_XENO = "AARHE-XENO-no-entry"
R_LIBERATION = "AARHE-XENO-liberation"
R_COOP = "AARHE-AXISCOOP-separation"

SOVIET, GERMANY, JAPAN = "Russia", "Germany", "Japan"
WESTERN = frozenset({"United Kingdom", "United States"})
SPHERE_EXTRA = frozenset({"Eastern Europe", "Belorussia", "Ukraine S.S.R.", "West Russia"})
SEPARATED = {JAPAN: frozenset({GERMANY, "Italy"}), GERMANY: frozenset({JAPAN}), "Italy": frozenset({JAPAN})}


def captured(state: Any, ruleset: Any, territory: str) -> bool:
    """Whether `territory` is, or has been, held by the side opposing its original owner."""
    board = ruleset.board
    original = board.spaces[territory].owner
    holder = state.owners.get(territory)
    if holder is not None and original is not None and board.side_of(holder) != board.side_of(original):
        return True
    record = state.extra.get(CONTROL)
    return isinstance(record, dict) and territory in record.get("changed", {})


def soviet_sphere(ruleset: Any) -> frozenset[str]:
    """The territories barred to American and British units."""
    spaces = ruleset.board.spaces
    return frozenset(n for n, s in spaces.items() if s.owner == SOVIET) | (SPHERE_EXTRA & set(spaces))


def xenophobia(leg: Leg) -> Violation | None:
    """AARHE-XENO-no-entry: no American or British unit enters or flies over the Soviet sphere."""
    view = leg.view
    if leg.stack.owner not in WESTERN or leg.domain == "sea" or captured(view.state, view.ruleset, SOVIET):
        return None
    barred = next((s for s in leg.path[1:] if s in soviet_sphere(view.ruleset)), None)
    if barred is None:
        return None
    return Violation(f"Stalinist xenophobia: {leg.stack.owner} units may not enter {barred} until the Axis capture "
                     f"Russia", R_XENO)


def _apart(view: Situation, owner: str) -> frozenset[str]:
    """The powers whose units `owner`'s units may not share a space with now."""
    others = SEPARATED.get(owner)
    if not others or any(captured(view.state, view.ruleset, t) for t in (GERMANY, JAPAN)):
        return frozenset()
    return others


def _barred_ends(found: frozenset[str], view: Situation, **_: Any) -> frozenset[str]:
    """Where the power to move may not end a move: the spaces of the Axis partners it keeps apart from."""
    others = _apart(view, view.power)
    if not others:
        return found
    return found | {space for space, stacks in view.state.units.items() if any(s.owner in others for s in stacks)}


def separation(leg: Leg) -> Violation | None:
    """AARHE-AXISCOOP-separation: Japanese and German units never share a space."""
    view = leg.view
    others = _apart(view, leg.stack.owner)
    met = sorted({s.owner for s in view.state.stacks(leg.end) if s.owner in others})
    if not met:
        return None
    return Violation(f"Axis co-operation: {leg.stack.owner} units may not share {leg.end} with {', '.join(met)} "
                     f"units until the Allies capture Germany or Japan", R_COOP)


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    at = checks.index(path_shape) + 1 if path_shape in checks else 0
    return [*checks[:at], xenophobia, separation, *checks[at:]]


def _capture_controller(found: tuple[str, str], ruleset: Any, territory: str, capturer: str,
                        **_: Any) -> tuple[str, str]:
    """AARHE-XENO-liberation: an American or British territory the Soviet Union liberates becomes Soviet."""
    if capturer == SOVIET and ruleset.board.spaces[territory].owner in WESTERN:
        return SOVIET, R_LIBERATION
    return found


AARHE_SPHERES = register_module(
    RuleModule(
        id="aarhe_spheres",
        title="AARHE Stalinist xenophobia and Axis co-operation",
        rule_ids=(R_XENO, R_LIBERATION, R_COOP),
        hooks={"move_checks": _move_checks, "capture_controller": _capture_controller, "barred_ends": _barred_ends},
    )
)
