"""AARHE's optional Italy player (option `italy`): the Italy map variant, Italy's set-up, turn and income, and
production on Italian soil."""

from __future__ import annotations

from typing import Any

import pytest

from aare.economy.summary import base_income, territory_income
from aare.engine import Game
from aare.rules.ruleset import load_ruleset
from aare.rules.turns import Turn
from aare.rulesets.aarhe.national_builds import PACKAGES
from aare.rulesets.aarhe.victory import city_points, points
from tests.aarhe.common import GER, JAP, RUS, UK, US, end_turn, game, refused, status
from tests.aarhe.move_common import at

ITA = "Italy"
ON = {"italy": True}
ITALIAN = ("Italy", "Southern Europe", "Balkans", "Libya")


def italy_game(seed: int = 3) -> Game:
    return game(ON, seed=seed)


def setup_of(board: Any, power: str) -> dict[str, dict[str, int]]:
    return {s.space: dict(s.units) for s in board.setup if s.power == power}


@pytest.mark.rule("AARHE-ITALY-map")
def test_the_italy_map_splits_italy_from_southern_europe_and_adds_malta() -> None:
    board = load_ruleset("aarhe", ON).board
    assert board.id == "revised-italy"
    italy, south = board.spaces["Italy"], board.spaces["Southern Europe"]
    assert (italy.ipc, italy.owner, italy.victory_city) == (6, ITA, "Rome")
    assert (south.ipc, south.owner, south.victory_city) == (2, ITA, None)
    assert board.adjacent("Italy", "Southern Europe") and board.adjacent("Italy", "SZ 14")
    assert board.adjacent("Italy", "Western Europe") and not board.adjacent("Southern Europe", "Western Europe")
    assert board.spaces["Malta"].neighbors == ("SZ 14",) and board.owners["Malta"] == UK
    assert board.capital_of(ITA) == "Italy" and board.side_of(ITA) == "Axis"
    plain = load_ruleset("aarhe").board  # off by default: the Revised board, five powers
    assert plain.id == "revised" and "Italy" not in plain.spaces and "Malta" not in plain.spaces
    assert [p.name for p in plain.powers] == [RUS, GER, UK, JAP, US]
    assert plain.spaces["Southern Europe"].ipc == 6 and plain.spaces["Germany"].ipc == 10
    # Rome counts in Italy: the Axis hold the same victory city points as on the Revised board
    assert points("Italy", board) == 5 and points("Southern Europe", board) == 0
    assert city_points(load_ruleset("aarhe", ON), italy_game().state) == \
        city_points(load_ruleset("aarhe"), game().state)


@pytest.mark.rule("AARHE-ITALY-map-values-table")
def test_italy_starts_with_twelve_from_italy_southern_europe_balkans_and_libya() -> None:
    ruleset = load_ruleset("aarhe", ON)
    values = {t: ruleset.board.spaces[t].ipc for t in ITALIAN}
    assert values == {"Italy": 6, "Southern Europe": 2, "Balkans": 3, "Libya": 1}
    g = italy_game()
    assert sorted(t for t, owner in g.state.owners.items() if owner == ITA) == sorted(ITALIAN)
    assert base_income(g.state, ruleset, ITA) == 12 and g.state.banks[ITA] == 12


@pytest.mark.rule("AARHE-ITALY-germany-value")
def test_germany_worth_twenty_keeps_the_german_income() -> None:
    with_italy, without = italy_game(), game()
    assert load_ruleset("aarhe", ON).board.spaces["Germany"].ipc == 20
    assert base_income(with_italy.state, load_ruleset("aarhe", ON), GER) == \
        base_income(without.state, load_ruleset("aarhe"), GER) == 40
    assert with_italy.state.banks[GER] == without.state.banks[GER]


@pytest.mark.rule("AARHE-ITALY-units-transfer")
def test_the_german_units_of_southern_europe_balkans_and_libya_are_italian() -> None:
    board, revised = load_ruleset("aarhe", ON).board, load_ruleset("aarhe").board
    german, italian, before = setup_of(board, GER), setup_of(board, ITA), setup_of(revised, GER)
    assert not set(german) & set(ITALIAN)
    assert italian["Libya"] == before["Libya"] and italian["Balkans"] == before["Balkans"]
    # the former Southern Europe's: one infantry holds the new Southern Europe, the rest stand in Italy
    assert italian["Southern Europe"] == {"infantry": 1}
    assert italian["Italy"] == {**before["Southern Europe"], "infantry": before["Southern Europe"]["infantry"] - 1}
    assert german["SZ 14"] == before["SZ 14"]  # the Mediterranean fleet stays German (docs/rulings.md)
    for space in ("Germany", "Western Europe", "Norway"):
        assert german[space] == before[space]
    g = italy_game()
    assert {s.owner for s in g.state.stacks("Libya")} == {ITA}


@pytest.mark.rule("AARHE-ORDER-team-turns")
def test_italy_plays_its_own_turn_in_the_axis_team_turn() -> None:
    ruleset = load_ruleset("aarhe", ON)
    assert ruleset.turn_order(2).turns == (Turn((GER, JAP, ITA)), Turn((RUS, UK, US)))
    g = italy_game()
    end_turn(g)  # round 1: the Soviet Union alone
    assert g.state.round == 2 and set(g.state.members) == {GER, JAP, ITA}
    g.apply({"type": "purchase", "units": "1 armour"}, power=ITA)
    assert g.state.banks[ITA] == 12 - 5
    end_turn(g, ITA)
    assert status(g, ITA) in ("waiting", "done")
    # purchase, then the income of its twelve (Libya's 1 comes by convoy, paid at the next collection)
    assert territory_income(g.state, load_ruleset("aarhe", ON), ITA) == 11
    assert g.state.banks[ITA] == 12 - 5 + 11


def mobilizing(power: str, owners: dict[str, str] | None = None, bank: int = 40) -> Game:
    """`power` in purchase on an empty Italy map with complexes in Italy, Southern Europe and Germany."""
    units = {"Italy": "Italy: 1 factory", "Southern Europe": f"{(owners or {}).get('Southern Europe', ITA)}: "
             "1 factory", "Germany": "Germany: 1 factory"}
    return at(power, "purchase", units, owners=owners, banks={power: bank}, options=ON)


def to_mobilize(g: Game) -> None:
    while g.state.phase != "mobilize":
        g.apply({"type": "end_phase"})


@pytest.mark.rule("AARHE-ITALY-production")
def test_only_italian_units_are_bought_for_and_placed_in_italian_territories() -> None:
    g = mobilizing(GER, owners={"Southern Europe": GER})
    assert refused(g, {"type": "purchase", "units": "1 infantry", "at": "Southern Europe"}) == \
        "AARHE-ITALY-production"
    g.apply({"type": "purchase", "units": "1 armour, 1 destroyer"})
    to_mobilize(g)
    assert refused(g, {"type": "place", "units": "1 armour", "space": "Southern Europe"}) == \
        "AARHE-ITALY-production"
    assert refused(g, {"type": "place", "units": "1 destroyer", "space": "SZ 14"}) == "AARHE-ITALY-production"
    g.apply({"type": "place", "units": "1 armour", "space": "Germany"})
    # Italy mobilises in its own territories
    italy = mobilizing(ITA)
    italy.apply({"type": "purchase", "units": "1 armour, 1 destroyer"})
    to_mobilize(italy)
    italy.apply({"type": "place", "units": "1 armour", "space": "Southern Europe"})
    italy.apply({"type": "place", "units": "1 destroyer", "space": "SZ 14"})
    assert {s.owner for s in italy.state.stacks("SZ 14")} == {ITA}


def buy(g: Game, units: str, place: str = "") -> int:
    """Buy; the IPCs it cost."""
    before = g.state.banks[g.state.nation]
    g.apply({"type": "purchase", "units": units, **({"at": place} if place else {})})
    return before - g.state.banks[g.state.nation]


BUILDS = {**ON, "national_builds": True}


@pytest.mark.rule("AARHE-NATBUILD-italy-regia-marina")
def test_regia_marina_one_surface_warship_a_turn_for_two_less() -> None:
    g = at(ITA, "purchase", {"Italy": "Italy: 1 factory"}, banks={ITA: 60}, options=BUILDS)
    price = {u: load_ruleset("aarhe", BUILDS).unit_cost(u).value for u in ("battleship", "destroyer", "carrier")}
    assert buy(g, "1 battleship", "Italy") == price["battleship"] - 2 == 18
    assert buy(g, "1 battleship") == 20  # the second at its price
    assert refused(g, {"type": "purchase", "units": "1 destroyer", "at": "Italy"}) == \
        "AARHE-NATBUILD-italy-regia-marina"  # once a turn, whichever ship
    for unit in ("destroyer", "carrier"):
        other = at(ITA, "purchase", {"Italy": "Italy: 1 factory"}, banks={ITA: 60}, options=BUILDS)
        assert buy(other, f"1 {unit}", "Italy") == price[unit] - 2
    # a submarine or transport is no surface warship; without the option no package at all
    fresh = at(ITA, "purchase", {"Italy": "Italy: 1 factory"}, banks={ITA: 60}, options=BUILDS)
    assert refused(fresh, {"type": "purchase", "units": "1 submarine", "at": "Italy"}) == "AARHE-PURCH-inf-at-vc"
    off = at(ITA, "purchase", {"Italy": "Italy: 1 factory"}, banks={ITA: 60}, options=ON)
    assert refused(off, {"type": "purchase", "units": "1 battleship", "at": "Italy"}) == "AARHE-PURCH-inf-at-vc"
    # bots are offered it
    offered = {a.units for a in fresh.legal_actions() if getattr(a, "at", "") == "Italy"}
    assert {"1 battleship", "1 destroyer", "1 carrier"} <= offered


@pytest.mark.rule("AARHE-ITALY-na-parity")
def test_italy_has_a_national_build_of_its_own_like_every_power() -> None:
    board = load_ruleset("aarhe", BUILDS).board
    assert set(PACKAGES) == {p.name for p in board.powers}
    italian = PACKAGES[ITA]
    assert all(set(units) <= {"battleship", "destroyer", "carrier"} for units in italian.choices)
    # it affects only Italian units: Germany buys no Regia Marina ship
    g = at(GER, "purchase", {"Germany": "Germany: 1 factory"}, banks={GER: 60}, options=BUILDS)
    assert buy(g, "1 battleship") == 20
    assert refused(g, {"type": "purchase", "units": "1 battleship", "at": "Germany"}) == "AARHE-PURCH-inf-at-vc"


@pytest.mark.rule("AARHE-AXISCOOP-separation")
def test_japanese_units_keep_apart_from_italian_ones_too() -> None:
    g = at(JAP, "non-combat-move", {"Persia": "Japan: 1 infantry", "Trans-Jordan": "Italy: 1 infantry"},
           owners={"Persia": JAP, "Trans-Jordan": ITA}, options=ON)
    move = {"type": "move", "units": "1 infantry", "path": ["Persia", "Trans-Jordan"]}
    assert refused(g, move) == "AARHE-AXISCOOP-separation"
