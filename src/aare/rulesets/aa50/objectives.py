"""National objectives (module `aa50_objectives`): bonus IPCs of every power but China, paid at its collect income
for each objective met at that moment (AA50-NO-general), each logged with its title.

The objectives are data (`data/objectives/<board>.toml`): territories the side must hold (all or a number of
them), sea zones free of enemy surface warships, no units of other allied powers in the power's territories.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aare.board.board import Board
from aare.errors import DataFileError, UnknownName
from aare.rules.bonuses import IncomeBonus
from aare.rules.options import OptionSpec
from aare.rules.registry import data_file
from aare.rules.rule_module import RuleModule, register_module
from aare.state.game_state import GameState

KIND = "objectives"
OPTION = "national_objectives"
OWN_CONTROL = "objectives_own_control"
NOT_WARSHIPS = ("submarine", "transport")  # tags of the ships that do not spoil a clear sea


@dataclass(frozen=True)
class Objective:
    """One national objective: `value` IPCs for `power` when every condition holds (see the data file)."""

    id: str
    power: str
    title: str
    value: int
    held: tuple[str, ...]
    need: int
    own_control: bool = False
    no_enemy_surface_ships: tuple[str, ...] = ()
    no_allied_units: bool = False

    def text(self, board: Board) -> str:
        """The conditions in words, for players."""
        side = board.side_of(self.power)
        count = "all" if self.need == len(self.held) else f"{self.need} of"
        parts = [f"the {side} control {count} {', '.join(self.held)}"]
        if self.no_enemy_surface_ships:
            parts.append(f"no enemy surface warship in {', '.join(self.no_enemy_surface_ships)}")
        if self.no_allied_units:
            parts.append(f"no unit of another {side} power in a territory {self.power} controls")
        return "; ".join(parts)


def load_objectives(path: Path, board: Board) -> tuple[Objective, ...]:
    """The objectives of a data file, names checked against `board`; DataFileError names the entry at fault."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(str(path), "file", str(exc)) from None
    found = []
    for index, entry in enumerate(raw.get("objective", [])):
        key = f"objective[{index}]"
        try:
            held = tuple(board.resolve(t) for t in entry["held"])
            seas = tuple(board.resolve(s) for s in entry.get("no_enemy_surface_ships", ()))
            found.append(Objective(
                id=str(entry["id"]), power=board.resolve_power(entry["power"]), title=str(entry["title"]),
                value=int(entry["value"]), held=held, need=int(entry.get("need", len(held))),
                own_control=bool(entry.get("own_control", False)), no_enemy_surface_ships=seas,
                no_allied_units=bool(entry.get("no_allied_units", False)),
            ))
        except KeyError as exc:
            raise DataFileError(str(path), key, f"missing {exc}") from None
        except UnknownName as exc:
            raise DataFileError(str(path), key, str(exc)) from None
        if not 0 < found[-1].need <= len(held):
            raise DataFileError(str(path), key, f"need must be 1 to {len(held)}")
    return tuple(found)


_TABLES: dict[str, tuple[Objective, ...]] = {}


def objectives(ruleset: Any) -> tuple[Objective, ...]:
    """The objectives of the ruleset's board (none when its family ships no objectives file for it)."""
    board = ruleset.board
    if board.id not in _TABLES:
        try:
            path = data_file(KIND, board.id)
        except UnknownName:
            _TABLES[board.id] = ()
        else:
            _TABLES[board.id] = load_objectives(path, board)
    return _TABLES[board.id]


def _controls(owner: str | None, objective: Objective, board: Board, own_only: bool) -> bool:
    if owner is None:
        return False
    if own_only and objective.own_control:
        return owner == objective.power
    return board.side_of(owner) == board.side_of(objective.power)


def is_met(objective: Objective, state: GameState, ruleset: Any) -> bool:
    """Whether every condition of `objective` holds in `state`."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(objective.power)
    own_only = bool(ruleset.options.get(OWN_CONTROL, False))
    held = sum(_controls(state.owners.get(t), objective, board, own_only) for t in objective.held)
    if held < objective.need:
        return False
    for sea in objective.no_enemy_surface_ships:
        for stack in state.stacks(sea):
            kind = units[stack.unit]
            if board.side_of(stack.owner) != side and kind.domain == "sea" and not any(map(kind.has, NOT_WARSHIPS)):
                return False
    if objective.no_allied_units:
        mine = [t for t, owner in state.owners.items() if owner == objective.power]
        for territory in mine:
            if any(s.owner != objective.power and board.side_of(s.owner) == side for s in state.stacks(territory)):
                return False
    return True


def objectives_met(state: GameState, ruleset: Any, power: str) -> list[Objective]:
    """The objectives `power` would be paid for now: none with the option off or while its capital is in enemy
    hands (AA50-NO-capital-required)."""
    if not ruleset.options.get(OPTION, True) or not ruleset.board.holds_capital(power, state.owners):
        return []
    return [o for o in objectives(ruleset) if o.power == power and is_met(o, state, ruleset)]


def _income_bonuses(
    found: list[IncomeBonus], ruleset: Any, power: str, state: GameState, **_: Any
) -> list[IncomeBonus]:
    """One bonus per objective met at collect income, titled for the log."""
    met = objectives_met(state, ruleset, power)
    return [*found, *(IncomeBonus(o.value, f'national objective "{o.title}"', o.id) for o in met)]


def _titles(found: Mapping[str, Any], ruleset: Any, **_: Any) -> dict[str, Any]:
    """Every national objective with its power, value and conditions, for surfaces to list."""
    if not ruleset.options.get(OPTION, True):
        return dict(found)
    records = {
        o.id: {"title": o.title, "number": n, "timing": "collect income", "power": o.power, "value": o.value,
               "text": o.text(ruleset.board)}
        for n, o in enumerate(objectives(ruleset), 1)
    }
    return {**found, "objective": {**found.get("objective", {}), **records}}


MODULE = register_module(
    RuleModule(
        id="aa50_objectives",
        title="National objectives",
        rule_ids=(
            "AA50-NO-general", "AA50-NO-capital-required", "AA50-NO-same-both-scenarios", "AA50-NO-china-none",
            "AA50-NO-start-status", "AA50-OPTIONS-national-objectives",
            "AA50-NO-ger-western-europe", "AA50-NO-ger-eastern-front", "AA50-NO-ger-karelia-caucasus",
            "AA50-NO-rus-archangel", "AA50-NO-rus-eastern-europe",
            "AA50-NO-jpn-china-coast", "AA50-NO-jpn-pacific-islands", "AA50-NO-jpn-far-targets",
            "AA50-NO-uk-japanese-territory", "AA50-NO-uk-empire", "AA50-NO-uk-france-balkans",
            "AA50-NO-ita-north-africa-west", "AA50-NO-ita-mare-nostrum",
            "AA50-NO-us-france", "AA50-NO-us-philippines", "AA50-NO-us-homeland", "AA50-NO-us-pacific-islands",
        ),
        hooks={"income_bonuses": _income_bonuses, "titles": _titles},
        options=(
            OptionSpec(
                key=OPTION,
                type=bool,
                default=True,
                help="national objectives pay their bonus IPCs at collect income (off: territory income only)",
                rule_id="AA50-OPTIONS-national-objectives",
            ),
            OptionSpec(
                key=OWN_CONTROL,
                type=bool,
                default=False,
                help="the Soviet objectives count only territories the Soviet Union itself controls (default: "
                "any Allied power, as the TripleA encoding scores them)",
                rule_id="AA50-NO-rus-eastern-europe",
            ),
        ),
    )
)
