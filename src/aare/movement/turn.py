"""Movement's phase boundaries: the turn-start record, what combat move must have finished before it ends,
and which aircraft are lost (or hover) when non-combat move ends."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from aare.economy.turn import start_turn_event
from aare.events import Event, UnitsChanged, UnitsRemoved
from aare.movement import flags
from aare.movement.landing import hover_spots
from aare.movement.move_checks import Violation, _assault_from, assault_moves_left, can_reach_assault
from aare.movement.situation import Situation
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack


def start_of_turn_events(state: GameState) -> list[Event]:
    """Record who holds what when the turn began (unless an earlier phase did), and drop per-turn marks left
    from earlier turns (e.g. on an ally's transport this power loaded or unloaded)."""
    record = start_turn_event(state)
    out: list[Event] = [record] if record is not None else []
    for space, stacks in sorted(state.units.items()):
        for stack in stacks:
            if state.marks_kept(stack.owner):
                continue
            if stack.moved or flags.turn_flags(stack):
                fresh = replace(flags.with_flags(stack, drop=flags.turn_flags(stack)), moved=0)
                out.append(UnitsChanged(space, stack, fresh))
    return out


def combat_move_violation(view: Situation) -> Violation | None:
    """What stops combat move from ending: cargo loaded in combat move still aboard while an enemy coast is
    still in reach (when other moves took every coast it could reach, or the one territory the transport already
    unloaded into this turn, the cargo stays aboard; see docs/rulings.md), transports or warships that moved
    without an attack or amphibious assault to make (or a
    purpose the ruleset gives them, the ``combat_move_supported`` hook)."""
    supported: set[str] = view.ruleset.modify("combat_move_supported", set(), view=view)
    for space in sorted(s for s in view.own_spaces if s in view.graph.sea):
        for stack in view.own(space):
            if not stack.flags:
                continue  # (neither moved nor loaded: no cargo, nothing to answer for)
            unit = view.unit(stack)
            moved = flags.has(stack, flags.COMBAT) and not flags.has(stack, flags.WITHDREW)
            if unit.has("transport"):
                mine = [e for e in flags.cargo_list(stack, flags.BOARDED) if view.moves_for(e[0])]
                aboard = flags.minus(mine, [e for e in flags.cargo_list(stack, flags.DROPPED) if view.moves_for(e[0])])
                loaded = bool(aboard and Counter(aboard) & Counter(flags.cargo(stack)))
                # cargo aboard with nowhere left to land: loaded this turn, or carried to a coast taken meanwhile
                stranded = bool(flags.cargo(stack)) and not _can_land_cargo(view, space, stack) \
                    and (loaded or _coast_taken(view, space))
                if loaded and not stranded:
                    what = ", ".join(u for _, u in aboard)
                    reason = f"units loaded in combat move ({what}, in {space}) must go ashore in an amphibious assault"
                    return Violation(reason, "LHTR-TRANSPORT-cm-load-must-assault")
                escort = unit.attack > 0 and _assault_from(view, space)  # a warship that also carries
                if moved and not stranded and not view.hostile(space) and flags.value(stack, flags.UNLOADED) is None \
                        and not escort:
                    reason = f"the transport moved to {space} in combat move but makes no amphibious assault"
                    return Violation(reason, "LHTR-TURN-combat-move-attack-only")
            elif unit.domain == "sea" and moved and not view.hostile(space) and not _assault_from(view, space) \
                    and space not in supported:
                reason = f"the {unit.display} moved to {space} in combat move but there is nothing to attack or support"
                return Violation(reason, "LHTR-TURN-combat-move-attack-only")
    return None


def _can_land_cargo(view: Situation, sea: str, transport: Stack) -> bool:
    """Whether the cargo of `transport` in `sea` can still go ashore in an amphibious assault this turn: in the
    one territory it already unloaded into (if still enemy), else in any enemy territory within its reach."""
    done = flags.value(transport, flags.UNLOADED)  # one territory per turn: only there, if still enemy
    if done is not None:
        return view.enemy_land(done) and done not in view.refused()
    return can_reach_assault(view, sea, assault_moves_left(view, transport, sea))


def _coast_taken(view: Situation, sea: str) -> bool:
    """A territory on the coast of `sea` held by an enemy at the start of the turn is now the mover's side's."""
    return any(view.start_owners.get(t) is not None and not view.friend(view.start_owners.get(t))
               and view.friendly_land(t) for t in view.graph.coast[sea])


def landing_events(view: Situation) -> list[Event]:
    """At the end of non-combat move the mover's aircraft that are not on a legal landing spot are lost
    (LHTR-AIRMOVE-unlanded-destroyed); fighters over a sea zone next to the power's complex wait for a carrier
    bought this turn instead (LHTR-MOBILIZE-hover-for-new-carrier), as far as the bought carriers have room."""
    out: list[Event] = []
    spots, budget = hover_spots(view)
    for space in sorted(view.state.units):
        stacks = view.stacks(space)
        air = [s for s in stacks if view.commands(s) and view.unit(s).domain == "air"]
        if not air:
            continue
        if view.is_land(space):
            if not view.held_since_start(space):
                out += [UnitsRemoved(space, s, "LHTR-AIRMOVE-unlanded-destroyed") for s in air]
            continue
        room = sum(view.unit(s).carrier_capacity * s.count for s in stacks if view.friend(s.owner))
        allied = [s for s in stacks if view.friend(s.owner) and not view.commands(s)]
        room -= sum(view.unit(s).carrier_size * s.count for s in allied)
        for stack in sorted(air, key=lambda s: (flags.has(s, flags.HOVER), s.status)):
            size = view.unit(stack).carrier_size
            aboard = min(stack.count, max(0, room) // size) if size else 0
            room -= aboard * size
            rest = stack.count - aboard
            hover = min(rest, budget // size) if size and space in spots and not view.hostile(space) else 0
            budget -= hover * size
            if hover and not flags.has(stack, flags.HOVER):
                waiting = flags.with_flags(stack, [flags.HOVER])
                out.append(UnitsChanged(space, stack.with_count(hover), waiting.with_count(hover)))
            if rest - hover:
                out.append(UnitsRemoved(space, stack.with_count(rest - hover), "LHTR-AIRMOVE-unlanded-destroyed"))
    return out
