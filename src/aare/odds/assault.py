"""An amphibious assault as one calculation: the sea battle in the transports' zone, then the landing.

The fleet (warships, aircraft and the transports carrying the landing force) first fights the enemy ships
of the zone. Only if it clears the zone (every enemy unit sunk or submerged: the sea battle's result is
``attacker``) do the surviving transports unload; the cargo of a sunk transport is lost with it, and cargo
of a zone not cleared stays aboard (LHTR-TRANSPORT-amphibious-assault, LHTR-TRANSPORT-sea-battle-lost).
The land battle follows with the landed cargo plus the units attacking overland; with nobody left to
attack, the defender holds. Ships bombard only when the zone had no sea battle
(LHTR-BOMBARD-no-sea-battle); ships of another zone without a sea battle, from which other units landed,
bombard in any case (`other_zone_bombard`).

Which loads are lost: the sea battle's order of loss decides how many transports sink; the loads lost with
them are the last-listed ones (a player lists the most important load first).

Both battles are solved exactly (`exact_tally`); the sea battle's terminal states are read jointly (result
and attacker survivors together, `Tally.joint`), and one land battle is solved per distinct number of landed
loads, weighted by its probability.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from aare.board.notation import format_units, parse_units
from aare.board.units import UnitCatalogue
from aare.combat.engine import stalemate
from aare.combat.policy import Policy
from aare.combat.setup import Battle
from aare.errors import AareError, IllegalAction, MalformedInput
from aare.odds.calculator import exact_tally, merge, new_tally
from aare.odds.report import BattleOdds, Tally, Units, ipc_value, joint_recording

Counts = dict[str, int]
UnitsText = str | Mapping[str, int]
Build = Callable[..., Battle]
ASSAULT_INPUTS = ("fleet", "sea_defender", "loads", "other_zone_bombard", "ool_fleet", "ool_sea_defender")
SEA_INPUTS = ("attacker_techs", "defender_techs", "owner_techs")  # what the sea battle shares with the landing
EPS = 1e-12
PLAIN_ENDS = ("attacker", "defender", "draw")  # a win clears the zone; after the others no attacker is present


@dataclass(frozen=True)
class Assault:
    """An amphibious assault's inputs, read against a unit catalogue. `loads`: one per transport, in the
    order the player keeps them (the last-listed are lost first). `overland`: attackers not in a load."""

    fleet: Counts
    sea_defender: Counts
    loads: tuple[Counts, ...]
    attacker: Counts
    overland: Counts
    defender: Counts
    bombard: Counts
    other_zone_bombard: Counts
    carrier: str | None  # the fleet's transport type

    @property
    def sea_battle(self) -> bool:
        """Enemy ships in the zone: a sea battle comes first."""
        return bool(self.sea_defender)

    def landing(self, landed: int) -> Counts:
        """The land battle's attackers when the first `landed` loads go ashore."""
        return add_counts(self.overland, *self.loads[:landed])

    def cargo_value(self, loads: Sequence[Counts], catalogue: UnitCatalogue) -> int:
        """IPC value of some loads."""
        return sum(ipc_value(load, catalogue) for load in loads)


def take_assault_inputs(battle: str, inputs: dict[str, Any]) -> dict[str, Any] | None:
    """Remove the assault inputs (`ASSAULT_INPUTS`) from `inputs`; None when none is given (the plain land
    part of an amphibious assault)."""
    found = {k: inputs.pop(k) for k in ASSAULT_INPUTS if k in inputs}
    if not any(v not in (None, "", (), []) for v in found.values()):
        return None
    if battle != "amphibious":
        raise MalformedInput(f"{', '.join(sorted(found))}: only for an amphibious assault (battle='amphibious')")
    return found


def add_counts(*groups: Mapping[str, int]) -> Counts:
    """The units of several groups together."""
    out: Counts = {}
    for group in groups:
        for unit, n in group.items():
            out[unit] = out.get(unit, 0) + n
    return {u: n for u, n in out.items() if n}


def read_units(value: UnitsText | None, catalogue: UnitCatalogue, what: str) -> Counts:
    """Unit text or ``{unit: count}`` as counts by unit id."""
    if value is None:
        return {}
    if isinstance(value, str):
        return parse_units(value, catalogue)
    out: Counts = {}
    for name, n in value.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise MalformedInput(f"{what}: unit count must be a non-negative integer, got {n!r}")
        unit = catalogue.resolve(name)
        out[unit] = out.get(unit, 0) + n
    return {u: n for u, n in out.items() if n}


def read_loads(value: str | Sequence[UnitsText] | None, catalogue: UnitCatalogue) -> tuple[Counts, ...]:
    """Loads as text separated by ``;`` (``"2 infantry; 1 infantry, 1 armour"``) or a sequence of groups."""
    if value is None:
        return ()
    parts: Sequence[UnitsText] = [p for p in value.split(";") if p.strip()] if isinstance(value, str) else value
    return tuple(read_units(p, catalogue, "loads") for p in parts)


def fleet_carrier(fleet: Counts, catalogue: UnitCatalogue) -> str | None:
    """The fleet's transport type (a ship that carries land units), if any; one type per assault."""
    carriers = [u for u in fleet if catalogue[u].domain == "sea" and catalogue[u].transport_capacity > 0]
    if len(carriers) > 1:
        raise MalformedInput(f"one transport type per assault, got {', '.join(carriers)}")
    return carriers[0] if carriers else None


def check_loads(loads: tuple[Counts, ...], fleet: Counts, carrier: str | None, catalogue: UnitCatalogue) -> None:
    """One load per transport, each within the transport's room (LHTR-TRANSPORT-capacity)."""
    boats = fleet.get(carrier, 0) if carrier else 0
    if len(loads) > boats:
        raise MalformedInput(f"{len(loads)} loads but the fleet has {boats} transports (one load per transport)")
    if carrier is None:
        return
    room = catalogue[carrier].transport_capacity
    for i, load in enumerate(loads, 1):
        for unit in load:
            if catalogue[unit].domain != "land" or catalogue[unit].transport_size <= 0:
                raise MalformedInput(f"load {i}: {catalogue[unit].display} cannot be carried (LHTR-TRANSPORT-capacity)")
        size = sum(catalogue[u].transport_size * n for u, n in load.items())
        if size > room:
            text = format_units(load, catalogue)
            raise MalformedInput(
                f"load {i} ({text}) needs room {size}, a {catalogue[carrier].display} holds {room} "
                "(LHTR-TRANSPORT-capacity)"
            )


def overland_units(attacker: Counts, loads: tuple[Counts, ...], catalogue: UnitCatalogue) -> Counts:
    """The attackers not aboard a transport (they attack overland, or fly); the loads must be attackers."""
    aboard = add_counts(*loads)
    short = {u: n - attacker.get(u, 0) for u, n in aboard.items() if n > attacker.get(u, 0)}
    if short:
        raise MalformedInput(
            f"the loads carry {format_units(short, catalogue)} more than the attacker lists "
            "(list the landing force among the attackers)"
        )
    return {u: n - aboard.get(u, 0) for u, n in attacker.items() if n - aboard.get(u, 0)}


def check_bombard(assault: Assault, catalogue: UnitCatalogue) -> None:
    """Ships of the assault's zone bombard only without a sea battle there (LHTR-BOMBARD-no-sea-battle), only
    if they are in the fleet and only when land units unload from the zone (LHTR-BOMBARD-who-and-when)."""
    if not assault.bombard:
        return
    if assault.sea_battle:
        raise IllegalAction(
            "no ship may bombard from a sea zone that had a sea battle (ships of another zone without one: "
            "other_zone_bombard)",
            "LHTR-BOMBARD-no-sea-battle",
        )
    extra = {u: n - assault.fleet.get(u, 0) for u, n in assault.bombard.items() if n > assault.fleet.get(u, 0)}
    if extra:
        raise MalformedInput(
            f"bombarding ships must be in the fleet: {format_units(extra, catalogue)} is not "
            "(ships of another zone: other_zone_bombard) (LHTR-BOMBARD-who-and-when)"
        )
    if not any(assault.loads):
        raise IllegalAction("ships bombard only from a sea zone from which land units unload",
                            "LHTR-BOMBARD-who-and-when")


def read_assault(
    attacker: UnitsText, defender: UnitsText, catalogue: UnitCatalogue, inputs: Mapping[str, Any],
    assault: Mapping[str, Any],
) -> Assault:
    """The assault's inputs, checked (MalformedInput / IllegalAction)."""
    if "overland" in inputs:
        raise MalformedInput("with loads, the attackers not in a load attack overland: do not pass overland")
    fleet = read_units(assault.get("fleet"), catalogue, "fleet")
    if not fleet:
        raise MalformedInput("an assault with sea_defender or loads needs the fleet (its transports at least)")
    loads = read_loads(assault.get("loads"), catalogue)
    carrier = fleet_carrier(fleet, catalogue)
    check_loads(loads, fleet, carrier, catalogue)
    attacker_counts = read_units(attacker, catalogue, "attacker")
    found = Assault(
        fleet=fleet,
        sea_defender=read_units(assault.get("sea_defender"), catalogue, "sea_defender"),
        loads=loads,
        attacker=attacker_counts,
        overland=overland_units(attacker_counts, loads, catalogue),
        defender=read_units(defender, catalogue, "defender"),
        bombard=read_units(inputs.get("bombard"), catalogue, "bombard"),
        other_zone_bombard=read_units(assault.get("other_zone_bombard"), catalogue, "other_zone_bombard"),
        carrier=carrier,
    )
    check_bombard(found, catalogue)
    return found


# ---------------------------------------------------------------- the sea battle


def afloat(units: Units, carrier: str | None) -> int:
    """Transports among a fleet remnant."""
    return dict(units).get(carrier or "", 0)


def held_aboard(tally: Tally, carrier: str | None, ends: Sequence[str]) -> dict[int, float] | None:
    """P(the zone is not cleared, n > 0 transports afloat) by n. Results in `ends` (a win, and ends after which
    no transport is afloat) need nothing more; the others (a stalemate or a retreat) need their joint mass
    (`Tally.joint`): None when a solver left some of it out."""
    held: dict[int, float] = {}
    results = [r for r, p in tally.results.items() if r not in ends and p > EPS]
    if carrier is None or not results:
        return held
    joint = tally.joint or {}
    for result in results:
        if abs(sum(p for (r, _), p in joint.items() if r == result) - tally.results[result]) > EPS:
            return None
    for (result, units), p in joint.items():
        n = afloat(units, carrier)
        if result in results and n:
            held[n] = held.get(n, 0.0) + p
    return held


def sea_outcomes(
    tally: Tally, carrier: str | None, ends: Sequence[str] = PLAIN_ENDS
) -> dict[tuple[bool, int], float] | None:
    """P(zone cleared, transports afloat) of a sea battle: from the marginals (a win clears the zone; a
    defender win or a draw leaves no attacking unit present, so no transport) and the joint mass of the other
    ends (`held_aboard`)."""
    held = held_aboard(tally, carrier, ends)
    if held is None:
        return None
    out: dict[tuple[bool, int], float] = {}
    for units, p in tally.attacker.items():
        n = afloat(units, carrier)
        if n:
            out[True, n] = out.get((True, n), 0.0) + p
    for n, p in held.items():
        out[True, n] = out.get((True, n), 0.0) - p
        out[False, n] = p
    won = tally.results.get("attacker", 0.0)
    out[True, 0] = won - sum(p for (cleared, n), p in out.items() if cleared and n)
    out[False, 0] = sum(tally.results.values()) - won - sum(held.values())
    return {k: max(p, 0.0) for k, p in out.items() if p > EPS}


def ends_without_transports(tally: Tally, carrier: str | None, build: Build) -> tuple[str, ...]:
    """`PLAIN_ENDS`, and a stalemate too when every enemy remnant can hit a transport (then no stalemate
    leaves one afloat)."""
    if carrier is None:
        return tuple(tally.results)
    for units, p in tally.defender.items():
        if p <= EPS or not units:
            continue
        try:
            spares = stalemate(build({carrier: 1}, dict(units), "sea"))
        except AareError:
            spares = True
        if spares:
            return PLAIN_ENDS
    return (*PLAIN_ENDS, "stalemate")


def builder(rules: Any, options: Mapping[str, Any] | None, inputs: Mapping[str, Any]) -> Build:
    """Battles of the caller's ruleset: a sea battle gets the sides' techs, the landing every other input (its
    bombardment is the assault's to decide)."""
    from aare.odds import build_battle  # the package imports this module lazily

    land = {k: v for k, v in inputs.items() if k != "bombard"}

    def build(attacker: UnitsText, defender: UnitsText, kind: str, **extra: Any) -> Battle:
        base = sea_inputs(inputs) if kind == "sea" else land
        return build_battle(attacker, defender, rules, kind, options, **base, **extra)

    return build


def sea_battle(assault: Assault, build: Build, policy: Policy) -> tuple[BattleOdds, dict[tuple[bool, int], float]]:
    """The sea battle's odds and its outcomes for the landing (`sea_outcomes`); the general engine when a fast
    path left out joint mass that is needed (a retreat, or a stalemate that may leave transports afloat)."""
    battle = build(assault.fleet, assault.sea_defender, "sea")
    with joint_recording():
        tally = exact_tally(battle, policy)
        outcomes = sea_outcomes(tally, assault.carrier, ends_without_transports(tally, assault.carrier, build))
        if outcomes is None:
            tally = exact_tally(battle, policy, fast=False)
            outcomes = sea_outcomes(tally, assault.carrier)
    assert outcomes is not None  # the general engine records every terminal through Tally.add
    return tally.odds("exact"), outcomes


# ---------------------------------------------------------------- the landing


def landing_tally(assault: Assault, landed: int, build: Build, policy: Policy) -> Tally | None:
    """The land battle with the first `landed` loads ashore; None when nobody attacks the territory."""
    units = assault.landing(landed)
    if not units:
        return None
    ships = add_counts(assault.other_zone_bombard, {} if assault.sea_battle else assault.bombard)
    battle = build(units, assault.defender, "amphibious", overland=assault.overland, bombard=ships or None)
    return exact_tally(battle, policy)


def combine(
    assault: Assault, outcomes: Mapping[tuple[bool, int], float], template: Tally, build: Build, policy: Policy
) -> tuple[Tally, float]:
    """The landing's tally over every sea outcome, and the expected IPC of cargo left aboard (alive, not
    landed) in a zone not cleared."""
    solved: dict[int, Tally | None] = {}
    aboard = 0.0
    cat = template.catalogue
    for (cleared, boats), p in sorted(outcomes.items()):
        kept = min(boats, len(assault.loads))  # empty transports are lost first
        landed = kept if cleared else 0
        if not cleared:
            aboard += p * assault.cargo_value(assault.loads[:kept], cat)
        if landed not in solved:
            solved[landed] = landing_tally(assault, landed, build, policy)
        part = solved[landed]
        if part is None:  # nobody attacks: the defender holds
            template.add("defender", (), template.defender_start, p)
        else:
            merge(template, part, p)
    return template, aboard


def assault_odds(
    attacker: UnitsText,
    defender: UnitsText,
    rules: Any,
    options: Mapping[str, Any] | None,
    land: Battle,
    policy: Policy,
    inputs: Mapping[str, Any],
    assault: Mapping[str, Any],
    method: str = "exact",
) -> BattleOdds:
    """Exact odds of a whole amphibious assault under `rules` (with `options`). `land`: the land battle with
    every attacker (its start and catalogue); `policy`: the landing's; `inputs`: the other battle inputs
    (bombard, defender_aa, techs, ...); `assault`: the `ASSAULT_INPUTS` given.

    attacker_win / capture: the assault takes the territory; defender_win includes a sea battle not won when
    nobody attacks overland. attacker_survivors: units standing in the territory. IPC lost and expected cycles
    count both battles (cargo sunk with its transport is lost; cargo kept aboard is not). `sea_win`:
    P(the zone is cleared); `sea_battle`: the sea battle's own odds (fleet survivors), absent without one."""
    if method != "exact":
        raise MalformedInput(f"an assault with a fleet is computed exactly only (method 'exact', not {method!r})")
    t0 = time.perf_counter()
    cat = land.setup.catalogue
    build = builder(rules, options, inputs)
    found = read_assault(attacker, defender, cat, inputs, assault)
    sea: BattleOdds | None = None
    outcomes: dict[tuple[bool, int], float] = {(True, found.fleet.get(found.carrier or "", 0)): 1.0}
    if found.sea_battle:
        sea_policy = Policy(attacker_order=_order(assault.get("ool_fleet"), cat),
                            defender_order=_order(assault.get("ool_sea_defender"), cat))
        sea, outcomes = sea_battle(found, build, sea_policy)
    combined, aboard = combine(found, outcomes, new_tally(land), build, policy)
    result = combined.odds("exact")
    return replace(
        result,
        attacker_ipc_lost=result.attacker_ipc_lost - aboard + (sea.attacker_ipc_lost if sea else 0.0),
        defender_ipc_lost=result.defender_ipc_lost + (sea.defender_ipc_lost if sea else 0.0),
        expected_cycles=result.expected_cycles + (sea.expected_cycles if sea else 0.0),
        sea_win=sum(p for (cleared, _), p in outcomes.items() if cleared),
        sea_battle=sea,
        seconds=time.perf_counter() - t0,
    )


def _order(value: Sequence[str] | str | None, catalogue: UnitCatalogue) -> tuple[str, ...]:
    """An order of loss as unit ids."""
    names = [x.strip() for x in value.split(",")] if isinstance(value, str) else list(value or ())
    return tuple(catalogue.resolve(x) for x in names if x)


def sea_inputs(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The battle inputs the sea battle shares with the landing (the sides' techs)."""
    return {k: v for k, v in inputs.items() if k in SEA_INPUTS}
