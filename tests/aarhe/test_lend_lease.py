"""AARHE lend-lease: the United States loads up to 12 IPCs a turn onto its transports off its coasts, 6 at most on
one transport that carries no units; they go ashore from SZ 4 or SZ 34 in a Soviet or British territory and are
that territory's income at its controller's next collection; a sunk transport's IPCs are lost; all in the open."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.economy.summary import income
from aare.engine import Game
from aare.events import BankChanged
from aare.game_log import GameLog
from aare.player_view import player_view
from aare.rulesets.aarhe.lend_lease import RECORD, aboard, delivered
from aare.scenario import scenario
from tests.aarhe.common import GER, RULES, RUS, UK, US, end_phase, refused

LL = "lend_lease"


def shipping(options: dict[str, Any] | None = None, bank: int = 30, units: dict[str, str] | None = None) -> Game:
    where = units or {"SZ 10": "United States: 2 transport"}
    return scenario(RULES, nation=US, phase="non-combat-move", round=2, banks={US: bank}, options=options,
                    clear=list(where), units=where)


def load(amount: int, sea: str = "SZ 10") -> dict[str, Any]:
    return {"type": LL, "amount": amount, "sea_zone": sea}


def ashore(sea: str, territory: str) -> dict[str, Any]:
    return {"type": LL, "sea_zone": sea, "territory": territory}



def carried(g: Game, sea: str) -> list[int]:
    return sorted(aboard(s) for s in g.state.stacks(sea) for _ in range(s.count) if s.unit == "transport")


@pytest.mark.rule("AARHE-LENDLEASE-load")
def test_the_us_loads_up_to_12_ipcs_a_turn_off_its_coasts_from_its_treasury() -> None:
    g = shipping()
    g.apply(load(6))
    assert g.state.banks[US] == 24 and carried(g, "SZ 10") == [0, 6]
    g.apply(load(6))
    assert g.state.banks[US] == 18 and carried(g, "SZ 10") == [6, 6]
    assert refused(shipping(), load(13)) == "AARHE-LENDLEASE-load"
    assert refused(g, load(1)) == "AARHE-LENDLEASE-load"  # 12 this turn already
    assert refused(shipping(bank=3), load(4)) == "AARHE-LENDLEASE-load"
    off_uk = shipping(units={"SZ 4": "United States: 1 transport"})
    assert refused(off_uk, load(4, "SZ 4")) == "AARHE-LENDLEASE-load"
    west = shipping(units={"SZ 54": "United States: 1 transport"})
    west.apply(load(5, "SZ 54"))
    british = scenario(RULES, nation=UK, phase="non-combat-move", round=2, units={"SZ 10": "United Kingdom: 1 "
                                                                                   "transport"})
    assert refused(british, load(2)) == "AARHE-LENDLEASE-load"


@pytest.mark.rule("AARHE-LENDLEASE-ap-capacity")
def test_a_transport_takes_at_most_6_ipcs_and_no_units_with_them() -> None:
    g = shipping(units={"SZ 10": "United States: 1 transport"})
    assert refused(g, load(7)) == "AARHE-LENDLEASE-ap-capacity"
    g.apply(load(4))
    assert refused(g, load(3)) == "AARHE-LENDLEASE-ap-capacity"
    g.apply(load(2))
    assert carried(g, "SZ 10") == [6]
    boarding = {"type": "load", "units": "1 infantry", "territory": "Eastern United States", "sea_zone": "SZ 10"}
    assert refused(g, boarding) == "AARHE-LENDLEASE-ap-capacity"
    # a transport with units aboard takes no lend-lease
    full = shipping(units={"SZ 10": "United States: 1 transport"})
    full.apply(boarding)
    assert refused(full, load(2)) == "AARHE-LENDLEASE-ap-capacity"


def _at(sea: str) -> Game:
    g = shipping(units={"SZ 10": "United States: 1 transport"})
    g.apply(load(6))
    boat = next(s for s in g.state.stacks("SZ 10") if aboard(s))
    units = {k: v for k, v in g.state.units.items() if k != "SZ 10"}
    units[sea] = (*g.state.stacks(sea), boat)
    return Game(GameLog(replace(g.state, units=units)))


@pytest.mark.rule("AARHE-LENDLEASE-route")
def test_lend_lease_goes_ashore_from_sz_4_or_34_in_a_soviet_or_british_territory() -> None:
    g = _at("SZ 4")
    assert refused(g, ashore("SZ 4", "Norway")) == "AARHE-LENDLEASE-route"  # not next to SZ 4, and German
    g.apply(ashore("SZ 4", "Archangel"))
    assert g.state.extra[RECORD]["ashore"] == {"Archangel": 6} and carried(g, "SZ 4") == [0]
    assert refused(g, ashore("SZ 4", "Archangel")) == "AARHE-LENDLEASE-route"  # nothing left aboard
    south = _at("SZ 34")
    south.apply(ashore("SZ 34", "Persia"))
    elsewhere = _at("SZ 3")
    assert refused(elsewhere, ashore("SZ 3", "United Kingdom")) == "AARHE-LENDLEASE-route"
    german = scenario(RULES, nation=US, phase="non-combat-move", round=2, owners={"Karelia S.S.R.": GER})
    german = Game(GameLog(replace(german.state, units=_at("SZ 4").state.units)))
    assert refused(german, ashore("SZ 4", "Karelia S.S.R.")) == "AARHE-LENDLEASE-route"


@pytest.mark.rule("AARHE-LENDLEASE-income")
def test_it_is_the_territorys_income_at_its_controllers_next_collection() -> None:
    g = _at("SZ 4")
    g.apply(ashore("SZ 4", "Archangel"))
    assert delivered(g.state, g.ruleset, RUS) == 6
    russia = Game(GameLog(replace(g.state, nation=RUS, phase="purchase")))
    bank, due = russia.state.banks[RUS], income(russia.state, russia.ruleset, RUS)
    end_phase(russia)
    bonus = [e for e in russia.log.entries[-1].events if isinstance(e, BankChanged) and e.reason == "income: "
             "lend-lease"]
    assert [(b.power, b.delta, b.rule_id) for b in bonus] == [(RUS, 6, "AARHE-LENDLEASE-income")]
    assert russia.state.banks[RUS] == bank + due and russia.state.extra[RECORD]["ashore"] == {}
    assert delivered(russia.state, russia.ruleset, RUS) == 0  # paid once
    # taken by Germany meanwhile: Germany collects it
    taken = Game(GameLog(replace(g.state, nation=GER, phase="purchase",
                                 owners={**g.state.owners, "Archangel": GER})))
    assert delivered(taken.state, taken.ruleset, GER) == 6 and delivered(taken.state, taken.ruleset, RUS) == 0
    end_phase(taken)
    assert taken.state.extra[RECORD]["ashore"] == {}


@pytest.mark.rule("AARHE-LENDLEASE-interception")
def test_sinking_the_transport_sinks_its_ipcs() -> None:
    convoy = _at("SZ 4").state.stacks("SZ 4")
    sub = scenario(RULES, nation=GER, phase="combat-move", round=2, units={"SZ 3": "Germany: 2 submarine"},
                   clear=["SZ 3", "SZ 4"], dice=[1, 1, 6, 6, 6, 6])
    sub = Game(GameLog(replace(sub.state, units={**sub.state.units, "SZ 4": convoy})), sub.dice)
    sub.apply({"type": "move", "units": "2 submarine", "path": ["SZ 3", "SZ 4"]})
    end_phase(sub)
    sub.apply({"type": "fight", "space": "SZ 4"})
    while sub.state.pending is not None:
        sub.apply(sub.legal_actions()[0])
    assert not [s for s in sub.state.stacks("SZ 4") if s.owner == US]
    assert not any(aboard(s) for stacks in sub.state.units.values() for s in stacks)
    assert (sub.state.extra.get(RECORD) or {}).get("ashore", {}) == {}


@pytest.mark.rule("AARHE-LENDLEASE-public")
def test_what_is_loaded_and_where_is_open_to_every_player() -> None:
    g = _at("SZ 4")
    for viewer in (GER, "Japan", UK):
        seen = player_view(g.state, viewer)
        boats = [s for s in seen["units"]["SZ 4"] if s["unit"] == "transport"]
        assert any(f"{LL}=6" in s.get("flags", []) for s in boats)
        assert seen["extra"][RECORD]["loaded"] == 6


@pytest.mark.rule("AARHE-LENDLEASE-advanced")
def test_advanced_lend_lease_comes_from_12_extra_ipcs_not_the_treasury() -> None:
    g = shipping({"advanced_lend_lease": True}, bank=0)
    g.apply(load(6))
    g.apply(load(6))
    assert g.state.banks[US] == 0 and carried(g, "SZ 10") == [6, 6]
    assert refused(g, load(1)) == "AARHE-LENDLEASE-load"
    assert refused(shipping(bank=0), load(6)) == "AARHE-LENDLEASE-load"  # off: from the treasury


@pytest.mark.rule("AARHE-LENDLEASE-load", "AARHE-LENDLEASE-route")
def test_lend_lease_in_text_notation() -> None:
    from aare.action_text import format_action, parse_action_text

    ruleset = shipping().ruleset
    cases = (("lend-lease 6 in SZ 10", load(6)), ("lend-lease SZ 4 -> Archangel", ashore("SZ 4", "Archangel")))
    for text, action in cases:
        assert parse_action_text(text, ruleset) == action
        assert format_action(action) == text
