"""A scripted AARHE opening for the team-turn tests: what each power does in each phase of the Soviet first
round and of round 2 (the Axis team turn, then the Allied team turn), and how a member plays its battles (any
legal answer that ends them soon: retreat before pressing on). The engine test plays it with the members'
actions interleaved; the server tests play it with one thread per seat."""

from __future__ import annotations

from typing import Any

from tests.aarhe.common import GER, JAP, RUS, UK, US


def _buy(units: str, at: str | None = None) -> dict[str, Any]:
    return {"type": "purchase", "units": units, **({"at": at} if at else {})}


def _move(units: str, *path: str) -> dict[str, Any]:
    return {"type": "move", "units": units, "path": list(path)}


def _place(units: str, space: str) -> dict[str, Any]:
    return {"type": "place", "units": units, "space": space}


# (round, power, phase) -> the actions the power takes in that phase, in order; then it ends the phase
PLAN: dict[tuple[int, str, str], list[dict[str, Any]]] = {
    (1, RUS, "purchase"): [_buy("1 infantry", "Russia"), _buy("1 armour")],
    (1, RUS, "non-combat-move"): [_move("1 infantry", "Archangel", "Russia")],
    (1, RUS, "mobilize"): [_place("1 infantry", "Russia"), _place("1 armour", "Russia")],
    (2, GER, "purchase"): [_buy("1 armour"), _buy("1 artillery")],
    (2, GER, "combat-move"): [_move("1 infantry", "Libya", "Anglo Egypt")],
    (2, GER, "non-combat-move"): [_move("1 infantry", "Belorussia", "West Russia"),
                                  _move("2 infantry", "Balkans", "Ukraine S.S.R.")],
    (2, GER, "mobilize"): [_place("1 armour", "Germany"), _place("1 artillery", "Germany")],
    (2, JAP, "purchase"): [_buy("1 infantry", "Japan"), _buy("1 fighter")],
    (2, JAP, "combat-move"): [_move("2 infantry", "Manchuria", "Buryatia S.S.R.")],
    (2, JAP, "non-combat-move"): [_move("1 infantry", "Kwangtung", "French Indochina")],
    (2, JAP, "mobilize"): [_place("1 infantry", "Japan"), _place("1 fighter", "Japan")],
    (2, RUS, "purchase"): [_buy("1 infantry", "Russia")],
    (2, RUS, "mobilize"): [_place("1 infantry", "Russia")],
    (2, UK, "purchase"): [_buy("1 infantry", "United Kingdom")],
    (2, UK, "mobilize"): [_place("1 infantry", "United Kingdom")],
    (2, US, "purchase"): [_buy("1 armour")],
    (2, US, "mobilize"): [_place("1 armour", "Eastern United States")],
}
BATTLE_ANSWERS = ("air_missions", "retreat", "choose_casualties", "fight", "submerge", "declare_targets", "press")


def battle_step(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The next step of a battle among the legal actions (JSON): a battle to fight or a decision to answer,
    the one that ends the battle soonest first (air missions: none, the first offered); None when there is
    none."""
    for kind in BATTLE_ANSWERS:
        found = next((a for a in legal if a["type"] == kind), None)
        if found is not None:
            return found
    return None


def planned(round_: int, power: str, phase: str, done: int) -> dict[str, Any] | None:
    """The planned action after the `done` first of `power` in `phase` of `round_`; None when all are done."""
    steps = PLAN.get((round_, power, phase), [])
    return steps[done] if done < len(steps) else None


def bought(round_: int, power: str) -> dict[str, int]:
    """What `power` buys in `round_` by the plan, by unit."""
    units: dict[str, int] = {}
    for action in PLAN.get((round_, power, "purchase"), []):
        count, unit = action["units"].split(" ", 1)
        units[unit] = units.get(unit, 0) + int(count)
    return units
