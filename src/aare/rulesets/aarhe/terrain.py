"""AARHE special terrain in movement (module `aarhe_terrain`; AARHE-TERRAIN-*).

A land unit entering a desert, snowy or mountainous territory ends its movement there, so armour never blitzes
through one; no land unit enters extreme terrain (the Himalaya); a side has at most 3 units in a miniature
territory; ships enter or leave SZ 16 (the Black Sea) only while their side controls Turkey (and then units
boarding a transport there in combat move need an enemy coast on the Black Sea to assault). The board changes
(`data/board_changes/aarhe.toml`) join Balkans and Turkey. Combat at -1 in snow and mountains comes with the
combat rules."""

from __future__ import annotations

from typing import Any

from aare.actions import Load
from aare.errors import IllegalAction
from aare.movement import flags
from aare.movement.move_checks import Check, Leg, Violation, path_shape
from aare.movement.situation import Situation
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.state.unit_stacks import Stack

R_TABLE = "AARHE-TERRAIN-table"
R_STOP = "AARHE-TERRAIN-stop"
R_NO_BLITZ = "AARHE-TERRAIN-no-blitz"
R_EXTREME = "AARHE-TERRAIN-extreme-impassable"
R_BALKANS = "AARHE-TERRAIN-balkans-turkey"
R_BLACK_SEA = "AARHE-TERRAIN-black-sea"
R_MINIATURE = "AARHE-TERRAIN-miniature-cap"

# AARHE-TERRAIN-table ("Malta" is on the Italy-player map only; "Himalayas" is the board's Himalaya)
TERRAIN: dict[str, tuple[str, ...]] = {
    "desert": ("Sahara", "Saudi Arabia"),
    "snowy": ("Greenland", "Alaska", "Soviet Far East"),
    "mountainous": ("Southern Europe", "Turkey", "Mongolia", "Persia", "Afghanistan"),
    "extreme": ("Himalaya",),
    "miniature": ("Malta", "Gibraltar", "Wake Island", "Midway"),
}
STOPPING = frozenset((*TERRAIN["desert"], *TERRAIN["snowy"], *TERRAIN["mountainous"]))
EXTREME = frozenset(TERRAIN["extreme"])
MINIATURE = frozenset(TERRAIN["miniature"])
MINIATURE_CAP = 3
BLACK_SEA, STRAITS = "SZ 16", "Turkey"
STOPPED = "turn:aarhe-terrain-stop"  # a land unit that entered stopping terrain this turn


def terrain_of(space: str) -> str | None:
    """The special terrain of `space`, if any."""
    return next((kind for kind, names in TERRAIN.items() if space in names), None)


def terrain_stop(leg: Leg) -> Violation | None:
    """AARHE-TERRAIN-stop, -no-blitz: a land unit entering desert, snow or mountains ends its movement there."""
    if leg.domain != "land":
        return None
    if flags.has(leg.stack, STOPPED):
        return Violation(f"{leg.where} entered {terrain_of(leg.start)} terrain this turn: its movement ended there",
                         R_STOP)
    through = next((s for s in leg.path[1:-1] if s in STOPPING), None)
    if through is None:
        return None
    if leg.combat and leg.view.enemy_land(through):
        return Violation(f"armour cannot blitz through {through}: {terrain_of(through)} terrain", R_NO_BLITZ)
    return Violation(f"{leg.unit.display_plural} entering {through} ({terrain_of(through)} terrain) must stop there",
                     R_STOP)


def extreme(leg: Leg) -> Violation | None:
    """AARHE-TERRAIN-extreme-impassable: no land unit enters the Himalaya (aircraft fly over it)."""
    if leg.domain != "land":
        return None
    barred = next((s for s in leg.path[1:] if s in EXTREME), None)
    if barred is None:
        return None
    return Violation(f"land units cannot enter {barred}: extreme terrain", R_EXTREME)


def miniature(leg: Leg) -> Violation | None:
    """AARHE-TERRAIN-miniature-cap: a side has at most 3 units in a miniature territory."""
    if leg.end not in MINIATURE:
        return None
    view = leg.view
    there = sum(s.count for s in view.state.stacks(leg.end) if view.friend(s.owner))
    coming = sum(n for _, n in leg.company) or leg.stack.count
    if there + coming <= MINIATURE_CAP:
        return None
    return Violation(f"{leg.end} is miniature terrain: {view.side} may have {MINIATURE_CAP} units there at most "
                     f"({there} there, {coming} moving in)", R_MINIATURE)


def _sealed_seas(sealed: frozenset[str], state: Any = None, power: str = "", ruleset: Any = None,
                 **_: Any) -> frozenset[str]:
    """AARHE-TERRAIN-black-sea: the Black Sea is sealed to ships of a side that does not control Turkey (what
    their reach judges, e.g. whether a transport loading in combat move can still make an assault)."""
    if state is None or ruleset is None or BLACK_SEA not in ruleset.board.spaces:
        return sealed
    holder = state.owners.get(STRAITS)
    if holder is not None and ruleset.board.side_of(holder) == ruleset.board.side_of(power):
        return sealed
    return sealed | {BLACK_SEA}


def black_sea(leg: Leg) -> Violation | None:
    """AARHE-TERRAIN-black-sea: ships enter or leave SZ 16 only while their side controls Turkey."""
    view = leg.view
    if leg.domain != "sea" or BLACK_SEA not in leg.path or view.friend(view.state.owners.get(STRAITS)):
        return None
    return Violation(f"ships enter or leave {BLACK_SEA} (the Black Sea) only while their side controls {STRAITS}",
                     R_BLACK_SEA)


class BlackSeaLoads(PhaseExtension):
    """Combat move: a transport in SZ 16 cannot leave it while its side does not control Turkey, so units boarding
    it must be able to go ashore on the Black Sea's own coast (AARHE-TERRAIN-black-sea, with LHTR's amphibious
    assault for units loaded in combat move; the core's reach of a transport knows no closed sea)."""

    name = "combat-move"

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Load) or ctx.ruleset.board.resolve(action.sea_zone) != BLACK_SEA:
            return
        view = Situation(ctx.state, ctx.ruleset, ctx.power)
        if view.friend(view.state.owners.get(STRAITS)):
            return
        refused = view.refused()
        if any(view.enemy_land(t) and t not in refused for t in view.graph.coast[BLACK_SEA]):
            return
        raise IllegalAction(f"units loaded in combat move must go ashore in an amphibious assault, and a transport "
                            f"in {BLACK_SEA} stays in the Black Sea without {STRAITS}, whose coast holds no enemy "
                            f"territory", R_BLACK_SEA)


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    at = checks.index(path_shape) + 1 if path_shape in checks else 0
    return [*checks[:at], extreme, terrain_stop, miniature, black_sea, *checks[at:]]


def _moved_flags(found: list[str], view: Situation, stack: Stack, path: tuple[str, ...], **_: Any) -> list[str]:
    """A land unit that ends in stopping terrain moves no further this turn."""
    if view.unit(stack).domain == "land" and path[-1] in STOPPING:
        return [*found, STOPPED]
    return found


AARHE_TERRAIN = register_module(
    RuleModule(
        id="aarhe_terrain",
        title="AARHE special terrain in movement",
        rule_ids=(R_TABLE, R_STOP, R_NO_BLITZ, R_EXTREME, R_BALKANS, R_BLACK_SEA, R_MINIATURE),
        hooks={"move_checks": _move_checks, "moved_flags": _moved_flags, "sealed_seas": _sealed_seas,
               "phase_actions": by_phase(BlackSeaLoads())},
    )
)
