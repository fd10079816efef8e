"""AARHE blockade and convoys: income stored only by a passable path to the capital, overland at once or by convoy
at the next collection less the convoy attacks; income with no path lost; units placed only where the store's IPCs
reach; convoy routes entering the sea at or next to the source, the fewest sea zones or one more; secret until
revealed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.economy.summary import base_income, income
from aare.engine import Game
from aare.events import BankChanged, DiceRolled
from aare.game_log import GameLog
from aare.player_view import player_view
from aare.rulesets.aarhe.blockade import (
    CONVOYS,
    REVEALED,
    coast,
    entry_zones,
    land_reach,
    passable,
    route_allowed,
    routes,
    seat,
    shortest,
)
from aare.scenario import scenario
from tests.aarhe.common import GER, JAP, RULES, RUS, UK, end_phase, refused

CUT_OFF = {"Sinkiang": JAP}  # Ürümqi in Japanese hands: no passable neighbour, no coast


def at(power: str, phase: str = "purchase", **kwargs: Any) -> Game:
    return scenario(RULES, nation=power, phase=phase, round=2, **kwargs)


def convoy_events(g: Game) -> tuple[list[int], list[int]]:
    """The dice of the convoy attacks and the convoy payments in the last entry."""
    events = g.log.entries[-1].events
    dice = [v for e in events if isinstance(e, DiceRolled) and "convoy attack" in e.purpose for v in e.values]
    paid = [e.delta for e in events if isinstance(e, BankChanged) and e.reason == "income: convoy"]
    return dice, paid


@pytest.mark.rule("AARHE-INCOME-passable-path")
def test_a_passable_path_goes_through_land_the_side_controls() -> None:
    g = at(RUS, owners={"Persia": UK})
    state, ruleset = g.state, g.ruleset
    assert passable(state, ruleset, RUS, "Archangel") and passable(state, ruleset, RUS, "Persia")  # an ally's
    assert not passable(state, ruleset, RUS, "West Russia")  # German
    assert not passable(state, ruleset, RUS, "Sweden") and not passable(state, ruleset, RUS, "Himalaya")  # neutral
    assert not passable(state, ruleset, RUS, "SZ 4")  # a sea zone is a convoy's, not a land path
    reach = land_reach(state, ruleset, GER, ["Germany"])
    assert "Eastern Europe" in reach and "Russia" not in reach


@pytest.mark.rule("AARHE-INCOME-store-path", "AARHE-CONVOY-definition")
def test_income_is_stored_overland_by_convoy_or_not_at_all() -> None:
    g = at(JAP, owners=CUT_OFF)
    found = routes(g.state, g.ruleset, JAP)
    assert found["Japan"][0] == "land"
    assert found["Manchuria"] == ("convoy", ["SZ 61"])
    assert found["Sinkiang"] == ("forfeit", [])
    uk = routes(g.state, g.ruleset, UK)
    assert uk["Australia"][0] == "convoy" and uk["United Kingdom"][0] == "land"
    assert routes(g.state, g.ruleset, RUS)["Caucasus"] == ("land", [])


@pytest.mark.rule("AARHE-INCOME-forfeit", "AARHE-INCOME-store-path")
def test_income_with_no_path_is_lost_and_convoys_come_next_time() -> None:
    g = at(JAP, owners=CUT_OFF)
    found = routes(g.state, g.ruleset, JAP)
    overland = sum(g.ruleset.board.spaces[t].ipc for t, (how, _) in found.items() if how == "land")
    at_sea = sum(g.ruleset.board.spaces[t].ipc for t, (how, _) in found.items() if how == "convoy")
    assert income(g.state, g.ruleset, JAP) == overland < base_income(g.state, g.ruleset, JAP)
    bank = g.state.banks[JAP]
    end_phase(g)  # collect income: the land income now, the convoys recorded, Sinkiang's 2 lost
    assert g.state.banks[JAP] == bank + overland
    sailing = g.state.extra[CONVOYS][JAP]
    assert sum(c["ipc"] for c in sailing) == at_sea and "Sinkiang" not in [c["from"] for c in sailing]
    # the next collection pays them (no hostile warships on the way)
    later = Game(GameLog(replace(g.state, round=3, phase="purchase")))
    bank = later.state.banks[JAP]
    end_phase(later)
    assert convoy_events(later) == ([], [at_sea])
    assert later.state.banks[JAP] == bank + overland + at_sea


@pytest.mark.rule("AARHE-INCOME-spend-path")
def test_units_go_only_where_the_stores_ipcs_reach() -> None:
    g = at(JAP, owners=CUT_OFF, units={"Sinkiang": "Japan: 1 industrial complex"}, banks={JAP: 50})
    assert refused(g, {"type": "purchase", "units": "1 infantry", "at": "Sinkiang"}) == "AARHE-INCOME-spend-path"
    g.apply({"type": "purchase", "units": "2 armour"})
    g = Game(GameLog(replace(g.state, phase="mobilize")))
    assert refused(g, {"type": "place", "units": "1 armour", "space": "Sinkiang"}) == "AARHE-INCOME-spend-path"
    g.apply({"type": "place", "units": "1 armour", "space": "Japan"})
    # by convoy the IPCs reach a coast: Manchuria takes infantry
    g = at(JAP, banks={JAP: 50})
    g.apply({"type": "purchase", "units": "1 infantry", "at": "Manchuria"})


@pytest.mark.rule("AARHE-CONVOY-entry")
def test_a_convoy_enters_the_sea_at_its_source_or_next_to_it() -> None:
    near = at(GER, owners={"Kazakh S.S.R.": GER, "Persia": GER})
    assert entry_zones(near.state, near.ruleset, GER, "Kazakh S.S.R.") == {"SZ 34"}  # through Persia
    assert routes(near.state, near.ruleset, GER)["Kazakh S.S.R."][0] == "convoy"
    far = at(GER, owners={"Novosibirsk": GER, "Kazakh S.S.R.": GER, "Persia": GER})
    assert entry_zones(far.state, far.ruleset, GER, "Novosibirsk") == set()  # Persia's coast is two away
    assert routes(far.state, far.ruleset, GER)["Novosibirsk"] == ("forfeit", [])


def _walks(ruleset: Any, starts: set[str], ends: set[str], length: int) -> list[list[str]]:
    """Routes of exactly `length` sea zones, each zone once."""
    spaces = ruleset.board.spaces
    found: list[list[str]] = []

    def go(path: list[str]) -> None:
        if len(found) > 3:
            return
        if len(path) == length:
            if path[-1] in ends:
                found.append(path)
            return
        for n in sorted(spaces[path[-1]].neighbors):
            if spaces[n].is_sea and n not in path:
                go([*path, n])

    for start in sorted(starts):
        go([start])
    return found


@pytest.mark.rule("AARHE-CONVOY-length")
def test_australia_to_the_united_kingdom_sails_8_or_9_sea_zones_not_10() -> None:
    g = at(UK)
    starts = entry_zones(g.state, g.ruleset, UK, "Australia")
    ends = coast(g.ruleset, seat(g.state, g.ruleset, UK))
    assert shortest(g.ruleset, starts, ends) == 8
    assert len(routes(g.state, g.ruleset, UK)["Australia"][1]) == 8
    for length, allowed in ((8, True), (9, True), (10, False)):
        walks = _walks(g.ruleset, starts, ends, length)
        assert walks and all(route_allowed(g.ruleset, w, starts, ends) == allowed for w in walks)


@pytest.mark.rule("AARHE-CONVOY-length")
def test_a_route_past_fewer_warships_is_taken_when_one_zone_longer() -> None:
    plain = routes(at(UK).state, at(UK).ruleset, UK)["Australia"][1]
    assert "SZ 41" in plain and len(plain) == 8
    g = at(UK, units={"SZ 41": "Germany: 1 destroyer"})
    detour = routes(g.state, g.ruleset, UK)["Australia"][1]
    assert "SZ 41" not in detour and len(detour) == 9


def _sailing(*convoys: tuple[str, int, list[str]], dice: list[int], units: dict[str, str]) -> Game:
    g = scenario(RULES, nation=UK, phase="purchase", round=3, dice=dice, units=units, clear=list(units))
    record = {UK: [{"from": t, "ipc": n, "zones": z} for t, n, z in convoys]}
    return Game(GameLog(replace(g.state, extra={**g.state.extra, CONVOYS: record})), g.dice)


@pytest.mark.rule("AARHE-CONVOY-attack-roll")
@pytest.mark.parametrize(("roll", "paid"), [(2, 4), (3, 4), (4, 5)])
def test_each_hostile_warship_but_transports_rolls_3_or_less_sinks_1_ipc(roll: int, paid: int) -> None:
    g = _sailing(("Anglo Egypt", 5, ["SZ 12"]), dice=[roll], units={"SZ 12": "Germany: 1 submarine, 1 transport"})
    end_phase(g)
    assert convoy_events(g) == ([roll], [paid])  # one die: the transport does not roll
    lost = g.state.extra[REVEALED][UK][0]["lost"]
    assert lost == 5 - paid


@pytest.mark.rule("AARHE-CONVOY-loss-allocation")
def test_losses_in_a_zone_fall_on_the_fullest_convoys_there() -> None:
    g = _sailing(("Anglo Egypt", 3, ["SZ 12"]), ("Kenya", 2, ["SZ 17", "SZ 12"]), ("Persia", 4, ["SZ 15"]),
                 dice=[1, 1], units={"SZ 12": "Germany: 2 submarine"})
    end_phase(g)
    shown = {c["from"]: c["lost"] for c in g.state.extra[REVEALED][UK]}
    assert shown == {"Anglo Egypt": 2, "Kenya": 0, "Persia": 0}
    assert convoy_events(g) == ([1, 1], [7])
    # losses never exceed what sails through the zone
    g = _sailing(("Kenya", 1, ["SZ 12"]), dice=[1, 1, 1], units={"SZ 12": "Germany: 3 submarine"})
    end_phase(g)
    assert g.state.extra[REVEALED][UK][0]["lost"] == 1 and convoy_events(g)[1] == []


@pytest.mark.rule("AARHE-CONVOY-record-reveal")
def test_convoys_are_secret_until_the_next_collection_reveals_them() -> None:
    g = at(UK)
    end_phase(g)
    assert g.state.extra[CONVOYS][UK]
    assert player_view(g.state, GER)["extra"][CONVOYS][UK] == "hidden"
    assert player_view(g.state, UK)["extra"][CONVOYS][UK] == g.state.extra[CONVOYS][UK]
    sailing = g.state.extra[CONVOYS][UK]
    later = Game(GameLog(replace(g.state, round=3, phase="purchase")))
    end_phase(later)
    revealed = player_view(later.state, GER)["extra"][REVEALED][UK]
    assert [(c["from"], c["ipc"], c["zones"]) for c in revealed] == [(c["from"], c["ipc"], c["zones"])
                                                                      for c in sailing]
