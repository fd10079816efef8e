"""AARHE special terrain in movement: stopping terrain, no blitz through it, the impassable Himalaya, miniature
territories, the Balkans-Turkey connection and the Black Sea closed without Turkey."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import yaml

from aare.movement.situation import Situation
from aare.rulesets.aarhe.terrain import TERRAIN
from aare.scenario import load_ruleset
from tests.aarhe.move_common import at
from tests.movement.helpers import move, mv, rejected, units_in


@contextmanager
def turkey_kept_out() -> Iterator[None]:
    """Land units may not enter the neutral Turkey in combat move (as a rule refusing it would say), so only the
    closed Black Sea decides."""
    with pytest.MonkeyPatch.context() as monkey:
        monkey.setattr(Situation, "refused", lambda self: {"Turkey": ("kept out", "test")})
        yield


R_TABLE, R_STOP, R_NO_BLITZ = "AARHE-TERRAIN-table", "AARHE-TERRAIN-stop", "AARHE-TERRAIN-no-blitz"
R_EXTREME, R_BALKANS = "AARHE-TERRAIN-extreme-impassable", "AARHE-TERRAIN-balkans-turkey"
R_BLACK, R_MINI = "AARHE-TERRAIN-black-sea", "AARHE-TERRAIN-miniature-cap"
LEDGER = "/work/shared/rules/aarhe.yaml"


@pytest.mark.rule(R_TABLE)
def test_terrain_table_matches_the_seed() -> None:
    try:
        with open(LEDGER, encoding="utf-8") as f:
            items = {i["id"]: i for i in yaml.safe_load(f)}
    except OSError:
        pytest.skip("the rule ledger is not at hand")
    table = items[R_TABLE]["rule"]
    for kind in ("desert", "snowy", "mountainous", "miniature"):
        assert list(TERRAIN[kind]) == table[kind]
    assert TERRAIN["extreme"] == ("Himalaya",)  # the seed's "Himalayas"
    board = load_ruleset("aarhe").board
    named = [t for names in TERRAIN.values() for t in names if t != "Malta"]  # Malta: Italy-player map only
    assert all(board.resolve(t) == t for t in named)


@pytest.mark.rule(R_STOP)
def test_armour_entering_mountains_stops_there() -> None:
    game = at("United Kingdom", "non-combat-move", {"India": "United Kingdom: 1 armour"})
    rejected(game, mv("1 armour", "India", "Persia", "Trans-Jordan"), R_STOP, "must stop there")
    move(game, "1 armour", "India", "Persia")
    rejected(game, mv("1 armour", "Persia", "Trans-Jordan"), R_STOP, "movement ended there")
    plain = at("United Kingdom", "non-combat-move", {"Anglo Egypt": "United Kingdom: 1 armour"})
    move(plain, "1 armour", "Anglo Egypt", "Trans-Jordan", "Persia")
    assert units_in(plain, "Persia") == {"armour": 1}


@pytest.mark.rule(R_NO_BLITZ, R_STOP)
def test_no_blitz_through_mountains() -> None:
    units = {"Caucasus": "Germany: 2 armour", "Trans-Jordan": "United Kingdom: 1 infantry"}
    game = at("Germany", "combat-move", units, owners={"Caucasus": "Germany"})
    rejected(game, mv("1 armour", "Caucasus", "Persia", "Trans-Jordan"), R_NO_BLITZ, "cannot blitz through Persia")
    move(game, "1 armour", "Caucasus", "Persia")
    assert units_in(game, "Persia") == {"armour": 1}
    lhtr = at("Germany", "combat-move", units, owners={"Caucasus": "Germany"}, rules="lhtr-1.3")
    move(lhtr, "1 armour", "Caucasus", "Persia", "Trans-Jordan")


@pytest.mark.rule(R_EXTREME)
def test_land_units_never_enter_the_himalaya() -> None:
    game = at("United Kingdom", "non-combat-move", {"India": "United Kingdom: 1 infantry"})
    rejected(game, mv("1 infantry", "India", "Himalaya"), R_EXTREME, "extreme terrain")


@pytest.mark.rule(R_BALKANS)
def test_balkans_and_turkey_are_adjacent() -> None:
    assert "Turkey" in load_ruleset("aarhe").board.spaces["Balkans"].neighbors
    assert "Turkey" not in load_ruleset("lhtr-1.3").board.spaces["Balkans"].neighbors
    game = at("Germany", "non-combat-move", {"Balkans": "Germany: 1 infantry"})
    rejected(game, mv("1 infantry", "Balkans", "Turkey"), "AARHE-DIPLO-land-entry")  # not adjacency


@pytest.mark.rule(R_BLACK)
def test_black_sea_entered_and_left_only_holding_turkey() -> None:
    units = {"SZ 15": "Germany: 1 destroyer", "SZ 16": "Germany: 1 destroyer"}
    game = at("Germany", "non-combat-move", units)
    rejected(game, mv("1 destroyer", "SZ 15", "SZ 16"), R_BLACK, "Turkey")
    rejected(game, mv("1 destroyer", "SZ 16", "SZ 14"), R_BLACK, "Turkey")
    held = at("Germany", "non-combat-move", units, owners={"Turkey": "Germany"})
    move(held, "1 destroyer", "SZ 15", "SZ 16")
    move(held, "1 destroyer", "SZ 16", "SZ 14")


@pytest.mark.rule(R_BLACK, "LHTR-TRANSPORT-cm-load-must-assault")
def test_units_board_in_the_black_sea_in_combat_move_only_for_an_assault_on_its_coast() -> None:
    """Without Turkey the transport cannot sail on to Trans-Jordan, which it could reach by two sea zones: units
    boarding it in combat move need an enemy territory on the Black Sea itself (found by self-play: the load was
    legal, then no move let them ashore and combat move could not end)."""
    units = {"SZ 16": "Germany: 1 transport", "Ukraine S.S.R.": "Germany: 1 infantry"}
    load = {"type": "load", "units": "1 infantry", "territory": "Ukraine S.S.R.", "sea_zone": "SZ 16"}
    coast_held = at("Germany", "combat-move", units, owners={"Caucasus": "Germany"})
    coast_held.apply(load)  # the neutral Turkey, on the Black Sea, may be assaulted (AARHE-DIPLO-attack)
    with turkey_kept_out():
        rejected(at("Germany", "combat-move", units, owners={"Caucasus": "Germany"}), load, R_BLACK, "Black Sea")
    coast_enemy = at("Germany", "combat-move", units)  # the Soviet Union holds the Caucasus
    coast_enemy.apply(load)
    with_turkey = at("Germany", "combat-move", units, owners={"Caucasus": "Germany", "Turkey": "Germany"})
    with_turkey.apply(load)  # the transport may sail on, to Trans-Jordan
    held_ncm = at("Germany", "non-combat-move", units, owners={"Caucasus": "Germany"})
    held_ncm.apply(load)  # no assault is asked of units loaded in non-combat move


@pytest.mark.rule(R_BLACK, "LHTR-TRANSPORT-cm-load-must-assault")
def test_units_board_outside_the_black_sea_in_combat_move_only_for_a_coast_reached_without_it() -> None:
    """A transport by Trans-Jordan whose only enemy coast in reach lies on the Black Sea: without Turkey it cannot
    get there, so units may not board it in combat move (found by self-play: the load was legal, then no move let
    them ashore and combat move could not end)."""
    from aare.movement.graph import graph_of

    graph = graph_of(load_ruleset("aarhe").board)
    near = {z for z, d in graph.ball("SZ 15", 2, lambda s: graph.sea_nbrs.get(s, ())).items() if z != "SZ 16"}
    allied = {t: "United Kingdom" for z in near for t in graph.coast[z]}  # every coast but the Black Sea's
    units = {"SZ 15": "United Kingdom: 1 transport", "Anglo Egypt": "United Kingdom: 1 infantry"}
    load = {"type": "load", "units": "1 infantry", "territory": "Anglo Egypt", "sea_zone": "SZ 15"}
    allied.pop("Turkey")  # the neutral
    sealed = at("United Kingdom", "combat-move", units, owners=allied)  # Ukraine and the Caucasus: German
    sealed.apply(load)  # an assault on the neutral Turkey (AARHE-DIPLO-attack)
    with turkey_kept_out():
        sealed = at("United Kingdom", "combat-move", units, owners=allied)
        rejected(sealed, load, "LHTR-TRANSPORT-cm-load-must-assault", "no enemy coast")
    open_straits = at("United Kingdom", "combat-move", units, owners={**allied, "Turkey": "United Kingdom"})
    open_straits.apply(load)


@pytest.mark.rule(R_MINI)
def test_miniature_territory_holds_three_units_of_a_side() -> None:
    owners = {"Western Europe": "United Kingdom"}
    units = {"Western Europe": "United Kingdom: 2 fighters", "Gibraltar": "United Kingdom: 2 infantry"}
    full = at("United Kingdom", "non-combat-move", {**units, "Gibraltar": "United Kingdom: 2 infantry;"
                                                    "United States: 1 infantry"}, owners=owners)
    rejected(full, mv("1 fighter", "Western Europe", "SZ 13", "Gibraltar"), R_MINI, "3 units there at most")
    room = at("United Kingdom", "non-combat-move", units, owners=owners)
    rejected(room, mv("2 fighters", "Western Europe", "SZ 13", "Gibraltar"), R_MINI, "2 moving in")
    move(room, "1 fighter", "Western Europe", "SZ 13", "Gibraltar")
    assert units_in(room, "Gibraltar") == {"infantry": 2, "fighter": 1}
