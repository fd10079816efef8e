"""Movement rule switches a ruleset sets through the ``movement_rules`` hook; the defaults are the Revised/LHTR
rules."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MovementRules:
    """`passable_enemy_ships`: unit tags of enemy sea units that neither stop ships passing through their sea
    zone nor keep ships (in non-combat move) from ending there or transports from loading and unloading there;
    ending a combat move among them still attacks them. `subs_end_noncombat_among_enemies`: submarines may end
    non-combat move in a sea zone with enemy ships. `shared_zones_optional`: opposing fleets may share a sea zone
    at the end of a turn (e.g. after breaking off contact); the power to move fights there only if one of its
    units moved in during combat move or it chooses to (`fight`), otherwise (LHTR-COMBAT-shared-space-forces-battle)
    its units there must fight. `blitz_through_infrastructure`: an enemy AA gun or industrial
    complex alone does not stop a blitz; the armour takes the territory with them. `allied_transports`: land units
    may board an ally's transports (False: only their own power's). `unload_after_sea_battle`: a transport that
    moved into a sea battle in combat move and did not retreat may unload in non-combat move.
    `control_in_real_time`: a territory's control counts from the moment it changes, so a canal captured this turn
    opens at once and aircraft land in a territory captured this turn (by default both need control since the turn
    began)."""

    # the mover's own fighters aboard a carrier that moves ride along as cargo (spending no movement), as far as the
    # moving carriers have room, unless they moved in combat move (by default only allied fighters ride)
    own_fighters_ride: bool = False
    passable_enemy_ships: frozenset[str] = frozenset()
    subs_end_noncombat_among_enemies: bool = False
    shared_zones_optional: bool = False
    blitz_through_infrastructure: bool = False
    allied_transports: bool = True
    unload_after_sea_battle: bool = False
    control_in_real_time: bool = False
    # a stack's moves depend only on the units within its reach, read as the default leg checks read them, and on the
    # rest of the state (no rule module reads more; a stack's movement left depends on the stack and the rest of the
    # state): its move candidates are kept from one state to the next while what they read is unchanged
    # (movement.memo)
    moves_local: bool = False
