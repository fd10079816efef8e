"""Convoy raids (AARe): enemy submarines near a power's industrial complexes cut the income it collects.

Reading (AARE-CR-*; see docs/rulings.md): at the collect-income phase of a raided power (the UK, the US and
Japan), every enemy submarine in a sea zone next to the territory of one of its complexes takes 2 IPCs, one
two zones away takes 1 (an adjacent sub counts 2, not 2 + 1; distance over sea-zone adjacency, canals and
units ignored). A sub that submerged in this turn's conduct-combat (`turn:submerged`) takes nothing. Each sub
raids one complex per turn: the assignment that takes the most IPCs after the caps. The damage of one
territory is capped by its value less the economic damage it already took this turn (`economy.damage`), and
the whole deduction by the income just collected. The raids are recorded in `extra["convoy"]`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from aare.economy.damage import damage_cap_remaining, economic_damage_events
from aare.events import BankChanged, Event, ExtraSet, apply_events
from aare.movement import flags
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

KEY = "convoy"
RAIDED = ("United Kingdom", "United States", "Japan")  # AARE-CR-eligible-nations
ADJACENT, NEAR = 2, 1
R_ADJACENT = "AARE-CR-adjacent-sub"
R_NEAR = "AARE-CR-two-sz-sub"
R_RECORD = "AARE-CR-victim-collect-phase"
SUBMERGED_THIS_TURN = "turn:submerged"


@dataclass(frozen=True)
class Raider:
    """One enemy submarine (of a stack) and what it can take from each complex territory in range."""

    zone: str
    owner: str
    reach: tuple[tuple[str, int], ...]  # (territory, 2 or 1)


def complexes(state: GameState, ruleset: Ruleset, power: str) -> list[str]:
    """Territories `power` holds with its own industrial complex."""
    units = ruleset.units
    return sorted(t for t, owner in state.owners.items() if owner == power
                  and any(s.owner == power and units[s.unit].has("factory") for s in state.stacks(t)))


def zone_distances(ruleset: Ruleset, territory: str) -> dict[str, int]:
    """Sea zones within two zones of `territory`: 1 for the zones next to it, 2 for their neighbours."""
    graph = graph_of(ruleset.board)
    near = {z: 1 for z in graph.coast.get(territory, ()) if z in graph.sea}
    out = dict(near)
    for zone in near:
        for nxt in graph.sea_nbrs[zone]:
            out.setdefault(nxt, 2)
    return out


def raiders(state: GameState, ruleset: Ruleset, power: str, targets: Sequence[str]) -> list[Raider]:
    """Every enemy submarine in range of a complex in `targets`, one entry per submarine, in a fixed order
    (AARE-CR-subs-only, AARE-CR-submerged-no-damage)."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(power)
    reach: dict[str, list[tuple[str, int]]] = {}
    for territory in targets:
        for zone, distance in zone_distances(ruleset, territory).items():
            reach.setdefault(zone, []).append((territory, ADJACENT if distance == 1 else NEAR))
    out: list[Raider] = []
    for zone in sorted(reach):
        for stack in state.stacks(zone):
            if board.side_of(stack.owner) == side or not units[stack.unit].has("submarine"):
                continue
            if flags.has(stack, SUBMERGED_THIS_TURN):
                continue
            out += [Raider(zone, stack.owner, tuple(sorted(reach[zone])))] * stack.count
    return out


def assign(subs: Sequence[Raider], caps: Mapping[str, int]) -> list[str | None]:
    """For each sub, the complex territory it raids (None: none), taking the most IPCs in all after each
    territory's cap (AARE-CR-one-ic-per-sub-per-turn, AARE-CR-territory-cap). Ties go to the first choice in
    territory order."""
    names = sorted(caps)
    limit = tuple(caps[n] for n in names)

    @cache
    def best(i: int, filled: tuple[int, ...]) -> tuple[int, tuple[str | None, ...]]:
        if i == len(subs):
            return 0, ()
        options: list[tuple[str | None, int]] = [(t, v) for t, v in subs[i].reach if t in caps]
        found: tuple[int, tuple[str | None, ...]] | None = None
        for territory, value in [*options, (None, 0)]:
            now = filled
            gain = 0
            if territory is not None:
                k = names.index(territory)
                new = min(limit[k], filled[k] + value)
                gain = new - filled[k]
                now = (*filled[:k], new, *filled[k + 1:])
            rest, chosen = best(i + 1, now)
            if found is None or gain + rest > found[0]:
                found = (gain + rest, (territory, *chosen))
        assert found is not None
        return found

    return list(best(0, tuple(0 for _ in names))[1])


def convoy_events(state: GameState, ruleset: Ruleset, power: str, collected: int) -> list[Event]:
    """The convoy raids on `power` at its collect-income phase, after it collected `collected` IPCs: the
    treasury losses (each territory capped, all of them by `collected`) and the record of the raids."""
    if power not in RAIDED:
        return []
    targets = complexes(state, ruleset, power)
    subs = raiders(state, ruleset, power, targets)
    if not subs:
        return []
    caps = {t: damage_cap_remaining(state, ruleset, t) for t in targets}
    chosen = assign(subs, caps)
    raids: list[dict[str, Any]] = []
    events: list[Event] = []
    left = collected
    for territory in targets:
        mine = [(sub, dict(sub.reach)[territory]) for sub, t in zip(subs, chosen, strict=True) if t == territory]
        if not mine:
            continue
        raw = sum(v for _, v in mine)
        rule = R_ADJACENT if any(v == ADJACENT for _, v in mine) else R_NEAR
        found = economic_damage_events(state, ruleset, territory, min(raw, left), rule) if left else []
        loss = -sum(e.delta for e in found if isinstance(e, BankChanged))
        left -= loss
        events += found
        state = apply_events(state, found)
        per: dict[tuple[str, str, int], int] = {}
        for sub, value in mine:
            per[sub.zone, sub.owner, value] = per.get((sub.zone, sub.owner, value), 0) + 1
        raids.append({
            "territory": territory,
            "raw": raw,
            "damage": loss,
            "subs": [{"zone": z, "owner": o, "count": n, "each": v} for (z, o, v), n in sorted(per.items())],
        })
    if not raids:
        return events
    record = {"round": state.round, "power": power, "raids": raids}
    return [*events, ExtraSet(KEY, record, R_RECORD)]
