"""Kaitens and Kamikazes on the board (seed NATIONAL ADVANTAGES / JAPAN 5, 6): designation in combat move and the
Kamikazes' one-way flight.

``designate`` (combat move) flags Japanese units ``turn:suicide``: up to 2 subs a turn as Kaitens and up to 2
fighters a turn as Kamikazes, in a sea zone they attack that holds an enemy ship they may aim at (not only
submarines). A fighter may also fly one way to such a zone, beyond any landing spot (AARE-NA-JPN-kami-one-way):
it becomes a Kamikaze by that move. A Kamikaze attacks only ships (AARE-NA-JPN-kami-naval-only); a Kaiten stays
where it was designated. The battle flags them (`japan_combat.battle_inputs`) and expends them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from aare.actions import Designate
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.events import UnitsChanged
from aare.movement import flags
from aare.movement.landing import can_land
from aare.movement.move_checks import Leg, Violation, air_landing
from aare.movement.pathing import remaining
from aare.movement.situation import Situation, situation
from aare.phases.base import PhaseExtension, TurnContext
from aare.rulesets.aare.advantages.base import Advantage, in_force
from aare.rulesets.aare.advantages.japan_combat import KAITENS, KAMIKAZES, PER_TURN
from aare.rulesets.aare.advantages.japan_record import JAPAN, designate_event, designated
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

# advantage -> (unit, designation kind, rule of the per-turn limit)
KINDS = {KAITENS: ("submarine", "kaiten", "AARE-NA-JPN-kaiten-designation"),
         KAMIKAZES: ("fighter", "kamikaze", "AARE-NA-JPN-kami-designation")}
R_NAVAL, R_ONE_WAY = "AARE-NA-JPN-kami-naval-only", "AARE-NA-JPN-kami-one-way"
R_TARGETS = "AARE-NA-JPN-kaiten-targets"


def target_zone(view: Situation, space: str) -> bool:
    """A sea zone with an enemy ship other than a submarine (none of them can be a Kaiten's or Kamikaze's target
    otherwise)."""
    return view.is_sea(space) and any(
        view.unit(s).domain == "sea" and not view.unit(s).has("submarine") and not flags.submerged(s)
        for s in view.enemies(space)
    )


def suicide(stack: Stack) -> bool:
    return flags.has(stack, flags.SUICIDE)


def _ready(view: Situation, kind: str, space: str) -> list[Stack]:
    """Japan's stacks in `space` that may be designated as `kind`."""
    unit = "submarine" if kind == "kaiten" else "fighter"
    out = []
    for s in view.own(space):
        if s.owner != JAPAN or s.unit != unit or suicide(s) or flags.submerged(s):
            continue
        out.append(s)
    return out


def designate_events(ctx: TurnContext, action: Designate) -> None:
    """AARE-NA-JPN-kaiten-designation, AARE-NA-JPN-kami-designation: flag the units; at most 2 of each a turn."""
    found = KINDS.get(action.advantage)
    if found is None or not in_force(ctx.state, JAPAN, action.advantage):
        raise IllegalAction(f"{ctx.power} cannot designate units for {action.advantage}",
                            "AARE-NA-JPN-kaiten-designation")
    unit, kind, rule = found
    if ctx.power != JAPAN:
        why = "Kaitens and Kamikazes only attack: Japan designates them in its own combat move"
        raise IllegalAction(why, "AARE-NA-JPN-kaiten-attack-only" if kind == "kaiten" else R_NAVAL)
    view = situation(ctx.state, ctx.ruleset)
    space = ctx.ruleset.board.resolve(action.space)
    wanted = parse_units(action.units, ctx.ruleset.units)
    n = wanted.get(unit, 0)
    if set(wanted) != {unit} or n <= 0:
        raise IllegalAction(f"only {unit}s can be designated for {action.advantage}", rule)
    if designated(ctx.state, kind) + n > PER_TURN:
        raise IllegalAction(f"at most {PER_TURN} {kind}s a turn ({designated(ctx.state, kind)} already)", rule)
    if not (view.hostile(space) and target_zone(view, space)):
        raise IllegalAction(f"{kind}s attack an enemy ship other than a submarine; there is none in {space}",
                            R_TARGETS if kind == "kaiten" else R_NAVAL)
    ready = _ready(view, kind, space)
    if sum(s.count for s in ready) < n:
        reason = f"{JAPAN} has {sum(s.count for s in ready)} {unit}(s) in {space} that can be designated"
        raise IllegalAction(reason, rule)
    left = n
    for stack in sorted(ready, key=lambda s: (remaining(view, s, space), s.status), reverse=True):
        take = min(stack.count, left)
        left -= take
        if take:
            flagged = flags.with_flags(stack, [flags.SUICIDE])
            ctx.emit(UnitsChanged(space, stack.with_count(take), flagged.with_count(take)))
    ctx.emit(designate_event(ctx.state, kind, n, rule))


class Designation(PhaseExtension):
    """Combat move: the ``designate`` action; combat move cannot end while a Kamikaze has no target
    (AARE-NA-JPN-kami-naval-only)."""

    name = "combat-move"
    action_types = frozenset({"designate"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if ctx.power != JAPAN:
            return
        view = situation(ctx.state, ctx.ruleset)
        spaces = [ctx.ruleset.board.resolve(space)] if space is not None else sorted(ctx.state.units)
        for adv_id, (unit, kind, _) in KINDS.items():
            if not in_force(ctx.state, JAPAN, adv_id) or designated(ctx.state, kind) >= PER_TURN:
                continue
            for where in spaces:
                if _ready(view, kind, where) and view.hostile(where) and target_zone(view, where):
                    yield Designate(advantage=adv_id, units=f"1 {unit}", space=where)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        designate_events(ctx, action)

    def after(self, ctx: TurnContext, action: Any) -> None:
        """A fighter that flew one way to a target zone is a Kamikaze (AARE-NA-JPN-kami-one-way)."""
        if action.type != "move" or ctx.power != JAPAN or not in_force(ctx.state, JAPAN, KAMIKAZES):
            return
        view = situation(ctx.state, ctx.ruleset)
        zone = ctx.ruleset.board.resolve(action.path[-1])
        arrived = [e.after for e in ctx.events if isinstance(e, UnitsChanged) and e.to_space == zone
                   and e.after.owner == JAPAN and e.after.unit == "fighter" and not suicide(e.after)]
        for stack in arrived:
            left = remaining(view, stack, zone)
            if can_land(view, view.unit(stack), zone, left, stack.count, True, zone):
                continue
            if designated(ctx.state, "kamikaze") + stack.count > PER_TURN or not target_zone(view, zone):
                continue  # the move checks let it through as an ordinary attack
            ctx.emit(UnitsChanged(zone, stack, flags.with_flags(stack, [flags.SUICIDE])),
                     designate_event(ctx.state, "kamikaze", stack.count, R_ONE_WAY))
            view = situation(ctx.state, ctx.ruleset)

    def can_end(self, ctx: TurnContext) -> None:
        if ctx.power != JAPAN:
            return
        view = situation(ctx.state, ctx.ruleset)
        for space, stacks in sorted(ctx.state.units.items()):
            if any(s.owner == JAPAN and s.unit == "fighter" and suicide(s) for s in stacks) and not target_zone(
                    view, space):
                raise IllegalAction(f"the Kamikaze in {space} must attack an enemy ship at sea", R_NAVAL)


DESIGNATION = Designation()


def phase_actions(found: list[Any], advantage: Advantage, phase: str, state: GameState, **_: Any) -> list[Any]:
    if phase != "combat-move" or state is None or DESIGNATION in found:
        return found
    if advantage.id not in KINDS:
        return found
    return [*found, DESIGNATION] if in_force(state, JAPAN, advantage.id) else found


# ---------------------------------------------------------------- movement


def _kamikaze(leg: Leg) -> bool:
    return leg.combat and leg.domain == "air" and suicide(leg.stack)


def kamikaze_target(leg: Leg) -> Violation | None:
    """AARE-NA-JPN-kami-naval-only: a Kamikaze flies to a sea zone with an enemy ship other than a submarine."""
    if not _kamikaze(leg) or target_zone(leg.view, leg.end):
        return None
    return Violation(f"a Kamikaze attacks an enemy ship at sea, and there is none in {leg.end}", R_NAVAL)


def kaiten_stays(leg: Leg) -> Violation | None:
    """A Kaiten attacks in the zone it was designated in (AARE-NA-JPN-kaiten-designation)."""
    if suicide(leg.stack) and leg.domain == "sea":
        return Violation("a Kaiten stays in the sea zone it was designated in", "AARE-NA-JPN-kaiten-designation")
    return None


def one_way_ok(leg: Leg) -> bool:
    """AARE-NA-JPN-kami-one-way: Japanese fighters may fly beyond any landing spot to a zone with an enemy ship
    to attack, as Kamikazes (designated already, or within this turn's two)."""
    if not (leg.combat and leg.unit.has("fighter") and leg.stack.owner == JAPAN and target_zone(leg.view, leg.end)):
        return False
    state = leg.view.state
    fresh = designated(state, "kamikaze") + leg.stack.count <= PER_TURN
    return in_force(state, JAPAN, KAMIKAZES) and (suicide(leg.stack) or fresh)


def _one_way(check: Callable[[Leg], Violation | None]) -> Callable[[Leg], Violation | None]:
    """`check`, except that a Kamikaze needs no landing spot (AARE-NA-JPN-kami-one-way)."""

    def run(leg: Leg) -> Violation | None:
        found = check(leg)
        if found is not None and found.rule_id == "LHTR-AIRMOVE-no-kamikaze" and one_way_ok(leg):
            return None
        return found

    run.__doc__ = check.__doc__
    run.__wrapped__ = check  # type: ignore[attr-defined]
    return run


def move_checks(checks: list[Any], **_: Any) -> list[Any]:
    """Kamikazes fly one way to a target; Kaitens stay put (installed once, by either NA)."""
    if kamikaze_target in checks:
        return checks
    return [*(_one_way(c) if c is air_landing else c for c in checks), kamikaze_target, kaiten_stays]

