"""AARHE Phase 1 victory cities: seven per nation, worth 5, 3, 2, 2, 1, 1 and 1 victory city points (VCP), by the
territory that holds each on the Revised board (AARHEP1-VC-structure, AARHEP1-VC-table)."""

from __future__ import annotations

from typing import Any, NamedTuple

R_STRUCTURE = "AARHEP1-VC-structure"
R_TABLE = "AARHEP1-VC-table"

CAPITAL, MAJOR, MODERATE, MINOR = "capital", "major", "moderate", "minor"
CATEGORY_POINTS = {CAPITAL: 5, MAJOR: 3, MODERATE: 2, MINOR: 1}


class City(NamedTuple):
    name: str
    nation: str  # the nation that starts with it
    category: str

    @property
    def points(self) -> int:
        return CATEGORY_POINTS[self.category]


def _nation(nation: str, *cities: tuple[str, str]) -> dict[str, City]:
    """One nation's seven cities (territory, city), in the order capital, major, moderate x2, minor x3."""
    categories = (CAPITAL, MAJOR, MODERATE, MODERATE, MINOR, MINOR, MINOR)
    return {territory: City(city, nation, category) for (territory, city), category in zip(cities, categories,
                                                                                           strict=True)}


# territory -> city (AARHEP1-VC-table); the seed's names of the territories are the Revised board's
CITIES: dict[str, City] = {
    **_nation("Russia", ("Russia", "Moscow"), ("Caucasus", "Stalingrad"), ("Karelia S.S.R.", "Leningrad"),
              ("Novosibirsk", "Novosibirsk"), ("Archangel", "Archangel"), ("Kazakh S.S.R.", "Almaty"),
              ("Buryatia S.S.R.", "Vladivostok")),
    **_nation("Germany", ("Germany", "Berlin"), ("Southern Europe", "Rome"), ("Western Europe", "Paris"),
              ("Ukraine S.S.R.", "Kiev"), ("Eastern Europe", "Warsaw"), ("Norway", "Oslo"),
              ("West Russia", "Kursk")),
    **_nation("United Kingdom", ("United Kingdom", "London"), ("Eastern Canada", "Toronto"), ("India", "Calcutta"),
              ("Australia", "Sydney"), ("Anglo Egypt", "Cairo"), ("Trans-Jordan", "Damascus"),
              ("Union of South Africa", "Cape Town")),
    **_nation("Japan", ("Japan", "Tokyo"), ("Manchuria", "Changchun"), ("Kwangtung", "Shanghai"),
              ("French Indochina", "Singapore"), ("Philippine Islands", "Manila"), ("Solomon Islands", "Guadalcanal"),
              ("New Guinea", "Milne Bay")),
    **_nation("United States", ("Eastern United States", "Washington"), ("Western United States", "Los Angeles"),
              ("Central United States", "Chicago"), ("China", "Chongqing"), ("Sinkiang", "Ürümqi"),
              ("Hawaiian Islands", "Honolulu"), ("Brazil", "Sao Paulo")),
}


def city(territory: str) -> City | None:
    return CITIES.get(territory)


def points(territory: str) -> int:
    """The VCP of the city in `territory` (0 without one)."""
    found = CITIES.get(territory)
    return found.points if found is not None else 0


def side_points(ruleset: Any, state: Any) -> dict[str, int]:
    """The VCP each side controls."""
    held: dict[str, int] = {}
    for territory, found in CITIES.items():
        owner = state.owners.get(territory)
        if owner is not None:
            side = ruleset.board.side_of(owner)
            held[side] = held.get(side, 0) + found.points
    return held
