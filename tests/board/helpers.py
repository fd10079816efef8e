"""Shared by the board tests: units per power and per space of a loaded board, and the reading of a TripleA
reference board (third-party, parsed only)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Mapping

from aare.board.board import Board


def starting_units(board: Board, power: str) -> Counter[str]:
    """Every unit `power` starts with, summed over the board."""
    total: Counter[str] = Counter()
    for group in board.setup:
        if group.power == power:
            total.update(group.units)
    return total


def placements(board: Board) -> Counter[tuple[str, str, str]]:
    """`{(power, space, unit): count}` of the board's set-up."""
    found: Counter[tuple[str, str, str]] = Counter()
    for group in board.setup:
        for unit, count in group.units.items():
            found[group.power, group.space, unit] += count
    return found


def reference_placements(
    xml: ET.Element, players: Mapping[str, str], ours: Callable[[str], str], unit_types: Mapping[str, str]
) -> Counter[tuple[str, str, str]]:
    """`{(power, space, unit): count}` of a TripleA file's unit placements, in our names."""
    found: Counter[tuple[str, str, str]] = Counter()
    for p in xml.iter("unitPlacement"):
        unit = unit_types.get(p.get("unitType", ""), p.get("unitType", ""))
        found[players[p.get("owner", "")], ours(p.get("territory", "")), unit] += int(p.get("quantity", "0"))
    return found


def attachments(xml: ET.Element, kind: str, ours: Callable[[str], str]) -> dict[str, dict[str, str]]:
    """`{our space name: {option: value}}` for every attachment of one kind in a TripleA file."""
    return {
        ours(a.get("attachTo", "")): {o.get("name", ""): o.get("value", "") for o in a.iter("option")}
        for a in xml.iter("attachment")
        if a.get("name") == kind
    }


def reference_canals(xml: ET.Element, ours: Callable[[str], str]) -> dict[str, tuple[set[str], set[str]]]:
    """{canal name: (its sea zones, the territories that open it)} of a reference board, in our names."""
    found: dict[str, tuple[set[str], set[str]]] = {}
    for a in xml.iter("attachment"):
        if a.get("name") != "canalAttachment":
            continue
        opts = {o.get("name", ""): o.get("value", "") for o in a.iter("option")}
        seas, lands = found.setdefault(opts["canalName"], (set(), set()))
        seas.add(ours(a.get("attachTo", "")))
        lands.update(ours(t) for t in opts["landTerritories"].split(":"))
    return found


def reference_banks(xml: ET.Element, players: Mapping[str, str]) -> dict[str, int]:
    """{power: starting IPCs} of a reference board, in our power names."""
    return {players[r.get("player", "")]: int(r.get("quantity", "0"))
            for r in xml.iter("resourceGiven") if r.get("resource") == "PUs"}
