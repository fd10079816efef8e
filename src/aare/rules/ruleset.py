"""A ruleset: a versioned id, a board, a unit catalogue, ordered rule modules and typed options.

Ruleset files live in a family's `data/rulesets/<id>.toml` (see `aare.rules.registry`); `load_ruleset(id,
options)` composes one. The core asks
the ruleset for values through named hooks (`modify`) and effects (`value`), never by testing its id.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from aare.board.board import Board, apply_changes, load_board
from aare.board.units import UnitCatalogue, load_units
from aare.errors import DataFileError, UnknownName
from aare.rules.effects import Effect, Explained, modify_value
from aare.rules.options import OptionSpec, OptionValue, resolve_options
from aare.rules.registry import data_file, data_names
from aare.rules.rule_module import RuleModule, registered_modules
from aare.rules.turns import PhaseSpec, TurnOrder


@dataclass(frozen=True)
class RulesetSpec:
    """What a ruleset file says: which board, units and modules."""

    id: str
    title: str
    board: str
    units: str
    modules: tuple[RuleModule, ...]
    path: str
    setup: str | None = None  # the board's set-up (scenario) for a board file with several
    board_changes: str | None = None  # data/board_changes/<name>.toml applied to the board (apply_changes)
    # the parts of the source rules, each with whether the ruleset implements it (a file's [[part]] tables)
    parts: tuple[tuple[str, bool], ...] = ()

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        specs: dict[str, OptionSpec] = {}
        for module in self.modules:
            if module.option and module.option not in specs:
                specs[module.option] = OptionSpec(
                    module.option, bool, False, f"use the optional rule: {module.title}"
                )
            for spec in module.options:
                specs[spec.key] = spec
            for key in module.replaces_options:
                specs.pop(key, None)
        return tuple(specs.values())


class Ruleset:
    """A ruleset with its options chosen: the board, units, active modules and hooks of one game."""

    def __init__(self, spec: RulesetSpec, options: Mapping[str, OptionValue]) -> None:
        self.spec = spec
        self.id = spec.id
        self.title = spec.title
        self.options = dict(options)
        self.modules = tuple(m for m in spec.modules if m.option is None or self.options.get(m.option))
        self._hooks: dict[str, tuple[Callable[..., Any], ...]] = {}
        active = {m.id for m in self.modules}
        for module in self.modules:
            for other in module.conflicts:
                if other in active:
                    raise UnknownName(f"rule modules {module.id} and {other} cannot be used together")
            for other in module.requires:
                if other not in active:
                    raise UnknownName(f"rule module {module.id} needs module {other}")
        self.effects: tuple[Effect, ...] = tuple(e for m in self.modules for e in m.effects)
        self.own_rule_ids: dict[str, str] = self.modify("rule_ids", {})
        self.log_rule_ids: dict[str, str] = self.modify("log_rule_ids", {})
        base_units = load_units(data_file("units", spec.units))
        self.units: UnitCatalogue = self.modify("unit_catalogue", base_units)
        changes: tuple[str, ...] = self.modify("board_changes", (spec.board_changes,) if spec.board_changes else ())
        self.board: Board = _board(spec.board, spec.units, spec.setup, changes)

    def modify(self, hook: str, value: Any, **context: Any) -> Any:
        """Fold every active module's `hook` over `value`, in module order."""
        fns = self._hooks.get(hook)
        if fns is None:  # the modules that have it, found once per hook
            fns = self._hooks[hook] = tuple(fn for m in self.modules if (fn := m.hooks.get(hook)) is not None)
        for fn in fns:
            value = fn(value, ruleset=self, **context)
        return value

    def rule_id(self, rule_id: str) -> str:
        """The ruleset's own ledger id for the core rule `rule_id` (the ``rule_ids`` hook), else `rule_id`."""
        return self.own_rule_ids.get(rule_id, rule_id)

    def logged_rule_id(self, rule_id: str) -> str:
        """The id events and pending decisions name for the core rule `rule_id` (the ``log_rule_ids`` hook)."""
        return self.log_rule_ids.get(rule_id, rule_id)

    def value(self, kind: str, subject: str, base: int, base_source: str = "", **context: Any) -> Explained:
        """A number after every matching effect, with where each change came from."""
        return modify_value(base, base_source, kind, subject, self.effects, {"ruleset": self, **context})

    def unit_cost(self, unit: str, **context: Any) -> Explained:
        unit_type = self.units[unit]
        return self.value("cost", unit, unit_type.cost, unit_type.rule, **context)

    def phase_table(self) -> list[PhaseSpec]:
        """The phases of a turn, in order."""
        table: list[PhaseSpec] = self.modify("phase_table", [])
        return table

    def phase_spec(self, name: str) -> PhaseSpec | None:
        return next((p for p in self.phase_table() if p.name == name), None)

    def turn_order(self, round_: int = 1) -> TurnOrder:
        """The turns of round `round_`: by default each power of the board alone, in the board's order; the
        `turn_order` hook may group powers into team turns or change the order of a round. Powers played by
        another power's player keep turns of their own."""
        default = TurnOrder.one_power_each(p.name for p in self.board.powers)
        order: TurnOrder = self.modify("turn_order", default, round=round_)
        return order

    def victory_cities(self) -> dict[str, str]:
        result: dict[str, str] = self.modify("victory_cities", self.board.victory_cities())
        return result

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "board": self.board.id,
            "modules": [m.id for m in self.modules],
            "options": self.options,
            **({"parts": [{"name": n, "present": p} for n, p in self.spec.parts]} if self.spec.parts else {}),
        }


def available_rulesets() -> list[str]:
    return data_names("rulesets")


@cache
def load_spec(ruleset_id: str) -> RulesetSpec:
    registered_modules()  # loads the installed families
    if ruleset_id not in available_rulesets():
        known = ", ".join(available_rulesets())
        raise UnknownName(f"unknown ruleset {ruleset_id!r} (available: {known})")
    path = data_file("rulesets", ruleset_id)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(str(path), "<file>", str(exc)) from None
    modules = registered_modules()
    chosen = []
    for name in raw.get("modules", []):
        if name not in modules:
            raise DataFileError(str(path), "modules", f"unknown rule module {name!r}")
        chosen.append(modules[name])
    for key in ("id", "title", "board", "units"):
        if not isinstance(raw.get(key), str):
            raise DataFileError(str(path), key, "expected a string")
    if raw["id"] != ruleset_id:
        raise DataFileError(str(path), "id", f"file declares {raw['id']!r}, expected {ruleset_id!r}")
    setup = raw.get("setup")
    if setup is not None and not isinstance(setup, str):
        raise DataFileError(str(path), "setup", "expected a string: the board's set-up (scenario) to play")
    changes = raw.get("board_changes")
    if changes is not None:
        if not isinstance(changes, str):
            raise DataFileError(str(path), "board_changes", "expected a string: the board changes file to apply")
        try:
            data_file("board_changes", changes)
        except UnknownName as exc:
            raise DataFileError(str(path), "board_changes", str(exc)) from None
    return RulesetSpec(
        raw["id"], raw["title"], raw["board"], raw["units"], tuple(chosen), str(path), setup, changes,
        _parts(str(path), raw.get("part", [])),
    )


def _parts(path: str, raw: Any) -> tuple[tuple[str, bool], ...]:
    """The `[[part]]` tables of a ruleset file: `name` and `present` (whether the ruleset implements it)."""
    if not isinstance(raw, list):
        raise DataFileError(path, "part", "expected [[part]] tables")
    parts = []
    for i, part in enumerate(raw):
        if not isinstance(part, dict) or not isinstance(part.get("name"), str) or not isinstance(
                part.get("present"), bool):
            raise DataFileError(path, f"part[{i}]", "expected name = \"...\" and present = true/false")
        parts.append((part["name"], part["present"]))
    return tuple(parts)


_BY_GIVEN: dict[tuple[str, tuple[tuple[str, Any], ...]], Ruleset] = {}
_BY_GIVEN_SIZE = 1024


def load_ruleset(ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset `ruleset_id` with `options` (text or typed values) over its defaults. Remembered per
    (id, options as given), so the many calls with a state's own options do not resolve them again."""
    try:
        given: tuple[str, tuple[tuple[str, Any], ...]] | None = (ruleset_id, tuple(options.items()) if options
                                                                  else ())
        known = _BY_GIVEN.get(given)  # type: ignore[arg-type]
    except TypeError:  # an option value that cannot be a key: resolve it every time
        given, known = None, None
    if known is not None:
        return known
    spec = load_spec(ruleset_id)
    resolved = resolve_options(spec.option_specs, options or {})
    key = (ruleset_id, tuple(resolved.items()))
    # the same options however written give the same ruleset, even once `_cached` has let it go
    ruleset = _BY_GIVEN.get(key) or _cached(*key)
    for found in (key, given):
        if found is not None and len(_BY_GIVEN) < _BY_GIVEN_SIZE:
            _BY_GIVEN.setdefault(found, ruleset)
    return ruleset


@lru_cache(maxsize=64)
def _cached(ruleset_id: str, options: tuple[tuple[str, OptionValue], ...]) -> Ruleset:
    return Ruleset(load_spec(ruleset_id), dict(options))


@cache
def _board(board_id: str, units_id: str, setup: str | None = None, changes: tuple[str, ...] = ()) -> Board:
    """The board of a ruleset: its file, the chosen set-up, then the board changes files, in order."""
    units = load_units(data_file("units", units_id))
    board = load_board(data_file("boards", board_id), units, setup)
    for name in changes:
        board = apply_changes(board, data_file("board_changes", name), units)
    return board
