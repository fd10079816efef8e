"""AARHE national builds (option `national_builds`): each power's package bought at its place, cheaper, once a
turn (per complex), and mobilised there."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from tests.aarhe.common import refused
from tests.aarhe.move_common import at

ON = {"national_builds": True}


def buy(g: Game, units: str, place: str = "") -> int:
    """Buy; the IPCs it cost."""
    before = g.state.banks[g.state.nation]
    g.apply({"type": "purchase", "units": units, **({"at": place} if place else {})})
    return before - g.state.banks[g.state.nation]


def to_mobilize(g: Game) -> None:
    while g.state.phase != "mobilize":
        g.apply({"type": "end_phase"})


COMPLEXES = {"United Kingdom": ("United Kingdom", "India"), "Japan": ("Japan",), "Russia": ("Russia", "Caucasus"),
             "Germany": ("Germany", "Southern Europe"),
             "United States": ("Eastern United States", "Western United States")}


def game(power: str, options: dict[str, Any] | None = None) -> Game:
    """`power`'s purchase phase on an empty board with its complexes and 60 IPCs."""
    units = {t: f"{power}: 1 factory" for t in COMPLEXES[power]}
    return at(power, "purchase", units, banks={power: 60}, options=ON if options is None else options)


@pytest.mark.rule("AARHE-NATBUILD-uk-spitfire")
def test_the_spitfire_costs_eight_once_a_turn_and_is_placed_in_the_united_kingdom() -> None:
    g = game("United Kingdom")
    assert buy(g, "1 fighter", "United Kingdom") == 8
    assert buy(g, "1 fighter") == 10
    assert refused(g, {"type": "purchase", "units": "1 fighter", "at": "United Kingdom"}) == \
        "AARHE-NATBUILD-uk-spitfire"
    to_mobilize(g)
    g.apply({"type": "place", "units": "1 fighter", "space": "India"})  # the one at 10 goes anywhere
    assert refused(g, {"type": "place", "units": "1 fighter", "space": "India"}) == "AARHE-NATBUILD-uk-spitfire"
    g.apply({"type": "place", "units": "1 fighter", "space": "United Kingdom"})
    off = game("United Kingdom", {})
    assert refused(off, {"type": "purchase", "units": "1 fighter", "at": "United Kingdom"}) == \
        "AARHE-PURCH-inf-at-vc"


@pytest.mark.rule("AARHE-NATBUILD-japan-patriotism")
def test_patriotism_raises_three_infantry_in_japan_for_five() -> None:
    g = game("Japan")
    assert buy(g, "3 infantry", "Japan") == 5
    assert buy(g, "3 infantry", "Japan") == 6  # a second three: the usual price (2 each at the capital)
    assert refused(g, {"type": "purchase", "units": "1 infantry", "at": "Japan"}) == "AARHE-MOBIL-inf-vc-cap"
    assert buy(game("Japan", {}), "3 infantry", "Japan") == 6  # without the option


@pytest.mark.rule("AARHE-NATBUILD-ussr-t34")
def test_the_t34s_cost_eight_and_are_placed_in_russia() -> None:
    g = game("Russia")
    assert buy(g, "2 armour", "Russia") == 8
    to_mobilize(g)
    assert refused(g, {"type": "place", "units": "1 armour", "space": "Caucasus"}) == "AARHE-NATBUILD-ussr-t34"
    g.apply({"type": "place", "units": "2 armour", "space": "Russia"})
    assert refused(game("Russia", {}), {"type": "purchase", "units": "2 armour", "at": "Russia"}) == \
        "AARHE-PURCH-inf-at-vc"


@pytest.mark.rule("AARHE-NATBUILD-germany-type-vii")
def test_a_type_vii_at_each_complex_and_no_surface_warship_there() -> None:
    g = game("Germany")
    assert buy(g, "1 submarine", "Germany") == 6
    assert buy(g, "1 submarine", "Southern Europe") == 6  # one per complex
    assert refused(g, {"type": "purchase", "units": "1 submarine", "at": "Germany"}) == \
        "AARHE-NATBUILD-germany-type-vii"
    assert refused(g, {"type": "purchase", "units": "1 submarine", "at": "Norway"}) == \
        "AARHE-NATBUILD-germany-type-vii"  # no complex there
    assert buy(g, "1 destroyer") == 10
    to_mobilize(g)
    assert refused(g, {"type": "place", "units": "1 destroyer", "space": "SZ 5"}) == \
        "AARHE-NATBUILD-germany-type-vii"  # SZ 5 is Germany's: a Type VII was bought for it
    g.apply({"type": "place", "units": "1 submarine", "space": "SZ 5"})
    assert refused(game("Germany", {}), {"type": "purchase", "units": "1 submarine", "at": "Germany"}) == \
        "AARHE-PURCH-inf-at-vc"


@pytest.mark.rule("AARHE-NATBUILD-us-essex")
def test_an_essex_carrier_at_each_us_complex_for_fourteen() -> None:
    g = game("United States")
    assert buy(g, "1 carrier", "Eastern United States") == 14
    assert buy(g, "1 carrier", "Western United States") == 14
    assert refused(g, {"type": "purchase", "units": "1 carrier", "at": "Eastern United States"}) == \
        "AARHE-NATBUILD-us-essex"
    assert buy(g, "1 carrier") == 16
    offered = [a.to_json() for a in game("United States").legal_actions() if a.type == "purchase" and a.at]
    assert {"type": "purchase", "units": "1 carrier", "at": "Eastern United States"} in offered
    assert not [a for a in game("United States", {}).legal_actions() if a.type == "purchase" and a.at
                and "carrier" in a.units]
