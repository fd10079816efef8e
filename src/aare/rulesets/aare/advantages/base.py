"""National advantages (NAs) as data: the `Advantage` record, its free-unit grants, the registry, and the
NA record kept in `state.extra["advantages"]`.

An NA declares what it changes through the same means as a rule module: `effects` (costs, unit values;
applied only while the NA is in force for the acting power), `hooks` (any core hook, called as
``fn(value, advantage=..., ruleset=..., **context)``), `free_units` (placed with `place_free`) and
`on_declare` (events at declaration, e.g. a cash grant). The rule module `aare_advantages` applies them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from aare.errors import UnknownName
from aare.events import ExtraSet
from aare.rules.effects import Effect
from aare.rules.options import OptionSpec
from aare.state.game_state import GameState

KEY = "advantages"
Timing = Literal["immediate", "mobilize", "per_turn", "one_off"]
TIMINGS: tuple[str, ...] = ("immediate", "mobilize", "per_turn", "one_off")


@dataclass(frozen=True)
class FreeUnits:
    """Units an NA places for free: `units` in one of `spaces` (land: held by the power when placed; sea:
    the territory `coast[sea]` held, when given; `original_owner`: also every territory that power owned at
    set-up, e.g. Russia's "Red territories"). `when`: in the Mobilize phase of the declaration turn
    ("mobilize") or in the phase of declaration itself ("declaration"); `every_turn`: in every Mobilize
    phase from the declaration on. `together`: all of them in one space. Factories come in idle. `on_carrier`:
    aircraft may also go to a listed sea zone, aboard the power's own carriers there with room to spare."""

    units: tuple[tuple[str, int], ...]
    spaces: tuple[str, ...]
    rule_id: str
    when: Literal["mobilize", "declaration"] = "mobilize"
    every_turn: bool = False
    together: bool = True
    coast: Mapping[str, str] = field(default_factory=dict)
    enemy_sea_ok: bool = False
    original_owner: str = ""
    on_carrier: bool = False


@dataclass(frozen=True)
class Advantage:
    """One national advantage: its id (``russian_winter``), nation, seed number and title, the ledger items it
    implements, when it works (`timing`: immediate, mobilize, per_turn, one_off) and what it changes."""

    id: str
    nation: str
    number: int
    title: str
    rule_ids: tuple[str, ...] = ()
    timing: Timing = "immediate"
    effects: tuple[Effect, ...] = ()
    hooks: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    free_units: tuple[FreeUnits, ...] = ()
    on_declare: Callable[..., None] | None = field(default=None, compare=False)
    options: tuple[OptionSpec, ...] = ()  # game options of readings players may choose differently

    def __post_init__(self) -> None:
        if self.timing not in TIMINGS:
            raise ValueError(f"advantage {self.id}: timing must be one of {TIMINGS}, not {self.timing!r}")


_REGISTRY: dict[str, Advantage] = {}


def register(*advantages: Advantage) -> tuple[Advantage, ...]:
    """Add NAs to the registry (each id once)."""
    for adv in advantages:
        if adv.id in _REGISTRY and _REGISTRY[adv.id] is not adv:
            raise ValueError(f"national advantage {adv.id} registered twice")
        _REGISTRY[adv.id] = adv
    return advantages


def all_advantages() -> dict[str, Advantage]:
    import aare.rulesets.aare.advantages  # noqa: F401  (registers every nation's NAs)

    return dict(_REGISTRY)


def advantage(adv_id: str) -> Advantage:
    """The NA `adv_id`; UnknownName lists the known ids."""
    found = all_advantages().get(adv_id)
    if found is None:
        raise UnknownName(f"unknown national advantage {adv_id!r} (known: {', '.join(sorted(_REGISTRY))})")
    return found


def advantages_of(nation: str) -> list[Advantage]:
    """A nation's list, in seed order."""
    return sorted((a for a in all_advantages().values() if a.nation == nation), key=lambda a: a.number)


# --- the record in state.extra["advantages"] ---------------------------------------------------------------
# {"declared": {power: [{"id", "round", "phase", "delayed"}]},
#  "owed": [{"power", "advantage", "grant", "units": {unit: n}, "phase", "round", "space"}],
#  "start_closed": {"round", "power"} or None}


def record(state: GameState) -> dict[str, Any]:
    raw = state.extra.get(KEY)
    base: dict[str, Any] = {"declared": {}, "owed": [], "start_closed": None}
    return {**base, **raw} if isinstance(raw, Mapping) else base


def record_event(state: GameState, rule_id: str, **changes: Any) -> ExtraSet:
    """The NA record with some entries replaced."""
    return ExtraSet(KEY, {**record(state), **changes}, rule_id)


def declarations(state: GameState, power: str) -> list[dict[str, Any]]:
    return list(record(state)["declared"].get(power, []))


def declared(state: GameState, power: str) -> list[str]:
    """The ids of the NAs `power` has declared, in order."""
    return [d["id"] for d in declarations(state, power)]


def in_force(state: GameState | None, power: str | None, adv_id: str) -> bool:
    """Whether `power` has declared `adv_id`. A delayed NA is declared in Mobilize, so everything it does
    starts there (AARE-NA-DEPLOY-delayed-effects); capital loss changes nothing
    (AARE-NA-DEPLOY-persist-after-capital-loss)."""
    if state is None or power is None:
        return False
    return adv_id in declared(state, power)


def holder(state: GameState | None, adv_id: str) -> str | None:
    """The power that has declared `adv_id`, if any."""
    if state is None:
        return None
    nation = advantage(adv_id).nation
    return nation if in_force(state, nation, adv_id) else None
