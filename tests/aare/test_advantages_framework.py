"""The national-advantage framework: records, registry, the declare/place actions, effects applied only while
an NA is in force, the game option, and `aare show`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aare.action_text import format_action, parse_action_text
from aare.actions import DeclareAdvantage, PlaceFree, action_schema, parse_action
from aare.cli.main import cli
from aare.economy.summary import summary
from aare.engine import Game
from aare.errors import UnknownName
from aare.game_log import save_log
from aare.game_setup import new_game
from aare.rules.effects import Effect
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aare.advantages.base import Advantage, FreeUnits, advantage, advantages_of, all_advantages
from aare.rulesets.aare.modules.advantages import _guarded
from tests.aare.common import GER, JPN, RULES, RUS, UK, US

NO_BID = {"straight_bid": False}  # play starts with Russia's round-1 turn


def test_every_nation_has_its_six_advantages() -> None:
    for nation in (RUS, GER, UK, JPN, US):
        listed = advantages_of(nation)
        assert [a.number for a in listed] == [1, 2, 3, 4, 5, 6]
    assert len(all_advantages()) == 30
    assert advantage("siberian_conscripts").title == "Siberian Conscripts"
    with pytest.raises(UnknownName):
        advantage("lebensraum")


def test_advantage_record_checks_its_timing() -> None:
    with pytest.raises(ValueError):
        Advantage("x", RUS, 1, "X", timing="sometimes")  # type: ignore[arg-type]
    grant = FreeUnits((("infantry", 1),), ("Russia",), "AARE-NA-RUS-sib-free-inf", every_turn=True)
    assert Advantage("x", RUS, 1, "X", timing="per_turn", free_units=(grant,)).free_units[0].every_turn


def test_actions_have_a_json_form_and_text_notation() -> None:
    ruleset = load_ruleset(RULES)
    declare = parse_action({"type": "declare_advantage", "advantage": "russian_winter"})
    assert isinstance(declare, DeclareAdvantage)
    assert parse_action_text("declare russian_winter", ruleset) == declare.to_json()
    assert format_action(declare.to_json()) == "declare russian_winter"
    text = "free siberian_conscripts: 1 infantry in Bury"
    placed = parse_action_text(text, ruleset)
    assert placed == {"type": "place_free", "advantage": "siberian_conscripts", "units": "1 infantry",
                      "space": "Buryatia S.S.R."}
    assert isinstance(parse_action(placed), PlaceFree)
    assert parse_action_text(format_action(placed), ruleset) == placed
    kinds = json.dumps(action_schema())
    assert "declare_advantage" in kinds and "place_free" in kinds


def test_effects_apply_only_while_the_advantage_is_in_force() -> None:
    adv = Advantage("test_cheap_subs", GER, 7, "Cheap subs",
                    effects=(Effect("cost", "submarine", "add", -1, "AARE-NA-GER-wp-sub-discount", "test"),))
    guarded = _guarded(adv, adv.effects[0])
    game = Game(new_game(RULES, NO_BID, seed=1))
    state = game.state
    assert not guarded.applies("cost", "submarine", {"power": GER, "state": state})
    declared = {"advantages": {"declared": {GER: [{"id": "test_cheap_subs", "round": 1, "phase": "purchase",
                                                    "delayed": False}]}}}
    from dataclasses import replace

    state = replace(state, extra={**state.extra, **declared})
    assert guarded.applies("cost", "submarine", {"power": GER, "state": state})
    assert not guarded.applies("cost", "submarine", {"power": JPN, "state": state})
    assert not guarded.applies("cost", "submarine", {"power": GER})


def test_the_ruleset_offers_an_option_to_play_without_advantages() -> None:
    game = Game(new_game(RULES, {**NO_BID, "national_advantages": False}, seed=1))
    assert not [a for a in game.legal_actions() if a.type == "declare_advantage"]
    game.apply({"type": "end_phase"})
    assert game.state.phase == "purchase"


def test_lhtr_has_no_advantages() -> None:
    game = Game(new_game("lhtr-1.3", seed=1))
    assert not [a for a in game.legal_actions() if a.type == "declare_advantage"]
    assert not game.is_legal({"type": "declare_advantage", "advantage": "russian_winter"})
    assert summary(game.state)["nations"][RUS]["advantages"] == []


def test_show_lists_each_nations_advantages(tmp_path: Path) -> None:
    game = Game(new_game(RULES, NO_BID, seed=1))
    game.apply({"type": "declare_advantage", "advantage": "russian_t34s"})
    assert summary(game.state)["nations"][RUS]["advantages"] == ["russian_t34s"]
    path = tmp_path / "game.json"
    save_log(game.log, path)
    shown = CliRunner().invoke(cli, ["show", str(path)], terminal_width=240)
    assert shown.exit_code == 0, shown.output
    assert "russian_t34s" in shown.output and "advantages" in shown.output
