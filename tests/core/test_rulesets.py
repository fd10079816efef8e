"""Rulesets as compositions: options, hooks, effects with their rule IDs, module conflicts."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.economy.summary import income
from aare.errors import MalformedInput, UnknownName
from aare.game_setup import new_game
from aare.rules.effects import Effect
from aare.rules.options import OptionSpec, parse_option_args
from aare.rules.rule_module import RuleModule
from aare.rules.ruleset import Ruleset, load_ruleset, load_spec


def _with_modules(*modules: RuleModule, **options: Any) -> Ruleset:
    spec = load_spec("lhtr-1.3")
    spec = replace(spec, modules=(*spec.modules, *modules))
    from aare.rules.options import resolve_options

    return Ruleset(spec, resolve_options(spec.option_specs, options))


def test_unknown_ruleset_and_option_are_clear_errors() -> None:
    with pytest.raises(UnknownName, match="unknown ruleset 'chess'.*lhtr-1.3"):
        load_ruleset("chess")
    with pytest.raises(UnknownName, match="unknown option.*colour"):
        load_ruleset("lhtr-1.3", {"colour": "red"})
    with pytest.raises(MalformedInput, match="KEY=VALUE"):
        parse_option_args(["victory_cities"])


@pytest.mark.rule("LHTR-VICTORY-levels")
def test_victory_level_option_defaults_to_moderate_and_is_checked() -> None:
    assert load_ruleset("lhtr-1.3").options["victory_cities"] == 9
    assert load_ruleset("lhtr-1.3", {"victory_cities": "12"}).options["victory_cities"] == 12
    with pytest.raises(MalformedInput, match="one of 8, 9, 10, 12"):
        load_ruleset("lhtr-1.3", {"victory_cities": "11"})


@pytest.mark.rule("LHTR-TURN-phase-sequence")
def test_phase_table_has_the_seven_lhtr_phases_in_order() -> None:
    names = [p.name for p in load_ruleset("lhtr-1.3").phase_table()]
    assert names == [
        "develop-weapons", "purchase", "combat-move", "conduct-combat",
        "non-combat-move", "mobilize", "collect-income",
    ]


@pytest.mark.rule("LHTR-TURN-research-optional-phase")
def test_without_weapons_development_the_phase_is_skipped() -> None:
    ruleset = load_ruleset("lhtr-1.3", {"weapons_development": "false"})
    assert ruleset.phase_table()[0].name == "purchase"
    assert new_game("lhtr-1.3", {"weapons_development": False}, seed=1).state.phase == "purchase"


@pytest.mark.rule("LHTR-TURN-power-order", "LHTR-TURN-alliances")
def test_powers_turn_order_and_sides() -> None:
    board = load_ruleset("lhtr-1.3").board
    assert [p.name for p in board.powers] == ["Russia", "Germany", "United Kingdom", "Japan", "United States"]
    assert {p.name for p in board.powers if p.side == "Axis"} == {"Germany", "Japan"}


# A module written for this test: it proves every hook kind plugs in without the core knowing it.
def _cheap_bombers(catalogue: Any, **_: Any) -> Any:
    return catalogue.with_overrides({"bomber": {"cost": 14}})


def _war_bonds(value: int, power: str, **_: Any) -> int:
    return value + 5 if power == "United States" else value


def _extra_city(cities: dict[str, str], **_: Any) -> dict[str, str]:
    return {**cities, "Egypt test": "Cairo"}


def _mark_state(state: Any, **_: Any) -> Any:
    return replace(state, extra={**state.extra, "test-module": "set up"})


TEST_MODULE = RuleModule(
    id="test-module",
    title="hook test",
    hooks={
        "unit_catalogue": _cheap_bombers,
        "income": _war_bonds,
        "victory_cities": _extra_city,
        "initial_state": _mark_state,
    },
    effects=(
        Effect("cost", "infantry", "add", -1, "TEST-cheap-infantry", "conscription",
               requires=lambda ctx: ctx.get("power") == "Russia"),
    ),
)


def test_modules_plug_into_named_hooks() -> None:
    ruleset = _with_modules(TEST_MODULE)
    assert ruleset.units["bomber"].cost == 14
    assert ruleset.unit_cost("bomber").value == 14
    assert "Egypt test" in ruleset.victory_cities()
    state = new_game("lhtr-1.3", seed=1).state
    assert income(state, ruleset, "United States") == 47
    assert income(state, ruleset, "Japan") == 30
    assert ruleset.modify("initial_state", state).extra["test-module"] == "set up"


def test_effects_explain_their_rule_ids() -> None:
    ruleset = _with_modules(TEST_MODULE)
    russian = ruleset.unit_cost("infantry", power="Russia")
    assert russian.value == 2
    assert russian.steps == (("LHTR-UNITS-infantry", "3 base"), ("TEST-cheap-infantry", "-1 conscription"))
    assert "TEST-cheap-infantry" in russian.explain()
    assert ruleset.unit_cost("infantry", power="Germany").value == 3


def test_optional_modules_switch_on_by_option_and_conflicts_are_rejected() -> None:
    optional = RuleModule(id="opt", title="optional", option="use_opt", effects=(
        Effect("cost", "armour", "set", 6, "TEST-armour"),))
    assert _with_modules(optional).unit_cost("armour").value == 5
    assert _with_modules(optional, use_opt=True).unit_cost("armour").value == 6
    clash = RuleModule(id="clash", title="clash", conflicts=("lhtr",))
    with pytest.raises(UnknownName, match="cannot be used together"):
        _with_modules(clash)
    with pytest.raises(ValueError, match="unknown hook"):
        RuleModule(id="bad", title="bad", hooks={"no_such_hook": lambda v, **_: v})


def test_option_spec_parsing() -> None:
    spec = OptionSpec("n", int, 1, "a number", minimum=0)
    assert spec.parse("3") == 3
    with pytest.raises(MalformedInput):
        spec.parse("-1")
    with pytest.raises(MalformedInput):
        OptionSpec("b", bool, False, "flag").parse("maybe")


def test_a_ruleset_is_remembered_per_options_as_given() -> None:
    from aare.rules.ruleset import load_ruleset

    plain = load_ruleset("lhtr-1.3")
    assert load_ruleset("lhtr-1.3", {}) is plain
    assert load_ruleset("lhtr-1.3", dict(plain.options)) is plain  # the defaults, written out
    nine, ten = load_ruleset("lhtr-1.3", {"victory_cities": "9"}), load_ruleset("lhtr-1.3", {"victory_cities": 10})
    assert nine is plain and ten.options["victory_cities"] == 10
    assert load_ruleset("lhtr-1.3", {"victory_cities": 10}) is ten
    with pytest.raises(UnknownName, match="no_such_option"):
        load_ruleset("lhtr-1.3", {"no_such_option": [1]})  # a value that cannot be a key: resolved, and refused


def test_threads_asking_for_the_families_at_once_all_see_them_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's first requests ask on several threads at once: none may see a half-loaded registry."""
    import threading
    import time
    from pathlib import Path

    from aare.rules import registry

    class SlowPoint:
        name = "slow"

        def load(self) -> None:
            time.sleep(0.2)  # the import takes a while; a family's import may ask again
            registry.load_families()
            registry.register_family(registry.Family("slow-test-family", "Slow", Path(".")))

    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "entry_points", lambda group: [SlowPoint()])
    monkeypatch.setattr(registry, "_FAMILIES", {})
    seen: list[set[str]] = []
    threads = [threading.Thread(target=lambda: seen.append(set(registry.families()))) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [{"slow-test-family"}] * 6
