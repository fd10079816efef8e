"""AARHE national builds (module `aarhe_national_builds`, option `national_builds`): a power buys its package at
the place the seed names, cheaper, and mobilises it there (AARHE-NATBUILD-*):

- Germany, Type VII: once a turn per German complex, 1 submarine for 6, provided no surface warship is mobilised
  at that complex this turn;
- Japan, patriotism: once a turn 3 infantry in Japan for 5 (they count against Tokyo's infantry a turn);
- the Soviet Union, T-34: once a turn 2 armour in Russia for 8;
- the United Kingdom, Spitfire: once a turn 1 fighter in the United Kingdom for 8;
- the United States, Essex: once a turn per US complex, 1 carrier for 14;
- Italy (option `italy`), Regia Marina: once a turn one battleship, destroyer or carrier at an Italian complex for
  2 less than its price.

A package is bought as a purchase at its place (`buy 1 fighter at United Kingdom`); the units join the pool with
an order for that place (`production.record`'s `orders`), and mobilize keeps enough of them in the pool for the
places they were bought for (`reserved_elsewhere`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aare.economy.production import has_complex
from aare.errors import IllegalAction
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module

OPTION = "national_builds"
R_GERMANY = "AARHE-NATBUILD-germany-type-vii"
R_JAPAN = "AARHE-NATBUILD-japan-patriotism"
R_USSR = "AARHE-NATBUILD-ussr-t34"
R_UK = "AARHE-NATBUILD-uk-spitfire"
R_US = "AARHE-NATBUILD-us-essex"
R_ITALY = "AARHE-NATBUILD-italy-regia-marina"
NATIONAL = "national"  # the production record's list of the packages bought this turn (name, or name@complex)


@dataclass(frozen=True)
class Package:
    """`units` bought for `cost` at `place` (None: at any complex of the power), once a turn (per complex, unless
    `once_a_turn`). With `choices` any one of those unit lists is bought instead, for `discount` less than its
    price."""

    name: str
    units: Mapping[str, int]
    cost: int
    place: str | None
    rule: str
    choices: tuple[Mapping[str, int], ...] = ()
    discount: int = 0
    once_a_turn: bool = False

    def offers(self, units: Mapping[str, int]) -> bool:
        return any(dict(units) == dict(c) for c in (self.choices or (self.units,)))

    def price(self, ruleset: Any, units: Mapping[str, int]) -> int:
        """What `units` cost as this package."""
        if not self.choices:
            return self.cost
        full: int = sum(ruleset.unit_cost(u).value * n for u, n in units.items())
        return max(0, full - self.discount)

    def key(self, territory: str) -> str:
        """The name a purchase of it at `territory` is recorded under (once a turn for each key)."""
        return self.name if self.place is not None or self.once_a_turn else f"{self.name}@{territory}"


PACKAGES: dict[str, Package] = {
    "Germany": Package("type-vii", {"submarine": 1}, 6, None, R_GERMANY),
    "Japan": Package("patriotism", {"infantry": 3}, 5, "Japan", R_JAPAN),
    "Russia": Package("t-34", {"armour": 2}, 8, "Russia", R_USSR),
    "United Kingdom": Package("spitfire", {"fighter": 1}, 8, "United Kingdom", R_UK),
    "United States": Package("essex", {"carrier": 1}, 14, None, R_US),
    "Italy": Package("regia-marina", {"battleship": 1}, 0, None, R_ITALY,
                     choices=({"battleship": 1}, {"destroyer": 1}, {"carrier": 1}), discount=2, once_a_turn=True),
}


def enabled(ruleset: Any) -> bool:
    return bool(ruleset.options.get(OPTION, False))


def package_for(state: Any, ruleset: Any, power: str, units: Mapping[str, int], territory: str,
                bought: list[str]) -> tuple[Package, str, int] | None:
    """The package `power` buys with `units` at `territory` (with the name it is recorded under and its price),
    None when the purchase is no package; IllegalAction when it is one that may not be bought now."""
    package = PACKAGES.get(power)
    if not enabled(ruleset) or package is None or not package.offers(units):
        return None
    if package.place is not None and territory != package.place:
        return None
    if package.place is None and not has_complex(state, ruleset, territory, power):
        raise IllegalAction(f"{power}'s {package.name} is bought for one of its industrial complexes", package.rule)
    key = package.key(territory)
    if key in bought:
        if set(units) == {"infantry"}:
            return None  # infantry are bought at their city anyway: these at the usual price
        per = "" if key == package.name else f" at {territory}"
        raise IllegalAction(f"{power}'s {package.name} is bought once a turn{per}", package.rule)
    return package, key, package.price(ruleset, units)


def reserved_elsewhere(orders: Mapping[str, Mapping[str, int]], placed: Mapping[str, Mapping[str, int]],
                       unit: str, here: set[str]) -> int:
    """Units of type `unit` bought for places other than `here` and not mobilised yet."""
    return sum(max(0, int(n.get(unit, 0)) - int(placed.get(t, {}).get(unit, 0)))
               for t, n in orders.items() if t not in here)


def check_warship(power: str, orders: Mapping[str, Mapping[str, int]], unit: Any, here: set[str]) -> None:
    """Germany's Type VII: no surface warship is mobilised at a complex a Type VII was bought for this turn."""
    if power != "Germany" or unit.domain != "sea" or unit.has("submerge") or unit.has("transport"):
        return
    for territory in sorted(here):
        if orders.get(territory, {}).get("submarine"):
            raise IllegalAction(f"a Type VII submarine was bought for {territory} this turn: no surface warship is "
                                "mobilised there", R_GERMANY)


AARHE_NATIONAL_BUILDS = register_module(
    RuleModule(
        id="aarhe_national_builds",
        title="AARHE national builds (option)",
        rule_ids=(R_GERMANY, R_JAPAN, R_USSR, R_UK, R_US, R_ITALY),
        options=(OptionSpec(OPTION, bool, False, "national builds: each power's cheaper package at its place (Type "
                            "VII, patriotism, T-34, Spitfire, Essex, Regia Marina)", R_UK),),
    )
)
